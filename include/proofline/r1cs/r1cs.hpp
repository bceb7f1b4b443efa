// proofline/r1cs/r1cs.hpp — the r1cs layer: the constraint-system API circuits are written against.
//
// Owns (one header each):
//   variable.hpp               Variable: Input(i) | Aux(i) in one 64-bit word
//   linear_combination.hpp     Term, LinearCombination: sparse, sorted, split input/aux, reusable
//   function_ref.hpp           FunctionRef, Name: lazy, non-owning callables for values and names
//   error.hpp                  SynthesisError, SynthesisErrorCode
//   density.hpp                DensityTracker: LSB-first density bitmaps with popcount
//   constraint_system.hpp      ConstraintSystem (interface), NamespaceGuard, Circuit, synthesize()
//   proving_buffers.hpp        ProvingBuffers: a, b, c, assignments, densities (prover output)
//   proving_assignment.hpp     prover mode: fills ProvingBuffers; gadgets' fast path switch
//   packed_witness.hpp         PackedWitness: a witness vector with its 0/1 values bit-packed
//   witness_assignment.hpp     witness-only mode: inputs and the packed aux assignment, no a, b, c
//   qap_evaluator.hpp          setup mode: u, v, w at τ per variable, accumulated row by row
//   keypair_assembly.hpp       setup mode with the matrices: A/B/C columns per variable (tests)
//   test_constraint_system.hpp test mode: paths, satisfaction, get/set by path
//   shape_counter.hpp          shape mode: counts only
//   compiled_circuit.hpp       CompiledCircuit: A, B, C as CSR with tabled coefficients; evaluate()
//   circuit_recorder.hpp       recording mode: the circuit's CompiledCircuit
//   compiled_file.hpp          the compiled circuit on disk: atomic write, mapped and checked read
// Field values are ff::Fr in Montgomery form throughout. Depends on ff/ and util/ only.
#pragma once

#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/compiled_file.hpp"
#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/density.hpp"
#include "proofline/r1cs/error.hpp"
#include "proofline/r1cs/function_ref.hpp"
#include "proofline/r1cs/keypair_assembly.hpp"
#include "proofline/r1cs/linear_combination.hpp"
#include "proofline/r1cs/packed_witness.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/r1cs/proving_buffers.hpp"
#include "proofline/r1cs/qap_evaluator.hpp"
#include "proofline/r1cs/shape_counter.hpp"
#include "proofline/r1cs/test_constraint_system.hpp"
#include "proofline/r1cs/variable.hpp"
#include "proofline/r1cs/witness_assignment.hpp"
