// bincode of storage-proofs-update PartitionProof: see snap_bincode.hpp.
#include "proofline/filecoin/snap_bincode.hpp"

#include <utility>

#include "bincode_io.hpp"

namespace proofline::filecoin {

SnapBincodeError::SnapBincodeError(Error code, std::size_t offset, std::string field, std::string expected,
                                   const std::string& found)
    : BincodeError("PartitionProof", code, offset, std::move(field), std::move(expected), found) {}

namespace {

using bincode::kDomainBytes;

bincode::ProofShape tree_r_shape(const SnapParams& p) {
  return {p.tree_r_proof_kind(), p.tree_r_base_levels, p.tree_r, "tree R"};
}
bincode::ProofShape tree_d_shape(const SnapParams& p) {
  return {MerkleProofKind::Single, p.challenge_bit_len, hash::TreeShape{2, 0, 0}, "tree D"};
}

}  // namespace

SnapPartitionProof decode_snap_partition_proof(std::span<const std::uint8_t> bytes, std::uint64_t sector_bytes,
                                               const SnapDecodeLimits& limits) {
  const SnapParams& p = snap_params(sector_bytes);
  if (bytes.size() > limits.max_bytes) {
    throw SnapBincodeError(Error::BadLength, 0, "input", "at most " + std::to_string(limits.max_bytes) + " bytes",
                           std::to_string(bytes.size()) + " bytes");
  }
  const bincode::ProofShape r_shape = tree_r_shape(p), d_shape = tree_d_shape(p);
  bincode::Reader<SnapBincodeError> r(bytes);
  SnapPartitionProof out;
  out.comm_c = r.domain("comm_c");
  r.length("apex_leafs", p.apex_leaf_count);
  r.need(p.apex_leaf_count * kDomainBytes, "apex_leafs", std::to_string(p.apex_leaf_count) + " apex leaves");
  out.apex_leafs.reserve(p.apex_leaf_count);
  for (std::size_t i = 0; i < p.apex_leaf_count; ++i) out.apex_leafs.push_back(r.domain("apex_leafs[" + std::to_string(i) + "]"));
  r.length("challenge_proofs", p.challenge_count);
  // Each challenge proof holds at least three variant tags and six domains: refuse a count the bytes
  // cannot hold before reserving.
  r.need(p.challenge_count * 3 * (4 + 2 * kDomainBytes), "challenge_proofs",
         std::to_string(p.challenge_count) + " challenge proofs");
  out.challenge_proofs.reserve(p.challenge_count);
  for (std::size_t c = 0; c < p.challenge_count; ++c) {
    const std::string at = "challenge_proofs[" + std::to_string(c) + "]";
    SnapChallengeProof cp;
    cp.proof_r_old = bincode::read_merkle_proof(r, at + ".proof_r_old", r_shape);
    cp.proof_d_new = bincode::read_merkle_proof(r, at + ".proof_d_new", d_shape);
    cp.proof_r_new = bincode::read_merkle_proof(r, at + ".proof_r_new", r_shape);
    out.challenge_proofs.push_back(std::move(cp));
  }
  r.end();
  return out;
}

std::vector<std::uint8_t> encode_snap_partition_proof(const SnapPartitionProof& p) {
  std::vector<std::uint8_t> o;
  bincode::put_domain(o, p.comm_c);
  bincode::put_u64(o, p.apex_leafs.size());
  for (const Domain& d : p.apex_leafs) bincode::put_domain(o, d);
  bincode::put_u64(o, p.challenge_proofs.size());
  for (const SnapChallengeProof& c : p.challenge_proofs) {
    bincode::put_merkle_proof(o, c.proof_r_old);
    bincode::put_merkle_proof(o, c.proof_d_new);
    bincode::put_merkle_proof(o, c.proof_r_new);
  }
  return o;
}

std::size_t snap_partition_proof_size(std::uint64_t sector_bytes) {
  const SnapParams& p = snap_params(sector_bytes);
  const std::size_t challenge =
      2 * bincode::merkle_proof_bytes(tree_r_shape(p)) + bincode::merkle_proof_bytes(tree_d_shape(p));
  return kDomainBytes + 8 + p.apex_leaf_count * kDomainBytes + 8 + p.challenge_count * challenge;
}

}  // namespace proofline::filecoin
