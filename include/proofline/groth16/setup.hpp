// proofline/groth16/setup.hpp — Groth16 parameter generation for DEVELOPMENT AND TESTS ONLY.
//
// Owns: `ToxicWaste` (τ, α, β, γ, δ), `draw_toxic_waste`, `SetupOptions`, `FixedBaseTable`
// (windowed fixed-base scalar multiplication), `SetupResult`, `generate_parameters` (streamed into
// a ParamsSink, or collected into a Parameters), and the registry of devices that take the
// fixed-base work (`register_setup_device`, `use_device_for_setup`).
//
// The parameters are only as secret as the toxic waste, which this process generates and holds in
// memory: anyone who learns it can forge proofs. generate_parameters prints a warning saying so on
// stderr (unless SetupOptions::warn is false). Real Filecoin parameters come from a ceremony.
//
// What is computed (bellperson's generator.rs; ../shared/reference/formats-and-circuits.md §1.3),
// in bounded memory (a 32 GiB PoRep partition, 130 M constraints at 2^27, in ~13 GB plus chunks):
//  1. The shape: n = constraints with the input constraints, m = smallest power of two >= n (a
//     r1cs::ShapeCounter pass, or SetupOptions::shape when the circuit's counts are known).
//  2. Synthesis into an r1cs::QapEvaluator: u_j(τ), v_j(τ), w_j(τ) of every input and aux variable
//     accumulated row by row from the Lagrange basis L_i(τ) = Z(τ)/m · ω^i/(τ − ω^i) (made in
//     chunks with batch inversion), and for each variable whether it appears in A, B, C. No matrix
//     is stored. τ in the domain (Z(τ) = 0) is rejected. A circuit made of independent parts
//     (PoSt sectors, PoRep and SnapDeals challenges: r1cs::ConstraintSystem::synthesize_parts)
//     synthesizes them in parallel on up to SetupOptions::threads threads, with the same sums bit
//     for bit (QapEvaluator's parts).
//  3. Checks, before any point is made, in this order (the messages name the variable): every aux
//     l scalar non-zero (an aux variable in no constraint is "unconstrained", as bellperson rejects
//     it); each A (then B) polynomial zero exactly when the variable is absent from A (B); every
//     input present in A.
//  4. Queries, streamed into the sink in .params order, each section in chunks of
//     SetupOptions::chunk points (scalars → fixed-base points → sink → reused):
//     vk = α·G1, β·G1, β·G2, γ·G2, δ·G1, δ·G2 and ic_j = (β·u_j + α·v_j + w_j)/γ (inputs);
//     h_i = τ^i·Z(τ)/δ (i < m − 1); l_j = (β·u_j + α·v_j + w_j)/δ (aux); a = u_j for every input,
//     then aux with u_j ≠ 0; b_g1, b_g2 = v_j for inputs, then aux, each with v_j ≠ 0 (zero scalars
//     would be points at infinity: filtered, so the prover's density bitmaps line up).
//  5. Every point is a fixed-base multiple of the G1 or G2 generator: windowed tables (window w
//     bits: table[k][d] = d·2^(wk)·G for d < 2^w; w from FixedBaseTable::window_for, at most 16),
//     one mixed addition per window, then a batch conversion to affine; parallel over points with
//     oneTBB — or, when SetupOptions::g1_batch / g2_batch are set, by the function they make for
//     the table (the GPU layer's gpu::use_gpu_for_setup installs a CUDA one, registered here as
//     device "cuda": proofline/gpu/fixed_base.hpp). Either way each point is k·G, so the
//     parameters are the same bytes for the same toxic waste, whatever the chunking.
// Field arithmetic is exact, so these are the bytes of the former whole-matrix setup
// (tests/groth16/setup_stream_test.cpp compares them with that algorithm, kept as a test oracle).
// Progress goes to stderr when the circuit has at least SetupOptions::progress_min_constraints
// constraints: per stage (count, synthesis, check, tables, ic, h, l, a, b_g1, b_g2) its percent,
// elapsed time and ETA, every few seconds, and a closing line per stage.
//
// Errors: r1cs::SynthesisError from synthesis (ShapeMismatch when SetupOptions::shape is not the
// circuit's); ProoflineError(UnexpectedInfinity) for an unconstrained aux variable or degenerate
// toxic waste (zero, or τ in the domain); the sink's errors (I/O: std::system_error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/groth16/params.hpp"
#include "proofline/groth16/random.hpp"
#include "proofline/r1cs/constraint_system.hpp"
#include "proofline/r1cs/qap_evaluator.hpp"

