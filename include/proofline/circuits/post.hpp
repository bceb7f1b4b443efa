// proofline/circuits/post.hpp — the Fallback PoSt circuit of one partition (WindowPoSt, WinningPoSt).
//
// Owns: `FallbackPoStShape` (tree R shape and nodes of the sector size, circuit sectors, challenges
// per circuit sector), `PoStCircuitSector` (the witness of one circuit sector), `FallbackPoStCircuit`
// (synthesis in upstream's order), `count_post` (counts without a witness), `post_public_inputs`
// (what a verifier derives from randomness, sector ids and comm_r), `locate_post_constraint`.
//
// Source: rust-fil-proofs storage-proofs-post `fallback/{circuit,compound}.rs` (reference §3.4).
// Synthesis order (= variable and constraint order), per circuit sector i in namespace "sector_i"
// (bellperson's extensible-CS path synthesizes groups of sectors apart and concatenates them, which
// gives the same order):
//   comm_r_last alloc; comm_c alloc; comm_r alloc; comm_r inputize ("comm_r_input": input);
//   h = Poseidon2(comm_c, comm_r_last) ("H_comm_c_comm_r_last", 311 c); comm_r · ONE = h (1 c);
//   per challenge n, namespace "challenge_inclusion_n": storage-proofs-core PoRCircuit with a private,
//   allocated root (comm_r_last): leaf alloc ("value"), tree R path (base, sub, top levels: 530 /
//   387 / 314 constraints per arity 8 / 4 / 2 level), the path's position bits packed into one
//   input ("path": the challenged leaf index), computed root · ONE = comm_r_last (1 c).
// Public inputs (ONE excluded): per circuit sector comm_r, then its challenged leaf indices.
// Counts: per circuit sector 313 + challenges · (Σ levels + 2) constraints, 1 + challenges inputs.
// Upstream-asserted: WindowPoSt 32 GiB (2349 sectors × 10) 125,279,217 constraints and 25,840 inputs
// (with ONE); 64 GiB (2300 × 10) 129,887,900; WinningPoSt 32 GiB (66 × 1) 370,590 and 133 inputs
// (v28 circuitinfo, filecoin-proofs constants.rs); storage-proofs-post tests (64 leaves per base
// tree, 5 challenges): 3 sectors 8-0-0 16,869 (19 inputs), 8-4-0 22,674, 8-4-2 27,384; 2 sectors
// 8-0-0 11,246 (13 inputs); 5 sectors of 32 GiB × 10 challenges 266,665.
//
// Values: Fr in Montgomery form; comm_r / comm_c / comm_r_last / leaves are the field elements whose
// 32-byte little-endian encodings the vanilla proofs carry.
// Errors: ProoflineError(BadLength) from FallbackPoStCircuit's constructor when the witness does not
// have the shape (names the circuit sector, the challenge and the part); r1cs::SynthesisError from
// synthesis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/gadgets/merkle.hpp"
#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/proving_assignment.hpp"

namespace proofline::circuits::post {

using ff::Fr;

struct FallbackPoStShape {
  std::uint64_t nodes = 64;             ///< sector bytes / 32
  gadgets::TreeShape tree{8, 0, 0};     ///< tree R arities (base, sub, top)
  std::size_t sectors = 2;              ///< circuit sectors per partition
  std::size_t challenges = 10;          ///< challenges per circuit sector
  /// Base levels of tree R: log_base(nodes / (sub·top)). Throws ProoflineError(BadLength) when the
  /// node count does not fit the arities.
  std::size_t base_levels() const;
  /// "WindowPoSt-like: 2 sectors × 10 challenges, 64 nodes, tree 8-0-0".
  std::string describe() const;
};

/// The shape of a FallbackParams' circuit (sector size → nodes and tree R; Window: sector_count ×
/// challenge_count, Winning: 66 × 1).
FallbackPoStShape shape_for(const filecoin::FallbackParams& p);

/// One circuit sector's witness.
struct PoStCircuitSector {
  Fr comm_r, comm_c, comm_r_last;
  std::vector<Fr> leaves;                 ///< per challenge: the challenged replica node
  std::vector<gadgets::AuthPath> paths;   ///< per challenge: its tree R path
};

/// The witness of partition `partition` from its circuit sectors (filecoin::partition_sector_proofs):
/// comm_r from the public sector, comm_c / comm_r_last / leaves / paths from the vanilla proof.
std::vector<PoStCircuitSector> circuit_sectors(const filecoin::PartitionSectors& part);
/// A witness of the shape with every value zero (setup and counting; never satisfied).
std::vector<PoStCircuitSector> blank_sectors(const FallbackPoStShape& shape);

struct PoStCounts {
  std::size_t constraints = 0;  ///< the circuit's (bellperson's input constraints excluded)
  std::size_t inputs = 0;       ///< public inputs including ONE
  std::size_t aux = 0;
  std::size_t sector_constraints = 0;  ///< one circuit sector
  std::size_t sector_header = 0;       ///< its comm_r part (allocs, Poseidon2, equality): 313
  std::size_t challenge_constraints = 0;  ///< one challenge's inclusion
};

class FallbackPoStCircuit final : public r1cs::CircuitInterface {
 public:
  /// Throws ProoflineError(BadLength) when `sectors` does not have `shape`.
  FallbackPoStCircuit(const FallbackPoStShape& shape, std::vector<PoStCircuitSector> sectors);
  /// In a mode that runs parts in parallel (cs.parallel_parts(): prover mode, the setup's
  /// QapEvaluator) with synthesis_threads() != 1 and more than one sector: synthesize_parallel(cs,
  /// synthesis_threads()); otherwise the sectors in order, each in its namespace.
  void synthesize(r1cs::ConstraintSystem& cs) const override;
  /// The sectors synthesized as parts of one shape on up to `threads` oneTBB threads (0: all;
  /// ConstraintSystem::synthesize_parts: in parallel in prover mode and the setup's QapEvaluator,
  /// in order elsewhere, without the sector namespaces), as bellperson's extensible path does with
  /// sector groups: the result equals that of the sequential synthesis byte for byte. Errors:
  /// synthesize_parts'.
  void synthesize_parallel(r1cs::ConstraintSystem& cs, std::size_t threads = 0) const;
  /// Threads for synthesize(): 0 = the calling thread's oneTBB arena, 1 = the sectors in order (the
  /// sequential path), n = an arena of n. Starts at circuits::porep::default_synthesis_threads()
  /// (one process-wide switch for the circuits).
  void set_synthesis_threads(std::size_t n) noexcept { threads_ = n; }
  std::size_t synthesis_threads() const noexcept { return threads_; }
  const FallbackPoStShape& shape() const noexcept { return shape_; }
  /// The public inputs synthesis produces (ONE excluded), from the witness: per sector comm_r and
  /// the leaf index its paths spell.
  std::vector<Fr> public_inputs() const;

