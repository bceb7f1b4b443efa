// src/gpu/field_params.cuh — the constants of the device fields (ff.cuh): BLS12-381's r and p as N
// little-endian 32-bit limbs, R mod m (R = 2^(32N)) and −m^{-1} mod 2^32. Includable by a host
// compiler (tests/gpu_host runs the device Montgomery product's algorithm, mont_mul.cuh, with them);
// src/gpu/ff_check.cu checks them against the host ff layer by static_assert.
#pragma once

#include <cstdint>

#include "host_device.cuh"

namespace proofline::gpu {

struct FrParams32 {
  static constexpr int N = 8;
  // r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
  static PROOFLINE_HD_CONSTEXPR uint32_t mod(int i) {
    constexpr uint32_t v[N] = {0x00000001, 0xffffffff, 0xfffe5bfe, 0x53bda402,
                                      0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753};
    return v[i];
  }
  // R mod r, R = 2^256
  static PROOFLINE_HD_CONSTEXPR uint32_t one_limb(int i) {
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
  static PROOFLINE_HD_CONSTEXPR uint32_t mod(int i) {
    constexpr uint32_t v[N] = {0xffffaaab, 0xb9feffff, 0xb153ffff, 0x1eabfffe,
                                      0xf6b0f624, 0x6730d2a0, 0xf38512bf, 0x64774b84,
                                      0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea};
    return v[i];
  }
  // R mod p, R = 2^384
  static PROOFLINE_HD_CONSTEXPR uint32_t one_limb(int i) {
    constexpr uint32_t v[N] = {0x0002fffd, 0x76090000, 0xc40c0002, 0xebf4000b,
                                      0x53c758ba, 0x5f489857, 0x70525745, 0x77ce5853,
                                      0xa256ec6d, 0x5c071a97, 0xfa80e493, 0x15f65ec3};
    return v[i];
  }
  static constexpr uint32_t INV = 0xfffcfffd;  // −p^{-1} mod 2^32
  /// operator* calls one non-inlined copy per kernel (see DevField::mul_outlined).
  static constexpr bool kOutlineMul = true;
};

/// FpParams32 for msm.cuh's "lean" G1 bucket kernels (ff.cuh's DevFpInPlace, PROOFLINE_G1_KERNELS):
/// the same field; kInPlace: products by reference (DevField::mul_ref / square_ref) under the in-place
/// XYZZ formulas; kMinBlocks: the kernels' __launch_bounds__ minimum of blocks per SM. A type of its
/// own per bound, so that the non-inlined products are compiled once per bound.
template <int kBlocks>
struct FpInPlaceParams32 : FpParams32 {
  static constexpr bool kInPlace = true;
  static constexpr int kMinBlocks = kBlocks;
};

}  // namespace proofline::gpu
