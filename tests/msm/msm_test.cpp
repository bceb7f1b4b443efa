// msm tests: every MSM entry point against the naive Σ k_i·P_i (ec scalar multiplication), over
// random and adversarial inputs (identity bases, zero/one/−1 scalars, duplicated bases, P/−P
// pairs, one bucket for every point), every window size, both bucket forms, 1/2/4 threads.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fp_ifma.hpp"
#include "proofline/msm/affine_ifma.hpp"
#include "proofline/msm/msm.hpp"
#include "proofline/r1cs/density.hpp"

namespace {

using namespace proofline;
using ec::G1Affine;
using ec::G1Config;
using ec::G1Projective;
using ec::G2Affine;
using ec::G2Config;
using ec::G2Projective;
using ff::Fr;
using msm::BucketForm;
using msm::Density;
using msm::MsmConfig;

Fr minus_one() { return -Fr::one(); }

/// n random subgroup points: [k_i]G for random k_i (affine, one batch inversion).
template <class Cfg>
std::vector<ec::AffinePoint<Cfg>> random_points(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ec::JacobianPoint<Cfg>> proj(n);
  const auto g = ec::JacobianPoint<Cfg>::generator();
  for (auto& p : proj) p = g.mul(Fr::random(rng));
  std::vector<ec::AffinePoint<Cfg>> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = proj[i].to_affine();
  return out;
}

/// A mix that hits the special cases: zeros, ones, r−1, small values, random full values.
std::vector<Fr> mixed_scalars(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> s(n);
  for (auto& k : s) {
    switch (rng() % 8) {
      case 0: k = Fr::zero(); break;
      case 1: k = Fr::one(); break;
      case 2: k = minus_one(); break;
      case 3: k = Fr::from_u64(rng() % 100); break;
      default: k = Fr::random(rng); break;
    }
  }
  return s;
}

/// Bases with identities, duplicates and negations sprinkled in.
template <class Cfg>
std::vector<ec::AffinePoint<Cfg>> mixed_points(std::size_t n, uint64_t seed) {
  auto p = random_points<Cfg>(n, seed);
  std::mt19937_64 rng(seed + 1);
  for (std::size_t i = 1; i < n; ++i) {
    switch (rng() % 10) {
      case 0: p[i] = ec::AffinePoint<Cfg>::identity(); break;
      case 1: p[i] = p[rng() % i]; break;     // duplicate of an earlier base
      case 2: p[i] = -p[rng() % i]; break;    // negation of an earlier base
      default: break;
    }
  }
  return p;
}

template <class Cfg>
ec::JacobianPoint<Cfg> naive(std::span<const ec::AffinePoint<Cfg>> bases, std::span<const Fr> scalars) {
  auto acc = ec::JacobianPoint<Cfg>::identity();
  for (std::size_t i = 0; i < bases.size(); ++i) acc += bases[i].mul(scalars[i]);
  return acc;
}

std::vector<msm::ScalarLimbs> to_canonical(const std::vector<Fr>& s) {
  std::vector<msm::ScalarLimbs> c(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) c[i] = s[i].to_canonical();
  return c;
}

// ---- G1 general MSM ----------------------------------------------------------------------------

class MsmG1Sizes : public ::testing::TestWithParam<std::size_t> {};

TEST_P(MsmG1Sizes, MatchesNaiveOnMixedData) {
  const std::size_t n = GetParam();
  auto bases = mixed_points<G1Config>(n, 100 + n);
  auto scalars = mixed_scalars(n, 200 + n);
  const G1Projective want = naive<G1Config>(bases, scalars);
  EXPECT_EQ(msm::msm_g1(bases, scalars), want);
  EXPECT_EQ(msm::msm_g1(bases, to_canonical(scalars)), want) << "canonical scalars";
  MsmConfig no_split;
  no_split.split_ones = false;
  EXPECT_EQ(msm::msm_g1(bases, scalars, no_split), want) << "ones through Pippenger";
  MsmConfig xyzz;
  xyzz.buckets = BucketForm::Xyzz;
  EXPECT_EQ(msm::msm_g1(bases, scalars, xyzz), want) << "XYZZ buckets";
}

TEST_P(MsmG1Sizes, MatchesNaiveOnRandomFullScalars) {
  const std::size_t n = GetParam();
  auto bases = random_points<G1Config>(n, 300 + n);
  std::mt19937_64 rng(400 + n);
  std::vector<Fr> scalars(n);
  for (auto& k : scalars) k = Fr::random(rng);
  EXPECT_EQ(msm::msm_g1(bases, scalars), naive<G1Config>(bases, scalars));
}

INSTANTIATE_TEST_SUITE_P(Sizes, MsmG1Sizes, ::testing::Values(0, 1, 2, 3, 5, 17, 64, 257, 1000));

TEST(MsmG1, EmptyAndAllZeroGiveIdentity) {
  std::vector<G1Affine> none;
  std::vector<Fr> nos;
  EXPECT_TRUE(msm::msm_g1(none, nos).is_identity());
  auto bases = random_points<G1Config>(40, 1);
  std::vector<Fr> zeros(40, Fr::zero());
  EXPECT_TRUE(msm::msm_g1(bases, zeros).is_identity());
  std::vector<G1Affine> ids(40, G1Affine::identity());
  EXPECT_TRUE(msm::msm_g1(ids, mixed_scalars(40, 2)).is_identity());
}

TEST(MsmG1, SingleTermsAreScalarMultiples) {
  auto bases = random_points<G1Config>(1, 3);
  std::mt19937_64 rng(4);
  for (const Fr& k : {Fr::zero(), Fr::one(), minus_one(), Fr::from_u64(2), Fr::random(rng), Fr::random(rng)}) {
    const std::vector<Fr> s{k};
    EXPECT_EQ(msm::msm_g1(bases, s), bases[0].mul(k));
    MsmConfig c;
    c.split_ones = false;
    EXPECT_EQ(msm::msm_g1(bases, s, c), bases[0].mul(k));
    for (int w : {2, 5, 13}) {  // Pippenger instead of the direct path for tiny inputs
      c.window_bits = w;
      EXPECT_EQ(msm::msm_g1(bases, s, c), bases[0].mul(k)) << "c=" << w;
    }
  }
}

TEST(MsmG1, PlusMinusPairsCancel) {
  // P_i and −P_i with the same scalar: every bucket addition of the pair is P + (−P).
  auto half = random_points<G1Config>(200, 5);
  std::vector<G1Affine> bases;
  std::vector<Fr> scalars;
  std::mt19937_64 rng(6);
  for (const auto& p : half) {
    const Fr k = Fr::random(rng);
    bases.push_back(p);
    bases.push_back(-p);
    scalars.push_back(k);
    scalars.push_back(k);
  }
  for (int c : {0, 4, 9, 12, 16}) {
    for (BucketForm f : {BucketForm::BatchAffine, BucketForm::Xyzz}) {
      MsmConfig cfg;
      cfg.window_bits = c;
      cfg.buckets = f;
      EXPECT_TRUE(msm::msm_g1(bases, scalars, cfg).is_identity()) << "c=" << c;
    }
  }
  // The same with ones and minus ones (the batch-addition path).
  std::vector<Fr> ones(bases.size(), Fr::one());
  EXPECT_TRUE(msm::msm_g1(bases, ones).is_identity());
}

TEST(MsmG1, DuplicatedBasesDouble) {
  // One base repeated with one scalar: every addition into a bucket is P + P (doubling), and all
  // points land in one bucket per window (collision queue and overflow).
  auto one = random_points<G1Config>(1, 7);
  std::mt19937_64 rng(8);
  const Fr k = Fr::random(rng);
  for (std::size_t n : {2u, 3u, 8u, 1500u}) {
    std::vector<G1Affine> bases(n, one[0]);
    std::vector<Fr> scalars(n, k);
    const G1Projective want = one[0].mul(k * Fr::from_u64(n));
    EXPECT_EQ(msm::msm_g1(bases, scalars), want) << n;
    MsmConfig cfg;
    cfg.window_bits = 10;
    cfg.buckets = BucketForm::BatchAffine;
    cfg.batch_size = 32;
    EXPECT_EQ(msm::msm_g1(bases, scalars, cfg), want) << n;
  }
}

TEST(MsmG1, OneBucketForAllPointsUsesOverflow) {
  // Distinct bases, equal scalar: each window puts every point into the same bucket.
  const std::size_t n = 1500;
  auto bases = random_points<G1Config>(n, 9);
  std::mt19937_64 rng(10);
  const Fr k = Fr::random(rng);
  std::vector<Fr> scalars(n, k);
  auto sum = G1Projective::identity();
  for (const auto& p : bases) sum += p;
  const G1Projective want = sum.mul(k);
  for (int c : {8, 11, 13}) {
    MsmConfig cfg;
    cfg.window_bits = c;
    cfg.buckets = BucketForm::BatchAffine;
    EXPECT_EQ(msm::msm_g1(bases, scalars, cfg), want) << "c=" << c;
  }
  // Small scalars: only window 0 (and maybe 1) is non-zero; few buckets, many collisions.
  std::vector<Fr> small(n);
  for (std::size_t i = 0; i < n; ++i) small[i] = Fr::from_u64(2 + i % 5);
  EXPECT_EQ(msm::msm_g1(bases, small), naive<G1Config>(bases, small));
}

TEST(MsmG1, RepeatedBaseFillsBucketsWithEqualPoints) {
  // Every base is ±P, so buckets hold small multiples of P and the batched reduction's running
  // sums meet R == B (doubling) and R == −B (cancellation).
  auto one = random_points<G1Config>(1, 17);
  const std::size_t n = 3000;
  std::vector<G1Affine> bases(n);
  std::vector<Fr> scalars(n);
  Fr total = Fr::zero();
  for (std::size_t i = 0; i < n; ++i) {
    const bool neg = (i % 3) == 1;
    bases[i] = neg ? -one[0] : one[0];
    scalars[i] = Fr::from_u64(1 + (i * 7) % 2500);
    total = neg ? total - scalars[i] : total + scalars[i];
  }
  const G1Projective want = one[0].mul(total);
  for (int c : {11, 12, 13}) {
    for (bool batched : {true, false}) {
      MsmConfig cfg;
      cfg.window_bits = c;
      cfg.buckets = BucketForm::BatchAffine;
      cfg.batch_reduce = batched;
      EXPECT_EQ(msm::msm_g1(bases, scalars, cfg), want) << "c=" << c << " batched=" << batched;
    }
  }
}

TEST(MsmG1, EveryWindowSizeAndFormAgrees) {
  const std::size_t n = 300;
  auto bases = mixed_points<G1Config>(n, 11);
  auto scalars = mixed_scalars(n, 12);
  const G1Projective want = naive<G1Config>(bases, scalars);
  // Both bucket forms up to c = 12; above that the reduction over 2^(c−1) buckets dominates the
  // run time, so the forms alternate.
  for (int c = 2; c <= 16; ++c) {
    for (BucketForm f : {BucketForm::Xyzz, BucketForm::BatchAffine}) {
      if (c > 12 && (c % 2 == 0) != (f == BucketForm::BatchAffine)) continue;
      MsmConfig cfg;
      cfg.window_bits = c;
      cfg.buckets = f;
      EXPECT_EQ(msm::msm_g1(bases, scalars, cfg), want) << "c=" << c << " form=" << static_cast<int>(f);
    }
  }
}

TEST(MsmG1, ThreadsAndChunksDoNotChangeTheResult) {
  const std::size_t n = 2000;
  auto bases = mixed_points<G1Config>(n, 13);
  auto scalars = mixed_scalars(n, 14);
  MsmConfig one;
  one.threads = 1;
  const G1Projective single = msm::msm_g1(bases, scalars, one);
  EXPECT_EQ(single, naive<G1Config>(bases, scalars));
  for (int t : {2, 4}) {
    for (int chunks : {0, 1, 3, 8}) {
      for (BucketForm f : {BucketForm::Xyzz, BucketForm::BatchAffine}) {
        MsmConfig cfg;
        cfg.threads = t;
        cfg.chunks = chunks;
        cfg.buckets = f;
        cfg.window_bits = chunks == 0 ? 0 : 10;
        EXPECT_EQ(msm::msm_g1(bases, scalars, cfg), single) << "threads=" << t << " chunks=" << chunks;
      }
    }
  }
}

TEST(MsmG1, SmallBatchSizesAgree) {
  const std::size_t n = 1000;
  auto bases = mixed_points<G1Config>(n, 15);
  auto scalars = mixed_scalars(n, 16);
  const G1Projective want = naive<G1Config>(bases, scalars);
  for (int b : {1, 2, 7, 64}) {
    MsmConfig cfg;
    cfg.window_bits = 11;
    cfg.buckets = BucketForm::BatchAffine;
    cfg.batch_size = b;
    EXPECT_EQ(msm::msm_g1(bases, scalars, cfg), want) << "batch=" << b;
  }
}

/// Sets the IFMA switch for a scope (tests run both dispatch settings in one process).
struct IfmaSetting {
  explicit IfmaSetting(bool on) : prev(ff::set_ifma_enabled(on)) {}
  ~IfmaSetting() { ff::set_ifma_enabled(prev); }
  bool prev;
};

TEST(MsmG1, VectorFlushTailsAndConflictsBothDispatches) {
  // Batch sizes that are not multiples of 8 leave partial vector groups; duplicated and negated
  // bases put x_p == x_q pairs (doubling, cancelling) into the vector batches.
  const std::size_t n = 1200;
  auto bases = mixed_points<G1Config>(n, 31);
  auto scalars = mixed_scalars(n, 32);
  const G1Projective want = naive<G1Config>(bases, scalars);
  // Each point three times (P, P, −P) with one scalar: doublings and cancellations in full batches.
  auto trip = random_points<G1Config>(150, 33);
  std::vector<G1Affine> same;
  std::vector<Fr> same_k;
  std::mt19937_64 rng(34);
  G1Projective want_same = G1Projective::identity();
  for (const G1Affine& p : trip) {
    const Fr k = Fr::random(rng);
    for (const G1Affine& q : {p, p, -p}) same.push_back(q), same_k.push_back(k);
    want_same += p.mul(k);
  }
  for (bool ifma : {false, true}) {
    IfmaSetting s(ifma);
    for (int b : {16, 17, 23, 0}) {
      for (int c : {8, 10}) {
        MsmConfig cfg;
        cfg.window_bits = c;
        cfg.buckets = BucketForm::BatchAffine;
        cfg.batch_size = b;
        EXPECT_EQ(msm::msm_g1(bases, scalars, cfg), want) << "ifma=" << ifma << " batch=" << b << " c=" << c;
        EXPECT_EQ(msm::msm_g1(same, same_k, cfg), want_same) << "ifma=" << ifma << " batch=" << b << " c=" << c;
      }
    }
    EXPECT_EQ(msm::msm_g1(bases, scalars), want) << "ifma=" << ifma << " auto";
  }
}

/// The kernel on its own: random pairs plus q == p and q == −p entries in every lane position
/// and tail groups; performed entries must equal the ec affine sum, equal-x entries must be
/// flagged and left untouched.
template <class Cfg>
void check_ifma_affine_batch(void (*kernel)(const std::uintptr_t*, const std::uintptr_t*, const std::uintptr_t*,
                                            const std::uint8_t*, std::size_t, std::uint8_t*)) {
  using Affine = ec::AffinePoint<Cfg>;
  IfmaSetting s(true);
  for (std::size_t m : {1u, 7u, 8u, 9u, 61u, 130u}) {
    auto p = random_points<Cfg>(m, 40 + m);
    auto qpts = random_points<Cfg>(m, 90 + m);
    std::vector<std::uint8_t> neg(m), special(m, 7);
    std::mt19937_64 rng(m);
    for (std::size_t k = 0; k < m; ++k) {
      neg[k] = rng() & 1;
      if (k % 5 == 2) qpts[k] = neg[k] ? -p[k] : p[k];  // doubling case
      if (k % 7 == 3) qpts[k] = neg[k] ? p[k] : -p[k];  // cancelling case
    }
    const std::vector<Affine> before = qpts;
    std::vector<std::uintptr_t> xa(m), ya(m), qa(m);
    for (std::size_t k = 0; k < m; ++k) {
      xa[k] = reinterpret_cast<std::uintptr_t>(&p[k].x);
      ya[k] = reinterpret_cast<std::uintptr_t>(&p[k].y);
      qa[k] = reinterpret_cast<std::uintptr_t>(&qpts[k].x);
    }
    kernel(xa.data(), ya.data(), qa.data(), neg.data(), m, special.data());
    for (std::size_t k = 0; k < m; ++k) {
      const bool eqx = before[k].x == p[k].x;
      ASSERT_EQ(special[k], eqx ? 1 : 0) << "m=" << m << " k=" << k;
      if (eqx) {
        EXPECT_TRUE(qpts[k].x == before[k].x && qpts[k].y == before[k].y) << "m=" << m << " k=" << k;
        continue;
      }
      const Affine want = (before[k].to_projective() + (neg[k] ? -p[k] : p[k]).to_projective()).to_affine();
      EXPECT_TRUE(qpts[k].x == want.x && qpts[k].y == want.y) << "m=" << m << " k=" << k;
    }
  }
}

TEST(MsmIfma, AffineBatchMatchesScalarAdditions) {
  if (!ff::ifma_supported()) {
    std::uintptr_t a = 0;
    std::uint8_t u = 0;
    IfmaSetting s(true);
    EXPECT_THROW(msm::detail::g1_affine_add_batch_ifma(&a, &a, &a, &u, 1, &u), ProoflineError);
    EXPECT_THROW(msm::detail::g2_affine_add_batch_ifma(&a, &a, &a, &u, 1, &u), ProoflineError);
    GTEST_SKIP() << "this CPU has no AVX-512 IFMA: only the refusal was checked";
  }
  check_ifma_affine_batch<G1Config>(msm::detail::g1_affine_add_batch_ifma);
  check_ifma_affine_batch<G2Config>(msm::detail::g2_affine_add_batch_ifma);
}

TEST(MsmG2, VectorFlushTailsAndConflictsBothDispatches) {
  const std::size_t n = 600;
  auto bases = mixed_points<G2Config>(n, 41);
  auto scalars = mixed_scalars(n, 42);
  const G2Projective want = naive<G2Config>(bases, scalars);
  for (bool ifma : {false, true}) {
    IfmaSetting s(ifma);
    for (int b : {16, 21, 0}) {
      MsmConfig cfg;
      cfg.window_bits = 9;
      cfg.buckets = BucketForm::BatchAffine;
      cfg.batch_size = b;
      EXPECT_EQ(msm::msm_g2(bases, scalars, cfg), want) << "ifma=" << ifma << " batch=" << b;
    }
    EXPECT_EQ(msm::msm_g2(bases, scalars), want) << "ifma=" << ifma << " auto";
  }
}

// ---- G2 ----------------------------------------------------------------------------------------

TEST(MsmG2, MatchesNaive) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 5u, 17u, 64u, 200u}) {
    auto bases = mixed_points<G2Config>(n, 500 + n);
    auto scalars = mixed_scalars(n, 600 + n);
    const G2Projective want = naive<G2Config>(bases, scalars);
    EXPECT_EQ(msm::msm_g2(bases, scalars), want) << n;
    MsmConfig cfg;
    cfg.window_bits = 9;
    cfg.buckets = BucketForm::BatchAffine;
    EXPECT_EQ(msm::msm_g2(bases, scalars, cfg), want) << n;
    cfg.buckets = BucketForm::Xyzz;
    EXPECT_EQ(msm::msm_g2(bases, scalars, cfg), want) << n;
  }
}

