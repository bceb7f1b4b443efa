// src/gpu/msm.cuh — kernels and host orchestration of the GPU MSM (proofline/gpu/msm.hpp says
// what it computes and the algorithm in five steps; this file is the how).
//
// Included by msm_g1.cu and msm_g2.cu only (one curve per translation unit, so each compiles its
// kernels once and the two build in parallel).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <string>
#include <vector>

#include "ec.cuh"
#include "proofline/ec/curve.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/msm.hpp"

namespace proofline::gpu {
namespace msm_detail {

template <class Cfg>
struct DevFieldOf;
template <>
struct DevFieldOf<ec::G1Config> {
  using type = DevFp;
};
template <>
struct DevFieldOf<ec::G2Config> {
  using type = DevFp2;
};

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kIndexMask = 0x7fffffffu;
/// Values per window left for the host after the device reduction levels.
constexpr uint32_t kHostReduceMax = 64;
/// Segment length of one device reduction level (a power of two).
constexpr uint32_t kReduceSeg = 16;
constexpr int kLgReduceSeg = 4;

// ---- 1. digits ----------------------------------------------------------------------------------
// Montgomery → canonical (multiply by the plain integer 1), sign trick (s > (r−1)/2 → r − s with
// the point negated, so s < 2^254), then the stateless Booth digits
//   d_w = v_w + b[cw − 1] − 2^c·b[cw + c − 1],  v_w = bits [cw, cw + c) of s,
// each in [−2^(c−1), 2^(c−1)], Σ_w d_w·2^(cw) = s as long as cW >= 255.
// Output per window w: keys[w·n + i] = |d_w|, vals[w·n + i] = i | sign << 31.
static __global__ void digits_kernel(uint32_t* __restrict__ keys, uint32_t* __restrict__ vals,
                              const DevFr* __restrict__ scalars, uint32_t n, int c, int windows) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DevFr raw_one = DevFr::zero();
  raw_one.v[0] = 1;
  DevFr s = scalars[i] * raw_one;
  // (r − 1)/2, little-endian 32-bit words
  constexpr uint32_t half[8] = {0x80000000, 0x7fffffff, 0x7fff2dff, 0xa9ded201,
                                0x04d0ec02, 0x199cec04, 0x94cebea4, 0x39f6d3a9};
  bool gt = false, decided = false;
#pragma unroll
  for (int k = 7; k >= 0; --k) {
    if (!decided && s.v[k] != half[k]) {
      gt = s.v[k] > half[k];
      decided = true;
    }
  }
  uint32_t l[9];
  if (gt) {
    // r − s
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(l[0]) : "r"(FrParams32::mod(0)), "r"(s.v[0]));
#pragma unroll
    for (int k = 1; k < 8; ++k) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(l[k]) : "r"(FrParams32::mod(k)), "r"(s.v[k]));
  } else {
#pragma unroll
    for (int k = 0; k < 8; ++k) l[k] = s.v[k];
  }
  l[8] = 0;
  const uint32_t neg = gt ? kSignBit : 0u;
  const uint32_t mask = (1u << c) - 1;
  uint32_t carry = 0;  // bit cw − 1
  for (int w = 0; w < windows; ++w) {
    const int p = c * w;
    const int k = p >> 5, sh = p & 31;
    const uint64_t pair = (uint64_t)l[k] | ((uint64_t)(k + 1 < 9 ? l[k + 1] : 0) << 32);
    const uint32_t v = (uint32_t)(pair >> sh) & mask;
    const uint32_t top = v >> (c - 1);
    const int d = (int)v + (int)carry - (int)(top << c);
    carry = top;
    const uint32_t mag = d < 0 ? (uint32_t)(-d) : (uint32_t)d;
    const uint32_t sign = (d < 0 ? kSignBit : 0u) ^ neg;
    keys[(size_t)w * n + i] = mag;
    vals[(size_t)w * n + i] = i | (mag ? sign : 0u);
  }
}

