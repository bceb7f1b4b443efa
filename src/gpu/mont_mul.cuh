// src/gpu/mont_mul.cuh — the Montgomery product of the device fields (ff.cuh), as a template over the
// carry chains, so that the very algorithm the device runs (with the PTX chains of ff.cuh's
// DevChains) runs on the host with the portable HostChains below (tests/gpu_host/mont_mul_test.cpp
// checks it against ff::Fr and ff::Fp).
//
// Algorithm: CIOS (Koç–Acar–Kaliski, "Analyzing and comparing Montgomery multiplication
// algorithms", 1996) with the accumulator split by limb parity, the idea of Emmart, Luitjens, Weems
// and Woolley ("Optimizing modular multiplication for NVIDIA's Maxwell GPUs", ARITH 2016): the
// product of a by one word w, a·w = Σ_j a_j·w·2^(32j), has lo(a_j·w) at word j and hi(a_j·w) at word
// j + 1. Taken over the even j alone those words are 0, 1, 2, …, N − 1, each written once; over the
// odd j, 1, 2, …, N. So a·w is two dense carry chains of N multiply-adds, lo and hi of one product
// side by side (which the compiler may fuse into one 32×32→64 multiply), instead of a lo chain and
// a hi chain each skipping every other column:
//
//   state  T = A + B, A = A[0..N] at words 0..N, B = B[0..N+1] at words 0..N+1
//   row i  A[0..N−1] += a_even·b_i, carry into A[N]        (row:     N mad + 1 addc)
//          B[1..N]   += a_odd·b_i,  carry into B[N+1]      (row)
//          μ = (A[0] + B[0])·(−m^{-1}) mod 2^32           (B's chains never write B[0], so word 0 of T
//                                                            is A[0] + B[0] mod 2^32)
//          A[0..N−1] += m_even·μ, carry into A[N]         (row)
//          B[1..N]   += m_odd·μ plus the carry of A[0] + B[0], carry into B[N+1]   (row_cin)
//          now A[0] + B[0] ≡ 0 mod 2^32 and its carry has gone into B[1]: T/2^32 = A[1..N] + B[1..N+1],
//          so A, B shift down one word (register renaming once unrolled)
//   end    T = A + B < 2m < 2^(32N) (the CIOS bound for a, b < m): r = A + B (add), then one
//          conditional subtraction of m (sub + select).
// Row 0 starts from zero: its products land in distinct words, so they are plain 32×32→64 products
// with no carries. A[N] and B[N+1] only ever receive carries (at most 2 per row) and start each row
// at 0, so no carry out of them is lost.
//
// Every chain (row, row_cin, add, sub) is one asm statement on the device (ff.cuh), so the carry
// flag never crosses a statement boundary and the compiler is free to interleave independent chains.
#pragma once

#include <cstdint>

#include "host_device.cuh"

namespace proofline::gpu {

/// The chains in portable C++, one step per PTX instruction of DevChains (ff.cuh), in the same order:
/// `cc` is the PTX carry flag.
template <int N>
struct HostChains {
  /// acc[0..N−1] += x[t]·w for t < N/2 at words 2t (lo) and 2t + 1 (hi); the carry into acc[N].
  static void row(uint32_t* acc, const uint32_t* x, uint32_t w) { row_from(acc, x, w, 0); }
  /// The same with the carry of c0 + c1 as carry-in (add.cc t, c0, c1 first).
  static void row_cin(uint32_t* acc, const uint32_t* x, uint32_t w, uint32_t c0, uint32_t c1) {
    row_from(acc, x, w, uint32_t((uint64_t(c0) + c1) >> 32));
  }
  /// r += y mod 2^(32N).
  static void add(uint32_t* r, const uint32_t* y) {
    uint32_t cc = 0;
    for (int i = 0; i < N; ++i) {  // add.cc / addc.cc … / addc
      const uint64_t s = uint64_t(r[i]) + y[i] + cc;
      r[i] = uint32_t(s);
      cc = uint32_t(s >> 32);
    }
  }
  /// r −= y mod 2^(32N); returns 0xffffffff if it borrowed (r < y), else 0.
  static uint32_t sub(uint32_t* r, const uint32_t* y) {
    uint32_t borrow = 0;
    for (int i = 0; i < N; ++i) {  // sub.cc / subc.cc …
      const uint64_t d = uint64_t(r[i]) - y[i] - borrow;
      r[i] = uint32_t(d);
      borrow = uint32_t(d >> 63);
    }
    return 0u - borrow;  // subc.u32 mask, 0, 0
  }

