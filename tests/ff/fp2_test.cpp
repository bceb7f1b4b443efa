// Differential tests of Fp2 = Fp[u]/(u^2 + 1) against a GMP model: an element is a pair (a, b) of
// integers mod p standing for a + b·u, multiplied by schoolbook with u^2 = −1. p is derived from the
// curve parameter x (p = (x − 1)^2 (x^4 − x^2 + 1) / 3 + x); inputs are built as Montgomery limbs
// computed by GMP and results are read back by GMP, so no expected value comes from proofline.
// Square-ness is decided in the model by Euler's criterion in Fp2: a^((p^2 − 1)/2) = 1.
#include <gmp.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "proofline/ff/fp2.hpp"

using proofline::Error;
using proofline::ff::Fp;
using proofline::ff::Fp2;
using proofline::ff::u64;

namespace {

class Z {
 public:
  Z() { mpz_init(v_); }
  Z(unsigned long x) { mpz_init_set_ui(v_, x); }  // NOLINT: implicit on purpose
  Z(const Z& o) { mpz_init_set(v_, o.v_); }
  Z& operator=(const Z& o) {
    mpz_set(v_, o.v_);
    return *this;
  }
  ~Z() { mpz_clear(v_); }
  mpz_ptr get() { return v_; }
  mpz_srcptr get() const { return v_; }
  std::string hex() const {
    std::vector<char> buf(mpz_sizeinbase(v_, 16) + 2);
    mpz_get_str(buf.data(), 16, v_);
    return std::string("0x") + buf.data();
  }

 private:
  mpz_t v_;
};
Z operator+(const Z& a, const Z& b) { Z r; mpz_add(r.get(), a.get(), b.get()); return r; }
Z operator-(const Z& a, const Z& b) { Z r; mpz_sub(r.get(), a.get(), b.get()); return r; }
Z operator*(const Z& a, const Z& b) { Z r; mpz_mul(r.get(), a.get(), b.get()); return r; }
Z operator/(const Z& a, const Z& b) { Z r; mpz_tdiv_q(r.get(), a.get(), b.get()); return r; }
Z operator%(const Z& a, const Z& m) { Z r; mpz_mod(r.get(), a.get(), m.get()); return r; }
bool operator==(const Z& a, const Z& b) { return mpz_cmp(a.get(), b.get()) == 0; }
bool operator<(const Z& a, const Z& b) { return mpz_cmp(a.get(), b.get()) < 0; }
std::ostream& operator<<(std::ostream& os, const Z& z) { return os << z.hex(); }

Z modulus_p() {
  Z x;
  mpz_set_str(x.get(), "-d201000000010000", 16);
  Z r = x * x * x * x - x * x + Z(1);
  return (x - Z(1)) * (x - Z(1)) * r / Z(3) + x;
}

std::array<u64, 6> to_limbs(const Z& z) {
  std::array<u64, 6> l{};
  EXPECT_TRUE(mpz_sgn(z.get()) >= 0 && mpz_sizeinbase(z.get(), 2) <= 384) << z;
  std::size_t count = 0;
  mpz_export(l.data(), &count, -1, sizeof(u64), 0, 0, z.get());
  return l;
}
Z from_limbs(const std::array<u64, 6>& l) {
  Z z;
  mpz_import(z.get(), 6, -1, sizeof(u64), 0, 0, l.data());
  return z;
}

/// a + b·u with a, b in [0, p).
struct E {
  Z a, b;
};

/// The GMP model of Fp2.
struct Model {
  Z p = modulus_p();
  Z R, Rinv;
  Model() {
    Z two384;
    mpz_ui_pow_ui(two384.get(), 2, 384);
    R = two384 % p;
    mpz_invert(Rinv.get(), R.get(), p.get());
  }
  Z red(const Z& x) const { return x % p; }
  E add(const E& x, const E& y) const { return {red(x.a + y.a), red(x.b + y.b)}; }
  E sub(const E& x, const E& y) const { return {red(x.a - y.a), red(x.b - y.b)}; }
  E neg(const E& x) const { return {red(Z(0) - x.a), red(Z(0) - x.b)}; }
  // (a + bu)(c + du) = (ac − bd) + (ad + bc)u.
  E mul(const E& x, const E& y) const { return {red(x.a * y.a - x.b * y.b), red(x.a * y.b + x.b * y.a)}; }
  E pow(const E& x, const Z& e) const {
    E r{Z(1), Z(0)};
    for (std::size_t i = mpz_sizeinbase(e.get(), 2); i-- > 0;) {
      r = mul(r, r);
      if (mpz_tstbit(e.get(), i)) r = mul(r, x);
    }
    return r;
  }
  bool eq(const E& x, const E& y) const { return red(x.a) == red(y.a) && red(x.b) == red(y.b); }
  bool is_square(const E& x) const {  // Euler's criterion in Fp2 (x ≠ 0)
    E t = pow(x, (p * p - Z(1)) / Z(2));
    return eq(t, {Z(1), Z(0)});
  }

