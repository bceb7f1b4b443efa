// proofline/msm/msm_impl.hpp — template definitions for msm.hpp.
//
// Included only by src/msm/*.cpp, which instantiate them for G1 and G2. Holds: the split pass
// (zeros dropped, ±1 to the point sum, the rest to canonical + sign trick), Booth digits, the two
// bucket accumulators (XYZZ, batch-affine), the running-sum reduction, the window combination,
// and the parallel drivers. See msm.hpp for the algorithm description and cost model.
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "proofline/ff/fp2.hpp"
#include "proofline/ff/fp_ifma.hpp"
#include "proofline/msm/affine_ifma.hpp"
#include "proofline/msm/msm.hpp"

namespace proofline::msm {

namespace detail {

using ff::u64;

// ---- errors ------------------------------------------------------------------------------------

[[noreturn]] inline void throw_length(std::string_view what, std::size_t got, std::size_t expected,
                                      bool at_least = false) {
  throw ProoflineError(Error::BadLength, "msm: " + std::string(what) + ": got " + std::to_string(got) +
                                             ", expected " + (at_least ? "at least " : "") +
                                             std::to_string(expected));
}

inline void check_config(const MsmConfig& cfg) {
  if (cfg.threads < 0)
    throw ProoflineError(Error::BadLength,
                         "msm: threads: got " + std::to_string(cfg.threads) + ", expected 0 (all) or > 0");
  if (cfg.window_bits != 0 && (cfg.window_bits < 2 || cfg.window_bits > 24))
    throw ProoflineError(Error::BadLength, "msm: window_bits: got " + std::to_string(cfg.window_bits) +
                                               ", expected 0 (auto) or 2..24");
  if (cfg.batch_size < 0 || cfg.chunks < 0)
    throw ProoflineError(Error::BadLength, "msm: batch_size and chunks must be >= 0");
}

/// True once the call's cancellation flag is set (relaxed load; MsmConfig::cancel).
inline bool cancelled(const std::atomic<bool>* flag) noexcept {
  return flag != nullptr && flag->load(std::memory_order_relaxed);
}
/// Pippenger window × chunk tasks run so far in this process (a test hook: counts work done).
inline std::atomic<std::uint64_t> g_window_tasks{0};
/// Throws ProoflineError(Cancelled) if the flag is set.
inline void check_cancel(const std::atomic<bool>* flag, const char* where) {
  if (cancelled(flag)) [[unlikely]]
    throw ProoflineError(Error::Cancelled, std::string("msm cancelled ") + where);
}

/// Runs f() with at most `threads` TBB threads (0: the current arena as it is).
template <class F>
auto run_with_threads(int threads, F&& f) {
  if (threads <= 0) return f();
  tbb::task_arena arena(threads);
  return arena.execute(std::forward<F>(f));
}

// ---- scalars -----------------------------------------------------------------------------------

using Limbs4 = ScalarLimbs;
inline constexpr Limbs4 kR = ff::Fr::kModulus;
/// (r − 1)/2: scalars above it are replaced by r − s (sign trick).
inline constexpr Limbs4 kHalfR = ff::detail::shr<4>(ff::detail::sub_small<4>(kR, 1), 1);
inline constexpr Limbs4 kMontOne = ff::Fr::kR;                                           // 1·R mod r
inline constexpr Limbs4 kMontMinusOne = ff::detail::sub_mod<4>(Limbs4{}, ff::Fr::kR, kR);  // −R mod r
inline constexpr Limbs4 kCanonOne = {1, 0, 0, 0};
inline constexpr Limbs4 kCanonMinusOne = ff::detail::sub_small<4>(kR, 1);

enum class Kind : uint8_t { Zero, PlusOne, MinusOne, Other };

inline Kind classify(const Limbs4& s, bool montgomery) {
  if ((s[0] | s[1] | s[2] | s[3]) == 0) return Kind::Zero;
  if (s == (montgomery ? kMontOne : kCanonOne)) return Kind::PlusOne;
  if (s == (montgomery ? kMontMinusOne : kCanonMinusOne)) return Kind::MinusOne;
  return Kind::Other;
}

/// Canonical value with the sign trick: returns |s| ≤ (r−1)/2 and sets `neg` when s was replaced
/// by r − s.
inline Limbs4 signed_canonical(const Limbs4& s, bool montgomery, bool& neg) {
  Limbs4 c;
  if (montgomery) {
    // a · 1 (Montgomery product with the plain integer 1) = a·R·R^{-1} = canonical a; this uses the
    // field's fast multiply.
    c = (ff::Fr::from_montgomery(s) * ff::Fr::from_montgomery(kCanonOne)).limbs;
  } else {
    c = s;
  }
  neg = !ff::detail::geq<4>(kHalfR, c);
  if (neg) {
    u64 br = 0;
    Limbs4 t;
    for (int i = 0; i < 4; ++i) t[i] = ff::detail::sbb(kR[i], c[i], br);
    c = t;
  }
  return c;
}

/// Bits [pos, pos + len) of a little-endian integer of `limbs` 64-bit limbs; bits past the last
/// limb read as zero. len ≤ 32.
inline u64 get_bits(const u64* s, unsigned limbs, unsigned pos, unsigned len) {
  const unsigned limb = pos >> 6, off = pos & 63;
  if (limb >= limbs) return 0;
  u64 v = s[limb] >> off;
  if (off + len > 64 && limb + 1 < limbs) v |= s[limb + 1] << (64 - off);
  return v & ((u64{1} << len) - 1);
}

/// Booth digit of window w (c bits): b[cw..cw+c−2] + b[cw−1] − 2^(c−1)·b[cw+c−1].
/// With u = (window value + b[cw−1]) ∈ [0, 2^c]: d = u if the window's top bit is clear, else u − 2^c.
inline int booth_digit(const u64* s, unsigned limbs, unsigned c, unsigned w) {
  u64 v;  // c + 1 bits: b[cw−1] ‖ window
  if (w == 0) {
    v = get_bits(s, limbs, 0, c) << 1;
  } else {
    v = get_bits(s, limbs, c * w - 1, c + 1);
  }
  const int u = static_cast<int>((v + 1) >> 1);
  return ((v >> c) & 1) ? u - (1 << c) : u;
}

/// Number of signed windows for scalars < 2^(bits − 1) (255 bits: < 2^254 after the sign trick):
/// the top window's top bit must be zero, so c·W ≥ bits.
inline unsigned num_windows(unsigned c, unsigned bits = 255) { return (bits + c - 1) / c; }

// ---- endomorphism split (GLV on G1, GLS on G2) --------------------------------------------------

/// How a curve's scalars split along its endomorphism: D parts of at most kLimbs limbs, each of
/// absolute value < 2^(kBits − 1). D = 1: no split.
template <class Cfg>
struct EndoSplit {
  static constexpr unsigned D = 1, kLimbs = 4, kBits = 255;
};
template <>
struct EndoSplit<ec::G1Config> {
  static constexpr unsigned D = 2, kLimbs = 2, kBits = 128;
};
template <>
struct EndoSplit<ec::G2Config> {
  static constexpr unsigned D = 4, kLimbs = 1, kBits = 64;
};

/// (hi·2^64 + lo) / d and the remainder; requires hi < d (the quotient fits 64 bits).
inline u64 div_step(u64 hi, u64 lo, u64 d, u64& rem) {
#if defined(__x86_64__)
  u64 q, r;
  asm("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d) : "cc");
  rem = r;
  return q;
#else
  const ff::u128 cur = (static_cast<ff::u128>(hi) << 64) | lo;
  rem = static_cast<u64>(cur % d);
  return static_cast<u64>(cur / d);
#endif
}

/// Base-|x| digits of k < |x|^4 (r < |x|^4): k = d0 + d1|x| + d2|x|² + d3|x|³, 0 ≤ d_j < |x|.
inline void base_x_digits(const Limbs4& k, u64 d[4]) {
  constexpr u64 X = ec::kBlsXAbs;
  Limbs4 a = k;
  unsigned top = 4;  // limbs in use
  while (top > 0 && a[top - 1] == 0) --top;
  for (int j = 0; j < 3; ++j) {
    u64 r = 0;
    for (unsigned i = top; i-- > 0;) a[i] = div_step(r, a[i], X, r);
    d[j] = r;
    while (top > 0 && a[top - 1] == 0) --top;
  }
  d[3] = a[0];  // k / |x|^3 < |x|: one limb
}

/// GLV parts of k ≤ (r−1)/2 (see glv_split_g1): k = s0·m0 + s1·m1·λ, m0, m1 < 2^127
/// (m as two limbs), s = −1 where neg.
inline void glv_parts(const Limbs4& k, u64 m0[2], bool& neg0, u64 m1[2], bool& neg1) {
  constexpr u64 X = ec::kBlsXAbs;
  constexpr ff::u128 X2 = static_cast<ff::u128>(X) * X;
  u64 d[4];
  base_x_digits(k, d);
  ff::u128 a = static_cast<ff::u128>(d[1]) * X + d[0];  // k mod x² < x²
  ff::u128 b = static_cast<ff::u128>(d[3]) * X + d[2];  // k div x² ≤ (x² − 1)/2
  neg0 = a > X2 / 2;
  if (neg0) {
    a = X2 - a;
    b += 1;
  }
  neg1 = true;  // k = ±a + b·x² = ±a − b·λ
  m0[0] = static_cast<u64>(a), m0[1] = static_cast<u64>(a >> 64);
  m1[0] = static_cast<u64>(b), m1[1] = static_cast<u64>(b >> 64);
}

/// GLS parts of k ≤ (r−1)/2 (see gls_split_g2): k = Σ_j s_j·m_j·x^j, m_j < 2^63.
inline void gls_parts(const Limbs4& k, u64 m[4], bool neg[4]) {
  constexpr u64 X = ec::kBlsXAbs;
  u64 d[4];
  base_x_digits(k, d);
  u64 carry = 0;
  for (unsigned j = 0; j < 4; ++j) {
    const u64 v = d[j] + carry;  // ≤ |x| < 2^64
    const bool centred = j < 3 && v > X / 2;
    m[j] = centred ? X - v : v;
    carry = centred ? 1 : 0;
    neg[j] = centred != ((j & 1) != 0);  // |x|^j = (−1)^j x^j
  }
}

// ---- tagged base pointers ----------------------------------------------------------------------
// A base is referenced by its address with bit 0 set when the point must be negated (sign trick
// or scalar −1). AffinePoint is at least 8-byte aligned.

template <class Cfg>
inline const ec::AffinePoint<Cfg>& base_of(std::uintptr_t tagged) {
  return *reinterpret_cast<const ec::AffinePoint<Cfg>*>(tagged & ~std::uintptr_t{1});
}
template <class Cfg>
inline std::uintptr_t tag(const ec::AffinePoint<Cfg>* p, bool neg) {
  static_assert(alignof(ec::AffinePoint<Cfg>) >= 2);
  return reinterpret_cast<std::uintptr_t>(p) | static_cast<std::uintptr_t>(neg);
}

// ---- batch-affine accumulator ------------------------------------------------------------------

/// Affine bucket storage without the infinity flag (occupancy lives in the state bytes).
template <class Cfg>
struct XY {
  typename Cfg::Field x, y;
};

/// A set of affine buckets fed by `add(b, x, y, neg)`; additions are batched B at a time so that one
/// field inversion serves B of them (Montgomery's trick). State per bucket: occupied, busy (an
/// addition into it is pending in the batch), overflow (its XYZZ overflow accumulator is live).
template <class Cfg>
class BatchAffineBuckets {
 public:
  using F = typename Cfg::Field;
  using Xyzz = ec::XyzzPoint<Cfg>;
  using Affine = ec::AffinePoint<Cfg>;
  /// A pending bucket[b] += (x, ±y): the point is referenced, not copied (it stays in place
  /// until the batch is flushed: a base, or a bucket that this batch does not write).
  struct Entry {
    const F* x;
    const F* y;
    std::uint32_t b;
    bool neg;
  };
  static constexpr uint8_t kOcc = 1, kBusy = 2, kOvf = 4;
  /// Fp (G1) and Fp2 (G2) coordinates: batches of at least kVectorMin additions go to the 8-lane
  /// IFMA kernels (affine_ifma.hpp) when ff::ifma_enabled(); smaller ones stay scalar.
  static constexpr bool kVectorFlush = std::is_same_v<F, ff::Fp> || std::is_same_v<F, ff::Fp2>;
  static constexpr std::size_t kVectorMin = 16;

  /// Allocates for up to `max_buckets` buckets and batches of `max_batch`. Nothing is touched
  /// except the state bytes at reset().
  BatchAffineBuckets(std::size_t max_buckets, std::size_t max_batch)
      : max_buckets_(max_buckets),
        max_batch_(max_batch),
        bucket_(std::make_unique_for_overwrite<XY<Cfg>[]>(max_buckets)),
        state_(std::make_unique_for_overwrite<uint8_t[]>(max_buckets)),
        overflow_raw_(std::make_unique_for_overwrite<std::byte[]>(max_buckets * sizeof(Xyzz) + alignof(Xyzz))),
        batch_(std::make_unique_for_overwrite<Entry[]>(max_batch)),
        queue_(std::make_unique_for_overwrite<Entry[]>(max_batch)),
        pref_(std::make_unique_for_overwrite<F[]>(max_batch)),
        kind_(std::make_unique_for_overwrite<uint8_t[]>(max_batch)) {
    if constexpr (kVectorFlush) {
      addr_ = std::make_unique_for_overwrite<std::uintptr_t[]>(3 * max_batch);
      neg_ = std::make_unique_for_overwrite<uint8_t[]>(max_batch);
    }
    void* p = overflow_raw_.get();
    std::size_t space = max_buckets * sizeof(Xyzz) + alignof(Xyzz);
    overflow_ = static_cast<Xyzz*>(std::align(alignof(Xyzz), max_buckets * sizeof(Xyzz), p, space));
  }

  /// Bytes the constructor allocates (the overflow array is reserved, touched only when used).
  static std::size_t bytes(std::size_t max_buckets, std::size_t max_batch) {
    return max_buckets * (sizeof(XY<Cfg>) + 1 + sizeof(Xyzz)) + alignof(Xyzz) +
           max_batch * (2 * sizeof(Entry) + sizeof(F) + 1 + (kVectorFlush ? 3 * sizeof(std::uintptr_t) + 1 : 0));
  }

  std::size_t max_buckets() const { return max_buckets_; }
  std::size_t max_batch() const { return max_batch_; }

  /// Empties nb buckets; batches of `batch` additions (≤ max_batch).
  void reset(std::size_t nb, std::size_t batch) {
    assert(nb <= max_buckets_ && batch <= max_batch_ && batch >= 1);
    nb_ = nb;
    cap_ = batch;
    m_ = 0;
    nq_ = 0;
    any_overflow_ = false;
    std::memset(state_.get(), 0, nb);
  }

  /// bucket[b] += (x, y), or (x, −y) if `neg`: an affine, non-identity point whose storage must
  /// stay unchanged until finish() (bases, or buckets of another accumulator or phase).
  inline void add(std::uint32_t b, const F& x, const F& y, bool neg) {
    uint8_t& st = state_[b];
    if (st & kBusy) {
      if (nq_ < cap_) {
        queue_[nq_++] = Entry{&x, &y, b, neg};
      } else {
        add_overflow(b, x, neg ? -y : y);
      }
      return;
    }
    if (!(st & kOcc)) {
      bucket_[b] = XY<Cfg>{x, neg ? -y : y};
      st |= kOcc;
      return;
    }
    st |= kBusy;
    __builtin_prefetch(&bucket_[b], 1);
    batch_[m_++] = Entry{&x, &y, b, neg};
    if (m_ == cap_) flush_and_drain();
  }

  /// Completes every pending addition (batch and queue).
  void finish() {
    while (m_ > 0 || nq_ > 0) {
      flush();
      drain();
    }
  }

  // Read access after finish().
  bool occupied(std::size_t j) const { return state_[j] & kOcc; }
  const XY<Cfg>& bucket(std::size_t j) const { return bucket_[j]; }
  /// Whether any bucket spilled into its XYZZ overflow accumulator since reset().
  bool any_overflow() const { return any_overflow_; }

  /// Σ_j (j + 1)·bucket[j] by running sums (after finish()).
  Xyzz weighted_sum() const {
    Xyzz running = Xyzz::identity(), total = Xyzz::identity();
    for (std::size_t j = nb_; j-- > 0;) {
      const uint8_t st = state_[j];
      if (st & kOcc) running += Affine{bucket_[j].x, bucket_[j].y, false};
      if (st & kOvf) running += overflow_[j];
      total += running;
    }
    return total;
  }
  /// Σ_j bucket[j] (after finish()).
  Xyzz plain_sum() const {
    Xyzz total = Xyzz::identity();
    for (std::size_t j = 0; j < nb_; ++j) {
      const uint8_t st = state_[j];
      if (st & kOcc) total += Affine{bucket_[j].x, bucket_[j].y, false};
      if (st & kOvf) total += overflow_[j];
    }
    return total;
  }

 private:
  enum : uint8_t { kAdd = 0, kDbl = 1, kCancel = 2 };

  void add_overflow(std::uint32_t b, const F& x, const F& y) {
    uint8_t& st = state_[b];
    any_overflow_ = true;
    if (!(st & kOvf)) {
      new (&overflow_[b]) Xyzz{x, y, F::one(), F::one()};
      st |= kOvf;
    } else {
      overflow_[b] += Affine{x, y, false};
    }
  }

  /// The m_ pending additions by the IFMA kernel; the pairs with equal x (double or cancel) it
  /// leaves are done here one by one.
  void flush_vector() {
    static_assert(offsetof(XY<Cfg>, y) == sizeof(F) && sizeof(F) % 48 == 0);
    std::uintptr_t* xa = addr_.get();
    std::uintptr_t* ya = xa + m_;
    std::uintptr_t* qa = ya + m_;
    for (std::size_t k = 0; k < m_; ++k) {
      const Entry& e = batch_[k];
      xa[k] = reinterpret_cast<std::uintptr_t>(e.x);
      ya[k] = reinterpret_cast<std::uintptr_t>(e.y);
      qa[k] = reinterpret_cast<std::uintptr_t>(&bucket_[e.b].x);
      neg_[k] = e.neg;
    }
    if constexpr (std::is_same_v<F, ff::Fp>) {
      g1_affine_add_batch_ifma(xa, ya, qa, neg_.get(), m_, kind_.get());
    } else {
      g2_affine_add_batch_ifma(xa, ya, qa, neg_.get(), m_, kind_.get());
    }
    for (std::size_t k = 0; k < m_; ++k) {
      const Entry& e = batch_[k];
      uint8_t& st = state_[e.b];
      st &= static_cast<uint8_t>(~kBusy);
      if (!kind_[k]) continue;
      XY<Cfg>& q = bucket_[e.b];
      if ((e.neg ? -*e.y : *e.y) == q.y && !q.y.is_zero()) {  // q == p: λ = 3x²/2y
        const F xx = q.x.square();
        const F lambda = (xx.dbl() + xx) * q.y.dbl().inverse();
        const F x3 = lambda.square() - q.x.dbl();
        q.y = lambda * (q.x - x3) - q.y;
        q.x = x3;
      } else {  // q == −p
        st &= static_cast<uint8_t>(~kOcc);
      }
    }
    m_ = 0;
  }

  /// Performs the m_ pending additions bucket[b_k] += p_k with one inversion.
  void flush() {
    if (m_ == 0) return;
    if constexpr (kVectorFlush) {
      if (m_ >= kVectorMin && ff::ifma_enabled()) return flush_vector();
    }
    F acc = F::one();
    for (std::size_t k = 0; k < m_; ++k) {
      const Entry& e = batch_[k];
      const XY<Cfg>& q = bucket_[e.b];
      F d = *e.x - q.x;
      uint8_t kind = kAdd;
      if (d.is_zero()) {
        // Same x: q == p (double, λ = 3x²/2y) or q == −p (the sum is the identity).
        if ((e.neg ? -*e.y : *e.y) == q.y && !q.y.is_zero()) {
          d = q.y.dbl();
          kind = kDbl;
        } else {
          kind = kCancel;
        }
      }
      kind_[k] = kind;
      pref_[k] = acc;  // Π of the denominators before k
      if (kind != kCancel) acc *= d;
    }
    F inv = acc.inverse();  // 1 / Π den
    for (std::size_t k = m_; k-- > 0;) {
      const Entry& e = batch_[k];
      XY<Cfg>& q = bucket_[e.b];
      uint8_t& st = state_[e.b];
      st &= static_cast<uint8_t>(~kBusy);
      const uint8_t kind = kind_[k];
      if (kind == kCancel) {
        st &= static_cast<uint8_t>(~kOcc);
        continue;
      }
      const F i = inv * pref_[k];  // 1 / d
      inv *= kind == kAdd ? *e.x - q.x : q.y.dbl();  // the denominator again
      if (kind == kAdd && e.neg) {
        // q + (x_p, −y_p): with t = (y_p + y_q)/d = −λ, x3 = t² − x_q − x_p and
        // y3 = λ(x_q − x3) − y_q = t(x3 − x_q) − y_q (no negations).
        const F t = (*e.y + q.y) * i;
        const F x3 = t.square() - q.x - *e.x;
        q.y = t * (x3 - q.x) - q.y;
        q.x = x3;
        continue;
      }
      F lambda;
      if (kind == kAdd) {
        lambda = (*e.y - q.y) * i;  // λ = (y_p − y_q)/d
      } else {
        const F xx = q.x.square();
        lambda = (xx.dbl() + xx) * i;
      }
      const F x3 = lambda.square() - q.x - *e.x;  // x_p = x_q when doubling
      q.y = lambda * (q.x - x3) - q.y;
      q.x = x3;
    }
    m_ = 0;
  }

  /// Moves queued additions whose bucket is free into the (empty) batch.
  void drain() {
    std::size_t j = 0;
    for (std::size_t k = 0; k < nq_; ++k) {
      const Entry& e = queue_[k];
      uint8_t& st = state_[e.b];
      if (st & kBusy) {
        queue_[j++] = e;
      } else if (!(st & kOcc)) {
        bucket_[e.b] = XY<Cfg>{*e.x, e.neg ? -*e.y : *e.y};
        st |= kOcc;
      } else {
        st |= kBusy;
        batch_[m_++] = e;  // m_ ≤ nq_ ≤ cap_
      }
    }
    nq_ = j;
  }

  void flush_and_drain() {
    do {
      flush();
      drain();
    } while (m_ == cap_);
  }

  std::size_t max_buckets_, max_batch_;
  std::size_t nb_ = 0, cap_ = 1, m_ = 0, nq_ = 0;
  bool any_overflow_ = false;
  std::unique_ptr<XY<Cfg>[]> bucket_;
  std::unique_ptr<uint8_t[]> state_;
  std::unique_ptr<std::byte[]> overflow_raw_;
  Xyzz* overflow_ = nullptr;
  std::unique_ptr<Entry[]> batch_, queue_;
  std::unique_ptr<F[]> pref_;
  std::unique_ptr<uint8_t[]> kind_;
  std::unique_ptr<std::uintptr_t[]> addr_;  // vector flush: x_p, y_p, bucket addresses (3 per entry)
  std::unique_ptr<uint8_t[]> neg_;           // vector flush: negate y_p
};

/// Segments of the batch-affine bucket reduction (see segmented_weighted_sum): S = clamp(nb/8,
/// 512, 2048) chains, used when nb >= 2·512.
inline constexpr std::size_t kMinReduceSegments = 512, kMaxReduceSegments = 2048;
inline std::size_t reduce_segments(std::size_t nb) {
  return std::clamp<std::size_t>(nb / 8, kMinReduceSegments, kMaxReduceSegments);
}

/// Σ_j (j + 1)·B_j for the nb affine buckets of `bk` (no overflow), with the additions batched:
/// the buckets are cut into S = reduce_segments(nb) segments of L = nb/S, and S independent
/// running-sum chains walk them in step (R_k += B_(kL+i), then T_k += R_k, for i = L−1 … 0), each
/// step one batch of S affine additions in `chains` (2S buckets: R_k at k, T_k at S + k). Then
///   Σ_j (j+1)·B_j = Σ_k T_k + L·Σ_k k·R_k,
/// the last sum by an XYZZ running sum over the S chains and log2(L) doublings. About 2 affine
/// additions per bucket instead of an XYZZ madd + add. nb must be a power of two >= 2S.
template <class Cfg>
ec::XyzzPoint<Cfg> segmented_weighted_sum(const BatchAffineBuckets<Cfg>& bk, std::size_t nb,
                                          BatchAffineBuckets<Cfg>& chains) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  using Affine = ec::AffinePoint<Cfg>;
  const std::size_t S = reduce_segments(nb);
  const std::size_t L = nb / S;
  chains.reset(2 * S, S);
  for (std::size_t i = L; i-- > 0;) {
    for (std::size_t k = 0; k < S; ++k) {
      const std::size_t j = k * L + i;
      if (bk.occupied(j)) chains.add(static_cast<std::uint32_t>(k), bk.bucket(j).x, bk.bucket(j).y, false);
    }
    chains.finish();
    for (std::size_t k = 0; k < S; ++k) {
      if (chains.occupied(k))
        chains.add(static_cast<std::uint32_t>(S + k), chains.bucket(k).x, chains.bucket(k).y, false);
    }
    chains.finish();
  }
  Xyzz tsum = Xyzz::identity(), run = Xyzz::identity(), acc = Xyzz::identity();
  for (std::size_t k = S; k-- > 0;) {
    if (chains.occupied(S + k)) tsum += Affine{chains.bucket(S + k).x, chains.bucket(S + k).y, false};
    if (k == 0) break;
    if (chains.occupied(k)) run += Affine{chains.bucket(k).x, chains.bucket(k).y, false};
    acc += run;  // Σ_{k' >= k} R_k', summed over k >= 1: Σ_k k·R_k
  }
  for (std::size_t l = L; l > 1; l >>= 1) acc = acc.dbl();
  return tsum + acc;
}

// ---- plan --------------------------------------------------------------------------------------

struct Plan {
  unsigned c;        ///< window bits
  unsigned windows;  ///< ⌈bits/c⌉
  unsigned bits;     ///< scalars are < 2^(bits − 1) (255, or 128/64 after an endomorphism split)
  unsigned limbs;    ///< 64-bit limbs per stored scalar
  unsigned chunks;   ///< point chunks per window
  bool affine;       ///< batch-affine buckets
  unsigned batch;    ///< batch size (affine)
  bool segmented_reduce = true;  ///< batch-affine bucket reduction (affine buckets, nb >= 1024)
};

inline unsigned default_batch(unsigned c) {
  const std::size_t nb = std::size_t{1} << (c - 1);
  return static_cast<unsigned>(std::clamp<std::size_t>(nb / 8, 32, 2048));
}

/// Plan for n points (after any endomorphism split) with scalars of `bits` (see Plan) stored in
/// `limbs` limbs.
inline Plan make_plan(std::size_t n, int threads, const MsmConfig& cfg, unsigned bits = 255, unsigned limbs = 4) {
  Plan p{};
  p.bits = bits;
  p.limbs = limbs;
  if (cfg.window_bits == 0) {
    WindowChoice w = window_for(n, threads, cfg.buckets, static_cast<int>(bits));
    p.c = static_cast<unsigned>(w.window_bits);
    p.chunks = static_cast<unsigned>(w.chunks);
    p.affine = w.form == BucketForm::BatchAffine;
    p.batch = static_cast<unsigned>(w.batch_size);
  } else {
    p.c = static_cast<unsigned>(cfg.window_bits);
    p.affine = cfg.buckets == BucketForm::BatchAffine ||
               (cfg.buckets == BucketForm::Auto && (std::size_t{1} << (p.c - 1)) >= 256);
    if (p.c < 3) p.affine = false;  // one or two buckets: nothing to batch
    p.batch = default_batch(p.c);
    p.chunks = 1;
    if (cfg.chunks == 0) {
      // Enough tasks to keep the threads busy, chunks no smaller than the bucket count.
      const unsigned w = num_windows(p.c, bits);
      while (p.chunks < 64 && w * p.chunks < 2u * static_cast<unsigned>(threads) &&
             n / (2 * p.chunks) >= (std::size_t{1} << (p.c - 1)))
        p.chunks *= 2;
    }
  }
  if (cfg.chunks > 0) p.chunks = static_cast<unsigned>(cfg.chunks);
  if (cfg.batch_size > 0) p.batch = static_cast<unsigned>(cfg.batch_size);
  p.segmented_reduce = cfg.batch_reduce;
  p.windows = num_windows(p.c, bits);
  return p;
}

// ---- per-thread scratch ------------------------------------------------------------------------

template <class Cfg>
struct ThreadScratch {
  std::unique_ptr<BatchAffineBuckets<Cfg>> affine;
  std::unique_ptr<BatchAffineBuckets<Cfg>> chains;  // segmented reduction
  std::unique_ptr<ec::XyzzPoint<Cfg>[]> xyzz;
  std::size_t xyzz_size = 0;

