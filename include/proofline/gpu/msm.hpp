// proofline/gpu/msm.hpp — multi-scalar multiplication Σ k_i·P_i on a CUDA device, G1 and G2.
//
// Plain C++ (no CUDA headers): host code compiled by g++ can include it. The kernels live in
// src/gpu/msm.cuh; G1 is instantiated in src/gpu/msm_g1.cu, G2 in src/gpu/msm_g2.cu.
//
// ---- Encodings ----------------------------------------------------------------------------------
// Host bases: ec::AffinePoint (Montgomery x, y; bool `infinity`), converted on upload into the
// packed device layout {x, y} (96 B per G1 point, 192 B per G2 point; (0, 0) = identity; see
// src/gpu/ec.cuh). Device bases passed by pointer must already be in that packed layout.
// Scalars: ff::Fr in Montgomery form (the host layout, 8 little-endian 32-bit words = 4 64-bit
// limbs; uploaded unchanged); device scalar pointers hold the same layout. The result is the
// same group element as msm::msm_g1 / msm_g2 (equal after conversion to affine).
//
// ---- Algorithm (src/gpu/msm.cuh) ----------------------------------------------------------------
// Pippenger with signed (Booth) windows of c bits after the sign trick (s > r/2 → r − s and −P),
// W = ⌈255/c⌉ windows, 2^(c−1) XYZZ buckets per window:
//  0. split: the scalars equal to 0 are dropped and those equal to 1 summed directly (their bases
//     gathered into one bucket by the accumulation of step 3); only the rest (the "tail", indices
//     compacted with CUB DeviceSelect) goes through steps 1–5, with c chosen from the tail's size.
//     Witness vectors are mostly bits, so this removes most of their digits and sort work.
//     PROOFLINE_GPU_MSM_NO_SPLIT (set in the environment) turns it off, for comparison;
//  1. digits: one thread per (tail) scalar writes, per window, key = |digit| (0 = no bucket) and
//     value = point index | sign << 31;
//  2. per window, CUB DeviceRadixSort of the (key, value) pairs on the low c key bits; bucket
//     start/end offsets from the run boundaries of the sorted keys;
//  3. accumulation: each thread takes a fixed run of L sorted entries (load-balanced whatever the
//     bucket sizes), adds the gathered affine points into XYZZ (madd) and writes the buckets it
//     holds whole; the partial sums of buckets cut by its range ends go to two slots per thread,
//     which form a sorted (key, XYZZ) list again and are folded by the same kernel, 32 entries
//     per thread, level after level until one thread remains (so a bucket holding every point,
//     e.g. all scalars equal, costs O(L + 32·levels) depth, not O(n/L)).
//     G1 by default from 2^24 points, G2 on request: batch-affine instead (below, "Bucket additions"): the same ranges
//     ("lanes"), but each lane's running sum is affine and the additions of all lanes of a group of windows are
//     done in L steps, each step's additions sharing one field inversion per half of the group
//     (Montgomery's trick; the two halves step on two streams);
//     the cut runs then go through the same XYZZ fold;
//  4. reduction of Σ_j (j+1)·B_j per window on the device in levels of segments of 16
//     (each segment: running sums T = Σ i·x_i, R = Σ x_i; R is multiplied by 16 with four
//     doublings and becomes the next level's input), until ≤ 64 values per window remain;
//  5. those values go to the host, which finishes each window and combines the windows by
//     Horner (c doublings per window) with the host ec layer.
//
// ---- G2 kernel variants (PROOFLINE_G2_KERNELS) ----------------------------------------------------
// The G2 bucket kernels of steps 3–4 are compiled four times, over Fp2 types with the same layout
// and the same field operations in the same order (src/gpu/ff.cuh, Fp2Code), so every variant
// computes the same values: "old" passes the operands of the non-inlined Fp2 product by value
// (ptxas sm_90: 160–256 B of register saves per product in the accumulation kernel, 26 KB of spills
// in a reduction kernel held to 32 registers), "new" through references into the caller's stack
// frame (no spills in the accumulation and fold_short kernels, ~2.5 KB in the reduction kernels;
// all at 255 registers, 2 blocks of 128 threads per SM). "lean" and "lean-4" take new's products
// under the XYZZ formulas rescheduled in place (src/gpu/xyzz_in_place.cuh: every product written
// into the point's coordinates or one of four scratch values, so little is live across a product
// call) with the kernels bounded by __launch_bounds__ to 3 blocks per SM (≤ 168 registers; 0–36 B
// of spills) or 4 (≤ 128 registers; 26–164 B): 1.5× or 2× the resident warps of "new".
// PROOFLINE_G2_KERNELS (read once per process): new (the default, also when unset), old,
// new-fold (old accumulation of step 3's affine points, new fold and reduction kernels), lean or
// lean-4; any other value makes G2 run() throw std::invalid_argument. GpuMsmConfig::g2_kernels
// overrides it per call. G1 ignores both.
//
// ---- G1 kernel variants (PROOFLINE_G1_KERNELS) ----------------------------------------------------
// The G1 bucket kernels of steps 3–4 (accumulation, fold_short, the fold and reduction levels) are
// compiled three times over Fp types with DevFp's layout and the same field operations (src/gpu/
// ff.cuh: DevFp, DevFpInPlace), so every variant computes the same values: "new" (the default) with
// a non-inlined by-value Fp product and no register bound (ptxas sm_90: 162 registers in the
// accumulation kernel, 3 blocks of 128 threads per SM); "lean-4" and "lean-5" with by-reference Fp
// products under the in-place XYZZ formulas (src/gpu/xyzz_in_place.cuh, as G2's lean kernels) and
// the kernels bounded by __launch_bounds__ to 4 blocks per SM (≤ 128 registers; ptxas sm_90: 96–122,
// no spills) or 5 (≤ 102, in practice 94–96 registers; no kernel spills, but 56 B of register
// saves inside every Fp product of the accumulation kernel). The point being summed then lives in
// the thread's stack frame (528–720 B of local memory) instead of registers. bench/RESULTS.md ("G1
// MSM: lean bucket kernels") has the figures; not yet timed on a device. The variant covers the
// sum of the scalar-1 bases (step 0) too; batch-affine accumulation (below) and its fold keep their
// kernels, and the reduction levels after it take the chosen variant. PROOFLINE_G1_KERNELS (read
// once per process): new (also when unset), lean-4 or lean-5; any other value makes G1 run() throw
// std::invalid_argument. GpuMsmConfig::g1_kernels overrides it per call. G2 ignores both.
//
// XYZZ accumulation (step 3 of the algorithm above) gives each thread count / (SMs · 256) sorted
// entries, at least 4 and at most 64, and folds the 2 cut parts per thread into the buckets
// afterwards; PROOFLINE_MSM_ACC_ENTRIES=N (64 … 4096: fewer parts, never more than the memory plans
// count) sets a larger most, for measurement — a value outside that range makes the first
// accumulation of a run() throw std::invalid_argument.
//
// ---- Bucket additions (PROOFLINE_MSM_XYZZ, GpuMsmConfig::bucket_add) ------------------------------
// Step 3 adds the sorted points either into XYZZ buckets (8M + 2S per mixed addition, the older
// path) or in affine coordinates with one inversion per step shared by every lane of a group of
// windows (batch-affine: ≈ 6 products per addition; src/gpu/msm_batch_affine.cuh). Both give the
// same group element. G1 runs batch-affine by default for a tail of at least 2^24 points (measured
// on an H100 80GB HBM3, 2026-12-07 night, bench/RESULTS.md, the state kept, inversions on priority
// streams: 100.4 against XYZZ's 83.2 ms at 2^23, 139.1 against 151.1 at 2^24, 237.4 against 279.3 at
// 2^25, 463.3 against 511.3 at 2^26, 869.6 against 993.1 at 2^27), G2 only when asked (2^24: 629
// against 551 ms); PROOFLINE_MSM_BA_MIN=N moves the threshold of both to N points, and
// PROOFLINE_MSM_XYZZ=1 (any value but "0") selects XYZZ always, for comparison.
// PROOFLINE_MSM_BA_STEPS (default 32) is L, the entries per lane and steps per group;
// PROOFLINE_MSM_BA_LANES (default 32) is K, the lanes one thread carries through a step (its
// denominators multiplied into one running product, so the inversion levels see 1/K of the lanes);
// a thread's K lanes are consecutive and its runs are summed across them after the last step (2 cut
// parts per thread for the fold).
// PROOFLINE_MSM_BA_GROUP (1 … 64, default: all) bounds the windows per group (their lanes step
// together; fewer windows, less state); a value outside that range makes run() throw
// std::invalid_argument. A group's windows step as two halves on two streams, so that one half's
// batch inversion (a few small launches and one inversion in one thread per step) runs beside
// the other half's step; PROOFLINE_MSM_BA_OVERLAP=0 steps them together on one stream, for
// comparison (other values but 1 throw). Each half's batch inversions run on a stream of the device's
// greatest priority, ordered between the half's steps by events, so that their small launches take the
// first SM slots the other half's step blocks free (20–21 ms at G1 2^26 / 2^27 on an H100);
// PROOFLINE_MSM_BA_PRIORITY=0 keeps them on the half's own stream, for comparison (other values but 0
// and 1 throw).
// G1's steps run the
// software-pipelined step kernel (src/gpu/msm_batch_affine.cuh, ba_step_pipelined_kernel: while a
// thread computes one lane, the next lane's sum and points are already being copied into its own
// slots of shared memory by cp.async; 73 KiB of shared memory per block of 128 threads, 3 blocks per
// SM on an H100) — 10 / 16 ms faster at 2^26 / 2^27 on an H100 (bench/RESULTS.md, 2026-12-07 late) —
// unless PROOFLINE_MSM_BA_PIPELINE=0 (the plain step kernel; also where the device cannot give a block
// that shared memory); values other than 0 and 1 throw std::invalid_argument. Both give the same state
// bit for bit. G2 always runs the plain step kernel.
// GpuMsmConfig::bucket_add / batch_affine_steps / batch_affine_lanes override the environment per
// call. The lanes' state (G1 ≈ 265 B, G2 ≈ 530 B per lane with the threads' parts, ⌈n/L⌉ lanes per
// window: G1 2^27, all 12 windows at once, ≈ 13.3 GB) lives one of two ways. Per call (the default):
// sized by what is free on the device when the call runs — as many windows per group as fit in half
// the free memory (or the DeviceBudget's headroom), at most PROOFLINE_MSM_BA_GROUP —, allocated
// stream-ordered for the call and freed at its end. Kept (keep_batch_affine_state(true), for a caller
// that counts batch_affine_state_bytes in its plan, as GpuBackend does where its budget has room; it
// runs its G1 MSMs XYZZ elsewhere): allocated once, all windows in one group (at most
// PROOFLINE_MSM_BA_GROUP), and reused. Either way, if fewer than half the windows would step at once
// (or an allocation fails), the call runs XYZZ — three groups, each paying its L + 1 inversions, lost
// to XYZZ on an H100. The environment switches are read only when batch-affine is selected. The sum of
// the scalar-1 bases (step 0) always uses XYZZ. G2's lanes run over Fp2 (its inversion by the norm: one
// Fp inversion per step).
//
// ---- Memory and errors --------------------------------------------------------------------------
// A GpuMsm object owns its device buffers; they grow on demand and are reused across calls.
// Scratch for n scalars: n·32 (scalars) + n·10 (split flags and indices) + (W + 1)·n·8 (digits: window w
// in slot w + 1, slot 0 the other buffer of the windows' sorts, which ping-pong between slots) + CUB temp
// (small) +
// W·2^(c−1)·sizeof(XYZZ) (buckets) + small. G1 2^26 with c = 22 (its default since 2026-12-06): about
// 13 GiB, of which 4.5 GiB are buckets (c = 20: 1.2 GiB). Batch-affine adds its lanes' state (per
// call or kept, above): G1 ≈ 265 B × ⌈n/L⌉ per window of a group (248 B per lane, the threads'
// parts and inversion scratch), G2 about twice that.
// Every CUDA call is checked; a failure throws gpu::CudaError. Out-of-memory throws CudaError
// with code cudaErrorMemoryAllocation (2) after clearing the error state, so the object (and
// the device) stay usable: free something or use smaller calls and retry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fr.hpp"

