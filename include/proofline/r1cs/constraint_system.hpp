// proofline/r1cs/constraint_system.hpp — the interface circuits are written against.
//
// Owns: `ConstraintSystem` (abstract: alloc, alloc_input, enforce, namespaces, one, finalize),
// `NamespaceGuard` (RAII), `ValueFn`, the `Circuit` concept, `CircuitInterface` (the same as a
// virtual interface) and `synthesize(circuit, cs)`.
//
// A rank-1 constraint system is a list of constraints ⟨A_i, z⟩ · ⟨B_i, z⟩ = ⟨C_i, z⟩ over the
// assignment z = (inputs, aux), inputs[0] = 1. A circuit describes it by calling, in order:
//   Variable alloc(name, value_fn)        new aux (private) variable, value = value_fn()
//   Variable alloc_input(name, value_fn)  new input (public) variable
//   enforce(name, a, b, c)                new constraint a · b = c
// where a, b, c are each either a LinearCombination, a Variable (1·v), or a callable
// `void(LinearCombination& lc)` that adds terms to an empty `lc` the constraint system lends it
// (its scratch: cleared, capacity kept, so building costs no allocation after warm-up). Variable and
// constraint order is the order of these calls; it fixes the Groth16 parameters, so gadgets must
// reproduce bellpepper's order exactly (reference §8.1).
//
// Modes implement the interface (STYLE point 10): ProvingAssignment (prover), WitnessAssignment
// (witness only), CircuitRecorder (the compiled circuit), QapEvaluator (setup: the QAP at τ),
// KeypairAssembly (setup with the matrices, for tests), TestConstraintSystem (test), ShapeCounter
// (counts). Laziness: names are `Name`s and values
// `ValueFn`s (non-owning callables, see function_ref.hpp); prover mode never builds a name, setup and
// shape modes never call a value callback (`computes_values()` tells a gadget whether it is worth
// computing native witness values at all). Values are Fr in Montgomery form.
//
// finalize() appends bellperson's input constraints: for every input i, ONE included,
// Input(i) · 0 = 0 (reference §2.4), so that every input appears in A and the QAP of the inputs is
// linearly independent; after it, no more alloc/enforce. num_constraints() counts them once added.
//
// Namespaces scope names only (test mode joins them with '/'): `auto ns = cs.namespace_("round_3");`
// pops when `ns` goes out of scope. Names must not contain '/'.
//
// Prover fast path: in prover mode (only) `prover_buffers()` returns the buffers being filled, and a
// gadget that knows its constraints' evaluated sides natively may call prover_alloc() /
// prover_enforce() and set the density bits itself instead of building LinearCombinations (see
// prover_buffers() for the contract). enforce() with three Variables takes that path by itself.
//
// Witness-only mode (WitnessAssignment, witness_assignment.hpp): `witness_only()` is true and
// enforce() only counts the constraint: its a, b, c are never resolved (LC callables are not
// called) and nothing checks the variables they name. Gadgets that build LinearCombinations outside
// enforce() (MultiEq, Poseidon's round states) skip them when witness_only(); gadgets that know
// their new variables' values natively may push them with witness_alloc() / witness_alloc_bits()
// and count their constraints with witness_enforce() (see those for the contract). Namespaces are
// ignored, as in prover mode.
//
// Cancellation (prover and witness-only modes): ProvingAssignment::set_cancel(flag) (and
// WitnessAssignment's) makes synthesis poll an std::atomic<bool> (relaxed) once per kCancelStride
// units of work (a unit: one alloc or one constraint, on the generic and the fast paths;
// prover_extend and the witness fast path count their whole block) and throw
// SynthesisError(Cancelled, "synthesis cancelled after N constraints") from the call that sees it
// set. The hot path pays one decrement and one branch of a counter; no atomic load per constraint.
//
// Errors: SynthesisError (error.hpp), thrown from the call that failed; value callbacks may throw it
// too (AssignmentMissing). A constraint system is used by one thread at a time. The LC callables
// must not call back into the constraint system.
//
// Sources: bellpepper-core `constraint_system.rs` (trait ConstraintSystem, Namespace, Circuit),
// bellperson `groth16/prover` (ProvingAssignment, synthesize_circuits_batch), as summarized in
// ../shared/reference/formats-and-circuits.md §2.1–2.4.
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/error.hpp"
#include "proofline/r1cs/function_ref.hpp"
#include "proofline/r1cs/linear_combination.hpp"
#include "proofline/r1cs/packed_witness.hpp"
#include "proofline/r1cs/proving_buffers.hpp"
#include "proofline/r1cs/variable.hpp"