TEST(MsmG2, PairsAndDuplicates) {
  auto half = random_points<G2Config>(50, 700);
  std::vector<G2Affine> bases;
  std::vector<Fr> scalars;
  std::mt19937_64 rng(701);
  const Fr k = Fr::random(rng);
  for (const auto& p : half) {
    bases.push_back(p);
    bases.push_back(-p);
    bases.push_back(p);
    scalars.insert(scalars.end(), {k, k, k});
  }
  auto s = G2Projective::identity();
  for (const auto& p : half) s += p;
  MsmConfig cfg;
  cfg.window_bits = 12;
  cfg.buckets = BucketForm::BatchAffine;
  EXPECT_EQ(msm::msm_g2(bases, scalars, cfg), s.mul(k));
  EXPECT_EQ(msm::sum_g2(bases), s);
}

// ---- endomorphism split (GLV on G1, GLS on G2) --------------------------------------------------

using Limbs = msm::ScalarLimbs;

Fr fr_of(const Limbs& l) { return Fr::from_canonical_unchecked(l); }
Fr fr_of_part(const msm::SignedPart& p) {
  const Fr v = fr_of(Limbs{p.mag[0], p.mag[1], 0, 0});
  return p.neg ? -v : v;
}
Fr x_abs() { return Fr::from_u64(ec::kBlsXAbs); }

