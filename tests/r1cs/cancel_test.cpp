// Cancellation of prover-mode synthesis (ProvingAssignment::set_cancel, CancelScope): the flag is
// polled every ConstraintSystem::kCancelStride allocs + constraints on the generic path, the fast
// path (three-Variable enforce, prover_alloc) and prover_extend; a clear flag changes nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "proofline/r1cs/r1cs.hpp"

namespace {

using namespace proofline::r1cs;
using proofline::ff::Fr;

enum class Path { Generic, Fast, Extend, AllocOnly, Mixed };

/// A chain of n steps over one input; step i uses `path` (Mixed: i % 4). If `set_at` is given, the
/// circuit sets *set_at to true just before step `at`.
struct Chain {
  std::size_t n;
  Path path;
  std::atomic<bool>* set_at = nullptr;
  std::size_t at = 0;

  void synthesize(ConstraintSystem& cs) const {
    Fr v = Fr::from_u64(3);
    Variable acc = cs.alloc_input("x", [&] { return v; });
    for (std::size_t i = 0; i < n; ++i) {
      if (set_at != nullptr && i == at) set_at->store(true, std::memory_order_relaxed);
      Path p = path == Path::Mixed ? static_cast<Path>(i % 4) : path;
      if (p == Path::Extend && cs.prover_buffers() == nullptr) p = Path::Generic;
      switch (p) {
        case Path::Generic: {  // (acc + 1) · 1 = y
          const Fr y = v + Fr::one();
          const Variable vy = cs.alloc("y", [&] { return y; });
          cs.enforce("g", [&](LinearCombination& lc) { lc.add(acc).add(ConstraintSystem::one()); },
                     ConstraintSystem::one(), vy);
          acc = vy;
          v = y;
          break;
        }
        case Path::Fast: {  // acc · acc = z
          const Fr z = v * v;
          const Variable vz = cs.alloc("z", [&] { return z; });
          cs.enforce("f", acc, acc, vz);
          acc = vz;
          v = z;
          break;
        }
        case Path::Extend: {  // acc · (2·ONE) = w, as one block
          const Fr w = v + v;
          const auto blk = cs.prover_extend(1, 1);
          blk.values[0] = w;
          blk.a[0] = v;
          blk.b[0] = Fr::from_u64(2);
          blk.c[0] = w;
          cs.prover_dense_in_a(acc);
          cs.prover_dense_in_b(ConstraintSystem::one());
          acc = blk.var(0);
          v = w;
          break;
        }
        case Path::AllocOnly: {
          const Fr u = v + Fr::from_u64(5);
          acc = cs.prover_buffers() != nullptr ? cs.prover_alloc(u) : cs.alloc("u", [&] { return u; });
          v = u;
          break;
        }
        case Path::Mixed: break;
      }
    }
  }
};

std::vector<std::uint64_t> words(const DensityTracker& d) { return {d.words().begin(), d.words().end()}; }
template <class T>
std::vector<T> vec(std::span<const T> s) {
  return {s.begin(), s.end()};
}

constexpr std::size_t kSteps = 3 * static_cast<std::size_t>(ConstraintSystem::kCancelStride) + 123;  // > 64 K

class CancelPaths : public ::testing::TestWithParam<Path> {};

TEST_P(CancelPaths, ClearFlagGivesTheSameBuffers) {
  const Chain c{kSteps, GetParam()};
  ProvingAssignment plain;
  synthesize(c, plain);
  std::atomic<bool> flag{false};
  ProvingAssignment flagged;
  flagged.set_cancel(&flag);
  EXPECT_EQ(flagged.cancel(), &flag);
  synthesize(c, flagged);
  EXPECT_EQ(plain.num_constraints(), flagged.num_constraints());
  EXPECT_EQ(plain.num_aux(), flagged.num_aux());
  EXPECT_TRUE(vec(plain.a()) == vec(flagged.a()));
  EXPECT_TRUE(vec(plain.b()) == vec(flagged.b()));
  EXPECT_TRUE(vec(plain.c()) == vec(flagged.c()));
  EXPECT_TRUE(vec(plain.input_assignment()) == vec(flagged.input_assignment()));
  EXPECT_TRUE(vec(plain.aux_assignment()) == vec(flagged.aux_assignment()));
  EXPECT_EQ(words(plain.a_aux_density()), words(flagged.a_aux_density()));
  EXPECT_EQ(words(plain.b_input_density()), words(flagged.b_input_density()));
  EXPECT_EQ(words(plain.b_aux_density()), words(flagged.b_aux_density()));
}

TEST_P(CancelPaths, FlagSetBeforeStopsWithinOneStride) {
  std::atomic<bool> flag{true};
  ProvingAssignment cs;
  cs.set_cancel(&flag);
  try {
    synthesize(Chain{kSteps, GetParam()}, cs);
    FAIL() << "synthesis was not cancelled";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::Cancelled);
    EXPECT_NE(std::string(e.what()).find("synthesis cancelled after " + std::to_string(cs.num_constraints()) +
                                         " constraints"),
              std::string::npos)
        << e.what();
  }
  EXPECT_LE(cs.num_constraints() + cs.num_aux(), static_cast<std::size_t>(ConstraintSystem::kCancelStride) + 2);
}

