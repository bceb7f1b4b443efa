// Native Merkle trees: SHA-256 tree D, Poseidon trees R / C (compound shapes), zero comm_d.
#include "proofline/filecoin/tree.hpp"

#include <tbb/parallel_for.h>

#include <bit>
#include <stdexcept>
#include <string>

namespace proofline::filecoin {

namespace {

constexpr std::size_t kParallelThreshold = std::size_t{1} << 12;

bool is_power_of(std::size_t n, std::size_t a) {
  if (n == 0) return false;
  while (n % a == 0) n /= a;
  return n == 1;
}

// Builds every level above `leaves` with `hash(span of arity children)`.
template <class Node, class Hash>
std::vector<std::vector<Node>> build_levels(std::vector<Node> leaves, std::size_t arity, Hash hash) {
  std::vector<std::vector<Node>> levels;
  levels.push_back(std::move(leaves));
  while (levels.back().size() > 1) {
    const std::vector<Node>& cur = levels.back();
    std::vector<Node> next(cur.size() / arity);
    auto body = [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) next[i] = hash(std::span<const Node>(cur).subspan(i * arity, arity));
    };
    if (next.size() >= kParallelThreshold) {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, next.size(), 256),
                        [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); });
    } else {
      body(0, next.size());
    }
    levels.push_back(std::move(next));
  }
  return levels;
}

template <class Node, class ToFr>
void append_path(std::vector<hash::PathLevel>& out, const std::vector<std::vector<Node>>& levels, std::size_t arity,
                 std::uint64_t index, ToFr to_fr) {
  for (std::size_t k = 0; k + 1 < levels.size(); ++k) {
    hash::PathLevel pl;
    pl.index = index % arity;
    const std::uint64_t first = index - pl.index;
    for (std::size_t j = 0; j < arity; ++j) {
      if (j != pl.index) pl.hashes.push_back(to_fr(levels[k][first + j]));
    }
    out.push_back(std::move(pl));
    index /= arity;
  }
}

hash::PathLevel group_level(std::span<const Fr> group, std::size_t pos) {
  hash::PathLevel pl;
  pl.index = pos;
  for (std::size_t j = 0; j < group.size(); ++j) {
    if (j != pos) pl.hashes.push_back(group[j]);
  }
  return pl;
}

}  // namespace

Sha256Tree::Sha256Tree(std::vector<Sha256Domain> leaves, std::size_t arity) : arity_(arity) {
  if ((arity != 2 && arity != 4 && arity != 8) || !is_power_of(leaves.size(), arity)) {
    throw std::invalid_argument("Sha256Tree: " + std::to_string(leaves.size()) + " leaves, arity " +
                                std::to_string(arity));
  }
  levels_ = build_levels(std::move(leaves), arity,
                         [](std::span<const Sha256Domain> ch) { return sha256_node(ch); });
}

hash::AuthPath Sha256Tree::proof(std::uint64_t index) const {
  hash::AuthPath p;
  append_path(p.base, levels_, arity_, index, [](const Sha256Domain& d) { return domain_to_fr(d); });
  return p;
}

PoseidonTree::PoseidonTree(std::vector<Fr> leaves, hash::TreeShape shape) : shape_(shape) {
  const std::size_t groups = (shape.sub ? shape.sub : 1) * (shape.top ? shape.top : 1);
  if (leaves.empty() || leaves.size() % groups != 0 || !is_power_of(leaves.size() / groups, shape.base) ||
      (shape.top && !shape.sub)) {
    throw std::invalid_argument("PoseidonTree: " + std::to_string(leaves.size()) + " leaves for shape " +
                                std::to_string(shape.base) + "-" + std::to_string(shape.sub) + "-" +
                                std::to_string(shape.top));
  }
  base_leaves_ = leaves.size() / groups;
  auto hash = [](std::span<const Fr> ch) { return poseidon_node(ch); };
  std::vector<Fr> base_roots;
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<Fr> part(leaves.begin() + static_cast<std::ptrdiff_t>(g * base_leaves_),
                         leaves.begin() + static_cast<std::ptrdiff_t>((g + 1) * base_leaves_));
    bases_.push_back(build_levels(std::move(part), shape.base, hash));
    base_roots.push_back(bases_.back().back()[0]);
  }
  if (!shape.sub) {
    root_ = base_roots[0];
    return;
  }
  for (std::size_t i = 0; i < base_roots.size(); i += shape.sub) {
    sub_roots_.push_back(poseidon_node(std::span<const Fr>(base_roots).subspan(i, shape.sub)));
  }
  root_ = shape.top ? poseidon_node(sub_roots_) : sub_roots_[0];
}

hash::AuthPath PoseidonTree::proof(std::uint64_t index) const {
  hash::AuthPath p;
  const std::size_t tree = index / base_leaves_;
  append_path(p.base, bases_[tree], shape_.base, index % base_leaves_, [](const Fr& f) { return f; });
  if (shape_.sub) {
    const std::size_t group = tree / shape_.sub;
    std::vector<Fr> roots;
    for (std::size_t j = 0; j < shape_.sub; ++j) roots.push_back(bases_[group * shape_.sub + j].back()[0]);
    p.sub.push_back(group_level(roots, tree % shape_.sub));
    if (shape_.top) p.top.push_back(group_level(sub_roots_, group));
  }
  return p;
}

Sha256Domain zero_comm_d(std::uint64_t sector_bytes) {
  Sha256Domain z{};
  for (std::uint64_t n = sector_bytes / 32; n > 1; n /= 2) {
    const Sha256Domain ch[2] = {z, z};
    z = sha256_node(ch);
  }
  return z;
}

}  // namespace proofline::filecoin
