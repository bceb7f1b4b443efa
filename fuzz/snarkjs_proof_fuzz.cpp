// libFuzzer target: snarkjs proof.json (proof_from_snarkjs_json).
#include "json_mutator.hpp"
#include "snarkjs_json_fuzz.hpp"

using namespace proofline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::fuzz_json(data, size, [](const std::string& s) { return groth16::proof_from_snarkjs_json(s); },
                  [](const groth16::Proof& p) { return groth16::snarkjs_proof_json(p); });
  return 0;
}
