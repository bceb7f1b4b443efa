// libFuzzer target: Filecoin C1 output JSON (filecoin/c1.hpp, parse_c1_json). Property: an
// accepted C1 written back with to_json and parsed again is the same value, and to_json of that is
// the same text.
#include "fuzz.hpp"
#include "json_mutator.hpp"
#include "proofline/filecoin/c1.hpp"

using namespace proofline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string in = fuzz::text(data, size);
  filecoin::SealCommitPhase1Output c1;
  if (!fuzz::accepted([&] { c1 = filecoin::parse_c1_json(in); })) return 0;
  const std::string out = filecoin::to_json(c1);
  const auto back = filecoin::parse_c1_json(out);
  PL_FUZZ_CHECK(back == c1);
  PL_FUZZ_CHECK(filecoin::to_json(back) == out);
  return 0;
}
