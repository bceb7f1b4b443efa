// libFuzzer target: PoSt vanilla proofs as nodes send them, bincode FallbackPoStSectorProof
// (filecoin/post_bincode.hpp). The first byte picks the expected shape (sector size: 2 KiB 8-0-0,
// 4 KiB 8-2-0, 16 KiB 8-8-0, 32 KiB 8-8-2; challenges: 10 for WindowPoSt, 66 for WinningPoSt), the
// rest is the proof. Properties: an accepted proof re-encodes to exactly the input and has the
// size of the shape's formula; a refusal is a PostBincodeError whose offset lies within the input.
#include "fuzz.hpp"
#include "proofline/filecoin/post_bincode.hpp"

using namespace proofline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static constexpr std::uint64_t kSizes[4] = {2048, 4096, 16384, 32768};
  const std::uint64_t sector_bytes = kSizes[data[0] & 3];
  const std::size_t challenges = (data[0] & 4) ? filecoin::kWinningPoStChallengeCount : filecoin::kWindowPoStChallengeCount;
  const auto in = fuzz::bytes(data + 1, size - 1);
  filecoin::FallbackPoStSectorProof p;
  try {
    p = filecoin::decode_fallback_post_sector_proof(in, sector_bytes, challenges);
  } catch (const filecoin::PostBincodeError& e) {
    PL_FUZZ_CHECK(e.offset() <= in.size());
    PL_FUZZ_CHECK(!e.field().empty() && !e.expected().empty());
    return 0;
  }
  const std::vector<std::uint8_t> out = filecoin::encode_fallback_post_sector_proof(p);
  PL_FUZZ_CHECK(out.size() == in.size() && std::equal(out.begin(), out.end(), in.begin()));
  PL_FUZZ_CHECK(out.size() == filecoin::fallback_post_sector_proof_size(sector_bytes, challenges));
  return 0;
}
