// msm/scalar_split.hpp (private, src/msm/) — scalars for the MSM: kinds (0, ±1, other),
// canonical |s| with the sign trick (s > (r−1)/2 → r − s and a negated base), Booth digits of a
// window, the GLV (G1) and GLS (G2) endomorphism splits, and tagged base pointers (bit 0 = negate).
// Part of msm_impl.hpp's template code; included through pippenger.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "proofline/ff/fp2.hpp"
#include "proofline/msm/msm.hpp"

namespace proofline::msm::detail {

using ff::u64;

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

}  // namespace proofline::msm::detail
