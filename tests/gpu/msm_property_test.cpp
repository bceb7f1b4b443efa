// tests/gpu/msm_property_test.cpp — property test of the GPU MSM (issue 9 §3, the GPU half): on
// random inputs seeded with the degenerate cases of this field, GpuMsm<G1/G2>::run equals the CPU
// msm::msm (itself property-tested against Σ k_i·P_i in tests/property), and for short inputs also
// the sum of scalar multiplications directly. Lengths 0, 1, 2, 3 and 2^k − 1, 2^k, 2^k + 1.
//
// Each element draws its base from: random point, identity, a copy of an earlier base, the
// negation of an earlier base; and its scalar from: random, 0, 1, r − 1, (r − 1)/2 and (r + 1)/2
// (the two sides of the GPU's sign flip at (r − 1)/2), 2^j and 2^j − 1 for random j < 255 (a
// signed-digit carry running through every window above j), a small integer, a repeat of an
// earlier scalar. Window widths: the cost model's and random ones in [2, 22] (G1) / [2, 18] (G2),
// with and without the 0/1 split. Seeds are fixed, so a failure names a reproducible case.
// Skipped (not failed) without a CUDA device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/msm.hpp"
#include "proofline/msm/msm.hpp"
#include "require_device.hpp"

namespace {

using namespace proofline;
using ff::Fr;

/// 2^j (j < 255) as an Fr.
Fr pow2(unsigned j) {
  Fr::Limbs l{};
  l[j / 64] = std::uint64_t{1} << (j % 64);
  return Fr::from_canonical_unchecked(l);
}

/// One scalar of the mix described at the top of the file.
Fr draw_scalar(std::mt19937_64& rng, const std::vector<Fr>& earlier) {
  static const Fr half = -Fr::one() * Fr::from_u64(2).inverse();  // (r − 1)/2: 2·half = −1
  switch (rng() % 12) {
    case 0: return Fr::zero();
    case 1: return Fr::one();
    case 2: return -Fr::one();
    case 3: return half;
    case 4: return half + Fr::one();
    case 5: return pow2(static_cast<unsigned>(rng() % 255));
    case 6: return pow2(static_cast<unsigned>(rng() % 255)) - Fr::one();
    case 7: return Fr::from_u64(rng() % 1000);
    case 8:
      if (!earlier.empty()) return earlier[rng() % earlier.size()];
      return Fr::random(rng);
    default: return Fr::random(rng);
  }
}

template <class Cfg>
struct Case {
  std::vector<ec::AffinePoint<Cfg>> bases;
  std::vector<Fr> scalars;
};

/// n elements; distinct random points are made from a few random multiples of the generator
/// (P_i = P_{i−1} + S_{i mod 8}), cheap enough for 2^12 + 1 G2 points.
template <class Cfg>
Case<Cfg> draw_case(std::size_t n, std::mt19937_64& rng) {
  using J = ec::JacobianPoint<Cfg>;
  std::vector<ec::AffinePoint<Cfg>> steps;
  for (int k = 0; k < 8; ++k) steps.push_back(J::generator().mul(Fr::random(rng)).to_affine());
  J walk = J::generator().mul(Fr::random(rng));
  Case<Cfg> c;
  for (std::size_t i = 0; i < n; ++i) {
    walk += steps[i % steps.size()];
    ec::AffinePoint<Cfg> p = walk.to_affine();
    switch (rng() % 8) {
      case 0: p = ec::AffinePoint<Cfg>::identity(); break;
      case 1:
        if (i > 0) p = c.bases[rng() % i];
        break;
      case 2:
        if (i > 0) p = -c.bases[rng() % i];
        break;
      default: break;
    }
    c.bases.push_back(p);
    c.scalars.push_back(draw_scalar(rng, c.scalars));
  }
  return c;
}

template <class Cfg>
ec::JacobianPoint<Cfg> sum_of_products(const Case<Cfg>& c) {
  auto acc = ec::JacobianPoint<Cfg>::identity();
  for (std::size_t i = 0; i < c.bases.size(); ++i) acc += c.bases[i].mul(c.scalars[i]);
  return acc;
}

/// Scoped PROOFLINE_GPU_MSM_NO_SPLIT (the whole input through Pippenger, 0 and 1 included).
struct NoSplit {
  explicit NoSplit(bool on) : on_(on) {
    if (on_) setenv("PROOFLINE_GPU_MSM_NO_SPLIT", "1", 1);
  }
  ~NoSplit() {
    if (on_) unsetenv("PROOFLINE_GPU_MSM_NO_SPLIT");
  }
  bool on_;
};

template <class Cfg>
void property(const std::vector<std::size_t>& sizes, int rounds, int max_window, std::uint64_t seed) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(seed);
  gpu::GpuMsm<Cfg> g;
  for (std::size_t n : sizes) {
    for (int round = 0; round < rounds; ++round) {
      const Case<Cfg> c = draw_case<Cfg>(n, rng);
      const auto want = msm::msm<Cfg>(std::span<const ec::AffinePoint<Cfg>>(c.bases), msm::Scalars(c.scalars));
      if (n <= 67) ASSERT_EQ(want.to_affine(), sum_of_products(c).to_affine()) << "CPU oracle, n=" << n;
      gpu::GpuMsmConfig cfg;
      cfg.window_bits = round == 0 ? 0 : 2 + static_cast<int>(rng() % (max_window - 1));
      const bool no_split = round % 2 == 1;
      NoSplit env(no_split);
      g.set_bases(c.bases);
      const auto got = g.run(c.scalars, 0, cfg);
      EXPECT_EQ(got.to_affine(), want.to_affine())
          << Cfg::kName << " n=" << n << " round=" << round << " c=" << cfg.window_bits
          << (no_split ? " no 0/1 split" : "") << " seed=" << seed;
    }
  }
}

TEST(GpuMsmProperty, G1EqualsCpuOnDegenerateInputs) {
  property<ec::G1Config>({0, 1, 2, 3, 15, 16, 17, 255, 256, 257, 4095, 4096, 4097}, 4, 22, 901);
}

TEST(GpuMsmProperty, G2EqualsCpuOnDegenerateInputs) {
  property<ec::G2Config>({0, 1, 2, 3, 15, 16, 17, 255, 256, 257, 1023, 1024, 1025}, 3, 18, 902);
}

}  // namespace
