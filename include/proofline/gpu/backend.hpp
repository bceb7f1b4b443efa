// proofline/gpu/backend.hpp — the CUDA Groth16 backend (groth16::ProverBackend on one device) and
// the factory that finds the usable devices.
//
// Plain C++ (no CUDA headers): host code compiled by g++ can include it. Implemented in
// src/gpu/backend.cu on top of NttDomain (ntt.hpp) and GpuMsm (msm.hpp).
//
// ---- What one prove() call does, per partition (groth16/backend.hpp has the contract and math) ----
//  1. the SRS of `params` is made resident on the device if it is not already (see "Residency");
//  2. a, b, c (rows each) are uploaded once and zero-padded to m = params.domain_size() on the
//     device; the H scalars are computed there in the form params.h_form says (groth16::HForm, no
//     host round trip): Bellperson, the m − 1 coefficients of (a·b − c)/(X^m − 1)
//     (NttDomain::compute_h); OddCoset, snarkjs' m values of a·b − c on the odd coset, rows placed
//     at J·c mod m by the caller (NttDomain::compute_h_odd_coset);
//  3. (first, in fact) the input and aux assignments are uploaded once; the A and B scalar vectors are gathered on
//     the device from them by the density bitmaps (A: every input, then the aux with A-density;
//     B: the inputs with B-density, then the aux with B-density — the order of params.a / b_g1 /
//     b_g2, i.e. the order of msm::msm_query_a / msm_query_b);
//  4. the five MSMs run on the device against the resident bases: H (params.h_terms() scalars:
//     m − 1 or m), L (aux), A,
//     B_G1 (G1) and B_G2 (G2); each returns its window sums to the host, which finishes them;
//  5. groth16::assemble_proof builds A, B, C from the five sums and (r, s) on the host.
// Same inputs and randomizers ⇒ the same proof bytes as groth16::CpuBackend (tests/gpu/
// backend_test.cpp checks this, bit for bit). The caller's buffers are not modified.
// Cancellation (prove's `cancel`): polled on the host before the parameter upload, before each
// partition and before each of steps 2 and 4's H computation and G1 MSMs (ProoflineError
// Cancelled); device work already launched (and the B_G2 thread) is waited for, not interrupted.
//
// ---- Schedule ------------------------------------------------------------------------------------
// Overlapped (cfg.overlap_uploads, the default): a, b, c are copied on a second stream, each column
// transformed as soon as it is on the device (NttDomain::h_column: a's transforms run while b is
// copied, b's while c is); the H MSM starts on its own host thread when the transforms are done,
// while the calling thread copies the assignments and gathers the A and B scalars (step 3, now
// after step 2's copies); B_G2 then starts beside the G1 MSMs, and L, A, B_G1 follow H. Serial
// (overlap_uploads false): steps 3, 2, 4 one after another, as listed above. Same sums, same proofs.
// Measured at a 32 GiB partition before the overlap: 0.79 s of 2.68 s per partition were copies
// with the device otherwise idle (bench/RESULTS.md).
//
// ---- Host buffers ---------------------------------------------------------------------------------
// The partition buffers the engine hands over (r1cs::FrVector storage of a, b, c and the aux
// assignment) come from its pool and are reused partition after partition. With
// cfg.register_host_buffers (default), a vector of at least cfg.register_min_bytes is page-locked
// in place (cudaHostRegister, portable) the second time the same buffer is copied (on a background
// thread with cfg.register_in_background, the default: that copy is staged, the next is direct),
// and from then on copied by DMA straight from it: no staging memcpy on the host's cores, which
// under a sustained stream are busy synthesizing the next partitions. On the H200 at 32 GiB
// (bench/RESULTS.md): staged copies of a partition took 0.36 s of host time on an idle host and
// 0.88 s beside synthesis, and the partition 2.25–2.8 s; direct, 2.105–2.11 s. Locking a
// partition's buffers (~16 GB) costs ~1–1.5 s once and slows the copies beside it. A buffer used
// once is never locked. Every registration is undone before its memory is freed: the backend
// installs a release hook in r1cs (r1cs::set_release_hook) that r1cs::UninitAllocator calls before
// it frees storage (waiting for a registration of that memory in flight). If the driver refuses a
// registration, that buffer keeps the staged path. Locked bytes are the pool's own (no extra
// memory); registered_host_bytes() reports them.
//
// ---- Timings (groth16::StageTimings, milliseconds) ------------------------------------------------
// ntt: upload of a, b, c + H on the device (overlapped: from the first column's copy until the
// transforms are done, so it includes the copies of b and c under the transforms); msm_h, msm_l,
// msm_a, msm_b_g1, msm_b_g2: each MSM's wall time (with overlap_g2, msm_b_g2 runs concurrently with
// ntt and the G1 MSMs, so the stages sum to more than `kernel`, and each MSM's wall time under that
// overlap is its share of a busy device, not its own cost: to compare an MSM with gpu_msm_bench, run
// with overlap_g2 off); assemble: host assembly. h2d: the host → device copies of the assignments
// (with their density gathers) and of a, b, c (the latter inside ntt; overlapped, the host time
// spent queuing them, which runs beside the transforms and the H MSM); the assignments' copies are
// in h2d only, not in msm_l (they are made before the transforms, or in the lean schedule between
// the H MSM and L). With overlap_g2 off the MSM and ntt stages are disjoint intervals of the call:
// ntt + msm_h + msm_l + msm_a + msm_b_g1 + msm_b_g2 <= total. kernel: the elapsed
// time between two CUDA events recorded after a device synchronisation at the start of the device
// work and after the last MSM (the SRS upload, when this call makes it, is outside it). total: the
// wall time of the call. For a batch, stage entries and kernel are summed over partitions.
//
// ---- Residency ------------------------------------------------------------------------------------
// The device copy of an SRS is keyed by the Parameters object (its address) and checked against a
// fingerprint (the five query lengths, their data pointers — or the source file object for
// parameters whose queries are off the host —, δ_G1) on every use: a Parameters object that was
// modified or reallocated at the same address is loaded again, never used stale.
// preload() loads ahead of the first proof and, for a resident SRS with the full working set, also
// allocates that working set's device buffers (NTT tables, a, b, c, the aux / A / B scalars) at the
// parameters' sizes, so the first partition allocates nothing; evict()/evict_all() free the copies.
// Several SRSs may be held at once (memory permitting).
// Where the queries come from: the Parameters' host vectors (converted and uploaded), or, for
// parameters whose queries are off the host (groth16::Parameters::source: ParamsFile::shell() of a
// .params, snarkjs::zkey_shell() of a .zkey), the file itself, read in pinned chunks and decoded and
// checked on the device (srs_load.hpp: on-curve always, subgroup when the file was opened with
// Check::Subgroup), with no host copy. StageTimings::srs_upload times a load inside prove().
// Two modes per SRS (srs_holding() reports it, with its bytes):
//   resident  all five queries in device memory: 96 B per G1 base (h, l, a, b_g1) and 192 B per G2
//             base (b_g2). Chosen when they fit: resident SRS bytes + this SRS + the working space of
//             one partition (working_bytes()) <= the device budget (cfg.device_memory_limit, or when
//             0 the device's free memory plus what this backend holds: the CUDA context and other
//             processes are not the backend's to plan with). When the whole-length MSM scratch is what does not fit
//             (a 2^27 bench circuit: ~20 GB of sort scratch per MSM), the SRS still stays resident
//             and each MSM runs over slices of cfg.resident_msm_chunk_points bases (0: the largest
//             power of two from 2^26 down to 2^20 whose working space fits), summed: the same group
//             element, so the same proof bytes, with the scratch of one slice.
//   streamed  otherwise (or when the resident allocation fails): the decoded queries stay in host
//             memory — for a file source, decoded on the device into pinned host memory in the
//             device layout (the same bytes); for host parameters, their own vectors (no second
//             copy), packed into two pinned chunks on the way — and every MSM streams its bases to
//             the device in chunks of cfg.srs_stream_chunk_points points (0: the largest power of
//             two up to 2^24 whose two G1 + two G2 chunk buffers fit the budget beside the working
//             space), double-buffered: the copy of chunk i + 1 (a helper thread, own stream) runs
//             while the MSM of chunk i computes; the MSM result is the sum of the chunks' MSMs (the
//             same group element, so the same proof bytes). srs_holding()'s bytes are then the SRS
//             bytes streamed per proof.
// Scratch for a partition (kept between calls, freed by release_scratch()): 3·m·32 B (a, b, c) +
// aux·32 B + the A/B scalar vectors + the NTT tables + the MSM scratch (msm.hpp, "Memory") + in
// streamed mode the chunk buffers (working_bytes() estimates it; "Working set" below).
// The batch-affine state of the G1 MSMs (msm.hpp "Bucket additions"; ≈ 13.3 GB for a 2^27 H MSM) is
// not in working_bytes(), so no plan turns lean or streamed for it: each partition keeps it between
// calls (GpuMsm::keep_batch_affine_state) where the budget holds it beside a resident SRS, the full
// working set with whole MSMs or slices (the state of one slice's MSM, then), a compiled circuit (or
// its reserve) and the wide NTT table; else the G1
// MSMs run XYZZ (unless cfg.msm.bucket_add asks otherwise: a per-call state takes half of what is free,
// which the B_G2 MSM's first allocations on their own thread may still need). A kept state is freed
// before a new SRS is planned, before a new compiled circuit goes up, when a partition of other
// parameters comes, and by release_scratch().
//
// ---- Working set ----------------------------------------------------------------------------------
// Full: all of the above on the device at once (the schedules of "Schedule"). Lean: at most the
// larger of (two of a, b, c + the NTT tables) and (aux + A/B scalars) at once, beside the MSM
// scratch: a is transformed while b is copied, a ·= b on the coset (NttDomain::h_mul), c is copied
// into b's place and transformed, H finished (NttDomain::h_finish); NTT tables larger than 64 MiB
// are freed (and made again for the next partition); the H MSM runs over the one column left, which
// is then freed before the assignments are copied for L, A, B_G1 and B_G2. Slower (nothing is copied
// beside an MSM) but about half the device memory: a 2^27 partition fits a 24 GiB budget with the
// SRS streamed. cfg.working_set picks it: Auto (default) takes the full set when it fits the budget
// beside the SRS (resident, else streamed), else the lean one — a resident SRS with the lean set
// before a streamed SRS with the full set, streaming being the dearer of the two
// (bench/RESULTS.md). Same proof bytes in every combination (tests/gpu/srs_stream_test.cpp).
// Device bytes: every buffer the backend allocates (SRS copies, loader chunks, vectors, NTT tables,
// MSM scratch) is counted (device_bytes(), device_peak_bytes()); with cfg.device_memory_limit and
// cfg.enforce_device_memory_limit an allocation past the limit fails as the card's own would
// (OutOfMemory, "Errors"), so the limit is a real smaller card, not only a planning figure.
//
// ---- Compiled form --------------------------------------------------------------------------------
// A partition in the compiled form (a, b, c empty, `compiled` naming the circuit's matrices) is
// evaluated on the device when it can be: the compiled circuit is uploaded once (kept while the
// partitions name the same one; gpu/r1cs_eval.hpp, 5.9 GB for a 32 GiB PoRep partition) and a, b, c
// are computed there from the assignments, which cross PCIe once (a packed aux assignment in its
// packed form, expanded on the device). When the compiled circuit does not fit the device budget
// beside the SRS and the working set (cfg.device_memory_limit: a 24 GiB card), the partition is
// evaluated on the host instead (r1cs::evaluate into the caller's a, b, c, a packed aux assignment
// expanded into aux_assignment, `compiled` then dropped from the caller's buffers) and proved as
// the evaluated form: the same proof bytes. Both are timed as StageTimings::evaluate; the host ones
// are counted in StageTimings::host_evaluations (the engine logs it) and compiled_evaluations().
//
// ---- Errors ---------------------------------------------------------------------------------------
// Shape errors as groth16::check_partition_shape (ProoflineError BadLength), δ at infinity as
// assemble_proof (UnexpectedInfinity), both before any device work. A device allocation that fails
// throws ProoflineError(Error::OutOfMemory) whose message names what was being allocated, the bytes
// requested and the device's free/total bytes; the CUDA error state is cleared and the object stays
// usable (evict an SRS, release_scratch(), use smaller partitions, or fall back to the CPU backend).
// Any other failed CUDA call throws gpu::CudaError (device.hpp). No proof is returned from a call
// that failed. Not thread-safe per object (calls are serialised by an internal mutex); one object per
// device.
#pragma once

