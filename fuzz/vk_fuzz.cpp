// libFuzzer target: bellperson `.vk` files (groth16/params.hpp). Property: an accepted file
// re-encodes byte for byte (no trailing bytes, every point canonical).
#include "fuzz.hpp"
#include "proofline/groth16/params.hpp"

using namespace proofline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  groth16::VerifyingKey vk;
  if (fuzz::accepted([&] { vk = groth16::VerifyingKey::from_bytes(fuzz::bytes(data, size), "fuzz.vk"); })) {
    PL_FUZZ_CHECK(vk.serialized_size() == size);
    PL_FUZZ_CHECK(vk.to_bytes() == std::vector<std::uint8_t>(data, data + size));
  }
  return 0;
}
