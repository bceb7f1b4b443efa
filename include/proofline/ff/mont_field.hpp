// proofline/ff/mont_field.hpp — one prime-field template in Montgomery form over 64-bit limbs.
//
// Owns: `MontField<Params>`, the arithmetic shared by Fp (381-bit) and Fr (255-bit): add, sub, neg,
// mul, square, pow, inverse, Legendre symbol, conversion canonical <-> Montgomery, byte encodings
// whose parsers reject values >= the modulus, and `batch_inverse`.
//
// Representation: `limbs` holds a·R mod m, little-endian 64-bit limbs (limb 0 least significant),
// R = 2^(64·N). Every stored value is fully reduced (< m). Montgomery conversions are explicit:
// `from_canonical` / `to_canonical`. The constants R, R^2 and -m^-1 mod 2^64 are derived at compile
// time from the modulus (no hand-copied tables).
//
// Multiplication is CIOS (Koç, Acar, Kaliski 1996, "Analyzing and comparing Montgomery
// multiplication algorithms") with the "no-carry" shortcut that is valid when the modulus' top limb
// is below 2^63 − 1 (true for both BLS12-381 moduli; checked by static_assert). On x86-64 with
// BMI2+ADX, Fp and Fr multiplication and squaring take a mulx/adcx/adox path selected at start-up
// (src/ff/cpu_dispatch.cpp, src/ff/mont_mul_x86_64.S); the portable C++ path is the reference and the fallback.
// Add and sub are register-only inline asm on x86-64. inverse() and legendre() are VARIABLE TIME at
// run time (binary GCD / binary Jacobi, src/ff/inverse.cpp); inverse_fermat() and legendre_euler()
// are the exponentiation references.
//
// Errors: arithmetic never throws. Parsers return `Error::BadLength` / `Error::NotCanonical`.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include "proofline/util/error.hpp"


