// Small hand-written circuits through every mode: ProvingAssignment, KeypairAssembly,
// TestConstraintSystem, ShapeCounter.
//
// Every expected number below is worked out by hand from the circuit's algebra (comments show the
// arithmetic), not taken from the implementation. Density strings list one bit per variable in
// allocation order ('1' = nonzero coefficient in some A (aux) / B (inputs, aux) combination).
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "proofline/r1cs/r1cs.hpp"

namespace proofline::ff {
void PrintTo(const Fr& f, std::ostream* os);  // defined in lc_test.cpp
}  // namespace proofline::ff

namespace {

using namespace proofline::r1cs;
using proofline::ff::Fr;

Fr F(std::uint64_t v) { return Fr::from_u64(v); }
std::vector<Fr> Fs(std::initializer_list<std::int64_t> l) {
  std::vector<Fr> v;
  for (auto x : l) v.push_back(x >= 0 ? F(static_cast<std::uint64_t>(x)) : -F(static_cast<std::uint64_t>(-x)));
  return v;
}
std::vector<Fr> V(std::span<const Fr> s) { return {s.begin(), s.end()}; }
std::string bits(const DensityTracker& d) {
  std::string s;
  for (std::size_t i = 0; i < d.size(); ++i) s.push_back(d.test(i) ? '1' : '0');
  return s;
}
using Col = std::vector<std::pair<std::uint64_t, std::int64_t>>;  // (row, coeff)
std::vector<ColumnEntry> E(const Col& c) {
  std::vector<ColumnEntry> v;
  for (auto [r, x] : c) v.push_back(ColumnEntry{r, x >= 0 ? F(static_cast<std::uint64_t>(x)) : -F(static_cast<std::uint64_t>(-x))});
  return v;
}
std::vector<ColumnEntry> V(std::span<const ColumnEntry> s) { return {s.begin(), s.end()}; }

Fr need(const std::optional<Fr>& v, const char* what) {
  if (!v) throw SynthesisError(SynthesisErrorCode::AssignmentMissing, what);
  return *v;
}

// ---- circuit 1: x^3 + x + 5 = out, out public ------------------------------------------------
//   aux: x (0), x_sq (1), x_cu (2); inputs: ONE (0), out (1)
//   0 cubic/powers/square:  x · x = x_sq
//   1 cubic/powers/cube:    x_sq · x = x_cu
//   2 sum:                  (x_cu + x + 5·ONE) · ONE = out
struct Cubic {
  std::optional<Fr> x;
  void synthesize(ConstraintSystem& cs) const {
    std::optional<Fr> sq, cu;
    if (x) {
      sq = *x * *x;
      cu = *sq * *x;
    }
    Variable vx, vsq, vcu;
    {
      auto ns = cs.namespace_("cubic");
      vx = cs.alloc("x", [&] { return need(x, "x"); });
      auto ns2 = cs.namespace_("powers");
      vsq = cs.alloc("x_sq", [&] { return need(sq, "x_sq"); });
      cs.enforce("square", vx, vx, vsq);
      vcu = cs.alloc("x_cu", [&] { return need(cu, "x_cu"); });
      cs.enforce("cube", [&](LinearCombination& lc) { lc.add(vsq); }, vx, vcu);
    }
    Variable out = cs.alloc_input("out", [&] { return need(cu, "out") + need(x, "out") + F(5); });
    cs.enforce(
        "sum", [&](auto& lc) { lc.add(vcu).add(vx).add(ConstraintSystem::one(), F(5)); }, ConstraintSystem::one(),
        out);
  }
};

// ---- circuit 2: one boolean, no inputs besides ONE ----------------------------------------------
//   aux: b (0);  0 bit/boolean: (ONE − b) · b = 0
struct BooleanCircuit {
  std::optional<Fr> b;
  void synthesize(ConstraintSystem& cs) const {
    auto ns = cs.namespace_("bit");
    Variable vb = cs.alloc("b", [&] { return need(b, "b"); });
    cs.enforce(
        "boolean", [&](LinearCombination& lc) { lc.add(ConstraintSystem::one()).sub(vb); }, vb,
        LinearCombination{});
  }
};

// ---- circuit 3: no constraints: one input (7), one aux (5) --------------------------------------
struct NoConstraints {
  bool witness = true;
  void synthesize(ConstraintSystem& cs) const {
    cs.alloc_input("pub", [&] { return witness ? F(7) : need(std::nullopt, "pub"); });
    cs.alloc("priv", [&] { return witness ? F(5) : need(std::nullopt, "priv"); });
  }
};

// ---- circuit 4: cancelling term and density OR across constraints -------------------------------
//   aux: x (0) = 2, y (1) = 3
//   0 cancel: (x + y − x) · ONE = y      A's x term has coefficient 0: no A density for x here
//   1 double: (2·x) · y = 4·y            2·2 · 3 = 12 = 4·3
struct Cancel {
  bool witness = true;
  void synthesize(ConstraintSystem& cs) const {
    Variable x = cs.alloc("x", [&] { return witness ? F(2) : need(std::nullopt, "x"); });
    Variable y = cs.alloc("y", [&] { return witness ? F(3) : need(std::nullopt, "y"); });
    LinearCombination a;  // reused by the gadget
    a.add(x).add(y).sub(x);
    cs.enforce("cancel", a, ConstraintSystem::one(), y);
    a.clear();
    a.add(x, F(2));
    cs.enforce("double", a, y, LinearCombination(y, F(4)));
  }
};

// ---- prover mode -------------------------------------------------------------------------------

TEST(ProvingAssignment, Cubic) {
  ProvingAssignment p;
  synthesize(Cubic{F(3)}, p);
  // x = 3: x_sq = 9, x_cu = 27, out = 27 + 3 + 5 = 35
  EXPECT_EQ(V(p.input_assignment()), Fs({1, 35}));
  EXPECT_EQ(V(p.aux_assignment()), Fs({3, 9, 27}));
  // rows: square (3·3 = 9), cube (9·3 = 27), sum (35·1 = 35), input ONE, input out
  EXPECT_EQ(V(p.a()), Fs({3, 9, 35, 1, 35}));
  EXPECT_EQ(V(p.b()), Fs({3, 3, 1, 0, 0}));
  EXPECT_EQ(V(p.c()), Fs({9, 27, 35, 0, 0}));
  // A over aux: x (square, sum), x_sq (cube), x_cu (sum)
  EXPECT_EQ(bits(p.a_aux_density()), "111");
  EXPECT_EQ(p.a_aux_density().popcount(), 3u);
  // B over inputs: ONE (sum); out never in B
  EXPECT_EQ(bits(p.b_input_density()), "10");
  EXPECT_EQ(p.b_input_density().popcount(), 1u);
  // B over aux: x only (square, cube)
  EXPECT_EQ(bits(p.b_aux_density()), "100");
  EXPECT_EQ(p.b_aux_density().popcount(), 1u);
  EXPECT_EQ(p.num_inputs(), 2u);
  EXPECT_EQ(p.num_aux(), 3u);
  EXPECT_EQ(p.num_constraints(), 5u);
  EXPECT_TRUE(p.is_finalized());
}

TEST(ProvingAssignment, Boolean) {
  for (std::uint64_t v : {0, 1}) {
    ProvingAssignment p;
    synthesize(BooleanCircuit{F(v)}, p);
    EXPECT_EQ(V(p.input_assignment()), Fs({1}));
    EXPECT_EQ(V(p.aux_assignment()), Fs({static_cast<std::int64_t>(v)}));
    // (1 − v) · v = 0, then the input constraint ONE · 0 = 0
    EXPECT_EQ(V(p.a()), Fs({1 - static_cast<std::int64_t>(v), 1}));
    EXPECT_EQ(V(p.b()), Fs({static_cast<std::int64_t>(v), 0}));
    EXPECT_EQ(V(p.c()), Fs({0, 0}));
    EXPECT_EQ(bits(p.a_aux_density()), "1");
    EXPECT_EQ(bits(p.b_input_density()), "0");  // ONE is in A, not in B
    EXPECT_EQ(bits(p.b_aux_density()), "1");
  }
  // A non-boolean witness still evaluates (the prover does not check): (1 − 2) · 2 = −2, c = 0
  ProvingAssignment p;
  synthesize(BooleanCircuit{F(2)}, p);
  EXPECT_EQ(V(p.a()), Fs({-1, 1}));
  EXPECT_EQ(V(p.b()), Fs({2, 0}));
}

TEST(ProvingAssignment, NoConstraintsAndEmpty) {
  ProvingAssignment p;
  synthesize(NoConstraints{}, p);
  EXPECT_EQ(V(p.input_assignment()), Fs({1, 7}));
  EXPECT_EQ(V(p.aux_assignment()), Fs({5}));
  EXPECT_EQ(V(p.a()), Fs({1, 7}));  // only the input constraints
  EXPECT_EQ(V(p.b()), Fs({0, 0}));
  EXPECT_EQ(V(p.c()), Fs({0, 0}));
  EXPECT_EQ(bits(p.a_aux_density()), "0");
  EXPECT_EQ(bits(p.b_input_density()), "00");
  EXPECT_EQ(bits(p.b_aux_density()), "0");

  ProvingAssignment empty;
  empty.finalize();
  EXPECT_EQ(V(empty.input_assignment()), Fs({1}));
  EXPECT_EQ(V(empty.a()), Fs({1}));
  EXPECT_EQ(V(empty.b()), Fs({0}));
  EXPECT_EQ(V(empty.c()), Fs({0}));
  EXPECT_EQ(empty.aux_assignment().size(), 0u);
  EXPECT_EQ(empty.a_aux_density().size(), 0u);
  EXPECT_EQ(bits(empty.b_input_density()), "0");
}

TEST(ProvingAssignment, CancelledTermSetsNoDensity) {
  ProvingAssignment p;
  Cancel{}.synthesize(p);
  // cancel: a = 0·2 + 3 = 3, b = 1, c = 3;  double: a = 4, b = 3, c = 12
  EXPECT_EQ(V(p.a()), Fs({3, 4}));
  EXPECT_EQ(V(p.b()), Fs({1, 3}));
  EXPECT_EQ(V(p.c()), Fs({3, 12}));
  // after "cancel" alone x would have no A bit; "double" sets it
  EXPECT_EQ(bits(p.a_aux_density()), "11");
  EXPECT_EQ(bits(p.b_input_density()), "1");
  EXPECT_EQ(bits(p.b_aux_density()), "01");

  ProvingAssignment q;
  Variable x = q.alloc("x", [] { return F(2); });
  Variable y = q.alloc("y", [] { return F(3); });
  q.enforce("cancel", LinearCombination(x) + y - x, ConstraintSystem::one(), y);
  EXPECT_EQ(bits(q.a_aux_density()), "01");  // x's coefficient cancelled to 0
}

TEST(ProvingAssignment, ReserveRecycleAndRelease) {
  ProvingAssignment p;
  p.reserve(5, 2, 3);
  synthesize(Cubic{F(3)}, p);
  ProvingBuffers buf = p.release();
  const Fr* a_data = buf.a.data();
  EXPECT_EQ(V(buf.a), Fs({3, 9, 35, 1, 35}));
  ProvingAssignment q(std::move(buf));
  EXPECT_EQ(q.a().size(), 0u);
  EXPECT_EQ(V(q.input_assignment()), Fs({1}));
  synthesize(Cubic{F(2)}, q);  // 8 + 2 + 5 = 15
  EXPECT_EQ(q.a().data(), a_data);  // same storage reused
  EXPECT_EQ(V(q.a()), Fs({2, 4, 15, 1, 15}));
  EXPECT_EQ(V(q.c()), Fs({4, 8, 15, 0, 0}));
  EXPECT_EQ(bits(q.a_aux_density()), "111");
}

TEST(ProvingAssignment, Extend) {
  // p: boolean circuit (v = 1), q: cubic (x = 3), both unfinalized; q's ONE is dropped.
  ProvingAssignment p, q;
  BooleanCircuit{F(1)}.synthesize(p);
  Cubic{F(3)}.synthesize(q);
  p.extend(std::move(q));
  EXPECT_EQ(p.num_inputs(), 2u);
  EXPECT_EQ(p.num_aux(), 4u);
  EXPECT_EQ(p.num_constraints(), 4u);
  EXPECT_EQ(V(p.input_assignment()), Fs({1, 35}));
  EXPECT_EQ(V(p.aux_assignment()), Fs({1, 3, 9, 27}));
  EXPECT_EQ(V(p.a()), Fs({0, 3, 9, 35}));
  EXPECT_EQ(V(p.b()), Fs({1, 3, 3, 1}));
  EXPECT_EQ(V(p.c()), Fs({0, 9, 27, 35}));
  EXPECT_EQ(bits(p.a_aux_density()), "1111");
  EXPECT_EQ(bits(p.b_aux_density()), "1100");
  EXPECT_EQ(bits(p.b_input_density()), "10");  // p's ONE bit 0, OR q's ONE bit 1
  p.finalize();
  EXPECT_EQ(V(p.a()), Fs({0, 3, 9, 35, 1, 35}));
  EXPECT_EQ(V(p.b()), Fs({1, 3, 3, 1, 0, 0}));
  ProvingAssignment r;
  EXPECT_THROW(p.extend(std::move(r)), SynthesisError);
}

// ---- setup mode --------------------------------------------------------------------------------

TEST(KeypairAssembly, CubicColumns) {
  KeypairAssembly k;
  synthesize(Cubic{}, k);  // no witness: value callbacks would throw AssignmentMissing
  EXPECT_EQ(k.num_inputs(), 2u);
  EXPECT_EQ(k.num_aux(), 3u);
  EXPECT_EQ(k.num_constraints(), 5u);
  // rows 0 square, 1 cube, 2 sum, 3 input ONE, 4 input out
  EXPECT_EQ(V(k.a().input(0)), E({{2, 5}, {3, 1}}));
  EXPECT_EQ(V(k.a().input(1)), E({{4, 1}}));
  EXPECT_EQ(V(k.a().aux(0)), E({{0, 1}, {2, 1}}));
  EXPECT_EQ(V(k.a().aux(1)), E({{1, 1}}));
  EXPECT_EQ(V(k.a().aux(2)), E({{2, 1}}));
  EXPECT_EQ(V(k.b().input(0)), E({{2, 1}}));
  EXPECT_EQ(V(k.b().input(1)), E({}));
  EXPECT_EQ(V(k.b().aux(0)), E({{0, 1}, {1, 1}}));
  EXPECT_EQ(V(k.b().aux(1)), E({}));
  EXPECT_EQ(V(k.b().aux(2)), E({}));
  EXPECT_EQ(V(k.c().input(0)), E({}));
  EXPECT_EQ(V(k.c().input(1)), E({{2, 1}}));
  EXPECT_EQ(V(k.c().aux(0)), E({}));
  EXPECT_EQ(V(k.c().aux(1)), E({{0, 1}}));
  EXPECT_EQ(V(k.c().aux(2)), E({{1, 1}}));
  EXPECT_EQ(k.a().num_inputs(), 2u);
  EXPECT_EQ(k.a().num_aux(), 3u);
  EXPECT_EQ(k.a().num_entries(), 7u);  // 2 + 1 + 2 + 1 + 1
  EXPECT_EQ(k.b().num_entries(), 3u);
  EXPECT_EQ(k.c().num_entries(), 3u);
}

TEST(KeypairAssembly, BooleanAndCancelColumns) {
  KeypairAssembly k;
  synthesize(BooleanCircuit{}, k);
  EXPECT_EQ(V(k.a().input(0)), E({{0, 1}, {1, 1}}));  // boolean row, then its input constraint
  EXPECT_EQ(V(k.a().aux(0)), E({{0, -1}}));
  EXPECT_EQ(V(k.b().input(0)), E({}));
  EXPECT_EQ(V(k.b().aux(0)), E({{0, 1}}));
  EXPECT_EQ(k.c().num_entries(), 0u);

  KeypairAssembly c;
  synthesize(Cancel{false}, c);
  EXPECT_EQ(V(c.a().aux(0)), E({{1, 2}}));  // the cancelled (coefficient 0) term is not recorded
  EXPECT_EQ(V(c.a().aux(1)), E({{0, 1}}));
  EXPECT_EQ(V(c.a().input(0)), E({{2, 1}}));  // only the input constraint
  EXPECT_EQ(V(c.b().input(0)), E({{0, 1}}));
  EXPECT_EQ(V(c.b().aux(1)), E({{1, 1}}));
  EXPECT_EQ(V(c.c().aux(1)), E({{0, 1}, {1, 4}}));

  KeypairAssembly n;
  synthesize(NoConstraints{false}, n);
  EXPECT_EQ(V(n.a().input(0)), E({{0, 1}}));
  EXPECT_EQ(V(n.a().input(1)), E({{1, 1}}));
  EXPECT_EQ(V(n.a().aux(0)), E({}));
}

TEST(KeypairAssembly, ColumnsOnlyAfterFinalize) {
  KeypairAssembly k;
  Cubic{}.synthesize(k);
  try {
    (void)k.a();
    FAIL();
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::NotFinalized);
  }
  k.finalize();
  EXPECT_EQ(k.a().num_entries(), 7u);
}

