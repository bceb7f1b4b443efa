// proofline/ff/fp_ifma.hpp — Fp arithmetic eight lanes at a time with AVX-512 IFMA.
//
// Owns: the run-time switch of the IFMA paths (`ifma_supported`, `ifma_enabled`,
// `set_ifma_enabled`), the 8-lane Fp element `ifma::Fp8` with its inline kernels (multiply, add,
// sub, negate, full reduction, conversion from/to the 64-bit-limb Fp layout), the same for Fp2
// (`ifma::Fp2x8`, Karatsuba), and an out-of-line
// array API (`fp_mul_x8`, ...) for tests and benchmarks.
//
// Representation: an Fp8 holds 8 independent elements ("lanes") in structure-of-arrays form:
// l[j] is a 512-bit vector whose lane i is limb j of element i, radix 2^52 (8 limbs = 416 bits,
// each limb < 2^52 once normalised). Values are the same Montgomery numbers as Fp (a·2^384 mod
// p), so converting is a re-slicing of bits, no multiplication. Inside kernels values are kept
// "lazy", < 2p; `reduce_full` brings them below p before they are stored back into an Fp.
//
// Multiply: Montgomery product with 8 reduction steps of 52 bits (divides by 2^416). To keep the
// 2^384 Montgomery factor, the first operand enters shifted left by 32 bits (a·2^32 < 2^414 for
// a < 2p), so mont416(a·2^32, b) = a·b·2^-384 mod p, output < 2^380 + p < 2p for inputs < 2p.
// Instructions: vpmadd52luq / vpmadd52huq (low / high 52 bits of a 52×52-bit product, added to a
// 64-bit lane); column sums stay below 2^59, so no lane overflows.
//
// The kernels carry `__attribute__((target("avx512f,avx512ifma")))`, so this header compiles in a
// portable build; call them only from functions with the same target attribute, and only when
// ifma_enabled() is true (CPUID leaf 7: EBX bit 16 AVX512F, EBX bit 21 AVX512IFMA, plus the OS
// saving ZMM state, XCR0 bits 5..7). The environment variable PROOFLINE_NO_IFMA (or PROOFLINE_NO_ASM,
// which turns off every fast path) disables them at start-up.
#pragma once

#include <cstddef>
#include <cstdint>

#include "proofline/ff/fp.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PROOFLINE_IFMA_BUILD 1
#include <immintrin.h>
#endif

