// libFuzzer target: Groth16 proofs in bellperson's encoding (192 bytes per proof, multi-proofs as
// the concatenation; groth16/proof.hpp). Properties: an accepted multi-proof re-encodes to the
// input; the non-throwing Proof::decode agrees with the throwing reader on the first proof.
#include "fuzz.hpp"
#include "proofline/groth16/proof.hpp"

using namespace proofline;
using groth16::Proof;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<Proof> proofs;
  const bool ok = fuzz::accepted([&] { proofs = groth16::decode_proofs(fuzz::bytes(data, size)); });
  if (ok) {
    PL_FUZZ_CHECK(proofs.size() * Proof::kBytes == size && !proofs.empty());
    const auto again = groth16::encode_proofs(proofs);
    PL_FUZZ_CHECK(again == std::vector<std::uint8_t>(data, data + size));
  }
  if (size >= Proof::kBytes) {
    const std::span<const std::uint8_t, Proof::kBytes> first(data, Proof::kBytes);
    Proof p{};
    int element = -1;
    const Error e = Proof::decode(p, first, ec::Check::Subgroup, &element);
    Proof q{};
    const bool thrown_ok = fuzz::accepted([&] { q = Proof::from_bytes(first); });
    PL_FUZZ_CHECK((e == Error::Ok) == thrown_ok);
    if (thrown_ok) PL_FUZZ_CHECK(p == q);
    if (e != Error::Ok) PL_FUZZ_CHECK(element >= 0 && element <= 2);
    if (ok) PL_FUZZ_CHECK(thrown_ok && q == proofs.front());
  }
  return 0;
}
