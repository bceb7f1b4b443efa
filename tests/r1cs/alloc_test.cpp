// Prover mode performs no heap allocation per alloc/enforce once buffers are reserved and the
// scratch LCs have reached their working size; the same holds for the shape counter.
//
// This file replaces the global operator new/delete of the test_r1cs binary with counting versions
// (malloc/free underneath), so the claim is checked directly rather than by timing.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "proofline/r1cs/r1cs.hpp"

namespace {
std::atomic<std::size_t> g_allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace proofline::r1cs;
using proofline::ff::Fr;

// A gadget-like loop: per step one bit (boolean constraint with lambda-built LCs, lazily formatted
// names, a namespace) and the xor r = prev ⊕ bit as bellpepper writes it, (2·prev)·(bit) =
// (prev + bit − r), once with C built in an LC the gadget reuses and once with lambdas.
void synthesize_bits(ConstraintSystem& cs, int n, LinearCombination& reused) {
  Variable prev = ConstraintSystem::one();
  bool prev_val = true;
  for (int i = 0; i < n; ++i) {
    auto ns = cs.namespace_([&] { return "step_" + std::to_string(i); });
    const bool bit = (i * 7 + 3) % 5 < 2;
    const bool x = prev_val != bit;
    Variable b = cs.alloc([&] { return "bit " + std::to_string(i); }, [&] { return bit ? Fr::one() : Fr::zero(); });
    cs.enforce(
        [&] { return "boolean " + std::to_string(i); },
        [&](LinearCombination& lc) { lc.add(ConstraintSystem::one()).sub(b); }, b, LinearCombination{});
    Variable r = cs.alloc("r", [&] { return x ? Fr::one() : Fr::zero(); });
    reused.clear();
    reused.add(prev).add(b).sub(r);
    cs.enforce(
        "xor", [&](LinearCombination& lc) { lc.add(prev, Fr::from_u64(2)); }, b, reused);
    cs.enforce(
        "xor_again", [&](LinearCombination& lc) { lc.add(prev, Fr::from_u64(2)); }, b,
        [&](LinearCombination& lc) { lc.add(prev).add(b).sub(r); });
    prev = b;
    prev_val = bit;
  }
}

TEST(NoAllocation, ProverHotPath) {
  constexpr int kN = 2000;
  ProvingAssignment p;
  p.reserve(3 * (kN + 2) + 1, 1, 2 * (kN + 2));
  LinearCombination reused;
  reused.reserve(4, 4);
  // Warm-up: two steps (the first uses ONE as `prev`, the second an aux bit), so the scratch LCs
  // reach their working size.
  synthesize_bits(p, 2, reused);
  const std::size_t before = g_allocations.load();
  synthesize_bits(p, kN, reused);
  const std::size_t after = g_allocations.load();
  EXPECT_EQ(after - before, 0u) << "allocations during prover-mode synthesis of " << kN << " steps";
  EXPECT_EQ(p.num_constraints(), 3u * (kN + 2));
  p.finalize();
  EXPECT_EQ(p.a().size(), 3u * (kN + 2) + 1);
}

TEST(NoAllocation, ShapeCounter) {
  ShapeCounter s;
  LinearCombination reused;
  synthesize_bits(s, 2, reused);
  const std::size_t before = g_allocations.load();
  synthesize_bits(s, 1000, reused);
  EXPECT_EQ(g_allocations.load() - before, 0u);
}

TEST(NoAllocation, CounterSeesTestMode) {  // the counter works: test mode does allocate
  TestConstraintSystem t;
  LinearCombination reused;
  const std::size_t before = g_allocations.load();
  synthesize_bits(t, 10, reused);
  EXPECT_GT(g_allocations.load() - before, 0u);
  EXPECT_TRUE(t.is_satisfied()) << *t.which_is_unsatisfied();
  EXPECT_EQ(t.get("step_1/bit 1"), Fr::one());   // (1·7 + 3) mod 5 = 0 < 2
  EXPECT_EQ(t.get("step_3/bit 3"), Fr::zero());  // (3·7 + 3) mod 5 = 4
  EXPECT_EQ(t.get("step_1/r"), Fr::one());     // bit 0 = 0 ((0 + 3) mod 5 = 3), bit 1 = 1
  t.set("step_1/r", Fr::zero());
  EXPECT_EQ(t.which_is_unsatisfied(), "step_1/xor");
}

}  // namespace
