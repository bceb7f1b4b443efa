// UInt32 and MultiEq: bellperson's 32-bit word gadgets and batched addition equalities.
#include "proofline/gadgets/uint32.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "proofline/r1cs/error.hpp"
#include "prover_fast.hpp"

namespace proofline::gadgets {

using r1cs::DensityTracker;
using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

// ---- MultiEq -----------------------------------------------------------------------------------

namespace {
using fast::kCapacity;

// The fast flush's per-thread open-addressing table (variable → occurrences in the pending lhs).
// Slots are valid only with the current stamp, so nothing is cleared between flushes.
struct DedupTable {
  struct Slot {
    std::uint64_t raw = 0;
    std::uint32_t stamp = 0;
    std::uint16_t count = 0;
    std::uint8_t neg = 0;
  };
  static constexpr unsigned kLog = 13;
  std::vector<Slot> slots = std::vector<Slot>(std::size_t{1} << kLog);
  std::uint32_t stamp = 0;
  std::vector<std::uint32_t> slot_of;  // slot of each pending term
};
thread_local DedupTable t_dedup;

const Fr& assigned_value(const r1cs::ProvingBuffers& p, Variable v) {
  const auto& values = v.is_aux() ? p.aux_assignment : p.input_assignment;
  if (v.index() >= values.size()) [[unlikely]] {
    throw SynthesisError(SynthesisErrorCode::UnknownVariable,
                         std::string(v.is_aux() ? "aux" : "input") + " variable " + std::to_string(v.index()) +
                             " used in a MultiEq, but only " + std::to_string(values.size()) + " allocated");
  }
  return values[v.index()];
}
}  // namespace

void MultiEq::set_density_grouped(DensityTracker& a_aux, std::span<const Term> terms) {
  for (std::size_t i = 0; i < terms.size();) {
    Fr sum = Fr::zero();
    std::size_t j = i;
    for (; j < terms.size() && terms[j].raw == terms[i].raw; ++j) {
      sum += terms[j].neg ? neg_pow2(terms[j].exp) : pow2(terms[j].exp);
    }
    if (!sum.is_zero()) a_aux.set(Variable::from_raw(terms[i].raw).index());
    i = j;
  }
}

void MultiEq::FastSum::add(const Fr& z, std::uint32_t exp, bool negative) {
  if (z.is_zero()) return;
  if (r1cs::detail::is_one(z)) {  // ±2^exp into the 320-bit integer
    std::uint64_t* limbs = negative ? neg : pos;
    unsigned w = exp >> 6;
    const std::uint64_t bit = std::uint64_t{1} << (exp & 63);
    limbs[w] += bit;
    if (limbs[w] < bit) {
      while (++w < 5 && ++limbs[w] == 0) {
      }
    }
    return;
  }
  const Fr t = z * pow2(exp);
  if (negative) other -= t;
  else other += t;
}

Fr MultiEq::FastSum::value() const {
  Fr r = other;
  for (std::size_t k = 0; k < 5; ++k) {
    if ((pos[k] | neg[k]) == 0) continue;
    const Fr scale = k < 4 ? pow2(64 * k) : pow2(255).dbl();  // 2^(64k)
    if (pos[k] != 0) r += Fr::from_u64(pos[k]) * scale;
    if (neg[k] != 0) r -= Fr::from_u64(neg[k]) * scale;
  }
  return r;
}

void MultiEq::fast_stage(std::size_t num_bits, std::span<const Variable> rhs) {
  const r1cs::ProvingBuffers& p = *cs_.prover_buffers();
  const auto shift = static_cast<std::uint32_t>(bits_used_);
  simple_ = false;
  for (const Staged& s : staged_lhs_) {
    const Variable v = Variable::from_raw(s.raw);
    const std::uint32_t e = s.exp + shift;
    fast_lhs_.add(assigned_value(p, v), e, s.neg);
    if (v.is_aux()) lhs_terms_.push_back(Term{s.raw, e, s.neg});  // A-density: aux only
  }
  staged_lhs_.clear();
  for (std::size_t i = 0; i < rhs.size(); ++i) fast_rhs_.add(assigned_value(p, rhs[i]), shift + static_cast<std::uint32_t>(i), false);
  bits_used_ += num_bits;
}

void MultiEq::make_room(std::size_t num_bits) {
  if (kCapacity <= bits_used_ + num_bits) accumulate();
  if (kCapacity <= bits_used_ + num_bits) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "MultiEq: an equality of " + std::to_string(num_bits) + " bits does not fit one constraint");
  }
}

