// Property tests: the CPU MSM equals Σ k_i·P_i computed by scalar multiplications, for lengths
// 0, 1, 2, 3 and 2^k ± 1, on inputs full of the degenerate cases of issue 9: identity bases, zero
// scalars, 1, r − 1, duplicated bases, a base next to its negation, all-equal scalars; scalars given
// in Montgomery form and as canonical limbs; default and non-default configurations (one thread,
// XYZZ or batch-affine buckets, ±1 split off, small windows).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "proofline/msm/msm.hpp"

namespace {

using namespace proofline;
using ff::Fr;
using msm::BucketForm;
using msm::MsmConfig;

enum class Pattern { Random, Degenerate, AllSameScalar, AllIdentity, AllZero };

template <class Cfg>
struct Input {
  std::vector<ec::AffinePoint<Cfg>> bases;
  std::vector<Fr> scalars;
};

template <class Cfg>
Input<Cfg> make_input(std::size_t n, Pattern pat, std::mt19937_64& rng) {
  using Jac = ec::JacobianPoint<Cfg>;
  Input<Cfg> in;
  const Jac g = Jac::generator();
  const Fr same = Fr::random(rng);
  for (std::size_t i = 0; i < n; ++i) {
    ec::AffinePoint<Cfg> p = g.mul(Fr::random(rng)).to_affine();
    Fr k = Fr::random(rng);
    switch (pat) {
      case Pattern::Random: break;
      case Pattern::AllSameScalar: k = same; break;
      case Pattern::AllIdentity: p = ec::AffinePoint<Cfg>::identity(); break;
      case Pattern::AllZero: k = Fr::zero(); break;
      case Pattern::Degenerate:
        switch (rng() % 9) {
          case 0: p = ec::AffinePoint<Cfg>::identity(); break;
          case 1: k = Fr::zero(); break;
          case 2: k = Fr::one(); break;
          case 3: k = -Fr::one(); break;  // r − 1
          case 4:
            if (i > 0) p = in.bases[rng() % i];  // duplicate base
            break;
          case 5:
            if (i > 0) p = -in.bases[i - 1];  // P next to −P
            break;
          case 6:
            if (i > 0) k = in.scalars[i - 1];  // repeated scalar
            break;
          case 7: k = Fr::from_u64(rng() % 4); break;
          default: break;
        }
        break;
    }
    in.bases.push_back(p);
    in.scalars.push_back(k);
  }
  return in;
}

template <class Cfg>
ec::JacobianPoint<Cfg> naive(const Input<Cfg>& in) {
  auto acc = ec::JacobianPoint<Cfg>::identity();
  for (std::size_t i = 0; i < in.bases.size(); ++i) acc += in.bases[i].mul(in.scalars[i]);
  return acc;
}

std::vector<MsmConfig> configs() {
  std::vector<MsmConfig> v(6);
  v[1].threads = 1;
  v[2].buckets = BucketForm::Xyzz;
  v[3].buckets = BucketForm::BatchAffine;
  v[3].window_bits = 4;
  v[3].batch_size = 3;
  v[4].split_ones = false;
  v[4].window_bits = 2;
  v[5].threads = 2;
  v[5].chunks = 3;
  return v;
}

std::vector<std::size_t> lengths(unsigned max_log) {
  std::vector<std::size_t> v{0, 1, 2, 3};
  for (unsigned k = 2; k <= max_log; ++k) {
    v.push_back((std::size_t{1} << k) - 1);
    v.push_back((std::size_t{1} << k) + 1);
  }
  return v;
}

template <class Cfg>
void check_all(unsigned max_log, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto cfgs = configs();
  for (std::size_t n : lengths(max_log)) {
    for (Pattern pat : {Pattern::Random, Pattern::Degenerate, Pattern::AllSameScalar, Pattern::AllIdentity,
                        Pattern::AllZero}) {
      const Input<Cfg> in = make_input<Cfg>(n, pat, rng);
      const auto want = naive(in);
      std::vector<msm::ScalarLimbs> canon;
      for (const Fr& k : in.scalars) canon.push_back(k.to_canonical());
      for (std::size_t c = 0; c < cfgs.size(); ++c) {
        const std::string where = "n=" + std::to_string(n) + " pattern=" + std::to_string(int(pat)) +
                                  " config=" + std::to_string(c);
        EXPECT_EQ(msm::msm<Cfg>(in.bases, in.scalars, cfgs[c]), want) << where << " (Montgomery scalars)";
        if (c == 0) EXPECT_EQ(msm::msm<Cfg>(in.bases, canon, cfgs[c]), want) << where << " (canonical scalars)";
      }
    }
  }
}

TEST(MsmProperty, G1EqualsSumOfScalarMultiplications) { check_all<ec::G1Config>(7, 31); }
TEST(MsmProperty, G2EqualsSumOfScalarMultiplications) { check_all<ec::G2Config>(4, 32); }

TEST(MsmProperty, LengthOneIsTheScalarMultiple) {
  // The single-term MSM is the classic silent-wrong-result case: check it for the edge scalars.
  std::mt19937_64 rng(33);
  const ec::G1Affine p = ec::G1Projective::generator().mul(Fr::random(rng)).to_affine();
  for (const Fr& k : {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), -Fr::from_u64(2), Fr::random(rng)}) {
    const std::vector<ec::G1Affine> b{p};
    const std::vector<Fr> s{k};
    for (const MsmConfig& cfg : configs()) EXPECT_EQ(msm::msm_g1(b, s, cfg), p.mul(k));
  }
  const std::vector<ec::G1Affine> id{ec::G1Affine::identity()};
  const std::vector<Fr> s{Fr::random(rng)};
  EXPECT_TRUE(msm::msm_g1(id, s).is_identity());
}

}  // namespace
