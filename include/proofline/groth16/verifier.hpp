// proofline/groth16/verifier.hpp — Groth16 verification: single proofs and batches.
//
// Owns: `PreparedVerifyingKey`, `prepare_verifying_key`, `verify_proof`, `verify_proof_bytes`,
// `verify_proofs_batch`.
//
// The check (bellperson verifier.rs; ../shared/reference/formats-and-circuits.md §2.7): with the
// public inputs x_1..x_k (ONE excluded; k + 1 == ic.size()) and acc = ic[0] + Σ x_i·ic[i],
//     e(A, B) · e(acc, −γ) · e(C, −δ) == e(α, β),
// computed as one multi-Miller loop over three pairs and one final exponentiation, compared with
// e(α, β) precomputed in the prepared key.
// Batch (Zcash protocol spec App. B.2): random 128-bit z_j ≠ 0 per proof (OpenSSL unless a
// ByteSource is given); accept iff
//     Π_j e(z_j·A_j, B_j) · e(−Σ_j z_j·acc_j, γ) · e(−Σ_j z_j·C_j, δ) · e(−(Σ_j z_j)·α, β) == 1,
// one multi-Miller loop over n + 3 pairs and one final exponentiation. A batch that holds an invalid
// proof is accepted with probability at most about 2^−128.
//
// Inputs: `verify_proof` takes decoded values; points that are off the curve, outside the
// prime-order subgroup or at infinity make it return false (decoders already reject them; values
// built in memory are checked here too). `verify_proof_bytes` takes the 192-byte encoding and the
// inputs as 32-byte little-endian canonical integers (Filecoin's Fr encoding) and THROWS
// ProoflineError for malformed encodings: a proof that is not 192 bytes or fails the checked
// decode, inputs not a multiple of 32 bytes, or an input >= r (NotCanonical, naming its index).
// A wrong number of public inputs throws ProoflineError(BadLength) from every function
// ("got k, expected ic.size() − 1").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "proofline/ff/fp12.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"
#include "proofline/groth16/random.hpp"

namespace proofline::groth16 {

struct PreparedVerifyingKey {
  ff::Fp12 alpha_beta;      ///< e(α, β)
  G2Affine neg_gamma_g2;    ///< −γ·G2
  G2Affine neg_delta_g2;    ///< −δ·G2
  G2Affine gamma_g2;        ///< γ·G2 (batch)
  G2Affine delta_g2;        ///< δ·G2 (batch)
  G1Affine alpha_g1;        ///< α·G1 (batch)
  G2Affine beta_g2;         ///< β·G2 (batch)
  std::vector<G1Affine> ic;
};

/// Throws validate_verifying_key's ProoflineError (params.hpp; β·G1 and δ·G1 not checked, the
/// verifier does not use them) for a key with a point at infinity, off the curve or outside the
/// subgroup: such a key could accept forged proofs.
PreparedVerifyingKey prepare_verifying_key(const VerifyingKey& vk);

/// True iff the proof verifies for these public inputs (ONE excluded).
bool verify_proof(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> public_inputs);

/// Bytes-level: 192-byte proof, inputs as concatenated 32-byte little-endian integers.
bool verify_proof_bytes(const PreparedVerifyingKey& pvk, std::span<const std::uint8_t> proof,
                        std::span<const std::uint8_t> public_inputs_le);

/// Parses concatenated 32-byte little-endian public inputs; throws for a length not a multiple of 32
/// or a value >= r (naming its index).
std::vector<Fr> parse_public_inputs_le(std::span<const std::uint8_t> bytes);

/// True iff every proof verifies with its inputs (probabilistic; see the header comment).
/// An empty batch is accepted. `rng` null: OsRandom.
bool verify_proofs_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                         std::span<const std::vector<Fr>> public_inputs, ByteSource* rng = nullptr);

}  // namespace proofline::groth16
