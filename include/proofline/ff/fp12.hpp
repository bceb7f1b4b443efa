// proofline/ff/fp12.hpp — Fp12 = Fp6[w] / (w^2 − v), the top of the BLS12-381 tower and the
// home of the pairing's target group GT (the order-r subgroup of Fp12^*).
//
// Owns: `Fp12` (add, sub, neg, mul, square, inverse, conjugation, Frobenius maps, the sparse
// multiplication by a line function `mul_by_014`, Granger–Scott cyclotomic squaring, generic
// `pow`, and `cyclotomic_pow_x`, the power by the BLS parameter x used by the final
// exponentiation), and the BLS parameter itself (`kBlsX`, `kBlsXIsNegative`).
//
// Representation: c0 + c1·w with c0, c1 in Fp6; w^2 = v, v^3 = ξ = 1 + u, so w^6 = ξ. Written out
// over Fp2, an element is  g0 + h0·w + g1·w^2 + h1·w^3 + g2·w^4 + h2·w^5  with c0 = (g0, g1, g2) and
// c1 = (h0, h1, h2). The same tower as blst, zcash/bls12_381 and @noble/curves: noble's Fp12 value
// {c0: {c0, c1, c2}, c1: {c0, c1, c2}} of Fp2 {c0, c1} has the same 12 Fp coefficients.
// "Index" naming of the six Fp2 slots (used by `mul_by_014`): c0.c0 = 0, c0.c1 = 1, c0.c2 = 2,
// c1.c0 = 3, c1.c1 = 4, c1.c2 = 5.
//
// Formulas:
//  * mul: Karatsuba over Fp6 (3 Fp6 mul = 18 Fp2 mul); square: the "complex" method (2 Fp6 mul),
//    both from Devegili et al., ePrint 2006/471.
//  * inverse: (c0 + c1 w)^(−1) = (c0 − c1 w) / (c0^2 − v·c1^2).
//  * conjugate: c0 − c1·w = this^(p^6); on the cyclotomic subgroup (norm 1 to Fp6) it is the inverse.
//  * Frobenius: (c0 + c1 w)^(p^k) = c0^(p^k) + c1^(p^k)·ξ^((p^k−1)/6)·w, coefficients from
//    `detail::tower_frobenius()` (derived from ξ at first use).
//  * cyclotomic_square: Granger, Scott, "Faster squaring in the cyclotomic subgroup of sixth degree
//    extensions", PKC 2010: over Fp4 = Fp2[s]/(s^2 − ξ), s = w^3, an element is
//    A + B·w + C·w^2 with A = g0 + h1 s, B = h0 + g2 s, C = g1 + h2 s, and for a cyclotomic element
//    its square is (3A^2 − 2·conj(A)) + (3·s·C^2 + 2·conj(B))·w + (3B^2 − 2·conj(C))·w^2
//    (conj: s → −s). 9 Fp2 squarings. Valid ONLY on the cyclotomic subgroup G_Φ12 = {f :
//    f^(p^4 − p^2 + 1) = 1}, which holds the outputs of the easy part of the final exponentiation,
//    f^((p^6 − 1)(p^2 + 1)), and GT.
//  * mul_by_014: the product with a line value d0 + d1·v + d4·v·w (slots 0, 1, 4), 13 Fp2 mul.
//
// Arithmetic never throws; inverse(0) = 0.
#pragma once

#include <array>
#include <cstdint>

#include "proofline/ff/fp6.hpp"

namespace proofline::ff {

/// |x| for the BLS parameter x = −0xd201000000010000 of BLS12-381 (draft-irtf-cfrg-pairing-friendly-
/// curves, BLS12-381 parameters): p = (x − 1)^2 (x^4 − x^2 + 1)/3 + x, r = x^4 − x^2 + 1. Bits set: 63, 62,
/// 60, 57, 48, 16.
inline constexpr std::uint64_t kBlsX = 0xd201000000010000ULL;
/// x is negative.
inline constexpr bool kBlsXIsNegative = true;

struct Fp12 {
  Fp6 c0, c1;

  static constexpr Fp12 zero() { return {}; }
  static constexpr Fp12 one() { return {Fp6::one(), Fp6::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp12& a, const Fp12& b) { return a.c0 == b.c0 && a.c1 == b.c1; }

  friend constexpr Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend constexpr Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  constexpr Fp12 operator-() const { return {-c0, -c1}; }
  /// Karatsuba, 3 Fp6 multiplications.
  friend Fp12 operator*(const Fp12& a, const Fp12& b);
  Fp12& operator+=(const Fp12& b) { return *this = *this + b; }
  Fp12& operator-=(const Fp12& b) { return *this = *this - b; }
  Fp12& operator*=(const Fp12& b) { return *this = *this * b; }

  /// Complex squaring, 2 Fp6 multiplications.
  Fp12 square() const;
  /// Inverse; inverse(0) = 0.
  Fp12 inverse() const;
  /// c0 − c1·w = this^(p^6). Equals the inverse on the cyclotomic subgroup.
  constexpr Fp12 conjugate() const { return {c0, -c1}; }
  /// this^(p^power), any power (reduced mod 12).
  Fp12 frobenius_map(unsigned power) const;

  /// this · (d0 + d1·v + d4·v·w): the sparse product with a Miller-loop line value whose non-zero
  /// Fp2 slots are 0 (c0.c0), 1 (c0.c1) and 4 (c1.c1). 13 Fp2 multiplications.
  Fp12 mul_by_014(const Fp2& d0, const Fp2& d1, const Fp2& d4) const;

  /// Granger–Scott squaring; precondition: `this` lies in the cyclotomic subgroup (see header).
  Fp12 cyclotomic_square() const;
  /// this^e for e = |x| = kBlsX by square-and-multiply with cyclotomic squarings (63 squarings,
  /// 5 multiplications); precondition: cyclotomic.
  Fp12 cyclotomic_pow_abs_x() const;
  /// this^x for the (negative) BLS parameter x: conjugate of `cyclotomic_pow_abs_x()`.
  /// Precondition: cyclotomic.
  Fp12 cyclotomic_pow_x() const { return cyclotomic_pow_abs_x().conjugate(); }

  /// this^e for an exponent given as little-endian 64-bit limbs (any length; general elements).
  template <std::size_t M>
  Fp12 pow(const std::array<std::uint64_t, M>& e) const {
    Fp12 r = one();
    bool started = false;
    for (std::size_t i = M; i-- > 0;) {
      for (int b = 63; b >= 0; --b) {
        if (started) r = r.square();
        if ((e[i] >> b) & 1) {
          r = started ? r * *this : *this;
          started = true;
        }
      }
    }
    return r;
  }
  Fp12 pow(std::uint64_t e) const { return pow(std::array<std::uint64_t, 1>{e}); }

  template <class Rng>
  static Fp12 random(Rng& rng) {
    Fp6 a = Fp6::random(rng);
    return {a, Fp6::random(rng)};
  }
};

static_assert(sizeof(Fp12) == 12 * 48);

}  // namespace proofline::ff
