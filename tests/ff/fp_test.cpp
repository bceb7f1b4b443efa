#include <gtest/gtest.h>
#include <random>
#include "proofline/ff/fp.hpp"
#include "proofline/ff/fr.hpp"
using namespace proofline::ff;
TEST(Fp, Smoke) {
  std::mt19937_64 rng(1);
  Fp a = Fp::random(rng), b = Fp::random(rng);
  EXPECT_EQ((a * b) * a.inverse(), b);
  Fr x = Fr::random(rng);
  EXPECT_EQ(x * x.inverse(), Fr::one());
}
#include "proofline/ff/fp2.hpp"
TEST(Fp2, SqrtSmoke) {
  std::mt19937_64 rng(2);
  int found = 0;
  for (int i = 0; i < 20; ++i) {
    Fp2 a = Fp2::random(rng);
    Fp2 s;
    Fp2 sq = a.square();
    ASSERT_TRUE(sq.sqrt(s));
    EXPECT_EQ(s.square(), sq);
    EXPECT_EQ(a * a.inverse(), Fp2::one());
    Fp2 r;
    if (a.sqrt(r)) { ++found; EXPECT_EQ(r.square(), a); EXPECT_EQ(a.legendre(), 1);} else EXPECT_EQ(a.legendre(), -1);
  }
  EXPECT_GT(found, 0);
  Fr x; Fr y = Fr::random(rng).square();
  ASSERT_TRUE(y.sqrt(x)); EXPECT_EQ(x.square(), y);
  EXPECT_EQ(Fr::root_of_unity().pow(uint64_t{1} << 32), Fr::one());
  EXPECT_NE(Fr::root_of_unity().pow(uint64_t{1} << 31), Fr::one());
}
