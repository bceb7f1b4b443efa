// proofline/ec/curve.hpp — short Weierstrass curves y^2 = x^3 + b (a = 0), shared by G1 and G2.
//
// Owns the point forms and their group law, written once over a curve description `Cfg`:
//   AffinePoint<Cfg>    (x, y, infinity)          — storage, encodings (ZCash format), SRS bases
//   JacobianPoint<Cfg>  (X, Y, Z): x = X/Z^2, y = Y/Z^3, identity Z = 0 — general arithmetic
//   XyzzPoint<Cfg>      (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2, identity ZZ = 0
//                                                  — MSM buckets (cheap mixed addition)
// G1 (Fp, b = 4) and G2 (Fp2, b = 4(1 + u)) instantiate these in g1.hpp / g2.hpp, which also hold
// the curve-specific pieces (endomorphisms, subgroup checks, GLV/GLS scalar multiplication).
//
// A `Cfg` provides:
//   using Field;                 coordinate field (ff::Fp or ff::Fp2): + − * square dbl inverse sqrt,
//                                to_bytes_be / from_bytes_be (ZCash order), lexicographically_largest
//   kName                        "G1" / "G2" (for error messages)
//   kB                           the curve constant b (Montgomery form)
//   kGeneratorX, kGeneratorY     the standard generator (Montgomery form)
//   is_in_subgroup(JacobianPoint<Cfg>)  fast prime-order subgroup test (precondition: on curve)
//   mul_scalar(JacobianPoint<Cfg>, Fr)  [k]P for P in the prime-order subgroup
//
// Coordinates are held in Montgomery form (as ff/ holds them); every byte encoding is canonical
// big-endian (see AffinePoint's encoders). Arithmetic never throws and is variable-time (proving
// uses public or blinded data; nothing here is meant to resist timing side channels).
//
// Formulas (Explicit-Formulas Database, hyperelliptic.org/EFD/g1p/auto-shortw-*.html, a = 0):
//   Jacobian: dbl-2009-l (rearranged: 3M + 4S), add-1998-cmo-2 (12M + 4S), madd-2004-hmv (8M + 3S)
//             — the variants with the fewest field additions, which cost ~1/3 of a multiplication here
//   XYZZ:     dbl-2008-s-1 (6M + 3S), add-2008-s (12M + 2S), madd-2008-s (8M + 2S)
// The EFD formulas are incomplete; the special cases (identity operand, P + P, P + (−P)) are
// handled explicitly before/within each addition.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "proofline/ff/fr.hpp"
#include "proofline/util/error.hpp"

