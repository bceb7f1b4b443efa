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

}  // namespace proofline::groth16
