// Parallel synthesis of one PoRep partition (issue 17, item 2): the challenges synthesized on oneTBB
// threads into one ProvingBuffers (r1cs::ProvingAssignment::synthesize_parts) must give, byte for
// byte, what the sequential path (synthesis_threads 1) gives: a, b, c, both assignments, the three
// density bitmaps (words, size, popcount) and the counts; for real gen-c1 partitions of 2 KiB, 8 MiB
// and (slow, ctest porep_parallel_slow) 512 MiB, for 1, 2, 3 and 7 threads and the default arena.
// Also: a corrupted witness gives the same (unsatisfied) buffers and the same first unsatisfied
// constraint; cancellation and the limits stop the parallel path with the sequential path's codes.
// The setup's synthesis (the QapEvaluator) with the challenges as parallel parts streams what the
// sequential one streams (2 KiB: vk, section lengths, every scalar in order; slow, ctest
// porep_parallel_slow).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <span>
#include <vector>

#include "../support/buffers_test_util.hpp"
#include "../support/setup_test_util.hpp"
#include "proofline/circuits/porep.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/r1cs/r1cs.hpp"

namespace proofline::circuits::porep {
namespace {

using filecoin::RegisteredSealProof;

// Prover-mode buffers of `circuit` on `threads`, reserved to the circuit's counts as the engine
// reserves them (no growth by doubling).
r1cs::ProvingBuffers prove_buffers(const PoRepCircuit& circuit, std::size_t threads) {
  PoRepCircuit c = circuit;
  c.set_synthesis_threads(threads);
  const PoRepCounts n = count_porep(c.shape());
  r1cs::ProvingAssignment cs;
  cs.reserve(n.constraints + n.inputs, n.inputs, n.aux);
  r1cs::synthesize(c, cs);
  return cs.release();
}

using proofline::testing::expect_identical;

PoRepCircuit gen_partition(RegisteredSealProof proof, std::uint64_t seed) {
  filecoin::GenC1Options o;
  o.proof = proof;
  o.seed = seed;
  const filecoin::SealCommitPhase1Output c1 = filecoin::gen_c1(o);
  return PoRepCircuit(shape_for(filecoin::porep_config(c1.registered_proof)), partition_inputs(c1, 0));
}

// The sequential buffers (checked: the right counts, every constraint satisfied), then each thread
// count's against them.
void check_parallel_equals_sequential(const PoRepCircuit& circuit, std::initializer_list<std::size_t> threads) {
  const PoRepCounts counts = count_porep(circuit.shape());
  const r1cs::ProvingBuffers seq = prove_buffers(circuit, 1);
  ASSERT_EQ(seq.a.size(), counts.constraints + counts.inputs);
  ASSERT_EQ(seq.aux_assignment.size(), counts.aux);
  ASSERT_EQ(seq.input_assignment.size(), counts.inputs);
  ASSERT_FALSE(first_unsatisfied(seq.a, seq.b, seq.c).has_value());
  ASSERT_GT(seq.a_aux_density.popcount(), 0u);
  ASSERT_GT(seq.b_aux_density.popcount(), 0u);
  for (const std::size_t t : threads) {
    const r1cs::ProvingBuffers par = prove_buffers(circuit, t);
    expect_identical(seq, par, t);
  }
}

TEST(PoRepParallel, EqualsSequential2KiB) {
  const PoRepCircuit circuit = gen_partition(RegisteredSealProof::StackedDrg2KiBV1_1, 31);
  ASSERT_EQ(circuit.shape().challenges, 2u);
  // The first parallel run may measure the challenge shape (challenge 0 in order), the later ones
  // reuse it (every challenge in parallel).
  check_parallel_equals_sequential(circuit, {2, 3, 7, 0});
}

// More challenges than threads, and thread counts that do not divide them: the 2 KiB partition's
// two challenges repeated to five (each one a valid opening, so the circuit stays satisfied).
TEST(PoRepParallel, EqualsSequentialFiveChallenges) {
  const PoRepCircuit two = gen_partition(RegisteredSealProof::StackedDrg2KiBV1_1, 32);
  PoRepShape shape = two.shape();
  shape.challenges = 5;
  PoRepPartitionInputs in = two.inputs();
  for (std::size_t i = 2; i < 5; ++i) in.challenges.push_back(two.inputs().challenges[i % 2]);
  const PoRepCircuit circuit(shape, std::move(in));
  check_parallel_equals_sequential(circuit, {2, 3});
}

// A shape no other test synthesizes (512 nodes, tree 8-0-0; a blank witness: unsatisfied, but the
// buffers are as comparable): the first parallel synthesis does not know the per-challenge counts
// yet and measures them on challenge 0, in order; the second runs every challenge in parallel.
TEST(PoRepParallel, ColdShapeMeasuredOnChallengeZero) {
  const PoRepShape shape{2, 512, gadgets::TreeShape{8, 0, 0}, 3};
  PoRepCircuit circuit(shape, blank_inputs(shape));
  circuit.set_synthesis_threads(2);
  r1cs::ProvingAssignment first;  // not reserved: count_porep would make the counts known
  r1cs::synthesize(circuit, first);
  const r1cs::ProvingBuffers cold = first.release();
  const r1cs::ProvingBuffers warm = prove_buffers(circuit, 2);
  const r1cs::ProvingBuffers seq = prove_buffers(circuit, 1);
  const PoRepCounts counts = count_porep(shape);
  EXPECT_EQ(seq.a.size(), counts.constraints + counts.inputs);
  EXPECT_EQ(seq.aux_assignment.size(), counts.aux);
  EXPECT_TRUE(first_unsatisfied(seq.a, seq.b, seq.c).has_value());
  expect_identical(seq, cold, 2);
  expect_identical(seq, warm, 2);
}

TEST(PoRepParallel, EqualsSequential8MiB) {
  const PoRepCircuit circuit = gen_partition(RegisteredSealProof::StackedDrg8MiBV1_1, 33);
  check_parallel_equals_sequential(circuit, {2, 3});
}

// ctest porep_parallel_slow (label slow).
TEST(PoRepParallelSlow, DISABLED_EqualsSequential512MiB) {
  const PoRepCircuit circuit = gen_partition(RegisteredSealProof::StackedDrg512MiBV1_1, 34);
  check_parallel_equals_sequential(circuit, {2, 3, 7});
}

// A corrupted tree C sibling: prover mode does not check constraints, so both paths give the same
// unsatisfied buffers; the first unsatisfied constraint (what check-c1 and the engine report) and
// where it lies are the same.
TEST(PoRepParallel, CorruptedSiblingSameFirstUnsatisfied) {
  const PoRepCircuit good = gen_partition(RegisteredSealProof::StackedDrg2KiBV1_1, 35);
  PoRepPartitionInputs in = good.inputs();
  Fr& sibling = in.challenges[1].exp_parents[3].path.base[0].hashes[2];
  sibling = sibling + Fr::one();
  const PoRepCircuit circuit(good.shape(), std::move(in));
  const r1cs::ProvingBuffers seq = prove_buffers(circuit, 1);
  const auto bad = first_unsatisfied(seq.a, seq.b, seq.c);
  ASSERT_TRUE(bad.has_value());
  const PoRepCounts counts = count_porep(circuit.shape());
  const std::string where = locate_constraint(counts, {}, *bad);
  EXPECT_EQ(where, "challenge 1: expander parent 3 column hash / tree C inclusion");
  for (const std::size_t t : {2, 3}) {
    const r1cs::ProvingBuffers par = prove_buffers(circuit, t);
    expect_identical(seq, par, t);
    EXPECT_EQ(first_unsatisfied(par.a, par.b, par.c), bad);
  }
}

// The engine's way: a CancelScope on the synthesizing thread. A flag already set stops the parallel
// path before any challenge (the header's 571 constraints are under one poll stride, so the
// sequential path reaches its first poll inside challenge 0); both say Cancelled.
TEST(PoRepParallel, CancelledThroughCancelScope) {
  const PoRepCircuit circuit = gen_partition(RegisteredSealProof::StackedDrg2KiBV1_1, 36);
  (void)prove_buffers(circuit, 2);  // the challenge shape is known from here on
  std::atomic<bool> flag{true};
  for (const std::size_t t : {1, 2, 3}) {
    r1cs::CancelScope scope(&flag);
    try {
      (void)prove_buffers(circuit, t);
      ADD_FAILURE() << "not cancelled, " << t << " threads";
    } catch (const r1cs::SynthesisError& e) {
      EXPECT_EQ(e.code(), r1cs::SynthesisErrorCode::Cancelled) << e.what();
    }
  }
}

// Limits well below the partition's counts: LimitExceeded on both paths (the sequential one at the
// first poll past the limit, the parallel one before it writes anything: it knows the final counts).
TEST(PoRepParallel, LimitsExceeded) {
  const PoRepCircuit circuit = gen_partition(RegisteredSealProof::StackedDrg2KiBV1_1, 37);
  const PoRepCounts counts = count_porep(circuit.shape());
  for (const std::size_t t : {1, 2}) {
    r1cs::SynthesisLimits limits;
    limits.max_aux = counts.aux / 2;
    r1cs::CancelScope scope(nullptr, limits);
    try {
      (void)prove_buffers(circuit, t);
      ADD_FAILURE() << "no LimitExceeded, " << t << " threads";
    } catch (const r1cs::SynthesisError& e) {
      EXPECT_EQ(e.code(), r1cs::SynthesisErrorCode::LimitExceeded) << e.what();
      EXPECT_NE(std::string(e.what()).find("aux variables"), std::string::npos) << e.what();
    }
  }
}

TEST(PoRepParallel, DefaultThreadsKnob) {
  EXPECT_EQ(default_synthesis_threads(), 0u);
  set_default_synthesis_threads(1);
  const PoRepCircuit one = gen_partition(RegisteredSealProof::StackedDrg2KiBV1_1, 38);
  EXPECT_EQ(one.synthesis_threads(), 1u);
  set_default_synthesis_threads(0);
  const PoRepCircuit all = gen_partition(RegisteredSealProof::StackedDrg2KiBV1_1, 38);
  EXPECT_EQ(all.synthesis_threads(), 0u);
}

// The setup of a blank 2 KiB partition as `proofline setup --circuit porep` runs it (shape from
// count_porep): with the challenges as parallel parts into the QapEvaluator (SetupOptions::threads
// 2 and 0, and 0 with the circuit in order) it streams what the sequential synthesis (threads 1) streams
// — the vk, the section lengths and every scalar in order, i.e. the same .params bytes
// (tests/support/setup_test_util.hpp). ~60 s on the 2-core box: DISABLED_ in the per-case run, run
// by ctest as porep_parallel_slow (label slow).
TEST(PoRepParallelSlow, DISABLED_SetupGivesTheSequentialParams2KiB) {
  const PoRepShape shape = shape_for_sector_size(2048);
  const PoRepCounts n = count_porep(shape);
  proofline::testing::expect_parallel_setup_is_sequential(PoRepCircuit(shape, blank_inputs(shape)),
                                                          {n.constraints + n.inputs, n.inputs, n.aux}, 2048);
}

}  // namespace
}  // namespace proofline::circuits::porep
