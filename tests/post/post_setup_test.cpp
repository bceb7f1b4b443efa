// The setup of WindowPoSt and WinningPoSt partitions with the sectors synthesized as parallel parts
// into the QapEvaluator (FallbackPoStCircuit::synthesize → ConstraintSystem::synthesize_parts):
// for one seed it streams what the sequential synthesis (SetupOptions::threads 1, or the circuit's
// synthesis_threads 1) streams, on 2 threads and on all — the vk, the section lengths and every
// scalar in order, so the same .params bytes — at 2 KiB (WindowPoSt: 2 sectors; WinningPoSt: 66
// sectors of one challenge) and for a 5-sector WindowPoSt-like shape; and the real .params bytes
// of a 3-sector shape.
#include <gtest/gtest.h>

#include "../support/setup_test_util.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/filecoin/post.hpp"

namespace proofline::circuits::post {
namespace {

using filecoin::ApiVersion;
using filecoin::PoStType;

FallbackPoStCircuit blank_circuit(const FallbackPoStShape& shape) { return {shape, blank_sectors(shape)}; }

r1cs::CircuitShape setup_shape(const FallbackPoStShape& shape) {
  const PoStCounts c = count_post(shape);
  return {c.constraints + c.inputs, c.inputs, c.aux};
}

// What the setup streams (vk, section lengths, every scalar in order: the .params bytes but the
// curve work, tests/support/setup_test_util.hpp) on 2 threads, on all, and with the circuit's
// sectors in order, against SetupOptions::threads 1 (the sequential synthesis).
void expect_parallel_setup_is_sequential(const FallbackPoStShape& shape) {
  SCOPED_TRACE(shape.describe());
  proofline::testing::expect_parallel_setup_is_sequential(blank_circuit(shape), setup_shape(shape), 4242);
}

TEST(PoStSetup, ParallelSectorsGiveTheSequentialParamsWindow2KiB) {
  const auto p = filecoin::fallback_params(filecoin::post_config(PoStType::Window, 2048, ApiVersion::V1_2_0));
  expect_parallel_setup_is_sequential(shape_for(p));
}

// 66 sectors of one challenge (90 K constraints, domain 2^17): 2 threads against 1 only (the
// other variants are the Window cases').
TEST(PoStSetup, ParallelSectorsGiveTheSequentialParamsWinning2KiB) {
  const auto p = filecoin::fallback_params(filecoin::post_config(PoStType::Winning, 2048, ApiVersion::V1_2_0));
  const FallbackPoStShape shape = shape_for(p);
  ASSERT_EQ(shape.sectors, 66u);
  const FallbackPoStCircuit blank = blank_circuit(shape);
  EXPECT_TRUE(proofline::testing::setup_digest(blank, 4242, 2, setup_shape(shape)) ==
              proofline::testing::setup_digest(blank, 4242, 1, setup_shape(shape)));
}

TEST(PoStSetup, ParallelSectorsGiveTheSequentialParamsFiveSectors) {
  FallbackPoStShape s;  // 64 nodes, tree 8-0-0
  s.sectors = 5;
  s.challenges = 3;
  expect_parallel_setup_is_sequential(s);
}

// The real .params bytes (fixed-base multiplications included) of a small 3-sector shape: the
// sectors in parallel on 2 threads against the sequential synthesis.
TEST(PoStSetup, ParallelSectorsGiveTheSequentialParamsBytes) {
  FallbackPoStShape s;
  s.sectors = 3;
  s.challenges = 1;
  const FallbackPoStCircuit blank = blank_circuit(s);
  const auto seq = proofline::testing::setup_params_bytes(blank, 99, 1, setup_shape(s));
  ASSERT_GT(seq.size(), 0u);
  EXPECT_TRUE(proofline::testing::setup_params_bytes(blank, 99, 2, setup_shape(s)) == seq);
}

}  // namespace
}  // namespace proofline::circuits::post
