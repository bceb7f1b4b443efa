// AllocatedBit and Boolean: bellpepper-core's bit gadgets with their exact constraint shapes.
#include "proofline/gadgets/boolean.hpp"

#include <array>
#include <string>

#include "proofline/r1cs/error.hpp"
#include "prover_fast.hpp"

namespace proofline::gadgets {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

namespace {

struct Pow2Tables {
  std::array<Fr, 256> pos, neg;
  Pow2Tables() {
    Fr p = Fr::one();
    for (std::size_t k = 0; k < 256; ++k) {
      pos[k] = p;
      neg[k] = -p;
      p = p.dbl();
    }
  }
};
const Pow2Tables& tables() {
  static const Pow2Tables t;
  return t;
}
// Touch the tables at start-up so that hot paths never hit the static-init guard's slow path.
[[maybe_unused]] const Pow2Tables& g_tables_init = tables();

using fast::alloc_bit;
using fast::kOne;
using fast::no_terms;

}  // namespace

const Fr& pow2(std::size_t k) noexcept { return tables().pos[k]; }
const Fr& neg_pow2(std::size_t k) noexcept { return tables().neg[k]; }

// ---- AllocatedBit ----------------------------------------------------------------------------

AllocatedBit AllocatedBit::alloc(ConstraintSystem& cs, bool value) {
  if (cs.prover_buffers() != nullptr) return AllocatedBit(fast::alloc_boolean(cs, value), value);
  if (cs.witness_only()) return AllocatedBit(Variable::aux(fast::witness_bits(cs, value, 1)), value);
  const Variable v = cs.alloc("boolean", [&] { return bool_to_fr(value); });
  // (ONE − v) · v = 0: v ∈ {0, 1}.
  cs.enforce(
      "boolean constraint", [&](LinearCombination& lc) { lc.add(kOne).sub(v); }, v, no_terms);
  return AllocatedBit(v, value);
}

AllocatedBit AllocatedBit::alloc_conditionally(ConstraintSystem& cs, bool value, const AllocatedBit& must_be_false) {
  const Variable v = cs.alloc("boolean", [&] { return bool_to_fr(value); });
  // (ONE − f − v) · v = 0: v ∈ {0, 1}, and v = 0 when f = 1.
  cs.enforce(
      "boolean constraint",
      [&](LinearCombination& lc) { lc.add(kOne).sub(must_be_false.variable()).sub(v); }, v, no_terms);
  return AllocatedBit(v, value);
}

AllocatedBit AllocatedBit::xor_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  AllocatedBit out;
  if (cs.prover_buffers() != nullptr && fast::try_xor(cs, a, b, out)) return out;
  const bool r = a.value() != b.value();
  const Variable rv = alloc_bit(cs, "xor result", r);
  // (a + a) · b = a + b − r:  2ab = a + b − (a ⊕ b).
  cs.enforce(
      "xor constraint", [&](LinearCombination& lc) { lc.add(a.variable()).add(a.variable()); }, b.variable(),
      [&](LinearCombination& lc) { lc.add(a.variable()).add(b.variable()).sub(rv); });
  return AllocatedBit(rv, r);
}

AllocatedBit AllocatedBit::and_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool r = a.value() && b.value();
  const Variable rv = alloc_bit(cs, "and result", r);
  // a · b = r (three variables: ConstraintSystem's own prover fast path)
  cs.enforce("and constraint", a.variable(), b.variable(), rv);
  return AllocatedBit(rv, r);
}

AllocatedBit AllocatedBit::and_not(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool r = a.value() && !b.value();
  const Variable rv = alloc_bit(cs, "and not result", r);
  if (cs.prover_buffers() != nullptr && b.variable().is_aux()) {
    const int x = fast::var_bit(cs, a.variable()), y = fast::var_bit(cs, b.variable());
    if ((x | y) >= 0) {  // A = a, B = ONE − b (b ≠ ONE, so both B terms are nonzero), C = r
      cs.prover_dense_in_a(a.variable());
      cs.prover_dense_in_b(kOne);
      cs.prover_dense_in_b(b.variable());
      cs.prover_enforce(fast::small(x), fast::small(1 - y), fast::small(r));
      return AllocatedBit(rv, r);
    }
  }
  // a · (ONE − b) = r
  cs.enforce(
      "and not constraint", a.variable(), [&](LinearCombination& lc) { lc.add(kOne).sub(b.variable()); }, rv);
  return AllocatedBit(rv, r);
}

