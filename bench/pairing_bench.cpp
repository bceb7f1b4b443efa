// Pairing benchmarks: the optimal ate pairing e(P, Q) and its two halves (Miller loop, final
// exponentiation), a product of four pairings as one multi-Miller loop plus one final
// exponentiation (the shape of a Groth16 verification), and the Fp12 operations they are made of.
// Points are random multiples of the generators (fixed seed). Pairings are long enough that
// latency and throughput coincide; the Fp12 ones are dependent chains.
#include <benchmark/benchmark.h>

#include <array>
#include <random>
#include <utility>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fp12.hpp"
#include "proofline/pairing/pairing.hpp"

namespace {

using proofline::ec::G1Affine;
using proofline::ec::G1Projective;
using proofline::ec::G2Affine;
using proofline::ec::G2Projective;
using proofline::ff::Fp12;
using proofline::ff::Fr;
namespace pairing = proofline::pairing;

struct Pairs {
  std::array<std::pair<G1Affine, G2Affine>, 4> v;
  explicit Pairs(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (auto& [p, q] : v) {
      p = G1Projective::generator().mul(Fr::random(rng)).to_affine();
      q = G2Projective::generator().mul(Fr::random(rng)).to_affine();
    }
  }
};

void BM_Pairing(benchmark::State& state) {
  Pairs pairs(1);
  const auto& [p, q] = pairs.v[0];
  for (auto _ : state) {
    Fp12 e = pairing::pairing(p, q);
    benchmark::DoNotOptimize(e);
  }
}

void BM_MillerLoop(benchmark::State& state) {
  Pairs pairs(2);
  const auto& [p, q] = pairs.v[0];
  for (auto _ : state) {
    Fp12 f = pairing::miller_loop(p, q);
    benchmark::DoNotOptimize(f);
  }
}

void BM_FinalExponentiation(benchmark::State& state) {
  Pairs pairs(3);
  Fp12 f = pairing::miller_loop(pairs.v[0].first, pairs.v[0].second);
  for (auto _ : state) {
    f = pairing::final_exponentiation(f);  // stays a non-zero Fp12 element: a valid input again
    benchmark::DoNotOptimize(f);
  }
}

void BM_MultiMillerLoop4FinalExp(benchmark::State& state) {
  Pairs pairs(4);
  for (auto _ : state) {
    Fp12 f = pairing::final_exponentiation(pairing::multi_miller_loop(pairs.v));
    benchmark::DoNotOptimize(f);
  }
}

void BM_Fp12Mul(benchmark::State& state) {
  Pairs pairs(5);
  Fp12 a = pairing::miller_loop(pairs.v[0].first, pairs.v[0].second);
  Fp12 b = pairing::miller_loop(pairs.v[1].first, pairs.v[1].second);
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}

void BM_Fp12Square(benchmark::State& state) {
  Pairs pairs(6);
  Fp12 a = pairing::miller_loop(pairs.v[0].first, pairs.v[0].second);
  for (auto _ : state) {
    a = a.square();
    benchmark::DoNotOptimize(a);
  }
}

void BM_Fp12CyclotomicSquare(benchmark::State& state) {
  Pairs pairs(7);
  Fp12 a = pairing::pairing(pairs.v[0].first, pairs.v[0].second);  // in GT: cyclotomic
  for (auto _ : state) {
    a = a.cyclotomic_square();
    benchmark::DoNotOptimize(a);
  }
}

void BM_Fp12Inverse(benchmark::State& state) {
  Pairs pairs(8);
  Fp12 a = pairing::miller_loop(pairs.v[0].first, pairs.v[0].second);
  for (auto _ : state) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}

}  // namespace

BENCHMARK(BM_Pairing)->Name("pairing/pairing")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MillerLoop)->Name("pairing/miller_loop")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FinalExponentiation)->Name("pairing/final_exp")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MultiMillerLoop4FinalExp)->Name("pairing/multi_miller_loop4_final_exp")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Fp12Mul)->Name("Fp12/mul");
BENCHMARK(BM_Fp12Square)->Name("Fp12/square");
BENCHMARK(BM_Fp12CyclotomicSquare)->Name("Fp12/cyclotomic_square");
BENCHMARK(BM_Fp12Inverse)->Name("Fp12/inverse");
