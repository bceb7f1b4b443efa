// poly/ benchmarks: NTT (natural order, and the permutation-free NR), coset NTT, compute_h.
// Second argument: threads (0 = all cores via TBB's default arena, 1 = serial on the calling thread).
// Wall-clock time (UseRealTime), since the work runs on TBB workers.
//   build/proofline_bench --benchmark_filter='Poly'
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "proofline/poly/poly.hpp"

namespace {

using proofline::poly::EvaluationDomain;
using proofline::poly::Fr;
using proofline::poly::NttConfig;
using proofline::poly::Order;

std::vector<Fr> random_vec(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

void set_labels(benchmark::State& state) {
  state.SetLabel(state.range(1) == 1 ? "1 thread" : "all cores");
  state.SetItemsProcessed(state.iterations() * (std::int64_t{1} << state.range(0)));
}

template <Order kOrder>
void BM_PolyNtt(benchmark::State& state) {
  const auto d = EvaluationDomain::with_log_size(static_cast<unsigned>(state.range(0)));
  auto v = random_vec(d.size(), 1);
  const NttConfig cfg{kOrder, static_cast<unsigned>(state.range(1))};
  for (auto _ : state) {
    d.ntt(v, cfg);
    benchmark::DoNotOptimize(v.data());
  }
  set_labels(state);
}

void BM_PolyIntt(benchmark::State& state) {
  const auto d = EvaluationDomain::with_log_size(static_cast<unsigned>(state.range(0)));
  auto v = random_vec(d.size(), 2);
  const NttConfig cfg{Order::NN, static_cast<unsigned>(state.range(1))};
  for (auto _ : state) {
    d.intt(v, cfg);
    benchmark::DoNotOptimize(v.data());
  }
  set_labels(state);
}

void BM_PolyCosetNtt(benchmark::State& state) {
  const auto d = EvaluationDomain::with_log_size(static_cast<unsigned>(state.range(0)));
  auto v = random_vec(d.size(), 3);
  const NttConfig cfg{Order::NN, static_cast<unsigned>(state.range(1))};
  for (auto _ : state) {
    d.coset_ntt(v, cfg);
    benchmark::DoNotOptimize(v.data());
  }
  set_labels(state);
}

void BM_PolyBitReverse(benchmark::State& state) {
  const auto d = EvaluationDomain::with_log_size(static_cast<unsigned>(state.range(0)));
  auto v = random_vec(d.size(), 4);
  const NttConfig cfg{Order::NN, static_cast<unsigned>(state.range(1))};
  for (auto _ : state) {
    d.bit_reverse(v, cfg);
    benchmark::DoNotOptimize(v.data());
  }
  set_labels(state);
}

// compute_h on a satisfied instance (c = a·b); the inputs are restored outside the timed region.
void BM_PolyComputeH(benchmark::State& state) {
  const auto d = EvaluationDomain::with_log_size(static_cast<unsigned>(state.range(0)));
  const auto a0 = random_vec(d.size(), 5), b0 = random_vec(d.size(), 6);
  std::vector<Fr> c0(d.size());
  for (std::size_t i = 0; i < c0.size(); ++i) c0[i] = a0[i] * b0[i];
  auto a = a0, b = b0, c = c0;
  const NttConfig cfg{Order::NN, static_cast<unsigned>(state.range(1))};
  for (auto _ : state) {
    state.PauseTiming();
    a = a0;
    b = b0;
    c = c0;
    state.ResumeTiming();
    proofline::poly::compute_h(a, b, c, d, cfg);
    benchmark::DoNotOptimize(a.data());
  }
  set_labels(state);
}

void sizes(benchmark::internal::Benchmark* b, std::initializer_list<int> logs) {
  for (int k : logs) {
    for (int t : {1, 0}) b->Args({k, t});
  }
  b->ArgNames({"lg", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_PolyNtt<Order::NN>)->Apply([](auto* b) { sizes(b, {16, 20}); });
BENCHMARK(BM_PolyNtt<Order::NR>)->Apply([](auto* b) { sizes(b, {16, 20}); });
BENCHMARK(BM_PolyIntt)->Apply([](auto* b) { sizes(b, {16}); });
BENCHMARK(BM_PolyCosetNtt)->Apply([](auto* b) { sizes(b, {16}); });
BENCHMARK(BM_PolyBitReverse)->Apply([](auto* b) { sizes(b, {16, 20}); });
BENCHMARK(BM_PolyComputeH)->Apply([](auto* b) { sizes(b, {16}); });

}  // namespace
