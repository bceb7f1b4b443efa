// tests/support/kind_test_util.hpp — what the tests of the file-driven kinds (tests/post, tests/snap)
// share: a scratch folder of the process, files written into it, and a CPU engine with every
// built-in kind.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/params.hpp"

namespace proofline::engine::testing {

/// <temp>/proofline-<tag>-<pid>, created.
inline std::filesystem::path scratch_dir(const std::string& tag) {
  const std::filesystem::path d =
      std::filesystem::temp_directory_path() / ("proofline-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

/// Writes `text` to scratch_dir(tag)/name and returns the path.
inline std::string write_scratch(const std::string& tag, const std::string& name, const std::string& text) {
  const std::string p = (scratch_dir(tag) / name).string();
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

/// One CPU backend of `threads` threads (0: all), one synthesis worker, the built-in kinds.
inline EngineConfig cpu_engine_config(int threads, std::uint64_t memory_budget_bytes) {
  EngineConfig c;
  c.backends.push_back(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{threads}));
  c.synthesis_workers = 1;
  c.memory_budget_bytes = memory_budget_bytes;
  c.kinds = KindRegistry::builtin();
  c.log_partitions = false;
  return c;
}

/// Sets groth16::host_queries() for a scope (as an engine of GPU backends only does: LeaveInFile) and
/// puts the previous value back when it ends.
class HostQueriesScope {
 public:
  explicit HostQueriesScope(groth16::HostQueries h) : was_(groth16::host_queries()) { groth16::set_host_queries(h); }
  ~HostQueriesScope() { groth16::set_host_queries(was_); }
  HostQueriesScope(const HostQueriesScope&) = delete;
  HostQueriesScope& operator=(const HostQueriesScope&) = delete;

 private:
  groth16::HostQueries was_;
};

/// Request `r` proved twice by `e` with the fixed randomizers `rs` (one pair per partition): in prover
/// mode (argument compiled=0) and in the compiled form (compiled=1, issue 31), after removing
/// `<params>.compiled` so that the compiled circuit is recorded again. Returns {prover mode, compiled};
/// a job that did not end DONE is a test failure (the other result's state says which).
inline std::pair<AwaitResult, AwaitResult> prove_both_forms(Engine& e, ProofRequest r,
                                                            std::vector<groth16::Randomizers> rs,
                                                            std::chrono::milliseconds timeout) {
  std::error_code ec;
  std::filesystem::remove(r.args.at("params") + ".compiled", ec);
  r.randomizers = std::move(rs);
  r.args["compiled"] = "0";
  AwaitResult evaluated = e.prove(r, timeout);
  EXPECT_EQ(evaluated.result.state, JobState::Done) << evaluated.result.error;
  r.args["compiled"] = "1";
  if (!r.request_id.empty()) r.request_id += "-compiled";
  AwaitResult compiled = e.prove(r, timeout);
  EXPECT_EQ(compiled.result.state, JobState::Done) << compiled.result.error;
  return {std::move(evaluated), std::move(compiled)};
}

}  // namespace proofline::engine::testing
