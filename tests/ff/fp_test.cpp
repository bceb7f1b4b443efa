// Differential tests of the prime fields Fp (381-bit) and Fr (255-bit) against GMP.
//
// Every expected value comes from GMP (mpz_*), never from proofline: the moduli are derived from
// the BLS12-381 curve parameter x = −0xd201000000010000 (r = x^4 − x^2 + 1,
// p = (x − 1)^2 · r / 3 + x), inputs are built as Montgomery limbs c·2^(64N) mod m computed by GMP,
// and results are read back by GMP (limbs · 2^(−64N) mod m). So an arithmetic test exercises only
// the operation under test, and the conversions are tested on their own.
//
// Inputs: edge values (0, 1, 2, m−1, m−2, (m±1)/2, 2^64−1, words of all-ones limbs below m, R, R^2,
// values sharing m's high limbs, m − small) in all pairs, plus thousands of uniform and
// limb-structured random values. Fp also checks its fast multiply (mulx/adx assembly, when present)
// against `fp_mul_portable`, including products steered to land next to the modulus.
#include <gmp.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "proofline/ff/fp.hpp"
#include "proofline/ff/fr.hpp"

using proofline::Error;
using proofline::ff::Fp;
using proofline::ff::Fr;
using proofline::ff::u64;

namespace {

// ---- a minimal RAII mpz_t with the operators the tests need ------------------------------------
class Z {
 public:
  Z() { mpz_init(v_); }
  Z(unsigned long x) { mpz_init_set_ui(v_, x); }  // NOLINT: implicit on purpose (Z(1), Z(0))
  Z(const Z& o) { mpz_init_set(v_, o.v_); }
  Z& operator=(const Z& o) {
    mpz_set(v_, o.v_);
    return *this;
  }
  ~Z() { mpz_clear(v_); }
  mpz_ptr get() { return v_; }
  mpz_srcptr get() const { return v_; }

  static Z from_hex(const char* hex) {
    Z z;
    mpz_set_str(z.v_, hex, 16);
    return z;
  }
  static Z pow2(unsigned k) {
    Z z;
    mpz_ui_pow_ui(z.get(), 2, k);
    return z;
  }
  std::string hex() const {
    char* s = mpz_get_str(nullptr, 16, v_);
    std::string r = std::string("0x") + s;
    void (*freefunc)(void*, size_t);
    mp_get_memory_functions(nullptr, nullptr, &freefunc);
    freefunc(s, std::char_traits<char>::length(s) + 1);
    return r;
  }

 private:
  mpz_t v_;
};

Z operator+(const Z& a, const Z& b) { Z r; mpz_add(r.get(), a.get(), b.get()); return r; }
Z operator-(const Z& a, const Z& b) { Z r; mpz_sub(r.get(), a.get(), b.get()); return r; }
Z operator*(const Z& a, const Z& b) { Z r; mpz_mul(r.get(), a.get(), b.get()); return r; }
Z operator/(const Z& a, const Z& b) { Z r; mpz_tdiv_q(r.get(), a.get(), b.get()); return r; }
/// Non-negative remainder.
Z operator%(const Z& a, const Z& m) { Z r; mpz_mod(r.get(), a.get(), m.get()); return r; }
bool operator==(const Z& a, const Z& b) { return mpz_cmp(a.get(), b.get()) == 0; }
bool operator<(const Z& a, const Z& b) { return mpz_cmp(a.get(), b.get()) < 0; }
std::ostream& operator<<(std::ostream& os, const Z& z) { return os << z.hex(); }

Z powm(const Z& b, const Z& e, const Z& m) { Z r; mpz_powm(r.get(), b.get(), e.get(), m.get()); return r; }
Z invert(const Z& a, const Z& m) { Z r; EXPECT_NE(mpz_invert(r.get(), a.get(), m.get()), 0); return r; }

template <std::size_t N>
Z from_limbs(const std::array<u64, N>& l) {
  Z z;
  mpz_import(z.get(), N, -1, sizeof(u64), 0, 0, l.data());
  return z;
}
template <std::size_t N>
std::array<u64, N> to_limbs(const Z& z) {
  std::array<u64, N> l{};
  if (mpz_sgn(z.get()) < 0 || mpz_sizeinbase(z.get(), 2) > 64 * N) {
    ADD_FAILURE() << z << " does not fit in " << N << " limbs";
    return l;
  }
  std::size_t count = 0;
  mpz_export(l.data(), &count, -1, sizeof(u64), 0, 0, z.get());
  return l;
}

/// Exactly n bytes of z, big-endian (order 1) or little-endian (order −1), zero-padded.
std::vector<uint8_t> export_bytes(const Z& z, std::size_t n, int order) {
  std::vector<uint8_t> out(n, 0);
  std::vector<uint8_t> raw((mpz_sizeinbase(z.get(), 2) + 7) / 8 + 1, 0);
  std::size_t count = 0;
  mpz_export(raw.data(), &count, order, 1, 0, 0, z.get());
  EXPECT_LE(count, n);
  if (order == 1) {
    std::copy(raw.begin(), raw.begin() + count, out.begin() + (n - count));
  } else {
    std::copy(raw.begin(), raw.begin() + count, out.begin());
  }
  return out;
}
Z import_bytes(const std::vector<uint8_t>& b, int order) {
  Z z;
  mpz_import(z.get(), b.size(), order, 1, 0, 0, b.data());
  return z;
}

// ---- the BLS12-381 moduli, from the curve parameter x --------------------------------------------
Z curve_x() { return Z(0) - Z::from_hex("d201000000010000"); }
Z modulus_r() {
  Z x = curve_x();
  return x * x * x * x - x * x + Z(1);
}
Z modulus_p() {
  Z x = curve_x();
  Z xm1 = x - Z(1);
  Z num = xm1 * xm1 * modulus_r();
  EXPECT_EQ(num % Z(3), Z(0));
  return num / Z(3) + x;
}

// ---- per-field traits ---------------------------------------------------------------------------
template <class F>
struct Traits;
template <>
struct Traits<Fp> {
  static Z modulus() { return modulus_p(); }
  static constexpr unsigned kBits = 381;
  static constexpr const char* kName = "Fp";
  using Params = proofline::ff::FpParams;
  static constexpr auto portable = proofline::ff::fp_mul_portable;
  static auto detect_mul() { return proofline::ff::detect_fp_fast_mul(); }
  static auto detect_sqr() { return proofline::ff::detect_fp_fast_sqr(); }
};
template <>
struct Traits<Fr> {
  static Z modulus() { return modulus_r(); }
  static constexpr unsigned kBits = 255;
  static constexpr const char* kName = "Fr";
  using Params = proofline::ff::FrParams;
  static constexpr auto portable = proofline::ff::fr_mul_portable;
  static auto detect_mul() { return proofline::ff::detect_fr_fast_mul(); }
  static auto detect_sqr() { return proofline::ff::detect_fr_fast_sqr(); }
};

/// GMP model of one field: Montgomery conversion and independent reading of results.
template <class F>
struct Model {
  static constexpr std::size_t N = F::kLimbs;
  Z m = Traits<F>::modulus();
  Z R = Z::pow2(64 * N) % m;
  Z Rinv = invert(R, m);

