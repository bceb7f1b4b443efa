// Issue 21, fault containment: a job that throws in the middle of a partition (synthesis or
// proving), or whose synthesis outgrows the shape its parameters allow, fails alone with a reason;
// the jobs running beside it finish and verify, the memory it reserved comes back, and the engine
// keeps serving. Faults come from util/fault.hpp's injection points armed for one request id; the
// overrun comes from the test kind "overrun" (engine_test_util.hpp). Unknown request arguments are
// refused with the kind's declared list.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "engine_test_util.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/util/fault.hpp"

namespace proofline::engine {
namespace {

using namespace testing;

ProofRequest overrun_request(const std::string& id) {
  ProofRequest r = bench_request(id, 10, 1, 3);
  r.kind = "overrun";
  r.args["synth_size"] = "2^17";
  return r;
}

/// Submits `victim` among three good bench jobs; returns the victim's result after checking that
/// the good ones verified and that every byte reserved for partitions was given back.
ProofResult run_among_good_jobs(Engine& e, ProofRequest victim) {
  std::vector<std::string> good;
  for (int i = 0; i < 3; ++i) {
    good.push_back(e.submit(bench_request("good-" + victim.request_id + "-" + std::to_string(i), 8, 2, 20 + i)).request_id);
  }
  const std::string vid = e.submit(std::move(victim)).request_id;
  const AwaitResult v = e.await(vid, std::chrono::seconds(60));
  EXPECT_EQ(v.status, AwaitStatus::Ready);
  for (const auto& id : good) {
    const AwaitResult g = e.await(id, std::chrono::seconds(60));
    EXPECT_EQ(g.result.state, JobState::Done) << id << ": " << g.result.error;
    EXPECT_TRUE(verify_each(bench_vk(8), g.result)) << id;
  }
  EXPECT_TRUE(eventually([&] { return e.status().memory.reserved_bytes == 0; }))
      << "reserved " << e.status().memory.reserved_bytes;
  return v.result;
}

EngineConfig two_backends() {
  EngineConfig cfg = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}));
  cfg.backends.push_back(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}));
  return cfg;
}

TEST(FaultContainment, ThrowInsideSynthesisFailsOnlyThatJob) {
  fault::disarm_all();
  Engine e(two_backends());
  const int before = fault::fired("synthesis");
  fault::arm("synthesis", "synth-victim");
  // The overrun kind synthesizes 2^17 rows: the fault point (every 64 K units) fires mid-synthesis,
  // before the limit check of the same poll.
  const ProofResult v = run_among_good_jobs(e, overrun_request("synth-victim"));
  EXPECT_EQ(v.state, JobState::Failed);
  EXPECT_NE(v.error.find("partition 0: synthesis failed: injected fault at synthesis (after "), std::string::npos)
      << v.error;
  EXPECT_EQ(fault::fired("synthesis"), before + 1);
  // The engine keeps serving.
  EXPECT_EQ(e.prove(bench_request("after-synth-fault", 8, 1, 7)).result.state, JobState::Done);
}

TEST(FaultContainment, ThrowInsideTheBackendFailsOnlyThatJob) {
  fault::disarm_all();
  Engine e(two_backends());
  fault::arm("prove", "prove-victim");
  const ProofResult v = run_among_good_jobs(e, bench_request("prove-victim", 8, 3, 9));
  EXPECT_EQ(v.state, JobState::Failed);
  EXPECT_NE(v.error.find("failed: injected fault at prove (partition "), std::string::npos) << v.error;
  EXPECT_TRUE(v.proof_bytes.empty());  // never an unverified or partial proof
  const AwaitResult again = e.prove(bench_request("prove-victim-retry", 8, 3, 9));
  EXPECT_EQ(again.result.state, JobState::Done) << again.result.error;
  EXPECT_TRUE(verify_each(bench_vk(8), again.result));
  EXPECT_EQ(e.status().jobs_failed, 1u);
}

