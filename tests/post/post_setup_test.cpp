// The setup of WindowPoSt and WinningPoSt partitions with the sectors synthesized as parallel parts
// into the QapEvaluator (FallbackPoStCircuit::synthesize → ConstraintSystem::synthesize_parts):
// the .params bytes for one seed are those of the sequential synthesis (SetupOptions::threads 1,
// or the circuit's synthesis_threads 1) on 2 threads and on all, at 2 KiB (WindowPoSt: 2 sectors;
// WinningPoSt: 1 sector, the in-order path) and for a 5-sector WindowPoSt-like shape.
#include <gtest/gtest.h>

#include "../support/setup_test_util.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/filecoin/post.hpp"

namespace proofline::circuits::post {
namespace {

using filecoin::ApiVersion;
using filecoin::PoStType;

void expect_parallel_setup_is_sequential(const FallbackPoStShape& shape) {
  SCOPED_TRACE(shape.describe());
  FallbackPoStCircuit blank(shape, blank_sectors(shape));
  const PoStCounts c = count_post(shape);
  const r1cs::CircuitShape cs{c.constraints + c.inputs, c.inputs, c.aux};
  const auto seq = proofline::testing::setup_params_bytes(blank, 4242, 1, cs);
  ASSERT_GT(seq.size(), 0u);
  EXPECT_TRUE(proofline::testing::setup_params_bytes(blank, 4242, 2, cs) == seq) << "2 threads";
  EXPECT_TRUE(proofline::testing::setup_params_bytes(blank, 4242, 0, cs) == seq) << "all threads";
  blank.set_synthesis_threads(1);  // the circuit's own switch: sectors in order, on all threads
  EXPECT_TRUE(proofline::testing::setup_params_bytes(blank, 4242, 0, cs) == seq) << "circuit in order";
}

TEST(PoStSetup, ParallelSectorsGiveTheSequentialParamsWindow2KiB) {
  const auto p = filecoin::fallback_params(filecoin::post_config(PoStType::Window, 2048, ApiVersion::V1_2_0));
  expect_parallel_setup_is_sequential(shape_for(p));
}

TEST(PoStSetup, ParallelSectorsGiveTheSequentialParamsWinning2KiB) {
  const auto p = filecoin::fallback_params(filecoin::post_config(PoStType::Winning, 2048, ApiVersion::V1_2_0));
  expect_parallel_setup_is_sequential(shape_for(p));
}

TEST(PoStSetup, ParallelSectorsGiveTheSequentialParamsFiveSectors) {
  FallbackPoStShape s;  // 64 nodes, tree 8-0-0
  s.sectors = 5;
  s.challenges = 3;
  expect_parallel_setup_is_sequential(s);
}

}  // namespace
}  // namespace proofline::circuits::post
