// proofline/gpu/ntt.hpp — number-theoretic transforms over Fr on a CUDA device, and the Groth16
// H scalars entirely on the device, in both forms of groth16::HForm (groth16/params.hpp): bellperson's
// coefficients of (A·B − C)/Z (compute_h) and snarkjs' A·B − C on the odd coset (compute_h_odd_coset).
//
// Conventions are those of the CPU layer (poly/domain.hpp, bellperson domain.rs): ω = 7^((r−1)/2^k)
// a primitive 2^k-th root, coset generator g = 7; forward X[j] = Σ x[i]·ω^{ij}; inverse scales by
// 1/n; coset forward multiplies coefficient i by g^i before the transform, coset inverse multiplies
// by g^{-i} after it. Results equal poly::EvaluationDomain's bit for bit (tests/gpu/ntt_test.cpp).
//
// Data: device buffers of n = 2^lg_n elements of ff::Fr in Montgomery form (the host layout:
// 32 bytes, four little-endian 64-bit limbs, which the device reads as eight 32-bit limbs).
// Orders (sppark's naming): NN natural in/out; NR natural in, bit-reversed out (decimation in
// frequency, no permutation pass); RN bit-reversed in, natural out (decimation in time); RR.
//
// Algorithm: radix-2 butterflies, up to 9 stages fused per kernel in shared memory (2^9 rows × 4
// adjacent columns so global accesses are 128-byte segments: ceil(lg_n / 9) passes over the data),
// two stages per barrier with each thread's 4 elements in registers between them (radix 4;
// PROOFLINE_NTT_RADIX=2 or 8 in the environment runs one or three stages per barrier instead, and
// PROOFLINE_NTT_COLS=1 two adjacent columns instead of four: same bytes, for comparing on a device).
// No n-sized twiddle table: stage b's twiddle ω_{2^(b+1)}^j is R[j_row]·C[j_col], R the 511 roots
// of the group sizes (ω_{2^(b'+1)}^j', b' < 9) and C the block's column roots, read from a two-level
// table of the powers of ω_n (ω_n^e = lo[e mod 2^L]·hi[e >> L], L = ceil(lg_n/2)); a block above the
// lowest group multiplies out its stages' twiddles into shared memory first (≈ one extra product per
// element per pass; src/gpu/ntt_group.cuh). Shared memory per block: 16 KiB in the lowest group
// (2^9 elements), 97 KiB above it (the data and those twiddles).
//
// Cosets and constant factors (the default "folded" path): a coset transform with generator γ is
// the same passes with stage b's twiddles times γ^(2^(k−1−b)) (ntt_group.cuh's file comment has the
// algebra), and a constant factor of every output (1/n, and H's Z^{-1}) rides on the bottom stage:
// no element-wise pass and ½ product per element instead of 3. So coset_forward = bit reversal +
// DIT, coset_inverse = DIF + bit reversal, inverse = the passes alone, h_column = DIF with 1/n + DIT
// with g (σ for the odd coset): two transforms and nothing else, and bellperson's combine is
// a·b − c (one product) with Z^{-1}/n folded into the coset iNTT. Same bytes as before.
// PROOFLINE_NTT_LEGACY=1 in the environment runs the previous path instead (element-wise passes of
// coset powers read as hi[i >> 14]·lo[i & (2^14 − 1)], 1/n and Z^{-1}), for comparing on a device.
//
// Wide twiddles (NttDomain(lg_n, true); issue 30 item 3): one table of n elements W[e] = τ^e, τ = ω_{2n}
// (τ² = ω_n; 4 GiB at 2^27), from which the groups above the lowest read every twiddle as ±W[E]
// (τ^n = −1) instead of multiplying R·C out (≈ one product per element less per such group; the
// algebra is in src/gpu/ntt_group.cuh, build_wide_table). It serves both directions and the coset
// τ^{±1}, not g or σ: so such a domain computes bellperson's H (compute_h, h_column, h_combine,
// h_finish) on the coset τ instead of g (on the folded path; PROOFLINE_NTT_LEGACY=1 keeps g). The
// quotient (A·B − C)/Z is the same polynomial whichever coset it is evaluated on when A·B − C
// vanishes on the domain — for every witness that satisfies
// its constraints, i.e. every proof that verifies —, so the H coefficients (and the proof) are the
// same bytes; for a·b − c that does not vanish on the domain (an unsatisfied witness, random test
// vectors) the two forms differ. forward, inverse and the odd coset are the same bytes either way;
// coset_forward / coset_inverse stay on g (the wide table does not serve them).
//
// Memory owned by an NttDomain: per direction 511 + 2^L + 2^(lg_n − L) twiddles (0.8 MB at
// lg_n = 27) plus ~3·(2^14 + n/2^14)·32 bytes of coset powers (g, g^{-1}, σ; 2.4 MB at 2^27),
// the folded path's 7 tables of 544 elements (122 KB) and, with wide twiddles, n·32 bytes,
// allocated once in the constructor on the current device and freed by the destructor
// (table_bytes()). A transform needs no other device memory than its data.
// Errors: CudaError (device.hpp) for any failed CUDA call, including out of memory (the sticky
// error state is cleared first, so later calls work); std::invalid_argument for lg_n > 31 or a
// host span whose length is not n.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "proofline/ff/fr.hpp"

