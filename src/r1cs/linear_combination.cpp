// LinearCombination: the slow paths (out-of-order insert, merging another LC) and evaluation.
#include "proofline/r1cs/linear_combination.hpp"

#include <algorithm>
#include <cstddef>

namespace proofline::r1cs {

void LinearCombination::add_term_slow(std::vector<Term>& terms, std::uint64_t index, const Fr& c) {
  auto it = std::lower_bound(terms.begin(), terms.end(), index,
                             [](const Term& t, std::uint64_t i) { return t.index < i; });
  if (it != terms.end() && it->index == index) {
    it->coeff += c;
  } else {
    terms.insert(it, Term{index, c});
  }
}

void LinearCombination::merge(std::vector<Term>& terms, std::span<const Term> src, const Fr* scale,
                              bool negate) {
  if (src.empty()) return;
  const bool multiply = scale != nullptr && !scale->is_one();
  auto contribution = [&](const Fr& c) {
    Fr x = multiply ? c * *scale : c;
    return negate ? -x : x;
  };

  // Fast path: every index of src lies above this list's last one (the usual "append" case).
  if (terms.empty() || terms.back().index < src.front().index) {
    for (const Term& t : src) terms.push_back(Term{t.index, contribution(t.coeff)});
    return;
  }

  // Count the indices of src not present yet.
  std::size_t n_new = 0;
  for (std::size_t i = 0, j = 0; j < src.size();) {
    if (i == terms.size() || src[j].index < terms[i].index) {
      ++n_new;
      ++j;
    } else if (src[j].index == terms[i].index) {
      ++i;
      ++j;
    } else {
      ++i;
    }
  }

  if (n_new == 0) {  // every index present: update in place
    std::size_t i = 0;
    for (const Term& t : src) {
      while (terms[i].index < t.index) ++i;
      terms[i].coeff += contribution(t.coeff);
    }
    return;
  }

  // Merge from the back into the grown list: slot k is always at or above the next unread old slot,
  // so no unread term is overwritten; when src is exhausted the remaining old terms are in place.
  const std::size_t old = terms.size();
  terms.resize(old + n_new);
  std::ptrdiff_t i = static_cast<std::ptrdiff_t>(old) - 1;
  std::ptrdiff_t j = static_cast<std::ptrdiff_t>(src.size()) - 1;
  std::ptrdiff_t k = static_cast<std::ptrdiff_t>(old + n_new) - 1;
  while (j >= 0) {
    if (i >= 0 && terms[i].index > src[j].index) {
      terms[k--] = terms[i--];
    } else if (i >= 0 && terms[i].index == src[j].index) {
      terms[k] = Term{terms[i].index, terms[i].coeff + contribution(src[j].coeff)};
      --k;
      --i;
      --j;
    } else {
      terms[k--] = Term{src[j].index, contribution(src[j].coeff)};
      --j;
    }
  }
}

LinearCombination& LinearCombination::merge_all(const LinearCombination& other, const Fr* scale, bool negate) {
  if (&other == this) {  // lc += s·lc: merge from a copy (the lists are resized while merging)
    const LinearCombination copy = other;
    return merge_all(copy, scale, negate);
  }
  merge(inputs_, other.inputs_, scale, negate);
  merge(aux_, other.aux_, scale, negate);
  return *this;
}

LinearCombination& LinearCombination::add(const LinearCombination& other) { return merge_all(other, nullptr, false); }
LinearCombination& LinearCombination::add(const LinearCombination& other, const Fr& scale) {
  return merge_all(other, &scale, false);
}
LinearCombination& LinearCombination::sub(const LinearCombination& other) { return merge_all(other, nullptr, true); }
LinearCombination& LinearCombination::sub(const LinearCombination& other, const Fr& scale) {
  return merge_all(other, &scale, true);
}

Fr LinearCombination::coeff_of(Variable v) const {
  const std::vector<Term>& terms = v.is_aux() ? aux_ : inputs_;
  auto it = std::lower_bound(terms.begin(), terms.end(), v.index(),
                             [](const Term& t, std::uint64_t i) { return t.index < i; });
  return it != terms.end() && it->index == v.index() ? it->coeff : Fr::zero();
}

Fr LinearCombination::evaluate(std::span<const Fr> input_values, std::span<const Fr> aux_values) const {
  Fr acc = Fr::zero();
  bool started = false;
  detail::accumulate_terms(acc, started, inputs_, input_values, "input", detail::NoDensity{});
  detail::accumulate_terms(acc, started, aux_, aux_values, "aux", detail::NoDensity{});
  return acc;
}

}  // namespace proofline::r1cs
