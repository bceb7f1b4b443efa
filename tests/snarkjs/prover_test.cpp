// snarkjs prover: ffjavascript's roots, the odd-coset H scalars against direct polynomial evaluation,
// and whole proofs against the points computed from known toxic waste (no node needed).
#include <gtest/gtest.h>

#include <random>

#include "proofline/groth16/snarkjs.hpp"
#include "proofline/groth16/verifier.hpp"
#include "toy_setup.hpp"

namespace proofline::groth16::snarkjs {
namespace {

using testing::Toxic;

Fr hex_fr(const char* hex) { return ec::detail::field_from_hex<Fr>(hex); }

TEST(SnarkjsRoots, MatchFfjavascript) {
  // Values from ../shared/reference/oracles.md §5.6 (ffjavascript Fr.w[k], generator 5).
  EXPECT_EQ(snarkjs_root_of_unity(32), hex_fr("0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f"));
  EXPECT_EQ(snarkjs_root_of_unity(16), hex_fr("0x6709c6cd56aa725b0409ee987a02402c0caba63a29c01b06137b458acfc35f7a"));
  EXPECT_EQ(snarkjs_root_of_unity(17), hex_fr("0x05deb333f8727901ebe905bd4fb9ac5c77d85a937ff858ec10251f7d8831e03e"));
  EXPECT_EQ(snarkjs_root_of_unity(18), hex_fr("0x5ef5e8db0b8ac903fd7f05ba4610300c4f730e7ddd3ccc96bf87b689b9009408"));
  EXPECT_EQ(snarkjs_root_of_unity(19), hex_fr("0x3a689e83aa0a1d802e1d9a1922cc3253a672867368812f7f6499688417cd0c14"));
  EXPECT_EQ(snarkjs_root_of_unity(0), Fr::one());
  EXPECT_EQ(snarkjs_root_of_unity(1), -Fr::one());
  EXPECT_NE(snarkjs_root_of_unity(16), poly::EvaluationDomain::with_log_size(16).omega());
}

TEST(SnarkjsRoots, ExponentRelatesTheTwoGenerators) {
  const std::uint64_t j = snarkjs_root_exponent();
  EXPECT_EQ(j & 1, 1u);
  EXPECT_LT(j, std::uint64_t{1} << 32);
  EXPECT_EQ(Fr::root_of_unity().pow(j), snarkjs_root_of_unity(32));
  for (unsigned k : {1u, 4u, 11u, 20u}) {
    const auto d = poly::EvaluationDomain::with_log_size(k);
    EXPECT_EQ(d.omega().pow(j % (std::uint64_t{1} << k)), snarkjs_root_of_unity(k)) << "k = " << k;
  }
}

Fr horner(const std::vector<Fr>& coeffs, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

TEST(OddCosetH, EqualsDirectEvaluationOnTheOddPoints) {
  std::mt19937_64 rng(7);
  for (unsigned k : {1u, 2u, 3u, 5u, 8u, 10u}) {
    const std::size_t n = std::size_t{1} << k;
    OddCosetH ctx(k);
    std::vector<Fr> pa(n), pb(n), pc(n);
    for (std::size_t i = 0; i < n; ++i) {
      pa[i] = Fr::random(rng);
      pb[i] = Fr::random(rng);
      pc[i] = Fr::random(rng);
    }
    // Evaluations at snarkjs' points ω5^c, placed at the 7-domain index permute(c).
    const Fr w = snarkjs_root_of_unity(k);
    std::vector<Fr> a(n), b(n), c(n);
    Fr x = Fr::one();
    for (std::size_t i = 0; i < n; ++i, x *= w) {
      a[ctx.permute(i)] = horner(pa, x);
      b[ctx.permute(i)] = horner(pb, x);
      c[ctx.permute(i)] = horner(pc, x);
    }
    std::vector<Fr> h = ctx.compute(a, b, c);
    const Fr w2n = snarkjs_root_of_unity(k + 1);
    const std::size_t checks = std::min<std::size_t>(n, 64);
    for (std::size_t t = 0; t < checks; ++t) {
      const std::size_t i = (t * 2654435761u) % n;
      const Fr p = w2n.pow(static_cast<std::uint64_t>(2 * i + 1));
      ASSERT_EQ(h[i], horner(pa, p) * horner(pb, p) - horner(pc, p)) << "k = " << k << ", i = " << i;
    }
  }
}

class ToyProof : public ::testing::Test {
 protected:
  static Toxic toxic() {
    return Toxic{Fr::from_u64(1234567), Fr::from_u64(89), Fr::from_u64(1011), Fr::from_u64(121314)};
  }
};

TEST_F(ToyProof, MatchesScalarsFromToxicWaste) {
  const R1cs r1cs = testing::toy_r1cs();
  const auto key = testing::toy_setup(r1cs, toxic());
  const Witness w = testing::toy_witness(3, 17);
  ASSERT_FALSE(first_unsatisfied(r1cs, w).has_value());
  for (auto rs : {std::pair<std::uint64_t, std::uint64_t>{0, 0}, {5, 0}, {0, 9}, {31337, 271828}}) {
    ProveOptions opts;
    opts.randomizers = Randomizers{Fr::from_u64(rs.first), Fr::from_u64(rs.second)};
    ProveResult res = prove(key.zkey, w, opts);  // verifies internally too
    const Proof want = testing::expected_proof(key, w, opts.randomizers->r, opts.randomizers->s);
    EXPECT_EQ(res.proof.a, want.a) << "r = " << rs.first << ", s = " << rs.second;
    EXPECT_EQ(res.proof.b, want.b);
    EXPECT_EQ(res.proof.c, want.c);
    ASSERT_EQ(res.public_inputs.size(), 2u);
    EXPECT_EQ(res.public_inputs[0], Fr::from_u64(27 + 3 + 5));
    EXPECT_EQ(res.public_inputs[1], Fr::from_u64(17));
  }
}

TEST_F(ToyProof, RandomizedProofVerifiesAndThroughZkeyBytes) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  const Zkey z = Zkey::from_bytes(key.zkey.to_bytes(), {ec::Check::Subgroup}, "toy.zkey");
  const Witness w = Witness::from_bytes(testing::toy_witness(5, 2).to_bytes(), "toy.wtns");
  ProveResult res = prove(z, w);
  PreparedVerifyingKey pvk = prepare_verifying_key(z.verifying_key());
  EXPECT_TRUE(verify_proof(pvk, res.proof, res.public_inputs));
  // Through snarkjs JSON, as `proofline verify` reads it.
  const VerifyingKey vk = vk_from_snarkjs_json(snarkjs_vk_json(z.verifying_key()));
  const Proof p = proof_from_snarkjs_json(proof_json(res.proof));
  const auto pub = public_from_snarkjs_json(public_json(res.public_inputs));
  EXPECT_TRUE(verify_proof(prepare_verifying_key(vk), p, pub));
  auto bad = pub;
  bad[1] += Fr::one();
  EXPECT_FALSE(verify_proof(prepare_verifying_key(vk), p, bad));
}

TEST_F(ToyProof, UnsatisfiedWitnessIsRefusedAfterProving) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  Witness w = testing::toy_witness(3, 17);
  w.values[1][0] += 1;  // y off by one
  EXPECT_THROW(prove(key.zkey, w), std::runtime_error);
}

TEST_F(ToyProof, WrongWitnessLengthNamesBothCounts) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  Witness w = testing::toy_witness(3, 17);
  w.values.pop_back();
  try {
    prove(key.zkey, w);
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.kind(), FileError::Mismatch);
    EXPECT_NE(std::string(e.what()).find("7 values"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nVars = 8"), std::string::npos) << e.what();
  }
}

TEST(SnarkjsJson, ExactBytes) {
  EXPECT_EQ(public_json({}), "[\n]");
  std::vector<Fr> pub = {Fr::from_u64(33), Fr::zero()};
  EXPECT_EQ(public_json(pub), "[\n \"33\",\n \"0\"\n]");
  Proof p{G1Affine::generator(), G2Affine::generator(), G1Affine::identity()};
  const std::string j = proof_json(p);
  EXPECT_EQ(j.rfind("{\n \"pi_a\": [\n  \"", 0), 0u) << j;
  EXPECT_NE(j.find("\"pi_c\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ],\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}"),
            std::string::npos)
      << j;
  EXPECT_NE(j.back(), '\n');
}

// circom --O2 keeps nPrvIn as declared even when it removed an unused private input (issue 21 item 5):
// `out <== a*b + pub` with private inputs a, b, c where c is used nowhere. circom --O2 drops c's wire,
// so the header says 1 output, 1 public, 3 private inputs but nWires = 5 (ONE, out, pub, a, b);
// snarkjs accepts such a file. Wires: 0 ONE, 1 out, 2 pub, 3 a, 4 b; labels 0..5 (5 = c, no wire).
R1cs o2_r1cs() {
  R1cs r{.n_wires = 5, .n_pub_out = 1, .n_pub_in = 1, .n_prv_in = 3, .n_labels = 6};
  const Fr one = Fr::one();
  const std::vector<R1csTerm> a = {{3, one}}, b = {{4, one}}, c = {{1, one}, {2, -one}};  // a·b = out − pub
  r.add_constraint(a, b, c);
  r.wire_to_label = {0, 1, 2, 3, 4};
  return r;
}

TEST_F(ToyProof, CircomO2HeaderWithMorePrivateInputsThanWiresProvesAndVerifies) {
  const R1cs built = o2_r1cs();
  ASSERT_GT(1 + built.n_pub_out + built.n_pub_in + built.n_prv_in, built.n_wires);
  const R1cs r = R1cs::from_bytes(built.to_bytes(), "o2.r1cs");  // refused before issue 21
  EXPECT_EQ(r.n_prv_in, 3u);
  EXPECT_EQ(r.n_wires, 5u);
  const auto key = testing::toy_setup(r, toxic());
  const Zkey z = Zkey::from_bytes(key.zkey.to_bytes(), {ec::Check::Subgroup}, "o2.zkey");
  // out = a·b + pub with a = 6, b = 7, pub = 100.
  const std::vector<Fr> wf = {Fr::one(), Fr::from_u64(142), Fr::from_u64(100), Fr::from_u64(6), Fr::from_u64(7)};
  const Witness w = Witness::from_bytes(Witness::from_fr(wf).to_bytes(), "o2.wtns");
  // What `proofline prove --r1cs o2.r1cs --check` runs before proving.
  check_r1cs_matches(z, r, "o2.zkey", "o2.r1cs");
  check_witness(r, w, "o2.wtns");
  ProveResult res = prove(z, w);
  ASSERT_EQ(res.public_inputs, (std::vector<Fr>{Fr::from_u64(142), Fr::from_u64(100)}));
  const PreparedVerifyingKey pvk = prepare_verifying_key(z.verifying_key());
  EXPECT_TRUE(verify_proof(pvk, res.proof, res.public_inputs));
  EXPECT_FALSE(verify_proof(pvk, res.proof, std::vector<Fr>{Fr::from_u64(142), Fr::from_u64(101)}));
  // A witness that breaks the constraint is still named.
  auto bad = wf;
  bad[1] += Fr::one();
  try {
    check_witness(r, Witness::from_fr(bad), "o2.wtns");
    FAIL() << "unsatisfied witness accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.kind(), FileError::Unsatisfied);
    EXPECT_NE(std::string(e.what()).find("constraint 0 of 1 fails"), std::string::npos) << e.what();
  }
}

TEST(R1csHeader, WireIndexBeyondNWiresStillRefused) {
  R1cs r = o2_r1cs();
  // A second constraint using wire 5 = nWires (the removed input's slot).
  const std::vector<R1csTerm> a = {{5, Fr::one()}}, b = {{0, Fr::one()}}, c = {{3, Fr::one()}};
  r.add_constraint(a, b, c);
  try {
    R1cs::from_bytes(r.to_bytes(), "o2bad.r1cs");
    FAIL() << "wire 5 of 5 accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.kind(), FileError::BadValue);
    EXPECT_EQ(e.section(), 2u);
    EXPECT_NE(std::string(e.what()).find("o2bad.r1cs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("constraint 1 A term 0: wire 5; expected < nWires = 5"), std::string::npos)
        << e.what();
  }
}

TEST(R1csHeader, PublicSignalsMustStillFitTheWires) {
  R1cs r = o2_r1cs();
  r.n_pub_in = 4;  // ONE + 1 output + 4 public inputs = 6 > 5 wires
  try {
    R1cs::from_bytes(r.to_bytes(), "o2pub.r1cs");
    FAIL() << "public signals beyond nWires accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.kind(), FileError::BadValue);
    EXPECT_NE(std::string(e.what()).find("nWires = 5 cannot hold ONE + 1 outputs + 4 public inputs; expected nWires >= 6"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace proofline::groth16::snarkjs