namespace proofline::ff {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

namespace detail {

template <std::size_t N>
using Limbs = std::array<u64, N>;

/// (hi, lo) = a + b + carry.
constexpr u64 adc(u64 a, u64 b, u64& carry) {
  u128 t = static_cast<u128>(a) + b + carry;
  carry = static_cast<u64>(t >> 64);
  return static_cast<u64>(t);
}
/// a - b - borrow, borrow out in {0, 1}.
constexpr u64 sbb(u64 a, u64 b, u64& borrow) {
  u128 t = static_cast<u128>(a) - b - borrow;
  borrow = static_cast<u64>(t >> 64) & 1;
  return static_cast<u64>(t);
}
/// (hi, lo) = a + b·c + carry  (never overflows 128 bits).
constexpr u64 mac(u64 a, u64 b, u64 c, u64& carry) {
  u128 t = static_cast<u128>(b) * c + a + carry;
  carry = static_cast<u64>(t >> 64);
  return static_cast<u64>(t);
}

template <std::size_t N>
constexpr bool geq(const Limbs<N>& a, const Limbs<N>& b) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return true;
}

template <std::size_t N>
constexpr bool is_zero(const Limbs<N>& a) {
  u64 acc = 0;
  for (std::size_t i = 0; i < N; ++i) acc |= a[i];
  return acc == 0;
}

#if defined(__x86_64__)
// Inline x86-64 add/sub for the two field sizes, register-only: the compiler loads the limbs and
// stores the results itself (8-byte loads and stores of the same width, no memory clobber, no
// store-to-load round trip inside the asm), and the modulus is read as memory operands (RIP-relative
// when m is the field's constant). Branch-free: both candidates are formed and cmov picks one.
/// out = a + b mod m (6 limbs; a, b < m < 2^383). r = a + b, s = r − m, and r is kept when
/// s borrows (cmovnc picks s otherwise).
inline void add_mod_asm6(u64* out, const u64* a, const u64* b, const u64* m) {
  u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], r4 = a[4], r5 = a[5];
  u64 s0 = b[0], s1 = b[1], s2 = b[2], s3 = b[3], s4 = b[4], s5 = b[5];
  asm("addq %[s0], %[r0]\n\t"
      "adcq %[s1], %[r1]\n\t"
      "adcq %[s2], %[r2]\n\t"
      "adcq %[s3], %[r3]\n\t"
      "adcq %[s4], %[r4]\n\t"
      "adcq %[s5], %[r5]\n\t"
      "movq %[r0], %[s0]\n\t"
      "subq %[m0], %[s0]\n\t"
      "movq %[r1], %[s1]\n\t"
      "sbbq %[m1], %[s1]\n\t"
      "movq %[r2], %[s2]\n\t"
      "sbbq %[m2], %[s2]\n\t"
      "movq %[r3], %[s3]\n\t"
      "sbbq %[m3], %[s3]\n\t"
      "movq %[r4], %[s4]\n\t"
      "sbbq %[m4], %[s4]\n\t"
      "movq %[r5], %[s5]\n\t"
      "sbbq %[m5], %[s5]\n\t"
      "cmovncq %[s0], %[r0]\n\t"
      "cmovncq %[s1], %[r1]\n\t"
      "cmovncq %[s2], %[r2]\n\t"
      "cmovncq %[s3], %[r3]\n\t"
      "cmovncq %[s4], %[r4]\n\t"
      "cmovncq %[s5], %[r5]\n\t"
      : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [r4] "+r"(r4), [r5] "+r"(r5),
        [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [s4] "+&r"(s4), [s5] "+&r"(s5)
      : [m0] "m"(m[0]), [m1] "m"(m[1]), [m2] "m"(m[2]), [m3] "m"(m[3]), [m4] "m"(m[4]), [m5] "m"(m[5])
      : "cc");
  out[0] = r0; out[1] = r1; out[2] = r2; out[3] = r3; out[4] = r4; out[5] = r5;
}

/// out = a − b mod m (6 limbs; a, b < m). r = a − b (mod 2^384), s = r + m; s carries out of
/// 384 bits exactly when a − b borrowed (then r + m = a − b + m + 2^384 ≥ 2^384; otherwise
/// r + m < 2m < 2^384), so that carry selects s (cmovc).
inline void sub_mod_asm6(u64* out, const u64* a, const u64* b, const u64* m) {
  u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], r4 = a[4], r5 = a[5];
  u64 s0 = b[0], s1 = b[1], s2 = b[2], s3 = b[3], s4 = b[4], s5 = b[5];
  asm("subq %[s0], %[r0]\n\t"
      "sbbq %[s1], %[r1]\n\t"
      "sbbq %[s2], %[r2]\n\t"
      "sbbq %[s3], %[r3]\n\t"
      "sbbq %[s4], %[r4]\n\t"
      "sbbq %[s5], %[r5]\n\t"
      "movq %[r0], %[s0]\n\t"
      "addq %[m0], %[s0]\n\t"
      "movq %[r1], %[s1]\n\t"
      "adcq %[m1], %[s1]\n\t"
      "movq %[r2], %[s2]\n\t"
      "adcq %[m2], %[s2]\n\t"
      "movq %[r3], %[s3]\n\t"
      "adcq %[m3], %[s3]\n\t"
      "movq %[r4], %[s4]\n\t"
      "adcq %[m4], %[s4]\n\t"
      "movq %[r5], %[s5]\n\t"
      "adcq %[m5], %[s5]\n\t"
      "cmovcq %[s0], %[r0]\n\t"
      "cmovcq %[s1], %[r1]\n\t"
      "cmovcq %[s2], %[r2]\n\t"
      "cmovcq %[s3], %[r3]\n\t"
      "cmovcq %[s4], %[r4]\n\t"
      "cmovcq %[s5], %[r5]\n\t"
      : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3), [r4] "+r"(r4), [r5] "+r"(r5),
        [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [s4] "+&r"(s4), [s5] "+&r"(s5)
      : [m0] "m"(m[0]), [m1] "m"(m[1]), [m2] "m"(m[2]), [m3] "m"(m[3]), [m4] "m"(m[4]), [m5] "m"(m[5])
      : "cc");
  out[0] = r0; out[1] = r1; out[2] = r2; out[3] = r3; out[4] = r4; out[5] = r5;
}

