// Cancellation of running partitions: a partition inside a long synthesis and one inside the CPU
// prover stop promptly when their job is cancelled (the job's cancel flag reaches the kind's
// ProvingAssignment through r1cs::CancelScope and the backend through prove's `cancel`); the job
// stays CANCELLED, counted once; the worker and the buffers are free again for the next job.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>

#include "engine_test_util.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/r1cs/r1cs.hpp"

namespace proofline::engine {
namespace {

using namespace testing;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

/// Shared state between the test and the "long-synth" kind's synthesis (a latch each way).
struct SynthHook {
  std::mutex mu;
  std::condition_variable cv;
  bool started = false;   ///< the synthesis is past its first stride
  bool released = false;  ///< the test has cancelled: go on synthesizing
  bool cancelled = false; ///< the synthesis threw SynthesisError(Cancelled)
  std::vector<std::uint8_t> payload_after_wait;  ///< slow-prepare: the request's payload once released
  std::size_t constraints_at_stop = 0;
  std::size_t aux_capacity_at_stop = 0;

  void wait_started() {
    std::unique_lock lk(mu);
    ASSERT_TRUE(cv.wait_for(lk, 60s, [&] { return started; }));
  }
  void release() {
    std::lock_guard lk(mu);
    released = true;
    cv.notify_all();
  }
};

/// A circuit of 2 strides, a wait for the test, then 8 more strides of constraints (a · a = b, fast
/// path): without cancellation it would end with 10 × 64 K constraints (and fail the shape check).
struct LongCircuit {
  SynthHook* hook;
  void synthesize(r1cs::ConstraintSystem& cs) const {
    Fr v = Fr::from_u64(2);
    r1cs::Variable acc = cs.alloc_input("x", [&] { return v; });
    const std::size_t stride = static_cast<std::size_t>(r1cs::ConstraintSystem::kCancelStride);
    for (std::size_t i = 0; i < 10 * stride; ++i) {
      if (i == 2 * stride) {
        std::unique_lock lk(hook->mu);
        hook->started = true;
        hook->cv.notify_all();
        hook->cv.wait_for(lk, 60s, [&] { return hook->released; });
      }
      const Fr w = v * v;
      const r1cs::Variable b = cs.alloc("b", [&] { return w; });
      cs.enforce("sq", acc, acc, b);
      acc = b;
      v = w;
    }
  }
};

/// "long-synth": the bench kind's job (parameters, checks) with LongCircuit as its synthesis.
class LongSynthKind final : public ProofKind {
 public:
  explicit LongSynthKind(SynthHook* hook) : hook_(hook) {}
  std::string_view name() const override { return "long-synth"; }
  std::string_view description() const override { return "a synthesis that waits for the test (tests)"; }
  std::vector<ArgSpec> arguments() const override { return bench_->arguments(); }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    ProofRequest inner = r;
    inner.kind = "bench";
    return std::make_shared<Job>(bench_->prepare(inner), hook_);
  }

 private:
  class Job final : public KindJob {
   public:
    Job(std::shared_ptr<const KindJob> in, SynthHook* hook) : in_(std::move(in)), hook_(hook) {}
    std::size_t num_partitions() const override { return in_->num_partitions(); }
    std::string srs_key() const override { return in_->srs_key(); }
    std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& p) const override { return in_->load_srs(p); }
    void check(const Srs& s) const override { in_->check(s); }
    void synthesize(std::size_t, const Srs&, r1cs::ProvingBuffers& b) const override {
      try {
        // LongCircuit is far larger than the bench parameters the job loads: keep the engine's cancel
        // flag but lift the shape limits it set (r1cs::SynthesisLimits), so only cancellation stops it.
        const r1cs::CancelScope unbounded(r1cs::CancelScope::current(), r1cs::SynthesisLimits{});
        synthesize_into(b, [&](r1cs::ProvingAssignment& cs) {  // cs takes the engine's CancelScope flag
          r1cs::synthesize(LongCircuit{hook_}, cs);
        });
      } catch (const r1cs::SynthesisError& e) {
        std::lock_guard lk(hook_->mu);
        hook_->cancelled = e.code() == r1cs::SynthesisErrorCode::Cancelled;
        hook_->constraints_at_stop = b.a.size();  // the partly filled buffers came back in b
        hook_->aux_capacity_at_stop = b.aux_assignment.capacity();
        throw;
      }
    }

   private:
    std::shared_ptr<const KindJob> in_;
    SynthHook* hook_;
  };
  SynthHook* hook_;
  std::shared_ptr<const ProofKind> bench_ = KindRegistry::builtin()->get("bench");
};

std::size_t running(const EngineStatus& s, const std::string& stage) {
  std::size_t n = 0;
  for (const auto& q : s.queues)
    if (q.stage == stage) n += q.running;
  return n;
}

