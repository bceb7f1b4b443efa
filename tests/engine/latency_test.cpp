// Latency-first scheduling (issue 32; engine.hpp "Scheduling"): a job's first partition is
// synthesized alone and reaches the prover before any other partition of the job starts synthesis;
// the later ones are synthesized while the prover works, no more at once than keep it fed; a
// CRITICAL job still overtakes. Deterministic: the test backend's gate holds the prover, and every
// wait is a condition with a deadline (eventually, wait_entered).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine_test_util.hpp"
#include "proofline/engine/engine.hpp"

namespace proofline::engine {
namespace {

using namespace testing;
using namespace std::chrono_literals;

std::size_t queued(const EngineStatus& s, const std::string& stage, Priority p, bool running = false) {
  for (const auto& q : s.queues) {
    if (q.stage == stage && q.priority == p) return running ? q.running : q.pending;
  }
  return 0;
}

std::size_t synthesis_running(const EngineStatus& s) {
  std::size_t n = 0;
  for (const auto& q : s.queues) n += q.stage == "synthesis" ? q.running : 0;
  return n;
}

/// Opens the backend's gate when the test ends, also after a failed ASSERT, so that the engine
/// (declared before it) can join its prover worker.
struct OpenAtExit {
  TestBackend& backend;
  ~OpenAtExit() { backend.open(); }
};

/// The span of `stage` of partition k of job `id` (the test fails if there is none).
StageSpan span_of(const std::vector<StageSpan>& spans, const std::string& id, const std::string& stage, std::size_t k) {
  for (const StageSpan& s : spans) {
    if (s.request_id == id && s.stage == stage && s.partition == k) return s;
  }
  ADD_FAILURE() << "no " << stage << " span of " << id << " partition " << k;
  return {};
}

// Four synthesis workers and one job of five partitions: before, the workers took partitions 0–3
// at once. Now partition 0 is synthesized alone and handed to the prover (held there by the gate)
// before partition 1 is admitted; then exactly one more partition is synthesized (the prover has
// no proof time yet: P is taken as S, so one in flight per prover worker) and the rest wait.
TEST(LatencyFirst, FirstPartitionReachesTheProverBeforeAnyOtherIsSynthesized) {
  auto be = std::make_shared<TestBackend>(/*gate_closed=*/true);
  Engine e(test_config(be, 4));
  const OpenAtExit open_at_exit{*be};
  e.submit(bench_request("J", 6, 5, 100));
  ASSERT_TRUE(be->wait_entered(1));
  EXPECT_EQ(be->order(), (std::vector<std::uint64_t>{100}));  // partition 0 (input 100 + k)
  // The stable state with the prover held: one partition waits for it, nothing is synthesizing.
  ASSERT_TRUE(eventually([&] {
    const EngineStatus s = e.status();
    return queued(s, "prove", Priority::Normal) == 1 && synthesis_running(s) == 0;
  }));
  const EngineStatus s = e.status();
  EXPECT_EQ(queued(s, "synthesis", Priority::Normal), 3u);
  EXPECT_EQ(e.peek("J").result.partitions_synthesized, 2u);

  be->open();
  const AwaitResult a = e.await("J", 60s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_TRUE(verify_each(bench_vk(6), a.result));
  EXPECT_EQ(be->order(), (std::vector<std::uint64_t>{100, 101, 102, 103, 104}));

  // The timeline (stage starts taken where the items left their queues): partition 0's prove
  // stage began before any other partition's synthesis did.
  const std::vector<StageSpan> spans = e.timeline();
  const StageSpan prove0 = span_of(spans, "J", "prove", 0);
  const StageSpan synth0 = span_of(spans, "J", "synthesis", 0);
  EXPECT_LE(synth0.start_s, prove0.start_s);
  for (std::size_t k = 1; k < 5; ++k) {
    const StageSpan sk = span_of(spans, "J", "synthesis", k);
    EXPECT_GE(sk.start_s, prove0.start_s) << "partition " << k << " started synthesis before partition 0 reached the prover";
  }
}

// A NORMAL job holds the prover (partition 0 behind the gate) with its next partition waiting; a
// CRITICAL job submitted then is synthesized at once (the NORMAL in-flight partitions do not count
// against it) and its partitions are proved before every NORMAL partition not yet synthesized.
TEST(LatencyFirst, CriticalStillOvertakes) {
  auto be = std::make_shared<TestBackend>(/*gate_closed=*/true);
  Engine e(test_config(be, 2));
  const OpenAtExit open_at_exit{*be};
  e.submit(bench_request("N", 6, 6, 100));
  ASSERT_TRUE(be->wait_entered(1));
  ASSERT_TRUE(eventually([&] {
    const EngineStatus s = e.status();
    return queued(s, "prove", Priority::Normal) == 1 && synthesis_running(s) == 0;
  }));
  e.submit(bench_request("X", 6, 2, 900, Priority::Critical));
  // X's first partition is synthesized (beside the NORMAL ones in flight) and queued ahead of N's;
  // its second waits until a prover takes the first (one in flight per prover worker).
  ASSERT_TRUE(eventually([&] {
    const EngineStatus s = e.status();
    return queued(s, "prove", Priority::Critical) == 1 && synthesis_running(s) == 0;
  }));
  EngineStatus s = e.status();
  EXPECT_EQ(queued(s, "synthesis", Priority::Critical), 1u);
  EXPECT_EQ(queued(s, "synthesis", Priority::Normal), 4u);
  EXPECT_EQ(queued(s, "prove", Priority::Normal), 1u);

  be->open();
  ASSERT_EQ(e.await("X", 60s).result.state, JobState::Done);
  ASSERT_EQ(e.await("N", 60s).result.state, JobState::Done);
  const std::vector<std::uint64_t> order = be->order();
  ASSERT_EQ(order.size(), 8u);
  EXPECT_EQ(order[0], 100u);  // in the prover when X came
  EXPECT_EQ(order[1], 900u);  // queued ahead of N's partition 1
  // X's second partition is synthesized as soon as its first is taken, before any NORMAL partition
  // that was not synthesized yet: proved before N's partitions 2 … 5.
  const auto at = [&](std::uint64_t tag) { return std::find(order.begin(), order.end(), tag) - order.begin(); };
  for (std::uint64_t n = 102; n <= 105; ++n) EXPECT_LT(at(901), at(n)) << n;
}

// A stream of jobs keeps the prover fed across job boundaries: while job A's only partition is in
// the prover (held by the gate), job B's first partition is synthesized and waits for it, and no
// more of B (one in flight per prover worker); then everything is proved in submission order.
TEST(LatencyFirst, NextJobIsReadyWhenTheProverFrees) {
  auto be = std::make_shared<TestBackend>(/*gate_closed=*/true);
  Engine e(test_config(be, 2));
  const OpenAtExit open_at_exit{*be};
  e.submit(bench_request("A", 6, 1, 100));
  ASSERT_TRUE(be->wait_entered(1));
  e.submit(bench_request("B", 6, 3, 200));
  ASSERT_TRUE(eventually([&] {
    const EngineStatus s = e.status();
    return queued(s, "prove", Priority::Normal) == 1 && synthesis_running(s) == 0;
  }));
  EXPECT_EQ(e.peek("B").result.partitions_synthesized, 1u);
  EXPECT_EQ(queued(e.status(), "synthesis", Priority::Normal), 2u);
  be->open();
  ASSERT_EQ(e.await("A", 60s).result.state, JobState::Done);
  ASSERT_EQ(e.await("B", 60s).result.state, JobState::Done);
  EXPECT_EQ(be->order(), (std::vector<std::uint64_t>{100, 200, 201, 202}));
}

}  // namespace
}  // namespace proofline::engine
