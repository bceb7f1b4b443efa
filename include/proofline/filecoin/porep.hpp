// proofline/filecoin/porep.hpp — the PoRep values around the vanilla proofs: replica_id, comm_r,
// the challenged nodes, the label and column hashes, and the public inputs of each partition's
// circuit.
//
// Owns: `replica_id`, `prover_id_from_miner`, `comm_r`, `interactive_challenges`, `ni_challenges`, `synthetic_challenges`, `challenges`,
// `label_hash`, `label_parents`, `column_hash`, `public_inputs`.
//
// Facts (reference §3.2, §5; storage-proofs-porep `stacked/vanilla/{challenges,params}.rs`,
// `create_label`, storage-proofs-core `util.rs`):
//  - replica_id = trim(SHA-256(prover_id (32) ‖ sector_id u64 BE ‖ ticket (32) ‖ comm_d (32) ‖
//    porep_id (32))), read as LE Fr (trim: byte 31 &= 0x3f).
//  - comm_r = Poseidon arity 2, MerkleTree tag 3, of (comm_c, comm_r_last).
//  - Interactive challenge i of partition k (C per partition): j = k·C + i;
//    node = (LE integer of SHA-256(replica_id ‖ seed ‖ u32 LE j)) mod (nodes − 1) + 1 (never node 0).
//  - Non-interactive: the same with SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖
//    comm_r ‖ u32 LE j).
//  - Label of node v in layer l (1-based): trim(SHA-256(replica_id ‖ u32 BE l ‖ u64 BE v ‖ 20 zero
//    bytes ‖ P)) with P empty for v = 0, else 37 parent labels: layer 1: the 6 DRG parents' labels of
//    layer 1, six times, then the first again; layer > 1: the 6 DRG parents' labels of layer l and
//    the 8 expander parents' labels of layer l − 1 (14), twice, then the first 9.
//  - Column hash = Poseidon (arity = layers, MerkleTree tag 2^layers − 1) of a node's labels, layer 1
//    first; replica node = label of the last layer + data node (Fr addition).
//  - Public inputs of a partition (without ONE), in circuit order: replica_id, comm_d, comm_r, then per
//    challenge: challenge (tree D path), the 6 DRG parents, the 8 expander parents, challenge (the
//    UInt64), challenge (tree R path), challenge (tree C path of c_x) → 3 + 18·C values.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/graph.hpp"
#include "proofline/filecoin/sector.hpp"

namespace proofline::filecoin {

Domain replica_id(const Domain& prover_id, std::uint64_t sector_id, const Domain& ticket, const Domain& comm_d,
                  const PorepId& porep_id);

/// The prover_id of miner actor f0<miner_id>: the id as unsigned LEB128 at the start of 32 zero
/// bytes (the payload of the ID address; filecoin-ffi / cuzk `prover_id`): 1000 → e8 07 00…,
/// 128 → 80 01 00…, 0 → 00…. At most 10 bytes for a u64.
Domain prover_id_from_miner(std::uint64_t miner_id);

ff::Fr comm_r(const ff::Fr& comm_c, const ff::Fr& comm_r_last);

/// The challenged nodes of partition k (interactive / synthetic-as-interactive: from seed).
std::vector<std::uint64_t> interactive_challenges(std::uint64_t nodes, const Domain& replica_id, const Domain& seed,
                                                  std::size_t partition, std::size_t per_partition);
/// The challenged nodes of partition k for non-interactive PoRep (from comm_r).
std::vector<std::uint64_t> ni_challenges(std::uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                         std::size_t partition, std::size_t per_partition);
/// Synthetic PoRep: the synthetic challenge set has min(nodes, 2^18) entries; entry i = the 32 bytes
/// at offset 32·i of the IETF ChaCha20 keystream (nonce "synth-porep\0", key = BLAKE2b-256 keyed with
/// "filecoin.io|PoRep|1|Synthetic|1|Generation" over replica_id ‖ comm_r), read as a LE integer,
/// mod (nodes − 1) + 1; porep challenge j = k·C + i selects entry (u32 LE at offset 4·j of the
/// ChaCha20 keystream keyed by BLAKE2b-256 keyed with "filecoin.io|PoRep|1|Synthetic|1|Selection"
/// over replica_id ‖ seed) mod the set size. ChaCha20 and BLAKE2b-MAC are OpenSSL's.
std::vector<std::uint64_t> synthetic_challenges(std::uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                                const Domain& seed, std::size_t partition,
                                                std::size_t per_partition);
/// By the config's mode (interactive: seed; synthetic: seed and comm_r; non-interactive: comm_r).
std::vector<std::uint64_t> challenges(const PorepConfig& c, const Domain& replica_id, const Domain& seed,
                                      const Domain& comm_r, std::size_t partition);

/// The 37 parent labels of a labeling in hashing order, from the DRG parents' labels in layer
/// `layer` and (layer > 1) the expander parents' labels in layer − 1.
std::vector<Domain> label_parents(std::size_t layer, std::span<const Domain, kBaseDegree> drg,
                                  std::span<const Domain, kExpDegree> exp);
/// trim(SHA-256(replica_id ‖ u32 BE layer ‖ u64 BE node ‖ 20 zero bytes ‖ parents…)).
Domain label_hash(const Domain& replica_id, std::uint32_t layer, std::uint64_t node, std::span<const Domain> parents);

/// Poseidon(arity = rows.size()) of the rows as LE Fr.
ff::Fr column_hash(std::span<const Domain> rows);

/// Public inputs of partition k from the C1 (indices as the C1 states them, graph recomputed for
/// the parents): 3 + 18·C values, without ONE.
std::vector<ff::Fr> public_inputs(const SealCommitPhase1Output& c1, std::size_t partition);
/// The same from scratch, as a verifier does (challenges derived from the seed or comm_r, parents
/// from the graph).
std::vector<ff::Fr> public_inputs(const PorepConfig& c, const StackedGraph& g, const Domain& replica_id,
                                  const Domain& comm_d, const Domain& comm_r, const Domain& seed,
                                  std::size_t partition);

}  // namespace proofline::filecoin
