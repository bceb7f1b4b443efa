// Optimal ate pairing for BLS12-381: Miller loop with G2 in homogeneous projective coordinates,
// final exponentiation with the Hayashida–Hayasaka–Teruya hard part. Formulas, sources and
// conventions: include/proofline/pairing/pairing.hpp.
#include "proofline/pairing/pairing.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "proofline/util/error.hpp"

namespace proofline::pairing {

using ff::Fp;
using ff::Fp2;
using ff::Fp6;
using ff::u64;

namespace {

/// a/2 in Fp: the Montgomery form halves with the value, so halve the limbs mod p
/// (add p when odd; p < 2^381 so the sum fits in 384 bits), then shift right by one.
inline Fp half(const Fp& a) {
  const auto& m = Fp::kModulus;
  const u64 mask = ~(a.limbs[0] & 1) + 1;  // all ones when odd
  ff::detail::Limbs<6> t;
  u64 c = 0;
  for (int i = 0; i < 6; ++i) t[i] = ff::detail::adc(a.limbs[i], m[i] & mask, c);
  for (int i = 0; i < 5; ++i) t[i] = (t[i] >> 1) | (t[i + 1] << 63);
  t[5] >>= 1;
  return Fp::from_montgomery(t);
}
inline Fp2 half(const Fp2& a) { return {half(a.c0), half(a.c1)}; }

/// 3·b' = 12ξ applied to an Fp2 value (b' = 4ξ is the twist's constant).
inline Fp2 mul_by_3b(const Fp2& a) {
  const Fp2 t = a.mul_by_nonresidue();
  const Fp2 t3 = t.dbl() + t;
  return t3.dbl().dbl();
}

/// Per-pair state of the Miller loop: T in projective coordinates on E', the affine Q, and the
/// coordinates of P that the lines need (−x_P, y_P).
struct PairState {
  Fp2 X, Y, Z;
  Fp2 xq, yq;
  Fp neg_xp, yp;
};

struct Line {
  Fp2 d0, d1, d4;
};

/// T ← 2T and the tangent line at T evaluated at P (scaled, sparse slots 0, 1, 4).
inline Line doubling_step(PairState& s) {
  const Fp2 a = half(s.X * s.Y);               // XY/2
  const Fp2 b = s.Y.square();                  // Y^2
  const Fp2 c = s.Z.square();                  // Z^2
  const Fp2 e = mul_by_3b(c);                  // 3b'Z^2
  const Fp2 f = e.dbl() + e;                   // 9b'Z^2
  const Fp2 g = half(b + f);                   // (Y^2 + 9b'Z^2)/2
  const Fp2 h = (s.Y + s.Z).square() - b - c;  // 2YZ
  const Fp2 x2 = s.X.square();                 // X^2
  Line l;
  l.d0 = b - e;                                        // Y^2 − 3b'Z^2
  l.d1 = (x2.dbl() + x2).mul_fp(s.neg_xp);             // −3X^2 x_P
  l.d4 = h.mul_fp(s.yp);                               // 2YZ y_P
  s.X = a * (b - f);                                   // X3 = XY/2 (Y^2 − 9b'Z^2)
  s.Y = g.square() - (e.square().dbl() + e.square());  // Y3 = G^2 − 27b'^2 Z^4
  s.Z = b * h;                                         // Z3 = 2Y^3 Z
  return l;
}

/// T ← T + Q (Q affine) and the line through T and Q evaluated at P (scaled, slots 0, 1, 4).
inline Line addition_step(PairState& s) {
  const Fp2 theta = s.Y - s.yq * s.Z;   // Z (y_T − y_Q)
  const Fp2 lambda = s.X - s.xq * s.Z;  // Z (x_T − x_Q)
  const Fp2 c = theta.square();
  const Fp2 d = lambda.square();
  const Fp2 e = lambda * d;
  const Fp2 f = s.Z * c;
  const Fp2 g = s.X * d;
  const Fp2 h = e + f - g.dbl();
  Line l;
  l.d0 = theta * s.xq - lambda * s.yq;
  l.d1 = theta.mul_fp(s.neg_xp);
  l.d4 = lambda.mul_fp(s.yp);
  s.X = lambda * h;
  s.Y = theta * (g - h) - s.Y * e;
  s.Z = s.Z * e;
  return l;
}

/// f · line, where f == 1 is tracked by `f_is_one` so the first product is a copy.
inline void mul_line(Fp12& f, bool& f_is_one, const Line& l) {
  if (f_is_one) {
    f = Fp12{Fp6{l.d0, l.d1, Fp2::zero()}, Fp6{Fp2::zero(), l.d4, Fp2::zero()}};
    f_is_one = false;
  } else {
    f = f.mul_by_014(l.d0, l.d1, l.d4);
  }
}

/// The Miller loop over |x| for n pairs (no conjugation); f = 1 for n = 0.
Fp12 miller_loop_states(PairState* st, std::size_t n) {
  Fp12 f = Fp12::one();
  if (n == 0) return f;
  bool f_is_one = true;
  for (int i = 62; i >= 0; --i) {
    if (!f_is_one) f = f.square();
    for (std::size_t j = 0; j < n; ++j) mul_line(f, f_is_one, doubling_step(st[j]));
    if ((ff::kBlsX >> i) & 1) {
      for (std::size_t j = 0; j < n; ++j) mul_line(f, f_is_one, addition_step(st[j]));
    }
  }
  return f;
}

inline bool skip_pair(const G1Affine& p, const G2Affine& q) { return p.infinity || q.infinity; }

inline PairState make_state(const G1Affine& p, const G2Affine& q) {
  return PairState{q.x, q.y, Fp2::one(), q.x, q.y, -p.x, p.y};
}

/// Pairs are processed in chunks of this many (state on the stack; no allocation).
constexpr std::size_t kChunk = 8;

template <class Get>
Fp12 multi_miller_loop_impl(std::size_t n, Get get) {
  Fp12 acc = Fp12::one();
  bool acc_is_one = true;
  std::array<PairState, kChunk> st;
  std::size_t i = 0;
  while (i < n) {
    std::size_t k = 0;
    for (; i < n && k < kChunk; ++i) {
      const auto& [p, q] = get(i);
      if (!skip_pair(p, q)) st[k++] = make_state(p, q);
    }
    if (k == 0) continue;
    Fp12 f = miller_loop_states(st.data(), k);
    acc = acc_is_one ? f : acc * f;
    acc_is_one = false;
  }
  // x < 0: f_{x,Q} = 1/f_{|x|,Q} up to factors killed by the final exponentiation; conj = inverse there.
  return ff::kBlsXIsNegative ? acc.conjugate() : acc;
}

/// m^((|x| + 1)/3) = m^0x460055555555aaab for cyclotomic m, by an addition chain that uses
/// 0xaaab = 2·0x5555 + 1: 75 cyclotomic squarings and 9 multiplications.
Fp12 cyclotomic_pow_abs_x_plus_1_div_3(const Fp12& a) {
  static_assert(ff::kBlsX % 3 == 2 && (ff::kBlsX + 1) / 3 == 0x460055555555aaabULL);
  auto sqr_n = [](Fp12 v, int n) {
    for (int i = 0; i < n; ++i) v = v.cyclotomic_square();
    return v;
  };
  const Fp12 a4 = a.cyclotomic_square().cyclotomic_square();
  const Fp12 a5 = a4 * a;
  const Fp12 a55 = sqr_n(a5, 4) * a5;                    // a^0x55
  const Fp12 a5555 = sqr_n(a55, 8) * a55;                // a^0x5555
  Fp12 acc = sqr_n(a4, 4) * (a5 * a);                    // a^(64 + 6) = a^0x46
  acc = sqr_n(acc, 8);                                   // a^0x4600
  acc = sqr_n(acc, 16) * a5555;                          // a^0x46005555
  acc = sqr_n(acc, 16) * a5555;                          // a^0x460055555555
  acc = sqr_n(acc, 16) * a5555.cyclotomic_square() * a;  // + 0xaaab
  return acc;
}

/// m^Λ, Λ = (p^4 − p^2 + 1)/r = ((x − 1)/3)(x − 1)(x + p)(x^2 + p^2 − 1) + 1, for cyclotomic m.
Fp12 hard_part(const Fp12& m) {
  static_assert(ff::kBlsXIsNegative, "the chain below is written for x < 0");
  // x − 1 = −(|x| + 1), so m^((x−1)/3) = conj(m^((|x|+1)/3)).
  const Fp12 t0 = cyclotomic_pow_abs_x_plus_1_div_3(m).conjugate();                 // m^((x−1)/3)
  const Fp12 t1 = t0.cyclotomic_pow_x() * t0.conjugate();                           // t0^(x − 1)
  const Fp12 t2 = t1.cyclotomic_pow_x() * t1.frobenius_map(1);                      // t1^(x + p)
  const Fp12 t3 = t2.cyclotomic_pow_x().cyclotomic_pow_x() * t2.frobenius_map(2) *  // t2^(x^2 + p^2 − 1)
                  t2.conjugate();
  return t3 * m;
}

}  // namespace

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
  if (skip_pair(p, q)) return Fp12::one();
  PairState st = make_state(p, q);
  const Fp12 f = miller_loop_states(&st, 1);
  return ff::kBlsXIsNegative ? f.conjugate() : f;
}

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  return multi_miller_loop_impl(
      pairs.size(), [&](std::size_t i) -> const auto& { return pairs[i]; });
}

Fp12 multi_miller_loop(std::span<const G1Affine> ps, std::span<const G2Affine> qs) {
  if (ps.size() != qs.size()) {
    throw ProoflineError(Error::BadLength, "multi_miller_loop: got " + std::to_string(ps.size()) +
                                               " G1 points and " + std::to_string(qs.size()) +
                                               " G2 points, expected equal counts");
  }
  return multi_miller_loop_impl(
      ps.size(), [&](std::size_t i) { return std::pair<const G1Affine&, const G2Affine&>(ps[i], qs[i]); });
}

Fp12 final_exponentiation(const Fp12& f) {
  // Easy part: f^(p^6 − 1) = conj(f)/f, then ·^(p^2 + 1). The result is cyclotomic.
  Fp12 t = f.conjugate() * f.inverse();
  t = t.frobenius_map(2) * t;
  return hard_part(t);
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) {
  if (skip_pair(p, q)) return Fp12::one();
  return final_exponentiation(miller_loop(p, q));
}

bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

bool pairing_product_is_one(std::span<const G1Affine> ps, std::span<const G2Affine> qs) {
  return final_exponentiation(multi_miller_loop(ps, qs)).is_one();
}

}  // namespace proofline::pairing