namespace proofline::ec {

using ff::u64;

/// The BLS12-381 curve parameter x = −0xd201000000010000 (negative; |x| has six bits set).
/// p = (x − 1)^2 (x^4 − x^2 + 1)/3 + x, r = x^4 − x^2 + 1 (draft-irtf-cfrg-pairing-friendly-curves
/// §4.2.1). Used by the subgroup checks, GLV/GLS splitting and (pairing/) the Miller loop.
inline constexpr u64 kBlsXAbs = 0xd201000000010000ULL;
inline constexpr bool kBlsXIsNegative = true;

/// What a point decoder verifies beyond the encoding itself.
enum class Check {
  Subgroup,     ///< on the curve and in the prime-order subgroup (the default; blstrs `from_*`)
  OnCurveOnly,  ///< on the curve only (blstrs `*_unchecked`); caller vouches for the subgroup
};

template <class Cfg>
struct AffinePoint;
template <class Cfg>
struct JacobianPoint;
template <class Cfg>
struct XyzzPoint;

namespace detail {

/// Big-endian hex ("0x" prefix optional, at most 16·N digits) → little-endian 64-bit limbs.
/// Compile-time helper for curve constants; a bad digit makes constant evaluation fail.
template <std::size_t N>
constexpr std::array<u64, N> limbs_from_hex(std::string_view s) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  std::array<u64, N> r{};
  std::size_t bit = 0;
  for (std::size_t i = s.size(); i-- > 0; bit += 4) {
    char c = s[i];
    u64 v = (c >= '0' && c <= '9')   ? u64(c - '0')
            : (c >= 'a' && c <= 'f') ? u64(c - 'a' + 10)
            : (c >= 'A' && c <= 'F') ? u64(c - 'A' + 10)
                                     : throw "limbs_from_hex: bad digit";
    if (bit / 64 >= N) throw "limbs_from_hex: too many digits";
    r[bit / 64] |= v << (bit % 64);
  }
  return r;
}

/// Canonical hex → field element in Montgomery form (compile time). Precondition: value < p.
template <class F>
constexpr F field_from_hex(std::string_view s) {
  return F::from_canonical_unchecked(limbs_from_hex<F::kLimbs>(s));
}

/// [k]P by left-to-right double-and-add over the bits of a 64-bit constant (for the sparse BLS
/// parameter |x| = 0xd201000000010000: 63 doublings, 5 additions). Valid for any point.
template <class P>
P mul_u64_binary(const P& p, u64 k) {
  P acc = P::identity();
  for (int b = 63; b >= 0; --b) {
    acc = acc.dbl();
    if ((k >> b) & 1) acc = acc + p;
  }
  return acc;
}

}  // namespace detail

// =================================================================================================
// Affine
// =================================================================================================

/// Affine point (x, y) in Montgomery form; `infinity == true` is the identity (x, y then ignored;
/// the canonical identity has them zero). An aggregate: `G1Affine{x, y, false}` builds a point.
template <class Cfg>
struct AffinePoint {
  using Field = typename Cfg::Field;
  using Projective = JacobianPoint<Cfg>;
  /// ZCash sizes: compressed = one coordinate, uncompressed = two (G1: 48 / 96, G2: 96 / 192).
  static constexpr std::size_t kCompressedBytes = Field::kBytes;
  static constexpr std::size_t kUncompressedBytes = 2 * Field::kBytes;

  Field x{}, y{};
  bool infinity = true;

  static constexpr AffinePoint identity() { return {}; }
  static constexpr AffinePoint generator() { return {Cfg::kGeneratorX, Cfg::kGeneratorY, false}; }

  constexpr bool is_identity() const { return infinity; }
  /// y^2 == x^3 + b (the identity counts as on the curve).
  bool is_on_curve() const { return infinity || y.square() == x.square() * x + Cfg::kB; }
  /// Prime-order subgroup membership (fast, endomorphism-based; see g1.hpp / g2.hpp).
  /// Precondition: on the curve.
  bool is_in_subgroup() const { return Cfg::is_in_subgroup(to_projective()); }

  constexpr Projective to_projective() const { return Projective::from_affine(*this); }

  constexpr AffinePoint operator-() const { return infinity ? *this : AffinePoint{x, -y, false}; }
  friend constexpr bool operator==(const AffinePoint& a, const AffinePoint& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return a.x == b.x && a.y == b.y;
  }

  /// [k]P for P in the prime-order subgroup (endomorphism-accelerated). See JacobianPoint::mul.
  Projective mul(const ff::Fr& k) const { return to_projective().mul(k); }

  /// The curve point with abscissa `x` whose y is (ZCash sign) lexicographically largest iff
  /// `y_largest`; false if x^3 + b is not a square (no such point). Does not check the subgroup.
  static bool lift_x(AffinePoint& out, const Field& x, bool y_largest);

  // ---- ZCash encodings (formats-and-circuits.md §1.1; the zcash/blst/blstrs format) -------------
  // Byte 0 carries three flags: C = 0x80 (compressed), I = 0x40 (infinity), S = 0x20 (sign of y:
  // set iff y is lexicographically largest; compressed non-identity only). Coordinates are
  // canonical big-endian; an Fp2 coordinate is c1 ‖ c0. Identity: 0xC0 ‖ 0… (compressed),
  // 0x40 ‖ 0… (uncompressed).

