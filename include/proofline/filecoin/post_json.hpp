// proofline/filecoin/post_json.hpp — PoSt requests in files: the vanilla proofs as the JSON array of
// base64 strings that Curio and cuzk-bench write (`[ "<base64 of bincode FallbackPoStSectorProof>", … ]`,
// cuzk-api §3.2, §6), and the public inputs a node sends beside them (cuzk-api §3.4) as one JSON object.
//
// Owns: `PoStRequest`, `vanilla_proofs_to_json`, `parse_vanilla_proofs_json`, `to_json(PoStRequest)`,
// `parse_post_request_json`, `post_request_from_vanilla` (the cuzk.v1 form: sectors from the proofs).
//
// Request JSON (keys in this order when written; every key but first_partition required when read):
//   { "post_type": "window" | "winning",
//     "sector_size": 2048,                         bytes, a supported size (sector.hpp)
//     "api_version": "1.0.0" | "1.1.0" | "1.2.0",  challenge derivation (post.hpp)
//     "miner_id": 1000,                            actor id; prover_id = its LEB128 (porep.hpp prover_id_from_miner)
//     "randomness": "<64 hex digits>",             32 bytes little-endian, < r
//     "partition_index": 0,
//     "first_partition": 0,                        optional (0 when absent; written when not 0): the
//                                                  partition sectors[0] opens (post.hpp PoStPublicInputs)
//     "sectors": [ { "sector_id": 1, "comm_r": "<64 hex digits>" }, … ] }   proving order
// Errors: ProoflineError(Error::Malformed) naming the JSON key or array element ("sectors[3].comm_r:
// 63 hex digits, expected 64"), the base64 decoder's or the bincode decoder's error prefixed by
// the element ("vanilla_proofs[2]: …"); an element that is a well-formed proof of another supported
// sector size or of the other PoSt type's challenge count (10 / 66) says so instead ("vanilla_proofs[0]:
// these vanilla proofs are for 2KiB sectors, the request is for 32GiB sectors"; "… for 2KiB sectors
// with 66 challenges (WinningPoSt's) each, the request is for 2KiB sectors with 10 challenges
// (WindowPoSt's)"), with the decoder's error code. Limits: 96 MiB of vanilla proofs (kMaxPoStVanillaBytes,
// the bincode bytes, all sectors together), so kMaxPoStJsonBytes of text: their base64 and the JSON
// around it (a full partition in base64: 32 GiB 2349 × 24,960 bytes → 78.2 MB, 64 GiB 2300 × 25,520
// bytes → 78.3 MB); 10,000 sectors. The limit is the proofs' — the same whether they come as a file,
// as a JSON payload or as cuzk.v1's raw vanilla_proofs (which the daemon encodes into this form).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/filecoin/post.hpp"

namespace proofline::filecoin {

struct PoStRequest {
  PoStConfig config;
  std::uint64_t miner_id = 0;
  std::size_t partition = 0;
  PoStPublicInputs public_inputs;  ///< prover_id = prover_id_from_miner(miner_id)
};

/// "1.0.0", "1.1.0", "1.2.0" and back (ProoflineError(BadArgument) for any other string).
std::string_view to_string(ApiVersion v);
ApiVersion api_version_from_string(std::string_view s);

inline constexpr std::size_t kMaxPoStSectors = 10000;
/// The most vanilla-proof bytes (bincode, all sectors together) of one request: 96 MiB.
inline constexpr std::size_t kMaxPoStVanillaBytes = std::size_t{96} << 20;
/// The most text of a vanilla-proofs JSON (or a request JSON): the base64 of kMaxPoStVanillaBytes
/// (4 characters per 3 bytes, each proof padded) with `[`, `]` and `"…",` around each proof.
inline constexpr std::size_t kMaxPoStJsonBytes = (kMaxPoStVanillaBytes + 3 * kMaxPoStSectors) / 3 * 4 + 3 * kMaxPoStSectors + 2;

/// `[ "<base64>", … ]`, one element per proof (compact, no spaces).
std::string vanilla_proofs_to_json(std::span<const FallbackPoStSectorProof> proofs);
/// Parses the array and decodes every element for `sector_bytes` with `challenges` inclusion proofs.
std::vector<FallbackPoStSectorProof> parse_vanilla_proofs_json(std::string_view text, std::uint64_t sector_bytes,
                                                               std::size_t challenges);

std::string to_json(const PoStRequest& r);
PoStRequest parse_post_request_json(std::string_view text);

/// The request of one partition in the form nodes send it over cuzk.v1 (cuzk-api §2.4, §3.2;
/// upstream generate_single_window_post_with_vanilla / generate_winning_post_with_vanilla): no
/// sector list of its own — the partition's sectors are those of the vanilla proofs (each
/// FallbackPoStSectorProof carries its sector_id and comm_r), in their order. WindowPoSt: 1 …
/// sector_count proofs, the sectors of partition `partition` (public_inputs.first_partition =
/// partition: the challenge indices of API 1.0.0 / 1.1.0 count the earlier partitions' full sets,
/// those of 1.2.0 do not depend on the partition). WinningPoSt: exactly 1 proof, partition 0. Throws ProoflineError(BadLength) for a sector count that does not fit,
/// ProoflineError(BadArgument) for a WinningPoSt partition other than 0.
PoStRequest post_request_from_vanilla(const PoStConfig& config, std::uint64_t miner_id, const Randomness& randomness,
                                      std::size_t partition, std::span<const FallbackPoStSectorProof> proofs);

}  // namespace proofline::filecoin
