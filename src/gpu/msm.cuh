// src/gpu/msm.cuh — kernels and host orchestration of the GPU MSM (proofline/gpu/msm.hpp says
// what it computes and the algorithm in five steps; this file is the how).
//
// Included by msm_g1.cu and msm_g2.cu only (one curve per translation unit, so each compiles its
// kernels once and the two build in parallel).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "device_buffer.cuh"
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
/// The coordinate field of the "new" bucket kernels: the same layout and values as DevFieldOf's,
/// compiled differently (G2: DevFp2ByRef, ff.cuh). Equal to DevFieldOf's where there is no variant.
template <class Cfg>
struct NewKernelFieldOf {
  using type = typename DevFieldOf<Cfg>::type;
};
template <>
struct NewKernelFieldOf<ec::G2Config> {
  using type = DevFp2ByRef;
};
/// The coordinate field of the "lean" bucket kernels bounded to kBlocks blocks per SM: again the
/// same layout and values (G2: DevFp2InPlace<kBlocks>, whose XYZZ additions run the in-place
/// formulas of xyzz_in_place.cuh).
template <class Cfg, int kBlocks>
struct LeanKernelFieldOf {
  using type = typename DevFieldOf<Cfg>::type;
};
template <int kBlocks>
struct LeanKernelFieldOf<ec::G2Config, kBlocks> {
  using type = DevFp2InPlace<kBlocks>;
};
/// G1: DevFpInPlace<kBlocks> (PROOFLINE_G1_KERNELS=lean-4, lean-5).
template <int kBlocks>
struct LeanKernelFieldOf<ec::G1Config, kBlocks> {
  using type = DevFpInPlace<kBlocks>;
};

/// Minimum resident blocks of 128 threads per SM that the bucket kernels over F are compiled for
/// (__launch_bounds__'s second argument): F::kMinBlocks where the field has one (ff.cuh), else 0:
/// no minimum (the same PTX as __launch_bounds__(128) alone; 1 would add .minnctapersm 1 and move
/// ptxas's register choices), which leaves ptxas the 255-register maximum. Only the lean G2 and G1
/// kernels are bounded (G1: 4 blocks ≤ 128 registers, 5 blocks ≤ 102): with the in-place formulas,
/// what lives across a product call is the loop's state and a few addresses, so a bound costs (almost) no spills and buys occupancy — 3 blocks: ≤ 168
/// registers, 12 warps per SM; 4 blocks: ≤ 128 registers, 16 warps; a 255-register kernel has 8
/// (ptxas sm_90 figures in bench/RESULTS.md).
template <class F>
constexpr int kBucketKernelBlocks = [] {
  if constexpr (requires { F::kMinBlocks; }) return F::kMinBlocks;
  else return 0;
}();

/// The G2 bucket kernels G2Kernels (msm.hpp) chooses between, in two groups: the level-0
/// accumulation of the gathered affine points (the hot one) and the rest (fold_short, the fold
/// levels, the reduction levels).
enum class KernelGroup { kAccumulate, kFoldReduce };

/// G2Kernels::kFromEnv resolved: PROOFLINE_G2_KERNELS, read once (proofline/gpu/msm.hpp): "new"
/// (or unset) → kNew, "old" → kOld, "new-fold" → kNewFold, "lean" → kLean, "lean-4" → kLean4;
/// anything else throws std::invalid_argument. The values are the same whichever runs.
inline G2Kernels resolve_g2_kernels(G2Kernels k) {
  if (k != G2Kernels::kFromEnv) return k;
  static const G2Kernels from_env = [] {
    const char* e = std::getenv("PROOFLINE_G2_KERNELS");
    if (e == nullptr || std::strcmp(e, "new") == 0) return G2Kernels::kNew;
    if (std::strcmp(e, "old") == 0) return G2Kernels::kOld;
    if (std::strcmp(e, "new-fold") == 0) return G2Kernels::kNewFold;
    if (std::strcmp(e, "lean") == 0) return G2Kernels::kLean;
    if (std::strcmp(e, "lean-4") == 0) return G2Kernels::kLean4;
    throw std::invalid_argument(std::string("PROOFLINE_G2_KERNELS=") + e +
                                ": expected old, new, new-fold, lean or lean-4");
  }();
  return from_env;
}
/// G1Kernels::kFromEnv resolved: PROOFLINE_G1_KERNELS, read once (proofline/gpu/msm.hpp): "new"
/// (or unset) → kNew, "lean-4" → kLean4, "lean-5" → kLean5; anything else throws
/// std::invalid_argument. The values are the same whichever runs.
inline G1Kernels resolve_g1_kernels(G1Kernels k) {
  if (k != G1Kernels::kFromEnv) return k;
  static const G1Kernels from_env = [] {
    const char* e = std::getenv("PROOFLINE_G1_KERNELS");
    if (e == nullptr || std::strcmp(e, "new") == 0) return G1Kernels::kNew;
    if (std::strcmp(e, "lean-4") == 0) return G1Kernels::kLean4;
    if (std::strcmp(e, "lean-5") == 0) return G1Kernels::kLean5;
    throw std::invalid_argument(std::string("PROOFLINE_G1_KERNELS=") + e + ": expected new, lean-4 or lean-5");
  }();
  return from_env;
}
/// The coordinate field a group of G2 kernels runs over.
enum class KernelField {
  kOld,   ///< DevFp2
  kNew,   ///< DevFp2ByRef
  kLean,   ///< DevFp2InPlace<3>
  kLean4,  ///< DevFp2InPlace<4>
};
/// The field `group` runs its kernels over under the resolved choice k.
inline KernelField g2_kernel_field(G2Kernels k, KernelGroup group) {
  if (k == G2Kernels::kLean) return KernelField::kLean;
  if (k == G2Kernels::kLean4) return KernelField::kLean4;
  if (k == G2Kernels::kNew || (k == G2Kernels::kNewFold && group == KernelGroup::kFoldReduce))
    return KernelField::kNew;
  return KernelField::kOld;
}

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
// Output per window w: keys[w·n + i] = |d_w|, vals[w·n + i] = p | sign << 31 where p = idx[i] (the
// point and scalar index; idx null: p = i).
static __global__ void digits_kernel(uint32_t* __restrict__ keys, uint32_t* __restrict__ vals,
                              const DevFr* __restrict__ scalars, const uint32_t* __restrict__ idx, uint32_t n,
                              int c, int windows) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t pi = idx ? idx[i] : i;
  DevFr raw_one = DevFr::zero();
  raw_one.v[0] = 1;
  DevFr s = scalars[pi] * raw_one;
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
    vals[(size_t)w * n + i] = pi | (mag ? sign : 0u);
  }
}

// ---- 0. split: scalars 0 and 1 leave the Pippenger path --------------------------------------------
// tail[i] = 1 unless the scalar is 0 or 1 (canonical); one[i] = 1 iff it is 1. The ones are summed
// directly (one bucket), the zeros dropped, and only the tail goes through digits/sort/buckets —
// witness vectors of Groth16 circuits are mostly bits (../shared/reference/gpu-prover.md §1.4).
static __global__ void classify_kernel(uint8_t* __restrict__ tail, uint8_t* __restrict__ one,
                                       const DevFr* __restrict__ scalars, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const DevFr s = scalars[i];
  const bool is_zero = s.is_zero(), is_one = s.is_one();  // Montgomery 0 is 0; Montgomery 1 is R mod r
  tail[i] = !(is_zero || is_one);
  one[i] = is_one;
}

