// proofline/groth16/backend.hpp — the prover backend seam (ARCHITECTURE.md "The prover backend
// seam") and its CPU implementation.
//
// Owns: `Randomizers` (r, s), `StageTimings`, `ProverResult`, the abstract `ProverBackend`, the
// shape check every backend applies (`check_partition_shape`), the proof assembly shared by all
// backends (`assemble_proof`), and `CpuBackend` (poly::compute_h or snarkjs::OddCosetH + msm/).
//
// Input of a backend call: the SRS (`Parameters`, loaded once, shared by the batch) and a batch of
// synthesized partitions (r1cs::ProvingBuffers after finalize(): a, b, c evaluations of n rows, the
// input and aux assignments, the three density bitmaps — or, in the compiled form, a, b, c empty and
// `compiled` naming the circuit's compiled matrices, from which the backend evaluates them first,
// timed as StageTimings::evaluate) with one (r, s) per partition. Every
// partition of a batch must match the parameters' shape (checked first; ProoflineError BadLength
// with "got N, expected M"):
//   input_assignment.size() == vk.ic.size(),  aux_len() == l.size() (the aux assignment plain in
//   aux_assignment or packed in packed_aux, never both; density bitmaps of the same lengths), rows a.size() == b.size() == c.size() (compiled form: a, b, c empty, the
//   compiled circuit's inputs and aux as above, rows its constraints) with m = params.domain_size() (h.size()
//   + 1 for HForm::Bellperson, h.size() for OddCoset) the smallest power of two >= rows,
//   query a.size() == vk.ic.size() + a_aux_density.popcount(),
//   query b_g1.size() == b_g2.size() == b_input_density.popcount() + b_aux_density.popcount().
// The backend MAY resize a, b, c to m and overwrite them (the CPU backend runs the H computation in
// place in them); it does not touch the assignments or densities, except that the CPU backend
// expands a packed aux assignment into aux_assignment (packed_aux emptied: the same values; the GPU
// backend expands it on the device and leaves the buffers as they are). The expansion is timed as
// StageTimings::evaluate. Every backend honours
// params.h_form (params.hpp HForm): which H scalars it computes and how many points its H MSM takes.
//
// Output: one Proof per partition, in order, and the stage timings of the whole call.
//
// The math (../shared/reference/formats-and-circuits.md §2.5, §2.6), all scalars Fr:
//   H  = Σ_{i<m−1} h_i·h[i],  h = coefficients of (a(X)·b(X) − c(X)) / (X^m − 1)   (compute_h)
//        for params.h_form == Bellperson; for OddCoset (a snarkjs zkey, snarkjs/circuit.hpp)
//        H  = Σ_{i<m} h_i·h[i],  h = a·b − c at snarkjs' odd coset points, in snarkjs' order
//        (snarkjs::OddCosetH, the rows of a, b, c placed at J·c mod m). Both give h(τ)·Z(τ)/δ.
//   L  = Σ_j aux_j·l[j]
//   A' = Σ_i in_i·a[i] + Σ_{aux j with A-density} aux_j·a[#inputs + rank(j)]
//   B1', B2' = Σ_{inputs with B-density} in_i·b[rank(i)] + Σ_{aux with B-density} aux_j·b[#B-inputs + rank(j)]
//   A  = α_G1 + A' + r·δ_G1
//   B  = β_G2 + B2' + s·δ_G2
//   C  = H + L + s·A' + r·B1' + (r·s)·δ_G1 + s·α_G1 + r·β_G1     (= s·A + r·B_G1 − rs·δ_G1 + H + L)
// Same inputs and randomizers ⇒ the same proof bytes, on every backend.
//
// Cancellation: `cancel` (nullptr: none) is the caller's flag; a backend polls it (relaxed) between
// partitions and stages and, where it can, inside long stages (the CPU backend: inside every MSM via
// msm::MsmConfig::cancel; the NTTs of one partition are not interrupted), and once it sees it set
// throws ProoflineError(Error::Cancelled) and leaves the partitions' buffers as they are (possibly
// resized/overwritten: reuse their capacity, never prove them again).
//
// Errors: ProoflineError(BadLength) for shape mismatches, (UnexpectedInfinity) if δ_G1 or δ_G2 is
// the identity (bellperson refuses those parameters too).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"
#include "proofline/msm/msm.hpp"
#include "proofline/r1cs/proving_assignment.hpp"

