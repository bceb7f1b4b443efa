// src/gpu/msm_batch_affine.cuh — batch-affine bucket accumulation of the GPU MSM (step 3 of
// proofline/gpu/msm.hpp's algorithm; G1's default for large tails, G2 on request): the kernels and the batch inversion, over
// Fp (G1) or Fp2 (G2). Included by msm.cuh only, after its constants (kSignBit, kIndexMask);
// msm.cuh's Impl::accumulate_batch_affine drives the kernels.
//
// Lanes. As in accumulate_kernel (msm.cuh), each window's n sorted (key, value) entries are cut into
// ranges of L entries, one per lane: lane g of window w owns entries [gL, min(gL + L, n)) and keeps
// one affine accumulator `acc` and the key `cur` of the run it is summing (bit 31: the run began
// before the range). The lanes of a group of windows advance together in L steps; step s handles
// entry lo + s of every lane:
//   key 0 or past the range  nothing;
//   key != cur               the lane's finished run is flushed (below), acc = the entry's point,
//                            cur = key (no addition);
//   key == cur               acc = acc + point, an affine addition.
// Every affine addition of one step shares one field inversion (Montgomery's trick over the whole
// group, or over each half where msm.cuh steps a group as two halves on two streams: ba_half), so
// ≈ 6 products per addition instead of the 8M + 2S of an XYZZ mixed addition.
//
// Steps (ba_step_kernel). Thread t of a group holds K consecutive lanes of one window and visits them
// once per launch; launch s (s = 0 … L) finishes step s − 1's additions and prepares step s's: for a
// lane whose step s − 1 is an addition it recomputes the denominator and applies the inverse
// (Montgomery's trick backwards), then for step s it either starts a run or leaves an addition
// pending, multiplying its denominator into the thread's running product (the trick forwards; the
// exclusive prefix is kept per lane, one field element). Between launches batch_invert inverts the T
// thread products (levels of 16 and one inversion in one thread, fp_inverse.cuh), so per addition: 3 products of the trick
// (prefix, inverse, running inverse), λ, λ², λ·(x1 − x3), and 3/K of the levels. The backward pass
// must visit the lanes in the reverse of the forward order, so launches alternate ascending and
// descending k. One launch and the inversion levels per step; a lane's state (acc, cur, prefix)
// lives in device memory between launches, at index k·T + t (ba_state).
// Flush, the same rule as accumulate_kernel: a run wholly inside the range becomes its bucket
// (buckets[key − 1] = the run's sum as XYZZ); a run that began before the lane and ends inside it
// leaves its sum in the lane's slot; after the last step ba_flush_thread sums the thread's runs across
// its K lanes, so that only a run cut by the thread's first or last lane leaves a part (2 per thread),
// which the XYZZ fold of msm.cuh (fold_cut) adds into the buckets, exactly as for the XYZZ path's
// partial sums. (A strided layout — thread t holding lanes t, t + T, … with 2 slots per lane — lost
// to this one at every L and K on an H100 and was removed; bench/RESULTS.md, 2026-12-07.)

// Affine addition a + p (a = acc, p = the entry's point; (0, 0) = identity, ec.cuh):
//   a or p identity            the other; no inversion needed (denominator 1)
//   x_a != x_p                 λ = (y_p − y_a)/(x_p − x_a)
//   x_a == x_p, y_a == y_p     doubling: λ = 3x_a²/(2y_a)   (y_a = 0 would be a 2-torsion point:
//                              identity, denominator 1; prime-order bases have none)
//   x_a == x_p, y_a == −y_p    identity (denominator 1)
//   then x3 = λ² − x_a − x_p, y3 = λ(x_a − x3) − y_a.
// So every denominator is nonzero and one element cannot poison the batch (the inverse of a
// product containing 0 would be 0 and wipe every inverse of the batch).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "ec.cuh"
#include "fp_inverse.cuh"