  BatchAffineBuckets<Cfg>& affine_buckets(std::size_t nb, std::size_t batch) {
    if (!affine || affine->max_buckets() < nb || affine->max_batch() < batch)
      affine = std::make_unique<BatchAffineBuckets<Cfg>>(nb, batch);
    return *affine;
  }
  BatchAffineBuckets<Cfg>& chain_buckets() {
    if (!chains) chains = std::make_unique<BatchAffineBuckets<Cfg>>(2 * kMaxReduceSegments, kMaxReduceSegments);
    return *chains;
  }
  ec::XyzzPoint<Cfg>* xyzz_buckets(std::size_t nb) {
    if (xyzz_size < nb) {
      xyzz = std::make_unique_for_overwrite<ec::XyzzPoint<Cfg>[]>(nb);
      xyzz_size = nb;
    }
    return xyzz.get();
  }
};

/// One scratch set per thread taking part in this call, allocated on the thread's first task.
template <class Cfg>
class ScratchSlots {
 public:
  ThreadScratch<Cfg>& mine() { return slots_.local(); }

 private:
  tbb::enumerable_thread_specific<ThreadScratch<Cfg>> slots_;
};

// ---- Pippenger over prepared (tagged base, canonical |scalar|) pairs ---------------------------

/// Σ over window w of points [lo, hi): Σ_j (j+1)·bucket_j with bucket_j = Σ ±P_i (|d_i| = j + 1).
/// Scalar i is sc[i·L .. i·L + L), L = plan.limbs.
template <class Cfg>
ec::XyzzPoint<Cfg> window_sum(const std::uintptr_t* ptr, const u64* sc, std::size_t lo, std::size_t hi,
                              unsigned c, unsigned w, const Plan& plan, ThreadScratch<Cfg>& scratch) {
  const unsigned L = plan.limbs;
  using Affine = ec::AffinePoint<Cfg>;
  using Xyzz = ec::XyzzPoint<Cfg>;
  const std::size_t nb = std::size_t{1} << (c - 1);
  constexpr std::size_t kAhead = 8;
  if (plan.affine) {
    auto& acc = scratch.affine_buckets(nb, plan.batch);
    acc.reset(nb, plan.batch);
    for (std::size_t i = lo; i < hi; ++i) {
      if (i + kAhead < hi) __builtin_prefetch(&base_of<Cfg>(ptr[i + kAhead]));
      const int d = booth_digit(sc + i * L, L, c, w);
      if (d == 0) continue;
      const Affine& p = base_of<Cfg>(ptr[i]);
      if (p.infinity) continue;
      const bool neg = (d < 0) != static_cast<bool>(ptr[i] & 1);
      const std::uint32_t b = static_cast<std::uint32_t>((d < 0 ? -d : d) - 1);
      acc.add(b, p.x, p.y, neg);
    }
    acc.finish();
    if (plan.segmented_reduce && nb >= 2 * kMinReduceSegments && !acc.any_overflow())
      return segmented_weighted_sum<Cfg>(acc, nb, scratch.chain_buckets());
    return acc.weighted_sum();
  }
  Xyzz* bucket = scratch.xyzz_buckets(nb);
  std::fill(bucket, bucket + nb, Xyzz::identity());
  for (std::size_t i = lo; i < hi; ++i) {
    if (i + kAhead < hi) __builtin_prefetch(&base_of<Cfg>(ptr[i + kAhead]));
    const int d = booth_digit(sc + i * L, L, c, w);
    if (d == 0) continue;
    const Affine& p = base_of<Cfg>(ptr[i]);
    if (p.infinity) continue;
    const bool neg = (d < 0) != static_cast<bool>(ptr[i] & 1);
    Xyzz& bk = bucket[(d < 0 ? -d : d) - 1];
    if (neg) {
      bk += -p;
    } else {
      bk += p;
    }
  }
  Xyzz running = Xyzz::identity(), total = Xyzz::identity();
  for (std::size_t j = nb; j-- > 0;) {
    running += bucket[j];
    total += running;
  }
  return total;
}

template <class Cfg>
ec::XyzzPoint<Cfg> pippenger(const std::uintptr_t* ptr, const u64* sc, std::size_t m, const Plan& plan,
                             ScratchSlots<Cfg>& slots, const std::atomic<bool>* cancel = nullptr) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  if (m == 0) return Xyzz::identity();
  const unsigned W = plan.windows, C = plan.chunks;
  std::vector<Xyzz> partial(static_cast<std::size_t>(W) * C);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, partial.size(), 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t t = r.begin(); t != r.end(); ++t) {
                        if (cancelled(cancel)) return;  // the caller throws after the loop
                        g_window_tasks.fetch_add(1, std::memory_order_relaxed);
                        const unsigned w = static_cast<unsigned>(t / C), ch = static_cast<unsigned>(t % C);
                        const std::size_t lo = m * ch / C, hi = m * (ch + 1) / C;
                        partial[t] = window_sum<Cfg>(ptr, sc, lo, hi, plan.c, w, plan, slots.mine());
                      }
                    });
  check_cancel(cancel, "between Pippenger windows");
  // Horner over windows: R = Σ_w 2^(cw)·S_w.
  Xyzz acc = Xyzz::identity();
  for (unsigned w = W; w-- > 0;) {
    if (!acc.is_identity())
      for (unsigned k = 0; k < plan.c; ++k) acc = acc.dbl();
    for (unsigned ch = 0; ch < C; ++ch) acc += partial[static_cast<std::size_t>(w) * C + ch];
  }
  return acc;
}

