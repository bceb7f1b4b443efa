// Field arithmetic benchmarks: Fp, Fr, Fp2.
//
// Each benchmark is a dependent chain (x = op(x, y)), so the time per iteration is the operation's
// latency, the number that matters inside point formulas and pairings. benchmark::DoNotOptimize
// keeps the chain's value observable every iteration. Inputs are fixed-seed random elements.
#include <benchmark/benchmark.h>

#include <random>

#include "proofline/ff/fp.hpp"
#include "proofline/ff/fp2.hpp"
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

}  // namespace

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
