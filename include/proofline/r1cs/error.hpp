// proofline/r1cs/error.hpp — errors raised while a circuit is synthesized.
//
// Owns: `SynthesisErrorCode` (one code per failure a caller may branch on), `to_string`, and the
// exception `SynthesisError` (code + a message that names the variable, path or count involved).
// Synthesis reports errors by throwing: value callbacks throw `AssignmentMissing` when a mode asks
// for a witness the circuit does not have, gadgets throw `DivisionByZero`, the constraint systems
// throw the naming/namespace/state codes. After a throw the constraint system is in an unspecified
// (but destructible) state and must be discarded. Codes follow bellpepper-core's SynthesisError where
// the failure is the same (AssignmentMissing, DivisionByZero, Unsatisfiable); the naming codes are
// the conditions on which bellpepper's TestConstraintSystem panics.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace proofline::r1cs {

enum class SynthesisErrorCode : int {
  AssignmentMissing,   ///< a value callback was asked for a witness value that is not known
  DivisionByZero,      ///< a gadget had to invert zero
  Unsatisfiable,       ///< a gadget found its constraint cannot be satisfied by the given values
  UnknownVariable,     ///< a linear combination names a variable index that was never allocated
  InvalidName,         ///< a name contains '/', the path separator
  DuplicateName,       ///< a name already used in the same namespace (test mode)
  UnknownPath,         ///< get/set by a path that names no variable (test mode)
  NamespaceNotClosed,  ///< finalize() while a namespace is still open
  AlreadyFinalized,    ///< alloc/enforce/finalize after finalize()
  NotFinalized,        ///< a result that exists only after finalize() was read before it
  ShapeMismatch,       ///< combining constraint systems of incompatible state
  Cancelled,           ///< the prover's cancellation flag was set (ProvingAssignment::set_cancel)
  LimitExceeded,       ///< more constraints / variables than the synthesis' limits allow (SynthesisLimits)
};

constexpr std::string_view to_string(SynthesisErrorCode e) {
  switch (e) {
    case SynthesisErrorCode::AssignmentMissing: return "assignment missing";
    case SynthesisErrorCode::DivisionByZero: return "division by zero";
    case SynthesisErrorCode::Unsatisfiable: return "unsatisfiable constraint";
    case SynthesisErrorCode::UnknownVariable: return "unknown variable";
    case SynthesisErrorCode::InvalidName: return "invalid name";
    case SynthesisErrorCode::DuplicateName: return "duplicate name";
    case SynthesisErrorCode::UnknownPath: return "unknown path";
    case SynthesisErrorCode::NamespaceNotClosed: return "namespace not closed";
    case SynthesisErrorCode::AlreadyFinalized: return "constraint system already finalized";
    case SynthesisErrorCode::NotFinalized: return "constraint system not finalized";
    case SynthesisErrorCode::ShapeMismatch: return "shape mismatch";
    case SynthesisErrorCode::Cancelled: return "cancelled";
    case SynthesisErrorCode::LimitExceeded: return "synthesis exceeded its limits";
  }
  return "unknown synthesis error";
}

/// Exception thrown by synthesis: `code()` to branch on, `what()` = "<code>: <message>".
class SynthesisError : public std::runtime_error {
 public:
  SynthesisError(SynthesisErrorCode code, const std::string& message)
      : std::runtime_error(std::string(to_string(code)) + ": " + message), code_(code) {}
  explicit SynthesisError(SynthesisErrorCode code) : std::runtime_error(std::string(to_string(code))), code_(code) {}
  SynthesisErrorCode code() const noexcept { return code_; }

 private:
  SynthesisErrorCode code_;
};

}  // namespace proofline::r1cs
