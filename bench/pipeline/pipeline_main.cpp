// proofline_pipeline_bench — back-to-back proofs through the engine (bench/pipeline.sh runs it).
//
// For one circuit size (the bench circuit, 2^k rows) and one backend (cpu, or cuda: every usable
// device), runs the same workload — `--proofs` jobs of `--partitions` partitions each, all submitted
// at once — under several engine modes, and prints per mode: wall time, throughput, and per
// partition the three timers of ARCHITECTURE.md "Time": kernel (the backend's own measure: CUDA
// events on a GPU), prover call (the backend call as the engine sees it) and the pipeline's prove
// stage (taken from the queue → buffers handed off), with their spread, plus synthesis time and what
// freeing cost. Modes (`--modes`, comma-separated):
//   overlap   synthesis ∥ proving, buffer pool, reclaimer thread     (the engine's default)
//   serial    no overlap (a partition is synthesized only when nothing is being proved), pool, reclaimer
//   nopool    overlap, no buffer pool (every partition's buffers are freed), reclaimer thread
//   inline    overlap, no buffer pool, frees inline on the prover worker (reclaimer off)
// --gpus N[,M…] (cuda): the modes run once per device count (e.g. 1,2 for one vs two GPUs).
// Parameters: --params FILE (bellperson .params of the bench circuit of that size) is read when it
// exists; otherwise development parameters (fixed seed, NOT secure) are generated in this process —
// with the fixed-base multiplications on GPU 0 when the backend is cuda (gpu::use_gpu_for_setup;
// --setup-on cpu to keep them on the CPU) — handed to the engine in memory (kind "bench-mem", no
// file round trip), and written to FILE only when one was given. Setup time is reported.
// Throughput: proofs/min over the whole run (submit → last proof), and "steady" over the proofs
// after the first one finished (pipeline fill excluded).
// Every proof is verified by the engine before it counts. Exit code 1 if any job fails.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/groth16/backend_factory.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/util/error.hpp"
#if PROOFLINE_PIPELINE_CUDA
#include "proofline/gpu/fixed_base.hpp"
#endif

using namespace proofline;
using namespace proofline::engine;
using ff::Fr;
using Clock = std::chrono::steady_clock;

namespace {

struct Args {
  std::string size = "2^16", params, backend = "cpu", modes = "overlap,serial,nopool,inline", json, gpus = "0";
  std::string setup_on = "auto";
  unsigned partitions = 2, proofs = 3, synthesis_workers = 0, prover_workers = 1;
  double budget_gb = 0;
  bool per_partition = true;
};

/// One item of --modes: "mode[@gpus][xproofs]", e.g. overlap@2x12 (defaults: each --gpus count,
/// --proofs).
struct RunSpec {
  std::string mode;
  unsigned gpus = 0;
  unsigned proofs = 0;
};

struct ModeResult {
  std::string mode;
  unsigned proofs = 0;
  unsigned gpus = 0;         ///< backends used
  double wall_ms = 0;        ///< submit of the first proof → last proof returned
  double steady_ms = 0;      ///< first proof returned → last proof returned
  std::size_t partitions = 0;
  std::vector<PartitionTimings> parts;
  double free_ms = 0;
};

// ---- the bench circuit with in-memory parameters (kind "bench-mem") ------------------------------
// Same synthesis as the built-in kind "bench" (SizedCircuit(k, input + partition)); the parameter
// set is the one Srs this process made, shared by every engine of the run.
class MemBenchJob final : public KindJob {
 public:
  MemBenchJob(std::shared_ptr<const Srs> srs, unsigned log, std::size_t n, std::uint64_t input)
      : srs_(std::move(srs)), log_(log), n_(n), input_(input) {}
  std::size_t num_partitions() const override { return n_; }
  std::string srs_key() const override { return srs_->key; }
  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    progress(1);
    return srs_;
  }
  void check(const Srs& srs) const override {
    if (srs.params.domain_size() != (std::size_t{1} << log_)) {
      throw ProoflineError(Error::BadLength, "kind 'bench-mem': domain got " + std::to_string(srs.params.domain_size()) +
                                                 ", expected " + std::to_string(std::size_t{1} << log_));
    }
  }
  void synthesize(std::size_t k, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    const circuits::bench::SizedCircuit circuit(log_, Fr::from_u64(input_ + k));
    r1cs::ProvingAssignment cs(std::move(buf));
    cs.reserve(std::size_t{1} << log_, srs.params.num_inputs(), srs.params.num_aux());
    r1cs::synthesize(circuit, cs);
    buf = cs.release();
  }