// ---- 2. bucket boundaries of one sorted window ---------------------------------------------------
// start[k], end[k]: the range of key k in the sorted keys (both 0 for an absent key; key 0 is
// "no bucket" and ignored).
static __global__ void bucket_bounds_kernel(uint32_t* __restrict__ start, uint32_t* __restrict__ end,
                                     const uint32_t* __restrict__ keys, uint32_t n) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const uint32_t k = keys[j];
  if (k == 0) return;
  if (j == 0 || keys[j - 1] != k) start[k] = j;
  if (j == n - 1 || keys[j + 1] != k) end[k] = j + 1;
}

// ---- 3. accumulation ----------------------------------------------------------------------------
// Thread t owns sorted entries [tL, min(tL + L, n)). A bucket run wholly inside writes the bucket
// (index key − 1); the run that began before tL goes to head[t], a run that began inside and
// continues past the range goes to tail[t]; combine_kernel adds those.
template <class F>
__global__ void __launch_bounds__(128) accumulate_kernel(
    DevXyzz<F>* __restrict__ buckets, DevXyzz<F>* __restrict__ head, DevXyzz<F>* __restrict__ tail,
    const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals, const uint32_t* __restrict__ start,
    const uint32_t* __restrict__ end, const DevAffine<F>* __restrict__ bases, uint32_t n, uint32_t L) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t lo64 = (uint64_t)t * L;
  if (lo64 >= n) return;
  const uint32_t lo = (uint32_t)lo64;
  const uint32_t hi = lo64 + L < n ? (uint32_t)(lo64 + L) : n;
  uint32_t cur = 0;
  DevXyzz<F> acc = DevXyzz<F>::identity();
  auto flush = [&](uint32_t b) {
    const uint32_t s = start[b], e = end[b];
    if (s < lo)
      head[t] = acc;
    else if (e > hi)
      tail[t] = acc;
    else
      buckets[b - 1] = acc;
  };
  for (uint32_t j = lo; j < hi; ++j) {
    const uint32_t k = keys[j];
    if (k == 0) continue;
    const uint32_t v = vals[j];
    DevAffine<F> p = bases[v & kIndexMask];
    if (v & kSignBit) p.y = -p.y;
    if (k != cur) {
      if (cur) flush(cur);
      cur = k;
      acc = DevXyzz<F>::identity();
    }
    acc += p;
  }
  if (cur) flush(cur);
}

/// One thread per bucket b = 1..nb: empty → identity; cut by thread ranges → tail[first thread]
/// + head[every later thread of the run].
template <class F>
__global__ void __launch_bounds__(128) combine_kernel(DevXyzz<F>* __restrict__ buckets,
                                                      const DevXyzz<F>* __restrict__ head,
                                                      const DevXyzz<F>* __restrict__ tail,
                                                      const uint32_t* __restrict__ start,
                                                      const uint32_t* __restrict__ end, uint32_t nb,
                                                      uint32_t L) {
  const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (b > nb) return;
  const uint32_t s = start[b], e = end[b];
  if (s == e) {
    buckets[b - 1] = DevXyzz<F>::identity();
    return;
  }
  const uint32_t ts = s / L, te = (e - 1) / L;
  if (ts == te) return;
  DevXyzz<F> acc = tail[ts];
  for (uint32_t t = ts + 1; t <= te; ++t) acc += head[t];
  buckets[b - 1] = acc;
}

// ---- 4. bucket reduction, one level ---------------------------------------------------------------
// Per window, the value Σ_j p_j + Σ_j j·q_j over m entries (level 0: p = q = buckets with weights
// j + 1 for bucket index j, i.e. Σ b_j + Σ j·b_j). Segment k of length L (j = kL + i):
//   Σ_i i·q_{kL+i} = T_k (running sums from the top), Σ_i q_{kL+i} = R_k,
//   Σ_j j·q_j = Σ_k T_k + Σ_k k·(L·R_k),
// so the next level has p'_k = Σ_i p_{kL+i} + T_k and q'_k = L·R_k (lg L doublings), m/L entries.
template <class F, bool kFirst>
__global__ void __launch_bounds__(128) reduce_level_kernel(DevXyzz<F>* __restrict__ p_out,
                                                           DevXyzz<F>* __restrict__ q_out,
                                                           const DevXyzz<F>* __restrict__ p_in,
                                                           const DevXyzz<F>* __restrict__ q_in, uint32_t m,
                                                           uint32_t total_out) {
  const uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= total_out) return;
  const uint32_t per = m / kReduceSeg;
  const uint32_t w = g / per, k = g % per;
  const size_t base = (size_t)w * m + (size_t)k * kReduceSeg;
  DevXyzz<F> run = DevXyzz<F>::identity(), tsum = DevXyzz<F>::identity();
  for (int i = kReduceSeg - 1; i >= 1; --i) {
    run += q_in[base + i];
    tsum += run;
  }
  run += q_in[base];
  if constexpr (kFirst) {
    tsum += run;
  } else {
    for (int i = 0; i < (int)kReduceSeg; ++i) tsum += p_in[base + i];
  }
  p_out[g] = tsum;