  /// x with flags C and S (kCompressedBytes bytes).
  void to_compressed(std::span<uint8_t, kCompressedBytes> out) const;
  std::array<uint8_t, kCompressedBytes> to_compressed() const {
    std::array<uint8_t, kCompressedBytes> a;
    to_compressed(a);
    return a;
  }
  /// x ‖ y, flag C clear (kUncompressedBytes bytes).
  void to_uncompressed(std::span<uint8_t, kUncompressedBytes> out) const;
  std::array<uint8_t, kUncompressedBytes> to_uncompressed() const {
    std::array<uint8_t, kUncompressedBytes> a;
    to_uncompressed(a);
    return a;
  }

  /// Decodes a compressed encoding. Returns Error::Ok and writes `out`, or (leaving `out`
  /// untouched), checked in this order:
  ///   CompressionMismatch  C flag clear;
  ///   InfinityNotZero      I flag with S set or any other bit/byte non-zero;
  ///   NotCanonical         a coordinate (flags cleared) >= p;
  ///   NotOnCurve           x^3 + b has no square root;
  ///   NotInSubgroup        not in the prime-order subgroup (only with Check::Subgroup).
  static Error from_compressed(AffinePoint& out, std::span<const uint8_t, kCompressedBytes> in,
                               Check check = Check::Subgroup);
  /// Throwing form: ProoflineError whose message names the curve, the form and the problem.
  static AffinePoint from_compressed(std::span<const uint8_t, kCompressedBytes> in,
                                     Check check = Check::Subgroup);

  /// Decodes an uncompressed encoding: CompressionMismatch (C set), SignFlagUncompressed (S set),
  /// InfinityNotZero, NotCanonical, NotOnCurve (y^2 != x^3 + b), NotInSubgroup — in that order.
  static Error from_uncompressed(AffinePoint& out, std::span<const uint8_t, kUncompressedBytes> in,
                                 Check check = Check::Subgroup);
  static AffinePoint from_uncompressed(std::span<const uint8_t, kUncompressedBytes> in,
                                       Check check = Check::Subgroup);

  /// Either form chosen by length (kCompressedBytes or kUncompressedBytes, else BadLength); a C
  /// flag that disagrees with the length gives CompressionMismatch.
  static Error from_bytes(AffinePoint& out, std::span<const uint8_t> in, Check check = Check::Subgroup);

  /// Lower-case hex of the compressed encoding (for messages and test output).
  std::string to_hex() const;
};

// =================================================================================================
// Jacobian
// =================================================================================================

/// Jacobian projective point: (x, y) = (X/Z^2, Y/Z^3); Z = 0 is the identity. Coordinates in
/// Montgomery form; representation not unique (compare with ==, which is projective-aware).
template <class Cfg>
struct JacobianPoint {
  using Field = typename Cfg::Field;
  using Affine = AffinePoint<Cfg>;

  Field x{}, y{Field::one()}, z{};

  static constexpr JacobianPoint identity() { return {}; }
  static constexpr JacobianPoint generator() { return from_affine(Affine::generator()); }
  static constexpr JacobianPoint from_affine(const Affine& p) {
    return p.infinity ? identity() : JacobianPoint{p.x, p.y, Field::one()};
  }

  constexpr bool is_identity() const { return z.is_zero(); }
  /// Y^2 == X^3 + b·Z^6 (identity counts as on the curve).
  bool is_on_curve() const {
    if (is_identity()) return true;
    Field z2 = z.square();
    Field z6 = z2.square() * z2;
    return y.square() == x.square() * x + Cfg::kB * z6;
  }
  /// Prime-order subgroup membership (fast, endomorphism-based). Precondition: on the curve.
  bool is_in_subgroup() const { return Cfg::is_in_subgroup(*this); }