 private:
  std::shared_ptr<const Srs> srs_;
  unsigned log_;
  std::size_t n_;
  std::uint64_t input_;
};

class MemBenchKind final : public ProofKind {
 public:
  MemBenchKind(std::shared_ptr<const Srs> srs, unsigned log) : srs_(std::move(srs)), log_(log) {}
  std::string_view name() const override { return "bench-mem"; }
  std::string_view description() const override { return "bench circuit, parameters made in this process"; }
  std::vector<ArgSpec> arguments() const override {
    return {ArgSpec("partitions", ArgType::Int, "circuits proved").defaults_to("1").range(1, 4096),
            ArgSpec("input", ArgType::Int, "witness seed of partition 0").defaults_to("1")};
  }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    return std::make_shared<MemBenchJob>(srs_, log_, parse_u64_arg("partitions", arg_or(r, "partitions", "1")),
                                         parse_u64_arg("input", arg_or(r, "input", "1")));
  }

 private:
  std::shared_ptr<const Srs> srs_;
  unsigned log_;
};

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

/// The backends of --backend (groth16::make_backends), `gpus` devices of them for cuda (0: all).
std::vector<std::shared_ptr<groth16::ProverBackend>> bench_backends(const Args& a, unsigned gpus) {
  std::vector<std::shared_ptr<groth16::ProverBackend>> out;
  try {
    out = groth16::make_backends(a.backend, groth16::BackendOptions{0, a.backend == "cuda" ? gpus : 0});
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string("--backend ") + e.what());
  }
  if (a.backend == "cuda" && gpus != 0 && out.size() < gpus) {
    throw std::runtime_error("--gpus " + std::to_string(gpus) + ": only " + std::to_string(out.size()) +
                             " usable CUDA device(s)");
  }
  return out;
}

ModeResult run_mode(const Args& a, const RunSpec& spec, unsigned log, const std::shared_ptr<const Srs>& srs) {
  const std::string& mode = spec.mode;
  const unsigned gpus = spec.gpus;
  EngineConfig cfg;
  cfg.backends = bench_backends(a, gpus);
  auto kinds = KindRegistry::builtin();
  kinds->add(std::make_shared<MemBenchKind>(srs, log));
  cfg.kinds = kinds;
  cfg.synthesis_workers = a.synthesis_workers;
  cfg.prover_workers_per_backend = a.prover_workers;
  cfg.memory_budget_bytes = static_cast<std::uint64_t>(a.budget_gb * 1e9);
  cfg.log_partitions = false;
  if (mode == "overlap") {
  } else if (mode == "serial") {
    cfg.overlap = false;
  } else if (mode == "nopool") {
    cfg.pool_max_bytes = 0;
  } else if (mode == "inline") {
    cfg.pool_max_bytes = 0;
    cfg.reclaimer = false;
  } else {
    throw std::runtime_error("unknown mode '" + mode + "' (overlap, serial, nopool, inline)");
  }
  const unsigned n_backends = static_cast<unsigned>(cfg.backends.size());
  Engine e(std::move(cfg));
  // No "size": the kind knows its one parameter set (it declares partitions and input only, and the
  // engine refuses an undeclared argument).
  const std::map<std::string, std::string> args;
  e.preload_srs("bench-mem", args);
  auto request = [&](const std::string& id, unsigned parts, std::uint64_t input) {
    ProofRequest r;
    r.request_id = id;
    r.kind = "bench-mem";
    r.args = args;
    r.args["partitions"] = std::to_string(parts);
    r.args["input"] = std::to_string(input);
    return r;
  };
  // Warm-up: one partition per backend (device SRS upload, first-touch of pools), not measured.
  AwaitResult w = e.prove(request(mode + "-warmup", n_backends, 1000000));
  if (w.result.state != JobState::Done) throw std::runtime_error("warm-up proof failed: " + w.result.error);

  ModeResult out;
  out.mode = mode;
  out.proofs = spec.proofs;
  out.gpus = n_backends;
  const auto t0 = Clock::now();
  std::vector<std::string> ids;
  for (unsigned p = 0; p < spec.proofs; ++p) ids.push_back(e.submit(request(mode + "-" + std::to_string(p), a.partitions, 1 + 1000 * p)).request_id);
  Clock::time_point first_done{};
  for (const auto& id : ids) {
    AwaitResult r = e.await(id);
    if (r.result.state != JobState::Done) throw std::runtime_error("job " + id + " failed: " + r.result.error);
    if (first_done == Clock::time_point{}) first_done = Clock::now();
    for (const auto& pt : r.result.partitions) out.parts.push_back(pt);
  }
  const auto t_end = Clock::now();
  out.wall_ms = std::chrono::duration<double, std::milli>(t_end - t0).count();
  out.steady_ms = std::chrono::duration<double, std::milli>(t_end - first_done).count();
  out.partitions = out.parts.size();
  out.free_ms = e.status().memory.free_ms_total;  // this mode's engine only (incl. the warm-up)
  return out;
}