namespace proofline::ff {

/// Whether this CPU and OS run AVX-512F + AVX-512 IFMA code (CPUID and XGETBV; cached).
bool ifma_supported();
/// Whether the IFMA paths are in use: supported, not disabled by PROOFLINE_NO_IFMA /
/// PROOFLINE_NO_ASM at start-up, and not switched off by set_ifma_enabled(false).
bool ifma_enabled();
/// Turns the IFMA paths on or off (on only takes effect when supported); returns the previous
/// setting. For tests and A/B benchmarks; not meant to be flipped while other threads compute.
bool set_ifma_enabled(bool on);

/// r[i] = a[i]·b[i] (Montgomery product, fully reduced), i < 8. Requires ifma_enabled().
void fp_mul_x8(Fp* r, const Fp* a, const Fp* b);
/// r[i] = a[i]², r[i] = a[i] + b[i], r[i] = a[i] − b[i], i < 8. Require ifma_enabled().
void fp_sqr_x8(Fp* r, const Fp* a);
void fp_add_x8(Fp* r, const Fp* a, const Fp* b);
void fp_sub_x8(Fp* r, const Fp* a, const Fp* b);
/// Throughput kernel for benchmarks: for n groups of 8, x ← x·y repeated `reps` times on 8
/// independent chains per group (lazy values), then x fully reduced. x, y: 8·n elements.
void fp_mul_chain_x8(Fp* x, const Fp* y, std::size_t n, std::size_t reps);

#if defined(PROOFLINE_IFMA_BUILD)
namespace ifma {

#define PROOFLINE_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

using u64 = std::uint64_t;

/// 8 elements, radix 2^52, structure of arrays (see the file comment).
struct Fp8 {
  __m512i l[8];
};

/// p and 2p in radix 2^52, and −p^{-1} mod 2^52, derived from FpParams::kModulus.
struct Consts52 {
  u64 p[8], p2[8];
  u64 pinv;  // −p^{-1} mod 2^52 = (−p^{-1} mod 2^64) mod 2^52
  u64 one[8];  // R mod p (Montgomery 1)
};

constexpr u64 kMask52 = (u64{1} << 52) - 1;

/// Bits [52j, 52j + 52) of a 6-limb (384-bit) little-endian integer, shifted left by `shift` bits
/// first (0 or 32).
constexpr u64 slice52(const std::array<u64, 6>& w, unsigned j, unsigned shift) {
  const int lo = static_cast<int>(52 * j) - static_cast<int>(shift);  // first source bit
  u64 v = 0;
  for (int b = 0; b < 52; ++b) {
    const int s = lo + b;
    if (s < 0 || s >= 384) continue;
    if ((w[static_cast<unsigned>(s) / 64] >> (static_cast<unsigned>(s) % 64)) & 1) v |= u64{1} << b;
  }
  return v;
}

constexpr Consts52 make_consts52() {
  Consts52 c{};
  std::array<u64, 6> p2{};
  u64 carry = 0;
  for (int i = 0; i < 6; ++i) p2[i] = detail::adc(FpParams::kModulus[i], FpParams::kModulus[i], carry);
  for (unsigned j = 0; j < 8; ++j) {
    c.p[j] = slice52(FpParams::kModulus, j, 0);
    c.p2[j] = slice52(p2, j, 0);
    c.one[j] = slice52(Fp::kR, j, 0);
  }
  c.pinv = Fp::kInv & kMask52;
  return c;
}
inline constexpr Consts52 kC52 = make_consts52();

PROOFLINE_IFMA_INLINE __m512i bc(u64 v) { return _mm512_set1_epi64(static_cast<long long>(v)); }

// Shifts by a count that is constant after inlining. The masked forms with an explicit zero source
// avoid gcc 12's self-initialised _mm512_undefined_epi32() (spurious -Wuninitialized).
PROOFLINE_IFMA_INLINE __m512i shl(__m512i a, unsigned n) {
  return _mm512_mask_slli_epi64(_mm512_setzero_si512(), 0xFF, a, n);
}
PROOFLINE_IFMA_INLINE __m512i shr(__m512i a, unsigned n) {
  return _mm512_mask_srli_epi64(_mm512_setzero_si512(), 0xFF, a, n);
}
PROOFLINE_IFMA_INLINE __m512i sar(__m512i a, unsigned n) {
  return _mm512_mask_srai_epi64(_mm512_setzero_si512(), 0xFF, a, n);
}

/// The Montgomery 1 in every lane.
PROOFLINE_IFMA_INLINE Fp8 one8() {
  Fp8 r;
  for (int j = 0; j < 8; ++j) r.l[j] = bc(kC52.one[j]);
  return r;
}

/// Montgomery product a·b·2^-384 mod p, output < 2p, for a, b < 2p with normalised limbs.
PROOFLINE_IFMA_INLINE Fp8 mul(const Fp8& a, const Fp8& b) {
  const __m512i M = bc(kMask52);
  // A = a·2^32 in radix 2^52: limb j = bits [52j − 32, 52j + 20) of a.
  __m512i A[8];
  A[0] = _mm512_and_si512(shl(a.l[0], 32), M);
  for (int j = 1; j < 8; ++j)
    A[j] = _mm512_and_si512(_mm512_or_si512(shl(a.l[j], 32), shr(a.l[j - 1], 20)), M);
  const __m512i pinv = bc(kC52.pinv);
  __m512i P[8];
  for (int j = 0; j < 8; ++j) P[j] = bc(kC52.p[j]);
  __m512i t[9];
  for (int j = 0; j < 9; ++j) t[j] = _mm512_setzero_si512();
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      t[j] = _mm512_madd52lo_epu64(t[j], A[i], b.l[j]);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], A[i], b.l[j]);
    }
    const __m512i m = _mm512_madd52lo_epu64(_mm512_setzero_si512(), t[0], pinv);
    for (int j = 0; j < 8; ++j) {
      t[j] = _mm512_madd52lo_epu64(t[j], m, P[j]);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, P[j]);
    }
    // t[0] ≡ 0 mod 2^52 now: carry its high part and drop it (divide by 2^52).
    t[1] = _mm512_add_epi64(t[1], shr(t[0], 52));
    for (int j = 0; j < 8; ++j) t[j] = t[j + 1];
    t[8] = _mm512_setzero_si512();
  }
  Fp8 r;
  for (int j = 0; j < 7; ++j) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], shr(t[j], 52));
    r.l[j] = _mm512_and_si512(t[j], M);
  }
  r.l[7] = t[7];  // < 2^380 + p < 2^382: the top limb holds bits 364..415, no carry out
  return r;
}

