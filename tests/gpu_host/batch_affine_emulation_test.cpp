// tests/gpu_host/batch_affine_emulation_test.cpp — the batch-affine bucket accumulation of the GPU MSM
// (src/gpu/msm_batch_affine.cuh: ba_init_kernel, ba_step_kernel and its software-pipelined variant
// ba_step_pipelined_kernel, the lanes' flush, and the level kernels of the batch inversion between
// launches) run on the host: the very kernel templates,
// compiled by the host compiler over a host field (ff::Fp or ff::Fp2 behind DevField's interface),
// every thread of every launch run in turn; the top level's inverse is the host field's, and each
// batch inversion is checked against ff::Fp(2)::inverse value by value. For each window and key the
// bucket the lanes wrote plus the partial sums they left in their slots must equal the key's points
// summed directly with ec::G1Projective (G2Projective); a key whose run was cut (its sums in slots,
// which fold_cut *assigns* to the bucket on the device) must have no bucket written, and the slot
// keys must ascend (fold_cut's input is a sorted list). Cases: random keys, long runs, P and −P in
// one run, P + P, identity bases, lane lengths L, lanes per thread K (1 … more than the group has),
// several windows per group (as one group and as the two halves msm.cuh steps on two streams), 16
// blocks of threads with two inversion levels. So the order of
// Montgomery's trick (forwards in one launch, backwards in the next, alternating) and the
// pending-addition bookkeeping are checked without a device; test_gpu checks the kernels themselves.
// Every case runs with both step kernels (the same expected sums): the pipelined one's copies are
// modelled as cp.async is (msm_batch_affine.cuh, BaHostCopy): queued when the device would request
// them (one visit ahead, into the other slot) with the slot poisoned, and landed only by the wait that
// covers their group — so a copy of the wrong lane, into the slot still being read, or read before its
// wait shows as a wrong sum (a copy landed one group late fails G1BucketsEqualDirectSums).
// Beside them: the one-thread Fp inversion of fp_inverse.cuh (the device's top of the batch inversion,
// plain C++) against ff::Fp::inverse limb for limb.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fp.hpp"
#include "proofline/ff/fp2.hpp"
#include "proofline/ff/fr.hpp"

// The CUDA keywords and built-ins the kernel templates use, for the host compiler (this file only).
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __restrict__
namespace {
struct Dim3 {
  unsigned x = 0, y = 0, z = 0;
};
Dim3 blockIdx, threadIdx, blockDim;
}  // namespace

#include <cstddef>
using std::size_t;
namespace proofline::gpu::msm_detail {
constexpr uint32_t kSignBit = 0x80000000u;  // msm.cuh's
constexpr uint32_t kIndexMask = 0x7fffffffu;
}  // namespace proofline::gpu::msm_detail
#include "gpu/msm_batch_affine.cuh"