/// "slow-prepare": the bench kind whose prepare waits for the test (hook.started / hook.released),
/// counting its SRS loads.
class SlowPrepareKind final : public ProofKind {
 public:
  SlowPrepareKind(SynthHook* hook, std::atomic<int>* loads) : hook_(hook), loads_(loads) {}
  std::string_view name() const override { return "slow-prepare"; }
  std::string_view description() const override { return "a prepare step that waits for the test (tests)"; }
  std::vector<ArgSpec> arguments() const override {
    std::vector<ArgSpec> a = bench_->arguments();
    a.push_back(ArgSpec("note", ArgType::File, "a note the prepare reads (tests)").or_payload());
    return a;
  }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    {
      std::unique_lock lk(hook_->mu);
      hook_->started = true;
      hook_->cv.notify_all();
      hook_->cv.wait_for(lk, 60s, [&] { return hook_->released; });
      hook_->payload_after_wait = r.payload;
    }
    ProofRequest inner = r;
    inner.kind = "bench";
    inner.payload.clear();
    return std::make_shared<Job>(bench_->prepare(inner), loads_);
  }

 private:
  class Job final : public KindJob {
   public:
    Job(std::shared_ptr<const KindJob> in, std::atomic<int>* loads) : in_(std::move(in)), loads_(loads) {}
    std::size_t num_partitions() const override { return in_->num_partitions(); }
    std::string srs_key() const override { return in_->srs_key(); }
    std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& p) const override {
      ++*loads_;
      return in_->load_srs(p);
    }
    void check(const Srs& s) const override { in_->check(s); }
    void synthesize(std::size_t k, const Srs& s, r1cs::ProvingBuffers& b) const override { in_->synthesize(k, s, b); }

   private:
    std::shared_ptr<const KindJob> in_;
    std::atomic<int>* loads_;
  };
  SynthHook* hook_;
  std::atomic<int>* loads_;
  std::shared_ptr<const ProofKind> bench_ = KindRegistry::builtin()->get("bench");
};

TEST(EngineCancel, JobCancelledWhilePreparedTakesNoSrsLease) {
  // Cancelled while its kind prepares it: once the client has seen CANCELLED the job must not load
  // or hold the parameter set (a cuzk client evicting the set right after the cancel was refused
  // "in use", now and then, in server_cuzk_api). And the request the prepare reads stays whole:
  // a cancel used to clear its payload (parsed input, prepared KindJob) at once, under a prepare
  // still reading it without the engine's lock — a data race (ThreadSanitizer in CI, in
  // Engine.ConcurrentClientsMixedPrioritiesAndCancels) and a prepare that saw its input vanish.
  SynthHook hook;
  std::atomic<int> loads{0};
  auto be = std::make_shared<TestBackend>();
  EngineConfig cfg = test_config(be, 1);
  auto reg = test_registry();
  reg->add(std::make_shared<SlowPrepareKind>(&hook, &loads));
  cfg.kinds = reg;
  Engine e(std::move(cfg));
  ProofRequest req = bench_request("prep", 6, 1, 10);
  req.kind = "slow-prepare";
  req.payload = {0x50, 0x52, 0x4f, 0x4f, 0x46};
  ASSERT_FALSE(e.submit(req).duplicate);
  hook.wait_started();
  e.cancel("prep");
  const AwaitResult r = e.await("prep", 10s);
  ASSERT_EQ(r.status, AwaitStatus::Ready);
  EXPECT_EQ(r.result.state, JobState::Cancelled);
  hook.release();
  ASSERT_TRUE(eventually([&] { return running(e.status(), "prepare") == 0; }));
  {
    std::lock_guard lk(hook.mu);
    EXPECT_EQ(hook.payload_after_wait, req.payload);
  }
  EXPECT_EQ(loads.load(), 0);
  EXPECT_TRUE(e.status().srs.empty());
  const AwaitResult after = e.prove(bench_request("after", 6, 1, 77), 60s);  // the worker is free
  EXPECT_EQ(after.result.state, JobState::Done) << after.result.error;
}

