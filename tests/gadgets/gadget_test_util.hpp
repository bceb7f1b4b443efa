// Shared checks for gadget tests: one synthesis function run through every mode.
//
// check_modes(synth): runs `synth(cs)` into a TestConstraintSystem, a ProvingAssignment and a
// ShapeCounter, and checks that
//  - the test system is satisfied;
//  - all three agree on the numbers of inputs, aux variables and constraints;
//  - the prover's a, b, c equal ⟨A_i,z⟩, ⟨B_i,z⟩, ⟨C_i,z⟩ of the test system's stored rows, its
//    assignments equal the test system's values, and its density bitmaps equal the ones read off the
//    stored rows (A: aux with a nonzero coefficient; B: inputs and aux);
//  - a second ProvingAssignment with the gadgets' fast path off (generic LinearCombination path)
//    produces buffers identical to the first (fast path on, the default);
//  - witness-only mode (WitnessAssignment) gives the prover's counts, inputs and aux assignment
//    value for value (expect_witness_equals_prover).
// check_flips(tcs, n, rng): flips n randomly chosen aux values (bit v → 1 − v, other values v → v + 1)
// one at a time and expects an unsatisfied constraint each time.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "proofline/r1cs/r1cs.hpp"

namespace proofline::gadget_test {

using namespace proofline::r1cs;
using ff::Fr;

struct ModeCounts {
  std::size_t inputs = 0, aux = 0, constraints = 0;
};

/// The fast-path prover and the generic-path prover produced the same buffers.
inline void expect_same_buffers(const ProvingAssignment& fast, const ProvingAssignment& generic) {
  EXPECT_TRUE(fast.fast_path());
  EXPECT_FALSE(generic.fast_path());
  EXPECT_EQ(fast.num_constraints(), generic.num_constraints());
  EXPECT_EQ(fast.num_aux(), generic.num_aux());
  auto same = [](std::span<const Fr> x, std::span<const Fr> y) { return std::equal(x.begin(), x.end(), y.begin(), y.end()); };
  EXPECT_TRUE(same(fast.a(), generic.a())) << "a differs between fast and generic prover paths";
  EXPECT_TRUE(same(fast.b(), generic.b())) << "b differs between fast and generic prover paths";
  EXPECT_TRUE(same(fast.c(), generic.c())) << "c differs between fast and generic prover paths";
  EXPECT_TRUE(same(fast.aux_assignment(), generic.aux_assignment()));
  EXPECT_TRUE(same(fast.input_assignment(), generic.input_assignment()));
  EXPECT_TRUE(fast.a_aux_density() == generic.a_aux_density()) << "A aux density differs (fast vs generic)";
  EXPECT_TRUE(fast.b_aux_density() == generic.b_aux_density()) << "B aux density differs (fast vs generic)";
  EXPECT_TRUE(fast.b_input_density() == generic.b_input_density()) << "B input density differs (fast vs generic)";
  EXPECT_EQ(fast.a_aux_density().popcount(), generic.a_aux_density().popcount());
  EXPECT_EQ(fast.b_aux_density().popcount(), generic.b_aux_density().popcount());
  EXPECT_EQ(fast.b_input_density().popcount(), generic.b_input_density().popcount());
}

/// Witness-only mode gave the prover's counts, inputs and aux values (unpacked and packed).
inline void expect_witness_equals_prover(const WitnessAssignment& w, const ProvingAssignment& pa) {
  EXPECT_EQ(w.num_inputs(), pa.num_inputs());
  EXPECT_EQ(w.num_aux(), pa.num_aux());
  EXPECT_EQ(w.num_constraints(), pa.num_constraints());
  auto same = [](std::span<const Fr> x, std::span<const Fr> y) { return std::equal(x.begin(), x.end(), y.begin(), y.end()); };
  EXPECT_TRUE(same(w.input_assignment(), pa.input_assignment())) << "inputs differ (witness-only vs prover)";
  EXPECT_TRUE(same(w.aux_assignment().expand(), pa.aux_assignment())) << "aux differs (witness-only vs prover)";
  EXPECT_TRUE(w.aux_assignment() == PackedWitness::pack(pa.aux_assignment())) << "packed forms differ";
}

template <class F>
ModeCounts check_modes(F&& synth) {
  TestConstraintSystem tcs;
  synth(static_cast<ConstraintSystem&>(tcs));
  EXPECT_TRUE(tcs.is_satisfied()) << "first unsatisfied: " << tcs.which_is_unsatisfied().value_or("");

  ProvingAssignment pa;
  synth(static_cast<ConstraintSystem&>(pa));

  ShapeCounter sc;
  synth(static_cast<ConstraintSystem&>(sc));

  ProvingAssignment generic;
  generic.set_fast_path(false);
  synth(static_cast<ConstraintSystem&>(generic));
  expect_same_buffers(pa, generic);

  WitnessAssignment witness;
  synth(static_cast<ConstraintSystem&>(witness));
  expect_witness_equals_prover(witness, pa);

  EXPECT_EQ(pa.num_inputs(), tcs.num_inputs());
  EXPECT_EQ(pa.num_aux(), tcs.num_aux());
  EXPECT_EQ(pa.num_constraints(), tcs.num_constraints());
  EXPECT_EQ(sc.num_inputs(), tcs.num_inputs());
  EXPECT_EQ(sc.num_aux(), tcs.num_aux());
  EXPECT_EQ(sc.num_constraints(), tcs.num_constraints());

  const auto aux = tcs.aux_values();
  const auto inp = tcs.input_values();
  EXPECT_TRUE(std::equal(aux.begin(), aux.end(), pa.aux_assignment().begin(), pa.aux_assignment().end()));
  EXPECT_TRUE(std::equal(inp.begin(), inp.end(), pa.input_assignment().begin(), pa.input_assignment().end()));

  DensityTracker a_aux, b_in, b_aux;
  for (std::size_t i = 0; i < tcs.num_aux(); ++i) {
    a_aux.push_back(false);
    b_aux.push_back(false);
  }
  for (std::size_t i = 0; i < tcs.num_inputs(); ++i) b_in.push_back(false);
  std::size_t mismatches = 0;
  const auto cons = tcs.constraints();
  for (std::size_t i = 0; i < cons.size() && i < pa.a().size(); ++i) {
    if (!(pa.a()[i] == tcs.eval_a(i)) || !(pa.b()[i] == tcs.eval_b(i)) || !(pa.c()[i] == tcs.eval_c(i))) {
      if (mismatches++ < 3) ADD_FAILURE() << "a/b/c differ at constraint " << i << " (" << cons[i].path << ")";
    }
    for (const Term& t : cons[i].a.aux()) {
      if (!t.coeff.is_zero()) a_aux.set(t.index);
    }
    for (const Term& t : cons[i].b.aux()) {
      if (!t.coeff.is_zero()) b_aux.set(t.index);
    }
    for (const Term& t : cons[i].b.inputs()) {
      if (!t.coeff.is_zero()) b_in.set(t.index);
    }
  }
  EXPECT_EQ(mismatches, 0u);
  EXPECT_TRUE(a_aux == pa.a_aux_density());
  EXPECT_TRUE(b_aux == pa.b_aux_density());
  EXPECT_TRUE(b_in == pa.b_input_density());
  return ModeCounts{tcs.num_inputs(), tcs.num_aux(), tcs.num_constraints()};
}

/// Flips `n` random aux values of a satisfied system one at a time; each flip must break it.
inline void check_flips(TestConstraintSystem& tcs, std::size_t n, std::uint64_t seed,
                        std::size_t first_aux = 0) {
  ASSERT_TRUE(tcs.is_satisfied());
  ASSERT_GT(tcs.num_aux(), first_aux);
  std::mt19937_64 rng(seed);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t idx = first_aux + rng() % (tcs.num_aux() - first_aux);
    const std::string path = tcs.aux_path(idx);
    const Fr old = tcs.get(path);
    Fr flipped;
    if (old.is_zero()) flipped = Fr::one();
    else if (old.is_one()) flipped = Fr::zero();
    else flipped = old + Fr::one();
    tcs.set(path, flipped);
    EXPECT_TRUE(tcs.which_is_unsatisfied().has_value()) << "flipping " << path << " kept the system satisfied";
    tcs.set(path, old);
  }
  EXPECT_TRUE(tcs.is_satisfied());
}

inline Fr random_fr(std::mt19937_64& rng) { return Fr::random(rng); }

}  // namespace proofline::gadget_test
