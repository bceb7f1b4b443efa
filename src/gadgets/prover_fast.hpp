// Private helpers of the gadgets' prover fast paths (ConstraintSystem::prover_buffers()).
//
// The bit gadgets evaluate their constraints on small integers: a Boolean's value is read from the
// prover's assignment (Is: z[v], Not: 1 − z[v], Constant: c) and the sides of a constraint are then
// small integers in [−2, 3], turned into Fr by table lookup instead of LC evaluation. A variable
// whose assigned value is neither 0 nor 1 (an invalid witness, or a variable not allocated yet)
// yields −1 and the caller takes the generic LinearCombination path, so the fast path gives exactly
// the generic path's a, b, c and densities for every assignment.
#pragma once

#include "proofline/gadgets/boolean.hpp"
#include "proofline/r1cs/linear_combination.hpp"

namespace proofline::gadgets::fast {

/// v as an Fr, for v in [−2, 3].
const Fr& small(int v) noexcept;

/// 0 or 1 if x is that field element, else −1.
inline int bit_of(const Fr& x) noexcept {
  if (x.is_zero()) return 0;
  return r1cs::detail::is_one(x) ? 1 : -1;
}

/// The prover's value of `v` as a bit (0/1), or −1 if it is not a bit or not allocated.
inline int var_bit(ConstraintSystem& cs, Variable v) noexcept {
  const r1cs::ProvingBuffers& p = *cs.prover_buffers();
  const auto& values = v.is_aux() ? p.aux_assignment : p.input_assignment;
  if (v.index() >= values.size()) [[unlikely]] return -1;
  return bit_of(values[v.index()]);
}

/// The prover's value of a Boolean as 0/1, or −1 (see var_bit).
inline int bool_bit(ConstraintSystem& cs, const Boolean& b) noexcept {
  switch (b.kind()) {
    case Boolean::Kind::Constant: return b.value() ? 1 : 0;
    case Boolean::Kind::Is: return var_bit(cs, b.variable());
    case Boolean::Kind::Not: {
      const int x = var_bit(cs, b.variable());
      return x < 0 ? -1 : 1 - x;
    }
  }
  return -1;
}

/// Density of `b`'s terms in B (lc = coeff·b, coeff ≠ 0): Constant(true) → ONE, Is(v) → v,
/// Not(v) → ONE and v (v must not be ONE, or the terms would cancel: callers check is_aux()).
inline void dense_in_b(ConstraintSystem& cs, const Boolean& b) noexcept {
  switch (b.kind()) {
    case Boolean::Kind::Constant:
      if (b.value()) cs.prover_dense_in_b(ConstraintSystem::one());
      break;
    case Boolean::Kind::Is: cs.prover_dense_in_b(b.variable()); break;
    case Boolean::Kind::Not:
      cs.prover_dense_in_b(ConstraintSystem::one());
      cs.prover_dense_in_b(b.variable());
      break;
  }
}

/// True if b is constant or refers to an aux variable (so its Not-form ONE term never merges with
/// its own variable's term).
inline bool aux_or_constant(const Boolean& b) noexcept { return b.is_constant() || b.variable().is_aux(); }

}  // namespace proofline::gadgets::fast
