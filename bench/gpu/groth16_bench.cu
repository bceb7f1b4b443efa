// bench/gpu/groth16_bench.cu — the CUDA Groth16 backend (proofline/gpu/backend.hpp) on the bench
// circuit (circuits/bench SizedCircuit, 2^k rows), SRS resident on the device.
//
//   gpu_groth16_bench [LG...]     default: 20 22 24
//   env REPS (default 3) timed proofs after one warm-up; CHECK_LG (default: the smallest LG) the
//   size at which the GPU proof is compared byte for byte with groth16::CpuBackend's.
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
#include <random>
#include <string>
#include <vector>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/gpu/backend.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/groth16/groth16.hpp"

using namespace proofline;
using ff::Fr;
using groth16::Parameters;

namespace {

template <class Affine, class Proj>
std::vector<Affine> repeated_points(std::size_t n, std::mt19937_64& rng) {
  std::vector<Affine> distinct;
  for (int k = 0; k < 1024; ++k) distinct.push_back(Proj::generator().mul(Fr::random(rng)).to_affine());
  std::vector<Affine> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = distinct[i % distinct.size()];
  return out;
}

Parameters shaped_parameters(const r1cs::ProvingBuffers& w, std::size_t m, std::mt19937_64& rng) {
  Parameters p;
  auto g1 = [&] { return ec::G1Projective::generator().mul(Fr::random(rng)).to_affine(); };
  auto g2 = [&] { return ec::G2Projective::generator().mul(Fr::random(rng)).to_affine(); };
  p.vk.alpha_g1 = g1();
  p.vk.beta_g1 = g1();
  p.vk.beta_g2 = g2();
  p.vk.gamma_g2 = g2();
  p.vk.delta_g1 = g1();
  p.vk.delta_g2 = g2();
  for (std::size_t i = 0; i < w.input_assignment.size(); ++i) p.vk.ic.push_back(g1());
  const std::size_t b_len = w.b_input_density.popcount() + w.b_aux_density.popcount();
  p.h = repeated_points<ec::G1Affine, ec::G1Projective>(m - 1, rng);
  p.l = repeated_points<ec::G1Affine, ec::G1Projective>(w.aux_assignment.size(), rng);
  p.a = repeated_points<ec::G1Affine, ec::G1Projective>(w.input_assignment.size() + w.a_aux_density.popcount(), rng);
  p.b_g1 = repeated_points<ec::G1Affine, ec::G1Projective>(b_len, rng);
  p.b_g2 = repeated_points<ec::G2Affine, ec::G2Projective>(b_len, rng);
  return p;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> lgs;
  for (int i = 1; i < argc; ++i) lgs.push_back(static_cast<unsigned>(std::stoul(argv[i])));
  if (lgs.empty()) lgs = {20, 22, 24};
  const int reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 3;
  const unsigned check_lg = std::getenv("CHECK_LG") ? static_cast<unsigned>(std::atoi(std::getenv("CHECK_LG"))) : lgs[0];
  auto backends = gpu::make_gpu_backends();
  if (backends.empty()) {
    std::printf("gpu_groth16_bench: no usable CUDA device\n");
    return 0;
  }
  gpu::GpuBackend& gpu_backend = *backends[0];
  gpu::GpuBackendConfig other_cfg;  // the default but for the upload path, for comparison
  other_cfg.device = gpu_backend.device();
  other_cfg.pinned_uploads = !other_cfg.pinned_uploads;
  gpu::GpuBackend other_backend(other_cfg);
  auto mode = [](const gpu::GpuBackendConfig& c) {
    return std::string(c.overlap_g2 ? "G2 overlapped" : "G2 after G1") + (c.pinned_uploads ? ", pinned" : ", pageable");
  };
  const std::string default_mode = mode(gpu::GpuBackendConfig{}), other_mode = mode(other_cfg);
  std::printf("Groth16 prove on %s, bench circuit (SizedCircuit), SRS resident, %d proofs after a warm-up\n",
              gpu::device_name(gpu_backend.device()).c_str(), reps);
  std::printf("| rows | mode | aux | SRS GB | upload ms | GB/s | total ms | kernel ms | ntt | msm_h | msm_l | msm_a | msm_b_g1 | msm_b_g2 | assemble | vs CPU |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  int rc = 0;
  for (unsigned lg : lgs) {
    std::mt19937_64 rng(lg);
    const circuits::bench::SizedCircuit circuit(lg, Fr::from_u64(lg));
    auto t0 = std::chrono::steady_clock::now();
    r1cs::ProvingBuffers w = groth16::synthesize_for_proving(circuit);
    const double synth_ms = ms_since(t0);
    const std::size_t m = std::size_t{1} << lg;
    t0 = std::chrono::steady_clock::now();
    const Parameters params = shaped_parameters(w, m, rng);
    const double params_ms = ms_since(t0);
    const groth16::Randomizers rs{Fr::random(rng), Fr::random(rng)};
    const double upload_ms = gpu_backend.preload(params);
    const double srs_gb = gpu_backend.resident_bytes() / 1e9;

    std::string vs_cpu = "-";
    std::vector<r1cs::ProvingBuffers> parts{w};
    auto first = gpu_backend.prove(params, parts, std::span(&rs, 1));  // warm-up
    if (lg == check_lg) {
      std::vector<r1cs::ProvingBuffers> cpu_parts{w};
      groth16::CpuBackend cpu;
      const auto want = cpu.prove(params, cpu_parts, std::span(&rs, 1));
      const bool same = want.proofs[0].to_bytes() == first.proofs[0].to_bytes();
      vs_cpu = same ? "same bytes" : "DIFFERENT";
      if (!same) rc = 1;
    }
    for (gpu::GpuBackend* b : {&gpu_backend, &other_backend}) {
      const bool is_default = b == &gpu_backend;
      if (!is_default) {
        gpu_backend.evict_all();
        gpu_backend.release_scratch();
        b->preload(params);
        std::vector<r1cs::ProvingBuffers> p{w};
        b->prove(params, p, std::span(&rs, 1));  // warm-up
      }
      groth16::StageTimings sum;
      for (int r = 0; r < reps; ++r) {
        std::vector<r1cs::ProvingBuffers> p{w};
        const auto res = b->prove(params, p, std::span(&rs, 1));
        if (res.proofs[0] != first.proofs[0]) {
          vs_cpu += " RUN-TO-RUN DIFFERENCE";
          rc = 1;
        }
        sum += res.timings;
      }
      const double n = reps;
      std::printf("| 2^%u | %s | %zu | %.2f | %.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %s |\n",
                  lg, (is_default ? default_mode : other_mode).c_str(), w.aux_assignment.size(), srs_gb, upload_ms,
                  srs_gb / (upload_ms / 1e3), sum.total / n, sum.kernel / n, sum.ntt / n, sum.msm_h / n, sum.msm_l / n,
                  sum.msm_a / n, sum.msm_b_g1 / n, sum.msm_b_g2 / n, sum.assemble / n, vs_cpu.c_str());
      std::fflush(stdout);
    }
    other_backend.evict_all();
    other_backend.release_scratch();
    std::fprintf(stderr, "  (2^%u: synthesis %.0f ms, shaped parameters %.0f ms on the host; not in the table)\n", lg,
                 synth_ms, params_ms);
  }
  return rc;
}