// ---- test mode ---------------------------------------------------------------------------------

TEST(TestConstraintSystem, CubicPathsAndTampering) {
  TestConstraintSystem t;
  Cubic{F(3)}.synthesize(t);
  EXPECT_TRUE(t.is_satisfied());
  EXPECT_EQ(t.which_is_unsatisfied(), std::nullopt);
  EXPECT_EQ(t.num_inputs(), 2u);
  EXPECT_EQ(t.num_aux(), 3u);
  EXPECT_EQ(t.num_constraints(), 3u);
  EXPECT_EQ(t.get("cubic/x"), F(3));
  EXPECT_EQ(t.get("cubic/powers/x_sq"), F(9));
  EXPECT_EQ(t.get("cubic/powers/x_cu"), F(27));
  EXPECT_EQ(t.get("out"), F(35));
  EXPECT_EQ(t.get("ONE"), F(1));
  EXPECT_EQ(t.get_input(1, "out"), F(35));
  EXPECT_EQ(t.variable("cubic/powers/x_sq"), Variable::aux(1));
  EXPECT_EQ(t.constraints()[1].path, "cubic/powers/cube");
  EXPECT_TRUE(t.verify(Fs({35})));
  EXPECT_FALSE(t.verify(Fs({36})));

  t.set("cubic/powers/x_cu", F(28));  // 9 · 3 ≠ 28
  EXPECT_EQ(t.which_is_unsatisfied(), "cubic/powers/cube");
  t.set("cubic/powers/x_cu", F(27));
  t.set("out", F(36));  // 27 + 3 + 5 ≠ 36
  EXPECT_EQ(t.which_is_unsatisfied(), "sum");
  t.set("cubic/x", F(4));  // first failure now 4 · 4 ≠ 9
  EXPECT_EQ(t.which_is_unsatisfied(), "cubic/powers/square");
  EXPECT_FALSE(t.is_satisfied());

  const std::string listing = t.pretty_print();
  EXPECT_EQ(listing,
            "INPUT ONE\nINPUT out\nAUX cubic/x\nAUX cubic/powers/x_sq\nAUX cubic/powers/x_cu\n"
            "cubic/powers/square\ncubic/powers/cube\nsum\n");
}

