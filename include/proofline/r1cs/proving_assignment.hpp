// proofline/r1cs/proving_assignment.hpp — prover mode: the witness and the evaluated A·z, B·z, C·z.
//
// Owns: `ProvingAssignment` (the ConstraintSystem that fills a `ProvingBuffers`, proving_buffers.hpp:
// what the Groth16 prover consumes; movable out, recyclable), bellperson's ProvingAssignment.
//
// Shapes, after finalize() (n = constraints incl. input constraints, I = inputs incl. ONE, X = aux):
//   a, b, c           n values: a[i] = ⟨A_i, z⟩, b[i] = ⟨B_i, z⟩, c[i] = ⟨C_i, z⟩; the last I rows are
//                     the input constraints: a = input value, b = c = 0.
//   input_assignment  I values, [0] = 1 (ONE);  aux_assignment  X values.
//   a_aux_density     X bits: aux j has a nonzero coefficient in some A (no input density for A:
//                     inputs are always dense in A, via the input constraints).
//   b_input_density   I bits, b_aux_density X bits: nonzero coefficient in some B.
// All values are Fr in Montgomery form (the MSM layer converts to canonical where it needs to).
// Density bitmaps: see density.hpp.
//
// Behaviour per call (reference §2.2): alloc calls the value callback and pushes the value and a 0
// bit to both aux densities; alloc_input pushes the value and a 0 bit to b_input_density; enforce
// evaluates the three LCs at once against the assignment so far and sets density bits for nonzero
// coefficients; names and namespaces are ignored. Nothing of an LC is kept.
//
// Memory: reserve() sizes every buffer up front when the shape is known (e.g. from a ShapeCounter
// run or a previous proof of the same circuit), so synthesis performs no allocation at all after
// construction; a ProvingBuffers returned by release() can be handed to the next ProvingAssignment to
// reuse its capacity (pool / reclaimer friendly). The hot path of enforce is three LC evaluations and
// three pushes into reserved vectors.
//
// Fast path: ProvingAssignment registers its buffers with the base class, so gadgets can skip the
// LinearCombination machinery altogether (ConstraintSystem::prover_buffers(), prover_alloc(),
// prover_enforce(), constraint_system.hpp): they push the evaluated ⟨A,z⟩, ⟨B,z⟩, ⟨C,z⟩ and set the
// density bits themselves, under the contract that the result is exactly what on_enforce would
// produce for the LCs the generic path builds (tests/gadgets check both paths against test mode).
//
// Cancellation: set_cancel(flag) (or a CancelScope open on the constructing thread) makes the
// synthesis poll `flag` every ConstraintSystem::kCancelStride allocs + constraints (64 K: well under
// a millisecond of synthesis) on the generic and the fast paths, and throw
// SynthesisError(Cancelled, "synthesis cancelled after N constraints") once it is set. The buffers
// are then partly filled: release() them for reuse, never prove them. The engine opens a
// CancelScope with the job's flag around KindJob::synthesize, so every kind that synthesizes through
// a ProvingAssignment on the worker's thread stops within one stride of Engine::cancel.
//
// Parallel parts (synthesize_parts): a circuit whose tail is a run of independent parts of one
// shape (PoRep: the challenges of a partition, which only read the header's variables) is
// synthesized part by part on oneTBB worker threads, each part into its own region of this
// prover's buffers: a part prover's counters start at the part's first constraint / input / aux
// index, its a, b, c and assignments are vectors over this prover's storage (fixed-storage
// UninitAllocator, proving_buffers.hpp) that it fills in place (each thread first-touches the pages
// it writes), and its densities are window trackers ORed in afterwards (density.hpp). The result is
// byte for byte the one of running the parts in order on this prover.
#pragma once

#include <atomic>

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/density.hpp"
#include "proofline/r1cs/proving_buffers.hpp"

namespace proofline::r1cs {

class ProvingAssignment final : public ConstraintSystem {
 public:
  /// Allocates ONE (input 0, value 1).
  ProvingAssignment();
  /// Reuses `recycled`'s capacity (its contents are discarded), then allocates ONE.
  explicit ProvingAssignment(ProvingBuffers recycled);

  /// Reserves room for the whole synthesis: `n_constraints` including the input constraints,
  /// `n_inputs` including ONE, `n_aux`. On Linux the unwritten part of a, b, c and the aux
  /// assignment is advised for transparent huge pages (MADV_HUGEPAGE, a hint; synthesize_parts
  /// does the same): a fresh buffer's first touch then faults once per 2 MiB, not per 4 KiB
  /// (8 MiB partition on fresh buffers, 2-core VM: 5.2 s → 0.44 s, bench/RESULTS.md).
  void reserve(std::size_t n_constraints, std::size_t n_inputs, std::size_t n_aux);

  bool computes_values() const noexcept override { return true; }

  /// Polls `flag` (relaxed) every kCancelStride units of work and throws SynthesisError(Cancelled)
  /// once it is true; nullptr turns polling off. The flag must outlive the synthesis. The
  /// constructor takes the flag of the innermost CancelScope open on this thread (or nullptr).
  void set_cancel(const std::atomic<bool>* flag) noexcept { set_cancel_flag(flag); }
  const std::atomic<bool>* cancel() const noexcept { return cancel_flag(); }

