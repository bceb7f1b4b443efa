// Witness-only synthesis (WitnessAssignment). The oracle is prover mode (ProvingAssignment): the
// same circuit's inputs and aux values, value for value, and the compiled circuit (CircuitRecorder)
// evaluated on the witness-only assignment must give the prover's a, b, c byte for byte; parallel
// parts equal the in-order run; enforce() resolves nothing; cancellation and limits.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "awkward_circuit.hpp"
#include "proofline/r1cs/r1cs.hpp"

namespace proofline::r1cs {
namespace {

using compiled_test::Awkward;
using compiled_test::same_bytes;

// A circuit with inputs among the aux variables, 0/1 and other values, generic enforce() forms
// (Variables, LinearCombinations, callables) and, where the mode has one, its fast path: the
// witness fast path (witness_alloc / witness_alloc_bits / witness_enforce) or the prover's.
struct Mixed {
  void synthesize(ConstraintSystem& cs) const {
    Awkward{}.synthesize(cs);
    std::vector<Variable> bits;
    for (std::uint64_t k = 0; k < 150; ++k) {
      const bool bit = (k * 2654435761u >> 7) & 1;
      bits.push_back(cs.alloc("b", [&] { return bit ? Fr::one() : Fr::zero(); }));
      cs.enforce("bool", [&](LinearCombination& lc) { lc.add(ConstraintSystem::one()).sub(bits.back()); }, bits.back(),
                 LinearCombination{});
    }
    (void)cs.alloc_input("in", [] { return Fr::from_u64(77); });
    const std::uint64_t word = 0x8000'0001'dead'beefull;
    if (cs.witness_only()) {
      const std::uint64_t first = cs.witness_alloc_bits(word, 64);
      cs.witness_enforce(64);
      (void)cs.witness_alloc(Fr::from_u64(5));
      EXPECT_EQ(first + 64, cs.num_aux() - 1);
    } else {
      for (int k = 0; k < 64; ++k) {
        const Variable v = cs.alloc("w", [&] { return (word >> k) & 1 ? Fr::one() : Fr::zero(); });
        cs.enforce("w", v, v, v);
      }
      (void)cs.alloc("five", [] { return Fr::from_u64(5); });
    }
    for (std::uint64_t k = 0; k < 40; ++k) {
      const Variable x = cs.alloc("x", [&] { return Fr::from_u64(k * k + 2); });
      cs.enforce("sq", bits[k], x, [&](LinearCombination& lc) { lc.add(x, Fr::from_u64(k)); });
    }
  }
};

void expect_equal_to_prover(const WitnessAssignment& w, const ProvingAssignment& pa) {
  EXPECT_EQ(w.num_inputs(), pa.num_inputs());
  EXPECT_EQ(w.num_aux(), pa.num_aux());
  EXPECT_EQ(w.num_constraints(), pa.num_constraints());
  EXPECT_TRUE(same_bytes(w.input_assignment(), pa.input_assignment()));
  EXPECT_TRUE(same_bytes(w.aux_assignment().expand(), pa.aux_assignment()));
  EXPECT_TRUE(w.aux_assignment() == PackedWitness::pack(pa.aux_assignment()));
}

// evaluate(compiled, witness-only inputs, expanded aux) == the prover's a, b, c.
void expect_evaluates_to_prover(const CompiledCircuit& cc, const WitnessAssignment& w, const ProvingAssignment& pa) {
  std::vector<Fr> a(cc.shape().constraints), b(a.size()), c(a.size());
  evaluate(a, b, c, cc, w.input_assignment(), w.aux_assignment().expand());
  EXPECT_TRUE(same_bytes(a, pa.a()));
  EXPECT_TRUE(same_bytes(b, pa.b()));
  EXPECT_TRUE(same_bytes(c, pa.c()));
}

// Synthesizes `circuit` into `w`, a prover and a recorder; witness-only must equal the prover.
template <class C>
void synthesize_and_compare(const C& circuit, WitnessAssignment& w) {
  synthesize(circuit, w);
  ProvingAssignment pa;
  synthesize(circuit, pa);
  expect_equal_to_prover(w, pa);
  CircuitRecorder rec;
  synthesize(circuit, rec);
  expect_evaluates_to_prover(std::move(rec).compile(), w, pa);
  EXPECT_FALSE(pa.witness_only());
}

TEST(WitnessAssignment, HandWrittenCircuitEqualsProver) {
  WitnessAssignment w;
  synthesize_and_compare(Awkward{}, w);
  // Pinned: x, y, p, s = 3, 4, 12, 0; inputs ONE, out = 19; 5 + 2 constraints.
  EXPECT_EQ(w.num_constraints(), 7u);
  ASSERT_EQ(w.aux_assignment().size(), 4u);
  EXPECT_EQ(w.aux_assignment().value(2), Fr::from_u64(12));
  EXPECT_EQ(w.aux_assignment().others().size(), 3u);  // 3, 4, 12; s = 0 is a bit
  EXPECT_EQ(w.input_assignment()[1], Fr::from_u64(19));
}

TEST(WitnessAssignment, FastPathAndMixedValuesEqualProver) {
  WitnessAssignment w;
  synthesize_and_compare(Mixed{}, w);
  EXPECT_EQ(w.aux_assignment().size(), 4u + 150u + 65u + 40u);
  EXPECT_TRUE(w.witness_only());
  EXPECT_EQ(w.prover_buffers(), nullptr);
}

TEST(WitnessAssignment, EnforceResolvesNothing) {
  WitnessAssignment w;
  int calls = 0;
  const Variable x = w.alloc("x", [] { return Fr::from_u64(9); });
  w.enforce("c", [&](LinearCombination&) { ++calls; }, x, [&](LinearCombination&) { ++calls; });
  // A variable never allocated: no error in this mode (nothing is checked).
  w.enforce("u", Variable::aux(1000), x, x);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(w.num_constraints(), 2u);
  w.finalize();
  EXPECT_EQ(w.num_constraints(), 3u);  // + ONE's input constraint
}

TEST(WitnessAssignment, RecycledBuffersGiveTheSameWitness) {
  WitnessAssignment first;
  synthesize(Mixed{}, first);
  const WitnessBuffers expect = first.release();
  WitnessBuffers copy = expect;
  WitnessAssignment again(std::move(copy));
  synthesize(Mixed{}, again);
  EXPECT_TRUE(again.aux_assignment() == expect.aux_assignment);
  EXPECT_TRUE(same_bytes(again.input_assignment(), expect.input_assignment));
}

TEST(WitnessAssignment, CancelAndLimits) {
  std::atomic<bool> flag{true};
  {
    WitnessAssignment w;
    w.set_cancel(&flag);
    try {
      for (std::size_t k = 0; k < 2 * ConstraintSystem::kCancelStride; ++k) w.witness_enforce(1);
      FAIL() << "not cancelled";
    } catch (const SynthesisError& e) {
      EXPECT_EQ(e.code(), SynthesisErrorCode::Cancelled);
    }
  }
  {
    const CancelScope scope(nullptr, SynthesisLimits{.max_aux = 100});
    WitnessAssignment w;
    try {
      for (std::size_t k = 0; k < ConstraintSystem::kCancelStride; ++k) (void)w.witness_alloc_bits(0, 2);
      FAIL() << "no limit";
    } catch (const SynthesisError& e) {
      EXPECT_EQ(e.code(), SynthesisErrorCode::LimitExceeded);
    }
  }
}

// ---- parallel parts ------------------------------------------------------------------------------

// Prefix: 5 aux, 2 inputs; parts of 37 aux (boundaries inside bitmap words), 2 inputs, 41
// constraints, mixing 0/1 and other values, generic allocs and the witness fast path.
constexpr PartShape kPart{41, 2, 37};

void prefix(ConstraintSystem& cs) {
  for (std::uint64_t i = 0; i < 5; ++i) (void)cs.alloc("p", [i] { return Fr::from_u64(i % 3); });
  (void)cs.alloc_input("in", [] { return Fr::from_u64(11); });
  (void)cs.alloc_input("in", [] { return Fr::from_u64(12); });
  cs.enforce("p", Variable::aux(0), Variable::aux(1), Variable::aux(2));
}

void part(ConstraintSystem& cs, std::size_t j) {
  const std::uint64_t s = 100 * (j + 1);
  (void)cs.alloc_input("x", [&] { return Fr::from_u64(s); });
  for (std::uint64_t k = 0; k < 20; ++k) {
    const Variable v = cs.alloc("v", [&] { return Fr::from_u64((s + k) % 5 < 2 ? (s + k) % 5 : s + k); });
    cs.enforce("c", v, Variable::aux(k % 5), [&](LinearCombination& lc) { lc.add(v).add(ConstraintSystem::one()); });
  }
  const std::uint64_t bits = s * 0x9e3779b97f4a7c15ull;
  if (cs.witness_only()) {
    (void)cs.witness_alloc_bits(bits, 17);
    cs.witness_enforce(21);
  } else {
    for (std::uint64_t k = 0; k < 17; ++k) (void)cs.alloc("w", [&] { return (bits >> k) & 1 ? Fr::one() : Fr::zero(); });
    for (std::uint64_t k = 0; k < 21; ++k) cs.enforce("w", Variable::aux(k % 5), ConstraintSystem::one(), Variable::aux(k % 5));
  }
  (void)cs.alloc_input("y", [&] { return Fr::from_u64(s + 1); });
}

WitnessBuffers run_parts(std::size_t n_parts, std::size_t threads, std::size_t* constraints = nullptr) {
  WitnessAssignment cs;
  prefix(cs);
  cs.synthesize_parts(n_parts, kPart, part, threads);
  EXPECT_EQ(cs.num_aux(), 5 + n_parts * kPart.aux);
  EXPECT_EQ(cs.num_inputs(), 3 + n_parts * kPart.inputs);
  EXPECT_EQ(cs.num_constraints(), 1 + n_parts * kPart.constraints);
  cs.finalize();
  if (constraints != nullptr) *constraints = cs.num_constraints();
  return cs.release();
}

TEST(WitnessAssignment, ParallelPartsEqualInOrderAndProver) {
  ProvingAssignment pa;
  prefix(pa);
  pa.synthesize_parts(9, kPart, part, 1);
  pa.finalize();
  std::size_t constraints = 0;
  const WitnessBuffers seq = run_parts(9, 1, &constraints);
  EXPECT_EQ(constraints, pa.num_constraints());
  EXPECT_TRUE(same_bytes(seq.aux_assignment.expand(), pa.aux_assignment()));
  EXPECT_TRUE(same_bytes(seq.input_assignment, pa.input_assignment()));
  for (const std::size_t t : {2, 3, 0}) {
    SCOPED_TRACE("threads " + std::to_string(t));
    const WitnessBuffers par = run_parts(9, t);
    EXPECT_TRUE(par.aux_assignment == seq.aux_assignment);
    EXPECT_TRUE(same_bytes(par.input_assignment, seq.input_assignment));
  }
}

TEST(WitnessAssignment, ParallelPartsWrongShapeAndAfterFinalize) {
  WitnessAssignment cs;
  prefix(cs);
  try {
    cs.synthesize_parts(4, PartShape{41, 2, 36}, part, 2);
    FAIL() << "no ShapeMismatch";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::ShapeMismatch);
    EXPECT_NE(std::string(e.what()).find("part 0"), std::string::npos) << e.what();
  }
  WitnessAssignment done;
  done.finalize();
  EXPECT_THROW(done.synthesize_parts(2, kPart, part, 2), SynthesisError);
}

}  // namespace
}  // namespace proofline::r1cs
