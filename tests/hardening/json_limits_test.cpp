// Issue 21, items 1-2: every snarkjs JSON reader refuses deep nesting from the text (the CLI crashed
// with exit 139 on a public.json nested 80,000 levels, a proof.json with nested pi_a / protocol, a
// vk.json with a nested nPublic) and a public.json larger than its expected count allows is refused
// before it is parsed.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "proofline/groth16/snarkjs.hpp"
#include "proofline/util/error.hpp"

namespace proofline::groth16 {
namespace {

std::string deep(std::size_t n) { return std::string(n, '[') + "\"1\"" + std::string(n, ']'); }

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::Malformed) << e.what();
    return e.what();
  }
  return "(no error)";
}

const std::string kNested = "nested deeper than 64 levels";

TEST(SnarkjsJsonLimits, NestedPublicProofAndKeyAreRefused) {
  EXPECT_NE(error_of([] { public_from_snarkjs_json(deep(80000)); }).find(kNested), std::string::npos);
  EXPECT_NE(error_of([] { public_from_snarkjs_json("[\"1\", " + deep(200000) + "]"); }).find(kNested),
            std::string::npos);

  const std::string good_proof = snarkjs_proof_json(Proof{ec::G1Affine::generator(), ec::G2Affine::generator(),
                                                          ec::G1Affine::generator()});
  ASSERT_NO_THROW(proof_from_snarkjs_json(good_proof));
  std::string bad = good_proof;
  bad.replace(bad.find("\"groth16\""), 9, deep(100000));
  // 100,000 levels take 200 KB: over the proof's size limit already.
  EXPECT_NE(error_of([&] { proof_from_snarkjs_json(bad); }).find("more than the 65536 bytes"), std::string::npos);
  bad = good_proof;
  bad.replace(bad.find("\"groth16\""), 9, deep(1000));
  EXPECT_NE(error_of([&] { proof_from_snarkjs_json(bad); }).find(kNested), std::string::npos);

  VerifyingKey vk;
  vk.alpha_g1 = ec::G1Affine::generator();
  vk.beta_g2 = vk.gamma_g2 = vk.delta_g2 = ec::G2Affine::generator();
  vk.ic = {ec::G1Affine::generator(), ec::G1Affine::generator()};
  std::string vk_json = snarkjs_vk_json(vk);
  const auto np = vk_json.find("\"nPublic\": 1");
  ASSERT_NE(np, std::string::npos) << vk_json;
  vk_json.replace(np + 11, 1, deep(80000));
  const std::string msg = error_of([&] { vk_from_snarkjs_json(vk_json); });
  EXPECT_NE(msg.find("verification key: nested deeper than 64 levels at byte"), std::string::npos) << msg;
}

TEST(SnarkjsJsonLimits, PublicInputsOverTheExpectedCountAreRefusedFromTheSize) {
  const std::vector<Fr> three = {Fr::from_u64(1), Fr::from_u64(2), Fr::from_u64(3)};
  const std::string text = snarkjs_public_json(three);
  EXPECT_EQ(public_from_snarkjs_json(text, 3).size(), 3u);
  EXPECT_NE(error_of([&] { public_from_snarkjs_json(text, 2); }).find("3 entries, expected at most 2"), std::string::npos);
  // 5 M entries for a key with 2 inputs: refused from the size at once (it took 7.5 s and 0.9 GB).
  std::string huge = "[";
  for (int i = 0; i < 5'000'000; ++i) huge += "\"1\",";
  huge.back() = ']';
  const auto t0 = std::chrono::steady_clock::now();
  const std::string msg = error_of([&] { public_from_snarkjs_json(huge, 2); });
  EXPECT_NE(msg.find("20000001 bytes, more than the 320 bytes"), std::string::npos) << msg;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(500));
}

}  // namespace
}  // namespace proofline::groth16
