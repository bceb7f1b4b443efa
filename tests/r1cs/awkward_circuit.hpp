// The hand-written circuit of the compiled-circuit tests (compiled_circuit_test.cpp,
// compiled_file_test.cpp) and their oracle check against prover mode.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <span>
#include <vector>

#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "../support/buffers_test_util.hpp"

namespace proofline::r1cs::compiled_test {

using ff::Fr;

inline Fr F(std::int64_t v) {
  return v >= 0 ? Fr::from_u64(static_cast<std::uint64_t>(v)) : -Fr::from_u64(static_cast<std::uint64_t>(-v));
}

// aux: x (0) = 3, y (1) = 4, p (2) = x·y = 12, s (3) = 0 (boolean); inputs: ONE (0), out (1) = 19,
// allocated after the aux variables.
//   0 "dup":    (x + x + y − 2·x) · (2·ONE + out) = y·(2 + 19)   A: x's net coefficient 0 → only y
//               A = {y: 1}, B = {ONE: 2, out: 1}, C = {y: 21}
//   1 "mul":    x · y = p                                         three Variables: prover fast path
//   2 "sum":    (p + x + 4·ONE) · ONE = out                       12 + 3 + 4 = 19
//               A = {ONE: 4, x: 1, p: 1}, B = {ONE: 1}, C = {out: 1}
//   3 "bool":   (ONE − s) · s = 0                                 empty C
//   4 "neg":    (−5·x − y) · (out − out) = 0 − 0·p                B and C net zero: empty rows
//               A = {x: −5, y: −1}
//   then the input constraints: 5 ONE · 0 = 0, 6 out · 0 = 0.
struct Awkward {
  void synthesize(ConstraintSystem& cs) const {
    const Variable x = cs.alloc("x", [] { return F(3); });
    const Variable y = cs.alloc("y", [] { return F(4); });
    const Variable p = cs.alloc("p", [] { return F(12); });
    const Variable s = cs.alloc("s", [] { return F(0); });
    const Variable out = cs.alloc_input("out", [] { return F(19); });
    const Variable one = ConstraintSystem::one();
    cs.enforce(
        "dup", [&](LinearCombination& lc) { lc.add(x).add(x).add(y).sub(x, F(2)); },
        [&](LinearCombination& lc) { lc.add(one, F(2)).add(out); }, LinearCombination(y, F(21)));
    cs.enforce("mul", x, y, p);
    cs.enforce("sum", [&](LinearCombination& lc) { lc.add(p).add(x).add(one, F(4)); }, one, out);
    cs.enforce("bool", [&](LinearCombination& lc) { lc.add(one).sub(s); }, s, LinearCombination{});
    cs.enforce(
        "neg", [&](LinearCombination& lc) { lc.sub(x, F(5)).sub(y); },
        [&](LinearCombination& lc) { lc.add(out).sub(out); }, [&](LinearCombination& lc) { lc.add(p, F(0)); });
  }
};

inline CompiledCircuit record_awkward() {
  CircuitRecorder rec;
  synthesize(Awkward{}, rec);
  return std::move(rec).compile();
}

using proofline::testing::same_bytes;

inline void expect_equals_prover(const CompiledCircuit& cc, const ProvingAssignment& pa) {
  ASSERT_EQ(cc.shape().constraints, pa.num_constraints());
  ASSERT_EQ(cc.shape().inputs, pa.num_inputs());
  ASSERT_EQ(cc.shape().aux, pa.num_aux());
  std::vector<Fr> a(pa.num_constraints()), b(a.size()), c(a.size());
  evaluate(a, b, c, cc, pa.input_assignment(), pa.aux_assignment());
  EXPECT_TRUE(same_bytes(a, pa.a()));
  EXPECT_TRUE(same_bytes(b, pa.b()));
  EXPECT_TRUE(same_bytes(c, pa.c()));
  EXPECT_TRUE(cc.a_aux_density() == pa.a_aux_density());
  EXPECT_TRUE(cc.b_input_density() == pa.b_input_density());
  EXPECT_TRUE(cc.b_aux_density() == pa.b_aux_density());
}

}  // namespace proofline::r1cs::compiled_test
