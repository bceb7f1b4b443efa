// proofline/circuits/porep.hpp — the StackedDRG PoRep circuit of one partition (Filecoin C2).
//
// Owns: `PoRepShape` (what fixes the circuit: layers, nodes, tree R/C arities, challenges per
// partition), `PoRepPartitionInputs` (the witness of one partition: commitments and, per challenge,
// the data leaf with its tree D path, 6 DRG + 8 expander parent columns with their tree C paths, the
// challenged node's tree C and tree R paths), `PoRepCircuit` (synthesis in exactly upstream's
// order), `count_porep` (constraint / input / aux counts of a shape without a witness), and
// `first_unsatisfied` / `locate_constraint` (which challenge a failing constraint belongs to).
//
// Source: rust-fil-proofs storage-proofs-porep `stacked/circuit/{proof,params,column_proof,column,
// hash,create_label}.rs` as summarized in ../shared/reference/formats-and-circuits.md §3.2, §3.3,
// §8. Synthesis order (= variable and constraint order; it fixes the Groth16 parameters):
//   header   replica_id alloc + inputize (input 1), to_bits_le (256 c) reordered per byte
//            (reverse_bit_numbering); comm_d alloc + inputize (input 2); comm_r alloc + inputize
//            (input 3); comm_r_last, comm_c alloc; h = Poseidon2(comm_c, comm_r_last) (311 c);
//            comm_r · ONE = h.                                                   571 constraints
//   per challenge i (namespace "challenge_i"), in order:
//     data_leaf alloc; tree D (SHA-256, binary) inclusion of data_leaf in comm_d (private root) →
//       input: the packed path bits (= the challenged node index);
//     for each of the 6 DRG parents, then the 8 expander parents: the column (`layers` allocs),
//       its Poseidon hash (arity = layers), tree C inclusion in comm_c → input (parent index);
//     challenge: 64 allocated bits (LE) packed into an input (= challenge as Fr);
//     for layer = 1..layers: DRG parents' row `layer` (and, for layer > 1, expander parents' row
//       `layer − 1`) each to_bits_le + reverse_bit_numbering (256 c each, recomputed per layer);
//       parents expanded to 37 (layer 1: 6 × 6 + parent 0; else 14 × 2 + first 9); label =
//       trim(SHA-256(replica_id ‖ layer u32 BE ‖ challenge u64 BE ‖ 0-pad to 64 bytes ‖ 37 × 32 bytes))
//       packed from 254 bits;
//     encoding: replica node = label_last + data_leaf (1 c); tree R inclusion in comm_r_last →
//       input (node index);
//     Poseidon column hash of the labels; tree C inclusion in comm_c → input (node index).
// Public inputs, ONE excluded: replica_id, comm_d, comm_r, then per challenge 18 values
// (comm_d path, 6 DRG paths, 8 expander paths, challenge, comm_r_last path, c_x path): 3 + 18·C.
// Constraints: 571 + C·[D + 14(P + I) + 65 + L1 + (layers − 1)·Lk + 1 + I + P + I] with
// D = 45,382·log2(nodes) + 2, I = Σ tree R/C level costs (530 / 387 / 314 for arity 8 / 4 / 2) + 2,
// P = Poseidon(layers) (311 for 2 layers, 598 for 11), L1 = 523,805, Lk = 525,853 (reference §3.3):
// 2 KiB 2,687,921; 8 MiB 3,844,929; 512 MiB 4,423,433; 32 GiB 130,278,541 with 328 inputs.
//
// Values: Fr in Montgomery form; every commitment / label / leaf is the field element whose 32-byte
// little-endian canonical encoding Filecoin serializes. Merkle paths use gadgets::AuthPath: levels
// leaf first, each with the arity − 1 siblings in child order and the node's position (so the
// position bits, concatenated LSB first over base, sub, top, are the leaf index).
//
// Parallel synthesis (prover mode and the setup's QapEvaluator): the challenges only read the
// header's variables and all have one shape, so PoRepCircuit::synthesize runs them on oneTBB
// threads as parts (r1cs::ConstraintSystem::synthesize_parts: into the prover's buffers, or the
// evaluator's sums), with exactly the sequential order's result;
// set_synthesis_threads(1) (or set_default_synthesis_threads(1)) keeps the sequential path. The
// per-challenge counts are known once per process and shape (layers, nodes, tree) from
// count_porep, or else measured by synthesizing that shape's first challenge in order. Test and shape
// modes always run in order.
//
// Errors: ProoflineError(BadLength) from PoRepCircuit's constructor when the witness does not have
// the shape (names the challenge, the part and the expected size); r1cs::SynthesisError from synthesis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/sector.hpp"
#include "proofline/gadgets/merkle.hpp"
#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::circuits::porep {

