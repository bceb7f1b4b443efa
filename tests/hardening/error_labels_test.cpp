// Error codes say what was wrong (the tester's "bad length: … is not JSON" finding, issue 9):
//   - snarkjs JSON that is not JSON, or lacks a field, is Malformed (message label "malformed
//     input"), never BadLength; numbers >= r keep NotCanonical;
//   - snarkjs binary containers: a bad magic or a wrong curve is Malformed, a truncated file and a
//     witness of the wrong length are BadLength;
//   - a witness that does not satisfy the circuit fails the engine's self-check (Failure::SelfCheck,
//     which `proofline prove --zkey` reports as "proof does not verify: …" with exit 3, bad input;
//     tests/cli/hardening_cli.sh), never an internal error, and no proof comes back.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../snarkjs/engine_prove.hpp"
#include "../snarkjs/toy_setup.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"

namespace {

using namespace proofline;
using ff::Fr;
namespace sj = groth16::snarkjs;

/// The code and message of the ProoflineError `f` throws (Ok and "" when it returns).
template <class F>
std::pair<Error, std::string> refusal(F&& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    return {e.code(), e.what()};
  }
  return {Error::Ok, ""};
}

TEST(ErrorLabels, NamesOfTheNewCodes) {
  EXPECT_EQ(to_string(Error::Malformed), "malformed input");
  EXPECT_EQ(to_string(Error::ProofCheckFailed), "proof does not verify");
  EXPECT_EQ(std::string(ProoflineError(Error::Malformed, "x").what()), "malformed input: x");
}

TEST(ErrorLabels, SnarkjsJsonNotJsonOrMissingFieldIsMalformed) {
  for (const char* text : {"not json", "{", "[1, 2"}) {
    const auto [code, what] = refusal([&] { groth16::public_from_snarkjs_json(text); });
    EXPECT_EQ(code, Error::Malformed) << text << ": " << what;
    EXPECT_EQ(what.rfind("malformed input: snarkjs JSON: ", 0), 0u) << what;
    EXPECT_NE(what.find("not valid JSON"), std::string::npos) << what;
  }
  auto [code, what] = refusal([] { groth16::proof_from_snarkjs_json(R"({"pi_a": ["0", "1", "0"]})"); });
  EXPECT_EQ(code, Error::Malformed) << what;
  EXPECT_NE(what.find("has no field \"pi_b\""), std::string::npos) << what;
  std::tie(code, what) = refusal([] { groth16::vk_from_snarkjs_json("[]"); });
  EXPECT_EQ(code, Error::Malformed) << what;
  std::tie(code, what) = refusal([] { groth16::public_from_snarkjs_json("[1]"); });
  EXPECT_EQ(code, Error::Malformed) << what;  // a number, not a decimal string
  EXPECT_NE(what.find("is not a string"), std::string::npos) << what;
  // r itself: a value, not a structure error.
  std::tie(code, what) = refusal([] {
    groth16::public_from_snarkjs_json(
        R"(["52435875175126190479447740508185965837690552500527637822603658699938581184513"])");
  });
  EXPECT_EQ(code, Error::NotCanonical) << what;
}

TEST(ErrorLabels, SnarkjsContainerStructureIsMalformedTruncationIsBadLength) {
  const sj::R1cs r = sj::testing::toy_r1cs();
  const sj::testing::ToyKey key =
      sj::testing::toy_setup(r, {Fr::from_u64(21), Fr::from_u64(22), Fr::from_u64(23), Fr::from_u64(24)});
  std::vector<std::uint8_t> zkey = key.zkey.to_bytes();

  auto bad_magic = zkey;
  bad_magic[0] ^= 0xff;
  auto [code, what] = refusal([&] { sj::Zkey::from_bytes(bad_magic, {}, "m.zkey"); });
  EXPECT_EQ(code, Error::Malformed) << what;
  EXPECT_NE(what.find("m.zkey"), std::string::npos) << what;

  const std::vector<std::uint8_t> cut(zkey.begin(), zkey.begin() + static_cast<std::ptrdiff_t>(zkey.size() / 2));
  std::tie(code, what) = refusal([&] { sj::Zkey::from_bytes(cut, {}, "cut.zkey"); });
  EXPECT_EQ(code, Error::BadLength) << what;

  sj::Witness w = sj::testing::toy_witness(3, 4);
  w.values.pop_back();
  std::tie(code, what) = refusal([&] { sj::check_witness_matches(key.zkey, w); });
  EXPECT_EQ(code, Error::BadLength) << what;  // FileError::Mismatch: a length
  // Through the engine (what `proofline prove --zkey` runs): bad input, with the same label.
  const engine::ProofResult res = sj::testing::engine_prove(key.zkey, w);
  EXPECT_EQ(res.state, engine::JobState::Failed);
  EXPECT_EQ(res.failure, engine::Failure::BadInput) << res.error;
  EXPECT_NE(res.error.find("bad length: "), std::string::npos) << res.error;
  EXPECT_NE(res.error.find("witness has 7 values"), std::string::npos) << res.error;
}

TEST(ErrorLabels, UnsatisfiedWitnessFailsTheSelfCheck) {
  const sj::R1cs r = sj::testing::toy_r1cs();
  const sj::testing::ToyKey key =
      sj::testing::toy_setup(r, {Fr::from_u64(31), Fr::from_u64(32), Fr::from_u64(33), Fr::from_u64(34)});
  sj::Witness good = sj::testing::toy_witness(3, 17);
  const engine::ProofResult ok = sj::testing::engine_prove(key.zkey, good);
  EXPECT_EQ(ok.state, engine::JobState::Done) << ok.error;
  sj::Witness bad = good;
  bad.values[1][0] ^= 1;  // y changed: no longer the circuit's output
  const engine::ProofResult res = sj::testing::engine_prove(key.zkey, bad);
  EXPECT_EQ(res.state, engine::JobState::Failed);
  EXPECT_EQ(res.failure, engine::Failure::SelfCheck) << res.error;  // the CLI: exit 3, "proof does not verify"
  EXPECT_EQ(res.error.rfind("self-check failed: ", 0), 0u) << res.error;
  // Never an unverified proof: nothing comes back (there is no way to skip the self-check).
  EXPECT_TRUE(res.proofs.empty());
  EXPECT_TRUE(res.proof_bytes.empty());
  EXPECT_TRUE(res.public_inputs.empty());
  // The label the CLI's message carries.
  EXPECT_EQ(to_string(Error::ProofCheckFailed), "proof does not verify");
}

}  // namespace
