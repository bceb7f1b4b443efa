// Pairing: final exponentiation against the literal exponent (p^12 − 1)/r computed with GMP,
// bilinearity, identities, non-degeneracy, order r, multi-Miller loop = product of pairings.
#include "proofline/pairing/pairing.hpp"

#include <gmp.h>
#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

using namespace proofline;
using ff::Fp12;
using ff::Fr;
using pairing::G1Affine;
using pairing::G2Affine;

using ff::u64;

G1Affine g1_generator() { return G1Affine::generator(); }
G2Affine g2_generator() { return G2Affine::generator(); }
G1Affine g1_mul(const G1Affine& p, const Fr& k) { return p.mul(k).to_affine(); }
G2Affine g2_mul(const G2Affine& p, const Fr& k) { return p.mul(k).to_affine(); }

/// Little-endian 64-bit limbs of a non-negative mpz.
std::vector<u64> limbs_of(const mpz_t z) {
  std::vector<u64> out((mpz_sizeinbase(z, 2) + 63) / 64);
  size_t count = 0;
  mpz_export(out.data(), &count, -1, sizeof(u64), 0, 0, z);
  out.resize(count);
  return out;
}

/// (p^12 − 1)/r from the moduli, by GMP.
std::vector<u64> final_exponent() {
  mpz_t p, r, e;
  mpz_inits(p, r, e, nullptr);
  mpz_import(p, 6, -1, sizeof(u64), 0, 0, ff::FpParams::kModulus.data());
  mpz_import(r, 4, -1, sizeof(u64), 0, 0, ff::FrParams::kModulus.data());
  mpz_pow_ui(e, p, 12);
  mpz_sub_ui(e, e, 1);
  EXPECT_TRUE(mpz_divisible_p(e, r));
  mpz_divexact(e, e, r);
  auto out = limbs_of(e);
  mpz_clears(p, r, e, nullptr);
  return out;
}

/// f^e for a limb vector e (generic square-and-multiply, no cyclotomic shortcuts).
Fp12 pow_vec(const Fp12& f, const std::vector<u64>& e) {
  Fp12 r = Fp12::one();
  for (size_t i = e.size(); i-- > 0;) {
    for (int b = 63; b >= 0; --b) {
      r = r.square();
      if ((e[i] >> b) & 1) r = r * f;
    }
  }
  return r;
}

G1Affine neg(const G1Affine& p) { return -p; }

bool on_g1(const G1Affine& p) { return p.y.square() == p.x.square() * p.x + ff::Fp::from_u64(4); }
bool on_g2(const G2Affine& q) {
  const ff::Fp2 b{ff::Fp::from_u64(4), ff::Fp::from_u64(4)};  // 4(1 + u)
  return q.y.square() == q.x.square() * q.x + b;
}

TEST(Pairing, GeneratorsAreValid) {
  // The ec layer's generators are the points the pairing tests and the noble dump start from.
  EXPECT_TRUE(on_g1(g1_generator()));
  EXPECT_TRUE(on_g2(g2_generator()));
  EXPECT_FALSE(g1_generator().infinity);
  EXPECT_FALSE(g2_generator().infinity);
}

TEST(Pairing, FinalExponentiationIsTheStandardPower) {
  const auto e = final_exponent();
  std::mt19937_64 rng(11);
  const Fp12 f = Fp12::random(rng);
  EXPECT_EQ(pairing::final_exponentiation(f), pow_vec(f, e));
  const Fp12 m = pairing::miller_loop(g1_generator(), g2_generator());
  const Fp12 g = pairing::final_exponentiation(m);
  EXPECT_EQ(g, pow_vec(m, e));
  EXPECT_NE(g, pow_vec(m, e).pow(3));  // not the 3·(p^12 − 1)/r variant
}

TEST(Pairing, NonDegenerateAndOrderR) {
  const Fp12 e = pairing::pairing(g1_generator(), g2_generator());
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(ff::FrParams::kModulus).is_one());
  EXPECT_TRUE((e.frobenius_map(4) * e) == e.frobenius_map(2));  // cyclotomic
}

