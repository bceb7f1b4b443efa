// Test-only helpers for the pairing tests and the noble oracle dump: the BLS12-381 generators
// (public constants: draft-irtf-cfrg-pairing-friendly-curves §4.2.1, ZCash BLS12-381 spec) and a
// plain Jacobian double-and-add, so these tests do not depend on the ec layer. Correctness of the
// constants is itself tested (on the curve, order r) in pairing_test.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fr.hpp"

namespace proofline::pairing_test {

using ff::Fp;
using ff::Fp2;
using ff::u64;

/// Parses a 96-hex-digit big-endian canonical Fp constant (no 0x prefix).
inline Fp fp_hex(std::string_view h) {
  std::array<u64, 6> c{};
  for (char ch : h) {
    const u64 d = ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10;
    for (int i = 5; i > 0; --i) c[i] = (c[i] << 4) | (c[i - 1] >> 60);
    c[0] = (c[0] << 4) | d;
  }
  return Fp::from_canonical_unchecked(c);
}

inline ec::G1Affine g1_generator() {
  ec::G1Affine g;
  g.x = fp_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  g.y = fp_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
  g.infinity = false;
  return g;
}

inline ec::G2Affine g2_generator() {
  ec::G2Affine g;
  g.x = {fp_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
         fp_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")};
  g.y = {fp_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
         fp_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")};
  g.infinity = false;
  return g;
}

/// Jacobian point over F (Fp or Fp2) on y^2 = x^3 + b; Z = 0 is the identity.
template <class F>
struct Jac {
  F X, Y, Z;
};

template <class F>
Jac<F> jac_double(const Jac<F>& p) {
  if (p.Z.is_zero()) return p;
  // dbl-2009-l (a = 0)
  const F a = p.X.square(), b = p.Y.square(), c = b.square();
  const F d = ((p.X + b).square() - a - c).dbl();
  const F e = a.dbl() + a, f = e.square();
  const F x3 = f - d.dbl();
  const F y3 = e * (d - x3) - c.dbl().dbl().dbl();
  return {x3, y3, (p.Y * p.Z).dbl()};
}

template <class F>
Jac<F> jac_add(const Jac<F>& p, const Jac<F>& q) {
  if (p.Z.is_zero()) return q;
  if (q.Z.is_zero()) return p;
  // add-2007-bl without the doubling shortcuts
  const F z1z1 = p.Z.square(), z2z2 = q.Z.square();
  const F u1 = p.X * z2z2, u2 = q.X * z1z1;
  const F s1 = p.Y * q.Z * z2z2, s2 = q.Y * p.Z * z1z1;
  const F h = u2 - u1, r = s2 - s1;
  if (h.is_zero()) {
    if (r.is_zero()) return jac_double(p);
    return {F::one(), F::one(), F::zero()};
  }
  const F hh = h.square(), hhh = h * hh, v = u1 * hh;
  const F x3 = r.square() - hhh - v.dbl();
  const F y3 = r * (v - x3) - s1 * hhh;
  return {x3, y3, p.Z * q.Z * h};
}

/// [k]P by left-to-right double-and-add, k as little-endian 64-bit limbs.
template <class Affine, class F, std::size_t N>
Affine scalar_mul(const Affine& p, const std::array<u64, N>& k) {
  Jac<F> acc{F::one(), F::one(), F::zero()};
  if (p.infinity) return p;
  const Jac<F> base{p.x, p.y, F::one()};
  for (std::size_t i = N; i-- > 0;) {
    for (int b = 63; b >= 0; --b) {
      acc = jac_double(acc);
      if ((k[i] >> b) & 1) acc = jac_add(acc, base);
    }
  }
  Affine out;
  if (acc.Z.is_zero()) return out;  // infinity
  const F zi = acc.Z.inverse(), zi2 = zi.square();
  out.x = acc.X * zi2;
  out.y = acc.Y * zi2 * zi;
  out.infinity = false;
  return out;
}

inline ec::G1Affine g1_mul(const ec::G1Affine& p, const ff::Fr& k) {
  return scalar_mul<ec::G1Affine, Fp>(p, k.to_canonical());
}
inline ec::G2Affine g2_mul(const ec::G2Affine& p, const ff::Fr& k) {
  return scalar_mul<ec::G2Affine, Fp2>(p, k.to_canonical());
}
template <std::size_t N>
ec::G1Affine g1_mul(const ec::G1Affine& p, const std::array<u64, N>& k) {
  return scalar_mul<ec::G1Affine, Fp>(p, k);
}
template <std::size_t N>
ec::G2Affine g2_mul(const ec::G2Affine& p, const std::array<u64, N>& k) {
  return scalar_mul<ec::G2Affine, Fp2>(p, k);
}

}  // namespace proofline::pairing_test
