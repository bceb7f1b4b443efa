// Field arithmetic benchmarks: Fp, Fr, Fp2.
//
// Each benchmark is a dependent chain (x = op(x, y)), so the time per iteration is the operation's
// latency, the number that matters inside point formulas and pairings. benchmark::DoNotOptimize
// keeps the chain's value observable every iteration. Inputs are fixed-seed random elements.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "proofline/ff/fp.hpp"
#include "proofline/ff/fp2.hpp"
#include "proofline/ff/fp_ifma.hpp"
#include "proofline/ff/fr.hpp"

namespace {

using proofline::ff::Fp;
using proofline::ff::Fp2;
using proofline::ff::Fr;

template <class F>
void BM_Mul(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F x = F::random(rng), y = F::random(rng);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_Square(benchmark::State& state) {
  std::mt19937_64 rng(2);
  F x = F::random(rng);
  for (auto _ : state) {
    x = x.square();
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_Add(benchmark::State& state) {
  std::mt19937_64 rng(3);
  F x = F::random(rng), y = F::random(rng);
  for (auto _ : state) {
    x = x + y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_Sub(benchmark::State& state) {
  std::mt19937_64 rng(4);
  F x = F::random(rng), y = F::random(rng);
  for (auto _ : state) {
    x = x - y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_Inverse(benchmark::State& state) {
  std::mt19937_64 rng(5);
  F x = F::random(rng);
  for (auto _ : state) {
    x = x.inverse();
    benchmark::DoNotOptimize(x);
  }
}

/// Square root of a square; the next input is the root squared (the same square), so every call
/// finds a root and each call depends on the previous one.
template <class F>
void BM_Sqrt(benchmark::State& state) {
  std::mt19937_64 rng(6);
  F x = F::random(rng).square();
  for (auto _ : state) {
    F r;
    bool ok = x.sqrt(r);
    benchmark::DoNotOptimize(ok);
    x = r.square();
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void BM_Legendre(benchmark::State& state) {
  std::mt19937_64 rng(7);
  F x = F::random(rng);
  for (auto _ : state) {
    int l = x.legendre();
    benchmark::DoNotOptimize(l);
    x = x + F::one();
  }
}

void BM_FrPow(benchmark::State& state) {
  // A 255-bit exponentiation (pow by random 4-limb exponent).
  std::mt19937_64 rng(8);
  Fr x = Fr::random(rng);
  std::array<std::uint64_t, 4> e{rng(), rng(), rng(), rng() >> 2};
  for (auto _ : state) {
    x = x.pow(e);
    benchmark::DoNotOptimize(x);
  }
}

/// Multiply throughput: 64 independent chains (8 groups of 8) of x ← x·y, 64 steps per
/// iteration; items = multiplies. Scalar Fp (mulx/adx when present) vs the 8-lane IFMA kernel
/// (ff/fp_ifma.hpp; skipped where the CPU lacks IFMA or PROOFLINE_NO_IFMA is set).
void BM_FpMulThroughput(benchmark::State& state, bool ifma) {
  if (ifma && !proofline::ff::ifma_enabled()) {
    state.SkipWithError("AVX-512 IFMA off or unsupported");
    return;
  }
  constexpr std::size_t kChains = 64, kSteps = 64;
  std::mt19937_64 rng(9);
  std::vector<Fp> x(kChains), y(kChains);
  for (std::size_t i = 0; i < kChains; ++i) x[i] = Fp::random(rng), y[i] = Fp::random(rng);
  for (auto _ : state) {
    if (ifma) {
      proofline::ff::fp_mul_chain_x8(x.data(), y.data(), kChains / 8, kSteps);
    } else {
      for (std::size_t s = 0; s < kSteps; ++s)
        for (std::size_t i = 0; i < kChains; ++i) x[i] = x[i] * y[i];
    }
    benchmark::DoNotOptimize(x.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kChains * kSteps));
}

}  // namespace

BENCHMARK_CAPTURE(BM_FpMulThroughput, scalar, false)->Name("Fp/mul_throughput/scalar");
BENCHMARK_CAPTURE(BM_FpMulThroughput, ifma8, true)->Name("Fp/mul_throughput/ifma8");
BENCHMARK(BM_Mul<Fp>)->Name("Fp/mul");
BENCHMARK(BM_Square<Fp>)->Name("Fp/square");
BENCHMARK(BM_Add<Fp>)->Name("Fp/add");
BENCHMARK(BM_Sub<Fp>)->Name("Fp/sub");
BENCHMARK(BM_Inverse<Fp>)->Name("Fp/inverse");
BENCHMARK(BM_Sqrt<Fp>)->Name("Fp/sqrt");
BENCHMARK(BM_Legendre<Fp>)->Name("Fp/legendre");
BENCHMARK(BM_Mul<Fr>)->Name("Fr/mul");
BENCHMARK(BM_Square<Fr>)->Name("Fr/square");
BENCHMARK(BM_Add<Fr>)->Name("Fr/add");
BENCHMARK(BM_Inverse<Fr>)->Name("Fr/inverse");
BENCHMARK(BM_Sqrt<Fr>)->Name("Fr/sqrt");
BENCHMARK(BM_FrPow)->Name("Fr/pow_255bit");
BENCHMARK(BM_Mul<Fp2>)->Name("Fp2/mul");
BENCHMARK(BM_Square<Fp2>)->Name("Fp2/square");
BENCHMARK(BM_Add<Fp2>)->Name("Fp2/add");
BENCHMARK(BM_Inverse<Fp2>)->Name("Fp2/inverse");
BENCHMARK(BM_Sqrt<Fp2>)->Name("Fp2/sqrt");
