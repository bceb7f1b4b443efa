// The gadgets' prover fast path (ConstraintSystem::prover_buffers()) against the generic
// LinearCombination path and test mode: same witness, a, b, c and densities for every Boolean kind
// combination, shared variables, invalid (non-bit) witnesses, MultiEq cancellations and repeats,
// and Poseidon's recorded shape with its fallbacks (input variables, inconsistent values, constants
// without a shape), with edge values 0, 1, 2 and r − 1.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "gadget_test_util.hpp"
#include "proofline/gadgets/num.hpp"
#include "proofline/gadgets/poseidon.hpp"
#include "proofline/gadgets/uint32.hpp"

namespace {

using namespace proofline::gadgets;
using namespace proofline::gadget_test;

// Runs `synth` into a fast-path prover and a generic one and compares every buffer, and into
// witness-only mode, whose values must be the prover's (for witnesses test mode would reject, where
// check_modes cannot be used).
template <class F>
void expect_fast_equals_generic(F&& synth) {
  ProvingAssignment fast, generic;
  generic.set_fast_path(false);
  synth(static_cast<ConstraintSystem&>(fast));
  synth(static_cast<ConstraintSystem&>(generic));
  expect_same_buffers(fast, generic);
  WitnessAssignment witness;
  synth(static_cast<ConstraintSystem&>(witness));
  expect_witness_equals_prover(witness, fast);
}

// Boolean of kind k over a fresh bit: 0/1 constants, Is/Not of a 0 bit, Is/Not of a 1 bit.
Boolean make_kind(ConstraintSystem& cs, int k) {
  if (k < 2) return Boolean::constant(k == 1);
  const AllocatedBit bit = AllocatedBit::alloc(cs, k >= 4);
  return (k % 2 == 0) ? Boolean::is(bit) : Boolean::not_of(bit);
}

TEST(FastPath, BooleanOpsAllKindsAndValues) {
  for (int ka = 0; ka < 6; ++ka) {
    for (int kb = 0; kb < 6; ++kb) {
      for (int kc = 0; kc < 6; ++kc) {
        check_modes([&](ConstraintSystem& cs) {
          int k = 0;
          auto step = [&] { return cs.namespace_([&] { return "step " + std::to_string(k++); }); };
          Boolean a, b, c;
          {
            auto ns = step();
            a = make_kind(cs, ka);
          }
          {
            auto ns = step();
            b = make_kind(cs, kb);
          }
          {
            auto ns = step();
            c = make_kind(cs, kc);
          }
          { auto ns = step(); (void)Boolean::xor_(cs, a, b); }
          { auto ns = step(); (void)Boolean::and_(cs, b, c); }
          { auto ns = step(); (void)Boolean::or_(cs, c, a); }
          { auto ns = step(); (void)Boolean::sha256_ch(cs, a, b, c); }
          { auto ns = step(); (void)Boolean::sha256_maj(cs, a, b, c); }
          if (!a.is_constant() && !b.is_constant()) {
            { auto ns = step(); (void)AllocatedBit::and_not(cs, a.bit(), b.bit()); }
            { auto ns = step(); (void)AllocatedBit::nor(cs, a.bit(), b.bit()); }
          }
        });
      }
    }
  }
}

TEST(FastPath, SharedVariablesCancelInGenericPathToo) {
  // ch and maj with b, c over one variable (Is/Is, Is/Not, Not/Not): A's terms of that variable
  // cancel to a zero coefficient, so no density; the fast path must fall back, not mark it.
  for (int kb = 0; kb < 2; ++kb) {
    for (int kc = 0; kc < 2; ++kc) {
      for (int va = 0; va < 2; ++va) {
        for (int vb = 0; vb < 2; ++vb) {
          check_modes([&](ConstraintSystem& cs) {
            const AllocatedBit a = AllocatedBit::alloc(cs, va == 1);
            // A bit with no constraint of its own (so its density comes only from ch / maj).
            const Variable v = cs.alloc("free bit", [&] { return bool_to_fr(vb == 1); });
            const AllocatedBit x(v, vb == 1);
            const Boolean b = kb == 0 ? Boolean::is(x) : Boolean::not_of(x);
            const Boolean c = kc == 0 ? Boolean::is(x) : Boolean::not_of(x);
            { auto ns = cs.namespace_("ch"); (void)Boolean::sha256_ch(cs, a, b, c); }
            { auto ns = cs.namespace_("maj"); (void)Boolean::sha256_maj(cs, a, b, c); }
            { auto ns = cs.namespace_("xor"); (void)Boolean::xor_(cs, b, c); }
          });
        }
      }
    }
  }
}

TEST(FastPath, NonBitWitnessFallsBack) {
  // Bits whose assigned values are not 0/1 (an invalid witness: 2 and r − 1), mixed with 0 and 1:
  // every bit gadget and addmany must still produce the generic path's a, b, c.
  const std::array<Fr, 4> values = {Fr::zero(), Fr::one(), Fr::from_u64(2), -Fr::one()};
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < values.size(); ++j) {
      expect_fast_equals_generic([&](ConstraintSystem& cs) {
        const Variable va = cs.alloc("a", [&] { return values[i]; });
        const Variable vb = cs.alloc("b", [&] { return values[j]; });
        const AllocatedBit a(va, i == 1), b(vb, j == 1);
        const AllocatedBit c = AllocatedBit::alloc(cs, true);
        (void)AllocatedBit::xor_(cs, a, b);
        (void)AllocatedBit::and_(cs, a, b);
        (void)AllocatedBit::and_not(cs, a, b);
        (void)AllocatedBit::nor(cs, a, b);
        (void)Boolean::sha256_ch(cs, a, Boolean::not_of(b), c);
        (void)Boolean::sha256_maj(cs, Boolean::not_of(a), b, c);
        std::array<Boolean, 32> bits;
        for (std::size_t k = 0; k < 32; ++k) bits[k] = (k % 3 == 0) ? Boolean(a) : (k % 3 == 1 ? Boolean::not_of(b) : Boolean(c));
        const UInt32 w = UInt32::from_bits(bits);
        const UInt32 k = UInt32::constant(0x80000001u);
        MultiEq meq(cs);
        const UInt32* ops[3] = {&w, &k, &w};
        (void)UInt32::addmany(meq, ops);
        meq.finish();
      });
    }
  }
}

