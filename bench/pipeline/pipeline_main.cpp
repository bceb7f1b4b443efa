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
// Parameters: --params FILE (bellperson .params of the bench circuit of that size); generated with a
// fixed seed (development parameters, NOT secure) and written there when the file does not exist.
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
#include "proofline/groth16/groth16.hpp"
#if PROOFLINE_PIPELINE_CUDA
#include "proofline/gpu/backend.hpp"
#endif

using namespace proofline;
using namespace proofline::engine;
using Clock = std::chrono::steady_clock;

namespace {

struct Args {
  std::string size = "2^16", params, backend = "cpu", modes = "overlap,serial,nopool,inline", json;
  unsigned partitions = 2, proofs = 3, synthesis_workers = 0, prover_workers = 1, gpus = 0;
  double budget_gb = 0;
  bool per_partition = true;
};

struct ModeResult {
  std::string mode;
  double wall_ms = 0;
  std::size_t partitions = 0;
  std::vector<PartitionTimings> parts;
  double free_ms = 0;
};

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

std::vector<std::shared_ptr<groth16::ProverBackend>> make_backends(const Args& a) {
  std::vector<std::shared_ptr<groth16::ProverBackend>> out;
  if (a.backend == "cpu") {
    out.push_back(std::make_shared<groth16::CpuBackend>());
    return out;
  }
  if (a.backend == "cuda") {
#if PROOFLINE_PIPELINE_CUDA
    auto gpus = gpu::make_gpu_backends();
    for (auto& g : gpus) {
      if (a.gpus != 0 && out.size() == a.gpus) break;
      out.push_back(std::shared_ptr<groth16::ProverBackend>(std::move(g)));
    }
    if (out.empty()) throw std::runtime_error("--backend cuda: no usable CUDA device");
    return out;
#else
    throw std::runtime_error("--backend cuda: this build has no CUDA backend (configure with nvcc, PROOFLINE_CUDA=ON)");
#endif
  }
  throw std::runtime_error("--backend must be cpu or cuda, got '" + a.backend + "'");
}

ModeResult run_mode(const Args& a, const std::string& mode, unsigned log) {
  EngineConfig cfg;
  cfg.backends = make_backends(a);
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
  Engine e(std::move(cfg));
  const std::map<std::string, std::string> args = {{"params", a.params}, {"size", "2^" + std::to_string(log)}};
  e.preload_srs("bench", args);
  auto request = [&](const std::string& id, unsigned parts, std::uint64_t input) {
    ProofRequest r;
    r.request_id = id;
    r.kind = "bench";
    r.args = args;
    r.args["partitions"] = std::to_string(parts);
    r.args["input"] = std::to_string(input);
    return r;
  };
  // Warm-up: one partition per backend (device SRS upload, first-touch of pools), not measured.
  const std::size_t n_backends = e.status().backends.size();
  AwaitResult w = e.prove(request(mode + "-warmup", static_cast<unsigned>(n_backends), 1000000));
  if (w.result.state != JobState::Done) throw std::runtime_error("warm-up proof failed: " + w.result.error);

  ModeResult out;
  out.mode = mode;
  const auto t0 = Clock::now();
  std::vector<std::string> ids;
  for (unsigned p = 0; p < a.proofs; ++p) ids.push_back(e.submit(request(mode + "-" + std::to_string(p), a.partitions, 1 + 1000 * p)).request_id);
  for (const auto& id : ids) {
    AwaitResult r = e.await(id);
    if (r.result.state != JobState::Done) throw std::runtime_error("job " + id + " failed: " + r.result.error);
    for (const auto& pt : r.result.partitions) out.parts.push_back(pt);
  }
  out.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  out.partitions = out.parts.size();
  out.free_ms = e.status().memory.free_ms_total;  // this mode's engine only (incl. the warm-up)
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"proofline_pipeline_bench — back-to-back proofs through the engine, per engine mode"};
  Args a;
  app.add_option("--size", a.size, "bench circuit rows, 2^k (e.g. 2^16, 2^24)")->capture_default_str();
  app.add_option("--params", a.params, ".params of the bench circuit of that size (generated if missing)")->required();
  app.add_option("--backend", a.backend, "cpu | cuda (every usable device)")->capture_default_str();
  app.add_option("--gpus", a.gpus, "cuda: use at most this many devices (0: all)")->capture_default_str();
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
    if (!std::filesystem::exists(a.params)) {
      std::fprintf(stderr, "generating development parameters for the bench circuit 2^%u into %s …\n", log, a.params.c_str());
      const auto t0 = Clock::now();
      auto built = circuits::bench::make_circuit("bench", log, 1);
      groth16::SeededRandom rng(20261129);
      groth16::SetupOptions opts;
      opts.warn = false;
      groth16::generate_parameters(*built.circuit, rng, opts).write_file(a.params);
      std::fprintf(stderr, "  done in %.1f s\n", std::chrono::duration<double>(Clock::now() - t0).count());
    }
    const groth16::Parameters p = groth16::Parameters::read_file(a.params, groth16::ReadOptions{ec::Check::OnCurveOnly});
    const double part_gb = static_cast<double>(partition_buffer_bytes(p)) / 1e9;
    std::vector<ModeResult> results;
    std::stringstream ms(a.modes);
    for (std::string mode; std::getline(ms, mode, ',');) {
      std::fprintf(stderr, "mode %s …\n", mode.c_str());
      results.push_back(run_mode(a, mode, log));
    }