namespace proofline::gpu {
namespace msm_detail {

constexpr uint32_t kRunBeganBefore = 0x80000000u;  ///< bit of a lane's `cur`
constexpr uint32_t kBaPending = 0x40000000u;       ///< bit of a lane's `cur`: an addition waits for its inverse
constexpr uint32_t kBaKeyMask = 0x3fffffffu;       ///< the run's key in `cur` (keys ≤ 2^(c−1) ≤ 2^23)
constexpr uint32_t kBatchInvertFanIn = 16;          ///< elements per thread of each batch_invert level

/// a^(−1) in Fp (a != 0), Montgomery form in and out, in one thread: the binary extended Euclidean
/// algorithm of fp_inverse.cuh (Fermat's 475 dependent products took 570 µs on an H100; see there).
__device__ inline DevFp fp_inverse(const DevFp& a) {
  DevFp r;
  fp_inverse_mont(a.v, r.v);
  return r;
}

/// a^(−1) for a != 0 in the batch-affine field: Fp (fp_inverse), or Fp2 = Fp[u]/(u^2 + 1) by its
/// norm: (a0 + a1·u)^(−1) = (a0 − a1·u)/(a0^2 + a1^2), one Fp inversion.
__device__ inline DevFp field_inverse(const DevFp& a) { return fp_inverse(a); }
template <Fp2Code kCode, int kBlocks>
__device__ inline DevFp2T<kCode, kBlocks> field_inverse(const DevFp2T<kCode, kBlocks>& a) {
  const DevFp i = fp_inverse(a.c0 * a.c0 + a.c1 * a.c1);
  return {a.c0 * i, -(a.c1 * i)};
}

// ---- batch inversion of m nonzero values in place (Montgomery's trick, in levels) ---------------
// up:   u[i] = Π v[iK .. min(iK + K, m))                       (K = kBatchInvertFanIn)
// top:  one thread: the values of the last level (≤ K) inverted by prefix products and one
//       field_inverse
// down: with u[i] now inverted: prefix products of v[iK ..] recomputed, then backwards
//       v[j] ← (Π_{<j} v)·u, u ← u·v[j]
template <class F>
__global__ void __launch_bounds__(256) batch_invert_up_kernel(F* __restrict__ u, const F* __restrict__ v, uint32_t m) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t b = (uint64_t)i * kBatchInvertFanIn;
  if (b >= m) return;
  const uint32_t e = b + kBatchInvertFanIn < m ? (uint32_t)(b + kBatchInvertFanIn) : m;
  F prod = v[b];
  for (uint32_t j = (uint32_t)b + 1; j < e; ++j) prod = prod * v[j];
  u[i] = prod;
}

template <class F>
__global__ void __launch_bounds__(256) batch_invert_down_kernel(F* __restrict__ v, const F* __restrict__ u,
                                                               uint32_t m) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t b64 = (uint64_t)i * kBatchInvertFanIn;
  if (b64 >= m) return;
  const uint32_t b = (uint32_t)b64;
  const uint32_t len = m - b < kBatchInvertFanIn ? m - b : kBatchInvertFanIn;
  F pre[kBatchInvertFanIn];  // pre[k] = v[b]·…·v[b + k]
  pre[0] = v[b];
  for (uint32_t k = 1; k < len; ++k) pre[k] = pre[k - 1] * v[b + k];
  F inv = u[i];  // (v[b]·…·v[b + len − 1])^(−1)
  for (uint32_t k = len - 1; k >= 1; --k) {
    const F vk = v[b + k];
    v[b + k] = inv * pre[k - 1];
    inv = inv * vk;
  }
  v[b] = inv;
}

/// One thread: v[0..m) inverted in place (m ≥ 1, ≤ kBatchInvertFanIn), pre = m scratch values.
template <class F>
__global__ void batch_invert_top_kernel(F* __restrict__ v, F* __restrict__ pre, uint32_t m) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  pre[0] = v[0];
  for (uint32_t k = 1; k < m; ++k) pre[k] = pre[k - 1] * v[k];
  F inv = field_inverse(pre[m - 1]);
  for (uint32_t k = m - 1; k >= 1; --k) {
    const F vk = v[k];
    v[k] = inv * pre[k - 1];
    inv = inv * vk;
  }
  v[0] = inv;
}

// ---- the lanes -----------------------------------------------------------------------------------
/// One group of windows [w0, w0 + windows) on the device: pointers at window w0's entries and
/// buckets; lane g belongs to window w0 + g / lanes_per_window.
template <class F>
struct BaGroup {
  const uint32_t* keys;   ///< sorted keys, n per window
  const uint32_t* vals;   ///< sorted values (point index | sign << 31), n per window
  const DevAffine<F>* bases;
  DevXyzz<F>* buckets;    ///< nb per window
  DevAffine<F>* acc;      ///< per lane, at its state index (ba_state: k·T + t for thread t's k-th lane)
  uint32_t* cur;          ///< per lane, at its state index: key | kRunBeganBefore | kBaPending (0: no run yet)
  DevAffine<F>* slot;     ///< 1 per lane: a run that began before the lane and ended inside it (ba_flush_thread)
  uint32_t* slot_key;     ///< 1 per lane (0: empty)
  uint32_t n, L, lanes_per_window, lanes, nb;
  /// Threads per window (⌈lanes_per_window / K⌉): thread t holds lanes tw·K … tw·K + K − 1 of window
  /// t / threads_per_window (tw = t mod threads_per_window), its runs merged across its lanes at the
  /// end (ba_flush_thread) into 2 parts.
  uint32_t threads_per_window = 0;
  DevXyzz<F>* tpart = nullptr;   ///< 2 per thread, window by window (fold_cut's part form)
  uint32_t* tpart_key = nullptr;  ///< 2 per thread (0: empty)
  /// The entries of acc, cur and the prefixes: K·T (ba_states), which the rounding of each window's
  /// lanes to whole threads may take above `lanes`.
  uint32_t states = 0;
};

