// proofline/hash/merkle.hpp — the shapes of Filecoin's Merkle trees and their inclusion paths, shared
// by the native trees (filecoin/tree.hpp, C1 JSON) and the inclusion circuits (gadgets/merkle.hpp).
//
// Owns: `TreeHash` (a tree's node hash), `TreeShape` (arities of its levels), `PathLevel` and
// `AuthPath` (an inclusion path, leaf to root). Plain data: no checks, no errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "proofline/ff/fr.hpp"

namespace proofline::hash {

using ff::Fr;

enum class TreeHash { Sha256, Poseidon };

/// Arities of a tree's levels: `base` for every base level, then at most one level of `sub` and one
/// of `top` (0 = absent), e.g. 8-0-0, 8-8-0, 8-8-2.
struct TreeShape {
  std::size_t base = 2, sub = 0, top = 0;
};

/// One level of an inclusion path: the arity − 1 siblings in order (the current node removed) and the
/// current node's position among the arity children.
struct PathLevel {
  std::vector<Fr> hashes;
  std::uint64_t index = 0;
};

struct AuthPath {
  std::vector<PathLevel> base;
  std::vector<PathLevel> sub;  // 0 or 1 levels
  std::vector<PathLevel> top;  // 0 or 1 levels
};

}  // namespace proofline::hash
