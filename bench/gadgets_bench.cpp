// gadgets benchmarks: prover-mode synthesis speed (constraints per second, one core) of a
// SHA-256-heavy circuit (tree-D-like: 2-block SHA-256 of 512 allocated bits, 45,386 constraints per
// hash) and a Poseidon-heavy circuit (arity-8 Poseidon of 8 allocated numbers, 505 + 8 allocs per
// hash). Buffers are reserved from a ShapeCounter run and recycled across iterations, so the
// numbers are synthesis alone (no allocation growth). The second argument selects the prover's
// gadget fast path (1, the default in ProvingAssignment) or the generic LinearCombination path (0),
// so that both are measured side by side in one run; Google Benchmark's rate counters divide by
// CPU time.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <vector>

#include "proofline/circuits/porep.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/gadgets/poseidon.hpp"
#include "proofline/gadgets/sha256.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/r1cs/qap_evaluator.hpp"
#include "proofline/r1cs/r1cs.hpp"

namespace {

using namespace proofline::gadgets;
using namespace proofline::r1cs;

void sha_circuit(ConstraintSystem& cs, std::size_t n_hashes, const std::vector<bool>& data) {
  for (std::size_t h = 0; h < n_hashes; ++h) {
    auto ns = cs.namespace_([&] { return "hash " + std::to_string(h); });
    std::vector<Boolean> bits;
    bits.reserve(512);
    for (std::size_t i = 0; i < 512; ++i) bits.push_back(AllocatedBit::alloc(cs, data[(h * 512 + i) % data.size()]));
    sha256(cs, bits);
  }
}

void poseidon_circuit(ConstraintSystem& cs, std::size_t n_hashes, const std::vector<Fr>& data) {
  const auto& c = PoseidonConstants::merkle(8);
  std::vector<AllocatedNum> in(8);
  for (std::size_t h = 0; h < n_hashes; ++h) {
    auto ns = cs.namespace_([&] { return "hash " + std::to_string(h); });
    for (std::size_t i = 0; i < 8; ++i) in[i] = AllocatedNum::alloc(cs, data[(h * 8 + i) % data.size()]);
    poseidon_hash(cs, in, c);
  }
}

template <class Synth, class Data>
void run(benchmark::State& state, Synth synth, const Data& data) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  ShapeCounter sc;
  synth(sc, n, data);
  ProvingBuffers recycled;
  const bool fast = state.range(1) != 0;
  for (auto _ : state) {
    ProvingAssignment p(std::move(recycled));
    p.set_fast_path(fast);
    p.reserve(sc.num_constraints() + sc.num_inputs(), sc.num_inputs(), sc.num_aux());
    synth(p, n, data);
    benchmark::DoNotOptimize(p.c().data());
    recycled = p.release();
  }
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(sc.num_constraints()) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["constraints"] = static_cast<double>(sc.num_constraints());
}

void BM_SynthSha256(benchmark::State& state) {
  std::mt19937_64 rng(1);
  std::vector<bool> data(1 << 14);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = rng() & 1;
  run(state, sha_circuit, data);
}
BENCHMARK(BM_SynthSha256)->Name("gadgets/synth_sha256")->Args({20, 0})->Args({20, 1})->Unit(benchmark::kMillisecond);

void BM_SynthPoseidon(benchmark::State& state) {
  std::mt19937_64 rng(2);
  std::vector<Fr> data(1024);
  for (auto& x : data) x = Fr::random(rng);
  run(state, poseidon_circuit, data);
}
BENCHMARK(BM_SynthPoseidon)->Name("gadgets/synth_poseidon8")->Args({1000, 0})->Args({1000, 1})->Unit(benchmark::kMillisecond);

