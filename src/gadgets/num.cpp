// AllocatedNum, packing and Filecoin's small constraint helpers.
#include "proofline/gadgets/num.hpp"

#include <string>

#include "proofline/r1cs/error.hpp"
#include "prover_fast.hpp"

namespace proofline::gadgets {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

namespace {
using fast::kCapacity;
using fast::kOne;
using fast::no_terms;
}  // namespace

AllocatedNum AllocatedNum::alloc(ConstraintSystem& cs, const Fr& value) {
  return AllocatedNum(fast::alloc_value(cs, "num", value), value);
}

AllocatedNum AllocatedNum::alloc_input(ConstraintSystem& cs, const Fr& value) {
  return AllocatedNum(cs.alloc_input("num", [&] { return value; }), value);
}

AllocatedNum AllocatedNum::inputize(ConstraintSystem& cs) const {
  const Variable input = cs.alloc_input("input variable", [&] { return value_; });
  // input · ONE = num
  cs.enforce("enforce input is correct", input, kOne, var_);
  return AllocatedNum(input, value_);
}

std::vector<Boolean> AllocatedNum::to_bits_le(ConstraintSystem& cs) const {
  const std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, value_);
  // 0 · 0 = Σ 2^i·bit_i − num
  cs.enforce("unpacking constraint", no_terms, no_terms, [&](LinearCombination& lc) {
    for (std::size_t i = 0; i < bits.size(); ++i) lc.add(bits[i].variable(), pow2(i));
    lc.sub(var_);
  });
  return std::vector<Boolean>(bits.begin(), bits.end());
}

AllocatedNum AllocatedNum::mul(ConstraintSystem& cs, const AllocatedNum& other) const {
  const Fr v = cs.computes_values() ? value_ * other.value_ : Fr::zero();
  const Variable p = fast::alloc_value(cs, "product num", v);
  // a · b = ab
  cs.enforce("multiplication constraint", var_, other.var_, p);
  return AllocatedNum(p, v);
}

AllocatedNum AllocatedNum::square(ConstraintSystem& cs) const {
  const Fr v = cs.computes_values() ? value_.square() : Fr::zero();
  const Variable s = fast::alloc_value(cs, "squared num", v);
  // a · a = aa
  cs.enforce("squaring constraint", var_, var_, s);
  return AllocatedNum(s, v);
}

AllocatedNum AllocatedNum::inverse(ConstraintSystem& cs) const {
  Fr v = Fr::zero();
  if (cs.computes_values()) {
    if (value_.is_zero()) throw SynthesisError(SynthesisErrorCode::DivisionByZero, "AllocatedNum::inverse of 0");
    v = value_.inverse();
  }
  const Variable inv = cs.alloc("inverse", [&] { return v; });
  // a · inv = ONE
  cs.enforce("inverse constraint", var_, inv, kOne);
  return AllocatedNum(inv, v);
}

AllocatedNum AllocatedNum::add(ConstraintSystem& cs, const AllocatedNum& other) const {
  const Fr v = value_ + other.value_;
  const Variable s = cs.alloc("sum", [&] { return v; });
  // (a + b) · ONE = sum
  cs.enforce(
      "sum constraint", [&](LinearCombination& lc) { lc.add(var_).add(other.var_); }, kOne, s);
  return AllocatedNum(s, v);
}

std::pair<AllocatedNum, AllocatedNum> AllocatedNum::conditionally_reverse(ConstraintSystem& cs, const AllocatedNum& a,
                                                                          const AllocatedNum& b, const Boolean& cond) {
  AllocatedNum c, d;
  {
    auto ns = cs.namespace_("conditional reversal result 1");
    c = alloc(cs, cond.value() ? b.value_ : a.value_);
  }
  // (a − b) · cond = a − c
  cs.enforce(
      "first conditional reversal", [&](LinearCombination& lc) { lc.add(a.var_).sub(b.var_); },
      [&](LinearCombination& lc) { cond.add_to_lc(lc, Fr::one()); },
      [&](LinearCombination& lc) { lc.add(a.var_).sub(c.var_); });
  {
    auto ns = cs.namespace_("conditional reversal result 2");
    d = alloc(cs, cond.value() ? a.value_ : b.value_);
  }
  // (b − a) · cond = b − d
  cs.enforce(
      "second conditional reversal", [&](LinearCombination& lc) { lc.add(b.var_).sub(a.var_); },
      [&](LinearCombination& lc) { cond.add_to_lc(lc, Fr::one()); },
      [&](LinearCombination& lc) { lc.add(b.var_).sub(d.var_); });
  return {c, d};
}

void enforce_equal(ConstraintSystem& cs, r1cs::Name name, const AllocatedNum& a, const AllocatedNum& b) {
  // a · ONE = b
  cs.enforce(name, a.variable(), kOne, b.variable());
}

AllocatedNum pick(ConstraintSystem& cs, const Boolean& cond, const AllocatedNum& a, const AllocatedNum& b) {
  AllocatedNum c;
  {
    auto ns = cs.namespace_("pick result");
    c = AllocatedNum::alloc(cs, cond.value() ? a.value() : b.value());
  }
  // (b − a) · cond = b − c: c = a when cond, else b.
  cs.enforce(
      "pick", [&](LinearCombination& lc) { lc.add(b.variable()).sub(a.variable()); },
      [&](LinearCombination& lc) { cond.add_to_lc(lc, Fr::one()); },
      [&](LinearCombination& lc) { lc.add(b.variable()).sub(c.variable()); });
  return c;
}

void pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits) {
  for (std::size_t start = 0, i = 0; start < bits.size(); start += kCapacity, ++i) {
    const auto chunk = bits.subspan(start, std::min(kCapacity, bits.size() - start));
    Fr value = Fr::zero();
    for (std::size_t k = 0; k < chunk.size(); ++k) {
      if (chunk[k].value()) value += pow2(k);
    }
    const Variable input = cs.alloc_input([&] { return "input " + std::to_string(i); }, [&] { return value; });
    // (Σ 2^k·bit_k) · ONE = input
    cs.enforce(
        [&] { return "packing constraint " + std::to_string(i); },
        [&](LinearCombination& lc) {
          for (std::size_t k = 0; k < chunk.size(); ++k) chunk[k].add_to_lc(lc, pow2(k));
        },
        kOne, input);
  }
}

AllocatedNum pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits) {
  const auto chunk = bits.subspan(0, std::min(kCapacity, bits.size()));
  Fr value = Fr::zero();
  for (std::size_t k = 0; k < chunk.size(); ++k) {
    if (chunk[k].value()) value += pow2(k);
  }
  AllocatedNum num;
  {
    auto ns = cs.namespace_("input");
    num = AllocatedNum::alloc(cs, value);
  }
  // (Σ 2^k·bit_k) · ONE = num
  cs.enforce(
      "packing constraint",
      [&](LinearCombination& lc) {
        for (std::size_t k = 0; k < chunk.size(); ++k) chunk[k].add_to_lc(lc, pow2(k));
      },
      kOne, num.variable());
  return num;
}

std::vector<Fr> compute_multipacking(std::span<const bool> bits) {
  std::vector<Fr> out;
  for (std::size_t start = 0; start < bits.size(); start += kCapacity) {
    Fr v = Fr::zero();
    for (std::size_t k = 0; k < kCapacity && start + k < bits.size(); ++k) {
      if (bits[start + k]) v += pow2(k);
    }
    out.push_back(v);
  }
  return out;
}

}  // namespace proofline::gadgets
