// src/gpu/mont_mul.cuh — the Montgomery product (and a dedicated square, mont_sqr at the end) of the
// device fields (ff.cuh), as templates over the carry chains, so that the very algorithm the device
// runs (with the PTX chains of ff.cuh's DevChains) runs on the host with the portable HostChains
// below (tests/gpu_host/mont_mul_test.cpp checks it against ff::Fr and ff::Fp).
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
#include <utility>

#include "host_device.cuh"

namespace proofline::gpu {

/// The chains in portable C++, one step per PTX instruction of DevChains (ff.cuh), in the same order:
/// `cc` is the PTX carry flag.
template <int N>
struct HostChains {
  /// acc[0..N−1] += x[t]·w for t < N/2 at words 2t (lo) and 2t + 1 (hi); the carry into acc[N].
  static void row(uint32_t* acc, const uint32_t* x, uint32_t w) { row_from<N / 2>(acc, x, w, 0); }
  /// The same with the carry of c0 + c1 as carry-in (add.cc t, c0, c1 first).
  static void row_cin(uint32_t* acc, const uint32_t* x, uint32_t w, uint32_t c0, uint32_t c1) {
    row_from<N / 2>(acc, x, w, uint32_t((uint64_t(c0) + c1) >> 32));
  }
  /// row over K products (mont_sqr's rows of a_i·a_j, 1 <= K < N/2): acc[0..2K−1] += x[t]·w for
  /// t < K, the carry into acc[2K].
  template <int K>
  static void row_k(uint32_t* acc, const uint32_t* x, uint32_t w) { row_from<K>(acc, x, w, 0); }
  /// r += y mod 2^(32N).
  static void add(uint32_t* r, const uint32_t* y) { add_from<N>(r, y); }
  /// r += y mod 2^(64N) (mont_sqr: the two halves of Σ a_i·a_j).
  static void add_wide(uint32_t* r, const uint32_t* y) { add_from<2 * N>(r, y); }
  /// r = 2r mod 2^(64N) (add.cc r0, r0, r0 / addc.cc … / addc).
  static void dbl_wide(uint32_t* r) { add_from<2 * N>(r, r); }
  /// acc[0..2N−1] += Σ x_i²·2^(64i): lo(x_i²) at word 2i, hi at 2i + 1, one chain with no carry out.
  static void add_squares(uint32_t* acc, const uint32_t* x) {
    uint32_t cc = 0;
    for (int i = 0; i < N; ++i) {
      const uint64_t p = uint64_t(x[i]) * x[i];
      uint64_t s = uint64_t(acc[2 * i]) + uint32_t(p) + cc;  // (mad|madc).lo.cc acc[2i], x[i], x[i]
      acc[2 * i] = uint32_t(s);
      cc = uint32_t(s >> 32);
      s = uint64_t(acc[2 * i + 1]) + uint32_t(p >> 32) + cc;  // madc.hi(.cc) acc[2i+1], x[i], x[i]
      acc[2 * i + 1] = uint32_t(s);
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
  template <int K>
  static void row_from(uint32_t* acc, const uint32_t* x, uint32_t w, uint32_t cc) {
    for (int t = 0; t < K; ++t) {
      const uint64_t p = uint64_t(x[t]) * w;
      uint64_t s = uint64_t(acc[2 * t]) + uint32_t(p) + cc;  // (mad|madc).lo.cc acc[2t], x[t], w
      acc[2 * t] = uint32_t(s);
      cc = uint32_t(s >> 32);
      s = uint64_t(acc[2 * t + 1]) + uint32_t(p >> 32) + cc;  // madc.hi.cc acc[2t+1], x[t], w
      acc[2 * t + 1] = uint32_t(s);
      cc = uint32_t(s >> 32);
    }
    acc[2 * K] += cc;  // addc.u32 acc[2K], acc[2K], 0
  }
  template <int M>
  static void add_from(uint32_t* r, const uint32_t* y) {
    uint32_t cc = 0;
    for (int i = 0; i < M; ++i) {  // add.cc / addc.cc … / addc
      const uint64_t s = uint64_t(r[i]) + y[i] + cc;
      r[i] = uint32_t(s);
      cc = uint32_t(s >> 32);
    }
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

/// The limbs of a and m of even and odd index (mont_mul, mont_sqr).
template <class P>
PROOFLINE_HD void split_parity(const uint32_t* a, uint32_t* ae, uint32_t* ao, uint32_t* me, uint32_t* mo) {
  PROOFLINE_UNROLL
  for (int t = 0; t < P::N / 2; ++t) {
    ae[t] = a[2 * t];
    ao[t] = a[2 * t + 1];
    me[t] = P::mod(2 * t);
    mo[t] = P::mod(2 * t + 1);
  }
}

/// One word of the Montgomery reduction on the split accumulator A[0..N] + B[0..N+1] (the loops of
/// mont_mul and mont_sqr): μ = (A[0] + B[0])·(−m^{-1}), A += m_even·μ, B[1..] += m_odd·μ with the carry of
/// A[0] + B[0], then both shift down one word.
template <class P, class Ch>
PROOFLINE_HD void reduce_word(uint32_t* A, uint32_t* B, const uint32_t* me, const uint32_t* mo) {
  constexpr int N = P::N;
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

/// r = a·b·2^(−32N) mod m, fully reduced, for a, b < m < 2^(32N − 1) (P: field_params.cuh; Ch:
/// HostChains or ff.cuh's DevChains). r may alias a or b.
template <class P, class Ch>
PROOFLINE_HD void mont_mul(uint32_t* r, const uint32_t* a, const uint32_t* b) {
  constexpr int N = P::N, H = N / 2;
  static_assert(N % 2 == 0, "even/odd split needs an even limb count");
  uint32_t ae[H], ao[H], me[H], mo[H];
  split_parity<P>(a, ae, ao, me, mo);
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
    reduce_word<P, Ch>(A, B, me, mo);
  }
  Ch::add(A, B);  // T < 2^(32N): B[N] = 0 and no carry out of word N − 1
  reduce_once<P, Ch>(A);
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) r[i] = A[i];
}

namespace detail {

/// Row i (1 <= i <= N − 2) of mont_sqr's Σ_{i<j} a_i·a_j·2^(32(i+j)): a_i times a_{i+1}, a_{i+3}, …
/// (K_X = ⌈(N−1−i)/2⌉ words of a of one parity) into X from word 2i + 1, and a_i times a_{i+2},
/// a_{i+4}, … (K_Y = ⌊(N−1−i)/2⌋) into Y from word 2i + 2; each part a dense row_k.
template <class P, class Ch, int I>
PROOFLINE_HD void sqr_row(uint32_t* X, uint32_t* Y, const uint32_t* ae, const uint32_t* ao, uint32_t ai) {
  constexpr int N = P::N, KX = (N - I) / 2, KY = (N - 1 - I) / 2;
  // a_{I+1} is ae[(I+1)/2] for odd I, ao[I/2] for even I; a_{I+2} the other parity.
  const uint32_t* xs = I % 2 ? ae + (I + 1) / 2 : ao + I / 2;
  const uint32_t* ys = I % 2 ? ao + (I + 1) / 2 : ae + (I + 2) / 2;
  Ch::template row_k<KX>(X + 2 * I + 1, xs, ai);
  if constexpr (KY > 0) Ch::template row_k<KY>(Y + 2 * I + 2, ys, ai);
}

template <class P, class Ch, int... I>
PROOFLINE_HD void sqr_rows(uint32_t* X, uint32_t* Y, const uint32_t* ae, const uint32_t* ao, const uint32_t* a,
                           std::integer_sequence<int, I...>) {
  (sqr_row<P, Ch, I + 1>(X, Y, ae, ao, a[I + 1]), ...);
}

}  // namespace detail

/// r = a·a·2^(−32N) mod m, fully reduced, for a < m < 2^(32N − 1): a dedicated Montgomery squaring
/// (the idea of sppark's mont_t::sqr, Supranational: each off-diagonal product once, doubled) over
/// the same chains as mont_mul, so it is tested on the host like mont_mul. r may alias a.
///
///   1. S = Σ_{i<j} a_i·a_j·2^(32(i+j)) as X + Y (2N words each): row i is a_i times a_{i+1..N−1};
///      split by the parity of j − i as mont_mul splits a, each half is dense — a_i·a_{i+1+2t} has lo
///      and hi at words 2i + 1 + 2t, 2i + 2 + 2t (X), a_i·a_{i+2+2t} at 2i + 2 + 2t, 2i + 3 + 2t (Y) —
///      one row_k each, carry into the word above. Row 0 lands in zeros at distinct words (plain
///      products, as mont_mul's row 0). No carry is lost: after rows 0 … I each of X and Y is at most
///      (Σ_{i<=I} a_i·2^(32i))·a < 2^(32(N + I + 1)), so it fits in words 0 … N + I; the carry word of
///      row I's parts is N + I or N + I + 1, never lower than an earlier row's, so every word above it
///      is still 0 and no chain carries out.
///   2. T = a² = 2(X + Y) + Σ a_i²·2^(64i): add_wide, dbl_wide, add_squares (T < m² < 2^(64N)).
///   3. Montgomery reduction of T = T_lo + T_hi·2^(32N): mont_mul's loop on A = T_lo, B = 0 without
///      the a·b_i rows (N rows of m·μ_i, split as there) leaves A + B = (T_lo + m·Σ μ_i·2^(32i))/2^(32N)
///      <= m; then r = A + B + T_hi <= m + (m − 1)²/2^(32N) < 1.5m (m < 2^(32N − 1)), and one
///      conditional subtraction.
///
/// Multiplications, by construction (and so in the PTX nvcc 13 emits for DevFp and DevFr): mad/madc
/// in DevChains' asm, plus the plain products of row 0 (mul.wide.u32, 32×32→64) and μ (mul.lo):
///             mad/madc                           mul.wide + mul.lo   N = 12           N = 8
///   mont_mul  2N(N−1) a·b_i + 2N² m·μ            N + N               552 + 24 = 576   240 + 16 = 256
///   mont_sqr  (N−1)(N−2) a_i·a_j + 2N a_i²        (N−1) + N           422 + 23 = 445   186 + 15 = 201
///             + 2N² m·μ
/// i.e. 23 % fewer for Fp (sppark's figures: ≈ 487 against ≈ 609 IMAD issue slots, 20 % fewer) and
/// 21 % fewer for Fr. In exchange it has 5N − 3 more add/addc (N = 12: 57, N = 8: 37): add_wide and
/// dbl_wide (2N each), the N-word add of T_hi and the carry words of its 2N − 5 rows, less the
/// 2(N − 1) carry words of mont_mul's a·b_i rows.
template <class P, class Ch>
PROOFLINE_HD void mont_sqr(uint32_t* r, const uint32_t* a) {
  constexpr int N = P::N, H = N / 2;
  static_assert(N % 2 == 0 && N >= 4, "even/odd split needs an even limb count");
  uint32_t ae[H], ao[H], me[H], mo[H];
  split_parity<P>(a, ae, ao, me, mo);
  // 1. S = X + Y
  uint32_t X[2 * N], Y[2 * N];
  PROOFLINE_UNROLL
  for (int k = 0; k < 2 * N; ++k) X[k] = Y[k] = 0;
  const uint32_t a0 = ae[0];
  PROOFLINE_UNROLL
  for (int t = 0; t < H; ++t) {  // row 0: a_0·a_{2t+1} at words 2t + 1, 2t + 2 (X), a_0·a_{2t+2} (Y)
    const uint64_t px = uint64_t(ao[t]) * a0;
    X[2 * t + 1] = uint32_t(px);
    X[2 * t + 2] = uint32_t(px >> 32);
    if (t + 1 < H) {
      const uint64_t py = uint64_t(ae[t + 1]) * a0;
      Y[2 * t + 2] = uint32_t(py);
      Y[2 * t + 3] = uint32_t(py >> 32);
    }
  }
  detail::sqr_rows<P, Ch>(X, Y, ae, ao, a, std::make_integer_sequence<int, N - 2>{});
  // 2. T = 2S + Σ a_i²·2^(64i), in X
  Ch::add_wide(X, Y);
  Ch::dbl_wide(X);
  Ch::add_squares(X, a);
  // 3. reduction of X[0..N−1]; X[N..2N−1] = T_hi added at the end
  uint32_t A[N + 1], B[N + 2];
  PROOFLINE_UNROLL
  for (int k = 0; k < N; ++k) A[k] = X[k];
  A[N] = 0;
  PROOFLINE_UNROLL
  for (int k = 0; k < N + 2; ++k) B[k] = 0;
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) reduce_word<P, Ch>(A, B, me, mo);
  Ch::add(A, B);      // A + B <= m: B[N] = 0, no carry out
  Ch::add(A, X + N);  // < 2m
  reduce_once<P, Ch>(A);
  PROOFLINE_UNROLL
  for (int i = 0; i < N; ++i) r[i] = A[i];
}

}  // namespace proofline::gpu