#include <cstddef>
#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/gpu/msm.hpp"
#include "proofline/groth16/backend.hpp"

namespace proofline::gpu {

/// How much of a partition's working space is on the device at once ("Working set").
enum class WorkingSet : std::uint8_t { Auto, Full, Lean };

/// Where a partition in the compiled form (r1cs::ProvingBuffers::compiled) has a, b, c evaluated
/// ("Compiled form" below).
enum class CompiledEvaluation : std::uint8_t { Auto, Device, Host };

struct GpuBackendConfig {
  /// CUDA device ordinal the backend runs on (cudaSetDevice at the start of every call).
  int device = 0;
  /// Window width of every MSM (0: msm.hpp's cost model per MSM size).
  GpuMsmConfig msm{};
  /// Run the B_G2 MSM on a second host thread (its own stream) concurrently with H and the G1
  /// MSMs, instead of after them. Its stage time then overlaps the others'. The environment's
  /// PROOFLINE_GPU_OVERLAP_G2=0 / 1 overrides it (to time each MSM alone; empty: unset); another value
  /// throws std::invalid_argument (overlap_g2_in_effect, below).
  bool overlap_g2 = true;
  /// The overlapped schedule ("Schedule" above): a, b, c and the assignments are copied on a
  /// second stream while the columns already there are transformed, and the assignments while the
  /// H MSM runs. Off: the serial schedule (assignments, then a, b, c, then the transforms, then the
  /// MSMs). Same proofs either way; on by default (bench/RESULTS.md, both side by side).
  bool overlap_uploads = true;
  /// Copy the caller's vectors (a, b, c, assignments) to the device through two pinned staging
  /// chunks of `pinned_stage_bytes` each (parallel host memcpy into one while the DMA drains the
  /// other) instead of cudaMemcpyAsync from pageable memory (~5 GB/s on the H200: ~320 ms of a 2^24
  /// proof's 1075 ms). Vectors shorter than pinned_stage_bytes / 32 go the pageable way. If pinned
  /// host memory cannot be had, uploads fall back to pageable copies (same results). On by
  /// default (bench/RESULTS.md: the 2^24 proof with and without it, side by side on the H200).
  bool pinned_uploads = true;
  /// Bytes of each of the two pinned staging chunks (> 0; default 32 MiB).
  std::size_t pinned_stage_bytes = std::size_t{32} << 20;
  /// Page-lock the caller's partition buffers in place on their second use and copy them by DMA
  /// straight from there ("Host buffers" above). Off: every copy goes through the staging chunks.
  bool register_host_buffers = true;
  /// Smallest vector (bytes) that is page-locked in place; smaller ones are staged.
  std::size_t register_min_bytes = std::size_t{64} << 20;
  /// Page-lock on a background thread (the copy that triggers it is staged; the next use is direct)
  /// instead of inside the copy that triggers it.
  bool register_in_background = true;
  /// Device bytes the backend may plan for (SRS + working space; "Residency"): 0 = the device's free
  /// memory plus the backend's own holdings; smaller values make a large card behave like a smaller one (config gpu.device_memory_limit).
  std::size_t device_memory_limit = 0;
  /// Refuse device allocations past device_memory_limit (when nonzero) with OutOfMemory, as a card
  /// of that size would. Off: the limit only steers the plans (tests with budgets below any
  /// working set).
  bool enforce_device_memory_limit = true;
  /// Full or lean working set per partition, or Auto: full when it fits ("Working set").
  WorkingSet working_set = WorkingSet::Auto;
  /// Points per streamed chunk of an SRS in streamed mode (0: chosen from the budget; "Residency").
  std::size_t srs_stream_chunk_points = 0;
  /// Bases per MSM slice of a resident SRS (0: whole MSMs when their scratch fits, else chosen from
  /// the budget; "Residency"). Nonzero forces slices of this size (tests).
  std::size_t resident_msm_chunk_points = 0;
  /// Bytes of each pinned staging chunk of the .params → device loader (srs_load.hpp).
  std::size_t srs_load_chunk_bytes = std::size_t{64} << 20;
  /// Where compiled-form partitions are evaluated ("Compiled form"): Auto (default) on the device
  /// when the compiled circuit is resident or fits the device budget beside what is held, else on
  /// the host; Device or Host to force one (tests, and a card whose budget is known to be short).
  CompiledEvaluation compiled_evaluation = CompiledEvaluation::Auto;
  /// The NTT domain with the wide twiddle table (NttDomain(lg, true), ntt.hpp: n·32 bytes, 4 GiB at
  /// 2^27; bellperson's H then on the coset τ, the same bytes for every satisfied witness) when it
  /// fits the budget beside a resident SRS, the full working set and a compiled circuit (the one
  /// held, else room for 64 bytes per row): decided at each partition, after the compiled circuit,
  /// which comes first; never with the lean set or a streamed SRS. PROOFLINE_NTT_WIDE=1 or 0 in the
  /// environment overrides this field (for comparing on a device). On by default: on an H100 (2026-12-07,
  /// bench/RESULTS.md) it takes the forward NTT at 2^27 from 53.65 to 48.98 ms and compute_h from 374.6
  /// to 342.6 ms, the same proof bytes (test_gpu on the device).
  bool ntt_wide_twiddles = true;
};

/// How a GpuBackend holds one SRS (backend.hpp "Residency").
enum class SrsMode : std::uint8_t { Resident, Streamed };
/// "resident", "streamed".
std::string_view to_string(SrsMode m) noexcept;

class GpuBackend final : public groth16::ProverBackend {
 public:
  /// Selects the device and creates its stream; no device memory is allocated yet.
  /// Throws CudaError for a bad device ordinal.
  explicit GpuBackend(GpuBackendConfig cfg = {});
  ~GpuBackend() override;
  GpuBackend(const GpuBackend&) = delete;
  GpuBackend& operator=(const GpuBackend&) = delete;