  /// Element whose Montgomery limbs GMP computed: c·R mod m (c taken mod m).
  F make(const Z& c) const { return F::from_montgomery(to_limbs<N>((c % m) * R % m)); }
  /// Canonical value of an element, read by GMP; fails if the limbs are not fully reduced.
  Z value(const F& f) const {
    Z l = from_limbs<N>(f.limbs);
    EXPECT_TRUE(l < m) << "limbs not reduced: " << l;
    return l * Rinv % m;
  }
  /// Asserts that f holds exactly the Montgomery form of `expected` (mod m).
  ::testing::AssertionResult same(const F& f, const Z& expected) const {
    auto want = to_limbs<N>((expected % m) * R % m);
    if (f.limbs == want) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got limbs " << from_limbs<N>(f.limbs) << ", want "
                                         << from_limbs<N>(want) << " (value " << (expected % m)
                                         << ")";
  }

  /// Edge values, all < m.
  std::vector<Z> edges() const {
    std::vector<Z> v;
    for (unsigned long k : {0ul, 1ul, 2ul, 3ul, 4ul, 7ul}) v.push_back(Z(k));
    v.push_back(m - Z(1));
    v.push_back(m - Z(2));
    v.push_back(m - Z(3));
    v.push_back((m - Z(1)) / Z(2));
    v.push_back((m + Z(1)) / Z(2));
    v.push_back((m + Z(3)) / Z(2));
    v.push_back(Z::pow2(64) - Z(1));
    v.push_back(Z::pow2(64));
    v.push_back(Z::pow2(63));
    v.push_back(R);             // Montgomery one
    v.push_back(R * R % m);     // R^2
    v.push_back(Rinv);          // limbs of 1 read as Montgomery
    v.push_back(m - R);         // −R
    v.push_back(Z::pow2(Traits<F>::kBits - 1));
    v.push_back(Z::pow2(Traits<F>::kBits - 1) - Z(1));
    for (std::size_t k = 1; k < N; ++k) {
      Z low = Z::pow2(64 * static_cast<unsigned>(k));
      v.push_back(low - Z(1));           // the k low limbs all ones
      v.push_back(m / low * low - Z(1)); // m's high limbs (lowest one less 1), low limbs all ones
      v.push_back(m / low * low);        // m's high limbs, low limbs zero
      v.push_back(m - low);              // m − 2^(64k)
      v.push_back(m - low + Z(1));
    }
    // m with one limb forced to all ones where that stays below m.
    auto ml = to_limbs<N>(m);
    for (std::size_t k = 0; k + 1 < N; ++k) {
      auto l = ml;
      l[k] = ~u64{0};
      l[N - 1] -= 1;
      v.push_back(from_limbs<N>(l));
    }
    for (Z& z : v) z = z % m;
    return v;
  }
};

/// Random values: uniform below m, near m, and limb-structured (each limb 0, all ones, m's limb
/// or random), reduced mod m.
template <class F>
class Source {
 public:
  explicit Source(const Model<F>& model, unsigned long seed) : model_(model), rng_(seed) {
    gmp_randinit_mt(state_);
    gmp_randseed_ui(state_, seed);
  }
  ~Source() { gmp_randclear(state_); }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  Z uniform() {
    Z z;
    mpz_urandomm(z.get(), state_, model_.m.get());
    return z;
  }
  Z below_bits(unsigned bits) {
    Z z;
    mpz_urandomb(z.get(), state_, bits);
    return z;
  }
  Z next() {
    switch (rng_() % 4) {
      case 0:
      case 1:
        return uniform();
      case 2:  // just below m
        return model_.m - Z(1) - below_bits(static_cast<unsigned>(1 + rng_() % (64 * Model<F>::N - 8))) % model_.m;
      default: {
        auto ml = to_limbs<Model<F>::N>(model_.m);
        std::array<u64, Model<F>::N> l{};
        for (std::size_t i = 0; i < l.size(); ++i) {
          switch (rng_() % 4) {
            case 0: l[i] = 0; break;
            case 1: l[i] = ~u64{0}; break;
            case 2: l[i] = ml[i]; break;
            default: l[i] = rng_(); break;
          }
        }
        return from_limbs<Model<F>::N>(l) % model_.m;
      }
    }
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  const Model<F>& model_;
  std::mt19937_64 rng_;
  gmp_randstate_t state_;
};

template <class F>
class PrimeField : public ::testing::Test {
 protected:
  Model<F> md;
};
using Fields = ::testing::Types<Fp, Fr>;
class FieldNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, Fp> ? "Fp" : "Fr";
  }
};
TYPED_TEST_SUITE(PrimeField, Fields, FieldNames);

