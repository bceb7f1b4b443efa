// QapEvaluator: the QAP at τ accumulated row by row (include/proofline/r1cs/qap_evaluator.hpp).
#include "proofline/r1cs/qap_evaluator.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <mutex>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
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

// The state of the parallel parts (synthesize_parts, below).
struct QapEvaluator::Prefix {
  std::vector<QapTerms> in, aux;
  std::vector<std::uint8_t> in_flags, aux_flags;
  Prefix(std::size_t n_in, std::size_t n_aux)
      : in(n_in, QapTerms{Fr::zero(), Fr::zero(), Fr::zero()}),
        aux(n_aux, QapTerms{Fr::zero(), Fr::zero(), Fr::zero()}),
        in_flags(n_in, 0),
        aux_flags(n_aux, 0) {}
};

struct QapEvaluator::PartRun {
  PartShape part;
  std::size_t c0, i0, x0;  // the prefix's counts
  tbb::enumerable_thread_specific<Prefix> prefixes;
  std::mutex progress_mutex;
  std::size_t rows_done = 0;  // the parts' rows counted so far (under progress_mutex)
  PartRun(const PartShape& p, std::size_t c, std::size_t i, std::size_t x)
      : part(p), c0(c), i0(i), x0(x), prefixes([i, x] { return Prefix(i, x); }) {}
};

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
  if (part_) {  // zeroed by synthesize_parts
    if (index >= part_->aux_end) throw_part_outgrew(part_->j, part_->run->part);
    return;
  }
  if (index < aux_.size()) return;  // zeroed at construction
  aux_.push_back(QapTerms{Fr::zero(), Fr::zero(), Fr::zero()});
  aux_flags_.push_back(0);
}

void QapEvaluator::on_alloc_input(Name, ValueFn, std::size_t index) {
  if (part_) {
    if (index >= part_->input_end) throw_part_outgrew(part_->j, part_->run->part);
    return;
  }
  if (index < inputs_.size()) return;
  inputs_.push_back(QapTerms{Fr::zero(), Fr::zero(), Fr::zero()});
  input_flags_.push_back(0);
}

void QapEvaluator::refill(std::size_t row) {
  // L_i(τ) = Z(τ)/m · ω^i / (τ − ω^i) for i in [row, row + kLagrangeChunk) ∩ [0, end), end = m
  // (a part: its region's end).
  const std::size_t n = std::min(kLagrangeChunk, (part_ ? part_->row_end : m_) - row);
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
  if (n <= kBlock || part_) {
    // A part's chunk on its own thread: the parts are the parallelism (and a nested wait could
    // run another part on this thread's stack).
    for (std::size_t b = 0; b < n; b += kBlock) block(tbb::blocked_range<std::size_t>(b, std::min(n, b + kBlock)));
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kBlock), block, tbb::simple_partitioner());
  }
  chunk_base_ = row;
  if (part_) {
    report_part_rows(row);
  } else if (progress_) {
    progress_(row);
  }
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
  if (part_) {
    if (index >= part_->row_end) throw_part_outgrew(part_->j, part_->run->part);
    for (const LinearCombination* lc : lcs) {
      auto foreign = [&](std::span<const Term> terms, const Route& r, const char* what) {
        for (const Term& t : terms) {
          if (t.index >= r.prefix_end && t.index < r.own_begin) [[unlikely]] {
            throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                                 "part " + std::to_string(part_->j) + " reads " + what + " variable " +
                                     std::to_string(t.index) + " of another part (a part reads only the " +
                                     std::to_string(r.prefix_end) + " " + what + " variables before the parts and its own, from " +
                                     std::to_string(r.own_begin) + ")");
          }
        }
      };
      foreign(lc->inputs(), part_->in, "input");
      foreign(lc->aux(), part_->aux, "aux");
    }
  } else if (index >= m_) [[unlikely]] {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "constraint " + std::to_string(index) + " lies beyond the evaluation domain of size " +
                             std::to_string(m_) + " fixed from the circuit's shape (the circuit has more constraints "
                             "than its shape says)");
  }
  if (chunk_.empty() || index < chunk_base_ || index - chunk_base_ >= chunk_.size()) refill(index);
  const Fr& l = chunk_[index - chunk_base_];
  auto add = [&](std::span<const Term> terms, const Route& r, Fr QapTerms::*field, std::uint8_t flag) {
    for (const Term& t : terms) {
      if (t.coeff.is_zero()) continue;
      const bool own = t.index >= r.own_begin;
      QapTerms* const q = own ? r.own : r.prefix;
      Fr& acc = q[t.index].*field;
      if (detail::is_one(t.coeff)) {
        acc += l;
      } else if (is_minus_one(t.coeff)) {
        acc -= l;
      } else {
        acc += t.coeff * l;
      }
      std::uint8_t* const f = own ? r.own_flags : r.prefix_flags;
      f[t.index] |= flag;
    }
  };
  const Route in = part_ ? part_->in : Route{inputs_.data(), input_flags_.data(), 0, nullptr, nullptr, 0};
  const Route aux = part_ ? part_->aux : Route{aux_.data(), aux_flags_.data(), 0, nullptr, nullptr, 0};
  add(a.inputs(), in, &QapTerms::u, kInA);
  add(a.aux(), aux, &QapTerms::u, kInA);
  add(b.inputs(), in, &QapTerms::v, kInB);
  add(b.aux(), aux, &QapTerms::v, kInB);
  add(c.inputs(), in, &QapTerms::w, kInC);
  add(c.aux(), aux, &QapTerms::w, kInC);
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

