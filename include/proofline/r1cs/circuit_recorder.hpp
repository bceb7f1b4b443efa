// proofline/r1cs/circuit_recorder.hpp — recording mode: the circuit's A, B, C as a CompiledCircuit.
//
// Owns: `CircuitRecorder`, the ConstraintSystem that records every enforce() as three sparse rows
// over z = [inputs | aux] (compiled_circuit.hpp: CSR, tabled coefficients, density bitmaps), input
// constraints included (finalize() appends them through on_enforce, as in every mode).
//
// Values are never computed (computes_values() is false) and prover_buffers() is nullptr, so gadgets
// take the generic LinearCombination path, whose rows equal their prover fast path's by contract
// (constraint_system.hpp). Names and namespaces are ignored. synthesize_parts runs the parts in
// order (the base class's default). Per term: terms with coefficient 0 are skipped (no entry, no
// density bit), ±1 found by a limb compare, other coefficients looked up in a hash table.
//
// Memory while recording: 14 B per entry (u32 column, u16 index, and the row offsets: 8 B per row
// and matrix), 3 bits per variable for the densities. compile() moves it all into the result.
//
// Errors: SynthesisError(UnknownVariable) for a term naming a variable not allocated yet (nothing of
// that constraint recorded); SynthesisError(LimitExceeded) when inputs + aux reach 2^32 or the
// distinct coefficients exceed CompiledCircuit::kMaxCoefficients; NotFinalized from compile() before
// finalize().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
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
  CoeffIndex coeff_index(const Fr& c);
  void check_known(const LinearCombination& lc) const;
  template <class OnInput, class OnAux>
  void record(int m, const LinearCombination& lc, OnInput&& on_input, OnAux&& on_aux);

  std::array<CompiledCircuit::OwnedRows, 3> rows_;
  std::vector<Fr> table_;
  std::unordered_map<Fr, CoeffIndex, FrHash> index_of_;
  DensityTracker a_aux_, b_input_, b_aux_;
};

}  // namespace proofline::r1cs