/// out = a + b mod m (4 limbs; a, b < m < 2^255). r = a + b, s = r − m, and r is kept when
/// s borrows (cmovnc picks s otherwise).
inline void add_mod_asm4(u64* out, const u64* a, const u64* b, const u64* m) {
  u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
  u64 s0 = b[0], s1 = b[1], s2 = b[2], s3 = b[3];
  asm("addq %[s0], %[r0]\n\t"
      "adcq %[s1], %[r1]\n\t"
      "adcq %[s2], %[r2]\n\t"
      "adcq %[s3], %[r3]\n\t"
      "movq %[r0], %[s0]\n\t"
      "subq %[m0], %[s0]\n\t"
      "movq %[r1], %[s1]\n\t"
      "sbbq %[m1], %[s1]\n\t"
      "movq %[r2], %[s2]\n\t"
      "sbbq %[m2], %[s2]\n\t"
      "movq %[r3], %[s3]\n\t"
      "sbbq %[m3], %[s3]\n\t"
      "cmovncq %[s0], %[r0]\n\t"
      "cmovncq %[s1], %[r1]\n\t"
      "cmovncq %[s2], %[r2]\n\t"
      "cmovncq %[s3], %[r3]\n\t"
      : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3),
        [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3)
      : [m0] "m"(m[0]), [m1] "m"(m[1]), [m2] "m"(m[2]), [m3] "m"(m[3])
      : "cc");
  out[0] = r0; out[1] = r1; out[2] = r2; out[3] = r3;
}

/// out = a − b mod m (4 limbs; a, b < m). r = a − b (mod 2^256), s = r + m; s carries out of
/// 256 bits exactly when a − b borrowed (then r + m = a − b + m + 2^256 ≥ 2^256; otherwise
/// r + m < 2m < 2^256), so that carry selects s (cmovc).
inline void sub_mod_asm4(u64* out, const u64* a, const u64* b, const u64* m) {
  u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
  u64 s0 = b[0], s1 = b[1], s2 = b[2], s3 = b[3];
  asm("subq %[s0], %[r0]\n\t"
      "sbbq %[s1], %[r1]\n\t"
      "sbbq %[s2], %[r2]\n\t"
      "sbbq %[s3], %[r3]\n\t"
      "movq %[r0], %[s0]\n\t"
      "addq %[m0], %[s0]\n\t"
      "movq %[r1], %[s1]\n\t"
      "adcq %[m1], %[s1]\n\t"
      "movq %[r2], %[s2]\n\t"
      "adcq %[m2], %[s2]\n\t"
      "movq %[r3], %[s3]\n\t"
      "adcq %[m3], %[s3]\n\t"
      "cmovcq %[s0], %[r0]\n\t"
      "cmovcq %[s1], %[r1]\n\t"
      "cmovcq %[s2], %[r2]\n\t"
      "cmovcq %[s3], %[r3]\n\t"
      : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3),
        [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3)
      : [m0] "m"(m[0]), [m1] "m"(m[1]), [m2] "m"(m[2]), [m3] "m"(m[3])
      : "cc");
  out[0] = r0; out[1] = r1; out[2] = r2; out[3] = r3;
}
#endif

