// PoRep circuit shape: constraint and public-input counts of the counting mode against the upstream
// values (storage-proofs-porep tests, v28 circuitinfo) and the derived ones (reference §3.3), and the
// per-gadget counts inside one challenge.
#include <gtest/gtest.h>

#include <optional>

#include "proofline/circuits/porep.hpp"
#include "proofline/r1cs/shape_counter.hpp"

namespace proofline::circuits::porep {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

// Per-gadget costs (reference §3.1): SHA-256 binary tree level 45,382; Poseidon tree levels
// 530 / 387 / 314 (arity 8 / 4 / 2); Poseidon arity 2 / 11 = 311 / 598; labels 523,805 (layer 1)
// and 525,853 (later layers), each = parents × 256 bit decompositions + 522,268 SHA-256 + 1 packing.
std::size_t rc_inclusion(const PoRepShape& s) {
  auto level = [](std::size_t a) { return a == 8 ? 530 : a == 4 ? 387 : a == 2 ? 314 : 0; };
  return s.tree_rc_base_levels() * level(s.tree_rc.base) + level(s.tree_rc.sub) + level(s.tree_rc.top) + 2;
}

void expect_layout(const PoRepShape& s, const PoRepCounts& c) {
  const std::size_t p = s.layers == 2 ? 311 : 598;
  const std::size_t inc = rc_inclusion(s);
  const ChallengeLayout& l = c.challenge;
  EXPECT_EQ(c.header, 571u);
  EXPECT_EQ(l.comm_d_inclusion, s.tree_d_levels() * 45382 + 2);
  EXPECT_EQ(l.drg_parent, p + inc);
  EXPECT_EQ(l.exp_parent, p + inc);
  EXPECT_EQ(l.challenge_bits, 65u);
  ASSERT_EQ(l.labels.size(), s.layers);
  EXPECT_EQ(l.labels[0], 6u * 256 + 522268 + 1);
  for (std::size_t k = 1; k < s.layers; ++k) EXPECT_EQ(l.labels[k], 14u * 256 + 522268 + 1) << "layer " << k + 1;
  EXPECT_EQ(l.encoding, 1u);
  EXPECT_EQ(l.comm_r_last_inclusion, inc);
  EXPECT_EQ(l.c_x, p + inc);
  EXPECT_EQ(c.inputs, 4 + 18 * s.challenges);
}

struct Case {
  const char* name;
  PoRepShape shape;
  std::size_t constraints;
};

// Upstream: storage-proofs-porep stacked circuit tests (2 layers, 1 challenge).
TEST(PoRepCounts, UpstreamTestShapes) {
  const Case cases[] = {
      {"base 2", {2, 8, {2, 0, 0}, 1}, 1206212},
      {"base 8", {2, 8, {8, 0, 0}, 1}, 1199620},
      {"8-4-0", {2, 32, {8, 4, 0}, 1}, 1296576},
      {"8-4-2", {2, 64, {8, 4, 2}, 1}, 1346982},
  };
  for (const Case& k : cases) {
    const PoRepCounts c = count_porep(k.shape);
    EXPECT_EQ(c.constraints, k.constraints) << k.name;
    EXPECT_EQ(c.inputs, 22u) << k.name;
    expect_layout(k.shape, c);
  }
}

TEST(PoRepCounts, ProductionSectorSizes) {
  const Case cases[] = {
      {"2 KiB", shape_for_sector_size(2 * KiB), 2687921},
      {"8 MiB", shape_for_sector_size(8 * MiB), 3844929},
      {"512 MiB", shape_for_sector_size(512 * MiB), 4423433},
  };
  for (const Case& k : cases) {
    const PoRepCounts c = count_porep(k.shape);
    EXPECT_EQ(c.constraints, k.constraints) << k.name;
    EXPECT_EQ(c.inputs, 40u) << k.name;
    expect_layout(k.shape, c);
  }
}

void expect_large(std::uint64_t sector_bytes, std::size_t constraints) {
  const PoRepShape s = shape_for_sector_size(sector_bytes);
  const PoRepCounts c = count_porep(s);
  EXPECT_EQ(c.constraints, constraints);
  EXPECT_EQ(c.inputs, 328u);
  expect_layout(s, c);
}

// v28 circuitinfo (rust-fil-proofs PR #1325): 130,278,541 constraints, 328 inputs incl. ONE.
TEST(PoRepCounts, Sector32GiB) { expect_large(32 * GiB, 130278541); }
// Derived (reference §3.3), not upstream-asserted.
TEST(PoRepCounts, Sector64GiB) { expect_large(64 * GiB, 131185849); }

TEST(PoRepCounts, MatchingNamesTheSectorSizeAndKeepsItsCounts) {
  // count_porep_matching (a preload's parameter file: its inputs and aux variables) finds the sector
  // size whose circuit has them — 32 and 64 GiB share their inputs (328) and differ in aux — and
  // leaves every size it counted known; counts of no sector size: none, every size counted.
  for (std::uint64_t bytes : {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB}) {
    const PoRepShape want = shape_for_sector_size(bytes);
    const PoRepCounts c = count_porep(want);
    const std::optional<PoRepShape> got = count_porep_matching(c.inputs, c.aux);
    ASSERT_TRUE(got.has_value()) << bytes;
    EXPECT_EQ(got->nodes, bytes / 32);
    EXPECT_EQ(got->layers, want.layers);
    EXPECT_EQ(got->challenges, want.challenges);
    EXPECT_TRUE(porep_counts_known(*got));
  }
  EXPECT_EQ(count_porep(shape_for_sector_size(32 * GiB)).inputs, 328u);
  EXPECT_FALSE(count_porep_matching(328, 7).has_value());
  for (const filecoin::SectorShape& s : filecoin::all_sector_shapes()) {
    EXPECT_TRUE(porep_counts_known(shape_for_sector_size(s.sector_bytes))) << s.name;
  }
}

// aux count matches too.
TEST(PoRepCounts, MultipliedEqualsFullSynthesis) {
  const PoRepShape s = shape_for_sector_size(2 * KiB);
  const PoRepCircuit circuit(s, blank_inputs(s));
  r1cs::ShapeCounter cs;
  circuit.synthesize(cs);
  const PoRepCounts c = count_porep(s);
  EXPECT_EQ(cs.num_constraints(), c.constraints);
  EXPECT_EQ(cs.num_inputs(), c.inputs);
  EXPECT_EQ(cs.num_aux(), c.aux);
}

TEST(PoRepCounts, BadShapesAreRejected) {
  EXPECT_THROW(shape_for_sector_size(8192), ProoflineError);  // no 8 KiB shape
  EXPECT_THROW(count_porep(PoRepShape{3, 64, {8, 0, 0}, 1}), ProoflineError);
  EXPECT_THROW(count_porep(PoRepShape{2, 32, {8, 0, 0}, 1}), ProoflineError);  // 32 is not 8^k
  EXPECT_THROW(count_porep(PoRepShape{2, 64, {8, 0, 0}, 0}), ProoflineError);
  PoRepShape s = shape_for_sector_size(2 * KiB);
  PoRepPartitionInputs in = blank_inputs(s);
  in.challenges[1].exp_parents[3].rows.pop_back();
  try {
    PoRepCircuit c(s, in);
    FAIL() << "expected a shape error";
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find("challenge 1 expander parent 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace proofline::circuits::porep
