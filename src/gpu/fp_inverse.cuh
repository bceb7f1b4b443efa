// src/gpu/fp_inverse.cuh — one inversion in Fp of BLS12-381 by the binary extended Euclidean
// algorithm, over 12 little-endian 32-bit limbs, for one thread: the top of msm.cuh's batch inversion,
// where a single thread inverts one product per batch-affine step (msm_batch_affine.cuh, fp_inverse).
// Plain C++ (PROOFLINE_HD, no inline assembly), so the host test
// (tests/gpu_host/batch_affine_emulation_test.cpp) runs the very code the device runs.
//
// Why: Fermat's a^(p − 2) is ≈ 475 dependent products, and in one thread each takes ≈ 1.2 µs on an
// H100, so one inversion took 570 µs of every step (bench/RESULTS.md, 2026-12-07 evening, Nsight
// Compute). The binary algorithm needs ≈ 2·381 halvings and ≈ 381 subtractions of 12-limb numbers and
// one Montgomery product at the end.
// Invariants: x1·a ≡ u and x2·a ≡ v (mod p), from u = a, x1 = 1, v = p, x2 = 0; an even u (v) is halved
// with x1 (x2) halved mod p; the larger of u, v loses the smaller, x1 or x2 likewise; gcd(a, p) = 1
// brings one of u, v to 1, and its x is a^(−1).
// Variable time: the running time depends on the value (here a product of bucket-sum denominators,
// which the prover's own scalars determine — the same exposure as the MSM's data-dependent bucket
// order and run lengths).
#pragma once

#include <cstdint>

#include "field_params.cuh"
#include "host_device.cuh"