// ---- 0/1 path: Σ of points by batch addition ---------------------------------------------------

/// Sums the points a chunk visits: visit(emit) calls emit(tagged pointer) per point.
template <class Cfg, class Visit>
ec::XyzzPoint<Cfg> sum_chunk(std::size_t count_hint, Visit&& visit, ThreadScratch<Cfg>& scratch) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  using Affine = ec::AffinePoint<Cfg>;
  if (count_hint < 1024) {  // too few additions to amortise inversions: XYZZ
    Xyzz acc = Xyzz::identity();
    visit([&](std::uintptr_t t) {
      const Affine& p = base_of<Cfg>(t);
      if (p.infinity) return;
      if (t & 1) {
        acc += -p;
      } else {
        acc += p;
      }
    });
    return acc;
  }
  // K accumulators dealt round-robin; a batch of K additions per inversion.
  // 1/8 of the points fill the slots for free; the rest cost 6 multiplications plus 1/K inversion.
  const std::size_t k = std::clamp<std::size_t>(count_hint / 8, 128, 2048);
  auto& acc = scratch.affine_buckets(k, k);
  acc.reset(k, k);
  std::uint32_t slot = 0;
  visit([&](std::uintptr_t t) {
    const Affine& p = base_of<Cfg>(t);
    if (p.infinity) return;
    acc.add(slot, p.x, p.y, (t & 1) != 0);
    if (++slot == k) slot = 0;
  });
  acc.finish();
  return acc.plain_sum();
}