void MultiEq::FastSum::add_shifted(std::uint64_t v, unsigned shift) {
  unsigned w = shift >> 6;
  const unsigned b = shift & 63;
  const std::uint64_t lo = v << b, hi = b == 0 ? 0 : v >> (64 - b);
  auto add_at = [&](unsigned k, std::uint64_t x) {
    if (x == 0) return;
    pos[k] += x;
    if (pos[k] < x) {
      while (++k < 5 && ++pos[k] == 0) {
      }
    }
  };
  add_at(w, lo);
  if (w + 1 < 5) add_at(w + 1, hi);
}

void MultiEq::close_fast(std::size_t mark, std::size_t num_bits, std::uint64_t lhs_value, const Fr& lhs_other,
                         std::uint64_t rhs_value, bool simple) {
  if (kCapacity <= bits_used_ + num_bits) {  // flush the earlier equalities (make_room), not this one
    fast_flush(mark);
    bits_used_ = 0;
    ++ops_;
    mark = 0;
    if (kCapacity <= num_bits) make_room(num_bits);  // throws
  }
  // The bound in fast_flush() needs >= 33 bits per equality (<= 7 per constraint).
  simple_ = simple_ && simple && num_bits >= 33;
  const auto shift = static_cast<std::uint32_t>(bits_used_);
  if (shift != 0) {
    for (std::size_t k = mark; k < lhs_terms_.size(); ++k) lhs_terms_[k].exp += shift;
  }
  fast_lhs_.add_shifted(lhs_value, shift);
  if (!lhs_other.is_zero()) fast_lhs_.other += lhs_other * pow2(shift);
  fast_rhs_.add_shifted(rhs_value, shift);
  bits_used_ += num_bits;
}

void MultiEq::fast_flush(std::size_t n) {
  r1cs::ProvingBuffers& p = *cs_.prover_buffers();
  DensityTracker& a_aux = p.a_aux_density;
  DedupTable& t = t_dedup;
  auto by_variable = [](const Term& a, const Term& b) { return a.raw < b.raw; };
  if (simple_) {  // every staged variable is dense (see the header)
    for (std::size_t i = 0; i < n; ++i) a_aux.set(Variable::from_raw(lhs_terms_[i].raw).index());
  } else if (2 * n > t.slots.size()) {  // too many for the table: sort and sum every group
    std::sort(lhs_terms_.begin(), lhs_terms_.begin() + static_cast<std::ptrdiff_t>(n), by_variable);
    set_density_grouped(a_aux, std::span<const Term>(lhs_terms_.data(), n));
  } else {
    if (++t.stamp == 0) {  // stamp wrapped: invalidate every slot once
      for (auto& sl : t.slots) sl.stamp = 0;
      t.stamp = 1;
    }
    const std::uint64_t mask = t.slots.size() - 1;
    t.slot_of.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Term& x = lhs_terms_[i];
      std::uint64_t h = (x.raw * 0x9E3779B97F4A7C15ull) >> (64 - DedupTable::kLog);
      while (t.slots[h].stamp == t.stamp && t.slots[h].raw != x.raw) h = (h + 1) & mask;
      DedupTable::Slot& sl = t.slots[h];
      if (sl.stamp != t.stamp) {
        sl = DedupTable::Slot{x.raw, t.stamp, 1, static_cast<std::uint8_t>(x.neg)};
      } else {
        ++sl.count;
        sl.neg |= static_cast<std::uint8_t>(x.neg);
      }
      t.slot_of[i] = static_cast<std::uint32_t>(h);
    }
    // Σ of k ≤ 7 positive powers 2^e (e ≤ 252, uint32.hpp) is in (0, 7·2^252) ⊂ (0, r): nonzero mod r.
    for (std::size_t i = 0; i < n; ++i) {
      const DedupTable::Slot& sl = t.slots[t.slot_of[i]];
      if (sl.neg == 0 && sl.count <= 7) a_aux.set(Variable::from_raw(lhs_terms_[i].raw).index());
      else unsure_.push_back(lhs_terms_[i]);
    }
    if (!unsure_.empty()) {
      std::sort(unsure_.begin(), unsure_.end(), by_variable);
      set_density_grouped(a_aux, unsure_);
      unsure_.clear();
    }
  }
  // (Σ 2^shift_j · lhs_j) · ONE = Σ 2^shift_j · rhs_j
  cs_.prover_dense_in_b(ConstraintSystem::one());
  cs_.prover_enforce(fast_lhs_.value(), p.input_assignment[0], fast_rhs_.value());
  fast_lhs_.clear();
  fast_rhs_.clear();
  simple_ = true;
  lhs_terms_.erase(lhs_terms_.begin(), lhs_terms_.begin() + static_cast<std::ptrdiff_t>(n));
}

