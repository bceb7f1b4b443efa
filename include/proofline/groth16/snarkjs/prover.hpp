// proofline/groth16/snarkjs/prover.hpp — snarkjs' prover math that the backends take for a zkey's
// parameters, and the proof.json / public.json files snarkjs reads and writes.
//
// Owns: `snarkjs_root_of_unity` (ffjavascript's roots), `snarkjs_root_exponent`, `OddCosetH` (the H
// scalars of HForm::OddCoset parameters, params.hpp) and the exact-bytes JSON writers `proof_json` /
// `public_json` / `write_proof_files`. Proofs for a zkey are made by the engine's "snarkjs" kind
// (engine/kind.hpp) through the one prover backend seam (groth16/backend.hpp), with parameters from
// circuit.hpp's zkey_parameters.
//
// The math (../shared/reference/oracles.md §5.6; n = domainSize, k = log2 n, w = witness):
//  1. Roots: ffjavascript's ω_{2^32} = 5^((r−1)/2^32), ω_{2^k} = ω_{2^32}^(2^(32−k)) — NOT the
//     7^((r−1)/2^32) of bellperson/blst that poly::EvaluationDomain uses. Both are generators of the
//     same cyclic group of order 2^32, so ω5 = ω7^J for one odd J (found once by Pohlig–Hellman) and
//     ω5_n^c = ω7_n^(J·c mod n): an evaluation at snarkjs' point c is the evaluation at the
//     7-domain's point J·c mod n. poly's transforms therefore run unchanged on rows placed at
//     J·c mod n (circuit.hpp does that once, on the coefficients).
//  2. a_c = Σ_{A entries (c, s)} coef·w_s, b_c likewise (zkey section 4), c_c = a_c·b_c (no C matrix).
//  3. For a, b, c: iNTT over <ω_n>, multiply coefficient i by σ^i with σ = ω5_{2n} (snarkjs `Fr.w[k+1]`),
//     NTT: values at σ·ω5_n^i, the odd points of the 2n-domain.
//  4. h_i = a_i·b_i − c_i on those points — no division by Z, no return to coefficients: the zkey's
//     H_i are L^{(2n)}_{2i+1}(τ)/δ, so Σ h_i·H_i = h(τ)Z(τ)/δ, the same point as bellperson's H.
//  5. The proof is assembled by the reference formula of groth16/backend.hpp, which equals snarkjs'
//     π_C = Σ_{i>nPublic} w_i·C_i + Σ h_i·H_i + s·π_A + r·B1 − r·s·δ1.
//
// JSON bytes: snarkjs writes proof.json and public.json with bfj (indent 1, no final newline), the
// same bytes as `JSON.stringify(x, null, 1)` except for an empty public.json, which bfj prints as
// "[\n]" (JSON.stringify, and so ref_prove.mjs, as "[]"). `proof_json` / `public_json` produce
// snarkjs' bytes (so r = s = 0 proofs compare byte for byte with ../shared/tools/ref_prove.mjs
// --rs=0,0, and public.json with snarkjs'). Parsers: groth16/snarkjs.hpp (proof_from_snarkjs_json, …).
//
// Errors: OddCosetH throws std::invalid_argument for a domain of 2^32 or more and poly::DomainError
// for buffers of the wrong length; write_proof_files std::system_error naming the path.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "proofline/groth16/proof.hpp"
#include "proofline/groth16/snarkjs/files.hpp"
#include "proofline/poly/domain.hpp"

namespace proofline::groth16::snarkjs {

/// ffjavascript's primitive 2^k-th root of unity (k <= 32): (5^((r−1)/2^32))^(2^(32−k)).
Fr snarkjs_root_of_unity(unsigned k);
/// The odd J with 5^((r−1)/2^32) = (7^((r−1)/2^32))^J (Pohlig–Hellman in the 2-group).
std::uint64_t snarkjs_root_exponent();

/// The H scalars of step 2–4, for one domain size (tables built once, reusable across proofs).
class OddCosetH {
 public:
  explicit OddCosetH(unsigned log_n);
  std::size_t size() const { return n_; }
  const poly::EvaluationDomain& domain() const { return domain_; }
  /// Index in the 7-domain's natural order of snarkjs' point c (= J·c mod n).
  std::size_t permute(std::size_t c) const { return static_cast<std::size_t>((j_ * c) & (n_ - 1)); }
  /// a, b, c: evaluations in the 7-domain order (a[permute(c)] = a_c), |·| = n; clobbered.
  /// Returns h_i (snarkjs order, i = 0..n−1), Montgomery form.
  std::vector<Fr> compute(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const poly::NttConfig& cfg = {}) const;
  /// The same h_i written into `out` (|out| = n; it may be `b` or `c`, not `a`): no allocation.
  void compute_into(std::span<Fr> out, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                    const poly::NttConfig& cfg = {}) const;

 private:
  void to_odd_coset(std::span<Fr> v, const poly::NttConfig& cfg) const;
  std::size_t n_;
  unsigned log_n_;
  std::uint64_t j_;
  poly::EvaluationDomain domain_;
  poly::EvaluationDomain::PowTable shift_over_n_;  ///< σ^i / n
};

/// snarkjs' proof.json / public.json bytes (JSON.stringify(·, null, 1), no final newline).
std::string proof_json(const Proof& proof);
std::string public_json(std::span<const Fr> public_inputs);
/// Writes proof_json(proof) to `proof_path` and public_json(public_inputs) to `public_path` (each
/// skipped when its path is empty), replacing the files.
void write_proof_files(const std::string& proof_path, const std::string& public_path, const Proof& proof,
                       std::span<const Fr> public_inputs);

}  // namespace proofline::groth16::snarkjs
