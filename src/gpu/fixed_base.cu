// src/gpu/fixed_base.cu — batched fixed-base scalar multiplication on the device
// (include/proofline/gpu/fixed_base.hpp says what and how).
#include <cuda_runtime.h>

#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "device_buffer.cuh"
#include "ec.cuh"
#include "msm.cuh"  // msm_detail::DevFieldOf: the device field of a curve
#include "proofline/ec/curve.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/fixed_base.hpp"

namespace proofline::gpu {
namespace {

constexpr unsigned kThreads = 128;

/// out[i] = Σ_k table[k·per + d_k − 1] over the non-zero w-bit digits d_k of scalar i
/// (4 little-endian 64-bit limbs, canonical, < 2^255).
template <class F>
__global__ void fixed_base_kernel(DevXyzz<F>* __restrict__ out, const DevAffine<F>* __restrict__ table,
                                  const uint64_t* __restrict__ scalars, uint32_t n, unsigned w, unsigned windows) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t l[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) l[k] = scalars[4 * (size_t)i + k];
  const size_t per = (size_t{1} << w) - 1;
  const uint64_t mask = (uint64_t{1} << w) - 1;
  DevXyzz<F> acc = DevXyzz<F>::identity();
  for (unsigned k = 0; k < windows; ++k) {
    const unsigned lo = k * w, limb = lo / 64, sh = lo % 64;
    uint64_t v = l[limb] >> sh;
    if (sh + w > 64 && limb + 1 < 4) v |= l[limb + 1] << (64 - sh);
    const unsigned d = static_cast<unsigned>(v & mask);
    if (d != 0) acc += table[k * per + d - 1];
  }
  out[i] = acc;
}

/// Owns a pinned host allocation.
struct PinnedMem {
  void* p = nullptr;
  explicit PinnedMem(size_t bytes) { CUDA_CHECK(cudaMallocHost(&p, bytes)); }
  ~PinnedMem() { cudaFreeHost(p); }
  PinnedMem(const PinnedMem&) = delete;
  PinnedMem& operator=(const PinnedMem&) = delete;
};

constexpr size_t kChunk = size_t{1} << 22;

}  // namespace

template <class Cfg>
struct FixedBaseMultiplier<Cfg>::State {
  using F = typename msm_detail::DevFieldOf<Cfg>::type;
  using DA = DevAffine<F>;
  using DX = DevXyzz<F>;
  int device;
  unsigned w, windows;
  DeviceBuffer table;
  // Chunk buffers, grown on demand up to kChunk scalars (a small setup allocates little).
  size_t cap = 0;
  DeviceBuffer scalars{"fixed-base scalars"}, out{"fixed-base results"};
  std::unique_ptr<PinnedMem> h_scalars, h_out;
  State(int dev, unsigned w_, unsigned windows_, size_t table_bytes)
      : device(dev), w(w_), windows(windows_), table(table_bytes, "fixed-base table") {}
  /// Room for min(n, kChunk) scalars; returns the chunk size.
  size_t reserve(size_t n) {
    const size_t want = std::min(n, kChunk);
    if (want > cap) {
      h_scalars.reset();
      h_out.reset();
      scalars.ensure(want * 32);
      out.ensure(want * sizeof(DX));
      h_scalars = std::make_unique<PinnedMem>(want * 32);
      h_out = std::make_unique<PinnedMem>(want * sizeof(DX));
      cap = want;
    }
    return cap;
  }
};

template <class Cfg>
FixedBaseMultiplier<Cfg>::FixedBaseMultiplier(const groth16::FixedBaseTable<Cfg>& table, int device) {
  using St = State;
  using F = typename msm_detail::DevFieldOf<Cfg>::type;
  using DA = DevAffine<F>;
  static_assert(sizeof(typename Cfg::Field) == sizeof(F), "device field mirrors the host field");
  CUDA_CHECK(cudaSetDevice(device));
  // Table → packed {x, y}. Entries are never the identity (FixedBaseTable::table()).
  const auto tab = table.table();
  std::vector<DA> packed(tab.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, tab.size(), 1 << 14), [&](const auto& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) {
      std::memcpy(&packed[i].x, &tab[i].x, sizeof(F));
      std::memcpy(&packed[i].y, &tab[i].y, sizeof(F));
    }
  });
  s_ = std::make_unique<St>(device, table.window_bits(), table.windows(), packed.size() * sizeof(DA));
  CUDA_CHECK(cudaMemcpy(s_->table.get(), packed.data(), packed.size() * sizeof(DA), cudaMemcpyHostToDevice));
}

