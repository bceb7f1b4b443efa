// proofline/filecoin/snap.hpp — SnapDeals (storage-proofs-update EmptySectorUpdate, the production
// variant whose tree D is SHA-256): sector shapes, challenge derivation, the encoding randomness
// (phi, rho), the vanilla proofs a node sends, their native verification, and generated test inputs.
//
// Owns: `RegisteredUpdateProof`, `SnapParams` (storage-proofs-update PublicParams plus the tree R
// shape and the allowed h values) with its parameter file names, `h_select_index`,
// `k_and_h_select`, `snap_challenges`, `snap_phi`, `snap_rho`, `SnapChallengeProof`,
// `SnapPartitionProof`, `SnapPublicInputs`, `verify_snap_vanilla`, `gen_snap_vanilla`.
//
// Facts (rust-fil-proofs storage-proofs-update `constants.rs`, `vanilla.rs`, `challenges.rs`,
// `circuit.rs`; filecoin-proofs `types/mod.rs` HSelect; reference §3.5, cuzk-api §3.3–3.4):
//  - Sector sizes (nodes = bytes / 32): 1, 2, 4, 8, 16, 32 KiB (tests), 8 MiB, 16 MiB, 512 MiB,
//    32 GiB, 64 GiB. Tree R (old and new) shapes: 1 KiB 8-4-0, 2 KiB 8-0-0, 4 KiB 8-2-0, 8 KiB 8-4-0,
//    16 KiB 8-8-0, 32 KiB 8-8-2, 8 MiB 8-0-0, 16 MiB 8-2-0, 512 MiB 8-0-0, 32 GiB 8-8-0, 64 GiB 8-8-2.
//    Tree D (new data) is binary SHA-256 (trimmed, hashers.hpp) of log2(nodes) levels.
//  - partition_count: 1 (≤ 8 KiB), 2 (≤ 32 KiB), 4 (≤ 16 MiB), 16 (larger); challenge_count per
//    partition: 10 (≤ 16 MiB), 86 (larger); apex_leaf_count: 8 (≤ 8 KiB), 128 (larger);
//    hs = [1; 6] (≤ 32 KiB) or [7, 8, 9, 10, 11, 12]; the h a node uses is hs[3] (HSelect::from_nodes:
//    1 at test sizes, 10 in production).
//  - Partition k covers the nodes whose top partition_bit_len bits (of challenge_bit_len = log2
//    nodes) are k. In tree D the partition's subtree has the apex tree on top: the row
//    apex_leaf_height = challenge_bit_len − partition_bit_len − apex_leaf_bit_len holds the partition's
//    apex leaves (k · apex_leaf_count …), hashed pairwise up to the partition's apex root, which the
//    partition path (the top partition_bit_len levels of every challenge's tree D path) takes to
//    comm_d_new.
//  - Challenges of partition k: random_bits = challenge_bit_len − partition_bit_len bits each;
//    challenges_per_digest = ⌊254 / random_bits⌋; digests_per_partition = ⌈challenge_count /
//    challenges_per_digest⌉; digest j = Poseidon2_custom(comm_r_new, k · digests_per_partition + j)
//    (Custom(1) domain tag 2^40, §4); its little-endian bits, cut into random_bits-sized chunks from
//    bit 0, give the challenges' low bits; the partition index k is their top bits.
//  - phi = Poseidon2_custom(comm_d_new, comm_r_old); rho(c) = Poseidon2_custom(phi, c >> (challenge_bit_len
//    − h)); the new replica node = old replica node + data node · rho (field arithmetic).
//  - comm_r_old = Poseidon2(comm_c, root of tree R old), comm_r_new = Poseidon2(comm_c, root of tree R
//    new) (MerkleTree tag 3).
//  - k_and_h_select (the circuit's first public input) = k | h_select << partition_bit_len with
//    h_select = 2^(index of h in hs); at test sizes every h is 1, so the index is 0.
//  - RegisteredUpdateProof (go-state-types abi, cuzk `registered_*_from_u64`): 0..4 =
//    StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1; the other sizes have none.
//  - Parameter files: identifier "empty_sector_update::PublicParams{ sector_nodes: N }", cache id
//    "empty-sector-update-merkletree-poseidon_hasher-A-B-C-<hex sha256(identifier)>" (the names in
//    parameters.json).
//
// Values: Domain = 32 bytes, the little-endian encoding of a field element < r (Poseidon domain) or a
// trimmed SHA-256 digest / Fr32 data node (Sha256Domain, < 2^254).
// Errors: unknown sizes, numbers, h or k throw ProoflineError(BadArgument) naming the value and the
// accepted ones; verify_snap_vanilla never throws for content errors (it returns the first failure).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/filecoin/c1.hpp"
#include "proofline/hash/merkle.hpp"

