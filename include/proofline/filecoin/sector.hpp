// proofline/filecoin/sector.hpp — Filecoin registered seal proofs and the shape of a PoRep sector.
//
// Owns: `RegisteredSealProof` (the 20 upstream variants, numbered exactly as upstream's enum, plus
// proofline's test-size variants), `ApiVersion`, `PorepMode`, `SectorShape` (nodes, layers,
// partitions, challenges, tree R/C arities), `PorepConfig` (a registered proof resolved: shape,
// porep_id, version, mode, partition and challenge counts), `porep_id`, the vanilla-proof key of the
// C1 JSON, and the parameter file names of §1.6.
//
// Facts (reference §1.6, §3.2, §5; rust-filecoin-proofs-api `registry.rs`; filecoin-proofs
// `constants.rs`):
//  - Enum order (append-only upstream, value = `self as u64`): 0..4 StackedDrg{2KiB,8MiB,512MiB,32GiB,
//    64GiB}V1 (ApiVersion 1.0.0), 5..9 …V1_1 (1.1.0), 10..14 …V1_1_Feat_SyntheticPoRep (1.1.0, synthetic
//    challenges), 15..19 …V1_2_Feat_NonInteractivePoRep (1.2.0, non-interactive challenges).
//  - porep_id (32 bytes) = registered-proof id as u64 LE ‖ nonce u64 LE (nonce 0 for every variant) ‖
//    16 zero bytes.
//  - nodes = sector bytes / 32; layers: 2 for every size up to 1 GiB, 11 for 32 GiB and 64 GiB.
//    DRG degree 6 (BASE_DEGREE), expander degree 8 (EXP_DEGREE), 37 label parents.
//  - Interactive/synthetic: partitions 1 (≤ 1 GiB) or 10 (32/64 GiB); minimum challenges 2 (≤ 1 GiB) or
//    176 (32/64 GiB); challenges per partition = ceil(minimum / partitions) = 2 or 18.
//    Non-interactive: the same challenges per partition; partitions 13 (≤ 1 GiB: 26 challenges) or 126
//    (32/64 GiB: 2268 ≥ 2253 challenges).
//  - Tree R and tree C have the same shape base-sub-top: 8-0-0 (2 KiB, 8 MiB, 512 MiB), 8-8-0 (16 KiB,
//    32 GiB), 8-8-2 (32 KiB, 64 GiB), 8-2-0 (4 KiB, 16 MiB, 1 GiB). Tree D is binary SHA-256.
//  - The test sizes 4 KiB, 16 KiB, 32 KiB, 16 MiB and 1 GiB exist upstream only as SectorShapes (no
//    registered proof). proofline gives them registered proofs of its own, "StackedDrg4KiBV1_1_Test" …,
//    numbered 1000..1004 (an extension: these names appear only in C1 files proofline writes; their
//    porep_id follows the same formula with that number), interactive, ApiVersion 1.1.0. Their C1
//    `vanilla_proofs` key follows the upstream pattern ("StackedDrg4KiBV1", …), also an extension.
//
// Errors: name/size lookups throw `ProoflineError(Error::BadArgument)` naming the bad value and listing
// the accepted ones.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/hash/merkle.hpp"