/// Scalars at the edges of the splits: 0, 1, 2, r−1, r−2, (r±1)/2, x², x² ± 1, λ = −x² (and
/// λ ± 1), |x|, |x|³, 2^127 ± 1, 2^128 ± 1, values with one half all ones, then random ones.
std::vector<Fr> split_edge_scalars() {
  const Fr x2 = x_abs() * x_abs();
  const Fr half = fr_of(Limbs{Fr::kModulus[0] >> 1 | Fr::kModulus[1] << 63, Fr::kModulus[1] >> 1 | Fr::kModulus[2] << 63,
                              Fr::kModulus[2] >> 1 | Fr::kModulus[3] << 63, Fr::kModulus[3] >> 1});  // (r−1)/2
  const Fr p127 = fr_of(Limbs{0, 1ULL << 63, 0, 0}), p128 = fr_of(Limbs{0, 0, 1, 0});
  std::vector<Fr> v = {Fr::zero(), Fr::one(), Fr::from_u64(2), -Fr::one(), -Fr::from_u64(2), half, half + Fr::one(),
                       x2, x2 + Fr::one(), x2 - Fr::one(), -x2, -x2 + Fr::one(), -x2 - Fr::one(), x_abs(),
                       x_abs() * x2, x2 * x2, p127, p127 - Fr::one(), p127 + Fr::one(), p128, p128 - Fr::one(),
                       p128 + Fr::one(), -p128, fr_of(Limbs{~0ULL, ~0ULL, 0, 0}), fr_of(Limbs{0, 0, ~0ULL, 0x3fffffffffffffffULL}),
                       x2 * Fr::from_u64(2).inverse(), x_abs() * Fr::from_u64(2).inverse()};
  std::mt19937_64 rng(4242);
  for (int i = 0; i < 200; ++i) v.push_back(Fr::random(rng));
  return v;
}