#pragma unroll 1
  for (int d = 0; d < kLgReduceSeg; ++d) run = run.dbl();
  q_out[g] = run;
}

// ---- upload conversion --------------------------------------------------------------------------
// Host ec::AffinePoint (x, y, bool infinity, padding; `stride` bytes) → packed DevAffine.
template <class F>
__global__ void convert_affine_kernel(DevAffine<F>* __restrict__ out, const unsigned char* __restrict__ in,
                                      size_t n, size_t stride, size_t off_x, size_t off_y, size_t off_inf) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned char* p = in + i * stride;
  DevAffine<F> a;
  const uint32_t* px = reinterpret_cast<const uint32_t*>(p + off_x);
  const uint32_t* py = reinterpret_cast<const uint32_t*>(p + off_y);
  uint32_t* ax = reinterpret_cast<uint32_t*>(&a.x);
  uint32_t* ay = reinterpret_cast<uint32_t*>(&a.y);
#pragma unroll
  for (int k = 0; k < (int)(sizeof(F) / 4); ++k) {
    ax[k] = px[k];
    ay[k] = py[k];
  }
  if (p[off_inf]) a = DevAffine<F>::identity();
  out[i] = a;
}

// ---- device buffers ------------------------------------------------------------------------------
/// cudaMalloc that reports out-of-memory as a recoverable CudaError (the error state is cleared).
inline void* dev_alloc(size_t bytes, const char* what) {
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw CudaError(static_cast<int>(e),
                    "cudaMalloc(" + std::to_string(bytes) + " bytes for GPU MSM " + what + ")", __FILE__,
                    __LINE__);
  }
  return p;
}

struct DevBuf {
  void* ptr = nullptr;
  size_t bytes = 0;
  const char* what = "scratch";
  void ensure(size_t need) {
    if (need <= bytes) return;
    release();
    ptr = dev_alloc(need, what);
    bytes = need;
  }
  void release() {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
    bytes = 0;
  }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr);
  }
};

inline void check_launch() { CUDA_CHECK(cudaGetLastError()); }

inline int sm_count() {
  static int count = [] {
    int dev = 0, c = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&c, cudaDevAttrMultiProcessorCount, dev));
    return c;
  }();
  return count;
}

}  // namespace msm_detail

// ==================================================================================================
// GpuMsm<Cfg>::Impl
// ==================================================================================================
template <class Cfg>
struct GpuMsm<Cfg>::Impl {
  using F = typename msm_detail::DevFieldOf<Cfg>::type;
  using DA = DevAffine<F>;
  using DX = DevXyzz<F>;
  using HostXyzz = ec::XyzzPoint<Cfg>;
  static_assert(sizeof(HostXyzz) == sizeof(DX), "device XYZZ mirrors the host XyzzPoint");
  static_assert(sizeof(typename Cfg::Field) == sizeof(F), "device field mirrors the host field");
  static_assert(sizeof(ff::Fr) == sizeof(DevFr), "device Fr mirrors the host Fr");

  cudaStream_t stream = nullptr;
  msm_detail::DevBuf bases_owned{nullptr, 0, "bases"};
  const DA* bases = nullptr;
  size_t nbases = 0;
  msm_detail::DevBuf scalars{nullptr, 0, "scalars"}, keys{nullptr, 0, "digit keys"},
      vals{nullptr, 0, "digit values"}, keys_alt{nullptr, 0, "sorted keys"}, vals_alt{nullptr, 0, "sorted values"},
      bstart{nullptr, 0, "bucket offsets"}, bend{nullptr, 0, "bucket offsets"}, buckets{nullptr, 0, "buckets"},
      head{nullptr, 0, "partial sums"}, tail{nullptr, 0, "partial sums"}, red_p[2], red_q[2],
      cub_temp{nullptr, 0, "sort temp"}, staging{nullptr, 0, "upload staging"};

