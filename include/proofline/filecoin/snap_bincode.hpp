// proofline/filecoin/snap_bincode.hpp — the bytes of a SnapDeals vanilla proof as nodes send them:
// bincode (filecoin/bincode.hpp) of storage-proofs-update `PartitionProof<Tree>`, one per partition
// (filecoin-proofs-api PartitionProofBytes; what ffi GenerateUpdateVanillaProofs returns; cuzk
// `vanilla_proofs` of a Snap request, cuzk-api §3.3).
//
// Owns: `SnapBincodeError`, `SnapDecodeLimits`, `decode_snap_partition_proof`,
// `encode_snap_partition_proof`, `snap_partition_proof_size`.
//
// Layout (serde field order; u32/u64 little-endian; Domain = 32 raw bytes; Vec = u64 length then the
// elements):
//   PartitionProof = comm_c Domain ‖ apex_leafs: Vec<Domain> ‖ challenge_proofs: Vec<ChallengeProof>
//   ChallengeProof = proof_r_old: MerkleProof ‖ proof_d_new: MerkleProof ‖ proof_r_new: MerkleProof
//   MerkleProof    = u32 variant ‖ fields: 0 Single { root, leaf, path: InclusionPath }
//                                          1 Sub    { base_proof, sub_proof, root, leaf }
//                                          2 Top    { base_proof, sub_proof, top_proof, root, leaf }
//   InclusionPath  = Vec<PathElement>;  PathElement = hashes: Vec<Domain> ‖ index u64
// Tree R old / new proofs have the sector size's tree R shape (snap.hpp); the tree D proof is Single
// with log2(nodes) levels of one sibling. Size: 48 + 32·apex_leaf_count + challenge_count ·
// (2·R + D), R = 4 + 64 + Σ paths (8 + levels·(8 + 32·(arity − 1) + 8)), D = 4 + 64 + 8 + 48·log2(nodes):
// 1 KiB 12,184 bytes; 32 GiB 561,768; 64 GiB 575,528.
//
// Strictness: the variants are those of the shapes; every path has exactly its tree's levels, every
// `hashes` arity − 1 entries, every `index` < arity; every Domain < r; apex_leaf_count apex leaves
// and challenge_count challenge proofs; no trailing bytes. Lengths are checked against the bytes
// left and the limit before anything is allocated. Consistency of values (roots, leaves, challenges,
// rho) is verify_snap_vanilla's job (snap.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "proofline/filecoin/bincode.hpp"
#include "proofline/filecoin/snap.hpp"

namespace proofline::filecoin {

/// A refused byte string (filecoin/bincode.hpp): what() = "bincode PartitionProof: <field> at byte
/// <offset>: <found>, expected <expected>", field e.g. "challenge_proofs[3].proof_d_new.path[2].hashes[0]".
class SnapBincodeError : public BincodeError {
 public:
  SnapBincodeError(Error code, std::size_t offset, std::string field, std::string expected, const std::string& found);
};

struct SnapDecodeLimits {
  /// Largest input accepted (a 64 GiB partition proof is 575,528 bytes).
  std::size_t max_bytes = std::size_t{1} << 20;
};

/// Decodes one PartitionProof for sector size `sector_bytes`. Throws SnapBincodeError (above),
/// ProoflineError(BadArgument) for an unsupported sector size.
SnapPartitionProof decode_snap_partition_proof(std::span<const std::uint8_t> bytes, std::uint64_t sector_bytes,
                                               const SnapDecodeLimits& limits = {});
/// The bincode bytes (decoding them gives back an equal value when the shape fits).
std::vector<std::uint8_t> encode_snap_partition_proof(const SnapPartitionProof& p);
/// Bytes of a well-formed partition proof at `sector_bytes` (formula above).
std::size_t snap_partition_proof_size(std::uint64_t sector_bytes);

}  // namespace proofline::filecoin
