// proofline/r1cs/compiled_circuit.hpp — a circuit's matrices A, B, C, compiled once per shape and
// evaluated against any witness: a = A·z, b = B·z, c = C·z.
//
// Owns: `CompiledShape` (the counts), `SparseRows` (one matrix as compressed sparse rows, a view),
// `CompiledCircuit` (A, B, C, the coefficient table and the prover's density bitmaps) and
// `evaluate()` (the CPU evaluation). Made by r1cs::CircuitRecorder (circuit_recorder.hpp), written
// to and read from disk by compiled_file.hpp.
//
// Variables: z = [inputs | aux], the order the Groth16 prover uses: column j < I is input j (j = 0
// is ONE), column I + k is aux k. n = constraints including the I input constraints that
// ConstraintSystem::finalize() appends (row n − I + i is Input(i) · 0 = 0), so evaluating all n rows
// gives exactly ProvingAssignment's a, b, c.
//
// Matrix m (0 = A, 1 = B, 2 = C) as CSR: row i's entries are e ∈ [row_offsets[i], row_offsets[i+1])
// (u32 offsets), each a column cols[e] (u32; strictly increasing within a row, so inputs come
// first) and a coefficient coefficients()[coeff_index[e]] (u16 index). Only nonzero net
// coefficients are kept: a LinearCombination holds one term per variable (repeated adds of a
// variable merged, linear_combination.hpp), and a term whose coefficients cancelled to 0 is dropped,
// as ProvingAssignment skips it (no value contribution, no density bit). Coefficient table: the
// distinct nonzero values, Montgomery form; index 0 is always +1 and index 1 always −1 (present
// whether used or not), the rest in order of first use (2 KiB PoRep partition: 1,526 values; 68.7 %
// of the entries ±1, 24.8 % ±2^k).
//
// Densities (density.hpp): a_aux_density (X bits: aux with a nonzero coefficient in some A row),
// b_input_density (I bits) and b_aux_density (X bits) for B: equal to ProvingAssignment's, which
// depend on the circuit only, never on the witness.
//
// Limits: I + X < 2^32 (u32 columns), fewer than 2^32 entries per matrix (u32 offsets) and at most
// 65,536 distinct coefficients (u16 indices); the recorder throws SynthesisError(LimitExceeded)
// beyond any of them. (A 32 GiB PoRep partition: ≈ 2^27 variables, ≈ 2^28.2 entries in A.)
// Bytes: 4 per row and matrix + 6 per entry + 32 per coefficient + 1 bit per variable and bitmap.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/density.hpp"

namespace proofline::r1cs {

class PackedWitness;
struct ProvingBuffers;

using ff::Fr;

/// Index of a coefficient in CompiledCircuit::coefficients().
using CoeffIndex = std::uint16_t;
/// Column of z = [inputs | aux].
using Column = std::uint32_t;
/// Index of an entry within its matrix (row offsets).
using RowOffset = std::uint32_t;

/// The counts of a compiled circuit.
struct CompiledShape {
  std::uint64_t constraints = 0;   ///< n, input constraints included
  std::uint64_t inputs = 1;        ///< I, ONE included
  std::uint64_t aux = 0;           ///< X
  std::array<std::uint64_t, 3> nnz{};  ///< nonzero entries of A, B, C
  std::uint64_t coefficients = 2;  ///< K, the table's length (>= 2: +1 and −1)
  /// C is not stored (nnz[2] = 0): c_i = a_i·b_i, every row. A snarkjs zkey's circuit (circom encodes
  /// its constraints so that A·B = C row by row and the zkey keeps no C; groth16/snarkjs/circuit.hpp).
  /// Such a circuit is made from a zkey when it is loaded, never written to a file (compiled_file.hpp
  /// refuses it), and evaluated on the host (gpu/backend.hpp "Compiled form").
  bool c_is_ab = false;
  friend bool operator==(const CompiledShape&, const CompiledShape&) = default;
};

/// One matrix as compressed sparse rows (a view into its CompiledCircuit).
struct SparseRows {
  std::span<const RowOffset> row_offsets;      ///< n + 1, row_offsets[0] = 0, [n] = nnz
  std::span<const Column> cols;                ///< nnz
  std::span<const CoeffIndex> coeff_index;     ///< nnz
  std::size_t rows() const noexcept { return row_offsets.empty() ? 0 : row_offsets.size() - 1; }
  std::size_t nnz() const noexcept { return cols.size(); }
};

class CompiledCircuit {
 public:
  static constexpr CoeffIndex kPlusOne = 0;
  static constexpr CoeffIndex kMinusOne = 1;
  static constexpr std::size_t kMaxCoefficients = std::size_t{1} << 16;

  /// One matrix's arrays, owned.
  struct OwnedRows {
    std::vector<RowOffset> row_offsets{0};
    std::vector<Column> cols;
    std::vector<CoeffIndex> coeff_index;
  };
  /// A compiled circuit whose matrices are views into storage held elsewhere (a file mapping) that
  /// `keep_alive` keeps valid.
  struct Parts {
    CompiledShape shape;
    std::array<SparseRows, 3> matrices;
    std::vector<Fr> coefficients;
    DensityTracker a_aux_density, b_input_density, b_aux_density;
    std::shared_ptr<const void> keep_alive;
  };