/// Σ of the points behind tagged pointers ptr[0..k).
template <class Cfg>
ec::XyzzPoint<Cfg> sum_tagged(const std::uintptr_t* ptr, std::size_t k, ScratchSlots<Cfg>& slots,
                              const std::atomic<bool>* cancel = nullptr) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  if (k == 0) return Xyzz::identity();
  const std::size_t T = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  const std::size_t chunks = std::max<std::size_t>(1, std::min(4 * T, k / 4096));
  std::vector<Xyzz> part(chunks);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      if (cancelled(cancel)) return;
      const std::size_t lo = k * c / chunks, hi = k * (c + 1) / chunks;
      part[c] = sum_chunk<Cfg>(
          hi - lo,
          [&](auto&& emit) {
            for (std::size_t i = lo; i < hi; ++i) {
              if (i + 8 < hi) __builtin_prefetch(&base_of<Cfg>(ptr[i + 8]));
              emit(ptr[i]);
            }
          },
          slots.mine());
    }
  });
  check_cancel(cancel, "between chunks of the ±1 sum");
  Xyzz acc = Xyzz::identity();
  for (const Xyzz& p : part) acc += p;
  return acc;
}

// ---- split pass --------------------------------------------------------------------------------

inline constexpr std::size_t kSplitChunk = 8192;  // positions per split task (multiple of 64)

