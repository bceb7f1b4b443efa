// bench/gpu/groth16_bench.cu — the CUDA Groth16 backend (proofline/gpu/backend.hpp) on the bench
// circuit (circuits/bench SizedCircuit, 2^k rows), SRS resident on the device.
//
//   gpu_groth16_bench [--device-limit BYTES] [--no-compare] [LG...]     default LG: 20 22 24
//   env REPS (default 3) timed proofs after one warm-up; CHECK_LG (default: the smallest LG) the
//   size at which the GPU proof is compared byte for byte with groth16::CpuBackend's.
//   --device-limit BYTES (e.g. 24GiB): the second pass of each size runs on a backend that plans for
//   that much device memory (GpuBackendConfig::device_memory_limit, daemon gpu.device_memory_limit)
//   instead of the other upload path: an SRS that does not fit beside one partition's working space
//   is streamed to the device per MSM (backend.hpp "Residency"), so the per-proof cost of streaming
//   shows beside the resident row of the same parameters and witness (the SRS column says which).
//   With the limit enforced (the default), every allocation counts against it: `dev peak GB` is
//   the most device memory the backend held at once during the pass (SRS, loader, vectors, NTT
//   tables, MSM scratch), and `SRS` says "lean" when the lean working set was planned
//   (backend.hpp "Working set"), as it is at 2^27 under 24 GiB.
//   --serial: the second pass of each size runs the serial schedule (GpuBackendConfig::
//   overlap_uploads = false: copies, then transforms, then MSMs) instead of the other upload path,
//   so the gain of the overlapped schedule (backend.hpp "Schedule") shows side by side.
//   --no-compare: only the default backend (no second pass).
// Memory: one size at a time; the witness buffers are synthesized once per size and handed to every
// proof as they are (the GPU backend does not modify them: no per-proof copies); the parameters are
// made once per size and freed before the next. At 2^27 the host holds the witness (~17 GB) and
// the shaped parameters (~83 GB of host points), which fits the 128 GiB H200 host.
//
// Parameters: shape-true but not from a setup — every query has the length the circuit's densities
// give (h: 2^k − 1, l: aux, a: inputs + aux with A-density, b: variables with B-density) and its
// points are 1024 distinct random multiples of the generator repeated (the MSM cost does not depend
// on which points they are); a setup at 2^24 on the CPU would take far longer than the benchmark.
// So the proofs do not verify; instead the CHECK_LG proof must equal the CPU backend's (same
// parameters, same witness, same r, s), or the benchmark stops with an error.
// Columns: SRS upload (preload) time and rate; per proof the mean backend wall time (`total`), the
// CUDA-event `kernel` time, and the stage times (ms) of groth16::StageTimings.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <random>
#include <string>
#include <vector>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/engine/memory.hpp"
#include "proofline/gpu/backend.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/groth16/groth16.hpp"
#include "shaped_params.hpp"