namespace proofline::gpu {

enum class NttOrder { NN, NR, RN, RR };

class NttDomain {
 public:
  /// Builds the twiddle and coset-power tables for n = 2^lg_n on the current device (a few MB;
  /// wide_twiddles: plus the wide table of n·32 bytes, see the file comment).
  explicit NttDomain(unsigned lg_n, bool wide_twiddles = false);
  ~NttDomain();
  NttDomain(const NttDomain&) = delete;
  NttDomain& operator=(const NttDomain&) = delete;

  unsigned lg_size() const { return lg_n_; }
  std::uint64_t size() const { return std::uint64_t{1} << lg_n_; }
  /// Device bytes held by the tables.
  std::uint64_t table_bytes() const;
  /// Whether this domain holds the wide table (then bellperson's H runs on the coset τ).
  bool wide_twiddles() const;

  // ---- device-pointer API (d_x: n elements on the device; `stream` is a cudaStream_t or null) ----
  void forward(ff::Fr* d_x, NttOrder order = NttOrder::NN, void* stream = nullptr) const;
  void inverse(ff::Fr* d_x, NttOrder order = NttOrder::NN, void* stream = nullptr) const;
  /// Coset transforms, natural order in and out.
  void coset_forward(ff::Fr* d_x, void* stream = nullptr) const;
  void coset_inverse(ff::Fr* d_x, void* stream = nullptr) const;
  /// bellperson's H on the device: d_a, d_b, d_c hold the n evaluations of A·w, B·w, C·w
  /// (natural order, zero padded). On return d_a[0..n−2] hold the coefficients of
  /// H = (A·B − C)/Z, natural order; d_b and d_c are clobbered. No host round trip. With wide
  /// twiddles: the same bytes where a·b − c vanishes on the domain (see the file comment).
  void compute_h(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, void* stream = nullptr) const;
  /// snarkjs' H on the device (groth16::snarkjs::OddCosetH::compute, bit for bit): d_a, d_b, d_c
  /// hold the n evaluations of A·w, B·w, C·w on the ω7 domain, natural order, each row at the
  /// position J·c mod n of its snarkjs constraint c (J = snarkjs_root_exponent(), so that
  /// ω7^(J·c) = ω5^c; zero elsewhere). Each is taken to the odd coset: inverse transform, coefficient
  /// i ·= σ^i/n with σ = ffjavascript's ω_{2n} (snarkjs_root_of_unity(lg_n + 1)), forward transform.
  /// On return d_a[0..n−1] hold h_i = (A·B − C)(σ·ω5^i) in snarkjs' order i (the scalars of the
  /// zkey's n H points; no division by Z); d_b and d_c are clobbered (d_c is the scratch of the final
  /// gather h_i = (a·b − c)[J·i mod n]). No host round trip.
  void compute_h_odd_coset(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, void* stream = nullptr) const;
  /// The two halves of compute_h (odd_coset false) and compute_h_odd_coset (true), so that a caller
  /// can transform each column as soon as it is on the device (gpu::GpuBackend overlaps the upload
  /// of b and c with the transforms of a and b). h_column takes one column's n evaluations to the
  /// (odd) coset in place (inverse transform, coefficient scaling, forward transform); h_combine,
  /// after h_column of all three, finishes exactly as compute_h / compute_h_odd_coset do.
  /// compute_h(a, b, c) = h_column(a), h_column(b), h_column(c), h_combine(a, b, c): same bytes.
  void h_column(ff::Fr* d_x, bool odd_coset, void* stream = nullptr) const;
  void h_combine(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, bool odd_coset, void* stream = nullptr) const;
  /// The same H with two columns on the device at a time (gpu::GpuBackend's lean working set):
  /// after h_column of a and b, h_mul(a, b) sets a[i] ·= b[i] (b is then free); after h_column of c
  /// (e.g. copied into b's place), h_finish(ab, c) finishes as h_combine(a, b, c) would: same bytes
  /// in d_ab as h_combine leaves in d_a; d_c is clobbered.
  void h_mul(ff::Fr* d_a, const ff::Fr* d_b, void* stream = nullptr) const;
  void h_finish(ff::Fr* d_ab, ff::Fr* d_c, bool odd_coset, void* stream = nullptr) const;
  /// Device bytes the tables of a domain of at least m points take (what table_bytes() of
  /// NttDomain(ceil(log2 m), wide_twiddles) returns), without making one.
  static std::uint64_t table_bytes_for(std::uint64_t m, bool wide_twiddles = false);

