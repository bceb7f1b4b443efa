// proofline/groth16/prover.hpp — the Groth16 prover front: synthesize circuits, draw randomizers,
// call a backend.
//
// Owns: `synthesize_for_proving` (prover-mode synthesis of one circuit, input constraints appended),
// `synthesize_batch` (many circuits of one shape, in parallel), `prove_assignments` (a batch of
// synthesized partitions → proofs through a ProverBackend, CpuBackend by default),
// `create_proofs` / `create_proof` (circuits → proofs), `draw_randomizers`, `public_inputs`.
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

/// Proves already-synthesized partitions. `randomizers` empty: drawn from `rng` (OsRandom if null);
/// otherwise one per partition. `backend` null: a CpuBackend with default settings.
ProverResult prove_assignments(const Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                               std::span<const Randomizers> randomizers = {}, ProverBackend* backend = nullptr,
                               ByteSource* rng = nullptr);

/// Synthesizes and proves a batch of circuits of one shape; proofs in circuit order.
template <class C>
  requires r1cs::Circuit<const C>
std::vector<Proof> create_proofs(const Parameters& params, std::span<const C> circuits,
                                 std::span<const Randomizers> randomizers = {}, ProverBackend* backend = nullptr,
                                 ByteSource* rng = nullptr) {
  std::vector<r1cs::ProvingBuffers> parts = synthesize_batch(circuits);
  return prove_assignments(params, parts, randomizers, backend, rng).proofs;
}

// The single-circuit forms synthesize directly instead of going through create_proofs: C may be
// an abstract class (r1cs::CircuitInterface), and clang 14 with libstdc++ 12 rejects
// std::span<const C> for it ("array of abstract class type": span's constructors name C[]).

/// One circuit, random (r, s) from OpenSSL.
template <class C>
  requires r1cs::Circuit<const C>
Proof create_proof(const Parameters& params, const C& circuit) {
  std::vector<r1cs::ProvingBuffers> parts;
  parts.push_back(synthesize_for_proving(circuit));
  return prove_assignments(params, parts).proofs.front();
}

/// One circuit with explicit (r, s) (reproducible).
template <class C>
  requires r1cs::Circuit<const C>
Proof create_proof(const Parameters& params, const C& circuit, const Randomizers& rs, ProverBackend* backend = nullptr) {
  std::vector<r1cs::ProvingBuffers> parts;
  parts.push_back(synthesize_for_proving(circuit));
  return prove_assignments(params, parts, std::span<const Randomizers>(&rs, 1), backend).proofs.front();
}

}  // namespace proofline::groth16
