// proofline/r1cs/shape_counter.hpp — shape mode: counts, stores nothing.
//
// Owns: `CircuitShape` (the counts of a finalized circuit, which fix its Groth16 domain) and
// `ShapeCounter`, a ConstraintSystem that only counts: inputs (ONE included), aux variables,
// constraints (num_* of the base class), and the nonzero-coefficient terms of A, B and C (= the
// entries KeypairAssembly would record). Memory use is constant, so it can size buffers for a
// 130M-constraint circuit (ProvingAssignment::reserve) before synthesizing it for real. Values are
// never computed, names never built.
#pragma once

#include <cstddef>

#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::r1cs {

/// Counts of a finalized circuit: constraints including the input constraints, inputs including ONE.
struct CircuitShape {
  std::size_t constraints = 0;
  std::size_t inputs = 1;
  std::size_t aux = 0;
  /// The Groth16 domain size: the smallest power of two >= max(constraints, 1).
  std::size_t domain_size() const noexcept {
    std::size_t m = 1;
    while (m < constraints) m <<= 1;
    return m;
  }
  friend bool operator==(const CircuitShape&, const CircuitShape&) = default;
};

class ShapeCounter final : public ConstraintSystem {
 public:
  ShapeCounter() = default;

  bool computes_values() const noexcept override { return false; }

  /// The counts so far (after finalize(): the circuit's shape).
  CircuitShape shape() const noexcept { return {num_constraints(), num_inputs(), num_aux()}; }
  /// Terms with a nonzero coefficient over all A (resp. B, C) linear combinations so far.
  std::size_t a_terms() const noexcept { return terms_[0]; }
  std::size_t b_terms() const noexcept { return terms_[1]; }
  std::size_t c_terms() const noexcept { return terms_[2]; }

 protected:
  void on_alloc(Name, ValueFn, std::size_t) override {}
  void on_alloc_input(Name, ValueFn, std::size_t) override {}
  void on_enforce(Name, const LinearCombination& a, const LinearCombination& b, const LinearCombination& c,
                  std::size_t) override {
    terms_[0] += nonzero(a);
    terms_[1] += nonzero(b);
    terms_[2] += nonzero(c);
  }

 private:
  static std::size_t nonzero(const LinearCombination& lc) noexcept {
    std::size_t n = 0;
    for (const Term& t : lc.inputs()) n += !t.coeff.is_zero();
    for (const Term& t : lc.aux()) n += !t.coeff.is_zero();
    return n;
  }
  std::size_t terms_[3] = {0, 0, 0};
};

}  // namespace proofline::r1cs