  Fp make_fp(const Z& c) const { return Fp::from_montgomery(to_limbs(red(c) * R % p)); }
  Fp2 make(const E& x) const { return {make_fp(x.a), make_fp(x.b)}; }
  Z value(const Fp& f) const {
    Z l = from_limbs(f.limbs);
    EXPECT_TRUE(l < p) << "limbs not reduced: " << l;
    return l * Rinv % p;
  }
  E value(const Fp2& f) const { return {value(f.c0), value(f.c1)}; }
  ::testing::AssertionResult same(const Fp2& f, const E& want) const {
    auto la = to_limbs(red(want.a) * R % p), lb = to_limbs(red(want.b) * R % p);
    if (f.c0.limbs == la && f.c1.limbs == lb) return ::testing::AssertionSuccess();
    E got = value(f);
    return ::testing::AssertionFailure() << "got " << got.a << " + " << got.b << "·u, want " << red(want.a)
                                         << " + " << red(want.b) << "·u";
  }
};

std::vector<Z> fp_edges(const Z& p) {
  Z two64;
  mpz_ui_pow_ui(two64.get(), 2, 64);
  return {Z(0), Z(1), Z(2), p - Z(1), p - Z(2), (p - Z(1)) / Z(2), (p + Z(1)) / Z(2), two64 - Z(1), Z(3)};
}

class Fp2Gmp : public ::testing::Test {
 protected:
  Fp2Gmp() : rng_(2024) {
    gmp_randinit_mt(state_);
    gmp_randseed_ui(state_, 2025);
  }
  ~Fp2Gmp() override { gmp_randclear(state_); }
  Z rand_fp() {
    Z z;
    mpz_urandomm(z.get(), state_, md.p.get());
    return z;
  }
  E rand() { return {rand_fp(), rand_fp()}; }
  /// Edge pairs (every combination of Fp edge values) then random elements.
  std::vector<E> inputs(int n_random) {
    std::vector<E> v;
    auto edges = fp_edges(md.p);
    for (const Z& a : edges) {
      for (const Z& b : edges) v.push_back({a, b});
    }
    for (int i = 0; i < n_random; ++i) v.push_back(rand());
    return v;
  }

  Model md;
  std::mt19937_64 rng_;
  gmp_randstate_t state_;
};

TEST_F(Fp2Gmp, AddSubNegDblConjugateNonresidue) {
  auto in = inputs(2000);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const E& x = in[i];
    const E& y = in[(i * 7 + 3) % in.size()];
    Fp2 a = md.make(x), b = md.make(y);
    ASSERT_TRUE(md.same(a + b, md.add(x, y)));
    ASSERT_TRUE(md.same(a - b, md.sub(x, y)));
    ASSERT_TRUE(md.same(-a, md.neg(x)));
    ASSERT_TRUE(md.same(a.dbl(), md.add(x, x)));
    ASSERT_TRUE(md.same(a.conjugate(), {x.a, Z(0) - x.b}));
    // ξ = 1 + u.
    ASSERT_TRUE(md.same(a.mul_by_nonresidue(), md.mul(x, {Z(1), Z(1)})));
    ASSERT_TRUE(md.same(a.mul_fp(b.c0), md.mul(x, {y.a, Z(0)})));
    ASSERT_EQ(md.value(a.norm()), md.red(x.a * x.a + x.b * x.b));
    ASSERT_EQ(a == b, md.eq(x, y));
    ASSERT_EQ(a.is_zero(), md.eq(x, {Z(0), Z(0)}));
    ASSERT_EQ(a.is_one(), md.eq(x, {Z(1), Z(0)}));
  }
}

TEST_F(Fp2Gmp, MulAndSquare) {
  auto in = inputs(5000);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const E& x = in[i];
    for (const E& y : {in[(i * 13 + 5) % in.size()], in[i % 81]}) {
      Fp2 a = md.make(x), b = md.make(y);
      ASSERT_TRUE(md.same(a * b, md.mul(x, y))) << x.a << " + " << x.b << "u times " << y.a << " + " << y.b << "u";
      Fp2 c = a;
      c *= b;
      ASSERT_TRUE(md.same(c, md.mul(x, y)));
    }
    ASSERT_TRUE(md.same(md.make(x).square(), md.mul(x, x))) << x.a << " + " << x.b << "u";
  }
}

