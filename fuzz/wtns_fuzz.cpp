// libFuzzer target: snarkjs `.wtns` files (groth16/snarkjs/files.hpp). Properties: every accepted
// value is < r; written again and read back, the witness is the same.
#include "fuzz.hpp"
#include "proofline/groth16/snarkjs/files.hpp"

using namespace proofline;
using groth16::snarkjs::Witness;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Witness w;
  if (!fuzz::accepted([&] { w = Witness::from_bytes(fuzz::bytes(data, size), "fuzz.wtns"); })) return 0;
  for (std::size_t i = 0; i < w.size(); ++i) PL_FUZZ_CHECK(w.fr(i).to_canonical() == w.values[i]);
  const Witness back = Witness::from_bytes(w.to_bytes(), "rewritten.wtns");
  PL_FUZZ_CHECK(back.values == w.values);
  return 0;
}