 private:
  static void row_from(uint32_t* acc, const uint32_t* x, uint32_t w, uint32_t cc) {
    for (int t = 0; t < N / 2; ++t) {
      const uint64_t p = uint64_t(x[t]) * w;
      uint64_t s = uint64_t(acc[2 * t]) + uint32_t(p) + cc;  // (mad|madc).lo.cc acc[2t], x[t], w
      acc[2 * t] = uint32_t(s);
      cc = uint32_t(s >> 32);
      s = uint64_t(acc[2 * t + 1]) + uint32_t(p >> 32) + cc;  // madc.hi.cc acc[2t+1], x[t], w
      acc[2 * t + 1] = uint32_t(s);
      cc = uint32_t(s >> 32);
    }
    acc[N] += cc;  // addc.u32 acc[N], acc[N], 0
  }
};

template <class P>
PROOFLINE_HD void mod_limbs(uint32_t* m) {
  PROOFLINE_UNROLL
  for (int i = 0; i < P::N; ++i) m[i] = P::mod(i);
}

/// x = x − m if x >= m else x, for x < 2m (m < 2^(32N − 1)).
template <class P, class Ch>
PROOFLINE_HD void reduce_once(uint32_t* x) {
  constexpr int N = P::N;
  uint32_t t[N], m[N];
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) t[i] = x[i];
  mod_limbs<P>(m);
  const uint32_t borrow = Ch::sub(t, m);  // 0xffffffff where x < m: keep x
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) x[i] = borrow ? x[i] : t[i];
}

/// r = a + b mod m for a, b < m (a + b < 2m < 2^(32N): no carry out). r may alias a or b.
template <class P, class Ch>
PROOFLINE_HD void mod_add(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  constexpr int N = P::N;
  uint32_t s[N];
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) s[i] = a[i];
  Ch::add(s, b);
  reduce_once<P, Ch>(s);
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) r[i] = s[i];
}

/// r = a − b mod m for a, b < m: a − b, plus m where it borrowed. r may alias a or b.
template <class P, class Ch>
PROOFLINE_HD void mod_sub(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  constexpr int N = P::N;
  uint32_t d[N], m[N];
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) d[i] = a[i];
  const uint32_t borrow = Ch::sub(d, b);
  mod_limbs<P>(m);
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) m[i] &= borrow;
  Ch::add(d, m);
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) r[i] = d[i];
}

/// r = a·b·2^(−32N) mod m, fully reduced, for a, b < m < 2^(32N − 1) (P: field_params.cuh; Ch:
/// HostChains or ff.cuh's DevChains). r may alias a or b.
template <class P, class Ch>
PROOFLINE_HD void mont_mul(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  constexpr int N = P::N, H = N / 2;
  static_assert(N % 2 == 0, "even/odd split needs an even limb count");
  uint32_t ae[H], ao[H], me[H], mo[H];
  PROOFLINE_UNROLL
  for (int t = 0; t < H; ++t) {
    ae[t] = a[2 * t];
    ao[t] = a[2 * t + 1];
    me[t] = P::mod(2 * t);
    mo[t] = P::mod(2 * t + 1);
  }
  uint32_t A[N + 1], B[N + 2];
  const uint32_t b0 = b[0];
  PROOFLINE_UNROLL
  for (int t = 0; t < H; ++t) {  // row 0: disjoint words, no carries
    const uint64_t pe = uint64_t(ae[t]) * b0, po = uint64_t(ao[t]) * b0;
    A[2 * t] = uint32_t(pe);
    A[2 * t + 1] = uint32_t(pe >> 32);
    B[2 * t + 1] = uint32_t(po);
    B[2 * t + 2] = uint32_t(po >> 32);
  }
  A[N] = 0;
  B[0] = 0;
  B[N + 1] = 0;
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) {
    if (i > 0) {
      const uint32_t bi = b[i];
      Ch::row(A, ae, bi);
      Ch::row(B + 1, ao, bi);
    }
    const uint32_t mu = (A[0] + B[0]) * P::INV;
    Ch::row(A, me, mu);
    Ch::row_cin(B + 1, mo, mu, A[0], B[0]);
    PROOFLINE_UNROLL
    for (int k = 0; k < N; ++k) A[k] = A[k + 1];
    A[N] = 0;
    PROOFLINE_UNROLL
    for (int k = 0; k < N + 1; ++k) B[k] = B[k + 1];
    B[N + 1] = 0;
  }
  Ch::add(A, B);  // T < 2^(32N): B[N] = 0 and no carry out of word N − 1
  reduce_once<P, Ch>(A);
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) r[i] = A[i];
}

}  // namespace proofline::gpu
