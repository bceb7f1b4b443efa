// ProvingAssignment::synthesize_parts (parallel parts into one set of buffers), the same parts into
// the setup's QapEvaluator (QapParts: sums equal to the sequential order's, wrong shapes), the window
// DensityTracker and the fixed-storage UninitAllocator it is built on: parts whose boundaries fall
// inside 64-bit density words, that set density bits of the shared prefix and of ONE, that use the
// generic LinearCombination path, prover_alloc/prover_enforce and prover_extend, give the buffers of
// the sequential order byte for byte; errors, cancellation, limits and wrong shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "proofline/r1cs/r1cs.hpp"
#include "proofline/util/fault.hpp"

namespace proofline::r1cs {
namespace {

// Prefix: 5 aux (values 3, 4, …), 2 inputs; then parts of 37 aux, 2 inputs, 41 constraints (so
// that part boundaries fall inside density words), touching prefix variables, ONE and inputs.
constexpr PartShape kPart{41, 2, 37};

void prefix(ConstraintSystem& cs) {
  for (std::uint64_t i = 0; i < 5; ++i) (void)cs.alloc("p", [i] { return Fr::from_u64(3 + i); });
  (void)cs.alloc_input("in", [] { return Fr::from_u64(11); });
  (void)cs.alloc_input("in", [] { return Fr::from_u64(12); });
  cs.enforce("p", Variable::aux(0), Variable::aux(1), Variable::aux(2));
}

// Part j: values depend on j; generic, fast and block paths mixed.
void part(ConstraintSystem& cs, std::size_t j) {
  const std::uint64_t s = 100 * (j + 1);
  const Variable in0 = cs.alloc_input("x", [&] { return Fr::from_u64(s); });
  std::vector<Variable> v;
  for (std::uint64_t k = 0; k < 20; ++k) v.push_back(cs.alloc("v", [&] { return Fr::from_u64(s + k); }));
  for (std::size_t k = 0; k < 20; ++k) {
    // (v_k + prefix_{k mod 5}) · (ONE·(k mod 3) + v_{k+1 mod 20}) = v_{k+2 mod 20} (unsatisfied: values only)
    cs.enforce(
        "c", [&](LinearCombination& lc) { lc.add(v[k]).add(Variable::aux(k % 5)); },
        [&](LinearCombination& lc) {
          if (k % 3 != 0) lc.add(ConstraintSystem::one(), Fr::from_u64(k % 3));
          lc.add(v[(k + 1) % 20]);
        },
        [&](LinearCombination& lc) { lc.add(v[(k + 2) % 20]); });
  }
  cs.enforce("in", Variable::aux(3), in0, v[0]);  // input in B: b_input density
  if (ProvingBuffers* p = cs.prover_buffers()) {
    for (std::uint64_t k = 0; k < 7; ++k) {
      const Variable x = cs.prover_alloc(Fr::from_u64(s * 7 + k));
      cs.prover_dense_in_a(x);
      if (k % 2 == 0) cs.prover_dense_in_b(Variable::aux(4));
      cs.prover_enforce(Fr::from_u64(k), Fr::from_u64(s), Fr::from_u64(k * s));
    }
    const auto blk = cs.prover_extend(10, 13);
    for (std::size_t k = 0; k < 10; ++k) blk.values[k] = Fr::from_u64(s + 1000 + k);
    for (std::size_t k = 0; k < 13; ++k) {
      blk.a[k] = Fr::from_u64(k);
      blk.b[k] = Fr::from_u64(s);
      blk.c[k] = Fr::from_u64(k + s);
    }
    p->b_aux_density.set_range(blk.first_aux + 2, 5);
    p->a_aux_density.set(blk.first_aux + 9);
  } else {
    for (std::uint64_t k = 0; k < 17; ++k) (void)cs.alloc("w", [&] { return Fr::from_u64(s * 7 + k); });
    for (std::uint64_t k = 0; k < 20; ++k) cs.enforce("w", v[k % 20], v[(k + 1) % 20], v[(k + 2) % 20]);
  }
  (void)cs.alloc_input("y", [&] { return Fr::from_u64(s + 1); });
}

/// The prefix's counts plus n_parts parts of `p`.
void expect_counts(const ConstraintSystem& cs, std::size_t n_parts, const PartShape& p) {
  EXPECT_EQ(cs.num_constraints(), 1 + n_parts * p.constraints);
  EXPECT_EQ(cs.num_aux(), 5 + n_parts * p.aux);
  EXPECT_EQ(cs.num_inputs(), 3 + n_parts * p.inputs);
}

ProvingBuffers run(std::size_t n_parts, std::size_t threads, bool fast = true) {
  ProvingAssignment cs;
  cs.set_fast_path(fast);
  prefix(cs);
  cs.synthesize_parts(n_parts, kPart, part, threads);
  expect_counts(cs, n_parts, kPart);
  cs.finalize();
  return cs.release();
}

bool same(std::span<const Fr> x, std::span<const Fr> y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size_bytes()) == 0);
}

