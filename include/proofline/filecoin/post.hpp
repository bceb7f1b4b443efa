// proofline/filecoin/post.hpp — Fallback proof-of-spacetime (WindowPoSt, WinningPoSt): registered
// proofs, configurations, challenge derivation, the vanilla proofs a node sends, their native
// verification, how they are laid out into the circuit's sectors, and generated test inputs.
//
// Owns: `RegisteredPoStProof`, `PoStType`, `PoStConfig` (filecoin-proofs PoStConfig) and
// `FallbackParams` (storage-proofs-post fallback PublicParams: the circuit's sector and challenge
// counts) with its parameter file names, `leaf_challenge`, `challenge_index`, `post_challenge_index`,
// `sector_challenges`, `PoStSectorProof`, `FallbackPoStSectorProof`, `PublicSector`, `PoStPublicInputs`,
// `PartitionSectors` / `partition_sector_proofs`, `check_vanilla_comm_r`, `verify_post_vanilla`,
// `gen_post_vanilla`.
//
// Facts (rust-fil-proofs filecoin-proofs `constants.rs`, `parameters.rs`, `api/post_util.rs`;
// storage-proofs-post `fallback/{vanilla,compound,circuit,utils}.rs`; reference §3.4; cuzk-api §3):
//  - RegisteredPoStProof numbers (go-state-types abi, cuzk `registered_*_from_u64`): 0..4 =
//    StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1, 5..9 = StackedDrgWindow…V1, 10..14 =
//    StackedDrgWindow…V1_1 — which filecoin-ffi and cuzk map to proofs-api StackedDrgWindow…V1_2,
//    ApiVersion 1.2.0 (the grindability fix). 0..9 are ApiVersion 1.0.0.
//  - WinningPoSt: 66 challenges (WINNING_POST_CHALLENGE_COUNT) over 1 sector (WINNING_POST_SECTOR_COUNT);
//    the circuit (winning_post_setup_params) has sector_count = 66 / 1 = 66 "sectors" of 1 challenge.
//    WindowPoSt: 10 challenges per sector (WINDOW_POST_CHALLENGE_COUNT); sectors per partition
//    (WINDOW_POST_SECTOR_COUNT) 2349 at 32 GiB, 2300 at 64 GiB, 2 at every smaller size.
//  - Leaf challenge = u64 LE of SHA-256(randomness (32) ‖ sector_id u64 LE ‖ challenge_index u64 LE)
//    bytes 0..8, mod nodes (sector bytes / 32).
//  - challenge_index (generation, post_util generate_fallback_sector_challenges, and verification):
//    ApiVersion 1.0.0 / 1.1.0: (partition · sector_count + i) · challenge_count + n, with i the sector's
//    position in its partition and n the challenge; ApiVersion 1.2.0: n.
//    WinningPoSt: the one sector is at position 0, so its n-th challenge has index n in both versions;
//    circuit sector n (of 66) proves that challenge.
//  - randomness and prover_id are Poseidon-domain values: 32 bytes, little-endian, < r (nodes clear
//    the top two bits of the ChallengeSeed). prover_id of a miner = its actor id as unsigned LEB128
//    at the start of 32 zero bytes (1000 → e8 07 00…).
//  - A partition of WindowPoSt takes its sectors' proofs in the public sectors' order (each found by
//    sector id) and repeats the last one to fill sector_count; its public inputs repeat the last
//    sector's the same way.
//  - A FallbackPoStSectorProof carries its sector's comm_r; the circuit takes the request's. They
//    must be equal (check_vanilla_comm_r), or one request's bytes mean one sector to a verifier
//    given the request and another to one that takes the sectors from the proofs (cuzk.v1).
//
// Errors: lookups of unknown numbers / sizes throw ProoflineError(BadArgument); shape mismatches in
// partitioning throw ProoflineError(BadLength) naming what does not fit; verify_post_vanilla never
// throws for content errors (it returns the first failure).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/sector.hpp"