/// The state index of thread t's k-th lane (acc, cur and the prefix of ba_step_kernel live there):
/// k·threads + t, so that the 32 threads of a warp touch 32 consecutive entries at every visit. Keying
/// them by the lane instead put a warp on 32 entries K apart: 1.9× the step time on an H100
/// (bench/RESULTS.md, 2026-12-07 afternoon).
PROOFLINE_HD uint64_t ba_state(uint32_t k, uint32_t t, uint32_t threads) {
  return (uint64_t)k * threads + t;
}
/// The entries of acc, cur and the prefixes when `threads` threads hold K lanes each (at least the lanes:
/// each window's lanes are rounded up to whole threads).
PROOFLINE_HD uint64_t ba_states(uint32_t K, uint32_t threads) { return (uint64_t)K * threads; }

/// Half h of a group of `windows` windows stepped as `halves` (1 or 2) groups of their own (msm.cuh
/// runs the two on two streams, so that one's batch inversion runs beside the other's step): the first
/// ⌈windows/2⌉ windows, then the rest. `whole` views the group (pointers at its first window, lane,
/// thread and state; threads_per_window set); the half's view has its pointers moved to its first
/// window, lanes and states, so the halves' states, slots and parts lie one after the other exactly
/// where the whole group's would. threads: the half's; thread0 / state0: where its threads (the thread
/// products u) and states (the prefixes) begin within the group's.
template <class F>
struct BaHalf {
  BaGroup<F> g;
  uint32_t threads;
  uint64_t thread0, state0;
};
template <class F>
inline BaHalf<F> ba_half(const BaGroup<F>& whole, uint32_t windows, uint32_t halves, uint32_t h, uint32_t K) {
  const uint32_t first = halves == 2 ? (windows + 1) / 2 : windows;
  const uint32_t w0 = h == 0 ? 0 : first, count = h == 0 ? first : windows - first;
  const uint32_t tpw = whole.threads_per_window;
  BaHalf<F> r{whole, count * tpw, (uint64_t)w0 * tpw, ba_states(K, w0 * tpw)};
  const uint64_t lane0 = (uint64_t)w0 * whole.lanes_per_window;
  r.g.keys += (uint64_t)w0 * whole.n;
  r.g.vals += (uint64_t)w0 * whole.n;
  r.g.buckets += (uint64_t)w0 * whole.nb;
  r.g.acc += r.state0;
  r.g.cur += r.state0;
  r.g.slot += lane0;
  r.g.slot_key += lane0;
  r.g.tpart += 2 * r.thread0;
  r.g.tpart_key += 2 * r.thread0;
  r.g.lanes = count * whole.lanes_per_window;
  r.g.states = (uint32_t)ba_states(K, r.threads);
  return r;
}

enum : uint32_t { kBaNone = 0, kBaStart = 1, kBaAdd = 2 };

/// Lane g's view of its window: entries [lo, hi) of keys/vals, its window's buckets.
template <class F>
struct BaLaneView {
  const uint32_t* keys;
  const uint32_t* vals;
  DevXyzz<F>* buckets;
  uint32_t lo, hi;
  __device__ BaLaneView(const BaGroup<F>& g, uint32_t lane) {
    const uint32_t wl = lane / g.lanes_per_window, t = lane % g.lanes_per_window;
    keys = g.keys + (size_t)wl * g.n;
    vals = g.vals + (size_t)wl * g.n;
    buckets = g.buckets + (size_t)wl * g.nb;
    lo = t * g.L;  // < n: lanes_per_window = ⌈n/L⌉
    hi = lo + g.L < g.n ? lo + g.L : g.n;
  }
  /// What step s does for a lane whose run key is `cur_key`; the entry's key in k.
  __device__ uint32_t op(uint32_t s, uint32_t cur_key, uint32_t& k) const {
    const uint32_t j = lo + s;
    if (j >= hi) return kBaNone;
    k = keys[j];
    if (k == 0) return kBaNone;
    return k == cur_key ? kBaAdd : kBaStart;
  }
  __device__ DevAffine<F> point(const DevAffine<F>* bases, uint32_t j) const {
    const uint32_t v = vals[j];
    DevAffine<F> p = bases[v & kIndexMask];
    if (v & kSignBit) p.y = -p.y;
    return p;
  }
};

/// The denominator of a + p (the table at the top of the file): never zero.
template <class F>
__device__ F ba_denominator(const DevAffine<F>& a, const DevAffine<F>& p) {
  if (a.is_identity() || p.is_identity()) return F::one();
  if (a.x == p.x) return (a.y == p.y && !a.y.is_zero()) ? a.y.dbl() : F::one();
  return p.x - a.x;
}

