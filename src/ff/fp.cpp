// Fp square root and the portable multiply entry point.
#include "proofline/ff/fp.hpp"

namespace proofline::ff {

void fp_mul_portable(u64* r, const u64* a, const u64* b) {
  detail::Limbs<6> x, y;
  for (int i = 0; i < 6; ++i) x[i] = a[i], y[i] = b[i];
  auto z = detail::mont_mul<6>(x, y, FpParams::kModulus, Fp::kInv);
  for (int i = 0; i < 6; ++i) r[i] = z[i];
}

bool Fp::sqrt(Fp& out) const {
  // (p + 1) / 4, p ≡ 3 mod 4.
  static constexpr Limbs e = detail::shr<6>(detail::shr<6>(detail::add_small<6>(kModulus, 1), 1), 1);
  Fp s = pow(e);
  if (!(s.square() == *this)) return false;
  out = s;
  return true;
}

}  // namespace proofline::ff
