// proofline/gadgets/num.hpp — field elements in a constraint system: AllocatedNum, Num, packing.
//
// Owns: `AllocatedNum` (an aux or input variable with its value), `Num` (a value with the
// LinearCombination that computes it, no variable), and the packing gadgets of bellperson's
// multipack (`pack_into_inputs`, `pack_bits`) and Filecoin's constraint helpers (`equal`, `add`,
// `pick`).
//
// Exact shapes (bellpepper-core `gadgets/num.rs`, bellperson `gadgets/multipack.rs`,
// storage-proofs-core `gadgets/{constraint,insertion,multipack}.rs`; reference §2.3, §3.1):
//   alloc                   1 aux ("num"), no constraint
//   inputize                1 input ("input variable"), input · ONE = num
//   to_bits_le              255 AllocatedBits ("bit i", 1 constraint each), then
//                           0 · 0 = Σ 2^i·bit_i − num ("unpacking constraint"): 256 constraints,
//                           non-strict (bits may encode num + r)
//   mul / square            1 aux, a · b = ab / a · a = aa
//   inverse                 1 aux, a · inv = ONE (throws DivisionByZero for a value of 0 when values
//                           are computed)
//   conditionally_reverse   2 aux, (a − b) · cond = a − c, (b − a) · cond = b − d
//   add                     1 aux, (a + b) · ONE = sum
//   equal(a, b)             a · ONE = b
//   pick(cond, a, b)        1 aux, (b − a) · cond = b − c     (c = cond ? a : b)
//   pack_into_inputs(bits)  per 254-bit chunk: 1 input, (Σ 2^i·bit_i) · ONE = input
//   pack_bits(bits)         1 aux ("input"), (Σ_{i<254} 2^i·bit_i) · ONE = num
// In prover mode alloc, mul and square push their value directly (ConstraintSystem::prover_alloc) and
// three-variable constraints take the constraint system's own fast path; in witness-only mode they
// push it with witness_alloc (constraints are only counted there); results are unchanged.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "proofline/gadgets/boolean.hpp"

namespace proofline::gadgets {

/// A value and the linear combination that computes it (bellpepper's Num).
struct Num {
  Fr value = Fr::zero();
  LinearCombination lc;

  /// += coeff · bit (value and terms).
  Num& add_bool_with_coeff(const Boolean& bit, const Fr& coeff) {
    if (bit.value()) value += coeff;
    bit.add_to_lc(lc, coeff);
    return *this;
  }
};

class AllocatedNum {
 public:
  AllocatedNum() = default;
  AllocatedNum(Variable v, const Fr& value) noexcept : var_(v), value_(value) {}

  /// New aux variable named "num" with value `value`.
  static AllocatedNum alloc(ConstraintSystem& cs, const Fr& value);
  /// New input variable named "num" with value `value`.
  static AllocatedNum alloc_input(ConstraintSystem& cs, const Fr& value);

  Variable variable() const noexcept { return var_; }
  const Fr& value() const noexcept { return value_; }

  /// Exposes the value as a new public input: input · ONE = num.
  AllocatedNum inputize(ConstraintSystem& cs) const;
  /// 255 little-endian bits + the unpacking constraint (256 constraints).
  std::vector<Boolean> to_bits_le(ConstraintSystem& cs) const;
  AllocatedNum mul(ConstraintSystem& cs, const AllocatedNum& other) const;
  AllocatedNum square(ConstraintSystem& cs) const;
  /// 1/num: one aux, num · inv = ONE.
  AllocatedNum inverse(ConstraintSystem& cs) const;
  /// (a + b) · ONE = sum (Filecoin's constraint::add).
  AllocatedNum add(ConstraintSystem& cs, const AllocatedNum& other) const;
  /// (c, d) = cond ? (b, a) : (a, b).
  static std::pair<AllocatedNum, AllocatedNum> conditionally_reverse(ConstraintSystem& cs, const AllocatedNum& a,
                                                                     const AllocatedNum& b, const Boolean& cond);

 private:
  Variable var_{};
  Fr value_ = Fr::zero();
};

/// a · ONE = b, named `name`.
void enforce_equal(ConstraintSystem& cs, r1cs::Name name, const AllocatedNum& a, const AllocatedNum& b);
/// cond ? a : b, one aux ("pick result") and (b − a) · cond = b − c ("pick").
AllocatedNum pick(ConstraintSystem& cs, const Boolean& cond, const AllocatedNum& a, const AllocatedNum& b);

/// Packs `bits` (LSB first) into public inputs, 254 bits per input ("input i" /
/// "packing constraint i").
void pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits);
/// Packs the first min(254, n) bits (LSB first) into one aux variable.
AllocatedNum pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits);
/// Native: the field elements pack_into_inputs produces for `bits` (LSB first per element).
std::vector<Fr> compute_multipacking(std::span<const bool> bits);

}  // namespace proofline::gadgets
