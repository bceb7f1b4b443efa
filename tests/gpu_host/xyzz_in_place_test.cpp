// tests/gpu_host/xyzz_in_place_test.cpp — the in-place schedule of the XYZZ formulas
// (src/gpu/xyzz_in_place.cuh: what the lean G2 MSM kernels run through ec.cuh's DevXyzz) on the host,
// over the host fields: every coordinate equals ec::XyzzPoint's formulas (the same formulas as ec.cuh
// written as expressions), bit for bit, for G1 (Fp) and G2 (Fp2); P = Q and P = −Q are reported
// with the point left as it was; doubling the identity gives XyzzPoint::dbl's coordinates. The
// products are written to operands they alias (r = a·r, r = r^2, …) exactly as on the device, so a
// wrong reuse of a scratch value or a coordinate read after it is overwritten fails here.
#include <gtest/gtest.h>

#include <random>

#include "gpu/xyzz_in_place.cuh"
#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fr.hpp"

namespace {

namespace g = proofline::gpu;
namespace ec = proofline::ec;
namespace ff = proofline::ff;

/// xyzz_in_place.cuh's Ops over a host field: the product and square written to r after both are
/// computed (r may alias an operand, as for the device's mul_ref / square_ref).
struct HostOps {
  template <class F>
  static void mul(F& r, const F& a, const F& b) {
    r = a * b;
  }
  template <class F>
  static void sqr(F& r, const F& a) {
    r = a.square();
  }
};

template <class Cfg>
bool same_coords(const ec::XyzzPoint<Cfg>& a, const ec::XyzzPoint<Cfg>& b) {
  return a.x == b.x && a.y == b.y && a.zz == b.zz && a.zzz == b.zzz;
}

template <class Cfg>
ec::XyzzPoint<Cfg> madd(ec::XyzzPoint<Cfg> p, const ec::AffinePoint<Cfg>& q, g::XyzzCase& c) {
  c = g::madd_in_place<HostOps>(p.x, p.y, p.zz, p.zzz, q.x, q.y);
  return p;
}
template <class Cfg>
ec::XyzzPoint<Cfg> add(ec::XyzzPoint<Cfg> p, const ec::XyzzPoint<Cfg>& q, g::XyzzCase& c) {
  c = g::add_in_place<HostOps>(p.x, p.y, p.zz, p.zzz, q.x, q.y, q.zz, q.zzz);
  return p;
}
template <class Cfg>
ec::XyzzPoint<Cfg> dbl(ec::XyzzPoint<Cfg> p) {
  g::dbl_in_place<HostOps>(p.x, p.y, p.zz, p.zzz);
  return p;
}

template <class Cfg>
void check_curve(uint64_t seed, int rounds) {
  using J = ec::JacobianPoint<Cfg>;
  using X = ec::XyzzPoint<Cfg>;
  std::mt19937_64 rng(seed);
  // random multiples of the generator: Jacobian Z ≠ 1, so XYZZ with ZZ, ZZZ ≠ 1
  auto rnd = [&] { return J::generator().mul(ff::Fr::random(rng)); };
  for (int i = 0; i < rounds; ++i) {
    const J jp = rnd(), jq = rnd();
    const X p = X::from_projective(jp), q = X::from_projective(jq);
    const auto qa = jq.to_affine();
    g::XyzzCase c;
    const X m = madd(p, qa, c);
    EXPECT_EQ(c, g::XyzzCase::kDone) << Cfg::kName << " madd, round " << i;
    EXPECT_TRUE(same_coords(m, p + qa)) << Cfg::kName << " madd, round " << i;
    const X s = add(p, q, c);
    EXPECT_EQ(c, g::XyzzCase::kDone) << Cfg::kName << " add, round " << i;
    EXPECT_TRUE(same_coords(s, p + q)) << Cfg::kName << " add, round " << i;
    EXPECT_TRUE(same_coords(dbl(p), p.dbl())) << Cfg::kName << " dbl, round " << i;
    // an affine XYZZ (ZZ = ZZZ = 1) as the accumulator, and the sum as the next round's input
    const X pa = X::from_affine(jp.to_affine());
    EXPECT_TRUE(same_coords(madd(pa, qa, c), pa + qa)) << Cfg::kName << " madd from affine, round " << i;
    const X r = X::from_projective(rnd() + jp);  // another sum, not the point s = m
    EXPECT_TRUE(same_coords(add(s, r, c), s + r)) << Cfg::kName << " add of sums, round " << i;
    EXPECT_EQ(c, g::XyzzCase::kDone) << Cfg::kName << " add of sums, round " << i;
    EXPECT_TRUE(same_coords(dbl(s), s.dbl())) << Cfg::kName << " dbl of a sum, round " << i;
  }
  // P = Q and P = −Q, the accumulator in another representation of the point than the operand
  const J jp = rnd();
  const X p = X::from_projective(jp);
  const auto pa = jp.to_affine();
  g::XyzzCase c;
  EXPECT_TRUE(same_coords(madd(p, pa, c), p)) << Cfg::kName;
  EXPECT_EQ(c, g::XyzzCase::kDouble) << Cfg::kName << " madd P + P";
  EXPECT_TRUE(same_coords(madd(p, -pa, c), p)) << Cfg::kName;
  EXPECT_EQ(c, g::XyzzCase::kIdentity) << Cfg::kName << " madd P − P";
  const X p2 = X::from_affine(pa);
  EXPECT_TRUE(same_coords(add(p, p2, c), p)) << Cfg::kName;
  EXPECT_EQ(c, g::XyzzCase::kDouble) << Cfg::kName << " add P + P";
  EXPECT_TRUE(same_coords(add(p, -p2, c), p)) << Cfg::kName;
  EXPECT_EQ(c, g::XyzzCase::kIdentity) << Cfg::kName << " add P − P";
  // ec.cuh's settle_affine doubles Q as XYZZ with ZZ = ZZZ = 1 instead of mdbl: the same coordinates
  EXPECT_TRUE(same_coords(dbl(X::from_affine(pa)), X::dbl_affine(pa))) << Cfg::kName << " 2Q from affine";
  // the identity doubles to XyzzPoint::dbl's coordinates (ZZ = 0: still the identity)
  const X o = dbl(X::identity());
  EXPECT_TRUE(same_coords(o, X::identity().dbl())) << Cfg::kName;
  EXPECT_TRUE(o.is_identity()) << Cfg::kName;
}

TEST(XyzzInPlace, G1SameCoordinatesAsTheHostFormulas) { check_curve<ec::G1Config>(31, 40); }

TEST(XyzzInPlace, G2SameCoordinatesAsTheHostFormulas) { check_curve<ec::G2Config>(32, 25); }

}  // namespace
