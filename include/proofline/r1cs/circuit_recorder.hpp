// proofline/r1cs/circuit_recorder.hpp — recording mode: the circuit's A, B, C as a CompiledCircuit.
//
// Owns: `CircuitRecorder`, the ConstraintSystem that records every enforce() as three sparse rows
// over z = [inputs | aux] (compiled_circuit.hpp: CSR, tabled coefficients, density bitmaps), input
// constraints included (finalize() appends them through on_enforce, as in every mode).
//
// Values are never computed (computes_values() is false) and prover_buffers() is nullptr, so gadgets
// take the generic LinearCombination path, whose rows equal their prover fast path's by contract
// (constraint_system.hpp). Names and namespaces are ignored. Per term: terms with coefficient 0 are
// skipped (no entry, no density bit), ±1 found by a limb compare, other coefficients looked up in a
// hash table.
//
// Parallel parts (synthesize_parts, the contract of ConstraintSystem::synthesize_parts): each part
// is recorded by a part recorder on a oneTBB thread (its counters start at the part's first
// constraint / input / aux, its density bitmaps are window trackers, density.hpp, and its
// coefficient table is its own); afterwards the parts are appended in order, their coefficient
// indices mapped into this recorder's table (new values appended in the parts' order of first use)
// and their bitmaps ORed in. The result is the sequential order's byte for byte, table order
// included. A part that reads a variable of another part (neither the prefix nor its own) throws
// SynthesisError(ShapeMismatch, "part j reads …"); a part adding other counts than `part` throws
// ShapeMismatch as check_part says.
//
// Memory while recording: 6 B per entry (u32 column, u16 index) and 4 B per row and matrix (u32
// row offsets), with vector growth slack; 3 bits per variable for the densities. Parallel parts
// are copied into this recorder at the end (twice the parts' bytes at that moment). compile() moves
// it all into the result.
//
// Errors: SynthesisError(UnknownVariable) for a term naming a variable not allocated yet (nothing of
// that constraint recorded); SynthesisError(LimitExceeded) when inputs + aux reach 2^32, a matrix
// 2^32 entries, or the distinct coefficients exceed CompiledCircuit::kMaxCoefficients; NotFinalized
// from compile() before finalize().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::r1cs {

class CircuitRecorder final : public ConstraintSystem {
 public:
  /// Allocates ONE (input 0).
  CircuitRecorder();

  bool computes_values() const noexcept override { return false; }

  /// Parts in parallel (see the header comment): threads 1 runs them in order on *this, 0 in the
  /// calling thread's oneTBB arena, n in an arena of n threads.
  bool parallel_parts() const noexcept override { return true; }
  void synthesize_parts(std::size_t n_parts, const PartShape& part, const PartBody& body,
                        std::size_t threads = 0) override;

  /// The compiled circuit (after finalize()); the recorder is left empty and may only be destroyed.
  CompiledCircuit compile() &&;

 protected:
  void on_alloc(Name, ValueFn, std::size_t) override;
  void on_alloc_input(Name, ValueFn, std::size_t) override;
  void on_enforce(Name name, const LinearCombination& a, const LinearCombination& b, const LinearCombination& c,
                  std::size_t index) override;

 private:
  struct FrHash {
    std::size_t operator()(const Fr& f) const noexcept {
      return static_cast<std::size_t>(f.limbs[0] ^ (f.limbs[1] * 0x9e3779b97f4a7c15ull) ^ (f.limbs[3] >> 7));
    }
  };
  struct PartTag {};
  // Part recorder j of synthesize_parts (prefix counts c0, i0, x0).
  CircuitRecorder(PartTag, std::size_t j, const PartShape& part, std::size_t c0, std::size_t i0, std::size_t x0);
  struct FrEqual {
    bool operator()(const Fr& x, const Fr& y) const noexcept {
      return ((x.limbs[0] ^ y.limbs[0]) | (x.limbs[1] ^ y.limbs[1]) | (x.limbs[2] ^ y.limbs[2]) |
              (x.limbs[3] ^ y.limbs[3])) == 0;
    }
  };
  CoeffIndex coeff_index(const Fr& c);
  void check_known(const LinearCombination& lc) const;
  // Appends part recorders' rows (in order) and ORs in their densities.
  void append_parts(std::vector<std::unique_ptr<CircuitRecorder>>& parts);
  template <class OnInput, class OnAux>
  void record(int m, const LinearCombination& lc, OnInput&& on_input, OnAux&& on_aux);

  std::array<CompiledCircuit::OwnedRows, 3> rows_;
  std::vector<Fr> table_;
  std::unordered_map<Fr, CoeffIndex, FrHash, FrEqual> index_of_;
  DensityTracker a_aux_, b_input_, b_aux_;
  // Part recorders only: the part number and the other parts' variables, [lo, hi) per kind, that
  // it must not read (empty for the main recorder).
  std::size_t part_ = 0;
  std::uint64_t foreign_in_[2] = {0, 0}, foreign_aux_[2] = {0, 0};
};

}  // namespace proofline::r1cs