struct SplitChunk {
  std::size_t seg, lo, hi;   // positions [lo, hi) of segment seg
  std::size_t rank = 0;      // set density bits of seg below lo
  std::size_t n_set = 0, n_ones = 0, n_rest = 0;
  std::size_t ones_off = 0, rest_off = 0;
};

template <class Cfg>
struct Split {
  std::unique_ptr<std::uintptr_t[]> ptr;  // [0, rest): Pippenger bases; [cap − ones, cap): ±1 bases
  std::unique_ptr<Limbs4[]> scalar;       // [0, rest)
  std::size_t rest = 0, ones = 0, cap = 0;
};

inline const Limbs4& limbs_at(const Scalars& s, std::size_t i) {
  return s.is_montgomery() ? s.montgomery()[i].limbs : s.canonical()[i];
}

template <class Cfg>
Split<Cfg> split(std::span<const Segment<Cfg>> segs, bool split_ones) {
  std::vector<SplitChunk> chunks;
  for (std::size_t s = 0; s < segs.size(); ++s) {
    const std::size_t n = segs[s].scalars.size();
    for (std::size_t lo = 0; lo < n; lo += kSplitChunk)
      chunks.push_back(SplitChunk{s, lo, std::min(n, lo + kSplitChunk)});
  }
  // Pass 1: counts.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      SplitChunk& ch = chunks[c];
      const Segment<Cfg>& sg = segs[ch.seg];
      const bool mont = sg.scalars.is_montgomery();
      for (std::size_t i = ch.lo; i < ch.hi; ++i) {
        if (sg.density && !sg.density->test(i)) continue;
        ++ch.n_set;
        const Limbs4& s = limbs_at(sg.scalars, i);
        if (!mont && ff::detail::geq<4>(s, kR))
          throw ProoflineError(Error::NotCanonical, "msm: canonical scalar " + std::to_string(i) + " of segment " +
                                                        std::to_string(ch.seg) + " is >= r");
        const Kind k = classify(s, mont);
        if (k == Kind::Zero) continue;
        if (split_ones && k != Kind::Other) {
          ++ch.n_ones;
        } else {
          ++ch.n_rest;
        }
      }
    }
  });
  Split<Cfg> out;
  std::size_t rank = 0, prev_seg = ~std::size_t{0};
  for (SplitChunk& ch : chunks) {
    if (ch.seg != prev_seg) rank = 0, prev_seg = ch.seg;
    ch.rank = rank;
    rank += ch.n_set;
    ch.rest_off = out.rest;
    ch.ones_off = out.ones;
    out.rest += ch.n_rest;
    out.ones += ch.n_ones;
  }
  out.cap = out.rest + out.ones;
  out.ptr = std::make_unique_for_overwrite<std::uintptr_t[]>(std::max<std::size_t>(out.cap, 1));
  out.scalar = std::make_unique_for_overwrite<Limbs4[]>(std::max<std::size_t>(out.rest, 1));
  // Pass 2: fill.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      const SplitChunk& ch = chunks[c];
      const Segment<Cfg>& sg = segs[ch.seg];
      const bool mont = sg.scalars.is_montgomery();
      const ec::AffinePoint<Cfg>* base = sg.bases.data() + sg.start + ch.rank;
      std::size_t ro = ch.rest_off, oo = out.cap - ch.ones_off;
      for (std::size_t i = ch.lo; i < ch.hi; ++i) {
        if (sg.density && !sg.density->test(i)) continue;
        const ec::AffinePoint<Cfg>* p = base++;
        const Limbs4& s = limbs_at(sg.scalars, i);
        const Kind k = classify(s, mont);
        if (k == Kind::Zero) continue;
        if (split_ones && k != Kind::Other) {
          out.ptr[--oo] = tag<Cfg>(p, k == Kind::MinusOne);
        } else {
          bool neg;
          out.scalar[ro] = signed_canonical(s, mont, neg);
          out.ptr[ro++] = tag<Cfg>(p, neg);
        }
      }
    }
  });
  return out;
}

