// proofline/gpu/ntt.hpp — number-theoretic transforms over Fr on a CUDA device, and the Groth16
// H computation (bellperson's construction) entirely on the device.
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
// Algorithm: radix-2 butterflies, up to 9 stages fused per kernel in shared memory (64 KiB per
// block: 2^9 rows × 4 adjacent columns so global accesses are 128-byte segments); per-stage twiddle
// tables tw_b[j] = ω_{2^(b+1)}^j stored back to back (n − 1 elements per direction); coset powers
// read as hi[i >> 14]·lo[i & (2^14 − 1)].
//
// Memory owned by an NttDomain: 2·n·32 bytes of twiddles plus ~2·(2^14 + n/2^14)·32 bytes of coset
// powers, allocated once in the constructor on the current device and freed by the destructor.
// Errors: CudaError (device.hpp) for any failed CUDA call, including out of memory (the sticky
// error state is cleared first, so later calls work); std::invalid_argument for lg_n > 31 or a
// host span whose length is not n.
#pragma once

#include <cstdint>
#include <span>

#include "proofline/ff/fr.hpp"

namespace proofline::gpu {

enum class NttOrder { NN, NR, RN, RR };

class NttDomain {
 public:
  /// Builds the twiddle and coset-power tables for n = 2^lg_n on the current device.
  explicit NttDomain(unsigned lg_n);
  ~NttDomain();
  NttDomain(const NttDomain&) = delete;
  NttDomain& operator=(const NttDomain&) = delete;

  unsigned lg_size() const { return lg_n_; }
  std::uint64_t size() const { return std::uint64_t{1} << lg_n_; }
  /// Device bytes held by the tables.
  std::uint64_t table_bytes() const;

  // ---- device-pointer API (d_x: n elements on the device; `stream` is a cudaStream_t or null) ----
  void forward(ff::Fr* d_x, NttOrder order = NttOrder::NN, void* stream = nullptr) const;
  void inverse(ff::Fr* d_x, NttOrder order = NttOrder::NN, void* stream = nullptr) const;
  /// Coset transforms, natural order in and out.
  void coset_forward(ff::Fr* d_x, void* stream = nullptr) const;
  void coset_inverse(ff::Fr* d_x, void* stream = nullptr) const;
  /// bellperson's H on the device: d_a, d_b, d_c hold the n evaluations of A·w, B·w, C·w
  /// (natural order, zero padded). On return d_a[0..n−2] hold the coefficients of
  /// H = (A·B − C)/Z, natural order; d_b and d_c are clobbered. No host round trip.
  void compute_h(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, void* stream = nullptr) const;

  // ---- host convenience (copies in, transforms, copies out; synchronous) --------------------------
  void forward_host(std::span<ff::Fr> x, NttOrder order = NttOrder::NN) const;
  void inverse_host(std::span<ff::Fr> x, NttOrder order = NttOrder::NN) const;
  void coset_forward_host(std::span<ff::Fr> x) const;
  void coset_inverse_host(std::span<ff::Fr> x) const;
  /// Host form of compute_h: a, b, c of n elements each; returns H's n − 1 coefficients in a.
  void compute_h_host(std::span<ff::Fr> a, std::span<const ff::Fr> b, std::span<const ff::Fr> c) const;

 private:
  enum class Pass { DifForward, DifInverse, DitForward, DitInverse };
  void run_pass(ff::Fr* d_x, Pass pass, void* stream) const;
  void bit_reverse(ff::Fr* d_x, void* stream) const;
  /// x[p] *= (g or g^{-1})^{i(p)} · scale where i(p) = p or bitrev(p).
  void scale_powers(ff::Fr* d_x, bool inverse_gen, bool bitrev_positions, const ff::Fr& scale,
                    void* stream) const;
  void check_span(std::size_t len, const char* op) const;

  unsigned lg_n_;
  ff::Fr* d_tw_fwd_ = nullptr;   // n − 1 twiddles, stage b at offset 2^b − 1
  ff::Fr* d_tw_inv_ = nullptr;
  ff::Fr* d_gpow_ = nullptr;     // [g^lo (2^14) | g^(hi·2^14) | g^-lo | g^-(hi·2^14)]
  std::uint64_t n_lo_ = 0, n_hi_ = 0;
  ff::Fr n_inv_;
  ff::Fr z_inv_on_coset_;        // (g^n − 1)^{-1}
};

}  // namespace proofline::gpu
