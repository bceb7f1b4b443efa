// proofline/r1cs/qap_evaluator.hpp — setup mode at scale: the QAP of every variable at τ, computed
// while the circuit is synthesized; no matrix is stored.
//
// Owns: `QapTerms` (u, v, w of one variable) and `QapEvaluator` (the ConstraintSystem that
// accumulates them, sized by an r1cs::CircuitShape: shape_counter.hpp).
//
// What (reference §1.3; the same numbers as evaluating KeypairAssembly's columns): with m the
// domain size (the smallest power of two >= the constraints, input constraints included), ω its
// root (ROOT_OF_UNITY^(2^32/m), poly::EvaluationDomain's) and L_i(τ) = Z(τ)/m · ω^i/(τ − ω^i), Z(τ) = τ^m − 1,
//   u_j = Σ_i A[i][j]·L_i(τ),  v_j = Σ_i B[i][j]·L_i(τ),  w_j = Σ_i C[i][j]·L_i(τ)
// for every input and aux variable j. Each enforce() of row i adds coeff·L_i(τ) to the u (v, w) of
// each variable with a nonzero coefficient in its A (B, C) side, and sets that variable's flag
// kInA (kInB, kInC): a flag is set exactly when KeypairAssembly's column would be non-empty (the
// prover's density bits). Field addition is exact, so the result equals the column sums bit for bit.
// finalize() adds the input constraints Input(i) · 0 = 0 (rows n … n + inputs − 1), as every mode.
//
// Lagrange coefficients are made ahead of the rows in chunks of kLagrangeChunk (one batch inversion
// per block of 4096, blocks in parallel with oneTBB): rows must arrive in order (they do: the base
// class numbers them). Cost per term: one multiplication (none for a coefficient ±1) and one
// addition. Memory: 97 bytes per variable (3 Fr + flags; zeroed for the shape's counts up front,
// in parallel) plus one chunk.
//
// The shape must be known first (a ShapeCounter pass, or counts the circuit knows: circuits::porep::
// count_porep): m fixes every L_i. A circuit that enforces more rows than the domain holds throws
// SynthesisError(ShapeMismatch) at the first row beyond it; one whose final row count gives another
// domain size, at finalize().
//
// Parallel parts (synthesize_parts, the contract of ConstraintSystem::synthesize_parts): each part
// runs into a part evaluator whose counters start at the part's first constraint / input / aux
// index and whose Lagrange coefficients are computed from the part's first row (up to the part's
// end, on the part's thread). The u, v, w and flags of the variables a part allocates are written
// in place (the parts' ranges are disjoint); those of the prefix variables it reads (ONE, a PoRep or
// SnapDeals header) go to an accumulator of the thread running it (oneTBB enumerable_thread_specific,
// the prefix's size per thread), added to this evaluator's after the last part. Field addition is
// exact, commutative and associative, so every sum is the sequential one bit for bit whatever the
// order. A part that reads a variable of another part (neither the prefix nor its own) throws
// SynthesisError(ShapeMismatch, "part j reads …"). Progress: the parts' rows are counted together
// and reported (under a lock) as each part starts a Lagrange chunk and when it ends.
//
// Values are never computed (computes_values() is false); names are ignored.
// Errors: SynthesisError(UnknownVariable) for a term naming an unallocated variable (the same
// message as KeypairAssembly; nothing is recorded for that constraint), ShapeMismatch as above;
// std::invalid_argument from the constructor for τ in the domain (Z(τ) = 0) or a bad domain size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/proving_buffers.hpp"
#include "proofline/r1cs/shape_counter.hpp"

namespace proofline::r1cs {

/// u_j(τ), v_j(τ), w_j(τ) of one variable (Montgomery form).
struct QapTerms {
  Fr u, v, w;
};

class QapEvaluator final : public ConstraintSystem {
 public:
  /// Flags per variable: set when the variable has a nonzero coefficient in some row's A, B, C.
  static constexpr std::uint8_t kInA = 1, kInB = 2, kInC = 4;
  /// Rows per Lagrange chunk (computed when the first row of the chunk is enforced).
  static constexpr std::size_t kLagrangeChunk = std::size_t{1} << 16;

  /// Evaluates at `tau` over the domain of `shape.domain_size()`; makes room for shape.inputs and
  /// shape.aux variables (a circuit may still allocate more).
  QapEvaluator(const Fr& tau, const CircuitShape& shape);