void expect_same(const ProvingBuffers& x, const ProvingBuffers& y) {
  EXPECT_TRUE(same(x.a, y.a));
  EXPECT_TRUE(same(x.b, y.b));
  EXPECT_TRUE(same(x.c, y.c));
  EXPECT_TRUE(same(x.input_assignment, y.input_assignment));
  EXPECT_TRUE(same(x.aux_assignment, y.aux_assignment));
  EXPECT_EQ(x.a_aux_density, y.a_aux_density);
  EXPECT_EQ(x.a_aux_density.popcount(), y.a_aux_density.popcount());
  EXPECT_EQ(x.b_aux_density, y.b_aux_density);
  EXPECT_EQ(x.b_aux_density.popcount(), y.b_aux_density.popcount());
  EXPECT_EQ(x.b_input_density, y.b_input_density);
  EXPECT_EQ(x.b_input_density.popcount(), y.b_input_density.popcount());
}

TEST(ParallelParts, EqualsSequentialOrder) {
  for (const bool fast : {true, false}) {
    const ProvingBuffers seq = run(9, 1, fast);
    // Pinned values of the sequential order: part 3's first aux holds 400, its input 400.
    EXPECT_EQ(seq.aux_assignment[5 + 3 * kPart.aux], Fr::from_u64(400));
    EXPECT_EQ(seq.input_assignment[3 + 3 * kPart.inputs], Fr::from_u64(400));
    EXPECT_TRUE(seq.b_input_density.test(0));  // ONE in B (k mod 3 != 0)
    EXPECT_TRUE(seq.b_input_density.test(3 + 8 * kPart.inputs));
    EXPECT_FALSE(seq.b_input_density.test(4 + 8 * kPart.inputs));
    for (const std::size_t t : {2, 3, 7, 0}) {
      SCOPED_TRACE("threads " + std::to_string(t) + (fast ? " fast" : " generic"));
      expect_same(seq, run(9, t, fast));
    }
  }
}

TEST(ParallelParts, LowestFailingPartsErrorWins) {
  for (const std::size_t t : {1, 2, 3, 7}) {
    ProvingAssignment cs;
    prefix(cs);
    try {
      cs.synthesize_parts(8, kPart, [](ConstraintSystem& c, std::size_t j) {
        part(c, j);
        if (j == 2 || j == 5) throw SynthesisError(SynthesisErrorCode::Unsatisfiable, "part " + std::to_string(j));
      }, t);
      ADD_FAILURE() << "no error, " << t << " threads";
    } catch (const SynthesisError& e) {
      EXPECT_EQ(e.code(), SynthesisErrorCode::Unsatisfiable);
      EXPECT_STREQ(e.what(), "unsatisfiable constraint: part 2") << t << " threads";
    }
  }
}

