// proofline/gadgets/boolean.hpp — bits in a constraint system: AllocatedBit and Boolean.
//
// Owns: `AllocatedBit` (an aux variable constrained to {0, 1}), `Boolean` (Constant | Is | Not of an
// AllocatedBit), the field constants the bit gadgets share (`pow2(k)` = 2^k), and the helpers that
// turn native values into allocated bits (`field_into_allocated_bits_le`, `u64_into_boolean_vec_le`).
//
// Exact shapes (bellpepper-core `gadgets/boolean.rs`, reference §2.3); every gadget allocates at most
// one variable and enforces at most one constraint, in this order (alloc first, then enforce):
//   AllocatedBit::alloc(v)                  (ONE − v) · v = 0
//   alloc_conditionally(v, f)               (ONE − f − v) · v = 0
//   xor(a, b) → r                           (2a) · b = a + b − r
//   and(a, b) → r                           a · b = r
//   and_not(a, b) → r   (a ∧ ¬b)            a · (ONE − b) = r
//   nor(a, b) → r       (¬a ∧ ¬b)           (ONE − a) · (ONE − b) = r
// Boolean operations fold constants (no constraint when an operand is constant) and map Is/Not
// combinations onto the AllocatedBit gadgets with outer negation, exactly as bellpepper does: the
// choice (and the argument order inside xor) fixes constraint counts and shapes, so it is ported case
// by case and commented there. sha256_ch allocates ch then enforces (b − c)·a = ch − c;
// sha256_maj allocates maj, *then* computes bc = and(b, c), then enforces (2bc − b − c)·a = bc − maj.
//
// `add_to_lc(lc, coeff)` / `sub_from_lc(lc, coeff)` add ±coeff·(this boolean) to an existing
// LinearCombination (Constant(true) → ±coeff·ONE, Is(v) → ±coeff·v, Not(v) → ±coeff·ONE ∓ coeff·v)
// without building a temporary — the same terms bellpepper's `lc + &b.lc(one, coeff)` produces.
//
// Prover fast path (ConstraintSystem::prover_buffers(), src/gadgets/prover_fast.hpp): in prover mode
// these gadgets push the new bit, a, b, c and the density bits directly, evaluating each side on small
// integers from the operands' assigned values (a table lookup instead of LinearCombination building
// and evaluation). Same results as the generic path for every assignment: a non-bit assigned value,
// operands sharing a variable (terms that could cancel) or input variables take the generic path.
// Witness-only mode (ConstraintSystem::witness_only()): new bits are pushed as bits
// (witness_alloc_bits) from their native values; constraints are only counted.
//
// Values: every bit carries its native value (a bool). In modes that do not compute values
// (setup, shape) the values are meaningless but harmless: gadgets never branch on a non-constant
// value in a way that changes the constraint system.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::gadgets {

using ff::Fr;
using r1cs::ConstraintSystem;
using r1cs::LinearCombination;
using r1cs::Variable;

/// 2^k as an Fr (k < 256), from a table built once.
const Fr& pow2(std::size_t k) noexcept;
/// −2^k as an Fr (k < 256).
const Fr& neg_pow2(std::size_t k) noexcept;

inline Fr bool_to_fr(bool b) noexcept { return b ? Fr::one() : Fr::zero(); }

class AllocatedBit {
 public:
  AllocatedBit() = default;
  AllocatedBit(Variable v, bool value) noexcept : var_(v), value_(value) {}

  /// New bit with value `value`: 1 aux, (ONE − v)·v = 0.
  static AllocatedBit alloc(ConstraintSystem& cs, bool value);
  /// New bit that must be false when `must_be_false` is true: (ONE − f − v)·v = 0.
  static AllocatedBit alloc_conditionally(ConstraintSystem& cs, bool value, const AllocatedBit& must_be_false);
  /// a ⊕ b: (2a)·b = a + b − r.
  static AllocatedBit xor_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  /// a ∧ b: a·b = r.
  static AllocatedBit and_(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  /// a ∧ ¬b: a·(ONE − b) = r.
  static AllocatedBit and_not(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);
  /// ¬a ∧ ¬b: (ONE − a)·(ONE − b) = r.
  static AllocatedBit nor(ConstraintSystem& cs, const AllocatedBit& a, const AllocatedBit& b);

  Variable variable() const noexcept { return var_; }
  bool value() const noexcept { return value_; }

 private:
  Variable var_{};
  bool value_ = false;
};

class Boolean {
 public:
  enum class Kind : std::uint8_t { Constant, Is, Not };