  /// One inversion; identity → Affine{infinity}.
  Affine to_affine() const {
    if (is_identity()) return Affine::identity();
    Field zi = z.inverse();
    Field zi2 = zi.square();
    return {x * zi2, y * zi2 * zi, false};
  }

  constexpr JacobianPoint operator-() const { return {x, -y, z}; }

  /// 2P, dbl-2009-l rearranged: A = X^2, YY = Y^2, T = 2·YY, S = 2·X·T (= 4·X·YY), E = 3A,
  /// X3 = E^2 − 2S, Y3 = E(S − X3) − 2·T^2 (= 8·YY^2), Z3 = 2YZ. 3M + 4S and 10 additions:
  /// the same values as the EFD text (D = S, C = YY^2), with products replacing squares of sums
  /// because proofline's Fp multiplies as fast as it squares and its additions are not free.
  /// Identity maps to identity (Z3 = 0).
  JacobianPoint dbl() const {
    Field a = x.square();
    Field t = y.square().dbl();
    Field s = (x * t).dbl();
    Field e = a.dbl() + a;
    JacobianPoint r;
    r.x = e.square() - s.dbl();
    r.y = e * (s - r.x) - t.square().dbl();
    r.z = (y * z).dbl();
    return r;
  }

  /// P + Q, add-1998-cmo-2: Z1Z1 = Z1^2, Z2Z2 = Z2^2, U1 = X1·Z2Z2, U2 = X2·Z1Z1,
  /// S1 = Y1·Z2·Z2Z2, S2 = Y2·Z1·Z1Z1, H = U2 − U1, HH = H^2, HHH = H·HH, r = S2 − S1,
  /// V = U1·HH, X3 = r^2 − HHH − 2V, Y3 = r(V − X3) − S1·HHH, Z3 = Z1·Z2·H. 12M + 4S and
  /// 7 additions (add-2007-bl trades a multiplication for four additions, a loss here).
  /// H = 0 means equal x: P == Q (r = 0, double) or P == −Q (identity).
  friend JacobianPoint operator+(const JacobianPoint& p, const JacobianPoint& q) {
    if (p.is_identity()) return q;
    if (q.is_identity()) return p;
    Field z1z1 = p.z.square();
    Field z2z2 = q.z.square();
    Field u1 = p.x * z2z2;
    Field u2 = q.x * z1z1;
    Field s1 = p.y * q.z * z2z2;
    Field s2 = q.y * p.z * z1z1;
    Field h = u2 - u1;
    Field rr = s2 - s1;
    if (h.is_zero()) return rr.is_zero() ? p.dbl() : identity();
    Field hh = h.square();
    Field hhh = h * hh;
    Field v = u1 * hh;
    JacobianPoint r;
    r.x = rr.square() - hhh - v.dbl();
    r.y = rr * (v - r.x) - s1 * hhh;
    r.z = p.z * q.z * h;
    return r;
  }