void MultiEq::close_witness(std::size_t num_bits) {
  make_room(num_bits);
  bits_used_ += num_bits;
}

void MultiEq::enforce_equal_staged(std::size_t num_bits, std::span<const Variable> rhs) {
  make_room(num_bits);
  if (witness_) {  // only the count of constraints matters
    staged_lhs_.clear();
    bits_used_ += num_bits;
    return;
  }
  if (fast_) {
    fast_stage(num_bits, rhs);
    return;
  }
  const auto shift = static_cast<std::uint32_t>(bits_used_);
  for (const Staged& s : staged_lhs_) lhs_terms_.push_back(Term{s.raw, s.exp + shift, s.neg});
  staged_lhs_.clear();
  // rhs: result bits are allocated in increasing order, after everything already in rhs_, so every
  // add is an O(1) append.
  for (std::size_t i = 0; i < rhs.size(); ++i) rhs_.add(rhs[i], pow2(shift + i));
  bits_used_ += num_bits;
}

void MultiEq::accumulate() {
  if (witness_) {
    cs_.witness_enforce(1);
    bits_used_ = 0;
    ++ops_;
    return;
  }
  if (fast_) {
    fast_flush(lhs_terms_.size());
    bits_used_ = 0;
    ++ops_;
    return;
  }
  // lhs: one sort by variable, then appends (equal variables merge in place: coefficients add).
  std::sort(lhs_terms_.begin(), lhs_terms_.end(), [](const Term& a, const Term& b) { return a.raw < b.raw; });
  lhs_.clear();
  for (const Term& t : lhs_terms_) lhs_.add(Variable::from_raw(t.raw), t.neg ? neg_pow2(t.exp) : pow2(t.exp));
  const std::size_t k = ops_;
  // (Σ 2^shift_j · lhs_j) · ONE = Σ 2^shift_j · rhs_j
  cs_.enforce([&] { return "multieq " + std::to_string(k); }, lhs_, ConstraintSystem::one(), rhs_);
  lhs_terms_.clear();
  lhs_.clear();
  rhs_.clear();
  bits_used_ = 0;
  ++ops_;
}

void MultiEq::finish() {
  if (bits_used_ > 0) accumulate();
}

// ---- UInt32 ------------------------------------------------------------------------------------
//
// Packed form (uint32.hpp): value_, const_, not_ masks and one variable per non-constant bit. In
// prover mode, words whose bits are checked against the assignment (check()) go through the word
// loops below: the operands' values are the masks' bits, so nothing is read back from the
// assignment and no Boolean is built; each loop pushes exactly what the per-bit Boolean gadgets
// push (same variables, a, b, c and density bits, in the same order). Other words take the per-bit
// gadgets (*_bits), as in every other mode.

namespace {

using fast::small;
using fast::witness_bits;

inline std::uint64_t index_of(std::uint64_t raw) noexcept { return raw & Variable::kMaxIndex; }
inline unsigned bit_at(std::uint32_t x, int i) noexcept { return (x >> i) & 1u; }

}  // namespace

UInt32 UInt32::constant(std::uint32_t value) noexcept {
  UInt32 r;  // every bit constant
  r.value_ = value;
  return r;
}

UInt32 UInt32::fresh(std::uint32_t value, const ConstraintSystem& cs) noexcept {
  UInt32 r;
  r.value_ = value;
  r.const_ = 0;
  r.checked_for_ = cs.prover_buffers();
  return r;
}

