// Fp2 square root (Adj & Rodríguez-Henríquez 2012, Algorithm 9, for p ≡ 3 mod 4).
#include "proofline/ff/fp2.hpp"

namespace proofline::ff {

bool Fp2::sqrt(Fp2& out) const {
  if (is_zero()) {
    out = zero();
    return true;
  }
  // (p − 3) / 4 and (p − 1) / 2.
  static constexpr auto kP34 = detail::shr<6>(detail::shr<6>(detail::sub_small<6>(FpParams::kModulus, 3), 1), 1);
  static constexpr auto kP12 = detail::shr<6>(detail::sub_small<6>(FpParams::kModulus, 1), 1);
  const Fp2 minus_one = -one();
  Fp2 a1 = pow(kP34);
  Fp2 alpha = a1.square() * *this;     // a^((p−1)/2)
  Fp2 a0 = alpha.conjugate() * alpha;  // alpha^(p+1)
  if (a0 == minus_one) return false;
  Fp2 x0 = a1 * *this;  // a^((p+1)/4)
  Fp2 x;
  if (alpha == minus_one) {
    x = {-x0.c1, x0.c0};  // u · x0
  } else {
    Fp2 b = (one() + alpha).pow(kP12);
    x = b * x0;
  }
  if (!(x.square() == *this)) return false;
  out = x;
  return true;
}

}  // namespace proofline::ff
