// The compiled circuit (r1cs::CircuitRecorder → r1cs::CompiledCircuit → r1cs::evaluate) on real
// circuits: the bench circuit and a whole 2 KiB PoRep partition. The oracle is prover mode
// (r1cs::ProvingAssignment, fast path on, as the engine runs it): evaluating the compiled A, B, C on
// the prover's own witness must give its a, b, c bit for bit, and the recorded density bitmaps must
// be its density bitmaps. The PoRep test also prints the numbers issue 31 asks for (distinct
// coefficients, the ±1 share, compiled bytes against the a, b, c they replace, evaluation against
// synthesis time). Recording the challenges as parallel parts must give the sequential recording
// byte for byte.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <span>
#include <vector>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/circuits/porep.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/compiled_file.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "../support/buffers_test_util.hpp"

namespace proofline {
namespace {

using r1cs::CircuitRecorder;
using r1cs::CompiledCircuit;
using r1cs::ProvingAssignment;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

using proofline::testing::same_bytes;

// Evaluates `cc` on `pa`'s witness `runs` times and compares everything with `pa`; returns the
// fastest evaluation's seconds (the machine is shared: the minimum is the least disturbed run).
double expect_equal_to_prover(const CompiledCircuit& cc, const ProvingAssignment& pa, int runs = 1) {
  const r1cs::CompiledShape& s = cc.shape();
  EXPECT_EQ(s.constraints, pa.num_constraints());
  EXPECT_EQ(s.inputs, pa.num_inputs());
  EXPECT_EQ(s.aux, pa.num_aux());
  std::vector<ff::Fr> a(s.constraints), b(s.constraints), c(s.constraints);
  double secs = 1e9;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    r1cs::evaluate(a, b, c, cc, pa.input_assignment(), pa.aux_assignment());
    secs = std::min(secs, seconds_since(t0));
  }
  EXPECT_TRUE(same_bytes(a, pa.a())) << "a differs";
  EXPECT_TRUE(same_bytes(b, pa.b())) << "b differs";
  EXPECT_TRUE(same_bytes(c, pa.c())) << "c differs";
  EXPECT_TRUE(cc.a_aux_density() == pa.a_aux_density());
  EXPECT_TRUE(cc.b_input_density() == pa.b_input_density());
  EXPECT_TRUE(cc.b_aux_density() == pa.b_aux_density());
  EXPECT_EQ(cc.a_aux_density().popcount(), pa.a_aux_density().popcount());
  EXPECT_EQ(cc.b_aux_density().popcount(), pa.b_aux_density().popcount());
  return secs;
}

TEST(CompiledCircuit, BenchCircuitEqualsProver) {
  for (unsigned k : {4u, 10u, 14u}) {
    const circuits::bench::SizedCircuit circuit(k, ff::Fr::from_u64(77 + k));
    CircuitRecorder rec;
    r1cs::synthesize(circuit, rec);
    const CompiledCircuit cc = std::move(rec).compile();
    ProvingAssignment pa;
    r1cs::synthesize(circuit, pa);
    SCOPED_TRACE(k);
    expect_equal_to_prover(cc, pa);
    EXPECT_EQ(cc.shape().constraints, std::size_t{1} << k);
  }
}

TEST(CompiledCircuit, PoRep2KiBPartitionEqualsProver) {
  filecoin::GenC1Options o;
  o.proof = filecoin::RegisteredSealProof::StackedDrg2KiBV1_1;
  o.seed = 31;
  const filecoin::SealCommitPhase1Output c1 = filecoin::gen_c1(o);
  circuits::porep::PoRepCircuit circuit(circuits::porep::shape_for(filecoin::porep_config(c1.registered_proof)),
                                        circuits::porep::partition_inputs(c1, 0));
  auto record = [&](std::size_t threads) {
    circuit.set_synthesis_threads(threads);  // 1: the challenges in order; 0: as parallel parts
    CircuitRecorder rec;
    r1cs::synthesize(circuit, rec);
    return std::move(rec).compile();
  };
  auto t0 = Clock::now();
  const CompiledCircuit sequential = record(1);
  const double record_seq_s = seconds_since(t0);
  t0 = Clock::now();
  const CompiledCircuit cc = record(0);
  const double record_s = seconds_since(t0);
  EXPECT_TRUE(cc == sequential) << "recording the challenges as parallel parts differs from recording them in order";
  // Prover synthesis twice, the second into the first's recycled buffers (warm, as the engine's
  // pool runs it); the second is timed.
  r1cs::ProvingBuffers warm;
  {
    ProvingAssignment first;
    r1cs::synthesize(circuit, first);
    warm = first.release();
  }
  t0 = Clock::now();
  ProvingAssignment pa(std::move(warm));
  r1cs::synthesize(circuit, pa);
  const double synth_s = seconds_since(t0);
  EXPECT_EQ(pa.num_constraints(), 2687921u + 40u);
  const double eval_s = expect_equal_to_prover(cc, pa, 3);

  const r1cs::CompiledShape& s = cc.shape();
  const std::size_t nnz = s.nnz[0] + s.nnz[1] + s.nnz[2];
  const std::size_t abc_bytes = 3 * s.constraints * sizeof(ff::Fr);
  std::printf("2 KiB PoRep partition: %llu constraints, %llu inputs, %llu aux; nnz A %llu B %llu C %llu\n",
              (unsigned long long)s.constraints, (unsigned long long)s.inputs, (unsigned long long)s.aux,
              (unsigned long long)s.nnz[0], (unsigned long long)s.nnz[1], (unsigned long long)s.nnz[2]);
  std::printf("  distinct coefficients %llu; entries with ±1: %zu of %zu (%.2f %%)\n",
              (unsigned long long)s.coefficients, cc.unit_entries(), nnz,
              100.0 * double(cc.unit_entries()) / double(nnz));
  // The rest of the table: ±2^k (bit packing) against other constants (Poseidon, SHA-256 round constants…).
  auto is_pow2 = [](const ff::Fr& f) {
    int bits = 0;
    for (const std::uint64_t l : f.to_canonical()) bits += std::popcount(l);
    return bits == 1;
  };
  std::vector<bool> pow2(cc.coefficients().size());
  std::size_t pow2_distinct = 0, pow2_entries = 0;
  for (std::size_t k = 2; k < pow2.size(); ++k) {
    pow2[k] = is_pow2(cc.coefficients()[k]) || is_pow2(-cc.coefficients()[k]);
    pow2_distinct += pow2[k];
  }
  for (int m = 0; m < 3; ++m) {
    for (const r1cs::CoeffIndex k : cc.matrix(m).coeff_index) pow2_entries += pow2[k];
  }
  std::printf("  ±2^k (k >= 1): %zu distinct, %zu entries (%.2f %%); other: %zu distinct, %zu entries\n", pow2_distinct,
              pow2_entries, 100.0 * double(pow2_entries) / double(nnz), pow2.size() - 2 - pow2_distinct,
              nnz - cc.unit_entries() - pow2_entries);
  std::printf("  compiled %zu bytes vs a, b, c %zu bytes (%.2fx)\n", cc.bytes(), abc_bytes,
              double(cc.bytes()) / double(abc_bytes));
  std::printf("  record %.3f s (parts in order: %.3f s), prover synthesis (warm) %.3f s, CPU evaluation (best of 3) %.3f s\n", record_s,
              record_seq_s, synth_s, eval_s);

  // Through the file: the mapped form evaluates to the same a, b, c.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("proofline-porep2k-" + std::to_string(::getpid()) + ".plcc")).string();
  t0 = Clock::now();
  const std::uint64_t file_bytes = r1cs::write_compiled_circuit(path, cc);
  const double write_s = seconds_since(t0);
  t0 = Clock::now();
  const CompiledCircuit back =
      r1cs::read_compiled_circuit(path, {.expected = r1cs::CircuitShape{s.constraints, s.inputs, s.aux}});
  const double read_s = seconds_since(t0);
  std::filesystem::remove(path);
  EXPECT_EQ(back.shape(), s);
  expect_equal_to_prover(back, pa);
  std::printf("  file %llu bytes: write %.3f s, read (map + digest + checks) %.3f s\n", (unsigned long long)file_bytes,
              write_s, read_s);
}

}  // namespace
}  // namespace proofline
