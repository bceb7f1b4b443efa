// The engine and the backends' own SRS copies: status and metrics report how each parameter set is
// held (groth16::ProverBackend::srs_holding: resident / streamed / mixed, bytes), and an engine whose
// backends are all GPU backends loads parameter sets without a host copy of their queries
// (groth16::load_parameters, HostQueries::LeaveInFile); an engine with a CPU backend as before.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "engine_test_util.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/engine/srs.hpp"

namespace proofline::engine {
namespace {

using namespace testing;
using namespace std::chrono_literals;

/// A backend named as asked that proves on the CPU and then reports a fixed holding for the
/// parameter set it proved with (by address, as GpuBackend keys its copies).
class HoldingBackend final : public groth16::ProverBackend {
 public:
  HoldingBackend(std::string name, std::string_view mode, std::size_t bytes)
      : name_(std::move(name)), mode_(mode), bytes_(bytes) {}
  std::string_view name() const override { return name_; }
  groth16::ProverResult prove(const groth16::Parameters& params, std::span<r1cs::ProvingBuffers> parts,
                              std::span<const groth16::Randomizers> rs, const std::atomic<bool>* cancel) override {
    {
      std::lock_guard lk(mu_);
      held_ = &params;
    }
    return cpu_.prove(params, parts, rs, cancel);
  }
  groth16::SrsHolding srs_holding(const groth16::Parameters& p) const override {
    std::lock_guard lk(mu_);
    if (held_ != &p) return {};
    return {mode_, bytes_};
  }
  void hold(const groth16::Parameters& p) {
    std::lock_guard lk(mu_);
    held_ = &p;
  }

 private:
  std::string name_;
  std::string_view mode_;
  std::size_t bytes_;
  groth16::CpuBackend cpu_{groth16::CpuBackendConfig{1}};
  mutable std::mutex mu_;
  const groth16::Parameters* held_ = nullptr;
};

TEST(EngineSrsDevice, StatusAndMetricsReportHowTheBackendHoldsIt) {
  auto a = std::make_shared<HoldingBackend>("x", "resident", 1000);
  Engine e(test_config(a));
  const SrsStatus s = e.preload_srs("bench", {{"params", bench_params(6)}});
  EXPECT_EQ(s.device_mode, "");  // on no device yet
  EXPECT_EQ(e.metrics_text().find("proofline_engine_srs_device_bytes{"), std::string::npos);
  ASSERT_EQ(e.prove(bench_request("d1", 6, 1, 1), 60s).result.state, JobState::Done);
  const auto st = e.status().srs;
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].device_mode, "resident");
  EXPECT_EQ(st[0].device_bytes, 1000u);
  const std::string m = e.metrics_text();
  EXPECT_NE(m.find("proofline_engine_srs_device_bytes{key=\"" + s.key + "\",mode=\"resident\"} 1000"),
            std::string::npos)
      << m;
}

TEST(EngineSrsDevice, HoldingsOfSeveralBackendsAreSummedAndMixed) {
  groth16::Parameters p, other;
  auto a = std::make_shared<HoldingBackend>("x", "resident", 1000);
  auto b = std::make_shared<HoldingBackend>("y", "streamed", 500);
  auto c = std::make_shared<HoldingBackend>("z", "resident", 7);
  a->hold(p);
  b->hold(other);
  c->hold(p);
  const std::vector<std::shared_ptr<groth16::ProverBackend>> backends{a, b, c,
                                                                      std::make_shared<groth16::CpuBackend>()};
  SrsStatus st;
  describe_device_holding(backends, p, st);
  EXPECT_EQ(st.device_mode, "resident");
  EXPECT_EQ(st.device_bytes, 1007u);
  b->hold(p);
  describe_device_holding(backends, p, st);
  EXPECT_EQ(st.device_mode, "mixed");
  EXPECT_EQ(st.device_bytes, 1507u);
  groth16::Parameters none;
  describe_device_holding(backends, none, st);
  EXPECT_EQ(st.device_mode, "");
  EXPECT_EQ(st.device_bytes, 0u);
}

TEST(EngineSrsDevice, GpuOnlyEnginesKeepNoHostQueries) {
  const std::string path = bench_params(6);
  const groth16::Parameters whole = groth16::Parameters::read_file(path);
  {
    Engine e(test_config(std::make_shared<HoldingBackend>("cuda", "resident", 1)));
    EXPECT_EQ(groth16::host_queries(), groth16::HostQueries::LeaveInFile);
    const SrsStatus s = e.preload_srs("bench", {{"params", path}});
    // only the vk and shape stay on the host: far less than the queries
    EXPECT_LT(s.bytes, whole.query_bytes() / 4) << s.bytes;
    const groth16::Parameters shell = groth16::load_parameters(path);
    EXPECT_FALSE(shell.has_host_queries());
    EXPECT_EQ(shell.domain_size(), whole.domain_size());
  }
  {
    Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
    EXPECT_EQ(groth16::host_queries(), groth16::HostQueries::Keep);
    const SrsStatus s = e.preload_srs("bench", {{"params", path}});
    EXPECT_GE(s.bytes, whole.query_bytes());
    EXPECT_EQ(groth16::load_parameters(path), whole);
    ASSERT_EQ(e.prove(bench_request("d2", 6, 1, 2), 60s).result.state, JobState::Done);
  }
}

}  // namespace
}  // namespace proofline::engine