/// a + p given inv = the inverse of ba_denominator(a, p).
template <class F>
__device__ DevAffine<F> ba_sum(const DevAffine<F>& a, const DevAffine<F>& p, const F& inv) {
  if (a.is_identity()) return p;
  if (p.is_identity()) return a;
  F lambda;
  if (a.x == p.x) {
    if (!(a.y == p.y) || a.y.is_zero()) return DevAffine<F>::identity();
    const F xx = a.x.sqr();
    lambda = (xx.dbl() + xx) * inv;
  } else {
    lambda = (p.y - a.y) * inv;
  }
  DevAffine<F> r;
  r.x = lambda.sqr() - a.x - p.x;
  r.y = lambda * (a.x - r.x) - a.y;
  return r;
}

/// Step 1 of a visit (ba_step_kernel's doc): acc ← acc + p, the addition launch s − 1 left pending, by
/// the lane's inverse inv·pre_lane (pre_lane: its prefix, read where it is needed); then inv ← inv·d,
/// d = the addition's denominator, for the lanes visited after it.
template <class F>
__device__ void ba_finish_pending(DevAffine<F>& acc, const DevAffine<F>& p, const F& pre_lane, F& inv) {
  const F d = ba_denominator(acc, p);
  const F inv_lane = inv * pre_lane;
  inv = inv * d;
  acc = ba_sum(acc, p, inv_lane);
}

/// The lane's finished run (key cur & kBaKeyMask, sum acc; it ends inside the lane) leaves: the lane's
/// slot if it began before the lane, else its bucket (file comment).
template <class F>
__device__ void ba_flush(const BaGroup<F>& g, const BaLaneView<F>& lv, uint32_t lane, uint32_t cur,
                         const DevAffine<F>& acc) {
  const uint32_t key = cur & kBaKeyMask;
  if (cur & kRunBeganBefore) {
    g.slot[lane] = acc;
    g.slot_key[lane] = key;
  } else {
    lv.buckets[key - 1] = DevXyzz<F>::from_affine(acc);
  }
}

/// After the last step: thread t's lanes in ascending order, a run that continues into the thread's
/// next lane summed across them in XYZZ — the next lane holds its part either in its slot (the run
/// ended inside that lane: ba_flush wrote it there) or as its last run (cur, flagged "began
/// before") — and each run leaving as accumulate_kernel's do: its bucket when it begins and ends inside
/// the thread's lanes, else tpart[2t] (began before them; with the identity in tpart[2t + 1] under the
/// same key when it also continues past them) or tpart[2t + 1] (continues past them). So fold_cut sees
/// 2 parts per thread, not 2 per lane.
template <class F>
__device__ void ba_flush_thread(const BaGroup<F>& g, uint32_t t, uint32_t K, uint32_t threads) {
  const uint32_t wl = t / g.threads_per_window, first = (t % g.threads_per_window) * K;
  const uint32_t end = first + K < g.lanes_per_window ? first + K : g.lanes_per_window;
  DevXyzz<F>* tp = g.tpart + 2 * (size_t)t;
  uint32_t* tk = g.tpart_key + 2 * (size_t)t;
  tk[0] = 0;
  tk[1] = 0;
  bool open = false, before = false;
  uint32_t key = 0;
  DevXyzz<F> sum = DevXyzz<F>::identity();
  // one part of a run: joins the open run (same key: it continued into this lane) or opens one
  auto take = [&](const DevAffine<F>& a, uint32_t k, bool began_before) {
    if (open && began_before && k == key) {
      sum += a;
    } else {
      sum = DevXyzz<F>::from_affine(a);
      key = k;
      before = began_before;  // only in the thread's first lane: else the run was open
      open = true;
    }
  };
  auto leave = [&](const BaLaneView<F>& lv, bool continues) {
    if (before) {
      tp[0] = sum;
      tk[0] = key;
      if (continues) {
        tp[1] = DevXyzz<F>::identity();
        tk[1] = key;
      }
    } else if (continues) {
      tp[1] = sum;
      tk[1] = key;
    } else {
      lv.buckets[key - 1] = sum;
    }
    open = false;
  };
#pragma unroll 1
  for (uint32_t l = first; l < end; ++l) {
    const uint32_t lane = wl * g.lanes_per_window + l;
    const BaLaneView<F> lv(g, lane);
    const uint32_t head = g.slot_key[lane];
    if (head != 0) {  // a run that began before this lane and ended inside it
      take(g.slot[lane], head, true);
      leave(lv, false);
    }
    const uint64_t st = ba_state(l - first, t, threads);
    const uint32_t cur = g.cur[st];
    if (cur == 0) continue;  // no run (an open run always continues into a lane that holds it)
    take(g.acc[st], cur & kBaKeyMask, (cur & kRunBeganBefore) != 0);
    const bool continues = lv.hi < g.n && lv.keys[lv.hi] == key;
    if (continues && l + 1 < end) continue;  // the thread's next lane carries it on
    leave(lv, continues);
  }
}

