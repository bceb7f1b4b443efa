// The engine and the backends' own SRS copies: status and metrics report how each parameter set is
// held (groth16::ProverBackend::srs_holding: resident / streamed / mixed, bytes), and an engine whose
// backends are all GPU backends loads parameter sets without a host copy of their queries
// (groth16::load_parameters, HostQueries::LeaveInFile); an engine with a CPU backend as before.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

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

/// A CPU backend that says whether it evaluates compiled-form partitions itself (as a GPU backend
/// with or without room for the compiled circuit on its device), records the form each partition
/// arrives in, and "holds" the compiled circuit preload_compiled gave it.
class CompiledFormBackend final : public groth16::ProverBackend {
 public:
  /// host_rows false: as a GPU that evaluates on its device, a, b, c never on the host
  /// (compiled_needs_host_rows; the CPU backend it proves with fills them all the same).
  explicit CompiledFormBackend(bool on_device, bool host_rows = true) : on_device_(on_device), host_rows_(host_rows) {}
  std::string_view name() const override { return "compiled-form"; }
  groth16::ProverResult prove(const groth16::Parameters& params, std::span<r1cs::ProvingBuffers> parts,
                              std::span<const groth16::Randomizers> rs, const std::atomic<bool>* cancel) override {
    {
      std::lock_guard lk(mu_);
      for (const auto& p : parts) {
        ++(p.compiled ? compiled_ : evaluated_);
        if (!p.compiled) rows_ = p.a.size();
      }
    }
    if (!host_rows_) {  // as a GPU: the partitions' host buffers are read, never grown
      std::vector<r1cs::ProvingBuffers> copies(parts.begin(), parts.end());
      return cpu_.prove(params, copies, rs, cancel);
    }
    return cpu_.prove(params, parts, rs, cancel);
  }
  bool evaluates_compiled(const groth16::Parameters&, const r1cs::CompiledCircuit&) const override {
    std::lock_guard lk(mu_);
    ++asked_;
    return on_device_;
  }
  bool compiled_needs_host_rows(const groth16::Parameters&, const r1cs::CompiledCircuit&) const override {
    return host_rows_;
  }
  double preload_compiled(const groth16::Parameters&, const std::shared_ptr<const r1cs::CompiledCircuit>& cc) override {
    std::lock_guard lk(mu_);
    held_ = cc.get();
    return 1;
  }
  std::uint64_t compiled_device_bytes(const r1cs::CompiledCircuit& cc) const override {
    std::lock_guard lk(mu_);
    return held_ == &cc ? 4242 : 0;
  }
  std::size_t compiled() const { std::lock_guard lk(mu_); return compiled_; }
  std::size_t evaluated() const { std::lock_guard lk(mu_); return evaluated_; }
  std::size_t asked() const { std::lock_guard lk(mu_); return asked_; }
  std::size_t rows() const { std::lock_guard lk(mu_); return rows_; }

 private:
  bool on_device_, host_rows_;
  groth16::CpuBackend cpu_{groth16::CpuBackendConfig{1}};
  mutable std::mutex mu_;
  std::size_t compiled_ = 0, evaluated_ = 0, rows_ = 0;
  mutable std::size_t asked_ = 0;
  const r1cs::CompiledCircuit* held_ = nullptr;
};

