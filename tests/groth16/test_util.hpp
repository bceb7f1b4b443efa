// Helpers shared by the groth16 tests (not a test file itself).
#pragma once

#include <cstdint>
#include <random>
#include <unistd.h>
#include <string>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/groth16/params.hpp"

namespace proofline::groth16::testing {

inline ec::G1Affine random_g1(std::mt19937_64& rng) {
  return ec::G1Projective::generator().mul(ff::Fr::random(rng)).to_affine();
}
inline ec::G2Affine random_g2(std::mt19937_64& rng) {
  return ec::G2Projective::generator().mul(ff::Fr::random(rng)).to_affine();
}

/// Parameters of the given shape filled with random subgroup points (for format tests only).
inline Parameters random_parameters(std::mt19937_64& rng, std::size_t ic, std::size_t h, std::size_t l,
                                    std::size_t a, std::size_t b) {
  Parameters p;
  p.vk.alpha_g1 = random_g1(rng);
  p.vk.beta_g1 = random_g1(rng);
  p.vk.beta_g2 = random_g2(rng);
  p.vk.gamma_g2 = random_g2(rng);
  p.vk.delta_g1 = random_g1(rng);
  p.vk.delta_g2 = random_g2(rng);
  for (std::size_t i = 0; i < ic; ++i) p.vk.ic.push_back(random_g1(rng));
  for (std::size_t i = 0; i < h; ++i) p.h.push_back(random_g1(rng));
  for (std::size_t i = 0; i < l; ++i) p.l.push_back(random_g1(rng));
  for (std::size_t i = 0; i < a; ++i) p.a.push_back(random_g1(rng));
  for (std::size_t i = 0; i < b; ++i) p.b_g1.push_back(random_g1(rng));
  for (std::size_t i = 0; i < b; ++i) p.b_g2.push_back(random_g2(rng));
  return p;
}

/// A G1 point on the curve but outside the prime-order subgroup.
inline ec::G1Affine g1_outside_subgroup() {
  for (std::uint64_t x = 1;; ++x) {
    ec::G1Affine p;
    if (ec::G1Affine::lift_x(p, ff::Fp::from_u64(x), false) && !p.is_in_subgroup()) return p;
  }
}
inline ec::G2Affine g2_outside_subgroup() {
  for (std::uint64_t x = 1;; ++x) {
    ec::G2Affine p;
    if (ec::G2Affine::lift_x(p, ff::Fp2{ff::Fp::from_u64(x), ff::Fp::one()}, false) && !p.is_in_subgroup()) return p;
  }
}

/// A fresh path under the build's temporary directory.
inline std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/proofline_groth16_" + std::to_string(::getpid()) + "_" + name;
}

}  // namespace proofline::groth16::testing