TEST(FaultContainment, SynthesisOutgrowingItsParametersIsStoppedAtItsLimits) {
  fault::disarm_all();
  Engine e(two_backends());
  const ProofResult v = run_among_good_jobs(e, overrun_request("overrun-victim"));
  EXPECT_EQ(v.state, JobState::Failed);
  // bench 2^10 parameters: domain 1024 rows; the first poll comes after 64 K units of work.
  EXPECT_NE(v.error.find("synthesis failed: synthesis exceeded its limits: "), std::string::npos) << v.error;
  EXPECT_NE(v.error.find("constraints so far, more than the 1024 the parameters allow"), std::string::npos) << v.error;
}

TEST(FaultContainment, UnknownArgumentIsRefusedWithTheKindsArguments) {
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
  ProofRequest r = bench_request("typo", 6, 1, 1);
  r.args["partitons"] = "2";
  const AwaitResult a = e.prove(r);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("kind 'bench' has no argument 'partitons' (its arguments: params, size, partitions, "
                                "input, checked, compiled)"),
            std::string::npos)
      << a.result.error;
  ProofRequest m;
  m.request_id = "mul-size";
  m.kind = "mul";
  m.args = {{"params", mul_params()}, {"size", "2^4"}};
  EXPECT_NE(e.prove(m).result.error.find("kind 'mul' has no argument 'size' (its arguments: params, partitions, input, checked, "
                                         "compiled)"),
            std::string::npos);
}

/// A CPU backend that reports itself out of service (a device it could not recover) from the start.
class OutOfServiceBackend final : public groth16::ProverBackend {
 public:
  std::string_view name() const override { return "lost-device"; }
  groth16::ProverResult prove(const groth16::Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                              std::span<const groth16::Randomizers> rs, const std::atomic<bool>* cancel) override {
    ++calls;
    return cpu_.prove(params, partitions, rs, cancel);
  }
  bool in_service() const override { return false; }
  std::string fault() const override { return "device lost (test)"; }
  std::atomic<int> calls{0};

 private:
  groth16::CpuBackend cpu_{groth16::CpuBackendConfig{1}};
};

// Several devices, one lost: the engine gives the lost one no work and every partition goes to the
// one in service (issue 22's multi-device path without a device); with none in service a job fails
// with the fault named instead of waiting for ever.
TEST(FaultContainment, BackendOutOfServiceLeavesItsWorkToTheOthers) {
  {
    auto lost = std::make_shared<OutOfServiceBackend>();
    EngineConfig cfg = test_config(lost);
    cfg.backends.push_back(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}));
    Engine e(std::move(cfg));
    const AwaitResult a = e.prove(bench_request("spread", 6, 4, 1), std::chrono::seconds(60));
    ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
    EXPECT_TRUE(verify_each(bench_vk(6), a.result));
    for (const PartitionTimings& t : a.result.partitions) EXPECT_EQ(t.backend, 1);
    const EngineStatus s = e.status();
    ASSERT_EQ(s.backends.size(), 2u);
    EXPECT_FALSE(s.backends[0].in_service);
    EXPECT_EQ(s.backends[0].fault, "device lost (test)");
    EXPECT_EQ(s.backends[0].partitions_proved, 0u);
    EXPECT_EQ(s.backends[1].partitions_proved, 4u);
    EXPECT_EQ(lost->calls.load(), 0);
  }
  auto lost = std::make_shared<OutOfServiceBackend>();
  Engine e(test_config(lost));
  const AwaitResult a = e.prove(bench_request("nowhere", 6, 2, 1), std::chrono::seconds(60));
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("no prover backend in service"), std::string::npos) << a.result.error;
  EXPECT_NE(a.result.error.find("device lost (test)"), std::string::npos) << a.result.error;
  EXPECT_EQ(lost->calls.load(), 0);
  EXPECT_TRUE(eventually([&] { return e.status().memory.reserved_bytes == 0; }));
}

}  // namespace
}  // namespace proofline::engine
