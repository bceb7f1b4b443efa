// libFuzzer target: bellperson `.params` files (groth16/params.hpp), read serially with both point
// checks. Properties: an accepted file re-encodes byte for byte; a file accepted with
// Check::Subgroup is accepted identically with Check::OnCurveOnly, and one accepted only on-curve is
// refused with NotInSubgroup.
#include "fuzz.hpp"
#include "proofline/groth16/params.hpp"

using namespace proofline;
using groth16::Parameters;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = fuzz::bytes(data, size);
  Parameters loose;
  const bool ok_loose = fuzz::accepted([&] { loose = Parameters::from_bytes(in, {ec::Check::OnCurveOnly, 1}, "fuzz.params"); });
  Parameters strict;
  Error strict_code = Error::Ok;
  try {
    strict = Parameters::from_bytes(in, {ec::Check::Subgroup, 1}, "fuzz.params");
  } catch (const ProoflineError& e) {
    strict_code = e.code();
  }
  if (strict_code == Error::Ok) PL_FUZZ_CHECK(ok_loose && strict == loose);
  if (ok_loose) {
    PL_FUZZ_CHECK(strict_code == Error::Ok || strict_code == Error::NotInSubgroup);
    PL_FUZZ_CHECK(loose.serialized_size() == size);
    PL_FUZZ_CHECK(loose.to_bytes() == std::vector<std::uint8_t>(in.begin(), in.end()));
  }
  return 0;
}
