// AllocatedNum, packing, pick: counts, values, modes, tampering.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gadget_test_util.hpp"
#include "proofline/gadgets/num.hpp"

namespace {

using namespace proofline::gadgets;
using namespace proofline::gadget_test;

TEST(AllocatedNum, ToBitsLe256) {
  std::mt19937_64 rng(1);
  const Fr v = Fr::random(rng);
  auto mc = check_modes([&](ConstraintSystem& cs) {
    auto n = AllocatedNum::alloc(cs, v);
    auto bits = n.to_bits_le(cs);
    ASSERT_EQ(bits.size(), 255u);
    Fr back = Fr::zero();
    for (std::size_t i = 0; i < 255; ++i) {
      if (bits[i].value()) back += pow2(i);
    }
    if (cs.computes_values()) EXPECT_EQ(back, v);
  });
  EXPECT_EQ(mc.constraints, 256u);
  EXPECT_EQ(mc.aux, 256u);
  TestConstraintSystem cs;
  AllocatedNum::alloc(cs, v).to_bits_le(cs);
  check_flips(cs, 40, 2);  // any bit (or the number) flipped breaks the unpacking
}

TEST(AllocatedNum, ArithmeticAndInputize) {
  std::mt19937_64 rng(2);
  const Fr a = Fr::random(rng), b = Fr::random(rng);
  auto mc = check_modes([&](ConstraintSystem& cs) {
    AllocatedNum x, y;
    {
      auto ns = cs.namespace_("x");
      x = AllocatedNum::alloc(cs, a);
    }
    {
      auto ns = cs.namespace_("y");
      y = AllocatedNum::alloc(cs, b);
    }
    AllocatedNum p, s, inv, sum;
    {
      auto ns = cs.namespace_("mul");
      p = x.mul(cs, y);
    }
    {
      auto ns = cs.namespace_("square");
      s = x.square(cs);
    }
    {
      auto ns = cs.namespace_("inverse");
      inv = x.inverse(cs);
    }
    {
      auto ns = cs.namespace_("add");
      sum = x.add(cs, y);
    }
    {
      auto ns = cs.namespace_("inputize");
      p.inputize(cs);
    }
    if (cs.computes_values()) {
      EXPECT_EQ(p.value(), a * b);
      EXPECT_EQ(s.value(), a * a);
      EXPECT_EQ(inv.value() * a, Fr::one());
      EXPECT_EQ(sum.value(), a + b);
    }
  });
  EXPECT_EQ(mc.constraints, 5u);
  EXPECT_EQ(mc.inputs, 2u);
  TestConstraintSystem zero;
  auto z = AllocatedNum::alloc(zero, Fr::zero());
  EXPECT_THROW(z.inverse(zero), SynthesisError);
  ShapeCounter sc;  // no values in shape mode: no throw
  AllocatedNum::alloc(sc, Fr::zero()).inverse(sc);
  EXPECT_EQ(sc.num_constraints(), 1u);
}

TEST(AllocatedNum, ConditionallyReverseAndPick) {
  for (bool cond : {false, true}) {
    auto mc = check_modes([&](ConstraintSystem& cs) {
      AllocatedNum a, b;
      {
        auto ns = cs.namespace_("a");
        a = AllocatedNum::alloc(cs, Fr::from_u64(11));
      }
      {
        auto ns = cs.namespace_("b");
        b = AllocatedNum::alloc(cs, Fr::from_u64(22));
      }
      Boolean c;
      {
        auto ns = cs.namespace_("cond");
        c = AllocatedBit::alloc(cs, cond);
      }
      std::pair<AllocatedNum, AllocatedNum> r;
      {
        auto ns = cs.namespace_("rev");
        r = AllocatedNum::conditionally_reverse(cs, a, b, c);
      }
      auto p = pick(cs, c, a, b);
      EXPECT_EQ(r.first.value(), Fr::from_u64(cond ? 22 : 11));
      EXPECT_EQ(r.second.value(), Fr::from_u64(cond ? 11 : 22));
      EXPECT_EQ(p.value(), Fr::from_u64(cond ? 11 : 22));
    });
    EXPECT_EQ(mc.constraints, 4u);
  }
  TestConstraintSystem cs;
  auto ns = cs.namespace_("a");
  auto a = AllocatedNum::alloc(cs, Fr::from_u64(5));
  ns.close();
  auto nb = cs.namespace_("b");
  auto b = AllocatedNum::alloc(cs, Fr::from_u64(6));
  nb.close();
  auto c = AllocatedBit::alloc(cs, true);
  pick(cs, c, a, b);
  cs.set("pick result/num", Fr::from_u64(6));
  EXPECT_EQ(cs.which_is_unsatisfied().value_or(""), "pick");
}

TEST(Multipack, PackIntoInputsAndPackBits) {
  std::mt19937_64 rng(3);
  std::vector<bool> raw(300);
  for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = rng() & 1;
  std::vector<bool> raw_copy(raw);
  bool tmp[300];
  for (std::size_t i = 0; i < 300; ++i) tmp[i] = raw[i];
  const auto expect = compute_multipacking(std::span<const bool>(tmp, 300));
  ASSERT_EQ(expect.size(), 2u);
  auto mc = check_modes([&](ConstraintSystem& cs) {
    std::vector<Boolean> bits;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
      bits.push_back(i % 7 == 3 ? Boolean::constant(raw[i]) : Boolean(AllocatedBit::alloc(cs, raw[i])));
    }
    {
      auto ns = cs.namespace_("pack");
      pack_into_inputs(cs, bits);
    }
    auto ns = cs.namespace_("pack_bits");
    auto n = pack_bits(cs, bits);
    if (cs.computes_values()) EXPECT_EQ(n.value(), expect[0]);
  });
  EXPECT_EQ(mc.inputs, 3u);
  EXPECT_EQ(mc.constraints, 300 - 43 + 2 + 1u);  // 43 constant bits (i % 7 == 3)
  TestConstraintSystem cs;
  std::vector<Boolean> bits;
  for (std::size_t i = 0; i < 300; ++i) {
    auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
    bits.push_back(AllocatedBit::alloc(cs, raw[i]));
  }
  pack_into_inputs(cs, bits);
  EXPECT_EQ(cs.input_values()[1], expect[0]);
  EXPECT_EQ(cs.input_values()[2], expect[1]);
  check_flips(cs, 20, 4);
}

}  // namespace
