// proofline/groth16/snarkjs/prover.hpp — Groth16 proofs for snarkjs zkeys, with snarkjs' H
// construction, and the proof.json / public.json files snarkjs reads and writes.
//
// Owns: `snarkjs_root_of_unity` (ffjavascript's roots), `OddCosetH` (the H scalars), `prove`
// (zkey + witness → proof), `ProveOptions`, `ProveTimings`, `ProveResult`, and the exact-bytes
// JSON writers `proof_json` / `public_json`.
//
// The math (../shared/reference/oracles.md §5.6; n = domainSize, k = log2 n, w = witness):
//  1. Roots: ffjavascript's ω_{2^32} = 5^((r−1)/2^32), ω_{2^k} = ω_{2^32}^(2^(32−k)) — NOT the
//     7^((r−1)/2^32) of bellperson/blst that poly::EvaluationDomain uses. Both are generators of the
//     same cyclic group of order 2^32, so ω5 = ω7^J for one odd J (found once by Pohlig–Hellman) and
//     ω5_n^c = ω7_n^(J·c mod n): an evaluation at snarkjs' point c is the evaluation at the
//     7-domain's point J·c mod n. The prover therefore runs poly's transforms unchanged and only
//     permutes indices (free: the A/B rows are scattered anyway, and h is gathered once).
//  2. a_c = Σ_{A entries (c, s)} coef·w_s, b_c likewise (zkey section 4), c_c = a_c·b_c (no C matrix).
//  3. For a, b, c: iNTT over <ω_n>, multiply coefficient i by σ^i with σ = ω5_{2n} (snarkjs `Fr.w[k+1]`),
//     NTT: values at σ·ω5_n^i, the odd points of the 2n-domain.
//  4. h_i = a_i·b_i − c_i on those points — no division by Z, no return to coefficients: the zkey's
//     H_i are L^{(2n)}_{2i+1}(τ)/δ, so Σ h_i·H_i = h(τ)Z(τ)/δ.
//  5. π_A = α1 + Σ w_i·A_i + r·δ1;  π_B = β2 + Σ w_i·B2_i + s·δ2;  B1 = β1 + Σ w_i·B1_i + s·δ1;
//     π_C = Σ_{i>nPublic} w_i·C_{i−nPublic−1} + Σ h_i·H_i + s·π_A + r·B1 − r·s·δ1.
// MSMs run on msm/ (Pippenger, ±1 fast path: circom witnesses are largely bits); transforms on poly/.
// The proof is verified against the zkey's own verifying key before it is returned (ProveOptions::verify).
//
// JSON bytes: snarkjs writes proof.json and public.json with bfj (indent 1, no final newline), the
// same bytes as `JSON.stringify(x, null, 1)` except for an empty public.json, which bfj prints as
// "[\n]" (JSON.stringify, and so ref_prove.mjs, as "[]"). `proof_json` / `public_json` produce
// snarkjs' bytes (so r = s = 0 proofs compare byte for byte with ../shared/tools/ref_prove.mjs
// --rs=0,0, and public.json with snarkjs'). Parsers: groth16/snarkjs.hpp (proof_from_snarkjs_json, …).
//
// Errors: FormatError(Mismatch) when the witness length differs from nVars (naming both counts);
// ProoflineError(UnexpectedInfinity) if δ1 or δ2 is the identity; ProoflineError(ProofCheckFailed)
// if the fresh proof fails verification (bad input: a witness that does not satisfy the circuit,
// or a bad zkey point under Check::OnCurveOnly; run with an r1cs check to tell which).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "proofline/groth16/backend.hpp"
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

 private:
  void to_odd_coset(std::span<Fr> v, const poly::NttConfig& cfg) const;
  std::size_t n_;
  unsigned log_n_;
  std::uint64_t j_;
  poly::EvaluationDomain domain_;
  poly::EvaluationDomain::PowTable shift_over_n_;  ///< σ^i / n
};

struct ProveOptions {
  /// r, s; nullopt: uniformly random (OpenSSL CSPRNG), as snarkjs always does.
  std::optional<Randomizers> randomizers;
  /// 0: all cores of the calling thread's TBB arena; k: at most k threads.
  int threads = 0;
  /// Verify the proof with the zkey's verifying key before returning it.
  bool verify = true;
  msm::MsmConfig msm{};
};

/// Milliseconds per stage. The A, B1, B2 and C MSMs run concurrently with the evaluations, the
/// transforms and the H MSM (prover.cpp step 3a): those stage times overlap and do not add up.
struct ProveTimings {
  double evaluations = 0;  ///< a, b, c from the coefficient section
  double ntt = 0;          ///< odd-coset transforms and h
  double msm_a = 0, msm_b1 = 0, msm_b2 = 0, msm_c = 0, msm_h = 0;
  double assemble = 0;
  double verify = 0;
  double total = 0;
};

struct ProveResult {
  Proof proof;
  std::vector<Fr> public_inputs;  ///< w[1..nPublic]
  ProveTimings timings;
};

/// Proves with a zkey and a witness of nVars values (see the header comment).
ProveResult prove(const Zkey& zkey, const Witness& witness, const ProveOptions& opts = {});

/// snarkjs' proof.json / public.json bytes (JSON.stringify(·, null, 1), no final newline).
std::string proof_json(const Proof& proof);
std::string public_json(std::span<const Fr> public_inputs);
void write_proof_files(const std::string& proof_path, const std::string& public_path, const ProveResult& r);

}  // namespace proofline::groth16::snarkjs