  Impl() {
    for (auto* b : {&red_p[0], &red_p[1], &red_q[0], &red_q[1]}) b->what = "reduction";
  }
  ~Impl() {
    release_scratch();
    bases_owned.release();
    staging.release();
    if (stream) cudaStreamDestroy(stream);
  }
  void release_scratch() {
    for (auto* b : {&scalars, &keys, &vals, &keys_alt, &vals_alt, &bstart, &bend, &buckets, &head, &tail,
                    &red_p[0], &red_p[1], &red_q[0], &red_q[1], &cub_temp})
      b->release();
  }
  size_t device_bytes() const {
    size_t s = 0;
    for (auto* b : {&bases_owned, &scalars, &keys, &vals, &keys_alt, &vals_alt, &bstart, &bend, &buckets, &head,
                    &tail, &red_p[0], &red_p[1], &red_q[0], &red_q[1], &cub_temp, &staging})
      s += b->bytes;
    return s;
  }
  void ensure_stream() {
    if (!stream) CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  }

  void upload_bases(const Affine* host, size_t n, size_t dst_offset) {
    using namespace msm_detail;
    constexpr size_t kChunk = size_t{1} << 20;
    staging.ensure(std::min(n, kChunk) * sizeof(Affine));
    for (size_t done = 0; done < n; done += kChunk) {
      const size_t m = std::min(kChunk, n - done);
      CUDA_CHECK(cudaMemcpyAsync(staging.ptr, host + done, m * sizeof(Affine), cudaMemcpyHostToDevice, stream));
      convert_affine_kernel<F><<<(unsigned)((m + 255) / 256), 256, 0, stream>>>(
          bases_owned.as<DA>() + dst_offset + done, staging.as<unsigned char>(), m, sizeof(Affine),
          offsetof(Affine, x), offsetof(Affine, y), offsetof(Affine, infinity));
      check_launch();
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    staging.release();
  }

  void set_bases(std::span<const Affine> b) {
    ensure_stream();
    bases = nullptr;
    nbases = 0;
    if (b.empty()) return;
    bases_owned.ensure(b.size() * sizeof(DA));
    upload_bases(b.data(), b.size(), 0);
    bases = bases_owned.as<DA>();
    nbases = b.size();
  }

  void set_bases_repeating(std::span<const Affine> distinct, size_t n) {
    if (distinct.empty()) throw std::invalid_argument("GpuMsm::set_bases_repeating: no distinct bases");
    ensure_stream();
    bases = nullptr;
    nbases = 0;
    if (n == 0) return;
    bases_owned.ensure(n * sizeof(DA));
    const size_t k = std::min(distinct.size(), n);
    upload_bases(distinct.data(), k, 0);
    DA* d = bases_owned.as<DA>();
    for (size_t have = k; have < n;) {
      const size_t m = std::min(have, n - have);
      CUDA_CHECK(cudaMemcpyAsync(d + have, d, m * sizeof(DA), cudaMemcpyDeviceToDevice, stream));
      have += m;
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    bases = d;
    nbases = n;
  }

  Projective run(const DevFr* d_scalars, size_t n, size_t offset, const GpuMsmConfig& cfg) {
    using namespace msm_detail;
    if (offset > nbases || n > nbases - offset)
      throw std::invalid_argument("GpuMsm::run: " + std::to_string(n) + " scalars at offset " +
                                  std::to_string(offset) + " but only " + std::to_string(nbases) +
                                  " bases are resident");
    if (n == 0) return Projective::identity();
    if (n > kIndexMask)
      throw std::invalid_argument("GpuMsm::run: n = " + std::to_string(n) + " exceeds 2^31 - 1");
    int c = cfg.window_bits ? cfg.window_bits : gpu_msm_window_bits(n);
    if (c < 2 || c > 24)
      throw std::invalid_argument("GpuMsm::run: window_bits " + std::to_string(c) + " outside [2, 24]");
    ensure_stream();
    const int W = (255 + c - 1) / c;
    const uint32_t nb = 1u << (c - 1);
    const uint32_t n32 = (uint32_t)n;
    const DA* d_bases = bases + offset;

    // entries per accumulation thread: enough threads to fill the device, 4..64 per thread
    const size_t fill = (size_t)sm_count() * 256;
    const uint32_t L = (uint32_t)std::clamp<size_t>(n / fill, 4, 64);
    const uint32_t nthreads = (n32 + L - 1) / L;

    keys.ensure((size_t)W * n * 4);
    vals.ensure((size_t)W * n * 4);
    keys_alt.ensure(n * 4);
    vals_alt.ensure(n * 4);
    bstart.ensure((size_t)(nb + 1) * 4);
    bend.ensure((size_t)(nb + 1) * 4);
    buckets.ensure((size_t)W * nb * sizeof(DX));
    head.ensure((size_t)nthreads * sizeof(DX));
    tail.ensure((size_t)nthreads * sizeof(DX));
    if (nb > kHostReduceMax) {
      const size_t lvl = (size_t)W * (nb / kReduceSeg) * sizeof(DX);
      red_p[0].ensure(lvl);
      red_q[0].ensure(lvl);
      if (nb / kReduceSeg > kHostReduceMax) {
        red_p[1].ensure(lvl / kReduceSeg);
        red_q[1].ensure(lvl / kReduceSeg);
      }
    }
    size_t temp_bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.as<uint32_t>(), keys_alt.as<uint32_t>(),
                                               vals.as<uint32_t>(), vals_alt.as<uint32_t>(), n32, 0, c, stream));
    cub_temp.ensure(std::max<size_t>(temp_bytes, 1));

    digits_kernel<<<(n32 + 255) / 256, 256, 0, stream>>>(keys.as<uint32_t>(), vals.as<uint32_t>(), d_scalars, n32,
                                                        c, W);
    check_launch();

    for (int w = 0; w < W; ++w) {
      size_t tb = cub_temp.bytes;
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_temp.ptr, tb, keys.as<uint32_t>() + (size_t)w * n,
                                                 keys_alt.as<uint32_t>(), vals.as<uint32_t>() + (size_t)w * n,
                                                 vals_alt.as<uint32_t>(), n32, 0, c, stream));
      CUDA_CHECK(cudaMemsetAsync(bstart.ptr, 0, (size_t)(nb + 1) * 4, stream));
      CUDA_CHECK(cudaMemsetAsync(bend.ptr, 0, (size_t)(nb + 1) * 4, stream));
      bucket_bounds_kernel<<<(n32 + 255) / 256, 256, 0, stream>>>(bstart.as<uint32_t>(), bend.as<uint32_t>(),
                                                                  keys_alt.as<uint32_t>(), n32);
      check_launch();
      DX* wb = buckets.as<DX>() + (size_t)w * nb;
      accumulate_kernel<F><<<(nthreads + 127) / 128, 128, 0, stream>>>(
          wb, head.as<DX>(), tail.as<DX>(), keys_alt.as<uint32_t>(), vals_alt.as<uint32_t>(),
          bstart.as<uint32_t>(), bend.as<uint32_t>(), d_bases, n32, L);
      check_launch();
      combine_kernel<F><<<(nb + 127) / 128, 128, 0, stream>>>(wb, head.as<DX>(), tail.as<DX>(),
                                                              bstart.as<uint32_t>(), bend.as<uint32_t>(), nb, L);
      check_launch();
    }

    // device reduction levels
    uint32_t m = nb;
    const DX* p_src = buckets.as<DX>();
    const DX* q_src = buckets.as<DX>();
    bool first = true;
    int level = 0;
    while (m > kHostReduceMax) {
      const uint32_t total = (uint32_t)W * (m / kReduceSeg);
      DX* po = red_p[level & 1].as<DX>();
      DX* qo = red_q[level & 1].as<DX>();
      if (first)
        reduce_level_kernel<F, true><<<(total + 127) / 128, 128, 0, stream>>>(po, qo, p_src, q_src, m, total);
      else
        reduce_level_kernel<F, false><<<(total + 127) / 128, 128, 0, stream>>>(po, qo, p_src, q_src, m, total);
      check_launch();
      p_src = po;
      q_src = qo;
      m /= kReduceSeg;
      first = false;
      ++level;
    }
    std::vector<HostXyzz> hp((size_t)W * m), hq((size_t)W * m);
    CUDA_CHECK(cudaMemcpyAsync(hq.data(), q_src, hq.size() * sizeof(DX), cudaMemcpyDeviceToHost, stream));
    if (!first)
      CUDA_CHECK(cudaMemcpyAsync(hp.data(), p_src, hp.size() * sizeof(DX), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    // host: per window Σ p + Σ j·q (or Σ (j+1)·b at level 0), then Horner over windows
    Projective acc = Projective::identity();
    for (int w = W - 1; w >= 0; --w) {
      HostXyzz run = HostXyzz::identity(), tot = HostXyzz::identity();
      const HostXyzz* q = hq.data() + (size_t)w * m;
      for (int j = (int)m - 1; j >= 1; --j) {
        run += q[j];
        tot += run;
      }
      run += q[0];
      if (first) {
        tot += run;
      } else {
        const HostXyzz* p = hp.data() + (size_t)w * m;
        for (uint32_t j = 0; j < m; ++j) tot += p[j];
      }
      for (int d = 0; d < c && w != W - 1; ++d) acc = acc.dbl();
      acc += tot.to_projective();
    }
    return acc;
  }
};