static __global__ void fill_u32_kernel(uint32_t* __restrict__ out, uint32_t value, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

// ---- 2./3. accumulation over sorted runs ------------------------------------------------------------
// Input: n entries with keys (sorted runs: all entries of one nonzero key are contiguous; key 0
// means "no bucket" and may sit anywhere between runs) and points (affine bases gathered through
// the sorted values at level 0, XYZZ partial sums at later levels). Thread t owns entries
// [tL, min(tL + L, n)) — the same work per thread whatever the bucket sizes. A run wholly inside
// the range writes its bucket (index key − 1). A run cut by the range ends leaves its partial sum
// in the thread's two output slots, in order: slot 2t = the run that began before tL,
// slot 2t + 1 = the run that continues past the range (a run that does both puts its sum in 2t and
// the identity in 2t + 1 under the same key, so a cut bucket's partials stay contiguous). The
// 2T output slots are again input of this form; levels repeat until one thread remains.
template <class F>
struct AffineSource {
  const uint32_t* vals;
  const DevAffine<F>* bases;
  __device__ DevAffine<F> get(uint32_t j) const {
    const uint32_t v = vals[j];
    DevAffine<F> p = bases[v & kIndexMask];
    if (v & kSignBit) p.y = -p.y;
    return p;
  }
  __device__ DevAffine<F> get_or_zero(uint32_t j, uint32_t key) const {
    return key ? get(j) : DevAffine<F>::identity();
  }
};
template <class F>
struct XyzzSource {
  const DevXyzz<F>* pts;
  __device__ DevXyzz<F> get(uint32_t j) const { return pts[j]; }
  __device__ DevXyzz<F> get_or_zero(uint32_t j, uint32_t key) const {
    return key ? pts[j] : DevXyzz<F>::identity();
  }
};

template <class F, class Src, bool kPrefetch = false>
__global__ void __launch_bounds__(128, kBucketKernelBlocks<F>)
    accumulate_kernel(DevXyzz<F>* __restrict__ buckets,
                      DevXyzz<F>* __restrict__ part,
                      uint32_t* __restrict__ part_keys,
                      const uint32_t* __restrict__ keys, Src src, uint32_t n,
                      uint32_t L) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t lo64 = (uint64_t)t * L;
  if (lo64 >= n) return;
  const uint32_t lo = (uint32_t)lo64;
  const uint32_t hi = lo64 + L < n ? (uint32_t)(lo64 + L) : n;
  part_keys[2 * t] = 0;
  part_keys[2 * t + 1] = 0;
  uint32_t cur = 0;
  bool from_before = false;
  DevXyzz<F> acc = DevXyzz<F>::identity();
  auto flush = [&](bool continues) {
    if (from_before) {
      part[2 * t] = acc;
      part_keys[2 * t] = cur;
      if (continues) {
        part[2 * t + 1] = DevXyzz<F>::identity();
        part_keys[2 * t + 1] = cur;
      }
    } else if (continues) {
      part[2 * t + 1] = acc;
      part_keys[2 * t + 1] = cur;
    } else {
      buckets[cur - 1] = acc;
    }
  };
  if constexpr (kPrefetch) {
    // the next entry's key and point are loaded before this entry's addition (one gather in flight
    // per thread while it computes)
    uint32_t k_next = keys[lo];
    auto p_next = src.get_or_zero(lo, k_next);
    for (uint32_t j = lo; j < hi; ++j) {
      const uint32_t k = k_next;
      const auto p = p_next;
      if (j + 1 < hi) {
        k_next = keys[j + 1];
        p_next = src.get_or_zero(j + 1, k_next);
      }
      if (k == 0) continue;
      if (k != cur) {
        if (cur) flush(false);
        cur = k;
        from_before = j == lo && lo > 0 && keys[lo - 1] == k;
        acc = DevXyzz<F>::identity();
      }
      acc += p;
    }
  } else {
    for (uint32_t j = lo; j < hi; ++j) {
      const uint32_t k = keys[j];
      if (k == 0) continue;
      const auto p = src.get(j);
      if (k != cur) {
        if (cur) flush(false);
        cur = k;
        from_before = j == lo && lo > 0 && keys[lo - 1] == k;
        acc = DevXyzz<F>::identity();
      }
      acc += p;
    }
  }
  if (cur) flush(hi < n && keys[hi] == cur);
}

/// Cut buckets whose partial sums span at most kShortRun slots (the usual case: a bucket cut by one
/// or two range ends): the thread at the run's first slot adds them and writes the bucket, and
/// zeroes the run's keys in keys_out (a copy of keys), so the fold levels see only the long runs.
constexpr uint32_t kShortRun = 64;
template <class F>
__global__ void __launch_bounds__(128, kBucketKernelBlocks<F>)
    fold_short_kernel(DevXyzz<F>* __restrict__ buckets,
                      uint32_t* __restrict__ keys_out,
                      const uint32_t* __restrict__ keys,
                      const DevXyzz<F>* __restrict__ pts, uint32_t m) {
  const uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  const uint32_t k = keys[j];
  if (k == 0 || (j > 0 && keys[j - 1] == k)) return;
  uint32_t e = j + 1;
  while (e < m && e - j <= kShortRun && keys[e] == k) ++e;
  if (e - j > kShortRun) return;
  DevXyzz<F> acc = pts[j];
  for (uint32_t i = j + 1; i < e; ++i) acc += pts[i];
  buckets[k - 1] = acc;
  for (uint32_t i = j; i < e; ++i) keys_out[i] = 0;
}

// ---- 4. bucket reduction, one level ---------------------------------------------------------------
// Per window, the value Σ_j p_j + Σ_j j·q_j over m entries (level 0: p = q = buckets with weights
// j + 1 for bucket index j, i.e. Σ b_j + Σ j·b_j). Segment k of length L (j = kL + i):
//   Σ_i i·q_{kL+i} = T_k (running sums from the top), Σ_i q_{kL+i} = R_k,
//   Σ_j j·q_j = Σ_k T_k + Σ_k k·(L·R_k),
// so the next level has p'_k = Σ_i p_{kL+i} + T_k and q'_k = L·R_k (lg L doublings), m/L entries.
template <class F, bool kFirst>
__global__ void __launch_bounds__(128, kBucketKernelBlocks<F>)
    reduce_level_kernel(DevXyzz<F>* __restrict__ p_out,
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
  for (int d = 0; d < kLgReduceSeg; ++d) run.dbl_assign();
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

/// Phase times (CUDA events on the MSM stream) when PROOFLINE_GPU_MSM_PROFILE is set: each mark
/// names the phase that ends there (digits, sort, accumulate, fold, reduce; XYZZ marks sort /
/// accumulate / fold per window, batch-affine its sort once and accumulate / fold per group); the
/// times are summed by name and printed to stderr in order of first appearance.
struct Profile {
  bool on = std::getenv("PROOFLINE_GPU_MSM_PROFILE") != nullptr;
  cudaStream_t stream;
  std::vector<cudaEvent_t> ev;
  std::vector<const char*> names;  ///< names[i]: the phase ending at ev[i + 1]
  explicit Profile(cudaStream_t s) : stream(s) {
    if (on) record();
  }
  ~Profile() {
    for (auto e : ev) cudaEventDestroy(e);
  }
  void mark(const char* name) {
    if (!on) return;
    record();
    names.push_back(name);
  }
  void report(size_t n, int c, int windows, const char* path) {
    if (!on || ev.size() < 2) return;
    CUDA_CHECK(cudaEventSynchronize(ev.back()));
    std::vector<std::pair<std::string, float>> sums;
    for (size_t i = 0; i < names.size(); ++i) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, ev[i], ev[i + 1]));
      auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& p) { return p.first == names[i]; });
      if (it == sums.end()) sums.emplace_back(names[i], ms);
      else it->second += ms;
    }
    std::string line;
    for (const auto& [name, ms] : sums) line += (line.empty() ? "" : ", ") + name + " " + std::to_string(ms) + " ms";
    std::fprintf(stderr, "[gpu msm] n=%zu c=%d W=%d %s: %s\n", n, c, windows, path, line.c_str());
  }

 private:
  void record() {
    cudaEvent_t e;
    CUDA_CHECK(cudaEventCreate(&e));
    CUDA_CHECK(cudaEventRecord(e, stream));
    ev.push_back(e);
  }
};

/// Whether environment variable `name` is set to something other than "" or "0".
inline bool env_flag(const char* name) {
  const char* e = std::getenv(name);
  return e != nullptr && *e != 0 && std::strcmp(e, "0") != 0;
}
/// A nonnegative integer from the environment, or `fallback` when unset or empty; anything that is
/// not a decimal number throws std::invalid_argument.
inline uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* e = std::getenv(name);
  if (e == nullptr || *e == 0) return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(e, &end, 10);
  if (*end != 0) throw std::invalid_argument(std::string(name) + "=" + e + ": expected a nonnegative integer");
  return v;
}

/// Device bytes this thread may still allocate: cudaMemGetInfo's free bytes, capped by the
/// headroom of the active DeviceBudget (device_buffer.cuh) if it has a cap.
inline size_t device_bytes_available() {
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const DeviceBudget* b = detail::t_device_budget;
  if (b != nullptr && b->cap != 0) {
    const size_t live = b->live.load();
    free_b = std::min(free_b, b->cap > live ? b->cap - live : size_t{0});
  }
  return free_b;
}

/// Batch-affine defaults (msm.hpp "Bucket additions"): G1 tails of at least kBaMinG1 = 2^24 points
/// (G2: XYZZ unless asked), L = kBaSteps entries per lane, K = kBaLanes lanes per thread, all windows
/// in one group where they fit. Measured on an H100, 2026-12-07 night (bench/RESULTS.md), G1 L 32 K 32,
/// one group in two halves with their inversions on priority streams, the state kept, against XYZZ:
/// 100.4 / 83.2 ms at 2^23, 139.1 / 151.1 at 2^24, 237.4 / 279.3 at 2^25, 463.3 / 511.3 at 2^26,
/// 869.6 / 993.1 at 2^27 (allocated per call: 102.0, 142.0, 243.7 at 2^23 … 2^25) — so the threshold is
/// the smallest measured gain; G2 2^24 629 / 551 (evening, per call, no priority streams).
constexpr uint64_t kBaMinG1 = uint64_t{1} << 24;
constexpr uint32_t kBaSteps = 32, kBaLanes = 32;

}  // namespace msm_detail
}  // namespace proofline::gpu