  /// P + Q with Q affine (Z2 = 1), madd-2004-hmv: Z1Z1 = Z1^2, U2 = X2·Z1Z1, S2 = Y2·Z1·Z1Z1,
  /// H = U2 − X1, HH = H^2, HHH = H·HH, r = S2 − Y1, V = X1·HH, X3 = r^2 − HHH − 2V,
  /// Y3 = r(V − X3) − Y1·HHH, Z3 = Z1·H. 8M + 3S and 7 additions (madd-2007-bl's 7M + 4S
  /// needs 12 additions, slower with proofline's Fp).
  friend JacobianPoint operator+(const JacobianPoint& p, const Affine& q) {
    if (q.infinity) return p;
    if (p.is_identity()) return from_affine(q);
    Field z1z1 = p.z.square();
    Field u2 = q.x * z1z1;
    Field s2 = q.y * p.z * z1z1;
    Field h = u2 - p.x;
    Field rr = s2 - p.y;
    if (h.is_zero()) return rr.is_zero() ? p.dbl() : identity();
    Field hh = h.square();
    Field hhh = h * hh;
    Field v = p.x * hh;
    JacobianPoint r;
    r.x = rr.square() - hhh - v.dbl();
    r.y = rr * (v - r.x) - p.y * hhh;
    r.z = p.z * h;
    return r;
  }
  friend JacobianPoint operator+(const Affine& q, const JacobianPoint& p) { return p + q; }
  friend JacobianPoint operator-(const JacobianPoint& p, const JacobianPoint& q) { return p + (-q); }
  friend JacobianPoint operator-(const JacobianPoint& p, const Affine& q) { return p + (-q); }
  JacobianPoint& operator+=(const JacobianPoint& q) { return *this = *this + q; }
  JacobianPoint& operator+=(const Affine& q) { return *this = *this + q; }
  JacobianPoint& operator-=(const JacobianPoint& q) { return *this = *this - q; }
  JacobianPoint& operator-=(const Affine& q) { return *this = *this - q; }

  /// Same point: X1·Z2^2 == X2·Z1^2 and Y1·Z2^3 == Y2·Z1^3 (identities compared by Z = 0).
  friend bool operator==(const JacobianPoint& p, const JacobianPoint& q) {
    if (p.is_identity() || q.is_identity()) return p.is_identity() && q.is_identity();
    Field z1z1 = p.z.square();
    Field z2z2 = q.z.square();
    if (!(p.x * z2z2 == q.x * z1z1)) return false;
    return p.y * q.z * z2z2 == q.y * p.z * z1z1;
  }

  /// [k]P for P in the prime-order subgroup: GLV on G1 (two 128-bit halves), GLS on G2 (four
  /// 64-bit digits), each with signed-window (wNAF) Straus. k is any Fr (0 → identity).
  /// For a point outside the subgroup the result is not [k]P; use mul_limbs there.
  JacobianPoint mul(const ff::Fr& k) const { return Cfg::mul_scalar(*this, k); }
  /// [k]P for an arbitrary non-negative integer k (little-endian 64-bit limbs, any length; an
  /// empty span is 0), valid for every curve point, in or outside the subgroup (no
  /// endomorphism): width-5 wNAF, double-and-add. Used e.g. for the reference check [r]P == O.
  JacobianPoint mul_limbs(std::span<const u64> k) const;
  friend JacobianPoint operator*(const JacobianPoint& p, const ff::Fr& k) { return p.mul(k); }
  friend JacobianPoint operator*(const ff::Fr& k, const JacobianPoint& p) { return p.mul(k); }
};

// =================================================================================================
// XYZZ
// =================================================================================================

/// Extended Jacobian "XYZZ" point: (x, y) = (X/ZZ, Y/ZZZ) with ZZ^3 = ZZZ^2; ZZ = 0 is the
/// identity. Mixed addition costs 8M + 2S with no doubling-specific setup, which is why MSM
/// bucket accumulation uses this form.
template <class Cfg>
struct XyzzPoint {
  using Field = typename Cfg::Field;
  using Affine = AffinePoint<Cfg>;
  using Projective = JacobianPoint<Cfg>;

  Field x{}, y{Field::one()}, zz{}, zzz{};

