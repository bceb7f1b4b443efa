// Groth16 prover benchmarks: the built-in SizedCircuit (circuits/bench) at 2^16 and 2^18 rows,
// CPU backend, all threads of the machine.
//
// Groth16/prove/2^<k>: one iteration = synthesis (ProvingAssignment over the circuit) + the CPU
// backend (H by NTTs, the five MSMs, assembly) with fixed (r, s); wall-clock time (UseRealTime).
// Counters give the mean per-iteration stage times in ms (synthesis, ntt, msm_h, msm_l, msm_a,
// msm_b_g1, msm_b_g2). The witness is 25% full-field / 75% boolean rows (see bench.hpp).
// Groth16/verify: one proof, prepared key (one multi-Miller loop + final exponentiation).
//
// Parameters come from proofline's development setup (seeded) and are cached on disk between runs
// in $PROOFLINE_BENCH_CACHE (default: <temp dir>/proofline-bench-params) because setup at 2^18
// takes far longer than a proof; a cached file is loaded on-curve-only and re-made if it does not
// fit. The first run pays the setup (not timed).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "../tests/support/create_proof.hpp"
#include "proofline/circuits/bench/bench.hpp"
#include "proofline/groth16/groth16.hpp"

namespace {

using namespace proofline;
using namespace proofline::groth16;

struct Fixture {
  std::unique_ptr<circuits::bench::SizedCircuit> circuit;
  Parameters params;
};

Fixture& fixture(unsigned k) {
  static std::map<unsigned, Fixture> cache;
  auto it = cache.find(k);
  if (it != cache.end()) return it->second;
  Fixture f;
  f.circuit = std::make_unique<circuits::bench::SizedCircuit>(k, Fr::from_u64(1));
  const char* env = std::getenv("PROOFLINE_BENCH_CACHE");
  std::filesystem::path dir = env != nullptr ? std::filesystem::path(env)
                                             : std::filesystem::temp_directory_path() / "proofline-bench-params";
  std::filesystem::path file = dir / ("bench_2^" + std::to_string(k) + "_seed1.params");
  bool loaded = false;
  if (std::filesystem::exists(file)) {
    try {
      f.params = Parameters::read_file(file.string(), ReadOptions{Check::OnCurveOnly});
      loaded = f.params.domain_size() == (std::size_t{1} << k) && f.params.vk.ic.size() == 3;
    } catch (const std::exception&) {
      loaded = false;
    }
  }
  if (!loaded) {
    SeededRandom rng(1);
    SetupOptions opts;
    opts.warn = false;
    opts.progress_min_constraints = ~std::size_t{0};
    f.params = generate_parameters(*f.circuit, rng, opts);
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    try {
      f.params.write_file(file.string());
    } catch (const std::exception&) {
    }
  }
  return cache.emplace(k, std::move(f)).first->second;
}

void bm_prove(benchmark::State& state, unsigned k) {
  Fixture& f = fixture(k);
  const Randomizers rs{Fr::from_u64(12345), Fr::from_u64(67890)};
  CpuBackend backend;
  StageTimings sum;
  double synth_ms = 0;
  Proof last;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<r1cs::ProvingBuffers> parts;
    parts.push_back(synthesize_for_proving(*f.circuit));
    synth_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ProverResult r = prove_assignments(f.params, parts, std::span<const Randomizers>(&rs, 1), &backend);
    sum += r.timings;
    last = r.proofs[0];
    benchmark::DoNotOptimize(last);
  }
  if (!verify_proof(prepare_verifying_key(f.params.vk), last, f.circuit->public_inputs())) {
    state.SkipWithError("the benchmarked proof does not verify");
    return;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["synthesis_ms"] = synth_ms / n;
  state.counters["ntt_ms"] = sum.ntt / n;
  state.counters["msm_h_ms"] = sum.msm_h / n;
  state.counters["msm_l_ms"] = sum.msm_l / n;
  state.counters["msm_a_ms"] = sum.msm_a / n;
  state.counters["msm_b_g1_ms"] = sum.msm_b_g1 / n;
  state.counters["msm_b_g2_ms"] = sum.msm_b_g2 / n;
  state.counters["backend_ms"] = sum.total / n;
}

void bm_verify(benchmark::State& state) {
  Fixture& f = fixture(10);
  const auto inputs = f.circuit->public_inputs();
  const Proof proof = create_proof(f.params, *f.circuit, Randomizers{Fr::from_u64(1), Fr::from_u64(2)});
  const PreparedVerifyingKey pvk = prepare_verifying_key(f.params.vk);
  for (auto _ : state) {
    bool ok = verify_proof(pvk, proof, inputs);
    benchmark::DoNotOptimize(ok);
  }
}

const bool registered = [] {
  for (unsigned k : {16u, 18u}) {
    benchmark::RegisterBenchmark(("Groth16/prove/2^" + std::to_string(k)).c_str(),
                                 [k](benchmark::State& s) { bm_prove(s, k); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(2.0);
  }
  benchmark::RegisterBenchmark("Groth16/verify", bm_verify)->Unit(benchmark::kMillisecond)->UseRealTime();
  return true;
}();

}  // namespace