namespace proofline::gpu {

/// Which compilation of the G2 bucket kernels a call runs ("G2 kernel variants" above); every
/// choice computes the same values. G1 ignores it.
enum class G2Kernels {
  kFromEnv,  ///< PROOFLINE_G2_KERNELS (unset: kNew)
  kOld,      ///< by-value Fp2 products everywhere
  kNew,      ///< by-reference Fp2 products everywhere
  kNewFold,  ///< by-value in the accumulation of the affine points, by-reference in fold and reduction
  kLean,     ///< by-reference products under in-place XYZZ formulas, kernels bounded to 3 blocks per SM
  kLean4,    ///< the same bounded to 4 blocks per SM
};

/// Which compilation of the G1 bucket kernels a call runs ("G1 kernel variants" above); every
/// choice computes the same values. G2 ignores it.
enum class G1Kernels {
  kFromEnv,  ///< PROOFLINE_G1_KERNELS (unset: kNew)
  kNew,      ///< by-value Fp products, no register bound (the default)
  kLean4,    ///< by-reference Fp products under in-place XYZZ formulas, bounded to 4 blocks per SM
  kLean5,    ///< the same bounded to 5 blocks per SM
};

/// How step 3 adds points into buckets ("Bucket additions" above); both give the same group element.
enum class BucketAdd {
  kFromEnv,      ///< batch-affine from PROOFLINE_MSM_BA_MIN tail points (unset: G1 2^24, G2 never); PROOFLINE_MSM_XYZZ=1: never
  kXyzz,         ///< XYZZ mixed additions
  kBatchAffine,  ///< batch-affine at any size (G1 and G2), or XYZZ where fewer than half the windows' lanes fit at once
};

/// Options of one GPU MSM call.
struct GpuMsmConfig {
  /// 0: chosen from n by the cost model; else the window width c in bits, 2..24.
  int window_bits = 0;
  /// The G2 kernel variant; kFromEnv defers to PROOFLINE_G2_KERNELS (tests set it to compare).
  G2Kernels g2_kernels = G2Kernels::kFromEnv;
  /// The G1 kernel variant; kFromEnv defers to PROOFLINE_G1_KERNELS (tests set it to compare).
  G1Kernels g1_kernels = G1Kernels::kFromEnv;
  /// Step 3's additions; kFromEnv defers to PROOFLINE_MSM_XYZZ and PROOFLINE_MSM_BA_MIN.
  BucketAdd bucket_add = BucketAdd::kFromEnv;
  /// Batch-affine entries per lane (= steps); 0: PROOFLINE_MSM_BA_STEPS or 32. At most 1024.
  int batch_affine_steps = 0;
  /// Batch-affine lanes per thread (K: one running product per K lanes in Montgomery's trick);
  /// 0: PROOFLINE_MSM_BA_LANES or 32. At most 256.
  int batch_affine_lanes = 0;
};

/// The window width c the GPU MSM uses for n scalars by default, group 1 (G1) or 2 (G2): for n from
/// about 2^11.5 to 2^27.5 (G2: 2^26.5) the width measured fastest at the nearest power of two
/// (src/gpu/msm_g1.cu's tables; bench/RESULTS.md "MSM window per size"), elsewhere a cost model
/// W·(n + 2.1·2^c + 140000) over c = 2..22. Throws std::invalid_argument for another group.
int gpu_msm_window_bits(std::size_t n, int group = 1);

/// A GPU MSM context for one curve (Cfg = ec::G1Config or ec::G2Config) on the current device.
/// Owns device buffers (allocated on first use, grown when needed, reused) and one CUDA stream.
/// Not thread-safe: one call at a time per object.
template <class Cfg>
class GpuMsm {
 public:
  using Affine = ec::AffinePoint<Cfg>;
  using Projective = ec::JacobianPoint<Cfg>;

