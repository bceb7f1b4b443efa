// proofline/ec/g1.hpp — G1 of BLS12-381: y^2 = x^3 + 4 over Fp, prime-order subgroup of order r.
//
// Owns: G1Config (curve constants), the point forms G1Affine / G1Projective (Jacobian) / G1Xyzz
// (all from curve.hpp), the GLV endomorphism φ, the fast subgroup check, GLV scalar
// multiplication, batch conversion to affine.
//
// Encodings (ZCash BLS12-381 format, formats-and-circuits.md §1.1): compressed 48 bytes (x with
// flags C = 0x80, I = 0x40, S = 0x20 in byte 0), uncompressed 96 bytes (x ‖ y, C clear);
// coordinates canonical big-endian; identity 0xC0 ‖ 0^47 / 0x40 ‖ 0^95. See AffinePoint in
// curve.hpp for the decoders and the error each malformed input gets.
//
// Constants: generator from the ZCash BLS12-381 specification (also
// draft-irtf-cfrg-pairing-friendly-curves §4.2.1); β and the subgroup test are derived in
// src/ec/g1.cpp, not copied.
#pragma once

#include <span>
#include <string_view>

#include "proofline/ec/curve.hpp"
#include "proofline/ff/fp.hpp"
#include "proofline/ff/fr.hpp"

namespace proofline::ec {

using ff::Fp;
using ff::Fr;

struct G1Config {
  using Field = Fp;
  static constexpr std::string_view kName = "G1";
  /// b = 4.
  static constexpr Fp kB = Fp::from_u64(4);
  /// The standard generator (ZCash spec; compressed encoding 97f1d3a7…c6bb).
  static constexpr Fp kGeneratorX = detail::field_from_hex<Fp>(
      "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  static constexpr Fp kGeneratorY = detail::field_from_hex<Fp>(
      "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");

  /// Scott's test (eprint 2021/1130 §6, proof corrected in eprint 2022/352): for P on the curve,
  /// P ∈ G1 ⇔ φ(P) == [−x^2]P. Cost: two multiplications by |x| (126 doublings, 10 additions).
  static bool is_in_subgroup(const JacobianPoint<G1Config>& p);
  /// GLV: k = k1 + k2·x^2 with k1 = k mod x^2, k2 = k div x^2 (both < 2^128, since r < x^4), and
  /// [x^2]P = −φ(P) on G1, so [k]P = [k1]P + [k2](−φ(P)); two width-5 wNAF chains, Straus.
  static JacobianPoint<G1Config> mul_scalar(const JacobianPoint<G1Config>& p, const Fr& k);
};

/// Affine G1 point (x, y in Montgomery form); `infinity == true` is the identity.
using G1Affine = AffinePoint<G1Config>;
/// Jacobian G1 point (X/Z^2, Y/Z^3); Z = 0 is the identity.
using G1Projective = JacobianPoint<G1Config>;
/// XYZZ G1 point (X/ZZ, Y/ZZZ), the MSM bucket form; ZZ = 0 is the identity.
using G1Xyzz = XyzzPoint<G1Config>;

/// β: the primitive cube root of unity in Fp for which φ(x, y) = (βx, y) acts on G1 as
/// multiplication by −x^2 (the other root, β^2, gives x^2 − 1). Found at first use as
/// g^((p−1)/3) or its square for the first small g that is not a cube, choosing by φ(G) == [−x^2]G.
const Fp& g1_beta();
/// φ(P) = (βx, y); on Jacobian coordinates (βX, Y, Z). 1 Fp multiplication.
G1Affine g1_endomorphism(const G1Affine& p);
G1Projective g1_endomorphism(const G1Projective& p);
/// [x]P for the (negative) BLS parameter x, any curve point: −[|x|]P by double-and-add.
G1Projective g1_mul_by_x(const G1Projective& p);

/// Jacobian (or XYZZ) → affine for a whole batch with one field inversion (Montgomery's trick).
/// out.size() >= in.size(); identities become infinity. `scratch` (>= in.size() elements) is
/// caller-owned working memory; the overloads without it allocate in.size() elements.
void batch_to_affine(std::span<const G1Projective> in, std::span<G1Affine> out, std::span<Fp> scratch);
void batch_to_affine(std::span<const G1Projective> in, std::span<G1Affine> out);
void batch_to_affine(std::span<const G1Xyzz> in, std::span<G1Affine> out, std::span<Fp> scratch);
void batch_to_affine(std::span<const G1Xyzz> in, std::span<G1Affine> out);

}  // namespace proofline::ec
