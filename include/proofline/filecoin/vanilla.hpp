// proofline/filecoin/vanilla.hpp — native verification of a C1's vanilla PoRep proofs, so that a bad
// C1 is reported by challenge before (or instead of) a circuit being synthesized.
//
// Owns: `VanillaCheck`, `VerifyVanillaOptions`, `verify_vanilla`, `merkle_root`.
//
// What is checked, per challenge i of partition k, in this order (the first failure is reported):
//  1. the challenged node (labeling_proofs[0].node) equals the one derived from replica_id and seed
//     (interactive), seed and comm_r (synthetic) or comm_r (non-interactive) — unless disabled;
//  2. tree D: the path from the data leaf hashes (trimmed SHA-256, binary) to its root, that root is
//     comm_d, and the path positions spell the challenge;
//  3. tree R: the path from the replica leaf hashes (Poseidon, tree shape) to its root, which is the
//     same comm_r_last in every challenge, positions spell the challenge;
//  4. the columns of the node (c_x), its 6 DRG parents and its 8 expander parents: column index =
//     the node / the graph's parent, leaf = Poseidon(rows), path hashes to the root, positions spell
//     the index, root = the same comm_c everywhere;
//  5. each labeling proof l: layer_index = l, node = challenge, its 37 parents = the parents' column
//     rows in hashing order, and trim(SHA-256(replica_id ‖ l ‖ node ‖ 0^20 ‖ parents)) = row l of c_x;
//  6. the encoding proof: last layer, same node and parents as the last labeling proof, and the
//     replica leaf = row L of c_x + the data leaf (in Fr).
// Before the challenges: comm_r = Poseidon2(comm_c, comm_r_last) (taken from partition 0 challenge 0).
// replica_id itself cannot be checked: the C1 does not carry prover_id and sector_id.
#pragma once

#include <cstdint>
#include <string>

#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/graph.hpp"

namespace proofline::filecoin {

/// Result of verify_vanilla: ok, or the first failing challenge and what failed there.
struct VanillaCheck {
  bool ok = true;
  bool global = false;          ///< the failure is not tied to one challenge (comm_r equation, counts)
  std::size_t partition = 0;    ///< first failing challenge (when !ok && !global)
  std::size_t challenge = 0;
  std::uint64_t node = 0;
  std::string what;             ///< e.g. "partition 0 challenge 1 (node 37): labeling_proofs[1]: label ≠ c_x row 2"
  explicit operator bool() const { return ok; }
};

struct VerifyVanillaOptions {
  bool check_challenges = true;  ///< step 1 (off: accept any challenged nodes)
};

/// Verifies every challenge of every partition (see the header comment). Never throws for content
/// errors; throws ProoflineError only if the registered proof is unknown.
VanillaCheck verify_vanilla(const SealCommitPhase1Output& c1, const VerifyVanillaOptions& options = {});
/// The same with a graph the caller already built (StackedGraph(porep_config(c1.registered_proof))).
VanillaCheck verify_vanilla(const SealCommitPhase1Output& c1, const StackedGraph& graph,
                            const VerifyVanillaOptions& options = {});

/// The root a Merkle proof's path leads to from its leaf (SHA-256 nodes when `sha256`, else Poseidon).
Domain merkle_root(const MerkleProof& proof, bool sha256);

}  // namespace proofline::filecoin