/// The fused assembly (when the CPU has it) against the portable Karatsuba / squaring formulas,
/// on edge pairs, random elements and coefficients whose Montgomery limbs sit just below p; also
/// with the output aliasing an input. Both are checked against GMP.
TEST_F(Fp2Gmp, FusedAssemblyAgreesWithPortable) {
  auto mul = proofline::ff::detect_fp2_fast_mul();
  auto sqr = proofline::ff::detect_fp2_fast_sqr();
  std::printf("Fp2 multiply: %s, square: %s\n", mul ? "fused assembly" : "portable", sqr ? "fused assembly" : "portable");
  EXPECT_EQ(mul != nullptr, proofline::ff::g_fp2_fast_mul != nullptr);
  EXPECT_EQ(sqr != nullptr, proofline::ff::g_fp2_fast_sqr != nullptr);
  std::vector<Fp2> v;
  for (const E& x : inputs(3000)) v.push_back(md.make(x));
  for (unsigned long k = 0; k < 40; ++k) {  // raw limbs p − 1 − k (any value < p is a valid form)
    Fp hi = Fp::from_montgomery(to_limbs(md.p - Z(1) - Z(k)));
    Fp lo = Fp::from_montgomery(to_limbs(Z(k)));
    v.push_back({hi, hi});
    v.push_back({hi, lo});
    v.push_back({lo, hi});
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Fp2& a = v[i];
    const Fp2& b = v[(i * 7 + 3) % v.size()];
    Fp2 want = Fp2::mul_portable(a, b), want_sq = a.square_portable();
    ASSERT_TRUE(md.same(want, md.mul(md.value(a), md.value(b))));
    ASSERT_TRUE(md.same(want_sq, md.mul(md.value(a), md.value(a))));
    ASSERT_EQ(a * b, want);
    ASSERT_EQ(a.square(), want_sq);
    if (mul) {
      Fp2 r;
      mul(r.c0.limbs.data(), a.c0.limbs.data(), b.c0.limbs.data());
      ASSERT_EQ(r, want) << i;
      r = a;
      mul(r.c0.limbs.data(), r.c0.limbs.data(), b.c0.limbs.data());
      ASSERT_EQ(r, want) << "r == a, " << i;
      r = b;
      mul(r.c0.limbs.data(), a.c0.limbs.data(), r.c0.limbs.data());
      ASSERT_EQ(r, want) << "r == b, " << i;
      r = a;
      mul(r.c0.limbs.data(), r.c0.limbs.data(), r.c0.limbs.data());
      ASSERT_EQ(r, want_sq) << "r == a == b, " << i;
    }
    if (sqr) {
      Fp2 r;
      sqr(r.c0.limbs.data(), a.c0.limbs.data());
      ASSERT_EQ(r, want_sq) << i;
      r = a;
      sqr(r.c0.limbs.data(), r.c0.limbs.data());
      ASSERT_EQ(r, want_sq) << "r == a, " << i;
    }
  }
}

TEST_F(Fp2Gmp, FrobeniusIsThePthPower) {
  Z p = md.p;
  for (int i = 0; i < 20; ++i) {
    E x = i == 0 ? E{Z(0), Z(1)} : rand();
    Fp2 a = md.make(x);
    E xp = md.pow(x, p);
    ASSERT_TRUE(md.same(a.frobenius_map(1), xp));
    ASSERT_TRUE(md.same(a.frobenius_map(2), md.pow(xp, p)));
    ASSERT_TRUE(md.same(a.frobenius_map(3), md.pow(md.pow(xp, p), p)));
  }
}

TEST_F(Fp2Gmp, Pow) {
  for (int i = 0; i < 100; ++i) {
    E x = i < 81 ? inputs(0)[static_cast<std::size_t>(i)] : rand();
    Fp2 a = md.make(x);
    std::array<u64, 1> e1{rng_()};
    std::array<u64, 6> e6{};
    for (auto& w : e6) w = rng_();
    std::array<u64, 12> e12{};
    for (auto& w : e12) w = rng_();
    Z z1, z6, z12;
    mpz_import(z1.get(), 1, -1, 8, 0, 0, e1.data());
    mpz_import(z6.get(), 6, -1, 8, 0, 0, e6.data());
    mpz_import(z12.get(), 12, -1, 8, 0, 0, e12.data());
    ASSERT_TRUE(md.same(a.pow(e1), md.pow(x, z1)));
    ASSERT_TRUE(md.same(a.pow(e6), md.pow(x, z6)));
    ASSERT_TRUE(md.same(a.pow(e12), md.pow(x, z12)));
    ASSERT_TRUE(md.same(a.pow(std::array<u64, 1>{0}), {Z(1), Z(0)}));
  }
}