AllocatedBit AllocatedBit::nor(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b) {
  const bool r = !a.value() && !b.value();
  const Variable rv = alloc_bit(cs, "nor result", r);
  if (cs.prover_buffers() != nullptr && a.variable().is_aux() && b.variable().is_aux()) {
    const int x = fast::var_bit(cs, a.variable()), y = fast::var_bit(cs, b.variable());
    if ((x | y) >= 0) {  // A = ONE − a, B = ONE − b, C = r (a, b ≠ ONE: no term cancels)
      cs.prover_dense_in_a(a.variable());
      cs.prover_dense_in_b(kOne);
      cs.prover_dense_in_b(b.variable());
      cs.prover_enforce(fast::small(1 - x), fast::small(1 - y), fast::small(r));
      return AllocatedBit(rv, r);
    }
  }
  // (ONE − a) · (ONE − b) = r
  cs.enforce(
      "nor constraint", [&](LinearCombination& lc) { lc.add(kOne).sub(a.variable()); },
      [&](LinearCombination& lc) { lc.add(kOne).sub(b.variable()); }, rv);
  return AllocatedBit(rv, r);
}

// ---- Boolean ---------------------------------------------------------------------------------

Boolean Boolean::xor_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  using K = Kind;
  // Arms in bellpepper's order: false ⊕ x = x, true ⊕ x = ¬x (a checked before b).
  if (a.kind_ == K::Constant && !a.bit_value_) return b;
  if (b.kind_ == K::Constant && !b.bit_value_) return a;
  if (a.kind_ == K::Constant) return b.not_();
  if (b.kind_ == K::Constant) return a.not_();
  // a ⊕ ¬b = ¬(a ⊕ b): the Is operand is the xor's first argument in both orders.
  if (a.kind_ == K::Is && b.kind_ == K::Not) return Boolean(AllocatedBit::xor_(cs, a.bit(), b.bit())).not_();
  if (a.kind_ == K::Not && b.kind_ == K::Is) return Boolean(AllocatedBit::xor_(cs, b.bit(), a.bit())).not_();
  // a ⊕ b = ¬a ⊕ ¬b
  return Boolean(AllocatedBit::xor_(cs, a.bit(), b.bit()));
}

Boolean Boolean::and_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  using K = Kind;
  if ((a.kind_ == K::Constant && !a.bit_value_) || (b.kind_ == K::Constant && !b.bit_value_)) {
    return Boolean::constant(false);
  }
  if (a.kind_ == K::Constant) return b;  // true ∧ x = x
  if (b.kind_ == K::Constant) return a;
  if (a.kind_ == K::Is && b.kind_ == K::Not) return Boolean(AllocatedBit::and_not(cs, a.bit(), b.bit()));
  if (a.kind_ == K::Not && b.kind_ == K::Is) return Boolean(AllocatedBit::and_not(cs, b.bit(), a.bit()));
  if (a.kind_ == K::Not) return Boolean(AllocatedBit::nor(cs, a.bit(), b.bit()));  // ¬a ∧ ¬b
  return Boolean(AllocatedBit::and_(cs, a.bit(), b.bit()));
}

Boolean Boolean::or_(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  auto ns = cs.namespace_("not and (not a) (not b)");
  return and_(cs, a.not_(), b.not_()).not_();
}