// Issue 31: a backend that would evaluate the compiled form on the host inside its prove call (a GPU
// without room for the compiled circuit) gets the partitions evaluated in the synthesis stage
// instead, asked once per job; one that evaluates them itself gets the compiled form. Same proof
// bytes either way. Status lists the compiled circuit (host, disk and device bytes), the derived
// budget leaves room for it, and a preload of its parameter set hands it to the backend.
TEST(EngineCompiledForm, EvaluatedAtSynthesisWhenTheBackendWouldIdleItsDevice) {
  ProofRequest r = bench_request("host", 6, 3, 7);
  r.args["compiled"] = "1";
  r.randomizers.assign(3, groth16::Randomizers{Fr::from_u64(11), Fr::from_u64(12)});
  std::vector<std::vector<std::uint8_t>> bytes;
  for (const bool on_device : {false, true}) {
    SCOPED_TRACE(on_device ? "on the device" : "on the host");
    auto be = std::make_shared<CompiledFormBackend>(on_device);
    EngineConfig cfg = test_config(be);
    cfg.memory_budget_bytes = 0;  // derived from the machine: leaves room for the compiled circuit
    Engine e(std::move(cfg));
    r.request_id = on_device ? "device" : "host";
    const AwaitResult a = e.prove(r, 60s);
    ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
    EXPECT_TRUE(verify_each(bench_vk(6), a.result));
    bytes.push_back(a.result.proof_bytes);
    EXPECT_EQ(be->asked(), 1u);
    EXPECT_EQ(be->compiled(), on_device ? 3u : 0u);
    EXPECT_EQ(be->evaluated(), on_device ? 0u : 3u);
    if (!on_device) EXPECT_EQ(be->rows(), std::size_t{1} << 6) << "a, b, c evaluated (padded to the domain)";

    const EngineStatus st = e.status();
    const std::string key = a.result.srs_key;
    const auto it = std::find_if(st.compiled.begin(), st.compiled.end(), [&](const auto& c) { return c.key == key; });
    ASSERT_NE(it, st.compiled.end()) << "status lists the compiled circuit of " << key;
    EXPECT_GT(it->constraints, 0u);
    EXPECT_GT(it->host_bytes, 0u);
    EXPECT_EQ(it->file, r.args["params"] + ".compiled");
    EXPECT_EQ(it->disk_bytes, std::filesystem::file_size(it->file));
    EXPECT_EQ(it->device_bytes, 0u);  // not preloaded
    EXPECT_GE(st.memory.compiled_bytes, it->host_bytes);
    // the next admission re-derives the budget with the compiled circuit's bytes
    EXPECT_TRUE(eventually([&] {
      return e.status().memory.budget_derivation.find(" − compiled circuits ") != std::string::npos;
    })) << e.status().memory.budget_derivation;

    // a preload of the same set hands the compiled circuit to the backend, whose bytes status shows
    e.preload_srs("bench", {{"params", r.args["params"]}});
    const EngineStatus st2 = e.status();
    const auto it2 = std::find_if(st2.compiled.begin(), st2.compiled.end(), [&](const auto& c) { return c.key == key; });
    ASSERT_NE(it2, st2.compiled.end());
    EXPECT_EQ(it2->device_bytes, 4242u);
    const std::string m = e.metrics_text();
    EXPECT_NE(m.find("proofline_engine_compiled_circuit_bytes{key=\"" + key + "\",where=\"device\"} 4242\n"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("proofline_engine_compiled_circuit_bytes{key=\"" + key + "\",where=\"disk\"} " +
                     std::to_string(it2->disk_bytes) + "\n"),
              std::string::npos);
  }
  EXPECT_EQ(bytes[0], bytes[1]);
}

// Issue 31: the compiled form evaluated on the devices leaves a partition only its witness on the
// host. With the compiled circuit held before the job (an earlier job made it), a partition reserves
// witness_buffer_bytes, not partition_bytes: a budget of 2.5 witnesses, less than one whole
// partition, proves a 3-partition compiled job (nothing evaluated at synthesis, nobody asked) and
// refuses a prover-mode one; a preload of the set in the compiled form warms nothing.
TEST(EngineCompiledForm, WitnessOnlyPartitionsReserveTheirWitness) {
  const std::string params = bench_params(8);
  const groth16::Parameters p = groth16::Parameters::read_file(params);
  ProofRequest r = bench_request("made", 8, 1, 3);
  r.args["compiled"] = "1";
  {
    Engine e0(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
    ASSERT_EQ(e0.prove(r, 60s).result.state, JobState::Done);  // the compiled circuit, held from here on
  }
  const std::uint64_t witness = witness_buffer_bytes(p);
  ASSERT_LT(witness * 5 / 2, partition_buffer_bytes(p));
  auto be = std::make_shared<CompiledFormBackend>(true, false);
  EngineConfig cfg = test_config(be);
  cfg.memory_budget_bytes = witness * 5 / 2;
  Engine e(std::move(cfg));
  EXPECT_THROW(e.preload_srs("bench", {{"params", params}, {"compiled", "yes"}}), std::invalid_argument);
  e.preload_srs("bench", {{"params", params}, {"compiled", "1"}});
  ASSERT_TRUE(eventually([&] { return e.status().memory.warm_state == "warm"; })) << e.status().memory.warm_state;
  EXPECT_EQ(e.status().memory.warm_buffers, 0u);

  r = bench_request("witness-only", 8, 3, 5);
  r.args["compiled"] = "1";
  const AwaitResult a = e.prove(r, 60s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_TRUE(verify_each(bench_vk(8), a.result));
  EXPECT_EQ(be->compiled(), 3u);
  EXPECT_EQ(be->evaluated(), 0u);
  EXPECT_EQ(be->asked(), 0u);  // decided at prepare: no partition evaluated at synthesis
  EXPECT_LE(e.status().memory.used_bytes, e.status().memory.budget_bytes);

  r = bench_request("prover-mode", 8, 1, 5);
  const AwaitResult b = e.prove(r, 60s);
  EXPECT_EQ(b.result.state, JobState::Failed);
  EXPECT_NE(b.result.error.find("one partition needs " + std::to_string(partition_buffer_bytes(p)) + " bytes"),
            std::string::npos)
      << b.result.error;
}

}  // namespace
}  // namespace proofline::engine