TEST(Pairing, Bilinearity) {
  std::mt19937_64 rng(12);
  const G1Affine p = g1_generator();
  const G2Affine q = g2_generator();
  const Fp12 e = pairing::pairing(p, q);
  for (int i = 0; i < 2; ++i) {
    const Fr a = Fr::random(rng), b = Fr::random(rng);
    const G1Affine ap = g1_mul(p, a);
    const G2Affine bq = g2_mul(q, b);
    const Fp12 eab = pairing::pairing(ap, bq);
    EXPECT_EQ(eab, e.pow((a * b).to_canonical()));
    EXPECT_EQ(eab, pairing::pairing(g1_mul(p, a * b), q));
    EXPECT_EQ(eab, pairing::pairing(p, g2_mul(q, a * b)));
    // e(P, Q) · e(−P, Q) = 1
    EXPECT_TRUE((pairing::pairing(ap, bq) * pairing::pairing(neg(ap), bq)).is_one());
  }
  // Small scalars: e(2P, Q) = e(P, Q)^2 = e(P, 2Q).
  const G1Affine p2 = (p.to_projective() + p.to_projective()).to_affine();
  const G2Affine q2 = (q.to_projective() + q.to_projective()).to_affine();
  EXPECT_EQ(pairing::pairing(p2, q), e.square());
  EXPECT_EQ(pairing::pairing(p, q2), e.square());
  EXPECT_EQ(pairing::pairing(p2, q), pairing::pairing(p, q2));
}

TEST(Pairing, Identities) {
  const G1Affine p = g1_generator();
  const G2Affine q = g2_generator();
  const G1Affine o1{};
  const G2Affine o2{};
  EXPECT_TRUE(pairing::pairing(p, o2).is_one());
  EXPECT_TRUE(pairing::pairing(o1, q).is_one());
  EXPECT_TRUE(pairing::pairing(o1, o2).is_one());
  EXPECT_TRUE(pairing::miller_loop(p, o2).is_one());
  const std::pair<G1Affine, G2Affine> with_identity[] = {{p, q}, {o1, q}, {p, o2}};
  EXPECT_EQ(pairing::final_exponentiation(pairing::multi_miller_loop(with_identity)), pairing::pairing(p, q));
  EXPECT_TRUE(pairing::pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>>{}));
}

TEST(Pairing, MultiMillerLoopIsProductOfPairings) {
  std::mt19937_64 rng(13);
  const G1Affine p = g1_generator();
  const G2Affine q = g2_generator();
  // 10 pairs: more than one internal chunk of 8.
  std::vector<std::pair<G1Affine, G2Affine>> pairs;
  std::vector<G1Affine> ps;
  std::vector<G2Affine> qs;
  Fp12 expected = Fp12::one();
  for (int i = 0; i < 10; ++i) {
    const Fr a = Fr::from_u64(rng() | 1), b = Fr::from_u64(rng() | 1);
    pairs.emplace_back(g1_mul(p, a), g2_mul(q, b));
    ps.push_back(pairs.back().first);
    qs.push_back(pairs.back().second);
    expected *= pairing::pairing(pairs.back().first, pairs.back().second);
  }
  EXPECT_EQ(pairing::final_exponentiation(pairing::multi_miller_loop(pairs)), expected);
  EXPECT_EQ(pairing::final_exponentiation(pairing::multi_miller_loop(ps, qs)), expected);
  EXPECT_THROW(pairing::multi_miller_loop(ps, std::span<const G2Affine>(qs).first(9)), ProoflineError);
}

TEST(Pairing, ProductIsOne) {
  std::mt19937_64 rng(14);
  const G1Affine p = g1_generator();
  const G2Affine q = g2_generator();
  const Fr a = Fr::random(rng), b = Fr::random(rng);
  // e(aP, bQ) · e(−abP, Q) = 1, the shape of a Groth16 check.
  const std::pair<G1Affine, G2Affine> good[] = {{g1_mul(p, a), g2_mul(q, b)}, {neg(g1_mul(p, a * b)), q}};
  EXPECT_TRUE(pairing::pairing_product_is_one(good));
  const std::pair<G1Affine, G2Affine> bad[] = {{g1_mul(p, a), g2_mul(q, b)}, {neg(g1_mul(p, a + b)), q}};
  EXPECT_FALSE(pairing::pairing_product_is_one(bad));
  const G1Affine ps[] = {good[0].first, good[1].first};
  const G2Affine qs[] = {good[0].second, good[1].second};
  EXPECT_TRUE(pairing::pairing_product_is_one(ps, qs));
}

}  // namespace