using ff::Fr;

/// DRG degree, expander degree, parents per label (filecoin-proofs constants.rs).
inline constexpr std::size_t kDrgParents = 6;
inline constexpr std::size_t kExpParents = 8;
inline constexpr std::size_t kTotalParents = 37;
/// Public inputs per challenge: comm_d path, 6 + 8 parent paths, challenge, comm_r_last path, c_x path.
inline constexpr std::size_t kInputsPerChallenge = 18;

struct PoRepShape {
  std::size_t layers = 2;           ///< 2 (test sizes, 2 KiB … 512 MiB) or 11 (32/64 GiB)
  std::uint64_t nodes = 64;         ///< sector bytes / 32, a power of two
  gadgets::TreeShape tree_rc{8, 0, 0};  ///< tree R and tree C shape (base-sub-top arities)
  std::size_t challenges = 2;       ///< challenges per partition

  /// Levels of tree D (binary): log2(nodes).
  std::size_t tree_d_levels() const;
  /// Base levels of tree R / C: log_base(nodes / (sub·top)). Throws ProoflineError(BadLength) when
  /// the node count does not fit the arities.
  std::size_t tree_rc_base_levels() const;
  /// Throws ProoflineError(BadLength) naming the field that is not a valid PoRep shape.
  void validate() const;
  /// "2 layers, 64 nodes, tree 8-0-0, 2 challenges".
  std::string describe() const;
};

/// One partition's circuit shape for a registered proof (layers, nodes, tree R/C arities and
/// challenges per partition from filecoin::PorepConfig; the same for every challenge mode).
PoRepShape shape_for(const filecoin::PorepConfig& config);
/// shape_for of the size's default registered proof (filecoin::sector_shape sizes: 2 KiB … 64 GiB;
/// throws ProoflineError for others).
PoRepShape shape_for_sector_size(std::uint64_t sector_bytes);

/// A column of `layers` labels (row l − 1 = the label of layer l) with its tree C path.
struct ColumnOpening {
  std::vector<Fr> rows;
  gadgets::AuthPath path;
};

struct ChallengeWitness {
  std::uint64_t challenge = 0;        ///< the challenged node (labeling_proofs[0].node)
  Fr data_leaf;                       ///< tree D leaf of the node
  gadgets::AuthPath comm_d_path;      ///< tree D path (binary, base levels only)
  std::vector<ColumnOpening> drg_parents;  ///< kDrgParents
  std::vector<ColumnOpening> exp_parents;  ///< kExpParents
  gadgets::AuthPath comm_r_last_path;  ///< tree R path of the replica node
  gadgets::AuthPath comm_c_path;       ///< tree C path of the challenged node's column
};

struct PoRepPartitionInputs {
  Fr replica_id, comm_d, comm_r, comm_r_last, comm_c;
  std::vector<ChallengeWitness> challenges;
};

/// The witness of partition `partition` of a parsed C1 (storage-proofs-porep's From<VanillaProof>):
/// data_leaf = comm_d_proofs.leaf, challenge = labeling_proofs[0].node, comm_r_last =
/// comm_r_last_proof.root and comm_c = c_x.inclusion_proof.root of the partition's first challenge,
/// column rows and every path as given. Throws ProoflineError(BadLength) for a partition out of range.
PoRepPartitionInputs partition_inputs(const filecoin::SealCommitPhase1Output& c1, std::size_t partition);

/// A witness of the right shape with every value zero (for setup and counting; never satisfied).
PoRepPartitionInputs blank_inputs(const PoRepShape& shape);

/// Constraint positions of the parts of one challenge, relative to the challenge's first
/// constraint (filled by PoRepCircuit::synthesize_marked).
struct ChallengeLayout {
  std::size_t comm_d_inclusion = 0;      ///< constraints of data_leaf + tree D inclusion
  std::size_t drg_parent = 0;            ///< one DRG parent: column hash + tree C inclusion
  std::size_t exp_parent = 0;            ///< one expander parent
  std::size_t challenge_bits = 0;        ///< UInt64 alloc + packing
  std::vector<std::size_t> labels;       ///< per layer: parent bits + label SHA-256 + packing
  std::size_t encoding = 0;              ///< label_last + data_leaf
  std::size_t comm_r_last_inclusion = 0;
  std::size_t c_x = 0;                   ///< column hash of the labels + tree C inclusion
  std::size_t total = 0;
};

struct PoRepCounts {
  std::size_t constraints = 0;  ///< the circuit's constraints (bellperson's input constraints excluded)
  std::size_t inputs = 0;       ///< public inputs including ONE
  std::size_t aux = 0;
  std::size_t header = 0;       ///< constraints before the first challenge
  std::size_t header_aux = 0;   ///< aux variables before the first challenge
  std::size_t challenge_aux = 0;  ///< aux variables of one challenge
  ChallengeLayout challenge;    ///< one challenge (all have the same shape)
};

