// Proving a zkey + witness the way `proofline prove --zkey` does: a request of kind "snarkjs" to an
// engine::Engine with one CpuBackend (one engine per test process), the witness as the payload and
// the zkey written to a temporary file (the kind reads zkeys from files). For the snarkjs and
// hardening tests.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <spdlog/spdlog.h>

#include "proofline/engine/engine.hpp"
#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/snarkjs/files.hpp"

namespace proofline::groth16::snarkjs::testing {

/// The test process's engine: one CPU backend, quiet logs.
inline engine::Engine& test_engine() {
  static const std::unique_ptr<engine::Engine> e = [] {
    spdlog::set_level(spdlog::level::warn);  // failures of the bad-input tests are expected
    engine::EngineConfig cfg;
    cfg.backends = {std::make_shared<CpuBackend>()};
    cfg.synthesis_workers = 2;
    cfg.log_partitions = false;
    cfg.srs_budget_bytes = std::uint64_t{256} << 20;  // tests write many small zkeys
    return std::make_unique<engine::Engine>(std::move(cfg));
  }();
  return *e;
}

/// `z` written to a new file in this process's temporary folder; returns its path.
inline std::string write_temp_zkey(const Zkey& z) {
  static std::atomic<unsigned> counter{0};
  const auto dir = std::filesystem::temp_directory_path() / ("proofline-snarkjs-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / ("t" + std::to_string(counter++) + ".zkey")).string();
  z.write_file(path);
  return path;
}

/// Proves `w` with `z` through the engine; `rs`: fixed randomizers (else random); `compiled`: the
/// kind's argument (the compiled form, its default, or the zkey's entries added up at synthesis). The
/// job's final result (DONE with one verified proof, or FAILED with the engine's reason and Failure
/// class).
inline engine::ProofResult engine_prove(const Zkey& z, const Witness& w, std::optional<Randomizers> rs = std::nullopt,
                                        bool checked_points = false, bool compiled = true) {
  const std::string zkey = write_temp_zkey(z);
  engine::ProofRequest r;
  r.kind = "snarkjs";
  r.args = {{"zkey", zkey}, {"checked", checked_points ? "1" : "0"}, {"compiled", compiled ? "1" : "0"}};
  r.payload = w.to_bytes();
  if (rs) r.randomizers = {*rs};
  engine::ProofResult res = test_engine().prove(std::move(r), std::chrono::minutes(5)).result;
  std::filesystem::remove(zkey);
  return res;
}

}  // namespace proofline::groth16::snarkjs::testing