  /// "cuda".
  std::string_view name() const override { return "cuda"; }
  int device() const;

  groth16::ProverResult prove(const groth16::Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                              std::span<const groth16::Randomizers> randomizers,
                              const std::atomic<bool>* cancel = nullptr) override;

  /// Fault recovery: a CudaError thrown by prove() fails that call only. If the device context is
  /// left in a sticky error state (a kernel fault: every later call would fail), prove() resets the
  /// device (cudaDeviceReset; resident SRSs are uploaded again on next use) and recreates its
  /// streams and scratch before rethrowing, so the next call works; another GpuBackend on the same
  /// device that meets the same dead context recreates its state without a second reset. If the
  /// device cannot be brought back, in_service() turns false and every later prove() throws
  /// ProoflineError naming the fault.
  bool in_service() const override;
  std::string fault() const override;
  unsigned recoveries() const override;

  /// Loads params' five queries (h, l, a, b_g1, b_g2) unless already held and current, resident or
  /// streamed ("Residency"); returns the milliseconds the load took (0 if nothing was loaded).
  /// ProoflineError(OutOfMemory) if even the streamed form cannot be had; nothing stays allocated
  /// for them then. A bad point in a file source: its named error (srs_load.hpp).
  double preload(const groth16::Parameters& params) override;
  /// Frees the device copy of params' SRS (no-op if not resident).
  void evict(const groth16::Parameters& params) override;
  void evict_all() override;
  /// True iff params' SRS is resident and its fingerprint matches.
  bool is_resident(const groth16::Parameters& params) const;
  /// Device bytes of all resident SRSs (streamed ones hold none between calls).
  std::size_t resident_bytes() const override;
  /// With cfg.register_host_buffers: page-locks each vector of at least cfg.register_min_bytes
  /// (whole capacity) now, on the caller's thread ("Host buffers": the engine's warmer, before work
  /// arrives), instead of at its second use; returns the bytes locked by this call or before.
  std::uint64_t warm_host_buffers(r1cs::ProvingBuffers& buffers) override;
  /// Host bytes page-locked in place now, over every backend of the process ("Host buffers").
  static std::size_t registered_host_bytes();
  /// Waits until no background page-locking is in flight ("Host buffers"; tests).
  static void settle_host_registrations();
  /// Copies this backend made straight from page-locked caller buffers so far ("Host buffers").
  std::size_t direct_copies() const;
  /// Compiled-form partitions this backend has evaluated on the device and on the host so far
  /// ("Compiled form").
  struct CompiledEvaluations {
    std::size_t device = 0;
    std::size_t host = 0;
  };
  CompiledEvaluations compiled_evaluations() const;
  /// How params' SRS is held now ("resident"/"streamed" and its bytes, see "Residency"); mode ""
  /// when not held. Never blocked by a running proof (status reads it).
  groth16::SrsHolding srs_holding(const groth16::Parameters& params) const override;
  /// "Compiled form": true when cc is on the device, or fits the device budget beside params' SRS
  /// (resident or planned resident) and its working set, or cfg.compiled_evaluation is Device;
  /// false for Host, and when params' SRS is or would be streamed. The answer for the last cc asked
  /// (or proved) is kept and given without waiting for a running proof.
  bool evaluates_compiled(const groth16::Parameters& params, const r1cs::CompiledCircuit& cc) const override;
  /// !evaluates_compiled(params, cc): on the device, a, b, c and the plain aux never exist on the host.
  bool compiled_needs_host_rows(const groth16::Parameters& params, const r1cs::CompiledCircuit& cc) const override;
  /// Uploads cc when evaluates_compiled(params, cc) (0: not uploaded, or there already).
  double preload_compiled(const groth16::Parameters& params,
                          const std::shared_ptr<const r1cs::CompiledCircuit>& cc) override;
  /// Frees the device copy of cc if it is the one held, and forgets the evaluates_compiled answer
  /// for it.
  void release_compiled(const r1cs::CompiledCircuit& cc) override;
  std::uint64_t compiled_device_bytes(const r1cs::CompiledCircuit& cc) const override;
  /// The mode params' SRS would be given under the current budget, without loading it.
  SrsMode plan_mode(const groth16::Parameters& params) const;
  /// Device bytes one partition of params needs besides the SRS (an estimate: a, b, c, the
  /// assignments and scalar vectors, the NTT tables, the G1 and G2 MSM scratch for `msm_points`
  /// points — 0: the longest query — and a 256 MiB margin), with the full or the lean working set;
  /// wide_twiddles (full set only): with the NTT domain's wide table (ntt.hpp: n·32 bytes more).
  static std::size_t working_bytes(const groth16::Parameters& params, std::size_t msm_points = 0,
                                   bool lean = false, bool wide_twiddles = false);
  /// Whether params' SRS, as held now, runs its partitions with the lean working set (false when
  /// not held).
  bool lean_working_set(const groth16::Parameters& params) const;
  /// Whether the last partition proved kept its G1 MSMs' batch-affine state (the paragraph on it under
  /// "Residency" above) and the last G1 MSM (or slice) it ran added its points of scalars other than 0
  /// and 1 batch-affine (GpuMsm::last_bucket_add): false before the first partition, where the plan had
  /// no room for the state (the G1 MSMs ran XYZZ), and where that MSM had no such points, fell back to
  /// XYZZ (the state's allocation failed) or had fewer than the batch-affine threshold.
  bool last_partition_batch_affine_kept() const;
  /// Device bytes of the NTT domain's tables held now (0 when none): NttDomain::table_bytes_for(m,
  /// true) after a partition of domain size m that got the wide table (ntt_wide_twiddles), else the
  /// compact tables' (until release_scratch).
  std::uint64_t ntt_table_bytes() const;
  /// Device bytes this backend holds now (SRS copies and scratch), and the most it held at once
  /// since construction or reset_device_peak() ("Working set").
  std::size_t device_bytes() const;
  std::size_t device_peak_bytes() const;
  void reset_device_peak();
  /// Frees the per-partition scratch (a, b, c, assignments, MSM scratch); resident SRSs stay.
  void release_scratch();

