// src/gpu/fixed_base.cu — batched fixed-base scalar multiplication on the device
// (include/proofline/gpu/fixed_base.hpp says what and how).
#include <cuda_runtime.h>

#include <array>
#include <cstring>
#include <stdexcept>

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

template <class Cfg>
std::vector<ec::AffinePoint<Cfg>> run(const groth16::FixedBaseTable<Cfg>& table, std::span<const ff::Fr> scalars,
                                      int device) {
  using F = typename msm_detail::DevFieldOf<Cfg>::type;
  using DA = DevAffine<F>;
  using DX = DevXyzz<F>;
  using HostXyzz = ec::XyzzPoint<Cfg>;
  using Field = typename Cfg::Field;
  static_assert(sizeof(HostXyzz) == sizeof(DX), "device XYZZ mirrors the host XyzzPoint");
  static_assert(sizeof(Field) == sizeof(F), "device field mirrors the host field");

  std::vector<ec::AffinePoint<Cfg>> out(scalars.size());
  if (scalars.empty()) return out;
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
  DeviceBuffer d_table(packed.size() * sizeof(DA), "fixed-base table");
  CUDA_CHECK(cudaMemcpy(d_table.get(), packed.data(), packed.size() * sizeof(DA), cudaMemcpyHostToDevice));

  const size_t chunk = std::min<size_t>(scalars.size(), size_t{1} << 22);
  DeviceBuffer d_scalars(chunk * 32, "fixed-base scalars"), d_out(chunk * sizeof(DX), "fixed-base results");
  PinnedMem h_scalars(chunk * 32), h_out(chunk * sizeof(DX));
  auto* hs = static_cast<std::array<uint64_t, 4>*>(h_scalars.p);
  const auto* hx = static_cast<const HostXyzz*>(h_out.p);
  for (size_t base = 0; base < scalars.size(); base += chunk) {
    const size_t m = std::min(chunk, scalars.size() - base);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, m, 1 << 14), [&](const auto& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) {
        const auto c = scalars[base + i].to_canonical();
        for (int k = 0; k < 4; ++k) hs[i][k] = c[k];
      }
    });
    CUDA_CHECK(cudaMemcpy(d_scalars.get(), hs, m * 32, cudaMemcpyHostToDevice));
    fixed_base_kernel<F><<<static_cast<unsigned>((m + kThreads - 1) / kThreads), kThreads>>>(
        d_out.as<DX>(), d_table.as<const DA>(), d_scalars.as<const uint64_t>(),
        static_cast<uint32_t>(m), table.window_bits(), table.windows());
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_out.p, d_out.get(), m * sizeof(DX), cudaMemcpyDeviceToHost));
    tbb::parallel_for(tbb::blocked_range<size_t>(0, m, 4096), [&](const auto& r) {
      std::vector<Field> scratch(r.size());
      ec::batch_to_affine(std::span<const HostXyzz>(hx + r.begin(), r.size()),
                          std::span<ec::AffinePoint<Cfg>>(out.data() + base + r.begin(), r.size()),
                          std::span<Field>(scratch));
    });
  }
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
  opts.g1_batch = [device](const groth16::FixedBaseTable<ec::G1Config>& t, std::span<const ff::Fr> ks) {
    return fixed_base_mul_batch(t, ks, device);
  };
  opts.g2_batch = [device](const groth16::FixedBaseTable<ec::G2Config>& t, std::span<const ff::Fr> ks) {
    return fixed_base_mul_batch(t, ks, device);
  };
}

}  // namespace proofline::gpu