// ---- endomorphism expansion ---------------------------------------------------------------------

/// ψ² on G2 without Frobenius: ψ²(x, y) = (x·nx, y·ny) with nx = cx·conj(cx) and ny = cy·conj(cy)
/// in Fp (the norms of the ψ coefficients of g2.hpp, since conj is a field automorphism).
struct Psi2Coeffs {
  ff::Fp nx, ny;
};
inline const Psi2Coeffs& psi2_coeffs() {
  static const Psi2Coeffs k{ec::g2_psi_coeff_x().norm(), ec::g2_psi_coeff_y().norm()};
  return k;
}

/// The Pippenger terms after the endomorphism split: D terms per input term, scalar parts of
/// kLimbs limbs each, bases the input base or one of its D − 1 images (stored in `images`).
template <class Cfg>
struct Expanded {
  std::unique_ptr<ec::AffinePoint<Cfg>[]> images;  // D − 1 per input term
  std::unique_ptr<std::uintptr_t[]> ptr;           // D per input term (tagged)
  std::unique_ptr<u64[]> scalar;                   // D·kLimbs per input term
  std::size_t m = 0;                               // D·n
};

/// Splits the n prepared terms (tagged base, |k| ≤ (r−1)/2) along the endomorphism: G1 term i
/// becomes (P, ±m0), (φ(P), ±m1); G2 term i becomes (ψ^j(P), ±m_j), j = 0..3 (glv_parts,
/// gls_parts). Identity bases give D identity terms with zero scalars. Parallel over blocks.
template <class Cfg>
Expanded<Cfg> expand_endo(const std::uintptr_t* ptr, const Limbs4* sc, std::size_t n) {
  using E = EndoSplit<Cfg>;
  using Affine = ec::AffinePoint<Cfg>;
  constexpr unsigned D = E::D, L = E::kLimbs;
  static_assert(D > 1);
  Expanded<Cfg> out;
  out.m = n * D;
  out.images = std::make_unique_for_overwrite<Affine[]>(std::max<std::size_t>(n * (D - 1), 1));
  out.ptr = std::make_unique_for_overwrite<std::uintptr_t[]>(std::max<std::size_t>(n * D, 1));
  out.scalar = std::make_unique_for_overwrite<u64[]>(std::max<std::size_t>(n * D * L, 1));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 2048), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const Affine& p = base_of<Cfg>(ptr[i]);
      const bool neg = (ptr[i] & 1) != 0;
      Affine* img = out.images.get() + i * (D - 1);
      std::uintptr_t* op = out.ptr.get() + i * D;
      u64* os = out.scalar.get() + i * D * L;
      if (p.infinity) {
        for (unsigned j = 0; j < D; ++j) op[j] = ptr[i];
        for (unsigned j = 0; j < D * L; ++j) os[j] = 0;
        continue;
      }
      if constexpr (std::is_same_v<Cfg, ec::G1Config>) {
        u64 m0[2], m1[2];
        bool n0, n1;
        glv_parts(sc[i], m0, n0, m1, n1);
        img[0] = Affine{p.x * ec::g1_beta(), p.y, false};  // φ(P)
        op[0] = tag<Cfg>(&p, neg != n0);
        op[1] = tag<Cfg>(&img[0], neg != n1);
        os[0] = m0[0], os[1] = m0[1], os[2] = m1[0], os[3] = m1[1];
      } else {
        static_assert(std::is_same_v<Cfg, ec::G2Config>);
        const Psi2Coeffs& k2 = psi2_coeffs();
        u64 m[4];
        bool ng[4];
        gls_parts(sc[i], m, ng);
        img[0] = ec::g2_psi(p);                                         // ψ(P)
        img[1] = Affine{p.x.mul_fp(k2.nx), p.y.mul_fp(k2.ny), false};   // ψ²(P)
        img[2] = Affine{img[0].x.mul_fp(k2.nx), img[0].y.mul_fp(k2.ny), false};  // ψ³(P)
        op[0] = tag<Cfg>(&p, neg != ng[0]);
        for (unsigned j = 1; j < 4; ++j) op[j] = tag<Cfg>(&img[j - 1], neg != ng[j]);
        for (unsigned j = 0; j < 4; ++j) os[j] = m[j];
      }
    }
  });
  return out;
}