PROOFLINE_IFMA_INLINE Fp8 sqr(const Fp8& a) { return mul(a, a); }

/// Signed carry propagation: limbs may be negative or above 2^52; the value's sign ends in l[7].
PROOFLINE_IFMA_INLINE void normalise_signed(__m512i (&t)[8]) {
  const __m512i M = bc(kMask52);
  for (int j = 0; j < 7; ++j) {
    t[j + 1] = _mm512_add_epi64(t[j + 1], sar(t[j], 52));
    t[j] = _mm512_and_si512(t[j], M);
  }
}

/// t − m where that is ≥ 0, else t (t normalised, 0 ≤ t < 2m; m given in radix 2^52).
PROOFLINE_IFMA_INLINE void cond_sub(__m512i (&t)[8], const u64 (&m)[8]) {
  __m512i s[8];
  for (int j = 0; j < 8; ++j) s[j] = _mm512_sub_epi64(t[j], bc(m[j]));
  normalise_signed(s);
  const __mmask8 ge = _mm512_cmpge_epi64_mask(s[7], _mm512_setzero_si512());
  for (int j = 0; j < 8; ++j) t[j] = _mm512_mask_mov_epi64(t[j], ge, s[j]);
}

/// a + b, < 2p for a, b < 2p.
PROOFLINE_IFMA_INLINE Fp8 add(const Fp8& a, const Fp8& b) {
  Fp8 r;
  for (int j = 0; j < 8; ++j) r.l[j] = _mm512_add_epi64(a.l[j], b.l[j]);
  normalise_signed(r.l);
  cond_sub(r.l, kC52.p2);
  return r;
}

/// a − b, < 2p for a, b < 2p (computes a − b + 2p, then subtracts 2p where possible).
PROOFLINE_IFMA_INLINE Fp8 sub(const Fp8& a, const Fp8& b) {
  Fp8 r;
  for (int j = 0; j < 8; ++j) r.l[j] = _mm512_add_epi64(_mm512_sub_epi64(a.l[j], b.l[j]), bc(kC52.p2[j]));
  normalise_signed(r.l);
  cond_sub(r.l, kC52.p2);
  return r;
}

/// Lanes in `neg`: p − a (a < p, so the result is in (0, p]); other lanes: a.
PROOFLINE_IFMA_INLINE Fp8 cond_neg(const Fp8& a, __mmask8 neg) {
  Fp8 r;
  for (int j = 0; j < 8; ++j) r.l[j] = _mm512_mask_sub_epi64(a.l[j], neg, bc(kC52.p[j]), a.l[j]);
  normalise_signed(r.l);
  return r;
}

/// Brings lazy values (< 2p) below p.
PROOFLINE_IFMA_INLINE Fp8 reduce_full(const Fp8& a) {
  Fp8 r = a;
  cond_sub(r.l, kC52.p);
  return r;
}

/// Radix 2^64 words (6 vectors, lane i = limb k of element i) → radix 2^52.
PROOFLINE_IFMA_INLINE Fp8 from_words(const __m512i (&w)[6]) {
  const __m512i M = bc(kMask52);
  Fp8 r;
  for (unsigned j = 0; j < 8; ++j) {
    const unsigned bit = 52 * j, k = bit / 64, off = bit % 64;
    __m512i v = shr(w[k], off);
    if (off + 52 > 64 && k + 1 < 6) v = _mm512_or_si512(v, shl(w[k + 1], 64 - off));
    r.l[j] = j == 7 ? v : _mm512_and_si512(v, M);
  }
  return r;
}

