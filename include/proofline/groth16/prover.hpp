// proofline/groth16/prover.hpp — the Groth16 prover front: synthesize circuits, draw randomizers,
// call a backend.
//
// Owns: `synthesize_for_proving` (prover-mode synthesis of one circuit, input constraints appended),
// `synthesize_batch` (many circuits of one shape, in parallel), `draw_randomizers`, `public_inputs`.
// Proving goes through the engine (engine::Engine — the one caller of a backend's prove); tests and
// benches that prove circuits directly on a backend use tests/support/create_proof.hpp.
//
// Flow (bellperson's create_random_proof_batch; reference §2.4–2.6): for each circuit a fresh
// r1cs::ProvingAssignment allocates ONE, runs circuit.synthesize, then finalize() appends
// Input(i)·0 = 0 for every input i (ONE included). The buffers (a, b, c, assignments, densities)
// go to the backend with (r, s). Randomizers: drawn per partition from the given ByteSource (OsRandom
// — OpenSSL's CSPRNG — unless the caller passes another), or given explicitly; the same
// circuits, parameters and (r, s) always give byte-identical proofs.
//
// Circuits: anything satisfying r1cs::Circuit with a const synthesize (templates), or
// r1cs::CircuitInterface (run-time polymorphic). All circuits of one batch must have the same shape.
//
// Errors: SynthesisError from synthesis; ProoflineError(BadLength) when a circuit does not match the
// parameters (inputs, aux, domain, densities — "got N, expected M").
#pragma once

#include <span>
#include <vector>

#include <tbb/parallel_for.h>

#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/random.hpp"
#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/proving_assignment.hpp"

namespace proofline::groth16 {

/// Prover-mode synthesis of one circuit, input constraints included.
template <class C>
  requires r1cs::Circuit<const C>
r1cs::ProvingBuffers synthesize_for_proving(const C& circuit) {
  r1cs::ProvingAssignment cs;
  r1cs::synthesize(circuit, cs);
  return cs.release();
}

/// Synthesizes every circuit (in parallel over circuits).
template <class C>
  requires r1cs::Circuit<const C>
std::vector<r1cs::ProvingBuffers> synthesize_batch(std::span<const C> circuits) {
  std::vector<r1cs::ProvingBuffers> out(circuits.size());
  tbb::parallel_for(std::size_t{0}, circuits.size(), [&](std::size_t i) { out[i] = synthesize_for_proving(circuits[i]); });
  return out;
}

/// (r, s) uniformly random for each of `n` partitions.
std::vector<Randomizers> draw_randomizers(std::size_t n, ByteSource& rng);

/// The public inputs of a synthesized partition, ONE excluded (what the verifier takes).
std::vector<Fr> public_inputs(const r1cs::ProvingBuffers& partition);

}  // namespace proofline::groth16
