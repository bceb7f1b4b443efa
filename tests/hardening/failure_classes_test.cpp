// The failure classes of issue 9 that the layers' own tests do not already cover, each asserting
// an exact result or a named error (tests/msm, tests/ec, tests/groth16 and tests/snarkjs hold the
// rest: MSM edge inputs, point encodings, .params truncation/bit flips, snarkjs file tables):
//   - empty circuits (no constraints, no public inputs) through setup → prove → verify, on the
//     bellperson path and the snarkjs path;
//   - snarkjs JSON: numbers >= r / >= p, non-decimal text and wrong shapes refused by name;
//   - proofs: a coordinate >= p, a cleared compression flag, an infinity with stray bits, refused
//     with the element's name and offset;
//   - truncated .vk, proofs and C1 JSON refused with the place named;
//   - a wtns longer or shorter than the zkey's variables refused before proving (snarkjs proofs go
//     through the engine's "snarkjs" kind, as `proofline prove --zkey` runs them).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "../support/create_proof.hpp"
#include "../groth16/test_util.hpp"
#include "../snarkjs/engine_prove.hpp"
#include "../snarkjs/toy_setup.hpp"
#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/seal.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/groth16/snarkjs.hpp"

#include <nlohmann/json.hpp>

namespace {

using namespace proofline;
using namespace proofline::groth16;
using ff::Fr;
namespace gt = proofline::groth16::testing;

/// The ProoflineError a call throws (code and message); Error::Ok and "" when it returns.
struct Thrown {
  Error code = Error::Ok;
  std::string what;
};
Thrown thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    return {e.code(), e.what()};
  }
  return {};
}
/// Success when `f` throws ProoflineError with `code` and a message containing `text`.
::testing::AssertionResult refused(const std::function<void()>& f, Error code, const std::string& text) {
  const Thrown t = thrown(f);
  if (t.code == code && t.what.find(text) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got code " << to_string(t.code) << " (\"" << t.what << "\"), expected "
                                       << to_string(code) << " naming \"" << text << "\"";
}
#define EXPECT_REFUSED(call, want_code, want_text) \
  EXPECT_TRUE(refused([&] { (void)(call); }, want_code, want_text)) << #call

SetupOptions quiet() {
  SetupOptions o;
  o.warn = false;
  return o;
}

// ---- empty circuits -------------------------------------------------------------------------------

/// Nothing at all: no inputs beyond ONE, no aux, no constraints.
struct EmptyCircuit {
  void synthesize(r1cs::ConstraintSystem&) const {}
};
/// One aux variable and one constraint on it, no public input.
struct NoInputsCircuit {
  void synthesize(r1cs::ConstraintSystem& cs) const {
    auto w = cs.alloc("w", [] { return Fr::from_u64(3); });
    auto w2 = cs.alloc("w2", [] { return Fr::from_u64(9); });
    cs.enforce("sq", w, w, w2);
  }
};

TEST(EmptyInputs, CircuitWithoutConstraintsProvesAndVerifies) {
  SeededRandom rng(1);
  const Parameters p = generate_parameters(EmptyCircuit{}, rng, quiet());
  EXPECT_EQ(p.vk.ic.size(), 1u);  // ONE only
  EXPECT_TRUE(p.l.empty());
  const Proof proof = create_proof(p, EmptyCircuit{});
  const PreparedVerifyingKey pvk = prepare_verifying_key(p.vk);
  EXPECT_TRUE(verify_proof(pvk, proof, std::vector<Fr>{}));
  EXPECT_EQ(thrown([&] { verify_proof(pvk, proof, std::vector<Fr>{Fr::one()}); }).code, Error::BadLength);
  // Through the bytes: 192-byte proof, empty input list.
  EXPECT_TRUE(verify_proof_bytes(pvk, proof.to_bytes(), std::vector<std::uint8_t>{}));
  // And through the file formats.
  EXPECT_EQ(Parameters::from_bytes(p.to_bytes()), p);
}

TEST(EmptyInputs, NoPublicInputsProvesAndVerifies) {
  SeededRandom rng(2);
  const Parameters p = generate_parameters(NoInputsCircuit{}, rng, quiet());
  EXPECT_EQ(p.vk.ic.size(), 1u);
  const Proof proof = create_proof(p, NoInputsCircuit{});
  const PreparedVerifyingKey pvk = prepare_verifying_key(p.vk);
  EXPECT_TRUE(verify_proof(pvk, proof, std::vector<Fr>{}));
  // snarkjs JSON of a key with no public inputs round-trips (the fields snarkjs carries: no β·G1, δ·G1).
  const VerifyingKey back = vk_from_snarkjs_json(snarkjs_vk_json(p.vk));
  EXPECT_EQ(back.alpha_g1, p.vk.alpha_g1);
  EXPECT_EQ(back.beta_g2, p.vk.beta_g2);
  EXPECT_EQ(back.gamma_g2, p.vk.gamma_g2);
  EXPECT_EQ(back.delta_g2, p.vk.delta_g2);
  EXPECT_EQ(back.ic, p.vk.ic);
  EXPECT_TRUE(public_from_snarkjs_json(snarkjs_public_json({})).empty());
}

TEST(EmptyInputs, SnarkjsCircuitWithoutConstraintsOrPublicInputs) {
  namespace sj = groth16::snarkjs;
  sj::R1cs r;
  r.n_wires = 2;  // ONE and one private input that no constraint uses
  r.n_prv_in = 1;
  r.n_labels = 2;
  const sj::testing::ToyKey key =
      sj::testing::toy_setup(r, {Fr::from_u64(5), Fr::from_u64(6), Fr::from_u64(7), Fr::from_u64(8)});
  const sj::Zkey z = sj::Zkey::from_bytes(key.zkey.to_bytes());
  EXPECT_EQ(z.n_public, 0u);
  const sj::Witness w = sj::Witness::from_fr(std::vector<Fr>{Fr::one(), Fr::from_u64(4)});
  sj::check_witness(r, w);
  const engine::ProofResult res = sj::testing::engine_prove(z, w, Randomizers{Fr::from_u64(2), Fr::from_u64(3)});
  ASSERT_EQ(res.state, engine::JobState::Done) << res.error;
  ASSERT_EQ(res.public_inputs.size(), 1u);
  EXPECT_TRUE(res.public_inputs[0].empty());
  ASSERT_EQ(res.proofs.size(), 1u);
  EXPECT_EQ(res.proofs[0], sj::testing::expected_proof(key, w, Fr::from_u64(2), Fr::from_u64(3)));
  EXPECT_TRUE(verify_proof(prepare_verifying_key(z.verifying_key()), res.proofs[0], std::vector<Fr>{}));
}

// ---- snarkjs JSON values ----------------------------------------------------------------------------

const std::string kR = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
const std::string kRMinus1 = "52435875175126190479447740508185965837690552500527637822603658699938581184512";
const std::string kP =
    "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";

TEST(SnarkjsJsonValues, PublicInputsAtLeastRRefused) {
  EXPECT_EQ(public_from_snarkjs_json("[\"" + kRMinus1 + "\"]"), std::vector<Fr>{-Fr::one()});
  EXPECT_REFUSED(public_from_snarkjs_json("[\"" + kR + "\"]"), Error::NotCanonical, "");
  EXPECT_REFUSED(public_from_snarkjs_json("[\"1\", \"" + kR + "1\"]"), Error::NotCanonical, "");
  EXPECT_REFUSED(fr_from_decimal(kR, "x"), Error::NotCanonical, "x");
  // Text that is not a decimal integer at all: malformed, not "not canonical (>= modulus)" (new-user
  // session 4, finding 4).
  for (const char* bad : {"-1", "0x10", "", " 1", "1 ", "1e3", "+1", "١"}) {
    EXPECT_REFUSED(public_from_snarkjs_json(std::string("[\"") + bad + "\"]"), Error::Malformed, "") << bad;
  }
  // Wrong shapes: not an array, a number instead of a string, nested arrays, not JSON at all.
  for (const char* bad : {"{}", "[1]", "[[\"1\"]]", "\"1\"", "[", "", "null"}) {
    EXPECT_NE(thrown([&] { public_from_snarkjs_json(bad); }).code, Error::Ok) << bad;
  }
}

TEST(SnarkjsJsonValues, ProofCoordinatesAtLeastPRefused) {
  std::mt19937_64 rng(3);
  const Proof proof{gt::random_g1(rng), gt::random_g2(rng), gt::random_g1(rng)};
  const std::string good = snarkjs_proof_json(proof);
  EXPECT_EQ(proof_from_snarkjs_json(good), proof);
  // pi_a.x replaced by p (≡ 0, and not canonical).
  auto j = nlohmann::json::parse(good);
  j["pi_a"][0] = kP;
  EXPECT_REFUSED(proof_from_snarkjs_json(j.dump()), Error::NotCanonical, "");
  // pi_a.x + 1 (off the curve).
  j = nlohmann::json::parse(good);
  j["pi_a"][1] = to_decimal(proof.a.y + ff::Fp::one());
  EXPECT_REFUSED(proof_from_snarkjs_json(j.dump()), Error::NotOnCurve, "");
  // A point outside the subgroup.
  const auto out = gt::g1_outside_subgroup();
  j = nlohmann::json::parse(good);
  j["pi_c"] = {to_decimal(out.x), to_decimal(out.y), "1"};
  EXPECT_REFUSED(proof_from_snarkjs_json(j.dump()), Error::NotInSubgroup, "");
  // Missing member, wrong arity.
  j = nlohmann::json::parse(good);
  j.erase("pi_b");
  EXPECT_NE(thrown([&] { proof_from_snarkjs_json(j.dump()); }).code, Error::Ok);
  j = nlohmann::json::parse(good);
  j["pi_a"].erase(2);
  EXPECT_NE(thrown([&] { proof_from_snarkjs_json(j.dump()); }).code, Error::Ok);
  // Labels of another protocol or curve (a tester found them ignored); absent labels are fine.
  j = nlohmann::json::parse(good);
  j["protocol"] = "plonk";
  EXPECT_REFUSED(proof_from_snarkjs_json(j.dump()), Error::Malformed, "protocol is not \"groth16\"");
  j = nlohmann::json::parse(good);
  j["curve"] = "bn128";
  EXPECT_REFUSED(proof_from_snarkjs_json(j.dump()), Error::Malformed, "curve is not \"bls12381\"");
  j = nlohmann::json::parse(good);
  j.erase("protocol");
  j.erase("curve");
  EXPECT_EQ(proof_from_snarkjs_json(j.dump()), proof);
}

// ---- proof encodings ---------------------------------------------------------------------------------

TEST(ProofEncodingClasses, NonCanonicalFlagsAndInfinityNamed) {
  std::mt19937_64 rng(4);
  const Proof proof{gt::random_g1(rng), gt::random_g2(rng), gt::random_g1(rng)};
  const auto good = proof.to_bytes();
  // C.x >= p: write p (big-endian) into C's x, keep the flags.
  auto b = good;
  const auto pbytes = [] {
    std::array<std::uint8_t, 48> out{};
    const auto m = ff::Fp::kModulus;
    for (int i = 0; i < 48; ++i) out[47 - i] = static_cast<std::uint8_t>(m[i / 8] >> (8 * (i % 8)));
    return out;
  }();
  for (int i = 0; i < 48; ++i) b[144 + i] = pbytes[i];
  b[144] |= good[144] & 0xe0;
  EXPECT_REFUSED(Proof::from_bytes(b), Error::NotCanonical, "C");
  // A's compression flag cleared.
  b = good;
  b[0] &= 0x7f;
  EXPECT_REFUSED(Proof::from_bytes(b), Error::CompressionMismatch, "A");
  // B as infinity with a stray bit; then as a clean infinity (refused: a proof point may not be it).
  b = good;
  std::fill(b.begin() + 48, b.begin() + 144, 0);
  b[48] = 0xc0;
  b[100] = 1;
  EXPECT_REFUSED(Proof::from_bytes(b), Error::InfinityNotZero, "B");
  b[100] = 0;
  EXPECT_REFUSED(Proof::from_bytes(b), Error::UnexpectedInfinity, "B");
  // Infinity flag together with the sign flag.
  b = good;
  std::fill(b.begin(), b.begin() + 48, 0);
  b[0] = 0xe0;
  EXPECT_REFUSED(Proof::from_bytes(b), Error::InfinityNotZero, "A");
}

// ---- truncation --------------------------------------------------------------------------------------

TEST(Truncation, VerifyingKeyCutAnywhereNamesSectionAndOffset) {
  std::mt19937_64 rng(5);
  const auto vk = gt::random_parameters(rng, 3, 1, 1, 3, 0).vk.to_bytes();
  for (std::size_t len = 0; len < vk.size(); len += 7) {
    const Thrown t = thrown([&] { VerifyingKey::from_bytes(std::span(vk.data(), len), "cut.vk"); });
    EXPECT_EQ(t.code, Error::BadLength) << len;
    EXPECT_NE(t.what.find("cut.vk"), std::string::npos) << t.what;
    EXPECT_NE(t.what.find("offset"), std::string::npos) << t.what;
  }
}

TEST(Truncation, MultiProofNotAMultipleOf192) {
  std::mt19937_64 rng(6);
  const std::vector<Proof> ps{{gt::random_g1(rng), gt::random_g2(rng), gt::random_g1(rng)}};
  const auto bytes = encode_proofs(ps);
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, std::size_t{191}}) {
    EXPECT_REFUSED(decode_proofs(std::span(bytes.data(), len)), Error::BadLength, "");
  }
}