TEST(TestConstraintSystem, BooleanTampering) {
  TestConstraintSystem t;
  BooleanCircuit{F(1)}.synthesize(t);
  EXPECT_TRUE(t.is_satisfied());
  t.set("bit/b", F(0));
  EXPECT_TRUE(t.is_satisfied());
  t.set("bit/b", F(2));  // (1 − 2) · 2 = −2 ≠ 0
  EXPECT_EQ(t.which_is_unsatisfied(), "bit/boolean");
  EXPECT_EQ(t.eval_a(0), -F(1));
  EXPECT_EQ(t.eval_b(0), F(2));
  EXPECT_EQ(t.eval_c(0), F(0));
}

TEST(TestConstraintSystem, NoConstraintsAndFinalize) {
  TestConstraintSystem t;
  synthesize(NoConstraints{}, t);
  EXPECT_TRUE(t.is_satisfied());
  EXPECT_EQ(t.num_constraints(), 2u);  // the two input constraints
  EXPECT_EQ(t.constraints()[0].path, "input_constraint_0");
  EXPECT_EQ(t.constraints()[1].path, "input_constraint_1");
  EXPECT_EQ(t.eval_a(1), F(7));
  EXPECT_EQ(t.get("priv"), F(5));
}

TEST(TestConstraintSystem, NamesAndErrors) {
  TestConstraintSystem t;
  auto code_of = [](auto&& f) {
    try {
      f();
    } catch (const SynthesisError& e) {
      return std::optional<SynthesisErrorCode>(e.code());
    }
    return std::optional<SynthesisErrorCode>();
  };
  Variable a = t.alloc("a", [] { return F(1); });
  EXPECT_EQ(code_of([&] { t.alloc("a", [] { return F(1); }); }), SynthesisErrorCode::DuplicateName);
  EXPECT_EQ(code_of([&] { t.alloc("x/y", [] { return F(1); }); }), SynthesisErrorCode::InvalidName);
  EXPECT_EQ(code_of([&] { t.enforce("a", a, a, a); }), SynthesisErrorCode::DuplicateName);
  EXPECT_EQ(code_of([&] { (void)t.namespace_("a"); }), SynthesisErrorCode::DuplicateName);
  EXPECT_EQ(t.namespace_depth(), 0u);
  {
    auto ns = t.namespace_("n");
    t.alloc("a", [] { return F(2); });  // same name, other namespace: fine
    {
      auto inner = t.namespace_([] { return std::string("inner_") + std::to_string(7); });
      t.enforce("k", a, a, a);
      EXPECT_EQ(t.namespace_depth(), 2u);
    }
    t.enforce("k", a, a, a);  // "n/k" differs from "n/inner_7/k"
  }
  EXPECT_EQ(code_of([&] { (void)t.namespace_("n"); }), SynthesisErrorCode::DuplicateName);
  EXPECT_EQ(t.get("n/a"), F(2));
  EXPECT_EQ(t.constraints()[0].path, "n/inner_7/k");
  EXPECT_EQ(t.constraints()[1].path, "n/k");
  EXPECT_EQ(code_of([&] { (void)t.get("nope"); }), SynthesisErrorCode::UnknownPath);
  EXPECT_EQ(code_of([&] { (void)t.get("n/k"); }), SynthesisErrorCode::UnknownPath);  // a constraint
  EXPECT_EQ(code_of([&] { (void)t.get("n"); }), SynthesisErrorCode::UnknownPath);    // a namespace
  EXPECT_EQ(code_of([&] { t.set("nope", F(1)); }), SynthesisErrorCode::UnknownPath);
  EXPECT_EQ(code_of([&] { (void)t.get_input(0, "one"); }), SynthesisErrorCode::UnknownPath);
  EXPECT_EQ(code_of([&] { (void)t.verify(Fs({1})); }), SynthesisErrorCode::ShapeMismatch);
  EXPECT_EQ(code_of([&] { t.enforce("bad", Variable::aux(9), a, a); }), SynthesisErrorCode::UnknownVariable);
  // A failing value callback propagates and leaves no variable behind.
  EXPECT_EQ(code_of([&] { t.alloc("missing", [] { return need(std::nullopt, "missing"); }); }),
            SynthesisErrorCode::AssignmentMissing);
  EXPECT_EQ(t.num_aux(), 2u);
  EXPECT_EQ(code_of([&] { (void)t.get("missing"); }), SynthesisErrorCode::UnknownPath);
  // Namespaces must be closed before finalize; nothing after finalize.
  t.push_namespace("open");
  EXPECT_EQ(code_of([&] { t.finalize(); }), SynthesisErrorCode::NamespaceNotClosed);
  t.pop_namespace();
  t.finalize();
  EXPECT_EQ(code_of([&] { t.alloc("late", [] { return F(1); }); }), SynthesisErrorCode::AlreadyFinalized);
  EXPECT_EQ(code_of([&] { t.alloc_input("late", [] { return F(1); }); }), SynthesisErrorCode::AlreadyFinalized);
  EXPECT_EQ(code_of([&] { t.enforce("late", a, a, a); }), SynthesisErrorCode::AlreadyFinalized);
  EXPECT_EQ(code_of([&] { t.finalize(); }), SynthesisErrorCode::AlreadyFinalized);
}