namespace proofline::filecoin {

/// go-state-types abi.RegisteredPoStProof (the value Curio / cuzk send).
enum class RegisteredPoStProof : std::uint64_t {
  StackedDrgWinning2KiBV1 = 0,
  StackedDrgWinning8MiBV1 = 1,
  StackedDrgWinning512MiBV1 = 2,
  StackedDrgWinning32GiBV1 = 3,
  StackedDrgWinning64GiBV1 = 4,
  StackedDrgWindow2KiBV1 = 5,
  StackedDrgWindow8MiBV1 = 6,
  StackedDrgWindow512MiBV1 = 7,
  StackedDrgWindow32GiBV1 = 8,
  StackedDrgWindow64GiBV1 = 9,
  StackedDrgWindow2KiBV1_1 = 10,
  StackedDrgWindow8MiBV1_1 = 11,
  StackedDrgWindow512MiBV1_1 = 12,
  StackedDrgWindow32GiBV1_1 = 13,
  StackedDrgWindow64GiBV1_1 = 14,
};

enum class PoStType { Winning, Window };
std::string_view to_string(PoStType t);
std::string_view to_string(RegisteredPoStProof p);
/// Throws ProoflineError(BadArgument) for a number outside 0..14.
RegisteredPoStProof registered_post_proof_from_u64(std::uint64_t v);

inline constexpr std::size_t kWinningPoStChallengeCount = 66;
inline constexpr std::size_t kWinningPoStSectorCount = 1;
inline constexpr std::size_t kWindowPoStChallengeCount = 10;
/// Window PoSt sectors per partition of a sector size (2349 / 2300 / 2).
std::size_t window_post_sector_count(std::uint64_t sector_bytes);

/// filecoin-proofs PoStConfig: what a node's request fixes.
struct PoStConfig {
  PoStType type = PoStType::Window;
  std::uint64_t sector_bytes = 2048;
  std::size_t challenge_count = kWindowPoStChallengeCount;  ///< per sector (Winning: 66 in all)
  std::size_t sector_count = 2;                             ///< per partition (Winning: 1)
  ApiVersion api_version = ApiVersion::V1_2_0;
  const SectorShape& shape() const { return sector_shape(sector_bytes); }
  std::uint64_t nodes() const { return sector_bytes / kNodeBytes; }
};
/// Configuration of a registered proof (sector size, type, version).
PoStConfig post_config(RegisteredPoStProof p);
/// Configuration for any supported sector size (also the test sizes, which have no registered
/// proof upstream). Throws ProoflineError(BadArgument) for an unsupported size.
PoStConfig post_config(PoStType type, std::uint64_t sector_bytes, ApiVersion api_version);

/// storage-proofs-post fallback PublicParams: the circuit's shape. Window: (sector_count,
/// challenge_count) of the config; Winning: 66 sectors × 1 challenge.
struct FallbackParams {
  PoStType type = PoStType::Window;
  std::uint64_t sector_bytes = 2048;
  std::size_t sector_count = 2;     ///< sectors in one partition's circuit
  std::size_t challenge_count = 10; ///< challenges per circuit sector
  ApiVersion api_version = ApiVersion::V1_2_0;
};
FallbackParams fallback_params(const PoStConfig& c);
/// "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C, sector_count: N}" (hashed into the
/// parameter file name, reference §1.6).
std::string fallback_identifier(const FallbackParams& p);
/// "proof-of-spacetime-fallback-merkletree-poseidon_hasher-A-B-C-<hex sha256(identifier)>" (A-B-C =
/// the sector size's tree R shape; FallbackPoStCompound cache_prefix).
std::string fallback_parameter_cache_id(const FallbackParams& p);
/// "v28-<cache id>.params" (extension ".params", ".vk" or ".meta"); the v28 files Filecoin
/// publishes (parameters.json) carry exactly these names.
std::string fallback_parameter_file_name(const FallbackParams& p, std::string_view extension);

// ---- challenges ---------------------------------------------------------------------------------

using Randomness = Domain;
using ProverId = Domain;

/// The challenged leaf: u64 LE of SHA-256(randomness ‖ sector_id LE ‖ challenge_index LE)[0..8] mod nodes.
std::uint64_t leaf_challenge(const Randomness& randomness, std::uint64_t sector_id, std::uint64_t challenge_index,
                             std::uint64_t nodes);
/// The challenge index of challenge n of the sector at global position `sector_index` (partition ·
/// sector_count + position in the partition): see the header comment.
std::uint64_t challenge_index(ApiVersion v, std::size_t sector_index, std::size_t challenge_count, std::size_t n);
/// The challenge index of challenge n of circuit sector `position` (< the partition's real sectors;
/// a padding sector uses the last real one's) in partition `partition` of a circuit of shape `p`:
/// Window — challenge_index of its global position; Winning — position (one challenge each).
std::uint64_t post_challenge_index(const FallbackParams& p, std::size_t partition, std::size_t position,
                                   std::size_t n);
/// The challenged leaves of the sector at global position `sector_index` of a request (Window:
/// challenge_count of them; Winning: 66, sector_index 0).
std::vector<std::uint64_t> sector_challenges(const PoStConfig& c, const Randomness& randomness,
                                             std::uint64_t sector_id, std::size_t sector_index);

// ---- vanilla proofs -----------------------------------------------------------------------------

/// storage-proofs-post fallback SectorProof: the tree R inclusion proofs of one sector's challenges.
struct PoStSectorProof {
  std::vector<MerkleProof> inclusion_proofs;  ///< one per challenge, leaf = the challenged replica node
  Domain comm_c{};
  Domain comm_r_last{};
  bool operator==(const PoStSectorProof&) const = default;
};

/// filecoin-proofs FallbackPoStSectorProof: what ffi GenerateSingleVanillaProof returns for a sector.
struct FallbackPoStSectorProof {
  std::uint64_t sector_id = 0;
  Domain comm_r{};
  std::vector<PoStSectorProof> sectors;  ///< fallback::Proof.sectors: one entry (upstream always makes one)
  bool operator==(const FallbackPoStSectorProof&) const = default;
};

struct PublicSector {
  std::uint64_t sector_id = 0;
  Domain comm_r{};
  bool operator==(const PublicSector&) const = default;
};

/// storage-proofs-post fallback PublicInputs (the partition index is an argument where needed).
struct PoStPublicInputs {
  Randomness randomness{};
  ProverId prover_id{};  ///< prover_id_from_miner(miner id) (porep.hpp): not used by the circuit
  std::vector<PublicSector> sectors;  ///< all sectors of the request, in proving order
  /// The partition sectors[0] opens: 0 for a whole request (sectors of partitions 0, 1, …); k for a
  /// request holding only the sectors of partitions k, k + 1, … (cuzk.v1's form: one partition's
  /// sectors and its index, filecoin::post_request_from_vanilla). Partitions below it do not exist
  /// here; the challenge indices still count positions from partition 0 (every earlier partition
  /// is full), as the chain's verifier does.
  std::size_t first_partition = 0;
};

/// The partitions a request's public sectors make: WindowPoSt first = pub.first_partition, count =
/// ⌈sectors / sector_count⌉; WinningPoSt first 0, count 1.
struct PartitionRange {
  std::size_t first = 0, count = 0;
  bool contains(std::size_t k) const { return k >= first && k - first < count; }
  /// "the request's 3 sectors at 2 per partition make partitions 0..1" (for messages).
  std::string describe(const FallbackParams& p, const PoStPublicInputs& pub) const;
};
PartitionRange partition_range(const FallbackParams& p, const PoStPublicInputs& pub);

/// The circuit sectors of partition `partition` (≥ pub.first_partition): Window — the proofs of
/// that partition's public sectors in order (found by sector id), the last repeated to sector_count; Winning — the one
/// proof's 66 inclusion proofs, one per circuit sector. Also returns the public sector of each
/// circuit sector. Throws ProoflineError(BadLength / BadArgument) naming what does not fit (a
/// missing sector id, a count); Window: more vanilla proofs than public sectors ("5 vanilla proofs
/// for the request's 3 sectors: at most one per sector", BadLength) or one of a sector id that is
/// not a public sector (Malformed) is refused, never ignored.
struct PartitionSectors {
  std::vector<PoStSectorProof> proofs;   ///< sector_count entries
  std::vector<PublicSector> sectors;     ///< sector_count entries (padding repeats the last)
  std::size_t real_sectors = 0;          ///< entries before the padding (Winning: all)
  /// Per entry, the comm_r the vanilla proof itself carries (FallbackPoStSectorProof::comm_r) and
  /// its index in the vanilla proofs given: check_vanilla_comm_r compares it with the request's.
  std::vector<Domain> vanilla_comm_r;
  std::vector<std::size_t> vanilla_index;
};
PartitionSectors partition_sector_proofs(const FallbackParams& p, const PoStPublicInputs& pub,
                                         std::span<const FallbackPoStSectorProof> proofs, std::size_t partition);

/// The first real sector of `part` whose vanilla proof carries a comm_r other than the request's for
/// that sector, as "partition 1 sector 0 (id 7): vanilla_proofs[2] carries comm_r <64 hex>, the
/// request has comm_r <64 hex>" (the circuit takes the request's: without this check a vanilla proof
/// of another sector's comm_r would pass where the request is given and be proved against its own
/// comm_r where the request is made from the proofs, cuzk.v1's form); nullopt when they all agree.
/// verify_post_vanilla reports it; the window-post / winning-post kinds refuse it (Malformed).
struct CommRMismatch {
  std::size_t sector = 0;  ///< circuit sector
  std::string what;
};
std::optional<CommRMismatch> check_vanilla_comm_r(const PartitionSectors& part, std::size_t partition);

/// Result of verify_post_vanilla: ok, or the first failure.
struct PoStVanillaCheck {
  bool ok = true;
  std::size_t sector = 0;      ///< circuit sector of the failure
  std::size_t challenge = 0;   ///< its challenge (when tied to one)
  std::string what;            ///< e.g. "sector 1 (id 7) challenge 3: path leads to leaf 12, challenged leaf 40"
  explicit operator bool() const { return ok; }
};

/// storage-proofs-post FallbackPoSt::verify of partition `partition`, plus the checks the circuit
/// needs and check_vanilla_comm_r (after the others, so a wrong comm_r in the request is named by
/// its equation): per circuit sector, comm_r = Poseidon2(comm_c, comm_r_last), with comm_r_last the root of
/// the first inclusion proof and equal to the proof's comm_r_last field; per challenge, the root is
/// that comm_r_last, the path has the tree R shape of the sector size, hashes from the leaf to the
/// root, and its positions spell the challenged leaf derived from randomness, sector id and index.
PoStVanillaCheck verify_post_vanilla(const FallbackParams& p, const PoStPublicInputs& pub,
                                     const PartitionSectors& part, std::size_t partition);

// ---- generated inputs ---------------------------------------------------------------------------

struct GenPoStOptions {
  PoStConfig config;
  std::size_t sectors = 1;       ///< real sectors (Window: may be < or > sector_count; Winning: 1)
  std::uint64_t miner_id = 1000;
  std::uint64_t seed = 0;        ///< everything is deterministic in it
};

struct GeneratedPoSt {
  PoStConfig config;
  PoStPublicInputs public_inputs;
  std::vector<FallbackPoStSectorProof> vanilla_proofs;  ///< one per sector, in public_inputs order
};

/// Valid vanilla proofs of random sectors of any size: random sector ids (ascending), comm_c and
/// randomness (< 2^254); tree R sparse (filecoin/sparse_tree.hpp): only the challenged leaves are
/// materialized (random replica values), every node on their paths hashed, comm_r_last its root,
/// comm_r = Poseidon2(comm_c, comm_r_last). Each partition passes verify_post_vanilla.
GeneratedPoSt gen_post_vanilla(const GenPoStOptions& o);

}  // namespace proofline::filecoin
