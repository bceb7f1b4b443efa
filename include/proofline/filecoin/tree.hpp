// proofline/filecoin/tree.hpp — native Merkle trees of Filecoin (merkletree / storage-proofs-core):
// tree D (SHA-256, binary, trimmed) and trees R / C (Poseidon, base arity with optional sub and top
// levels), their roots and inclusion paths in the form the PoR circuit takes.
//
// Owns: `Sha256Tree`, `PoseidonTree`, `zero_comm_d` (root of an all-zero sector).
//
// Layout: leaves are level 0; node i of level k+1 = H(children a·i … a·i + a − 1 of level k).
// A compound Poseidon tree of shape base-sub-top over N leaves is sub·top (or sub, or 1) base trees of
// N/(sub·top) leaves each (leaf j lies in base tree j / (N/(sub·top))); the sub level hashes each group
// of `sub` base roots, the top level the `top` sub roots. Path levels come leaf first; each holds the
// siblings in child order (the path's own node removed) and the node's position, so the positions'
// bits, concatenated LSB first, are the leaf index.
// Building is multithreaded (oneTBB) for levels of 2^12 nodes and more.
#pragma once

#include <cstdint>
#include <vector>

#include "proofline/filecoin/hashers.hpp"
#include "proofline/hash/merkle.hpp"

namespace proofline::filecoin {

class Sha256Tree {
 public:
  /// leaves.size() must be a power of `arity` (2, 4 or 8).
  explicit Sha256Tree(std::vector<Sha256Domain> leaves, std::size_t arity = 2);
  const Sha256Domain& root() const { return levels_.back()[0]; }
  std::size_t num_leaves() const { return levels_[0].size(); }
  /// Inclusion path of leaf `index` (siblings as Fr, little-endian bytes).
  hash::AuthPath proof(std::uint64_t index) const;
  const std::vector<std::vector<Sha256Domain>>& levels() const { return levels_; }

 private:
  std::size_t arity_;
  std::vector<std::vector<Sha256Domain>> levels_;
};

class PoseidonTree {
 public:
  /// leaves.size() = sub·top (each factor counted only if nonzero) · base^k.
  PoseidonTree(std::vector<Fr> leaves, hash::TreeShape shape);
  const Fr& root() const { return root_; }
  hash::AuthPath proof(std::uint64_t index) const;
  std::size_t num_base_trees() const { return bases_.size(); }

 private:
  hash::TreeShape shape_;
  std::size_t base_leaves_ = 0;
  std::vector<std::vector<std::vector<Fr>>> bases_;  // per base tree: its levels
  std::vector<Fr> sub_roots_;                        // one per group of `sub` base trees (when sub > 0)
  Fr root_;
};

/// Root of tree D over an all-zero sector of `sector_bytes` (a power of two, ≥ 64): z_0 = 0^32,
/// z_{k+1} = trim(SHA-256(z_k ‖ z_k)).
Sha256Domain zero_comm_d(std::uint64_t sector_bytes);

}  // namespace proofline::filecoin