// ---- laziness and cross-mode agreement ---------------------------------------------------------

TEST(Modes, LazinessPerMode) {
  int names = 0, values = 0;
  auto run = [&](ConstraintSystem& cs) {
    names = values = 0;
    auto nm = [&] { ++names; return std::string("v"); };
    auto ns = cs.namespace_([&] { ++names; return std::string("ns"); });
    Variable v = cs.alloc(nm, [&] { ++values; return F(1); });
    cs.alloc_input([&] { ++names; return std::string("i"); }, [&] { ++values; return F(1); });
    cs.enforce([&] { ++names; return std::string("c"); }, v, v, v);
  };
  ProvingAssignment p;
  run(p);
  EXPECT_EQ(names, 0);  // prover: values, no names
  EXPECT_EQ(values, 2);
  EXPECT_TRUE(p.computes_values());
  KeypairAssembly k;
  run(k);
  EXPECT_EQ(names, 0);  // setup: neither
  EXPECT_EQ(values, 0);
  EXPECT_FALSE(k.computes_values());
  ShapeCounter s;
  run(s);
  EXPECT_EQ(names, 0);
  EXPECT_EQ(values, 0);
  EXPECT_FALSE(s.computes_values());
  TestConstraintSystem t;
  run(t);
  EXPECT_EQ(names, 4);  // test: both
  EXPECT_EQ(values, 2);
  EXPECT_EQ(t.get("ns/v"), F(1));
}

