// proofline/gadgets/uint32.hpp — 32-bit words of Booleans, and batched equalities (MultiEq).
//
// Owns: `UInt32` (32 Booleans, least significant first, plus the native value; stored packed, see
// Representation below) and `MultiEq`.
//
// Shapes (bellperson `gadgets/{uint32,multieq}.rs`, reference §3.1):
//  - constant / rotr / shr / into_bits_be / from_bits_be: no constraints (re-indexing; shr shifts in
//    Constant(false)).
//  - alloc: 32 AllocatedBits (namespaces "allocated bit i").
//  - xor: per bit Boolean::xor (namespace "xor of bit i"); sha256_ch / sha256_maj: per bit the
//    Boolean gadget (namespace "bit i").
//  - addmany(k operands, 2 ≤ k ≤ 10): if every operand bit is constant, a constant; otherwise
//    allocates n = bitlen(k·(2^32 − 1)) result bits (namespaces "result bit i") and hands the
//    equality Σ_op Σ_i 2^i·op_i = Σ_i 2^i·result_i to the MultiEq; keeps the low 32 result bits.
//  - MultiEq packs equalities: each new one is shifted by 2^bits_used and added to pending lhs/rhs;
//    before adding one that would reach bits_used + n ≥ 254 (Fr::CAPACITY) the pending pair is
//    enforced as (lhs) · (ONE) = (rhs), name "multieq <k>". finish() enforces the last pending pair
//    (bellperson does this when the MultiEq is dropped at the end of each SHA-256 compression).
//
// Building the big MultiEq combinations costs no multiplications: coefficients come from the 2^k
// table, terms are staged as (variable, exponent) pairs and turned into one sorted
// LinearCombination per flush (the result is the same variable → coefficient map bellperson's
// term-by-term merges give).
//
// Representation: a UInt32 is packed — its value, a mask of constant bits, a mask of Not bits and
// one Variable per non-constant bit (272 bytes) — and bit(i) / bits() rebuild Booleans on demand.
//
// Word form (prover mode, UInt32::check()): when every operand word is checked (each non-constant
// bit an aux variable whose assigned value is that bit's value: words made here in prover mode are,
// input words are checked once against the assignment), xor, sha256_ch, sha256_maj, alloc and
// addmany run on machine words: operand values come from the masks, never from the assignment,
// and each constraint's a, b, c (small integers, a table lookup) and density bits are pushed in
// the per-bit gadgets' order. Anything else (an unchecked word, a constant bit in ch/maj, b and c
// of ch/maj sharing a variable) goes per bit through the Boolean gadgets; the results are
// identical either way (tests/gadgets compare word form, per-bit fast path, generic path and test
// mode).
//
// Witness-only mode (ConstraintSystem::witness_only()): every word is in word form's reach (nothing
// is read back from the assignment, operand values come from the masks, as in prover mode); the
// word gadgets push their new bits' values 64 at a time and count their constraints; addmany keeps
// no MultiEq terms (MultiEq::close_witness: equalities only take room). Same values, in the same
// order, as the per-bit gadgets.
//
// Prover fast path (ConstraintSystem::prover_buffers()): no LinearCombination is built. Each term
// ±2^e·z[v] is added natively as it is staged (bit values add ±2^e into a 320-bit integer, other
// values — only for an invalid witness — go through Fr); the rhs the same way. At the flush the
// A-density of the lhs's aux variables is resolved exactly with a per-thread hash table instead of
// a sort: a variable seen once, or only with positive coefficients at most 7 times, has a nonzero
// net coefficient and is marked (each term's exponent is below its equality's bit count, so
// e < bits_used ≤ 253 and a sum of at most 7 powers 2^e lies in (0, 7·2^252) ⊂ (0, r)); the
// others (rare: Not bits, many repeats) are grouped and their net coefficients summed in Fr.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "proofline/gadgets/boolean.hpp"

namespace proofline::gadgets {

class MultiEq {
 public:
  explicit MultiEq(ConstraintSystem& cs)
      : cs_(cs), fast_(cs.prover_buffers() != nullptr), witness_(cs.witness_only()) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;

  ConstraintSystem& cs() noexcept { return cs_; }

  /// Stages a term of the next equality's lhs: sign · 2^exp · var (exp below the equality's
  /// num_bits, as addmany's i < 32 < n: the fast flush's density rule relies on it).
  void stage_lhs(Variable v, unsigned exp, bool negative) { staged_lhs_.push_back(Staged{v.raw(), exp, negative}); }
  /// Stages b · 2^exp into the lhs (constant folding as Boolean::add_to_lc).
  void stage_lhs(const Boolean& b, unsigned exp) {
    switch (b.kind()) {
      case Boolean::Kind::Constant:
        if (b.value()) stage_lhs(ConstraintSystem::one(), exp, false);
        break;
      case Boolean::Kind::Is: stage_lhs(b.variable(), exp, false); break;
      case Boolean::Kind::Not:
        stage_lhs(ConstraintSystem::one(), exp, false);
        stage_lhs(b.variable(), exp, true);
        break;
    }
  }
  /// Enforces (staged lhs) = Σ_i 2^i·rhs[i] over `num_bits` bits, batched with other equalities.
  /// rhs variables must be allocated after every variable of earlier rhs (true for addmany).
  void enforce_equal_staged(std::size_t num_bits, std::span<const Variable> rhs);