/// a + b mod m for a, b < m < 2^(64N−1).
template <std::size_t N>
constexpr Limbs<N> add_mod(const Limbs<N>& a, const Limbs<N>& b, const Limbs<N>& m) {
#if defined(__x86_64__)
  if (!std::is_constant_evaluated() && (N == 6 || N == 4)) {
    Limbs<N> r;
    if constexpr (N == 6) add_mod_asm6(r.data(), a.data(), b.data(), m.data());
    if constexpr (N == 4) add_mod_asm4(r.data(), a.data(), b.data(), m.data());
    return r;
  }
#endif
  Limbs<N> r{};
  u64 c = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = adc(a[i], b[i], c);
  Limbs<N> s{};
  u64 br = 0;
  for (std::size_t i = 0; i < N; ++i) s[i] = sbb(r[i], m[i], br);
  return br ? r : s;  // no carry out possible since m < 2^(64N-1)
}

/// a − b mod m for a, b < m.
template <std::size_t N>
constexpr Limbs<N> sub_mod(const Limbs<N>& a, const Limbs<N>& b, const Limbs<N>& m) {
#if defined(__x86_64__)
  if (!std::is_constant_evaluated() && (N == 6 || N == 4)) {
    Limbs<N> r;
    if constexpr (N == 6) sub_mod_asm6(r.data(), a.data(), b.data(), m.data());
    if constexpr (N == 4) sub_mod_asm4(r.data(), a.data(), b.data(), m.data());
    return r;
  }
#endif
  Limbs<N> r{};
  u64 br = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = sbb(a[i], b[i], br);
  if (br) {
    u64 c = 0;
    for (std::size_t i = 0; i < N; ++i) r[i] = adc(r[i], m[i], c);
  }
  return r;
}

/// -m^{-1} mod 2^64 by Newton iteration (m odd).
constexpr u64 neg_inv64(u64 m0) {
  u64 x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - m0 * x;  // doubles correct bits each step
  return ~x + 1;
}

/// 2^(k) mod m, computed by doubling (compile time only).
template <std::size_t N>
constexpr Limbs<N> pow2_mod(unsigned k, const Limbs<N>& m) {
  Limbs<N> r{};
  r[0] = 1;
  for (unsigned i = 0; i < k; ++i) r = add_mod<N>(r, r, m);
  return r;
}

/// Montgomery product a·b·R^{-1} mod m (CIOS, no-carry variant). a, b < m.
template <std::size_t N>
constexpr Limbs<N> mont_mul(const Limbs<N>& a, const Limbs<N>& b, const Limbs<N>& m, u64 inv) {
  Limbs<N> t{};
  for (std::size_t i = 0; i < N; ++i) {
    u64 A = 0;
    t[0] = mac(t[0], a[0], b[i], A);
    u64 k = t[0] * inv;
    u64 C = 0;
    (void)mac(t[0], k, m[0], C);
    for (std::size_t j = 1; j < N; ++j) {
      t[j] = mac(t[j], a[j], b[i], A);
      t[j - 1] = mac(t[j], k, m[j], C);
    }
    t[N - 1] = C + A;
  }
  Limbs<N> s{};
  u64 br = 0;
  for (std::size_t i = 0; i < N; ++i) s[i] = sbb(t[i], m[i], br);
  return br ? t : s;
}

/// Number of significant bits of a limb vector.
template <std::size_t N>
constexpr unsigned bit_length(const Limbs<N>& a) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i]) return static_cast<unsigned>(64 * i + 64 - __builtin_clzll(a[i]));
  }
  return 0;
}

/// a − small (a >= small).
template <std::size_t N>
constexpr Limbs<N> sub_small(Limbs<N> a, u64 s) {
  u64 br = 0;
  a[0] = sbb(a[0], s, br);
  for (std::size_t i = 1; i < N; ++i) a[i] = sbb(a[i], 0, br);
  return a;
}
template <std::size_t N>
constexpr Limbs<N> add_small(Limbs<N> a, u64 s) {
  u64 c = 0;
  a[0] = adc(a[0], s, c);
  for (std::size_t i = 1; i < N; ++i) a[i] = adc(a[i], 0, c);
  return a;
}
template <std::size_t N>
constexpr Limbs<N> shr(Limbs<N> a, unsigned k) {  // k < 64
  for (std::size_t i = 0; i < N; ++i) {
    a[i] = (a[i] >> k) | (k && i + 1 < N ? a[i + 1] << (64 - k) : 0);
  }
  return a;
}

}  // namespace detail