#include "msm_batch_affine.cuh"

namespace proofline::gpu {

// ==================================================================================================
// GpuMsm<Cfg>::Impl
// ==================================================================================================
template <class Cfg>
struct GpuMsm<Cfg>::Impl {
  using F = typename msm_detail::DevFieldOf<Cfg>::type;
  using DA = DevAffine<F>;
  using DX = DevXyzz<F>;
  /// The bucket kernels run over F or, when PROOFLINE_G2_KERNELS selects them, FNew, FLean or FLean4
  /// (same layout and values, other code; msm_detail::NewKernelFieldOf, LeanKernelFieldOf): the
  /// buffers are typed DA/DX and cast.
  using FNew = typename msm_detail::NewKernelFieldOf<Cfg>::type;
  using FLean = typename msm_detail::LeanKernelFieldOf<Cfg, 3>::type;
  using FLean4 = typename msm_detail::LeanKernelFieldOf<Cfg, 4>::type;
  static constexpr bool kHasNew = !std::is_same_v<F, FNew>;
  static_assert(sizeof(FNew) == sizeof(F) && sizeof(DevXyzz<FNew>) == sizeof(DX) &&
                    sizeof(DevAffine<FNew>) == sizeof(DA) && std::is_standard_layout_v<DevXyzz<FNew>> &&
                    std::is_standard_layout_v<DX>,
                "the new kernels' field has the layout of the old");
  static_assert(sizeof(FLean) == sizeof(F) && sizeof(DevXyzz<FLean>) == sizeof(DX) &&
                    sizeof(DevAffine<FLean>) == sizeof(DA) && std::is_standard_layout_v<DevXyzz<FLean>>,
                "the lean kernels' field has the layout of the old");
  static_assert(sizeof(DevXyzz<FLean4>) == sizeof(DX) && sizeof(DevAffine<FLean4>) == sizeof(DA),
                "the lean-4 kernels' field has the layout of the old");
  /// G1's bucket kernels run over F or, when PROOFLINE_G1_KERNELS selects them, FLean4 or FLean5
  /// (DevFpInPlace<4>, <5>: DevFp's layout and values).
  static constexpr bool kIsG1 = std::is_same_v<Cfg, ec::G1Config>;
  using FLean5 = typename msm_detail::LeanKernelFieldOf<Cfg, 5>::type;
  static_assert(!kIsG1 || (sizeof(DevXyzz<FLean5>) == sizeof(DX) && sizeof(DevAffine<FLean5>) == sizeof(DA) &&
                           std::is_standard_layout_v<DevXyzz<FLean4>> && std::is_standard_layout_v<DevXyzz<FLean5>>),
                "the lean G1 kernels' field has the layout of the old");
  /// The G2 kernel choice of the current run() (resolved GpuMsmConfig::g2_kernels).
  G2Kernels g2_kernels = G2Kernels::kNew;
  /// What step 3 of the last run() ran (GpuMsm::last_bucket_add).
  BucketAdd last_bucket_add = BucketAdd::kFromEnv;
  /// Whether the last run()'s batch-affine steps ran ba_step_pipelined_kernel (GpuMsm::last_step_pipelined).
  bool last_step_pipelined = false;
  /// The G1 kernel choice of the current run() (resolved GpuMsmConfig::g1_kernels).
  G1Kernels g1_kernels = G1Kernels::kNew;
  /// fn(G{}) with G the coordinate field `group` runs over in this run (G2: F, FNew, FLean or
  /// FLean4; G1: F, FLean4 or FLean5, the same for both groups).
  template <class Fn>
  void with_kernel_field(msm_detail::KernelGroup group, Fn&& fn) const {
    using msm_detail::KernelField;
    if constexpr (kHasNew) {
      switch (msm_detail::g2_kernel_field(g2_kernels, group)) {
        case KernelField::kNew:
          return fn(FNew{});
        case KernelField::kLean:
          return fn(FLean{});
        case KernelField::kLean4:
          return fn(FLean4{});
        case KernelField::kOld:
          break;
      }
    } else if constexpr (kIsG1) {
      switch (g1_kernels) {
        case G1Kernels::kLean4:
          return fn(FLean4{});
        case G1Kernels::kLean5:
          return fn(FLean5{});
        case G1Kernels::kFromEnv:
        case G1Kernels::kNew:
          break;
      }
    }
    fn(F{});
  }
  /// The field of the batch-affine kernels (msm_batch_affine.cuh): G1 DevFp, G2 the by-reference
  /// Fp2 of the "new" kernels (same layout as F).
  using BaField = std::conditional_t<kIsG1, F, FNew>;
  /// Whether step 3 of a call over n tail points runs batch-affine (msm.hpp "Bucket additions").
  static bool batch_affine_selected(const GpuMsmConfig& cfg, uint32_t n) {
    if (cfg.bucket_add == BucketAdd::kXyzz) return false;
    if (cfg.bucket_add == BucketAdd::kBatchAffine) return true;
    if (msm_detail::env_flag("PROOFLINE_MSM_XYZZ")) return false;
    // G1 from 2^24 points (msm_detail::kBaMinG1); G2 only when asked (it loses there)
    return n >= msm_detail::env_u64("PROOFLINE_MSM_BA_MIN", kIsG1 ? msm_detail::kBaMinG1 : ~uint64_t{0});
  }
  /// L, the entries per batch-affine lane (msm.hpp "Bucket additions").
  static uint32_t batch_affine_steps(const GpuMsmConfig& cfg) {
    const uint64_t l = cfg.batch_affine_steps > 0 ? (uint64_t)cfg.batch_affine_steps
                                                  : msm_detail::env_u64("PROOFLINE_MSM_BA_STEPS", msm_detail::kBaSteps);
    if (l < 1 || l > 1024)
      throw std::invalid_argument("GpuMsm::run: batch-affine steps " + std::to_string(l) + " outside [1, 1024]");
    return (uint32_t)l;
  }
  /// K, the batch-affine lanes per thread (msm.hpp "Bucket additions").
  static uint32_t batch_affine_lanes(const GpuMsmConfig& cfg) {
    const uint64_t k = cfg.batch_affine_lanes > 0 ? (uint64_t)cfg.batch_affine_lanes
                                                  : msm_detail::env_u64("PROOFLINE_MSM_BA_LANES", msm_detail::kBaLanes);
    if (k < 1 || k > 256)
      throw std::invalid_argument("GpuMsm::run: batch-affine lanes per thread " + std::to_string(k) +
                                  " outside [1, 256]");
    return (uint32_t)k;
  }
  /// Environment switch `name`: "1" → true, "0" or unset → false; anything else throws std::invalid_argument.
  static bool env_switch(const char* name) {
    const char* e = std::getenv(name);
    const std::string v = e ? e : "";
    if (v.empty() || v == "0") return false;
    if (v == "1") return true;
    throw std::invalid_argument(std::string(name) + "=" + v + ": expected 0 or 1");
  }
  /// A batch-affine group's windows stepped as two halves on two streams (each half's inversion levels
  /// beside the other half's step) unless PROOFLINE_MSM_BA_OVERLAP=0 (one stream, for comparison);
  /// values other than 0 and 1 throw std::invalid_argument.
  static bool ba_overlap() {
    const char* e = std::getenv("PROOFLINE_MSM_BA_OVERLAP");
    return e == nullptr || *e == 0 || env_switch("PROOFLINE_MSM_BA_OVERLAP");
  }
  /// Each half's batch inversions on a stream of the greatest priority unless PROOFLINE_MSM_BA_PRIORITY=0
  /// (on the half's own stream; values other than 0 and 1 throw std::invalid_argument): the inversion
  /// levels (small, latency-bound launches) then take the first SM slots the other half's step blocks
  /// free — 20–21 ms of 484 / 891 at G1 2^26 / 2^27 on an H100 (bench/RESULTS.md, 2026-12-07 night).
  static bool ba_priority() {
    const char* e = std::getenv("PROOFLINE_MSM_BA_PRIORITY");
    return e == nullptr || *e == 0 || env_switch("PROOFLINE_MSM_BA_PRIORITY");
  }
  /// G1's batch-affine steps by ba_step_pipelined_kernel (msm_batch_affine.cuh: the next lane's acc and
  /// points copied into shared memory while this lane computes) unless PROOFLINE_MSM_BA_PIPELINE=0
  /// (ba_step_kernel; 10 / 16 ms slower at G1 2^26 / 2^27 on an H100, bench/RESULTS.md 2026-12-07
  /// late); other values throw std::invalid_argument. G2 keeps ba_step_kernel either way.
  static bool ba_pipeline() {
    const char* e = std::getenv("PROOFLINE_MSM_BA_PIPELINE");
    return e == nullptr || *e == 0 || env_switch("PROOFLINE_MSM_BA_PIPELINE");
  }
  /// The most windows per batch-affine group: PROOFLINE_MSM_BA_GROUP (1 … 64) or, unset, all of them.
  static uint32_t ba_group_windows() {
    const uint64_t g = msm_detail::env_u64("PROOFLINE_MSM_BA_GROUP", 64);
    if (g < 1 || g > 64)
      throw std::invalid_argument("PROOFLINE_MSM_BA_GROUP=" + std::to_string(g) + ": expected 1 … 64");
    return (uint32_t)g;
  }
  using HostXyzz = ec::XyzzPoint<Cfg>;
  static_assert(sizeof(HostXyzz) == sizeof(DX), "device XYZZ mirrors the host XyzzPoint");
  static_assert(sizeof(typename Cfg::Field) == sizeof(F), "device field mirrors the host field");
  static_assert(sizeof(ff::Fr) == sizeof(DevFr), "device Fr mirrors the host Fr");