void UInt32::set_bit(std::size_t i, const Boolean& b) noexcept {
  const std::uint32_t m = std::uint32_t{1} << i;
  value_ = b.value() ? (value_ | m) : (value_ & ~m);
  not_ &= ~m;
  distinct_ = false;
  if (b.is_constant()) {
    const_ |= m;
    return;
  }
  const_ &= ~m;
  if (b.kind() == Boolean::Kind::Not) not_ |= m;
  var_[i] = b.variable().raw();
}

bool UInt32::vars_pairwise_distinct() const noexcept {
  std::array<std::uint64_t, 32> v;
  std::size_t n = 0;
  for (std::uint32_t m = ~const_; m != 0; m &= m - 1) v[n++] = var_[std::countr_zero(m)];
  std::sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
  return std::adjacent_find(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n)) == v.begin() + static_cast<std::ptrdiff_t>(n);
}

std::array<Boolean, 32> UInt32::bits() const noexcept {
  std::array<Boolean, 32> out;
  for (std::size_t i = 0; i < 32; ++i) out[i] = bit(i);
  return out;
}

bool UInt32::checked_in(const ConstraintSystem& cs) const noexcept {
  if (cs.witness_only()) return true;  // nothing is read back from the assignment: every word goes
  const r1cs::ProvingBuffers* p = cs.prover_buffers();
  if (p == nullptr) return false;
  if (checked_for_ == p || is_constant()) return true;
  const std::span<const Fr> aux = p->aux_assignment;
  const std::uint32_t u = value_ ^ not_;  // the variables' own values
  for (std::uint32_t m = ~const_; m != 0; m &= m - 1) {
    const int i = std::countr_zero(m);
    const Variable v = Variable::from_raw(var_[i]);
    if (!v.is_aux() || v.index() >= aux.size()) return false;
    if (fast::bit_of(aux[v.index()]) != static_cast<int>(bit_at(u, i))) return false;
  }
  return true;
}

bool UInt32::check(ConstraintSystem& cs) {
  const bool ok = checked_in(cs);
  checked_for_ = ok ? cs.prover_buffers() : nullptr;
  return ok;
}

UInt32 UInt32::alloc(ConstraintSystem& cs, std::uint32_t value) {
  UInt32 r;
  r.value_ = value;
  r.const_ = 0;
  if (cs.prover_buffers() != nullptr || cs.witness_only()) {
    const std::uint64_t first = cs.witness_only() ? witness_bits(cs, value, 32) : fast::alloc_booleans(cs, value, 32);
    for (int i = 0; i < 32; ++i) r.var_[i] = Variable::aux(first + static_cast<std::uint64_t>(i)).raw();
    r.checked_for_ = cs.prover_buffers();
    return r;
  }
  for (std::size_t i = 0; i < 32; ++i) {
    auto ns = cs.namespace_([&] { return "allocated bit " + std::to_string(i); });
    r.var_[i] = AllocatedBit::alloc(cs, (value >> i) & 1).variable().raw();
  }
  return r;
}

UInt32 UInt32::from_bits_be(std::span<const Boolean> bits) {
  if (bits.size() != 32) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "UInt32::from_bits_be: got " +
                                                                std::to_string(bits.size()) + " bits, expected 32");
  }
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) r.set_bit(i, bits[31 - i]);
  r.distinct_ = r.vars_pairwise_distinct();
  return r;
}

UInt32 UInt32::from_bits(std::span<const Boolean> bits) {
  if (bits.size() != 32) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "UInt32::from_bits: got " + std::to_string(bits.size()) + " bits, expected 32");
  }
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) r.set_bit(i, bits[i]);
  r.distinct_ = r.vars_pairwise_distinct();
  return r;
}

void UInt32::append_bits_be(std::vector<Boolean>& out) const {
  for (std::size_t i = 32; i-- > 0;) out.push_back(bit(i));
}

UInt32 UInt32::rotr(std::size_t by) const noexcept {
  const int k = static_cast<int>(by % 32);
  UInt32 r;
  r.value_ = std::rotr(value_, k);
  r.const_ = std::rotr(const_, k);
  r.not_ = std::rotr(not_, k);
  r.distinct_ = distinct_;
  r.checked_for_ = checked_for_;
  for (int i = 0; i < 32; ++i) r.var_[i] = var_[(i + k) & 31];
  return r;
}

