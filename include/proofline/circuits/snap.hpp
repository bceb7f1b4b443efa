// proofline/circuits/snap.hpp — the SnapDeals circuit of one partition (storage-proofs-update
// EmptySectorUpdateCircuit, production variant: tree D is SHA-256).
//
// Owns: `SnapChallengeWitness`, `SnapWitness` (what synthesis takes: public inputs, comm_c, the two
// tree R roots, the apex leaves, per challenge the three leaves and the paths' siblings),
// `snap_witness` (from a vanilla PartitionProof), `blank_witness`, `EmptySectorUpdateCircuit`,
// `SnapCounts` / `count_snap`, `snap_public_inputs` (what a verifier derives), `locate_snap_constraint`,
// `SnapPartitionCheck` / `check_snap_partition`.
//
// Source: rust-fil-proofs storage-proofs-update `circuit.rs`, `gadgets.rs` (reference §3.5; the
// shapes in filecoin/snap.hpp). Synthesis order (= variable and constraint order):
//   1. k_and_h_select alloc, inputize (input 1); partition_bit_len + 6 AllocatedBits of its value
//      ("k_and_h_select_bit_i"); (Σ 2^i·bit_i) · ONE = k_and_h_select; partition = pack_bits(the k bits).
//   2. comm_r_old, comm_d_new, comm_r_new: alloc + inputize each (inputs 2, 3, 4).
//   3. phi = Poseidon2_custom(comm_d_new, comm_r_old) (311).
//   4. allocs: comm_c, root_r_old, root_r_new, the apex leaves, the partition path's siblings (the
//      top partition_bit_len levels of challenge 0's tree D path).
//   5. Poseidon2(comm_c, root_r_old) · ONE = comm_r_old (312), the same for comm_r_new.
//   6. "apex_gadget": the apex tree (SHA-256 hash2 of pairs, row by row: apex_leaf_count − 1 hashes of
//      45,379), then por_no_challenge_input of the apex root with the partition bits and path against
//      comm_d_new.
//   7. "gen_challenge_bits": per digest j: digest_index alloc, (dpp·partition + j·ONE) · ONE =
//      digest_index; digest = Poseidon2_custom(comm_r_new, digest_index); its 255 bits
//      (field_into_allocated_bits_le) and (Σ 2^i·bit_i) · ONE = digest: 568 constraints per digest.
//   8. per challenge (bits = its random bits, then the partition bits): for each of the 6 h: pack of
//      the top h bits, c_high_or_zero alloc, c_high · h_select_bit = c_high_or_zero; c_high_selected
//      alloc, (Σ c_high_or_zero) · ONE = c_high_selected (13); rho = Poseidon2_custom(phi, c_high)
//      (311); leaf_r_old, leaf_d_new allocs; label_d_new · rho (1), label_r_new alloc and (leaf_r_old
//      + product) · ONE = label_r_new (1); tree R old siblings alloc, por_no_challenge_input against
//      root_r_old; the same for tree R new with the computed label_r_new; apex leaf = select(apex
//      leaves, the apex_leaf_bit_len bits under the partition bits) (apex_leaf_count − 1); the tree D
//      siblings below the apex row alloc, por_no_challenge_input (SHA-256) of leaf_d_new to the apex
//      leaf.
// Public inputs (ONE excluded): k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
// Counts (constraints per partition) asserted upstream: 1 KiB 1,248,389; 2 KiB 1,705,039; 4 KiB
// 2,165,109; 8 KiB 2,620,359; 16 KiB 6,300,021; 32 KiB 6,760,091; 32 GiB 81,049,499.
//
// Values: Fr in Montgomery form; Domain values of the vanilla proofs read as little-endian field
// elements. Errors: ProoflineError(BadLength) from EmptySectorUpdateCircuit's constructor and from
// snap_witness when the witness / proof does not have the shape (naming the challenge and the
// part); ProoflineError(BadArgument) for k or h not allowed; r1cs::SynthesisError from synthesis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/r1cs/constraint_system.hpp"

