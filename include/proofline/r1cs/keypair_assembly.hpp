// proofline/r1cs/keypair_assembly.hpp — setup mode with the matrices: A, B, C by columns.
//
// Owns: `ColumnEntry`, `SparseColumns` (one matrix, column-compressed, split by variable kind) and
// `KeypairAssembly` (the ConstraintSystem that records them), bellperson's KeypairAssembly.
// groth16's setup no longer uses it: it evaluates the same sums while synthesizing
// (r1cs::QapEvaluator, no stored matrix: 130 M constraints at 2^27 fit). This form stays for tests
// (the oracle of that evaluator, tests/groth16/setup_oracle.hpp) and for inspecting a circuit's
// matrices; its memory grows with the number of terms (≈ 48 B each before finalize()).
//
// What setup needs (reference §1.3): with L_i the Lagrange basis of the evaluation domain
// (constraint i ↔ ω^i), the QAP polynomials of variable j are
//   u_j(τ) = Σ_{(i, c) ∈ A-column j} c · L_i(τ),  v_j(τ) likewise over B, w_j(τ) over C,
// for inputs (ic, a, b queries) and aux (l, a, b queries) separately. Column j of a matrix lists the
// (constraint index, coefficient) pairs of variable j in that matrix, by increasing constraint index.
// Terms with coefficient 0 are not recorded (they add nothing to u_j, v_j, w_j), so a column is
// non-empty exactly when the prover sets that variable's density bit (A over aux; B over inputs and
// aux). After finalize() every input has the A entry (its input constraint row, 1).
//
// Value callbacks are never called (computes_values() is false); names are ignored. The columns
// exist after finalize() (reading them before throws NotFinalized); until then terms are recorded
// row by row and transposed once (counting sort) at finalize().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::r1cs {

struct ColumnEntry {
  std::uint64_t row;  ///< constraint index
  Fr coeff;           ///< nonzero, Montgomery form
  friend bool operator==(const ColumnEntry&, const ColumnEntry&) = default;
};

/// One of the matrices A, B, C stored by columns: input columns 0..num_inputs()−1 and aux columns
/// 0..num_aux()−1 (CSC: offsets + entries per kind).
class SparseColumns {
 public:
  std::span<const ColumnEntry> input(std::size_t j) const noexcept {
    return {inputs_.entries.data() + inputs_.offsets[j], inputs_.entries.data() + inputs_.offsets[j + 1]};
  }
  std::span<const ColumnEntry> aux(std::size_t j) const noexcept {
    return {aux_.entries.data() + aux_.offsets[j], aux_.entries.data() + aux_.offsets[j + 1]};
  }
  std::size_t num_inputs() const noexcept { return inputs_.offsets.empty() ? 0 : inputs_.offsets.size() - 1; }
  std::size_t num_aux() const noexcept { return aux_.offsets.empty() ? 0 : aux_.offsets.size() - 1; }
  /// Number of (nonzero) entries over all columns.
  std::size_t num_entries() const noexcept { return inputs_.entries.size() + aux_.entries.size(); }

 private:
  friend class KeypairAssembly;
  struct Triplet {
    std::uint64_t row;
    std::uint64_t col;
    Fr coeff;
  };
  struct Part {
    std::vector<std::uint64_t> offsets;  // n + 1
    std::vector<ColumnEntry> entries;
    void build(std::size_t n_cols, std::vector<Triplet>& triplets);  // consumes triplets
  };
  Part inputs_, aux_;
};

class KeypairAssembly final : public ConstraintSystem {
 public:
  /// Allocates ONE (input 0).
  KeypairAssembly() = default;

  bool computes_values() const noexcept override { return false; }

  /// The matrices by columns (after finalize()).
  const SparseColumns& a() const { return columns(0); }
  const SparseColumns& b() const { return columns(1); }
  const SparseColumns& c() const { return columns(2); }

 protected:
  void on_alloc(Name, ValueFn, std::size_t) override {}
  void on_alloc_input(Name, ValueFn, std::size_t) override {}
  void on_enforce(Name name, const LinearCombination& a, const LinearCombination& b,
                  const LinearCombination& c, std::size_t index) override;
  void on_finalize() override;

 private:
  const SparseColumns& columns(int m) const;
  // Recorded terms before finalize(): [matrix][0 = inputs, 1 = aux].
  std::vector<SparseColumns::Triplet> pending_[3][2];
  SparseColumns cols_[3];
};

}  // namespace proofline::r1cs
