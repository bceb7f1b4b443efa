// Fp12 = Fp6[w]/(w^2 − v): multiplication, squaring, inversion, Frobenius, the sparse line product
// and Granger–Scott cyclotomic squaring. Formulas and sources: include/proofline/ff/fp12.hpp.
#include "proofline/ff/fp12.hpp"

namespace proofline::ff {

Fp12 operator*(const Fp12& a, const Fp12& b) {
  const Fp6 t0 = a.c0 * b.c0;
  const Fp6 t1 = a.c1 * b.c1;
  const Fp6 m = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1;
  return {t0 + t1.mul_by_nonresidue(), m};
}

Fp12 Fp12::square() const {
  // (c0 + c1 w)^2 = (c0^2 + v c1^2) + 2 c0 c1 w;  c0^2 + v c1^2 = (c0 + c1)(c0 + v c1) − t − v t, t = c0 c1.
  const Fp6 t = c0 * c1;
  const Fp6 s = (c0 + c1) * (c0 + c1.mul_by_nonresidue());
  return {s - t - t.mul_by_nonresidue(), t.dbl()};
}

Fp12 Fp12::inverse() const {
  const Fp6 d = c0.square() - c1.square().mul_by_nonresidue();
  const Fp6 di = d.inverse();
  return {c0 * di, -(c1 * di)};
}

Fp12 Fp12::frobenius_map(unsigned power) const {
  const unsigned k = power % 12;
  if (k == 0) return *this;
  const auto& t = detail::tower_frobenius();
  return {c0.frobenius_map(k), c1.frobenius_map(k).mul_by_fp2(t.w[k])};
}

Fp12 Fp12::mul_by_014(const Fp2& d0, const Fp2& d1, const Fp2& d4) const {
  // Line l = l0 + l1 w with l0 = d0 + d1 v, l1 = d4 v. Karatsuba over Fp6 with sparse factors.
  const Fp6 t0 = c0.mul_by_01(d0, d1);
  const Fp6 t1 = c1.mul_by_1(d4);
  const Fp6 m = (c0 + c1).mul_by_01(d0, d1 + d4) - t0 - t1;
  return {t0 + t1.mul_by_nonresidue(), m};
}

namespace {
/// (a + b s)^2 over Fp4 = Fp2[s]/(s^2 − ξ): returns (a^2 + ξ b^2, 2ab), 3 Fp2 squarings.
inline void fp4_square(Fp2& r0, Fp2& r1, const Fp2& a, const Fp2& b) {
  const Fp2 a2 = a.square();
  const Fp2 b2 = b.square();
  r0 = a2 + b2.mul_by_nonresidue();
  r1 = (a + b).square() - a2 - b2;
}
}  // namespace

Fp12 Fp12::cyclotomic_square() const {
  // Fp4 view: A = (g0, h1), B = (h0, g2), C = (g1, h2) with c0 = (g0, g1, g2), c1 = (h0, h1, h2).
  const Fp2& g0 = c0.c0;
  const Fp2& g1 = c0.c1;
  const Fp2& g2 = c0.c2;
  const Fp2& h0 = c1.c0;
  const Fp2& h1 = c1.c1;
  const Fp2& h2 = c1.c2;
  Fp2 a0, a1, b0, b1, e0, e1;
  fp4_square(a0, a1, g0, h1);  // A^2
  fp4_square(b0, b1, h0, g2);  // B^2
  fp4_square(e0, e1, g1, h2);  // C^2
  // A' = 3A^2 − 2 conj(A):       g0' = 3 a0 − 2 g0,   h1' = 3 a1 + 2 h1
  // B' = 3 s C^2 + 2 conj(B):    s C^2 = (ξ e1, e0);  h0' = 3 ξ e1 + 2 h0,  g2' = 3 e0 − 2 g2
  // C' = 3B^2 − 2 conj(C):       g1' = 3 b0 − 2 g1,   h2' = 3 b1 + 2 h2
  const Fp2 xe1 = e1.mul_by_nonresidue();
  Fp12 r;
  r.c0.c0 = (a0 - g0).dbl() + a0;
  r.c1.c1 = (a1 + h1).dbl() + a1;
  r.c1.c0 = (xe1 + h0).dbl() + xe1;
  r.c0.c2 = (e0 - g2).dbl() + e0;
  r.c0.c1 = (b0 - g1).dbl() + b0;
  r.c1.c2 = (b1 + h2).dbl() + b1;
  return r;
}

Fp12 Fp12::cyclotomic_pow_abs_x() const {
  Fp12 r = *this;  // bit 63
  for (int i = 62; i >= 0; --i) {
    r = r.cyclotomic_square();
    if ((kBlsX >> i) & 1) r *= *this;
  }
  return r;
}

}  // namespace proofline::ff