template <class Cfg>
void check_segment(const Segment<Cfg>& sg) {
  if (sg.density) {
    if (sg.density->bits != sg.scalars.size()) throw_length("density bits vs scalars", sg.density->bits, sg.scalars.size());
    if (sg.density->words.size() * 64 < sg.density->bits)
      throw_length("density words", sg.density->words.size(), (sg.density->bits + 63) / 64);
    const std::size_t pop = sg.density->popcount();
    if (sg.start > sg.bases.size() || sg.bases.size() - sg.start < pop)
      throw_length("bases after start (density popcount)", sg.start > sg.bases.size() ? 0 : sg.bases.size() - sg.start,
                   pop, true);
  } else {
    if (sg.start > sg.bases.size() || sg.bases.size() - sg.start < sg.scalars.size())
      throw_length("bases after start", sg.start > sg.bases.size() ? 0 : sg.bases.size() - sg.start,
                   sg.scalars.size(), true);
  }
}

}  // namespace detail

// =================================================================================================
// entry points
// =================================================================================================

template <class Cfg>
std::size_t scratch_bytes(std::size_t n, const MsmConfig& cfg) {
  using Acc = detail::BatchAffineBuckets<Cfg>;
  using E = detail::EndoSplit<Cfg>;
  const int threads = cfg.threads > 0 ? cfg.threads : tbb::this_task_arena::max_concurrency();
  const bool endo = cfg.endomorphism && E::D > 1;
  const std::size_t m = endo ? n * E::D : n;  // Pippenger terms
  const detail::Plan p = endo ? detail::make_plan(m, threads, cfg, E::kBits, E::kLimbs) : detail::make_plan(n, threads, cfg);
  const std::size_t nb = std::size_t{1} << (p.c - 1);
  std::size_t per_thread;
  if (p.affine) {
    per_thread = Acc::bytes(nb, p.batch);
    if (p.segmented_reduce && nb >= 2 * detail::kMinReduceSegments)
      per_thread += Acc::bytes(2 * detail::kMaxReduceSegments, detail::kMaxReduceSegments);
  } else {
    per_thread = nb * sizeof(ec::XyzzPoint<Cfg>);
  }
  const std::size_t tasks = static_cast<std::size_t>(p.windows) * p.chunks;
  const std::size_t live = std::min<std::size_t>(tasks, static_cast<std::size_t>(threads));
  std::size_t split_bytes = n * (sizeof(std::uintptr_t) + sizeof(ScalarLimbs));
  if (endo)  // expanded terms: tagged pointers, scalar parts, endomorphism images
    split_bytes += m * (sizeof(std::uintptr_t) + E::kLimbs * sizeof(std::uint64_t)) +
                   n * (E::D - 1) * sizeof(ec::AffinePoint<Cfg>);
  return split_bytes + live * per_thread + tasks * sizeof(ec::XyzzPoint<Cfg>);
}

namespace detail {
/// Up to this many Pippenger terms (auto window) are done by direct scalar multiplication.
inline constexpr std::size_t kDirectMax = 3;
}  // namespace detail