  /// Turns the gadgets' prover fast path on (the default) or off. Off, every constraint goes
  /// through LinearCombinations and on_enforce, as before the fast path existed; the results are
  /// the same either way (this switch exists for side-by-side benchmarks and tests).
  void set_fast_path(bool on) noexcept { set_prover_buffers(on ? &buf_ : nullptr); }
  bool fast_path() const noexcept { return prover_buffers() != nullptr; }

  std::span<const Fr> a() const noexcept { return buf_.a; }
  std::span<const Fr> b() const noexcept { return buf_.b; }
  std::span<const Fr> c() const noexcept { return buf_.c; }
  std::span<const Fr> input_assignment() const noexcept { return buf_.input_assignment; }
  std::span<const Fr> aux_assignment() const noexcept { return buf_.aux_assignment; }
  const DensityTracker& a_aux_density() const noexcept { return buf_.a_aux_density; }
  const DensityTracker& b_input_density() const noexcept { return buf_.b_input_density; }
  const DensityTracker& b_aux_density() const noexcept { return buf_.b_aux_density; }
  const ProvingBuffers& buffers() const noexcept { return buf_; }

  /// Moves the buffers out; this object is left empty and must not be used again except to be
  /// destroyed.
  ProvingBuffers release() noexcept;

  /// Appends another (unfinalized) prover's results, as bellperson's `extend` does for circuits
  /// synthesized in parallel pieces: a, b, c, aux and the aux densities are concatenated; other's
  /// inputs are appended without its ONE, and other's b-density bit of ONE is ORed into ours.
  /// Variables of `other` have no meaning in *this afterwards; `other` is left without data and
  /// may only be destroyed. Throws AlreadyFinalized if either is finalized.
  void extend(ProvingAssignment&& other);

  /// Runs body(cs_j, j) for j = 0 .. n_parts−1 and leaves this prover exactly as running
  /// body(*this, 0), body(*this, 1), … in order would (same a, b, c, assignments, densities and
  /// counts), where every part adds `part` (constraints, inputs, aux) and reads only variables that
  /// existed before the call (the prefix) or that it allocated itself.
  ///
  /// threads: 1 runs the parts in order on *this (the sequential path); 0 runs them in parallel
  /// in the calling thread's oneTBB arena (all hardware threads by default); n > 1 in an arena of
  /// n threads (at most the machine's). In parallel, cs_j is a part prover (see the header
  /// comment) with this prover's cancellation flag, limits and fast-path switch (and the calling
  /// thread's fault::JobScope),
  /// and the buffers are first grown to their final sizes (capacity: + one input constraint per
  /// input, for finalize()).
  ///
  /// Errors: the error of the lowest-numbered part that failed (parts above a failed one that had
  /// not started are skipped), as the sequential order would report it when the failure depends on
  /// the part only: SynthesisError(Cancelled) when the flag is set (every part stops within one
  /// poll stride); SynthesisError(LimitExceeded) before any work when the final counts exceed
  /// limits(); SynthesisError(ShapeMismatch, "part j …") when a part adds other counts than `part`
  /// (its overflow is stopped at its region's end); AlreadyFinalized after finalize(). After a
  /// throw the buffers hold partial results (release() them for reuse, never prove them).
  bool parallel_parts() const noexcept override { return true; }
  void synthesize_parts(std::size_t n_parts, const PartShape& part, const PartBody& body,
                        std::size_t threads = 0) override;

 protected:
  void on_alloc(Name name, ValueFn value, std::size_t index) override;
  void on_alloc_input(Name name, ValueFn value, std::size_t index) override;
  void on_enforce(Name name, const LinearCombination& a, const LinearCombination& b,
                  const LinearCombination& c, std::size_t index) override;

 private:
  struct PartTag {};
  // Part prover j of synthesize_parts over `parent` (prefix counts c0, i0, x0).
  ProvingAssignment(PartTag, ProvingAssignment& parent, std::size_t j, const PartShape& part, std::size_t c0,
                    std::size_t i0, std::size_t x0);
  void init_one();
  ProvingBuffers buf_;
};

/// While alive, every ProvingAssignment constructed on this thread starts with set_cancel(flag)
/// and set_limits(limits) (for callers that reach the ProvingAssignment only through code they do
/// not own, such as the engine around KindJob::synthesize, which passes the job's cancel flag and
/// the shape its parameters allow). Scopes nest; the destructor restores the previous ones.
class [[nodiscard]] CancelScope {
 public:
  explicit CancelScope(const std::atomic<bool>* flag, const SynthesisLimits& limits = {}) noexcept;
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;
  /// The flag of the innermost scope open on this thread (nullptr if none).
  static const std::atomic<bool>* current() noexcept;
  /// The limits of the innermost scope open on this thread (unbounded if none).
  static SynthesisLimits current_limits() noexcept;

 private:
  const std::atomic<bool>* prev_;
  SynthesisLimits prev_limits_;
};

}  // namespace proofline::r1cs