constexpr int kRandomPairs = 4000;

// ---- parameters and constants -------------------------------------------------------------------

TYPED_TEST(PrimeField, ModulusIsTheCurvePrime) {
  using F = TypeParam;
  const auto& md = this->md;
  EXPECT_EQ(from_limbs<F::kLimbs>(F::kModulus), md.m);
  EXPECT_GT(mpz_probab_prime_p(md.m.get(), 40), 0);
  EXPECT_EQ(F::kModulusBits, Traits<F>::kBits);
  EXPECT_EQ(mpz_sizeinbase(md.m.get(), 2), Traits<F>::kBits);
}

TYPED_TEST(PrimeField, MontgomeryConstants) {
  using F = TypeParam;
  constexpr std::size_t N = F::kLimbs;
  const auto& md = this->md;
  EXPECT_EQ(from_limbs<N>(F::kR), md.R);
  EXPECT_EQ(from_limbs<N>(F::kR2), md.R * md.R % md.m);
  // kInv = −m^{-1} mod 2^64.
  Z two64 = Z::pow2(64);
  EXPECT_EQ(Z(F::kInv) * md.m % two64, two64 - Z(1));
  EXPECT_EQ(from_limbs<N>(F::one().limbs), md.R);
  EXPECT_TRUE(F::one().is_one());
  EXPECT_TRUE(F::zero().is_zero());
  EXPECT_FALSE(F::one().is_zero());
  EXPECT_FALSE(F::zero().is_one());
}

// ---- conversions ----------------------------------------------------------------------------------

TYPED_TEST(PrimeField, CanonicalMontgomeryRoundTrip) {
  using F = TypeParam;
  constexpr std::size_t N = F::kLimbs;
  const auto& md = this->md;
  Source<F> src(md, 11);
  std::vector<Z> vals = md.edges();
  for (int i = 0; i < kRandomPairs; ++i) vals.push_back(src.next());
  for (const Z& c : vals) {
    F f;
    ASSERT_EQ(F::from_canonical(f, to_limbs<N>(c)), Error::Ok) << c;
    // Montgomery form: limbs == c·2^(64N) mod m.
    ASSERT_TRUE(md.same(f, c)) << c;
    EXPECT_EQ(F::from_canonical_unchecked(to_limbs<N>(c)), f) << c;
    EXPECT_EQ(from_limbs<N>(f.to_canonical()), c);
    // is_zero / is_one agree with the value.
    EXPECT_EQ(f.is_zero(), c == Z(0));
    EXPECT_EQ(f.is_one(), c == Z(1));
    // lexicographically_largest: c > (m−1)/2.
    EXPECT_EQ(f.lexicographically_largest(), (md.m - Z(1)) / Z(2) < c) << c;
    // to_hex: 0x + 2·kBytes lower-case digits.
    std::string want = Z(c).hex().substr(2);
    want.insert(0, 2 * F::kBytes - want.size(), '0');
    EXPECT_EQ(f.to_hex(), "0x" + want);
  }
  for (u64 x : {u64{0}, u64{1}, u64{2}, u64{0xffffffff}, ~u64{0}, u64{0x8000000000000000}}) {
    EXPECT_TRUE(md.same(F::from_u64(x), Z(x)));
  }
  std::mt19937_64 rng(12);
  for (int i = 0; i < 1000; ++i) {
    u64 x = rng();
    EXPECT_TRUE(md.same(F::from_u64(x), Z(x)));
  }
}