TEST(ParallelParts, WrongShapeIsShapeMismatch) {
  ProvingAssignment one_more;
  prefix(one_more);
  try {
    one_more.synthesize_parts(4, kPart, [](ConstraintSystem& c, std::size_t j) {
      part(c, j);
      if (j == 1) (void)c.alloc("extra", [] { return Fr::zero(); });
    }, 2);
    ADD_FAILURE() << "no error";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::ShapeMismatch);
    EXPECT_NE(std::string(e.what()).find("part 1"), std::string::npos) << e.what();
  }
  // Far beyond its region: stopped at the region's end, not written into the next part's.
  ProvingAssignment runaway;
  prefix(runaway);
  try {
    runaway.synthesize_parts(4, kPart, [](ConstraintSystem& c, std::size_t j) {
      part(c, j);
      if (j == 2) {
        for (int k = 0; k < 10000; ++k) (void)c.alloc("extra", [] { return Fr::zero(); });
      }
    }, 2);
    ADD_FAILURE() << "no error";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::ShapeMismatch);
    EXPECT_NE(std::string(e.what()).find("part 2 outgrew its shape"), std::string::npos) << e.what();
  }
}

// A CancelScope on the calling thread (as the engine opens) reaches the parts on the helper
// threads; set while they run, every part stops within one poll stride of it.
TEST(ParallelParts, CancelStopsEveryPartWithinAStride) {
  constexpr std::size_t kParts = 6, kPerPart = 16 * static_cast<std::size_t>(ConstraintSystem::kCancelStride);
  std::atomic<bool> flag{false};
  std::atomic<std::size_t> work{0};
  std::atomic<std::size_t> work_at_flag{0};
  std::thread watcher([&] {
    while (work.load() < 2 * static_cast<std::size_t>(ConstraintSystem::kCancelStride)) std::this_thread::yield();
    flag = true;
    work_at_flag = work.load();
  });
  CancelScope scope(&flag);
  ProvingAssignment cs;
  prefix(cs);
  const PartShape big{kPerPart, 0, 1};
  try {
    cs.synthesize_parts(kParts, big, [&](ConstraintSystem& c, std::size_t) {
      const Variable x = c.prover_alloc(Fr::one());
      for (std::size_t k = 0; k < kPerPart; ++k) {
        c.prover_enforce(c.prover_value(x), Fr::one(), Fr::one());
        work.fetch_add(1, std::memory_order_relaxed);
      }
    }, 3);
    ADD_FAILURE() << "not cancelled";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::Cancelled) << e.what();
  }
  watcher.join();
  const std::size_t after = work.load() - work_at_flag.load();
  EXPECT_LE(after, kParts * (static_cast<std::size_t>(ConstraintSystem::kCancelStride) + 2))
      << work.load() << " units in all, " << work_at_flag.load() << " when the flag was set";
  EXPECT_LT(work.load(), kParts * kPerPart / 2);
}

TEST(ParallelParts, LimitsCheckedOnTheFinalCounts) {
  SynthesisLimits limits;
  limits.max_constraints = 1 + 3 * kPart.constraints;  // room for 3 parts, not 4
  CancelScope scope(nullptr, limits);
  ProvingAssignment cs;
  prefix(cs);
  EXPECT_NO_THROW(cs.synthesize_parts(3, kPart, part, 2));
  ProvingAssignment over;
  prefix(over);
  try {
    over.synthesize_parts(4, kPart, part, 2);
    ADD_FAILURE() << "no LimitExceeded";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::LimitExceeded);
    EXPECT_NE(std::string(e.what()).find(std::to_string(1 + 4 * kPart.constraints) + " constraints in all"),
              std::string::npos)
        << e.what();
  }
}

TEST(ParallelParts, AfterFinalizeIsAnError) {
  ProvingAssignment cs;
  prefix(cs);
  cs.finalize();
  EXPECT_THROW(cs.synthesize_parts(2, kPart, part, 2), SynthesisError);
}

// The calling thread's fault::JobScope travels to the parts: a "synthesis" fault armed for the
// job fires in a part on a helper thread.
TEST(ParallelParts, FaultJobScopeReachesTheParts) {
  const std::string job = "parallel-parts-job";
  fault::JobScope js(job);
  fault::arm("synthesis", job);
  ProvingAssignment cs;
  prefix(cs);
  const PartShape big{2 * static_cast<std::size_t>(ConstraintSystem::kCancelStride), 0, 1};
  EXPECT_THROW(cs.synthesize_parts(3, big, [&](ConstraintSystem& c, std::size_t) {
    const Variable x = c.prover_alloc(Fr::one());
    for (std::size_t k = 0; k < big.constraints; ++k) c.prover_enforce(c.prover_value(x), Fr::one(), Fr::one());
  }, 2), fault::Injected);
  fault::disarm_all();
}