class PoRepCircuit final : public r1cs::CircuitInterface {
 public:
  /// Throws ProoflineError(BadLength) when `inputs` does not have `shape` (challenge count, column
  /// sizes, path lengths and arities), naming the part.
  PoRepCircuit(const PoRepShape& shape, PoRepPartitionInputs inputs);

  /// Prover mode (r1cs::ProvingAssignment) or the setup's r1cs::QapEvaluator (cs.parallel_parts())
  /// with synthesis_threads() != 1 and more than one challenge: the challenges in parallel (see the
  /// header comment); otherwise in order.
  void synthesize(r1cs::ConstraintSystem& cs) const override;
  /// Threads for the challenges in those modes: 0 = the calling thread's oneTBB arena (all
  /// hardware threads unless the caller limited it), 1 = in order on the calling thread (the
  /// sequential path), n = an arena of n threads. Starts at default_synthesis_threads().
  void set_synthesis_threads(std::size_t n) noexcept { threads_ = n; }
  std::size_t synthesis_threads() const noexcept { return threads_; }
  /// Same, recording (when `marks` is not null) the header's constraints and aux and challenge 0's
  /// layout into *marks (the totals are left to the caller).
  void synthesize_marked(r1cs::ConstraintSystem& cs, PoRepCounts* marks) const;

  const PoRepShape& shape() const noexcept { return shape_; }
  const PoRepPartitionInputs& inputs() const noexcept { return in_; }
  /// The public inputs synthesis produces (ONE excluded), computed natively from the witness:
  /// replica_id, comm_d, comm_r, then per challenge the 18 path / challenge values.
  std::vector<Fr> public_inputs() const;

 private:
  PoRepShape shape_;
  PoRepPartitionInputs in_;
  std::size_t threads_;
};

/// The synthesis_threads() new PoRepCircuits start with (process-wide; 0 at start).
void set_default_synthesis_threads(std::size_t n) noexcept;
std::size_t default_synthesis_threads() noexcept;

/// Counts of one partition's circuit by synthesizing the header and ONE challenge into a
/// ShapeCounter (constant memory, no witness) and multiplying the challenge part by
/// shape.challenges (every challenge has the same shape).
PoRepCounts count_porep(const PoRepShape& shape);
/// Whether count_porep has counted `shape`'s challenge in this process already (it then returns
/// at once; the counts of one challenge are memoized per layers, nodes and tree R/C).
bool porep_counts_known(const PoRepShape& shape);
/// The sector size (filecoin::all_sector_shapes, smallest first; each size's default registered
/// proof) whose partition circuit has `inputs` public inputs (ONE included) and `aux` aux
/// variables, counted with count_porep so that later calls for it return at once; nullopt when no
/// size has them. For a preload of a parameter file that names no sector size (engine.preload
/// "porep-c2:<file>"): the first request of that size would otherwise count its circuit (~7 M
/// constraints at 32 GiB) on its way in. Cost: one challenge counted per size up to the match.
std::optional<PoRepShape> count_porep_matching(std::size_t inputs, std::size_t aux);

/// Throws ProoflineError(BadLength) unless parameters with `n_inputs` public inputs (incl. ONE) and
/// `n_aux` aux variables (the l query) are those of `counts`' circuit; the message names the sector
/// size `sector` (e.g. "2KiB") and the parameter file `file`, and says the file may be of another
/// sector size. The cheap test, before any synthesis, of a parameter file of the wrong circuit.
void check_parameter_counts(const PoRepCounts& counts, std::string_view sector, std::string_view file,
                            std::size_t n_inputs, std::size_t n_aux);

/// Leaf index of a path: the position bits of all levels (base, sub, top), LSB first.
std::uint64_t path_index(const gadgets::AuthPath& path, const gadgets::TreeShape& tree);

/// Where constraint `index` (0-based, in synthesis order) lies: "header (comm_r = H(comm_c,
/// comm_r_last), replica_id bits)", "challenge 3 (node 1234): labeling layer 2", … `nodes` gives
/// the challenged nodes (may be empty); indexes past the circuit name the input constraints.
std::string locate_constraint(const PoRepCounts& counts, std::span<const std::uint64_t> nodes, std::size_t index);

/// Index of the first constraint i with a[i]·b[i] ≠ c[i] (prover-mode buffers, Montgomery form), or
/// nullopt if all hold. Parallel (oneTBB).
std::optional<std::size_t> first_unsatisfied(std::span<const Fr> a, std::span<const Fr> b, std::span<const Fr> c);

}  // namespace proofline::circuits::porep