/// The merge of each thread's lanes (ba_flush_thread) for threads 0 … threads − 1, launched after step L:
/// in a kernel of its own so that its XYZZ additions add no registers to ba_step_kernel.
template <class F>
__global__ void __launch_bounds__(128) ba_flush_threads_kernel(BaGroup<F> g, uint32_t threads, uint32_t K) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < threads) ba_flush_thread(g, t, K, threads);
}

/// Every state's cur (g.states of them) and every lane's slot key to 0; launched over
/// max(g.lanes, g.states) threads.
template <class F>
__global__ void __launch_bounds__(256) ba_init_kernel(BaGroup<F> g) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < g.states) g.cur[i] = 0;
  if (i < g.lanes) g.slot_key[i] = 0;
}

/// Launch s of a group (s = 0 … L; the file comment, "Steps"): thread t's K lanes (k = 0 … K − 1: the
/// window's lane (t mod tpw)·K + k), in the order ascending in k for even s, descending for odd s (the
/// reverse of launch s − 1's) (a lane's acc, cur and prefix pre at its state index ba_state(k, t, threads)):
///   1. the addition step s − 1 left pending (kBaPending in cur) is done: its denominator d is
///      recomputed from the same acc and point, the lane's inverse is inv·pre where inv, starting
///      from u[t] (the inverse of launch s − 1's product, by batch_invert), is (Π of the denominators
///      of this lane and those before it in launch s − 1's order)^(−1); then inv ← inv·d;
///   2. s < L: entry lo + s — a new run starts (the finished one flushed, as accumulate_kernel), or an
///      addition is left pending: pre = the product of the denominators before it in this
///      launch's order, prod ← prod·d; u[t] = prod at the end (1 where nothing is pending).
///      After step L the runs the lanes hold are merged by ba_flush_threads_kernel.
/// Blocks of 128 threads; kMinBlocks is __launch_bounds__' minimum of resident blocks per SM (ptxas sm_90,
/// 2026-12-07 — 0: none, G1 178 registers (2 blocks per SM), G2 255 with a 1,064 B frame; 3, as msm.cuh
/// runs G1: 168 registers, 44–84 B spilled). (An L2 prefetch of the lanes ahead was tried and removed:
/// on an H100 it took the step 30 % longer, bench/RESULTS.md 2026-12-07 afternoon.) G1's
/// ba_step_pipelined_kernel (below) is the same launch with the next lane's loads overlapping this
/// lane's products.
template <class F, int kMinBlocks>
__global__ void __launch_bounds__(128, kMinBlocks)
    ba_step_kernel(BaGroup<F> g, F* __restrict__ pre, F* __restrict__ u, uint32_t threads, uint32_t K, uint32_t s) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  F inv = s > 0 ? u[t] : F::one();
  F prod = F::one();
  const bool ascending = (s & 1) == 0;
  const uint32_t tpw = g.threads_per_window, first = (t % tpw) * K, window_lane0 = (t / tpw) * g.lanes_per_window;
#pragma unroll 1
  for (uint32_t i = 0; i < K; ++i) {
    const uint32_t k = ascending ? i : K - 1 - i;
    if (first + k >= g.lanes_per_window) continue;  // the window's last thread: fewer than K lanes
    const uint32_t lane = window_lane0 + first + k;
    const uint64_t st = ba_state(k, t, threads);
    const BaLaneView<F> lv(g, lane);
    uint32_t cur = g.cur[st];
    const uint32_t cur0 = cur;
    DevAffine<F> acc;
    bool have_acc = false, acc_changed = false;
    if (cur & kBaPending) {  // 1.
      acc = g.acc[st];
      have_acc = true;
      ba_finish_pending(acc, lv.point(g.bases, lv.lo + s - 1), pre[st], inv);
      acc_changed = true;
      cur &= ~kBaPending;
    }
    if (s < g.L) {  // 2.
      uint32_t key = 0;
      const uint32_t op = lv.op(s, cur & kBaKeyMask, key);
      if (op == kBaAdd) {
        if (!have_acc) {
          acc = g.acc[st];
          have_acc = true;
        }
        const F d = ba_denominator(acc, lv.point(g.bases, lv.lo + s));
        pre[st] = prod;
        prod = prod * d;
        cur |= kBaPending;
      } else if (op == kBaStart) {
        if (cur != 0) {
          if (!have_acc) acc = g.acc[st];
          ba_flush(g, lv, lane, cur, acc);
        }
        const uint32_t j = lv.lo + s;
        const bool before = j == lv.lo && lv.lo > 0 && lv.keys[lv.lo - 1] == key;
        cur = key | (before ? kRunBeganBefore : 0u);
        acc = lv.point(g.bases, j);
        have_acc = acc_changed = true;
      }
    }
    if (acc_changed) g.acc[st] = acc;
    if (cur != cur0) g.cur[st] = cur;
  }
  if (s < g.L) u[t] = prod;
}

