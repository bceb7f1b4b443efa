// proofline/ff/fp2.hpp — Fp2 = Fp[u] / (u^2 + 1), the field of G2 coordinates.
//
// An element is c0 + c1·u with c0, c1 in Fp (Montgomery form). ZCash encoding of an Fp2 (inside
// G2 points): c1 first, then c0, each 48 bytes big-endian (`to_bytes_be` / `from_bytes_be`).
// Sign for compressed points ("lexicographically largest"): decided by c1, and by c0 if c1 == 0.
#pragma once

#include <bit>
#include <cstddef>

#include "proofline/ff/fp.hpp"

namespace proofline::ff {

/// Fused Fp2 multiply / square on 12 limbs (c0 then c1, Montgomery form): the mulx/adcx/adox
/// assembly of src/ff/mont_mul_x86_64.S when the CPU has BMI2 and ADX (and PROOFLINE_NO_ASM is
/// unset), else nullptr and Fp2 uses the portable formulas below. r may alias a or b.
/// Defined in src/ff/cpu_dispatch.cpp.
using Fp2MulFn = void (*)(u64* r, const u64* a, const u64* b);
using Fp2SqrFn = void (*)(u64* r, const u64* a);
Fp2MulFn detect_fp2_fast_mul();
Fp2SqrFn detect_fp2_fast_sqr();
inline const Fp2MulFn g_fp2_fast_mul = detect_fp2_fast_mul();
inline const Fp2SqrFn g_fp2_fast_sqr = detect_fp2_fast_sqr();

struct Fp2 {
  Fp c0, c1;

 private:
  struct Raw {
    u64 w[12];
  };

 public:

  static constexpr std::size_t kBytes = 96;

  static constexpr Fp2 zero() { return {}; }
  static constexpr Fp2 one() { return {Fp::one(), Fp::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp2& a, const Fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }

  friend constexpr Fp2 operator+(const Fp2& a, const Fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend constexpr Fp2 operator-(const Fp2& a, const Fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  constexpr Fp2 operator-() const { return {-c0, -c1}; }
  /// Karatsuba: 3 Fp multiplications (the assembly keeps the three products double-width and
  /// reduces twice; same result).
  friend constexpr Fp2 operator*(const Fp2& a, const Fp2& b) {
    if (!std::is_constant_evaluated()) {
      if (auto fast = g_fp2_fast_mul; fast != nullptr) {
        Raw r;  // uninitialized (an `Fp2 r;` would be zero-filled first, by `rep stos`)
        fast(r.w, a.c0.limbs.data(), b.c0.limbs.data());
        return std::bit_cast<Fp2>(r);
      }
    }
    return mul_portable(a, b);
  }
  /// The portable Karatsuba formula (the reference for the assembly).
  static constexpr Fp2 mul_portable(const Fp2& a, const Fp2& b) {
    Fp t0 = a.c0 * b.c0;
    Fp t1 = a.c1 * b.c1;
    Fp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  }
  constexpr Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  constexpr Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  constexpr Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  /// (c0 + c1 u)^2 = (c0 + c1)(c0 − c1) + 2 c0 c1 u: 2 Fp multiplications.
  constexpr Fp2 square() const {
    if (!std::is_constant_evaluated()) {
      if (auto fast = g_fp2_fast_sqr; fast != nullptr) {
        Raw r;
        fast(r.w, c0.limbs.data());
        return std::bit_cast<Fp2>(r);
      }
    }
    return square_portable();
  }
  /// The portable squaring formula (the reference for the assembly).
  constexpr Fp2 square_portable() const {
    Fp a = c0 + c1, b = c0 - c1, c = c0 * c1;
    return {a * b, c + c};
  }
  constexpr Fp2 dbl() const { return {c0 + c0, c1 + c1}; }
  /// Multiplication by an Fp scalar.
  constexpr Fp2 mul_fp(const Fp& s) const { return {c0 * s, c1 * s}; }
  /// Multiplication by the non-residue ξ = 1 + u (used by Fp6 = Fp2[v]/(v^3 − ξ)).
  constexpr Fp2 mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  /// Conjugate c0 − c1 u, which is also the p-power Frobenius map.
  constexpr Fp2 conjugate() const { return {c0, -c1}; }
  constexpr Fp2 frobenius_map(unsigned power) const { return (power & 1) ? conjugate() : *this; }
  /// Norm c0^2 + c1^2 (an Fp).
  constexpr Fp norm() const { return c0.square() + c1.square(); }
  /// Inverse via the norm; inverse(0) = 0.
  Fp2 inverse() const {
    Fp t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }
  template <std::size_t M>
  Fp2 pow(const std::array<u64, M>& e) const {
    Fp2 r = one();
    for (std::size_t i = M; i-- > 0;) {
      for (int b = 63; b >= 0; --b) {
        r = r.square();
        if ((e[i] >> b) & 1) r *= *this;
      }
    }
    return r;
  }
  /// Square root if one exists (true, root in `out`), else false. Algorithm 9 of Adj and
  /// Rodríguez-Henríquez, "Square root computation over even extension fields" (p ≡ 3 mod 4).
  bool sqrt(Fp2& out) const;
  /// Legendre symbol of the norm: 1 square, −1 non-square, 0 zero.
  int legendre() const { return norm().legendre(); }

  /// ZCash sign: c1 > (p−1)/2, or c1 == 0 and c0 > (p−1)/2.
  bool lexicographically_largest() const {
    if (!c1.is_zero()) return c1.lexicographically_largest();
    return c0.lexicographically_largest();
  }

  /// 96 bytes: c1 big-endian ‖ c0 big-endian (ZCash / blst order).
  void to_bytes_be(std::span<uint8_t, 96> out) const {
    c1.to_bytes_be(out.subspan<0, 48>());
    c0.to_bytes_be(out.subspan<48, 48>());
  }
  /// Parses c1 ‖ c0 (48 bytes BE each); Error::NotCanonical if either is >= p.
  static Error from_bytes_be(Fp2& out, std::span<const uint8_t, 96> in) {
    Fp a, b;
    if (Error e = Fp::from_bytes_be(b, in.subspan<0, 48>()); e != Error::Ok) return e;
    if (Error e = Fp::from_bytes_be(a, in.subspan<48, 48>()); e != Error::Ok) return e;
    out = {a, b};
    return Error::Ok;
  }

  template <class Rng>
  static Fp2 random(Rng& rng) {
    Fp a = Fp::random(rng);
    return {a, Fp::random(rng)};
  }
};

static_assert(sizeof(Fp2) == 96 && offsetof(Fp2, c1) == 48, "the fused assembly reads c0 ‖ c1 as 12 limbs");

}  // namespace proofline::ff
