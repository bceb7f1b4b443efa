// proofline/gadgets/merkle.hpp — Merkle inclusion circuits as Filecoin builds them.
//
// Owns: `insert` (place the current node among its siblings by index bits: insert_2 / insert_4 /
// insert_8 networks of `pick`s), `hash_multi_leaf_circuit` (a tree node: SHA-256 of the children's
// bits, or Poseidon of the children), `synthesize_auth_path` (base levels, then one sub level, then
// one top level, of a hash::AuthPath), `por_circuit` (storage-proofs-core PoRCircuit),
// `por_no_challenge_input` (its variant over allocated bits, siblings and root, for SnapDeals),
// `hash2_circuit` (filecoin-hashers hash2_circuit) and `select` (storage-proofs-core insertion::select).
//
// Shapes (storage-proofs-core `gadgets/{insertion,por}.rs`, filecoin-hashers; reference §3.1–3.2):
//  - per level of arity a = 2^k, in namespace "merkle tree hash i": k index bits ("index bit j",
//    LSB first: the child position), a − 1 sibling numbers ("path element j", unconstrained), the
//    insertion (2 / 8 / 22 constraints for a = 2 / 4 / 8), the node hash in namespace "computation of
//    commitment hash" (Poseidon arity a: 311 / 377 / 505; SHA-256: per child to_bits_le (256) padded
//    to 256 bits and bit-reversed per byte, sha256, output bits reversed per byte, first 254 bits
//    packed into one aux number (1)).
//    Level costs: Poseidon 314 / 387 / 530; SHA-256 binary 45,382.
//  - the index bits of all levels, in order, concatenated, are the leaf index (LSB first).
//  - PoR: leaf alloc ("value"), path ("auth_path": "base", "sub", "top"), path bits packed into
//    public inputs ("path"), root alloc ("root_value") unless given as a variable, root equality
//    ("enforce root is correct": computed · ONE = root), and with a public root its inputize ("root").
//  - por_no_challenge_input (storage-proofs-core gadgets/por.rs): the caller allocates the leaf, the
//    siblings and the root and gives the position bits (LSB first: base levels, then sub, then top);
//    per level, in namespace "merkle proof insert (height=h)" the insertion, in "merkle proof hash
//    (height=h)" the node hash (as above); then "calculated root == provided root" (computed · ONE =
//    root). No index bit is allocated, no input added: Σ insertion + hash + 1 constraints.
//  - hash2_circuit: Poseidon arity 2 (MerkleTree tag, 311), or SHA-256 of the two numbers' bits
//    ("a_bits", "b_bits": 256 each; "hash"; "pack_le": 1) = 45,379 constraints.
//  - select over 2^k numbers: per bit from the most significant, "pick i, j" halves the list
//    (pick(bit, upper half j, lower half j)): 2^k − 1 constraints.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "proofline/gadgets/num.hpp"
#include "proofline/hash/merkle.hpp"

namespace proofline::gadgets {

// The tree shapes and paths are the hash layer's (proofline/hash/merkle.hpp), named here too.
using hash::AuthPath;
using hash::PathLevel;
using hash::TreeHash;
using hash::TreeShape;

/// `element` inserted at position bits (LSB first) among `elements`; returns elements.size() + 1
/// numbers. Sizes 2, 4 and 8 only.
std::vector<AllocatedNum> insert(ConstraintSystem& cs, const AllocatedNum& element, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements);

/// A node from its children (arity = leaves.size()).
AllocatedNum hash_multi_leaf_circuit(ConstraintSystem& cs, TreeHash hash, std::span<const AllocatedNum> leaves);

/// SHA-256 node of bits (padded per child to a multiple of 8): sha256 in "hash", output reversed per
/// byte, first 254 bits packed ("pack_le").
AllocatedNum sha256_hash_bits_circuit(ConstraintSystem& cs, std::span<const Boolean> bits);

struct AuthPathResult {
  AllocatedNum root;
  std::vector<Boolean> index_bits;
};

/// Walks `path` up from `leaf` (namespaces "base", "sub", "top" inside the caller's).
AuthPathResult synthesize_auth_path(ConstraintSystem& cs, TreeHash hash, const TreeShape& shape, const AuthPath& path,
                                    const AllocatedNum& leaf);

/// The root of a PoR: an existing variable (private root, as PoRep's comm_d) or a value to allocate.
struct PorRoot {
  std::optional<AllocatedNum> var;
  Fr value = Fr::zero();
};

/// storage-proofs-core PoRCircuit::synthesize.
void por_circuit(ConstraintSystem& cs, TreeHash hash, const TreeShape& shape, const AuthPath& path, const Fr& leaf,
                 const PorRoot& root, bool private_root);

/// storage-proofs-core por_no_challenge_input: `path` holds per level (base levels, then one sub,
/// then one top level, as `shape` says) its arity − 1 allocated siblings; `bits` the position bits,
/// exactly as many as the levels consume. Throws SynthesisError(ShapeMismatch) when the path or the
/// bits do not fit the shape.
void por_no_challenge_input(ConstraintSystem& cs, TreeHash hash, const TreeShape& shape, std::span<const Boolean> bits,
                            const AllocatedNum& leaf, const std::vector<std::vector<AllocatedNum>>& path,
                            const AllocatedNum& root);

/// filecoin-hashers hash2_circuit: the node of two children (see the header comment).
AllocatedNum hash2_circuit(ConstraintSystem& cs, TreeHash hash, const AllocatedNum& a, const AllocatedNum& b);

/// from[n] for n = the bits (LSB first); from.size() must be 2^bits.size() (SynthesisError otherwise).
AllocatedNum select(ConstraintSystem& cs, std::span<const AllocatedNum> from, std::span<const Boolean> bits);

}  // namespace proofline::gadgets