  static constexpr XyzzPoint identity() { return {}; }
  static constexpr XyzzPoint generator() { return from_affine(Affine::generator()); }
  static constexpr XyzzPoint from_affine(const Affine& p) {
    return p.infinity ? identity() : XyzzPoint{p.x, p.y, Field::one(), Field::one()};
  }
  /// (X, Y, Z) ↦ (X, Y, Z^2, Z^3).
  static XyzzPoint from_projective(const Projective& p) {
    if (p.is_identity()) return identity();
    Field z2 = p.z.square();
    return {p.x, p.y, z2, z2 * p.z};
  }
  /// (X, Y, ZZ, ZZZ) ↦ (X·ZZ^2, Y·ZZZ^2, ZZZ): then X'/Z'^2 = X·ZZ^2/ZZZ^2 = X/ZZ (as ZZZ^2 = ZZ^3),
  /// Y'/Z'^3 = Y/ZZZ. 2M + 2S, no inversion.
  Projective to_projective() const {
    if (is_identity()) return Projective::identity();
    return {x * zz.square(), y * zzz.square(), zzz};
  }
  /// One inversion of ZZZ: t = 1/ZZZ, y = Y·t, x = X·(ZZ·t)^2 (since (ZZ/ZZZ)^2 = 1/ZZ).
  Affine to_affine() const {
    if (is_identity()) return Affine::identity();
    Field t = zzz.inverse();
    Field u = zz * t;
    return {x * u.square(), y * t, false};
  }

  constexpr bool is_identity() const { return zz.is_zero(); }
  /// ZZ^3 == ZZZ^2 and Y^2 == X^3 + b·ZZ^3.
  bool is_on_curve() const {
    if (is_identity()) return true;
    Field zz3 = zz.square() * zz;
    if (!(zz3 == zzz.square())) return false;
    return y.square() == x.square() * x + Cfg::kB * zz3;
  }
  bool is_in_subgroup() const { return to_projective().is_in_subgroup(); }

  constexpr XyzzPoint operator-() const { return {x, -y, zz, zzz}; }

  /// 2P, dbl-2008-s-1 (a = 0): U = 2Y, V = U^2, W = U·V, S = X·V, M = 3X^2, X3 = M^2 − 2S,
  /// Y3 = M(S − X3) − W·Y, ZZ3 = V·ZZ, ZZZ3 = W·ZZZ. Identity maps to identity.
  XyzzPoint dbl() const {
    Field u = y.dbl();
    Field v = u.square();
    Field w = u * v;
    Field s = x * v;
    Field xx = x.square();
    Field m = xx.dbl() + xx;
    XyzzPoint r;
    r.x = m.square() - s.dbl();
    r.y = m * (s - r.x) - w * y;
    r.zz = v * zz;
    r.zzz = w * zzz;
    return r;
  }
  /// 2Q for affine Q (mdbl-2008-s-1: ZZ = ZZZ = 1).
  static XyzzPoint dbl_affine(const Affine& q) {
    if (q.infinity) return identity();
    Field u = q.y.dbl();
    Field v = u.square();
    Field w = u * v;
    Field s = q.x * v;
    Field xx = q.x.square();
    Field m = xx.dbl() + xx;
    XyzzPoint r;
    r.x = m.square() - s.dbl();
    r.y = m * (s - r.x) - w * q.y;
    r.zz = v;
    r.zzz = w;
    return r;
  }