namespace {

namespace g = proofline::gpu;
namespace md = proofline::gpu::msm_detail;
namespace ec = proofline::ec;
namespace ff = proofline::ff;

/// A host field (ff::Fp for G1, ff::Fp2 for G2) with DevField's interface (what ba_denominator,
/// ba_sum, DevAffine and DevXyzz call).
template <class HF>
struct HostField {
  HF f;
  static HostField zero() { return {HF::zero()}; }
  static HostField one() { return {HF::one()}; }
  bool is_zero() const { return f.is_zero(); }
  friend bool operator==(const HostField& a, const HostField& b) { return a.f == b.f; }
  friend bool operator!=(const HostField& a, const HostField& b) { return !(a == b); }
  friend HostField operator+(const HostField& a, const HostField& b) { return {a.f + b.f}; }
  friend HostField operator-(const HostField& a, const HostField& b) { return {a.f - b.f}; }
  HostField operator-() const { return {-f}; }
  friend HostField operator*(const HostField& a, const HostField& b) { return {a.f * b.f}; }
  HostField sqr() const { return {f.square()}; }
  HostField dbl() const { return {f.dbl()}; }
};

/// One "launch": every thread of ⌈count/128⌉ blocks of 128 runs fn().
template <class Fn>
void launch(uint32_t count, Fn fn) {
  blockDim.x = 128;
  for (uint32_t b = 0; b < (count + 127) / 128; ++b)
    for (uint32_t t = 0; t < 128; ++t) {
      blockIdx.x = b;
      threadIdx.x = t;
      fn();
    }
}

/// The batch-affine field's inverse (msm_batch_affine.cuh's field_inverse, found by argument-dependent
/// lookup from batch_invert_top_kernel): the host field's.
template <class HF>
HostField<HF> field_inverse(const HostField<HF>& a) {
  return {a.f.inverse()};
}

/// Impl::batch_invert of msm.cuh: v[0..m) inverted in place by the level kernels (up, top, down).
template <class F>
void batch_invert(std::vector<F>& v) {
  const uint32_t m = (uint32_t)v.size();
  std::vector<std::vector<F>> lv;  // levels above v
  uint32_t cur = m;
  while (cur > md::kBatchInvertFanIn) {
    cur = (cur + md::kBatchInvertFanIn - 1) / md::kBatchInvertFanIn;
    lv.emplace_back(cur);
  }
  auto level = [&](size_t i) -> F* { return i == 0 ? v.data() : lv[i - 1].data(); };
  auto size = [&](size_t i) { return i == 0 ? m : (uint32_t)lv[i - 1].size(); };
  for (size_t i = 0; i < lv.size(); ++i)
    launch(size(i + 1), [&] { md::batch_invert_up_kernel<F>(level(i + 1), level(i), size(i)); });
  std::vector<F> pre(md::kBatchInvertFanIn);
  launch(1, [&] { md::batch_invert_top_kernel<F>(level(lv.size()), pre.data(), size(lv.size())); });
  for (size_t i = lv.size(); i-- > 0;)
    launch(size(i + 1), [&] { md::batch_invert_down_kernel<F>(level(i), level(i + 1), size(i)); });
}

template <class Cfg>
using HF = HostField<typename Cfg::Field>;
template <class Cfg>
using Affine = g::DevAffine<HF<Cfg>>;
template <class Cfg>
using Xyzz = g::DevXyzz<HF<Cfg>>;

template <class Cfg>
ec::JacobianPoint<Cfg> to_host(const Affine<Cfg>& a) {
  if (a.x.is_zero() && a.y.is_zero()) return ec::JacobianPoint<Cfg>::identity();
  return ec::JacobianPoint<Cfg>::from_affine(ec::AffinePoint<Cfg>{a.x.f, a.y.f, false});
}
template <class Cfg>
ec::JacobianPoint<Cfg> to_host(const Xyzz<Cfg>& p) {
  if (p.zz.is_zero()) return ec::JacobianPoint<Cfg>::identity();
  return ec::XyzzPoint<Cfg>{p.x.f, p.y.f, p.zz.f, p.zzz.f}.to_projective();
}

struct Case {
  uint32_t n = 0, windows = 1, nb = 0, L = 1, K = 1;
};

/// keys (sorted per window, 0 = no digit) and values (point index | sign) for `c.windows` windows.
void make_entries(std::mt19937_64& rng, const Case& c, uint32_t npoints, std::vector<uint32_t>& keys,
                  std::vector<uint32_t>& vals) {
  keys.assign((size_t)c.windows * c.n, 0);
  vals.assign((size_t)c.windows * c.n, 0);
  for (uint32_t w = 0; w < c.windows; ++w) {
    uint32_t* k = keys.data() + (size_t)w * c.n;
    for (uint32_t i = 0; i < c.n; ++i) {
      const uint32_t r = rng() % 16;
      // a few long runs (keys 1 and nb), zeros, the rest spread over the buckets
      k[i] = r < 2 ? 0 : r < 5 ? 1 : r < 7 ? c.nb : 1 + (uint32_t)(rng() % c.nb);
    }
    std::sort(k, k + c.n);
    for (uint32_t i = 0; i < c.n; ++i)
      vals[(size_t)w * c.n + i] = (uint32_t)(rng() % npoints) | (rng() % 2 ? md::kSignBit : 0u);
  }
}

/// Which step kernel a case runs: ba_step_kernel, or ba_step_pipelined_kernel (its slots in a host array).
enum class Step { kPlain, kPipelined };

template <class Cfg>
void run_case(uint64_t seed, const Case& c, bool halves, Step step) {
  using F = HF<Cfg>;
  using A = Affine<Cfg>;
  using X = Xyzz<Cfg>;
  using P = ec::JacobianPoint<Cfg>;
  SCOPED_TRACE(::testing::Message() << "n=" << c.n << " windows=" << c.windows << " nb=" << c.nb << " L=" << c.L
                                    << " K=" << c.K << " halves=" << halves
                                    << (step == Step::kPipelined ? " pipelined" : " plain"));
  std::mt19937_64 rng(seed);
  // bases: random multiples of the generator, with the identity, a repeated point (P + P in a run) and
  // a point next to its negative (P − P) among them
  const uint32_t npoints = 64;
  std::vector<A> bases(npoints);
  std::vector<P> host_bases(npoints);
  for (uint32_t i = 0; i < npoints; ++i) {
    P p = P::generator() * ff::Fr::random(rng);
    if (i == 0) p = P::identity();
    if (i == 2) p = host_bases[1];
    if (i == 3) p = -host_bases[1];
    host_bases[i] = p;
    const ec::AffinePoint<Cfg> a = p.to_affine();
    bases[i] = a.infinity ? A::identity() : A{F{a.x}, F{a.y}};
  }
  std::vector<uint32_t> keys, vals;
  make_entries(rng, c, npoints, keys, vals);
  // runs of one repeated point and of P, −P, P, −P in window 0's key-1 run (its first entries)
  for (uint32_t i = 0; i < c.n && keys[i] <= 1; ++i)
    if (keys[i] == 1) vals[i] = (i % 3 == 0) ? 1u : (i % 3 == 1) ? 2u : (3u | (i % 2 ? md::kSignBit : 0u));

  const uint32_t lanes_w = (c.n + c.L - 1) / c.L, lanes = lanes_w * c.windows;
  std::vector<X> buckets((size_t)c.windows * c.nb, X::identity());
  // tpw threads per window, 2 XYZZ parts per thread (poisoned keys: each thread must set both)
  const uint32_t tpw = (lanes_w + c.K - 1) / c.K;
  const uint32_t threads = c.windows * tpw;
  // acc, cur and the prefixes at the state indices (ba_state: k·threads + t), a slot per lane, as
  // msm.cuh sizes them, with guard entries after them that no kernel may touch
  const uint32_t states = (uint32_t)md::ba_states(c.K, threads);
  constexpr uint32_t kGuard = 8, kPoison = 0x2badf00du;
  std::vector<A> acc(states + kGuard), slot(lanes + kGuard);
  std::vector<uint32_t> cur(states + kGuard, kPoison), slot_key(lanes + kGuard, kPoison);
  std::vector<X> tpart(2 * (size_t)threads, X::identity());
  std::vector<uint32_t> tpart_key(2 * (size_t)threads, 0xdeadu);
  std::vector<F> pre(states + kGuard, F::one()), u(threads, F::one());
  for (uint32_t i = states; i < states + kGuard; ++i) acc[i] = A{F::one(), F::one()};
  // the windows as one group, or (halves) as the two halves msm.cuh steps on two streams, through the
  // same ba_half msm.cuh calls (their offsets into the group's state, slots and parts)
  struct Half {
    md::BaGroup<F> g;
    uint32_t threads;
    F *pre, *u;
  };
  const md::BaGroup<F> whole{keys.data(), vals.data(), bases.data(), buckets.data(), acc.data(), cur.data(),
                             slot.data(), slot_key.data(), c.n, c.L, lanes_w, lanes, c.nb, tpw,
                             tpart.data(), tpart_key.data(), states};
  std::vector<Half> hv;
  const uint32_t nh = halves && c.windows > 1 ? 2 : 1;
  uint64_t states_done = 0, threads_done = 0;
  for (uint32_t h = 0; h < nh; ++h) {
    const md::BaHalf<F> x = md::ba_half(whole, c.windows, nh, h, c.K);
    // the halves tile the group: each begins where the one before it ended
    ASSERT_EQ(x.state0, states_done);
    ASSERT_EQ(x.thread0, threads_done);
    ASSERT_EQ(x.g.slot, slot.data() + threads_done / tpw * lanes_w);
    ASSERT_EQ(x.g.tpart, tpart.data() + 2 * threads_done);
    hv.push_back({x.g, x.threads, pre.data() + x.state0, u.data() + x.thread0});
    states_done += x.g.states;
    threads_done += x.threads;
  }
  ASSERT_EQ(threads_done, threads) << "the halves' threads are not the group's";
  ASSERT_EQ(states_done, states) << "the halves' states are not the group's";
  for (auto& x : hv) launch(std::max(x.g.lanes, x.g.states), [&] { md::ba_init_kernel<F>(x.g); });
  for (uint32_t s = 0; s <= c.L; ++s)
    for (auto& x : hv) {
      if (step == Step::kPipelined)
        launch(x.threads, [&] { md::ba_step_pipelined_kernel<F, 0>(x.g, x.pre, x.u, x.threads, c.K, s); });
      else
        launch(x.threads, [&] { md::ba_step_kernel<F, 0>(x.g, x.pre, x.u, x.threads, c.K, s); });
      if (s == c.L) launch(x.threads, [&] { md::ba_flush_threads_kernel<F>(x.g, x.threads, c.K); });
      if (s < c.L) {
        std::vector<F> hu(x.u, x.u + x.threads);
        for (const auto& v : hu) ASSERT_FALSE(v.is_zero()) << "a zero denominator product at step " << s;
        std::vector<F> want(hu.size());
        for (size_t i = 0; i < hu.size(); ++i) want[i] = F{hu[i].f.inverse()};
        batch_invert(hu);  // the level kernels, as between the device's launches
        for (size_t i = 0; i < hu.size(); ++i) {
          ASSERT_TRUE(hu[i] == want[i]) << "batch_invert, step " << s << " value " << i;
          x.u[i] = hu[i];
        }
      }
    }

  for (uint32_t i = lanes; i < lanes + kGuard; ++i)
    ASSERT_EQ(slot_key[i], kPoison) << "a kernel wrote slot " << i << " past the " << lanes << " lanes";
  for (uint32_t i = states; i < states + kGuard; ++i) {
    ASSERT_EQ(cur[i], kPoison) << "a kernel wrote state " << i << " past the " << states << " states";
    ASSERT_TRUE(acc[i].x == F::one() && acc[i].y == F::one()) << "a kernel wrote acc " << i << " past the " << states << " states";
    ASSERT_TRUE(pre[i] == F::one()) << "a kernel wrote prefix " << i << " past the " << states << " states";
  }

  // per window and key: the bucket plus the slots of that window's lanes, against the direct sum
  for (uint32_t w = 0; w < c.windows; ++w) {
    std::map<uint32_t, P> want, got;
    for (uint32_t i = 0; i < c.n; ++i) {
      const uint32_t k = keys[(size_t)w * c.n + i];
      if (k == 0) continue;
      const uint32_t v = vals[(size_t)w * c.n + i];
      const P p = host_bases[v & md::kIndexMask];
      want[k] += (v & md::kSignBit) ? -p : p;
    }
    std::map<uint32_t, int> in_slots;
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> span;  // key → first and last slot holding it
    uint32_t last = 0;
    const uint32_t per_w = 2 * tpw;  // the window's parts
    std::vector<uint32_t> kk(per_w);
    for (uint32_t l = 0; l < per_w; ++l) {
      const size_t at = (size_t)w * per_w + l;
      const uint32_t key = kk[l] = tpart_key[at];
      if (key != 0) {
        ASSERT_LE(key, c.nb) << "slot " << at << " holds no key";
        EXPECT_GE(key, last) << "slot keys not ascending";
        last = key;
        got[key] += to_host<Cfg>(tpart[at]);
        in_slots[key]++;
        if (!span.count(key)) span[key].first = l;
        span[key].second = l;
      }
    }
    // the fold assigns a cut key's bucket once per unbroken block of its slots: a key's slots must
    // follow one another with no empty slot between them (a run through a whole lane or thread
    // leaves its sum and an identity under its key, not an empty slot)
    for (const auto& [key, fl] : span)
      for (uint32_t l = fl.first; l <= fl.second; ++l)
        ASSERT_EQ(kk[l], key) << "window " << w << ": the slots of key " << key << " broken at " << l;
    for (uint32_t k = 1; k <= c.nb; ++k) {
      const P b = to_host<Cfg>(buckets[(size_t)w * c.nb + k - 1]);
      // fold_cut assigns a cut key's bucket (fold_short_kernel, the fold levels): a lane must not
      // have written it
      if (in_slots.count(k)) EXPECT_TRUE(b == P::identity()) << "cut key " << k << " also written to its bucket";
      got[k] += b;
    }
    for (uint32_t k = 1; k <= c.nb; ++k) {
      const P wk = want.count(k) ? want[k] : P::identity();
      ASSERT_TRUE(got[k] == wk) << "window " << w << " key " << k;
    }
  }
}

// (n, windows, nb, L, K)
const Case kCases[] = {
    {1, 1, 4, 1, 1},     {3, 1, 2, 1, 1},      {40, 1, 4, 3, 1},      {40, 1, 4, 3, 2},
    {200, 2, 8, 5, 3},   {200, 3, 8, 8, 16},   {513, 2, 16, 32, 16},  {513, 2, 16, 32, 5},
    {1000, 3, 32, 7, 4}, {1000, 1, 1, 64, 16}, {777, 2, 64, 16, 256}, {2048, 2, 128, 32, 16},
    {6000, 2, 64, 3, 2},  // 2,000 threads in 16 blocks; two inversion levels below the top
};

TEST(GpuBatchAffineEmulation, G1BucketsEqualDirectSums) {
  for (Step step : {Step::kPlain, Step::kPipelined}) {
    uint64_t seed = 1;
    for (bool halves : {false, true})
      for (const Case& c : kCases) run_case<ec::G1Config>(seed++, c, halves, step);
  }
}

// Random shapes, most of them with lanes shorter than the runs (nb small against n) and more lanes
// per thread than a window has, as one group and as two halves.
TEST(GpuBatchAffineEmulation, RandomShapes) {
  for (Step step : {Step::kPlain, Step::kPipelined}) {
    std::mt19937_64 rng(2026);
    for (int i = 0; i < 60; ++i) {
      Case c;
      c.n = 1 + (uint32_t)(rng() % 400);
      c.windows = 1 + (uint32_t)(rng() % 3);
      c.nb = 1 + (uint32_t)(rng() % 40);
      c.L = 1 + (uint32_t)(rng() % 12);
      c.K = 1 + (uint32_t)(rng() % 20);
      if (i % 4 == 3)
        run_case<ec::G2Config>(500 + i, c, rng() % 2 == 1, step);
      else
        run_case<ec::G1Config>(500 + i, c, rng() % 2 == 1, step);
    }
  }
}

TEST(GpuBatchAffineEmulation, G2BucketsEqualDirectSums) {
  for (Step step : {Step::kPlain, Step::kPipelined}) {
    uint64_t seed = 100;
    for (const Case& c : kCases) {
      run_case<ec::G2Config>(seed, c, seed % 2 == 1, step);
      ++seed;
    }
  }
}

// The one-thread inversion at the top of the batch inversion (fp_inverse.cuh: the binary extended
// Euclidean algorithm, Montgomery limbs in and out), the very code the device runs, against
// ff::Fp::inverse limb for limb: random values, the edge values 1, −1, 2, 2^(−1), R mod p and values
// near p, every input also as its unreduced representative a + k·p below 2^384, and 0 (no inverse: 0).
TEST(GpuBatchAffineEmulation, FpInverseEqualsHost) {
  auto to32 = [](const ff::Fp& x) {
    std::array<uint32_t, 12> r{};
    for (int i = 0; i < 6; ++i) {
      r[2 * i] = (uint32_t)x.limbs[i];
      r[2 * i + 1] = (uint32_t)(x.limbs[i] >> 32);
    }
    return r;
  };
  std::mt19937_64 rng(381);
  std::vector<ff::Fp> xs;
  const ff::Fp one = ff::Fp::one(), two = one + one;
  xs.insert(xs.end(), {one, -one, two, two.inverse(), ff::Fp::from_montgomery(ff::Fp::kR), -two,
                       ff::Fp::from_montgomery({1, 0, 0, 0, 0, 0}), ff::Fp::from_montgomery({2, 0, 0, 0, 0, 0})});
  for (int i = 0; i < 3000; ++i) xs.push_back(ff::Fp::random(rng));
  std::array<uint32_t, 12> p32{};
  for (int i = 0; i < 12; ++i) p32[i] = g::FpParams32::mod(i);
  for (const ff::Fp& x : xs) {
    const auto want = to32(x.inverse());
    auto in = to32(x);
    for (int k = 0; k < 9; ++k) {  // a, a + p, …: every representative below 2^384
      std::array<uint32_t, 12> got{};
      g::fp_inverse_mont(in.data(), got.data());
      ASSERT_EQ(got, want) << "the inverse of limbs " << ::testing::PrintToString(to32(x)) << " + " << k << "·p";
      if (g::fp_inv_detail::add(in.data(), p32.data()) != 0) break;  // past 2^384
    }
  }
  std::array<uint32_t, 12> zero{}, got{};
  got.fill(7);
  g::fp_inverse_mont(zero.data(), got.data());
  EXPECT_EQ(got, zero);
  got.fill(7);
  g::fp_inverse_mont(p32.data(), got.data());  // p itself ≡ 0
  EXPECT_EQ(got, zero);
}

}  // namespace
