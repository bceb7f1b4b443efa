// Verifying keys are checked like proofs (issue 21 item 4): every vk source — a bellperson .vk, the
// vk inside a .params, a snarkjs verification_key.json, the vk inside a snarkjs .zkey — and
// prepare_verifying_key go through validate_verifying_key. Degenerate keys are made from real keys
// (a proofline setup of the toy circuit; the toy circom zkey of tests/snarkjs/toy_setup.hpp): γ₂ = δ₂
// at infinity, an IC point at infinity, a point off the curve, a G2 point outside the subgroup.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "../snarkjs/toy_setup.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/groth16/snarkjs/files.hpp"
#include "test_circuits.hpp"
#include "test_util.hpp"

namespace proofline::groth16 {
namespace {

namespace sj = snarkjs;

struct Thrown {
  Error code = Error::Ok;
  std::string msg;
};

template <class F>
Thrown thrown(F&& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    return {e.code(), e.what()};
  }
  return {};
}

enum class Source { Vk, Params, Json, Zkey };
constexpr Source kSources[] = {Source::Vk, Source::Params, Source::Json, Source::Zkey};

const char* name_of(Source s) {
  switch (s) {
    case Source::Vk: return ".vk";
    case Source::Params: return ".params";
    case Source::Json: return "vk.json";
    case Source::Zkey: return ".zkey";
  }
  return "";
}

/// How each reader names its source at the start of validate_verifying_key's message.
std::string source_label(Source s) {
  switch (s) {
    case Source::Vk: return "vk file 'degenerate.vk'";
    case Source::Params: return "params file 'degenerate.params'";
    case Source::Json: return "degenerate_vk.json";
    case Source::Zkey: return "zkey 'degenerate.zkey'";
  }
  return "";
}

struct RealKeys {
  Parameters params;  ///< proofline setup of the toy circuit (c = a·b, one public input)
  sj::Zkey zkey;      ///< the toy circom circuit's zkey (two public signals)
};

const RealKeys& real_keys() {
  static const RealKeys keys = [] {
    RealKeys k;
    SeededRandom rng(21);
    SetupOptions o;
    o.warn = false;
    k.params = generate_parameters(testing::ToyCircuit{}, rng, o);
    const sj::testing::Toxic t{Fr::from_u64(1234567), Fr::from_u64(89), Fr::from_u64(1011), Fr::from_u64(121314)};
    k.zkey = sj::testing::toy_setup(sj::testing::toy_r1cs(), t).zkey;
    return k;
  }();
  return keys;
}

VerifyingKey real_vk(Source s) {
  return s == Source::Zkey ? real_keys().zkey.verifying_key() : real_keys().params.vk;
}

/// Encodes `vk` in the source's own format (inside a real .params / .zkey) and reads it back.
void load(Source s, const VerifyingKey& vk) {
  switch (s) {
    case Source::Vk: VerifyingKey::from_bytes(vk.to_bytes(), "degenerate.vk"); break;
    case Source::Params: {
      Parameters p = real_keys().params;
      p.vk = vk;
      Parameters::from_bytes(p.to_bytes(), {}, "degenerate.params");
      break;
    }
    case Source::Json: vk_from_snarkjs_json(snarkjs_vk_json(vk), "degenerate_vk.json"); break;
    case Source::Zkey: {
      sj::Zkey z = real_keys().zkey;
      z.alpha1 = vk.alpha_g1;
      z.beta1 = vk.beta_g1;
      z.beta2 = vk.beta_g2;
      z.gamma2 = vk.gamma_g2;
      z.delta1 = vk.delta_g1;
      z.delta2 = vk.delta_g2;
      z.ic = vk.ic;
      sj::Zkey::from_bytes(z.to_bytes(), {}, "degenerate.zkey");
      break;
    }
  }
}

constexpr const char* kExpectedG1 = "; expected a G1 point that is not the identity, on the curve, in the prime-order subgroup";
constexpr const char* kExpectedG2 = "; expected a G2 point that is not the identity, on the curve, in the prime-order subgroup";

/// Reads `vk` from source `s` and expects validate_verifying_key's exact message:
/// "<code name>: <source>: verifying key field <what><expected>".
void expect_refused(Source s, const VerifyingKey& vk, Error code, const std::string& what, const char* expected) {
  const Thrown t = thrown([&] { load(s, vk); });
  EXPECT_EQ(t.code, code) << t.msg;
  EXPECT_EQ(t.msg, std::string(to_string(code)) + ": " + source_label(s) + ": verifying key field " + what + expected);
}

TEST(VkCheck, RealKeysLoadFromEverySource) {
  for (Source s : kSources) {
    SCOPED_TRACE(name_of(s));
    EXPECT_EQ(thrown([&] { load(s, real_vk(s)); }).code, Error::Ok);
  }
}

TEST(VkCheck, GammaAndDeltaAtInfinityRefusedEverywhere) {
  for (Source s : kSources) {
    SCOPED_TRACE(name_of(s));
    VerifyingKey vk = real_vk(s);
    vk.gamma_g2 = G2Affine::identity();
    vk.delta_g2 = G2Affine::identity();
    expect_refused(s, vk, Error::UnexpectedInfinity,
                   "gamma_2 is the point at infinity (with gamma_2 or delta_2 at infinity one forged proof verifies "
                   "for every public input)",
                   kExpectedG2);
    // δ₂ alone.
    vk = real_vk(s);
    vk.delta_g2 = G2Affine::identity();
    EXPECT_NE(thrown([&] { load(s, vk); }).msg.find("field delta_2 is the point at infinity"), std::string::npos);
  }
}

TEST(VkCheck, IcPointAtInfinityRefusedEverywhere) {
  for (Source s : kSources) {
    SCOPED_TRACE(name_of(s));
    VerifyingKey vk = real_vk(s);
    vk.ic[1] = G1Affine::identity();
    expect_refused(s, vk, Error::UnexpectedInfinity,
                   "IC[1] is the point at infinity (the public input it weighs would not affect verification)",
                   kExpectedG1);
  }
}

TEST(VkCheck, AlphaBetaAndG1ExtrasAtInfinity) {
  for (Source s : kSources) {
    SCOPED_TRACE(name_of(s));
    VerifyingKey vk = real_vk(s);
    vk.alpha_g1 = G1Affine::identity();
    expect_refused(s, vk, Error::UnexpectedInfinity, "alpha_1 is the point at infinity", kExpectedG1);
    vk = real_vk(s);
    vk.beta_g2 = G2Affine::identity();
    EXPECT_NE(thrown([&] { load(s, vk); }).msg.find("field beta_2 is the point at infinity"), std::string::npos);
    // β·G1 and δ·G1: checked where the format carries them; vk.json has none (they are not written).
    vk = real_vk(s);
    vk.delta_g1 = G1Affine::identity();
    const Thrown t = thrown([&] { load(s, vk); });
    if (s == Source::Json) {
      EXPECT_EQ(t.code, Error::Ok) << t.msg;
    } else {
      EXPECT_EQ(t.code, Error::UnexpectedInfinity);
      EXPECT_NE(t.msg.find("field delta_1 is the point at infinity"), std::string::npos) << t.msg;
    }
  }
}

TEST(VkCheck, G2PointOutsideSubgroupRefusedEverywhere) {
  const G2Affine outside = testing::g2_outside_subgroup();
  ASSERT_TRUE(outside.is_on_curve());
  for (Source s : kSources) {
    SCOPED_TRACE(name_of(s));
    VerifyingKey vk = real_vk(s);
    vk.gamma_g2 = outside;
    expect_refused(s, vk, Error::NotInSubgroup, "gamma_2 is on the curve but not in the prime-order subgroup",
                   kExpectedG2);
  }
  // A G1 IC point outside the subgroup, too.
  for (Source s : kSources) {
    SCOPED_TRACE(name_of(s));
    VerifyingKey vk = real_vk(s);
    vk.ic[0] = testing::g1_outside_subgroup();
    expect_refused(s, vk, Error::NotInSubgroup, "IC[0] is on the curve but not in the prime-order subgroup",
                   kExpectedG1);
  }
}

TEST(VkCheck, PointOffTheCurveRefusedByEveryDecoder) {
  // Off the curve: y + 1. The decoders refuse it while decoding, each naming the field its way;
  // a key built in memory is refused by validate_verifying_key (prepare_verifying_key).
  struct Want {
    Source s;
    const char* where;
  };
  const Want wants[] = {
      {Source::Vk, "vk file 'degenerate.vk' (1060 bytes): section vk.gamma_g2, element 0 of 1 at byte offset 384"},
      {Source::Params, "params file 'degenerate.params'"},
      {Source::Json, "snarkjs JSON: vk_gamma_2 is not on the curve"},
      {Source::Zkey, "degenerate.zkey: section 2 (groth16 header)"},
  };
  for (const Want& w : wants) {
    SCOPED_TRACE(name_of(w.s));
    VerifyingKey vk = real_vk(w.s);
    vk.gamma_g2.y.c0 = vk.gamma_g2.y.c0 + ff::Fp::one();
    ASSERT_FALSE(vk.gamma_g2.is_on_curve());
    const Thrown t = thrown([&] { load(w.s, vk); });
    EXPECT_EQ(t.code, Error::NotOnCurve) << t.msg;
    EXPECT_NE(t.msg.find(w.where), std::string::npos) << t.msg;
    if (w.s == Source::Params) EXPECT_NE(t.msg.find("section vk.gamma_g2"), std::string::npos) << t.msg;
    if (w.s == Source::Zkey) EXPECT_NE(t.msg.find("gamma2 is not on the curve"), std::string::npos) << t.msg;
  }
  VerifyingKey vk = real_vk(Source::Vk);
  vk.ic[1].y = vk.ic[1].y + ff::Fp::one();
  const Thrown t = thrown([&] { prepare_verifying_key(vk); });
  EXPECT_EQ(t.code, Error::NotOnCurve);
  EXPECT_EQ(t.msg, std::string("point not on curve: verifying key being prepared: verifying key field IC[1] is not on "
                               "the curve") +
                       kExpectedG1);
}

TEST(VkCheck, EmptyIcRefused) {
  VerifyingKey vk = real_vk(Source::Vk);
  vk.ic.clear();
  const Thrown t = thrown([&] { VerifyingKey::from_bytes(vk.to_bytes(), "degenerate.vk"); });
  EXPECT_EQ(t.code, Error::BadLength);
  EXPECT_NE(t.msg.find("vk file 'degenerate.vk': verifying key field IC holds no point"), std::string::npos) << t.msg;
}

// The forgery the check exists for: with γ₂ = δ₂ = identity, e(A,B)·e(acc,−γ)·e(C,−δ) = e(α,β)
// reduces to e(A,B) = e(α,β), so A = α₁, B = β₂ and any C "prove" every statement.
TEST(VkCheck, AnyProofForgeryRefused) {
  const Parameters& p = real_keys().params;
  VerifyingKey bad = p.vk;
  bad.gamma_g2 = G2Affine::identity();
  bad.delta_g2 = G2Affine::identity();
  std::mt19937_64 rng(2121);
  const Proof forged{bad.alpha_g1, bad.beta_g2, testing::random_g1(rng)};
  const std::vector<Fr> any_input = {Fr::random(rng)};

  // Without the check (the real prepared key with γ, δ set to the identity by hand) the pairing
  // equation accepts it.
  PreparedVerifyingKey unchecked = prepare_verifying_key(p.vk);
  unchecked.neg_gamma_g2 = unchecked.gamma_g2 = G2Affine::identity();
  unchecked.neg_delta_g2 = unchecked.delta_g2 = G2Affine::identity();
  ASSERT_TRUE(verify_proof(unchecked, forged, any_input));

  // Every way in refuses the key.
  const Thrown t = thrown([&] { prepare_verifying_key(bad); });
  EXPECT_EQ(t.code, Error::UnexpectedInfinity);
  EXPECT_NE(t.msg.find("verifying key being prepared: verifying key field gamma_2 is the point at infinity"),
            std::string::npos)
      << t.msg;
  for (Source s : {Source::Vk, Source::Params, Source::Json}) {
    SCOPED_TRACE(name_of(s));
    EXPECT_EQ(thrown([&] { load(s, bad); }).code, Error::UnexpectedInfinity);
  }
  // With the real key the forged proof is simply invalid.
  EXPECT_FALSE(verify_proof(prepare_verifying_key(p.vk), forged, any_input));
}

TEST(VkCheck, InMemoryKeyCheckedDirectly) {
  VerifyingKey vk = real_vk(Source::Vk);
  EXPECT_EQ(thrown([&] { validate_verifying_key(vk, "k"); }).code, Error::Ok);
  vk.beta_g1 = G1Affine::identity();
  EXPECT_EQ(thrown([&] { validate_verifying_key(vk, "k"); }).msg,
            std::string("unexpected point at infinity: k: verifying key field beta_1 is the point at infinity") + kExpectedG1);
  // β·G1 is not part of a snarkjs key: not checked with VkG1Extras::Absent.
  EXPECT_EQ(thrown([&] { validate_verifying_key(vk, "k", VkG1Extras::Absent); }).code, Error::Ok);
  // γ₂ = δ₂ is no reason to refuse (snarkjs' setup makes γ = 1; nothing forbids δ = γ).
  vk = real_vk(Source::Vk);
  vk.delta_g2 = vk.gamma_g2;
  EXPECT_EQ(thrown([&] { validate_verifying_key(vk, "k"); }).code, Error::Ok);
}

}  // namespace
}  // namespace proofline::groth16