  struct Impl;

 private:
  groth16::ProverResult prove_locked(const groth16::Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                                     std::span<const groth16::Randomizers> randomizers, const std::atomic<bool>* cancel);
  /// After a CudaError (mu_ held): recover the device if its context is broken (see prove()).
  void recover_locked(const std::string& what);
  void set_fault(std::string f);

  mutable std::mutex mu_;          ///< serialises every call (guards impl_ and generation_)
  std::unique_ptr<Impl> impl_;
  // Read by the engine's scheduler while a call may hold mu_: never blocked by a running proof.
  std::atomic<bool> in_service_{true};
  std::atomic<unsigned> recoveries_{0};
  mutable std::mutex fault_mu_;    ///< guards fault_ only
  std::string fault_;
  /// Refreshes holdings_ from impl_ (mu_ held) after every call that may load or free an SRS.
  void refresh_holdings_locked();
  mutable std::mutex holdings_mu_;  ///< guards holdings_ only
  struct Holding {
    const groth16::Parameters* key;
    SrsMode mode;
    std::size_t bytes;
  };
  std::vector<Holding> holdings_;
  /// The compiled circuit on the device (refresh_holdings_locked) and the last evaluates_compiled
  /// answer, under holdings_mu_.
  const r1cs::CompiledCircuit* compiled_held_ = nullptr;
  std::uint64_t compiled_held_bytes_ = 0;
  struct CompiledAnswer {
    const groth16::Parameters* params = nullptr;
    const r1cs::CompiledCircuit* cc = nullptr;
    bool on_device = false;
  };
  mutable CompiledAnswer compiled_answer_;
  unsigned generation_ = 0;        ///< the device generation (resets seen) impl_ was made in
};

/// One GpuBackend per usable CUDA device, in ordinal order, each configured as `base` with its own
/// device ordinal. A device is usable when a small test
/// kernel runs on it (this build's device code targets sm_90: other architectures fail that test).
/// With no usable device (no driver, no device, or every test failed) returns an empty vector and
/// writes one line to stderr saying why; it never throws for that (it throws std::invalid_argument for a
/// PROOFLINE_GPU_OVERLAP_G2 that overlap_g2_in_effect refuses). The engine/daemon call this and
/// fall back to groth16::CpuBackend on an empty result.
std::vector<std::unique_ptr<GpuBackend>> make_gpu_backends(const GpuBackendConfig& base = {});

/// GpuBackendConfig::overlap_g2 as a backend built from `configured` runs it: the environment's
/// PROOFLINE_GPU_OVERLAP_G2 "1" / "0" where set and not empty, else `configured`. Any other value throws
/// std::invalid_argument naming it — from here, from GpuBackend's constructor and from
/// make_gpu_backends (before any device is tried: a typo is an error, not an unusable device).
bool overlap_g2_in_effect(bool configured);

}  // namespace proofline::gpu