/// Parameters of the bench circuit: read from `a.params` when it exists, else generated here (and
/// written to `a.params` when one was given). Prints what it did and how long it took.
groth16::Parameters bench_parameters(const Args& a, unsigned log, double* setup_s) {
  *setup_s = 0;
  if (!a.params.empty() && std::filesystem::exists(a.params)) {
    const auto t0 = Clock::now();
    groth16::Parameters p = groth16::Parameters::read_file(a.params, groth16::ReadOptions{ec::Check::OnCurveOnly});
    std::fprintf(stderr, "read %s in %.1f s\n", a.params.c_str(), std::chrono::duration<double>(Clock::now() - t0).count());
    return p;
  }
  groth16::SetupOptions opts;
  opts.warn = false;
  opts.progress_min_constraints = 0;
  const bool on_gpu = a.setup_on == "gpu" || (a.setup_on == "auto" && a.backend == "cuda");
  if (a.setup_on != "auto" && a.setup_on != "gpu" && a.setup_on != "cpu") {
    throw std::runtime_error("--setup-on must be auto, cpu or gpu, got '" + a.setup_on + "'");
  }
  if (on_gpu) {
#if PROOFLINE_PIPELINE_CUDA
    gpu::use_gpu_for_setup(opts, 0);
#else
    throw std::runtime_error("--setup-on gpu: this build has no CUDA backend");
#endif
  }
  std::fprintf(stderr, "generating development parameters for the bench circuit 2^%u (fixed-base muls on the %s) …\n",
               log, on_gpu ? "GPU" : "CPU");
  const auto t0 = Clock::now();
  auto built = circuits::bench::make_circuit("bench", log, 1);
  groth16::SeededRandom rng(20261129);
  groth16::Parameters p = groth16::generate_parameters(*built.circuit, rng, opts);
  *setup_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::fprintf(stderr, "  setup done in %.1f s (synthesis in setup mode included)\n", *setup_s);
  if (!a.params.empty()) {
    const auto t1 = Clock::now();
    p.write_file(a.params);
    std::fprintf(stderr, "  written to %s in %.1f s\n", a.params.c_str(), std::chrono::duration<double>(Clock::now() - t1).count());
  }
  return p;
}

std::vector<unsigned> parse_gpu_counts(const std::string& s) {
  std::vector<unsigned> out;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, ',');) out.push_back(static_cast<unsigned>(parse_u64_arg("--gpus", t)));
  if (out.empty()) out.push_back(0);
  return out;
}

/// --modes items in order: an item with "@gpus" runs once with that count, one without runs once
/// per --gpus count; "xN" overrides --proofs for that item.
std::vector<RunSpec> parse_runs(const Args& a) {
  std::vector<RunSpec> out;
  std::stringstream ms(a.modes);
  for (std::string item; std::getline(ms, item, ',');) {
    RunSpec r;
    r.proofs = a.proofs;
    if (const auto x = item.find('x'); x != std::string::npos) {
      r.proofs = static_cast<unsigned>(parse_u64_arg("--modes proofs of '" + item + "'", item.substr(x + 1)));
      item.resize(x);
    }
    std::vector<unsigned> counts;
    if (const auto at = item.find('@'); at != std::string::npos) {
      counts.push_back(static_cast<unsigned>(parse_u64_arg("--modes gpus of '" + item + "'", item.substr(at + 1))));
      item.resize(at);
    } else {
      counts = parse_gpu_counts(a.gpus);
    }
    r.mode = item;
    for (unsigned g : counts) {
      r.gpus = a.backend == "cuda" ? g : 0;
      out.push_back(r);
    }
  }
  return out;
}