TEST(EngineCancel, LongSynthesisStopsAndFreesItsWorker) {
  SynthHook hook;
  auto be = std::make_shared<TestBackend>();
  EngineConfig cfg = test_config(be, 1);  // one synthesis worker: "after" needs it back
  auto reg = test_registry();
  reg->add(std::make_shared<LongSynthKind>(&hook));
  cfg.kinds = reg;
  Engine e(std::move(cfg));
  ProofRequest req = bench_request("long", 6, 1, 10);
  req.kind = "long-synth";
  ASSERT_FALSE(e.submit(req).duplicate);
  hook.wait_started();

  const CancelResult c = e.cancel("long");
  // >= 1: the job's prepare step may still count as active for a moment after handing the
  // partition on (seen under ctest -j2 in CI: 2).
  EXPECT_GE(c.stopping_running, 1u);
  const auto t0 = Clock::now();
  hook.release();
  ASSERT_TRUE(eventually([&] { return running(e.status(), "synthesis") == 0; }));
  const double stop_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  std::printf("cancelled synthesis stopped %.1f ms after it resumed\n", stop_ms);
  {
    std::lock_guard lk(hook.mu);
    EXPECT_TRUE(hook.cancelled);
    const std::size_t stride = static_cast<std::size_t>(r1cs::ConstraintSystem::kCancelStride);
    EXPECT_GE(hook.constraints_at_stop, 2 * stride);
    EXPECT_LE(hook.constraints_at_stop, 3 * stride);  // not the 10 strides of the whole circuit
    EXPECT_GE(hook.aux_capacity_at_stop, 2 * stride);  // the buffers went back to the engine, not freed
  }
  {
    // The partly filled buffers went to the pool or the reclaimer (not freed on the worker), and the
    // reservation back to the budget (once the worker has handed them back: waited for, not raced).
    EXPECT_TRUE(eventually([&] { return e.status().memory.reserved_bytes == 0; }));
    const EngineStatus s = e.status();
    const std::uint64_t aux_bytes = 2 * static_cast<std::uint64_t>(r1cs::ConstraintSystem::kCancelStride) * 32;
    EXPECT_GE(s.memory.pooled_bytes + s.memory.reclaim_pending_bytes + s.memory.freed_bytes_total, aux_bytes);
    EXPECT_EQ(s.memory.reserved_bytes, 0u);
  }
  const AwaitResult r = e.await("long", 1s);
  ASSERT_EQ(r.status, AwaitStatus::Ready);
  EXPECT_EQ(r.result.state, JobState::Cancelled);
  EXPECT_EQ(r.result.error, "cancelled by request");

  const AwaitResult after = e.prove(bench_request("after", 6, 1, 77), 60s);  // the worker is free
  EXPECT_EQ(after.result.state, JobState::Done) << after.result.error;
  const EngineStatus s = e.status();
  EXPECT_EQ(s.jobs_cancelled, 1u);
  EXPECT_EQ(s.jobs_failed, 0u);
  EXPECT_NE(e.metrics_text().find("proofline_engine_jobs_finished_total{state=\"cancelled\"} 1"), std::string::npos);
  EXPECT_NE(e.metrics_text().find("proofline_engine_jobs_finished_total{state=\"failed\"} 0"), std::string::npos);
}

TEST(EngineCancel, RunningCpuProveStopsAndFreesItsWorker) {
  auto be = std::make_shared<TestBackend>(true);  // prove() waits at its gate until open()
  EngineConfig cfg = test_config(be, 1);
  cfg.pool_max_bytes = 0;  // released buffers go to the reclaimer: memory back to 0 afterwards
  Engine e(std::move(cfg));
  ASSERT_FALSE(e.submit(bench_request("run", 10, 1, 10)).duplicate);
  ASSERT_TRUE(be->wait_entered(1));  // the partition is inside the backend call
  const CancelResult c = e.cancel("run");
  // >= 1: the job's prepare step may still count as active for a moment after handing the
  // partition on (seen under ctest -j2 in CI: 2).
  EXPECT_GE(c.stopping_running, 1u);
  const auto t0 = Clock::now();
  be->open();  // the CPU prover starts with the flag set: it throws Cancelled at once
  ASSERT_TRUE(eventually([&] {
    const EngineStatus s = e.status();
    return running(s, "prove") == 0 && s.memory.used_bytes == 0 && s.memory.reserved_bytes == 0;
  }));
  const double stop_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  std::printf("cancelled prove stopped %.1f ms after it resumed\n", stop_ms);
  const AwaitResult r = e.await("run", 1s);
  ASSERT_EQ(r.status, AwaitStatus::Ready);
  EXPECT_EQ(r.result.state, JobState::Cancelled);
  EXPECT_TRUE(r.result.proofs.empty());

  const AwaitResult after = e.prove(bench_request("after", 6, 1, 77), 60s);  // the prover is free
  EXPECT_EQ(after.result.state, JobState::Done) << after.result.error;
  const EngineStatus s = e.status();
  EXPECT_EQ(s.jobs_cancelled, 1u);
  EXPECT_EQ(s.jobs_failed, 0u);
  ASSERT_EQ(s.backends.size(), 1u);
  EXPECT_EQ(s.backends[0].partitions_proved, 1u);  // only "after"
}

}  // namespace
}  // namespace proofline::engine