template <class C>
void check_all_modes(const C& with_witness, const C& without_witness, std::size_t n_inputs, std::size_t n_aux,
                     std::size_t n_circuit_constraints) {
  ProvingAssignment p;
  synthesize(with_witness, p);
  KeypairAssembly k;
  synthesize(without_witness, k);
  ShapeCounter s;
  synthesize(without_witness, s);
  TestConstraintSystem t;
  with_witness.synthesize(t);
  ASSERT_TRUE(t.is_satisfied()) << *t.which_is_unsatisfied();
  const std::size_t n = n_circuit_constraints + n_inputs;
  for (const ConstraintSystem* cs : std::initializer_list<const ConstraintSystem*>{&p, &k, &s}) {
    EXPECT_EQ(cs->num_inputs(), n_inputs);
    EXPECT_EQ(cs->num_aux(), n_aux);
    EXPECT_EQ(cs->num_constraints(), n);
  }
  EXPECT_EQ(t.num_inputs(), n_inputs);
  EXPECT_EQ(t.num_aux(), n_aux);
  EXPECT_EQ(t.num_constraints(), n_circuit_constraints);
  // Test mode evaluates to the prover's rows; the last num_inputs rows are Input(i) · 0 = 0.
  for (std::size_t i = 0; i < n_circuit_constraints; ++i) {
    EXPECT_EQ(p.a()[i], t.eval_a(i));
    EXPECT_EQ(p.b()[i], t.eval_b(i));
    EXPECT_EQ(p.c()[i], t.eval_c(i));
  }
  for (std::size_t i = 0; i < n_inputs; ++i) {
    EXPECT_EQ(p.a()[n_circuit_constraints + i], p.input_assignment()[i]);
    EXPECT_EQ(p.b()[n_circuit_constraints + i], Fr::zero());
    EXPECT_EQ(p.c()[n_circuit_constraints + i], Fr::zero());
    EXPECT_EQ(V(k.a().input(i)).back(), (ColumnEntry{n_circuit_constraints + i, Fr::one()}));
  }
  // Keypair columns: the prover's density bits are exactly the non-empty columns.
  for (std::size_t j = 0; j < n_aux; ++j) {
    EXPECT_EQ(p.a_aux_density().test(j), !k.a().aux(j).empty()) << "aux " << j;
    EXPECT_EQ(p.b_aux_density().test(j), !k.b().aux(j).empty()) << "aux " << j;
  }
  for (std::size_t j = 0; j < n_inputs; ++j) {
    EXPECT_EQ(p.b_input_density().test(j), !k.b().input(j).empty()) << "input " << j;
  }
  // Keypair columns reproduce the prover's rows: a_i = Σ_j A_ij z_j.
  std::vector<Fr> a(n), b(n), c(n);
  auto acc = [&](const SparseColumns& m, std::vector<Fr>& out) {
    for (std::size_t j = 0; j < n_inputs; ++j)
      for (auto& e : m.input(j)) out[e.row] += e.coeff * p.input_assignment()[j];
    for (std::size_t j = 0; j < n_aux; ++j)
      for (auto& e : m.aux(j)) out[e.row] += e.coeff * p.aux_assignment()[j];
  };
  acc(k.a(), a);
  acc(k.b(), b);
  acc(k.c(), c);
  EXPECT_EQ(a, V(p.a()));
  EXPECT_EQ(b, V(p.b()));
  EXPECT_EQ(c, V(p.c()));
  // Shape counter's term counts are the keypair's entries.
  EXPECT_EQ(s.a_terms(), k.a().num_entries());
  EXPECT_EQ(s.b_terms(), k.b().num_entries());
  EXPECT_EQ(s.c_terms(), k.c().num_entries());
}

