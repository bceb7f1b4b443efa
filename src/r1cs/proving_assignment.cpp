// ProvingAssignment: prover-mode synthesis (evaluate each constraint at once, track densities).
#include "proofline/r1cs/proving_assignment.hpp"

#include <string>
#include <utility>

#include "proofline/util/fault.hpp"

namespace proofline::r1cs {

namespace {
thread_local const std::atomic<bool>* t_cancel_scope = nullptr;
thread_local SynthesisLimits t_limits_scope;
}  // namespace

CancelScope::CancelScope(const std::atomic<bool>* flag, const SynthesisLimits& limits) noexcept
    : prev_(t_cancel_scope), prev_limits_(t_limits_scope) {
  t_cancel_scope = flag;
  t_limits_scope = limits;
}
CancelScope::~CancelScope() {
  t_cancel_scope = prev_;
  t_limits_scope = prev_limits_;
}
const std::atomic<bool>* CancelScope::current() noexcept { return t_cancel_scope; }
SynthesisLimits CancelScope::current_limits() noexcept { return t_limits_scope; }

// ConstraintSystem's cancellation poll (constraint_system.hpp): out of line, off the hot path.
void ConstraintSystem::poll_cancel() {
  cancel_countdown_ = kCancelStride;
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) [[unlikely]] {
    throw SynthesisError(SynthesisErrorCode::Cancelled,
                         "synthesis cancelled after " + std::to_string(n_constraints_) + " constraints");
  }
  if (fault::fire("synthesis")) [[unlikely]] {
    throw fault::Injected("injected fault at synthesis (after " + std::to_string(n_constraints_) + " constraints)");
  }
  auto over = [](const char* what, std::size_t n, std::size_t max) {
    if (n > max) [[unlikely]] {
      throw SynthesisError(SynthesisErrorCode::LimitExceeded,
                           std::to_string(n) + " " + what + " so far, more than the " + std::to_string(max) +
                               " the parameters allow (the buffers reserved for this partition would overflow)");
    }
  };
  over("constraints", n_constraints_, limits_.max_constraints);
  over("aux variables", n_aux_, limits_.max_aux);
  over("inputs", n_inputs_, limits_.max_inputs);
}

void ProvingBuffers::clear() noexcept {
  a.clear();
  b.clear();
  c.clear();
  input_assignment.clear();
  aux_assignment.clear();
  a_aux_density.clear();
  b_input_density.clear();
  b_aux_density.clear();
}

ProvingAssignment::ProvingAssignment() {
  set_prover_buffers(&buf_);
  set_cancel_flag(CancelScope::current());
  set_limits(CancelScope::current_limits());
  init_one();
}

ProvingAssignment::ProvingAssignment(ProvingBuffers recycled) : buf_(std::move(recycled)) {
  set_prover_buffers(&buf_);
  set_cancel_flag(CancelScope::current());
  set_limits(CancelScope::current_limits());
  buf_.clear();
  init_one();
}

void ProvingAssignment::init_one() {
  // ONE is Input(0) (the base class counts it): value 1, and not (yet) B-dense.
  buf_.input_assignment.push_back(Fr::one());
  buf_.b_input_density.push_back(false);
}

void ProvingAssignment::reserve(std::size_t n_constraints, std::size_t n_inputs, std::size_t n_aux) {
  buf_.a.reserve(n_constraints);
  buf_.b.reserve(n_constraints);
  buf_.c.reserve(n_constraints);
  buf_.input_assignment.reserve(n_inputs);
  buf_.aux_assignment.reserve(n_aux);
  buf_.a_aux_density.reserve(n_aux);
  buf_.b_input_density.reserve(n_inputs);
  buf_.b_aux_density.reserve(n_aux);
}

ProvingBuffers ProvingAssignment::release() noexcept { return std::move(buf_); }

void ProvingAssignment::on_alloc(Name, ValueFn value, std::size_t) {
  tick_cancel(1);
  buf_.aux_assignment.push_back(value());
  buf_.a_aux_density.push_back(false);
  buf_.b_aux_density.push_back(false);
}

void ProvingAssignment::on_alloc_input(Name, ValueFn value, std::size_t) {
  buf_.input_assignment.push_back(value());
  buf_.b_input_density.push_back(false);
}

void ProvingAssignment::on_enforce(Name, const LinearCombination& a, const LinearCombination& b,
                                   const LinearCombination& c, std::size_t) {
  tick_cancel(1);
  const std::span<const Fr> in = buf_.input_assignment;
  const std::span<const Fr> aux = buf_.aux_assignment;
  using detail::accumulate_terms;
  using detail::NoDensity;
  DensityTracker& a_aux = buf_.a_aux_density;
  DensityTracker& b_in = buf_.b_input_density;
  DensityTracker& b_aux = buf_.b_aux_density;

  // A: density over aux only (inputs are always dense in A).
  Fr va = Fr::zero();
  bool sa = false;
  accumulate_terms(va, sa, a.inputs(), in, "input", NoDensity{});
  accumulate_terms(va, sa, a.aux(), aux, "aux", [&](std::uint64_t j) { a_aux.set(j); });
  // B: density over inputs and aux.
  Fr vb = Fr::zero();
  bool sb = false;
  accumulate_terms(vb, sb, b.inputs(), in, "input", [&](std::uint64_t j) { b_in.set(j); });
  accumulate_terms(vb, sb, b.aux(), aux, "aux", [&](std::uint64_t j) { b_aux.set(j); });
  // C: no density.
  Fr vc = Fr::zero();
  bool sc = false;
  accumulate_terms(vc, sc, c.inputs(), in, "input", NoDensity{});
  accumulate_terms(vc, sc, c.aux(), aux, "aux", NoDensity{});

  buf_.a.push_back(va);
  buf_.b.push_back(vb);
  buf_.c.push_back(vc);
}

void ProvingAssignment::extend(ProvingAssignment&& other) {
  if (is_finalized() || other.is_finalized()) {
    throw SynthesisError(SynthesisErrorCode::AlreadyFinalized,
                         "extend() combines provers before their input constraints are appended");
  }
  if (&other == this) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "extend() of a prover with itself");
  }
  ProvingBuffers& o = other.buf_;
  buf_.a.insert(buf_.a.end(), o.a.begin(), o.a.end());
  buf_.b.insert(buf_.b.end(), o.b.begin(), o.b.end());
  buf_.c.insert(buf_.c.end(), o.c.begin(), o.c.end());
  buf_.aux_assignment.insert(buf_.aux_assignment.end(), o.aux_assignment.begin(), o.aux_assignment.end());
  buf_.a_aux_density.extend(o.a_aux_density, false);
  buf_.b_aux_density.extend(o.b_aux_density, false);
  // Other's ONE is dropped; its B-density bit is ORed into ours.
  buf_.input_assignment.insert(buf_.input_assignment.end(), o.input_assignment.begin() + 1,
                               o.input_assignment.end());
  buf_.b_input_density.extend(o.b_input_density, true);
  add_counts(other.num_inputs() - 1, other.num_aux(), other.num_constraints());
  o.clear();
}

}  // namespace proofline::r1cs
