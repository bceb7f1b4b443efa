// proofline/ff/fp.hpp — Fp, the 381-bit base field of BLS12-381.
//
// p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
// (BLS12-381 parameters, e.g. draft-irtf-cfrg-pairing-friendly-curves §4.2.1).
// Six 64-bit limbs, Montgomery form with R = 2^384. ZCash encoding of an Fp: 48 bytes big-endian
// canonical (`to_bytes_be` / `from_bytes_be`, which rejects values >= p).
// p ≡ 3 (mod 4), so sqrt(a) = a^((p+1)/4) when a is a square.
#pragma once

#include "proofline/ff/mont_field.hpp"

namespace proofline::ff {

using MulFn6 = void (*)(u64* r, const u64* a, const u64* b);
using SqrFn6 = void (*)(u64* r, const u64* a);

/// Returns the mulx/adcx/adox Montgomery multiply when the CPU has BMI2 and ADX (and the
/// environment variable PROOFLINE_NO_ASM is unset), else nullptr. Defined in src/ff/cpu_dispatch.cpp.
MulFn6 detect_fp_fast_mul();
SqrFn6 detect_fp_fast_sqr();
/// The portable multiply, exposed so tests can compare both paths on the same inputs.
void fp_mul_portable(u64* r, const u64* a, const u64* b);
/// r = a^(-1) (Montgomery form in and out; 0 -> 0) and the Legendre symbol of a, by binary GCD /
/// binary Jacobi on 64-bit approximations (src/ff/inverse.cpp). Variable time.
void fp_inverse_fast(u64* r, const u64* a);
int fp_legendre_fast(const u64* a);

inline const MulFn6 g_fp_fast_mul = detect_fp_fast_mul();
inline const SqrFn6 g_fp_fast_sqr = detect_fp_fast_sqr();

struct FpParams {
  static constexpr std::size_t kLimbs = 6;
  static constexpr std::array<u64, 6> kModulus = {
      0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
      0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
  static MulFn6 fast_mul() { return g_fp_fast_mul; }
  static SqrFn6 fast_sqr() { return g_fp_fast_sqr; }
  static void inverse_fast(u64* r, const u64* a) { fp_inverse_fast(r, a); }
  static int legendre_fast(const u64* a) { return fp_legendre_fast(a); }
};

class Fp : public MontField<Fp, FpParams> {
 public:

  /// Square root if `*this` is a square (returns true and writes one root to `out`), else false.
  /// Uses a^((p+1)/4) (p ≡ 3 mod 4). Which root is returned is unspecified; callers pick the sign.
  bool sqrt(Fp& out) const;
};

static_assert(sizeof(Fp) == 48);

}  // namespace proofline::ff