TEST(Truncation, C1JsonCutNamesTheByteOffset) {
  const std::string text = filecoin::to_json(filecoin::gen_c1({filecoin::RegisteredSealProof::StackedDrg2KiBV1_1, 3}));
  for (std::size_t len : {std::size_t{0}, std::size_t{1}, text.size() / 3, text.size() / 2, text.size() - 1}) {
    const Thrown t = thrown([&] { filecoin::parse_c1_json(std::string_view(text).substr(0, len)); });
    EXPECT_EQ(t.code, Error::BadC1Json) << len;
    EXPECT_NE(t.what.find("byte"), std::string::npos) << len << ": " << t.what;
  }
}

// ---- forged counts (fuzz/regressions/r1cs/huge-nconstraints) ---------------------------------------

TEST(R1csHeader, HugeConstraintCountRefusedBeforeAllocation) {
  namespace sj = groth16::snarkjs;
  auto bytes = sj::testing::toy_r1cs().to_bytes();
  // Section 1 is written first: 12-byte file header, 12-byte section header, then n8 (4), r (32),
  // nWires, nPubOut, nPubIn, nPrvIn (4 each), nLabels (8), nConstraints (4).
  const std::size_t at = 24 + 4 + 32 + 16 + 8;
  ASSERT_EQ(bytes[at], 4u);  // the toy circuit's 4 constraints
  for (std::uint32_t forged : {0xfffffff0u, 0x10000000u, 62u}) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<std::uint8_t>(forged >> (8 * i));
    try {
      sj::R1cs::from_bytes(bytes, "forged.r1cs");
      ADD_FAILURE() << "nConstraints " << forged << " accepted";
    } catch (const sj::FormatError& e) {
      EXPECT_EQ(e.kind(), sj::FileError::Truncated) << e.what();
      EXPECT_NE(std::string(e.what()).find("forged.r1cs"), std::string::npos) << e.what();
      EXPECT_EQ(e.section(), std::optional<std::uint32_t>(2)) << e.what();
    }
  }
}

