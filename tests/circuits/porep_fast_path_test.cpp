// The gadgets' prover fast path (word-form UInt32 / SHA-256, bit gadgets, MultiEq, Poseidon) on a
// whole 2 KiB PoRep partition (2,687,921 constraints, ~90 % of them SHA-256) against the generic
// LinearCombination path: the same a, b, c, assignments and densities. The two provers run one
// after the other and are compared through 64-bit digests of each buffer, so only one partition's
// buffers are held at a time. (Test mode = prover mode on the same partition is the slow ctest
// entry porep_test_mode.)
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>

#include "proofline/circuits/porep.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/r1cs/r1cs.hpp"

namespace proofline::circuits::porep {
namespace {

// FNV-1a over the bytes of a buffer (Montgomery form for Fr, the words for densities).
std::uint64_t digest(std::span<const std::uint8_t> bytes, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (const std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}
template <class T>
std::span<const std::uint8_t> bytes_of(std::span<const T> v) {
  return {reinterpret_cast<const std::uint8_t*>(v.data()), v.size_bytes()};
}
std::uint64_t digest(std::span<const Fr> v) { return digest(bytes_of(v)); }
std::uint64_t digest(const r1cs::DensityTracker& d) {
  return digest(bytes_of(d.words())) ^ (d.size() * 0x9e3779b97f4a7c15ull) ^ d.popcount();
}

struct Digests {
  std::uint64_t a, b, c, inputs, aux, a_aux, b_in, b_aux;
  std::size_t constraints, n_aux;
  bool operator==(const Digests&) const = default;
};

Digests synthesize_digests(const PoRepCircuit& circuit, bool fast) {
  r1cs::ProvingAssignment pa;
  pa.set_fast_path(fast);
  r1cs::synthesize(circuit, pa);
  return Digests{digest(pa.a()),           digest(pa.b()),
                 digest(pa.c()),           digest(pa.input_assignment()),
                 digest(pa.aux_assignment()), digest(pa.a_aux_density()),
                 digest(pa.b_input_density()), digest(pa.b_aux_density()),
                 pa.num_constraints(),     pa.num_aux()};
}

TEST(PoRepFastPath, FastEqualsGeneric2KiB) {
  filecoin::GenC1Options o;
  o.proof = filecoin::RegisteredSealProof::StackedDrg2KiBV1_1;
  o.seed = 23;
  const filecoin::SealCommitPhase1Output c1 = filecoin::gen_c1(o);
  const PoRepCircuit circuit(shape_for(filecoin::porep_config(c1.registered_proof)), partition_inputs(c1, 0));
  const Digests fast = synthesize_digests(circuit, true);
  const Digests generic = synthesize_digests(circuit, false);
  EXPECT_EQ(fast.constraints, 2687921u + 40u);  // the circuit, then one constraint per input (ONE + 39)
  EXPECT_EQ(fast.constraints, generic.constraints);
  EXPECT_EQ(fast.n_aux, generic.n_aux);
  EXPECT_EQ(fast.a, generic.a) << "a differs";
  EXPECT_EQ(fast.b, generic.b) << "b differs";
  EXPECT_EQ(fast.c, generic.c) << "c differs";
  EXPECT_EQ(fast.inputs, generic.inputs);
  EXPECT_EQ(fast.aux, generic.aux) << "aux assignment differs";
  EXPECT_EQ(fast.a_aux, generic.a_aux) << "A aux density differs";
  EXPECT_EQ(fast.b_in, generic.b_in) << "B input density differs";
  EXPECT_EQ(fast.b_aux, generic.b_aux) << "B aux density differs";
}

}  // namespace
}  // namespace proofline::circuits::porep
