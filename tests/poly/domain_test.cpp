// EvaluationDomain and its NTTs against naive O(m^2) transforms, GMP and fixed upstream constants.
//
// Independent references: ROOT_OF_UNITY is compared with bellperson's constant (an outside value,
// ../shared/reference/formats-and-circuits.md §2.5) and with 7^((r−1)/2^32) computed by GMP; the naive
// DFT evaluates Σ x_i·ω^{ij} by Horner's rule, sharing nothing with the transforms but ω (whose order
// is tested on its own). Sizes stay small (<= 2^16) so the suite runs in seconds.
#include "proofline/poly/domain.hpp"

#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using proofline::ff::Fr;
using proofline::ff::u64;
using proofline::poly::DomainConfig;
using proofline::poly::DomainError;
using proofline::poly::EvaluationDomain;
using proofline::poly::NttConfig;
using proofline::poly::Order;

namespace {

constexpr const char* kRootOfUnityHex = "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b";

std::vector<Fr> random_vec(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

u64 rev(u64 x, unsigned bits) {
  u64 r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}

/// Σ_i c[i]·x^i by Horner.
Fr horner(const std::vector<Fr>& c, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = c.size(); i-- > 0;) acc = acc * x + c[i];
  return acc;
}

/// out[j] = Σ_i x[i]·(shift·w^j)^i, j < m.
std::vector<Fr> naive_dft(const std::vector<Fr>& x, const Fr& w, const Fr& shift) {
  std::vector<Fr> out(x.size());
  Fr pt = shift;
  for (std::size_t j = 0; j < x.size(); ++j) {
    out[j] = horner(x, pt);
    pt *= w;
  }
  return out;
}

std::vector<Fr> permuted(const std::vector<Fr>& v, unsigned k) {
  std::vector<Fr> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[rev(i, k)] = v[i];
  return out;
}

bool input_reversed(Order o) { return o == Order::RN || o == Order::RR; }
bool output_reversed(Order o) { return o == Order::NR || o == Order::RR; }
Order mirror(Order o) {
  switch (o) {
    case Order::NR:
      return Order::RN;
    case Order::RN:
      return Order::NR;
    default:
      return o;
  }
}
const char* name(Order o) {
  switch (o) {
    case Order::NN:
      return "NN";
    case Order::NR:
      return "NR";
    case Order::RN:
      return "RN";
    case Order::RR:
      return "RR";
  }
  return "?";
}
constexpr Order kOrders[] = {Order::NN, Order::NR, Order::RN, Order::RR};

}  // namespace

TEST(RootOfUnity, EqualsUpstreamConstant) { EXPECT_EQ(Fr::root_of_unity().to_hex(), kRootOfUnityHex); }