namespace proofline::r1cs {

/// Lazy witness value: called at most once, only by modes that compute values; may throw
/// SynthesisError(AssignmentMissing).
using ValueFn = FunctionRef<Fr()>;

class ConstraintSystem;

/// Pops its namespace when destroyed (or at close()). Move-only.
class [[nodiscard]] NamespaceGuard {
 public:
  NamespaceGuard(NamespaceGuard&& o) noexcept : cs_(std::exchange(o.cs_, nullptr)) {}
  NamespaceGuard(const NamespaceGuard&) = delete;
  NamespaceGuard& operator=(const NamespaceGuard&) = delete;
  NamespaceGuard& operator=(NamespaceGuard&&) = delete;
  ~NamespaceGuard() { close(); }
  /// Pops the namespace now (idempotent).
  inline void close() noexcept;

 private:
  friend class ConstraintSystem;
  explicit NamespaceGuard(ConstraintSystem* cs) noexcept : cs_(cs) {}
  ConstraintSystem* cs_;
};

/// Bounds on one prover-mode synthesis (the shape its parameters allow, so its buffers stay within
/// the memory the engine reserved for them). Checked at every cancellation poll (every
/// kCancelStride units of work), so a synthesis overshoots by at most one stride before it throws
/// SynthesisError(LimitExceeded). SIZE_MAX: unbounded.
struct SynthesisLimits {
  std::size_t max_constraints = SIZE_MAX;  ///< enforce() calls (input constraints not counted)
  std::size_t max_inputs = SIZE_MAX;       ///< inputs including ONE
  std::size_t max_aux = SIZE_MAX;          ///< aux variables
};

/// The counts one part adds (its own constraints, inputs and aux variables), for synthesize_parts.
struct PartShape {
  std::size_t constraints = 0;
  std::size_t inputs = 0;
  std::size_t aux = 0;
  friend bool operator==(const PartShape&, const PartShape&) = default;
};

class ConstraintSystem {
 public:
  /// One part of synthesize_parts: synthesizes part j into the constraint system it is given.
  using PartBody = std::function<void(ConstraintSystem&, std::size_t)>;

  virtual ~ConstraintSystem() = default;
  ConstraintSystem(const ConstraintSystem&) = delete;
  ConstraintSystem& operator=(const ConstraintSystem&) = delete;

  /// Input(0), the constant ONE, allocated by every mode's constructor.
  static constexpr Variable one() noexcept { return Variable::input(0); }
  /// Units of work (allocs + constraints) between two polls of the cancellation flag (prover mode).
  static constexpr std::int64_t kCancelStride = std::int64_t{1} << 16;

  /// New aux variable. `value` is called only if computes_values().
  Variable alloc(Name name, ValueFn value) {
    check_open();
    on_alloc(name, value, n_aux_);
    return Variable::aux(n_aux_++);
  }
  /// New input variable. `value` is called only if computes_values().
  Variable alloc_input(Name name, ValueFn value) {
    check_open();
    on_alloc_input(name, value, n_inputs_);
    return Variable::input(n_inputs_++);
  }

  /// New constraint a · b = c. Each of a, b, c: a LinearCombination, a Variable, or a callable
  /// `void(LinearCombination&)` filling the (empty) scratch LC it is given.
  template <class A, class B, class C>
  void enforce(Name name, A&& a, B&& b, C&& c) {
    check_open();
    if (witness_ != nullptr) {  // witness-only: count it, resolve nothing
      witness_enforce(1);
      return;
    }
    using TA = std::remove_cvref_t<A>;
    using TB = std::remove_cvref_t<B>;
    using TC = std::remove_cvref_t<C>;
    if constexpr (std::is_same_v<TA, Variable> && std::is_same_v<TB, Variable> && std::is_same_v<TC, Variable>) {
      if (prover_ != nullptr && enforce_variables_fast(a, b, c)) return;
    }
    const LinearCombination& la = resolve(std::forward<A>(a), scratch_[0]);
    const LinearCombination& lb = resolve(std::forward<B>(b), scratch_[1]);
    const LinearCombination& lc = resolve(std::forward<C>(c), scratch_[2]);
    on_enforce(name, la, lb, lc, n_constraints_);
    ++n_constraints_;
  }