TEST(EndoSplit, GlvPartsRecombineAndAreBelow2To127) {
  const Fr lambda = -(x_abs() * x_abs());  // φ acts on G1 as [−x²]
  for (const Fr& k : split_edge_scalars()) {
    const auto parts = msm::glv_split_g1(k.to_canonical());
    EXPECT_EQ(fr_of_part(parts[0]) + fr_of_part(parts[1]) * lambda, k) << k.to_hex();
    for (const auto& p : parts) EXPECT_LT(p.mag[1], 1ULL << 63) << "part >= 2^127 for " << k.to_hex();
  }
}

TEST(EndoSplit, GlsPartsRecombineAndAreBelow2To63) {
  const Fr x = -x_abs();  // ψ acts on G2 as [x], x the (negative) BLS parameter
  for (const Fr& k : split_edge_scalars()) {
    const auto parts = msm::gls_split_g2(k.to_canonical());
    Fr sum = Fr::zero(), xj = Fr::one();
    for (const auto& p : parts) {
      EXPECT_EQ(p.mag[1], 0u);
      EXPECT_LT(p.mag[0], 1ULL << 63) << "part >= 2^63 for " << k.to_hex();
      sum += fr_of_part(p) * xj;
      xj *= x;
    }
    EXPECT_EQ(sum, k) << k.to_hex();
  }
}

