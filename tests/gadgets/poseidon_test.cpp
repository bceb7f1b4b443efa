// Poseidon: Grain constants (neptune's t = 9 file), neptune's hash vectors, optimized = plain, the
// circuit's constraint counts (311 / 377 / 505 / 598 ...), circuit = native, modes, tampering.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gadget_test_util.hpp"
#include "proofline/gadgets/poseidon.hpp"

namespace {

using namespace proofline::gadgets;
using namespace proofline::gadget_test;

Fr limbs(std::uint64_t l0, std::uint64_t l1, std::uint64_t l2, std::uint64_t l3) {
  return Fr::from_canonical_unchecked(Fr::Limbs{l0, l1, l2, l3});
}
Fr hex_fr(const std::string& h) {  // 64 hex digits, big-endian
  Fr::Limbs l{};
  for (int i = 0; i < 4; ++i) l[3 - i] = std::stoull(h.substr(16 * i, 16), nullptr, 16);
  return Fr::from_canonical_unchecked(l);
}
std::vector<Fr> iota(std::size_t n) {
  std::vector<Fr> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(Fr::from_u64(i));
  return v;
}

TEST(Poseidon, GrainConstantsT9) {
  const auto rc = grain_round_constants(9, 8, 57);
  ASSERT_EQ(rc.size(), 585u);
  EXPECT_EQ(rc[0], hex_fr("6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"));
  EXPECT_EQ(rc[1], hex_fr("0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39"));
  EXPECT_EQ(rc[584], hex_fr("3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c"));
}

TEST(Poseidon, RoundNumbers) {
  EXPECT_EQ(poseidon_partial_rounds(3), 55u);
  EXPECT_EQ(poseidon_partial_rounds(5), 56u);
  EXPECT_EQ(poseidon_partial_rounds(9), 57u);
  EXPECT_EQ(poseidon_partial_rounds(12), 57u);
  EXPECT_EQ(poseidon_partial_rounds(17), 59u);
  EXPECT_EQ(poseidon_partial_rounds(25), 59u);
  EXPECT_EQ(poseidon_partial_rounds(37), 60u);
}

TEST(Poseidon, NeptuneMerkleTreeVectors) {
  const std::pair<std::size_t, Fr> vectors[] = {
      {2, limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b)},
      {4, limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a)},
      {8, limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55)},
      {11, limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28)},
      {16, limbs(0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a)},
      {24, limbs(0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15)},
      {36, limbs(0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f)},
  };
  for (const auto& [arity, expect] : vectors) {
    const auto& c = PoseidonConstants::merkle(arity);
    const auto pre = iota(arity);
    EXPECT_EQ(poseidon_hash_correct(c, pre), expect) << arity;
    EXPECT_EQ(poseidon_hash_native(c, pre), expect) << arity;
  }
}

TEST(Poseidon, ConstantLengthAndCustomVectors) {
  const Fr tag4 = Fr::from_u64(4) * pow2(64);
  const std::pair<std::size_t, Fr> vectors[] = {
      {4, limbs(0x8935b00a07909d45, 0x4984de08542c9977, 0x39443980077d7593, 0x3a21a6ae86754a29)},
      {8, limbs(0x370a94532f818897, 0x203e3c7c4a85c1f9, 0xcad8b9f8aeb1578f, 0x5c6de4b69de9d792)},
      {11, limbs(0xe9b0cb7d6496f73b, 0x7d2807d793af9582, 0xef841b6bf51a5a39, 0x02550c3a2113c7ca)},
  };
  for (const auto& [arity, expect] : vectors) {
    const auto c = PoseidonConstants::make(arity, tag4);
    EXPECT_EQ(poseidon_hash_correct(c, iota(4)), expect) << arity;
    EXPECT_EQ(poseidon_hash_native(c, iota(4)), expect) << arity;
  }
  // Custom(1) (tag 2^40), arity 2, of [0, 1] (the reference's own computation).
  const auto& cu = PoseidonConstants::custom(2, 1);
  const Fr expect = limbs(0xe5a74ec4bc077758, 0xe3580bea397367c7, 0xad1fc58134a0fe25, 0x314a35c4e7f0924e);
  EXPECT_EQ(poseidon_hash_correct(cu, iota(2)), expect);
  EXPECT_EQ(poseidon_hash_native(cu, iota(2)), expect);
}

TEST(Poseidon, OptimizedEqualsPlainRandom) {
  std::mt19937_64 rng(3);
  for (std::size_t arity : {2, 4, 8, 11}) {
    const auto& c = PoseidonConstants::merkle(arity);
    for (int k = 0; k < 5; ++k) {
      std::vector<Fr> pre(arity);
      for (auto& x : pre) x = Fr::random(rng);
      EXPECT_EQ(poseidon_hash_native(c, pre), poseidon_hash_correct(c, pre));
    }
  }
}

TEST(Poseidon, CircuitCountsAndValues) {
  const std::pair<std::size_t, std::size_t> counts[] = {{2, 311}, {4, 377}, {8, 505}, {11, 598},
                                                        {16, 761}, {24, 1009}, {36, 1385}};
  std::mt19937_64 rng(5);
  for (const auto& [arity_, expect] : counts) {
    const std::size_t arity = arity_;  // a plain local: clang 14 cannot capture structured bindings
    const auto& c = PoseidonConstants::merkle(arity);
    std::vector<Fr> pre(arity);
    for (auto& x : pre) x = Fr::random(rng);
    const Fr native = poseidon_hash_native(c, pre);
    auto mc = check_modes([&](ConstraintSystem& cs) {
      std::vector<AllocatedNum> nums;
      for (std::size_t i = 0; i < arity; ++i) {
        auto ns = cs.namespace_([&] { return "data " + std::to_string(i); });
        nums.push_back(AllocatedNum::alloc(cs, pre[i]));
      }
      auto out = poseidon_hash(cs, nums, c);
      if (cs.computes_values()) EXPECT_EQ(out.value(), native);
    });
    EXPECT_EQ(mc.constraints, expect) << arity;
    EXPECT_EQ(mc.aux, expect + arity) << arity;  // one aux per constraint
    EXPECT_EQ(expect, 3 * arity + 28 * (arity + 1) + 4 * c.partial_rounds + 1);
  }
}

TEST(Poseidon, CircuitTampering) {
  std::mt19937_64 rng(9);
  const auto& c = PoseidonConstants::merkle(8);
  TestConstraintSystem cs;
  std::vector<AllocatedNum> nums;
  for (std::size_t i = 0; i < 8; ++i) {
    auto ns = cs.namespace_([&] { return "data " + std::to_string(i); });
    nums.push_back(AllocatedNum::alloc(cs, Fr::random(rng)));
  }
  poseidon_hash(cs, nums, c);
  check_flips(cs, 40, 17, 8);
  EXPECT_EQ(cs.aux_path(8), "first round/quintic s-box 1/(l+rk)^2/squared sum/num");
}

}  // namespace
