// Shared fixtures of the daemon tests: an in-process Daemon on a unix socket (in a temporary
// folder) and on 127.0.0.1 (any free port), gRPC stubs to both, request builders, and the check of
// a returned proof with the groth16 verifier. Parameters and snarkjs files come from the engine
// tests' fixtures (tests/engine/engine_test_util.hpp): bench 2^k .params, a toy-setup zkey/wtns, the
// "slow-bench" kind (artificial synthesis delay) and the gated TestBackend.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "../engine/engine_test_util.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/server/service.hpp"

namespace proofline::server::testing {

using namespace std::chrono_literals;
using engine::testing::bench_params;
using engine::testing::mul_params;
using Clock = std::chrono::steady_clock;

// Logs at warning level and above: engine_test_util.hpp's quiet_logs.

inline std::filesystem::path server_dir() {
  static const std::filesystem::path d = [] {
    auto p = std::filesystem::temp_directory_path() / ("proofline-server-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(p);
    return p;
  }();
  return d;
}

/// A daemon for one test: unix socket + 127.0.0.1:0, CPU backend (or the given backends), the
/// engine tests' registry (built-ins + slow-bench).
struct Harness {
  std::unique_ptr<Daemon> daemon;
  std::unique_ptr<pb::ProvingEngine::Stub> unix_stub, tcp_stub;

  /// `kinds`: null for the engine tests' registry.
  explicit Harness(unsigned synthesis_workers = 2, std::vector<std::shared_ptr<groth16::ProverBackend>> backends = {},
                   DaemonConfig cfg = {}, std::shared_ptr<engine::KindRegistry> kinds = nullptr) {
    static std::atomic<int> n{0};
    cfg.unix_socket = (server_dir() / ("d" + std::to_string(n++) + ".sock")).string();
    cfg.tcp = "127.0.0.1:0";
    cfg.synthesis_workers = synthesis_workers;
    cfg.cpu_threads = 1;
    if (cfg.memory_budget == 0) cfg.memory_budget = std::uint64_t{1} << 30;
    cfg.log_partitions = false;
    cfg.await_poll_ms = 20;
    // The fixtures' files live in temporary folders: any path, unless a case confines them itself.
    if (cfg.allowed_paths == DaemonConfig{}.allowed_paths) cfg.allowed_paths = {"*"};
    DaemonParts parts;
    parts.backends = std::move(backends);
    parts.kinds = kinds ? std::move(kinds) : engine::testing::test_registry();
    daemon = std::make_unique<Daemon>(cfg, std::move(parts));
    unix_stub = pb::ProvingEngine::NewStub(make_channel(daemon->listening().at(0)));
    tcp_stub = pb::ProvingEngine::NewStub(make_channel(daemon->listening().at(1)));
  }
  pb::ProvingEngine::Stub& stub(bool tcp = false) { return tcp ? *tcp_stub : *unix_stub; }

  pb::StatusResponse status() {
    grpc::ClientContext ctx;
    pb::StatusResponse s;
    EXPECT_TRUE(unix_stub->GetStatus(&ctx, {}, &s).ok());
    return s;
  }
  std::string metrics() {
    grpc::ClientContext ctx;
    pb::MetricsResponse m;
    EXPECT_TRUE(unix_stub->GetMetrics(&ctx, {}, &m).ok());
    return m.text();
  }
};

inline pb::ProofRequest bench_req(const std::string& id, unsigned log, unsigned partitions, std::uint64_t seed,
                                  pb::Priority pri = pb::PRIORITY_NORMAL) {
  pb::ProofRequest r;
  r.set_request_id(id);
  r.set_kind("bench");
  r.set_priority(pri);
  auto& a = *r.mutable_args();
  a["params"] = bench_params(log);
  a["size"] = "2^" + std::to_string(log);
  a["input"] = std::to_string(seed);
  a["partitions"] = std::to_string(partitions);
  return r;
}

/// slow-bench (engine tests' kind): bench 2^log whose synthesis of each partition sleeps synth_ms.
inline pb::ProofRequest slow_req(const std::string& id, unsigned log, unsigned partitions, std::uint64_t seed,
                                 unsigned synth_ms, pb::Priority pri = pb::PRIORITY_NORMAL) {
  pb::ProofRequest r = bench_req(id, log, partitions, seed, pri);
  r.set_kind("slow-bench");
  (*r.mutable_args())["synth_ms"] = std::to_string(synth_ms);
  return r;
}

inline grpc::Status submit(pb::ProvingEngine::Stub& s, const pb::ProofRequest& r, pb::SubmitProofResponse* out = nullptr) {
  grpc::ClientContext ctx;
  pb::SubmitProofRequest req;
  *req.mutable_request() = r;
  pb::SubmitProofResponse resp;
  grpc::Status st = s.SubmitProof(&ctx, req, &resp);
  if (out) *out = resp;
  return st;
}

inline pb::ProofResult await(pb::ProvingEngine::Stub& s, const std::string& id, std::uint64_t timeout_ms = 0,
                             grpc::Status* status = nullptr) {
  grpc::ClientContext ctx;
  pb::AwaitProofRequest req;
  req.set_request_id(id);
  req.set_timeout_ms(timeout_ms);
  pb::ProofResult r;
  grpc::Status st = s.AwaitProof(&ctx, req, &r);
  if (status) *status = st;
  return r;
}

inline pb::ProofResult prove(pb::ProvingEngine::Stub& s, const pb::ProofRequest& r, grpc::Status* status = nullptr) {
  grpc::ClientContext ctx;
  pb::ProveRequest req;
  *req.mutable_request() = r;
  pb::ProofResult out;
  grpc::Status st = s.Prove(&ctx, req, &out);
  if (status) *status = st;
  return out;
}

inline pb::CancelProofResponse cancel(pb::ProvingEngine::Stub& s, const std::string& id) {
  grpc::ClientContext ctx;
  pb::CancelProofRequest req;
  req.set_request_id(id);
  pb::CancelProofResponse r;
  EXPECT_TRUE(s.CancelProof(&ctx, req, &r).ok()) << id;
  return r;
}

/// Decodes the result's proofs and public inputs (decimal strings).
inline std::vector<std::vector<ff::Fr>> public_inputs_of(const pb::ProofResult& r) {
  std::vector<std::vector<ff::Fr>> out;
  for (const auto& p : r.public_inputs()) {
    std::vector<ff::Fr> v;
    for (const auto& s : p.values()) v.push_back(groth16::fr_from_decimal(s, "public input"));
    out.push_back(v);
  }
  return out;
}
inline std::vector<groth16::Proof> proofs_of(const pb::ProofResult& r) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(r.proof().data());
  return groth16::decode_proofs(std::span<const std::uint8_t>(b, r.proof().size()));
}

/// COMPLETED, one proof per partition, each verified by groth16::verify_proof under `vk`.
inline ::testing::AssertionResult verified(const groth16::VerifyingKey& vk, const pb::ProofResult& r,
                                           std::size_t partitions) {
  if (r.status() != pb::PROOF_STATUS_COMPLETED) {
    return ::testing::AssertionFailure() << r.request_id() << ": status " << pb::ProofStatus_Name(r.status()) << " "
                                         << r.error_message();
  }
  const auto proofs = proofs_of(r);
  const auto inputs = public_inputs_of(r);
  if (proofs.size() != partitions || inputs.size() != partitions || r.partitions_size() != static_cast<int>(partitions)) {
    return ::testing::AssertionFailure() << r.request_id() << ": " << proofs.size() << " proofs, " << inputs.size()
                                         << " input sets, expected " << partitions;
  }
  const auto pvk = groth16::prepare_verifying_key(vk);
  for (std::size_t k = 0; k < partitions; ++k) {
    if (!groth16::verify_proof(pvk, proofs[k], inputs[k])) {
      return ::testing::AssertionFailure() << r.request_id() << ": partition " << k << " does not verify";
    }
  }
  return ::testing::AssertionSuccess();
}

inline const groth16::VerifyingKey& bench_vk(unsigned log) {
  static std::mutex mu;
  static std::map<unsigned, groth16::VerifyingKey> vks;
  std::lock_guard lk(mu);
  auto it = vks.find(log);
  if (it == vks.end()) it = vks.emplace(log, groth16::VerifyingKey::read_params_file_head(bench_params(log))).first;
  return it->second;
}

using engine::testing::eventually;  // polls a predicate until true or 10 s

inline std::uint32_t stage_count(const pb::StatusResponse& s, const std::string& stage, bool running) {
  for (const auto& q : s.queues()) {
    if (q.stage() == stage) return running ? q.running() : q.pending();
  }
  return 0;
}

}  // namespace proofline::server::testing
