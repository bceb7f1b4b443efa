// Property tests: the field axioms for Fp, Fr, Fp2 and Fp12 on random elements and the edge values
// 0, 1, −1 (= p − 1, built from its canonical limbs as well as by negation), 2 and small/large
// limbs, for every pair/triple of a pool. The GMP tests of tests/ff check values; these check laws
// that any correct arithmetic obeys (issue 9, item 3).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "proofline/ff/fp.hpp"
#include "proofline/ff/fp12.hpp"
#include "proofline/ff/fp2.hpp"
#include "proofline/ff/fr.hpp"

namespace {

using namespace proofline::ff;

/// p − 1 built from the canonical limbs of the modulus (not by negation).
template <class F>
F modulus_minus_one() {
  auto limbs = F::kModulus;
  limbs[0] -= 1;  // the moduli are odd: no borrow
  return F::from_canonical_unchecked(limbs);
}

template <class F>
std::vector<F> base_pool(std::mt19937_64& rng) {
  std::vector<F> v{F::zero(), F::one(), -F::one(), modulus_minus_one<F>(), F::from_u64(2),
                   F::from_u64(~std::uint64_t{0})};
  auto half = F::kModulus;  // (p − 1)/2, the largest "lexicographically small" value
  for (std::size_t i = 0; i < half.size(); ++i) {
    half[i] = (half[i] >> 1) | (i + 1 < half.size() ? half[i + 1] << 63 : 0);
  }
  v.push_back(F::from_canonical_unchecked(half));
  for (int i = 0; i < 5; ++i) v.push_back(F::random(rng));
  return v;
}

template <class F>
std::vector<F> pool(std::mt19937_64& rng);
template <>
std::vector<Fp> pool<Fp>(std::mt19937_64& rng) { return base_pool<Fp>(rng); }
template <>
std::vector<Fr> pool<Fr>(std::mt19937_64& rng) { return base_pool<Fr>(rng); }
template <>
std::vector<Fp2> pool<Fp2>(std::mt19937_64& rng) {
  const Fp m1 = modulus_minus_one<Fp>();
  std::vector<Fp2> v{Fp2::zero(), Fp2::one(), -Fp2::one(), {m1, m1}, {Fp::zero(), Fp::one()}, {Fp::zero(), m1},
                     {Fp::one(), m1}};
  for (int i = 0; i < 5; ++i) v.push_back(Fp2::random(rng));
  return v;
}
template <>
std::vector<Fp12> pool<Fp12>(std::mt19937_64& rng) {
  const Fp m1 = modulus_minus_one<Fp>();
  Fp12 edge = Fp12::zero();
  edge.c1.c2 = Fp2{m1, Fp::one()};
  std::vector<Fp12> v{Fp12::zero(), Fp12::one(), -Fp12::one(), edge};
  for (int i = 0; i < 3; ++i) v.push_back(Fp12::random(rng));
  return v;
}

template <class F>
class FieldAxioms : public ::testing::Test {};
using Fields = ::testing::Types<Fp, Fr, Fp2, Fp12>;
TYPED_TEST_SUITE(FieldAxioms, Fields);

TYPED_TEST(FieldAxioms, AdditiveGroup) {
  using F = TypeParam;
  std::mt19937_64 rng(11);
  const auto v = pool<F>(rng);
  for (const F& a : v) {
    EXPECT_EQ(a + F::zero(), a);
    EXPECT_EQ(a + (-a), F::zero());
    EXPECT_EQ(-(-a), a);
    EXPECT_EQ(a - a, F::zero());
    for (const F& b : v) {
      EXPECT_EQ(a + b, b + a);
      EXPECT_EQ(a - b, a + (-b));
      EXPECT_EQ((a - b) + b, a);
      for (const F& c : v) EXPECT_EQ((a + b) + c, a + (b + c));
    }
  }
}

TYPED_TEST(FieldAxioms, MultiplicativeLaws) {
  using F = TypeParam;
  std::mt19937_64 rng(12);
  const auto v = pool<F>(rng);
  for (const F& a : v) {
    EXPECT_EQ(a * F::one(), a);
    EXPECT_EQ(a * F::zero(), F::zero());
    EXPECT_EQ(a * (-F::one()), -a);
    EXPECT_EQ(a.square(), a * a);
    for (const F& b : v) {
      EXPECT_EQ(a * b, b * a);
      EXPECT_EQ((-a) * (-b), a * b);
      for (const F& c : v) {
        EXPECT_EQ((a * b) * c, a * (b * c));
        EXPECT_EQ(a * (b + c), a * b + a * c);
      }
    }
  }
}

TYPED_TEST(FieldAxioms, Inverses) {
  using F = TypeParam;
  std::mt19937_64 rng(13);
  const auto v = pool<F>(rng);
  EXPECT_EQ(F::zero().inverse(), F::zero());  // documented convention
  for (const F& a : v) {
    if (a == F::zero()) continue;
    const F inv = a.inverse();
    EXPECT_EQ(a * inv, F::one());
    EXPECT_EQ(inv.inverse(), a);
    for (const F& b : v) {
      if (b == F::zero()) continue;
      EXPECT_EQ((a * b).inverse(), inv * b.inverse());
    }
  }
  // −1 is its own inverse; 1 too.
  EXPECT_EQ((-F::one()).inverse(), -F::one());
  EXPECT_EQ(F::one().inverse(), F::one());
}

TYPED_TEST(FieldAxioms, PowersAgreeWithRepeatedMultiplication) {
  using F = TypeParam;
  std::mt19937_64 rng(14);
  const auto v = pool<F>(rng);
  for (const F& a : v) {
    F acc = F::one();
    for (std::uint64_t e = 0; e < 9; ++e) {
      if constexpr (requires { a.pow(e); }) {
        EXPECT_EQ(a.pow(e), acc) << "exponent " << e;
      } else {  // Fp2 has no pow: square-and-multiply by hand must agree with repeated products
        F r = F::one(), base = a;
        for (std::uint64_t k = e; k != 0; k >>= 1, base = base.square()) {
          if (k & 1) r = r * base;
        }
        EXPECT_EQ(r, acc) << "exponent " << e;
      }
      acc = acc * a;
    }
  }
}

TEST(FieldEdges, MinusOneIsModulusMinusOne) {
  EXPECT_EQ(-Fp::one(), modulus_minus_one<Fp>());
  EXPECT_EQ(-Fr::one(), modulus_minus_one<Fr>());
  EXPECT_EQ(modulus_minus_one<Fp>() + Fp::one(), Fp::zero());
  EXPECT_EQ(modulus_minus_one<Fr>() + Fr::one(), Fr::zero());
  // Canonical round trip of the largest element.
  auto limbs = Fr::kModulus;
  limbs[0] -= 1;
  EXPECT_EQ(modulus_minus_one<Fr>().to_canonical(), limbs);
  // from_canonical refuses the modulus itself and anything above.
  Fr out = Fr::one();
  EXPECT_EQ(Fr::from_canonical(out, Fr::kModulus), proofline::Error::NotCanonical);
  EXPECT_EQ(out, Fr::one());
  Fp outp;
  EXPECT_EQ(Fp::from_canonical(outp, Fp::kModulus), proofline::Error::NotCanonical);
}

}  // namespace