TYPED_TEST(PrimeField, FromCanonicalRejectsValuesAtOrAboveModulus) {
  using F = TypeParam;
  constexpr std::size_t N = F::kLimbs;
  const auto& md = this->md;
  Source<F> src(md, 13);
  std::vector<Z> bad = {md.m, md.m + Z(1), md.m + Z(2), md.m + Z::pow2(64), md.m * Z(2),
                        Z::pow2(Traits<F>::kBits) - Z(1), Z::pow2(Traits<F>::kBits),
                        Z::pow2(64 * N - 1), Z::pow2(64 * N) - Z(1)};
  for (int i = 0; i < 500; ++i) bad.push_back(md.m + src.below_bits(64 * N) % (Z::pow2(64 * N) - md.m));
  for (const Z& c : bad) {
    F f;
    EXPECT_EQ(F::from_canonical(f, to_limbs<N>(c)), Error::NotCanonical) << c;
  }
  F f;
  EXPECT_EQ(F::from_canonical(f, to_limbs<N>(md.m - Z(1))), Error::Ok);
  EXPECT_TRUE(md.same(f, md.m - Z(1)));
}

TYPED_TEST(PrimeField, ByteEncodingsMatchGmpExport) {
  using F = TypeParam;
  constexpr std::size_t B = F::kBytes;
  const auto& md = this->md;
  Source<F> src(md, 14);
  std::vector<Z> vals = md.edges();
  for (int i = 0; i < kRandomPairs; ++i) vals.push_back(src.next());
  for (const Z& c : vals) {
    F f = md.make(c);
    std::array<uint8_t, B> le{}, be{};
    f.to_bytes_le(le);
    f.to_bytes_be(be);
    auto want_le = export_bytes(c, B, -1), want_be = export_bytes(c, B, 1);
    ASSERT_TRUE(std::equal(le.begin(), le.end(), want_le.begin())) << c;
    ASSERT_TRUE(std::equal(be.begin(), be.end(), want_be.begin())) << c;
    F g, h;
    ASSERT_EQ(F::from_bytes_le(g, std::span<const uint8_t, B>(want_le.data(), B)), Error::Ok);
    ASSERT_EQ(F::from_bytes_be(h, std::span<const uint8_t, B>(want_be.data(), B)), Error::Ok);
    EXPECT_TRUE(md.same(g, c));
    EXPECT_TRUE(md.same(h, c));
  }
  // Random byte strings: accepted iff the integer (per GMP) is below m.
  std::mt19937_64& rng = src.rng();
  int accepted = 0;
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> bytes(B);
    for (auto& b : bytes) b = static_cast<uint8_t>(rng());
    // Bias half of them to the modulus' bit length so both outcomes occur often.
    if (i % 2) {
      unsigned excess = 8 * B - Traits<F>::kBits;
      bytes[0] &= static_cast<uint8_t>(0xff >> excess);           // BE top byte
      bytes[B - 1] &= static_cast<uint8_t>(0xff >> excess);       // LE top byte
    }
    for (int order : {-1, 1}) {
      Z c = import_bytes(bytes, order);
      F f;
      std::span<const uint8_t, B> in(bytes.data(), B);
      Error e = order == -1 ? F::from_bytes_le(f, in) : F::from_bytes_be(f, in);
      if (c < md.m) {
        ASSERT_EQ(e, Error::Ok) << c;
        EXPECT_TRUE(md.same(f, c));
        ++accepted;
      } else {
        ASSERT_EQ(e, Error::NotCanonical) << c;
      }
    }
  }
  EXPECT_GT(accepted, 100);
}

TYPED_TEST(PrimeField, ByteParsersRejectNonCanonical) {
  using F = TypeParam;
  constexpr std::size_t B = F::kBytes;
  const auto& md = this->md;
  // Fr: r, r+1, 2^255−1, 2^256−1; Fp: p, p+1, 2^381−1, 2^384−1 (and neighbours).
  std::vector<Z> bad = {md.m, md.m + Z(1), md.m + Z(255), md.m + Z::pow2(64),
                        Z::pow2(Traits<F>::kBits) - Z(1), Z::pow2(Traits<F>::kBits),
                        Z::pow2(8 * B - 1), Z::pow2(8 * B) - Z(1)};
  for (const Z& c : bad) {
    for (int order : {-1, 1}) {
      auto bytes = export_bytes(c, B, order);
      std::span<const uint8_t, B> in(bytes.data(), B);
      F f;
      Error e = order == -1 ? F::from_bytes_le(f, in) : F::from_bytes_be(f, in);
      EXPECT_EQ(e, Error::NotCanonical) << c << (order == -1 ? " LE" : " BE");
    }
  }
  for (const Z& c : {md.m - Z(1), md.m - Z(2), Z(0)}) {
    for (int order : {-1, 1}) {
      auto bytes = export_bytes(c, B, order);
      std::span<const uint8_t, B> in(bytes.data(), B);
      F f;
      Error e = order == -1 ? F::from_bytes_le(f, in) : F::from_bytes_be(f, in);
      ASSERT_EQ(e, Error::Ok) << c;
      EXPECT_TRUE(md.same(f, c));
    }
  }
}