    std::printf("# pipeline bench: bench circuit 2^%u rows, backend %s, %u proofs x %u partitions, "
                "partition buffers %.3f GB\n",
                log, a.backend.c_str(), a.proofs, a.partitions, part_gb);
    std::printf("%-8s %9s %11s %10s %10s %10s %10s %10s %9s %9s %9s\n", "mode", "wall_s", "proofs/min", "synth_ms",
                "kernel_ms", "call_ms", "stage_ms", "wait_ms", "call/kern", "stage/kern", "free_ms");
    for (const auto& r : results) {
      std::vector<double> syn, ker, call, stage, wait;
      for (const auto& pt : r.parts) {
        syn.push_back(pt.synthesis);
        ker.push_back(pt.kernel);
        call.push_back(pt.prover_call);
        stage.push_back(pt.stage);
        wait.push_back(pt.prove_wait);
      }
      const double k = mean(ker);
      std::printf("%-8s %9.2f %11.2f %10.1f %10.1f %10.1f %10.1f %10.1f %9.4f %9.4f %9.1f\n", r.mode.c_str(),
                  r.wall_ms / 1000, a.proofs / (r.wall_ms / 60000.0), mean(syn), k, mean(call), mean(stage), mean(wait),
                  k > 0 ? mean(call) / k : 0, k > 0 ? mean(stage) / k : 0, r.free_ms);
    }
    if (a.per_partition) {
      std::printf("\n# per partition: the three timers (ms) and their spread vs kernel\n");
      std::printf("%-8s %5s %7s %10s %10s %10s %10s %8s %8s\n", "mode", "part", "backend", "synth", "kernel", "call",
                  "stage", "call%", "stage%");
      for (const auto& r : results) {
        for (std::size_t i = 0; i < r.parts.size(); ++i) {
          const auto& pt = r.parts[i];
          std::printf("%-8s %5zu %7d %10.1f %10.1f %10.1f %10.1f %7.2f%% %7.2f%%\n", r.mode.c_str(), i, pt.backend,
                      pt.synthesis, pt.kernel, pt.prover_call, pt.stage,
                      pt.kernel > 0 ? 100 * (pt.prover_call - pt.kernel) / pt.kernel : 0,
                      pt.kernel > 0 ? 100 * (pt.stage - pt.kernel) / pt.kernel : 0);
        }
      }
    }
    if (!a.json.empty()) {
      std::ostringstream j;
      j << "{\"log_rows\":" << log << ",\"backend\":\"" << a.backend << "\",\"proofs\":" << a.proofs
        << ",\"partitions\":" << a.partitions << ",\"partition_gb\":" << part_gb << ",\"modes\":[";
      for (std::size_t i = 0; i < results.size(); ++i) {
        const auto& r = results[i];
        j << (i ? "," : "") << "{\"mode\":\"" << r.mode << "\",\"wall_ms\":" << r.wall_ms << ",\"free_ms\":" << r.free_ms
          << ",\"partitions\":[";
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