// One PoRep partition (circuits/porep, partition 0 of a gen-c1 sector: 2 KiB = 2,687,921
// constraints, 8 MiB = 8 KiB-node trees, ~90 % SHA-256 label constraints), synthesized in prover
// mode with buffers reserved; range(0) = log2 of the sector size in KiB (1: 2 KiB, 13: 8 MiB),
// range(1) as above (1: gadgets' fast path, 0: generic path), range(2) = the circuit's
// synthesis_threads (1: the sequential path, 0: every challenge in parallel on all hardware
// threads), range(3) = 0: buffers recycled from the previous iteration, 1: fresh buffers each
// iteration (first-touch page faults inside the timing, as for a partition without a pool).
void BM_SynthPoRep(benchmark::State& state) {
  namespace fc = proofline::filecoin;
  namespace pr = proofline::circuits::porep;
  fc::GenC1Options o;
  o.proof = state.range(0) == 1 ? fc::RegisteredSealProof::StackedDrg2KiBV1_1 : fc::RegisteredSealProof::StackedDrg8MiBV1_1;
  o.seed = 1;
  const fc::SealCommitPhase1Output c1 = fc::gen_c1(o);
  pr::PoRepCircuit circuit(pr::shape_for(fc::porep_config(c1.registered_proof)), pr::partition_inputs(c1, 0));
  circuit.set_synthesis_threads(static_cast<std::size_t>(state.range(2)));
  const bool fast = state.range(1) != 0, fresh = state.range(3) != 0;
  ShapeCounter sc;
  synthesize(circuit, sc);
  ProvingBuffers recycled;
  {  // untimed: the challenge shape (measured once per process by the parallel path), warm buffers
    ProvingAssignment p;
    p.set_fast_path(fast);
    synthesize(circuit, p);
    if (!fresh) recycled = p.release();
  }
  for (auto _ : state) {
    ProvingAssignment p(std::move(recycled));
    p.set_fast_path(fast);
    p.reserve(sc.num_constraints(), sc.num_inputs(), sc.num_aux());
    synthesize(circuit, p);
    benchmark::DoNotOptimize(p.c().data());
    if (!fresh) {
      recycled = p.release();
    } else {
      state.PauseTiming();  // freeing is not synthesis
      ProvingBuffers done = p.release();
      done = ProvingBuffers{};
      state.ResumeTiming();
    }
  }
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(sc.num_constraints()) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["constraints"] = static_cast<double>(sc.num_constraints());
}
BENCHMARK(BM_SynthPoRep)
    ->Name("gadgets/synth_porep")
    ->Args({1, 0, 1, 0})
    ->Args({1, 1, 1, 0})
    ->Args({1, 1, 0, 0})
    ->Args({13, 1, 1, 0})
    ->Args({13, 1, 0, 0})
    ->Args({13, 1, 1, 1})
    ->Args({13, 1, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The setup's synthesis stage (`proofline setup`, stage 2) of a WindowPoSt-shaped partition: a blank
// FallbackPoStCircuit with the 32 GiB tree (8-8-0, 2^30 nodes, 10 challenges per sector) and
// range(0) sectors (2349 in the real partition: 125 M constraints, ~12 GB of sums; a few hundred fit
// a small box) synthesized into an r1cs::QapEvaluator, the sectors as parts on range(1) threads
// (QapEvaluator::set_part_threads: 1 = in order, the sequential path). The evaluator is made
// (zeroed) outside the timing, as the setup's stage 2 does before it starts the clock.
void BM_SetupSynthWindowPoSt(benchmark::State& state) {
  namespace fc = proofline::filecoin;
  namespace po = proofline::circuits::post;
  const auto fp = fc::fallback_params(fc::post_config(fc::PoStType::Window, std::uint64_t{32} << 30,
                                                      fc::ApiVersion::V1_2_0));
  po::FallbackPoStShape shape = po::shape_for(fp);
  shape.sectors = static_cast<std::size_t>(state.range(0));
  const po::FallbackPoStCircuit circuit(shape, po::blank_sectors(shape));
  const po::PoStCounts c = po::count_post(shape);
  const CircuitShape cs{c.constraints + c.inputs, c.inputs, c.aux};
  const Fr tau = Fr::from_u64(0x7a0) * Fr::from_u64(1234577);
  for (auto _ : state) {
    state.PauseTiming();
    auto q = std::make_unique<QapEvaluator>(tau, cs);
    q->set_part_threads(static_cast<std::size_t>(state.range(1)));
    state.ResumeTiming();
    synthesize(circuit, *q);
    benchmark::DoNotOptimize(q->aux().data());
    state.PauseTiming();
    q.reset();
    state.ResumeTiming();
  }
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(c.constraints) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["constraints"] = static_cast<double>(c.constraints);
}
BENCHMARK(BM_SetupSynthWindowPoSt)
    ->Name("gadgets/setup_synth_window_post")
    ->Args({128, 1})
    ->Args({128, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();


void BM_NativePoseidon8(benchmark::State& state) {
  const auto& c = PoseidonConstants::merkle(8);
  std::mt19937_64 rng(3);
  std::vector<Fr> in(8);
  for (auto& x : in) x = Fr::random(rng);
  for (auto _ : state) {
    in[0] = poseidon_hash_native(c, in);
    benchmark::DoNotOptimize(in[0]);
  }
}
BENCHMARK(BM_NativePoseidon8)->Name("gadgets/native_poseidon8");

}  // namespace