  // ---- host convenience (copies in, transforms, copies out; synchronous) --------------------------
  void forward_host(std::span<ff::Fr> x, NttOrder order = NttOrder::NN) const;
  void inverse_host(std::span<ff::Fr> x, NttOrder order = NttOrder::NN) const;
  void coset_forward_host(std::span<ff::Fr> x) const;
  void coset_inverse_host(std::span<ff::Fr> x) const;
  /// Host form of compute_h: a, b, c of n elements each; returns H's n − 1 coefficients in a.
  void compute_h_host(std::span<ff::Fr> a, std::span<const ff::Fr> b, std::span<const ff::Fr> c) const;
  /// Host form of compute_h_odd_coset: a, b, c of n elements each; returns the n scalars h_i in a.
  void compute_h_odd_coset_host(std::span<ff::Fr> a, std::span<const ff::Fr> b,
                                std::span<const ff::Fr> c) const;

 private:
  enum class Pass { DifForward, DifInverse, DitForward, DitInverse };
  /// What the folded path (see the file comment) multiplies into a pass's twiddles: nothing, 1/n,
  /// the coset g, the odd coset σ, g^{-1} with 1/n, g^{-1} with Z^{-1}/n (H's last transform), and
  /// with wide twiddles H's τ, τ^{-1} with Z_τ^{-1}/n (Z_τ = τ^n − 1 = −2).
  enum class Folded { None, Inverse, CosetGen, CosetSigma, CosetGenInv, CosetGenInvZ, CosetTau, CosetTauInvZ };
  static constexpr unsigned kFoldedTables = 7;  // the Folded values but None, one small table each
  void run_pass(ff::Fr* d_x, Pass pass, void* stream, Folded folded = Folded::None) const;
  void bit_reverse(ff::Fr* d_x, void* stream) const;
  enum class Powers { Gen, GenInv, Sigma };  // g = 7, g^{-1}, σ = ffjavascript's ω_{2n}
  /// x[p] *= base^{i(p)} · scale where i(p) = p or bitrev(p), base chosen by `powers`.
  void scale_powers(ff::Fr* d_x, Powers powers, bool bitrev_positions, const ff::Fr& scale,
                    void* stream) const;
  void check_span(std::size_t len, const char* op) const;

  unsigned lg_n_;
  /// Device tables (src/gpu/ntt.cu): twiddles per direction (ntt_group::TableLayout: the group roots R
  /// and the two-level powers of ω_n) and the power tables [base^lo (2^14) | base^(hi·2^14)] of g,
  /// g^{-1} and σ.
  struct Tables;
  std::unique_ptr<Tables> t_;
  std::uint64_t n_lo_ = 0, n_hi_ = 0;
  ff::Fr n_inv_;
  ff::Fr z_inv_on_coset_;        // (g^n − 1)^{-1}
  ff::Fr tau_;                   // ω_{2n}: the coset of H with wide twiddles
  std::uint64_t odd_coset_j_ = 0;  // snarkjs_root_exponent() mod n
};

}  // namespace proofline::gpu