// ---- arithmetic -----------------------------------------------------------------------------------

template <class F>
void check_binary_ops(const Model<F>& md, const Z& a, const Z& b) {
  const Z& m = md.m;
  F x = md.make(a), y = md.make(b);
  ASSERT_TRUE(md.same(x + y, a + b)) << "add " << a << " " << b;
  ASSERT_TRUE(md.same(x - y, a - b + m)) << "sub " << a << " " << b;
  ASSERT_TRUE(md.same(x * y, a * b)) << "mul " << a << " " << b;
  F z = x;
  z += y;
  ASSERT_TRUE(md.same(z, a + b));
  z = x;
  z -= y;
  ASSERT_TRUE(md.same(z, a - b + m));
  z = x;
  z *= y;
  ASSERT_TRUE(md.same(z, a * b));
  ASSERT_EQ(x == y, a == b);
}

template <class F>
void check_unary_ops(const Model<F>& md, const Z& a) {
  const Z& m = md.m;
  F x = md.make(a);
  ASSERT_TRUE(md.same(-x, m - a)) << "neg " << a;
  ASSERT_TRUE(md.same(x.square(), a * a)) << "square " << a;
  ASSERT_TRUE(md.same(x.dbl(), a + a)) << "dbl " << a;
}

TYPED_TEST(PrimeField, AddSubNegMulSquareDblOnEdgePairs) {
  const auto& md = this->md;
  auto edges = md.edges();
  for (const Z& a : edges) {
    ASSERT_NO_FATAL_FAILURE(check_unary_ops(md, a));
    for (const Z& b : edges) ASSERT_NO_FATAL_FAILURE(check_binary_ops(md, a, b));
  }
}

TYPED_TEST(PrimeField, AddSubNegMulSquareDblOnRandomPairs) {
  const auto& md = this->md;
  Source<TypeParam> src(md, 21);
  auto edges = md.edges();
  for (int i = 0; i < kRandomPairs; ++i) {
    Z a = src.next(), b = src.next();
    ASSERT_NO_FATAL_FAILURE(check_unary_ops(md, a));
    ASSERT_NO_FATAL_FAILURE(check_binary_ops(md, a, b));
    ASSERT_NO_FATAL_FAILURE(check_binary_ops(md, a, edges[static_cast<std::size_t>(i) % edges.size()]));
  }
}

TYPED_TEST(PrimeField, LongMultiplicationChainMatchesGmp) {
  // x ← x·y + z repeatedly: a long walk that visits many intermediate carries.
  const auto& md = this->md;
  Source<TypeParam> src(md, 22);
  Z a = src.uniform(), b = src.uniform(), c = src.uniform();
  auto x = md.make(a), y = md.make(b), z = md.make(c);
  for (int i = 0; i < 20000; ++i) {
    x = x * y + z;
    a = (a * b + c) % md.m;
    if (i % 7 == 0) {
      x = x.square() - y;
      a = (a * a - b) % md.m;
    }
  }
  EXPECT_TRUE(md.same(x, a));
}

TYPED_TEST(PrimeField, PowMatchesMpzPowm) {
  using F = TypeParam;
  constexpr std::size_t N = F::kLimbs;
  const auto& md = this->md;
  Source<F> src(md, 31);
  std::mt19937_64& rng = src.rng();
  auto edges = md.edges();
  auto check = [&](const Z& a, const auto& e) {
    F x = md.make(a);
    Z ez = from_limbs(e);
    ASSERT_TRUE(md.same(x.pow(e), powm(a, ez, md.m))) << a << " ^ " << ez;
  };
  // Edge exponents (0, 1, 2, m−1, m−2, (m−1)/2, 2^(64N)−1) on edge and random bases.
  std::vector<std::array<u64, N>> edge_exps = {to_limbs<N>(Z(0)), to_limbs<N>(Z(1)), to_limbs<N>(Z(2)),
                                               to_limbs<N>(md.m - Z(1)), to_limbs<N>(md.m - Z(2)),
                                               to_limbs<N>((md.m - Z(1)) / Z(2)),
                                               to_limbs<N>(Z::pow2(64 * N) - Z(1))};
  for (const Z& a : edges) {
    for (const auto& e : edge_exps) check(a, e);
  }
  for (int i = 0; i < 300; ++i) {
    Z a = i < 20 ? edges[static_cast<std::size_t>(i) % edges.size()] : src.next();
    check(a, std::array<u64, 1>{rng()});
    std::array<u64, N> e{};
    for (auto& w : e) w = rng();
    check(a, e);
    std::array<u64, 2 * N> long_e{};  // exponent longer than the modulus
    for (auto& w : long_e) w = rng();
    check(a, long_e);
    std::array<u64, 3> sparse{rng() & rng() & rng(), 0, u64{1} << (rng() % 64)};
    check(a, sparse);
  }
  F x = md.make(src.uniform());
  for (u64 e : {u64{0}, u64{1}, u64{2}, u64{3}, u64{65537}, ~u64{0}}) {
    EXPECT_TRUE(md.same(x.pow(e), powm(md.value(x), Z(e), md.m)));
  }
}