TEST(EndoSplit, PartsGiveTheScalarMultipleOnPoints) {
  const G1Projective p1 = random_points<G1Config>(1, 4300)[0].to_projective();
  const G2Projective p2 = random_points<G2Config>(1, 4301)[0].to_projective();
  std::mt19937_64 rng(4302);
  for (int i = 0; i < 4; ++i) {
    const Fr k = i == 0 ? -Fr::one() : Fr::random(rng);
    const auto g = msm::glv_split_g1(k.to_canonical());
    EXPECT_EQ(p1.mul(fr_of_part(g[0])) + ec::g1_endomorphism(p1).mul(fr_of_part(g[1])), p1.mul(k));
    const auto h = msm::gls_split_g2(k.to_canonical());
    G2Projective acc = G2Projective::identity(), q = p2;
    for (const auto& part : h) {
      acc += q.mul(fr_of_part(part));
      q = ec::g2_psi(q);
    }
    EXPECT_EQ(acc, p2.mul(k));
  }
}

TEST(EndoSplit, ScalarAtLeastRIsRejected) {
  EXPECT_THROW((void)msm::glv_split_g1(Fr::kModulus), ProoflineError);
  EXPECT_THROW((void)msm::gls_split_g2(Limbs{~0ULL, ~0ULL, ~0ULL, ~0ULL}), ProoflineError);
}

