// UInt32 and MultiEq: bellperson's 32-bit word gadgets and batched addition equalities.
#include "proofline/gadgets/uint32.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "proofline/r1cs/error.hpp"

namespace proofline::gadgets {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

// ---- MultiEq -----------------------------------------------------------------------------------

namespace {
constexpr std::size_t kCapacity = 254;  // Fr::CAPACITY = NUM_BITS − 1
}

void MultiEq::enforce_equal_staged(std::size_t num_bits, std::span<const Variable> rhs) {
  if (kCapacity <= bits_used_ + num_bits) accumulate();
  if (kCapacity <= bits_used_ + num_bits) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "MultiEq: an equality of " + std::to_string(num_bits) + " bits does not fit one constraint");
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

UInt32 UInt32::constant(std::uint32_t value) noexcept {
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) r.bits_[i] = Boolean::constant((value >> i) & 1);
  r.value_ = value;
  return r;
}

UInt32 UInt32::alloc(ConstraintSystem& cs, std::uint32_t value) {
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) {
    auto ns = cs.namespace_([&] { return "allocated bit " + std::to_string(i); });
    r.bits_[i] = AllocatedBit::alloc(cs, (value >> i) & 1);
  }
  r.value_ = value;
  return r;
}

UInt32 UInt32::from_bits_be(std::span<const Boolean> bits) {
  if (bits.size() != 32) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "UInt32::from_bits_be: got " +
                                                                std::to_string(bits.size()) + " bits, expected 32");
  }
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) {
    r.bits_[i] = bits[31 - i];
    r.value_ |= static_cast<std::uint32_t>(bits[31 - i].value()) << i;
  }
  return r;
}

UInt32 UInt32::from_bits(std::span<const Boolean> bits) {
  if (bits.size() != 32) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "UInt32::from_bits: got " + std::to_string(bits.size()) + " bits, expected 32");
  }
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) {
    r.bits_[i] = bits[i];
    r.value_ |= static_cast<std::uint32_t>(bits[i].value()) << i;
  }
  return r;
}

void UInt32::append_bits_be(std::vector<Boolean>& out) const {
  for (std::size_t i = 32; i-- > 0;) out.push_back(bits_[i]);
}

bool UInt32::is_constant() const noexcept {
  for (const Boolean& b : bits_) {
    if (!b.is_constant()) return false;
  }
  return true;
}

UInt32 UInt32::rotr(std::size_t by) const noexcept {
  by %= 32;
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) r.bits_[i] = bits_[(i + by) % 32];
  r.value_ = std::rotr(value_, static_cast<int>(by));
  return r;
}

UInt32 UInt32::shr(std::size_t by) const noexcept {
  by %= 32;
  UInt32 r;  // bits default to Constant(false)
  for (std::size_t i = 0; i + by < 32; ++i) r.bits_[i] = bits_[i + by];
  r.value_ = value_ >> by;
  return r;
}

UInt32 UInt32::xor_(ConstraintSystem& cs, const UInt32& other) const {
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) {
    auto ns = cs.namespace_([&] { return "xor of bit " + std::to_string(i); });
    r.bits_[i] = Boolean::xor_(cs, bits_[i], other.bits_[i]);
  }
  r.value_ = value_ ^ other.value_;
  return r;
}

UInt32 UInt32::sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) {
    auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
    r.bits_[i] = Boolean::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
  }
  r.value_ = (a.value_ & b.value_) ^ (~a.value_ & c.value_);
  return r;
}

UInt32 UInt32::sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  UInt32 r;
  for (std::size_t i = 0; i < 32; ++i) {
    auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
    r.bits_[i] = Boolean::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
  }
  r.value_ = (a.value_ & b.value_) ^ (a.value_ & c.value_) ^ (b.value_ & c.value_);
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
  // All operands constant: a constant, no variables, nothing for the MultiEq.
  if (all_constants) return UInt32::constant(modular);
  // lhs = Σ_op Σ_i 2^i·op_i (staged; shifted into place when the MultiEq takes the equality).
  for (const UInt32* op : operands) {
    for (std::size_t i = 0; i < 32; ++i) meq.stage_lhs(op->bits_[i], static_cast<unsigned>(i));
  }
  // Result bits: bitlen(max_value) of them, LSB first.
  Variable result_vars[64];
  UInt32 r;
  std::size_t n = 0;
  while (max_value != 0) {
    const bool b = (result_value >> n) & 1;
    AllocatedBit bit;
    {
      auto ns = cs.namespace_([&] { return "result bit " + std::to_string(n); });
      bit = AllocatedBit::alloc(cs, b);
    }
    result_vars[n] = bit.variable();
    if (n < 32) r.bits_[n] = bit;
    max_value >>= 1;
    ++n;
  }
  meq.enforce_equal_staged(n, std::span<const Variable>(result_vars, n));
  r.value_ = modular;
  return r;
}

}  // namespace proofline::gadgets
