// libFuzzer target: snarkjs public.json (public_from_snarkjs_json).
#include "json_mutator.hpp"
#include "snarkjs_json_fuzz.hpp"

using namespace proofline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::fuzz_json(data, size, [](const std::string& s) { return groth16::public_from_snarkjs_json(s); },
                  [](const std::vector<ff::Fr>& x) { return groth16::snarkjs_public_json(x); });
  return 0;
}