  CompiledCircuit() = default;
  /// From owned arrays (the recorder). Shapes are taken from the arrays; no check.
  /// `c_is_ab`: CompiledShape::c_is_ab (matrices[2] then has the rows and no entry).
  CompiledCircuit(std::uint64_t inputs, std::uint64_t aux, std::array<OwnedRows, 3> matrices,
                  std::vector<Fr> coefficients, DensityTracker a_aux, DensityTracker b_input, DensityTracker b_aux,
                  bool c_is_ab = false);
  /// From views into storage kept alive by parts.keep_alive (the file reader, after validation).
  explicit CompiledCircuit(Parts parts);
  CompiledCircuit(CompiledCircuit&&) noexcept = default;
  CompiledCircuit& operator=(CompiledCircuit&&) noexcept = default;
  CompiledCircuit(const CompiledCircuit&) = delete;
  CompiledCircuit& operator=(const CompiledCircuit&) = delete;

  const CompiledShape& shape() const noexcept { return shape_; }
  /// Matrix m: 0 = A, 1 = B, 2 = C.
  const SparseRows& matrix(int m) const noexcept { return views_[m]; }
  const SparseRows& a() const noexcept { return views_[0]; }
  const SparseRows& b() const noexcept { return views_[1]; }
  const SparseRows& c() const noexcept { return views_[2]; }
  /// The distinct coefficients, Montgomery form; [0] = 1, [1] = −1.
  std::span<const Fr> coefficients() const noexcept { return coefficients_; }
  const DensityTracker& a_aux_density() const noexcept { return a_aux_; }
  const DensityTracker& b_input_density() const noexcept { return b_input_; }
  const DensityTracker& b_aux_density() const noexcept { return b_aux_; }

  /// Bytes of the matrices (offsets, columns, indices), the table and the bitmaps: what the
  /// compiled form occupies in memory, on the host or (the same arrays) on a device.
  std::size_t bytes() const noexcept;
  /// Entries with coefficient +1 or −1, over the three matrices.
  std::size_t unit_entries() const noexcept;

  /// Same shape, matrices, coefficient table (in order) and bitmaps, wherever each is stored.
  friend bool operator==(const CompiledCircuit& x, const CompiledCircuit& y) noexcept;

 private:
  void set_views() noexcept;
  CompiledShape shape_;
  std::array<OwnedRows, 3> owned_;
  std::array<SparseRows, 3> views_;
  std::vector<Fr> coefficients_;
  DensityTracker a_aux_, b_input_, b_aux_;
  std::shared_ptr<const void> keep_alive_;
};

/// a = A·z, b = B·z, c = C·z (c_is_ab: c = a·b row by row) for z = [inputs | aux] (Montgomery form in and out), rows in parallel
/// on oneTBB (the calling thread's arena). Bit for bit what ProvingAssignment computes for the same
/// circuit and witness (field arithmetic is exact, so the order of the terms does not matter).
/// Multiplications only where neither side is ±1 or 0/1: coefficient ±1 adds or subtracts the value,
/// a value 1 adds the coefficient, a value 0 adds nothing.
/// Output arguments first: a, b, c must have shape().constraints elements; inputs shape().inputs
/// (inputs[0] = 1), aux shape().aux. Throws ProoflineError(BadLength, "… got N, expected M") on a
/// length mismatch; nothing is written then.
void evaluate(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const CompiledCircuit& circuit,
              std::span<const Fr> inputs, std::span<const Fr> aux);

/// Turns a partition in the compiled form (proving_buffers.hpp) into the evaluated form on the host:
/// a packed aux assignment expanded into aux_assignment, a, b, c evaluated (evaluate(), every core
/// of the calling thread's arena), `compiled` dropped. Buffers already in the evaluated form are left
/// as they are. Errors as evaluate().
void evaluate_in_place(ProvingBuffers& buf);

/// Index of the first row i with ⟨A_i, z⟩·⟨B_i, z⟩ ≠ ⟨C_i, z⟩ for z = [inputs | aux], or nullopt if
/// every row holds: the constraint check of the compiled form, evaluating each row as evaluate()
/// does but keeping no a, b, c (rows in parallel blocks on oneTBB; the lowest failing row wins).
/// A c_is_ab circuit holds by construction: nullopt (its C is not known).
/// Throws ProoflineError(BadLength) as evaluate() on an inputs or aux length mismatch.
std::optional<std::size_t> first_unsatisfied(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                                             std::span<const Fr> aux);
/// The same check over an aux assignment held packed (packed_witness.hpp: each value found by rank,
/// no plain copy made).
std::optional<std::size_t> first_unsatisfied(const CompiledCircuit& circuit, std::span<const Fr> inputs,
                                             const PackedWitness& aux);

}  // namespace proofline::r1cs