/// Hooks from `Params`: `fast_mul()` / `fast_sqr()` return a faster Montgomery multiply / square
/// (`void(*)(u64* r, const u64* a, const u64* b)`, `void(*)(u64* r, const u64* a)`) or nullptr, set
/// at start-up by src/ff/cpu_dispatch.cpp; `inverse_fast` and `legendre_fast` are the variable-time
/// binary GCD / Jacobi of src/ff/inverse.cpp.
template <class Derived, class Params>
class MontField {
 public:
  static constexpr std::size_t kLimbs = Params::kLimbs;
  static constexpr std::size_t kBytes = 8 * kLimbs;
  using Limbs = detail::Limbs<kLimbs>;

  /// The modulus m, little-endian limbs.
  static constexpr Limbs kModulus = Params::kModulus;
  static constexpr unsigned kModulusBits = detail::bit_length<kLimbs>(kModulus);
  /// −m^{-1} mod 2^64.
  static constexpr u64 kInv = detail::neg_inv64(kModulus[0]);
  /// R mod m = 2^(64N) mod m (Montgomery form of 1).
  static constexpr Limbs kR = detail::pow2_mod<kLimbs>(64 * kLimbs, kModulus);
  /// R^2 mod m (converts canonical → Montgomery by one mont_mul).
  static constexpr Limbs kR2 = detail::pow2_mod<kLimbs>(128 * kLimbs, kModulus);

  static_assert(kModulus[kLimbs - 1] < (~u64{0} >> 1) - 1,
                "the no-carry CIOS needs the modulus' top limb below 2^63 - 1");
  static_assert(kModulus[0] & 1, "modulus must be odd");

  /// Montgomery limbs (a·R mod m). Public so that bulk code (MSM, NTT, GPU upload) can move
  /// elements as raw limbs; use the named conversions for meaning.
  Limbs limbs{};

  constexpr MontField() = default;
  // Derived types (Fp, Fr) add only methods, never data.
  constexpr Derived& self() { return static_cast<Derived&>(*this); }
  constexpr const Derived& self() const { return static_cast<const Derived&>(*this); }

  static constexpr Derived zero() { return Derived(); }
  static constexpr Derived one() { return from_montgomery(kR); }
  /// Wraps limbs already in Montgomery form (no check; caller guarantees < m).
  static constexpr Derived from_montgomery(const Limbs& mont) {
    Derived f;
    f.limbs = mont;
    return f;
  }
  /// Canonical integer (< m, unchecked precondition) → Montgomery form.
  static constexpr Derived from_canonical_unchecked(const Limbs& canonical) {
    return from_montgomery(detail::mont_mul<kLimbs>(canonical, kR2, kModulus, kInv));
  }
  /// Canonical integer → Montgomery form; returns Error::NotCanonical if value >= m.
  static constexpr Error from_canonical(Derived& out, const Limbs& canonical) {
    if (detail::geq<kLimbs>(canonical, kModulus)) return Error::NotCanonical;
    out = from_canonical_unchecked(canonical);
    return Error::Ok;
  }
  static constexpr Derived from_u64(u64 x) {
    Limbs c{};
    c[0] = x;
    // x < 2^64 < m for both fields.
    return from_canonical_unchecked(c);
  }
  /// Montgomery form → canonical integer (< m), little-endian limbs.
  constexpr Limbs to_canonical() const {
    Limbs one{};
    one[0] = 1;
    return detail::mont_mul<kLimbs>(limbs, one, kModulus, kInv);
  }

