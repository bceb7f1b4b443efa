// Shared fixtures of the engine tests: development parameters of the bench circuit written to a
// temporary folder, test backends (a gate that holds the prover, an artificial delay, a corrupter)
// and a slow kind (artificial synthesis delay), a snarkjs zkey/wtns pair from the toy setup.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "../snarkjs/toy_setup.hpp"
#include "proofline/circuits/bench/bench.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/groth16/groth16.hpp"

namespace proofline::engine::testing {

using namespace std::chrono_literals;
using ff::Fr;

// Engine logs at warning level and above only (failures of the bad-request tests still show).
inline const bool quiet_logs = [] {
  spdlog::set_level(spdlog::level::warn);
  return true;
}();

inline std::filesystem::path test_dir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("proofline-engine-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

/// Development parameters of the bench circuit of 2^log rows (fixed seed), written once per process.
inline std::string bench_params(unsigned log) {
  static std::mutex mu;
  static std::map<unsigned, std::string> files;
  std::lock_guard lk(mu);
  auto it = files.find(log);
  if (it != files.end()) return it->second;
  auto built = circuits::bench::make_circuit("bench", log, 1);
  groth16::SeededRandom rng(1000 + log);
  groth16::SetupOptions opts;
  opts.warn = false;
  groth16::Parameters p = groth16::generate_parameters(*built.circuit, rng, opts);
  const std::string path = (test_dir() / ("bench_" + std::to_string(log) + ".params")).string();
  p.write_file(path);
  files.emplace(log, path);
  return path;
}

inline std::string mul_params() {
  static const std::string path = [] {
    circuits::bench::MulCircuit c;
    groth16::SeededRandom rng(77);
    groth16::SetupOptions opts;
    opts.warn = false;
    groth16::Parameters p = groth16::generate_parameters(c, rng, opts);
    const std::string f = (test_dir() / "mul.params").string();
    p.write_file(f);
    return f;
  }();
  return path;
}

inline ProofRequest bench_request(const std::string& id, unsigned log, std::size_t partitions, std::uint64_t input,
                                  Priority pri = Priority::Normal) {
  ProofRequest r;
  r.request_id = id;
  r.kind = "bench";
  r.priority = pri;
  r.args = {{"params", bench_params(log)},
            {"size", "2^" + std::to_string(log)},
            {"partitions", std::to_string(partitions)},
            {"input", std::to_string(input)}};
  return r;
}

/// The bench circuit's x (public input 1) of a synthesized partition: identifies the partition.
inline std::uint64_t partition_tag(const r1cs::ProvingBuffers& b) {
  for (std::uint64_t v = 0; v < 100000; ++v) {
    if (b.input_assignment.at(1) == Fr::from_u64(v)) return v;
  }
  return ~std::uint64_t{0};
}

/// CpuBackend with an optional gate (prove() blocks while the gate is closed), an artificial delay,
/// a record of the partitions it saw (by partition_tag), and an optional proof corruption.
class TestBackend final : public groth16::ProverBackend {
 public:
  explicit TestBackend(bool gate_closed = false, std::chrono::milliseconds delay = 0ms)
      : closed_(gate_closed), delay_(delay) {}
  std::string_view name() const override { return "test-cpu"; }
  groth16::ProverResult prove(const groth16::Parameters& params, std::span<r1cs::ProvingBuffers> parts,
                              std::span<const groth16::Randomizers> rs,
                              const std::atomic<bool>* cancel = nullptr) override {
    {
      std::unique_lock lk(mu_);
      for (const auto& p : parts) {
        order_.push_back(partition_tag(p));
        a_data_.push_back(p.a.data());
      }
      ++entered_;
      cv_.notify_all();
      cv_.wait(lk, [&] { return !closed_; });
    }
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    groth16::ProverResult r = cpu_.prove(params, parts, rs, cancel);
    if (corrupt_) {
      for (auto& p : r.proofs) p.a = (-p.a.to_projective()).to_affine();
    }
    return r;
  }
  void open() {
    std::lock_guard lk(mu_);
    closed_ = false;
    cv_.notify_all();
  }
  /// Waits until prove() was entered `n` times (true) or 10 s passed (false).
  bool wait_entered(std::size_t n) {
    std::unique_lock lk(mu_);
    return cv_.wait_for(lk, 10s, [&] { return entered_ >= n; });
  }
  std::vector<std::uint64_t> order() const {
    std::lock_guard lk(mu_);
    return order_;
  }
  /// The address of each partition's `a` buffer, in the order prove() saw them (pool reuse).
  std::vector<const void*> a_addresses() const {
    std::lock_guard lk(mu_);
    return a_data_;
  }
  void set_corrupt(bool c) { corrupt_ = c; }

 private:
  groth16::CpuBackend cpu_{groth16::CpuBackendConfig{1}};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool closed_;
  std::chrono::milliseconds delay_;
  std::size_t entered_ = 0;
  std::vector<std::uint64_t> order_;
  std::vector<const void*> a_data_;
  std::atomic<bool> corrupt_{false};
};

/// A built-in kind (arg "inner": bench or mul, default bench) with an artificial synthesis delay
/// (arg "synth_ms"), registered as "slow-bench".
class SlowBenchKind final : public ProofKind {
 public:
  std::string_view name() const override { return "slow-bench"; }
  std::string_view description() const override { return "bench with an artificial synthesis delay (tests)"; }
  std::vector<ArgSpec> arguments() const override {
    std::vector<ArgSpec> a = bench_->arguments();
    for (auto& x : a) x.required = x.name == "params";  // size: not for inner = mul
    a.push_back(ArgSpec("inner", ArgType::String, "bench or mul").defaults_to("bench"));
    a.push_back(ArgSpec("synth_ms", ArgType::Int, "synthesis delay of each partition (ms)").defaults_to("0"));
    a.push_back(ArgSpec("explain", ArgType::String, "the fault explain_failed_check throws (bad input)").defaults_to(""));
    return a;
  }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    ProofRequest inner = r;
    inner.kind = arg_or(r, "inner", "bench");
    const auto ms = std::chrono::milliseconds(parse_u64_arg("synth_ms", arg_or(r, "synth_ms", "0")));
    inner.args.erase("explain");
    return std::make_shared<Job>((inner.kind == "mul" ? mul_ : bench_)->prepare(inner), ms, arg_or(r, "explain", ""));
  }

 private:
  class Job final : public KindJob {
   public:
    Job(std::shared_ptr<const KindJob> in, std::chrono::milliseconds d, std::string explain)
        : in_(std::move(in)), d_(d), explain_(std::move(explain)) {}
    std::size_t num_partitions() const override { return in_->num_partitions(); }
    std::string srs_key() const override { return in_->srs_key(); }
    std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& p) const override { return in_->load_srs(p); }
    void check(const Srs& s) const override { in_->check(s); }
    void synthesize(std::size_t k, const Srs& s, r1cs::ProvingBuffers& b) const override {
      std::this_thread::sleep_for(d_);
      in_->synthesize(k, s, b);
    }
    void explain_failed_check(const Srs&) const override {
      if (!explain_.empty()) throw ProoflineError(Error::Malformed, explain_);
    }

   private:
    std::shared_ptr<const KindJob> in_;
    std::chrono::milliseconds d_;
    std::string explain_;
  };
  std::shared_ptr<const ProofKind> bench_ = KindRegistry::builtin()->get("bench");
  std::shared_ptr<const ProofKind> mul_ = KindRegistry::builtin()->get("mul");
};