TEST(Modes, CountsAndRowsAgree) {
  check_all_modes(Cubic{F(3)}, Cubic{}, 2, 3, 3);
  check_all_modes(BooleanCircuit{F(1)}, BooleanCircuit{}, 1, 1, 1);
  check_all_modes(NoConstraints{true}, NoConstraints{false}, 2, 1, 0);
  check_all_modes(Cancel{true}, Cancel{false}, 1, 2, 2);
}

TEST(Modes, ShapeCounterTerms) {
  ShapeCounter s;
  synthesize(Cubic{}, s);
  // A rows: square {x}, cube {x_sq}, sum {ONE, x, x_cu}, input {ONE}, input {out} → 1+1+3+1+1 = 7
  // B rows: square {x}, cube {x}, sum {ONE} → 3;  C rows: {x_sq}, {x_cu}, {out} → 3
  EXPECT_EQ(s.a_terms(), 7u);
  EXPECT_EQ(s.b_terms(), 3u);
  EXPECT_EQ(s.c_terms(), 3u);
}

// A circuit behind the virtual interface.
struct Dyn : CircuitInterface {
  void synthesize(ConstraintSystem& cs) const override { Cubic{F(3)}.synthesize(cs); }
};

TEST(Modes, CircuitInterface) {
  static_assert(Circuit<Cubic>);
  static_assert(Circuit<const Cubic>);
  static_assert(Circuit<CircuitInterface>);
  static_assert(!Circuit<int>);
  Dyn d;
  const CircuitInterface& ci = d;
  ProvingAssignment p;
  synthesize(ci, p);
  EXPECT_EQ(V(p.a()), Fs({3, 9, 35, 1, 35}));
}