namespace proofline::groth16 {

struct Randomizers {
  Fr r;
  Fr s;
};

/// Milliseconds per prover stage. For a batch, stage entries are summed over partitions and
/// `total` is the wall time of the whole backend call.
struct StageTimings {
  /// a, b, c evaluated from a compiled circuit (r1cs::ProvingBuffers' compiled form); 0 for the
  /// evaluated form
  double evaluate = 0;
  double ntt = 0;        ///< H computation (iNTT, coset NTT, a·b − c, coset iNTT) incl. padding
  double msm_h = 0;
  double msm_l = 0;
  double msm_a = 0;
  double msm_b_g1 = 0;
  double msm_b_g2 = 0;
  double assemble = 0;   ///< proof assembly and conversion to affine
  /// Host → device copies of the partition's own data (a, b, c, assignments, density bitmaps) as
  /// the backend measures them, also where they overlap compute; 0 on the CPU (nothing to copy) and
  /// on a backend that does not measure them. Part of the stage entries above (ntt, msm_*), not
  /// beside them.
  double h2d = 0;
  /// Bytes of those copies (the partition's own data, not the SRS); 0 on the CPU. The compiled form
  /// with a packed aux assignment copies the packed bytes, not the plain values.
  std::uint64_t h2d_bytes = 0;
  /// The parameter set's queries loaded into device (or pinned host) memory inside this call — a
  /// set neither preloaded nor held since its last use (gpu/backend.hpp "Residency"): wall time and
  /// the bytes of the points in device layout; 0 when the set was held already, and on the CPU.
  /// Not part of `kernel`; part of `total`.
  double srs_upload = 0;
  std::uint64_t srs_upload_bytes = 0;
  /// Compiled-form partitions of the call whose a, b, c were evaluated on the host: every one on the
  /// CPU backend; on a GPU backend those whose compiled circuit did not fit the device budget
  /// (gpu/backend.hpp "Compiled form").
  std::uint32_t host_evaluations = 0;
  /// The compute time of the call as the backend measures it from inside: on a GPU, CUDA-event
  /// time of the device work (up to just before any teardown); on the CPU, the sum of the stage
  /// entries above. The engine compares it with `total` and its own stage wall time (the three
  /// timers of ARCHITECTURE.md "Time"): `total` − `kernel` is the backend's overhead.
  double kernel = 0;
  double total = 0;      ///< wall time of the whole backend call

  StageTimings& operator+=(const StageTimings& o);
};

struct ProverResult {
  std::vector<Proof> proofs;
  StageTimings timings;
};

/// How a backend holds one parameter set (ProverBackend::srs_holding).
struct SrsHolding {
  /// "" (holds nothing of its own: the CPU backend, or not loaded), "resident" (every query in
  /// device memory) or "streamed" (in pinned host memory, streamed to the device per MSM).
  std::string_view mode;
  /// Bytes held for it: device bytes when resident, pinned host bytes when streamed.
  std::size_t bytes = 0;
};

class ProverBackend {
 public:
  virtual ~ProverBackend() = default;
  /// Short name for logs ("cpu", "cuda", …).
  virtual std::string_view name() const = 0;
  /// Proves every partition of the batch (see the header comment for the contract).
  /// randomizers.size() must equal partitions.size(). `cancel`: see "Cancellation" above.
  virtual ProverResult prove(const Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                             std::span<const Randomizers> randomizers, const std::atomic<bool>* cancel = nullptr) = 0;
  /// False once the backend has taken itself out of service (a device it could not recover after a
  /// fault); the engine then gives it no more work and reports fault() in its status. Default: true.
  virtual bool in_service() const { return true; }
  /// The last device fault and what the backend did about it (e.g. "device reset after: …"), ""
  /// if none. Default: "".
  virtual std::string fault() const { return {}; }
  /// How many times the backend recreated its device state after a fault. Default: 0.
  virtual unsigned recoveries() const { return 0; }

  // ---- SRS residency --------------------------------------------------------------------------
  // A backend may keep its own copy of a parameter set (a GPU backend: the five queries in device
  // memory, keyed by the Parameters object). prove() makes `params` resident when it needs to; these
  // let the caller do it ahead of time and free it again (the engine evicts a parameter set from every
  // backend when it leaves its SRS cache). The defaults (the CPU backend, which proves from the
  // caller's host copy) hold nothing: preload returns 0, evict/evict_all do nothing, resident_bytes 0.

  /// Makes params resident; returns the milliseconds the upload took (0 if nothing was uploaded).
  /// ProoflineError(OutOfMemory) if it does not fit (nothing stays allocated for it then).
  virtual double preload(const Parameters& params) {
    (void)params;
    return 0;
  }
  /// Frees the backend's copy of params (no-op if it holds none). Waits for a prove() that is using it.
  virtual void evict(const Parameters& params) { (void)params; }
  /// Frees every parameter set the backend holds.
  virtual void evict_all() {}
  /// Bytes the backend holds for resident parameter sets (device bytes on a GPU).
  virtual std::size_t resident_bytes() const { return 0; }
  /// How the backend holds params (status and metrics report it). Default: nothing.
  virtual SrsHolding srs_holding(const Parameters& params) const {
    (void)params;
    return {};
  }