template <class Cfg>
void expect_endo_matches_naive(std::size_t n, uint64_t seed) {
  auto bases = mixed_points<Cfg>(n, seed);
  auto edge = split_edge_scalars();
  auto scalars = mixed_scalars(n, seed + 1);
  for (std::size_t i = 0; i < n; i += 3) scalars[i] = edge[(i / 3) % edge.size()];
  const auto want = naive<Cfg>(bases, scalars);
  for (bool endo : {true, false}) {
    for (int c : {0, 3, 11}) {
      for (int t : {1, 2}) {
        if (!endo && (c != 0 || t != 1)) continue;  // the plain path has its own tests above
        MsmConfig cfg;
        cfg.endomorphism = endo;
        cfg.window_bits = c;
        cfg.threads = t;
        EXPECT_EQ(msm::msm<Cfg>(bases, scalars, cfg), want)
            << Cfg::kName << " n=" << n << " endo=" << endo << " c=" << c << " t=" << t;
      }
    }
  }
  MsmConfig xyzz;
  xyzz.buckets = BucketForm::Xyzz;
  EXPECT_EQ(msm::msm<Cfg>(bases, scalars, xyzz), want) << "XYZZ buckets";
}

TEST(EndoSplit, MsmWithAndWithoutSplitMatchesNaive) {
  for (std::size_t n : {1u, 4u, 9u, 300u}) expect_endo_matches_naive<G1Config>(n, 4400 + n);
  for (std::size_t n : {1u, 4u, 9u, 80u}) expect_endo_matches_naive<G2Config>(n, 4500 + n);
}

// ---- 0/1 path ----------------------------------------------------------------------------------

