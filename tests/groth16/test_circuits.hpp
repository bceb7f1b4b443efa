// Small circuits for the groth16 tests (not a test file itself).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::groth16::testing {

using ff::Fr;
using r1cs::ConstraintSystem;
using r1cs::LinearCombination;
using r1cs::Variable;

/// bellperson's serialization-test circuit: aux a, b; input c = a·b; one constraint a·b = c.
/// 2 inputs (ONE included), 2 aux, 1 constraint → the 2136-byte .params.
struct ToyCircuit {
  Fr a = Fr::from_u64(3), b = Fr::from_u64(11);
  void synthesize(ConstraintSystem& cs) const {
    Variable va = cs.alloc("a", [&] { return a; });
    Variable vb = cs.alloc("b", [&] { return b; });
    Variable vc = cs.alloc_input("c", [&] { return a * b; });
    cs.enforce("mult", va, vb, vc);
  }
};

/// A circuit of chosen shape whose constraints hold for any values:
///   inputs x_1..x_k (alloc_input), aux w_0;
///   for each input j:     x_j · w_0 = p_j                (new aux p_j)
///   if `linear`:          (w_0 + 3·x_1 + 5·ONE) · ONE = s  (new aux; puts ONE into B)
///   then `chain` times:   w_i · w_i = w_{i+1}           (new aux)
/// All zero inputs and w_0 = 0 give an all-zero witness; all one gives all ones.
struct ShapeCircuit {
  std::vector<Fr> inputs;
  Fr w0 = Fr::from_u64(5);
  std::size_t chain = 3;
  bool linear = false;

  /// Constraints of synthesize() (before the input constraints).
  std::size_t own_constraints() const { return inputs.size() + chain + (linear ? 1 : 0); }

  void synthesize(ConstraintSystem& cs) const {
    std::vector<Variable> xs;
    for (std::size_t j = 0; j < inputs.size(); ++j) xs.push_back(cs.alloc_input([&] { return "x" + std::to_string(j); }, [&] { return inputs[j]; }));
    Variable w = cs.alloc("w0", [&] { return w0; });
    for (std::size_t j = 0; j < inputs.size(); ++j) {
      Variable p = cs.alloc([&] { return "p" + std::to_string(j); }, [&] { return inputs[j] * w0; });
      cs.enforce([&] { return "prod" + std::to_string(j); }, xs[j], w, p);
    }
    if (linear) {
      Fr x1 = inputs.empty() ? Fr::zero() : inputs[0];
      Variable s = cs.alloc("s", [&] { return w0 + Fr::from_u64(3) * x1 + Fr::from_u64(5); });
      cs.enforce(
          "lin",
          [&](LinearCombination& lc) {
            lc.add(w);
            if (!xs.empty()) lc.add(xs[0], Fr::from_u64(3));
            lc.add(ConstraintSystem::one(), Fr::from_u64(5));
          },
          ConstraintSystem::one(), s);
    }
    Fr v = w0;
    for (std::size_t i = 0; i < chain; ++i) {
      Fr next = v * v;
      Variable nw = cs.alloc([&] { return "w" + std::to_string(i + 1); }, [&] { return next; });
      cs.enforce([&] { return "sq" + std::to_string(i); }, w, w, nw);
      w = nw;
      v = next;
    }
  }
};

/// Only public inputs: x_1, x_2, x_3 = x_1·x_2, one constraint x_1·x_2 = x_3, no aux at all.
struct InputsOnlyCircuit {
  Fr x1 = Fr::from_u64(6), x2 = Fr::from_u64(7);
  void synthesize(ConstraintSystem& cs) const {
    Variable a = cs.alloc_input("x1", [&] { return x1; });
    Variable b = cs.alloc_input("x2", [&] { return x2; });
    Variable c = cs.alloc_input("x3", [&] { return x1 * x2; });
    cs.enforce("mult", a, b, c);
  }
};

/// An aux variable that no constraint uses (setup must refuse it).
struct UnconstrainedCircuit {
  void synthesize(ConstraintSystem& cs) const {
    Variable a = cs.alloc("a", [] { return Fr::from_u64(2); });
    (void)cs.alloc("unused", [] { return Fr::from_u64(9); });
    Variable b = cs.alloc("b", [] { return Fr::from_u64(4); });
    cs.enforce("sq", a, a, b);
  }
};

}  // namespace proofline::groth16::testing