namespace proofline::groth16 {

template <class Cfg>
class FixedBaseTable;

struct ToxicWaste {
  Fr tau, alpha, beta, gamma, delta;
};

/// τ, α, β, γ, δ uniformly random and non-zero.
ToxicWaste draw_toxic_waste(ByteSource& rng);

/// Writes scalars[i]·P (affine) to out[i] for every i (out.size() == scalars.size()), P the base of
/// the table it was made for.
template <class Cfg>
using FixedBaseMulFn = std::function<void(std::span<const Fr> scalars, std::span<ec::AffinePoint<Cfg>> out)>;
/// Makes the multiplier of one table (called once per table: a device uploads the table then).
template <class Cfg>
using FixedBaseMulFactory = std::function<FixedBaseMulFn<Cfg>(const FixedBaseTable<Cfg>&)>;

struct SetupOptions {
  /// Print the "NOT secure" warning on stderr.
  bool warn = true;
  /// Print progress on stderr for circuits of at least this many constraints (0: always).
  std::size_t progress_min_constraints = std::size_t{1} << 16;
  /// 0: the calling thread's TBB arena (all cores); k > 0: at most k threads (the synthesis of a
  /// circuit's parts included; 1: in order).
  int threads = 0;
  /// The circuit's shape (constraints with the input constraints, inputs with ONE, aux) when known:
  /// spares the counting pass. The synthesis checks it (SynthesisError ShapeMismatch otherwise).
  std::optional<r1cs::CircuitShape> shape;
  /// Points per streamed chunk (≥ 1): scalars, points and their encoding of one chunk are the
  /// memory of the query stage.
  std::size_t chunk = std::size_t{1} << 22;
  /// Optional replacements of FixedBaseTable::mul_batch for the bulk queries (ic, h, l, a, b_g1 /
  /// b_g2): each makes, for the generator's table, the function that multiplies a chunk. Null: the
  /// table's own CPU mul_batch. Lets a higher layer (gpu) take the work without groth16 depending
  /// on it.
  FixedBaseMulFactory<ec::G1Config> g1_batch;
  FixedBaseMulFactory<ec::G2Config> g2_batch;
};

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
  /// The same into out[i] (out.size() == scalars.size(); std::invalid_argument otherwise).
  void mul_batch(std::span<const Fr> scalars, std::span<ec::AffinePoint<Cfg>> out) const;
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

/// What a streamed setup produced: the verifying key (also given to the sink), the circuit's shape
/// and the length of each section.
struct SetupResult {
  VerifyingKey vk;
  r1cs::CircuitShape shape;
  std::size_t h = 0, l = 0, a = 0, b = 0;  ///< b: b_g1 = b_g2
};

/// The streamed setup behind the templates below: `synthesize` runs the circuit (without
/// finalize) into the constraint system it is given; it is called once for the counting pass
/// (unless opts.shape) and once into the QapEvaluator.
SetupResult generate_parameters_with(r1cs::FunctionRef<void(r1cs::ConstraintSystem&)> synthesize, const ToxicWaste& tw,
                                     ParamsSink& sink, const SetupOptions& opts = {});

/// Synthesizes `circuit` and streams its parameters from `tw` into `sink` (then sink.finish()).
template <class C>
  requires r1cs::Circuit<const C>
SetupResult generate_parameters(const C& circuit, const ToxicWaste& tw, ParamsSink& sink, const SetupOptions& opts = {}) {
  return generate_parameters_with([&](r1cs::ConstraintSystem& cs) { circuit.synthesize(cs); }, tw, sink, opts);
}

/// The same, collected in memory.
template <class C>
  requires r1cs::Circuit<const C>
Parameters generate_parameters(const C& circuit, const ToxicWaste& tw, const SetupOptions& opts = {}) {
  ParamsCollector out;
  generate_parameters(circuit, tw, out, opts);
  return out.take();
}

/// Same, toxic waste drawn from `rng` (OsRandom for a CSPRNG, SeededRandom for reproducibility).
template <class C>
  requires r1cs::Circuit<const C>
Parameters generate_parameters(const C& circuit, ByteSource& rng, const SetupOptions& opts = {}) {
  return generate_parameters(circuit, draw_toxic_waste(rng), opts);
}

// ---- devices for the fixed-base work -------------------------------------------------------------
/// A device family's installer: sets opts.g1_batch / g2_batch to its first usable device and
/// returns true, or returns false with `why` set to one line (no usable device). Must not throw
/// for "no device".
using SetupDeviceInstaller = bool (*)(SetupOptions& opts, std::string& why);

/// Registers the installer of device family `name` ("cuda"), from a static initializer of the
/// device library (src/gpu/register.cpp), as backend_factory.hpp's makers. Returns true.
bool register_setup_device(std::string_view name, SetupDeviceInstaller installer);

/// Where the fixed-base multiplications run: "cpu" (oneTBB; opts untouched), "cuda" (the
/// registered installer; std::invalid_argument "cuda: …" when the build has no CUDA or no usable
/// device), "auto" (cuda when usable, else cpu). `note` (may be null) receives one line on the
/// choice ("setup fixed-base: cuda", "setup fixed-base: cpu; auto: no usable CUDA device").
/// std::invalid_argument for any other name ("tpu: expected cpu, cuda or auto").
void use_device_for_setup(std::string_view which, SetupOptions& opts, std::string* note = nullptr);

}  // namespace proofline::groth16
