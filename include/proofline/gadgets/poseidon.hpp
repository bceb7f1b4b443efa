// proofline/gadgets/poseidon.hpp — the Poseidon circuit as Filecoin uses it (neptune,
// Strength::Standard). The constants and the native hashes are the hash layer's
// (proofline/hash/poseidon.hpp), named here too.
//
// Owns: `PoseidonConstants` (hash::PoseidonConstants plus the circuit's recorded density pattern,
// `circuit_shape`) and `poseidon_hash` (the circuit).
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
// PoseidonConstants::circuit_shape (word ORs onto the hash's block of variables). Witness-only mode
// (ConstraintSystem::witness_only()) builds no LinearCombination either: values only, constraints
// counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "proofline/gadgets/num.hpp"
#include "proofline/hash/poseidon.hpp"

namespace proofline::gadgets {

using hash::FrMatrix;
using hash::grain_round_constants;
using hash::poseidon_hash_correct;
using hash::poseidon_hash_native;
using hash::poseidon_partial_rounds;
using hash::SparseMdsMatrix;

/// The density pattern of one `poseidon_hash` circuit (defined in poseidon.cpp): see
/// PoseidonConstants::circuit_shape.
struct PoseidonCircuitShape;

/// The hash layer's constants (same values) with the circuit's density pattern recorded for them.
struct PoseidonConstants : hash::PoseidonConstants {
  /// Recorded by make() from one generic synthesis of the circuit: which of a hash's own variables
  /// and preimage elements end up with a nonzero coefficient in some A / B. The prover fast path of
  /// poseidon_hash computes the witness and a, b, c natively and replays this pattern onto the
  /// density bitmaps instead of building the MDS LinearCombinations. Null (constants assembled by
  /// hand): the generic path. Modifying the other fields after make() would make it stale.
  std::shared_ptr<const PoseidonCircuitShape> circuit_shape;

  /// hash::PoseidonConstants::make(arity, domain_tag) with the circuit shape recorded.
  static PoseidonConstants make(std::size_t arity, const Fr& domain_tag);
  /// The MerkleTree-tag constants (tag 2^arity − 1), built once per arity and cached (thread-safe).
  static const PoseidonConstants& merkle(std::size_t arity);
  /// Custom(id) tag id·2^40 (SnapDeals uses id 1 with arity 2), cached.
  static const PoseidonConstants& custom(std::size_t arity, std::uint64_t id);
};

/// The circuit: Poseidon of exactly `arity` allocated numbers.
AllocatedNum poseidon_hash(ConstraintSystem& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c);

}  // namespace proofline::gadgets
