// ConstraintSystem: finalize() (bellperson's input constraints) and error helpers.
#include "proofline/r1cs/constraint_system.hpp"

#include <string>

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

}  // namespace proofline::r1cs
