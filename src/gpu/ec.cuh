// src/gpu/ec.cuh — BLS12-381 G1/G2 points on the device: affine and XYZZ, templated over the
// coordinate field (DevFp for G1, DevFp2 for G2). Both curves have a = 0, so the formulas below
// need no curve constant.
//
// Layouts (explicit, no padding, no flag byte):
//   DevAffine<F> = { F x, y }         G1: 96 bytes, G2: 192 bytes. (0, 0) is the identity: it is
//                                      not on either curve (0 != b), so it cannot collide with a
//                                      real point. The host ec::AffinePoint carries a bool
//                                      `infinity` and padding (104 / 200 bytes), so bases are
//                                      converted on upload (see msm.cuh, convert_affine_kernel).
//   DevXyzz<F>   = { F x, y, zz, zzz } the same field order as the host ec::XyzzPoint, so a device
//                                      XYZZ array copies bit for bit into host XyzzPoint values.
//                                      ZZ = 0 is the identity (an all-zero struct is the identity).
// Coordinates are Montgomery form, fully reduced, exactly as on the host.
//
// Formulas (EFD, "g1p/xyzz", a = 0), the same as the host ec layer so results agree bit for bit
// in affine form:
//   madd-2008-s   XYZZ += affine   8M + 2S
//   add-2008-s    XYZZ += XYZZ    12M + 2S
//   dbl-2008-s-1  2·XYZZ           6M + 3S (incl. W·Y)
//   mdbl-2008-s-1 2·affine → XYZZ
// Special cases are branches (rare in MSM: equal x only for P = ±Q).
//
// A field with kInPlace set (ff.cuh's DevFp2InPlace) runs +=, and dbl_assign() through the in-place
// schedule of the same formulas (xyzz_in_place.cuh: fewer live values across its non-inlined
// products), with the special cases out of line; + and dbl() stay the expressions below.
#pragma once

#include "ff.cuh"
#include "xyzz_in_place.cuh"

namespace proofline::gpu {

/// Whether DevXyzz<F>'s += and dbl_assign() take the in-place formulas (F::kInPlace, ff.cuh).
template <class F>
constexpr bool kXyzzInPlace = [] {
  if constexpr (requires { F::kInPlace; }) return F::kInPlace;
  else return false;
}();

/// xyzz_in_place.cuh's Ops over a field with by-reference products (ff.cuh's mul_ref / square_ref).
template <class F>
struct RefProductOps {
  __device__ __forceinline__ static void mul(F& r, const F& a, const F& b) { F::mul_ref(r, a, b); }
  __device__ __forceinline__ static void sqr(F& r, const F& a) { F::square_ref(r, a); }
};

template <class F>
struct DevAffine {
  F x, y;

  __host__ __device__ static DevAffine identity() { return {F::zero(), F::zero()}; }
  __device__ bool is_identity() const { return x.is_zero() && y.is_zero(); }
  __device__ DevAffine operator-() const { return {x, -y}; }
};

template <class F>
struct DevXyzz {
  F x, y, zz, zzz;

  __host__ __device__ static DevXyzz identity() { return {F::zero(), F::one(), F::zero(), F::zero()}; }
  __device__ bool is_identity() const { return zz.is_zero(); }
  __device__ static DevXyzz from_affine(const DevAffine<F>& q) {
    if (q.is_identity()) return identity();
    return {q.x, q.y, F::one(), F::one()};
  }
  __device__ DevXyzz operator-() const { return {x, -y, zz, zzz}; }

  /// 2P, dbl-2008-s-1: U = 2Y, V = U^2, W = U·V, S = X·V, M = 3X^2, X3 = M^2 − 2S,
  /// Y3 = M(S − X3) − W·Y, ZZ3 = V·ZZ, ZZZ3 = W·ZZZ. Identity maps to identity (ZZ3 = 0).
  __device__ DevXyzz dbl() const {
    F u = y.dbl();
    F v = u.sqr();
    F w = u * v;
    F s = x * v;
    F xx = x.sqr();
    F m = xx.dbl() + xx;
    DevXyzz r;
    r.x = m.sqr() - s.dbl();
    r.y = m * (s - r.x) - w * y;
    r.zz = v * zz;
    r.zzz = w * zzz;
    return r;
  }

  /// 2Q for affine Q (mdbl-2008-s-1).
  __device__ static DevXyzz dbl_affine(const DevAffine<F>& q) {
    if (q.is_identity()) return identity();
    F u = q.y.dbl();
    F v = u.sqr();
    F w = u * v;
    F s = q.x * v;
    F xx = q.x.sqr();
    F m = xx.dbl() + xx;
    DevXyzz r;
    r.x = m.sqr() - s.dbl();
    r.y = m * (s - r.x) - w * q.y;
    r.zz = v;
    r.zzz = w;
    return r;
  }