  /// True in prover mode with the fast path (ConstraintSystem::prover_buffers()).
  bool prover_fast() const noexcept { return fast_; }
  /// Prover fast path (prover_fast() only), enforce_equal_staged for a caller that evaluates both
  /// sides itself: open_fast() marks the start of the next equality's lhs terms; stage_fast() adds
  /// one, sign · 2^exp · v (exp below num_bits, before the shift; only aux terms are needed: they
  /// give the A-density); close_fast(mark, ...) takes the equality of `num_bits` bits whose whole lhs has
  /// the value lhs_value + lhs_other (lhs_other: the part from non-bit values, zero for a valid
  /// witness) and whose rhs, Σ_i 2^i·rhs_i over bits the caller allocated itself, rhs_value. The
  /// values and terms are shifted into place; if the equality does not fit, the earlier ones are
  /// enforced first (as make_room does). Between open_fast() and close_fast() only stage_fast()
  /// and the caller's own allocations / constraints may be used.
  /// `simple` tells that every staged term is positive and that no variable was staged twice
  /// within one operand word (distinct_vars()), so that a variable occurs at most once per operand:
  /// see fast_flush().
  std::size_t open_fast() const noexcept { return lhs_terms_.size(); }
  void stage_fast(Variable v, unsigned exp, bool negative) { lhs_terms_.push_back(Term{v.raw(), exp, negative}); }
  void close_fast(std::size_t mark, std::size_t num_bits, std::uint64_t lhs_value, const Fr& lhs_other,
                  std::uint64_t rhs_value, bool simple);

  /// True in witness-only mode (ConstraintSystem::witness_only()): no term is kept, equalities only
  /// take room and constraints are only counted.
  bool witness_only() const noexcept { return witness_; }
  /// Witness-only mode: takes an equality of `num_bits` bits (counting the constraint of the
  /// earlier ones first if it does not fit, as make_room does).
  void close_witness(std::size_t num_bits);

  /// Enforces the pending equalities, if any. Must be called before the MultiEq goes away.
  void finish();
  ~MultiEq() = default;

  std::size_t bits_used() const noexcept { return bits_used_; }

 private:
  struct Staged {
    std::uint64_t raw;
    unsigned exp;
    bool neg;
  };
  struct Term {
    std::uint64_t raw;
    std::uint32_t exp;  // full exponent (bits_used + i)
    bool neg;
  };
  void accumulate();
  /// Flushes first if `num_bits` more would reach the capacity; throws if they never fit.
  void make_room(std::size_t num_bits);

  // Prover fast path: native accumulator of Σ ±2^e·z over bit-valued z, and an Fr for the rest.
  struct FastSum {
    std::uint64_t pos[5] = {0, 0, 0, 0, 0};
    std::uint64_t neg[5] = {0, 0, 0, 0, 0};
    Fr other = Fr::zero();
    void add(const Fr& z, std::uint32_t exp, bool negative);
    void add_shifted(std::uint64_t v, unsigned shift);  // += v·2^shift (shift < 254)
    Fr value() const;
    void clear() noexcept { *this = FastSum{}; }
  };
  void fast_stage(std::size_t num_bits, std::span<const Variable> rhs);
  /// Enforces the pending equalities whose terms are lhs_terms_[0, n) and drops those terms.
  /// A-density: with every equality of the constraint close_fast()'s `simple` (simple_), each
  /// variable's coefficient is a sum of at most 7 × 10 positive powers 2^e, e < 254 (at most 7
  /// equalities of >= 33 bits fit 254 bits; at most 10 operands), below 40·r, and zero mod r only if
  /// it equalled t·r for t < 40, whose binary forms have >= 119 ones (checked for t < 200): every
  /// staged variable is dense, no grouping needed. Otherwise coefficients are summed per variable.
  void fast_flush(std::size_t n);
  /// Marks the aux variables of `terms` (sorted by variable) whose summed coefficient is nonzero.
  static void set_density_grouped(r1cs::DensityTracker& a_aux, std::span<const Term> terms);

  ConstraintSystem& cs_;
  bool fast_ = false;
  bool witness_ = false;
  bool simple_ = true;  // every equality in lhs_terms_ before the open one: close_fast()'s `simple`
  FastSum fast_lhs_, fast_rhs_;
  std::vector<Term> unsure_;  // fast flush: terms whose variables need their coefficients summed
  std::size_t ops_ = 0;
  std::size_t bits_used_ = 0;
  std::vector<Staged> staged_lhs_;
  std::vector<Term> lhs_terms_;
  LinearCombination lhs_, rhs_;
};

class UInt32 {
 public:
  /// Constant 0 (32 Constant(false) bits).
  UInt32() = default;