namespace proofline::gpu {
namespace fp_inv_detail {

constexpr int kN = FpParams32::N;  // 12

PROOFLINE_HD bool geq(const uint32_t* a, const uint32_t* b) {
  for (int i = kN - 1; i >= 0; --i)
    if (a[i] != b[i]) return a[i] > b[i];
  return true;
}
PROOFLINE_HD bool is_one(const uint32_t* a) {
  uint32_t rest = 0;
  for (int i = 1; i < kN; ++i) rest |= a[i];
  return a[0] == 1 && rest == 0;
}
PROOFLINE_HD bool is_zero(const uint32_t* a) {
  uint32_t acc = 0;
  for (int i = 0; i < kN; ++i) acc |= a[i];
  return acc == 0;
}
/// a −= b (mod 2^384); the borrow out.
PROOFLINE_HD uint32_t sub(uint32_t* a, const uint32_t* b) {
  uint32_t borrow = 0;
  for (int i = 0; i < kN; ++i) {
    const uint64_t d = (uint64_t)a[i] - b[i] - borrow;
    a[i] = (uint32_t)d;
    borrow = (uint32_t)(d >> 63);
  }
  return borrow;
}
/// a += b (mod 2^384); the carry out.
PROOFLINE_HD uint32_t add(uint32_t* a, const uint32_t* b) {
  uint32_t carry = 0;
  for (int i = 0; i < kN; ++i) {
    const uint64_t s = (uint64_t)a[i] + b[i] + carry;
    a[i] = (uint32_t)s;
    carry = (uint32_t)(s >> 32);
  }
  return carry;
}
/// a = (top·2^384 + a) / 2.
PROOFLINE_HD void shr1(uint32_t* a, uint32_t top) {
  for (int i = 0; i + 1 < kN; ++i) a[i] = (a[i] >> 1) | (a[i + 1] << 31);
  a[kN - 1] = (a[kN - 1] >> 1) | (top << 31);
}
/// x = x/2 mod p (x < p).
PROOFLINE_HD void half_mod(uint32_t* x, const uint32_t* p) {
  if (x[0] & 1) {
    const uint32_t carry = add(x, p);  // x + p < 2p < 2^382: no carry in fact
    shr1(x, carry);
  } else {
    shr1(x, 0);
  }
}
/// x = x − y mod p (x, y < p).
PROOFLINE_HD void sub_mod(uint32_t* x, const uint32_t* y, const uint32_t* p) {
  if (!geq(x, y)) add(x, p);  // x + p < 2^382
  sub(x, y);
}
/// out = a·b·2^(−384) mod p (CIOS Montgomery product; a, b < p), once per inversion.
PROOFLINE_HD void mont_mul(const uint32_t* a, const uint32_t* b, const uint32_t* p, uint32_t* out) {
  uint32_t t[kN + 2] = {};
  for (int i = 0; i < kN; ++i) {
    uint64_t c = 0;
    for (int j = 0; j < kN; ++j) {
      const uint64_t s = (uint64_t)t[j] + (uint64_t)a[j] * b[i] + c;
      t[j] = (uint32_t)s;
      c = s >> 32;
    }
    uint64_t s = (uint64_t)t[kN] + c;
    t[kN] = (uint32_t)s;
    t[kN + 1] = (uint32_t)(s >> 32);
    const uint32_t m = t[0] * FpParams32::INV;
    s = (uint64_t)t[0] + (uint64_t)m * p[0];
    c = s >> 32;
    for (int j = 1; j < kN; ++j) {
      s = (uint64_t)t[j] + (uint64_t)m * p[j] + c;
      t[j - 1] = (uint32_t)s;
      c = s >> 32;
    }
    s = (uint64_t)t[kN] + c;
    t[kN - 1] = (uint32_t)s;
    t[kN] = t[kN + 1] + (uint32_t)(s >> 32);
  }
  if (t[kN] != 0 || geq(t, p)) sub(t, p);  // t < 2p: one subtraction (its borrow cancels t[kN])
  for (int i = 0; i < kN; ++i) out[i] = t[i];
}
/// R^3 mod p (R = 2^384), little-endian: the Montgomery product of (a·R)^(−1) with it is a^(−1)·R.
/// Computed as pow(2^384, 3, p); the host test checks the whole inversion against ff::Fp::inverse.
PROOFLINE_HD_CONSTEXPR uint32_t r3_limb(int i) {
  constexpr uint32_t v[kN] = {0xd94ca1e0, 0xed48ac6b, 0x03a7adf8, 0x315f831e, 0x615e29dd, 0x9a53352a,
                              0x921e1761, 0x34c04e5e, 0x65724728, 0x2512d435, 0x91755d4d, 0x0aa63460};
  return v[i];
}

}  // namespace fp_inv_detail

/// out = a^(−1) in Montgomery form: the limbs of a·R (any representative below 2^384, reduced first)
/// in, those of a^(−1)·R out; 0 for a ≡ 0 (which has no inverse; the batch inversion never passes it,
/// and the loop would not end on it).
PROOFLINE_HD void fp_inverse_mont(const uint32_t* a_mont, uint32_t* out) {
  using namespace fp_inv_detail;
  uint32_t p[kN], u[kN], v[kN], x1[kN], x2[kN], r3[kN];
  for (int i = 0; i < kN; ++i) {
    p[i] = FpParams32::mod(i);
    u[i] = a_mont[i];
    v[i] = p[i];
    x1[i] = i == 0 ? 1u : 0u;
    x2[i] = 0;
    r3[i] = r3_limb(i);
  }
  while (geq(u, p)) sub(u, p);
  if (is_zero(u)) {
    for (int i = 0; i < kN; ++i) out[i] = 0;
    return;
  }
  while (!is_one(u) && !is_one(v)) {
    while ((u[0] & 1) == 0) {
      shr1(u, 0);
      half_mod(x1, p);
    }
    while ((v[0] & 1) == 0) {
      shr1(v, 0);
      half_mod(x2, p);
    }
    if (geq(u, v)) {
      sub(u, v);
      sub_mod(x1, x2, p);
    } else {
      sub(v, u);
      sub_mod(x2, x1, p);
    }
  }
  mont_mul(is_one(u) ? x1 : x2, r3, p, out);  // (a·R)^(−1)·R^3·R^(−1) = a^(−1)·R
}

}  // namespace proofline::gpu