namespace proofline::filecoin {

/// Upstream `RegisteredSealProof`; the numeric value is upstream's discriminant (porep_id input).
enum class RegisteredSealProof : std::uint64_t {
  StackedDrg2KiBV1 = 0,
  StackedDrg8MiBV1 = 1,
  StackedDrg512MiBV1 = 2,
  StackedDrg32GiBV1 = 3,
  StackedDrg64GiBV1 = 4,
  StackedDrg2KiBV1_1 = 5,
  StackedDrg8MiBV1_1 = 6,
  StackedDrg512MiBV1_1 = 7,
  StackedDrg32GiBV1_1 = 8,
  StackedDrg64GiBV1_1 = 9,
  StackedDrg2KiBV1_1_Feat_SyntheticPoRep = 10,
  StackedDrg8MiBV1_1_Feat_SyntheticPoRep = 11,
  StackedDrg512MiBV1_1_Feat_SyntheticPoRep = 12,
  StackedDrg32GiBV1_1_Feat_SyntheticPoRep = 13,
  StackedDrg64GiBV1_1_Feat_SyntheticPoRep = 14,
  StackedDrg2KiBV1_2_Feat_NonInteractivePoRep = 15,
  StackedDrg8MiBV1_2_Feat_NonInteractivePoRep = 16,
  StackedDrg512MiBV1_2_Feat_NonInteractivePoRep = 17,
  StackedDrg32GiBV1_2_Feat_NonInteractivePoRep = 18,
  StackedDrg64GiBV1_2_Feat_NonInteractivePoRep = 19,
  // proofline extension: upstream's test sector sizes (interactive, ApiVersion 1.1.0).
  StackedDrg4KiBV1_1_Test = 1000,
  StackedDrg16KiBV1_1_Test = 1001,
  StackedDrg32KiBV1_1_Test = 1002,
  StackedDrg16MiBV1_1_Test = 1003,
  StackedDrg1GiBV1_1_Test = 1004,
};

/// storage-proofs-core `ApiVersion`. V1_0_0 differs from later versions in the DRG graph: the
/// predecessor (node − 1) sits in the last DRG parent slot instead of the first.
enum class ApiVersion { V1_0_0, V1_1_0, V1_2_0 };

/// How the challenged nodes are chosen (the circuit is the same for all three).
enum class PorepMode { Interactive, Synthetic, NonInteractive };

/// Sector geometry, independent of version and challenge mode.
struct SectorShape {
  std::uint64_t sector_bytes = 0;
  std::uint64_t nodes = 0;              ///< sector_bytes / 32
  std::size_t layers = 0;               ///< 2 or 11
  hash::TreeShape tree_rc;           ///< arities of tree R and tree C (base, sub, top; 0 = absent)
  std::size_t tree_d_levels = 0;        ///< log2(nodes): path length in tree D
  std::size_t partitions = 0;           ///< interactive/synthetic partitions (1 or 10)
  std::size_t challenges_per_partition = 0;  ///< 2 or 18
  std::size_t minimum_challenges = 0;   ///< interactive minimum (2 or 176)
  std::size_t ni_partitions = 0;        ///< non-interactive partitions (13 or 126)
  std::string_view name;                ///< "2KiB", "32GiB", …
  std::string_view vanilla_key;         ///< C1 `vanilla_proofs` key, "StackedDrg2KiBV1" (V1 form always)
  /// Number of leaves of each base tree of tree R/C (nodes / (sub · top), zero arities counted as 1).
  std::uint64_t base_tree_leaves() const;
  /// Levels of a base tree (log_base(base_tree_leaves())).
  std::size_t base_tree_levels() const;
};

inline constexpr std::size_t kBaseDegree = 6;    ///< DRG parents per node
inline constexpr std::size_t kExpDegree = 8;     ///< expander parents per node
inline constexpr std::size_t kLabelParents = 37; ///< parent labels hashed into a label
inline constexpr std::size_t kNodeBytes = 32;

/// Shape of a supported sector size (2 KiB, 4 KiB, 16 KiB, 32 KiB, 8 MiB, 16 MiB, 512 MiB, 1 GiB,
/// 32 GiB, 64 GiB). Throws ProoflineError for any other size.
const SectorShape& sector_shape(std::uint64_t sector_bytes);
/// Every supported shape, smallest first.
std::span<const SectorShape> all_sector_shapes();
/// "2KiB", "2 KiB", "2kib", "2048", "32GiB", "32G" → bytes. Throws ProoflineError on anything else or
/// an unsupported size.
std::uint64_t parse_sector_size(std::string_view text);
/// The same without the size check (SnapDeals has sizes of its own, snap.hpp): throws
/// ProoflineError(BadArgument) only for text that is not a number with an optional unit.
std::uint64_t parse_byte_size(std::string_view text);

/// Upstream name, e.g. "StackedDrg32GiBV1_1_Feat_SyntheticPoRep".
std::string_view to_string(RegisteredSealProof p);
/// The inverse of to_string; throws ProoflineError naming the unknown string.
RegisteredSealProof registered_seal_proof_from_string(std::string_view name);
/// All variants in numeric order (upstream's 20, then the 5 test-size ones).
std::span<const RegisteredSealProof> all_registered_seal_proofs();

ApiVersion api_version(RegisteredSealProof p);
PorepMode porep_mode(RegisteredSealProof p);
std::uint64_t sector_size(RegisteredSealProof p);
/// The default registered proof of a size: V1_1 interactive (the test-size variant for test sizes).
RegisteredSealProof default_seal_proof(std::uint64_t sector_bytes);

using PorepId = std::array<std::uint8_t, 32>;
/// id u64 LE ‖ nonce (0) u64 LE ‖ 16 zero bytes.
PorepId porep_id(RegisteredSealProof p);

/// A registered proof resolved to everything the vanilla and circuit code need.
struct PorepConfig {
  RegisteredSealProof proof{};
  const SectorShape* shape = nullptr;
  PorepId porep_id{};
  ApiVersion api_version{};
  PorepMode mode{};
  std::size_t partitions = 0;               ///< of this mode (interactive 1/10, NI 13/126)
  std::size_t challenges_per_partition = 0;
  std::size_t total_challenges() const { return partitions * challenges_per_partition; }
};
PorepConfig porep_config(RegisteredSealProof p);

// ---- parameter files (reference §1.6) --------------------------------------------------------
/// "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph:
/// drgraph::BucketGraph{size: N; degree: 6; hasher: poseidon_hasher} }, challenges: LayerChallenges {
/// layers: L, max_count: C }, tree: merkletree-poseidon_hasher-A-B-C }" (N nodes, C challenges per
/// partition) — hashed into the cache id. Independent of porep_id, version and challenge mode, so one
/// file serves every variant of a size (its SHA-256 reproduces the published v28 names of §1.6).
std::string parameter_identifier(const PorepConfig& c);
/// "stacked-proof-of-replication-merkletree-poseidon_hasher-A-B-C-sha256_hasher-<hex sha256(identifier)>".
std::string parameter_cache_id(const PorepConfig& c);
/// "v28-<cache id>.params" (extension ".params", ".vk" or ".meta").
std::string parameter_file_name(const PorepConfig& c, std::string_view extension);
/// "merkletree-poseidon_hasher-A-B-C" (storage-proofs-core MerkleTreeWrapper::display): the tree R/C
/// shape in every parameter file prefix.
std::string tree_display(const SectorShape& s);
/// "<prefix>-<hex sha256(identifier)>": the cache id of any circuit's parameters (PoRep above, PoSt
/// in post.hpp).
std::string parameter_cache_id(std::string_view prefix, std::string_view identifier);
/// "v28-<cache id><extension>" (a missing leading dot is added).
std::string parameter_file_name(std::string_view cache_id, std::string_view extension);
/// $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters.
std::filesystem::path parameter_cache_dir();

}  // namespace proofline::filecoin
