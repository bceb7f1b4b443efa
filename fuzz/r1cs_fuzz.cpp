// libFuzzer target: circom `.r1cs` files (groth16/snarkjs/files.hpp). Property: an accepted file,
// written again and read back, gives the same system.
#include "fuzz.hpp"
#include "proofline/groth16/snarkjs/files.hpp"

using namespace proofline;
using groth16::snarkjs::R1cs;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  R1cs r;
  if (!fuzz::accepted([&] { r = R1cs::from_bytes(fuzz::bytes(data, size), "fuzz.r1cs"); })) return 0;
  PL_FUZZ_CHECK(r.lc_start.size() == 3 * std::size_t{r.n_constraints} + 1);
  PL_FUZZ_CHECK(r.lc_start.back() == r.terms.size());
  for (const auto& t : r.terms) PL_FUZZ_CHECK(t.wire < r.n_wires);
  const R1cs back = R1cs::from_bytes(r.to_bytes(), "rewritten.r1cs");
  PL_FUZZ_CHECK(back.n_wires == r.n_wires && back.n_pub_out == r.n_pub_out && back.n_pub_in == r.n_pub_in &&
                back.n_prv_in == r.n_prv_in && back.n_labels == r.n_labels && back.n_constraints == r.n_constraints);
  PL_FUZZ_CHECK(back.lc_start == r.lc_start && back.terms == r.terms && back.wire_to_label == r.wire_to_label);
  return 0;
}
