// MSM benchmarks: G1 MSM 2^16 / 2^18 on 1 and 2 threads, G2 MSM 2^16, the 0/1 path at 2^18.
//
// Times are wall-clock (UseRealTime), since the work runs on several threads; each iteration is
// one complete MSM call (split, Pippenger, sum of the ±1 terms). Scalars are uniform random Fr
// (Montgomery form, as the prover holds them); bases are distinct subgroup points from a random
// walk (P_i = P_{i−1} + R_j with 16 random steps R_j, converted to affine in one batch), which
// behaves like SRS points for the MSM. Names: <group>/msm/2^<lg>/t<threads>.
//
// Tuning sweep (not run by default): PROOFLINE_MSM_SWEEP=1 also registers
// G1/msm/2^<lg>/t<T>/c<c>/<xyzz|affine> for lg ∈ {16, 18}, c ∈ 8..18, T ∈ {1, 2}, which is how
// the cost model's constants in src/msm/msm.cpp were checked.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/msm/msm.hpp"

namespace {

using namespace proofline;
using ff::Fr;

template <class Cfg>
const std::vector<ec::AffinePoint<Cfg>>& bench_points(std::size_t n) {
  static std::vector<ec::AffinePoint<Cfg>> pts;
  if (pts.size() >= n) return pts;
  std::mt19937_64 rng(42);
  std::vector<ec::JacobianPoint<Cfg>> steps(16);
  for (auto& s : steps) s = ec::JacobianPoint<Cfg>::generator().mul(Fr::random(rng));
  std::vector<ec::JacobianPoint<Cfg>> proj(n);
  auto acc = ec::JacobianPoint<Cfg>::generator().mul(Fr::random(rng));
  for (auto& p : proj) {
    acc += steps[rng() & 15];
    p = acc;
  }
  pts.resize(n);
  ec::batch_to_affine(std::span<const ec::JacobianPoint<Cfg>>(proj), std::span<ec::AffinePoint<Cfg>>(pts));
  return pts;
}

const std::vector<Fr>& bench_scalars(std::size_t n) {
  static std::vector<Fr> s;
  if (s.size() >= n) return s;
  std::mt19937_64 rng(7);
  s.resize(n);
  for (auto& k : s) k = Fr::random(rng);
  return s;
}

template <class Cfg>
void bm_msm(benchmark::State& state, std::size_t lg, msm::MsmConfig cfg) {
  const std::size_t n = std::size_t{1} << lg;
  const auto& pts = bench_points<Cfg>(n);
  const auto& sc = bench_scalars(n);
  const std::span<const ec::AffinePoint<Cfg>> b(pts.data(), n);
  const std::span<const Fr> s(sc.data(), n);
  for (auto _ : state) {
    auto r = msm::msm<Cfg>(b, s, cfg);
    benchmark::DoNotOptimize(r);
  }
  state.counters["n"] = static_cast<double>(n);
}

/// The 0/1 path: Σ of the points whose bit is set, half the bits set at random.
void bm_sum01(benchmark::State& state, std::size_t lg, int threads, bool as_msm) {
  const std::size_t n = std::size_t{1} << lg;
  const auto& pts = bench_points<ec::G1Config>(n);
  const std::span<const ec::G1Affine> b(pts.data(), n);
  std::mt19937_64 rng(9);
  std::vector<uint64_t> words((n + 63) / 64);
  for (auto& w : words) w = rng();
  const msm::Density sel(words, n);
  std::vector<Fr> bits(n);
  for (std::size_t i = 0; i < n; ++i) bits[i] = sel.test(i) ? Fr::one() : Fr::zero();
  msm::MsmConfig cfg;
  cfg.threads = threads;
  for (auto _ : state) {
    auto r = as_msm ? msm::msm_g1(b, bits, cfg) : msm::sum_selected_g1(b, sel, cfg);
    benchmark::DoNotOptimize(r);
  }
  state.counters["n"] = static_cast<double>(n);
}

msm::MsmConfig threads_cfg(int t) {
  msm::MsmConfig c;
  c.threads = t;
  return c;
}

int register_all() {
  auto reg = [](const std::string& name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->UseRealTime()
        ->MeasureProcessCPUTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(1.0);
  };
  for (std::size_t lg : {16u, 18u}) {
    for (int t : {2, 1}) {
      reg("G1/msm/2^" + std::to_string(lg) + "/t" + std::to_string(t),
          [=](benchmark::State& s) { bm_msm<ec::G1Config>(s, lg, threads_cfg(t)); });
    }
  }
  for (int t : {2, 1}) {
    reg("G2/msm/2^16/t" + std::to_string(t),
        [=](benchmark::State& s) { bm_msm<ec::G2Config>(s, 16, threads_cfg(t)); });
  }
  // Side by side: the same calls without the endomorphism split (one 255-bit scalar per point).
  for (int t : {2, 1}) {
    msm::MsmConfig plain = threads_cfg(t);
    plain.endomorphism = false;
    for (std::size_t lg : {16u, 18u})
      reg("G1/msm/2^" + std::to_string(lg) + "/t" + std::to_string(t) + "/noendo",
          [=](benchmark::State& s) { bm_msm<ec::G1Config>(s, lg, plain); });
    reg("G2/msm/2^16/t" + std::to_string(t) + "/noendo",
        [=](benchmark::State& s) { bm_msm<ec::G2Config>(s, 16, plain); });
  }
  for (int t : {2, 1}) {
    reg("G1/sum01/2^18/t" + std::to_string(t), [=](benchmark::State& s) { bm_sum01(s, 18, t, false); });
  }
  reg("G1/msm01/2^18/t2", [=](benchmark::State& s) { bm_sum01(s, 18, 2, true); });

  if (const char* e = std::getenv("PROOFLINE_MSM_SWEEP"); e && *e == '1') {
    for (std::size_t lg : {16u, 18u}) {
      for (int t : {1, 2}) {
        for (int c = 8; c <= 18; ++c) {
          for (bool affine : {false, true}) {
            msm::MsmConfig cfg = threads_cfg(t);
            cfg.window_bits = c;
            cfg.buckets = affine ? msm::BucketForm::BatchAffine : msm::BucketForm::Xyzz;
            cfg.chunks = 1;
            reg("G1/msm/2^" + std::to_string(lg) + "/t" + std::to_string(t) + "/c" + std::to_string(c) + "/" +
                    (affine ? "affine" : "xyzz"),
                [=](benchmark::State& s) { bm_msm<ec::G1Config>(s, lg, cfg); });
          }
        }
      }
    }
  }
  return 0;
}

const int registered = register_all();

}  // namespace
