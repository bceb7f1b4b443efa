// Merkle inclusion circuits: insertion networks, node hashes, auth paths, PoR.
#include "proofline/gadgets/merkle.hpp"

#include <bit>
#include <string>
#include <utility>

#include "proofline/gadgets/poseidon.hpp"
#include "proofline/gadgets/sha256.hpp"
#include "proofline/r1cs/error.hpp"

namespace proofline::gadgets {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

namespace {

AllocatedNum pick_ns(ConstraintSystem& cs, const char* name, const Boolean& cond, const AllocatedNum& a,
                     const AllocatedNum& b) {
  auto ns = cs.namespace_(name);
  return pick(cs, cond, a, b);
}

std::vector<AllocatedNum> insert_2(ConstraintSystem& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
  return {pick_ns(cs, "binary insert 0", bits[0], e[0], a), pick_ns(cs, "binary insert 1", bits[0], a, e[0])};
}

// A into [b, c, d] at position n = b0 + 2·b1.
std::vector<AllocatedNum> insert_4(ConstraintSystem& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
  const Boolean &b0 = bits[0], &b1 = bits[1];
  const AllocatedNum &b = e[0], &c = e[1], &d = e[2];
  auto p0_x0 = pick_ns(cs, "p0_x0", b0, b, a);
  auto p0 = pick_ns(cs, "p0", b1, b, p0_x0);
  auto p1_x0 = pick_ns(cs, "p1_x0", b0, a, b);
  auto p1 = pick_ns(cs, "p1", b1, c, p1_x0);
  auto p2_x1 = pick_ns(cs, "p2_x1", b0, d, a);
  auto p2 = pick_ns(cs, "p2", b1, p2_x1, c);
  auto p3_x1 = pick_ns(cs, "p3_x1", b0, a, d);
  auto p3 = pick_ns(cs, "p3", b1, p3_x1, d);
  return {p0, p1, p2, p3};
}

// A into [b, c, d, e, f, g, h] at position n = b0 + 2·b1 + 4·b2.
std::vector<AllocatedNum> insert_8(ConstraintSystem& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> el) {
  const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  if (b0.kind() != Boolean::Kind::Is || b1.kind() != Boolean::Kind::Is) {
    throw SynthesisError(SynthesisErrorCode::Unsatisfiable, "insert_8: index bits 0 and 1 must be allocated");
  }
  const AllocatedNum &b = el[0], &c = el[1], &d = el[2], &e = el[3], &f = el[4], &g = el[5], &h = el[6];
  Boolean nor01, and01;
  {
    auto ns = cs.namespace_("b0 nor b1");
    nor01 = AllocatedBit::nor(cs, b0.bit(), b1.bit());  // (1 − b0)·(1 − b1)
  }
  {
    auto ns = cs.namespace_("b0 and b1");
    and01 = AllocatedBit::and_(cs, b0.bit(), b1.bit());  // b0·b1
  }
  auto p0_xx0 = pick_ns(cs, "p0_xx0", nor01, a, b);
  auto p0 = pick_ns(cs, "p0", b2, b, p0_xx0);

  auto p1_x00 = pick_ns(cs, "p1_x00", b0, a, b);
  auto p1_xx0 = pick_ns(cs, "p1_xx0", b1, c, p1_x00);
  auto p1 = pick_ns(cs, "p1", b2, c, p1_xx0);

  auto p2_x10 = pick_ns(cs, "p2_x10", b0, d, a);
  auto p2_xx0 = pick_ns(cs, "p2_xx0", b1, p2_x10, c);
  auto p2 = pick_ns(cs, "p2", b2, d, p2_xx0);

  auto p3_xx0 = pick_ns(cs, "p3_xx0", and01, a, d);
  auto p3 = pick_ns(cs, "p3", b2, e, p3_xx0);

  auto p4_xx1 = pick_ns(cs, "p4_xx1", nor01, a, f);
  auto p4 = pick_ns(cs, "p4", b2, p4_xx1, e);

  auto p5_x01 = pick_ns(cs, "p5_x01", b0, a, f);
  auto p5_xx1 = pick_ns(cs, "p5_xx1", b1, g, p5_x01);
  auto p5 = pick_ns(cs, "p5", b2, p5_xx1, f);

  auto p6_x11 = pick_ns(cs, "p6_x11", b0, h, a);
  auto p6_xx1 = pick_ns(cs, "p6_xx1", b1, p6_x11, g);
  auto p6 = pick_ns(cs, "p6", b2, p6_xx1, g);

  auto p7_xx1 = pick_ns(cs, "p7_xx1", and01, a, h);
  auto p7 = pick_ns(cs, "p7", b2, p7_xx1, h);
  return {p0, p1, p2, p3, p4, p5, p6, p7};
}

void check_arity(std::size_t arity) {
  if (arity != 2 && arity != 4 && arity != 8) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "Merkle arity " + std::to_string(arity) + " unsupported");
  }
}

}  // namespace