// ---- QapEvaluator::synthesize_parts ---------------------------------------------------------------
// The same prefix and parts into the setup's evaluator (the generic path: no prover buffers): the
// u, v, w and flags of every variable equal the sequential order's byte for byte (the prefix's
// variables and ONE summed over the threads' accumulators), with parts spanning Lagrange chunks.

const Fr kTau = Fr::from_u64(0x5eed) * Fr::from_u64(987654321);

CircuitShape qap_shape(std::size_t n_parts, const PartShape& p) {
  const std::size_t inputs = 3 + n_parts * p.inputs;
  return {1 + n_parts * p.constraints + inputs, inputs, 5 + n_parts * p.aux};
}

/// Every sum and flag of a finalized evaluator, as bytes.
std::vector<std::uint8_t> qap_bytes(const QapEvaluator& q) {
  std::vector<std::uint8_t> out;
  auto put = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  };
  put(q.inputs().data(), q.inputs().size_bytes());
  put(q.aux().data(), q.aux().size_bytes());
  put(q.input_flags().data(), q.input_flags().size_bytes());
  put(q.aux_flags().data(), q.aux_flags().size_bytes());
  return out;
}

/// prefix, n_parts parts of `shape` by `body`, finalize; `part_threads` as set_part_threads.
std::vector<std::uint8_t> qap_run(std::size_t n_parts, const PartShape& shape, const ConstraintSystem::PartBody& body,
                                  std::size_t threads, std::size_t part_threads = 0,
                                  std::vector<std::size_t>* progress = nullptr) {
  QapEvaluator q(kTau, qap_shape(n_parts, shape));
  q.set_part_threads(part_threads);
  if (progress != nullptr) q.set_progress([progress](std::size_t rows) { progress->push_back(rows); });
  prefix(q);
  q.synthesize_parts(n_parts, shape, body, threads);
  expect_counts(q, n_parts, shape);
  q.finalize();
  return qap_bytes(q);
}

/// The same layout from the definition: u_j = Σ_i A[i][j]·L_i(τ) (v: B, w: C) over KeypairAssembly's
/// columns, L_i(τ) = Z(τ)/m · ω^i/(τ − ω^i) one inversion per row; flags from column emptiness.
std::vector<std::uint8_t> qap_from_columns(std::size_t n_parts, const PartShape& shape,
                                           const ConstraintSystem::PartBody& body) {
  KeypairAssembly k;
  prefix(k);
  for (std::size_t j = 0; j < n_parts; ++j) body(k, j);
  k.finalize();
  const std::size_t m = CircuitShape{k.num_constraints(), k.num_inputs(), k.num_aux()}.domain_size();
  Fr omega = Fr::root_of_unity();
  for (unsigned i = static_cast<unsigned>(std::countr_zero(m)); i < 32; ++i) omega = omega.square();
  const Fr zm = (kTau.pow(static_cast<std::uint64_t>(m)) - Fr::one()) * Fr::from_u64(m).inverse();
  auto lagrange = [&](std::uint64_t i) {
    const Fr w = omega.pow(i);
    return zm * w * (kTau - w).inverse();
  };
  std::vector<QapTerms> in(k.num_inputs()), aux(k.num_aux());
  std::vector<std::uint8_t> in_f(k.num_inputs(), 0), aux_f(k.num_aux(), 0);
  const SparseColumns* sides[3] = {&k.a(), &k.b(), &k.c()};
  Fr QapTerms::*fields[3] = {&QapTerms::u, &QapTerms::v, &QapTerms::w};
  for (int s = 0; s < 3; ++s) {
    auto sum = [&](std::span<const ColumnEntry> col, QapTerms& q, std::uint8_t& f) {
      Fr acc = Fr::zero();
      for (const ColumnEntry& e : col) acc += e.coeff * lagrange(e.row);
      q.*fields[s] = acc;
      if (!col.empty()) f |= std::uint8_t(1u << s);
    };
    for (std::size_t j = 0; j < in.size(); ++j) sum(sides[s]->input(j), in[j], in_f[j]);
    for (std::size_t j = 0; j < aux.size(); ++j) sum(sides[s]->aux(j), aux[j], aux_f[j]);
  }
  std::vector<std::uint8_t> out;
  auto put = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  };
  put(in.data(), in.size() * sizeof(QapTerms));
  put(aux.data(), aux.size() * sizeof(QapTerms));
  put(in_f.data(), in_f.size());
  put(aux_f.data(), aux_f.size());
  return out;
}

