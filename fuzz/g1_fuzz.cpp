// libFuzzer target: G1 ZCash encodings (48-byte compressed, 96-byte uncompressed, from_bytes).
#include "point_fuzz.hpp"
#include "proofline/ec/g1.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  proofline::fuzz::fuzz_point<proofline::ec::G1Affine>(data, size);
  return 0;
}
