// proofline/r1cs/linear_combination.hpp — sparse linear combinations Σ c_k · v_k over Fr.
//
// Owns: `Term` (index, coefficient) and `LinearCombination`.
//
// Shape: two lists of terms, one over input variables and one over aux variables, each sorted by
// strictly increasing index (at most one term per variable). Coefficients are `ff::Fr` in
// Montgomery form, like every field value in proofline.
//
// Semantics (bellpepper-core `lc.rs`, reference §2.1), which matter for byte-compatible density:
//  - adding a term for a variable already present adds the coefficient in place;
//  - a term whose coefficients cancel stays in the list with coefficient 0 (it is skipped by
//    evaluation and does not set density bits, but `size()` counts it);
//  - sub(v, c) adds −c; add(other, s) adds s·c_k for every term of `other`, term by term.
// Cost: appending a term with an index above the list's last (the common case: variables are
// allocated in order and gadgets walk them in order) or equal to it is O(1) with no search;
// other inserts binary-search and shift (O(n)). Merging another LC is one linear merge pass.
// `clear()` keeps the capacity, so a gadget (or the constraint system's scratch LCs) can rebuild an
// LC per constraint without allocating once the lists have grown to their working size.
//
// Errors: evaluation throws SynthesisError(UnknownVariable) for an index beyond the assignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/error.hpp"
#include "proofline/r1cs/variable.hpp"

namespace proofline::r1cs {

using ff::Fr;

/// One term c · v of a linear combination; `index` is the variable's index within its list.
struct Term {
  std::uint64_t index;
  Fr coeff;
  friend bool operator==(const Term&, const Term&) = default;
};

class LinearCombination {
 public:
  LinearCombination() noexcept = default;  // the empty (zero) combination; does not allocate
  /// 1 · v.
  explicit LinearCombination(Variable v) { add(v); }
  /// c · v.
  LinearCombination(Variable v, const Fr& c) { add(v, c); }

  // ---- building (all return *this for chaining) -----------------------------------------------
  /// += 1 · v
  LinearCombination& add(Variable v) { return add(v, Fr::one()); }
  /// += c · v
  LinearCombination& add(Variable v, const Fr& c) {
    add_term(list(v), v.index(), c);
    return *this;
  }
  /// −= 1 · v
  LinearCombination& sub(Variable v) { return add(v, -Fr::one()); }
  /// −= c · v   (adds −c, as bellpepper does)
  LinearCombination& sub(Variable v, const Fr& c) { return add(v, -c); }
  /// += other
  LinearCombination& add(const LinearCombination& other);
  /// += scale · other
  LinearCombination& add(const LinearCombination& other, const Fr& scale);
  /// −= other
  LinearCombination& sub(const LinearCombination& other);
  /// −= scale · other
  LinearCombination& sub(const LinearCombination& other, const Fr& scale);

  LinearCombination& operator+=(Variable v) { return add(v); }
  LinearCombination& operator-=(Variable v) { return sub(v); }
  LinearCombination& operator+=(const LinearCombination& o) { return add(o); }
  LinearCombination& operator-=(const LinearCombination& o) { return sub(o); }
  friend LinearCombination operator+(LinearCombination lc, Variable v) { return std::move(lc.add(v)); }
  friend LinearCombination operator-(LinearCombination lc, Variable v) { return std::move(lc.sub(v)); }
  friend LinearCombination operator+(LinearCombination lc, const LinearCombination& o) { return std::move(lc.add(o)); }
  friend LinearCombination operator-(LinearCombination lc, const LinearCombination& o) { return std::move(lc.sub(o)); }

  /// Removes every term, keeping the allocated capacity.
  void clear() noexcept {
    inputs_.clear();
    aux_.clear();
  }
  void reserve(std::size_t n_inputs, std::size_t n_aux) {
    inputs_.reserve(n_inputs);
    aux_.reserve(n_aux);
  }

  // ---- reading --------------------------------------------------------------------------------
  /// Input terms, sorted by strictly increasing index (zero coefficients included).
  std::span<const Term> inputs() const noexcept { return inputs_; }
  /// Aux terms, sorted by strictly increasing index (zero coefficients included).
  std::span<const Term> aux() const noexcept { return aux_; }
  /// Number of terms, zero-coefficient terms included.
  std::size_t size() const noexcept { return inputs_.size() + aux_.size(); }
  bool empty() const noexcept { return inputs_.empty() && aux_.empty(); }
  /// The coefficient of v (zero if v has no term).
  Fr coeff_of(Variable v) const;

  /// Σ c_k · value(v_k) over the given assignments (Montgomery form). Terms with coefficient 0 are
  /// skipped; coefficient 1 adds the value without multiplying.
  Fr evaluate(std::span<const Fr> input_values, std::span<const Fr> aux_values) const;

  /// Same terms in the same order (a zero-coefficient term is not the same as no term).
  friend bool operator==(const LinearCombination&, const LinearCombination&) = default;

 private:
  std::vector<Term>& list(Variable v) noexcept { return v.is_aux() ? aux_ : inputs_; }

  static void add_term(std::vector<Term>& terms, std::uint64_t index, const Fr& c) {
    if (terms.empty() || terms.back().index < index) {
      terms.push_back(Term{index, c});  // fast path: increasing indices
    } else if (terms.back().index == index) {
      terms.back().coeff += c;          // fast path: same variable again
    } else {
      add_term_slow(terms, index, c);
    }
  }
  static void add_term_slow(std::vector<Term>& terms, std::uint64_t index, const Fr& c);
  /// terms += (negate ? −1 : 1) · (scale ? *scale : 1) · src, as one merge pass.
  static void merge(std::vector<Term>& terms, std::span<const Term> src, const Fr* scale, bool negate);
  LinearCombination& merge_all(const LinearCombination& other, const Fr* scale, bool negate);

  std::vector<Term> inputs_;
  std::vector<Term> aux_;
};

namespace detail {

/// c == 1 (Montgomery R), as a branch-free limb compare (std::array's == may call memcmp).
inline bool is_one(const Fr& c) noexcept {
  std::uint64_t d = 0;
  for (std::size_t i = 0; i < Fr::kLimbs; ++i) d |= c.limbs[i] ^ Fr::kR[i];
  return d == 0;
}

/// acc += Σ c_k · values[index_k] over `terms`, skipping zero coefficients and the multiply for
/// coefficient one; for every nonzero coefficient calls `on_nonzero(index)` (density tracking).
/// `started` says whether acc holds a value yet (the first term is assigned, not added, which saves
/// one field addition per evaluated list). `kind` names the list in the error message.
template <class OnNonzero>
inline void accumulate_terms(Fr& acc, bool& started, std::span<const Term> terms, std::span<const Fr> values,
                             const char* kind, OnNonzero&& on_nonzero) {
  for (const Term& t : terms) {
    if (t.coeff.is_zero()) continue;
    if (t.index >= values.size()) [[unlikely]] {
      throw SynthesisError(SynthesisErrorCode::UnknownVariable,
                           std::string(kind) + " variable " + std::to_string(t.index) + " used, but only " +
                               std::to_string(values.size()) + " allocated");
    }
    on_nonzero(t.index);
    const Fr v = is_one(t.coeff) ? values[t.index] : t.coeff * values[t.index];
    if (started) {
      acc += v;
    } else {
      acc = v;
      started = true;
    }
  }
}

struct NoDensity {
  void operator()(std::uint64_t) const noexcept {}
};

}  // namespace detail

}  // namespace proofline::r1cs