// ---- wrong witness length ------------------------------------------------------------------------------

TEST(WitnessLength, LongerOrShorterThanZkeyRefusedByName) {
  namespace sj = groth16::snarkjs;
  const sj::R1cs r = sj::testing::toy_r1cs();
  const sj::testing::ToyKey key =
      sj::testing::toy_setup(r, {Fr::from_u64(11), Fr::from_u64(12), Fr::from_u64(13), Fr::from_u64(14)});
  sj::Witness w = sj::testing::toy_witness(3, 4);
  for (int delta : {-1, +1}) {
    sj::Witness bad = w;
    if (delta < 0) bad.values.pop_back();
    else bad.values.push_back(Fr::one().to_canonical());
    try {
      sj::check_witness_matches(key.zkey, bad, "toy.zkey", "toy.wtns");
      ADD_FAILURE() << "witness of " << bad.size() << " values accepted for " << key.zkey.n_vars << " variables";
    } catch (const sj::FormatError& e) {
      EXPECT_EQ(e.kind(), sj::FileError::Mismatch) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::to_string(bad.size())), std::string::npos) << e.what();
    }
    // The engine (`proofline prove --zkey`) refuses it before synthesis, naming both counts.
    const engine::ProofResult res = sj::testing::engine_prove(key.zkey, bad);
    EXPECT_EQ(res.state, engine::JobState::Failed);
    EXPECT_EQ(res.failure, engine::Failure::BadInput) << res.error;
    EXPECT_NE(res.error.find("witness has " + std::to_string(bad.size()) + " values"), std::string::npos) << res.error;
    EXPECT_NE(res.error.find("nVars = " + std::to_string(key.zkey.n_vars)), std::string::npos) << res.error;
    EXPECT_TRUE(res.proofs.empty());
    EXPECT_FALSE(thrown([&] { sj::check_witness(r, bad); }).what.empty());
  }
}

}  // namespace