template <class Cfg>
ec::JacobianPoint<Cfg> msm_segments(std::span<const Segment<Cfg>> segments, const MsmConfig& cfg) {
  detail::check_config(cfg);
  for (const Segment<Cfg>& sg : segments) detail::check_segment(sg);
  return detail::run_with_threads(cfg.threads, [&]() -> ec::JacobianPoint<Cfg> {
    const int threads = tbb::this_task_arena::max_concurrency();
    detail::check_cancel(cfg.cancel, "before the split");
    detail::Split<Cfg> sp = detail::split<Cfg>(segments, cfg.split_ones);
    detail::check_cancel(cfg.cancel, "after the split");
    detail::ScratchSlots<Cfg> slots;
    ec::XyzzPoint<Cfg> r = ec::XyzzPoint<Cfg>::identity();
    if (sp.rest > 0 && sp.rest <= detail::kDirectMax && cfg.window_bits == 0) {
      // A handful of terms: one wNAF scalar multiplication each beats 128 windows of c = 2.
      ec::JacobianPoint<Cfg> acc = ec::JacobianPoint<Cfg>::identity();
      for (std::size_t i = 0; i < sp.rest; ++i) {
        const ec::AffinePoint<Cfg>& p = detail::base_of<Cfg>(sp.ptr[i]);
        if (p.infinity) continue;
        const ec::JacobianPoint<Cfg> t = p.to_projective().mul_limbs(sp.scalar[i]);
        acc += (sp.ptr[i] & 1) ? -t : t;
      }
      r = ec::XyzzPoint<Cfg>::from_projective(acc);
    } else if (sp.rest > 0) {
      using E = detail::EndoSplit<Cfg>;
      bool done = false;
      if constexpr (E::D > 1) {
        if (cfg.endomorphism) {
          const detail::Expanded<Cfg> ex = detail::expand_endo<Cfg>(sp.ptr.get(), sp.scalar.get(), sp.rest);
          detail::check_cancel(cfg.cancel, "after the endomorphism split");
          const detail::Plan plan = detail::make_plan(ex.m, threads, cfg, E::kBits, E::kLimbs);
          r = detail::pippenger<Cfg>(ex.ptr.get(), ex.scalar.get(), ex.m, plan, slots, cfg.cancel);
          done = true;
        }
      }
      if (!done) {
        const detail::Plan plan = detail::make_plan(sp.rest, threads, cfg);
        r = detail::pippenger<Cfg>(sp.ptr.get(), sp.scalar[0].data(), sp.rest, plan, slots, cfg.cancel);
      }
    }
    if (sp.ones > 0) r += detail::sum_tagged<Cfg>(sp.ptr.get() + (sp.cap - sp.ones), sp.ones, slots, cfg.cancel);
    return r.to_projective();
  });
}

template <class Cfg>
ec::JacobianPoint<Cfg> msm(std::span<const ec::AffinePoint<Cfg>> bases, Scalars scalars, const MsmConfig& cfg) {
  if (bases.size() != scalars.size()) detail::throw_length("bases vs scalars", bases.size(), scalars.size());
  const Segment<Cfg> seg{bases, 0, nullptr, scalars};
  return msm_segments<Cfg>(std::span<const Segment<Cfg>>(&seg, 1), cfg);
}

template <class Cfg>
ec::JacobianPoint<Cfg> msm_density(std::span<const ec::AffinePoint<Cfg>> bases, std::size_t start,
                                   const Density& density, Scalars scalars, const MsmConfig& cfg) {
  const Segment<Cfg> seg{bases, start, &density, scalars};
  return msm_segments<Cfg>(std::span<const Segment<Cfg>>(&seg, 1), cfg);
}

template <class Cfg>
ec::JacobianPoint<Cfg> msm_query_a(std::span<const ec::AffinePoint<Cfg>> a, Scalars inputs, Scalars aux,
                                   const Density& aux_density, const MsmConfig& cfg) {
  const std::size_t want = inputs.size() + aux_density.popcount();
  if (a.size() != want) detail::throw_length("A query length (inputs + A aux density)", a.size(), want);
  const Segment<Cfg> segs[2] = {{a, 0, nullptr, inputs}, {a, inputs.size(), &aux_density, aux}};
  return msm_segments<Cfg>(segs, cfg);
}

template <class Cfg>
ec::JacobianPoint<Cfg> msm_query_b(std::span<const ec::AffinePoint<Cfg>> b, Scalars inputs,
                                   const Density& input_density, Scalars aux, const Density& aux_density,
                                   const MsmConfig& cfg) {
  const std::size_t pin = input_density.popcount();
  const std::size_t want = pin + aux_density.popcount();
  if (b.size() != want) detail::throw_length("B query length (B input + aux density)", b.size(), want);
  const Segment<Cfg> segs[2] = {{b, 0, &input_density, inputs}, {b, pin, &aux_density, aux}};
  return msm_segments<Cfg>(segs, cfg);
}

namespace detail {

/// Σ bases[i] over all i (sel == nullptr) or over the set bits of *sel.
template <class Cfg>
ec::JacobianPoint<Cfg> sum_impl(std::span<const ec::AffinePoint<Cfg>> bases, const Density* sel,
                                const MsmConfig& cfg) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  detail::check_config(cfg);
  const bool all = sel == nullptr;
  const Density empty;
  const Density& selected = all ? empty : *sel;
  if (!all) {
    if (selected.bits != bases.size()) detail::throw_length("selection bits vs bases", selected.bits, bases.size());
    if (selected.words.size() * 64 < selected.bits)
      detail::throw_length("selection words", selected.words.size(), (selected.bits + 63) / 64);
  }
  const std::size_t n = bases.size();
  return detail::run_with_threads(cfg.threads, [&]() -> ec::JacobianPoint<Cfg> {
    if (n == 0) return ec::JacobianPoint<Cfg>::identity();
    detail::ScratchSlots<Cfg> slots;
    const std::size_t T = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
    // Chunks of whole 64-bit words.
    const std::size_t words = (n + 63) / 64;
    const std::size_t chunks = std::max<std::size_t>(1, std::min(4 * T, words / 64));
    std::vector<Xyzz> part(chunks);
    detail::check_cancel(cfg.cancel, "before the sum");
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t c = r.begin(); c != r.end(); ++c) {
        if (detail::cancelled(cfg.cancel)) return;
        const std::size_t wlo = words * c / chunks, whi = words * (c + 1) / chunks;
        const std::size_t lo = wlo * 64, hi = std::min(n, whi * 64);
        std::size_t count = hi - lo;
        if (!all) {
          count = 0;
          for (std::size_t w = wlo; w < whi; ++w) {
            std::uint64_t bits = selected.words[w];
            if (w == words - 1 && (n & 63)) bits &= (std::uint64_t{1} << (n & 63)) - 1;
            count += static_cast<std::size_t>(std::popcount(bits));
          }
        }
        part[c] = detail::sum_chunk<Cfg>(
            count,
            [&](auto&& emit) {
              if (all) {
                for (std::size_t i = lo; i < hi; ++i) emit(detail::tag<Cfg>(&bases[i], false));
                return;
              }
              for (std::size_t w = wlo; w < whi; ++w) {
                std::uint64_t bits = selected.words[w];
                if (w == words - 1 && (n & 63)) bits &= (std::uint64_t{1} << (n & 63)) - 1;
                while (bits) {
                  const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
                  bits &= bits - 1;
                  emit(detail::tag<Cfg>(&bases[w * 64 + b], false));
                }
              }
            },
            slots.mine());
      }
    });
    detail::check_cancel(cfg.cancel, "between chunks of the sum");
    Xyzz acc = Xyzz::identity();
    for (const Xyzz& p : part) acc += p;
    return acc.to_projective();
  });
}

}  // namespace detail

template <class Cfg>
ec::JacobianPoint<Cfg> sum(std::span<const ec::AffinePoint<Cfg>> bases, const MsmConfig& cfg) {
  return detail::sum_impl<Cfg>(bases, nullptr, cfg);
}

template <class Cfg>
ec::JacobianPoint<Cfg> sum_selected(std::span<const ec::AffinePoint<Cfg>> bases, const Density& selected,
                                    const MsmConfig& cfg) {
  return detail::sum_impl<Cfg>(bases, &selected, cfg);
}

}  // namespace proofline::msm
