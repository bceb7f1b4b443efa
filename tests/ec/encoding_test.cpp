// ZCash encodings of G1/G2 points: known vectors, round trips, and a table of malformed inputs,
// each rejected with its own error code.
//
// Known vectors: the generator encodings are those of the ZCash BLS12-381 specification (and
// draft-irtf-cfrg-pairing-friendly-curves); the literals below were produced with
// @noble/curves 2.4.0 (`bls12_381.G1.Point.BASE.toHex(true|false)`, `.double()`, `.negate()`,
// `.multiply(k)`) and pasted here, so they do not come from proofline's own code.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"

using namespace proofline;
using namespace proofline::ec;
using ff::Fr;

namespace {

std::vector<uint8_t> unhex(std::string_view s) {
  auto nib = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  std::vector<uint8_t> v(s.size() / 2);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(nib(s[2 * i]) * 16 + nib(s[2 * i + 1]));
  return v;
}
template <class Bytes>
std::string hex(const Bytes& b) {
  static constexpr char d[] = "0123456789abcdef";
  std::string s;
  for (uint8_t v : b) s += {d[v >> 4], d[v & 15]};
  return s;
}

// ---- known vectors (@noble/curves 2.4.0) --------------------------------------------------------
constexpr std::string_view kG1Comp =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
constexpr std::string_view kG1Uncomp =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
constexpr std::string_view kG2Comp =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
constexpr std::string_view kG2Uncomp =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";

struct Vector {
  const char* what;
  std::string_view comp, uncomp;
};
// k = 0x2b4d6f8193a5c7e9f1032547698badcfe0123456789abcdef0fedcba987654
constexpr std::string_view kK = "2b4d6f8193a5c7e9f1032547698badcfe0123456789abcdef0fedcba987654";
const Vector kG1Vectors[] = {
    {"2G", "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e",
     "0572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e"
     "166a9d8cabc673a322fda673779d8e3822ba3ecb8670e461f73bb9021d5fd76a4c56d9d4cd16bd1bba86881979749d28"},
    {"-G", "b7f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
     "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
     "114d1d6855d545a8aa7d76c8cf2e21f267816aef1db507c96655b9d5caac42364e6f38ba0ecb751bad54dcd6b939c2ca"},
    {"kG", "b482a2be86f3bf44b91f875e06196a923485725bfe63caad0944e048a1ffc6d444fcb02ed208ca2d96e5e60e7f7f57b5",
     "1482a2be86f3bf44b91f875e06196a923485725bfe63caad0944e048a1ffc6d444fcb02ed208ca2d96e5e60e7f7f57b5"
     "16e594e237afab8869a3e89137463571b876005c72f98ed2e1427bfc34daffa259a568cc7fec7d752229983267b63462"},
};
const Vector kG2Vectors[] = {
    {"2G",
     "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
     "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053",
     "0a4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
     "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053"
     "0f6d4552fa65dd2638b361543f887136a43253d9c66c411697003f7a13c308f5422e1aa0a59c8967acdefd8b6e36ccf3"
     "0468fb440d82b0630aeb8dca2b5256789a66da69bf91009cbfe6bd221e47aa8ae88dece9764bf3bd999d95d71e4c9899"},
    {"-G",
     "b3e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
     "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
     "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
     "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
     "13fa4d4a0ad8b1ce186ed5061789213d993923066dddaf1040bc3ff59f825c78df74f2d75467e25e0f55f8a00fa030ed"
     "0d1b3cc2c7027888be51d9ef691d77bcb679afda66c73f17f9ee3837a55024f78c71363275a75d75d86bab79f74782aa"},
    {"kG",
     "b492199c6c115cac679a5370e29fe40ac0d2f7bd8b8fc2a3a89578345be7eabae2cca5948bc5ceda0d3f2410e7e23668"
     "1492a9fa46393ad3d20dc125f7dd46249022c9f7ba716418b090116db47a899c65d654cd5472f06953a92eabace58fd4",
     "1492199c6c115cac679a5370e29fe40ac0d2f7bd8b8fc2a3a89578345be7eabae2cca5948bc5ceda0d3f2410e7e23668"
     "1492a9fa46393ad3d20dc125f7dd46249022c9f7ba716418b090116db47a899c65d654cd5472f06953a92eabace58fd4"
     "0f72fd19ab95f9209d6d982bf1dc258890750f880acfe2a1ba810cf2d5440bc163df462ea1d30416476750dc380ed065"
     "04f2afe7fe87dad57ae905796ef1fd51bea62b17a1386a1f4eeffaf14cee6248f8fbc44c1281cc7cd012db514faae5d3"},
};

constexpr std::string_view kP =
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

Fr fr_from_hex(std::string_view h) {
  std::array<u64, 4> l{};
  for (std::size_t i = 0; i < h.size(); ++i) {
    char c = h[h.size() - 1 - i];
    u64 v = c <= '9' ? c - '0' : c - 'a' + 10;
    l[i / 16] |= v << (4 * (i % 16));
  }
  return Fr::from_canonical_unchecked(l);
}

template <class Cfg>
struct EncodingTest : ::testing::Test {
  using Affine = AffinePoint<Cfg>;
  using Proj = JacobianPoint<Cfg>;
  using Field = typename Cfg::Field;
  static constexpr std::size_t kC = Affine::kCompressedBytes;
  static constexpr std::size_t kU = Affine::kUncompressedBytes;
  std::mt19937_64 rng{0xe2c + kC};

