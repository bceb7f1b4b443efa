// proofline/filecoin/seal.hpp — producing C1 outputs: a real SDR sealer for small sectors and
// `gen_c1`, which writes a valid C1 for a random sector of any size without sealing it.
//
// Owns: `SealRequest`, `SealTimings`, `SealResult`, `seal_sector`, `GenC1Options`, `gen_c1`.
//
// seal_sector (storage-proofs-porep stacked vanilla, reference §3.2, §5): data = nodes × 32 bytes,
// each node < 2^254 (Fr32-padded); tree D = binary trimmed-SHA-256 tree over the data (comm_d);
// replica_id from prover_id, sector_id, ticket, comm_d, porep_id; labels of layers 1..L, node by node
// (label_hash over the 37 parents of porep.hpp; node 0 hashes no parents); tree C = Poseidon tree (the
// R/C shape) over the column hashes (comm_c); key = last layer's labels; replica = key + data (Fr);
// tree R = Poseidon tree over the replica (comm_r_last); comm_r = Poseidon2(comm_c, comm_r_last); then
// the challenges of every partition (by mode: seed, seed + comm_r, or comm_r) and their vanilla
// proofs. Memory ≈ nodes · 32 · (2 + layers + 4/3·2) bytes plus 56 bytes of parents per node, so it is
// meant for 2 KiB … 16 MiB sectors (throws BadArgument above 1 GiB). Multithreaded (oneTBB) where the
// algorithm allows: parents, column hashes and trees; labels are sequential within a layer.
//
// gen_c1 (interactive modes only — V1, V1_1 and the test-size variants): picks random seed, replica_id
// (the C1 carries no prover_id / sector_id, so no consumer can tie replica_id to comm_d), derives the
// challenges, and materializes only what the vanilla proofs contain: the challenged nodes and all
// their parents get columns (parents that are not challenged: random labels, node 0: its true
// parentless labels; challenged nodes: labels computed from their parents' rows, layer by layer in
// node order, so chains between challenged nodes are consistent), challenged nodes get random data
// and replica = label + data; trees D, C and R are sparse: every node off the proven paths is random
// filler, every node on them is hashed from its children, so one comm_d, comm_c and comm_r_last serve
// all challenges of all partitions. The result passes verify_vanilla. Deterministic in (proof, seed).
// Non-interactive and synthetic PoRep derive their challenges from comm_r, which depends on the
// challenged labels: no sparse construction exists, gen_c1 throws BadArgument for them (use
// seal_sector).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/sector.hpp"

namespace proofline::filecoin {

struct SealRequest {
  RegisteredSealProof proof = RegisteredSealProof::StackedDrg2KiBV1_1;
  Domain prover_id{};
  std::uint64_t sector_id = 0;
  Domain ticket{};
  Domain seed{};
};

/// The largest sector seal_sector accepts (its memory grows with the sector: see above).
inline constexpr std::uint64_t kMaxSealBytes = std::uint64_t{1} << 30;

struct SealTimings {
  double tree_d_ms = 0, parents_ms = 0, labels_ms = 0, tree_c_ms = 0, tree_r_ms = 0, proofs_ms = 0;
};

struct SealResult {
  SealCommitPhase1Output c1;
  Domain comm_c{}, comm_r_last{};
  SealTimings timings;
};

/// Seals `data` (nodes × 32 bytes of the request's sector size; every node's byte 31 < 0x40) and
/// returns the C1 output. Throws ProoflineError(BadArgument) on a wrong data size or an unpadded node.
SealResult seal_sector(const SealRequest& request, std::span<const Domain> data);

struct GenC1Options {
  RegisteredSealProof proof = RegisteredSealProof::StackedDrg2KiBV1_1;
  std::uint64_t seed = 0;
};

/// A valid C1 for a random sector (see the header comment).
SealCommitPhase1Output gen_c1(const GenC1Options& options);

}  // namespace proofline::filecoin