TEST(QapParts, EqualsSequentialOrder) {
  const auto seq = qap_run(9, kPart, part, 1);
  ASSERT_TRUE(seq == qap_from_columns(9, kPart, part));  // the sequential path is the definition
  for (const std::size_t t : {2, 3, 7, 0}) {
    EXPECT_TRUE(qap_run(9, kPart, part, t) == seq) << t << " threads";
  }
  // The evaluator's own switch: 1 keeps the sequential path whatever the call asks; n caps it.
  EXPECT_TRUE(qap_run(9, kPart, part, 0, 1) == seq);
  EXPECT_TRUE(qap_run(9, kPart, part, 0, 2) == seq);
  EXPECT_TRUE(qap_run(9, kPart, part, 7, 3) == seq);
}

// Parts of 30,011 rows: several parts per 2^16-row Lagrange chunk of the sequential path, and
// parts whose rows straddle its chunk boundaries; ONE and the prefix read by every row.
TEST(QapParts, PartsAcrossLagrangeChunks) {
  constexpr std::size_t kRows = 30'011;
  const PartShape big{kRows, 1, 2};
  const auto body = [](ConstraintSystem& c, std::size_t j) {
    const Variable x = c.alloc("x", [] { return Fr::zero(); });
    const Variable y = c.alloc("y", [] { return Fr::zero(); });
    (void)c.alloc_input("i", [] { return Fr::zero(); });
    for (std::size_t k = 0; k < kRows; ++k) {
      c.enforce(
          "r", [&](LinearCombination& lc) { lc.add(x, Fr::from_u64(k + 1)).add(Variable::aux(k % 5)); },
          [&](LinearCombination& lc) { lc.add(ConstraintSystem::one(), Fr::from_u64(j + 2)); },
          [&](LinearCombination& lc) {
            lc.add(y);
            if (k % 7 == 0) lc.add(Variable::input(1), -Fr::one());
          });
    }
  };
  std::vector<std::size_t> rows;
  const auto seq = qap_run(7, big, body, 1);
  EXPECT_TRUE(qap_run(7, big, body, 2, 0, &rows) == seq);
  EXPECT_TRUE(qap_run(7, big, body, 0) == seq);
  // Progress: rows only grow, and the parts' last report counts all of them.
  ASSERT_FALSE(rows.empty());
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  EXPECT_GE(rows.back(), 1 + 7 * kRows);
}

TEST(QapParts, WrongShapeIsShapeMismatchNamingThePart) {
  auto expect_mismatch = [](const ConstraintSystem::PartBody& body, const std::string& what) {
    for (const std::size_t t : {2, 0}) {
      QapEvaluator q(kTau, qap_shape(4, kPart));
      prefix(q);
      try {
        q.synthesize_parts(4, kPart, body, t);
        ADD_FAILURE() << "no error: " << what;
      } catch (const SynthesisError& e) {
        EXPECT_EQ(e.code(), SynthesisErrorCode::ShapeMismatch) << e.what();
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      }
    }
  };
  // One aux too many: stopped at its region's end.
  expect_mismatch([](ConstraintSystem& c, std::size_t j) {
    part(c, j);
    if (j == 1) (void)c.alloc("extra", [] { return Fr::zero(); });
  }, "part 1 outgrew its shape");
}