  /// Constant(false).
  constexpr Boolean() noexcept = default;
  /// Is(bit).
  Boolean(const AllocatedBit& bit) noexcept  // NOLINT: implicit, as bellpepper's From<AllocatedBit>
      : var_(bit.variable()), bit_value_(bit.value()), kind_(Kind::Is) {}

  static constexpr Boolean constant(bool b) noexcept {
    Boolean r;
    r.bit_value_ = b;
    return r;
  }
  static Boolean is(const AllocatedBit& bit) noexcept { return Boolean(bit); }
  static Boolean not_of(const AllocatedBit& bit) noexcept {
    Boolean r(bit);
    r.kind_ = Kind::Not;
    return r;
  }

  Kind kind() const noexcept { return kind_; }
  bool is_constant() const noexcept { return kind_ == Kind::Constant; }
  /// The boolean's value (for Not: the negation of the bit's value).
  bool value() const noexcept { return kind_ == Kind::Not ? !bit_value_ : bit_value_; }
  /// The underlying bit (Is / Not only).
  AllocatedBit bit() const noexcept { return AllocatedBit(var_, bit_value_); }
  Variable variable() const noexcept { return var_; }

  /// ¬this (no constraint): Constant(c) → Constant(!c), Is ↔ Not.
  Boolean not_() const noexcept {
    Boolean r = *this;
    if (kind_ == Kind::Constant) r.bit_value_ = !bit_value_;
    else r.kind_ = kind_ == Kind::Is ? Kind::Not : Kind::Is;
    return r;
  }

  /// lc += coeff · this.
  void add_to_lc(LinearCombination& lc, const Fr& coeff) const {
    switch (kind_) {
      case Kind::Constant:
        if (bit_value_) lc.add(ConstraintSystem::one(), coeff);
        break;
      case Kind::Is: lc.add(var_, coeff); break;
      case Kind::Not:
        lc.add(ConstraintSystem::one(), coeff);
        lc.sub(var_, coeff);
        break;
    }
  }
  /// lc −= coeff · this.
  void sub_from_lc(LinearCombination& lc, const Fr& coeff) const {
    switch (kind_) {
      case Kind::Constant:
        if (bit_value_) lc.sub(ConstraintSystem::one(), coeff);
        break;
      case Kind::Is: lc.sub(var_, coeff); break;
      case Kind::Not:
        lc.sub(ConstraintSystem::one(), coeff);
        lc.add(var_, coeff);
        break;
    }
  }
  /// coeff · this as a new LinearCombination (bellpepper's Boolean::lc).
  LinearCombination lc(const Fr& coeff) const {
    LinearCombination r;
    add_to_lc(r, coeff);
    return r;
  }

  /// a ⊕ b with constant folding.
  static Boolean xor_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  /// a ∧ b with constant folding.
  static Boolean and_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  /// a ∨ b = ¬(¬a ∧ ¬b) (inside namespace "not and (not a) (not b)").
  static Boolean or_(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
  /// (a ∧ b) ⊕ (¬a ∧ c).
  static Boolean sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
  /// (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c).
  static Boolean sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
  /// Enforces a = b (0 = 0 · 0 shaped: A = B = 0, C = a − b, folded against constants). Throws
  /// SynthesisError(Unsatisfiable) for two different constants.
  static void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

 private:
  Variable var_{};
  bool bit_value_ = false;  // Constant: the constant; Is/Not: the underlying bit's value
  Kind kind_ = Kind::Constant;
};

/// Allocates the 255 (Fr::NUM_BITS) bits of `value`, little-endian (bit 0 first), each in namespace
/// "bit i" with one boolean constraint.
std::vector<AllocatedBit> field_into_allocated_bits_le(ConstraintSystem& cs, const Fr& value);
/// Allocates the 64 bits of `value`, little-endian, each in namespace "bit i".
std::vector<Boolean> u64_into_boolean_vec_le(ConstraintSystem& cs, std::uint64_t value);

/// Bits of `bytes`, most significant bit of each byte first (the SHA-256 bit stream), as constants.
std::vector<Boolean> bytes_to_constant_bits_be(std::span<const std::uint8_t> bytes);
/// Packs booleans (MSB first within each byte) back into bytes (values only).
std::vector<std::uint8_t> bits_be_to_bytes(std::span<const Boolean> bits);
/// Reverses the bit order within each group of 8 (`reverse_bit_numbering`); size must be a multiple
/// of 8.
std::vector<Boolean> reverse_bit_numbering(std::span<const Boolean> bits);

}  // namespace proofline::gadgets
