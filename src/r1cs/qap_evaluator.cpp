// QapEvaluator: the QAP at τ accumulated row by row (include/proofline/r1cs/qap_evaluator.hpp).
#include "proofline/r1cs/qap_evaluator.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>


namespace proofline::r1cs {

namespace {

/// c == −1 (Montgomery form of r − 1).
inline bool is_minus_one(const Fr& c) noexcept {
  static const Fr minus_one = -Fr::one();
  return c == minus_one;
}

/// The first term of `terms` whose index is >= n (terms sorted by increasing index), or null.
const Term* first_unknown(std::span<const Term> terms, std::size_t n) noexcept {
  if (terms.empty() || terms.back().index < n) return nullptr;
  for (const Term& t : terms) {
    if (t.index >= n) return &t;
  }
  return nullptr;
}

/// Resizes both to n entries, all zero, written in parallel (first touch spread over the cores).
template <class T, class F>
void zeroed(T& terms, F& flags, std::size_t n) {
  terms.resize(n);
  flags.resize(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 16), [&](const auto& r) {
    std::fill(terms.begin() + r.begin(), terms.begin() + r.end(), QapTerms{Fr::zero(), Fr::zero(), Fr::zero()});
    std::fill(flags.begin() + r.begin(), flags.begin() + r.end(), std::uint8_t{0});
  });
}

}  // namespace

QapEvaluator::QapEvaluator(const Fr& tau, const CircuitShape& shape) : m_(shape.domain_size()), tau_(tau) {
  // The domain of poly::EvaluationDomain (bellperson's): ω = ROOT_OF_UNITY^(2^(32 − k)), m = 2^k.
  const unsigned k = static_cast<unsigned>(std::countr_zero(m_));
  if (k > 32) throw std::invalid_argument("QapEvaluator: domain size 2^" + std::to_string(k) + " exceeds 2^32");
  omega_ = Fr::root_of_unity();
  for (unsigned i = k; i < 32; ++i) omega_ = omega_.square();
  z_tau_ = tau.pow(static_cast<std::uint64_t>(m_)) - Fr::one();
  if (z_tau_.is_zero()) {
    throw std::invalid_argument("QapEvaluator: tau lies in the evaluation domain of size " + std::to_string(m_) +
                                " (Z(tau) = 0)");
  }
  zm_ = z_tau_ * Fr::from_u64(m_).inverse();
  // ONE is allocated by the base class's constructor (no on_alloc_input call for it).
  zeroed(inputs_, input_flags_, std::max<std::size_t>(shape.inputs, 1));
  zeroed(aux_, aux_flags_, shape.aux);
}

void QapEvaluator::on_alloc(Name, ValueFn, std::size_t index) {
  if (index < aux_.size()) return;  // zeroed at construction
  aux_.push_back(QapTerms{Fr::zero(), Fr::zero(), Fr::zero()});
  aux_flags_.push_back(0);
}

void QapEvaluator::on_alloc_input(Name, ValueFn, std::size_t index) {
  if (index < inputs_.size()) return;
  inputs_.push_back(QapTerms{Fr::zero(), Fr::zero(), Fr::zero()});
  input_flags_.push_back(0);
}

void QapEvaluator::refill(std::size_t row) {
  // L_i(τ) = Z(τ)/m · ω^i / (τ − ω^i) for i in [row, row + kLagrangeChunk) ∩ [0, m).
  const std::size_t n = std::min(kLagrangeChunk, m_ - row);
  chunk_.resize(n);
  constexpr std::size_t kBlock = 4096;
  auto block = [&](const tbb::blocked_range<std::size_t>& r) {
    Fr wpow[kBlock], scratch[kBlock];
    const std::size_t len = r.size();
    Fr w = omega_.pow(static_cast<std::uint64_t>(row + r.begin()));
    for (std::size_t i = 0; i < len; ++i) {
      wpow[i] = w;
      chunk_[r.begin() + i] = tau_ - w;
      w *= omega_;
    }
    ff::batch_inverse(std::span<Fr>(chunk_.data() + r.begin(), len), std::span<Fr>(scratch, len));
    for (std::size_t i = 0; i < len; ++i) chunk_[r.begin() + i] = zm_ * wpow[i] * chunk_[r.begin() + i];
  };
  if (n <= kBlock) {
    block(tbb::blocked_range<std::size_t>(0, n));
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kBlock), block, tbb::simple_partitioner());
  }
  chunk_base_ = row;
  if (progress_) progress_(row);
}

void QapEvaluator::on_enforce(Name, const LinearCombination& a, const LinearCombination& b, const LinearCombination& c,
                              std::size_t index) {
  const LinearCombination* lcs[3] = {&a, &b, &c};
  // Check first, record after: a throw leaves nothing half-recorded (messages as KeypairAssembly's).
  for (const LinearCombination* lc : lcs) {
    if (const Term* t = first_unknown(lc->inputs(), num_inputs())) [[unlikely]] {
      throw SynthesisError(SynthesisErrorCode::UnknownVariable, "input variable " + std::to_string(t->index) +
                                                                    " used, but only " + std::to_string(num_inputs()) +
                                                                    " allocated");
    }
    if (const Term* t = first_unknown(lc->aux(), num_aux())) [[unlikely]] {
      throw SynthesisError(SynthesisErrorCode::UnknownVariable, "aux variable " + std::to_string(t->index) +
                                                                    " used, but only " + std::to_string(num_aux()) +
                                                                    " allocated");
    }
  }
  if (index >= m_) [[unlikely]] {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "constraint " + std::to_string(index) + " lies beyond the evaluation domain of size " +
                             std::to_string(m_) + " fixed from the circuit's shape (the circuit has more constraints "
                             "than its shape says)");
  }
  if (chunk_.empty() || index < chunk_base_ || index - chunk_base_ >= chunk_.size()) refill(index);
  const Fr& l = chunk_[index - chunk_base_];
  auto add = [&](std::span<const Term> terms, QapTerms* q, std::uint8_t* flags, Fr QapTerms::*field,
                 std::uint8_t flag) {
    for (const Term& t : terms) {
      if (t.coeff.is_zero()) continue;
      Fr& acc = q[t.index].*field;
      if (detail::is_one(t.coeff)) {
        acc += l;
      } else if (is_minus_one(t.coeff)) {
        acc -= l;
      } else {
        acc += t.coeff * l;
      }
      flags[t.index] |= flag;
    }
  };
  add(a.inputs(), inputs_.data(), input_flags_.data(), &QapTerms::u, kInA);
  add(a.aux(), aux_.data(), aux_flags_.data(), &QapTerms::u, kInA);
  add(b.inputs(), inputs_.data(), input_flags_.data(), &QapTerms::v, kInB);
  add(b.aux(), aux_.data(), aux_flags_.data(), &QapTerms::v, kInB);
  add(c.inputs(), inputs_.data(), input_flags_.data(), &QapTerms::w, kInC);
  add(c.aux(), aux_.data(), aux_flags_.data(), &QapTerms::w, kInC);
}

void QapEvaluator::on_finalize() {
  const CircuitShape got{num_constraints(), num_inputs(), num_aux()};
  if (got.domain_size() != m_) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "the circuit has " + std::to_string(got.constraints) +
                             " constraints (input constraints included), domain size " +
                             std::to_string(got.domain_size()) + ", but the evaluator was set up for domain size " +
                             std::to_string(m_) + " from the circuit's shape");
  }
  std::vector<Fr>().swap(chunk_);
  if (progress_) progress_(num_constraints());
}

}  // namespace proofline::r1cs