/// "overrun": a job under the parameters of bench 2^size (args params, size, partitions, input) whose
/// synthesis is the bench circuit of 2^synth_size rows (arg synth_size, default 2^17): more
/// constraints and variables than those parameters allow, as a buggy or hostile circuit would make.
/// The engine must stop it at its limits (r1cs::SynthesisLimits) before its buffers outgrow the
/// bytes reserved for them, and fail that job alone.
class OverrunKind final : public ProofKind {
 public:
  std::string_view name() const override { return "overrun"; }
  std::string_view description() const override { return "a synthesis larger than its parameters (tests)"; }
  std::vector<ArgSpec> arguments() const override {
    std::vector<ArgSpec> a = bench_->arguments();
    a.push_back(ArgSpec("synth_size", ArgType::Size, "rows of the circuit synthesized").defaults_to("2^17"));
    return a;
  }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    ProofRequest small = r, big = r;
    small.kind = big.kind = "bench";
    small.args.erase("synth_size");
    big.args.erase("synth_size");
    big.args["size"] = arg_or(r, "synth_size", "2^17");
    return std::make_shared<Job>(bench_->prepare(small), bench_->prepare(big));
  }

 private:
  class Job final : public KindJob {
   public:
    Job(std::shared_ptr<const KindJob> small, std::shared_ptr<const KindJob> big)
        : small_(std::move(small)), big_(std::move(big)) {}
    std::size_t num_partitions() const override { return small_->num_partitions(); }
    std::string srs_key() const override { return small_->srs_key(); }
    std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& p) const override { return small_->load_srs(p); }
    void check(const Srs& s) const override { small_->check(s); }
    void synthesize(std::size_t k, const Srs& s, r1cs::ProvingBuffers& b) const override { big_->synthesize(k, s, b); }

   private:
    std::shared_ptr<const KindJob> small_, big_;
  };
  std::shared_ptr<const ProofKind> bench_ = KindRegistry::builtin()->get("bench");
};