namespace proofline::filecoin {

/// go-state-types abi.RegisteredUpdateProof (what Curio / cuzk send).
enum class RegisteredUpdateProof : std::uint64_t {
  StackedDrg2KiBV1 = 0,
  StackedDrg8MiBV1 = 1,
  StackedDrg512MiBV1 = 2,
  StackedDrg32GiBV1 = 3,
  StackedDrg64GiBV1 = 4,
};
std::string_view to_string(RegisteredUpdateProof p);
/// Throws ProoflineError(BadArgument) for a number outside 0..4.
RegisteredUpdateProof registered_update_proof_from_u64(std::uint64_t v);
std::uint64_t sector_size(RegisteredUpdateProof p);

/// storage-proofs-update PublicParams of a sector size, with the tree R shape and the allowed h.
struct SnapParams {
  std::uint64_t sector_bytes = 0;
  std::uint64_t nodes = 0;              ///< sector_nodes = sector_bytes / 32
  std::size_t challenge_count = 0;      ///< per partition
  std::size_t challenge_bit_len = 0;    ///< log2(nodes): tree D height
  std::size_t partition_count = 0;
  std::size_t partition_bit_len = 0;    ///< log2(partition_count)
  std::size_t apex_leaf_count = 0;      ///< per partition
  std::size_t apex_leaf_bit_len = 0;    ///< log2(apex_leaf_count)
  hash::TreeShape tree_r;               ///< tree R old / new arities (base, sub, top)
  std::size_t tree_r_base_levels = 0;   ///< base levels of tree R
  std::array<std::size_t, 6> hs{};      ///< the allowed h values
  std::string_view name;                ///< "1KiB", "32GiB", …

