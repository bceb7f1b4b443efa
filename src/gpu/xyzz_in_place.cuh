// src/gpu/xyzz_in_place.cuh — the XYZZ formulas of ec.cuh (madd-2008-s, add-2008-s, dbl-2008-s-1)
// rescheduled so that every product is written into storage that already exists (the point's own
// coordinates or a few scratch values), for a field whose products are non-inlined calls through
// references (ff.cuh's DevFp2InPlace, the G2 "lean" MSM kernels of msm.cuh).
//
// Why: with the products behind calls, a kernel's registers hold what is live across a call. The
// formulas of ec.cuh written as expressions keep up to ten named temporaries (u1, u2, s1, s2, pd, rr,
// pp, ppp, qq, r) and a whole result point beside the input, and the compiler keeps many of them in
// registers across the calls; under a register bound (__launch_bounds__ with a minimum of blocks)
// they spill. Here a coordinate is overwritten as soon as the formula no longer reads it, and at most
// four scratch values exist (madd and add: t0..t3, dbl: t0..t2), so the live state is the point, the
// operand and the scratch — all in memory, passed by reference to the products.
//
// Same values: each coordinate is the same element of the field as in ec.cuh's formula (the same
// formula; field arithmetic is exact and every value is kept fully reduced, so the bits are the same
// whatever the order of the operations). tests/gpu_host/xyzz_in_place_test.cpp runs these very
// templates on the host field and compares every coordinate with ec::XyzzPoint's formulas.
//
// The special cases stay with the caller: a formula returns what it found, and the caller (ec.cuh,
// out of line: they are rare in an MSM) doubles or returns the identity. Identity inputs are the
// caller's as well (checked before the call).
//
// Ops: static mul(r, a, b) (r = a·b), sqr(r, a) (r = a^2) — r may alias an operand —, and the
// field's own +, −, dbl() and is_zero().
#pragma once

#include "host_device.cuh"

namespace proofline::gpu {

/// What a formula found: the sum is written (kDone), or P = Q (kDouble: the caller doubles) or
/// P = −Q (kIdentity), with the point left unchanged in both.
enum class XyzzCase { kDone, kDouble, kIdentity };

/// (x, y, zz, zzz) += (qx, qy) affine, madd-2008-s: U2 = X2·ZZ1, S2 = Y2·ZZZ1, P = U2 − X1,
/// R = S2 − Y1, PP = P^2, PPP = P·PP, Q = X1·PP, X3 = R^2 − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP,
/// ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP. Neither point the identity.
template <class Ops, class F>
PROOFLINE_HD XyzzCase madd_in_place(F& x, F& y, F& zz, F& zzz, const F& qx, const F& qy) {
  F t0, t1, t2, t3;
  Ops::mul(t0, qx, zz);  // U2
  t0 = t0 - x;           // P
  Ops::mul(t1, qy, zzz);  // S2
  t1 = t1 - y;            // R
  if (t0.is_zero()) return t1.is_zero() ? XyzzCase::kDouble : XyzzCase::kIdentity;
  Ops::sqr(t2, t0);       // PP
  Ops::mul(t3, t0, t2);   // PPP (P dead)
  Ops::mul(zz, zz, t2);   // ZZ3
  Ops::mul(zzz, zzz, t3);  // ZZZ3
  Ops::mul(t2, x, t2);    // Q (PP dead; X1 dead after)
  Ops::sqr(t0, t1);       // R^2
  x = t0 - t3 - t2.dbl();  // X3
  Ops::mul(t3, y, t3);    // Y1·PPP (Y1 dead)
  t2 = t2 - x;            // Q − X3
  Ops::mul(t2, t1, t2);   // R(Q − X3)
  y = t2 - t3;            // Y3
  return XyzzCase::kDone;
}

/// (x, y, zz, zzz) += (qx, qy, qzz, qzzz), add-2008-s: U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2,
/// S2 = Y2·ZZZ1, P = U2 − U1, R = S2 − S1, PP = P^2, PPP = P·PP, Q = U1·PP, X3 = R^2 − PPP − 2Q,
/// Y3 = R(Q − X3) − S1·PPP, ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP. Neither point the identity.
template <class Ops, class F>
PROOFLINE_HD XyzzCase add_in_place(F& x, F& y, F& zz, F& zzz, const F& qx, const F& qy, const F& qzz,
                                   const F& qzzz) {
  F t0, t1, t2, t3;
  Ops::mul(t0, x, qzz);   // U1
  Ops::mul(t1, qx, zz);   // U2
  t1 = t1 - t0;           // P
  Ops::mul(t2, y, qzzz);  // S1
  Ops::mul(t3, qy, zzz);  // S2
  t3 = t3 - t2;           // R
  if (t1.is_zero()) return t3.is_zero() ? XyzzCase::kDouble : XyzzCase::kIdentity;
  // from here X1 and Y1 are dead (read only through U1 and S1): x holds PP, then X3
  Ops::sqr(x, t1);          // PP
  Ops::mul(zz, zz, qzz);    // ZZ1·ZZ2
  Ops::mul(zz, zz, x);      // ZZ3
  Ops::mul(t1, t1, x);      // PPP (P dead)
  Ops::mul(zzz, zzz, qzzz);  // ZZZ1·ZZZ2
  Ops::mul(zzz, zzz, t1);   // ZZZ3
  Ops::mul(t0, t0, x);      // Q (U1, PP dead)
  Ops::mul(t2, t2, t1);     // S1·PPP
  Ops::sqr(x, t3);          // R^2
  x = x - t1 - t0.dbl();    // X3
  t0 = t0 - x;              // Q − X3
  Ops::mul(t0, t3, t0);     // R(Q − X3)
  y = t0 - t2;              // Y3
  return XyzzCase::kDone;
}

/// (x, y, zz, zzz) doubled, dbl-2008-s-1: U = 2Y, V = U^2, W = U·V, S = X·V, M = 3X^2,
/// X3 = M^2 − 2S, Y3 = M(S − X3) − W·Y, ZZ3 = V·ZZ, ZZZ3 = W·ZZZ. The identity stays the identity
/// (ZZ3 = 0), as in ec.cuh.
template <class Ops, class F>
PROOFLINE_HD void dbl_in_place(F& x, F& y, F& zz, F& zzz) {
  F t0, t1, t2;
  t0 = y.dbl();           // U
  Ops::sqr(t1, t0);       // V
  Ops::mul(t2, t0, t1);   // W (U dead)
  Ops::mul(t0, x, t1);    // S
  Ops::mul(zz, t1, zz);   // ZZ3 (V dead)
  Ops::mul(zzz, t2, zzz);  // ZZZ3
  Ops::sqr(t1, x);        // XX
  t1 = t1.dbl() + t1;     // M
  Ops::mul(t2, t2, y);    // W·Y (Y dead)
  Ops::sqr(x, t1);        // M^2
  x = x - t0.dbl();       // X3
  t0 = t0 - x;            // S − X3
  Ops::mul(t0, t1, t0);   // M(S − X3)
  y = t0 - t2;            // Y3
}

}  // namespace proofline::gpu