  cudaStream_t stream = nullptr;
  /// The second half of a batch-affine group runs here (accumulate_batch_affine); fork/join events.
  cudaStream_t ba_stream = nullptr;
  cudaEvent_t ba_fork = nullptr, ba_join = nullptr;
  /// With PROOFLINE_MSM_BA_PRIORITY=1: each half's batch inversions on a stream of the device's greatest
  /// priority (ba_chain[h]), ordered after the half's step by ba_stepped[h] and before its next step by
  /// ba_inverted[h] (accumulate_batch_affine).
  cudaStream_t ba_chain[2] = {nullptr, nullptr};
  cudaEvent_t ba_stepped[2] = {nullptr, nullptr}, ba_inverted[2] = {nullptr, nullptr};
  DeviceBuffer bases_owned{"GPU MSM bases"};
  const DA* bases = nullptr;
  size_t nbases = 0;
  DeviceBuffer scalars{"GPU MSM scalars"}, keys{"GPU MSM digit keys"}, vals{"GPU MSM digit values"},
      ones_keys{"GPU MSM ones keys"}, buckets{"GPU MSM buckets"}, part[2],
      part_keys[2], red_p[2], red_q[2], cub_temp{"GPU MSM sort temp"}, staging{"GPU MSM upload staging"},
      flags{"GPU MSM 0/1 flags"}, idx_tail{"GPU MSM tail indices"}, idx_ones{"GPU MSM one indices"},
      counts{"GPU MSM counts"}, select_temp{"GPU MSM select temp"}, one_bucket{"GPU MSM ones sum"},
      ba_acc{"GPU MSM batch-affine sums"}, ba_cur{"GPU MSM batch-affine keys"},
      ba_pre{"GPU MSM batch-affine prefix products"}, ba_slot{"GPU MSM batch-affine partial sums"},
      ba_slot_key{"GPU MSM batch-affine partial keys"}, ba_inv{"GPU MSM batch inversion"},
      ba_u{"GPU MSM batch-affine thread products"}, ba_tpart{"GPU MSM batch-affine thread parts"},
      ba_tpart_key{"GPU MSM batch-affine thread part keys"};