Boolean Boolean::sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool ch_value = (a.value() && b.value()) != (!a.value() && c.value());
  const bool ca = a.is_constant(), cb = b.is_constant(), cc = c.is_constant();
  if (ca && cb && cc) return Boolean::constant(ch_value);
  if (ca && !a.bit_value_) return c;                                // a = 0: c
  if (cb && !b.bit_value_) return and_(cs, a.not_(), c);            // b = 0: ¬a ∧ c
  if (cc && !c.bit_value_) return and_(cs, a, b);                   // c = 0: a ∧ b
  if (cc) return and_(cs, a, b.not_()).not_();                      // c = 1: ¬(a ∧ ¬b)
  if (cb) return and_(cs, a.not_(), c.not_()).not_();               // b = 1: ¬(¬a ∧ ¬c)
  // a = 1 (b, c allocated) and the all-allocated cases: one variable, one constraint.
  const Variable ch = alloc_bit(cs, "ch", ch_value);
  // Here b and c are not constant. Fast path unless b and c share a variable (their A terms could
  // cancel) or a variable is an input (ONE terms could merge).
  if (cs.prover_buffers() != nullptr && b.variable() != c.variable() && b.variable().is_aux() &&
      c.variable().is_aux() && fast::aux_or_constant(a)) {
    const int x = fast::bool_bit(cs, a), y = fast::bool_bit(cs, b), z = fast::bool_bit(cs, c);
    if ((x | y | z) >= 0) {  // A = b − c, B = a, C = ch − c
      cs.prover_dense_in_a(b.variable());
      cs.prover_dense_in_a(c.variable());
      fast::dense_in_b(cs, a);
      cs.prover_enforce(fast::small(y - z), fast::small(x), fast::small(static_cast<int>(ch_value) - z));
      return Boolean(AllocatedBit(ch, ch_value));
    }
  }
  // (b − c) · a = ch − c:  a(b − c) + c = (a ∧ b) ⊕ (¬a ∧ c).
  cs.enforce(
      "ch computation",
      [&](LinearCombination& lc) {
        b.add_to_lc(lc, Fr::one());
        c.sub_from_lc(lc, Fr::one());
      },
      [&](LinearCombination& lc) { a.add_to_lc(lc, Fr::one()); },
      [&](LinearCombination& lc) {
        lc.add(ch);
        c.sub_from_lc(lc, Fr::one());
      });
  return Boolean(AllocatedBit(ch, ch_value));
}

Boolean Boolean::sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool av = a.value(), bv = b.value(), cv = c.value();
  const bool maj_value = ((av && bv) != (av && cv)) != (bv && cv);
  const bool ca = a.is_constant(), cb = b.is_constant(), cc = c.is_constant();
  if (ca && cb && cc) return Boolean::constant(maj_value);
  if (ca && !a.bit_value_) return and_(cs, b, c);                     // a = 0: b ∧ c
  if (cb && !b.bit_value_) return and_(cs, a, c);                     // b = 0: a ∧ c
  if (cc && !c.bit_value_) return and_(cs, a, b);                     // c = 0: a ∧ b
  if (cc) return and_(cs, a.not_(), b.not_()).not_();                 // c = 1: a ∨ b
  if (cb) return and_(cs, a.not_(), c.not_()).not_();                 // b = 1: a ∨ c
  if (ca) return and_(cs, b.not_(), c.not_()).not_();                 // a = 1: b ∨ c
  // maj = a(b + c − 2bc) + bc. maj is allocated before bc (order matters).
  const Variable maj = alloc_bit(cs, "maj", maj_value);
  Boolean bc;
  {
    auto ns = cs.namespace_("b and c");
    bc = and_(cs, b, c);
  }
  // Here a, b, c are not constant and bc = Is(new bit). Fast path unless b and c share a variable
  // (their A terms could cancel) or a variable is an input (ONE terms could merge).
  if (cs.prover_buffers() != nullptr && b.variable() != c.variable() && a.variable().is_aux() &&
      b.variable().is_aux() && c.variable().is_aux() && bc.kind() == Kind::Is) {
    const int x = fast::bool_bit(cs, a), y = fast::bool_bit(cs, b), z = fast::bool_bit(cs, c);
    const int w = fast::bool_bit(cs, bc);
    if ((x | y | z | w) >= 0) {  // A = 2bc − b − c, B = a, C = bc − maj
      cs.prover_dense_in_a(bc.variable());
      cs.prover_dense_in_a(b.variable());
      cs.prover_dense_in_a(c.variable());
      fast::dense_in_b(cs, a);
      cs.prover_enforce(fast::small(2 * w - y - z), fast::small(x), fast::small(w - static_cast<int>(maj_value)));
      return Boolean(AllocatedBit(maj, maj_value));
    }
  }
  // (2bc − b − c) · a = bc − maj
  cs.enforce(
      "maj computation",
      [&](LinearCombination& lc) {
        bc.add_to_lc(lc, Fr::one());
        bc.add_to_lc(lc, Fr::one());
        b.sub_from_lc(lc, Fr::one());
        c.sub_from_lc(lc, Fr::one());
      },
      [&](LinearCombination& lc) { a.add_to_lc(lc, Fr::one()); },
      [&](LinearCombination& lc) {
        bc.add_to_lc(lc, Fr::one());
        lc.sub(maj);
      });
  return Boolean(AllocatedBit(maj, maj_value));
}

