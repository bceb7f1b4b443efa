// Fp6 / Fp12 tower: field axioms on random elements, sparse products against dense ones,
// Frobenius maps against x^p, cyclotomic squaring and the power by x against generic code.
#include <gtest/gtest.h>

#include <random>

#include "proofline/ff/fp12.hpp"

namespace {

using namespace proofline::ff;

constexpr std::array<u64, 6> kP = FpParams::kModulus;

Fp12 embed(const Fp6& a) { return {a, Fp6::zero()}; }

TEST(Fp6, FieldAxioms) {
  std::mt19937_64 rng(601);
  for (int i = 0; i < 20; ++i) {
    const Fp6 a = Fp6::random(rng), b = Fp6::random(rng), c = Fp6::random(rng);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a * a.inverse(), Fp6::one());
    EXPECT_EQ((a - b) + b, a);
    EXPECT_EQ(a + (-a), Fp6::zero());
    EXPECT_EQ(a * Fp6::one(), a);
  }
  EXPECT_EQ(Fp6::zero().inverse(), Fp6::zero());
}

TEST(Fp6, NonResidueAndSparse) {
  std::mt19937_64 rng(602);
  const Fp6 v{Fp2::zero(), Fp2::one(), Fp2::zero()};
  const Fp2 xi = Fp2::one().mul_by_nonresidue();
  EXPECT_EQ(v * v * v, (Fp6{xi, Fp2::zero(), Fp2::zero()}));  // v^3 = ξ
  for (int i = 0; i < 10; ++i) {
    const Fp6 a = Fp6::random(rng);
    const Fp2 b0 = Fp2::random(rng), b1 = Fp2::random(rng);
    EXPECT_EQ(a.mul_by_nonresidue(), a * v);
    EXPECT_EQ(a.mul_by_01(b0, b1), a * (Fp6{b0, b1, Fp2::zero()}));
    EXPECT_EQ(a.mul_by_1(b1), a * (Fp6{Fp2::zero(), b1, Fp2::zero()}));
    EXPECT_EQ(a.mul_by_fp2(b0), a * (Fp6{b0, Fp2::zero(), Fp2::zero()}));
  }
}

TEST(Fp6, Frobenius) {
  std::mt19937_64 rng(603);
  for (int i = 0; i < 3; ++i) {
    const Fp6 a = Fp6::random(rng);
    // a^p by exponentiation (inside Fp12, whose pow is generic) equals the Frobenius map.
    EXPECT_EQ(embed(a.frobenius_map(1)), embed(a).pow(kP));
    Fp6 t = a;
    for (int k = 1; k <= 6; ++k) {
      t = t.frobenius_map(1);
      EXPECT_EQ(t, a.frobenius_map(k)) << "k = " << k;
    }
    EXPECT_EQ(t, a);  // Frobenius^6 = identity on Fp6
    EXPECT_EQ((a * a.frobenius_map(2)).frobenius_map(3), a.frobenius_map(3) * a.frobenius_map(5));
  }
}

TEST(Fp12, FieldAxioms) {
  std::mt19937_64 rng(1201);
  for (int i = 0; i < 20; ++i) {
    const Fp12 a = Fp12::random(rng), b = Fp12::random(rng), c = Fp12::random(rng);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a * a.inverse(), Fp12::one());
    EXPECT_EQ(a + (-a), Fp12::zero());
    EXPECT_EQ(a.pow(5), a * a * a * a * a);
  }
  const Fp12 w{Fp6::zero(), Fp6::one()};
  EXPECT_EQ(w * w, embed(Fp6{Fp2::zero(), Fp2::one(), Fp2::zero()}));  // w^2 = v
  EXPECT_EQ(Fp12::zero().inverse(), Fp12::zero());
}

TEST(Fp12, SparseLineProduct) {
  std::mt19937_64 rng(1202);
  for (int i = 0; i < 10; ++i) {
    const Fp12 f = Fp12::random(rng);
    const Fp2 d0 = Fp2::random(rng), d1 = Fp2::random(rng), d4 = Fp2::random(rng);
    const Fp12 line{Fp6{d0, d1, Fp2::zero()}, Fp6{Fp2::zero(), d4, Fp2::zero()}};
    EXPECT_EQ(f.mul_by_014(d0, d1, d4), f * line);
  }
}

TEST(Fp12, Frobenius) {
  std::mt19937_64 rng(1203);
  for (int i = 0; i < 2; ++i) {
    const Fp12 a = Fp12::random(rng);
    EXPECT_EQ(a.frobenius_map(1), a.pow(kP));  // Frobenius = x^p
    Fp12 t = a;
    for (int k = 1; k <= 12; ++k) {
      t = t.frobenius_map(1);
      EXPECT_EQ(t, a.frobenius_map(k)) << "k = " << k;
    }
    EXPECT_EQ(t, a);  // Frobenius^12 = identity
    EXPECT_EQ(a.frobenius_map(6), a.conjugate());
    EXPECT_EQ(a.frobenius_map(7), a.frobenius_map(3).frobenius_map(4));
    const Fp12 b = Fp12::random(rng);
    EXPECT_EQ((a * b).frobenius_map(5), a.frobenius_map(5) * b.frobenius_map(5));
  }
}

/// An element of the cyclotomic subgroup: the easy part of the final exponentiation.
Fp12 cyclotomic(const Fp12& f) {
  const Fp12 t = f.conjugate() * f.inverse();
  return t.frobenius_map(2) * t;
}

TEST(Fp12, CyclotomicSquareAndPowX) {
  std::mt19937_64 rng(1204);
  for (int i = 0; i < 5; ++i) {
    const Fp12 m = cyclotomic(Fp12::random(rng));
    // In G_Φ12: m^(p^4 − p^2 + 1) = 1, checked as m^(p^4) · m = m^(p^2); conj = inverse.
    EXPECT_EQ(m.frobenius_map(4) * m, m.frobenius_map(2));
    EXPECT_EQ(m * m.conjugate(), Fp12::one());
    EXPECT_EQ(m.cyclotomic_square(), m.square());
    EXPECT_EQ(m.cyclotomic_square().cyclotomic_square(), m.pow(4));
    EXPECT_EQ(m.cyclotomic_pow_abs_x(), m.pow(kBlsX));
    EXPECT_EQ(m.cyclotomic_pow_x(), m.pow(kBlsX).inverse());
  }
  // Off the subgroup the Granger–Scott formula is not a squaring (so the test above has teeth).
  const Fp12 a = Fp12::random(rng);
  EXPECT_NE(a.cyclotomic_square(), a.square());
}

}  // namespace
