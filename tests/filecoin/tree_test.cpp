// filecoin hashers and trees: zero comm_d chain, filecoin-hashers' Poseidon tree vector, hash_md,
// trimmed SHA-256; PoR circuits over native trees (satisfied, root matches, path input = index,
// tampering caught, all modes agree).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "../gadgets/gadget_test_util.hpp"
#include "filecoin_test_util.hpp"
#include "proofline/filecoin/hashers.hpp"
#include "proofline/filecoin/tree.hpp"
#include "proofline/gadgets/merkle.hpp"

namespace {

using namespace proofline::filecoin;
using namespace proofline::gadgets;
using namespace proofline::gadget_test;

using proofline::filecoin_test::hex;
Fr limbs(std::uint64_t l0, std::uint64_t l1, std::uint64_t l2, std::uint64_t l3) {
  return Fr::from_canonical_unchecked(Fr::Limbs{l0, l1, l2, l3});
}

TEST(Hashers, ZeroCommD) {
  const std::pair<std::uint64_t, const char*> v[] = {
      {64, "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b"},
      {128, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333"},
      {256, "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f"},
      {512, "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526"},
      {1024, "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f"},
      {2048, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"},
      {4096, "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624"},
      {8192, "b2e47bfb11facd941f62af5c750f3ea5cc4df517d5c4f16db2b4d77baec1a32f"},
      {std::uint64_t{32} << 30, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"},
  };
  for (const auto& [bytes, h] : v) EXPECT_EQ(hex(zero_comm_d(bytes)), h) << bytes;
  // The tree builder agrees with the chain (2 KiB = 64 zero leaves; 8 KiB multithreaded-size check).
  EXPECT_EQ(hex(Sha256Tree(std::vector<Sha256Domain>(64)).root()), v[5].second);
  EXPECT_EQ(hex(Sha256Tree(std::vector<Sha256Domain>(std::size_t{1} << 14)).root()), hex(zero_comm_d(std::uint64_t{32} << 14)));
}

TEST(Hashers, TrimmedSha) {
  const auto d = sha256_trimmed({});
  EXPECT_EQ(hex(d), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b815");  // 0x55 & 0x3f
  EXPECT_LT(d[31], 0x40);
}

TEST(Hashers, PoseidonBinaryTreeVector) {
  // filecoin-hashers: binary Poseidon tree over leaves [1, 0, 0, 1].
  std::vector<Fr> leaves = {Fr::from_u64(1), Fr::zero(), Fr::zero(), Fr::from_u64(1)};
  const Fr n10[2] = {Fr::from_u64(1), Fr::zero()};
  EXPECT_EQ(poseidon_node(n10), limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
  PoseidonTree t(leaves, TreeShape{2, 0, 0});
  EXPECT_EQ(t.root(), limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
}

TEST(Hashers, HashMd71Ones) {
  std::vector<Fr> ones(71, Fr::one());
  EXPECT_EQ(poseidon_hash_md(ones), limbs(0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7));
}

TEST(Trees, PoseidonPorOverNativeTrees) {
  std::mt19937_64 rng(21);
  const TreeShape shapes[] = {{8, 0, 0}, {8, 8, 0}, {8, 8, 2}, {8, 2, 0}, {4, 0, 0}, {2, 0, 0}};
  for (const TreeShape& s : shapes) {
    const std::size_t groups = (s.sub ? s.sub : 1) * (s.top ? s.top : 1);
    const std::size_t base = s.base == 8 ? 64 : 16;
    std::vector<Fr> leaves(groups * base);
    for (auto& l : leaves) l = Fr::random(rng);
    PoseidonTree tree(leaves, s);
    const std::uint64_t idx = rng() % leaves.size();
    const AuthPath path = tree.proof(idx);
    auto mc = check_modes([&](ConstraintSystem& cs) {
      por_circuit(cs, TreeHash::Poseidon, s, path, leaves[idx], PorRoot{std::nullopt, tree.root()}, false);
    });
    TestConstraintSystem cs;
    por_circuit(cs, TreeHash::Poseidon, s, path, leaves[idx], PorRoot{std::nullopt, tree.root()}, false);
    ASSERT_TRUE(cs.is_satisfied()) << s.base << s.sub << s.top;
    EXPECT_EQ(cs.input_values()[1], Fr::from_u64(idx));  // packed path bits = leaf index
    EXPECT_EQ(cs.input_values()[2], tree.root());
    check_flips(cs, 15, idx);
    // A wrong leaf breaks the root equality.
    TestConstraintSystem bad;
    por_circuit(bad, TreeHash::Poseidon, s, path, leaves[idx] + Fr::one(), PorRoot{std::nullopt, tree.root()}, false);
    EXPECT_EQ(bad.which_is_unsatisfied().value_or(""), "enforce root is correct");
    (void)mc;
  }
}

TEST(Trees, Sha256PorOverNativeTree) {
  std::mt19937_64 rng(22);
  std::vector<Sha256Domain> leaves(4);
  for (auto& l : leaves) {
    for (auto& b : l) b = static_cast<std::uint8_t>(rng());
    trim_to_fr32(l);
  }
  Sha256Tree tree(leaves);
  const std::uint64_t idx = 2;
  const AuthPath path = tree.proof(idx);
  auto mc = check_modes([&](ConstraintSystem& cs) {
    // Private root, as tree D in PoRep: the root is an existing variable.
    AllocatedNum root;
    {
      auto ns = cs.namespace_("comm_d");
      root = AllocatedNum::alloc(cs, domain_to_fr(tree.root()));
    }
    por_circuit(cs, TreeHash::Sha256, TreeShape{2, 0, 0}, path, domain_to_fr(leaves[idx]), PorRoot{root, Fr::zero()},
                true);
  });
  EXPECT_EQ(mc.constraints, 2 * 45382u + 2);
  EXPECT_EQ(mc.inputs, 2u);
}

}  // namespace