TYPED_TEST(PrimeField, InverseMatchesMpzInvert) {
  const auto& md = this->md;
  Source<TypeParam> src(md, 41);
  std::vector<Z> vals = md.edges();
  for (int i = 0; i < 1500; ++i) vals.push_back(src.next());
  for (const Z& a : vals) {
    auto x = md.make(a);
    auto inv = x.inverse();
    if (a == Z(0)) {
      EXPECT_TRUE(inv.is_zero()) << "inverse(0) is documented as 0";
      continue;
    }
    Z got = md.value(inv);
    ASSERT_EQ(a * got % md.m, Z(1)) << a;  // a · a^{-1} = 1 computed by GMP
    ASSERT_EQ(got, invert(a, md.m)) << a;
  }
}

TYPED_TEST(PrimeField, LegendreMatchesMpzLegendre) {
  const auto& md = this->md;
  Source<TypeParam> src(md, 51);
  std::vector<Z> vals = md.edges();
  for (int i = 0; i < 1500; ++i) vals.push_back(src.next());
  int counts[3] = {0, 0, 0};
  for (const Z& a : vals) {
    int want = mpz_legendre(a.get(), md.m.get());
    ASSERT_EQ(md.make(a).legendre(), want) << a;
    ++counts[want + 1];
  }
  EXPECT_GT(counts[0], 100);
  EXPECT_GT(counts[2], 100);
}

/// inverse() and legendre() run the variable-time binary GCD / binary Jacobi at run time; hold them
/// to the Fermat and Euler references (which GMP tests above also cover) on edge and random values,
/// including Montgomery limbs just below m.
TYPED_TEST(PrimeField, FastInverseAndLegendreAgreeWithFermatAndEuler) {
  using F = TypeParam;
  constexpr std::size_t N = F::kLimbs;
  const auto& md = this->md;
  Source<F> src(md, 57);
  std::vector<F> vals;
  for (const Z& a : md.edges()) vals.push_back(md.make(a));
  for (int i = 0; i < 3000; ++i) vals.push_back(md.make(src.next()));
  for (unsigned long k = 0; k < 200; ++k) vals.push_back(F::from_montgomery(to_limbs<N>(md.m - Z(1) - Z(k))));
  std::mt19937_64 rng(58);
  for (int i = 0; i < 200; ++i) {  // small Montgomery limbs
    std::array<u64, N> l{};
    l[0] = rng() >> (rng() % 64);
    vals.push_back(F::from_montgomery(l));
  }
  for (const F& x : vals) {
    ASSERT_EQ(x.inverse(), x.inverse_fermat()) << md.value(x);
    ASSERT_EQ(x.legendre(), x.legendre_euler()) << md.value(x);
  }
}

TYPED_TEST(PrimeField, SqrtExistsExactlyForResiduesAndSquaresBack) {
  using F = TypeParam;
  const auto& md = this->md;
  Source<F> src(md, 61);
  std::vector<Z> vals = md.edges();
  for (int i = 0; i < 1500; ++i) vals.push_back(src.next());
  for (int i = 0; i < 300; ++i) {  // known squares
    Z s = src.next();
    vals.push_back(s * s % md.m);
  }
  int roots = 0;
  for (const Z& a : vals) {
    F x = md.make(a), s;
    bool ok = x.sqrt(s);
    int leg = mpz_legendre(a.get(), md.m.get());
    ASSERT_EQ(ok, leg != -1) << a << " Legendre " << leg;
    if (ok) {
      Z r = md.value(s);
      ASSERT_EQ(r * r % md.m, a) << a;
      ++roots;
    }
  }
  EXPECT_GT(roots, 1000);
}

TYPED_TEST(PrimeField, BatchInverseWithZeros) {
  using F = TypeParam;
  const auto& md = this->md;
  Source<F> src(md, 71);
  std::mt19937_64& rng = src.rng();
  std::vector<std::vector<Z>> cases = {{}, {Z(0)}, {Z(1)}, {Z(0), Z(0), Z(0)}, {Z(0), Z(5)}, {Z(5), Z(0)},
                                       {md.m - Z(1), Z(0), Z(0), Z(2), Z(0)}};
  for (int n : {1, 2, 3, 16, 100, 257}) {
    std::vector<Z> v;
    for (int i = 0; i < n; ++i) v.push_back(rng() % 3 == 0 ? Z(0) : src.next());
    v.front() = Z(0);
    cases.push_back(v);
    v.back() = Z(0);
    cases.push_back(v);
    for (Z& z : v) z = rng() % 2 ? Z(0) : src.next();  // runs of zeros
    cases.push_back(v);
  }
  for (const auto& c : cases) {
    std::vector<F> v, scratch(c.size());
    for (const Z& z : c) v.push_back(md.make(z));
    proofline::ff::batch_inverse<F>(v, scratch);
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (c[i] == Z(0)) {
        EXPECT_TRUE(v[i].is_zero()) << "index " << i << " of " << c.size();
      } else {
        EXPECT_TRUE(md.same(v[i], invert(c[i], md.m))) << "index " << i << " of " << c.size();
      }
    }
  }
}