  static UInt32 constant(std::uint32_t value) noexcept;
  /// 32 allocated bits (namespaces "allocated bit i"), LSB first.
  static UInt32 alloc(ConstraintSystem& cs, std::uint32_t value);
  /// From 32 Booleans, most significant first.
  static UInt32 from_bits_be(std::span<const Boolean> bits);
  /// From 32 Booleans, least significant first.
  static UInt32 from_bits(std::span<const Boolean> bits);

  /// Appends the bits, most significant first.
  void append_bits_be(std::vector<Boolean>& out) const;
  /// Bit i (0 = least significant) as a Boolean.
  Boolean bit(std::size_t i) const noexcept {
    const std::uint32_t m = std::uint32_t{1} << i;
    if (const_ & m) return Boolean::constant((value_ & m) != 0);
    const AllocatedBit b(Variable::from_raw(var_[i]), ((value_ ^ not_) & m) != 0);
    return (not_ & m) ? Boolean::not_of(b) : Boolean::is(b);
  }
  /// The 32 bits, least significant first.
  std::array<Boolean, 32> bits() const noexcept;
  std::uint32_t value() const noexcept { return value_; }
  bool is_constant() const noexcept { return const_ == 0xffffffffu; }
  /// True if no variable backs two of the non-constant bits (known for words made by alloc and
  /// the word gadgets; checked by from_bits / from_bits_be; false is always safe). MultiEq's fast
  /// flush relies on it.
  bool distinct_vars() const noexcept { return distinct_; }

  /// Prover fast path: true when every non-constant bit is an aux variable whose value in `cs`'s
  /// assignment is that bit's 0/1 value (ConstraintSystem::prover_buffers() != nullptr); the word
  /// gadgets then work on whole words. Words made by this class's gadgets in prover mode are
  /// checked as they are made; a word from from_bits()/from_bits_be() is checked against the
  /// assignment here (and remembered as checked, for this prover only, if it passes). Always true
  /// in witness-only mode, false in the other modes.
  bool check(ConstraintSystem& cs);

  UInt32 rotr(std::size_t by) const noexcept;
  UInt32 shr(std::size_t by) const noexcept;
  UInt32 xor_(ConstraintSystem& cs, const UInt32& other) const;
  static UInt32 sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
  static UInt32 sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
  /// Σ operands mod 2^32 (2 ≤ k ≤ 10 operands); the equality goes to `meq` (whose cs is used).
  static UInt32 addmany(MultiEq& meq, std::span<const UInt32* const> operands);

 private:
  // Packed form: bit i is Constant(value_ bit i) if const_ bit i is set, else Is(var_[i]) or, with
  // not_ bit i set, Not(var_[i]); value_ holds every bit's Boolean value (for Not: the negation of
  // the variable's value). var_ entries of constant bits are unused.
  bool checked_in(const ConstraintSystem& cs) const noexcept;
  /// A word of 32 new bits (variables to be filled in) holding `value`, checked for cs's prover.
  static UInt32 fresh(std::uint32_t value, const ConstraintSystem& cs) noexcept;
  static UInt32 xor_bits(ConstraintSystem& cs, const UInt32& a, const UInt32& b);
  // Word forms (prover mode, checked operands; ch / maj: Form::Word).
  static UInt32 xor_word(ConstraintSystem& cs, const UInt32& a, const UInt32& b);
  static UInt32 ch_word(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
  static UInt32 maj_word(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
  // How sha256_ch / sha256_maj go: per bit through the Boolean gadget (Bits; CheckedBits when the
  // operands are checked, so the result is too), or in word form (checked, no constant bit, b and
  // c never sharing a variable).
  enum class Form { Bits, CheckedBits, Word };
  static Form triple_form(const ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) noexcept;
  static UInt32 per_bit(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c, bool checked,
                        Boolean (*gadget)(ConstraintSystem&, const Boolean&, const Boolean&, const Boolean&));
  void set_bit(std::size_t i, const Boolean& b) noexcept;
  /// Whether the non-constant bits' variables are pairwise distinct (sorts a copy of them).
  bool vars_pairwise_distinct() const noexcept;

  std::uint32_t value_ = 0;
  std::uint32_t const_ = 0xffffffffu;
  std::uint32_t not_ = 0;
  bool distinct_ = true;  // distinct_vars(); set_bit() clears it
  // The prover buffers this word is checked against (check()); nullptr: not checked. A word is
  // checked for one prover only, so a word carried into another system is checked again there.
  const r1cs::ProvingBuffers* checked_for_ = nullptr;
  std::array<std::uint64_t, 32> var_{};  // Variable::raw() of each non-constant bit
};

}  // namespace proofline::gadgets
