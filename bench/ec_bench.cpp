// Curve benchmarks: G1 and G2 group law (Jacobian add, mixed add, double; XYZZ mixed add, the MSM
// bucket operation), scalar multiplication by a random Fr, subgroup checks, and decoding of the
// ZCash compressed encodings with the subgroup check (the path every untrusted point takes).
//
// The group-law and scalar-multiplication benchmarks are dependent chains (P = P + Q, P = [k]P),
// so they measure latency. Decoding cycles through 64 pre-encoded random points. Points are random
// multiples of the generators (fixed seed), so Z ≠ 1 in the Jacobian operands.
#include <benchmark/benchmark.h>

#include <array>
#include <random>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"

namespace {

using proofline::Error;
using proofline::ec::Check;
using proofline::ec::G1Affine;
using proofline::ec::G1Projective;
using proofline::ec::G1Xyzz;
using proofline::ec::G2Affine;
using proofline::ec::G2Projective;
using proofline::ec::G2Xyzz;
using proofline::ff::Fr;

template <class Projective>
Projective random_point(std::mt19937_64& rng) {
  return Projective::generator().mul(Fr::random(rng));
}

template <class Projective>
void BM_Add(benchmark::State& state) {
  std::mt19937_64 rng(1);
  Projective p = random_point<Projective>(rng), q = random_point<Projective>(rng);
  for (auto _ : state) {
    p = p + q;
    benchmark::DoNotOptimize(p);
  }
}

template <class Projective>
void BM_MixedAdd(benchmark::State& state) {
  std::mt19937_64 rng(2);
  Projective p = random_point<Projective>(rng);
  auto q = random_point<Projective>(rng).to_affine();
  for (auto _ : state) {
    p = p + q;
    benchmark::DoNotOptimize(p);
  }
}

template <class Projective>
void BM_Double(benchmark::State& state) {
  std::mt19937_64 rng(3);
  Projective p = random_point<Projective>(rng);
  for (auto _ : state) {
    p = p.dbl();
    benchmark::DoNotOptimize(p);
  }
}

template <class Xyzz, class Projective>
void BM_XyzzMixedAdd(benchmark::State& state) {
  std::mt19937_64 rng(4);
  Xyzz p = Xyzz::from_projective(random_point<Projective>(rng));
  auto q = random_point<Projective>(rng).to_affine();
  for (auto _ : state) {
    p = p + q;
    benchmark::DoNotOptimize(p);
  }
}

template <class Projective>
void BM_ScalarMul(benchmark::State& state) {
  std::mt19937_64 rng(5);
  std::array<Fr, 64> k;
  for (auto& s : k) s = Fr::random(rng);
  Projective p = random_point<Projective>(rng);
  std::size_t i = 0;
  for (auto _ : state) {
    p = p.mul(k[i++ & 63]);
    benchmark::DoNotOptimize(p);
  }
}

template <class Projective>
void BM_SubgroupCheck(benchmark::State& state) {
  std::mt19937_64 rng(6);
  Projective p = random_point<Projective>(rng);
  for (auto _ : state) {
    bool ok = p.is_in_subgroup();
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(p);
  }
}

template <class Projective, Check kCheck>
void BM_Decompress(benchmark::State& state) {
  using Affine = typename Projective::Affine;
  std::mt19937_64 rng(7);
  std::vector<std::array<uint8_t, Affine::kCompressedBytes>> enc(64);
  for (auto& e : enc) e = random_point<Projective>(rng).to_affine().to_compressed();
  std::size_t i = 0;
  for (auto _ : state) {
    Affine out;
    Error err = Affine::from_compressed(out, enc[i++ & 63], kCheck);
    benchmark::DoNotOptimize(err);
    benchmark::DoNotOptimize(out);
  }
  // Sanity: every encoding decodes.
  Affine out;
  if (Affine::from_compressed(out, enc[0], kCheck) != Error::Ok) state.SkipWithError("decode failed");
}

}  // namespace

BENCHMARK(BM_Add<G1Projective>)->Name("G1/add");
BENCHMARK(BM_MixedAdd<G1Projective>)->Name("G1/mixed_add");
BENCHMARK(BM_Double<G1Projective>)->Name("G1/double");
BENCHMARK(BM_XyzzMixedAdd<G1Xyzz, G1Projective>)->Name("G1/xyzz_mixed_add");
BENCHMARK(BM_ScalarMul<G1Projective>)->Name("G1/scalar_mul");
BENCHMARK(BM_SubgroupCheck<G1Projective>)->Name("G1/subgroup_check");
BENCHMARK(BM_Decompress<G1Projective, Check::Subgroup>)->Name("G1/decompress_checked");
BENCHMARK(BM_Decompress<G1Projective, Check::OnCurveOnly>)->Name("G1/decompress_unchecked");
BENCHMARK(BM_Add<G2Projective>)->Name("G2/add");
BENCHMARK(BM_MixedAdd<G2Projective>)->Name("G2/mixed_add");
BENCHMARK(BM_Double<G2Projective>)->Name("G2/double");
BENCHMARK(BM_XyzzMixedAdd<G2Xyzz, G2Projective>)->Name("G2/xyzz_mixed_add");
BENCHMARK(BM_ScalarMul<G2Projective>)->Name("G2/scalar_mul");
BENCHMARK(BM_SubgroupCheck<G2Projective>)->Name("G2/subgroup_check");
BENCHMARK(BM_Decompress<G2Projective, Check::Subgroup>)->Name("G2/decompress_checked");
BENCHMARK(BM_Decompress<G2Projective, Check::OnCurveOnly>)->Name("G2/decompress_unchecked");