// 32 free bits (no boolean constraint, so their A-density comes only from a MultiEq) holding x.
UInt32 free_word(ConstraintSystem& cs, std::uint32_t x, bool negated_odd) {
  std::array<Boolean, 32> bits;
  for (std::size_t i = 0; i < 32; ++i) {
    const bool bit = (x >> i) & 1;
    const Variable v = cs.alloc([&] { return "free " + std::to_string(i); }, [&] { return bool_to_fr(bit); });
    bits[i] = (negated_odd && i % 2 == 1) ? Boolean::not_of(AllocatedBit(v, bit)) : Boolean::is(AllocatedBit(v, bit));
  }
  return UInt32::from_bits(bits);
}

UInt32 negate_bits(const UInt32& w) {
  std::array<Boolean, 32> bits;
  for (std::size_t i = 0; i < 32; ++i) bits[i] = w.bits()[i].not_();
  return UInt32::from_bits(bits);
}

TEST(FastPath, MultiEqCancellationAndRepeats) {
  // x + ¬x: Is(v)·2^i and Not(v) = ONE·2^i − v·2^i cancel, so no free bit becomes A-dense; in a
  // second flush, the same x added again across equalities cancels too.
  std::mt19937_64 rng(11);
  for (int round = 0; round < 4; ++round) {
    const std::uint32_t xv = static_cast<std::uint32_t>(rng()), yv = static_cast<std::uint32_t>(rng());
    std::size_t first_free = 0;
    auto synth = [&](ConstraintSystem& cs) {
      UInt32 x;
      {
        auto ns = cs.namespace_("x");
        first_free = cs.num_aux();
        x = free_word(cs, xv, round % 2 == 1);
      }
      const UInt32 nx = negate_bits(x);
      MultiEq meq(cs);
      int k = 0;
      auto step = [&] { return cs.namespace_([&] { return "add " + std::to_string(k++); }); };
      const UInt32* cancel[2] = {&x, &nx};
      for (int j = 0; j < 9; ++j) {  // 9 × 33 bits: crosses a flush
        auto ns = step();
        (void)UInt32::addmany(meq, cancel);
      }
      meq.finish();
    };
    check_modes(synth);
    ProvingAssignment p;
    synth(p);
    for (std::size_t i = 0; i < 32; ++i) EXPECT_FALSE(p.a_aux_density().test(first_free + i)) << "bit " << i;

    // Repeats: a word added 10 times in one equality (each variable 10 times: beyond the fast
    // rule's 7), a mixed Is/Not word three times, several equalities per flush.
    check_modes([&](ConstraintSystem& cs) {
      UInt32 y, m;
      {
        auto ns = cs.namespace_("y");
        y = free_word(cs, yv, false);
      }
      {
        auto ns = cs.namespace_("m");
        m = free_word(cs, xv ^ yv, true);
      }
      MultiEq meq(cs);
      int k = 0;
      auto step = [&] { return cs.namespace_([&] { return "add " + std::to_string(k++); }); };
      std::array<const UInt32*, 10> ten;
      ten.fill(&y);
      { auto ns = step(); (void)UInt32::addmany(meq, ten); }
      const UInt32* three[3] = {&m, &m, &m};
      { auto ns = step(); (void)UInt32::addmany(meq, three); }
      const UInt32* two[2] = {&m, &y};
      for (int j = 0; j < 8; ++j) {
        auto ns = step();
        (void)UInt32::addmany(meq, two);
      }
      meq.finish();
    });
  }
}

