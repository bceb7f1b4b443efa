// src/gpu/ff.cuh — BLS12-381 Fr and Fp on the device: Montgomery form over 32-bit limbs with PTX
// carry chains (add.cc/addc, mad.lo.cc/madc.hi.cc).
//
// Representation: N little-endian 32-bit limbs of a·R mod m with R = 2^(32N) — the same R as the
// host layer (Fr: 2^256 over 4×64-bit limbs, Fp: 2^384 over 6×64-bit limbs), so a host Fr/Fp array
// is bit-for-bit a device array (limb 2k = low half of host limb k). No conversion on upload.
// Every value is kept fully reduced (< m).
//
// Multiplication: CIOS (Koç–Acar–Kaliski) with separate lo and hi product chains per 32-bit word;
// the modulus and −m^{-1} mod 2^32 are compile-time immediates (all loops fully unrolled).
// The same constants are checked against the host ff layer by static_assert in ff_check.cu.
#pragma once

#include <cstdint>

namespace proofline::gpu {

struct FrParams32 {
  static constexpr int N = 8;
  // r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
  __host__ __device__ static constexpr uint32_t mod(int i) {
    constexpr uint32_t v[N] = {0x00000001, 0xffffffff, 0xfffe5bfe, 0x53bda402,
                                      0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753};
    return v[i];
  }
  // R mod r, R = 2^256
  __host__ __device__ static constexpr uint32_t one_limb(int i) {
    constexpr uint32_t v[N] = {0xfffffffe, 0x00000001, 0x00034802, 0x5884b7fa,
                                      0xecbc4ff5, 0x998c4fef, 0xacc5056f, 0x1824b159};
    return v[i];
  }
  static constexpr uint32_t INV = 0xffffffff;  // −r^{-1} mod 2^32
  static constexpr bool kOutlineMul = false;    // inlined: the NTT kernels are small
};

struct FpParams32 {
  static constexpr int N = 12;
  // p = 0x1a0111ea…ffffaaab
  __host__ __device__ static constexpr uint32_t mod(int i) {
    constexpr uint32_t v[N] = {0xffffaaab, 0xb9feffff, 0xb153ffff, 0x1eabfffe,
                                      0xf6b0f624, 0x6730d2a0, 0xf38512bf, 0x64774b84,
                                      0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea};
    return v[i];
  }
  // R mod p, R = 2^384
  __host__ __device__ static constexpr uint32_t one_limb(int i) {
    constexpr uint32_t v[N] = {0x0002fffd, 0x76090000, 0xc40c0002, 0xebf4000b,
                                      0x53c758ba, 0x5f489857, 0x70525745, 0x77ce5853,
                                      0xa256ec6d, 0x5c071a97, 0xfa80e493, 0x15f65ec3};
    return v[i];
  }
  static constexpr uint32_t INV = 0xfffcfffd;  // −p^{-1} mod 2^32
  /// operator* calls one non-inlined copy per kernel (see DevField::mul_outlined).
  static constexpr bool kOutlineMul = true;
};

template <class P>
struct DevField {
  static constexpr int N = P::N;
  uint32_t v[N];

  __host__ __device__ static DevField zero() {
    DevField r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = 0;
    return r;
  }
  __host__ __device__ static DevField one() {
    DevField r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = P::one_limb(i);
    return r;
  }
  __device__ bool is_zero() const {
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= v[i];
    return acc == 0;
  }
  __device__ bool is_one() const {
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= v[i] ^ P::one_limb(i);
    return acc == 0;
  }
  __device__ friend bool operator==(const DevField& a, const DevField& b) {
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= a.v[i] ^ b.v[i];
    return acc == 0;
  }
  __device__ friend bool operator!=(const DevField& a, const DevField& b) { return !(a == b); }

  /// r = x − m if x >= m else x, for x < 2m held in N limbs (m < 2^(32N−1)).
  __device__ static void reduce_once(uint32_t* x) {
    uint32_t t[N];
    uint32_t borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(t[0]) : "r"(x[0]), "r"(P::mod(0)));
#pragma unroll
    for (int i = 1; i < N; ++i) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(t[i]) : "r"(x[i]), "r"(P::mod(i)));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));  // 0xffffffff if x < m
#pragma unroll
    for (int i = 0; i < N; ++i) x[i] = borrow ? x[i] : t[i];
  }

  __device__ friend DevField operator+(const DevField& a, const DevField& b) {
    DevField r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r.v[0]) : "r"(a.v[0]), "r"(b.v[0]));
#pragma unroll
    for (int i = 1; i < N; ++i) asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r.v[i]) : "r"(a.v[i]), "r"(b.v[i]));
    reduce_once(r.v);
    return r;
  }
  __device__ friend DevField operator-(const DevField& a, const DevField& b) {
    DevField r;
    uint32_t borrow;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r.v[0]) : "r"(a.v[0]), "r"(b.v[0]));
#pragma unroll
    for (int i = 1; i < N; ++i) asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r.v[i]) : "r"(a.v[i]), "r"(b.v[i]));
    asm volatile("subc.u32 %0, 0, 0;" : "=r"(borrow));
    // add m back if a < b (m & borrow-mask)
    asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(r.v[0]) : "r"(P::mod(0) & borrow));
