// proofline/circuits/bench/bench.hpp — built-in circuits for tests, demos and benchmarks.
//
// Owns: `MulCircuit` (the tiny fixed circuit: a·b = c, c public — bellperson's serialization-test
// shape, whose .params is exactly 2136 bytes) and `SizedCircuit` (a circuit of exactly 2^k
// constraint rows, k = 4 … 27, with a realistic mix of boolean and full-field values), plus the
// lookup by name used by the CLI (`make_circuit`).
//
// SizedCircuit(k, x): public inputs x (the seed) and y (the result); rows = constraints + the three
// input constraints (ONE, x, y) = exactly 2^k, so the Groth16 domain is exactly 2^k. The work is
// blocks of 64 constraints on a state s ∈ Fr, s_0 = x:
//   5 S-box rounds (full-field values):   t = s + c_j (+ Σ_i 2^i·r_i from the previous block's
//                                          AND bits, folded into the first round's LC),
//                                          s2 = t·t,  s4 = s2·s2,  s = s4·t        (3 constraints)
//   bit decomposition of s's low 32 bits: b_i·(1 − b_i) = 0 for 32 booleans, then
//                                          (Σ 2^i·b_i + 2^32·hi)·1 = s, hi full-field  (33)
//   16 ANDs of bit pairs:                  b_{2i}·b_{2i+1} = r_i                      (16)
// so 16 of every 64 rows (25%) carry full-field values and 48 (75%) booleans (as in Filecoin's SHA-256-heavy
// circuits). The rows left over after the last whole block are a chain s' = s·(s + 1), and the last
// row is s·1 = y. Round constants c_j = j^3 + 7 (no meaning; fixed so the circuit is deterministic).
// In setup and shape modes (computes_values() false) no native values are computed.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/shape_counter.hpp"

namespace proofline::circuits::bench {

using ff::Fr;

/// a·b = c with a, b private and c public (2 inputs incl. ONE, 2 aux, 1 constraint).
struct MulCircuit final : r1cs::CircuitInterface {
  Fr a = Fr::from_u64(3);
  Fr b = Fr::from_u64(11);
  MulCircuit() = default;
  MulCircuit(const Fr& a_, const Fr& b_) : a(a_), b(b_) {}
  void synthesize(r1cs::ConstraintSystem& cs) const override;
  /// The public input c = a·b.
  std::vector<Fr> public_inputs() const { return {a * b}; }
};

class SizedCircuit final : public r1cs::CircuitInterface {
 public:
  static constexpr unsigned kMinLog = 4;
  static constexpr unsigned kMaxLog = 27;
  static constexpr std::size_t kNumInputs = 3;  ///< ONE, x, y
  static constexpr std::size_t kBlockConstraints = 64;

  /// Throws std::invalid_argument for log_rows outside [kMinLog, kMaxLog].
  SizedCircuit(unsigned log_rows, const Fr& x);

  void synthesize(r1cs::ConstraintSystem& cs) const override;

  unsigned log_rows() const { return log_rows_; }
  /// Constraints emitted by synthesize (2^k − 3; the prover appends the 3 input constraints).
  std::size_t num_constraints() const { return (std::size_t{1} << log_rows_) - kNumInputs; }
  /// Its shape without synthesis: 2^k rows (input constraints included), 3 inputs, 2^k − 4 aux
  /// (each constraint before the output row allocates exactly one aux variable).
  r1cs::CircuitShape shape() const {
    const std::size_t rows = std::size_t{1} << log_rows_;
    return {rows, kNumInputs, rows - 4};
  }
  /// (x, y): computed natively on first call (cost ~ 2^k field operations).
  std::vector<Fr> public_inputs() const;

 private:
  unsigned log_rows_;
  Fr x_;
  mutable std::vector<Fr> cached_inputs_;
};

/// Built-in circuit by name: "mul" (the fixed one; log_rows ignored) or "bench" (SizedCircuit).
/// `seed` picks the witness (x for bench; a = seed + 3, b = seed + 11 for mul).
/// Throws std::invalid_argument for an unknown name or size.
struct BuiltinCircuit {
  std::unique_ptr<r1cs::CircuitInterface> circuit;
  std::vector<Fr> public_inputs;
  std::string description;
};
BuiltinCircuit make_circuit(const std::string& name, unsigned log_rows, std::uint64_t seed);
/// The description make_circuit gives, without building the circuit or its witness.
/// std::invalid_argument for an unknown name.
std::string circuit_description(const std::string& name, unsigned log_rows);
/// Names accepted by make_circuit.
std::vector<std::string> circuit_names();

}  // namespace proofline::circuits::bench
