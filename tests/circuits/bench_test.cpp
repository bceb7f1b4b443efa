// Built-in circuits: exact shapes, satisfaction, and a Groth16 round trip.
#include <gtest/gtest.h>

#include "../support/create_proof.hpp"
#include "proofline/circuits/bench/bench.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/r1cs/keypair_assembly.hpp"
#include "proofline/r1cs/shape_counter.hpp"
#include "proofline/r1cs/test_constraint_system.hpp"

namespace proofline::circuits::bench {
namespace {

TEST(BenchCircuits, MulShapeAndParamsSize) {
  MulCircuit c;
  r1cs::TestConstraintSystem tcs;
  r1cs::synthesize(c, tcs);
  EXPECT_TRUE(tcs.is_satisfied());
  EXPECT_EQ(tcs.num_inputs(), 2u);
  EXPECT_EQ(tcs.num_aux(), 2u);
  EXPECT_EQ(tcs.num_constraints(), 1u + 2u);
  groth16::SeededRandom rng(1);
  groth16::SetupOptions o;
  o.warn = false;
  EXPECT_EQ(groth16::generate_parameters(c, rng, o).to_bytes().size(), 2136u);
}

TEST(BenchCircuits, SizedRowsArePowersOfTwoAndSatisfied) {
  for (unsigned k = SizedCircuit::kMinLog; k <= 11; ++k) {
    SizedCircuit c(k, Fr::from_u64(1000 + k));
    r1cs::TestConstraintSystem tcs;
    r1cs::synthesize(c, tcs);
    EXPECT_EQ(tcs.num_constraints(), std::size_t{1} << k) << k;
    EXPECT_EQ(tcs.num_inputs(), 3u);
    auto bad = tcs.which_is_unsatisfied();
    EXPECT_FALSE(bad.has_value()) << "k=" << k << ": " << *bad;
    auto x = c.public_inputs();
    ASSERT_EQ(x.size(), 2u);
    EXPECT_EQ(tcs.input_values()[1], x[0]);
    EXPECT_EQ(tcs.input_values()[2], x[1]);
    // Setup-mode synthesis gives the same shape without computing values.
    r1cs::ShapeCounter sc;
    r1cs::synthesize(c, sc);
    EXPECT_EQ(sc.num_constraints(), tcs.num_constraints());
    EXPECT_EQ(sc.num_aux(), tcs.num_aux());
    // shape() (what setup takes instead of a counting pass) is the counted one.
    EXPECT_EQ(c.shape(), sc.shape()) << k;
  }
  EXPECT_THROW(SizedCircuit(3, Fr::one()), std::invalid_argument);
  EXPECT_THROW(SizedCircuit(28, Fr::one()), std::invalid_argument);
}

TEST(BenchCircuits, MixOfBooleanAndFullFieldValues) {
  SizedCircuit c(12, Fr::from_u64(7));
  r1cs::TestConstraintSystem tcs;
  r1cs::synthesize(c, tcs);
  std::size_t bits = 0;
  for (const Fr& v : tcs.aux_values()) bits += v.is_zero() || v.is_one();
  const double frac = double(bits) / double(tcs.aux_values().size());
  EXPECT_GT(frac, 0.6);
  EXPECT_LT(frac, 0.85);
}

TEST(BenchCircuits, ProveVerifySized) {
  SizedCircuit c(9, Fr::from_u64(5));
  groth16::SeededRandom rng(2);
  groth16::SetupOptions o;
  o.warn = false;
  groth16::Parameters p = groth16::generate_parameters(c, rng, o);
  EXPECT_EQ(p.h.size() + 1, 512u);
  groth16::Proof proof = groth16::create_proof(p, c);
  auto pvk = groth16::prepare_verifying_key(p.vk);
  EXPECT_TRUE(groth16::verify_proof(pvk, proof, c.public_inputs()));
  auto x = c.public_inputs();
  x[1] += Fr::one();
  EXPECT_FALSE(groth16::verify_proof(pvk, proof, x));
  // The same through the run-time interface.
  auto b = make_circuit("bench", 9, 5);
  EXPECT_EQ(b.public_inputs, c.public_inputs());
  const r1cs::CircuitInterface& ci = *b.circuit;
  EXPECT_TRUE(groth16::verify_proof(pvk, groth16::create_proof(p, ci), b.public_inputs));
  EXPECT_THROW(make_circuit("nope", 9, 1), std::invalid_argument);
}

}  // namespace
}  // namespace proofline::circuits::bench
