// The prover front (include/proofline/groth16/prover.hpp).
#include "proofline/groth16/prover.hpp"

#include <string>

namespace proofline::groth16 {

std::vector<Randomizers> draw_randomizers(std::size_t n, ByteSource& rng) {
  std::vector<Randomizers> out(n);
  for (auto& rs : out) {
    rs.r = random_fr(rng);
    rs.s = random_fr(rng);
  }
  return out;
}

std::vector<Fr> public_inputs(const r1cs::ProvingBuffers& partition) {
  if (partition.input_assignment.empty()) return {};
  return {partition.input_assignment.begin() + 1, partition.input_assignment.end()};
}

ProverResult prove_assignments(const Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                               std::span<const Randomizers> randomizers, ProverBackend* backend, ByteSource* rng) {
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

}  // namespace proofline::groth16
