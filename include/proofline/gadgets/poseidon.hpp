// proofline/gadgets/poseidon.hpp — Poseidon over Fr as Filecoin uses it (neptune, Strength::Standard):
// constants, native hashes and the circuit.
//
// Owns: `PoseidonConstants` (per arity and domain tag: Grain-LFSR round constants, Cauchy MDS
// matrix, and neptune's optimized forms: compressed round constants, pre-sparse matrix, sparse
// matrices), `poseidon_hash_correct` (the plain permutation, the specification), `poseidon_hash_native`
// (the optimized permutation, same result, what trees use), `poseidon_hash` (the circuit), and
// `grain_round_constants`.
//
// Parameters (reference §4): S-box x^5; width t = arity + 1; R_F = 8; R_P = 55/56/57/57/59/59/60 for
// t = 3/5/9/12/17/25/37. Round constants: Grain LFSR seeded with (field 1, S-box 1, 255 bits, t,
// R_F, R_P), (R_F + R_P)·t elements. MDS M[i][j] = 1/(i + t + j) (symmetric). Mixing is the row
// vector times M: new[j] = Σ_i state[i]·M[i][j]. Domain tags: MerkleTree 2^arity − 1 (all of
// PoRep/PoSt), ConstantLength(L) L·2^64 (zero padding), Custom(id) id·2^40.
//
// The circuit is neptune's "legacy" `circuit::poseidon_hash`, which Filecoin's parameters were made
// with: state elements are allocated numbers or (value, LinearCombination) pairs; first round: the
// tag's S-box is a constant, every other element costs 3 constraints ((x+k)², x⁴, x⁴·(x+k) + k');
// every later S-box first allocates its input LC (A = lc, B = ONE, C = v), then x², x⁴, x⁴·x (+k'):
// 4 constraints; MDS products are free (LC arithmetic with the pre-sparse matrix after round 3 and
// the sparse matrices in partial rounds); the result element 1 is allocated (1 constraint).
// Constraints: 3(t−1) + 28t + 4·R_P + 1 = 311 / 377 / 505 / 598 for arity 2 / 4 / 8 / 11.
// Every constraint allocates one aux variable.
//
// Prover fast path (ConstraintSystem::prover_buffers(), constants from make(), preimage of
// allocated aux variables whose assigned values equal their AllocatedNum values): no
// LinearCombination is built; every value is computed natively in the same order (so the witness is
// bit-identical), a, b, c are pushed directly, and the density bits come from
// PoseidonConstants::circuit_shape (word ORs onto the hash's block of variables).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "proofline/gadgets/num.hpp"

namespace proofline::gadgets {

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

/// The density pattern of one `poseidon_hash` circuit (defined in poseidon.cpp): see
/// PoseidonConstants::circuit_shape.
struct PoseidonCircuitShape;

struct PoseidonConstants {
  std::size_t arity = 0, width = 0;
  std::size_t full_rounds = 8, half_full_rounds = 4, partial_rounds = 0;
  Fr domain_tag;
  std::vector<Fr> round_constants;             // (R_F + R_P)·t, round-major
  std::vector<Fr> compressed_round_constants;  // R_F·t + R_P
  FrMatrix m, m_inv, pre_sparse;
  std::vector<SparseMdsMatrix> sparse;         // R_P of them
  /// Recorded by make() from one generic synthesis of the circuit: which of a hash's own variables
  /// and preimage elements end up with a nonzero coefficient in some A / B. The prover fast path of
  /// poseidon_hash computes the witness and a, b, c natively and replays this pattern onto the
  /// density bitmaps instead of building the MDS LinearCombinations. Null (constants assembled by
  /// hand): the generic path. Modifying the other fields after make() would make it stale.
  std::shared_ptr<const PoseidonCircuitShape> circuit_shape;

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

/// Plain Poseidon permutation of [tag, preimage..., 0 padding], output state[1]. preimage.size() ≤ arity.
Fr poseidon_hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage);
/// Same result through the optimized constants and sparse matrices (about t·R_F·t + 2t·R_P mults).
Fr poseidon_hash_native(const PoseidonConstants& c, std::span<const Fr> preimage);

/// The circuit: Poseidon of exactly `arity` allocated numbers.
AllocatedNum poseidon_hash(ConstraintSystem& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c);

}  // namespace proofline::gadgets
