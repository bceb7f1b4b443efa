// Property tests: the group laws of G1 and G2 in every point form (affine, Jacobian, XYZZ, mixed
// additions) on the identity, the generator, its negation, random subgroup points and sums that hit
// the special cases of the incomplete formulas (P + P, P + (−P)); scalar multiplication against
// the laws of a Z/r-module: distributivity over both additions, compatibility with Fr
// multiplication, [0], [1], [−1] = [r − 1] (issue 9, item 3).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"

namespace {

using namespace proofline;
using ff::Fr;

template <class Cfg>
struct Curve {
  using Affine = ec::AffinePoint<Cfg>;
  using Jac = ec::JacobianPoint<Cfg>;
  using Xyzz = ec::XyzzPoint<Cfg>;
};

template <class Cfg>
std::vector<ec::JacobianPoint<Cfg>> point_pool(std::mt19937_64& rng) {
  using Jac = ec::JacobianPoint<Cfg>;
  const Jac g = Jac::generator();
  const Jac r = g.mul(Fr::random(rng));
  std::vector<Jac> v{Jac::identity(), g, -g, g.dbl(), r, -r, r + g};
  // A Jacobian point with Z != 1 for the same affine point as `r` (representation independence).
  v.push_back((r + r) - r);
  return v;
}

std::vector<Fr> scalar_pool(std::mt19937_64& rng) {
  std::vector<Fr> v{Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), Fr::from_u64(3)};
  for (int i = 0; i < 3; ++i) v.push_back(Fr::random(rng));
  return v;
}

template <class Cfg>
class GroupLaws : public ::testing::Test {};
using Curves = ::testing::Types<ec::G1Config, ec::G2Config>;
TYPED_TEST_SUITE(GroupLaws, Curves);

TYPED_TEST(GroupLaws, AbelianGroup) {
  using Jac = typename Curve<TypeParam>::Jac;
  std::mt19937_64 rng(21);
  const auto v = point_pool<TypeParam>(rng);
  const Jac o = Jac::identity();
  for (const Jac& p : v) {
    EXPECT_TRUE(p.is_on_curve());
    EXPECT_EQ(p + o, p);
    EXPECT_EQ(o + p, p);
    EXPECT_TRUE((p + (-p)).is_identity());
    EXPECT_TRUE((p - p).is_identity());
    EXPECT_EQ(p.dbl(), p + p);
    EXPECT_EQ(-(-p), p);
    for (const Jac& q : v) {
      EXPECT_EQ(p + q, q + p);
      EXPECT_EQ((p - q) + q, p);
      for (const Jac& r : v) EXPECT_EQ((p + q) + r, p + (q + r));
    }
  }
}

TYPED_TEST(GroupLaws, AffineXyzzAndMixedFormsAgree) {
  using Curve_ = Curve<TypeParam>;
  using Jac = typename Curve_::Jac;
  using Affine = typename Curve_::Affine;
  using Xyzz = typename Curve_::Xyzz;
  std::mt19937_64 rng(22);
  const auto v = point_pool<TypeParam>(rng);
  for (const Jac& p : v) {
    const Affine pa = p.to_affine();
    EXPECT_EQ(pa.is_identity(), p.is_identity());
    EXPECT_EQ(Jac::from_affine(pa), p);
    EXPECT_TRUE(pa.is_on_curve());
    EXPECT_TRUE(pa.is_in_subgroup());
    const Xyzz px = Xyzz::from_projective(p);
    EXPECT_EQ(px.to_projective(), p);
    EXPECT_EQ(Xyzz::dbl_affine(pa).to_projective(), p.dbl());
    for (const Jac& q : v) {
      const Affine qa = q.to_affine();
      const Jac sum = p + q;
      EXPECT_EQ(p + qa, sum);
      EXPECT_EQ(qa + p, sum);
      EXPECT_EQ(p - qa, p - q);
      EXPECT_EQ((px + Xyzz::from_projective(q)).to_projective(), sum);
      EXPECT_EQ((px + qa).to_projective(), sum);
      EXPECT_EQ((px - qa).to_projective(), p - q);
    }
  }
}

TYPED_TEST(GroupLaws, ScalarMultiplicationIsAModuleAction) {
  using Jac = typename Curve<TypeParam>::Jac;
  std::mt19937_64 rng(23);
  const auto v = point_pool<TypeParam>(rng);
  const auto ks = scalar_pool(rng);
  for (const Jac& p : v) {
    EXPECT_TRUE(p.mul(Fr::zero()).is_identity());
    EXPECT_EQ(p.mul(Fr::one()), p);
    EXPECT_EQ(p.mul(-Fr::one()), -p);  // [r − 1]P = −P
    EXPECT_EQ(p.mul(Fr::from_u64(2)), p.dbl());
    EXPECT_TRUE(Jac::identity().mul(Fr::random(rng)).is_identity());
    for (const Fr& a : ks) {
      const Jac ap = p.mul(a);
      EXPECT_TRUE(ap.is_on_curve());
      for (const Fr& b : ks) {
        EXPECT_EQ(p.mul(a + b), ap + p.mul(b)) << "(a+b)P";
        EXPECT_EQ(p.mul(a * b), ap.mul(b)) << "(ab)P";
      }
      for (const Jac& q : v) EXPECT_EQ((p + q).mul(a), ap + q.mul(a)) << "a(P+Q)";
    }
  }
}

TYPED_TEST(GroupLaws, GeneratorHasOrderR) {
  using Jac = typename Curve<TypeParam>::Jac;
  // [r]G through the limb interface (r itself is not an Fr value), and [r − 1]G + G.
  const auto r = Fr::kModulus;
  const Jac g = Jac::generator();
  EXPECT_TRUE(g.mul_limbs(std::span<const std::uint64_t>(r.data(), r.size())).is_identity());
  EXPECT_TRUE((g.mul(-Fr::one()) + g).is_identity());
}

}  // namespace