UInt32 UInt32::shr(std::size_t by) const noexcept {
  const int k = static_cast<int>(by % 32);
  UInt32 r;  // the top k bits: Constant(false)
  r.value_ = value_ >> k;
  r.const_ = (const_ >> k) | ~(0xffffffffu >> k);
  r.not_ = not_ >> k;
  r.distinct_ = distinct_;  // a subset of the bits
  r.checked_for_ = checked_for_;
  for (int i = 0; i + k < 32; ++i) r.var_[i] = var_[i + k];
  return r;
}

// The dispatchers return the chosen form's prvalue, so the result is built in place (one named
// result per function: no copy of the 272-byte word on return).
UInt32 UInt32::xor_(ConstraintSystem& cs, const UInt32& other) const {
  if (!checked_in(cs) || !other.checked_in(cs)) return xor_bits(cs, *this, other);
  return xor_word(cs, *this, other);
}

UInt32 UInt32::xor_word(ConstraintSystem& cs, const UInt32& a, const UInt32& b) {
  // Word form of Boolean::xor_ per bit: constants fold (the other operand's bit, negated by a
  // constant 1); two variables p, q (the Is operand first when the kinds differ) give a new bit
  // r = p ⊕ q with (2p)·q = p + q − r (A: p, B: q dense), negated when the kinds differ.
  UInt32 r;
  r.value_ = a.value_ ^ b.value_;
  r.const_ = a.const_ & b.const_;
  r.checked_for_ = cs.prover_buffers();
  const std::uint32_t only_a = a.const_ & ~b.const_, only_b = b.const_ & ~a.const_;
  const std::uint32_t both = ~(a.const_ | b.const_);
  r.not_ = ((b.not_ ^ a.value_) & only_a) | ((a.not_ ^ b.value_) & only_b) | ((a.not_ ^ b.not_) & both);
  for (std::uint32_t m = only_a; m != 0; m &= m - 1) r.var_[std::countr_zero(m)] = b.var_[std::countr_zero(m)];
  for (std::uint32_t m = only_b; m != 0; m &= m - 1) r.var_[std::countr_zero(m)] = a.var_[std::countr_zero(m)];
  // New variables for `both`; bits copied from one operand keep its distinctness; copies from both
  // might share a variable.
  r.distinct_ = (only_a == 0 || b.distinct_) && (only_b == 0 || a.distinct_) && (only_a == 0 || only_b == 0);
  const std::uint32_t ua = a.value_ ^ a.not_, ub = b.value_ ^ b.not_;  // the variables' values
  if (cs.witness_only()) {  // the new bits' values only: (ua ⊕ ub) at the bits of `both`, in order
    std::uint64_t values = 0;
    std::size_t j = 0;
    for (std::uint32_t m = both; m != 0; m &= m - 1, ++j) {
      values |= std::uint64_t{bit_at(ua ^ ub, std::countr_zero(m))} << j;
    }
    const std::uint64_t first = witness_bits(cs, values, j);
    j = 0;
    for (std::uint32_t m = both; m != 0; m &= m - 1, ++j) r.var_[std::countr_zero(m)] = Variable::aux(first + j).raw();
    return r;
  }
  r1cs::ProvingBuffers& p = *cs.prover_buffers();
  const std::uint32_t swap = a.not_ & ~b.not_;                          // Not ⊕ Is: Is first
  const ConstraintSystem::ProverBlock blk = cs.prover_extend(static_cast<std::size_t>(std::popcount(both)),
                                                             static_cast<std::size_t>(std::popcount(both)));
  std::size_t j = 0;
  for (std::uint32_t m = both; m != 0; m &= m - 1, ++j) {
    const int i = std::countr_zero(m);
    const bool sw = bit_at(swap, i) != 0;
    const std::uint64_t pv = sw ? b.var_[i] : a.var_[i], qv = sw ? a.var_[i] : b.var_[i];
    const unsigned x = bit_at(sw ? ub : ua, i), y = bit_at(sw ? ua : ub, i);
    blk.values[j] = small(static_cast<int>(x ^ y));
    r.var_[i] = blk.var(j).raw();
    p.a_aux_density.set(index_of(pv));
    p.b_aux_density.set(index_of(qv));
    blk.a[j] = small(static_cast<int>(2 * x));
    blk.b[j] = small(static_cast<int>(y));
    blk.c[j] = small(static_cast<int>(2 * (x & y)));
  }
  return r;
}

