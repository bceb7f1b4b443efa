// compute_h against the defining identity a(x)·b(x) − c(x) = h(x)·(x^m − 1) at random points.
//
// Instances: random evaluations a_i, b_i over the domain (constraint i ↔ ω^i) with c_i = a_i·b_i, so
// a·b − c vanishes on the domain; optionally only n < m constraint rows, zero-padded to m as the
// prover does. a(x), b(x), c(x) are computed without any NTT: by a naive O(m^2) inverse DFT plus
// Horner for small m, and by the barycentric Lagrange formula
//   f(x) = (x^m − 1)/m · Σ_i f_i·ω^i/(x − ω^i)
// for every m (O(m) with one batch inversion). h(x) is Horner over the returned coefficients.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "proofline/poly/poly.hpp"

using proofline::ff::Fr;
using proofline::ff::u64;
using proofline::poly::compute_h;
using proofline::poly::DomainConfig;
using proofline::poly::DomainError;
using proofline::poly::EvaluationDomain;
using proofline::poly::NttConfig;
using proofline::poly::Order;

namespace {

Fr horner_eval(const std::vector<Fr>& c, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = c.size(); i-- > 0;) acc = acc * x + c[i];
  return acc;
}

/// Coefficients of the interpolant of evals over <ω>, by the naive inverse DFT.
std::vector<Fr> naive_interpolate(const std::vector<Fr>& evals, const EvaluationDomain& d) {
  std::vector<Fr> coeffs(evals.size());
  const Fr winv = d.omega_inv();
  Fr wi = Fr::one();  // ω^{-i}
  for (std::size_t i = 0; i < evals.size(); ++i) {
    // coeff_i = m^{-1} Σ_j evals_j ω^{-ij}  (Horner in ω^{-i})
    Fr acc = Fr::zero();
    for (std::size_t j = evals.size(); j-- > 0;) acc = acc * wi + evals[j];
    coeffs[i] = acc * d.size_inv();
    wi *= winv;
  }
  return coeffs;
}

/// f(x) from the evaluations f_i = f(ω^i) (x not in the domain), barycentric formula.
Fr barycentric(const std::vector<Fr>& evals, const EvaluationDomain& d, const Fr& x) {
  const std::size_t m = evals.size();
  std::vector<Fr> den(m), scratch(m);
  Fr wi = Fr::one();
  for (std::size_t i = 0; i < m; ++i) {
    den[i] = x - wi;
    wi *= d.omega();
  }
  proofline::ff::batch_inverse<Fr>(den, scratch);
  Fr acc = Fr::zero();
  wi = Fr::one();
  for (std::size_t i = 0; i < m; ++i) {
    acc += evals[i] * wi * den[i];
    wi *= d.omega();
  }
  return acc * d.z_at(x) * d.size_inv();
}

struct Instance {
  std::vector<Fr> a, b, c;  // padded to m
};

/// n constraint rows with c = a·b, zero-padded to m.
Instance satisfied_instance(std::size_t n, std::size_t m, std::mt19937_64& rng) {
  Instance in{std::vector<Fr>(m), std::vector<Fr>(m), std::vector<Fr>(m)};
  for (std::size_t i = 0; i < n; ++i) {
    in.a[i] = Fr::random(rng);
    in.b[i] = Fr::random(rng);
    in.c[i] = in.a[i] * in.b[i];
  }
  return in;
}

Fr random_point_off_domain(const EvaluationDomain& d, std::mt19937_64& rng) {
  for (;;) {
    Fr x = Fr::random(rng);
    if (!d.z_at(x).is_zero()) return x;
  }
}

