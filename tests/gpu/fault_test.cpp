// tests/gpu/fault_test.cpp — issue 21 on the device: a job whose partition hits a kernel fault (the
// "cuda" injection point of util/fault.hpp launches a trapping kernel, leaving the context in a
// sticky error state) fails with the CUDA error; the GPU backend resets the device and recreates its
// state, the jobs queued around it prove and verify (on the CPU verifier), and status reports the
// recovery — or, where the device cannot be reset from inside the process, takes the backend out of
// service, says why in status, and fails the jobs that need it at once. A fault thrown between
// stages ("prove") needs no reset. Skipped without a device.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "../engine/engine_test_util.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/gpu/backend.hpp"
#include "proofline/util/fault.hpp"
#include "require_device.hpp"

namespace proofline::engine {
namespace {

using namespace testing;

EngineConfig gpu_config(std::shared_ptr<gpu::GpuBackend> be) {
  EngineConfig cfg = test_config(std::move(be));
  return cfg;
}

TEST(GpuFaults, ExceptionBetweenStagesNeedsNoReset) {
  REQUIRE_CUDA_DEVICE();
  fault::disarm_all();
  auto be = std::make_shared<gpu::GpuBackend>(gpu::GpuBackendConfig{});
  Engine e(gpu_config(be));
  fault::arm("prove", "gpu-throws");
  const std::string good = e.submit(bench_request("gpu-good", 10, 2, 3)).request_id;
  const AwaitResult v = e.prove(bench_request("gpu-throws", 10, 2, 4));
  EXPECT_EQ(v.result.state, JobState::Failed);
  EXPECT_NE(v.result.error.find("injected fault at prove"), std::string::npos) << v.result.error;
  const AwaitResult g = e.await(good, std::chrono::seconds(120));
  EXPECT_EQ(g.result.state, JobState::Done) << g.result.error;
  EXPECT_TRUE(verify_each(bench_vk(10), g.result));
  EXPECT_EQ(be->recoveries(), 0u);
  EXPECT_TRUE(be->in_service());
}

// Run it last (or alone, as ctest does): where the device cannot be brought back from inside the
// process, no later test of this process has a device.
TEST(GpuFaults, KernelFaultFailsOneJobAndTheDeviceIsRecoveredOrTakenOutOfService) {
  REQUIRE_CUDA_DEVICE();
  fault::disarm_all();
  auto be = std::make_shared<gpu::GpuBackend>(gpu::GpuBackendConfig{});
  Engine e(gpu_config(be));
  ASSERT_EQ(e.prove(bench_request("gpu-warm", 10, 1, 1)).result.state, JobState::Done);
  fault::arm("cuda", "gpu-victim");
  std::vector<std::string> before, after;
  for (int i = 0; i < 2; ++i) before.push_back(e.submit(bench_request("gpu-before-" + std::to_string(i), 10, 2, 10 + i)).request_id);
  const std::string victim = e.submit(bench_request("gpu-victim", 10, 2, 5)).request_id;
  for (int i = 0; i < 2; ++i) after.push_back(e.submit(bench_request("gpu-after-" + std::to_string(i), 10, 2, 20 + i)).request_id);
  const AwaitResult v = e.await(victim, std::chrono::seconds(120));
  EXPECT_EQ(v.result.state, JobState::Failed);
  EXPECT_NE(v.result.error.find("backend 0 (cuda) failed: CUDA error "), std::string::npos) << v.result.error;
  EXPECT_TRUE(v.result.proof_bytes.empty());
  EXPECT_EQ(fault::fired("cuda"), 1);
  // Jobs ahead of the victim (one backend, FIFO) were proved before the fault.
  for (const auto& id : before) {
    const AwaitResult g = e.await(id, std::chrono::seconds(120));
    EXPECT_EQ(g.result.state, JobState::Done) << id << ": " << g.result.error;
    EXPECT_TRUE(verify_each(bench_vk(10), g.result)) << id;
  }
  const EngineStatus st = e.status();
  ASSERT_EQ(st.backends.size(), 1u);
  if (st.backends[0].in_service) {
    // Recovered: the device was reset and the backend's state rebuilt; everything after proves.
    EXPECT_EQ(st.backends[0].recoveries, 1u);
    EXPECT_EQ(st.backends[0].fault.rfind("device reset after: CUDA error 719", 0), 0u) << st.backends[0].fault;
    for (const auto& id : after) {
      const AwaitResult g = e.await(id, std::chrono::seconds(120));
      EXPECT_EQ(g.result.state, JobState::Done) << id << ": " << g.result.error;
      EXPECT_TRUE(verify_each(bench_vk(10), g.result)) << id;
    }
    const AwaitResult again = e.prove(bench_request("gpu-again", 10, 3, 7));
    EXPECT_EQ(again.result.state, JobState::Done) << again.result.error;
    EXPECT_TRUE(verify_each(bench_vk(10), again.result));
  } else {
    // The device could not be brought back from inside this process: out of service, said so, and
    // the jobs that need it fail at once with the reason instead of waiting forever.
    RecordProperty("outcome", "out of service: " + st.backends[0].fault);
    EXPECT_NE(st.backends[0].fault.find("recovery failed"), std::string::npos) << st.backends[0].fault;
    for (const auto& id : after) {
      const AwaitResult g = e.await(id, std::chrono::seconds(120));
      EXPECT_EQ(g.result.state, JobState::Failed) << id;
      EXPECT_NE(g.result.error.find("no prover backend in service"), std::string::npos) << g.result.error;
    }
    const AwaitResult again = e.prove(bench_request("gpu-again", 10, 1, 7), std::chrono::seconds(60));
    EXPECT_EQ(again.status, AwaitStatus::Ready);
    EXPECT_NE(again.result.error.find("no prover backend in service"), std::string::npos) << again.result.error;
  }
  std::printf("GpuFaults: after the kernel fault: %s (%s)\n", st.backends[0].in_service ? "recovered" : "out of service",
              st.backends[0].fault.c_str());
}

}  // namespace
}  // namespace proofline::engine
