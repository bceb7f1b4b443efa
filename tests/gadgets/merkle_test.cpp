// Merkle gadgets: insertion networks (all positions), per-level and PoR constraint counts pinned to
// storage-proofs-core's tests (64 leaves per base tree).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gadget_test_util.hpp"
#include "proofline/gadgets/merkle.hpp"

namespace {

using namespace proofline::gadgets;
using namespace proofline::gadget_test;

TEST(Merkle, InsertAllPositions) {
  for (std::size_t size : {2u, 4u, 8u}) {
    const std::size_t nbits = std::countr_zero(size);
    for (std::size_t pos = 0; pos < size; ++pos) {
      auto mc = check_modes([&](ConstraintSystem& cs) {
        AllocatedNum el;
        {
          auto ns = cs.namespace_("element");
          el = AllocatedNum::alloc(cs, Fr::from_u64(1000));
        }
        std::vector<AllocatedNum> others;
        for (std::size_t i = 0; i + 1 < size; ++i) {
          auto ns = cs.namespace_([&] { return "other " + std::to_string(i); });
          others.push_back(AllocatedNum::alloc(cs, Fr::from_u64(i)));
        }
        std::vector<Boolean> bits;
        for (std::size_t i = 0; i < nbits; ++i) {
          auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
          bits.push_back(AllocatedBit::alloc(cs, (pos >> i) & 1));
        }
        auto out = insert(cs, el, bits, others);
        ASSERT_EQ(out.size(), size);
        std::size_t k = 0;
        for (std::size_t j = 0; j < size; ++j) {
          EXPECT_EQ(out[j].value(), j == pos ? Fr::from_u64(1000) : Fr::from_u64(k++)) << size << pos << j;
        }
      });
      const std::size_t picks = size == 2 ? 2 : size == 4 ? 8 : 22;
      EXPECT_EQ(mc.constraints, nbits + picks);
    }
  }
}

AuthPath dummy_path(const TreeShape& s, std::size_t base_levels) {
  AuthPath p;
  for (std::size_t i = 0; i < base_levels; ++i) p.base.push_back(PathLevel{std::vector<Fr>(s.base - 1), 0});
  if (s.sub) p.sub.push_back(PathLevel{std::vector<Fr>(s.sub - 1), 0});
  if (s.top) p.top.push_back(PathLevel{std::vector<Fr>(s.top - 1), 0});
  return p;
}

std::size_t por_count(TreeHash h, TreeShape s, std::size_t base_levels, bool private_root) {
  ShapeCounter sc;
  por_circuit(sc, h, s, dummy_path(s, base_levels), Fr::zero(), PorRoot{}, private_root);
  return sc.num_constraints();
}

TEST(Merkle, PorCountsPoseidon) {
  // storage-proofs-core por tests, 64 leaves per base tree, public root.
  EXPECT_EQ(por_count(TreeHash::Poseidon, {2, 0, 0}, 6, false), 1887u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {4, 0, 0}, 3, false), 1164u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {8, 0, 0}, 2, false), 1063u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {8, 2, 0}, 2, false), 1377u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {8, 4, 2}, 2, false), 1764u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {8, 8, 0}, 2, false), 1593u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {8, 8, 2}, 2, false), 1907u);
  // private root
  EXPECT_EQ(por_count(TreeHash::Poseidon, {2, 0, 0}, 6, true), 1886u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {4, 0, 0}, 3, true), 1163u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {8, 0, 0}, 2, true), 1062u);
}

TEST(Merkle, PorCountsSha256) {
  EXPECT_EQ(por_count(TreeHash::Sha256, {2, 0, 0}, 6, false), 272295u);
  EXPECT_EQ(por_count(TreeHash::Sha256, {4, 0, 0}, 3, false), 216258u);
  EXPECT_EQ(por_count(TreeHash::Sha256, {8, 0, 0}, 2, false), 250987u);
}

TEST(Merkle, LevelCosts) {
  EXPECT_EQ(por_count(TreeHash::Poseidon, {8, 0, 0}, 1, true) - 2, 530u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {4, 0, 0}, 1, true) - 2, 387u);
  EXPECT_EQ(por_count(TreeHash::Poseidon, {2, 0, 0}, 1, true) - 2, 314u);
  EXPECT_EQ(por_count(TreeHash::Sha256, {2, 0, 0}, 1, true) - 2, 45382u);
}

TEST(Merkle, ShaHashLeafBits45387) {
  // storage-proofs-core: 512 pre-allocated bits hashed and packed: 512 + 44,874 + 1.
  ShapeCounter sc;
  std::vector<Boolean> bits;
  for (int i = 0; i < 512; ++i) bits.push_back(AllocatedBit::alloc(sc, false));
  sha256_hash_bits_circuit(sc, bits);
  EXPECT_EQ(sc.num_constraints(), 45387u);
}

}  // namespace