/// Runs compute_h on a copy and checks the identity at two random points, both ways of evaluating.
void check_h(const Instance& in, const EvaluationDomain& d, std::mt19937_64& rng, bool naive) {
  auto a = in.a, b = in.b, c = in.c;
  compute_h(a, b, c, d);
  const std::size_t m = d.size();
  ASSERT_EQ(a.size(), m);
  EXPECT_TRUE(a[m - 1].is_zero()) << "top coefficient must vanish, m=" << m;
  std::vector<Fr> h(a.begin(), a.end() - 1);  // m − 1 coefficients
  std::vector<Fr> ca, cb, cc;
  if (naive) {
    ca = naive_interpolate(in.a, d);
    cb = naive_interpolate(in.b, d);
    cc = naive_interpolate(in.c, d);
  }
  for (int t = 0; t < 2; ++t) {
    const Fr x = random_point_off_domain(d, rng);
    const Fr rhs = horner_eval(h, x) * d.z_at(x);
    const Fr lhs = barycentric(in.a, d, x) * barycentric(in.b, d, x) - barycentric(in.c, d, x);
    EXPECT_EQ(lhs, rhs) << "barycentric, m=" << m;
    if (naive) {
      EXPECT_EQ(horner_eval(ca, x) * horner_eval(cb, x) - horner_eval(cc, x), rhs) << "naive, m=" << m;
    }
  }
}

}  // namespace

TEST(ComputeH, SatisfiesDivisionIdentitySmall) {
  std::mt19937_64 rng(11);
  for (unsigned k = 0; k <= 9; ++k) {
    const auto d = EvaluationDomain::with_log_size(k);
    SCOPED_TRACE("k=" + std::to_string(k));
    check_h(satisfied_instance(d.size(), d.size(), rng), d, rng, /*naive=*/true);
  }
}

TEST(ComputeH, SatisfiesDivisionIdentityLarger) {
  std::mt19937_64 rng(12);
  for (unsigned k = 10; k <= 14; ++k) {
    for (unsigned direct_log : {9u, 20u}) {
      const auto d = EvaluationDomain::with_log_size(k, DomainConfig{direct_log});
      SCOPED_TRACE("k=" + std::to_string(k) + " four-step=" + std::to_string(d.four_step()));
      check_h(satisfied_instance(d.size(), d.size(), rng), d, rng, /*naive=*/false);
    }
  }
}

TEST(ComputeH, FourStepSmall) {
  std::mt19937_64 rng(19);
  for (unsigned k = 2; k <= 8; ++k) {
    const auto d = EvaluationDomain::with_log_size(k, DomainConfig{1});
    ASSERT_TRUE(d.four_step());
    SCOPED_TRACE("k=" + std::to_string(k));
    check_h(satisfied_instance(d.size(), d.size(), rng), d, rng, /*naive=*/true);
  }
}

// n rows padded to the next power of two, including n = 2^k + 1 (the padding nearly doubles m).
TEST(ComputeH, PaddedRows) {
  std::mt19937_64 rng(13);
  for (std::size_t n : {1u, 3u, 5u, 100u, 129u, 1000u, 4097u}) {
    const EvaluationDomain d(n);
    SCOPED_TRACE("n=" + std::to_string(n));
    check_h(satisfied_instance(n, d.size(), rng), d, rng, /*naive=*/d.size() <= 256);
  }
}

// m = 1: h has no coefficients, a[0] must come out 0; m = 2: one coefficient.
TEST(ComputeH, TinyDomains) {
  std::mt19937_64 rng(14);
  {
    const EvaluationDomain d(1);
    std::vector<Fr> a{Fr::from_u64(3)}, b{Fr::from_u64(5)}, c{Fr::from_u64(15)};
    compute_h(a, b, c, d);
    EXPECT_TRUE(a[0].is_zero());
    EXPECT_TRUE(compute_h({Fr::from_u64(3)}, {Fr::from_u64(5)}, {Fr::from_u64(15)}).empty());
  }
  {
    // a(X) = 1 + X interpolates a = (2, 0) on {1, −1}; b = a, c = a·b = (4, 0):
    // a·b − c = (1 + X)^2 − (2 + 2X) = X^2 − 1 = 1·Z  ⇒ h = [1].
    const EvaluationDomain d(2);
    std::vector<Fr> a{Fr::from_u64(2), Fr::zero()}, b = a, c{Fr::from_u64(4), Fr::zero()};
    compute_h(a, b, c, d);
    EXPECT_EQ(a[0], Fr::one());
    EXPECT_TRUE(a[1].is_zero());
    check_h(satisfied_instance(2, 2, rng), d, rng, true);
  }
}

// An unsatisfied row breaks the identity (compute_h does not check; the proof would not verify).
TEST(ComputeH, UnsatisfiedInstanceFailsIdentity) {
  std::mt19937_64 rng(15);
  const auto d = EvaluationDomain::with_log_size(6);
  auto in = satisfied_instance(d.size(), d.size(), rng);
  in.c[17] += Fr::one();
  auto a = in.a, b = in.b, c = in.c;
  compute_h(a, b, c, d);
  std::vector<Fr> h(a.begin(), a.end() - 1);
  const Fr x = random_point_off_domain(d, rng);
  EXPECT_NE(barycentric(in.a, d, x) * barycentric(in.b, d, x) - barycentric(in.c, d, x),
            horner_eval(h, x) * d.z_at(x));
}

// compute_h equals bellperson's sequence written with the public natural-order API.
TEST(ComputeH, EqualsBellpersonSequence) {
  std::mt19937_64 rng(16);
  for (unsigned k : {0u, 1u, 3u, 8u, 11u, 13u}) {
    const auto d = EvaluationDomain::with_log_size(k);
    auto in = satisfied_instance(d.size(), d.size(), rng);
    in.c[0] += Fr::one();  // also unsatisfied instances must agree
    auto a = in.a, b = in.b, c = in.c;
    compute_h(a, b, c, d);
    auto ra = in.a, rb = in.b, rc = in.c;
    for (auto* v : {&ra, &rb, &rc}) {
      d.intt(*v);
      d.coset_ntt(*v);
    }
    for (std::size_t i = 0; i < ra.size(); ++i) ra[i] = ra[i] * rb[i] - rc[i];
    d.divide_by_z_on_coset(ra);
    d.coset_intt(ra);
    EXPECT_EQ(a, ra) << "k=" << k;
  }
}

TEST(ComputeH, ThreadedEqualsSerial) {
  std::mt19937_64 rng(17);
  for (unsigned k : {12u, 14u, 15u}) {
    const auto d = EvaluationDomain::with_log_size(k, DomainConfig{k == 14 ? 10u : 20u});
    const auto in = satisfied_instance(d.size() - 3, d.size(), rng);
    auto run = [&](unsigned threads) {
      auto a = in.a, b = in.b, c = in.c;
      compute_h(a, b, c, d, NttConfig{Order::NN, threads});
      return a;
    };
    const auto serial = run(1);
    EXPECT_EQ(run(0), serial) << "k=" << k;
    EXPECT_EQ(run(2), serial) << "k=" << k;
  }
}

TEST(ComputeH, VectorApiPadsAndTrims) {
  std::mt19937_64 rng(18);
  auto in = satisfied_instance(100, 100, rng);
  const EvaluationDomain d(100);
  auto padded = satisfied_instance(0, d.size(), rng);
  std::copy(in.a.begin(), in.a.end(), padded.a.begin());
  std::copy(in.b.begin(), in.b.end(), padded.b.begin());
  std::copy(in.c.begin(), in.c.end(), padded.c.begin());
  auto h = compute_h(in.a, in.b, in.c);
  ASSERT_EQ(h.size(), d.size() - 1);
  auto a = padded.a, b = padded.b, c = padded.c;
  compute_h(a, b, c, d);
  EXPECT_EQ(h, std::vector<Fr>(a.begin(), a.end() - 1));
}

TEST(ComputeH, WrongLengthThrows) {
  const EvaluationDomain d(8);
  std::vector<Fr> a(8), b(8), c(7);
  EXPECT_THROW(compute_h(a, b, c, d), DomainError);
}
