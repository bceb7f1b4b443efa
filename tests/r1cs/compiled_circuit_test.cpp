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
#include "proofline/r1cs/packed_witness.hpp"
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

// first_unsatisfied: the witness of the hand-computed values above holds every row; p = 13 instead
// of 12 breaks rows 1 ("mul": 3·4 ≠ 13) and 2 ("sum": (13 + 3 + 4)·1 ≠ 19): the lowest is named;
// s = 1 keeps row 3 ("bool": (1 − 1)·1 = 0), s = 2 breaks only it ((1 − 2)·2 = −2 ≠ 0).
TEST(CompiledCircuit, FirstUnsatisfiedRow) {
  const CompiledCircuit cc = record_awkward();
  const std::vector<Fr> in{F(1), F(19)};
  EXPECT_EQ(first_unsatisfied(cc, in, std::vector<Fr>{F(3), F(4), F(12), F(0)}), std::nullopt);
  EXPECT_EQ(first_unsatisfied(cc, in, std::vector<Fr>{F(3), F(4), F(13), F(0)}), std::optional<std::size_t>(1));
  EXPECT_EQ(first_unsatisfied(cc, in, std::vector<Fr>{F(3), F(4), F(12), F(1)}), std::nullopt);
  EXPECT_EQ(first_unsatisfied(cc, in, std::vector<Fr>{F(3), F(4), F(12), F(2)}), std::optional<std::size_t>(3));
  EXPECT_THROW(first_unsatisfied(cc, in, std::vector<Fr>{F(3)}), ProoflineError);
  // the packed aux assignment (0/1 values as bits, the rest by rank) gives the same answers
  const auto packed = [](std::vector<Fr> v) { return PackedWitness::pack(v); };
  EXPECT_EQ(first_unsatisfied(cc, in, packed({F(3), F(4), F(12), F(0)})), std::nullopt);
  EXPECT_EQ(first_unsatisfied(cc, in, packed({F(3), F(4), F(13), F(0)})), std::optional<std::size_t>(1));
  EXPECT_EQ(first_unsatisfied(cc, in, packed({F(3), F(4), F(12), F(1)})), std::nullopt);
  EXPECT_EQ(first_unsatisfied(cc, in, packed({F(3), F(4), F(12), F(2)})), std::optional<std::size_t>(3));
  EXPECT_THROW(first_unsatisfied(cc, in, packed({F(3)})), ProoflineError);
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

// ---- parallel parts ---------------------------------------------------------------------------

// Prefix: 3 aux, 1 input; then parts of 5 aux, 1 input, 4 constraints each (boundaries inside
// density words), reading the prefix and ONE, each with a constant of its own (1000 + j) and one it
// shares with others (7 + j mod 3), so that the merged table must come out in sequential order.
constexpr PartShape kPart{4, 1, 5};

struct Parts {
  std::size_t n_parts = 30;
  std::size_t threads = 0;
  bool read_other_part = false;
  void synthesize(ConstraintSystem& cs) const {
    std::vector<Variable> pre;
    for (std::int64_t i = 0; i < 3; ++i) pre.push_back(cs.alloc("p", [i] { return F(2 + i); }));
    const Variable in = cs.alloc_input("in", [] { return F(9); });
    cs.enforce("p", pre[0], pre[1], pre[2]);
    const std::uint64_t x0 = cs.num_aux();
    cs.synthesize_parts(
        n_parts, kPart,
        [&](ConstraintSystem& c, std::size_t j) {
          const std::int64_t s = 10 * static_cast<std::int64_t>(j + 1);
          std::vector<Variable> v;
          for (std::int64_t k = 0; k < 5; ++k) v.push_back(c.alloc("v", [s, k] { return F(s + k); }));
          const Variable out = c.alloc_input("out", [s] { return F(s); });
          c.enforce(
              "own",
              [&](LinearCombination& lc) { lc.add(v[0], F(1000 + static_cast<std::int64_t>(j))).add(pre[j % 3]); },
              [&](LinearCombination& lc) {
                lc.add(ConstraintSystem::one(), F(7 + static_cast<std::int64_t>(j % 3))).add(v[1]);
              },
              v[2]);
          c.enforce(
              "in", [&](LinearCombination& lc) { lc.sub(v[3]); }, in, [&](LinearCombination& lc) { lc.add(out); });
          c.enforce("b", v[4], v[4], v[4]);
          const Variable other = read_other_part && j == 2 ? Variable::aux(x0 + 1) : v[0];
          c.enforce(
              "x", [&](LinearCombination& lc) { lc.add(other, F(-2)); }, pre[1], LinearCombination{});
        },
        threads);
  }
};

CompiledCircuit record(const Parts& circuit) {
  CircuitRecorder rec;
  synthesize(circuit, rec);
  return std::move(rec).compile();
}

TEST(CompiledCircuit, ParallelPartsEqualSequential) {
  const CompiledCircuit sequential = record(Parts{.threads = 1});
  EXPECT_EQ(sequential.shape().constraints, 1 + 30 * 4 + 32u);
  // ±1, then in sequential order of first use: part 0: 1000, 7, −2; part 1: 1001, 8; part 2: 1002, 9;
  // parts 3…29: 1003…1029.
  EXPECT_EQ(sequential.shape().coefficients, 2 + 30 + 3 + 1u);
  EXPECT_EQ(sequential.coefficients()[4], F(-2));
  EXPECT_EQ(sequential.coefficients()[6], F(8));
  for (std::size_t threads : {std::size_t{0}, std::size_t{3}}) {
    const CompiledCircuit parallel = record(Parts{.threads = threads});
    EXPECT_TRUE(parallel == sequential) << threads;
  }
  ProvingAssignment pa;
  synthesize(Parts{}, pa);
  expect_equals_prover(sequential, pa);
}

TEST(CompiledCircuit, PartReadingAnotherPartIsRefused) {
  CircuitRecorder rec;
  try {
    synthesize(Parts{.read_other_part = true}, rec);
    FAIL() << "no throw";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::ShapeMismatch);
    EXPECT_NE(std::string(e.what()).find("part 2 reads aux variable 4 of an earlier part"), std::string::npos)
        << e.what();
  }
}

}  // namespace
