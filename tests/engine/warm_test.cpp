// Warm buffers (issue 32; engine.hpp "Warm buffers"): a preloaded parameter set has its partition
// buffers faulted in and pooled in the background, within the memory budget, so the first job after
// it has no cold first touch (MemoryStatus::pool_misses 0); status reports the warmer's state and
// what it warmed. Waits are conditions with deadlines (eventually).
#include <gtest/gtest.h>

#include "engine_test_util.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"

namespace proofline::engine {
namespace {

using namespace testing;
using namespace std::chrono_literals;

/// Bytes of one warmed buffer set of `p`: a, b, c of the domain size and the assignments, 32 B each
/// (the density trackers are not pre-sized).
std::uint64_t warm_set_bytes(const groth16::Parameters& p) {
  return 32 * (3 * std::uint64_t{p.domain_size()} + p.num_inputs() + p.num_aux());
}

TEST(WarmBuffers, FirstJobAfterPreloadFindsWarmBuffers) {
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}), 2));
  EXPECT_EQ(e.status().memory.warm_state, "idle");  // no shape known before a preload
  e.preload_srs("bench", {{"params", bench_params(8)}});
  ASSERT_TRUE(eventually([&] { return e.status().memory.warm_state == "warm"; })) << e.status().memory.warm_state;
  MemoryStatus m = e.status().memory;
  const std::uint64_t set = warm_set_bytes(groth16::Parameters::read_file(bench_params(8)));
  EXPECT_EQ(m.warm_buffers, 2u);  // two per prover worker (one worker)
  EXPECT_EQ(m.warm_bytes, 2 * set);
  EXPECT_EQ(m.warm_locked_bytes, 0u);  // the CPU backend copies nothing: nothing to lock
  EXPECT_EQ(m.pooled_bytes, 2 * set);
  EXPECT_EQ(m.used_bytes, 2 * set);  // charged to the budget while pooled
  // A second preload of the same set warms nothing more: the pool holds its buffers already.
  e.preload_srs("bench", {{"params", bench_params(8)}});
  ASSERT_TRUE(eventually([&] { return e.status().memory.warm_state == "warm"; }));
  EXPECT_EQ(e.status().memory.warm_buffers, 2u);

  const AwaitResult a = e.prove(bench_request("first", 8, 2, 1), 60s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_TRUE(verify_each(bench_vk(8), a.result));
  m = e.status().memory;
  EXPECT_EQ(m.pool_misses, 0u);  // no cold first touch on the synthesis → prove path
  EXPECT_EQ(m.pool_hits, 2u);
}

// Room for one and a half buffer sets: one is warmed, and the warmer says why it stopped.
TEST(WarmBuffers, StopAtTheMemoryBudget) {
  EngineConfig cfg = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}), 2);
  const groth16::Parameters p8 = groth16::Parameters::read_file(bench_params(8));
  cfg.memory_budget_bytes = partition_buffer_bytes(p8) + partition_buffer_bytes(p8) / 2;
  Engine e(std::move(cfg));
  e.preload_srs("bench", {{"params", bench_params(8)}});
  ASSERT_TRUE(eventually([&] { return e.status().memory.warm_state == "budget"; })) << e.status().memory.warm_state;
  const MemoryStatus m = e.status().memory;
  EXPECT_EQ(m.warm_buffers, 1u);
  EXPECT_EQ(m.warm_bytes, warm_set_bytes(p8));
  EXPECT_LE(m.used_bytes, m.budget_bytes);
  // The job still runs: its partitions take the warm set, then the one its first gave back.
  const AwaitResult a = e.prove(bench_request("tight", 8, 2, 1), 60s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_EQ(e.status().memory.pool_misses, 0u);
}

TEST(WarmBuffers, OffWhenConfiguredSo) {
  EngineConfig cfg = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}), 2);
  cfg.warm_partitions_per_prover = 0;
  Engine e(std::move(cfg));
  e.preload_srs("bench", {{"params", bench_params(8)}});
  const MemoryStatus m = e.status().memory;
  EXPECT_EQ(m.warm_state, "off");
  EXPECT_EQ(m.warm_buffers, 0u);
  EXPECT_EQ(m.pooled_bytes, 0u);
}

}  // namespace
}  // namespace proofline::engine
