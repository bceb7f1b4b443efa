// bincode of FallbackPoStSectorProof: see post_bincode.hpp.
#include "proofline/filecoin/post_bincode.hpp"

#include <utility>

#include "bincode_io.hpp"
#include "proofline/filecoin/sparse_tree.hpp"

namespace proofline::filecoin {

PostBincodeError::PostBincodeError(Error code, std::size_t offset, std::string field, std::string expected,
                                   const std::string& found)
    : BincodeError("FallbackPoStSectorProof", code, offset, std::move(field), std::move(expected), found) {}

namespace {

using bincode::kDomainBytes;
using Reader = bincode::Reader<PostBincodeError>;

}  // namespace

FallbackPoStSectorProof decode_fallback_post_sector_proof(std::span<const std::uint8_t> bytes,
                                                          std::uint64_t sector_bytes, std::size_t challenges,
                                                          const PostDecodeLimits& limits) {
  const SectorShape& shape = sector_shape(sector_bytes);
  if (bytes.size() > limits.max_bytes) {
    throw PostBincodeError(Error::BadLength, 0, "input", "at most " + std::to_string(limits.max_bytes) + " bytes",
                           std::to_string(bytes.size()) + " bytes");
  }
  const bincode::ProofShape s{tree_rc_proof_kind(shape), shape.base_tree_levels(), shape.tree_rc, "tree R"};
  Reader r(bytes);
  FallbackPoStSectorProof p;
  p.sector_id = r.u64("sector_id");
  p.comm_r = r.domain("comm_r");
  r.length("vanilla_proof", 1);
  PoStSectorProof sp;
  r.length("vanilla_proof[0].inclusion_proofs", challenges);
  // Each inclusion proof takes at least its variant tag and two domains: refuse a count the bytes
  // cannot hold before reserving.
  r.need(challenges * (4 + 2 * kDomainBytes), "vanilla_proof[0].inclusion_proofs",
         std::to_string(challenges) + " inclusion proofs");
  sp.inclusion_proofs.reserve(challenges);
  for (std::size_t c = 0; c < challenges; ++c) {
    sp.inclusion_proofs.push_back(
        bincode::read_merkle_proof(r, "vanilla_proof[0].inclusion_proofs[" + std::to_string(c) + "]", s));
  }
  sp.comm_c = r.domain("vanilla_proof[0].comm_c");
  sp.comm_r_last = r.domain("vanilla_proof[0].comm_r_last");
  p.sectors.push_back(std::move(sp));
  r.end();
  return p;
}

std::vector<std::uint8_t> encode_fallback_post_sector_proof(const FallbackPoStSectorProof& p) {
  std::vector<std::uint8_t> o;
  bincode::put_u64(o, p.sector_id);
  bincode::put_domain(o, p.comm_r);
  bincode::put_u64(o, p.sectors.size());
  for (const PoStSectorProof& sp : p.sectors) {
    bincode::put_u64(o, sp.inclusion_proofs.size());
    for (const MerkleProof& m : sp.inclusion_proofs) bincode::put_merkle_proof(o, m);
    bincode::put_domain(o, sp.comm_c);
    bincode::put_domain(o, sp.comm_r_last);
  }
  return o;
}

std::size_t fallback_post_sector_proof_size(std::uint64_t sector_bytes, std::size_t challenges) {
  const SectorShape& s = sector_shape(sector_bytes);
  const std::size_t proof =
      bincode::merkle_proof_bytes({tree_rc_proof_kind(s), s.base_tree_levels(), s.tree_rc, "tree R"});
  return 8 + kDomainBytes + 8 + 8 + challenges * proof + 2 * kDomainBytes;
}

}  // namespace proofline::filecoin
