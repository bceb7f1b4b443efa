// Recording mode and the compiled circuit (CircuitRecorder, CompiledCircuit, evaluate) on the
// hand-written circuit of awkward_circuit.hpp, which has the awkward cases:
// repeated adds of one variable, a net coefficient of zero, inputs in A, B and C, an input allocated
// after aux variables, coefficients ±1, 2, −5 and constants on ONE, an empty side, a constraint of three
// Variables (prover mode's fast path) and the input constraints. The oracle is prover mode
// (ProvingAssignment): a, b, c and the densities compared byte for byte; the recorded rows are also
// checked against the circuit's algebra, worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "awkward_circuit.hpp"
#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/util/error.hpp"

namespace proofline::ff {
void PrintTo(const Fr& f, std::ostream* os);  // defined in lc_test.cpp
}  // namespace proofline::ff

namespace {

using namespace proofline::r1cs;
using proofline::Error;
using proofline::ProoflineError;
using proofline::ff::Fr;

using proofline::r1cs::compiled_test::Awkward;
using proofline::r1cs::compiled_test::expect_equals_prover;
using proofline::r1cs::compiled_test::F;
using proofline::r1cs::compiled_test::record_awkward;

// Row i of `m` as (column, coefficient) pairs.
std::vector<std::pair<std::uint32_t, Fr>> row(const CompiledCircuit& cc, int m, std::size_t i) {
  const SparseRows& r = cc.matrix(m);
  std::vector<std::pair<std::uint32_t, Fr>> out;
  for (std::uint64_t e = r.row_offsets[i]; e < r.row_offsets[i + 1]; ++e) {
    out.emplace_back(r.cols[e], cc.coefficients()[r.coeff_index[e]]);
  }
  return out;
}
using Row = std::vector<std::pair<std::uint32_t, Fr>>;

std::string bits(const DensityTracker& d) {
  std::string s;
  for (std::size_t i = 0; i < d.size(); ++i) s.push_back(d.test(i) ? '1' : '0');
  return s;
}

TEST(CompiledCircuit, AwkwardCircuitRows) {
  const CompiledCircuit cc = record_awkward();
  // z = [ONE, out | x, y, p, s]: columns ONE 0, out 1, x 2, y 3, p 4, s 5.
  EXPECT_EQ(cc.shape().constraints, 5u + 2u);
  EXPECT_EQ(cc.shape().inputs, 2u);
  EXPECT_EQ(cc.shape().aux, 4u);
  EXPECT_EQ(row(cc, 0, 0), (Row{{3, F(1)}}));                       // x + x + y − 2x = y
  EXPECT_EQ(row(cc, 1, 0), (Row{{0, F(2)}, {1, F(1)}}));
  EXPECT_EQ(row(cc, 2, 0), (Row{{3, F(21)}}));
  EXPECT_EQ(row(cc, 0, 1), (Row{{2, F(1)}}));
  EXPECT_EQ(row(cc, 1, 1), (Row{{3, F(1)}}));
  EXPECT_EQ(row(cc, 2, 1), (Row{{4, F(1)}}));
  EXPECT_EQ(row(cc, 0, 2), (Row{{0, F(4)}, {2, F(1)}, {4, F(1)}}));
  EXPECT_EQ(row(cc, 2, 2), (Row{{1, F(1)}}));
  EXPECT_EQ(row(cc, 0, 3), (Row{{0, F(1)}, {5, F(-1)}}));
  EXPECT_EQ(row(cc, 2, 3), Row{});
  EXPECT_EQ(row(cc, 0, 4), (Row{{2, F(-5)}, {3, F(-1)}}));
  EXPECT_EQ(row(cc, 1, 4), Row{});                                  // out − out
  EXPECT_EQ(row(cc, 2, 4), Row{});                                  // 0·p
  EXPECT_EQ(row(cc, 0, 5), (Row{{0, F(1)}}));                       // input constraints
  EXPECT_EQ(row(cc, 0, 6), (Row{{1, F(1)}}));
  EXPECT_EQ(row(cc, 1, 6), Row{});
  // Table: +1, −1, then 2, 21, 4, −5 in order of first use.
  EXPECT_EQ(std::vector<Fr>(cc.coefficients().begin(), cc.coefficients().end()),
            (std::vector<Fr>{F(1), F(-1), F(2), F(21), F(4), F(-5)}));
  EXPECT_EQ(cc.shape().nnz[0], 1u + 1 + 3 + 2 + 2 + 1 + 1);
  // Densities: A over aux {x (mul, sum, neg), y, p (sum), s (bool)} = 1111; B inputs {ONE, out} = 11;
  // B aux {y (mul), s (bool)} = 0101.
  EXPECT_EQ(bits(cc.a_aux_density()), "1111");
  EXPECT_EQ(bits(cc.b_input_density()), "11");
  EXPECT_EQ(bits(cc.b_aux_density()), "0101");
}

TEST(CompiledCircuit, AwkwardCircuitEqualsProver) {
  const CompiledCircuit cc = record_awkward();
  for (bool fast : {true, false}) {
    ProvingAssignment pa;
    pa.set_fast_path(fast);
    synthesize(Awkward{}, pa);
    SCOPED_TRACE(fast);
    expect_equals_prover(cc, pa);
  }
  // And against hand-computed values: a = (4, 3, 19, 1, −19, ONE = 1, out = 19), b = (21, 4, 1, 0, 0, 0, 0),
  // c = (84, 12, 19, 0, 0, 0, 0).
  const std::vector<Fr> in{F(1), F(19)}, aux{F(3), F(4), F(12), F(0)};
  std::vector<Fr> a(7), b(7), c(7);
  evaluate(a, b, c, cc, in, aux);
  EXPECT_EQ(a, (std::vector<Fr>{F(4), F(3), F(19), F(1), F(-19), F(1), F(19)}));
  EXPECT_EQ(b, (std::vector<Fr>{F(21), F(4), F(1), F(0), F(0), F(0), F(0)}));
  EXPECT_EQ(c, (std::vector<Fr>{F(84), F(12), F(19), F(0), F(0), F(0), F(0)}));
}

TEST(CompiledCircuit, EvaluateChecksLengths) {
  const CompiledCircuit cc = record_awkward();
  const std::vector<Fr> in{F(1), F(19)}, aux{F(3), F(4), F(12)};
  std::vector<Fr> a(7), b(7), c(7);
  try {
    evaluate(a, b, c, cc, in, aux);
    FAIL() << "no throw";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("aux assignment has 3 elements, expected 4"), std::string::npos) << e.what();
  }
}

TEST(CompiledCircuit, RecorderErrors) {
  CircuitRecorder rec;
  const Variable x = rec.alloc("x", [] { return F(1); });
  EXPECT_THROW(rec.enforce("bad", x, Variable::aux(5), x), SynthesisError);
  try {
    rec.enforce("bad", Variable::input(3), x, x);
    ADD_FAILURE() << "no throw";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::UnknownVariable);
  }
  rec.enforce("ok", x, x, x);
  EXPECT_EQ(rec.num_constraints(), 1u);
  CircuitRecorder open;
  try {
    (void)std::move(open).compile();
    FAIL() << "no throw";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::NotFinalized);
  }
  rec.finalize();
  const CompiledCircuit cc = std::move(rec).compile();
  EXPECT_EQ(cc.shape().constraints, 2u);  // "bad" recorded nothing
  EXPECT_EQ(cc.shape().nnz[0], 2u);
}

}  // namespace