#pragma unroll
    for (int i = 1; i < N; ++i) asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(r.v[i]) : "r"(P::mod(i) & borrow));
    return r;
  }
  __device__ DevField operator-() const { return zero() - *this; }
  __device__ DevField dbl() const { return *this + *this; }

  /// Montgomery product a·b·R^{-1} mod m; inlined when P::kOutlineMul is false, else one shared
  /// non-inlined copy (mul_outlined): the G1 bucket kernels inline ~10 Fp products per point
  /// addition, and Nsight Compute on the H200 put 30 % of their stall cycles on instruction fetch.
  __device__ friend DevField operator*(const DevField& a, const DevField& b) {
    if constexpr (P::kOutlineMul) {
      return mul_outlined(a, b);
    } else {
      return mul_inline(a, b);
    }
  }
  __device__ __noinline__ static DevField mul_outlined(const DevField a, const DevField b) { return mul_inline(a, b); }

  /// Montgomery product a·b·R^{-1} mod m (CIOS over 32-bit words), always inlined.
  __device__ __forceinline__ static DevField mul_inline(const DevField& a, const DevField& b) {
    uint32_t t[N + 2];
#pragma unroll
    for (int i = 0; i < N + 2; ++i) t[i] = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const uint32_t bi = b.v[i];
      // t += a * b[i]: low halves into t[0..N-1] (carry into t[N]), high halves into t[1..N].
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(a.v[0]), "r"(bi));
#pragma unroll
      for (int j = 1; j < N; ++j) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(a.v[j]), "r"(bi));
      asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[N]));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[N + 1]));
      asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(a.v[0]), "r"(bi));
#pragma unroll
      for (int j = 1; j < N; ++j) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(a.v[j]), "r"(bi));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[N + 1]));
      // m = t0 · (−m^{-1}); t += m · modulus; t >>= 32
      const uint32_t m = t[0] * P::INV;
      asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[0]) : "r"(m), "r"(P::mod(0)));
#pragma unroll
      for (int j = 1; j < N; ++j) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(t[j]) : "r"(m), "r"(P::mod(j)));
      asm volatile("addc.cc.u32 %0, %0, 0;" : "+r"(t[N]));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[N + 1]));
      asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[1]) : "r"(m), "r"(P::mod(0)));
#pragma unroll
      for (int j = 1; j < N; ++j) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(t[j + 1]) : "r"(m), "r"(P::mod(j)));
      asm volatile("addc.u32 %0, %0, 0;" : "+r"(t[N + 1]));
#pragma unroll
      for (int j = 0; j < N + 1; ++j) t[j] = t[j + 1];
      t[N + 1] = 0;
    }
    DevField r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = t[i];
    reduce_once(r.v);
    return r;
  }
  __device__ DevField& operator+=(const DevField& b) { return *this = *this + b; }
  __device__ DevField& operator-=(const DevField& b) { return *this = *this - b; }
  __device__ DevField& operator*=(const DevField& b) { return *this = *this * b; }
  __device__ DevField sqr() const { return *this * *this; }

  /// this^e for a 64-bit exponent (square-and-multiply, MSB first).
  __device__ DevField pow(uint64_t e) const {
    DevField r = one();
    for (int b = 63; b >= 0; --b) {
      r = r.sqr();
      if ((e >> b) & 1) r = r * *this;
    }
    return r;
  }
};

using DevFr = DevField<FrParams32>;
using DevFp = DevField<FpParams32>;
static_assert(sizeof(DevFr) == 32 && sizeof(DevFp) == 48, "device fields mirror host layout");

/// Fp2 = Fp[u]/(u^2 + 1) on the device (c0 + c1·u), same layout as the host ff::Fp2.
struct DevFp2 {
  DevFp c0, c1;
  __host__ __device__ static DevFp2 zero() { return {DevFp::zero(), DevFp::zero()}; }
  __host__ __device__ static DevFp2 one() { return {DevFp::one(), DevFp::zero()}; }
  __device__ bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  __device__ friend bool operator==(const DevFp2& a, const DevFp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  __device__ friend DevFp2 operator+(const DevFp2& a, const DevFp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  __device__ friend DevFp2 operator-(const DevFp2& a, const DevFp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  __device__ DevFp2 operator-() const { return {-c0, -c1}; }
  __device__ DevFp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  /// Karatsuba, 3 Fp multiplications. Not inlined: one copy of the ~2000-instruction body per
  /// kernel instead of one per call site. Inlined, the G2 bucket accumulation kernel spent 66 % of
  /// its stall cycles waiting for instruction fetch (Nsight Compute on the H200, bench/RESULTS.md).
  /// The Fp products inside are inlined (DevFp::mul_inline): one call per Fp2 product.
  __device__ __noinline__ static DevFp2 mul(const DevFp2 a, const DevFp2 b) {
    DevFp t0 = DevFp::mul_inline(a.c0, b.c0), t1 = DevFp::mul_inline(a.c1, b.c1);
    DevFp t2 = DevFp::mul_inline(a.c0 + a.c1, b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }
  __device__ __noinline__ static DevFp2 square(const DevFp2 x) {
    DevFp a = x.c0 + x.c1, b = x.c0 - x.c1, c = DevFp::mul_inline(x.c0, x.c1);
    return {DevFp::mul_inline(a, b), c.dbl()};
  }
  __device__ friend DevFp2 operator*(const DevFp2& a, const DevFp2& b) { return mul(a, b); }
  __device__ DevFp2 sqr() const { return square(*this); }
  __device__ DevFp2& operator+=(const DevFp2& b) { return *this = *this + b; }
  __device__ DevFp2& operator-=(const DevFp2& b) { return *this = *this - b; }
  __device__ DevFp2& operator*=(const DevFp2& b) { return *this = *this * b; }
};
static_assert(sizeof(DevFp2) == 96, "device Fp2 mirrors host layout");

}  // namespace proofline::gpu
