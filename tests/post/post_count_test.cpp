// Fallback PoSt circuit shape: constraint and public-input counts against the values upstream
// publishes (storage-proofs-post tests/fallback_circuit.rs; v28 circuitinfo, rust-fil-proofs PR
// #1325; filecoin-proofs constants.rs comments) and, where upstream publishes none, against the
// count formula of reference §3.4 (derived values, marked so below).
#include <gtest/gtest.h>

#include "proofline/circuits/post.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/groth16/param_cache.hpp"

namespace proofline::circuits::post {
namespace {

using filecoin::ApiVersion;
using filecoin::PoStType;

constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

// Reference §3.4: a circuit sector costs 313 constraints (comm_r: Poseidon2 311 + equality 1 +
// inputize 1) plus, per challenge, Σ tree R level costs (530 / 387 / 314 per arity 8 / 4 / 2 level) +
// 2 (path packing, root equality).
std::size_t formula(const FallbackPoStShape& s) {
  auto level = [](std::size_t a) -> std::size_t { return a == 8 ? 530 : a == 4 ? 387 : a == 2 ? 314 : 0; };
  const std::size_t inclusion = s.base_levels() * level(s.tree.base) + level(s.tree.sub) + level(s.tree.top) + 2;
  return s.sectors * (313 + s.challenges * inclusion);
}

FallbackPoStShape production(PoStType t, std::uint64_t bytes) {
  return shape_for(filecoin::fallback_params(filecoin::post_config(t, bytes, ApiVersion::V1_2_0)));
}

// storage-proofs-post tests/fallback_circuit.rs: trees of 64 leaves per base tree, 5 challenges per
// sector; (sectors, expected inputs incl. ONE, expected constraints) asserted there.
TEST(PoStCount, UpstreamFallbackCircuitTests) {
  struct Case {
    std::uint64_t nodes;
    gadgets::TreeShape tree;
    std::size_t sectors, inputs, constraints;
  };
  const Case cases[] = {
      {64, {8, 0, 0}, 3, 19, 16'869},   // single_partition_base_8 (and smaller_base_8)
      {256, {8, 4, 0}, 3, 19, 22'674},  // single_partition_sub_8_4
      {512, {8, 4, 2}, 3, 19, 27'384},  // single_partition_top_8_4_2
      {64, {8, 0, 0}, 2, 13, 11'246},   // two_partitions_base_8
  };
  for (const Case& c : cases) {
    const FallbackPoStShape s{c.nodes, c.tree, c.sectors, 5};
    const PoStCounts n = count_post(s);
    EXPECT_EQ(n.constraints, c.constraints) << s.describe();
    EXPECT_EQ(n.inputs, c.inputs) << s.describe();
    EXPECT_EQ(formula(s), c.constraints) << s.describe();
  }
  // test_fallback_post_circuit_poseidon_base_8_bench_cs: 32 GiB, 10 challenges, 5 sectors.
  const FallbackPoStShape bench{32 * GiB / 32, {8, 8, 0}, 5, 10};
  EXPECT_EQ(count_post(bench).constraints, 266'665u);
}

// v28 circuitinfo (PR #1325) and constants.rs: the production partitions.
TEST(PoStCount, UpstreamProductionCircuits) {
  const PoStCounts window32 = count_post(production(PoStType::Window, 32 * GiB));
  EXPECT_EQ(window32.constraints, 125'279'217u);
  EXPECT_EQ(window32.inputs, 25'840u);
  EXPECT_EQ(count_post(production(PoStType::Window, 64 * GiB)).constraints, 129'887'900u);
  const PoStCounts winning32 = count_post(production(PoStType::Winning, 32 * GiB));
  EXPECT_EQ(winning32.constraints, 370'590u);
  EXPECT_EQ(winning32.inputs, 133u);
  EXPECT_EQ(winning32.sector_header, 313u);
  EXPECT_EQ(winning32.challenge_constraints, 9u * 530 + 530 + 2);
}

// Derived (no upstream number): the formula above, pinned so that a change shows. Inputs = 1 +
// sectors · (1 + challenges).
TEST(PoStCount, DerivedSizes) {
  struct Case {
    PoStType type;
    std::uint64_t bytes;
    std::size_t constraints, inputs;
  };
  const Case cases[] = {
      {PoStType::Window, 2 * KiB, 21'866, 23},        // 2 × (313 + 10 × 1,062)
      {PoStType::Winning, 2 * KiB, 90'750, 133},      // 66 × (313 + 1,062)
      {PoStType::Window, 64 * GiB, 129'887'900, 25'301},
      {PoStType::Winning, 64 * GiB, 391'314, 133},    // 66 × (313 + 5,616)
      {PoStType::Window, 8 * MiB, 2 * (313 + 10 * (6 * 530 + 2)), 23},  // 2^18 nodes: 6 levels
      {PoStType::Window, 512 * MiB, 2 * (313 + 10 * (8 * 530 + 2)), 23},
      {PoStType::Window, 16 * KiB, 2 * (313 + 10 * (2 * 530 + 530 + 2)), 23},   // 8-8-0
      {PoStType::Window, 32 * KiB, 2 * (313 + 10 * (2 * 530 + 530 + 314 + 2)), 23},  // 8-8-2
      {PoStType::Window, 4 * KiB, 2 * (313 + 10 * (2 * 530 + 314 + 2)), 23},   // 8-2-0
  };
  for (const Case& c : cases) {
    const FallbackPoStShape s = production(c.type, c.bytes);
    const PoStCounts n = count_post(s);
    EXPECT_EQ(n.constraints, c.constraints) << s.describe();
    EXPECT_EQ(n.inputs, c.inputs) << s.describe();
    EXPECT_EQ(formula(s), c.constraints) << s.describe();
  }
}

// The circuit shapes' parameter identifiers hash to the names of Filecoin's published v28 PoSt
// parameter files (data/parameters.json): 32 GiB Window 2349 × 10 and Winning 66 × 1, the same at
// 64 GiB (2300 sectors), and the 2 KiB / 8 MiB / 512 MiB ones.
TEST(PoStCount, ParameterFileNamesArePublished) {
  const auto& manifest = groth16::ParamManifest::builtin();
  for (const std::uint64_t bytes : {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB}) {
    for (const PoStType t : {PoStType::Window, PoStType::Winning}) {
      const auto p = filecoin::fallback_params(filecoin::post_config(t, bytes, ApiVersion::V1_2_0));
      for (const char* ext : {".params", ".vk"}) {
        const std::string name = filecoin::fallback_parameter_file_name(p, ext);
        EXPECT_NE(manifest.find(name), nullptr) << name << " (" << filecoin::fallback_identifier(p) << ")";
      }
    }
  }
  const auto w = filecoin::fallback_params(filecoin::post_config(PoStType::Window, 32 * GiB, ApiVersion::V1_2_0));
  EXPECT_EQ(filecoin::fallback_parameter_cache_id(w),
            "proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
            "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc");
}

TEST(PoStCount, LocatesConstraints) {
  const FallbackPoStShape s = production(PoStType::Window, 2 * KiB);
  const PoStCounts c = count_post(s);
  EXPECT_EQ(locate_post_constraint(c, 0), "sector 0: comm_r = H(comm_c, comm_r_last)");
  EXPECT_EQ(locate_post_constraint(c, c.sector_constraints + 313 + 1062 * 3),
            "sector 1 challenge 3: challenged leaf inclusion in tree R (comm_r_last)");
  EXPECT_EQ(locate_post_constraint(c, c.constraints + 2), "input constraint 2");
}

}  // namespace
}  // namespace proofline::circuits::post