  // ---- prover fast path ----------------------------------------------------------------------
  /// The buffers being filled in prover mode (ProvingAssignment); nullptr in every other mode.
  /// With it, a gadget that knows the evaluated sides of its constraints natively may bypass the
  /// LinearCombination path: prover_alloc() for alloc(), prover_enforce() for enforce(), setting
  /// the density bits (a_aux_density, b_input_density, b_aux_density) itself. It must produce
  /// exactly what the generic path produces: the same values pushed in the same order, the same
  /// a, b, c (⟨A,z⟩, ⟨B,z⟩, ⟨C,z⟩ over the current assignment z) and the same density bits (aux
  /// variables with a nonzero net coefficient in A; inputs and aux with one in B). Prover mode does
  /// not use names, so the fast path takes none. Writing the buffers any other way is undefined.
  ProvingBuffers* prover_buffers() noexcept { return prover_; }
  const ProvingBuffers* prover_buffers() const noexcept { return prover_; }
  /// Fast-path alloc (prover_buffers() != nullptr only): pushes `value` to the aux assignment and a
  /// 0 bit to both aux densities; returns the new aux variable.
  [[gnu::always_inline]] Variable prover_alloc(const Fr& value) {
    check_open();
    tick_cancel(1);
    prover_->aux_assignment.push_back(value);
    prover_->a_aux_density.push_back(false);
    prover_->b_aux_density.push_back(false);
    return Variable::aux(n_aux_++);
  }
  /// Fast-path enforce (prover_buffers() != nullptr only): appends one constraint given by its
  /// evaluated sides a = ⟨A,z⟩, b = ⟨B,z⟩, c = ⟨C,z⟩; the caller sets its density bits.
  [[gnu::always_inline]] void prover_enforce(const Fr& a, const Fr& b, const Fr& c) {
    check_open();
    tick_cancel(1);
    prover_->a.push_back(a);
    prover_->b.push_back(b);
    prover_->c.push_back(c);
    ++n_constraints_;
  }
  /// A block of new aux variables and constraints (prover_extend()): the caller writes
  /// values[0, n_aux) (the new variables' values, in allocation order) and a, b, c[0, n_constraints)
  /// (the new constraints' evaluated sides, in constraint order): every one of them, since they start
  /// unwritten (ProvingBuffers' UninitAllocator), not zero. The pointers are
  /// valid until the next push to the buffers.
  struct ProverBlock {
    Fr* values;
    Fr* a;
    Fr* b;
    Fr* c;
    std::uint64_t first_aux;  ///< aux index of values[0]
    /// The j-th new variable (j < n_aux).
    Variable var(std::size_t j) const noexcept { return Variable::aux(first_aux + j); }
  };
  /// Bulk form of n_aux prover_alloc() and n_constraints prover_enforce() calls (prover_buffers() !=
  /// nullptr only): extends the aux assignment, both aux densities (zero bits) and a, b, c once, so
  /// that a word gadget writes its 32 or 64 elements through plain pointers. The result is the same
  /// as the single pushes in the same order (the aux and constraint sequences are independent).
  ProverBlock prover_extend(std::size_t n_aux, std::size_t n_constraints) {
    check_open();
    tick_cancel(static_cast<std::int64_t>(n_aux + n_constraints));
    ProvingBuffers& p = *prover_;
    const std::size_t va = p.aux_assignment.size(), ca = p.a.size();
    p.aux_assignment.resize(va + n_aux);
    p.a_aux_density.push_zeros(n_aux);
    p.b_aux_density.push_zeros(n_aux);
    p.a.resize(ca + n_constraints);
    p.b.resize(ca + n_constraints);
    p.c.resize(ca + n_constraints);
    const ProverBlock block{p.aux_assignment.data() + va, p.a.data() + ca, p.b.data() + ca, p.c.data() + ca, n_aux_};
    n_aux_ += n_aux;
    n_constraints_ += n_constraints;
    return block;
  }
  /// The value of `v` in the prover's assignment (prover_buffers() != nullptr, v allocated).
  const Fr& prover_value(Variable v) const noexcept {
    return v.is_aux() ? prover_->aux_assignment[v.index()] : prover_->input_assignment[v.index()];
  }
  /// Sets the density bits of `v` appearing with a nonzero coefficient in A (aux only) / in B.
  void prover_dense_in_a(Variable v) noexcept {
    if (v.is_aux()) prover_->a_aux_density.set(v.index());
  }
  void prover_dense_in_b(Variable v) noexcept {
    if (v.is_aux()) prover_->b_aux_density.set(v.index());
    else prover_->b_input_density.set(v.index());
  }

