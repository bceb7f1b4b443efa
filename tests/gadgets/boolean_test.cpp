// Boolean / AllocatedBit: values, constant folding (constraint counts), exact shapes, all modes.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gadget_test_util.hpp"
#include "proofline/gadgets/boolean.hpp"

namespace {

using namespace proofline::gadgets;
using namespace proofline::gadget_test;

// The six kinds of operand: Constant(false), Constant(true), Is(0), Is(1), Not(0), Not(1).
Boolean make(ConstraintSystem& cs, int kind) {
  switch (kind) {
    case 0: return Boolean::constant(false);
    case 1: return Boolean::constant(true);
    case 2: return Boolean(AllocatedBit::alloc(cs, false));
    case 3: return Boolean(AllocatedBit::alloc(cs, true));
    case 4: return Boolean::not_of(AllocatedBit::alloc(cs, false));
    default: return Boolean::not_of(AllocatedBit::alloc(cs, true));
  }
}
bool is_const(int k) { return k < 2; }

TEST(AllocatedBit, ShapeAndTampering) {
  TestConstraintSystem cs;
  auto b = AllocatedBit::alloc(cs, true);
  EXPECT_EQ(cs.get("boolean"), Fr::one());
  EXPECT_EQ(cs.num_constraints(), 1u);
  // (ONE − v) · v = 0
  const auto& c = cs.constraints()[0];
  EXPECT_EQ(c.a.coeff_of(ConstraintSystem::one()), Fr::one());
  EXPECT_EQ(c.a.coeff_of(b.variable()), -Fr::one());
  EXPECT_EQ(c.b.coeff_of(b.variable()), Fr::one());
  EXPECT_TRUE(c.c.empty());
  cs.set("boolean", Fr::zero());
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("boolean", Fr::from_u64(2));
  EXPECT_FALSE(cs.is_satisfied());
}

TEST(AllocatedBit, Conditionally) {
  for (bool f : {false, true}) {
    for (bool v : {false, true}) {
      TestConstraintSystem cs;
      AllocatedBit mbf;
      {
        auto ns = cs.namespace_("f");
        mbf = AllocatedBit::alloc(cs, f);
      }
      AllocatedBit::alloc_conditionally(cs, v, mbf);
      EXPECT_EQ(cs.is_satisfied(), !(f && v)) << f << v;
    }
  }
}

TEST(AllocatedBit, XorShape) {
  TestConstraintSystem cs;
  AllocatedBit a, b;
  {
    auto ns = cs.namespace_("a");
    a = AllocatedBit::alloc(cs, true);
  }
  {
    auto ns = cs.namespace_("b");
    b = AllocatedBit::alloc(cs, false);
  }
  auto r = AllocatedBit::xor_(cs, a, b);
  EXPECT_TRUE(r.value());
  ASSERT_EQ(cs.num_constraints(), 3u);
  // (2a) · b = a + b − r
  const auto& c = cs.constraints()[2];
  EXPECT_EQ(c.path, "xor constraint");
  EXPECT_EQ(c.a.size(), 1u);
  EXPECT_EQ(c.a.coeff_of(a.variable()), Fr::from_u64(2));
  EXPECT_EQ(c.b.coeff_of(b.variable()), Fr::one());
  EXPECT_EQ(c.c.coeff_of(a.variable()), Fr::one());
  EXPECT_EQ(c.c.coeff_of(b.variable()), Fr::one());
  EXPECT_EQ(c.c.coeff_of(r.variable()), -Fr::one());
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("xor result", Fr::zero());
  EXPECT_FALSE(cs.is_satisfied());
}

TEST(Boolean, BinaryOpsAllKinds) {
  for (int ka = 0; ka < 6; ++ka) {
    for (int kb = 0; kb < 6; ++kb) {
      for (int op = 0; op < 3; ++op) {
        TestConstraintSystem cs;
        Boolean a, b;
        {
          auto ns = cs.namespace_("a");
          a = make(cs, ka);
        }
        {
          auto ns = cs.namespace_("b");
          b = make(cs, kb);
        }
        const std::size_t before = cs.num_constraints();
        Boolean r;
        bool expect;
        if (op == 0) {
          r = Boolean::xor_(cs, a, b);
          expect = a.value() != b.value();
        } else if (op == 1) {
          r = Boolean::and_(cs, a, b);
          expect = a.value() && b.value();
        } else {
          r = Boolean::or_(cs, a, b);
          expect = a.value() || b.value();
        }
        EXPECT_EQ(r.value(), expect);
        EXPECT_TRUE(cs.is_satisfied());
        // Constant folding: no constraint when an operand is constant, else exactly one.
        const std::size_t added = cs.num_constraints() - before;
        EXPECT_EQ(added, (is_const(ka) || is_const(kb)) ? 0u : 1u) << ka << kb << op;
        if (!r.is_constant()) {
          // r is constrained: flipping its bit breaks the system (if r was allocated here).
          if (added == 1) {
            const std::string path = cs.aux_path(r.variable().index());
            const Fr old = cs.get(path);
            cs.set(path, Fr::one() - old);
            EXPECT_FALSE(cs.is_satisfied());
          }
        }
      }
    }
  }
}

TEST(Boolean, XorNotIsOrderPutsIsFirst) {
  // (Not a) ⊕ (Is b) = ¬(b ⊕ a): the xor's doubled operand is b.
  TestConstraintSystem cs;
  AllocatedBit a, b;
  {
    auto ns = cs.namespace_("a");
    a = AllocatedBit::alloc(cs, true);
  }
  {
    auto ns = cs.namespace_("b");
    b = AllocatedBit::alloc(cs, true);
  }
  auto r = Boolean::xor_(cs, Boolean::not_of(a), Boolean(b));
  EXPECT_EQ(r.kind(), Boolean::Kind::Not);
  EXPECT_TRUE(r.value());
  EXPECT_EQ(cs.constraints().back().a.coeff_of(b.variable()), Fr::from_u64(2));
}

TEST(Boolean, ChMajAllKinds) {
  for (int ka = 0; ka < 6; ++ka) {
    for (int kb = 0; kb < 6; ++kb) {
      for (int kc = 0; kc < 6; ++kc) {
        for (int op = 0; op < 2; ++op) {
          TestConstraintSystem cs;
          Boolean a, b, c;
          {
            auto ns = cs.namespace_("a");
            a = make(cs, ka);
          }
          {
            auto ns = cs.namespace_("b");
            b = make(cs, kb);
          }
          {
            auto ns = cs.namespace_("c");
            c = make(cs, kc);
          }
          const bool av = a.value(), bv = b.value(), cv = c.value();
          const std::size_t before = cs.num_constraints();
          Boolean r = op == 0 ? Boolean::sha256_ch(cs, a, b, c) : Boolean::sha256_maj(cs, a, b, c);
          const bool expect = op == 0 ? ((av && bv) != (!av && cv)) : ((av && bv) != (av && cv)) != (bv && cv);
          EXPECT_EQ(r.value(), expect) << ka << kb << kc << op;
          EXPECT_TRUE(cs.is_satisfied()) << ka << kb << kc << op;
          const std::size_t added = cs.num_constraints() - before;
          const int n_const = is_const(ka) + is_const(kb) + is_const(kc);
          if (n_const == 3) EXPECT_EQ(added, 0u);
          if (n_const == 0) EXPECT_EQ(added, op == 0 ? 1u : 2u);  // maj: maj + (b ∧ c)
          // ch with a = true and b, c allocated falls through to the general gadget (1 constraint).
          if (op == 0 && ka == 1 && !is_const(kb) && !is_const(kc)) EXPECT_EQ(added, 1u);
          if (op == 0 && ka == 0) EXPECT_EQ(added, 0u);
        }
      }
    }
  }
}

TEST(Boolean, EnforceEqual) {
  for (int ka = 0; ka < 6; ++ka) {
    for (int kb = 0; kb < 6; ++kb) {
      TestConstraintSystem cs;
      Boolean a, b;
      {
        auto ns = cs.namespace_("a");
        a = make(cs, ka);
      }
      {
        auto ns = cs.namespace_("b");
        b = make(cs, kb);
      }
      if (is_const(ka) && is_const(kb)) {
        if (a.value() == b.value()) {
          Boolean::enforce_equal(cs, a, b);
        } else {
          EXPECT_THROW(Boolean::enforce_equal(cs, a, b), SynthesisError);
        }
        continue;
      }
      Boolean::enforce_equal(cs, a, b);
      EXPECT_EQ(cs.is_satisfied(), a.value() == b.value()) << ka << kb;
    }
  }
}

TEST(Boolean, AddToLcMatchesLc) {
  TestConstraintSystem cs;
  auto bit = AllocatedBit::alloc(cs, true);
  const Fr c = Fr::from_u64(12345);
  for (Boolean b : {Boolean::constant(false), Boolean::constant(true), Boolean(bit), Boolean::not_of(bit)}) {
    LinearCombination lc;
    lc.add(ConstraintSystem::one(), Fr::from_u64(7));
    b.add_to_lc(lc, c);
    LinearCombination ref;
    ref.add(ConstraintSystem::one(), Fr::from_u64(7));
    ref.add(b.lc(c));
    EXPECT_EQ(lc, ref);
    b.sub_from_lc(lc, c);
    ref.sub(b.lc(c));
    EXPECT_EQ(lc, ref);
  }
}

TEST(Boolean, FieldIntoBitsAndModes) {
  std::mt19937_64 rng(7);
  const Fr v = Fr::random(rng);
  auto counts = check_modes([&](ConstraintSystem& cs) {
    auto bits = field_into_allocated_bits_le(cs, v);
    ASSERT_EQ(bits.size(), 255u);
    if (cs.computes_values()) {
      const auto limbs = v.to_canonical();
      for (std::size_t i = 0; i < 255; ++i) EXPECT_EQ(bits[i].value(), ((limbs[i / 64] >> (i % 64)) & 1) != 0);
    }
  });
  EXPECT_EQ(counts.constraints, 255u);
  TestConstraintSystem tcs;
  field_into_allocated_bits_le(tcs, v);
  EXPECT_EQ(tcs.aux_path(3), "bit 3/boolean");
  // Bits alone are only boolean-constrained: a value of 2 breaks them.
  tcs.set("bit 17/boolean", Fr::from_u64(2));
  EXPECT_FALSE(tcs.is_satisfied());
}

TEST(Boolean, U64IntoBits) {
  TestConstraintSystem cs;
  auto bits = u64_into_boolean_vec_le(cs, 0x8000000000000005ull);
  ASSERT_EQ(bits.size(), 64u);
  EXPECT_TRUE(bits[0].value());
  EXPECT_FALSE(bits[1].value());
  EXPECT_TRUE(bits[2].value());
  EXPECT_TRUE(bits[63].value());
  EXPECT_EQ(cs.num_constraints(), 64u);
}

}  // namespace
