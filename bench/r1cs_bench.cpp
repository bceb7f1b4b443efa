// r1cs benchmarks: prover-mode synthesis throughput (constraints per second, one core).
//
// Two synthetic shapes stand in for gadget code until the real gadgets exist:
//  - bits: per step one boolean (ONE − b)·b = 0 and one xor (2a)·(b) = (a + b − r), 2 aux and 2
//    constraints of 1–3 terms with coefficient ±1/2 (the shape of SHA-256's bit logic);
//  - pack32: (Σ_{k<32} 2^k·bit_k)·ONE = num, one 33-term constraint per 32 bits (UInt32 packing /
//    addmany-like wide LCs).
// Buffers are reserved up front, names are lazy lambdas (never formatted in prover mode).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "proofline/r1cs/r1cs.hpp"

namespace {

using namespace proofline::r1cs;
using proofline::ff::Fr;

void bits_steps(ConstraintSystem& cs, std::size_t n) {
  Variable prev = ConstraintSystem::one();
  const Fr two = Fr::from_u64(2);
  for (std::size_t i = 0; i < n; ++i) {
    const bool bit = (i * 0x9e3779b97f4a7c15ull) >> 63;
    Variable b = cs.alloc([&] { return "bit " + std::to_string(i); }, [&] { return bit ? Fr::one() : Fr::zero(); });
    cs.enforce(
        [&] { return "boolean " + std::to_string(i); },
        [&](LinearCombination& lc) { lc.add(ConstraintSystem::one()).sub(b); }, b, LinearCombination{});
    Variable r = cs.alloc("r", [&] { return Fr::zero(); });
    cs.enforce(
        "xor", [&](LinearCombination& lc) { lc.add(prev, two); }, b,
        [&](LinearCombination& lc) { lc.add(prev).add(b).sub(r); });
    prev = b;
  }
}

void pack32_steps(ConstraintSystem& cs, std::size_t n_words, std::span<const Fr> pow2) {
  Variable bits[32];
  for (std::size_t w = 0; w < n_words; ++w) {
    for (int k = 0; k < 32; ++k) {
      const bool bit = ((w * 2654435761u) >> k) & 1;
      bits[k] = cs.alloc("b", [&] { return bit ? Fr::one() : Fr::zero(); });
    }
    Variable num = cs.alloc("num", [&] { return Fr::from_u64(static_cast<std::uint32_t>(w * 2654435761u)); });
    cs.enforce(
        "pack",
        [&](LinearCombination& lc) {
          for (int k = 0; k < 32; ++k) lc.add(bits[k], pow2[k]);
        },
        ConstraintSystem::one(), num);
  }
}

void BM_ProverBits(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  ProvingBuffers recycled;
  for (auto _ : state) {
    ProvingAssignment p(std::move(recycled));
    p.reserve(2 * n + 1, 1, 2 * n);
    bits_steps(p, n);
    p.finalize();
    benchmark::DoNotOptimize(p.a().data());
    recycled = p.release();
  }
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(2 * n) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ProverBits)->Arg(1 << 10)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

void BM_ProverPack32(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  std::vector<Fr> pow2(32);
  for (int k = 0; k < 32; ++k) pow2[k] = Fr::from_u64(std::uint64_t{1} << k);
  ProvingBuffers recycled;
  for (auto _ : state) {
    ProvingAssignment p(std::move(recycled));
    p.reserve(n + 1, 1, 33 * n);
    pack32_steps(p, n, pow2);
    p.finalize();
    benchmark::DoNotOptimize(p.a().data());
    recycled = p.release();
  }
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(n) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["terms/s"] =
      benchmark::Counter(static_cast<double>(34 * n) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ProverPack32)->Arg(1 << 14)->Unit(benchmark::kMillisecond);

void BM_ShapeCounterBits(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    ShapeCounter s;
    bits_steps(s, n);
    s.finalize();
    benchmark::DoNotOptimize(s.num_constraints());
  }
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(2 * n) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ShapeCounterBits)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace
