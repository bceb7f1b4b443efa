// Fr roots of unity and Tonelli–Shanks square root.
#include "proofline/ff/fr.hpp"

namespace proofline::ff {

namespace {
// t = (r − 1) / 2^32 (odd).
constexpr detail::Limbs<4> kT = [] {
  auto m = detail::sub_small<4>(FrParams::kModulus, 1);
  for (int i = 0; i < 32; ++i) m = detail::shr<4>(m, 1);
  return m;
}();
}  // namespace

Fr Fr::root_of_unity() {
  static const Fr w = Fr::from_u64(kGenerator).pow(kT);
  return w;
}

bool Fr::sqrt(Fr& out) const {
  if (is_zero()) {
    out = Fr::zero();
    return true;
  }
  if (legendre() != 1) return false;
  // Tonelli–Shanks with Q = t, S = 32, z = 7 (a non-residue).
  static constexpr auto kHalf = detail::shr<4>(detail::add_small<4>(kT, 1), 1);  // (t + 1) / 2
  unsigned m = kTwoAdicity;
  Fr c = root_of_unity();
  Fr t = pow(kT);
  Fr r = pow(kHalf);
  while (!t.is_one()) {
    unsigned i = 0;
    Fr t2 = t;
    while (!t2.is_one()) {
      t2 = t2.square();
      ++i;
    }
    Fr b = c;
    for (unsigned j = 0; j + i + 1 < m; ++j) b = b.square();
    m = i;
    c = b.square();
    t *= c;
    r *= b;
  }
  out = r;
  return true;
}

}  // namespace proofline::ff