  // ---- witness-only fast path -----------------------------------------------------------------
  /// True in witness-only mode (WitnessAssignment): values are computed and kept, constraints only
  /// counted. A gadget may then skip building LinearCombinations altogether and use the three
  /// calls below in place of alloc() / enforce(), under the contract that it allocates the same
  /// values in the same order as its generic path (the constraint count must match too; their
  /// order does not matter, since nothing of a constraint is kept).
  bool witness_only() const noexcept { return witness_ != nullptr; }
  /// Fast-path alloc (witness_only() only): appends `value` to the aux assignment.
  [[gnu::always_inline]] Variable witness_alloc(const Fr& value) {
    check_open();
    tick_cancel(1);
    witness_->push_back(value);
    return Variable::aux(n_aux_++);
  }
  /// count <= 64 new aux variables holding bits 0 .. count−1 of `values` (LSB first), in that
  /// order (witness_only() only); returns the aux index of the first (bit k is first + k).
  [[gnu::always_inline]] std::uint64_t witness_alloc_bits(std::uint64_t values, std::size_t count) {
    check_open();
    tick_cancel(static_cast<std::int64_t>(count));
    witness_->push_bits(values, count);
    const std::uint64_t first = n_aux_;
    n_aux_ += count;
    return first;
  }
  /// Counts `count` constraints (witness_only() only: what enforce() does in that mode).
  [[gnu::always_inline]] void witness_enforce(std::size_t count) {
    check_open();
    tick_cancel(static_cast<std::int64_t>(count));
    n_constraints_ += count;
  }

  /// Opens a namespace until the guard is destroyed.
  NamespaceGuard namespace_(Name name) {
    push_namespace(name);
    return NamespaceGuard(this);
  }
  /// Low-level namespace control (prefer namespace_()).
  void push_namespace(Name name) {
    if (prover_ == nullptr && witness_ == nullptr) on_push_namespace(name);  // prover, witness modes ignore them
    ++ns_depth_;
  }
  void pop_namespace() noexcept {
    if (ns_depth_ == 0) return;
    --ns_depth_;
    if (prover_ == nullptr && witness_ == nullptr) on_pop_namespace();
  }
  std::size_t namespace_depth() const noexcept { return ns_depth_; }

  /// True if this mode evaluates witness values (prover, test); false for setup and shape modes,
  /// where a gadget may skip computing native values (its value callbacks are never called).
  virtual bool computes_values() const noexcept = 0;

  // ---- independent parts ---------------------------------------------------------------------
  /// True for the modes whose synthesize_parts runs the parts in parallel (ProvingAssignment,
  /// QapEvaluator); false where it runs them in order (the default below).
  virtual bool parallel_parts() const noexcept { return false; }
  /// Runs body(cs_j, j) for j = 0 .. n_parts−1 and leaves this system exactly as running
  /// body(*this, 0), body(*this, 1), … in order would, where every part adds `part` (constraints,
  /// inputs, aux) and reads only variables that existed before the call (the prefix) or that it
  /// allocated itself. The one entry point of circuits made of independent parts (PoSt sectors,
  /// PoRep / SnapDeals challenges) for every mode. This default runs the parts in order on *this
  /// (`threads` ignored); ProvingAssignment and QapEvaluator run them on up to `threads` oneTBB
  /// threads (0: the calling thread's arena; 1: in order) with the same result byte for byte, and
  /// throw SynthesisError(ShapeMismatch, "part j …") when a part adds other counts than `part`.
  virtual void synthesize_parts(std::size_t n_parts, const PartShape& part, const PartBody& body,
                                std::size_t threads = 0);