  // ---- encodings ------------------------------------------------------------------------------
  /// Canonical value as kBytes little-endian bytes (Fr's Filecoin encoding: 32 bytes LE).
  void to_bytes_le(std::span<uint8_t, kBytes> out) const {
    Limbs c = to_canonical();
    for (std::size_t i = 0; i < kBytes; ++i) out[i] = static_cast<uint8_t>(c[i / 8] >> (8 * (i % 8)));
  }
  /// Canonical value as kBytes big-endian bytes (Fp's ZCash encoding: 48 bytes BE).
  void to_bytes_be(std::span<uint8_t, kBytes> out) const {
    Limbs c = to_canonical();
    for (std::size_t i = 0; i < kBytes; ++i) out[kBytes - 1 - i] = static_cast<uint8_t>(c[i / 8] >> (8 * (i % 8)));
  }
  /// Parses kBytes little-endian bytes; Error::NotCanonical if the integer is >= m.
  static Error from_bytes_le(Derived& out, std::span<const uint8_t, kBytes> in) {
    Limbs c{};
    for (std::size_t i = 0; i < kBytes; ++i) c[i / 8] |= static_cast<u64>(in[i]) << (8 * (i % 8));
    return from_canonical(out, c);
  }
  /// Parses kBytes big-endian bytes; Error::NotCanonical if the integer is >= m.
  static Error from_bytes_be(Derived& out, std::span<const uint8_t, kBytes> in) {
    Limbs c{};
    for (std::size_t i = 0; i < kBytes; ++i) c[i / 8] |= static_cast<u64>(in[kBytes - 1 - i]) << (8 * (i % 8));
    return from_canonical(out, c);
  }
  /// Lower-case hex of the canonical value, big-endian, "0x"-prefixed, no leading-zero trimming.
  std::string to_hex() const {
    static constexpr char kDigits[] = "0123456789abcdef";
    Limbs c = to_canonical();
    std::string s = "0x";
    for (std::size_t i = kLimbs; i-- > 0;) {
      for (int sh = 60; sh >= 0; sh -= 4) s.push_back(kDigits[(c[i] >> sh) & 0xf]);
    }
    return s;
  }

  // ---- arithmetic -----------------------------------------------------------------------------
  constexpr bool is_zero() const { return detail::is_zero<kLimbs>(limbs); }
  constexpr bool is_one() const { return limbs == kR; }
  friend constexpr bool operator==(const Derived& a, const Derived& b) { return a.limbs == b.limbs; }

  friend constexpr Derived operator+(const Derived& a, const Derived& b) {
    return from_montgomery(detail::add_mod<kLimbs>(a.limbs, b.limbs, kModulus));
  }
  friend constexpr Derived operator-(const Derived& a, const Derived& b) {
    return from_montgomery(detail::sub_mod<kLimbs>(a.limbs, b.limbs, kModulus));
  }
  constexpr Derived operator-() const {
    return from_montgomery(detail::sub_mod<kLimbs>(Limbs{}, this->limbs, kModulus));
  }
  friend constexpr Derived operator*(const Derived& a, const Derived& b) {
    if (!std::is_constant_evaluated()) {
      if (auto fast = Params::fast_mul(); fast != nullptr) {
        Limbs r;  // left uninitialized: the assembly writes every limb
        fast(r.data(), a.limbs.data(), b.limbs.data());
        return from_montgomery(r);
      }
    }
    return from_montgomery(detail::mont_mul<kLimbs>(a.limbs, b.limbs, kModulus, kInv));
  }
  constexpr Derived& operator+=(const Derived& b) { return self() = self() + b; }
  constexpr Derived& operator-=(const Derived& b) { return self() = self() - b; }
  constexpr Derived& operator*=(const Derived& b) { return self() = self() * b; }

  constexpr Derived square() const {
    if (!std::is_constant_evaluated()) {
      if (auto fast = Params::fast_sqr(); fast != nullptr) {
        Limbs r;
        fast(r.data(), this->limbs.data());
        return from_montgomery(r);
      }
    }
    return self() * self();
  }
  constexpr Derived dbl() const { return self() + self(); }

