// proofline/filecoin/sparse_tree.hpp — Merkle trees of which only a few leaves are known, for test
// inputs of any sector size (gen-c1's PoRep trees, gen-vanilla's PoSt tree R).
//
// Owns: `SparseTree`, `random_fr_domain`, `tree_rc_arities`, `tree_rc_proof_kind`, `tree_node`,
// `tree_proof`.
//
// A SparseTree has the level arities of a real tree (leaf level first). Leaves are set by index;
// build() then walks up: every group of children that holds a known node gets its missing children
// as random filler (drawn in index order, so the tree is deterministic in the RNG), and its parent
// hashed from the children (trimmed SHA-256 or Poseidon with the MerkleTree tag, as filecoin/tree.hpp).
// Every proof of a set leaf therefore hashes to the one root, and the root commits to nodes nobody
// will ever ask about. Memory: O(set leaves · levels · arity).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/graph.hpp"
#include "proofline/filecoin/sector.hpp"

namespace proofline::filecoin {

/// 32 random bytes with the top two bits cleared (a value < 2^254 < r).
Domain random_fr_domain(ChaCha8Rng& rng);

/// Level arities of a sector's tree R / tree C: base_tree_levels() × base, then sub, then top.
std::vector<std::size_t> tree_rc_arities(const SectorShape& s);
/// The MerkleProof variant of tree R / tree C paths: Single (x-0-0), Sub (x-y-0) or Top (x-y-z).
MerkleProofKind tree_rc_proof_kind(const SectorShape& s);

/// A tree node from its children: trimmed SHA-256 of their bytes (`sha256`) or Poseidon with the
/// MerkleTree tag of arity children.size() (hashers.hpp).
Domain tree_node(std::span<const Domain> children, bool sha256);

/// The proof of leaf `i` of a tree of `arities` (leaf level first) whose node `index` of `level` is
/// node(level, index) (level 0: the leaves; the root is node(arities.size(), 0)): levels [0,
/// base_levels) in `base`, the next in `sub`, the next in `top`.
MerkleProof tree_proof(std::uint64_t i, MerkleProofKind kind, std::size_t base_levels,
                       std::span<const std::size_t> arities,
                       const std::function<Domain(std::size_t level, std::uint64_t index)>& node);

class SparseTree {
 public:
  /// `arities` leaf level first; `sha256` selects trimmed SHA-256 nodes, else Poseidon.
  SparseTree(std::vector<std::size_t> arities, bool sha256);
  void set_leaf(std::uint64_t i, const Domain& v) { levels_[0][i] = v; }
  /// Fills and hashes the levels above the set leaves (see the header comment). Call once, after
  /// the last set_leaf.
  void build(ChaCha8Rng& rng);
  /// The root (build() first).
  Domain root() const { return levels_.back().begin()->second; }
  /// The proof of set leaf `i`: levels [0, base_levels) in `base`, the next in `sub`, the next in
  /// `top`. Throws std::out_of_range for a leaf that was not set.
  MerkleProof proof(std::uint64_t i, MerkleProofKind kind, std::size_t base_levels) const;

 private:
  std::vector<std::size_t> arities_;
  bool sha256_;
  std::vector<std::map<std::uint64_t, Domain>> levels_;
};

}  // namespace proofline::filecoin