UInt32 UInt32::xor_bits(ConstraintSystem& cs, const UInt32& a, const UInt32& b) {
  UInt32 r;
  const bool fast = cs.prover_buffers() != nullptr;
  for (std::size_t i = 0; i < 32; ++i) {
    const Boolean x = a.bit(i), y = b.bit(i);
    if (fast && !x.is_constant() && !y.is_constant()) {
      // Boolean::xor_ inlined (prover mode ignores the namespace): Not ⊕ Is puts the Is operand
      // first, and the result is negated when the kinds differ.
      const bool swap = x.kind() == Boolean::Kind::Not && y.kind() == Boolean::Kind::Is;
      AllocatedBit out;
      if (fast::try_xor(cs, swap ? y.bit() : x.bit(), swap ? x.bit() : y.bit(), out)) {
        r.set_bit(i, x.kind() != y.kind() ? Boolean(out).not_() : Boolean(out));
        continue;
      }
    }
    auto ns = cs.namespace_([&] { return "xor of bit " + std::to_string(i); });
    r.set_bit(i, Boolean::xor_(cs, x, y));
  }
  return r;
}

UInt32 UInt32::sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  const Form form = triple_form(cs, a, b, c);
  if (form != Form::Word) return per_bit(cs, a, b, c, form == Form::CheckedBits, Boolean::sha256_ch);
  return ch_word(cs, a, b, c);
}

UInt32 UInt32::ch_word(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  const std::uint32_t x = a.value_, y = b.value_, z = c.value_, ch = (x & y) ^ (~x & z);
  // Word form of Boolean::sha256_ch with three variables per bit: ch allocated, then
  // (b − c)·a = ch − c (A: b, c dense; B: a, and ONE for Not(a)).
  UInt32 r = fresh(ch, cs);
  if (cs.witness_only()) {
    const std::uint64_t first = witness_bits(cs, ch, 32);
    for (int i = 0; i < 32; ++i) r.var_[i] = Variable::aux(first + static_cast<std::uint64_t>(i)).raw();
    return r;
  }
  r1cs::ProvingBuffers& p = *cs.prover_buffers();
  if (a.not_ != 0) p.b_input_density.set(0);
  const ConstraintSystem::ProverBlock blk = cs.prover_extend(32, 32);
  for (int i = 0; i < 32; ++i) {
    const int xi = static_cast<int>(bit_at(x, i)), yi = static_cast<int>(bit_at(y, i));
    const int zi = static_cast<int>(bit_at(z, i)), ci = static_cast<int>(bit_at(ch, i));
    blk.values[i] = small(ci);
    r.var_[i] = blk.var(static_cast<std::size_t>(i)).raw();
    p.a_aux_density.set(index_of(b.var_[i]));
    p.a_aux_density.set(index_of(c.var_[i]));
    p.b_aux_density.set(index_of(a.var_[i]));
    blk.a[i] = small(yi - zi);
    blk.b[i] = small(xi);
    blk.c[i] = small(ci - zi);
  }
  return r;
}

UInt32::Form UInt32::triple_form(const ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) noexcept {
  if (!a.checked_in(cs) || !b.checked_in(cs) || !c.checked_in(cs)) return Form::Bits;
  if ((a.const_ | b.const_ | c.const_) != 0) return Form::CheckedBits;  // constants to fold
  for (int i = 0; i < 32; ++i) {
    if (b.var_[i] == c.var_[i]) return Form::CheckedBits;  // b − c could cancel
  }
  return Form::Word;
}

UInt32 UInt32::per_bit(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c, bool checked,
                       Boolean (*gadget)(ConstraintSystem&, const Boolean&, const Boolean&, const Boolean&)) {
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) {
    auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
    r.set_bit(i, gadget(cs, a.bit(i), b.bit(i), c.bit(i)));
  }
  // With checked operands, the new bits hold the values computed from them: checked too.
  r.checked_for_ = checked ? cs.prover_buffers() : nullptr;
  return r;
}

UInt32 UInt32::sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  const Form form = triple_form(cs, a, b, c);
  if (form != Form::Word) return per_bit(cs, a, b, c, form == Form::CheckedBits, Boolean::sha256_maj);
  return maj_word(cs, a, b, c);
}

