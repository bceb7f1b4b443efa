// libFuzzer target: snarkjs verification_key.json (vk_from_snarkjs_json).
#include "json_mutator.hpp"
#include "snarkjs_json_fuzz.hpp"

using namespace proofline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::fuzz_json(data, size, [](const std::string& s) { return groth16::vk_from_snarkjs_json(s); },
                  [](const groth16::VerifyingKey& v) { return groth16::snarkjs_vk_json(v); });
  return 0;
}