// ---- parallel parts ------------------------------------------------------------------------------

QapEvaluator::QapEvaluator(PartTag, QapEvaluator& parent, PartRun& run, std::size_t j, Prefix& prefix)
    : m_(parent.m_), tau_(parent.tau_), z_tau_(parent.z_tau_), zm_(parent.zm_), omega_(parent.omega_),
      progress_(parent.progress_) {
  const PartShape& p = run.part;
  // Counters at part j's first constraint / input / aux (the base class starts with ONE counted).
  add_counts(run.i0 - 1 + j * p.inputs, run.x0 + j * p.aux, run.c0 + j * p.constraints);
  part_ = std::make_unique<PartState>(PartState{
      &run, j, num_constraints() + p.constraints, num_inputs() + p.inputs, num_aux() + p.aux, num_constraints(),
      Route{parent.inputs_.data(), parent.input_flags_.data(), num_inputs(), prefix.in.data(), prefix.in_flags.data(),
            run.i0},
      Route{parent.aux_.data(), parent.aux_flags_.data(), num_aux(), prefix.aux.data(), prefix.aux_flags.data(),
            run.x0}});
}

void QapEvaluator::report_part_rows(std::size_t row) {
  PartRun& run = *part_->run;
  if (!progress_ || row <= part_->reported) return;
  std::lock_guard lock(run.progress_mutex);
  run.rows_done += row - part_->reported;
  part_->reported = row;
  progress_(run.c0 + run.rows_done);
}

void QapEvaluator::synthesize_parts(std::size_t n_parts, const PartShape& part, const PartBody& body,
                                    std::size_t threads) {
  if (is_finalized()) {
    throw SynthesisError(SynthesisErrorCode::AlreadyFinalized, "synthesize_parts() after finalize()");
  }
  const std::size_t c0 = num_constraints(), i0 = num_inputs(), x0 = num_aux();
  const std::size_t ct = c0 + n_parts * part.constraints, it = i0 + n_parts * part.inputs,
                    xt = x0 + n_parts * part.aux;
  if (part_threads_ > 1) threads = threads == 0 ? part_threads_ : std::min(threads, part_threads_);
  // In order: asked for, nothing to share, rows past the domain (the sequential path reports the
  // first of them exactly), or parts within a part.
  if (threads == 1 || part_threads_ == 1 || n_parts <= 1 || ct > m_ || part_) {
    for (std::size_t j = 0; j < n_parts; ++j) body(*this, j);
    return;
  }
  // Every part's variables zeroed up front (most already are: the shape's counts).
  const QapTerms kZero{Fr::zero(), Fr::zero(), Fr::zero()};
  if (inputs_.size() < it) {
    inputs_.resize(it, kZero);
    input_flags_.resize(it, 0);
  }
  if (aux_.size() < xt) {
    aux_.resize(xt, kZero);
    aux_flags_.resize(xt, 0);
  }

  PartRun run(part, c0, i0, x0);
  run_parts(n_parts, threads, [&](std::size_t j) {
    QapEvaluator cs(PartTag{}, *this, run, j, run.prefixes.local());
    body(cs, j);
    check_part(cs, j, part, c0, i0, x0);
    cs.report_part_rows(cs.part_->row_end);
  });

  // The prefix variables' sums of every thread (any order: field addition is exact).
  for (const Prefix& p : run.prefixes) {
    auto merge = [](std::span<const QapTerms> from, std::span<const std::uint8_t> from_flags, QapTerms* to,
                    std::uint8_t* to_flags) {
      for (std::size_t k = 0; k < from.size(); ++k) {
        if (from_flags[k] == 0) continue;  // no term of it (a term's coefficient is non-zero)
        to[k].u += from[k].u;
        to[k].v += from[k].v;
        to[k].w += from[k].w;
        to_flags[k] |= from_flags[k];
      }
    };
    merge(p.in, p.in_flags, inputs_.data(), input_flags_.data());
    merge(p.aux, p.aux_flags, aux_.data(), aux_flags_.data());
  }
  add_counts(it - i0, xt - x0, ct - c0);
}

}  // namespace proofline::r1cs
