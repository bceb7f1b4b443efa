// proofline/groth16/setup.hpp — Groth16 parameter generation for DEVELOPMENT AND TESTS ONLY.
//
// Owns: `ToxicWaste` (τ, α, β, γ, δ), `draw_toxic_waste`, `SetupOptions`, `evaluate_qap` (the QAP
// polynomials of every variable at τ), `FixedBaseTable` (windowed fixed-base scalar
// multiplication), and `generate_parameters`.
//
// The parameters are only as secret as the toxic waste, which this process generates and holds in
// memory: anyone who learns it can forge proofs. generate_parameters prints a warning saying so on
// stderr (unless SetupOptions::warn is false). Real Filecoin parameters come from a ceremony.
//
// What is computed (bellperson's generator.rs; ../shared/reference/formats-and-circuits.md §1.3):
//  1. Synthesize the circuit in setup mode (r1cs::KeypairAssembly), input constraints included;
//     n = constraints, m = smallest power of two >= n, ω the domain's root (poly::EvaluationDomain).
//  2. Lagrange basis at τ: L_i(τ) = Z(τ)/m · ω^i/(τ − ω^i), Z(τ) = τ^m − 1, for all i < m with one
//     batch inversion of the (τ − ω^i) per chunk (τ in the domain is rejected: Z(τ) = 0).
//  3. u_j(τ) = Σ_{(i,c) in column j of A} c·L_i(τ); v_j over B, w_j over C, for inputs and aux.
//  4. Queries: ic_j = (β·u_j + α·v_j + w_j)/γ (inputs); l_j = the same /δ (aux; an aux variable
//     with u_j = v_j = w_j = 0 is unconstrained and rejected, as bellperson does); h_i = τ^i·Z(τ)/δ
//     (i < m − 1); a = u_j for every input, then aux with u_j ≠ 0; b_g1, b_g2 = v_j for inputs, then
//     aux, each with v_j ≠ 0 (zero scalars would be points at infinity: filtered, so the prover's
//     density bitmaps line up); vk = α·G1, β·G1, β·G2, γ·G2, δ·G1, δ·G2.
//  5. Every point is a fixed-base multiple of the G1 or G2 generator: windowed tables (window w
//     bits: table[k][d] = d·2^(wk)·G for d < 2^w; w from FixedBaseTable::window_for, at most 16),
//     one mixed addition per window, then a batch conversion to affine; parallel over points with
//     oneTBB — or, when SetupOptions::g1_batch / g2_batch are set, by that function (the GPU
//     layer's gpu::use_gpu_for_setup installs a CUDA batch: proofline/gpu/fixed_base.hpp). Either
//     way each point is k·G, so the parameters are the same bytes for the same toxic waste.
// Progress goes to stderr (one line per query) when the circuit has at least
// SetupOptions::progress_min_constraints constraints.
//
// Errors: r1cs::SynthesisError from synthesis; ProoflineError(UnexpectedInfinity) for an
// unconstrained aux variable or degenerate toxic waste (zero, or τ in the domain).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "proofline/groth16/params.hpp"
#include "proofline/groth16/random.hpp"
#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/keypair_assembly.hpp"

namespace proofline::groth16 {

template <class Cfg>
class FixedBaseTable;

struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;
};

/// τ, α, β, γ, δ uniformly random and non-zero.
ToxicWaste draw_toxic_waste(ByteSource& rng);

struct SetupOptions {
  /// Print the "NOT secure" warning on stderr.
  bool warn = true;
  /// Print progress on stderr for circuits of at least this many constraints (0: always).
  std::size_t progress_min_constraints = std::size_t{1} << 16;
  /// 0: the calling thread's TBB arena (all cores); k > 0: at most k threads.
  int threads = 0;
  /// Optional replacements of FixedBaseTable::mul_batch for the bulk queries (ic, h, l, a, b_g1 /
  /// b_g2): must return scalars[i]·G in affine form for each i, in order (the table's base is the
  /// generator). Null: the table's own CPU mul_batch. Lets a higher layer (gpu) take the work
  /// without groth16 depending on it.
  std::function<std::vector<ec::G1Affine>(const FixedBaseTable<ec::G1Config>&, std::span<const Fr>)> g1_batch;
  std::function<std::vector<ec::G2Affine>(const FixedBaseTable<ec::G2Config>&, std::span<const Fr>)> g2_batch;
};

/// u_j(τ), v_j(τ), w_j(τ) per input and per aux variable, with the domain facts used.
struct QapAtTau {
  std::size_t m = 0;              ///< domain size
  Fr z_tau;                       ///< Z(τ) = τ^m − 1
  std::vector<Fr> u_in, v_in, w_in;     ///< one per input (ONE first)
  std::vector<Fr> u_aux, v_aux, w_aux;  ///< one per aux
};

/// Evaluates the QAP of a finalized KeypairAssembly at τ. Throws if τ lies in the domain.
QapAtTau evaluate_qap(const r1cs::KeypairAssembly& cs, const Fr& tau, int threads = 0);

/// Windowed fixed-base multiplication by one base point P: mul(k) = k·P with ⌈255/w⌉ mixed
/// additions. Built once (⌈255/w⌉·(2^w − 1) affine points, windows built in parallel; w = 16:
/// 16 windows, about 1 M points = 104 MB for G1, 200 MB for G2), shared read-only by any number of
/// threads. Window widths are clamped to 1 … 16.
template <class Cfg>
class FixedBaseTable {
 public:
  FixedBaseTable(const ec::AffinePoint<Cfg>& base, unsigned window_bits);
  ec::JacobianPoint<Cfg> mul(const Fr& k) const;
  /// k_i·P for every scalar, affine, in parallel (the calling thread's TBB arena).
  std::vector<ec::AffinePoint<Cfg>> mul_batch(std::span<const Fr> scalars) const;
  /// A window width suited to n multiplications: the w in 2 … 16 minimising ⌈255/w⌉·(2^w + n)
  /// (table building + one mixed addition per window and point).
  static unsigned window_for(std::size_t n);
  unsigned window_bits() const { return w_; }
  unsigned windows() const { return windows_; }
  /// The table, [window k][digit d − 1] = d·2^(wk)·P for d = 1 … 2^w − 1: entry k·(2^w − 1) + d − 1.
  /// Never the identity for P ≠ O: P has prime order r, an odd prime larger than d, so r ∤ d·2^(wk).
  std::span<const ec::AffinePoint<Cfg>> table() const { return table_; }

 private:
  unsigned w_;
  unsigned windows_;
  std::vector<ec::AffinePoint<Cfg>> table_;  // [window][digit − 1]
};

/// Parameters of an already synthesized and finalized KeypairAssembly with the given toxic waste.
Parameters generate_parameters(const r1cs::KeypairAssembly& cs, const ToxicWaste& tw, const SetupOptions& opts = {});

/// Synthesizes `circuit` in setup mode and generates its parameters from `tw`.
template <class C>
  requires r1cs::Circuit<const C>
Parameters generate_parameters(const C& circuit, const ToxicWaste& tw, const SetupOptions& opts = {}) {
  r1cs::KeypairAssembly cs;
  r1cs::synthesize(circuit, cs);
  return generate_parameters(cs, tw, opts);
}

/// Same, toxic waste drawn from `rng` (OsRandom for a CSPRNG, SeededRandom for reproducibility).
template <class C>
  requires r1cs::Circuit<const C>
Parameters generate_parameters(const C& circuit, ByteSource& rng, const SetupOptions& opts = {}) {
  return generate_parameters(circuit, draw_toxic_waste(rng), opts);
}

}  // namespace proofline::groth16
