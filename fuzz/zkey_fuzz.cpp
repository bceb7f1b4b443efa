// libFuzzer target: snarkjs Groth16 `.zkey` files (groth16/snarkjs/files.hpp), read with the
// default (on-curve) check of the big sections. Properties: an accepted key's parts have the sizes
// its header states; written again and read back it is the same key (same bytes when rewritten);
// its verifying key can be formed.
#include "fuzz.hpp"
#include "proofline/groth16/snarkjs/files.hpp"

using namespace proofline;
using groth16::snarkjs::Zkey;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Zkey z;
  if (!fuzz::accepted([&] { z = Zkey::from_bytes(fuzz::bytes(data, size), {}, "fuzz.zkey"); })) return 0;
  PL_FUZZ_CHECK(z.ic.size() == std::size_t{z.n_public} + 1);
  PL_FUZZ_CHECK(z.a.size() == z.n_vars && z.b1.size() == z.n_vars && z.b2.size() == z.n_vars);
  PL_FUZZ_CHECK(z.c.size() + z.n_public + 1 == z.n_vars);
  PL_FUZZ_CHECK(z.h.size() == z.domain_size);
  for (const auto& c : z.coeffs) PL_FUZZ_CHECK(c.matrix <= 1 && c.constraint < z.domain_size && c.signal < z.n_vars);
  const auto bytes = z.to_bytes();
  const Zkey back = Zkey::from_bytes(bytes, {}, "rewritten.zkey");
  PL_FUZZ_CHECK(back.to_bytes() == bytes);
  const groth16::VerifyingKey vk = z.verifying_key();
  PL_FUZZ_CHECK(vk.ic == z.ic);
  return 0;
}
