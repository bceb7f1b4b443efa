// G1: instantiation of the curve templates, φ, the subgroup check and GLV scalar multiplication.
#include "proofline/ec/g1.hpp"

#include <cstdlib>
#include <vector>

#include "curve_impl.hpp"

namespace proofline::ec {

template struct AffinePoint<G1Config>;
template struct JacobianPoint<G1Config>;
template struct XyzzPoint<G1Config>;

namespace {

/// [|x|]P.
G1Projective mul_by_abs_x(const G1Projective& p) { return detail::mul_u64_binary(p, kBlsXAbs); }

G1Projective endo_with(const Fp& beta, const G1Projective& p) { return {p.x * beta, p.y, p.z}; }

Fp compute_beta() {
  // (p − 1)/3: p ≡ 1 (mod 3), so Fp* has cube roots of unity g^((p−1)/3) for any non-cube g.
  u64 rem = 0;
  constexpr auto kPm1 = ff::detail::sub_small<6>(Fp::kModulus, 1);
  const auto e = detail::div_small<6>(kPm1, 3, rem);
  Fp w = Fp::one();
  for (u64 g = 2; w.is_one(); ++g) w = Fp::from_u64(g).pow(e);
  // w and w^2 are the two primitive cube roots; pick the one with φ = [−x^2] on G1.
  const G1Projective gen = G1Projective::generator();
  const G1Projective target = -mul_by_abs_x(mul_by_abs_x(gen));  // [−x^2]G
  for (const Fp& b : {w, w.square()}) {
    if (endo_with(b, gen) == target) return b;
  }
  std::abort();  // unreachable for BLS12-381: one of the roots is the eigenvalue −x^2
}

}  // namespace

const Fp& g1_beta() {
  static const Fp beta = compute_beta();
  return beta;
}

G1Affine g1_endomorphism(const G1Affine& p) {
  return p.infinity ? p : G1Affine{p.x * g1_beta(), p.y, false};
}
G1Projective g1_endomorphism(const G1Projective& p) { return endo_with(g1_beta(), p); }

G1Projective g1_mul_by_x(const G1Projective& p) { return -mul_by_abs_x(p); }

bool G1Config::is_in_subgroup(const G1Projective& p) {
  if (p.is_identity()) return true;
  const G1Projective x2p = mul_by_abs_x(mul_by_abs_x(p));  // [x^2]P
  return g1_endomorphism(p) == -x2p;
}

G1Projective G1Config::mul_scalar(const G1Projective& p, const Fr& k) {
  constexpr unsigned kW = 5;
  constexpr std::size_t kTable = std::size_t{1} << (kW - 2);
  if (p.is_identity()) return p;
  // k = q2·x^2 + r2·|x| + r1 by two divisions by |x|.
  const auto c = k.to_canonical();
  u64 r1 = 0, r2 = 0;
  const auto q1 = detail::div_small<4>(c, kBlsXAbs, r1);
  const auto q2 = detail::div_small<4>(q1, kBlsXAbs, r2);
  const ff::u128 k1 = static_cast<ff::u128>(r2) * kBlsXAbs + r1;  // k mod x^2 < x^2 < 2^128
  const std::array<u64, 2> k1l = {static_cast<u64>(k1), static_cast<u64>(k1 >> 64)};
  const std::array<u64, 2> k2l = {q2[0], q2[1]};  // k div x^2 < x^2 (q2[2] = q2[3] = 0)

  int8_t d1[130], d2[130];
  const std::size_t n1 = detail::wnaf_recode_small(k1l, kW, d1);
  const std::size_t n2 = detail::wnaf_recode_small(k2l, kW, d2);

  std::array<G1Projective, kTable> t1, t2;
  detail::odd_multiples<G1Config>(p, t1);
  const Fp& beta = g1_beta();
  for (std::size_t j = 0; j < kTable; ++j) t2[j] = {t1[j].x * beta, -t1[j].y, t1[j].z};  // −φ
  return detail::straus_wnaf<G1Config, 2>({t1.data(), t2.data()}, {d1, d2}, {n1, n2});
}

void batch_to_affine(std::span<const G1Projective> in, std::span<G1Affine> out, std::span<Fp> scratch) {
  detail::batch_to_affine<G1Config>(in, out, scratch);
}
void batch_to_affine(std::span<const G1Projective> in, std::span<G1Affine> out) {
  std::vector<Fp> scratch(in.size());
  detail::batch_to_affine<G1Config>(in, out, scratch);
}
void batch_to_affine(std::span<const G1Xyzz> in, std::span<G1Affine> out, std::span<Fp> scratch) {
  detail::batch_to_affine<G1Config>(in, out, scratch);
}
void batch_to_affine(std::span<const G1Xyzz> in, std::span<G1Affine> out) {
  std::vector<Fp> scratch(in.size());
  detail::batch_to_affine<G1Config>(in, out, scratch);
}

}  // namespace proofline::ec