TEST(FastPath, PoseidonEdgeValuesAndFallbacks) {
  const PoseidonConstants& c = PoseidonConstants::merkle(4);
  ASSERT_NE(c.circuit_shape, nullptr);
  PoseidonConstants no_shape = c;  // hand-assembled constants: generic path
  no_shape.circuit_shape = nullptr;
  const std::array<Fr, 4> edge = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2)};
  for (int variant = 0; variant < 3; ++variant) {
    const PoseidonConstants& cc = variant == 2 ? no_shape : c;
    check_modes([&](ConstraintSystem& cs) {
      std::vector<AllocatedNum> pre;
      for (std::size_t i = 0; i < 4; ++i) {
        auto ns = cs.namespace_([&] { return "in " + std::to_string(i); });
        // variant 1: one preimage element is a public input (fast path falls back)
        pre.push_back(variant == 1 && i == 2 ? AllocatedNum::alloc_input(cs, edge[i]) : AllocatedNum::alloc(cs, edge[i]));
      }
      AllocatedNum out;
      {
        auto ns = cs.namespace_("hash 1");
        out = poseidon_hash(cs, pre, cc);
      }
      if (cs.computes_values()) EXPECT_EQ(out.value(), poseidon_hash_native(c, edge));
      // A second hash over the first one's output and a repeated element (same variable twice).
      std::vector<AllocatedNum> pre2 = {out, pre[0], pre[0], out};
      auto ns = cs.namespace_("hash 2");
      (void)poseidon_hash(cs, pre2, cc);
    });
  }
  // Inconsistent AllocatedNum (value differs from the assignment): falls back, same as generic.
  expect_fast_equals_generic([&](ConstraintSystem& cs) {
    std::vector<AllocatedNum> pre;
    for (std::size_t i = 0; i < 4; ++i) pre.push_back(AllocatedNum::alloc(cs, edge[i]));
    pre[1] = AllocatedNum(pre[1].variable(), Fr::from_u64(5));
    (void)poseidon_hash(cs, pre, c);
  });
}

}  // namespace