TEST(Sum, AllAndSelected) {
  for (std::size_t n : {0u, 1u, 2u, 63u, 64u, 65u, 1000u, 20000u}) {
    auto bases = mixed_points<G1Config>(std::min<std::size_t>(n, 1000), 800 + n);
    while (bases.size() < n) bases.push_back(bases[bases.size() % 1000]);  // duplicates
    std::mt19937_64 rng(900 + n);
    std::vector<uint64_t> words((n + 63) / 64 + 1);
    for (auto& w : words) w = rng() & rng();  // ~1/4 density; includes bits past n (ignored)
    const Density sel(words, n);
    auto all = G1Projective::identity(), some = G1Projective::identity();
    std::vector<Fr> bits(n);
    for (std::size_t i = 0; i < n; ++i) {
      all += bases[i];
      if (sel.test(i)) {
        some += bases[i];
        bits[i] = Fr::one();
      }
    }
    EXPECT_EQ(msm::sum_g1(bases), all) << n;
    EXPECT_EQ(msm::sum_selected_g1(bases, sel), some) << n;
    EXPECT_EQ(msm::msm_g1(bases, bits), some) << "msm with 0/1 scalars, n=" << n;
    MsmConfig one;
    one.threads = 1;
    EXPECT_EQ(msm::sum_selected_g1(bases, sel, one), some) << n;
  }
}

TEST(Sum, G2) {
  auto bases = mixed_points<G2Config>(300, 1000);
  auto all = G2Projective::identity();
  for (const auto& p : bases) all += p;
  EXPECT_EQ(msm::sum_g2(bases), all);
}

// ---- density-filtered ----------------------------------------------------------------------------

TEST(Density, MatchesHandBuiltExpansion) {
  const std::size_t vars = 777, start = 13;
  std::mt19937_64 rng(1100);
  std::vector<uint64_t> words((vars + 63) / 64);
  for (auto& w : words) w = rng() | rng();  // ~3/4 density
  words.back() |= ~uint64_t{0} << (vars % 64);  // junk past the end must be ignored
  const Density d(words, vars);
  const std::size_t pop = d.popcount();
  auto bases = mixed_points<G1Config>(start + pop + 5, 1101);  // extra bases after the query: unused
  auto scalars = mixed_scalars(vars, 1102);
  // Expansion: variable i ↦ bases[start + rank(i)] if set, else scalar ignored.
  std::vector<G1Affine> exp_bases;
  std::vector<Fr> exp_scalars;
  std::size_t rank = 0;
  for (std::size_t i = 0; i < vars; ++i) {
    if (!d.test(i)) continue;
    exp_bases.push_back(bases[start + rank++]);
    exp_scalars.push_back(scalars[i]);
  }
  ASSERT_EQ(rank, pop);
  const G1Projective want = naive<G1Config>(exp_bases, exp_scalars);
  EXPECT_EQ(msm::msm_density_g1(bases, start, d, scalars), want);
  MsmConfig one;
  one.threads = 1;
  EXPECT_EQ(msm::msm_density_g1(bases, start, d, to_canonical(scalars), one), want);
}

TEST(Density, Groth16QueriesAAndB) {
  std::mt19937_64 rng(1200);
  const std::size_t n_in = 5, n_aux = 300;
  auto inputs = mixed_scalars(n_in, 1201);
  inputs[0] = Fr::one();  // ONE
  auto aux = mixed_scalars(n_aux, 1202);
  std::vector<uint64_t> a_aux((n_aux + 63) / 64), b_in(1), b_aux((n_aux + 63) / 64);
  for (auto& w : a_aux) w = rng();
  for (auto& w : b_aux) w = rng() & rng();
  b_in[0] = 0b10101;
  const Density da(a_aux, n_aux), dbi(b_in, n_in), dba(b_aux, n_aux);

  // A: all inputs, then aux with A-density.
  auto a = random_points<G1Config>(n_in + da.popcount(), 1203);
  auto want_a = G1Projective::identity();
  for (std::size_t i = 0; i < n_in; ++i) want_a += a[i].mul(inputs[i]);
  for (std::size_t j = 0, k = n_in; j < n_aux; ++j)
    if (da.test(j)) want_a += a[k++].mul(aux[j]);
  EXPECT_EQ(msm::msm_query_a<G1Config>(a, inputs, aux, da), want_a);

  // B in G1 and G2: inputs with B-density, then aux with B-density.
  auto b1 = random_points<G1Config>(dbi.popcount() + dba.popcount(), 1204);
  auto b2 = random_points<G2Config>(dbi.popcount() + dba.popcount(), 1205);
  auto want_b1 = G1Projective::identity();
  auto want_b2 = G2Projective::identity();
  std::size_t k = 0;
  for (std::size_t i = 0; i < n_in; ++i)
    if (dbi.test(i)) want_b1 += b1[k].mul(inputs[i]), want_b2 += b2[k].mul(inputs[i]), ++k;
  for (std::size_t j = 0; j < n_aux; ++j)
    if (dba.test(j)) want_b1 += b1[k].mul(aux[j]), want_b2 += b2[k].mul(aux[j]), ++k;
  EXPECT_EQ(msm::msm_query_b<G1Config>(b1, inputs, dbi, aux, dba), want_b1);
  EXPECT_EQ(msm::msm_query_b<G2Config>(b2, inputs, dbi, aux, dba), want_b2);
  // The same through msm_density with bellperson's start offsets.
  EXPECT_EQ(msm::msm_density_g1(b1, 0, dbi, inputs) + msm::msm_density_g1(b1, dbi.popcount(), dba, aux), want_b1);
}