std::vector<AllocatedNum> insert(ConstraintSystem& cs, const AllocatedNum& element, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements) {
  const std::size_t size = elements.size() + 1;
  check_arity(size);
  if ((std::size_t{1} << bits.size()) != size) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "insert: " + std::to_string(bits.size()) +
                                                                " bits for " + std::to_string(size) + " positions");
  }
  if (size == 2) return insert_2(cs, element, bits, elements);
  if (size == 4) return insert_4(cs, element, bits, elements);
  return insert_8(cs, element, bits, elements);
}

AllocatedNum sha256_hash_bits_circuit(ConstraintSystem& cs, std::span<const Boolean> bits) {
  std::vector<Boolean> be;
  {
    auto ns = cs.namespace_("hash");
    be = sha256(cs, bits);
  }
  std::vector<Boolean> le = reverse_bit_numbering(be);
  le.resize(254);  // Fr::CAPACITY
  auto ns = cs.namespace_("pack_le");
  return pack_bits(cs, le);
}

AllocatedNum hash_multi_leaf_circuit(ConstraintSystem& cs, TreeHash hash, std::span<const AllocatedNum> leaves) {
  if (hash == TreeHash::Poseidon) return poseidon_hash(cs, leaves, PoseidonConstants::merkle(leaves.size()));
  std::vector<Boolean> bits;
  bits.reserve(256 * leaves.size());
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    std::vector<Boolean> padded;
    {
      auto ns = cs.namespace_([&] { return std::to_string(i) + "_num_into_bits"; });
      padded = leaves[i].to_bits_le(cs);
    }
    while (padded.size() % 8 != 0) padded.push_back(Boolean::constant(false));
    const auto rev = reverse_bit_numbering(padded);
    bits.insert(bits.end(), rev.begin(), rev.end());
  }
  return sha256_hash_bits_circuit(cs, bits);
}

namespace {

AllocatedNum synthesize_sub_path(ConstraintSystem& cs, TreeHash hash, std::size_t arity,
                                 std::span<const PathLevel> levels, AllocatedNum cur, std::vector<Boolean>& bits_out) {
  if (arity == 0) return cur;
  check_arity(arity);
  const std::size_t nbits = static_cast<std::size_t>(std::countr_zero(arity));
  for (std::size_t lvl = 0; lvl < levels.size(); ++lvl) {
    const PathLevel& pe = levels[lvl];
    if (pe.hashes.size() != arity - 1) {
      throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "Merkle path level with " +
                                                                  std::to_string(pe.hashes.size()) + " siblings for arity " +
                                                                  std::to_string(arity));
    }
    auto ns = cs.namespace_([&] { return "merkle tree hash " + std::to_string(lvl); });
    Boolean index_bits[3];
    for (std::size_t i = 0; i < nbits; ++i) {
      auto nb = cs.namespace_([&] { return "index bit " + std::to_string(i); });
      index_bits[i] = AllocatedBit::alloc(cs, (pe.index >> i) & 1);
      bits_out.push_back(index_bits[i]);
    }
    std::vector<AllocatedNum> siblings;
    siblings.reserve(arity - 1);
    for (std::size_t i = 0; i < arity - 1; ++i) {
      auto np = cs.namespace_([&] { return "path element " + std::to_string(i); });
      siblings.push_back(AllocatedNum::alloc(cs, pe.hashes[i]));
    }
    const auto inserted = insert(cs, cur, std::span<const Boolean>(index_bits, nbits), siblings);
    auto nh = cs.namespace_("computation of commitment hash");
    cur = hash_multi_leaf_circuit(cs, hash, inserted);
  }
  return cur;
}

}  // namespace

AuthPathResult synthesize_auth_path(ConstraintSystem& cs, TreeHash hash, const TreeShape& shape, const AuthPath& path,
                                    const AllocatedNum& leaf) {
  AuthPathResult r;
  AllocatedNum cur = leaf;
  {
    auto ns = cs.namespace_("base");
    cur = synthesize_sub_path(cs, hash, shape.base, path.base, cur, r.index_bits);
  }
  if (!path.sub.empty()) {
    auto ns = cs.namespace_("sub");
    cur = synthesize_sub_path(cs, hash, shape.sub, path.sub, cur, r.index_bits);
  }
  if (!path.top.empty()) {
    auto ns = cs.namespace_("top");
    cur = synthesize_sub_path(cs, hash, shape.top, path.top, cur, r.index_bits);
  }
  r.root = cur;
  return r;
}

