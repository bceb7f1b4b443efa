// bench/gpu/r1cs_eval_bench.cu — a = A·z, b = B·z, c = C·z of a PoRep partition evaluated on the
// device from its compiled circuit (gpu::DeviceCompiledCircuit, issue 31): one row per sector size
// with the compiled form's size, the time to record it (r1cs::CircuitRecorder, parallel parts), to
// upload it, and to evaluate it (CUDA events, best of REPS, z on the device), beside prover-mode
// synthesis of the same partition (warm buffers, best of 2). Every evaluation is compared with
// prover mode's a, b, c byte for byte first; the row says "ok" or the run stops with exit 1.
// The partition is partition 0 of filecoin::gen_c1 (a synthetic sector, seed 11): no parameters.
//
//   gpu_r1cs_eval_bench [SIZE...]      SIZE: 2KiB (default), 8MiB, 512MiB, 32GiB; env REPS (default 5)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "proofline/circuits/porep.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/r1cs_eval.hpp"
#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/proving_assignment.hpp"

using namespace proofline;
using Clock = std::chrono::steady_clock;

namespace {
double secs(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
#define CHECK(x)                                                                                   \
  do {                                                                                             \
    const cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                                \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)
}  // namespace

int main(int argc, char** argv) {
  if (gpu::device_count() == 0) {
    std::printf("no CUDA device: skipping the GPU constraint-evaluation benchmark\n");
    return 0;
  }
  const int reps = std::getenv("REPS") ? std::max(1, std::atoi(std::getenv("REPS"))) : 5;
  std::vector<std::string> sizes;
  for (int i = 1; i < argc; ++i) sizes.emplace_back(argv[i]);
  if (sizes.empty()) sizes.emplace_back("2KiB");
  std::printf("device: %s\n", gpu::device_name(0).c_str());
  std::printf("| sector | constraints | aux | nnz A / B / C | distinct coeffs | ±1 entries | compiled GB | record s | "
              "upload ms | **evaluate ms** | synthesis s (prover) | a, b, c GB | check |\n");
  std::printf("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
  for (const std::string& size : sizes) {
    filecoin::GenC1Options o;
    o.proof = filecoin::registered_seal_proof_from_string("StackedDrg" + size + "V1_1");
    o.seed = 11;
    const filecoin::SealCommitPhase1Output c1 = filecoin::gen_c1(o);
    circuits::porep::PoRepCircuit circuit(circuits::porep::shape_for(filecoin::porep_config(c1.registered_proof)),
                                          circuits::porep::partition_inputs(c1, 0));
    auto t0 = Clock::now();
    r1cs::CompiledCircuit cc = [&] {
      r1cs::CircuitRecorder rec;
      r1cs::synthesize(circuit, rec);
      return std::move(rec).compile();
    }();
    const double record_s = secs(t0);
    // prover mode twice, the second into the first's buffers (warm); the faster is reported
    double synth_s = 1e9;
    r1cs::ProvingBuffers warm;
    {
      r1cs::ProvingAssignment first;
      t0 = Clock::now();
      r1cs::synthesize(circuit, first);
      synth_s = secs(t0);
      warm = first.release();
    }
    r1cs::ProvingAssignment pa(std::move(warm));
    t0 = Clock::now();
    r1cs::synthesize(circuit, pa);
    synth_s = std::min(synth_s, secs(t0));
    const r1cs::CompiledShape& s = cc.shape();
    const std::size_t n = s.constraints, nz = s.inputs + s.aux;
    t0 = Clock::now();
    const gpu::DeviceCompiledCircuit dev(cc);
    CHECK(cudaDeviceSynchronize());
    const double upload_ms = 1e3 * secs(t0);
    ff::Fr *d_z = nullptr, *d_abc = nullptr;
    CHECK(cudaMalloc(&d_z, nz * sizeof(ff::Fr)));
    CHECK(cudaMalloc(&d_abc, 3 * n * sizeof(ff::Fr)));
    CHECK(cudaMemcpy(d_z, pa.input_assignment().data(), s.inputs * sizeof(ff::Fr), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_z + s.inputs, pa.aux_assignment().data(), s.aux * sizeof(ff::Fr), cudaMemcpyHostToDevice));
    // correctness first
    dev.evaluate(d_z, d_z + s.inputs, d_abc, d_abc + n, d_abc + 2 * n);
    CHECK(cudaDeviceSynchronize());
    std::vector<ff::Fr> got(n);
    const std::span<const ff::Fr> want[3] = {pa.a(), pa.b(), pa.c()};
    bool ok = true;
    for (int m = 0; m < 3; ++m) {
      CHECK(cudaMemcpy(got.data(), d_abc + m * n, n * sizeof(ff::Fr), cudaMemcpyDeviceToHost));
      ok = ok && std::memcmp(got.data(), want[m].data(), n * sizeof(ff::Fr)) == 0;
    }
    float best = 1e30f;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    for (int r = 0; r < reps && ok; ++r) {
      CHECK(cudaEventRecord(e0));
      dev.evaluate(d_z, d_z + s.inputs, d_abc, d_abc + n, d_abc + 2 * n);
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      best = std::min(best, ms);
    }
    CHECK(cudaFree(d_z));
    CHECK(cudaFree(d_abc));
    const std::size_t nnz = s.nnz[0] + s.nnz[1] + s.nnz[2];
    std::printf("| %s | %llu | %llu | %llu / %llu / %llu | %llu | %.1f %% | %.2f | %.2f | %.1f | **%.2f** | %.3f | %.2f | %s |\n",
                size.c_str(), (unsigned long long)n, (unsigned long long)s.aux, (unsigned long long)s.nnz[0],
                (unsigned long long)s.nnz[1], (unsigned long long)s.nnz[2], (unsigned long long)s.coefficients,
                100.0 * double(cc.unit_entries()) / double(nnz ? nnz : 1), double(dev.device_bytes()) / 1e9,
                record_s, upload_ms, ok ? best : 0.0f, synth_s, 3.0 * n * sizeof(ff::Fr) / 1e9,
                ok ? "ok" : "DIFFERS");
    std::fflush(stdout);
    if (!ok) return 1;
  }
  return 0;
}