  Impl() {
    for (auto* b : {&red_p[0], &red_p[1], &red_q[0], &red_q[1]}) b->set_what("GPU MSM reduction");
    for (auto* b : {&part[0], &part[1], &part_keys[0], &part_keys[1]}) b->set_what("GPU MSM partial sums");
  }
  ~Impl() {
    release_scratch();
    bases_owned.release();
    staging.release();
    if (ba_fork) cudaEventDestroy(ba_fork);
    if (ba_join) cudaEventDestroy(ba_join);
    if (ba_stream) cudaStreamDestroy(ba_stream);
    for (int h = 0; h < 2; ++h) {
      if (ba_stepped[h]) cudaEventDestroy(ba_stepped[h]);
      if (ba_inverted[h]) cudaEventDestroy(ba_inverted[h]);
      if (ba_chain[h]) cudaStreamDestroy(ba_chain[h]);
    }
    if (stream) cudaStreamDestroy(stream);
  }
  void release_scratch() {
    for (auto* b : {&scalars, &keys, &vals, &ones_keys, &buckets, &part[0], &part[1], &part_keys[0],
                    &part_keys[1], &red_p[0], &red_p[1], &red_q[0], &red_q[1], &cub_temp, &flags, &idx_tail,
                    &idx_ones, &counts, &select_temp, &one_bucket, &ba_acc, &ba_cur, &ba_pre, &ba_slot,
                    &ba_slot_key, &ba_inv, &ba_u, &ba_tpart, &ba_tpart_key})
      b->release();
  }
  size_t device_bytes() const {
    size_t s = 0;
    for (auto* b : {&bases_owned, &scalars, &keys, &vals, &ones_keys, &buckets, &part[0], &part[1],
                    &part_keys[0], &part_keys[1], &red_p[0], &red_p[1], &red_q[0], &red_q[1], &cub_temp, &staging,
                    &flags, &idx_tail, &idx_ones, &counts, &select_temp, &one_bucket, &ba_acc, &ba_cur, &ba_pre,
                    &ba_slot, &ba_slot_key, &ba_inv, &ba_u, &ba_tpart, &ba_tpart_key})
      s += b->bytes();
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
      CUDA_CHECK(cudaMemcpyAsync(staging.get(), host + done, m * sizeof(Affine), cudaMemcpyHostToDevice, stream));
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
    last_bucket_add = BucketAdd::kFromEnv;  // no tail yet
    last_step_pipelined = false;
    if (offset > nbases || n > nbases - offset)
      throw std::invalid_argument("GpuMsm::run: " + std::to_string(n) + " scalars at offset " +
                                  std::to_string(offset) + " but only " + std::to_string(nbases) +
                                  " bases are resident");
    if (n == 0) return Projective::identity();
    if (n > kIndexMask)
      throw std::invalid_argument("GpuMsm::run: n = " + std::to_string(n) + " exceeds 2^31 - 1");
    if (cfg.window_bits != 0 && (cfg.window_bits < 2 || cfg.window_bits > 24))
      throw std::invalid_argument("GpuMsm::run: window_bits " + std::to_string(cfg.window_bits) +
                                  " outside [2, 24]");
    if constexpr (kHasNew) g2_kernels = msm_detail::resolve_g2_kernels(cfg.g2_kernels);
    if constexpr (kIsG1) g1_kernels = msm_detail::resolve_g1_kernels(cfg.g1_kernels);
    ensure_stream();
    const DA* d_bases = bases + offset;
    const uint32_t n32 = (uint32_t)n;
    if (std::getenv("PROOFLINE_GPU_MSM_NO_SPLIT") != nullptr) return pippenger(d_scalars, nullptr, n32, d_bases, cfg);

    // 0. split off the scalars 0 and 1 (step 0 of msm.hpp's algorithm)
    flags.ensure((size_t)2 * n);
    idx_tail.ensure(n * 4);
    idx_ones.ensure(n * 4);
    counts.ensure(2 * sizeof(int64_t));
    uint8_t* f_tail = flags.as<uint8_t>();
    uint8_t* f_one = f_tail + n;
    classify_kernel<<<(n32 + 255) / 256, 256, 0, stream>>>(f_tail, f_one, d_scalars, n32);
    check_launch();
    const thrust::counting_iterator<uint32_t> iota(0);
    size_t tb = 0;
    CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, tb, iota, f_tail, idx_tail.as<uint32_t>(), counts.as<int64_t>(),
                                          (int64_t)n, stream));
    select_temp.ensure(std::max<size_t>(tb, 1));
    tb = select_temp.bytes();
    CUDA_CHECK(cub::DeviceSelect::Flagged(select_temp.get(), tb, iota, f_tail, idx_tail.as<uint32_t>(),
                                          counts.as<int64_t>(), (int64_t)n, stream));
    tb = select_temp.bytes();
    CUDA_CHECK(cub::DeviceSelect::Flagged(select_temp.get(), tb, iota, f_one, idx_ones.as<uint32_t>(),
                                          counts.as<int64_t>() + 1, (int64_t)n, stream));
    int64_t cnt[2] = {0, 0};
    CUDA_CHECK(cudaMemcpyAsync(cnt, counts.get(), sizeof(cnt), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const uint32_t n_tail = (uint32_t)cnt[0], n_ones = (uint32_t)cnt[1];

    Projective acc = Projective::identity();
    if (n_tail > 0) acc = pippenger(d_scalars, idx_tail.as<uint32_t>(), n_tail, d_bases, cfg);
    if (n_ones > 0) acc += sum_of(idx_ones.as<uint32_t>(), n_ones, d_bases);
    return acc;
  }

  /// Entries per accumulation thread and the thread count for `count` sorted entries: enough
  /// threads to fill the device, 4..64 entries per thread (PROOFLINE_MSM_ACC_ENTRIES: a larger most,
  /// 64 … 4096, for measurement: more entries per thread, fewer cut parts to fold; not smaller, since
  /// the backend's memory plans count the parts of at most 64 entries per thread).
  static std::pair<uint32_t, uint32_t> accumulation_shape(uint32_t count) {
    const size_t fill = (size_t)msm_detail::sm_count() * 256;
    const uint64_t most = msm_detail::env_u64("PROOFLINE_MSM_ACC_ENTRIES", 64);
    if (most < 64 || most > 4096)
      throw std::invalid_argument("PROOFLINE_MSM_ACC_ENTRIES=" + std::to_string(most) + ": expected 64 … 4096");
    const uint32_t L = (uint32_t)std::clamp<size_t>(count / fill, 4, most);
    return {L, (count + L - 1) / L};
  }

  /// Steps 3 for one window: the `count` sorted (key, point) entries summed into the buckets wb
  /// (zeroed first), cut buckets folded. part/part_keys must hold 2·nthreads entries.
  void accumulate_runs(DX* wb, uint32_t nb, const uint32_t* s_keys, const uint32_t* s_vals, uint32_t count,
                       const DA* d_bases, msm_detail::Profile& prof) {
    auto [L, nthreads] = accumulation_shape(count);
    CUDA_CHECK(cudaMemsetAsync(wb, 0, (size_t)nb * sizeof(DX), stream));  // all-zero XYZZ = identity
    with_kernel_field(msm_detail::KernelGroup::kAccumulate, [&](auto g) {
      using G = decltype(g);
      accumulate_affine<G>(reinterpret_cast<DevXyzz<G>*>(wb), s_keys, s_vals, count,
                           reinterpret_cast<const DevAffine<G>*>(d_bases), L, nthreads);
    });
    prof.mark("accumulate");
    with_kernel_field(msm_detail::KernelGroup::kFoldReduce, [&](auto g) {
      using G = decltype(g);
      fold_cut<G>(reinterpret_cast<DevXyzz<G>*>(wb), nthreads);
    });
    prof.mark("fold");
  }
  /// The accumulation kernel of accumulate_runs over the coordinate field G (F or a variant's,
  /// with_kernel_field).
  template <class G>
  void accumulate_affine(DevXyzz<G>* wb, const uint32_t* s_keys, const uint32_t* s_vals, uint32_t count,
                         const DevAffine<G>* d_bases, uint32_t L, uint32_t nthreads) {
    using namespace msm_detail;
    using DXG = DevXyzz<G>;
    // prefetching the next gather measured no gain for G1 and 8% loss for G2 on the H200
    // (2^24: 277 vs 277 ms, 1550 vs 1423 ms): off unless PROOFLINE_GPU_MSM_PREFETCH is set.
    const bool prefetch = std::getenv("PROOFLINE_GPU_MSM_PREFETCH") != nullptr;
    if (prefetch)
      accumulate_kernel<G, AffineSource<G>, true><<<(nthreads + 127) / 128, 128, 0, stream>>>(
          wb, part[0].as<DXG>(), part_keys[0].as<uint32_t>(), s_keys, AffineSource<G>{s_vals, d_bases}, count, L);
    else
      accumulate_kernel<G, AffineSource<G>, false><<<(nthreads + 127) / 128, 128, 0, stream>>>(
          wb, part[0].as<DXG>(), part_keys[0].as<uint32_t>(), s_keys, AffineSource<G>{s_vals, d_bases}, count, L);
    check_launch();
  }
  /// The cut buckets of accumulate_runs (the partial sums of `nthreads` accumulation threads in
  /// part[0]/part_keys[0]) added into wb, with the kernels over the coordinate field G (F or a
  /// variant's, with_kernel_field).
  template <class G>
  void fold_cut(DevXyzz<G>* wb, uint32_t nthreads) {
    using namespace msm_detail;
    using DXG = DevXyzz<G>;
    // cut buckets: short runs of partial sums in one pass, long runs folded 32 entries per
    // thread, level after level, until one thread remains
    if (nthreads > 1) {
      const uint32_t m0 = 2 * nthreads;
      CUDA_CHECK(cudaMemcpyAsync(part_keys[1].get(), part_keys[0].get(), (size_t)m0 * 4, cudaMemcpyDeviceToDevice,
                                 stream));
      fold_short_kernel<G><<<(m0 + 127) / 128, 128, 0, stream>>>(wb, part_keys[1].as<uint32_t>(),
                                                                 part_keys[0].as<uint32_t>(), part[0].as<DXG>(), m0);
      check_launch();
    }
    const DXG* in_pts = part[0].as<DXG>();
    const uint32_t* in_keys = part_keys[1].as<uint32_t>();
    uint32_t threads = nthreads;
    int out = 1;
    while (threads > 1) {
      constexpr uint32_t kFold = 32;
      const uint32_t m = 2 * threads;
      const uint32_t next = (m + kFold - 1) / kFold;
      DXG* o_pts = part[out].as<DXG>();
      uint32_t* o_keys = part_keys[out ^ 1].as<uint32_t>();
      accumulate_kernel<G, XyzzSource<G>><<<(next + 127) / 128, 128, 0, stream>>>(
          wb, o_pts, o_keys, in_keys, XyzzSource<G>{in_pts}, m, kFold);
      check_launch();
      in_pts = o_pts;
      in_keys = o_keys;
      out ^= 1;
      threads = next;
    }
  }

  void ensure_parts(uint32_t nthreads) {
    for (int k = 0; k < 2; ++k) {
      part[k].ensure((size_t)2 * nthreads * sizeof(DX));
      part_keys[k].ensure((size_t)2 * nthreads * 4);
    }
  }

  /// Σ bases[idx[k]] over k < count (the scalar-1 part): one bucket, the accumulation of step 3.
  Projective sum_of(const uint32_t* idx, uint32_t count, const DA* d_bases) {
    using namespace msm_detail;
    ensure_parts(accumulation_shape(count).second);
    // the keys (all 1): in the digit keys' buffer where it holds them (the tail's Pippenger is done),
    // else in a buffer of their own
    uint32_t* one_keys = nullptr;
    if (keys.bytes() >= (size_t)count * 4) {
      one_keys = keys.as<uint32_t>();
    } else {
      ones_keys.ensure((size_t)count * 4);
      one_keys = ones_keys.as<uint32_t>();
    }
    one_bucket.ensure(sizeof(DX));
    fill_u32_kernel<<<(count + 255) / 256, 256, 0, stream>>>(one_keys, 1u, count);
    check_launch();
    Profile off(stream);
    off.on = false;
    accumulate_runs(one_bucket.as<DX>(), 1, one_keys, idx, count, d_bases, off);
    HostXyzz h;
    CUDA_CHECK(cudaMemcpyAsync(&h, one_bucket.get(), sizeof(DX), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return h.to_projective();
  }

  /// One device reduction level (step 4) with the kernel over the coordinate field G (F or a
  /// variant's, with_kernel_field).
  template <class G>
  void reduce_level(bool first, DX* po, DX* qo, const DX* p_src, const DX* q_src, uint32_t m, uint32_t total) {
    using namespace msm_detail;
    using DXG = DevXyzz<G>;
    auto* p_out = reinterpret_cast<DXG*>(po);
    auto* q_out = reinterpret_cast<DXG*>(qo);
    const auto* p_in = reinterpret_cast<const DXG*>(p_src);
    const auto* q_in = reinterpret_cast<const DXG*>(q_src);
    if (first)
      reduce_level_kernel<G, true><<<(total + 127) / 128, 128, 0, stream>>>(p_out, q_out, p_in, q_in, m, total);
    else
      reduce_level_kernel<G, false><<<(total + 127) / 128, 128, 0, stream>>>(p_out, q_out, p_in, q_in, m, total);
  }

  /// The batch-affine state of a call over a tail of n points in W windows, L entries per lane, K lanes
  /// per thread, at most `group` windows per group (and lane indices below 2^31): the bytes of each
  /// buffer (accumulate_batch_affine ensures exactly these; batch_affine_state_bytes sums them).
  struct BaSizes {
    size_t windows = 0, inv_scratch = 0;
    size_t acc = 0, cur = 0, pre = 0, slot = 0, slot_key = 0, tpart = 0, tpart_key = 0, u = 0, inv = 0;
    size_t total() const { return acc + cur + pre + slot + slot_key + tpart + tpart_key + u + inv; }
  };
  static BaSizes ba_sizes(size_t n, int W, uint32_t L, uint32_t K, uint32_t group) {
    BaSizes z;
    const size_t lanes_w = (n + L - 1) / L;
    const size_t tpw = (lanes_w + K - 1) / K;  // threads per window
    z.windows = std::min<size_t>({(size_t)W, (size_t)group, (size_t{1} << 31) / std::max<size_t>(lanes_w, 1)});
    const size_t lanes = z.windows * lanes_w, threads = z.windows * tpw;
    // acc, cur and the prefixes at the lanes' state indices (msm_batch_affine.cuh, ba_state)
    const size_t states = (size_t)msm_detail::ba_states(K, (uint32_t)threads);
    z.inv_scratch = batch_invert_scratch(threads);
    z.acc = states * sizeof(DA);
    z.cur = states * 4;
    z.pre = states * sizeof(F);
    z.slot = lanes * sizeof(DA);
    z.slot_key = lanes * 4;
    z.tpart = 2 * threads * sizeof(DX);
    z.tpart_key = 2 * threads * 4;
    z.u = threads * sizeof(F);
    z.inv = 2 * z.inv_scratch * sizeof(F);
    return z;
  }
  /// Bytes of the kept batch-affine state of any call over at most n points with cfg
  /// (GpuMsm::batch_affine_state_bytes): the state is sized by the call's tail t ≤ n (its scalars other
  /// than 0 and 1) and the window width c(t), whose window count W falls where c grows (e.g. 13 windows
  /// of c = 20 just below 2^25.5, 12 of c = 22 above it), so a tail below n can need more than n. The
  /// maximum over the largest tail of each width between the batch-affine threshold and n, c(t) being
  /// non-decreasing in t (msm_g1.cu's tables and cost model; GpuMsm.BatchAffineStateBytesBoundEveryTail
  /// checks the bound over a sweep of tails). 0 where every such call runs XYZZ.
  static size_t kept_state_bytes(size_t n, const GpuMsmConfig& cfg) {
    n = std::min<size_t>(n, msm_detail::kIndexMask);
    if (n == 0 || !batch_affine_selected(cfg, (uint32_t)n)) return 0;
    const uint32_t L = batch_affine_steps(cfg), K = batch_affine_lanes(cfg), group = ba_group_windows();
    const auto width = [&](size_t t) {
      return cfg.window_bits ? cfg.window_bits : gpu_msm_window_bits(t, kIsG1 ? 1 : 2);
    };
    const auto bytes = [&](size_t t) -> size_t {
      const int c = width(t), W = (255 + c - 1) / c;
      const BaSizes z = ba_sizes(t, W, L, K, group);
      return 2 * z.windows < (size_t)W ? 0 : z.total();  // fewer than half the windows at once: XYZZ
    };
    size_t lo = 1, hi = n;  // the smallest tail that runs batch-affine (selection is monotone in t)
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (batch_affine_selected(cfg, (uint32_t)mid)) hi = mid; else lo = mid + 1;
    }
    const size_t least = lo;
    size_t best = 0;
    for (size_t t = n;;) {  // t: the largest tail of the width c(t)
      best = std::max(best, bytes(t));
      const int c = width(t);
      size_t a = least, b = t;  // the smallest tail of width c in [least, t]
      while (a < b) {
        const size_t mid = a + (b - a) / 2;
        if (width(mid) >= c) b = mid; else a = mid + 1;
      }
      if (a <= least) break;
      t = a - 1;
    }
    return best;
  }
  /// The batch-affine state kept between calls (GpuMsm::keep_batch_affine_state).
  bool ba_keep = false;

  /// Scratch values batch_invert needs for m values: the levels above the first, and the top's
  /// prefix products.
  static size_t batch_invert_scratch(size_t m) {
    using msm_detail::kBatchInvertFanIn;
    size_t total = kBatchInvertFanIn;
    while (m > kBatchInvertFanIn) {
      m = (m + kBatchInvertFanIn - 1) / kBatchInvertFanIn;
      total += m;
    }
    return total;
  }
  /// v[0..m) (nonzero Fp or Fp2, m ≥ 1) replaced by their inverses (msm_batch_affine.cuh) on stream `st`,
  /// with `scratch` holding batch_invert_scratch(m) values.
  template <class FB>
  void batch_invert(FB* v, uint32_t m, FB* scratch, cudaStream_t st) {
    using namespace msm_detail;
    std::vector<std::pair<FB*, uint32_t>> lv{{v, m}};
    FB* next = scratch;
    while (lv.back().second > kBatchInvertFanIn) {
      const uint32_t mm = (lv.back().second + kBatchInvertFanIn - 1) / kBatchInvertFanIn;
      lv.emplace_back(next, mm);
      next += mm;
    }
    for (size_t i = 0; i + 1 < lv.size(); ++i) {
      batch_invert_up_kernel<FB><<<(lv[i + 1].second + 255) / 256, 256, 0, st>>>(lv[i + 1].first,
                                                                                     lv[i].first, lv[i].second);
      check_launch();
    }
    batch_invert_top_kernel<FB><<<1, 1, 0, st>>>(lv.back().first, next, lv.back().second);
    check_launch();
    for (size_t i = lv.size() - 1; i-- > 0;) {
      batch_invert_down_kernel<FB><<<(lv[i + 1].second + 255) / 256, 256, 0, st>>>(lv[i].first,
                                                                                       lv[i + 1].first, lv[i].second);
      check_launch();
    }
  }

  /// Step 3 for all W windows by batch-affine lanes of L entries, K lanes per thread
  /// (msm_batch_affine.cuh): every window's digits sorted one slot down (window w into slot w of
  /// keys/vals), then the windows in groups as large as the free memory allows (at most
  /// PROOFLINE_MSM_BA_GROUP), each group in L + 1 launches of the step kernel (G1:
  /// ba_step_pipelined_kernel — the same steps with the next lane's loads overlapping this lane's
  /// products — unless PROOFLINE_MSM_BA_PIPELINE=0; else ba_step_kernel) with a batch inversion
  /// of the thread products between them — split, unless PROOFLINE_MSM_BA_OVERLAP=0, into two halves
  /// on two streams, so that one half's inversion
  /// levels (latency-bound: a few small launches and one inversion in one thread) run beside
  /// the other half's step, on a stream of the greatest priority unless PROOFLINE_MSM_BA_PRIORITY=0 —,
  /// its cut runs folded per window by fold_cut. Returns false, having done
  /// nothing, if fewer than half the windows fit at once (the caller then runs XYZZ): on an H100 three
  /// groups of 4 windows, each paying the L + 1 inversions, lost to XYZZ (bench/RESULTS.md, 2026-12-07
  /// evening).
  bool accumulate_batch_affine(int W, int c, uint32_t nb, uint32_t n32, uint32_t L, uint32_t K, const DA* d_bases,
                               msm_detail::Profile& prof) {
    using namespace msm_detail;
    using FB = BaField;
    using DAB = DevAffine<FB>;
    using DXB = DevXyzz<FB>;
    const uint32_t group_max = ba_group_windows();  // all four switches checked before anything is done
    const bool overlap = ba_overlap();
    const bool priority = ba_priority();
    const bool pipeline_asked = ba_pipeline();
    const size_t n = n32;
    const uint32_t lanes_w = (uint32_t)((n + L - 1) / L);
    const uint32_t tpw = (lanes_w + K - 1) / K;  // threads per window

    // The state (ba_sizes): as many windows per group as fit, at most PROOFLINE_MSM_BA_GROUP. Per call
    // (the default) it is allocated stream-ordered (cudaMallocAsync / cudaFreeAsync on the MSM stream: no
    // device-wide synchronization beside a concurrent MSM) and freed at the call's end, so between calls
    // it neither holds memory that a caller's plan does not count nor looks free to it; it takes at most
    // half of what is free. Kept (keep_batch_affine_state: a caller that counts it in its plan), it is
    // allocated once, all windows in one group, and reused by later calls.
    const bool keep = ba_keep;
    BaSizes z{};
    if (keep) {
      z = ba_sizes(n, W, L, K, group_max);
      if (2 * z.windows < (size_t)W) return false;  // many small groups lose to XYZZ (as below)
      for (DeviceBuffer* b : ba_state_buffers()) b->set_stream(nullptr);  // a per-call state released first
    } else {
      for (DeviceBuffer* b : ba_state_buffers()) b->release();
      for (DeviceBuffer* b : ba_state_buffers()) b->set_stream(stream);
      const size_t avail = device_bytes_available();
      const size_t margin = size_t{256} << 20;
      const size_t usable = avail > margin ? (avail - margin) / 2 : 0;
      // one window's state (a group of g windows takes at most g times as much: its inversion scratch
      // grows slower than its threads)
      const size_t per_window = ba_sizes(n, W, L, K, 1).total();
      const size_t fit = std::min<size_t>(usable / per_window, (size_t{1} << 31) / lanes_w);  // lane indices < 2^31
      if (fit == 0 || 2 * fit < (size_t)W) return false;
      z = ba_sizes(n, W, L, K, (uint32_t)std::min<size_t>(group_max, fit));
    }
    const size_t gw = z.windows;
    try {  // memory taken meanwhile by another thread (a concurrent MSM): XYZZ instead, nothing done yet
      ensure_parts(tpw);  // fold_cut's parts: 2 per thread
      ba_acc.ensure(z.acc);
      ba_cur.ensure(z.cur);
      ba_pre.ensure(z.pre);
      ba_slot.ensure(z.slot);
      ba_slot_key.ensure(z.slot_key);
      ba_tpart.ensure(z.tpart);  // the threads' parts (XYZZ)
      ba_tpart_key.ensure(z.tpart_key);
      ba_u.ensure(z.u);
      ba_inv.ensure(z.inv);  // one scratch per half
    } catch (const CudaError& e) {
      if (e.code() != (int)cudaErrorMemoryAllocation) throw;
      for (DeviceBuffer* b : ba_state_buffers()) b->release();
      return false;
    }
    const size_t inv_scratch = z.inv_scratch;
    // On every way out from here (an exception included): the second stream joined into the MSM stream
    // if it was forked, then the state released stream-ordered on the MSM stream — after the join, so
    // after every kernel of both halves (a failed launch must not leave the second half writing into
    // memory that the next call is given).
    // A kept state stays after a normal end (the next call's kernels follow this call's on the MSM stream).
    struct StateGuard {
      Impl& m;
      bool forked = false, keep = false, chained = false;
      ~StateGuard() {
        // inversions still queued on the priority streams (a throw between a half's fork to its chain
        // and the wait for it): waited for, since they write the state
        for (int h = 0; chained && h < 2; ++h)
          if (m.ba_chain[h]) (void)cudaStreamSynchronize(m.ba_chain[h]);
        if (forked && cudaEventRecord(m.ba_join, m.ba_stream) == cudaSuccess)
          (void)cudaStreamWaitEvent(m.stream, m.ba_join, 0);
        else if (forked)
          (void)cudaStreamSynchronize(m.ba_stream);
        if (!keep)
          for (DeviceBuffer* b : m.ba_state_buffers()) b->release();
      }
    } guard{*this};
    if (overlap && gw > 1) {
      if (!ba_stream) CUDA_CHECK(cudaStreamCreateWithFlags(&ba_stream, cudaStreamNonBlocking));
      if (!ba_fork) CUDA_CHECK(cudaEventCreateWithFlags(&ba_fork, cudaEventDisableTiming));
      if (!ba_join) CUDA_CHECK(cudaEventCreateWithFlags(&ba_join, cudaEventDisableTiming));
    }
    const bool chains = priority && overlap && gw > 1;  // with one stream the chain is on the critical path anyway
    if (chains) {
      int least = 0, greatest = 0;
      CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      for (int h = 0; h < 2; ++h) {
        if (!ba_chain[h]) CUDA_CHECK(cudaStreamCreateWithPriority(&ba_chain[h], cudaStreamNonBlocking, greatest));
        if (!ba_stepped[h]) CUDA_CHECK(cudaEventCreateWithFlags(&ba_stepped[h], cudaEventDisableTiming));
        if (!ba_inverted[h]) CUDA_CHECK(cudaEventCreateWithFlags(&ba_inverted[h], cudaEventDisableTiming));
      }
      guard.chained = true;
    }

    // every window sorted one slot down (pippenger's digit layout: window w's digits in slot w + 1, slot
    // 0 free): from slot w + 1 into slot w, which window w − 1's sort has left free. With an odd number
    // of radix passes (CUB's 8-bit onesweep passes on sm_90: c = 17 … 24, the default widths from 2^24
    // points, where batch-affine runs) the result lands in slot w; else (a width set by
    // GpuMsmConfig::window_bits, a single-tile sort of few points) it is copied there.
    for (int w = 0; w < W; ++w) {
      uint32_t* kw = keys.as<uint32_t>() + (size_t)w * n;
      uint32_t* vw = vals.as<uint32_t>() + (size_t)w * n;
      cub::DoubleBuffer<uint32_t> sk(kw + n, kw);
      cub::DoubleBuffer<uint32_t> sv(vw + n, vw);
      size_t tb = cub_temp.bytes();
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_temp.get(), tb, sk, sv, n32, 0, c, stream));
      if (sk.Current() != kw)
        CUDA_CHECK(cudaMemcpyAsync(kw, sk.Current(), n * 4, cudaMemcpyDeviceToDevice, stream));
      if (sv.Current() != vw)
        CUDA_CHECK(cudaMemcpyAsync(vw, sv.Current(), n * 4, cudaMemcpyDeviceToDevice, stream));
    }
    prof.mark("sort");

    // G1's step kernels held to 3 blocks per SM (≤ 168 registers, 44–84 B spilled); unbounded they
    // take 172–178 and fall to 2 (ptxas sm_90, 2026-12-07); G2's take 255 either way
    constexpr int kB = kIsG1 ? 3 : 0;
    // The pipelined step (G1 only): its cp.async copies read 16-byte chunks of the bases and the sums, so
    // both must be 16-byte aligned (always so for cudaMalloc'd buffers and 96-byte points; else the
    // plain step); its 73 KiB of dynamic shared memory per block are above the 48 KiB a launch gets
    // without asking, and the largest carveout leaves room for 3 blocks per SM.
    bool pipeline = kIsG1 && pipeline_asked && reinterpret_cast<uintptr_t>(d_bases) % 16 == 0 &&
                    reinterpret_cast<uintptr_t>(ba_acc.get()) % 16 == 0;
    if constexpr (kIsG1) {
      if (pipeline) {  // a device that cannot give a block the slots (e.g. 64 KiB on sm_75): the plain step
        int device = 0, optin = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
        pipeline = (size_t)optin >= (size_t)BaSlots<FB>::kBytes;
      }
      last_step_pipelined = pipeline;
      if (pipeline) {
        CUDA_CHECK(cudaFuncSetAttribute(ba_step_pipelined_kernel<FB, kB>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)BaSlots<FB>::kBytes));
        CUDA_CHECK(cudaFuncSetAttribute(ba_step_pipelined_kernel<FB, kB>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        (int)cudaSharedmemCarveoutMaxShared));
      }
    }
    struct Half {
      BaGroup<FB> g;
      uint32_t threads;
      FB *pre, *u, *scratch;
      cudaStream_t st;
    };
    for (size_t w0 = 0; w0 < (size_t)W; w0 += gw) {
      const uint32_t gcount = (uint32_t)std::min<size_t>(gw, (size_t)W - w0);
      DX* wb = buckets.as<DX>() + w0 * nb;
      CUDA_CHECK(cudaMemsetAsync(wb, 0, (size_t)gcount * nb * sizeof(DX), stream));  // all-zero XYZZ = identity
      const uint32_t halves = overlap && gcount > 1 ? 2 : 1;
      const uint32_t group_threads = gcount * tpw;
      const BaGroup<FB> whole{keys.as<uint32_t>() + w0 * n,
                              vals.as<uint32_t>() + w0 * n,
                              reinterpret_cast<const DAB*>(d_bases),
                              reinterpret_cast<DXB*>(wb),
                              ba_acc.as<DAB>(),
                              ba_cur.as<uint32_t>(),
                              ba_slot.as<DAB>(),
                              ba_slot_key.as<uint32_t>(),
                              n32,
                              L,
                              lanes_w,
                              gcount * lanes_w,
                              nb,
                              tpw,
                              ba_tpart.as<DXB>(),
                              ba_tpart_key.as<uint32_t>(),
                              (uint32_t)ba_states(K, group_threads)};
      Half hv[2]{};
      for (uint32_t h = 0; h < halves; ++h) {  // msm_batch_affine.cuh's ba_half: the offsets the emulation test checks
        const BaHalf<FB> x = ba_half(whole, gcount, halves, h, K);
        hv[h] = Half{x.g, x.threads, ba_pre.as<FB>() + x.state0, ba_u.as<FB>() + x.thread0,
                     ba_inv.as<FB>() + h * inv_scratch, h == 0 ? stream : ba_stream};
        ba_init_kernel<FB><<<(std::max(x.g.lanes, x.g.states) + 255) / 256, 256, 0, stream>>>(x.g);
        check_launch();
      }
      if (halves == 2) {  // the second half starts after the memset and the inits
        CUDA_CHECK(cudaEventRecord(ba_fork, stream));
        guard.forked = true;
        CUDA_CHECK(cudaStreamWaitEvent(ba_stream, ba_fork, 0));
      }
      for (uint32_t s = 0; s <= L; ++s) {
        for (uint32_t h = 0; h < halves; ++h) {
          const Half& x = hv[h];
          bool launched = false;
          if constexpr (kIsG1) {  // G2's pipelined kernel is never instantiated
            if (pipeline) {
              ba_step_pipelined_kernel<FB, kB><<<(x.threads + 127) / 128, BaSlots<FB>::kThreads, BaSlots<FB>::kBytes,
                                                 x.st>>>(x.g, x.pre, x.u, x.threads, K, s);
              launched = true;
            }
          }
          if (!launched)
            ba_step_kernel<FB, kB><<<(x.threads + 127) / 128, 128, 0, x.st>>>(x.g, x.pre, x.u, x.threads, K, s);
          check_launch();
          if (s < L && chains && halves == 2) {  // the inversion on the half's priority stream, then back
            CUDA_CHECK(cudaEventRecord(ba_stepped[h], x.st));
            CUDA_CHECK(cudaStreamWaitEvent(ba_chain[h], ba_stepped[h], 0));
            batch_invert(x.u, x.threads, x.scratch, ba_chain[h]);
            CUDA_CHECK(cudaEventRecord(ba_inverted[h], ba_chain[h]));
            CUDA_CHECK(cudaStreamWaitEvent(x.st, ba_inverted[h], 0));
          } else if (s < L) {
            batch_invert(x.u, x.threads, x.scratch, x.st);
          }
        }
      }
      for (uint32_t h = 0; h < halves; ++h) {
        const Half& x = hv[h];
        ba_flush_threads_kernel<FB><<<(x.threads + 127) / 128, 128, 0, x.st>>>(x.g, x.threads, K);
        check_launch();
      }
      if (halves == 2) {  // the fold (on the MSM stream) after both halves
        CUDA_CHECK(cudaEventRecord(ba_join, ba_stream));
        CUDA_CHECK(cudaStreamWaitEvent(stream, ba_join, 0));
        guard.forked = false;
      }
      prof.mark("accumulate");
      for (uint32_t wl = 0; wl < gcount; ++wl) {  // the halves' parts lie window after window (ba_half)
        const uint32_t m = 2 * tpw;  // the window's threads' parts, already XYZZ
        CUDA_CHECK(cudaMemcpyAsync(part[0].get(), whole.tpart + (size_t)wl * m, (size_t)m * sizeof(DXB),
                                   cudaMemcpyDeviceToDevice, stream));
        CUDA_CHECK(cudaMemcpyAsync(part_keys[0].get(), whole.tpart_key + (size_t)wl * m, (size_t)m * 4,
                                   cudaMemcpyDeviceToDevice, stream));
        with_kernel_field(msm_detail::KernelGroup::kFoldReduce, [&](auto f) {
          using G = decltype(f);
          fold_cut<G>(reinterpret_cast<DevXyzz<G>*>(wb + (size_t)wl * nb), tpw);
        });
      }
      prof.mark("fold");
    }
    guard.keep = keep;
    guard.chained = false;  // every inversion on the priority streams was waited for by its half's stream
    return true;  // the guard releases a per-call state, stream-ordered: after the fold's kernels
  }
  /// The batch-affine lanes' state (accumulate_batch_affine).
  std::array<DeviceBuffer*, 9> ba_state_buffers() {
    return {&ba_acc, &ba_cur, &ba_pre, &ba_slot, &ba_slot_key, &ba_inv, &ba_u, &ba_tpart, &ba_tpart_key};
  }

  /// Steps 1–5 over n scalars: scalar k is d_scalars[p], point bases[p], p = idx[k] (idx null: p = k).
  Projective pippenger(const DevFr* d_scalars, const uint32_t* idx, uint32_t n32, const DA* d_bases,
                       const GpuMsmConfig& cfg) {
    using namespace msm_detail;
    const size_t n = n32;
    int c = cfg.window_bits ? cfg.window_bits : gpu_msm_window_bits(n, std::is_same_v<Cfg, ec::G2Config> ? 2 : 1);
    const int W = (255 + c - 1) / c;
    const uint32_t nb = 1u << (c - 1);
    const uint32_t nthreads = accumulation_shape(n32).second;

    // digits: window w in slot w + 1 of W + 1 slots of n; slot 0 is the sort's other buffer (the
    // windows' sorts ping-pong between slots: no copy and no n-sized CUB scratch)
    keys.ensure((size_t)(W + 1) * n * 4);
    vals.ensure((size_t)(W + 1) * n * 4);
    buckets.ensure((size_t)W * nb * sizeof(DX));
    ensure_parts(nthreads);
    if (nb > kHostReduceMax) {
      const size_t lvl = (size_t)W * (nb / kReduceSeg) * sizeof(DX);
      red_p[0].ensure(lvl);
      red_q[0].ensure(lvl);
      if (nb / kReduceSeg > kHostReduceMax) {
        red_p[1].ensure(lvl / kReduceSeg);
        red_q[1].ensure(lvl / kReduceSeg);
      }
    }
    uint32_t* const k0 = keys.as<uint32_t>();  // slot 0
    uint32_t* const v0 = vals.as<uint32_t>();
    size_t temp_bytes = 0;
    {
      cub::DoubleBuffer<uint32_t> dk(k0 + n, k0), dv(v0 + n, v0);
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, dk, dv, n32, 0, c, stream));
    }
    cub_temp.ensure(std::max<size_t>(temp_bytes, 1));

    msm_detail::Profile prof(stream);
    digits_kernel<<<(n32 + 255) / 256, 256, 0, stream>>>(k0 + n, v0 + n, d_scalars, idx, n32, c, W);
    check_launch();

    prof.mark("digits");
    const bool batch_affine =
        batch_affine_selected(cfg, n32) &&
        accumulate_batch_affine(W, c, nb, n32, batch_affine_steps(cfg), batch_affine_lanes(cfg), d_bases, prof);
    last_bucket_add = batch_affine ? BucketAdd::kBatchAffine : BucketAdd::kXyzz;
    for (int w = 0; w < W && !batch_affine; ++w) {
      // window w's digits (slot w + 1) sorted against slot 0 (free: the last window's result is summed)
      cub::DoubleBuffer<uint32_t> sk(k0 + (size_t)(w + 1) * n, k0), sv(v0 + (size_t)(w + 1) * n, v0);
      size_t tb = cub_temp.bytes();
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_temp.get(), tb, sk, sv, n32, 0, c, stream));
      prof.mark("sort");
      accumulate_runs(buckets.as<DX>() + (size_t)w * nb, nb, sk.Current(), sv.Current(), n32, d_bases, prof);
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
      with_kernel_field(KernelGroup::kFoldReduce,
                        [&](auto g) { reduce_level<decltype(g)>(first, po, qo, p_src, q_src, m, total); });
      check_launch();
      p_src = po;
      q_src = qo;
      m /= kReduceSeg;
      first = false;
      ++level;
    }
    prof.mark("reduce");
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
    prof.report(n, c, W, batch_affine ? "batch-affine" : "xyzz");
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
      cudaMemcpyAsync(impl_->scalars.get(), scalars.data(), n * sizeof(ff::Fr), cudaMemcpyHostToDevice, impl_->stream));
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
BucketAdd GpuMsm<Cfg>::last_bucket_add() const {
  return impl_->last_bucket_add;
}
template <class Cfg>
bool GpuMsm<Cfg>::last_step_pipelined() const {
  return impl_->last_step_pipelined && impl_->last_bucket_add == BucketAdd::kBatchAffine;
}
template <class Cfg>
void GpuMsm<Cfg>::release_scratch() {
  impl_->release_scratch();
}
template <class Cfg>
void GpuMsm<Cfg>::keep_batch_affine_state(bool keep) {
  impl_->ba_keep = keep;
  if (!keep)
    for (DeviceBuffer* b : impl_->ba_state_buffers()) b->release();
}
template <class Cfg>
std::size_t GpuMsm<Cfg>::batch_affine_state_bytes(std::size_t n, const GpuMsmConfig& cfg) {
  return Impl::kept_state_bytes(n, cfg);
}

}  // namespace proofline::gpu