  static Error dec(Affine& out, const std::vector<uint8_t>& b, Check check = Check::Subgroup) {
    return Affine::from_bytes(out, b, check);
  }
  static std::vector<uint8_t> comp(const Affine& p) {
    auto a = p.to_compressed();
    return {a.begin(), a.end()};
  }
  static std::vector<uint8_t> uncomp(const Affine& p) {
    auto a = p.to_uncompressed();
    return {a.begin(), a.end()};
  }
  Affine rand_curve_point(bool largest) {
    for (;;) {
      Affine p;
      if (Affine::lift_x(p, Field::random(rng), largest)) return p;
    }
  }
  Field x_without_point() {
    for (;;) {
      Field x = Field::random(rng);
      Affine p;
      if (!Affine::lift_x(p, x, false)) return x;
    }
  }
};
using Curves = ::testing::Types<G1Config, G2Config>;
struct EncodingCurveName {
  template <class T>
  static std::string GetName(int) {
    return std::string(T::kName);
  }
};
TYPED_TEST_SUITE(EncodingTest, Curves, EncodingCurveName);

template <class Cfg>
struct Known;
template <>
struct Known<G1Config> {
  static constexpr std::string_view comp = kG1Comp, uncomp = kG1Uncomp;
  static std::span<const Vector> vectors() { return kG1Vectors; }
};
template <>
struct Known<G2Config> {
  static constexpr std::string_view comp = kG2Comp, uncomp = kG2Uncomp;
  static std::span<const Vector> vectors() { return kG2Vectors; }
};

TYPED_TEST(EncodingTest, GeneratorAndIdentityKnownEncodings) {
  using Affine = typename TestFixture::Affine;
  using Proj = typename TestFixture::Proj;
  constexpr std::size_t kC = TestFixture::kC, kU = TestFixture::kU;
  const Affine g = Affine::generator();
  EXPECT_EQ(hex(g.to_compressed()), Known<TypeParam>::comp);
  EXPECT_EQ(hex(g.to_uncompressed()), Known<TypeParam>::uncomp);
  EXPECT_EQ(Affine::from_compressed(std::span<const uint8_t, kC>(unhex(Known<TypeParam>::comp).data(), kC)), g);
  EXPECT_EQ(Affine::from_uncompressed(std::span<const uint8_t, kU>(unhex(Known<TypeParam>::uncomp).data(), kU)),
            g);

  // Identity: 0xC0 ‖ 0… and 0x40 ‖ 0…
  std::string id_c = "c0" + std::string(2 * kC - 2, '0');
  std::string id_u = "40" + std::string(2 * kU - 2, '0');
  EXPECT_EQ(hex(Affine::identity().to_compressed()), id_c);
  EXPECT_EQ(hex(Affine::identity().to_uncompressed()), id_u);
  // An identity with junk coordinates still encodes canonically.
  Affine junk = g;
  junk.infinity = true;
  EXPECT_EQ(hex(junk.to_compressed()), id_c);
  Affine out = g;
  EXPECT_EQ(TestFixture::dec(out, unhex(id_c)), Error::Ok);
  EXPECT_TRUE(out.infinity);
  out = g;
  EXPECT_EQ(TestFixture::dec(out, unhex(id_u)), Error::Ok);
  EXPECT_TRUE(out.infinity);

  // Further vectors: 2G, −G, [k]G.
  const Fr k = fr_from_hex(kK);
  for (const Vector& v : Known<TypeParam>::vectors()) {
    const std::string what = v.what;
    Proj p = what == "2G" ? Proj::generator().dbl() : what == "-G" ? -Proj::generator() : Proj::generator().mul(k);
    const Affine a = p.to_affine();
    EXPECT_EQ(hex(a.to_compressed()), v.comp) << what;
    EXPECT_EQ(hex(a.to_uncompressed()), v.uncomp) << what;
    Affine d;
    ASSERT_EQ(TestFixture::dec(d, unhex(v.comp)), Error::Ok) << what;
    EXPECT_EQ(d, a) << what;
    ASSERT_EQ(TestFixture::dec(d, unhex(v.uncomp)), Error::Ok) << what;
    EXPECT_EQ(d, a) << what;
  }
}

TYPED_TEST(EncodingTest, RoundTripsInAllFourEncodings) {
  using Affine = typename TestFixture::Affine;
  using Proj = typename TestFixture::Proj;
  int signs = 0;
  for (int it = 0; it < 16; ++it) {
    const Affine p = Proj::generator().mul(Fr::random(this->rng)).to_affine();
    for (const Affine& q : {p, -p}) {
      const auto c = TestFixture::comp(q);
      const auto u = TestFixture::uncomp(q);
      EXPECT_EQ(c[0] & 0xC0, 0x80);
      EXPECT_EQ(u[0] & 0xE0, 0x00);
      signs += (c[0] & 0x20) != 0;
      for (Check check : {Check::Subgroup, Check::OnCurveOnly}) {
        Affine d;
        ASSERT_EQ(TestFixture::dec(d, c, check), Error::Ok);
        EXPECT_EQ(d, q);
        ASSERT_EQ(TestFixture::dec(d, u, check), Error::Ok);
        EXPECT_EQ(d, q);
      }
      // The compressed x bytes equal the uncompressed x bytes, flags aside.
      auto c2 = c;
      c2[0] &= 0x1F;
      EXPECT_TRUE(std::equal(c2.begin(), c2.end(), u.begin()));
    }
  }
  EXPECT_EQ(signs, 16);  // exactly one of ±P has the S flag
  // Points outside the subgroup round-trip with the unchecked decode.
  for (int it = 0; it < 4; ++it) {
    const Affine n = this->rand_curve_point(it & 1);
    Affine d;
    ASSERT_EQ(TestFixture::dec(d, TestFixture::comp(n), Check::OnCurveOnly), Error::Ok);
    EXPECT_EQ(d, n);
    ASSERT_EQ(TestFixture::dec(d, TestFixture::uncomp(n), Check::OnCurveOnly), Error::Ok);
    EXPECT_EQ(d, n);
  }
}

TYPED_TEST(EncodingTest, MalformedEncodingsAreRejectedWithTheirError) {
  using Affine = typename TestFixture::Affine;
  using Proj = typename TestFixture::Proj;
  using Field = typename TestFixture::Field;
  constexpr std::size_t kC = TestFixture::kC, kU = TestFixture::kU;
  const Affine p = Proj::generator().mul(Fr::random(this->rng)).to_affine();
  const auto c = TestFixture::comp(p);
  const auto u = TestFixture::uncomp(p);
  const auto p_bytes = unhex(kP);  // p, 48 bytes big-endian

  struct Case {
    std::string name;
    std::vector<uint8_t> bytes;
    Error checked, unchecked;
  };
  std::vector<Case> cases;
  auto add = [&](std::string name, std::vector<uint8_t> b, Error e, Error e_unchecked) {
    cases.push_back({std::move(name), std::move(b), e, e_unchecked});
  };
  auto add1 = [&](std::string name, std::vector<uint8_t> b, Error e) { add(std::move(name), std::move(b), e, e); };
  auto with = [](std::vector<uint8_t> b, std::size_t i, uint8_t v) {
    b[i] = v;
    return b;
  };

  // Flags that contradict the length.
  add1("compressed without C", with(c, 0, c[0] & 0x7F), Error::CompressionMismatch);
  add1("uncompressed with C", with(u, 0, u[0] | 0x80), Error::CompressionMismatch);
  add1("compressed all zero", std::vector<uint8_t>(kC, 0), Error::CompressionMismatch);
  add1("uncompressed infinity with C (= compressed flags, wrong length)",
       with(std::vector<uint8_t>(kU, 0), 0, 0xC0), Error::CompressionMismatch);
  // Sign flag on uncompressed.
  add1("uncompressed with S", with(u, 0, u[0] | 0x20), Error::SignFlagUncompressed);
  add1("uncompressed infinity with S", with(std::vector<uint8_t>(kU, 0), 0, 0x60), Error::SignFlagUncompressed);
  // Infinity with anything else set.
  add1("compressed infinity with S", with(std::vector<uint8_t>(kC, 0), 0, 0xE0), Error::InfinityNotZero);
  add1("compressed infinity, low bit of byte 0", with(std::vector<uint8_t>(kC, 0), 0, 0xC1), Error::InfinityNotZero);
  add1("compressed infinity, last byte 1", with(with(std::vector<uint8_t>(kC, 0), 0, 0xC0), kC - 1, 1),
       Error::InfinityNotZero);
  add1("compressed infinity over a valid x", with(c, 0, (c[0] & 0x1F) | 0xC0), Error::InfinityNotZero);
  add1("uncompressed infinity, last byte 1", with(with(std::vector<uint8_t>(kU, 0), 0, 0x40), kU - 1, 1),
       Error::InfinityNotZero);
  add1("uncompressed infinity over a valid point", with(u, 0, u[0] | 0x40), Error::InfinityNotZero);
  // Coordinates >= p.
  {
    auto b = std::vector<uint8_t>(kC, 0);
    std::copy(p_bytes.begin(), p_bytes.end(), b.begin());
    b[0] |= 0x80;
    add1("compressed x (first Fp) = p", b, Error::NotCanonical);
    auto b2 = std::vector<uint8_t>(kC, 0xFF);
    b2[0] = 0x9F;  // C flag, then 2^381 − 1 in the first coordinate
    add1("compressed x = 2^381 - 1", b2, Error::NotCanonical);
    auto u2 = u;
    std::copy(p_bytes.begin(), p_bytes.end(), u2.begin());
    add1("uncompressed x (first Fp) = p", u2, Error::NotCanonical);
    auto u3 = u;
    std::copy(p_bytes.begin(), p_bytes.end(), u3.begin() + kU - 48);
    add1("uncompressed last Fp of y = p", u3, Error::NotCanonical);
    auto u4 = u;
    u4[kC] |= 0xE0;  // top bits of y's first Fp: >= 2^381 > p
    add1("uncompressed y with top bits set", u4, Error::NotCanonical);
    if constexpr (kC == 96) {
      auto c3 = c;
      std::copy(p_bytes.begin(), p_bytes.end(), c3.begin() + 48);
      add1("G2 compressed x.c0 = p", c3, Error::NotCanonical);
      auto c4 = c;
      c4[48] |= 0x80;  // x.c0 >= 2^383
      add1("G2 compressed x.c0 with a flag-like top bit", c4, Error::NotCanonical);
    }
  }
  // Not on the curve.
  {
    Affine none{this->x_without_point(), Field::zero(), false};
    add1("compressed x with no y", TestFixture::comp(none), Error::NotOnCurve);
    add1("compressed x with no y, S", with(TestFixture::comp(none), 0, TestFixture::comp(none)[0] | 0x20),
         Error::NotOnCurve);
    Affine off{p.x, p.y + Field::one(), false};
    add1("uncompressed (x, y + 1)", TestFixture::uncomp(off), Error::NotOnCurve);
    add1("uncompressed all zero (no infinity flag)", std::vector<uint8_t>(kU, 0), Error::NotOnCurve);
  }
  // On the curve, outside the subgroup: rejected only by the checked decode.
  for (int i = 0; i < 2; ++i) {
    const Affine n = this->rand_curve_point(i == 1);
    ASSERT_FALSE(n.to_projective().mul_limbs(Fr::kModulus).is_identity());
    add("compressed non-subgroup point", TestFixture::comp(n), Error::NotInSubgroup, Error::Ok);
    add("uncompressed non-subgroup point", TestFixture::uncomp(n), Error::NotInSubgroup, Error::Ok);
  }
  if constexpr (kC == 48) {
    // (0, ±2): order 3.
    add("G1 x = 0 (order-3 point)", with(std::vector<uint8_t>(48, 0), 0, 0x80), Error::NotInSubgroup, Error::Ok);
    add("G1 x = 0, S (order-3 point)", with(std::vector<uint8_t>(48, 0), 0, 0xA0), Error::NotInSubgroup, Error::Ok);
  }

  for (const Case& t : cases) {
    Affine out = Affine::generator();
    EXPECT_EQ(TestFixture::dec(out, t.bytes, Check::Subgroup), t.checked) << t.name << " " << hex(t.bytes);
    if (t.checked != Error::Ok) EXPECT_EQ(out, Affine::generator()) << t.name << ": output must stay untouched";
    EXPECT_EQ(TestFixture::dec(out, t.bytes, Check::OnCurveOnly), t.unchecked) << t.name;
    // The throwing forms throw ProoflineError with that code and a message naming the curve.
    try {
      if (t.bytes.size() == kC) {
        (void)Affine::from_compressed(std::span<const uint8_t, kC>(t.bytes.data(), kC));
      } else {
        (void)Affine::from_uncompressed(std::span<const uint8_t, kU>(t.bytes.data(), kU));
      }
      EXPECT_EQ(t.checked, Error::Ok) << t.name << ": no exception";
    } catch (const ProoflineError& e) {
      EXPECT_EQ(e.code(), t.checked) << t.name;
      EXPECT_NE(std::string(e.what()).find(TypeParam::kName), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::to_string(t.bytes.size()) + " bytes"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_GE(cases.size(), 20u);

  // Lengths that are neither form.
  Affine out;
  EXPECT_EQ(Affine::from_bytes(out, std::vector<uint8_t>(kC - 1, 0)), Error::BadLength);
  EXPECT_EQ(Affine::from_bytes(out, std::vector<uint8_t>(kU + 1, 0)), Error::BadLength);
  EXPECT_EQ(Affine::from_bytes(out, std::vector<uint8_t>{}), Error::BadLength);
}

TEST(EncodingMessages, ThrowingDecoderNamesTheProblem) {
  std::array<uint8_t, 48> b{};
  b[0] = 0xE0;
  try {
    (void)G1Affine::from_compressed(b);
    FAIL() << "no exception";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::InfinityNotZero);
    EXPECT_EQ(std::string(e.what()),
              "infinity flag with non-zero bits: G1 compressed point (48 bytes): infinity flag 0x40 is set but "
              "another flag bit or byte is non-zero");
  }
}

}  // namespace
