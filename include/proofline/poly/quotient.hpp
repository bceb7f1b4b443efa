// proofline/poly/quotient.hpp — Groth16's quotient polynomial H = (A·B − C) / Z on the CPU.
//
// Owns: `compute_h`, the H computation of bellperson's prover (`execute_fft` in
// src/groth16/prover/native.rs; the math is summarized in
// ../shared/reference/formats-and-circuits.md §2.5). Given the per-constraint evaluations
// a_i = ⟨A_i, w⟩, b_i = ⟨B_i, w⟩, c_i = ⟨C_i, w⟩ (constraint i ↔ domain point ω^i), it returns the
// m − 1 coefficients of h(X) = (a(X)·b(X) − c(X)) / (X^m − 1), the scalars of the H MSM.
//
// Steps (each on the caller's buffers, in place):
//   1. a, b, c: iNTT (evaluations → coefficients), coset NTT (coefficient i · g^i, then NTT),
//   2. a ← (a∘b − c) · (g^m − 1)^{-1}   (Z is the constant g^m − 1 on the coset g·<ω>),
//   3. a ← coset iNTT(a)                 (iNTT, coefficient i · g^{-i}),
//   4. H = a[0 .. m−2]; for a satisfied system a[m−1] = 0 (deg h <= m − 2).
// Internally the chain runs DIF (natural → bit-reversed) and DIT (bit-reversed → natural) transforms
// back to back and permutes only once, at the end; the 1/m factors, the coset powers g^{±i} and the
// division by Z are folded into single element-wise passes (the tables of `EvaluationDomain::Powers`),
// and a, b, c go to the coset in parallel. The numbers are those of any natural-order implementation,
// hence bellperson's exactly. Cost: 7 transforms of m points plus 9 multiplications per element
// (coset scalings 3×2, the product 1, the final scaling 2).
//
// Shapes and ownership: a, b, c each hold exactly m = domain.size() elements — the caller pads the
// constraint rows with zeros up to m (bellperson pads too). No copies are made; b and c are used as
// work space and hold coset evaluations afterwards. All values are Fr in Montgomery form.
// Threads: as the domain's transforms (`NttConfig::max_threads`; the order field is ignored).
// Errors: DomainError when a length differs from m.
#pragma once

#include <span>
#include <vector>

#include "proofline/poly/domain.hpp"

namespace proofline::poly {

/// In place: on return a[0..m−2] are the coefficients of h (a[m−1] is 0 for a satisfied system);
/// b and c are clobbered. |a| = |b| = |c| = domain.size().
void compute_h(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const EvaluationDomain& domain,
               const NttConfig& cfg = {});

/// Convenience over vectors (move them in to avoid copies): builds the domain of the smallest power
/// of two >= max(|a|, |b|, |c|), pads each vector with zeros to m (this reallocates a vector whose
/// capacity is below m — reserve m beforehand to avoid it), runs compute_h and returns a, shrunk to
/// its m − 1 coefficients of h.
std::vector<Fr> compute_h(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c, const NttConfig& cfg = {});

}  // namespace proofline::poly
