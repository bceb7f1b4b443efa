// proofline/r1cs/witness_assignment.hpp — witness-only mode: the assignment z and nothing else.
//
// Owns: `WitnessBuffers` (the inputs as plain Fr, the aux assignment bit-packed: packed_witness.hpp)
// and `WitnessAssignment`, the ConstraintSystem that fills them (bellpepper's WitnessCS; issue 31
// item 2). With a compiled circuit (compiled_circuit.hpp) it replaces prover mode:
//   WitnessAssignment w; synthesize(circuit, w);
//   evaluate(a, b, c, compiled, w.input_assignment(), w.aux_assignment().expand())
// gives ProvingAssignment's a, b, c byte for byte; the density bitmaps are the compiled circuit's.
//
// Behaviour: alloc / alloc_input call the value callback and store the value (aux values that are
// 0 or 1 as bits as they come, the others in the side array); enforce() counts the constraint and
// does nothing else (constraint_system.hpp "Witness-only mode": no LinearCombination is resolved,
// no variable checked, so a circuit's shape errors show in the other modes, not here); finalize()
// counts the input constraints. Names and namespaces are ignored. The counts (num_inputs(),
// num_aux(), num_constraints()) are prover mode's. Values equal prover mode's value for value: both
// store what the circuit's value callbacks (or fast paths) give, in allocation order.
//
// Fast path: ConstraintSystem::witness_only() is true, and gadgets that would build
// LinearCombinations outside enforce() skip them; word gadgets push their bits 64 at a time
// (witness_alloc_bits()). prover_buffers() is nullptr, so the prover fast paths are never taken.
//
// Parallel parts (synthesize_parts, the contract of ConstraintSystem::synthesize_parts): each part
// runs in a part system on a oneTBB thread, its counters starting at the part's first constraint /
// input / aux, filling its own packed fragment and inputs (a part reads nothing back from the
// system, so it needs no access to the prefix); the fragments are appended in part order
// afterwards (PackedWitness::append: a word shift per 64 values). The result is the sequential
// order's byte for byte.
//
// Cancellation and limits: as ProvingAssignment (set_cancel, CancelScope, SynthesisLimits checked
// every kCancelStride units of work). Memory: 2.5 bits per aux value + 32 B per non-bit aux value +
// 32 B per input (PackedWitness::bytes()); reserve() sizes it up front.
#pragma once

#include <atomic>
#include <cstddef>
#include <span>
#include <vector>

#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/packed_witness.hpp"

namespace proofline::r1cs {

/// What witness-only mode produces: inputs (ONE first) and the packed aux assignment.
struct WitnessBuffers {
  std::vector<Fr> input_assignment;
  PackedWitness aux_assignment;
  /// Empties both, keeping capacity.
  void clear() noexcept {
    input_assignment.clear();
    aux_assignment.clear();
  }
};

class WitnessAssignment final : public ConstraintSystem {
 public:
  /// Allocates ONE (input 0, value 1). Takes the cancel flag and limits of the innermost
  /// CancelScope open on this thread (proving_assignment.hpp).
  WitnessAssignment();
  /// Reuses `recycled`'s capacity (its contents are discarded), then allocates ONE.
  explicit WitnessAssignment(WitnessBuffers recycled);

  /// Room for `n_inputs` inputs (ONE included) and `n_aux` aux values, `n_others` of them not 0/1.
  void reserve(std::size_t n_inputs, std::size_t n_aux, std::size_t n_others = 0);

  bool computes_values() const noexcept override { return true; }

  /// As ProvingAssignment::set_cancel.
  void set_cancel(const std::atomic<bool>* flag) noexcept { set_cancel_flag(flag); }
  const std::atomic<bool>* cancel() const noexcept { return cancel_flag(); }

  std::span<const Fr> input_assignment() const noexcept { return buf_.input_assignment; }
  const PackedWitness& aux_assignment() const noexcept { return buf_.aux_assignment; }
  const WitnessBuffers& buffers() const noexcept { return buf_; }
  /// Moves the buffers out; this object may then only be destroyed.
  WitnessBuffers release() noexcept { return std::move(buf_); }

  /// Parts in parallel (see the header comment): threads 1 runs them in order on *this, 0 in the
  /// calling thread's oneTBB arena, n in an arena of min(n, hardware) threads. Errors as
  /// ProvingAssignment::synthesize_parts (Cancelled, LimitExceeded before any work, ShapeMismatch
  /// "part j …", AlreadyFinalized).
  bool parallel_parts() const noexcept override { return true; }
  void synthesize_parts(std::size_t n_parts, const PartShape& part, const PartBody& body,
                        std::size_t threads = 0) override;

 protected:
  void on_alloc(Name name, ValueFn value, std::size_t index) override;
  void on_alloc_input(Name name, ValueFn value, std::size_t index) override;
  /// Only finalize()'s input constraints reach it; nothing to do.
  void on_enforce(Name, const LinearCombination&, const LinearCombination&, const LinearCombination&,
                  std::size_t) override {}

 private:
  struct PartTag {};
  // Part system j of synthesize_parts over `parent` (prefix counts c0, i0, x0): empty buffers.
  WitnessAssignment(PartTag, const WitnessAssignment& parent, std::size_t j, const PartShape& part, std::size_t c0,
                    std::size_t i0, std::size_t x0);
  WitnessBuffers buf_;
};

}  // namespace proofline::r1cs