void por_circuit(ConstraintSystem& cs, TreeHash hash, const TreeShape& shape, const AuthPath& path, const Fr& leaf,
                 const PorRoot& root, bool private_root) {
  AllocatedNum value;
  {
    auto ns = cs.namespace_("value");
    value = AllocatedNum::alloc(cs, leaf);
  }
  AuthPathResult r;
  {
    auto ns = cs.namespace_("auth_path");
    r = synthesize_auth_path(cs, hash, shape, path, value);
  }
  {
    auto ns = cs.namespace_("path");
    pack_into_inputs(cs, r.index_bits);
  }
  AllocatedNum rt;
  if (root.var) {
    rt = *root.var;
  } else {
    auto ns = cs.namespace_("root_value");
    rt = AllocatedNum::alloc(cs, root.value);
  }
  enforce_equal(cs, "enforce root is correct", r.root, rt);
  if (!private_root) {
    auto ns = cs.namespace_("root");
    rt.inputize(cs);
  }
}

void por_no_challenge_input(ConstraintSystem& cs, TreeHash hash, const TreeShape& shape, std::span<const Boolean> bits,
                            const AllocatedNum& leaf, const std::vector<std::vector<AllocatedNum>>& path,
                            const AllocatedNum& root) {
  const std::size_t upper = (shape.sub ? 1 : 0) + (shape.top ? 1 : 0);
  if (path.size() < upper) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "por_no_challenge_input: " + std::to_string(path.size()) +
                                                                " path levels for a tree with sub/top levels");
  }
  const std::size_t base_levels = path.size() - upper;
  AllocatedNum cur = leaf;
  std::size_t used = 0;
  for (std::size_t height = 0; height < path.size(); ++height) {
    const std::size_t arity = height < base_levels ? shape.base : height == base_levels && shape.sub ? shape.sub : shape.top;
    check_arity(arity);
    const std::size_t nbits = static_cast<std::size_t>(std::countr_zero(arity));
    if (path[height].size() != arity - 1 || used + nbits > bits.size()) {
      throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                           "por_no_challenge_input: level " + std::to_string(height) + " has " +
                               std::to_string(path[height].size()) + " siblings for arity " + std::to_string(arity) +
                               " and " + std::to_string(bits.size() - used) + " position bits left");
    }
    std::vector<AllocatedNum> inserted;
    {
      auto ns = cs.namespace_([&] { return "merkle proof insert (height=" + std::to_string(height) + ")"; });
      inserted = insert(cs, cur, bits.subspan(used, nbits), path[height]);
    }
    used += nbits;
    auto ns = cs.namespace_([&] { return "merkle proof hash (height=" + std::to_string(height) + ")"; });
    cur = hash_multi_leaf_circuit(cs, hash, inserted);
  }
  if (used != bits.size()) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "por_no_challenge_input: " + std::to_string(bits.size()) +
                                                                " position bits for " + std::to_string(used));
  }
  enforce_equal(cs, "calculated root == provided root", cur, root);
}

AllocatedNum hash2_circuit(ConstraintSystem& cs, TreeHash hash, const AllocatedNum& a, const AllocatedNum& b) {
  if (hash == TreeHash::Poseidon) {
    const AllocatedNum pre[2] = {a, b};
    return poseidon_hash(cs, pre, PoseidonConstants::merkle(2));
  }
  std::vector<Boolean> bits;
  bits.reserve(512);
  for (const auto& [num, name] : {std::pair{&a, "a_bits"}, std::pair{&b, "b_bits"}}) {
    std::vector<Boolean> padded;
    {
      auto ns = cs.namespace_(name);
      padded = num->to_bits_le(cs);
    }
    while (padded.size() % 8 != 0) padded.push_back(Boolean::constant(false));
    const auto rev = reverse_bit_numbering(padded);
    bits.insert(bits.end(), rev.begin(), rev.end());
  }
  return sha256_hash_bits_circuit(cs, bits);
}

AllocatedNum select(ConstraintSystem& cs, std::span<const AllocatedNum> from, std::span<const Boolean> bits) {
  if (bits.size() >= 64 || (std::size_t{1} << bits.size()) != from.size()) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "select: " + std::to_string(from.size()) + " numbers for " +
                                                                std::to_string(bits.size()) + " bits");
  }
  std::vector<AllocatedNum> state(from.begin(), from.end());
  // Most significant bit first: each bit keeps the upper or the lower half.
  for (std::size_t i = 0; i < bits.size(); ++i) {
    const Boolean& bit = bits[bits.size() - 1 - i];
    const std::size_t half = state.size() / 2;
    std::vector<AllocatedNum> next;
    next.reserve(half);
    for (std::size_t j = 0; j < half; ++j) {
      auto ns = cs.namespace_([&] { return "pick " + std::to_string(i) + ", " + std::to_string(j); });
      next.push_back(pick(cs, bit, state[half + j], state[j]));
    }
    state = std::move(next);
  }
  return state[0];
}

}  // namespace proofline::gadgets