/// Radix 2^52 (normalised, value < 2^384) → radix 2^64 words.
PROOFLINE_IFMA_INLINE void to_words(const Fp8& a, __m512i (&w)[6]) {
  for (unsigned k = 0; k < 6; ++k) {
    const unsigned bit = 64 * k, j = bit / 52, off = bit % 52;
    __m512i v = shr(a.l[j], off);
    // Limbs j+1 (and j+2) contribute from bit 52 − off (and 104 − off) of the word.
    v = _mm512_or_si512(v, shl(a.l[j + 1], 52 - off));
    if (104 - off < 64 && j + 2 < 8) v = _mm512_or_si512(v, shl(a.l[j + 2], 104 - off));
    w[k] = v;
  }
}

/// Loads 8 Fp from addresses ptr[i] (lane i) by gathers.
PROOFLINE_IFMA_INLINE Fp8 gather(__m512i ptr, __m512i (&w)[6]) {
  for (int k = 0; k < 6; ++k)
    w[k] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xFF, _mm512_add_epi64(ptr, bc(8 * static_cast<u64>(k))),
                                        nullptr, 1);
  return from_words(w);
}

/// Stores the lanes in `mask` (fully reduced values) to addresses ptr[i].
PROOFLINE_IFMA_INLINE void scatter(__m512i ptr, __mmask8 mask, const Fp8& a) {
  __m512i w[6];
  to_words(a, w);
  for (int k = 0; k < 6; ++k)
    _mm512_mask_i64scatter_epi64(nullptr, mask, _mm512_add_epi64(ptr, bc(8 * static_cast<u64>(k))), w[k], 1);
}

/// Loads / stores 8 contiguous Fp (array of structures).
PROOFLINE_IFMA_INLINE Fp8 load(const Fp* src) {
  const __m512i idx = _mm512_set_epi64(42, 36, 30, 24, 18, 12, 6, 0);  // limb 0 of element i
  __m512i w[6];
  for (int k = 0; k < 6; ++k)
    w[k] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xFF, _mm512_add_epi64(idx, bc(static_cast<u64>(k))),
                                        src->limbs.data(), 8);
  return from_words(w);
}
PROOFLINE_IFMA_INLINE void store(Fp* dst, const Fp8& a) {
  const __m512i idx = _mm512_set_epi64(42, 36, 30, 24, 18, 12, 6, 0);  // limb 0 of element i
  __m512i w[6];
  to_words(a, w);
  for (int k = 0; k < 6; ++k)
    _mm512_i64scatter_epi64(dst->limbs.data(), _mm512_add_epi64(idx, bc(static_cast<u64>(k))), w[k], 8);
}


// ---- Fp2 = Fp[u]/(u² + 1), 8 lanes: (c0, c1) as two Fp8, same lazy bound (< 2p per coefficient).

struct Fp2x8 {
  Fp8 c0, c1;
};

/// (a0 + a1·u)(b0 + b1·u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·u: 3 multiplies.
PROOFLINE_IFMA_INLINE Fp2x8 mul(const Fp2x8& a, const Fp2x8& b) {
  const Fp8 v0 = mul(a.c0, b.c0), v1 = mul(a.c1, b.c1);
  const Fp8 s = mul(add(a.c0, a.c1), add(b.c0, b.c1));
  return {sub(v0, v1), sub(sub(s, v0), v1)};
}
/// (a0 + a1·u)² = (a0 + a1)(a0 − a1) + 2·a0·a1·u: 2 multiplies.
PROOFLINE_IFMA_INLINE Fp2x8 sqr(const Fp2x8& a) {
  const Fp8 t = mul(a.c0, a.c1);
  return {mul(add(a.c0, a.c1), sub(a.c0, a.c1)), add(t, t)};
}
PROOFLINE_IFMA_INLINE Fp2x8 add(const Fp2x8& a, const Fp2x8& b) { return {add(a.c0, b.c0), add(a.c1, b.c1)}; }
PROOFLINE_IFMA_INLINE Fp2x8 sub(const Fp2x8& a, const Fp2x8& b) { return {sub(a.c0, b.c0), sub(a.c1, b.c1)}; }
PROOFLINE_IFMA_INLINE Fp2x8 cond_neg(const Fp2x8& a, __mmask8 neg) { return {cond_neg(a.c0, neg), cond_neg(a.c1, neg)}; }
PROOFLINE_IFMA_INLINE Fp2x8 reduce_full(const Fp2x8& a) { return {reduce_full(a.c0), reduce_full(a.c1)}; }

}  // namespace ifma
#endif  // PROOFLINE_IFMA_BUILD

}  // namespace proofline::ff
