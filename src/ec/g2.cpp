// G2: instantiation of the curve templates, ψ, the subgroup check and GLS scalar multiplication.
#include "proofline/ec/g2.hpp"

#include <vector>

#include "curve_impl.hpp"

namespace proofline::ec {

template struct AffinePoint<G2Config>;
template struct JacobianPoint<G2Config>;
template struct XyzzPoint<G2Config>;

namespace {

G2Projective mul_by_abs_x(const G2Projective& p) { return detail::mul_u64_binary(p, kBlsXAbs); }

constexpr Fp2 kXi{ff::Fp::one(), ff::Fp::one()};  // ξ = 1 + u
constexpr auto kPm1 = ff::detail::sub_small<6>(ff::Fp::kModulus, 1);

}  // namespace

const Fp2& g2_psi_coeff_x() {
  static const Fp2 c = [] {
    u64 rem = 0;
    return kXi.pow(detail::div_small<6>(kPm1, 3, rem)).inverse();  // 1/ξ^((p−1)/3)
  }();
  return c;
}
const Fp2& g2_psi_coeff_y() {
  static const Fp2 c = [] {
    u64 rem = 0;
    return kXi.pow(detail::div_small<6>(kPm1, 2, rem)).inverse();  // 1/ξ^((p−1)/2)
  }();
  return c;
}

G2Affine g2_psi(const G2Affine& p) {
  if (p.infinity) return p;
  return {p.x.conjugate() * g2_psi_coeff_x(), p.y.conjugate() * g2_psi_coeff_y(), false};
}
G2Projective g2_psi(const G2Projective& p) {
  return {p.x.conjugate() * g2_psi_coeff_x(), p.y.conjugate() * g2_psi_coeff_y(), p.z.conjugate()};
}

G2Projective g2_mul_by_x(const G2Projective& p) { return -mul_by_abs_x(p); }

bool G2Config::is_in_subgroup(const G2Projective& p) {
  if (p.is_identity()) return true;
  return g2_psi(p) == -mul_by_abs_x(p);  // ψ(P) == [x]P, x = −|x|
}

G2Projective G2Config::mul_scalar(const G2Projective& p, const ff::Fr& k) {
  constexpr unsigned kW = 4;
  constexpr std::size_t kTable = std::size_t{1} << (kW - 2);
  if (p.is_identity()) return p;
  // Base-|x| digits of k: k = d0 + d1|x| + d2|x|^2 + d3|x|^3.
  auto c = k.to_canonical();
  std::array<u64, 4> d{};
  for (int i = 0; i < 3; ++i) c = detail::div_small<4>(c, kBlsXAbs, d[i]);
  d[3] = c[0];  // c < |x| here since k < r < |x|^4

  int8_t digits[4][66];
  std::array<std::size_t, 4> lens{};
  for (int i = 0; i < 4; ++i) lens[i] = detail::wnaf_recode_small(std::span<const u64>(&d[i], 1), kW, digits[i]);

  // Tables: (2j+1)·B_i with B_0 = P, B_1 = −ψ(P), B_2 = ψ^2(P), B_3 = −ψ^3(P)  ([|x|]^i = (−ψ)^i).
  std::array<std::array<G2Projective, kTable>, 4> t;
  detail::odd_multiples<G2Config>(p, t[0]);
  for (std::size_t j = 0; j < kTable; ++j) {
    G2Projective q1 = g2_psi(t[0][j]);
    G2Projective q2 = g2_psi(q1);
    t[1][j] = -q1;
    t[2][j] = q2;
    t[3][j] = -g2_psi(q2);
  }
  return detail::straus_wnaf<G2Config, 4>({t[0].data(), t[1].data(), t[2].data(), t[3].data()},
                                          {digits[0], digits[1], digits[2], digits[3]}, lens);
}

void batch_to_affine(std::span<const G2Projective> in, std::span<G2Affine> out, std::span<Fp2> scratch) {
  detail::batch_to_affine<G2Config>(in, out, scratch);
}
void batch_to_affine(std::span<const G2Projective> in, std::span<G2Affine> out) {
  std::vector<Fp2> scratch(in.size());
  detail::batch_to_affine<G2Config>(in, out, scratch);
}
void batch_to_affine(std::span<const G2Xyzz> in, std::span<G2Affine> out, std::span<Fp2> scratch) {
  detail::batch_to_affine<G2Config>(in, out, scratch);
}
void batch_to_affine(std::span<const G2Xyzz> in, std::span<G2Affine> out) {
  std::vector<Fp2> scratch(in.size());
  detail::batch_to_affine<G2Config>(in, out, scratch);
}

}  // namespace proofline::ec
