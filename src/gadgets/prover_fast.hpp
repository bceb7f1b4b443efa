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

/// The constant-one variable (ConstraintSystem::one()).
inline constexpr Variable kOne = ConstraintSystem::one();

/// Fr::CAPACITY = NUM_BITS − 1: the bits one field element packs whole.
inline constexpr std::size_t kCapacity = 254;

/// An empty side of a constraint (enforce's LinearCombination callback adding nothing).
inline void no_terms(LinearCombination&) noexcept {}

/// −2 .. 3 as Fr (Montgomery form), computed at compile time.
inline constexpr Fr kSmall[6] = {-Fr::from_u64(2), -Fr::one(), Fr::zero(), Fr::one(), Fr::from_u64(2), Fr::from_u64(3)};

/// v as an Fr, for v in [−2, 3].
inline const Fr& small(int v) noexcept { return kSmall[v + 2]; }

/// A new bit holding `value`: the fast path's push in prover and witness-only modes, else a named
/// alloc.
inline Variable alloc_bit(ConstraintSystem& cs, const char* name, bool value) {
  if (cs.prover_buffers() != nullptr) [[likely]] return cs.prover_alloc(bool_to_fr(value));
  if (cs.witness_only()) return Variable::aux(cs.witness_alloc_bits(value, 1));
  return cs.alloc(name, [&] { return bool_to_fr(value); });
}

/// A new aux variable holding `value`: the fast path's push in prover and witness-only modes,
/// else a named alloc.
inline Variable alloc_value(ConstraintSystem& cs, const char* name, const Fr& value) {
  if (cs.prover_buffers() != nullptr) [[likely]] return cs.prover_alloc(value);
  if (cs.witness_only()) return cs.witness_alloc(value);
  return cs.alloc(name, [&] { return value; });
}

/// Witness-only mode: n <= 64 new bits holding `values`' low bits (LSB first), each with one
/// constraint (its boolean constraint, or the xor / ch / maj / and constraint that defines it),
/// counted only. Returns the first new aux index (bit k is first + k).
inline std::uint64_t witness_bits(ConstraintSystem& cs, std::uint64_t values, std::size_t n) {
  const std::uint64_t first = cs.witness_alloc_bits(values, n);
  cs.witness_enforce(n);
  return first;
}

/// AllocatedBit::alloc on the fast path (prover_buffers() != nullptr): pushes the bit and its
/// boolean constraint (ONE − v)·v = 0 (v dense in A and B); returns v.
inline Variable alloc_boolean(ConstraintSystem& cs, bool value) {
  const Variable v = cs.prover_alloc(bool_to_fr(value));
  r1cs::ProvingBuffers& p = *cs.prover_buffers();
  p.a_aux_density.set(v.index());
  p.b_aux_density.set(v.index());
  cs.prover_enforce(small(1 - static_cast<int>(value)), small(value), Fr::zero());
  return v;
}

/// n alloc_boolean calls in one block (n <= 64): new bits holding bits 0..n−1 of `value` (LSB
/// first), each with its boolean constraint; returns the aux index of the first (bit k is first + k).
inline std::uint64_t alloc_booleans(ConstraintSystem& cs, std::uint64_t value, std::size_t n) {
  const ConstraintSystem::ProverBlock blk = cs.prover_extend(n, n);
  for (std::size_t k = 0; k < n; ++k) {
    const int bit = static_cast<int>((value >> k) & 1);
    blk.values[k] = small(bit);
    blk.a[k] = small(1 - bit);
    blk.b[k] = small(bit);
    blk.c[k] = Fr::zero();
  }
  r1cs::ProvingBuffers& p = *cs.prover_buffers();
  p.a_aux_density.set_range(blk.first_aux, n);
  p.b_aux_density.set_range(blk.first_aux, n);
  return blk.first_aux;
}

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

/// AllocatedBit::xor_ on the fast path: if both operands hold bit values, allocates r = p ⊕ q and
/// pushes (2p)·q = p + q − r (A: p, B: q dense), sets `out` and returns true; else does nothing.
inline bool try_xor(ConstraintSystem& cs, const AllocatedBit& p, const AllocatedBit& q, AllocatedBit& out) {
  const int x = var_bit(cs, p.variable()), y = var_bit(cs, q.variable());
  if ((x | y) < 0) return false;
  const bool r = p.value() != q.value();
  const Variable rv = cs.prover_alloc(bool_to_fr(r));
  cs.prover_dense_in_a(p.variable());
  cs.prover_dense_in_b(q.variable());
  cs.prover_enforce(small(2 * x), small(y), small(x + y - static_cast<int>(r)));
  out = AllocatedBit(rv, r);
  return true;
}

/// True if b is constant or refers to an aux variable (so its Not-form ONE term never merges with
/// its own variable's term).
inline bool aux_or_constant(const Boolean& b) noexcept { return b.is_constant() || b.variable().is_aux(); }

}  // namespace proofline::gadgets::fast