  GpuMsm();
  ~GpuMsm();
  GpuMsm(const GpuMsm&) = delete;
  GpuMsm& operator=(const GpuMsm&) = delete;

  /// Uploads `bases` into the object's device buffer (resident until replaced); later calls of
  /// run() use them.
  void set_bases(std::span<const Affine> bases);
  /// Uploads `distinct` and repeats it to fill n device bases (base i = distinct[i mod size]).
  /// For benchmarks over large n without generating n host points. distinct must be non-empty.
  void set_bases_repeating(std::span<const Affine> distinct, std::size_t n);
  /// Uses `n` bases already on the device in the packed layout (not owned; must outlive use).
  void set_bases_device(const void* d_bases, std::size_t n);
  std::size_t bases_size() const;
  /// Device pointer of the resident bases (packed layout).
  const void* bases_device() const;

  /// Σ scalars[i]·bases[offset + i] over the resident bases.
  /// offset + scalars.size() must not exceed bases_size() (std::invalid_argument otherwise).
  Projective run(std::span<const ff::Fr> scalars, std::size_t offset = 0, const GpuMsmConfig& cfg = {});
  /// Same with n Montgomery Fr scalars already on the device.
  Projective run_device(const void* d_scalars, std::size_t n, std::size_t offset = 0,
                        const GpuMsmConfig& cfg = {});

