// ConstraintSystem: finalize() (bellperson's input constraints) and error helpers.
#include "proofline/r1cs/constraint_system.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "proofline/util/fault.hpp"

namespace proofline::r1cs {

void ConstraintSystem::throw_finalized() {
  throw SynthesisError(SynthesisErrorCode::AlreadyFinalized,
                       "the input constraints have been appended; no alloc/enforce after finalize()");
}

void ConstraintSystem::finalize() {
  check_open();
  if (ns_depth_ != 0) {
    throw SynthesisError(SynthesisErrorCode::NamespaceNotClosed,
                         std::to_string(ns_depth_) + " namespace(s) still open at finalize()");
  }
  // Input(i) · 0 = 0 for every input, ONE included (bellperson synthesize_circuits_batch).
  scratch_[1].clear();
  scratch_[2].clear();
  for (std::size_t i = 0; i < n_inputs_; ++i) {
    scratch_[0].clear();
    scratch_[0].add(Variable::input(i));
    auto name = [i] { return "input_constraint_" + std::to_string(i); };
    on_enforce(Name(name), scratch_[0], scratch_[1], scratch_[2], n_constraints_);
    ++n_constraints_;
  }
  finalized_ = true;
  on_finalize();
}

// ---- independent parts ---------------------------------------------------------------------------

void ConstraintSystem::synthesize_parts(std::size_t n_parts, const PartShape&, const PartBody& body, std::size_t) {
  for (std::size_t j = 0; j < n_parts; ++j) body(*this, j);
}

namespace {
// SynthesisError(LimitExceeded) when a count is over its limit; `when`: "so far" / "in all".
void check_limit(const char* what, std::size_t n, std::size_t max, const char* when) {
  if (n > max) [[unlikely]] {
    throw SynthesisError(SynthesisErrorCode::LimitExceeded,
                         std::to_string(n) + " " + what + " " + when + ", more than the " + std::to_string(max) +
                             " the parameters allow (the buffers reserved for this partition would overflow)");
  }
}
}  // namespace

// The cancellation poll (prover and witness-only modes): out of line, off the hot path.
void ConstraintSystem::poll_cancel() {
  cancel_countdown_ = kCancelStride;
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) [[unlikely]] {
    throw SynthesisError(SynthesisErrorCode::Cancelled,
                         "synthesis cancelled after " + std::to_string(n_constraints_) + " constraints");
  }
  if (fault::fire("synthesis")) [[unlikely]] {
    throw fault::Injected("injected fault at synthesis (after " + std::to_string(n_constraints_) + " constraints)");
  }
  check_limit("constraints", n_constraints_, limits_.max_constraints, "so far");
  check_limit("aux variables", n_aux_, limits_.max_aux, "so far");
  check_limit("inputs", n_inputs_, limits_.max_inputs, "so far");
}

void ConstraintSystem::check_parts_fit(std::size_t constraints, std::size_t inputs, std::size_t aux) const {
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
    throw SynthesisError(SynthesisErrorCode::Cancelled,
                         "synthesis cancelled after " + std::to_string(n_constraints_) + " constraints");
  }
  check_limit("constraints", constraints, limits_.max_constraints, "in all");
  check_limit("aux variables", aux, limits_.max_aux, "in all");
  check_limit("inputs", inputs, limits_.max_inputs, "in all");
}

bool ConstraintSystem::parts_in_order(std::size_t n_parts, const PartBody& body, std::size_t threads) {
  if (finalized_) {
    throw SynthesisError(SynthesisErrorCode::AlreadyFinalized, "synthesize_parts() after finalize()");
  }
  if (threads != 1 && n_parts > 1) return false;
  for (std::size_t j = 0; j < n_parts; ++j) body(*this, j);
  return true;
}

void ConstraintSystem::run_parts(std::size_t n_parts, std::size_t threads,
                                 const std::function<void(std::size_t)>& run_part) {
  std::vector<std::exception_ptr> errors(n_parts);
  std::atomic<std::size_t> first_failed{n_parts};
  const std::string* job = fault::JobScope::current();
  auto one = [&](std::size_t j) {
    if (j > first_failed.load(std::memory_order_relaxed)) return;  // an earlier part failed
    std::optional<fault::JobScope> scope;  // the calling thread's fault scope, on every worker
    if (job != nullptr) scope.emplace(*job);
    try {
      run_part(j);
    } catch (...) {
      errors[j] = std::current_exception();
      std::size_t cur = first_failed.load();
      while (j < cur && !first_failed.compare_exchange_weak(cur, j)) {
      }
    }
  };
  auto run_all = [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_parts, 1),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t j = r.begin(); j < r.end(); ++j) one(j);
                      },
                      tbb::simple_partitioner());
  };
  // More threads than the machine has would not run at once (and oneTBB warns): capped.
  const auto hw = static_cast<std::size_t>(tbb::info::default_concurrency());
  if (threads == 0 || hw <= 1) {
    run_all();
  } else {
    tbb::task_arena arena(static_cast<int>(std::min(threads, hw)));
    arena.execute(run_all);
  }
  if (const std::size_t f = first_failed.load(); f < n_parts) std::rethrow_exception(errors[f]);
}

void ConstraintSystem::check_part(const ConstraintSystem& cs, std::size_t j, const PartShape& part, std::size_t c0,
                                  std::size_t i0, std::size_t x0) {
  const PartShape got{cs.num_constraints() - (c0 + j * part.constraints), cs.num_inputs() - (i0 + j * part.inputs),
                      cs.num_aux() - (x0 + j * part.aux)};
  if (!(got == part) || cs.namespace_depth() != 0) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "part " + std::to_string(j) + " added " + std::to_string(got.constraints) + " constraints, " +
                             std::to_string(got.inputs) + " inputs, " + std::to_string(got.aux) + " aux (expected " +
                             std::to_string(part.constraints) + ", " + std::to_string(part.inputs) + ", " +
                             std::to_string(part.aux) + (cs.namespace_depth() != 0 ? "; a namespace left open)" : ")"));
  }
}

void ConstraintSystem::throw_part_outgrew(std::size_t j, const PartShape& part) {
  throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                       "part " + std::to_string(j) + " outgrew its shape (" + std::to_string(part.constraints) +
                           " constraints, " + std::to_string(part.inputs) + " inputs, " + std::to_string(part.aux) +
                           " aux)");
}

}  // namespace proofline::r1cs