template <class Cfg>
FixedBaseMultiplier<Cfg>::~FixedBaseMultiplier() = default;

template <class Cfg>
void FixedBaseMultiplier<Cfg>::mul(std::span<const ff::Fr> scalars, std::span<ec::AffinePoint<Cfg>> out) {
  // The device types by their own names (nvcc's host stub cannot name the private State's typedefs).
  using F = typename msm_detail::DevFieldOf<Cfg>::type;
  using DA = DevAffine<F>;
  using DX = DevXyzz<F>;
  using HostXyzz = ec::XyzzPoint<Cfg>;
  using Field = typename Cfg::Field;
  static_assert(sizeof(HostXyzz) == sizeof(DX), "device XYZZ mirrors the host XyzzPoint");
  if (out.size() != scalars.size()) {
    throw std::invalid_argument("gpu::FixedBaseMultiplier::mul: " + std::to_string(out.size()) + " outputs for " +
                                std::to_string(scalars.size()) + " scalars");
  }
  if (scalars.empty()) return;
  State& st = *s_;
  CUDA_CHECK(cudaSetDevice(st.device));
  const size_t chunk = st.reserve(scalars.size());
  auto* hs = static_cast<std::array<uint64_t, 4>*>(st.h_scalars->p);
  const auto* hx = static_cast<const HostXyzz*>(st.h_out->p);
  for (size_t base = 0; base < scalars.size(); base += chunk) {
    const size_t m = std::min(chunk, scalars.size() - base);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, m, 1 << 14), [&](const auto& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) {
        const auto c = scalars[base + i].to_canonical();
        for (int k = 0; k < 4; ++k) hs[i][k] = c[k];
      }
    });
    CUDA_CHECK(cudaMemcpy(st.scalars.get(), hs, m * 32, cudaMemcpyHostToDevice));
    fixed_base_kernel<F><<<static_cast<unsigned>((m + kThreads - 1) / kThreads), kThreads>>>(
        st.out.template as<DX>(), st.table.template as<const DA>(), st.scalars.template as<const uint64_t>(),
        static_cast<uint32_t>(m), st.w, st.windows);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(st.h_out->p, st.out.get(), m * sizeof(DX), cudaMemcpyDeviceToHost));
    tbb::parallel_for(tbb::blocked_range<size_t>(0, m, 4096), [&](const auto& r) {
      std::vector<Field> scratch(r.size());
      ec::batch_to_affine(std::span<const HostXyzz>(hx + r.begin(), r.size()),
                          std::span<ec::AffinePoint<Cfg>>(out.data() + base + r.begin(), r.size()),
                          std::span<Field>(scratch));
    });
  }
}

template class FixedBaseMultiplier<ec::G1Config>;
template class FixedBaseMultiplier<ec::G2Config>;

namespace {
template <class Cfg>
std::vector<ec::AffinePoint<Cfg>> run(const groth16::FixedBaseTable<Cfg>& table, std::span<const ff::Fr> scalars,
                                      int device) {
  std::vector<ec::AffinePoint<Cfg>> out(scalars.size());
  if (scalars.empty()) return out;
  FixedBaseMultiplier<Cfg> mul(table, device);
  mul.mul(scalars, out);
  return out;
}
}  // namespace

std::vector<ec::G1Affine> fixed_base_mul_batch(const groth16::FixedBaseTable<ec::G1Config>& table,
                                               std::span<const ff::Fr> scalars, int device) {
  return run(table, scalars, device);
}

std::vector<ec::G2Affine> fixed_base_mul_batch(const groth16::FixedBaseTable<ec::G2Config>& table,
                                               std::span<const ff::Fr> scalars, int device) {
  return run(table, scalars, device);
}

void use_gpu_for_setup(groth16::SetupOptions& opts, int device) {
  opts.g1_batch = [device](const groth16::FixedBaseTable<ec::G1Config>& t) {
    auto m = std::make_shared<FixedBaseMultiplier<ec::G1Config>>(t, device);
    return groth16::FixedBaseMulFn<ec::G1Config>(
        [m](std::span<const ff::Fr> ks, std::span<ec::G1Affine> out) { m->mul(ks, out); });
  };
  opts.g2_batch = [device](const groth16::FixedBaseTable<ec::G2Config>& t) {
    auto m = std::make_shared<FixedBaseMultiplier<ec::G2Config>>(t, device);
    return groth16::FixedBaseMulFn<ec::G2Config>(
        [m](std::span<const ff::Fr> ks, std::span<ec::G2Affine> out) { m->mul(ks, out); });
  };
}

}  // namespace proofline::gpu