TEST(RootOfUnity, EqualsGmpPower) {
  mpz_t r, e, g, w;
  mpz_inits(r, e, g, w, nullptr);
  mpz_set_str(r, "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
  mpz_sub_ui(e, r, 1);
  mpz_tdiv_q_2exp(e, e, 32);
  mpz_set_ui(g, 7);
  mpz_powm(w, g, e, r);
  char buf[80];
  gmp_snprintf(buf, sizeof buf, "0x%064Zx", w);
  EXPECT_EQ(Fr::root_of_unity().to_hex(), std::string(buf));
  mpz_clears(r, e, g, w, nullptr);
}

TEST(RootOfUnity, HasExactOrderTwoTo32) {
  Fr w = Fr::root_of_unity();
  for (int i = 0; i < 31; ++i) w = w.square();
  EXPECT_EQ(w, -Fr::one());  // ω^(2^31) = −1 ≠ 1
  EXPECT_TRUE(w.square().is_one());
}

TEST(Domain, OmegaHasExactOrderM) {
  for (unsigned k = 0; k <= 32; ++k) {
    const auto d = EvaluationDomain::with_log_size(k);
    ASSERT_EQ(d.size(), u64{1} << k);
    ASSERT_EQ(d.log_size(), k);
    Fr w = d.omega();
    if (k == 0) {
      EXPECT_TRUE(w.is_one());
      continue;
    }
    for (unsigned i = 0; i + 1 < k; ++i) w = w.square();
    EXPECT_EQ(w, -Fr::one()) << "k=" << k;  // ω^(m/2) = −1
    EXPECT_TRUE(w.square().is_one()) << "k=" << k;
    EXPECT_TRUE((d.omega() * d.omega_inv()).is_one());
    EXPECT_TRUE((d.size_inv() * Fr::from_u64(d.size())).is_one());
  }
}

TEST(Domain, Constants) {
  const EvaluationDomain d(1000);
  EXPECT_EQ(d.size(), 1024u);
  EXPECT_EQ(d.coset_generator(), Fr::from_u64(7));
  EXPECT_TRUE((d.coset_generator() * d.coset_generator_inv()).is_one());
  EXPECT_TRUE((d.z_inv_on_coset() * (Fr::from_u64(7).pow(1024) - Fr::one())).is_one());
  EXPECT_EQ(d.z_at(d.omega()), Fr::zero());
}

TEST(Domain, SizeRounding) {
  EXPECT_EQ(EvaluationDomain(0).size(), 1u);
  EXPECT_EQ(EvaluationDomain(1).size(), 1u);
  EXPECT_EQ(EvaluationDomain(2).size(), 2u);
  EXPECT_EQ(EvaluationDomain(3).size(), 4u);
  EXPECT_EQ(EvaluationDomain(5).size(), 8u);
  EXPECT_EQ(EvaluationDomain(65536).size(), 65536u);
  EXPECT_EQ(EvaluationDomain(65537).size(), 131072u);
  EXPECT_EQ(EvaluationDomain(u64{1} << 32).log_size(), 32u);
}

TEST(Domain, TooLargeThrows) {
  try {
    EvaluationDomain d((u64{1} << 32) + 1);
    FAIL() << "no exception";
  } catch (const DomainError& e) {
    EXPECT_NE(std::string(e.what()).find("domain of 2^33 exceeds Fr two-adicity 32"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(EvaluationDomain::with_log_size(33), DomainError);
  EXPECT_THROW(EvaluationDomain(~u64{0}), DomainError);
}

TEST(Domain, WrongLengthThrows) {
  const EvaluationDomain d(8);
  std::vector<Fr> v(7);
  EXPECT_THROW(d.ntt(v), DomainError);
  EXPECT_THROW(d.intt(v), DomainError);
  EXPECT_THROW(d.coset_ntt(v), DomainError);
  EXPECT_THROW(d.coset_intt(v), DomainError);
  EXPECT_THROW(d.divide_by_z_on_coset(v), DomainError);
  v.resize(9);
  EXPECT_THROW(d.ntt(v), DomainError);
}

// All four transforms, all four orders, against the naive DFT, m = 1 … 256 (direct path).
TEST(Ntt, MatchesNaiveDftSmall) {
  std::mt19937_64 rng(1);
  for (unsigned k = 0; k <= 8; ++k) {
    for (unsigned direct_log : {1u, 20u}) {
      const auto d = EvaluationDomain::with_log_size(k, DomainConfig{direct_log});
      const auto x = random_vec(d.size(), rng);
      const Fr one = Fr::one(), g = Fr::from_u64(7);
      const auto fwd = naive_dft(x, d.omega(), one);
      const auto cos = naive_dft(x, d.omega(), g);
      // inverse references: coefficients y with DFT(y) = x
      auto inv = naive_dft(x, d.omega_inv(), one);
      for (auto& e : inv) e *= d.size_inv();
      auto cinv = inv;  // coset: coefficient i of the coset interpolant = inv_i · g^{-i}
      {
        Fr p = one;
        for (auto& e : cinv) {
          e *= p;
          p *= d.coset_generator_inv();
        }
      }
      for (Order o : kOrders) {
        SCOPED_TRACE(std::string("k=") + std::to_string(k) + " order=" + name(o));
        auto in = input_reversed(o) ? permuted(x, k) : x;
        auto expect = [&](const std::vector<Fr>& ref) { return output_reversed(o) ? permuted(ref, k) : ref; };
        NttConfig cfg{o, 0};
        auto v = in;
        d.ntt(v, cfg);
        EXPECT_EQ(v, expect(fwd));
        v = in;
        d.coset_ntt(v, cfg);
        EXPECT_EQ(v, expect(cos));
        v = in;
        d.intt(v, cfg);
        EXPECT_EQ(v, expect(inv));
        v = in;
        d.coset_intt(v, cfg);
        EXPECT_EQ(v, expect(cinv));
      }
    }
  }
}

// Four-step path (forced from 2^3 up): full naive comparison up to 2^9, spot checks of 12 outputs
// above; the direct path at the same sizes, too.
TEST(Ntt, MatchesNaiveDftLarger) {
  std::mt19937_64 rng(2);
  for (unsigned k = 3; k <= 16; ++k) {
    for (unsigned direct_log : {2u, 20u}) {
      const auto d = EvaluationDomain::with_log_size(k, DomainConfig{direct_log});
      ASSERT_EQ(d.four_step(), direct_log < k);
      const auto x = random_vec(d.size(), rng);
      auto v = x;
      d.ntt(v);
      auto c = x;
      d.coset_ntt(c);
      auto nr = x;
      d.ntt(nr, {Order::NR, 0});
      std::vector<u64> js;
      if (k <= 9) {
        for (u64 j = 0; j < d.size(); ++j) js.push_back(j);
      } else {
        js = {0, 1, 2, d.size() / 2, d.size() - 1};
        std::uniform_int_distribution<u64> pick(0, d.size() - 1);
        while (js.size() < 12) js.push_back(pick(rng));
      }
      for (u64 j : js) {
        const Fr pt = d.omega().pow(j);
        ASSERT_EQ(v[j], horner(x, pt)) << "k=" << k << " j=" << j;
        ASSERT_EQ(nr[rev(j, k)], v[j]) << "k=" << k << " j=" << j;
        ASSERT_EQ(c[j], horner(x, pt * d.coset_generator())) << "k=" << k << " j=" << j;
      }
    }
  }
}

TEST(Ntt, RoundTrips) {
  std::mt19937_64 rng(3);
  for (unsigned k = 0; k <= 16; k += (k < 12 ? 1 : 2)) {
    for (unsigned direct_log : {8u, 20u}) {
      if (direct_log == 8 && k <= 8) continue;
      const auto d = EvaluationDomain::with_log_size(k, DomainConfig{direct_log});
      const auto x = random_vec(d.size(), rng);
      for (Order o : kOrders) {
        SCOPED_TRACE(std::string("k=") + std::to_string(k) + " order=" + name(o));
        auto v = x;
        d.ntt(v, {o, 0});
        d.intt(v, {mirror(o), 0});
        ASSERT_EQ(v, x);
        d.coset_ntt(v, {o, 0});
        d.coset_intt(v, {mirror(o), 0});
        ASSERT_EQ(v, x);
      }
    }
  }
}

// The two regimes give identical numbers at the same size.
TEST(Ntt, FourStepEqualsDirect) {
  std::mt19937_64 rng(8);
  for (unsigned k = 2; k <= 15; ++k) {
    const auto direct = EvaluationDomain::with_log_size(k, DomainConfig{20});
    const auto split = EvaluationDomain::with_log_size(k, DomainConfig{1});
    ASSERT_TRUE(split.four_step());
    const auto x = random_vec(direct.size(), rng);
    for (Order o : kOrders) {
      auto a = x, b = x;
      direct.coset_ntt(a, {o, 0});
      split.coset_ntt(b, {o, 0});
      ASSERT_EQ(a, b) << "k=" << k << " order=" << name(o);
      direct.intt(a, {o, 0});
      split.intt(b, {o, 0});
      ASSERT_EQ(a, b) << "k=" << k << " order=" << name(o);
    }
  }
}

TEST(Ntt, BitReverseIsThePermutation) {
  std::mt19937_64 rng(4);
  for (unsigned k = 0; k <= 18; ++k) {
    const auto d = EvaluationDomain::with_log_size(k);
    const auto x = random_vec(d.size(), rng);
    auto v = x;
    d.bit_reverse(v);
    ASSERT_EQ(v, permuted(x, k)) << "k=" << k;
    d.bit_reverse(v);
    ASSERT_EQ(v, x) << "k=" << k;
  }
}

// The TBB path (default arena, and an arena of 2) equals the serial path bit for bit, in both
// regimes; each (size, order) pair runs one of the four transforms, so all combinations occur.
TEST(Ntt, ThreadedEqualsSerial) {
  std::mt19937_64 rng(5);
  for (unsigned k = 12; k <= 16; ++k) {
    for (unsigned direct_log : {10u, 20u}) {
      const auto d = EvaluationDomain::with_log_size(k, DomainConfig{direct_log});
      const auto x = random_vec(d.size(), rng);
      for (unsigned oi = 0; oi < 4; ++oi) {
        const Order o = kOrders[oi];
        const unsigned op = (oi + k + direct_log) % 4;
        auto run = [&](unsigned threads) {
          auto v = x;
          NttConfig cfg{o, threads};
          switch (op) {
            case 0:
              d.ntt(v, cfg);
              break;
            case 1:
              d.intt(v, cfg);
              break;
            case 2:
              d.coset_ntt(v, cfg);
              break;
            default:
              d.coset_intt(v, cfg);
              break;
          }
          return v;
        };
        const auto serial = run(1);
        ASSERT_EQ(run(0), serial) << "k=" << k << " op=" << op << " order=" << name(o);
        ASSERT_EQ(run(2), serial) << "k=" << k << " op=" << op << " order=" << name(o);
      }
    }
  }
}

TEST(Ntt, DivideByZOnCoset) {
  std::mt19937_64 rng(6);
  const auto d = EvaluationDomain::with_log_size(5);
  const auto x = random_vec(d.size(), rng);
  auto v = x;
  d.divide_by_z_on_coset(v);
  Fr pt = d.coset_generator();
  for (std::size_t i = 0; i < v.size(); ++i) {
    EXPECT_EQ(v[i] * d.z_at(pt), x[i]);
    pt *= d.omega();
  }
}

// Linearity and the convolution theorem, as a sanity check of the whole chain at a four-step size.
TEST(Ntt, ConvolutionTheorem) {
  std::mt19937_64 rng(7);
  const auto d = EvaluationDomain::with_log_size(12);
  const std::size_t half = d.size() / 2;
  auto p = random_vec(half, rng), q = random_vec(half, rng);
  p.resize(d.size());
  q.resize(d.size());
  auto P = p, Q = q;
  d.ntt(P);
  d.ntt(Q);
  for (std::size_t i = 0; i < P.size(); ++i) P[i] *= Q[i];
  d.intt(P);  // = p·q, degree < m, so no wrap-around
  const Fr x = Fr::random(rng);
  EXPECT_EQ(horner(P, x), horner(p, x) * horner(q, x));
}
