// proofline/pairing/pairing.hpp — the optimal ate pairing of BLS12-381 and products of pairings.
//
// Owns: `miller_loop`, `multi_miller_loop`, `final_exponentiation`, `pairing`,
// `pairing_product_is_one` (the Groth16 verification check).
//
// What is computed: e(P, Q) = f_{x,Q}(P)^((p^12 − 1)/r) for P in G1 ⊂ E(Fp), Q in G2 ⊂ E'(Fp2),
// x = −0xd201000000010000 (`ff::kBlsX`), the optimal ate pairing of Vercauteren ("Optimal
// pairings", IEEE Trans. IT 2010) for BLS12 curves. The value lies in GT, the order-r subgroup of
// Fp12^* (tower: include/proofline/ff/fp12.hpp). The exponent is the standard (p^12 − 1)/r, NOT
// 3·(p^12 − 1)/r: @noble/curves 2.4.0 computes its hard part with the Fuentes-Castañeda–Knapp–
// Rodríguez-Henríquez chain for 3·(p^4 − p^2 + 1)/r, so noble's e(P, Q) is the cube of ours
// (tests/oracle/pairing_check.mjs checks exactly this, and also compares with noble's Miller loop
// raised to the literal standard exponent). Products-equal-one checks agree either way.
//
// Miller loop: over the bits of |x| (from the top), with G2 (on the M-type sextic twist
// E': y^2 = x^3 + 4ξ, ξ = 1 + u, untwisted by (x', y') ↦ (x'/w^2, y'/w^3)) kept in homogeneous
// projective coordinates (X : Y : Z), x' = X/Z, y' = Y/Z, so the loop has no inversions. Doubling
// and mixed addition formulas: Costello, Lange, Naehrig, "Faster pairing computations on curves
// with high-degree twists", PKC 2010, and Aranha, Karabina, Longa, Gebotys, López, "Faster
// explicit formulas for computing pairings over ordinary curves", EUROCRYPT 2011, rederived for
// the M-type twist. Each line is scaled by an Fp2 factor (removed by the final
// exponentiation) to the sparse form d0 + d1·v + d4·v·w (`Fp12::mul_by_014`):
//   doubling at T:        d0 = Y^2 − 3b'Z^2, d1 = −3X^2·x_P, d4 = 2YZ·y_P          (b' = 4ξ)
//   addition T + Q:       d0 = θ·x_Q − λ·y_Q, d1 = −θ·x_P, d4 = λ·y_P,
//                         θ = Y − y_Q Z, λ = X − x_Q Z.
// Since x < 0 the loop value is conjugated at the end (f_{−|x|} ≡ 1/f_{|x|} ≡ conj(f_{|x|}) up to
// factors the final exponentiation removes). A multi-Miller loop shares one Fp12 squaring per bit
// among all pairs.
//
// Final exponentiation: easy part f ↦ f^((p^6 − 1)(p^2 + 1)) (one Fp12 inversion, Frobenius), then
// the hard part Λ = (p^4 − p^2 + 1)/r by the decomposition of Hayashida, Hayasaka, Teruya
// ("Efficient final exponentiation via cyclotomic structure for pairings over families of elliptic
// curves", ePrint 2020/875): 3Λ = (x − 1)^2 (x + p)(x^2 + p^2 − 1) + 3, used as
//   Λ = ((x − 1)/3)·(x − 1)·(x + p)·(x^2 + p^2 − 1) + 1      ((x − 1)/3 is an integer: x ≡ 1 mod 3),
// with Granger–Scott cyclotomic squarings. The power (x − 1)/3 = −0x460055555555aaab takes a short
// addition chain (src/pairing/pairing.cpp).
//
// Inputs: affine points already known to be on the curve and in the prime-order subgroups (the ec
// decoders check this); `infinity == true` marks the identity, which contributes the factor 1
// (e(P, O) = e(O, Q) = 1; a pair with an identity is skipped by the Miller loops). Nothing throws
// except the two-span `multi_miller_loop` on spans of different lengths.
#pragma once

#include <cstddef>
#include <span>
#include <utility>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fp12.hpp"

namespace proofline::pairing {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fp12;

/// f_{x,Q}(P) (conjugated for x < 0), before the final exponentiation; 1 if P or Q is the identity.
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);

/// ∏ f_{x,Q_i}(P_i) with one shared squaring per loop bit; pairs with an identity are skipped.
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs);
/// Same, with the pairs given as two spans (ps[i], qs[i]). Throws ProoflineError(BadLength) if
/// their lengths differ.
Fp12 multi_miller_loop(std::span<const G1Affine> ps, std::span<const G2Affine> qs);

/// f^((p^12 − 1)/r). Precondition: f ≠ 0 (Miller-loop outputs never are).
Fp12 final_exponentiation(const Fp12& f);

/// e(P, Q) = final_exponentiation(miller_loop(P, Q)).
Fp12 pairing(const G1Affine& p, const G2Affine& q);

/// Whether ∏ e(P_i, Q_i) = 1 (one multi-Miller loop and one final exponentiation). An empty
/// product is 1.
bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs);
bool pairing_product_is_one(std::span<const G1Affine> ps, std::span<const G2Affine> qs);

}  // namespace proofline::pairing
