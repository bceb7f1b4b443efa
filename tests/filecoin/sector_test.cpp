// Registered seal proofs, sector shapes, porep_id, parameter file names (reference §1.6, §3.2, §5).
#include <gtest/gtest.h>

#include "proofline/filecoin/sector.hpp"
#include "proofline/util/error.hpp"

namespace {

using namespace proofline;
using namespace proofline::filecoin;

TEST(Sector, RegisteredProofNumbersAndNames) {
  // Upstream enum order (rust-filecoin-proofs-api registry.rs; Curio's table 10..19).
  EXPECT_EQ(static_cast<std::uint64_t>(RegisteredSealProof::StackedDrg2KiBV1), 0u);
  EXPECT_EQ(static_cast<std::uint64_t>(RegisteredSealProof::StackedDrg32GiBV1_1), 8u);
  EXPECT_EQ(static_cast<std::uint64_t>(RegisteredSealProof::StackedDrg32GiBV1_1_Feat_SyntheticPoRep), 13u);
  EXPECT_EQ(static_cast<std::uint64_t>(RegisteredSealProof::StackedDrg64GiBV1_2_Feat_NonInteractivePoRep), 19u);
  for (auto p : all_registered_seal_proofs()) {
    EXPECT_EQ(registered_seal_proof_from_string(to_string(p)), p) << to_string(p);
  }
  EXPECT_EQ(all_registered_seal_proofs().size(), 25u);
  EXPECT_THROW(registered_seal_proof_from_string("StackedDrg2KiBV2"), ProoflineError);
  EXPECT_EQ(api_version(RegisteredSealProof::StackedDrg8MiBV1), ApiVersion::V1_0_0);
  EXPECT_EQ(api_version(RegisteredSealProof::StackedDrg8MiBV1_1_Feat_SyntheticPoRep), ApiVersion::V1_1_0);
  EXPECT_EQ(porep_mode(RegisteredSealProof::StackedDrg8MiBV1_1_Feat_SyntheticPoRep), PorepMode::Synthetic);
  EXPECT_EQ(api_version(RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep), ApiVersion::V1_2_0);
  EXPECT_EQ(sector_size(RegisteredSealProof::StackedDrg64GiBV1_1), std::uint64_t{64} << 30);
}

TEST(Sector, PorepId) {
  const PorepId id = porep_id(RegisteredSealProof::StackedDrg32GiBV1_1);
  PorepId expected{};
  expected[0] = 8;
  EXPECT_EQ(id, expected);
  EXPECT_EQ(porep_id(RegisteredSealProof::StackedDrg64GiBV1_2_Feat_NonInteractivePoRep)[0], 19);
  EXPECT_EQ(porep_id(RegisteredSealProof::StackedDrg2KiBV1)[0], 0);
}

TEST(Sector, Shapes) {
  const SectorShape& s2k = sector_shape(2048);
  EXPECT_EQ(s2k.nodes, 64u);
  EXPECT_EQ(s2k.layers, 2u);
  EXPECT_EQ(s2k.tree_d_levels, 6u);
  EXPECT_EQ(s2k.base_tree_levels(), 2u);
  EXPECT_EQ(s2k.partitions, 1u);
  EXPECT_EQ(s2k.challenges_per_partition, 2u);
  const SectorShape& s32 = sector_shape(std::uint64_t{32} << 30);
  EXPECT_EQ(s32.layers, 11u);
  EXPECT_EQ(s32.partitions, 10u);
  EXPECT_EQ(s32.challenges_per_partition, 18u);  // ceil(176 / 10)
  EXPECT_EQ(s32.tree_rc.sub, 8u);
  EXPECT_EQ(s32.base_tree_leaves(), std::uint64_t{1} << 27);
  EXPECT_EQ(s32.base_tree_levels(), 9u);
  EXPECT_EQ(s32.tree_d_levels, 30u);
  const SectorShape& s64 = sector_shape(std::uint64_t{64} << 30);
  EXPECT_EQ(s64.tree_rc.top, 2u);
  EXPECT_EQ(s64.base_tree_levels(), 9u);
  EXPECT_EQ(sector_shape(4096).tree_rc.sub, 2u);
  EXPECT_EQ(sector_shape(32768).tree_rc.top, 2u);
  EXPECT_EQ(all_sector_shapes().size(), 10u);
  for (const auto& s : all_sector_shapes()) {
    // every base tree is a full power of its arity
    std::uint64_t n = 1;
    for (std::size_t i = 0; i < s.base_tree_levels(); ++i) n *= s.tree_rc.base;
    EXPECT_EQ(n, s.base_tree_leaves()) << s.name;
  }
  const PorepConfig ni = porep_config(RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep);
  EXPECT_EQ(ni.partitions, 126u);
  EXPECT_EQ(ni.total_challenges(), 2268u);
  EXPECT_EQ(porep_config(RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep).partitions, 13u);
}

TEST(Sector, ParseSectorSize) {
  EXPECT_EQ(parse_sector_size("2KiB"), 2048u);
  EXPECT_EQ(parse_sector_size("2 KiB"), 2048u);
  EXPECT_EQ(parse_sector_size("8mib"), 8u << 20);
  EXPECT_EQ(parse_sector_size("32GiB"), std::uint64_t{32} << 30);
  EXPECT_EQ(parse_sector_size("34359738368"), std::uint64_t{32} << 30);
  EXPECT_EQ(parse_sector_size("64G"), std::uint64_t{64} << 30);
  EXPECT_THROW(parse_sector_size("3KiB"), ProoflineError);
  EXPECT_THROW(parse_sector_size("KiB"), ProoflineError);
  EXPECT_THROW(parse_sector_size("2XB"), ProoflineError);
}

// The published v28 parameter file names (reference §1.6): the identifier hashed into them must be
// byte-exact, for every variant of a size.
TEST(Sector, ParameterFileNames) {
  const std::pair<RegisteredSealProof, const char*> v[] = {
      {RegisteredSealProof::StackedDrg2KiBV1_1,
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
       "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params"},
      {RegisteredSealProof::StackedDrg8MiBV1,
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
       "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.params"},
      {RegisteredSealProof::StackedDrg512MiBV1_1_Feat_SyntheticPoRep,
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
       "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.params"},
      {RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep,
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
       "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"},
      {RegisteredSealProof::StackedDrg64GiBV1_1,
       "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
       "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params"},
  };
  for (const auto& [p, name] : v) EXPECT_EQ(parameter_file_name(porep_config(p), ".params"), name);
  EXPECT_EQ(parameter_file_name(porep_config(RegisteredSealProof::StackedDrg32GiBV1_1), "vk"),
            "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
            "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk");
}

}  // namespace