  /// P + Q, add-2008-s: U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1, P = U2 − U1,
  /// R = S2 − S1, PP = P^2, PPP = P·PP, Q = U1·PP, X3 = R^2 − PPP − 2Q, Y3 = R(Q − X3) − S1·PPP,
  /// ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP.
  __device__ friend DevXyzz operator+(const DevXyzz& p, const DevXyzz& q) {
    if (p.is_identity()) return q;
    if (q.is_identity()) return p;
    F u1 = p.x * q.zz;
    F u2 = q.x * p.zz;
    F s1 = p.y * q.zzz;
    F s2 = q.y * p.zzz;
    F pd = u2 - u1;
    F rr = s2 - s1;
    if (pd.is_zero()) return rr.is_zero() ? p.dbl() : identity();
    F pp = pd.sqr();
    F ppp = pd * pp;
    F qq = u1 * pp;
    DevXyzz r;
    r.x = rr.sqr() - ppp - qq.dbl();
    r.y = rr * (qq - r.x) - s1 * ppp;
    r.zz = p.zz * q.zz * pp;
    r.zzz = p.zzz * q.zzz * ppp;
    return r;
  }

  /// P + Q with Q affine, madd-2008-s: U2 = X2·ZZ1, S2 = Y2·ZZZ1, P = U2 − X1, R = S2 − Y1,
  /// PP = P^2, PPP = P·PP, Q = X1·PP, X3 = R^2 − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP,
  /// ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP.
  __device__ friend DevXyzz operator+(const DevXyzz& p, const DevAffine<F>& q) {
    if (q.is_identity()) return p;
    if (p.is_identity()) return from_affine(q);
    F u2 = q.x * p.zz;
    F s2 = q.y * p.zzz;
    F pd = u2 - p.x;
    F rr = s2 - p.y;
    if (pd.is_zero()) return rr.is_zero() ? dbl_affine(q) : identity();
    F pp = pd.sqr();
    F ppp = pd * pp;
    F qq = p.x * pp;
    DevXyzz r;
    r.x = rr.sqr() - ppp - qq.dbl();
    r.y = rr * (qq - r.x) - p.y * ppp;
    r.zz = p.zz * pp;
    r.zzz = p.zzz * ppp;
    return r;
  }
  /// *this += q (q is not *this). In-place fields: add_in_place / madd_in_place on the
  /// coordinates, the identities and P = ±Q handled here, the last out of line.
  __device__ DevXyzz& operator+=(const DevXyzz& q) {
    if constexpr (kXyzzInPlace<F>) {
      if (q.is_identity()) return *this;
      if (is_identity()) return *this = q;
      const XyzzCase c = add_in_place<RefProductOps<F>>(x, y, zz, zzz, q.x, q.y, q.zz, q.zzz);
      if (c != XyzzCase::kDone) settle(c);
      return *this;
    } else {
      return *this = *this + q;
    }
  }
  __device__ DevXyzz& operator+=(const DevAffine<F>& q) {
    if constexpr (kXyzzInPlace<F>) {
      if (q.is_identity()) return *this;
      if (is_identity()) return *this = from_affine(q);
      const XyzzCase c = madd_in_place<RefProductOps<F>>(x, y, zz, zzz, q.x, q.y);
      if (c != XyzzCase::kDone) settle_affine(c, q);
      return *this;
    } else {
      return *this = *this + q;
    }
  }
  /// *this = 2·*this (in-place fields: dbl_in_place).
  __device__ void dbl_assign() {
    if constexpr (kXyzzInPlace<F>) dbl_in_place<RefProductOps<F>>(x, y, zz, zzz);
    else *this = dbl();
  }

 private:
  /// P = ±Q found by add_in_place (the point unchanged): 2P, or the identity. Out of line: rare,
  /// and inlined it would add a doubling's registers to every caller.
  __device__ __noinline__ void settle(XyzzCase c) {
    if (c == XyzzCase::kDouble) dbl_in_place<RefProductOps<F>>(x, y, zz, zzz);
    else *this = identity();
  }
  /// The same for madd_in_place: 2Q, or the identity. 2Q as dbl_in_place of Q with ZZ = ZZZ = 1:
  /// mdbl-2008-s-1 is that formula with the products by 1 left out (V·1 = V, W·1 = W exactly), so
  /// the same coordinates as dbl_affine, without its temporaries.
  __device__ __noinline__ void settle_affine(XyzzCase c, const DevAffine<F>& q) {
    if (c == XyzzCase::kDouble) {
      *this = from_affine(q);
      dbl_in_place<RefProductOps<F>>(x, y, zz, zzz);
    } else {
      *this = identity();
    }
  }
};

using DevG1Affine = DevAffine<DevFp>;
using DevG2Affine = DevAffine<DevFp2>;
using DevG1Xyzz = DevXyzz<DevFp>;
using DevG2Xyzz = DevXyzz<DevFp2>;
static_assert(sizeof(DevG1Affine) == 96 && sizeof(DevG2Affine) == 192, "packed affine layout");
static_assert(sizeof(DevG1Xyzz) == 192 && sizeof(DevG2Xyzz) == 384, "XYZZ layout");

}  // namespace proofline::gpu