UInt32 UInt32::maj_word(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  const std::uint32_t x = a.value_, y = b.value_, z = c.value_;
  const std::uint32_t maj = (x & y) ^ (x & z) ^ (y & z), w = y & z;
  // Word form of Boolean::sha256_maj with three variables per bit: maj allocated; bc = b ∧ c by
  // Boolean::and_ (Is∧Is: and, b·c = bc; Is∧Not: and_not(b, c), b·(ONE − c) = bc; Not∧Is:
  // and_not(c, b); Not∧Not: nor, (ONE − b)·(ONE − c) = bc); then (2bc − b − c)·a = bc − maj.
  // In every case the and's sides evaluate to (y, z), or (z, y) for Not∧Is.
  UInt32 r = fresh(maj, cs);
  if (cs.witness_only()) {  // variables maj_i (2i), bc_i (2i + 1)
    std::uint64_t values = 0;
    for (int i = 0; i < 32; ++i) {
      values |= std::uint64_t{bit_at(maj, i)} << (2 * i) | std::uint64_t{bit_at(w, i)} << (2 * i + 1);
    }
    const std::uint64_t first = witness_bits(cs, values, 64);
    for (int i = 0; i < 32; ++i) r.var_[i] = Variable::aux(first + 2 * static_cast<std::uint64_t>(i)).raw();
    return r;
  }
  r1cs::ProvingBuffers& p = *cs.prover_buffers();
  if (a.not_ != 0) p.b_input_density.set(0);
  if ((b.not_ | c.not_) != 0) p.b_input_density.set(0);  // and_not / nor put ONE in B
  const std::uint32_t flip = b.not_ & ~c.not_;          // Not∧Is: and_not(c, b)
  // Per bit i: variables maj_i (2i), bc_i (2i + 1); constraints and (2i), maj (2i + 1).
  const ConstraintSystem::ProverBlock blk = cs.prover_extend(64, 64);
  for (int i = 0; i < 32; ++i) {
    const int xi = static_cast<int>(bit_at(x, i)), yi = static_cast<int>(bit_at(y, i));
    const int zi = static_cast<int>(bit_at(z, i)), wi = static_cast<int>(bit_at(w, i));
    const int mi = static_cast<int>(bit_at(maj, i));
    const auto k = static_cast<std::size_t>(2 * i);
    blk.values[k] = small(mi);
    blk.values[k + 1] = small(wi);
    r.var_[i] = blk.var(k).raw();
    const bool fl = bit_at(flip, i) != 0;
    p.a_aux_density.set(index_of(fl ? c.var_[i] : b.var_[i]));
    p.b_aux_density.set(index_of(fl ? b.var_[i] : c.var_[i]));
    blk.a[k] = small(fl ? zi : yi);
    blk.b[k] = small(fl ? yi : zi);
    blk.c[k] = small(wi);
    p.a_aux_density.set(blk.first_aux + k + 1);  // bc
    p.a_aux_density.set(index_of(b.var_[i]));
    p.a_aux_density.set(index_of(c.var_[i]));
    p.b_aux_density.set(index_of(a.var_[i]));
    blk.a[k + 1] = small(2 * wi - yi - zi);
    blk.b[k + 1] = small(xi);
    blk.c[k + 1] = small(wi - mi);
  }
  return r;
}