TEST(QapParts, FewerCountsAndForeignReadsAreShapeMismatch) {
  for (const std::size_t t : {2, 0}) {
    QapEvaluator fewer(kTau, qap_shape(4, kPart));
    prefix(fewer);
    try {
      fewer.synthesize_parts(4, PartShape{kPart.constraints + 1, kPart.inputs, kPart.aux}, part, t);
      ADD_FAILURE() << "no error";
    } catch (const SynthesisError& e) {
      EXPECT_EQ(e.code(), SynthesisErrorCode::ShapeMismatch);
      EXPECT_NE(std::string(e.what()).find("part 0 added 41 constraints, 2 inputs, 37 aux (expected 42, 2, 37)"),
                std::string::npos)
          << e.what();
    }
    // Part 2 reads part 0's first aux variable (neither the prefix nor its own).
    QapEvaluator foreign(kTau, qap_shape(4, kPart));
    prefix(foreign);
    try {
      foreign.synthesize_parts(4, kPart, [](ConstraintSystem& c, std::size_t j) {
        if (j == 2) {
          c.enforce("x", Variable::aux(5), Variable::aux(5), Variable::aux(5));
          return;
        }
        part(c, j);
      }, t);
      ADD_FAILURE() << "no error";
    } catch (const SynthesisError& e) {
      EXPECT_EQ(e.code(), SynthesisErrorCode::ShapeMismatch);
      EXPECT_NE(std::string(e.what()).find("part 2 reads aux variable 5 of another part"), std::string::npos)
          << e.what();
    }
  }
}

TEST(QapParts, AfterFinalizeIsAnError) {
  QapEvaluator q(kTau, qap_shape(0, kPart));
  prefix(q);
  q.finalize();
  EXPECT_THROW(q.synthesize_parts(2, kPart, part, 2), SynthesisError);
}

// ---- DensityTracker::window / merge_window ------------------------------------------------------

TEST(DensityWindow, MergeEqualsDirect) {
  DensityTracker direct, full;
  direct.push_zeros(300);
  full.push_zeros(300);
  DensityTracker w = DensityTracker::window(100, 70);  // stores bits [0, 70) and [100, …)
  EXPECT_EQ(w.size(), 100u);
  EXPECT_TRUE(w.is_window());
  w.push_zeros(150);
  w.push_back(true);  // bit 250
  DensityTracker pattern;
  for (int i = 0; i < 70; ++i) pattern.push_back(i % 3 == 0);
  for (DensityTracker* t : {&direct, &w}) {
    t->set(3);
    t->set(69);
    t->set(100);
    t->set(127);
    t->set(128);
    t->set_range(130, 80);
    t->or_at(160, pattern);
  }
  direct.set(250);
  EXPECT_TRUE(w.test(69));
  EXPECT_TRUE(w.test(128));
  EXPECT_FALSE(w.test(129));
  full.set(5);     // a bit set in the full tracker before the merge
  direct.set(5);
  full.merge_window(w);
  EXPECT_EQ(full, direct);
  EXPECT_EQ(full.popcount(), direct.popcount());
  // 3, 5, 69, 100, 127, 128, 130..209 (80), of 160, 163, …, 229 those not already set (211, 214,
  // …, 229: 7), 250.
  EXPECT_EQ(direct.popcount(), 6u + 80u + 7u + 1u);
}

// ---- UninitAllocator with fixed storage ---------------------------------------------------------

TEST(FixedStorage, FillsInPlaceAndNeverGrowsPastIt) {
  FrVector whole(10, Fr::zero());
  FrVector part{UninitAllocator<Fr>(whole.data(), 6)};
  part.reserve(6);
  EXPECT_EQ(part.data(), whole.data());
  part.resize(4);  // writes nothing
  part.push_back(Fr::from_u64(7));
  EXPECT_EQ(whole[4], Fr::from_u64(7));
  EXPECT_EQ(whole[3], Fr::zero());
  const FrVector copy = part;  // a copy owns its own storage
  EXPECT_NE(copy.data(), whole.data());
  EXPECT_EQ(copy[4], Fr::from_u64(7));
  part.push_back(Fr::one());
  EXPECT_THROW(part.push_back(Fr::one()), std::length_error);
  EXPECT_EQ(whole[5], Fr::one());
  EXPECT_EQ(whole[6], Fr::zero());
}

}  // namespace
}  // namespace proofline::r1cs