  /// Inputs allocated so far, ONE included.
  std::size_t num_inputs() const noexcept { return n_inputs_; }
  std::size_t num_aux() const noexcept { return n_aux_; }
  /// Constraints enforced so far (after finalize(): including the num_inputs() input constraints).
  std::size_t num_constraints() const noexcept { return n_constraints_; }

  /// Appends Input(i) · 0 = 0 for i = 0 .. num_inputs()−1 and closes the system. Throws
  /// NamespaceNotClosed if a namespace is open, AlreadyFinalized on a second call.
  void finalize();
  bool is_finalized() const noexcept { return finalized_; }

 protected:
  ConstraintSystem() = default;

  // Hooks for the modes. `index` is the new variable's / constraint's index. A hook that throws
  // leaves the counters unchanged.
  virtual void on_alloc(Name name, ValueFn value, std::size_t index) = 0;
  virtual void on_alloc_input(Name name, ValueFn value, std::size_t index) = 0;
  virtual void on_enforce(Name name, const LinearCombination& a, const LinearCombination& b,
                          const LinearCombination& c, std::size_t index) = 0;
  virtual void on_push_namespace(Name) {}
  virtual void on_pop_namespace() noexcept {}
  /// Called once, after finalize() appended the input constraints.
  virtual void on_finalize() {}

  /// For modes that merge another system's counts (ProvingAssignment::extend).
  void add_counts(std::size_t inputs, std::size_t aux, std::size_t constraints) noexcept {
    n_inputs_ += inputs;
    n_aux_ += aux;
    n_constraints_ += constraints;
  }
  /// Registers prover mode's buffers (ProvingAssignment's constructor): enables the fast path.
  /// The mode's on_push_namespace / on_pop_namespace are then no longer called.
  void set_prover_buffers(ProvingBuffers* buffers) noexcept { prover_ = buffers; }
  /// Registers witness-only mode's aux assignment (WitnessAssignment's constructor): enables
  /// witness_only() and the witness fast path; enforce() then calls no hook.
  void set_witness_buffer(PackedWitness* aux) noexcept { witness_ = aux; }
  /// The flag polled by tick_cancel() (nullptr: never cancelled). Prover mode only sets it.
  void set_cancel_flag(const std::atomic<bool>* flag) noexcept {
    cancel_ = flag;
    cancel_countdown_ = kCancelStride;
  }
  const std::atomic<bool>* cancel_flag() const noexcept { return cancel_; }
  /// The bounds checked at each poll (prover mode; default: unbounded).
  void set_limits(const SynthesisLimits& limits) noexcept { limits_ = limits; }
  const SynthesisLimits& limits() const noexcept { return limits_; }
  /// Counts `work` units; every kCancelStride units polls the flag (poll_cancel). Call it before
  /// changing anything, so that a throw leaves the counters and buffers as they were.
  [[gnu::always_inline]] void tick_cancel(std::int64_t work) {
    if ((cancel_countdown_ -= work) < 0) [[unlikely]] poll_cancel();
  }
  /// Resets the countdown; throws SynthesisError(Cancelled) if the flag is set, LimitExceeded if a
  /// count is over limits(), and fault::Injected where the "synthesis" fault point is armed
  /// (util/fault.hpp).
  void poll_cancel();
  /// The start of a parallel synthesize_parts: throws SynthesisError(AlreadyFinalized) after
  /// finalize(); when threads == 1 or n_parts <= 1 runs the parts in order on *this and returns
  /// true (nothing left to do), else returns false.
  bool parts_in_order(std::size_t n_parts, const PartBody& body, std::size_t threads);
  /// For the parallel synthesize_parts, before any part runs: SynthesisError(Cancelled) if the
  /// cancel flag is set, LimitExceeded if the final counts exceed limits().
  void check_parts_fit(std::size_t constraints, std::size_t inputs, std::size_t aux) const;
  /// For the parallel synthesize_parts: runs run_part(j) for every j < n_parts on oneTBB threads
  /// (threads 0: the calling thread's arena; n: an arena of min(n, hardware) threads), each under
  /// the calling thread's fault::JobScope (util/fault.hpp), and rethrows
  /// the exception of the lowest-numbered part that threw (parts above a failed one that had not
  /// started are skipped), as the sequential order would report it.
  static void run_parts(std::size_t n_parts, std::size_t threads, const std::function<void(std::size_t)>& run_part);
  /// Part j's counts check after its body ran on `cs`, whose counters started at c0 + j·part.constraints,
  /// i0 + j·part.inputs, x0 + j·part.aux: SynthesisError(ShapeMismatch, "part j added …") when it
  /// added other counts or left a namespace open.
  static void check_part(const ConstraintSystem& cs, std::size_t j, const PartShape& part, std::size_t c0,
                         std::size_t i0, std::size_t x0);
  /// SynthesisError(ShapeMismatch, "part j outgrew its shape (…)").
  [[noreturn]] static void throw_part_outgrew(std::size_t j, const PartShape& part);

