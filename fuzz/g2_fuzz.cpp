// libFuzzer target: G2 ZCash encodings (96-byte compressed, 192-byte uncompressed, from_bytes).
#include "point_fuzz.hpp"
#include "proofline/ec/g2.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  proofline::fuzz::fuzz_point<proofline::ec::G2Affine>(data, size);
  return 0;
}
