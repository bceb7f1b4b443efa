// The 8-lane AVX-512 IFMA Fp kernels (ff/fp_ifma.hpp) against the scalar Fp, bit for bit.
//
// The scalar Fp is itself checked against GMP in fp_test.cpp, so agreement here on edge values
// (0, 1, R mod p, p − 1, p − 2, (p ± 1)/2, all-ones limbs below p, values sharing p's top limbs,
// small integers) in every lane combination and on thousands of random inputs pins the vector path
// to the same numbers. Lazy values (< 2p) are exercised by long multiply chains whose inputs stay
// unreduced between steps. On a CPU without IFMA the array API must refuse to run (it throws).
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "proofline/ff/fp.hpp"
#include "proofline/ff/fp_ifma.hpp"

using proofline::ProoflineError;
using proofline::ff::Fp;
using proofline::ff::u64;

namespace {

using Limbs = std::array<u64, 6>;

Limbs sub_small(Limbs a, u64 k) {
  u64 br = 0;
  a[0] = proofline::ff::detail::sbb(a[0], k, br);
  for (int i = 1; i < 6; ++i) a[i] = proofline::ff::detail::sbb(a[i], 0, br);
  return a;
}
Limbs shr1(Limbs a) {
  for (int i = 0; i < 6; ++i) a[i] = (a[i] >> 1) | (i < 5 ? a[i + 1] << 63 : 0);
  return a;
}

/// Montgomery-limb edge values (all < p).
std::vector<Fp> edge_values() {
  const Limbs p = Fp::kModulus;
  std::vector<Limbs> raw = {
      Limbs{}, Limbs{1}, Limbs{2}, Fp::kR, Fp::kR2, sub_small(p, 1), sub_small(p, 2), shr1(p),
      sub_small(shr1(p), 1), Limbs{~u64{0}, ~u64{0}, ~u64{0}, ~u64{0}, ~u64{0}, p[5] - 1},
      Limbs{0, 0, 0, 0, 0, p[5]}, Limbs{~u64{0}, 0, ~u64{0}, 0, ~u64{0}, 0},
      Limbs{0, 0, 0, 0, p[4], p[5]}, Limbs{u64{1} << 52, 0, 0, 0, 0, 0}, Limbs{(u64{1} << 52) - 1, 0, 0, 0, 0, 0}};
  std::vector<Fp> v;
  for (const Limbs& l : raw) v.push_back(Fp::from_montgomery(l));
  return v;
}

struct IfmaOn {
  IfmaOn() { prev = proofline::ff::set_ifma_enabled(true); }
  ~IfmaOn() { proofline::ff::set_ifma_enabled(prev); }
  bool prev;
};

/// Runs check(a, b) over 8-lane batches drawn from all edge pairs plus random values.
template <class Check>
void for_batches(Check&& check) {
  const std::vector<Fp> e = edge_values();
  std::vector<Fp> a, b;
  for (const Fp& x : e)
    for (const Fp& y : e) a.push_back(x), b.push_back(y);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 4000; ++i) a.push_back(Fp::random(rng)), b.push_back(Fp::random(rng));
  while (a.size() % 8) a.push_back(Fp::random(rng)), b.push_back(e[a.size() % e.size()]);
  for (std::size_t g = 0; g < a.size(); g += 8) check(&a[g], &b[g]);
}

}  // namespace

TEST(FpIfma, ArithmeticMatchesScalarFp) {
  if (!proofline::ff::ifma_supported()) {
    Fp r[8], a[8], b[8];
    EXPECT_THROW(proofline::ff::fp_mul_x8(r, a, b), ProoflineError);
    GTEST_SKIP() << "this CPU has no AVX-512 IFMA: only the refusal was checked";
  }
  IfmaOn on;
  std::size_t batches = 0;
  for_batches([&](const Fp* a, const Fp* b) {
    Fp mul[8], sqr[8], add[8], sub[8];
    proofline::ff::fp_mul_x8(mul, a, b);
    proofline::ff::fp_sqr_x8(sqr, a);
    proofline::ff::fp_add_x8(add, a, b);
    proofline::ff::fp_sub_x8(sub, a, b);
    for (int i = 0; i < 8; ++i) {
      ASSERT_EQ(mul[i].limbs, (a[i] * b[i]).limbs) << "mul lane " << i << " batch " << batches;
      ASSERT_EQ(sqr[i].limbs, a[i].square().limbs) << "sqr lane " << i << " batch " << batches;
      ASSERT_EQ(add[i].limbs, (a[i] + b[i]).limbs) << "add lane " << i << " batch " << batches;
      ASSERT_EQ(sub[i].limbs, (a[i] - b[i]).limbs) << "sub lane " << i << " batch " << batches;
    }
    ++batches;
  });
  EXPECT_GT(batches, 500u);
}

TEST(FpIfma, LazyMultiplyChainsMatchScalarFp) {
  if (!proofline::ff::ifma_supported()) GTEST_SKIP() << "this CPU has no AVX-512 IFMA";
  IfmaOn on;
  std::mt19937_64 rng(12);
  const std::vector<Fp> e = edge_values();
  std::vector<Fp> x(64), y(64);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = i < e.size() ? e[i] : Fp::random(rng);
    y[i] = i < e.size() ? e[e.size() - 1 - i] : Fp::random(rng);
  }
  y[3] = Fp::from_montgomery(sub_small(Fp::kModulus, 1));  // chains near p
  std::vector<Fp> want = x;
  constexpr std::size_t kReps = 300;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t k = 0; k < kReps; ++k) want[i] = want[i] * y[i];
  proofline::ff::fp_mul_chain_x8(x.data(), y.data(), x.size() / 8, kReps);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i].limbs, want[i].limbs) << "chain " << i;
}

TEST(FpIfma, SwitchFollowsSupport) {
  const bool prev = proofline::ff::set_ifma_enabled(false);
  EXPECT_FALSE(proofline::ff::ifma_enabled());
  proofline::ff::set_ifma_enabled(true);
  EXPECT_EQ(proofline::ff::ifma_enabled(), proofline::ff::ifma_supported());
  proofline::ff::set_ifma_enabled(prev);
}
