// libFuzzer target: SnapDeals vanilla proofs as nodes send them, bincode PartitionProof
// (filecoin/snap_bincode.hpp). The first byte picks the expected shape (sector size, bits 0-1: 1 KiB
// tree R 8-4-0, 2 KiB 8-0-0, 4 KiB 8-2-0, 32 KiB 8-8-2 with 128 apex leaves), the rest is the proof.
// Properties: an accepted proof re-encodes to exactly the input and has the size of the shape's
// formula; a refusal is a SnapBincodeError whose offset lies within the input and which names its
// field and what was expected.
#include "fuzz.hpp"
#include "proofline/filecoin/snap_bincode.hpp"

using namespace proofline;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static constexpr std::uint64_t kSizes[4] = {1024, 2048, 4096, 32768};
  const std::uint64_t sector_bytes = kSizes[data[0] & 3];
  const auto in = fuzz::bytes(data + 1, size - 1);
  filecoin::SnapPartitionProof p;
  try {
    p = filecoin::decode_snap_partition_proof(in, sector_bytes);
  } catch (const filecoin::SnapBincodeError& e) {
    PL_FUZZ_CHECK(e.offset() <= in.size());
    PL_FUZZ_CHECK(!e.field().empty() && !e.expected().empty());
    return 0;
  }
  const std::vector<std::uint8_t> out = filecoin::encode_snap_partition_proof(p);
  PL_FUZZ_CHECK(out.size() == in.size() && std::equal(out.begin(), out.end(), in.begin()));
  PL_FUZZ_CHECK(out.size() == filecoin::snap_partition_proof_size(sector_bytes));
  return 0;
}