  bool computes_values() const noexcept override { return false; }

  std::size_t domain_size() const noexcept { return m_; }
  /// Z(τ) = τ^m − 1 (non-zero).
  const Fr& z_tau() const noexcept { return z_tau_; }

  /// One entry per input (ONE first) / aux variable allocated so far.
  std::span<const QapTerms> inputs() const noexcept { return {inputs_.data(), num_inputs()}; }
  std::span<const QapTerms> aux() const noexcept { return {aux_.data(), num_aux()}; }
  std::span<const std::uint8_t> input_flags() const noexcept { return {input_flags_.data(), num_inputs()}; }
  std::span<const std::uint8_t> aux_flags() const noexcept { return {aux_flags_.data(), num_aux()}; }

  /// Called with the number of rows enforced so far, once per Lagrange chunk (every
  /// kLagrangeChunk rows) and at finalize(); for progress reports. Null: none.
  void set_progress(std::function<void(std::size_t rows)> fn) { progress_ = std::move(fn); }

  /// Parts (see the header comment). set_part_threads(1) runs every synthesize_parts in order on
  /// this evaluator (the sequential path); n > 1 caps the threads a call may use (0, the default:
  /// the call's own `threads`). A call's threads: 0 = the calling thread's oneTBB arena, 1 = in
  /// order, n = an arena of n. Errors: ConstraintSystem::synthesize_parts' (ShapeMismatch "part j
  /// …"); a call whose rows would pass the domain runs in order and throws as the sequential path
  /// does; AlreadyFinalized after finalize(). After a throw the sums are partial.
  void set_part_threads(std::size_t n) noexcept { part_threads_ = n; }
  std::size_t part_threads() const noexcept { return part_threads_; }
  bool parallel_parts() const noexcept override { return true; }
  void synthesize_parts(std::size_t n_parts, const PartShape& part, const PartBody& body,
                        std::size_t threads = 0) override;

 protected:
  void on_alloc(Name, ValueFn, std::size_t) override;
  void on_alloc_input(Name, ValueFn, std::size_t) override;
  void on_enforce(Name name, const LinearCombination& a, const LinearCombination& b, const LinearCombination& c,
                  std::size_t index) override;
  void on_finalize() override;

 private:
  struct PartTag {};
  struct PartRun;  // one parallel synthesize_parts call: prefix accumulators, progress
  struct Prefix;   // one thread's sums of the prefix variables
  // Where the terms of one kind of variable (inputs or aux) go: index >= own_begin → own[index],
  // index < prefix_end → prefix[index]; in between: another part's variable (an error).
  struct Route {
    QapTerms* own;
    std::uint8_t* own_flags;
    std::size_t own_begin;
    QapTerms* prefix;
    std::uint8_t* prefix_flags;
    std::size_t prefix_end;
  };
  // Part evaluator j of a synthesize_parts call on `parent` (see PartRun).
  QapEvaluator(PartTag, QapEvaluator& parent, PartRun& run, std::size_t j, Prefix& prefix);
  void refill(std::size_t row);
  void report_part_rows(std::size_t row);

  std::size_t m_;
  Fr tau_, z_tau_, zm_;  // zm = Z(τ)/m
  Fr omega_;
  // Zeroed up to the shape's counts at construction (in parallel: the first touch of ~13 GB at
  // 2^27 would otherwise be page faults on the synthesis thread), grown past them by push_back.
  std::vector<QapTerms, UninitAllocator<QapTerms>> inputs_, aux_;
  std::vector<std::uint8_t, UninitAllocator<std::uint8_t>> input_flags_, aux_flags_;
  std::size_t chunk_base_ = 0;  // first row of chunk_
  std::vector<Fr> chunk_;       // L_i(τ) for rows chunk_base_ … chunk_base_ + chunk_.size() − 1
  std::function<void(std::size_t)> progress_;
  std::size_t part_threads_ = 0;
  // Part evaluators only (null in the evaluator a circuit is synthesized into).
  struct PartState {
    PartRun* run;
    std::size_t j;
    std::size_t row_end, input_end, aux_end;  // this part's ends (its region's)
    std::size_t reported;                     // first row not yet counted in the run's progress
    Route in, aux;
  };
  std::unique_ptr<PartState> part_;
};

}  // namespace proofline::r1cs
