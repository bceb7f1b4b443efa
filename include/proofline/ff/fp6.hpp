// proofline/ff/fp6.hpp — Fp6 = Fp2[v] / (v^3 − ξ), ξ = 1 + u: the middle floor of the BLS12-381
// tower Fp ⊂ Fp2 ⊂ Fp6 ⊂ Fp12.
//
// Owns: `Fp6` (add, sub, neg, mul, square, inverse, multiplication by v, by an Fp2 scalar and by
// the sparse elements b0 + b1·v and b1·v used by the pairing's line functions, Frobenius maps) and
// `detail::tower_frobenius()`, the table of Frobenius coefficients shared with Fp12.
//
// Representation: c0 + c1·v + c2·v^2 with c0, c1, c2 in Fp2 (each two Montgomery-form Fp). This
// is the tower of blst, zcash/bls12_381 and @noble/curves (draft-irtf-cfrg-pairing-friendly-curves
// fixes the same field polynomials for BLS12-381), so values compare coefficient by coefficient.
//
// Formulas:
//  * mul: Karatsuba over three coefficients, 6 Fp2 multiplications (Devegili, Ó hÉigeartaigh,
//    Scott, Dahab, "Multiplication and squaring on pairing-friendly fields", ePrint 2006/471).
//  * square: Chung–Hasan "CH-SQR2" (2 Fp2 mul + 3 Fp2 sqr), "Asymmetric squaring formulae",
//    ARITH 2007 (also in Devegili et al.).
//  * inverse: adjugate over the norm down to Fp2 (e.g. Scott, "Implementing cryptographic pairings",
//    2007): one Fp2 inversion and 12 Fp2 multiplications/squarings.
//  * Frobenius: (c0 + c1 v + c2 v^2)^(p^k) = c0^(p^k) + c1^(p^k)·ξ^((p^k−1)/3)·v
//    + c2^(p^k)·ξ^(2(p^k−1)/3)·v^2, since v^(p^k) = v·(v^3)^((p^k−1)/3) (p ≡ 1 mod 3). The
//    coefficients are computed at first use from ξ (see `detail::tower_frobenius`), not pasted.
//
// Arithmetic never throws; inverse(0) = 0.
#pragma once

#include <array>

#include "proofline/ff/fp2.hpp"

namespace proofline::ff {

namespace detail {

/// Frobenius coefficients of the tower, derived at first use from ξ = 1 + u:
///   w[k]  = ξ^((p^k − 1)/6)   (Fp12: w^(p^k) = w[k]·w, since w^6 = ξ),
///   v1[k] = ξ^((p^k − 1)/3) = w[k]^2,  v2[k] = ξ^(2(p^k − 1)/3) = w[k]^4   (Fp6),
/// for k = 0..11. w[1] is one exponentiation by (p − 1)/6; then w[k] = conj(w[k−1])·w[1], because
/// (p^k − 1)/6 = p·(p^(k−1) − 1)/6 + (p − 1)/6 and the p-power map on Fp2 is conjugation.
struct TowerFrobenius {
  std::array<Fp2, 12> w, v1, v2;
};
const TowerFrobenius& tower_frobenius();

}  // namespace detail

struct Fp6 {
  Fp2 c0, c1, c2;

  static constexpr Fp6 zero() { return {}; }
  static constexpr Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  friend constexpr bool operator==(const Fp6& a, const Fp6& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }

  friend constexpr Fp6 operator+(const Fp6& a, const Fp6& b) {
    return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
  }
  friend constexpr Fp6 operator-(const Fp6& a, const Fp6& b) {
    return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
  }
  constexpr Fp6 operator-() const { return {-c0, -c1, -c2}; }
  constexpr Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
  /// Karatsuba, 6 Fp2 multiplications.
  friend Fp6 operator*(const Fp6& a, const Fp6& b);
  Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
  Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
  Fp6& operator*=(const Fp6& b) { return *this = *this * b; }

  /// CH-SQR2: 2 Fp2 multiplications + 3 Fp2 squarings.
  Fp6 square() const;
  /// Inverse; inverse(0) = 0.
  Fp6 inverse() const;

  /// Multiplication by v: (c0, c1, c2) → (ξ·c2, c0, c1). This is the non-residue of Fp12 = Fp6[w]/(w^2 − v).
  constexpr Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }
  /// Multiplication by an Fp2 scalar (3 Fp2 multiplications).
  Fp6 mul_by_fp2(const Fp2& s) const { return {c0 * s, c1 * s, c2 * s}; }
  /// Multiplication by the sparse element b0 + b1·v (5 Fp2 multiplications).
  Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const;
  /// Multiplication by the sparse element b1·v (3 Fp2 multiplications).
  Fp6 mul_by_1(const Fp2& b1) const;

  /// this^(p^power), any power (reduced mod 6).
  Fp6 frobenius_map(unsigned power) const;

  template <class Rng>
  static Fp6 random(Rng& rng) {
    Fp2 a = Fp2::random(rng);
    Fp2 b = Fp2::random(rng);
    return {a, b, Fp2::random(rng)};
  }
};

static_assert(sizeof(Fp6) == 6 * 48);

}  // namespace proofline::ff
