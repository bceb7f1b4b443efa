// tests/support/create_proof.hpp — circuits → proofs directly on a groth16::ProverBackend, for tests
// and benches only (bellperson's create_random_proof shape). Programs prove through the engine
// (engine::Engine, the one caller of a backend's prove outside tests and bench; issue 15).
//
// Flow: synthesize_for_proving / synthesize_batch (groth16/prover.hpp), then the backend (CpuBackend
// by default) with one (r, s) per partition: given, or drawn from `rng` (OsRandom if null).
// Errors: ProoflineError(BadLength) for a randomizer count that is not one per partition; whatever
// the synthesis and the backend throw.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/prover.hpp"
#include "proofline/groth16/random.hpp"
#include "proofline/util/error.hpp"

namespace proofline::groth16 {

/// Proves already-synthesized partitions. `randomizers` empty: drawn from `rng` (OsRandom if null);
/// otherwise one per partition. `backend` null: a CpuBackend with default settings.
inline ProverResult prove_assignments(const Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                                      std::span<const Randomizers> randomizers = {}, ProverBackend* backend = nullptr,
                                      ByteSource* rng = nullptr) {
  std::vector<Randomizers> drawn;
  if (randomizers.empty()) {
    OsRandom os;
    drawn = draw_randomizers(partitions.size(), rng != nullptr ? *rng : os);
    randomizers = drawn;
  }
  if (randomizers.size() != partitions.size()) {
    throw ProoflineError(Error::BadLength, "randomizers: got " + std::to_string(randomizers.size()) + ", expected " +
                                               std::to_string(partitions.size()) + " (one (r, s) per partition)");
  }
  CpuBackend cpu;
  ProverBackend& be = backend != nullptr ? *backend : cpu;
  return be.prove(params, partitions, randomizers);
}

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