  /// The h nodes use (filecoin-proofs HSelect::from_nodes): hs[3].
  std::size_t h_default() const { return hs[3]; }
  /// Tree D row of the apex leaves: challenge_bit_len − partition_bit_len − apex_leaf_bit_len.
  std::size_t apex_leaf_height() const { return challenge_bit_len - partition_bit_len - apex_leaf_bit_len; }
  /// Random bits per challenge: challenge_bit_len − partition_bit_len.
  std::size_t random_bits() const { return challenge_bit_len - partition_bit_len; }
  /// ⌊254 / random_bits⌋.
  std::size_t challenges_per_digest() const { return 254 / random_bits(); }
  /// ⌈challenge_count / challenges_per_digest⌉.
  std::size_t digests_per_partition() const {
    return (challenge_count + challenges_per_digest() - 1) / challenges_per_digest();
  }
  /// The MerkleProof variant of tree R paths: Single (x-0-0), Sub (x-y-0) or Top (x-y-z).
  MerkleProofKind tree_r_proof_kind() const;
  /// Level arities of tree R, leaf level first (base levels, then sub, then top).
  std::vector<std::size_t> tree_r_arities() const;
};

/// The parameters of a supported size (list above). Throws ProoflineError(BadArgument) naming the
/// size and the supported ones.
const SnapParams& snap_params(std::uint64_t sector_bytes);
/// Every supported size, smallest first.
std::span<const SnapParams> all_snap_params();
/// "empty_sector_update::PublicParams{ sector_nodes: N }".
std::string snap_identifier(const SnapParams& p);
/// "empty-sector-update-merkletree-poseidon_hasher-A-B-C-<hex sha256(identifier)>".
std::string snap_parameter_cache_id(const SnapParams& p);
/// "v28-<cache id><extension>".
std::string snap_parameter_file_name(const SnapParams& p, std::string_view extension);

/// The index of `h` in hs (the first one). Throws ProoflineError(BadArgument) for an h not allowed.
std::size_t h_select_index(const SnapParams& p, std::size_t h);
/// k | 2^h_select_index(h) << partition_bit_len. Throws ProoflineError(BadArgument) for k ≥
/// partition_count or an h not allowed.
std::uint64_t k_and_h_select(const SnapParams& p, std::size_t k, std::size_t h);

/// The challenge_count challenged nodes of partition k (header comment), in order. Throws
/// ProoflineError(BadArgument) for k ≥ partition_count.
std::vector<std::uint64_t> snap_challenges(const SnapParams& p, const Domain& comm_r_new, std::size_t k);
/// phi = Poseidon2_custom(comm_d_new, comm_r_old).
ff::Fr snap_phi(const Domain& comm_d_new, const Domain& comm_r_old);
/// rho = Poseidon2_custom(phi, high), high = the challenge's top h bits.
ff::Fr snap_rho(const ff::Fr& phi, std::uint64_t high);

// ---- vanilla proofs -----------------------------------------------------------------------------

/// storage-proofs-update ChallengeProof: the three inclusion proofs of one challenged node.
struct SnapChallengeProof {
  MerkleProof proof_r_old;  ///< tree R old (Poseidon, tree R shape), leaf = the sector key's node
  MerkleProof proof_d_new;  ///< tree D new (SHA-256, binary, Single), leaf = the new data's node
  MerkleProof proof_r_new;  ///< tree R new (Poseidon, tree R shape), leaf = the new replica's node
  bool operator==(const SnapChallengeProof&) const = default;
};

/// storage-proofs-update PartitionProof: what ffi GenerateUpdateVanillaProofs returns per partition.
struct SnapPartitionProof {
  Domain comm_c{};                                ///< of the old replica (PoRep's comm_c)
  std::vector<Domain> apex_leafs;                 ///< apex_leaf_count tree D nodes of this partition
  std::vector<SnapChallengeProof> challenge_proofs;  ///< challenge_count, in challenge order
  bool operator==(const SnapPartitionProof&) const = default;
};

/// The public inputs of a SnapDeals proof (the partition index is an argument where needed).
struct SnapPublicInputs {
  Domain comm_r_old{};  ///< PoRep comm_r of the sector before the update
  Domain comm_d_new{};  ///< tree D root of the new data (Sha256Domain)
  Domain comm_r_new{};  ///< Poseidon2(comm_c, root of tree R new)
  std::size_t h = 0;    ///< high bits of a challenge that select its rho (one of hs)
  bool operator==(const SnapPublicInputs&) const = default;
};

/// Result of verify_snap_vanilla: ok, or the first failure.
struct SnapVanillaCheck {
  bool ok = true;
  std::optional<std::size_t> challenge;  ///< the failing challenge, when tied to one
  std::string what;  ///< e.g. "partition 0 challenge 3 (node 21): tree D new path does not hash to its root"
  explicit operator bool() const { return ok; }
};

/// storage-proofs-update EmptySectorUpdate::verify of partition k, made as strict as the circuit:
/// k < partition_count and h allowed; apex_leaf_count apex leaves and challenge_count challenge
/// proofs; comm_r_old = Poseidon2(comm_c, root of challenge 0's tree R old path) and comm_r_new the same
/// with tree R new; the apex leaves hash (pairwise, SHA-256) to an apex root that challenge 0's
/// partition path (the positions of k) takes to comm_d_new; then per challenge i with c = challenge i
/// of snap_challenges: every path has its tree's shape; the roots are challenge 0's (tree R old /
/// new) and comm_d_new (tree D); every path's positions spell c and it hashes to its root; leaf_r_new
/// = leaf_r_old + leaf_d_new · rho(c >> (challenge_bit_len − h)); the tree D path reaches the apex
/// leaf c selects at the apex-leaf row; its partition path equals challenge 0's.
SnapVanillaCheck verify_snap_vanilla(const SnapParams& p, const SnapPublicInputs& pub, std::size_t k,
                                     const SnapPartitionProof& proof);

// ---- generated inputs ---------------------------------------------------------------------------

struct GenSnapOptions {
  std::uint64_t sector_bytes = 1024;
  std::size_t h = 0;        ///< 0: the size's default (hs[3])
  std::uint64_t seed = 0;   ///< everything is deterministic in it
};

struct GeneratedSnap {
  std::uint64_t sector_bytes = 0;
  SnapPublicInputs public_inputs;
  std::vector<SnapPartitionProof> partition_proofs;  ///< partition_count, in partition order
};

/// Valid vanilla proofs of every partition of a random update of a random sector. The challenges
/// derive from comm_r_new, a root over every node, so no sparse construction exists (as for
/// non-interactive PoRep). Instead a sector of at most 2^18 nodes (8 MiB) is random throughout, and a
/// larger one repeats a random block of 64 nodes (sector key and data): every subtree that covers
/// whole blocks within one rho region (nodes / 2^h nodes; tree R new) is then the same and hashed
/// once, so the trees of a 32 GiB sector cost ~2·10^4 hashes; only the challenged paths are
/// materialized as proofs. comm_c
/// is random; comm_r_old, comm_d_new and comm_r_new are the trees' commitments. Each partition passes
/// verify_snap_vanilla. Throws ProoflineError(BadArgument) for an unsupported size or h.
GeneratedSnap gen_snap_vanilla(const GenSnapOptions& o);

}  // namespace proofline::filecoin