namespace proofline::circuits::snap {

using ff::Fr;

/// One challenge's witness: the three leaves and, per level (leaf level first), the siblings.
struct SnapChallengeWitness {
  Fr leaf_r_old = Fr::zero(), leaf_d_new = Fr::zero(), leaf_r_new = Fr::zero();
  std::vector<std::vector<Fr>> path_r_old, path_d_new, path_r_new;
};

struct SnapWitness {
  // public
  Fr k_and_h_select = Fr::zero(), comm_r_old = Fr::zero(), comm_d_new = Fr::zero(), comm_r_new = Fr::zero();
  // private
  Fr comm_c = Fr::zero(), root_r_old = Fr::zero(), root_r_new = Fr::zero();
  std::vector<Fr> apex_leafs;
  std::vector<SnapChallengeWitness> challenges;
};

/// The witness of partition k: public inputs from `pub` (k_and_h_select of k and pub.h), the rest
/// from the vanilla proof (roots of challenge 0's tree R paths, its partition path). Throws
/// ProoflineError(BadLength) when the proof does not have the size's shape, BadArgument for k / h.
SnapWitness snap_witness(const filecoin::SnapParams& p, const filecoin::SnapPublicInputs& pub, std::size_t k,
                         const filecoin::SnapPartitionProof& proof);
/// A witness of the shape with every value zero (setup and counting; never satisfied).
SnapWitness blank_witness(const filecoin::SnapParams& p);

class EmptySectorUpdateCircuit final : public r1cs::CircuitInterface {
 public:
  /// Throws ProoflineError(BadLength) when `w` does not have the shape of `p`.
  EmptySectorUpdateCircuit(const filecoin::SnapParams& p, SnapWitness w);
  /// Prover mode (r1cs::ProvingAssignment) or the setup's r1cs::QapEvaluator (cs.parallel_parts())
  /// with synthesis_threads() != 1: the header and challenge 0 in order, then the other challenges
  /// (each reads only the header's variables and its own) as parallel parts of challenge 0's
  /// counts (ConstraintSystem::synthesize_parts), with the result of the sequential order byte for
  /// byte; every other mode in order. Errors: synthesize_parts'.
  void synthesize(r1cs::ConstraintSystem& cs) const override;
  /// Threads for the challenges in those modes: 0 = the calling thread's oneTBB arena, 1 = in order
  /// (the sequential path), n = an arena of n threads. Starts at
  /// circuits::porep::default_synthesis_threads() (one process-wide switch for both circuits).
  void set_synthesis_threads(std::size_t n) noexcept { threads_ = n; }
  std::size_t synthesis_threads() const noexcept { return threads_; }
  const filecoin::SnapParams& params() const noexcept { return *p_; }
  /// The public inputs synthesis produces (ONE excluded): k_and_h_select, comm_r_old, comm_d_new,
  /// comm_r_new of the witness.
  std::vector<Fr> public_inputs() const;

 private:
  const filecoin::SnapParams* p_;
  SnapWitness w_;
  std::size_t threads_ = 0;
};

struct SnapCounts {
  std::size_t constraints = 0;  ///< the circuit's (bellperson's input constraints excluded)
  std::size_t inputs = 0;       ///< public inputs including ONE (5)
  std::size_t aux = 0;
  std::size_t header_constraints = 0;     ///< parts 1–7 of the synthesis order
  std::size_t challenge_constraints = 0;  ///< one challenge (part 8)
  /// Where each part starts (constraint index) and what it is: header parts absolute, challenge
  /// parts relative to the challenge's first constraint.
  std::vector<std::pair<std::size_t, std::string>> header_parts, challenge_parts;
};

/// The counts of a size: the header and one challenge synthesized into a ShapeCounter, the
/// challenges' part multiplied (every challenge has the same shape).
SnapCounts count_snap(const filecoin::SnapParams& p);
/// The same from one full synthesis into a ShapeCounter (slow at production sizes: for tests).
SnapCounts count_snap_full(const filecoin::SnapParams& p);

/// The public inputs of partition k as a verifier derives them (EmptySectorUpdateCompound
/// generate_public_inputs), ONE excluded: k_and_h_select(k, h), comm_r_old, comm_d_new, comm_r_new.
/// Throws ProoflineError(BadArgument) for k or h not allowed.
std::vector<Fr> snap_public_inputs(const filecoin::SnapParams& p, const filecoin::SnapPublicInputs& pub, std::size_t k);

/// Where constraint `index` lies: "header: phi = H(comm_d_new, comm_r_old)", "challenge 3: tree R
/// new inclusion (root_r_new)", or "input constraint k".
std::string locate_snap_constraint(const SnapCounts& counts, std::size_t index);

/// What check_snap_partition found: the native check (filecoin::verify_snap_vanilla), then the
/// circuit synthesized in prover mode: the first unsatisfied constraint, where it lies and its
/// test-mode path (r1cs::ConstraintPathFinder, one more synthesis at shape-mode cost). (The circuit's public inputs are the request's, never the vanilla proof's: a wrong
/// comm_r_old shows as the comm_r_old constraint.)
struct SnapPartitionCheck {
  filecoin::SnapVanillaCheck native;
  std::optional<std::size_t> unsatisfied;
  std::string where;
  std::string name;
  bool ok() const { return native.ok && !unsatisfied; }
  /// "ok", or each failure found, e.g. "vanilla: partition 0 challenge 3 (node 21): …; constraint
  /// 123 unsatisfied: challenge 3: tree R old inclusion (root_r_old) (por tree_r_old (c_index=3)/…)".
  std::string describe() const;
};

/// Checks partition k: verifies the vanilla proof natively and synthesizes the circuit of its
/// witness. Throws (snap_witness) only for a
/// proof of the wrong shape; never for one that merely does not verify.
SnapPartitionCheck check_snap_partition(const filecoin::SnapParams& p, const filecoin::SnapPublicInputs& pub,
                                        std::size_t k, const filecoin::SnapPartitionProof& proof);

}  // namespace proofline::circuits::snap