TEST_P(CancelPaths, FlagSetWhileSynthesizingStopsWithinOneStride) {
  std::atomic<bool> flag{false};
  ProvingAssignment cs;
  cs.set_cancel(&flag);
  const std::size_t at = kSteps / 2;
  EXPECT_THROW(
      {
        try {
          synthesize(Chain{kSteps, GetParam(), &flag, at}, cs);
        } catch (const SynthesisError& e) {
          EXPECT_EQ(e.code(), SynthesisErrorCode::Cancelled);
          throw;
        }
      },
      SynthesisError);
  // Every step adds one aux variable and (but AllocOnly) one constraint.
  EXPECT_GE(cs.num_aux(), at);
  EXPECT_LE(cs.num_aux(), at + static_cast<std::size_t>(ConstraintSystem::kCancelStride));
  // The buffers are consistent with the counters (a throwing call changed nothing).
  EXPECT_EQ(cs.buffers().a.size(), cs.num_constraints());
  EXPECT_EQ(cs.buffers().aux_assignment.size(), cs.num_aux());
}

INSTANTIATE_TEST_SUITE_P(AllPaths, CancelPaths,
                         ::testing::Values(Path::Generic, Path::Fast, Path::Extend, Path::AllocOnly, Path::Mixed));

TEST(CancelScope, ProvingAssignmentTakesTheInnermostScopesFlag) {
  std::atomic<bool> outer{false}, inner{true};
  EXPECT_EQ(CancelScope::current(), nullptr);
  {
    const CancelScope a(&outer);
    {
      const CancelScope b(&inner);
      ProvingAssignment cs;
      EXPECT_EQ(cs.cancel(), &inner);
      ProvingAssignment recycled(cs.release());
      EXPECT_EQ(recycled.cancel(), &inner);
      EXPECT_THROW(synthesize(Chain{kSteps, Path::Fast}, recycled), SynthesisError);
    }
    ProvingAssignment cs;
    EXPECT_EQ(cs.cancel(), &outer);
    synthesize(Chain{1000, Path::Fast}, cs);  // clear: completes
  }
  EXPECT_EQ(CancelScope::current(), nullptr);
  ProvingAssignment cs;
  EXPECT_EQ(cs.cancel(), nullptr);
}

TEST(CancelScope, OtherModesIgnoreIt) {
  std::atomic<bool> set{true};
  const CancelScope scope(&set);
  ShapeCounter shape;
  synthesize(Chain{kSteps, Path::Mixed}, shape);  // never polls: completes
  EXPECT_GT(shape.num_constraints(), kSteps / 2);
}

}  // namespace