  /// Device bytes currently held by the object (bases it owns + scratch).
  std::size_t device_bytes() const;
  /// How step 3 of the last run() / run_device() added its tail points into buckets, after any
  /// fallback ("Bucket additions": batch-affine runs XYZZ where too few windows fit): kXyzz or
  /// kBatchAffine; kFromEnv where that call had no tail point (all scalars 0 or 1) or threw first.
  BucketAdd last_bucket_add() const;
  /// Whether the last run() / run_device() added its tail points batch-affine with G1's pipelined step
  /// kernel (unless PROOFLINE_MSM_BA_PIPELINE=0, on a device that gives a block its 74,752 B of shared memory;
  /// else the plain step ran): false for XYZZ, G2 and a call without tail points.
  bool last_step_pipelined() const;
  /// keep = true: the batch-affine state ("Bucket additions") is allocated once, for all windows in one
  /// group, by the first call that runs batch-affine and reused by later calls (grown when a call needs
  /// more) — for a caller that counts it in its own plan of device memory (batch_affine_state_bytes);
  /// the free-memory rule does not apply then, and a failed allocation still falls back to XYZZ. false
  /// (the default): allocated per call and freed at its end; switching to false frees a kept state now.
  void keep_batch_affine_state(bool keep);
  /// Device bytes of the state kept batch-affine calls over at most n points with cfg allocate (all
  /// windows in one group, at most PROOFLINE_MSM_BA_GROUP; L, K from cfg or the environment): the
  /// maximum over every tail t ≤ n (a call's state is sized by its tail — n less its 0 and 1 scalars —
  /// and the width c(t), whose window count is larger just below each step of c: e.g. 13 windows of
  /// c = 20 at 2^25.5 − 1 points, 12 of c = 22 above), so a planner may count it for every MSM up to n.
  /// 0 where every such call runs XYZZ (below the threshold, G2 unless asked, PROOFLINE_MSM_XYZZ, or
  /// fewer than half the windows per group). Throws std::invalid_argument for a bad PROOFLINE_MSM_BA_MIN,
  /// _STEPS, _LANES or _GROUP (not for the switches only run() reads).
  static std::size_t batch_affine_state_bytes(std::size_t n, const GpuMsmConfig& cfg = {});
  /// Frees the scratch (not the bases), a kept batch-affine state included.
  void release_scratch();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

using GpuMsmG1 = GpuMsm<ec::G1Config>;
using GpuMsmG2 = GpuMsm<ec::G2Config>;

/// One-shot forms: upload, compute, free. bases.size() must equal scalars.size().
ec::G1Projective msm_g1(std::span<const ec::G1Affine> bases, std::span<const ff::Fr> scalars,
                        const GpuMsmConfig& cfg = {});
ec::G2Projective msm_g2(std::span<const ec::G2Affine> bases, std::span<const ff::Fr> scalars,
                        const GpuMsmConfig& cfg = {});

extern template class GpuMsm<ec::G1Config>;
extern template class GpuMsm<ec::G2Config>;

}  // namespace proofline::gpu