  /// this^e for an exponent given as little-endian limbs (any length), left-to-right binary.
  template <std::size_t M>
  constexpr Derived pow(const std::array<u64, M>& e) const {
    Derived r = one();
    bool started = false;
    for (std::size_t i = M; i-- > 0;) {
      for (int b = 63; b >= 0; --b) {
        if (started) r = r.square();
        if ((e[i] >> b) & 1) {
          r = started ? r * self() : self();
          started = true;
        }
      }
    }
    return r;
  }
  constexpr Derived pow(u64 e) const { return pow(std::array<u64, 1>{e}); }

  /// Multiplicative inverse; inverse(0) = 0 (callers that must reject zero check first).
  /// At run time this is `Params::inverse_fast` (src/ff/inverse.cpp: a binary extended GCD on
  /// 64-bit approximations; VARIABLE TIME — its running time depends on the value, so do not
  /// invert secrets with it); in constant evaluation, Fermat.
  constexpr Derived inverse() const {
    if (!std::is_constant_evaluated()) {
      Derived r;
      Params::inverse_fast(r.limbs.data(), this->limbs.data());
      return r;
    }
    return inverse_fermat();
  }
  /// Fermat: a^(m−2). Constant time in the value; the reference the tests hold inverse() to.
  constexpr Derived inverse_fermat() const {
    constexpr Limbs e = detail::sub_small<kLimbs>(kModulus, 2);
    return pow(e);
  }

  /// Legendre symbol: 0 for zero, 1 for a non-zero square, −1 for a non-square. At run time
  /// `Params::legendre_fast` (src/ff/inverse.cpp: binary Jacobi symbol, VARIABLE TIME); in
  /// constant evaluation, Euler's criterion.
  constexpr int legendre() const {
    if (!std::is_constant_evaluated()) return Params::legendre_fast(this->limbs.data());
    return legendre_euler();
  }
  /// Euler's criterion a^((m−1)/2); the reference for legendre().
  constexpr int legendre_euler() const {
    constexpr Limbs e = detail::shr<kLimbs>(detail::sub_small<kLimbs>(kModulus, 1), 1);
    Derived t = pow(e);
    if (t.is_zero()) return 0;
    return t.is_one() ? 1 : -1;
  }

  /// Lexicographic "sign" used by the ZCash encoding: canonical value > (m−1)/2.
  constexpr bool lexicographically_largest() const {
    constexpr Limbs half = detail::shr<kLimbs>(detail::sub_small<kLimbs>(kModulus, 1), 1);
    Limbs c = to_canonical();
    return !detail::geq<kLimbs>(half, c);
  }

  /// Uniform random element from a 64-bit uniform random bit generator (rejection sampling).
  /// For tests and benchmarks; cryptographic randomness comes from OpenSSL at higher layers.
  template <class Rng>
  static Derived random(Rng& rng) {
    constexpr unsigned top_bits = kModulusBits - 64 * (kLimbs - 1);
    constexpr u64 top_mask = top_bits == 64 ? ~u64{0} : ((u64{1} << top_bits) - 1);
    for (;;) {
      Limbs c{};
      for (auto& w : c) w = static_cast<u64>(rng());
      c[kLimbs - 1] &= top_mask;
      if (!detail::geq<kLimbs>(c, kModulus)) return from_canonical_unchecked(c);
    }
  }
};

/// Inverts every non-zero element of `v` in place (Montgomery's trick: 3(n−1) mul + 1 inverse);
/// zeros stay zero. `scratch` must hold v.size() elements (caller-owned, no allocation here).
template <class F>
void batch_inverse(std::span<F> v, std::span<F> scratch) {
  F acc = F::one();
  for (std::size_t i = 0; i < v.size(); ++i) {
    scratch[i] = acc;
    if (!v[i].is_zero()) acc *= v[i];
  }
  acc = acc.inverse();
  for (std::size_t i = v.size(); i-- > 0;) {
    if (v[i].is_zero()) continue;
    F inv = acc * scratch[i];
    acc *= v[i];
    v[i] = inv;
  }
}

}  // namespace proofline::ff