TYPED_TEST(PrimeField, RandomIsReducedAndSpread) {
  using F = TypeParam;
  const auto& md = this->md;
  std::mt19937_64 rng(81);
  Z half = md.m / Z(2);
  int high = 0;
  for (int i = 0; i < 2000; ++i) {
    F f = F::random(rng);
    Z v = md.value(f);  // also checks the limbs are < m
    if (half < v) ++high;
  }
  EXPECT_GT(high, 850);
  EXPECT_LT(high, 1150);
}

// ---- fast path (mulx/adx assembly when present) against the portable multiply ----------------------

TYPED_TEST(PrimeField, ReportsWhichMultiplyIsActive) {
  using F = TypeParam;
  bool asm_mul = Traits<F>::detect_mul() != nullptr;
  bool asm_sqr = Traits<F>::detect_sqr() != nullptr;
  ::testing::Test::RecordProperty("fast_mul", asm_mul ? "asm" : "portable");
  ::testing::Test::RecordProperty("fast_sqr", asm_sqr ? "asm" : "portable");
  std::printf("%s multiply: %s, square: %s\n", Traits<F>::kName, asm_mul ? "fast path" : "portable",
              asm_sqr ? "fast path" : "portable (via multiply)");
  EXPECT_EQ(Traits<F>::Params::fast_mul() != nullptr, asm_mul);
  EXPECT_EQ(Traits<F>::Params::fast_sqr() != nullptr, asm_sqr);
}

/// Compares operator*, square() and (when present) the detected fast functions against the
/// portable multiply, and the portable multiply against GMP.
template <class F>
void check_paths(const Model<F>& md, const Z& a, const Z& b) {
  constexpr std::size_t N = F::kLimbs;
  F x = md.make(a), y = md.make(b);
  std::array<u64, N> portable{}, portable_sq{};
  Traits<F>::portable(portable.data(), x.limbs.data(), y.limbs.data());
  Traits<F>::portable(portable_sq.data(), x.limbs.data(), x.limbs.data());
  ASSERT_TRUE(md.same(F::from_montgomery(portable), a * b)) << "portable mul " << a << " " << b;
  ASSERT_EQ((x * y).limbs, portable) << "operator* " << a << " " << b;
  ASSERT_EQ(x.square().limbs, portable_sq) << "square " << a;
  if (auto fast = Traits<F>::detect_mul()) {
    std::array<u64, N> r{};
    fast(r.data(), x.limbs.data(), y.limbs.data());
    ASSERT_EQ(r, portable) << "fast mul " << a << " " << b;
    fast(r.data(), y.limbs.data(), x.limbs.data());
    ASSERT_EQ(r, portable) << "fast mul (swapped) " << a << " " << b;
    std::array<u64, N> t = x.limbs;  // output aliases the first input
    fast(t.data(), t.data(), y.limbs.data());
    ASSERT_EQ(t, portable) << "fast mul r == a " << a << " " << b;
    t = y.limbs;  // output aliases the second input
    fast(t.data(), x.limbs.data(), t.data());
    ASSERT_EQ(t, portable) << "fast mul r == b " << a << " " << b;
  }
  if (auto fast = Traits<F>::detect_sqr()) {
    std::array<u64, N> r{};
    fast(r.data(), x.limbs.data());
    ASSERT_EQ(r, portable_sq) << "fast sqr " << a;
    std::array<u64, N> t = x.limbs;
    fast(t.data(), t.data());
    ASSERT_EQ(t, portable_sq) << "fast sqr r == a " << a;
  }
}

TYPED_TEST(PrimeField, FastPathAgreesWithPortableOnEdgeAndRandomInputs) {
  using F = TypeParam;
  constexpr std::size_t N = F::kLimbs;
  const auto& md = this->md;
  auto edges = md.edges();
  for (const Z& a : edges) {
    for (const Z& b : edges) ASSERT_NO_FATAL_FAILURE(check_paths(md, a, b));
  }
  Source<F> src(md, 91);
  for (int i = 0; i < 20000; ++i) ASSERT_NO_FATAL_FAILURE(check_paths(md, src.next(), src.next()));
  // Raw random limbs and limbs just below m as Montgomery inputs (any value < m is a valid form).
  std::mt19937_64 rng(92);
  for (int i = 0; i < 20000; ++i) {
    std::array<u64, N> l{};
    for (auto& w : l) w = rng();
    Z a = from_limbs<N>(l) % md.m;
    Z b = md.m - Z(1) - Z(rng() % 1000);
    ASSERT_NO_FATAL_FAILURE(check_paths(md, a * md.Rinv % md.m, b * md.Rinv % md.m));
  }
}