// ==================================================================================================
// GpuMsm<Cfg> members
// ==================================================================================================
template <class Cfg>
GpuMsm<Cfg>::GpuMsm() : impl_(std::make_unique<Impl>()) {}
template <class Cfg>
GpuMsm<Cfg>::~GpuMsm() = default;
template <class Cfg>
void GpuMsm<Cfg>::set_bases(std::span<const Affine> bases) {
  impl_->set_bases(bases);
}
template <class Cfg>
void GpuMsm<Cfg>::set_bases_repeating(std::span<const Affine> distinct, std::size_t n) {
  impl_->set_bases_repeating(distinct, n);
}
template <class Cfg>
void GpuMsm<Cfg>::set_bases_device(const void* d_bases, std::size_t n) {
  impl_->bases = static_cast<const typename Impl::DA*>(d_bases);
  impl_->nbases = d_bases ? n : 0;
}
template <class Cfg>
std::size_t GpuMsm<Cfg>::bases_size() const {
  return impl_->nbases;
}
template <class Cfg>
const void* GpuMsm<Cfg>::bases_device() const {
  return impl_->bases;
}
template <class Cfg>
typename GpuMsm<Cfg>::Projective GpuMsm<Cfg>::run(std::span<const ff::Fr> scalars, std::size_t offset,
                                                  const GpuMsmConfig& cfg) {
  const size_t n = scalars.size();
  if (offset > impl_->nbases || n > impl_->nbases - offset)
    throw std::invalid_argument("GpuMsm::run: " + std::to_string(n) + " scalars at offset " +
                                std::to_string(offset) + " but only " + std::to_string(impl_->nbases) +
                                " bases are resident");
  if (n == 0) return Projective::identity();
  impl_->ensure_stream();
  impl_->scalars.ensure(n * sizeof(ff::Fr));
  CUDA_CHECK(
      cudaMemcpyAsync(impl_->scalars.ptr, scalars.data(), n * sizeof(ff::Fr), cudaMemcpyHostToDevice, impl_->stream));
  return impl_->run(impl_->scalars.template as<DevFr>(), n, offset, cfg);
}
template <class Cfg>
typename GpuMsm<Cfg>::Projective GpuMsm<Cfg>::run_device(const void* d_scalars, std::size_t n, std::size_t offset,
                                                         const GpuMsmConfig& cfg) {
  return impl_->run(static_cast<const DevFr*>(d_scalars), n, offset, cfg);
}
template <class Cfg>
std::size_t GpuMsm<Cfg>::device_bytes() const {
  return impl_->device_bytes();
}
template <class Cfg>
void GpuMsm<Cfg>::release_scratch() {
  impl_->release_scratch();
}

}  // namespace proofline::gpu