 private:
  FallbackPoStShape shape_;
  std::vector<PoStCircuitSector> sectors_;
  std::size_t threads_;
};

/// Counts of a shape: one circuit sector synthesized into a ShapeCounter, times `sectors`.
PoStCounts count_post(const FallbackPoStShape& shape);

/// The public inputs of partition `partition` as a verifier derives them (storage-proofs-post
/// generate_public_inputs), ONE excluded: per circuit sector comm_r, then the challenged leaves
/// (filecoin::leaf_challenge of post_challenge_index); a partition with fewer sectors than the
/// circuit repeats the last sector's inputs. Throws ProoflineError(BadArgument) for a partition
/// beyond the sectors (Winning: other than 0, or not exactly 1 sector).
std::vector<Fr> post_public_inputs(const filecoin::FallbackParams& p, const filecoin::PoStPublicInputs& pub,
                                   std::size_t partition);

/// What check_post_partition found: the native check (filecoin::verify_post_vanilla), then the
/// circuit synthesized in prover mode: the first unsatisfied constraint, where it lies and (for
/// circuits of at most `kNamedCheckLimit` constraints, re-synthesized in test mode) its namespace
/// path, and whether the public inputs equal those a verifier derives.
struct PoStPartitionCheck {
  filecoin::PoStVanillaCheck native;
  std::optional<std::size_t> unsatisfied;  ///< first unsatisfied constraint
  std::string where;                       ///< locate_post_constraint of it
  std::string name;                        ///< its path in test mode ("outer namespace/sector_1/…"), or empty
  bool inputs_match = true;                ///< synthesized inputs = post_public_inputs
  std::size_t first_input_mismatch = 0;    ///< index (ONE excluded) of the first differing input
  bool ok() const { return native.ok && !unsatisfied && inputs_match; }
  /// One line: "ok", or each failure found, e.g. "vanilla: sector 1 (id 7) challenge 4: path does not
  /// hash to its root; constraint 12345 unsatisfied: sector 1 challenge 4: … (outer namespace/…)".
  std::string describe() const;
};
inline constexpr std::size_t kNamedCheckLimit = std::size_t{4} << 20;

/// Checks partition `partition` of a request: partitions the vanilla proofs
/// (filecoin::partition_sector_proofs; its ProoflineError for a missing sector or a wrong count
/// propagates), verifies them natively, synthesizes the circuit and compares its inputs with the
/// verifier's. Never throws for a proof that merely does not verify.
PoStPartitionCheck check_post_partition(const filecoin::FallbackParams& p, const filecoin::PoStPublicInputs& pub,
                                        std::span<const filecoin::FallbackPoStSectorProof> proofs,
                                        std::size_t partition);

/// Where constraint `index` lies: "sector 3: comm_r = H(comm_c, comm_r_last)", "sector 3 challenge
/// 7: tree R inclusion", or "input constraint k".
std::string locate_post_constraint(const PoStCounts& counts, std::size_t index);

}  // namespace proofline::circuits::post