struct Summary {
  double syn = 0, ker = 0, call = 0, stage = 0, wait = 0, call_spread_max = 0, stage_spread_max = 0;
};

Summary summarize(const ModeResult& r) {
  std::vector<double> syn, ker, call, stage, wait;
  Summary s;
  for (const auto& pt : r.parts) {
    syn.push_back(pt.synthesis);
    ker.push_back(pt.kernel);
    call.push_back(pt.prover_call);
    stage.push_back(pt.stage);
    wait.push_back(pt.prove_wait);
    if (pt.kernel > 0) {
      s.call_spread_max = std::max(s.call_spread_max, 100 * (pt.prover_call - pt.kernel) / pt.kernel);
      s.stage_spread_max = std::max(s.stage_spread_max, 100 * (pt.stage - pt.kernel) / pt.kernel);
    }
  }
  s.syn = mean(syn);
  s.ker = mean(ker);
  s.call = mean(call);
  s.stage = mean(stage);
  s.wait = mean(wait);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"proofline_pipeline_bench — back-to-back proofs through the engine, per engine mode"};
  Args a;
  app.add_option("--size", a.size, "bench circuit rows, 2^k (e.g. 2^16, 2^24)")->capture_default_str();
  app.add_option("--params", a.params, ".params of the bench circuit (read if it exists, else written after an in-process setup; none: setup in memory only)");
  app.add_option("--setup-on", a.setup_on, "where the setup's fixed-base multiplications run: auto (GPU with --backend cuda), cpu, gpu")->capture_default_str();
  app.add_option("--backend", a.backend, "cpu | cuda (every usable device)")->capture_default_str();
  app.add_option("--gpus", a.gpus, "cuda: device counts to run, comma-separated (0: all), e.g. 1,2")->capture_default_str();
  app.add_option("--partitions", a.partitions, "partitions per proof")->capture_default_str();
  app.add_option("--proofs", a.proofs, "proofs submitted back to back")->capture_default_str();
  app.add_option("--modes", a.modes, "comma-separated: overlap, serial, nopool, inline")->capture_default_str();
  app.add_option("--synthesis-workers", a.synthesis_workers, "0: all cores")->capture_default_str();
  app.add_option("--prover-workers", a.prover_workers, "prover workers per backend")->capture_default_str();
  app.add_option("--budget-gb", a.budget_gb, "memory budget for partition buffers (0: 3/4 of RAM)")->capture_default_str();
  app.add_option("--json", a.json, "also write the results as JSON to this file");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);

  try {
    const unsigned log = parse_log_size_arg("--size", a.size);
    double setup_s = 0;
    groth16::Parameters params = bench_parameters(a, log, &setup_s);
    const double part_gb = static_cast<double>(partition_buffer_bytes(params)) / 1e9;
    auto srs = std::make_shared<Srs>();
    srs->key = "mem:bench_2^" + std::to_string(log);
    srs->pvk = groth16::prepare_verifying_key(params.vk);
    srs->bytes = parameters_bytes(params);
    srs->params = std::move(params);
    const std::shared_ptr<const Srs> shared_srs = srs;

    std::vector<ModeResult> results;
    for (const RunSpec& spec : parse_runs(a)) {
      std::fprintf(stderr, "mode %s, gpus %u, %u proofs …\n", spec.mode.c_str(), spec.gpus, spec.proofs);
      results.push_back(run_mode(a, spec, log, shared_srs));
      // Progress on stderr right away (a run cut short by a time limit still leaves its numbers).
      const auto& r = results.back();
      const Summary m = summarize(r);
      std::fprintf(stderr, "  wall %.2f s, %.2f proofs/min; mean synth %.1f, kernel %.1f, call %.1f, stage %.1f ms; "
                   "max call%% %.2f, max stage%% %.2f; free %.1f ms\n",
                   r.wall_ms / 1000, r.proofs / (r.wall_ms / 60000.0), m.syn, m.ker, m.call, m.stage, m.call_spread_max,
                   m.stage_spread_max, r.free_ms);
    }

    std::printf("# pipeline bench: bench circuit 2^%u rows, backend %s, %u partitions per proof, "
                "partition buffers %.3f GB, setup %.1f s\n",
                log, a.backend.c_str(), a.partitions, part_gb, setup_s);
    std::printf("%-8s %4s %6s %8s %10s %10s %9s %9s %9s %9s %8s %9s %9s %8s %8s %9s\n", "mode", "gpus", "proofs", "wall_s",
                "proofs/min", "steady/min", "synth_ms", "kernel_ms", "call_ms", "stage_ms", "wait_ms", "call/kern",
                "stage/kern", "maxcall%", "maxstg%", "free_ms");
    for (const auto& r : results) {
      const Summary m = summarize(r);
      const double steady = r.proofs > 1 && r.steady_ms > 0 ? (r.proofs - 1) / (r.steady_ms / 60000.0) : 0;
      std::printf("%-8s %4u %6u %8.2f %10.2f %10.2f %9.1f %9.1f %9.1f %9.1f %8.1f %9.4f %9.4f %7.2f%% %7.2f%% %9.1f\n",
                  r.mode.c_str(), r.gpus, r.proofs, r.wall_ms / 1000, r.proofs / (r.wall_ms / 60000.0), steady, m.syn, m.ker,
                  m.call, m.stage, m.wait, m.ker > 0 ? m.call / m.ker : 0, m.ker > 0 ? m.stage / m.ker : 0,
                  m.call_spread_max, m.stage_spread_max, r.free_ms);
    }
    if (a.per_partition) {
      std::printf("\n# per partition: the three timers (ms) and their spread vs kernel\n");
      std::printf("%-8s %4s %5s %7s %10s %10s %10s %10s %8s %8s\n", "mode", "gpus", "part", "backend", "synth", "kernel",
                  "call", "stage", "call%", "stage%");
      for (const auto& r : results) {
        for (std::size_t i = 0; i < r.parts.size(); ++i) {
          const auto& pt = r.parts[i];
          std::printf("%-8s %4u %5zu %7d %10.1f %10.1f %10.1f %10.1f %7.2f%% %7.2f%%\n", r.mode.c_str(), r.gpus, i,
                      pt.backend, pt.synthesis, pt.kernel, pt.prover_call, pt.stage,
                      pt.kernel > 0 ? 100 * (pt.prover_call - pt.kernel) / pt.kernel : 0,
                      pt.kernel > 0 ? 100 * (pt.stage - pt.kernel) / pt.kernel : 0);
        }
      }
    }
    if (!a.json.empty()) {
      std::ostringstream j;
      j << "{\"log_rows\":" << log << ",\"backend\":\"" << a.backend << "\",\"proofs\":" << a.proofs
        << ",\"partitions\":" << a.partitions << ",\"partition_gb\":" << part_gb << ",\"setup_s\":" << setup_s
        << ",\"modes\":[";
      for (std::size_t i = 0; i < results.size(); ++i) {
        const auto& r = results[i];
        j << (i ? "," : "") << "{\"mode\":\"" << r.mode << "\",\"gpus\":" << r.gpus << ",\"proofs\":" << r.proofs << ",\"wall_ms\":" << r.wall_ms
          << ",\"steady_ms\":" << r.steady_ms << ",\"free_ms\":" << r.free_ms << ",\"partitions\":[";
        for (std::size_t q = 0; q < r.parts.size(); ++q) {
          const auto& pt = r.parts[q];
          j << (q ? "," : "") << "{\"backend\":" << pt.backend << ",\"synthesis\":" << pt.synthesis
            << ",\"kernel\":" << pt.kernel << ",\"prover_call\":" << pt.prover_call << ",\"stage\":" << pt.stage
            << ",\"prove_wait\":" << pt.prove_wait << "}";
        }
        j << "]}";
      }
      j << "]}\n";
      groth16::write_file_bytes(a.json, std::span<const std::uint8_t>(
                                            reinterpret_cast<const std::uint8_t*>(j.str().data()), j.str().size()));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "proofline_pipeline_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