// ---- the step, software-pipelined (G1's default; PROOFLINE_MSM_BA_PIPELINE=0: the plain one, msm.cuh) --
// ba_step_kernel visits a thread's K lanes one after another and each visit waits for its own loads:
// cur, the entry's key and value, then the random gathers of one or two 96-byte points and the
// lane's acc, and only then multiplies. ba_step_pipelined_kernel does the same arithmetic, in the
// same order, on the same state, but requests visit i + 1's acc and points before it multiplies
// for visit i: asynchronous global → shared copies (cp.async, 16 bytes each, L2 only) into slots of
// shared memory that belong to the thread alone (no __syncthreads, nothing shared between
// threads), two per thread (visit i's in slot i mod 2, visit i + 1's in the other).
// Per visit, one group of copies (committed even when empty, so that "all but the newest group
// done" is always "the visit about to compute has landed"):
//   acc                   where the lane has a run (cur != 0) and the visit touches it (an
//                         addition pending or entry lo + s to take);
//   the pending point     bases[vals[lo + s − 1]] where step s − 1 left an addition (kBaPending);
//   step s's point        bases[vals[lo + s]] where s < L, lo + s < hi and its key is nonzero.
// The small words a visit needs to decide what to copy (cur, keys[lo + s], vals[lo + s − 1],
// vals[lo + s]) are read with ordinary loads when its copies are requested (one visit ahead) and
// parked in the thread's BaLaneWords in shared memory until it computes; the prefix pre (48 B, only
// where an addition is pending) is an ordinary load where it is used, as in ba_step_kernel.
// Shared memory per block (BaSlots): 128 threads × (2 slots × (acc + 2 points) + words) =
// 128 × (2 × 288 + 8) B = 74,752 B for G1 (73 KiB), so 3 blocks (plus 1 KiB reserved each: 222 KiB)
// fit an H100's 228 KiB, as many as its registers allow (168 each, __launch_bounds__(128, 3)). The
// prefix in the slots too would be 84 KiB a block: 2 blocks per SM. Kept in registers instead
// (loaded at the top of the iteration) it took ptxas sm_90 from 52 to 72 B of spill stores, and
// the words in registers from 52 to 84 (2026-12-07).
// The slots are laid out chunk-major (chunk c of every thread's slot side by side), so a warp's
// 16-byte accesses to one chunk are 512 consecutive bytes: no bank conflicts. Compiled by the host
// compiler (tests/gpu_host's emulation) the copies go into a per-thread host array of the same layout,
// queued when the device would request them and landed only by the wait that covers their group
// (BaHostCopy), so the emulation checks which lane's data lands in which slot, and when.

/// A lane's small words for one visit of ba_step_pipelined_kernel, read when its copies are requested
/// (one visit ahead) and kept in shared memory (BaSlots::words) until it computes: cur as the launch
/// found it (0 for a lane past the window's), and in `entry` the key of entry lo + s (0 where step s
/// does nothing: s = L, past the range, or key 0; at most kBaKeyMask) with the signs of the visit's
/// two points above it (kBaNegPending: vals[lo + s − 1] had kSignBit, kBaNegStep: vals[lo + s]).
constexpr uint32_t kBaNegPending = 0x80000000u, kBaNegStep = 0x40000000u;
static_assert(((kBaNegPending | kBaNegStep) & kBaKeyMask) == 0, "the signs lie above the key");
struct BaLaneWords {
  uint32_t cur = 0, entry = 0;
  __device__ uint32_t key() const { return entry & kBaKeyMask; }
};

/// 16 bytes of a slot: the unit of one cp.async.
#if defined(__CUDACC__)
using BaChunk = uint4;
#else
struct alignas(16) BaChunk {
  uint32_t w[4];
};
#endif

#if !defined(__CUDACC__)
/// The host emulation's model of cp.async (tests/gpu_host/batch_affine_emulation_test.cpp): a copy is
/// queued under the current group number and its slot poisoned; ba_copies_commit starts the next group;
/// ba_copies_wait_all_but_newest lands every queued copy of an older group. So a read of a slot before
/// its copy's wait reads the poison, as it could read stale bytes on the device.
struct BaHostCopy {
  uint64_t group;
  BaChunk* dst;
  const BaChunk* src;
};
inline std::vector<BaHostCopy>& ba_host_pending() {
  static thread_local std::vector<BaHostCopy> v;
  return v;
}
inline uint64_t& ba_host_group() {
  static thread_local uint64_t g = 0;
  return g;
}
#endif
/// The two slots and the lane words of ba_step_pipelined_kernel's thread threadIdx.x (the comment above):
/// slot b (0, 1) holds parts kBaSlotAcc, kBaSlotPending, kBaSlotStep, each an affine point of F in
/// kChunks chunks of 16 bytes; chunk c of part p of slot b of thread tid at ((b·3 + p)·kChunks + c)·kThreads
/// + tid; after all chunks, one BaLaneWords per thread.
enum : uint32_t { kBaSlotAcc = 0, kBaSlotPending = 1, kBaSlotStep = 2 };
template <class F>
struct BaSlots {
  static_assert(sizeof(DevAffine<F>) % sizeof(BaChunk) == 0, "an affine point is whole 16-byte chunks");
  static constexpr uint32_t kChunks = sizeof(DevAffine<F>) / sizeof(BaChunk);  ///< G1: 6, G2: 12
  static constexpr uint32_t kThreads = 128;                                    ///< the kernel's block size
  static constexpr size_t kChunkBytes = size_t{2} * 3 * kChunks * kThreads * sizeof(BaChunk);
  /// Dynamic shared memory of one block, bytes: the slots, then one BaLaneWords per thread (G1: 73,728 +
  /// 1,024 = 74,752).
  static constexpr size_t kBytes = kChunkBytes + kThreads * sizeof(BaLaneWords);
  BaChunk* base;
  uint32_t tid;