UInt32 UInt32::addmany(MultiEq& meq, std::span<const UInt32* const> operands) {
  if (operands.size() < 2 || operands.size() > 10) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "UInt32::addmany: " + std::to_string(operands.size()) + " operands, expected 2..10");
  }
  ConstraintSystem& cs = meq.cs();
  std::uint64_t max_value = static_cast<std::uint64_t>(operands.size()) * 0xffffffffull;
  std::uint64_t result_value = 0;
  bool all_constants = true;
  for (const UInt32* op : operands) {
    result_value += op->value_;
    all_constants &= op->is_constant();
  }
  const auto modular = static_cast<std::uint32_t>(result_value);
  UInt32 r;  // every bit constant
  r.value_ = modular;
  if (all_constants) return r;  // a constant, no variables, nothing for the MultiEq
  const auto n_bits = static_cast<std::size_t>(std::bit_width(max_value));
  if (meq.witness_only()) {  // the result bits' values and the constraint counts only
    r.const_ = 0;
    const std::uint64_t first = witness_bits(cs, result_value, n_bits);
    for (std::size_t k = 0; k < n_bits && k < 32; ++k) r.var_[k] = Variable::aux(first + k).raw();
    meq.close_witness(n_bits);
    return r;
  }
  // lhs = Σ_op Σ_i 2^i·op_i (staged; shifted into place when the MultiEq takes the equality).
  // Prover fast path: the lhs's value is summed natively (a checked word's value is its value_;
  // other words' bits are read from the assignment, a non-bit value, possible only in an invalid
  // witness, going into an Fr), and only the aux terms are staged, for the A-density.
  const bool fast = meq.prover_fast();
  std::uint64_t lhs_value = 0;
  Fr lhs_other = Fr::zero();
  const std::size_t mark = fast ? meq.open_fast() : 0;
  bool simple = true;  // MultiEq::close_fast: only positive terms, each staged word's variables distinct
  if (fast) {
    const r1cs::ProvingBuffers& p = *cs.prover_buffers();
    const DensityTracker& a_aux = p.a_aux_density;
    // Nothing is pushed to the assignments in this loop: read them through hoisted spans.
    const std::span<const Fr> aux_values = p.aux_assignment, input_values = p.input_assignment;
    for (const UInt32* op : operands) {
      if (op->checked_in(cs)) {
        lhs_value += op->value_;
        // A-density: only variables not dense yet (a set bit stays set whatever this
        // constraint's coefficient is, so its terms need no resolution).
        std::uint32_t staged = 0;
        for (std::uint32_t m = ~op->const_; m != 0; m &= m - 1) {
          const int i = std::countr_zero(m);
          if (!a_aux.test(index_of(op->var_[i]))) {
            staged |= std::uint32_t{1} << i;
            meq.stage_fast(Variable::from_raw(op->var_[i]), static_cast<unsigned>(i), bit_at(op->not_, i) != 0);
          }
        }
        if (staged != 0) simple = simple && op->distinct_ && (op->not_ & staged) == 0;
        continue;
      }
      for (unsigned i = 0; i < 32; ++i) {
        const Boolean b = op->bit(i);
        if (b.kind() == Boolean::Kind::Constant) {  // b·2^i·ONE, ONE's value is 1
          lhs_value += static_cast<std::uint64_t>(b.value()) << i;
          continue;
        }
        const bool neg = b.kind() == Boolean::Kind::Not;  // Not(v): 2^i·ONE − 2^i·v
        const Variable v = b.variable();
        const std::span<const Fr> values = v.is_aux() ? aux_values : input_values;
        const int x = v.index() < values.size() ? fast::bit_of(values[v.index()]) : -1;
        if (x >= 0) {
          lhs_value += static_cast<std::uint64_t>(neg ? 1 - x : x) << i;
        } else {  // not a bit (or not allocated: throws UnknownVariable)
          const Fr t = pow2(i) * assigned_value(p, v);
          lhs_other += neg ? pow2(i) - t : t;
        }
        if (v.is_aux() && !a_aux.test(v.index())) {
          simple = false;
          meq.stage_fast(v, i, neg);
        }
      }
    }
  } else {
    for (const UInt32* op : operands) {
      for (std::size_t i = 0; i < 32; ++i) meq.stage_lhs(op->bit(i), static_cast<unsigned>(i));
    }
  }
  // Result bits: n = bitlen(max_value) of them, LSB first; the word keeps the low 32.
  const std::size_t n = n_bits;
  r.const_ = 0;
  if (fast) {
    const std::uint64_t first = fast::alloc_booleans(cs, result_value, n);
    for (std::size_t k = 0; k < n && k < 32; ++k) r.var_[k] = Variable::aux(first + k).raw();
    r.checked_for_ = cs.prover_buffers();  // fresh bits holding result_value's bits
    // rhs = Σ_i 2^i·result_i over the bits just pushed: result_value itself.
    meq.close_fast(mark, n, lhs_value, lhs_other, result_value, simple);
    return r;
  }
  Variable result_vars[64];
  for (std::size_t k = 0; k < n; ++k) {
    auto ns = cs.namespace_([&] { return "result bit " + std::to_string(k); });
    result_vars[k] = AllocatedBit::alloc(cs, (result_value >> k) & 1).variable();
    if (k < 32) r.var_[k] = result_vars[k].raw();
  }
  meq.enforce_equal_staged(n, std::span<const Variable>(result_vars, n));
  return r;
}

}  // namespace proofline::gadgets