struct FakeTracker {  // the shape of r1cs::DensityTracker
  std::vector<uint64_t> w;
  std::size_t n;
  std::span<const uint64_t> words() const { return w; }
  std::size_t size() const { return n; }
};

TEST(Density, AcceptsTrackerLikeTypes) {
  FakeTracker t{{0b1011}, 4};
  const Density d = t;
  EXPECT_EQ(d.bits, 4u);
  EXPECT_EQ(d.popcount(), 3u);
}

TEST(Density, AcceptsR1csDensityTracker) {
  // The prover's bitmap type goes straight in (bits pushed one at a time, then some set).
  r1cs::DensityTracker t;
  const std::size_t vars = 150;
  for (std::size_t i = 0; i < vars; ++i) t.push_back(i % 3 == 0);
  t.set(1);
  t.set(149);
  auto bases = random_points<G1Config>(t.popcount(), 1250);
  auto scalars = mixed_scalars(vars, 1251);
  auto want = G1Projective::identity();
  for (std::size_t i = 0, k = 0; i < vars; ++i)
    if (t.test(i)) want += bases[k++].mul(scalars[i]);
  EXPECT_EQ(msm::msm_density_g1(bases, 0, t, scalars), want);
  EXPECT_EQ(Density(t).popcount(), t.popcount());
}

// ---- errors --------------------------------------------------------------------------------------

TEST(Errors, LengthMismatchesSayGotAndExpected) {
  auto bases = random_points<G1Config>(4, 1300);
  std::vector<Fr> three(3, Fr::one());
  try {
    (void)msm::msm_g1(bases, three);
    FAIL() << "no throw";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("got 4, expected 3"), std::string::npos) << e.what();
  }
  std::vector<uint64_t> w{0b111};
  const Density d(w, 3);
  std::vector<Fr> four(4, Fr::one());
  EXPECT_THROW((void)msm::msm_density_g1(bases, 0, d, four), ProoflineError);  // bits vs scalars
  EXPECT_THROW((void)msm::msm_density_g1(bases, 2, d, three), ProoflineError);  // 2 bases left, 3 needed
  EXPECT_NO_THROW((void)msm::msm_density_g1(bases, 1, d, three));
  EXPECT_THROW((void)msm::msm_query_a<G1Config>(bases, three, three, d), ProoflineError);  // 4 != 3 + 3
  MsmConfig bad;
  bad.window_bits = 1;
  EXPECT_THROW((void)msm::msm_g1(bases, four, bad), ProoflineError);
  EXPECT_THROW((void)msm::sum_selected_g1(bases, d), ProoflineError);  // 3 bits vs 4 bases
}

TEST(Errors, CanonicalScalarAtLeastRIsRejected) {
  auto bases = random_points<G1Config>(3, 1400);
  std::vector<msm::ScalarLimbs> s(3, msm::ScalarLimbs{5, 0, 0, 0});
  s[2] = Fr::kModulus;
  try {
    (void)msm::msm_g1(bases, s);
    FAIL() << "no throw";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::NotCanonical);
    EXPECT_NE(std::string(e.what()).find("scalar 2"), std::string::npos) << e.what();
  }
}

TEST(WindowChoice, IsSaneAcrossSizes) {
  for (std::size_t lg = 0; lg <= 26; ++lg) {
    for (int t : {1, 2, 16}) {
      const auto w = msm::window_for(std::size_t{1} << lg, t);
      EXPECT_GE(w.window_bits, 2);
      EXPECT_LE(w.window_bits, 18);
      EXPECT_GE(w.chunks, 1);
    }
  }
}

}  // namespace