inline std::shared_ptr<KindRegistry> test_registry() {
  auto r = KindRegistry::builtin();
  r->add(std::make_shared<SlowBenchKind>());
  r->add(std::make_shared<OverrunKind>());
  return r;
}

inline EngineConfig test_config(std::shared_ptr<groth16::ProverBackend> backend, unsigned synth_workers = 2) {
  EngineConfig c;
  c.backends.push_back(std::move(backend));
  c.synthesis_workers = synth_workers;
  c.memory_budget_bytes = std::uint64_t{1} << 30;
  c.kinds = test_registry();
  c.log_partitions = false;
  return c;
}

inline groth16::VerifyingKey bench_vk(unsigned log) { return groth16::VerifyingKey::read_params_file_head(bench_params(log)); }

/// Polls `pred` until true or 10 s.
template <class P>
bool eventually(P pred) {
  const auto end = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return pred();
}

/// True iff every partition's proof verifies (one by one) under the parameters' verifying key.
inline bool verify_each(const groth16::VerifyingKey& vk, const ProofResult& r) {
  const auto pvk = groth16::prepare_verifying_key(vk);
  if (r.proofs.size() != r.num_partitions || r.public_inputs.size() != r.proofs.size()) return false;
  for (std::size_t k = 0; k < r.proofs.size(); ++k) {
    if (!groth16::verify_proof(pvk, r.proofs[k], r.public_inputs[k])) return false;
  }
  return r.proof_bytes == groth16::encode_proofs(r.proofs);
}

/// A snarkjs circuit of `steps` multiplications s_{i+1} = s_i·x (x public input, out = s_steps
/// public output), its toy-setup zkey and a witness, written as files. Returns {zkey, wtns}.
struct SnarkjsFiles {
  std::string zkey, wtns;
  groth16::VerifyingKey vk;
  std::vector<std::uint8_t> wtns_bytes;
};
inline SnarkjsFiles snarkjs_chain(std::size_t steps, std::uint64_t x, const std::string& name) {
  namespace sj = groth16::snarkjs;
  sj::R1cs r;
  // wires: 0 ONE, 1 out, 2 x, 3 .. 3 + steps − 1 the s_i (s_1 … s_steps), s_0 = x
  r.n_wires = static_cast<std::uint32_t>(3 + steps);
  r.n_pub_out = 1;
  r.n_pub_in = 1;
  r.n_prv_in = 0;
  r.n_labels = r.n_wires;
  auto T = [](std::uint32_t w, Fr c) { return sj::R1csTerm{w, c}; };
  const Fr one = Fr::one();
  std::vector<Fr> w(r.n_wires);
  w[0] = one;
  w[2] = Fr::from_u64(x);
  Fr s = w[2];
  for (std::size_t i = 0; i < steps; ++i) {
    const std::uint32_t prev = i == 0 ? 2 : static_cast<std::uint32_t>(3 + i - 1);
    const std::uint32_t next = static_cast<std::uint32_t>(3 + i);
    std::vector<sj::R1csTerm> a{T(prev, one)}, b{T(2, one)}, c{T(next, one)};
    r.add_constraint(a, b, c);
    s = s * w[2] + Fr::zero();
    w[next] = s;
  }
  std::vector<sj::R1csTerm> a{T(static_cast<std::uint32_t>(3 + steps - 1), one)}, b{T(0, one)}, c{T(1, one)};
  r.add_constraint(a, b, c);
  w[1] = s;
  sj::testing::Toxic t{Fr::from_u64(123456789), Fr::from_u64(11), Fr::from_u64(13), Fr::from_u64(17)};
  auto key = sj::testing::toy_setup(r, t);
  SnarkjsFiles f;
  f.zkey = (test_dir() / (name + ".zkey")).string();
  f.wtns = (test_dir() / (name + ".wtns")).string();
  key.zkey.write_file(f.zkey);
  const sj::Witness wit = sj::Witness::from_fr(w);
  wit.write_file(f.wtns);
  f.wtns_bytes = wit.to_bytes();
  f.vk = key.zkey.verifying_key();
  return f;
}

}  // namespace proofline::engine::testing