void Boolean::enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  const bool ca = a.is_constant(), cb = b.is_constant();
  if (ca && cb) {
    if (a.bit_value_ != b.bit_value_) {
      throw SynthesisError(SynthesisErrorCode::Unsatisfiable, "enforce_equal of two different constant booleans");
    }
    return;
  }
  if ((ca && a.bit_value_) || (cb && b.bit_value_)) {
    const Boolean& x = (ca && a.bit_value_) ? b : a;
    // 0 · 0 = ONE − x
    cs.enforce("enforce equal to one", no_terms, no_terms, [&](LinearCombination& lc) {
      lc.add(kOne);
      x.sub_from_lc(lc, Fr::one());
    });
    return;
  }
  if (ca || cb) {
    const Boolean& x = ca ? b : a;
    // 0 · 0 = x
    cs.enforce("enforce equal to zero", no_terms, no_terms,
               [&](LinearCombination& lc) { x.add_to_lc(lc, Fr::one()); });
    return;
  }
  // 0 · 0 = a − b
  cs.enforce("enforce equal", no_terms, no_terms, [&](LinearCombination& lc) {
    a.add_to_lc(lc, Fr::one());
    b.sub_from_lc(lc, Fr::one());
  });
}

// ---- bit helpers -------------------------------------------------------------------------------

std::vector<AllocatedBit> field_into_allocated_bits_le(ConstraintSystem& cs, const Fr& value) {
  constexpr std::size_t kBits = 255;  // Fr::NUM_BITS
  std::vector<AllocatedBit> bits;
  bits.reserve(kBits);
  const auto limbs = cs.computes_values() ? value.to_canonical() : Fr::Limbs{};
  for (std::size_t i = 0; i < kBits; ++i) {
    const bool b = (limbs[i / 64] >> (i % 64)) & 1;
    auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
    bits.push_back(AllocatedBit::alloc(cs, b));
  }
  return bits;
}

std::vector<Boolean> u64_into_boolean_vec_le(ConstraintSystem& cs, std::uint64_t value) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  for (std::size_t i = 0; i < 64; ++i) {
    auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
    bits.push_back(AllocatedBit::alloc(cs, (value >> i) & 1));
  }
  return bits;
}

std::vector<Boolean> bytes_to_constant_bits_be(std::span<const std::uint8_t> bytes) {
  std::vector<Boolean> bits;
  bits.reserve(bytes.size() * 8);
  for (std::uint8_t byte : bytes) {
    for (int i = 7; i >= 0; --i) bits.push_back(Boolean::constant((byte >> i) & 1));
  }
  return bits;
}

std::vector<std::uint8_t> bits_be_to_bytes(std::span<const Boolean> bits) {
  std::vector<std::uint8_t> out((bits.size() + 7) / 8, 0);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (bits[i].value()) out[i / 8] |= static_cast<std::uint8_t>(0x80u >> (i % 8));
  }
  return out;
}

std::vector<Boolean> reverse_bit_numbering(std::span<const Boolean> bits) {
  if (bits.size() % 8 != 0) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "reverse_bit_numbering: " + std::to_string(bits.size()) + " bits, not a multiple of 8");
  }
  std::vector<Boolean> out;
  out.reserve(bits.size());
  for (std::size_t i = 0; i < bits.size(); i += 8) {
    for (std::size_t j = 8; j-- > 0;) out.push_back(bits[i + j]);
  }
  return out;
}

}  // namespace proofline::gadgets