  /// Back to the freshly constructed state (ONE allocated, nothing else) for recycled modes.
  void reset_counts() noexcept {
    n_inputs_ = 1;
    n_aux_ = 0;
    n_constraints_ = 0;
    ns_depth_ = 0;
    finalized_ = false;
  }

 private:
  void check_open() const {
    if (finalized_) [[unlikely]] throw_finalized();
  }
  [[noreturn]] static void throw_finalized();

  // a · b = c over three variables in prover mode: every coefficient is 1, so the sides are the
  // variables' values and each of a, b is dense. False (nothing done) if one is not allocated yet,
  // so that the generic path reports the error.
  bool enforce_variables_fast(Variable a, Variable b, Variable c) {
    const ProvingBuffers& p = *prover_;
    auto known = [&](Variable v) {
      return v.index() < (v.is_aux() ? p.aux_assignment.size() : p.input_assignment.size());
    };
    if (!known(a) || !known(b) || !known(c)) [[unlikely]] return false;
    prover_dense_in_a(a);
    prover_dense_in_b(b);
    prover_enforce(prover_value(a), prover_value(b), prover_value(c));
    return true;
  }

  template <class L>
  static const LinearCombination& resolve(L&& l, LinearCombination& scratch) {
    using T = std::remove_cvref_t<L>;
    if constexpr (std::is_base_of_v<LinearCombination, T>) {
      return l;
    } else if constexpr (std::is_same_v<T, Variable>) {
      scratch.clear();
      scratch.add(l);
      return scratch;
    } else {
      static_assert(std::is_invocable_v<L&, LinearCombination&>,
                    "enforce: each of a, b, c must be a LinearCombination, a Variable, or a callable "
                    "void(LinearCombination&)");
      scratch.clear();
      l(scratch);
      return scratch;
    }
  }

  std::size_t n_inputs_ = 1;  // ONE
  std::size_t n_aux_ = 0;
  std::size_t n_constraints_ = 0;
  std::size_t ns_depth_ = 0;
  bool finalized_ = false;
  std::int64_t cancel_countdown_ = kCancelStride;
  const std::atomic<bool>* cancel_ = nullptr;
  SynthesisLimits limits_;
  ProvingBuffers* prover_ = nullptr;
  PackedWitness* witness_ = nullptr;
  LinearCombination scratch_[3];
};

inline void NamespaceGuard::close() noexcept {
  if (cs_ != nullptr) std::exchange(cs_, nullptr)->pop_namespace();
}

/// A circuit: anything with `synthesize(ConstraintSystem&)` (const or not).
template <class C>
concept Circuit = requires(C& c, ConstraintSystem& cs) { c.synthesize(cs); };

/// The same contract as a virtual interface, for circuits chosen at run time.
class CircuitInterface {
 public:
  virtual ~CircuitInterface() = default;
  virtual void synthesize(ConstraintSystem& cs) const = 0;
};

/// Runs the circuit into `cs`, then cs.finalize() (the input constraints). This is what the prover
/// and setup do; a test that wants only the circuit's own constraints calls circuit.synthesize(cs).
template <class C>
  requires Circuit<std::remove_reference_t<C>>
void synthesize(C&& circuit, ConstraintSystem& cs) {
  circuit.synthesize(cs);
  cs.finalize();
}

}  // namespace proofline::r1cs
