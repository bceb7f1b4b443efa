// proofline/ff/fr.hpp — Fr, the 255-bit scalar field of BLS12-381 (the group order r).
//
// r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
// Four 64-bit limbs, Montgomery form with R = 2^256 (as blstrs / supraseal `fr_t` hold it).
// Filecoin encoding of an Fr: 32 bytes little-endian canonical (`to_bytes_le` / `from_bytes_le`,
// which rejects values >= r). r − 1 = 2^32 · t with t odd (two-adicity 32); the multiplicative
// generator used for roots of unity and cosets is 7 (bellperson / blstrs / blst convention).
#pragma once

#include "proofline/ff/mont_field.hpp"

namespace proofline::ff {

using MulFn4 = void (*)(u64* r, const u64* a, const u64* b);
using SqrFn4 = void (*)(u64* r, const u64* a);

/// mulx/adcx/adox Montgomery multiply for Fr when the CPU has BMI2 and ADX (and PROOFLINE_NO_ASM
/// is unset), else nullptr. Defined in src/ff/cpu_dispatch.cpp.
MulFn4 detect_fr_fast_mul();
SqrFn4 detect_fr_fast_sqr();
/// The portable multiply, exposed so tests can compare both paths on the same inputs.
void fr_mul_portable(u64* r, const u64* a, const u64* b);
/// r = a^(-1) (Montgomery form in and out; 0 -> 0) and the Legendre symbol of a, by binary GCD /
/// binary Jacobi on 64-bit approximations (src/ff/inverse.cpp). Variable time.
void fr_inverse_fast(u64* r, const u64* a);
int fr_legendre_fast(const u64* a);

inline const MulFn4 g_fr_fast_mul = detect_fr_fast_mul();
inline const SqrFn4 g_fr_fast_sqr = detect_fr_fast_sqr();

struct FrParams {
  static constexpr std::size_t kLimbs = 4;
  static constexpr std::array<u64, 4> kModulus = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
  static MulFn4 fast_mul() { return g_fr_fast_mul; }
  static SqrFn4 fast_sqr() { return g_fr_fast_sqr; }
  static void inverse_fast(u64* r, const u64* a) { fr_inverse_fast(r, a); }
  static int legendre_fast(const u64* a) { return fr_legendre_fast(a); }
};

class Fr : public MontField<Fr, FrParams> {
 public:

  static constexpr unsigned kTwoAdicity = 32;
  /// Multiplicative generator (7), a quadratic non-residue.
  static constexpr u64 kGenerator = 7;

  /// A primitive 2^32-th root of unity: 7^t, t = (r − 1) / 2^32 (bellperson's ROOT_OF_UNITY).
  static Fr root_of_unity();
  /// Square root by Tonelli–Shanks if a square (true, root in `out`), else false.
  bool sqrt(Fr& out) const;
};

static_assert(sizeof(Fr) == 32);

}  // namespace proofline::ff
