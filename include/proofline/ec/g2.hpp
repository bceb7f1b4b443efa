// proofline/ec/g2.hpp — G2 of BLS12-381: y^2 = x^3 + 4(u + 1) over Fp2 = Fp[u]/(u^2 + 1)
// (the M-type sextic twist of E: y^2 = x^3 + 4 with ξ = 1 + u), prime-order subgroup of order r.
//
// Owns: G2Config, the point forms G2Affine / G2Projective (Jacobian) / G2Xyzz (from curve.hpp),
// the untwist-Frobenius-twist endomorphism ψ, the fast subgroup check, GLS scalar multiplication,
// batch conversion to affine.
//
// Encodings (ZCash BLS12-381 format, formats-and-circuits.md §1.1): compressed 96 bytes (x.c1 ‖
// x.c0, flags C/I/S in byte 0; S is the sign of y.c1, or of y.c0 when y.c1 = 0), uncompressed
// 192 bytes (x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0, C clear); canonical big-endian; identity 0xC0 ‖ 0^95 /
// 0x40 ‖ 0^191. See AffinePoint in curve.hpp for decoders and errors.
//
// Constants: generator from the ZCash BLS12-381 specification (also
// draft-irtf-cfrg-pairing-friendly-curves §4.2.1); the ψ coefficients are computed from Fp2
// arithmetic in src/ec/g2.cpp.
#pragma once

#include <span>
#include <string_view>

#include "proofline/ec/curve.hpp"
#include "proofline/ff/fp2.hpp"
#include "proofline/ff/fr.hpp"

namespace proofline::ec {

using ff::Fp2;

struct G2Config {
  using Field = Fp2;
  static constexpr std::string_view kName = "G2";
  /// b' = 4·ξ = 4 + 4u.
  static constexpr Fp2 kB{ff::Fp::from_u64(4), ff::Fp::from_u64(4)};
  /// The standard generator (ZCash spec; compressed encoding 93e02b60…bdb8).
  static constexpr Fp2 kGeneratorX{
      detail::field_from_hex<ff::Fp>("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d177"
                                     "0bac0326a805bbefd48056c8c121bdb8"),
      detail::field_from_hex<ff::Fp>("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049"
                                     "334cf11213945d57e5ac7d055d042b7e")};
  static constexpr Fp2 kGeneratorY{
      detail::field_from_hex<ff::Fp>("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c"
                                     "923ac9cc3baca289e193548608b82801"),
      detail::field_from_hex<ff::Fp>("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab"
                                     "3f370d275cec1da1aaa9075ff05f79be")};

  /// Scott's test (eprint 2021/1130 §4): for P on the twist, P ∈ G2 ⇔ ψ(P) == [x]P.
  /// Cost: one multiplication by |x| (63 doublings, 5 additions) and one ψ.
  static bool is_in_subgroup(const JacobianPoint<G2Config>& p);
  /// GLS: ψ acts on G2 as [x] (x ≡ p mod r), so with k = d0 + d1|x| + d2|x|^2 + d3|x|^3
  /// (base-|x| digits, each < 2^64, r < |x|^4): [k]P = [d0]P − [d1]ψ(P) + [d2]ψ^2(P) − [d3]ψ^3(P);
  /// four width-4 wNAF chains of ~64 digits, Straus.
  static JacobianPoint<G2Config> mul_scalar(const JacobianPoint<G2Config>& p, const ff::Fr& k);
};

/// Affine G2 point (x, y in Fp2, Montgomery form); `infinity == true` is the identity.
using G2Affine = AffinePoint<G2Config>;
/// Jacobian G2 point (X/Z^2, Y/Z^3); Z = 0 is the identity.
using G2Projective = JacobianPoint<G2Config>;
/// XYZZ G2 point (X/ZZ, Y/ZZZ), the MSM bucket form; ZZ = 0 is the identity.
using G2Xyzz = XyzzPoint<G2Config>;

/// ψ coefficients. With the twist map E' → E: (x, y) ↦ (x/w^2, y/w^3), w^6 = ξ = 1 + u,
/// ψ = twist ∘ Frobenius_p ∘ untwist gives ψ(x, y) = (conj(x)·cx, conj(y)·cy) with
/// cx = ξ^(−(p−1)/3) = 1/(1+u)^((p−1)/3) and cy = ξ^(−(p−1)/2) = 1/(1+u)^((p−1)/2).
const Fp2& g2_psi_coeff_x();
const Fp2& g2_psi_coeff_y();
/// ψ(P); on Jacobian coordinates (conj(X)·cx, conj(Y)·cy, conj(Z)). 2 Fp2 multiplications.
G2Affine g2_psi(const G2Affine& p);
G2Projective g2_psi(const G2Projective& p);
/// [x]P for the (negative) BLS parameter x, any twist point: −[|x|]P by double-and-add.
G2Projective g2_mul_by_x(const G2Projective& p);

/// Jacobian (or XYZZ) → affine for a whole batch with one Fp2 inversion (Montgomery's trick).
/// out.size() >= in.size(); identities become infinity; `scratch` >= in.size() elements, or the
/// overloads without it allocate.
void batch_to_affine(std::span<const G2Projective> in, std::span<G2Affine> out, std::span<Fp2> scratch);
void batch_to_affine(std::span<const G2Projective> in, std::span<G2Affine> out);
void batch_to_affine(std::span<const G2Xyzz> in, std::span<G2Affine> out, std::span<Fp2> scratch);
void batch_to_affine(std::span<const G2Xyzz> in, std::span<G2Affine> out);

}  // namespace proofline::ec
