// proofline/ec/g2.hpp — G2 of BLS12-381: y^2 = x^3 + 4(u + 1) over Fp2 (M-type sextic twist).
// (skeleton: the ec layer fills in projective/XYZZ forms, arithmetic, encodings, subgroup checks)
#pragma once

#include "proofline/ff/fp2.hpp"

namespace proofline::ec {

using ff::Fp2;

/// Affine G2 point. `infinity == true` means the identity (x, y are then zero and ignored).
struct G2Affine {
  Fp2 x{}, y{};
  bool infinity = true;
};

}  // namespace proofline::ec
