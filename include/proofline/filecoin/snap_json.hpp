// proofline/filecoin/snap_json.hpp — SnapDeals requests in files: the vanilla proofs as the JSON array
// of base64 strings Curio writes to <UpdateCache>/snap-vproof.json (`[ "<base64 of bincode
// PartitionProof>", … ]`, one per partition, cuzk-api §3.3), and the public inputs a node sends beside
// them (cuzk-api §2.4, §3.4: comm_r_old / comm_d_new / comm_r_new as raw 32-byte digests) as one JSON
// object.
//
// Owns: `SnapRequest`, `snap_vanilla_proofs_to_json`, `parse_snap_vanilla_proofs_json`,
// `to_json(SnapRequest)`, `parse_snap_request_json`, `is_snap_request_json`.
//
// Request JSON (keys in this order when written):
//   { "proof": "snap-update",
//     "sector_size": 2048,                bytes, a SnapDeals size (snap.hpp)
//     "registered_update_proof": 0,       abi.RegisteredUpdateProof (0..4), written for the sizes that have
//                                         one; when read, it gives the size (sector_size may then be left
//                                         out, and must match when given)
//     "h": 1,                             optional when read (default: the size's hs[3], what nodes use)
//     "comm_r_old": "<64 hex digits>",    32 bytes little-endian, < r
//     "comm_d_new": "<64 hex digits>",
//     "comm_r_new": "<64 hex digits>" }
// "proof" is optional when read (it tells a Snap request from a PoSt one: is_snap_request_json).
// Errors: ProoflineError(Error::Malformed) naming the key ("comm_d_new: 63 hex digits, expected 64";
// "h: 10 is not allowed for 2KiB sectors (expected 1)"), the base64 decoder's or the bincode decoder's
// error prefixed by the element ("vanilla_proofs[1]: …"); an element that is a well-formed proof of
// another supported sector size says so instead ("vanilla_proofs[0]: these vanilla proofs are for
// 1KiB sectors, the request is for 2KiB sectors"), with the decoder's error code. Limits: 64 MiB of text, 16 proofs (the
// largest partition count).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/filecoin/snap.hpp"

namespace proofline::filecoin {

struct SnapRequest {
  std::uint64_t sector_bytes = 0;
  SnapPublicInputs public_inputs;
  bool operator==(const SnapRequest&) const = default;
};

inline constexpr std::size_t kMaxSnapJsonBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxSnapPartitions = 16;

/// `[ "<base64>", … ]`, one element per partition proof (compact, no spaces).
std::string snap_vanilla_proofs_to_json(std::span<const SnapPartitionProof> proofs);
/// Parses the array and decodes every element for `sector_bytes` (decode_snap_partition_proof).
std::vector<SnapPartitionProof> parse_snap_vanilla_proofs_json(std::string_view text, std::uint64_t sector_bytes);

std::string to_json(const SnapRequest& r);
SnapRequest parse_snap_request_json(std::string_view text);
/// True when `text` is a JSON object with "proof": "snap-update" or a "comm_r_new" key (false for
/// anything else, including text that is not JSON).
bool is_snap_request_json(std::string_view text);

}  // namespace proofline::filecoin