  /// P + Q, add-2008-s: U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1, P = U2 − U1,
  /// R = S2 − S1, PP = P^2, PPP = P·PP, Q = U1·PP, X3 = R^2 − PPP − 2Q, Y3 = R(Q − X3) − S1·PPP,
  /// ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP.
  friend XyzzPoint operator+(const XyzzPoint& p, const XyzzPoint& q) {
    if (p.is_identity()) return q;
    if (q.is_identity()) return p;
    Field u1 = p.x * q.zz;
    Field u2 = q.x * p.zz;
    Field s1 = p.y * q.zzz;
    Field s2 = q.y * p.zzz;
    Field pd = u2 - u1;
    Field rr = s2 - s1;
    if (pd.is_zero()) return rr.is_zero() ? p.dbl() : identity();
    Field pp = pd.square();
    Field ppp = pd * pp;
    Field qq = u1 * pp;
    XyzzPoint r;
    r.x = rr.square() - ppp - qq.dbl();
    r.y = rr * (qq - r.x) - s1 * ppp;
    r.zz = p.zz * q.zz * pp;
    r.zzz = p.zzz * q.zzz * ppp;
    return r;
  }
  /// P + Q with Q affine, madd-2008-s: U2 = X2·ZZ1, S2 = Y2·ZZZ1, P = U2 − X1, R = S2 − Y1,
  /// PP = P^2, PPP = P·PP, Q = X1·PP, X3 = R^2 − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP,
  /// ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP.
  friend XyzzPoint operator+(const XyzzPoint& p, const Affine& q) {
    if (q.infinity) return p;
    if (p.is_identity()) return from_affine(q);
    Field u2 = q.x * p.zz;
    Field s2 = q.y * p.zzz;
    Field pd = u2 - p.x;
    Field rr = s2 - p.y;
    if (pd.is_zero()) return rr.is_zero() ? dbl_affine(q) : identity();
    Field pp = pd.square();
    Field ppp = pd * pp;
    Field qq = p.x * pp;
    XyzzPoint r;
    r.x = rr.square() - ppp - qq.dbl();
    r.y = rr * (qq - r.x) - p.y * ppp;
    r.zz = p.zz * pp;
    r.zzz = p.zzz * ppp;
    return r;
  }
  friend XyzzPoint operator+(const Affine& q, const XyzzPoint& p) { return p + q; }
  friend XyzzPoint operator-(const XyzzPoint& p, const XyzzPoint& q) { return p + (-q); }
  friend XyzzPoint operator-(const XyzzPoint& p, const Affine& q) { return p + (-q); }
  XyzzPoint& operator+=(const XyzzPoint& q) { return *this = *this + q; }
  XyzzPoint& operator+=(const Affine& q) { return *this = *this + q; }
  XyzzPoint& operator-=(const XyzzPoint& q) { return *this = *this - q; }
  XyzzPoint& operator-=(const Affine& q) { return *this = *this - q; }

  /// Same point: X1·ZZ2 == X2·ZZ1 and Y1·ZZZ2 == Y2·ZZZ1.
  friend bool operator==(const XyzzPoint& p, const XyzzPoint& q) {
    if (p.is_identity() || q.is_identity()) return p.is_identity() && q.is_identity();
    return p.x * q.zz == q.x * p.zz && p.y * q.zzz == q.y * p.zzz;
  }
};

// ---- printing (gtest messages, logs): the affine point as its compressed ZCash hex -------------
template <class Cfg>
std::ostream& operator<<(std::ostream& os, const AffinePoint<Cfg>& p) {
  return os << Cfg::kName << "(" << p.to_hex() << ")";
}
template <class Cfg>
std::ostream& operator<<(std::ostream& os, const JacobianPoint<Cfg>& p) {
  return os << p.to_affine();
}
template <class Cfg>
std::ostream& operator<<(std::ostream& os, const XyzzPoint<Cfg>& p) {
  return os << p.to_affine();
}

namespace detail {
/// Montgomery's trick over the Z (Jacobian) or ZZZ (XYZZ) coordinates: one field inversion for
/// the whole batch. Identities (Z = 0) become Affine{infinity}. `scratch.size() >= in.size()`,
/// `out.size() >= in.size()`. Defined in src/ec/curve_impl.hpp, instantiated for G1/G2 in src/ec.
template <class Cfg>
void batch_to_affine(std::span<const JacobianPoint<Cfg>> in, std::span<AffinePoint<Cfg>> out,
                     std::span<typename Cfg::Field> scratch);
template <class Cfg>
void batch_to_affine(std::span<const XyzzPoint<Cfg>> in, std::span<AffinePoint<Cfg>> out,
                     std::span<typename Cfg::Field> scratch);

/// Decoder failure → ProoflineError with a sentence naming curve, form and problem
/// (src/ec/encoding.cpp).
[[noreturn]] void throw_decode_error(Error e, std::string_view curve, bool compressed,
                                     std::size_t length);
}  // namespace detail

}  // namespace proofline::ec
