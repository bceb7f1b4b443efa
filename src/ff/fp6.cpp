// Fp6 = Fp2[v]/(v^3 − ξ): multiplication, squaring, inversion, sparse products, Frobenius, and the
// tower's Frobenius coefficient table. Formulas and sources: include/proofline/ff/fp6.hpp.
#include "proofline/ff/fp6.hpp"

namespace proofline::ff {

namespace detail {
namespace {

/// (a − 1) / 6 for the 6-limb p (p ≡ 1 mod 6), by long division.
constexpr Limbs<6> p_minus_1_over_6() {
  Limbs<6> a = sub_small<6>(FpParams::kModulus, 1);
  Limbs<6> q{};
  u64 rem = 0;
  for (std::size_t i = 6; i-- > 0;) {
    u128 cur = (static_cast<u128>(rem) << 64) | a[i];
    q[i] = static_cast<u64>(cur / 6);
    rem = static_cast<u64>(cur % 6);
  }
  return rem == 0 ? q : Limbs<6>{};  // rem != 0 would mean p ≢ 1 mod 6 (it is 1)
}

TowerFrobenius compute_tower_frobenius() {
  constexpr Limbs<6> e = p_minus_1_over_6();
  static_assert(!is_zero<6>(e), "p must be 1 mod 6");
  const Fp2 xi = Fp2::one().mul_by_nonresidue();  // ξ = 1 + u
  TowerFrobenius t;
  t.w[0] = Fp2::one();
  t.w[1] = xi.pow(e);
  for (int k = 2; k < 12; ++k) t.w[k] = t.w[k - 1].conjugate() * t.w[1];
  for (int k = 0; k < 12; ++k) {
    t.v1[k] = t.w[k].square();
    t.v2[k] = t.v1[k].square();
  }
  return t;
}

}  // namespace

const TowerFrobenius& tower_frobenius() {
  static const TowerFrobenius table = compute_tower_frobenius();
  return table;
}

}  // namespace detail

Fp6 operator*(const Fp6& a, const Fp6& b) {
  const Fp2 t0 = a.c0 * b.c0;
  const Fp2 t1 = a.c1 * b.c1;
  const Fp2 t2 = a.c2 * b.c2;
  // c0 = t0 + ξ(a1 b2 + a2 b1),  a1 b2 + a2 b1 = (a1 + a2)(b1 + b2) − t1 − t2
  const Fp2 m12 = (a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2;
  // c1 = a0 b1 + a1 b0 + ξ t2
  const Fp2 m01 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1;
  // c2 = a0 b2 + a2 b0 + t1
  const Fp2 m02 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2;
  return {t0 + m12.mul_by_nonresidue(), m01 + t2.mul_by_nonresidue(), m02 + t1};
}

Fp6 Fp6::square() const {
  // CH-SQR2: s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 − a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2;
  // c0 = s0 + ξ s3, c1 = s1 + ξ s4, c2 = s1 + s2 + s3 − s0 − s4.
  const Fp2 s0 = c0.square();
  const Fp2 s1 = (c0 * c1).dbl();
  const Fp2 s2 = (c0 - c1 + c2).square();
  const Fp2 s3 = (c1 * c2).dbl();
  const Fp2 s4 = c2.square();
  return {s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4};
}

Fp6 Fp6::inverse() const {
  // Adjugate: t0 = a0^2 − ξ a1 a2, t1 = ξ a2^2 − a0 a1, t2 = a1^2 − a0 a2,
  // norm n = a0 t0 + ξ (a2 t1 + a1 t2) in Fp2; inverse = (t0, t1, t2) / n.
  const Fp2 t0 = c0.square() - (c1 * c2).mul_by_nonresidue();
  const Fp2 t1 = c2.square().mul_by_nonresidue() - c0 * c1;
  const Fp2 t2 = c1.square() - c0 * c2;
  const Fp2 n = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue();
  const Fp2 ni = n.inverse();
  return {t0 * ni, t1 * ni, t2 * ni};
}

Fp6 Fp6::mul_by_01(const Fp2& b0, const Fp2& b1) const {
  // (a0 + a1 v + a2 v^2)(b0 + b1 v) = (a0 b0 + ξ a2 b1) + (a0 b1 + a1 b0) v + (a1 b1 + a2 b0) v^2
  const Fp2 t0 = c0 * b0;
  const Fp2 t1 = c1 * b1;
  const Fp2 a2b1 = (c1 + c2) * b1 - t1;
  const Fp2 m01 = (c0 + c1) * (b0 + b1) - t0 - t1;
  const Fp2 a2b0 = (c0 + c2) * b0 - t0;
  return {t0 + a2b1.mul_by_nonresidue(), m01, t1 + a2b0};
}

Fp6 Fp6::mul_by_1(const Fp2& b1) const {
  // (a0 + a1 v + a2 v^2) b1 v = ξ a2 b1 + a0 b1 v + a1 b1 v^2
  return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1};
}

Fp6 Fp6::frobenius_map(unsigned power) const {
  const unsigned k = power % 6;
  if (k == 0) return *this;
  const auto& t = detail::tower_frobenius();
  return {c0.frobenius_map(k), c1.frobenius_map(k) * t.v1[k], c2.frobenius_map(k) * t.v2[k]};
}

}  // namespace proofline::ff