TEST_F(Fp2Gmp, Inverse) {
  auto in = inputs(2000);
  for (const E& x : in) {
    Fp2 inv = md.make(x).inverse();
    if (md.eq(x, {Z(0), Z(0)})) {
      EXPECT_TRUE(inv.is_zero()) << "inverse(0) is documented as 0";
      continue;
    }
    E got = md.value(inv);
    ASSERT_TRUE(md.eq(md.mul(x, got), {Z(1), Z(0)})) << x.a << " + " << x.b << "u";
  }
}

TEST_F(Fp2Gmp, SqrtExistsExactlyForSquaresAndSquaresBack) {
  std::vector<E> in = inputs(150);
  for (int i = 0; i < 100; ++i) {  // known squares, including elements of Fp (all squares in Fp2)
    E s = rand();
    in.push_back(md.mul(s, s));
    in.push_back({rand_fp(), Z(0)});
    in.push_back({Z(0), rand_fp()});
  }
  int roots = 0, non = 0;
  for (const E& x : in) {
    Fp2 a = md.make(x), s;
    bool ok = a.sqrt(s);
    bool zero = md.eq(x, {Z(0), Z(0)});
    bool want = zero || md.is_square(x);
    ASSERT_EQ(ok, want) << x.a << " + " << x.b << "u";
    // legendre() is the Fp Legendre symbol of the norm.
    int leg = a.legendre();
    ASSERT_EQ(leg, zero ? 0 : (want ? 1 : -1)) << x.a << " + " << x.b << "u";
    if (ok) {
      E r = md.value(s);
      ASSERT_TRUE(md.eq(md.mul(r, r), x)) << x.a << " + " << x.b << "u";
      ++roots;
    } else {
      ++non;
    }
  }
  EXPECT_GT(roots, 300);
  EXPECT_GT(non, 50);
}

TEST_F(Fp2Gmp, LexicographicallyLargest) {
  Z half = (md.p - Z(1)) / Z(2);
  for (const E& x : inputs(500)) {
    bool want = x.b == Z(0) ? half < x.a : half < x.b;
    ASSERT_EQ(md.make(x).lexicographically_largest(), want) << x.a << " + " << x.b << "u";
  }
}

TEST_F(Fp2Gmp, BytesAreC1ThenC0BigEndian) {
  auto be48 = [](const Z& z) {
    std::array<uint8_t, 48> out{};
    std::array<uint8_t, 49> raw{};
    std::size_t count = 0;
    mpz_export(raw.data(), &count, 1, 1, 0, 0, z.get());
    std::copy(raw.begin(), raw.begin() + count, out.begin() + (48 - count));
    return out;
  };
  for (const E& x : inputs(500)) {
    std::array<uint8_t, 96> got{}, want{};
    auto hi = be48(x.b), lo = be48(x.a);
    std::copy(hi.begin(), hi.end(), want.begin());
    std::copy(lo.begin(), lo.end(), want.begin() + 48);
    md.make(x).to_bytes_be(got);
    ASSERT_EQ(got, want);
    Fp2 back;
    ASSERT_EQ(Fp2::from_bytes_be(back, want), Error::Ok);
    ASSERT_TRUE(md.same(back, x));
  }
  // Either half >= p is rejected.
  Z two384;
  mpz_ui_pow_ui(two384.get(), 2, 384);
  for (const Z& bad : {md.p, md.p + Z(1), two384 - Z(1)}) {
    std::array<uint8_t, 96> in{};
    auto b = be48(bad), ok = be48(md.p - Z(1));
    Fp2 out;
    std::copy(b.begin(), b.end(), in.begin());
    std::copy(ok.begin(), ok.end(), in.begin() + 48);
    EXPECT_EQ(Fp2::from_bytes_be(out, in), Error::NotCanonical) << "c1 = " << bad;
    std::copy(ok.begin(), ok.end(), in.begin());
    std::copy(b.begin(), b.end(), in.begin() + 48);
    EXPECT_EQ(Fp2::from_bytes_be(out, in), Error::NotCanonical) << "c0 = " << bad;
  }
}

}  // namespace
