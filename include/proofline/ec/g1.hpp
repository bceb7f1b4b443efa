// proofline/ec/g1.hpp — G1 of BLS12-381: y^2 = x^3 + 4 over Fp.
// (skeleton: the ec layer fills in projective/XYZZ forms, arithmetic, encodings, subgroup checks)
#pragma once

#include "proofline/ff/fp.hpp"

namespace proofline::ec {

using ff::Fp;

/// Affine G1 point. `infinity == true` means the identity (x, y are then zero and ignored).
struct G1Affine {
  Fp x{}, y{};
  bool infinity = true;
};

}  // namespace proofline::ec