TYPED_TEST(PrimeField, FastPathOnProductsLandingNextToTheModulus) {
  // Choose Montgomery limbs al = T·R·bl^{-1} so that mul(al, bl) = al·bl·R^{-1} = T, a value next to
  // m (or 0, or all-ones limbs): the final conditional subtraction is then on its edge.
  using F = TypeParam;
  constexpr std::size_t N = F::kLimbs;
  const auto& md = this->md;
  Source<F> src(md, 93);
  std::vector<Z> targets = md.edges();
  for (unsigned long i = 0; i < 64; ++i) targets.push_back(md.m - Z(1) - Z(i));
  for (const Z& T : targets) {
    for (int k = 0; k < 40; ++k) {
      Z bl = src.next();
      if (bl == Z(0)) continue;
      Z al = T * md.R % md.m * invert(bl, md.m) % md.m;
      F x = F::from_montgomery(to_limbs<N>(al)), y = F::from_montgomery(to_limbs<N>(bl));
      ASSERT_EQ(from_limbs<N>((x * y).limbs), T) << "target " << T;
      ASSERT_NO_FATAL_FAILURE(check_paths(md, md.value(x), md.value(y)));
    }
    // Squares: al^2·R^{-1} = T ⇒ al = sqrt(T·R), by a^((m+1)/4) where m ≡ 3 (mod 4) (Fp only).
    if (md.m % Z(4) == Z(3)) {
      Z tr = T * md.R % md.m;
      Z al = powm(tr, (md.m + Z(1)) / Z(4), md.m);
      if (al * al % md.m == tr) {
        F x = F::from_montgomery(to_limbs<N>(al));
        ASSERT_EQ(from_limbs<N>(x.square().limbs), T) << "square target " << T;
        ASSERT_NO_FATAL_FAILURE(check_paths(md, md.value(x), md.value(x)));
      }
    }
  }
}

// ---- Fp specifics -----------------------------------------------------------------------------------

TEST(Fp, SqrtOfNonResidueNegatedIsRoot) {
  // p ≡ 3 (mod 4): −1 is a non-residue, so exactly one of a, −a has a root (a ≠ 0).
  Model<Fp> md;
  EXPECT_EQ(md.m % Z(4), Z(3));
  Source<Fp> src(md, 94);
  for (int i = 0; i < 200; ++i) {
    Z a = src.uniform();
    if (a == Z(0)) continue;
    Fp x = md.make(a), s, t;
    EXPECT_NE(x.sqrt(s), (-x).sqrt(t)) << a;
  }
}

// ---- Fr specifics -----------------------------------------------------------------------------------

TEST(Fr, TwoAdicityAndGenerator) {
  Z r = modulus_r();
  Z rm1 = r - Z(1);
  EXPECT_EQ(mpz_scan1(rm1.get(), 0), Fr::kTwoAdicity);
  EXPECT_EQ(Fr::kTwoAdicity, 32u);
  // 7 is a quadratic non-residue mod r and in fact a generator of F_r^* (checked on the
  // 2-part only, which is what root_of_unity needs).
  Z g(Fr::kGenerator);
  EXPECT_EQ(mpz_legendre(g.get(), r.get()), -1);
}

TEST(Fr, RootOfUnityIsSevenToTheOddPartAndHasOrderTwoTo32) {
  Model<Fr> md;
  Z t = (md.m - Z(1)) / Z::pow2(32);
  Z w = powm(Z(7), t, md.m);
  Fr got = Fr::root_of_unity();
  EXPECT_TRUE(md.same(got, w)) << "want " << w;
  // Order exactly 2^32, by GMP: w^(2^32) = 1 and w^(2^31) = −1.
  EXPECT_EQ(powm(w, Z::pow2(32), md.m), Z(1));
  EXPECT_EQ(powm(w, Z::pow2(31), md.m), md.m - Z(1));
  // And by proofline's own squaring: 31 squarings give −1, the 32nd gives 1.
  Fr x = got;
  for (int i = 0; i < 31; ++i) {
    EXPECT_FALSE(x.is_one()) << "order divides 2^" << i;
    x = x.square();
  }
  EXPECT_TRUE(md.same(x, md.m - Z(1)));
  EXPECT_TRUE(x.square().is_one());
}

TEST(Fr, SqrtOfTwoAdicRootsOfUnity) {
  // Tonelli–Shanks' worst cases: 2^k-th roots of unity need the most iterations.
  Model<Fr> md;
  Z w = powm(Z(7), (md.m - Z(1)) / Z::pow2(32), md.m);
  for (unsigned k = 0; k <= 32; ++k) {
    Z a = powm(w, Z::pow2(32 - k), md.m);  // order 2^k
    Fr x = md.make(a), s;
    bool ok = x.sqrt(s);
    ASSERT_EQ(ok, mpz_legendre(a.get(), md.m.get()) == 1) << "order 2^" << k;
    if (ok) {
      Z v = md.value(s);
      EXPECT_EQ(v * v % md.m, a) << "order 2^" << k;
    }
  }
}

}  // namespace