  // ---- the compiled form (r1cs::ProvingBuffers' compiled form, issue 31) ----------------------
  /// Whether this backend evaluates compiled-form partitions of params with compiled circuit cc
  /// itself at no cost to its device: the CPU backend (it evaluates on the CPU it proves on) and a
  /// GPU backend that holds cc on the device or has room for it beside params' SRS and working
  /// set. False: it would evaluate them on the host inside its prove() call, with the device idle
  /// meanwhile, so the engine evaluates them in its synthesis stage instead (engine.hpp "The
  /// compiled form"). May wait for a running prove() the first time it is asked about cc.
  /// Default: true.
  virtual bool evaluates_compiled(const Parameters& params, const r1cs::CompiledCircuit& cc) const {
    (void)params;
    (void)cc;
    return true;
  }
  /// Whether this backend's prove() of compiled-form partitions of params (circuit cc) fills host
  /// a, b, c and a plain aux assignment from them (the partition's buffers: what the engine reserves
  /// and warms for a partition). The CPU backend: yes (it evaluates into them). A GPU backend: only
  /// when it would not evaluate them on the device (evaluates_compiled false); else a partition's
  /// host buffers are its witness alone (engine.hpp "The compiled form"). Answered as
  /// evaluates_compiled. Default: true.
  virtual bool compiled_needs_host_rows(const Parameters& params, const r1cs::CompiledCircuit& cc) const {
    (void)params;
    (void)cc;
    return true;
  }
  /// Readies cc for the partitions of params to come (a GPU backend: uploads it to the device when
  /// evaluates_compiled says so; the engine calls it after preload()). Returns the milliseconds the
  /// upload took (0: nothing done). Errors as preload(). Default: nothing, 0.
  virtual double preload_compiled(const Parameters& params, const std::shared_ptr<const r1cs::CompiledCircuit>& cc) {
    (void)params;
    (void)cc;
    return 0;
  }
  /// Frees this backend's copy of cc (no-op if it holds none; the engine calls it when cc's SRS
  /// leaves its cache, engine::release_compiled_circuit). Waits for a prove() that is using it.
  /// Default: nothing.
  virtual void release_compiled(const r1cs::CompiledCircuit& cc) { (void)cc; }
  /// Device bytes this backend holds for cc (0: none; the CPU backend). Never blocked by a running
  /// proof (status reads it).
  virtual std::uint64_t compiled_device_bytes(const r1cs::CompiledCircuit& cc) const {
    (void)cc;
    return 0;
  }

  // ---- host buffers ---------------------------------------------------------------------------
  /// Readies a partition buffer set before any work arrives (the engine's warmer, engine.hpp "Warm
  /// buffers"): the vectors' storage (a, b, c, input and aux assignment; their whole capacity) is
  /// already faulted in; a backend that copies from host memory may page-lock it now, so that the
  /// first partitions proved from it copy by DMA with no locking on the prove path. Never called
  /// while a prove() uses the same buffers. Returns the bytes it locked. Default (the CPU backend,
  /// which copies nothing): 0.
  virtual std::uint64_t warm_host_buffers(r1cs::ProvingBuffers& buffers) {
    (void)buffers;
    return 0;
  }
};

/// Throws ProoflineError(Cancelled, "prove cancelled: partition k, before <stage>") if `cancel` is
/// set (relaxed load; nullptr: never). The check every backend makes between partitions and stages.
/// Also the "prove" fault-injection point (util/fault.hpp): throws fault::Injected where armed.
void check_prove_cancel(const std::atomic<bool>* cancel, std::size_t k, const char* stage);

/// Throws ProoflineError(BadLength) unless the partition fits the parameters (header comment).
/// `index` is the partition's index, for the message.
void check_partition_shape(const Parameters& params, const r1cs::ProvingBuffers& partition, std::size_t index = 0);

/// The MSM results of one partition (projective), as every backend produces them.
struct MsmResults {
  ec::G1Projective h, l, a, b_g1;
  ec::G2Projective b_g2;
};

/// A, B, C from the MSM results and (r, s), by the reference formula (header comment); affine.
/// Throws ProoflineError(UnexpectedInfinity) if δ_G1 or δ_G2 is the identity.
Proof assemble_proof(const VerifyingKey& vk, const MsmResults& m, const Randomizers& rs);

struct CpuBackendConfig {
  /// 0: the calling thread's TBB arena (all cores); k > 0: at most k threads.
  int threads = 0;
  /// Passed to every MSM (its `threads` is overridden by the field above).
  msm::MsmConfig msm{};
};

/// The CPU backend: poly::compute_h (Bellperson) or snarkjs::OddCosetH (OddCoset) and msm/
/// (Pippenger with density filtering).
class CpuBackend final : public ProverBackend {
 public:
  explicit CpuBackend(CpuBackendConfig cfg = {}) : cfg_(cfg) {}
  std::string_view name() const override { return "cpu"; }
  ProverResult prove(const Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                     std::span<const Randomizers> randomizers, const std::atomic<bool>* cancel = nullptr) override;

 private:
  CpuBackendConfig cfg_;
};

}  // namespace proofline::groth16
