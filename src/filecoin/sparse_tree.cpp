// Sparse Merkle trees for generated test inputs: see sparse_tree.hpp.
#include "proofline/filecoin/sparse_tree.hpp"

#include <tbb/parallel_for.h>

#include <set>

#include "proofline/filecoin/hashers.hpp"

namespace proofline::filecoin {

Domain random_fr_domain(ChaCha8Rng& rng) {
  Domain d;
  rng.fill_bytes(d);
  trim_to_fr32(d);
  return d;
}

std::vector<std::size_t> tree_rc_arities(const SectorShape& s) {
  std::vector<std::size_t> a(s.base_tree_levels(), s.tree_rc.base);
  if (s.tree_rc.sub) a.push_back(s.tree_rc.sub);
  if (s.tree_rc.top) a.push_back(s.tree_rc.top);
  return a;
}

MerkleProofKind tree_rc_proof_kind(const SectorShape& s) {
  return s.tree_rc.top ? MerkleProofKind::Top : s.tree_rc.sub ? MerkleProofKind::Sub : MerkleProofKind::Single;
}

Domain tree_node(std::span<const Domain> children, bool sha256) {
  if (sha256) return sha256_node(children);
  std::vector<Fr> f;
  f.reserve(children.size());
  for (const Domain& d : children) f.push_back(domain_fr(d));
  return fr_domain(poseidon_node(f));
}

SparseTree::SparseTree(std::vector<std::size_t> arities, bool sha256) : arities_(std::move(arities)), sha256_(sha256) {
  levels_.resize(arities_.size() + 1);
}

void SparseTree::build(ChaCha8Rng& rng) {
  for (std::size_t k = 0; k < arities_.size(); ++k) {
    const std::size_t a = arities_[k];
    std::set<std::uint64_t> groups;
    for (const auto& [i, v] : levels_[k]) groups.insert(i / a);
    // Fillers first (sequential: deterministic draw order), then the group hashes in parallel.
    const std::vector<std::uint64_t> gs(groups.begin(), groups.end());
    std::vector<std::vector<Domain>> children(gs.size(), std::vector<Domain>(a));
    for (std::size_t n = 0; n < gs.size(); ++n) {
      for (std::size_t j = 0; j < a; ++j) {
        auto [it, inserted] = levels_[k].try_emplace(gs[n] * a + j);
        if (inserted) it->second = random_fr_domain(rng);
        children[n][j] = it->second;
      }
    }
    std::vector<Domain> parents(gs.size());
    tbb::parallel_for(std::size_t{0}, gs.size(), [&](std::size_t n) { parents[n] = tree_node(children[n], sha256_); });
    for (std::size_t n = 0; n < gs.size(); ++n) levels_[k + 1][gs[n]] = parents[n];
  }
}

MerkleProof tree_proof(std::uint64_t i, MerkleProofKind kind, std::size_t base_levels,
                       std::span<const std::size_t> arities,
                       const std::function<Domain(std::size_t level, std::uint64_t index)>& node) {
  MerkleProof m;
  m.kind = kind;
  m.root = node(arities.size(), 0);
  m.leaf = node(0, i);
  std::uint64_t idx = i;
  for (std::size_t k = 0; k < arities.size(); ++k) {
    const std::size_t a = arities[k];
    PathElement e;
    e.index = idx % a;
    for (std::size_t j = 0; j < a; ++j) {
      if (j != e.index) e.hashes.push_back(node(k, idx - e.index + j));
    }
    (k < base_levels ? m.base : k == base_levels ? m.sub : m.top).push_back(std::move(e));
    idx /= a;
  }
  return m;
}

MerkleProof SparseTree::proof(std::uint64_t i, MerkleProofKind kind, std::size_t base_levels) const {
  return tree_proof(i, kind, base_levels, arities_,
                    [&](std::size_t level, std::uint64_t index) { return levels_[level].at(index); });
}

}  // namespace proofline::filecoin