TEST(ProvingAssignment, FastPathVariablesAndRawPushesMatchGeneric) {
  // enforce(Variable, Variable, Variable) takes the fast path (inputs, ONE, aux, a repeated
  // variable, values 0, 1, r − 1); prover_alloc/prover_enforce are what the gadgets use.
  auto synth = [](ConstraintSystem& cs) {
    const Variable x = cs.alloc_input("x", [] { return -Fr::one(); });
    const Variable y = cs.alloc("y", [] { return Fr::zero(); });
    const Variable z = cs.alloc("z", [] { return Fr::from_u64(7); });
    cs.enforce("x*1", x, ConstraintSystem::one(), x);
    cs.enforce("y*y", y, y, y);
    cs.enforce("z*x", z, x, y);
    cs.enforce("1*z", ConstraintSystem::one(), z, z);
    {
      auto ns = cs.namespace_("inner");
      cs.enforce("x*z", x, z, ConstraintSystem::one());
    }
  };
  ProvingAssignment fast, generic;
  generic.set_fast_path(false);
  EXPECT_TRUE(fast.fast_path());
  EXPECT_FALSE(generic.fast_path());
  EXPECT_NE(static_cast<ConstraintSystem&>(fast).prover_buffers(), nullptr);
  EXPECT_EQ(static_cast<ConstraintSystem&>(generic).prover_buffers(), nullptr);
  synth(fast);
  synth(generic);
  EXPECT_EQ(V(fast.a()), V(generic.a()));
  EXPECT_EQ(V(fast.b()), V(generic.b()));
  EXPECT_EQ(V(fast.c()), V(generic.c()));
  EXPECT_TRUE(fast.a_aux_density() == generic.a_aux_density());
  EXPECT_TRUE(fast.b_aux_density() == generic.b_aux_density());
  EXPECT_TRUE(fast.b_input_density() == generic.b_input_density());
  EXPECT_EQ(fast.namespace_depth(), 0u);
  // Raw pushes: counters follow, values land where alloc/enforce would put them.
  ConstraintSystem& cs = fast;
  const Variable w = cs.prover_alloc(Fr::from_u64(3));
  EXPECT_EQ(w, Variable::aux(2));
  EXPECT_EQ(cs.prover_value(w), Fr::from_u64(3));
  cs.prover_dense_in_a(w);
  cs.prover_dense_in_b(ConstraintSystem::one());
  cs.prover_enforce(Fr::one(), Fr::from_u64(2), Fr::from_u64(2));
  EXPECT_EQ(fast.num_aux(), 3u);
  EXPECT_EQ(fast.num_constraints(), 6u);
  EXPECT_TRUE(fast.a_aux_density().test(2));
  EXPECT_TRUE(fast.b_input_density().test(0));
  fast.finalize();
  EXPECT_THROW(cs.prover_alloc(Fr::one()), SynthesisError);
  EXPECT_THROW(cs.prover_enforce(Fr::one(), Fr::one(), Fr::one()), SynthesisError);
}

}  // namespace