using namespace proofline;
using ff::Fr;
using groth16::Parameters;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> lgs;
  std::size_t device_limit = 0;
  bool compare = true;
  bool serial = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device-limit" && i + 1 < argc) {
      device_limit = engine::parse_bytes(argv[++i], "--device-limit");
    } else if (a.rfind("--device-limit=", 0) == 0) {
      device_limit = engine::parse_bytes(a.substr(15), "--device-limit");
    } else if (a == "--serial") {
      serial = true;
    } else if (a == "--no-compare") {
      compare = false;
    } else {
      lgs.push_back(static_cast<unsigned>(std::stoul(a)));
    }
  }
  if (lgs.empty()) lgs = {20, 22, 24};
  const int reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 3;
  const unsigned check_lg = std::getenv("CHECK_LG") ? static_cast<unsigned>(std::atoi(std::getenv("CHECK_LG"))) : lgs[0];
  if (gpu::device_count() == 0) {
    std::printf("gpu_groth16_bench: no usable CUDA device\n");
    return 0;
  }
  gpu::GpuBackendConfig cfg;
  gpu::GpuBackend gpu_backend(cfg);
  gpu::GpuBackendConfig other_cfg = cfg;  // the default but for the upload path or the device limit
  if (device_limit != 0) {
    other_cfg.device_memory_limit = device_limit;
  } else if (serial) {
    other_cfg.overlap_uploads = false;
  } else {
    other_cfg.pinned_uploads = !other_cfg.pinned_uploads;
  }
  std::unique_ptr<gpu::GpuBackend> other_backend;
  if (compare) other_backend = std::make_unique<gpu::GpuBackend>(other_cfg);
  auto mode = [](const gpu::GpuBackendConfig& c) {
    return std::string(c.overlap_uploads ? "copies overlapped, " : "serial, ") +
           (gpu::overlap_g2_in_effect(c.overlap_g2) ? "G2 overlapped" : "G2 after G1") +
           (c.pinned_uploads ? ", pinned" : ", pageable") +
           (c.device_memory_limit ? ", limit " + std::to_string(c.device_memory_limit >> 30) + " GiB" : "");
  };
  const std::string default_mode = mode(cfg), other_mode = mode(other_cfg);
  std::printf("Groth16 prove on %s, bench circuit (SizedCircuit), %d proofs after a warm-up\n",
              gpu::device_name(gpu_backend.device()).c_str(), reps);
  std::printf("| rows | mode | SRS | aux | SRS GB | load ms | GB/s | total ms | kernel ms | ntt | msm_h | msm_l | msm_a | msm_b_g1 | msm_b_g2 | h2d | assemble | dev peak GB | vs CPU |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  int rc = 0;
  for (unsigned lg : lgs) {
    std::mt19937_64 rng(lg);
    const circuits::bench::SizedCircuit circuit(lg, Fr::from_u64(lg));
    auto t0 = std::chrono::steady_clock::now();
    r1cs::ProvingBuffers w = groth16::synthesize_for_proving(circuit);
    const double synth_ms = ms_since(t0);
    const std::size_t m = std::size_t{1} << lg;
    t0 = std::chrono::steady_clock::now();
    const Parameters params = bench_gpu::shaped_parameters(w, m, rng);
    const double params_ms = ms_since(t0);
    const groth16::Randomizers rs{Fr::random(rng), Fr::random(rng)};
    const double srs_gb = (96.0 * (params.h.size() + params.l.size() + params.a.size() + params.b_g1.size()) +
                           192.0 * params.b_g2.size()) / 1e9;
    std::string vs_cpu = "-";
    std::optional<groth16::Proof> first;  // the first proof made: every later one must equal it
    for (gpu::GpuBackend* b : {&gpu_backend, other_backend.get()}) {
      if (b == nullptr) continue;
      const bool is_default = b == &gpu_backend;
      try {
        if (!is_default) {
          gpu_backend.evict_all();
          gpu_backend.release_scratch();
        }
        b->reset_device_peak();
        const double upload_ms = b->preload(params);
        const std::string srs_mode =
            std::string(b->srs_holding(params).mode) + (b->lean_working_set(params) ? ", lean" : "");
        const auto warm = b->prove(params, std::span(&w, 1), std::span(&rs, 1));  // warm-up; w is not modified
        if (!first) {
          first = warm.proofs[0];
          if (lg == check_lg) {
            std::vector<r1cs::ProvingBuffers> cpu_parts{w};  // the CPU backend computes H in place: a copy
            groth16::CpuBackend cpu;
            const auto want = cpu.prove(params, cpu_parts, std::span(&rs, 1));
            const bool same = want.proofs[0].to_bytes() == first->to_bytes();
            vs_cpu = same ? "same bytes" : "DIFFERENT";
            if (!same) rc = 1;
          }
        } else if (warm.proofs[0] != *first) {
          vs_cpu += " DIFFERENT FROM THE FIRST PASS";
          rc = 1;
        }
        groth16::StageTimings sum;
        for (int r = 0; r < reps; ++r) {
          const auto res = b->prove(params, std::span(&w, 1), std::span(&rs, 1));
          if (res.proofs[0] != *first) {
            vs_cpu += " RUN-TO-RUN DIFFERENCE";
            rc = 1;
          }
          sum += res.timings;
        }
        const double n = reps;
        std::printf("| 2^%u | %s | %s | %zu | %.2f | %.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %s |\n",
                    lg, (is_default ? default_mode : other_mode).c_str(), srs_mode.c_str(), w.aux_assignment.size(),
                    srs_gb, upload_ms, upload_ms >= 1 ? srs_gb / (upload_ms / 1e3) : 0.0, sum.total / n,
                    sum.kernel / n, sum.ntt / n, sum.msm_h / n, sum.msm_l / n, sum.msm_a / n, sum.msm_b_g1 / n,
                    sum.msm_b_g2 / n, sum.h2d / n, sum.assemble / n, b->device_peak_bytes() / 1e9, vs_cpu.c_str());
      } catch (const std::exception& e) {  // e.g. out of device memory: the other pass still runs
        std::printf("| 2^%u | %s | failed: %s |\n", lg, (b == &gpu_backend ? default_mode : other_mode).c_str(), e.what());
        rc = 1;
      }
      std::fflush(stdout);
    }
    gpu_backend.evict_all();
    gpu_backend.release_scratch();
    if (other_backend) {
      other_backend->evict_all();
      other_backend->release_scratch();
    }
    std::fprintf(stderr, "  (2^%u: synthesis %.0f ms, shaped parameters %.0f ms on the host; not in the table)\n", lg,
                 synth_ms, params_ms);
  }
  return rc;
}
