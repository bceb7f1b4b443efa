// proofline/hash/poseidon.hpp — Poseidon over Fr as Filecoin uses it (neptune, Strength::Standard):
// the constants and the native hashes. The circuit is gadgets/poseidon.hpp (same constants).
//
// Owns: `PoseidonConstants` (per arity and domain tag: Grain-LFSR round constants, Cauchy MDS
// matrix, and neptune's optimized forms: compressed round constants, pre-sparse matrix, sparse
// matrices), `poseidon_hash_correct` (the plain permutation, the specification), `poseidon_hash_native`
// (the optimized permutation, same result, what trees use), `grain_round_constants` and
// `poseidon_sbox`.
//
// Parameters (reference §4): S-box x^5; width t = arity + 1; R_F = 8; R_P = 55/56/57/57/59/59/60 for
// t = 3/5/9/12/17/25/37. Round constants: Grain LFSR seeded with (field 1, S-box 1, 255 bits, t,
// R_F, R_P), (R_F + R_P)·t elements. MDS M[i][j] = 1/(i + t + j) (symmetric). Mixing is the row
// vector times M: new[j] = Σ_i state[i]·M[i][j]. Domain tags: MerkleTree 2^arity − 1 (all of
// PoRep/PoSt), ConstantLength(L) L·2^64 (zero padding), Custom(id) id·2^40.
//
// Errors: r1cs::SynthesisError (ShapeMismatch: no round numbers for a width, a preimage longer than
// the arity; DivisionByZero: a singular matrix, which the Cauchy MDS never is).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "proofline/ff/fr.hpp"

namespace proofline::hash {

using ff::Fr;

/// Row-major square matrix over Fr.
struct FrMatrix {
  std::size_t n = 0;
  std::vector<Fr> a;
  Fr& operator()(std::size_t i, std::size_t j) { return a[i * n + j]; }
  const Fr& operator()(std::size_t i, std::size_t j) const { return a[i * n + j]; }
};

struct SparseMdsMatrix {
  std::vector<Fr> w_hat;   // first column (t entries)
  std::vector<Fr> v_rest;  // first row without its first entry (t − 1 entries)
};

struct PoseidonConstants {
  std::size_t arity = 0, width = 0;
  std::size_t full_rounds = 8, half_full_rounds = 4, partial_rounds = 0;
  Fr domain_tag;
  std::vector<Fr> round_constants;             // (R_F + R_P)·t, round-major
  std::vector<Fr> compressed_round_constants;  // R_F·t + R_P
  FrMatrix m, m_inv, pre_sparse;
  std::vector<SparseMdsMatrix> sparse;         // R_P of them

  /// Constants for `arity` (2, 4, 8, 11, 16, 24, 36) with the given domain tag.
  static PoseidonConstants make(std::size_t arity, const Fr& domain_tag);
  /// The MerkleTree-tag constants (tag 2^arity − 1), built once per arity and cached (thread-safe).
  static const PoseidonConstants& merkle(std::size_t arity);
  /// Custom(id) tag id·2^40 (SnapDeals uses id 1 with arity 2), cached.
  static const PoseidonConstants& custom(std::size_t arity, std::uint64_t id);
};

/// R_P for width t (Strength::Standard); R_F is 8 for all.
std::size_t poseidon_partial_rounds(std::size_t width);
/// The Grain-LFSR round constants for width t, R_F, R_P (255-bit field).
std::vector<Fr> grain_round_constants(std::size_t width, std::size_t full_rounds, std::size_t partial_rounds);

/// The S-box x^5.
inline Fr poseidon_sbox(Fr x) {
  const Fr x2 = x.square();
  return x2.square() * x;
}

/// Plain Poseidon permutation of [tag, preimage..., 0 padding], output state[1]. preimage.size() ≤ arity.
Fr poseidon_hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage);
/// Same result through the optimized constants and sparse matrices (about t·R_F·t + 2t·R_P mults).
Fr poseidon_hash_native(const PoseidonConstants& c, std::span<const Fr> preimage);

}  // namespace proofline::hash