  __device__ explicit BaSlots(uint32_t thread_in_block) : tid(thread_in_block) {
#if defined(__CUDACC__)
    extern __shared__ BaChunk ba_slot_chunks[];
    base = ba_slot_chunks;
#else  // the host emulation runs one thread at a time: one block's slots
    static thread_local BaChunk host_chunks[kBytes / sizeof(BaChunk)];
    base = host_chunks;
#endif
  }
  __device__ BaChunk* chunk(uint32_t b, uint32_t part, uint32_t c) const {
    return base + ((b * 3 + part) * kChunks + c) * kThreads + tid;
  }
  /// The thread's lane words (after the chunks; a warp's 32 are 256 consecutive bytes).
  __device__ BaLaneWords& words() const {
    return reinterpret_cast<BaLaneWords*>(base + kChunkBytes / sizeof(BaChunk))[tid];
  }
  /// Requests a copy of *src (16-byte aligned, global memory) into part `part` of slot b.
  __device__ void fetch(uint32_t b, uint32_t part, const DevAffine<F>* src) const {
    const BaChunk* from = reinterpret_cast<const BaChunk*>(src);
#pragma unroll
    for (uint32_t c = 0; c < kChunks; ++c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      const uint32_t to = (uint32_t)__cvta_generic_to_shared(chunk(b, part, c));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(from + c) : "memory");
#elif defined(__CUDACC__)
      *chunk(b, part, c) = from[c];  // before sm_80 (and nvcc's host pass): a plain copy
#else
      // the host's cp.async: the slot poisoned now, filled when a wait lands this copy's group (BaHostCopy)
      std::memset(chunk(b, part, c), 0xA5, sizeof(BaChunk));
      ba_host_pending().push_back({ba_host_group(), chunk(b, part, c), from + c});
#endif
    }
  }
  /// Part `part` of slot b, landed (after ba_copies_wait_all_but_newest).
  __device__ DevAffine<F> read(uint32_t b, uint32_t part) const {
    DevAffine<F> r;
#if defined(__CUDACC__)
    uint32_t* w = reinterpret_cast<uint32_t*>(&r);
#pragma unroll
    for (uint32_t c = 0; c < kChunks; ++c) {
      const uint4 q = *chunk(b, part, c);  // one 16-byte shared load
      w[4 * c] = q.x;
      w[4 * c + 1] = q.y;
      w[4 * c + 2] = q.z;
      w[4 * c + 3] = q.w;
    }
#else
    for (uint32_t c = 0; c < kChunks; ++c)
      std::memcpy(reinterpret_cast<unsigned char*>(&r) + c * sizeof(BaChunk), chunk(b, part, c), sizeof(BaChunk));
#endif
    return r;
  }
};

/// The copies requested since the last commit form one group (cp.async.commit_group; none on the host).
__device__ inline void ba_copies_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#elif !defined(__CUDACC__)
  ++ba_host_group();
#endif
}
/// Waits until every committed group but the newest has landed (cp.async.wait_group 1); the "memory"
/// clobber keeps the slot reads after it.
__device__ inline void ba_copies_wait_all_but_newest() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 1;\n" ::: "memory");
#elif !defined(__CUDACC__)
  // land every queued copy of a group older than the newest committed one (ba_host_group() − 1)
  auto& v = ba_host_pending();
  const uint64_t newest = ba_host_group() - 1;
  std::vector<BaHostCopy> keep;
  for (const auto& c : v) {
    if (c.group < newest) std::memcpy(c.dst, c.src, sizeof(BaChunk));
    else keep.push_back(c);
  }
  v.swap(keep);
#endif
}

