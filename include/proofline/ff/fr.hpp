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

struct FrParams {
  static constexpr std::size_t kLimbs = 4;
  static constexpr std::array<u64, 4> kModulus = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
  using MulFn = void (*)(u64*, const u64*, const u64*);
  using SqrFn = void (*)(u64*, const u64*);
  static constexpr MulFn fast_mul() { return nullptr; }
  static constexpr SqrFn fast_sqr() { return nullptr; }
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