/// ba_step_kernel's launch s, software-pipelined (the section comment above BaLaneWords): the same visits in the same
/// order (ascending k for even s, descending for odd s), the same arithmetic and the same writes, so
/// the same state bit for bit. Blocks of BaSlots<F>::kThreads = 128 threads with BaSlots<F>::kBytes of
/// dynamic shared memory; every pointer the copies read (g.acc, g.bases) 16-byte aligned (msm.cuh
/// checks and otherwise launches ba_step_kernel).
template <class F, int kMinBlocks>
__global__ void __launch_bounds__(128, kMinBlocks)
    ba_step_pipelined_kernel(BaGroup<F> g, F* __restrict__ pre, F* __restrict__ u, uint32_t threads, uint32_t K,
                             uint32_t s) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const BaSlots<F> slots(threadIdx.x);
  F inv = s > 0 ? u[t] : F::one();
  F prod = F::one();
  const bool ascending = (s & 1) == 0;
  const uint32_t tpw = g.threads_per_window, first = (t % tpw) * K, window_lane0 = (t / tpw) * g.lanes_per_window;
  // visit i's lane: k = i ascending, K − 1 − i descending; its words read into slots.words() and its
  // copies requested into slot i mod 2 (not committed)
  auto request = [&](uint32_t i) {
    BaLaneWords w;
    const uint32_t k = ascending ? i : K - 1 - i;
    if (first + k >= g.lanes_per_window) {  // the window's last thread: fewer than K lanes
      slots.words() = w;
      return;
    }
    const uint64_t st = ba_state(k, t, threads);
    const BaLaneView<F> lv(g, window_lane0 + first + k);
    const uint32_t j = lv.lo + s;
    // all four loads independent of one another (each vals word read where it exists, used or not),
    // so that they are in flight together
    w.cur = g.cur[st];
    const uint32_t v_pending = s > 0 && j - 1 < lv.hi ? lv.vals[j - 1] : 0u;
    uint32_t v_step = 0;
    uint32_t key = 0;
    if (s < g.L && j < lv.hi) {
      key = lv.keys[j];
      v_step = lv.vals[j];
    }
    const bool pending = (w.cur & kBaPending) != 0;
    if (w.cur != 0 && (pending || key != 0)) slots.fetch(i & 1, kBaSlotAcc, &g.acc[st]);
    if (pending) slots.fetch(i & 1, kBaSlotPending, &g.bases[v_pending & kIndexMask]);
    if (key != 0) slots.fetch(i & 1, kBaSlotStep, &g.bases[v_step & kIndexMask]);
    w.entry = key | (v_pending & kSignBit ? kBaNegPending : 0u) | (v_step & kSignBit ? kBaNegStep : 0u);
    slots.words() = w;
  };
  request(0);
  ba_copies_commit();
#pragma unroll 1
  for (uint32_t i = 0; i < K; ++i) {
    const BaLaneWords w = slots.words();  // visit i's, before request(i + 1) puts visit i + 1's there
    const uint32_t k = ascending ? i : K - 1 - i;
    const uint64_t st = ba_state(k, t, threads);
    if (i + 1 < K) request(i + 1);
    ba_copies_commit();  // one group per visit, empty or not
    ba_copies_wait_all_but_newest();  // visit i's group has landed
    if (first + k >= g.lanes_per_window) continue;
    const uint32_t b = i & 1, lane = window_lane0 + first + k;
    const BaLaneView<F> lv(g, lane);
    uint32_t cur = w.cur;
    const uint32_t cur0 = cur;
    DevAffine<F> acc;
    bool have_acc = false, acc_changed = false;
    if (cur & kBaPending) {  // 1. (ba_step_kernel)
      acc = slots.read(b, kBaSlotAcc);
      have_acc = true;
      DevAffine<F> p = slots.read(b, kBaSlotPending);
      if (w.entry & kBaNegPending) p.y = -p.y;
      ba_finish_pending(acc, p, pre[st], inv);
      acc_changed = true;
      cur &= ~kBaPending;
    }
    const uint32_t key = w.key();
    if (key != 0) {  // 2. (s < L and lo + s < hi, else the key was left 0)
      DevAffine<F> p = slots.read(b, kBaSlotStep);
      if (w.entry & kBaNegStep) p.y = -p.y;
      if (key == (cur & kBaKeyMask)) {  // an addition, left pending
        if (!have_acc) {
          acc = slots.read(b, kBaSlotAcc);
          have_acc = true;
        }
        const F d = ba_denominator(acc, p);
        pre[st] = prod;
        prod = prod * d;
        cur |= kBaPending;
      } else {  // a new run
        if (cur != 0) {
          if (!have_acc) acc = slots.read(b, kBaSlotAcc);
          ba_flush(g, lv, lane, cur, acc);
        }
        const bool before = s == 0 && lv.lo > 0 && lv.keys[lv.lo - 1] == key;
        cur = key | (before ? kRunBeganBefore : 0u);
        acc = p;
        acc_changed = true;
      }
    }
    if (acc_changed) g.acc[st] = acc;
    if (cur != cur0) g.cur[st] = cur;
  }
  if (s < g.L) u[t] = prod;
}

}  // namespace msm_detail
}  // namespace proofline::gpu
