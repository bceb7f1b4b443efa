// snarkjs proofs: ffjavascript's roots, the odd-coset H scalars against direct polynomial evaluation,
// the zkey → parameters conversion, and whole proofs (through the engine's snarkjs kind and the CPU
// backend) against the points computed from known toxic waste (no node needed).
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "engine_prove.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/groth16/snarkjs/circuit.hpp"
#include "proofline/groth16/verifier.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/compiled_file.hpp"
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

std::string fail_text(const engine::ProofResult& r) { return std::string(engine::to_string(r.failure)) + ": " + r.error; }

// Through the engine (kind "snarkjs", CPU backend), as `proofline prove --zkey --rs` runs it: the proof
// equals the one computed from the toxic waste's scalars, byte for byte.
TEST_F(ToyProof, MatchesScalarsFromToxicWaste) {
  const R1cs r1cs = testing::toy_r1cs();
  const auto key = testing::toy_setup(r1cs, toxic());
  const Witness w = testing::toy_witness(3, 17);
  ASSERT_FALSE(first_unsatisfied(r1cs, w).has_value());
  for (auto rs : {std::pair<std::uint64_t, std::uint64_t>{0, 0}, {5, 0}, {0, 9}, {31337, 271828}}) {
    const Randomizers fixed{Fr::from_u64(rs.first), Fr::from_u64(rs.second)};
    const engine::ProofResult res = testing::engine_prove(key.zkey, w, fixed);  // verified by the engine too
    ASSERT_EQ(res.state, engine::JobState::Done) << fail_text(res);
    ASSERT_EQ(res.proofs.size(), 1u);
    const Proof want = testing::expected_proof(key, w, fixed.r, fixed.s);
    // the compiled form (the default) and the zkey's entries added up at synthesis (compiled=0)
    const engine::ProofResult plain = testing::engine_prove(key.zkey, w, fixed, false, /*compiled=*/false);
    ASSERT_EQ(plain.state, engine::JobState::Done) << fail_text(plain);
    EXPECT_EQ(plain.proofs.at(0), want);
    EXPECT_EQ(res.proofs[0].a, want.a) << "r = " << rs.first << ", s = " << rs.second;
    EXPECT_EQ(res.proofs[0].b, want.b);
    EXPECT_EQ(res.proofs[0].c, want.c);
    EXPECT_EQ(proof_json(res.proofs[0]), proof_json(want));
    ASSERT_EQ(res.public_inputs.size(), 1u);
    ASSERT_EQ(res.public_inputs[0].size(), 2u);
    EXPECT_EQ(res.public_inputs[0][0], Fr::from_u64(27 + 3 + 5));
    EXPECT_EQ(res.public_inputs[0][1], Fr::from_u64(17));
  }
}

// The CPU backend alone with the zkey's parameters (HForm::OddCoset, H section as it is): the same
// proof for fixed r, s, also for several partitions in one call.
TEST_F(ToyProof, CpuBackendWithOddCosetParameters) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  const ZkeyParameters zp = zkey_parameters(key.zkey);
  const Parameters& p = zp.params;
  EXPECT_EQ(p.h_form, HForm::OddCoset);
  EXPECT_EQ(p.h, key.zkey.h);  // no transform of the points
  EXPECT_EQ(p.domain_size(), key.zkey.domain_size);
  EXPECT_EQ(p.h_terms(), std::size_t{key.zkey.domain_size});
  EXPECT_EQ(p.l, key.zkey.c);
  EXPECT_EQ(p.vk, key.zkey.verifying_key());
  const Witness w1 = testing::toy_witness(3, 17), w2 = testing::toy_witness(4, 2);
  std::vector<r1cs::ProvingBuffers> parts(2);
  synthesize(zp.circuit, w1, parts[0]);
  synthesize(zp.circuit, w2, parts[1]);
  ASSERT_EQ(parts[0].a.size(), key.zkey.domain_size);
  const std::vector<Randomizers> rs = {{Fr::from_u64(7), Fr::from_u64(8)}, {Fr::from_u64(0), Fr::from_u64(0)}};
  CpuBackend cpu(CpuBackendConfig{2});
  const ProverResult res = cpu.prove(p, parts, rs);
  ASSERT_EQ(res.proofs.size(), 2u);
  EXPECT_EQ(res.proofs[0], testing::expected_proof(key, w1, rs[0].r, rs[0].s));
  EXPECT_EQ(res.proofs[1], testing::expected_proof(key, w2, rs[1].r, rs[1].s));
  EXPECT_GT(res.timings.msm_h, 0.0);
  // A partition of another domain size is refused by the shape check, naming the domain.
  r1cs::ProvingBuffers big;
  synthesize(zp.circuit, w1, big);
  big.a.resize(2 * key.zkey.domain_size, Fr::zero());
  big.b.resize(big.a.size(), Fr::zero());
  big.c.resize(big.a.size(), Fr::zero());
  try {
    cpu.prove(p, std::span<r1cs::ProvingBuffers>(&big, 1), std::span<const Randomizers>(rs.data(), 1));
    FAIL() << "a partition of twice the domain was proved";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("domain size"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("expected " + std::to_string(key.zkey.domain_size)), std::string::npos)
        << e.what();
  }
}

// The zkey's circuit in the compiled form (issue 31; circuit.hpp compiled_circuit): A and B as sparse
// rows, c = a·b; evaluated, it gives synthesize()'s a, b, c, and the CPU backend proves the
// toxic-waste reference proof from it. Entries of one (row, signal) are summed and a zero sum
// dropped; such a circuit is never written to a file.
TEST_F(ToyProof, CompiledFormEvaluatesToSynthesizesRows) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  const ZkeyParameters zp = zkey_parameters(key.zkey);
  auto made = compiled_circuit(zp.circuit);
  ASSERT_TRUE(made.has_value());
  const auto cc = std::make_shared<const r1cs::CompiledCircuit>(std::move(*made));
  EXPECT_TRUE(cc->shape().c_is_ab);
  EXPECT_EQ(cc->shape().constraints, key.zkey.domain_size);
  EXPECT_EQ(cc->shape().nnz[2], 0u);
  EXPECT_EQ(cc->shape().inputs, std::uint64_t{key.zkey.n_public} + 1);
  const Witness w = testing::toy_witness(3, 17);
  r1cs::ProvingBuffers want, got;
  synthesize(zp.circuit, w, want);
  synthesize_compiled(zp.circuit, w, cc, got, "toy.zkey", "toy.wtns");
  EXPECT_TRUE(got.a.empty() && got.b.empty() && got.c.empty());
  EXPECT_EQ(got.input_assignment, want.input_assignment);
  EXPECT_EQ(got.aux_assignment, want.aux_assignment);
  EXPECT_EQ(got.a_aux_density, want.a_aux_density);
  EXPECT_EQ(got.b_aux_density, want.b_aux_density);
  EXPECT_FALSE(r1cs::first_unsatisfied(*cc, got.input_assignment, got.aux_assignment).has_value());
  const Randomizers rs{Fr::from_u64(3), Fr::from_u64(4)};
  std::vector<r1cs::ProvingBuffers> parts{got};
  const ProverResult res = CpuBackend(CpuBackendConfig{2}).prove(zp.params, parts, std::span<const Randomizers>(&rs, 1));
  EXPECT_EQ(res.proofs.at(0), testing::expected_proof(key, w, rs.r, rs.s));
  r1cs::evaluate_in_place(got);
  EXPECT_EQ(got.compiled, nullptr);
  EXPECT_EQ(got.a, want.a);
  EXPECT_EQ(got.b, want.b);
  EXPECT_EQ(got.c, want.c);
  EXPECT_THROW(r1cs::write_compiled_circuit((std::filesystem::temp_directory_path() / "pl-ab.compiled").string(), *cc),
               ProoflineError);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::temp_directory_path() / "pl-ab.compiled"));

  // Hand-made: ONE, one public and one private signal, domain 4; A row 0 = 2·w2 + 3·w2 + w1 − w1
  // (one entry 5·w2), B row 0 = w0; rows 1–3 empty.
  ZkeyCircuit small;
  small.n_vars = 3;
  small.n_public = 1;
  small.domain_size = 4;
  const auto coeff = [](std::uint32_t m, std::uint32_t s, std::int64_t v) {
    return ZkeyCoeff{m, 0, s, v < 0 ? -Fr::from_u64(static_cast<std::uint64_t>(-v)) : Fr::from_u64(static_cast<std::uint64_t>(v))};
  };
  small.coeffs = {coeff(0, 2, 2), coeff(0, 1, 1), coeff(0, 2, 3), coeff(0, 1, -1), coeff(1, 0, 1)};
  for (bool b : {true, false}) small.b_input_density.push_back(b);
  small.a_aux_density.push_back(true);
  small.b_aux_density.push_back(false);
  const auto sc = compiled_circuit(small);
  ASSERT_TRUE(sc.has_value());
  EXPECT_EQ(sc->shape().nnz[0], 1u);
  EXPECT_EQ(sc->shape().nnz[1], 1u);
  ASSERT_EQ(sc->a().cols.size(), 1u);
  EXPECT_EQ(sc->a().cols[0], 2u);
  EXPECT_EQ(sc->coefficients()[sc->a().coeff_index[0]], Fr::from_u64(5));
  std::vector<Fr> a(4), b(4), c(4);
  const std::vector<Fr> in = {Fr::one(), Fr::from_u64(7)}, aux = {Fr::from_u64(9)};
  r1cs::evaluate(a, b, c, *sc, in, aux);
  EXPECT_EQ(a, (std::vector<Fr>{Fr::from_u64(45), Fr::zero(), Fr::zero(), Fr::zero()}));
  EXPECT_EQ(b, (std::vector<Fr>{Fr::one(), Fr::zero(), Fr::zero(), Fr::zero()}));
  EXPECT_EQ(c, (std::vector<Fr>{Fr::from_u64(45), Fr::zero(), Fr::zero(), Fr::zero()}));
}

TEST_F(ToyProof, OddCosetParametersHaveNoParamsEncoding) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  const Parameters p = zkey_parameters(key.zkey).params;
  std::vector<std::uint8_t> out;
  EXPECT_THROW(p.write(out), std::logic_error);
  EXPECT_THROW(p.to_bytes(), std::logic_error);
  const std::string path = (std::filesystem::temp_directory_path() / "proofline-oddcoset-refused.params").string();
  std::filesystem::remove(path);
  EXPECT_THROW(p.write_file(path), std::logic_error);
  EXPECT_FALSE(std::filesystem::exists(path));
}

// The conversion: rows moved to J·c mod n, densities and query lengths from the coefficients.
TEST_F(ToyProof, ZkeyConversionShapes) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  const Zkey& z = key.zkey;
  const ZkeyParameters zp = zkey_parameters(z);
  const ZkeyCircuit& c = zp.circuit;
  EXPECT_EQ(c.n_vars, 8u);
  EXPECT_EQ(c.n_public, 2u);
  EXPECT_EQ(c.domain_size, z.domain_size);
  ASSERT_EQ(c.coeffs.size(), z.coeffs.size());
  const OddCosetH h(z.log_domain_size());
  for (std::size_t i = 0; i < c.coeffs.size(); ++i) {
    EXPECT_EQ(c.coeffs[i].constraint, h.permute(z.coeffs[i].constraint)) << i;
    EXPECT_EQ(c.coeffs[i].signal, z.coeffs[i].signal);
    EXPECT_EQ(c.coeffs[i].value, z.coeffs[i].value);
  }
  // toy circuit: A uses x (3), x2 (4), x3 (5), z (2), ONE (0), and each public input's padding row;
  // B uses x (3), ONE (0), z (2). Private signals: 3 x, 4 x2, 5 x3, 6 zz, 7 unused.
  EXPECT_EQ(c.b_input_density.size(), 3u);
  EXPECT_TRUE(c.b_input_density.test(0));
  EXPECT_FALSE(c.b_input_density.test(1));
  EXPECT_TRUE(c.b_input_density.test(2));
  EXPECT_EQ(c.a_aux_density.size(), 5u);
  EXPECT_EQ(c.a_aux_density.popcount(), 3u);  // x, x2, x3
  EXPECT_EQ(c.b_aux_density.popcount(), 1u);  // x
  EXPECT_EQ(zp.params.a.size(), 3u + 3u);
  EXPECT_EQ(zp.params.b_g1.size(), 2u + 1u);
  EXPECT_EQ(zp.params.b_g2.size(), 3u);
  EXPECT_EQ(zp.params.b_g1[2], z.b1[3]);
  EXPECT_EQ(zp.params.a[5], z.a[5]);
  EXPECT_GE(c.bytes(), sizeof(ZkeyCoeff) * c.coeffs.size());
}

TEST_F(ToyProof, RandomizedProofVerifiesAndThroughZkeyBytes) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  const Zkey z = Zkey::from_bytes(key.zkey.to_bytes(), {ec::Check::Subgroup}, "toy.zkey");
  const Witness w = Witness::from_bytes(testing::toy_witness(5, 2).to_bytes(), "toy.wtns");
  const engine::ProofResult res = testing::engine_prove(z, w, std::nullopt, /*checked_points=*/true);
  ASSERT_EQ(res.state, engine::JobState::Done) << fail_text(res);
  const Proof& proof = res.proofs.at(0);
  const std::vector<Fr>& inputs = res.public_inputs.at(0);
  PreparedVerifyingKey pvk = prepare_verifying_key(z.verifying_key());
  EXPECT_TRUE(verify_proof(pvk, proof, inputs));
  // Through snarkjs JSON, as `proofline verify` reads it.
  const VerifyingKey vk = vk_from_snarkjs_json(snarkjs_vk_json(z.verifying_key()));
  const Proof p = proof_from_snarkjs_json(proof_json(proof));
  const auto pub = public_from_snarkjs_json(public_json(inputs));
  EXPECT_TRUE(verify_proof(prepare_verifying_key(vk), p, pub));
  auto bad = pub;
  bad[1] += Fr::one();
  EXPECT_FALSE(verify_proof(prepare_verifying_key(vk), p, bad));
  // Two random proofs of the same statement differ (fresh r, s per request).
  const engine::ProofResult again = testing::engine_prove(z, w);
  ASSERT_EQ(again.state, engine::JobState::Done) << fail_text(again);
  EXPECT_NE(again.proofs.at(0), proof);
  EXPECT_TRUE(verify_proof(pvk, again.proofs.at(0), again.public_inputs.at(0)));
}

// A witness that does not satisfy the circuit: the engine proves it, its self-check refuses the
// proof, and no proof comes back.
TEST_F(ToyProof, UnsatisfiedWitnessIsRefusedAfterProving) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  Witness w = testing::toy_witness(3, 17);
  w.values[1][0] += 1;  // y off by one
  const engine::ProofResult res = testing::engine_prove(key.zkey, w, Randomizers{Fr::from_u64(1), Fr::from_u64(2)});
  EXPECT_EQ(res.state, engine::JobState::Failed);
  EXPECT_EQ(res.failure, engine::Failure::SelfCheck) << res.error;
  EXPECT_NE(res.error.find("self-check failed"), std::string::npos) << res.error;
  EXPECT_TRUE(res.proofs.empty());
  EXPECT_TRUE(res.proof_bytes.empty());
}

TEST_F(ToyProof, WrongWitnessLengthNamesBothCounts) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  Witness w = testing::toy_witness(3, 17);
  w.values.pop_back();
  const engine::ProofResult res = testing::engine_prove(key.zkey, w);
  EXPECT_EQ(res.state, engine::JobState::Failed);
  EXPECT_EQ(res.failure, engine::Failure::BadInput) << res.error;
  EXPECT_NE(res.error.find("bad length: files do not match: request payload (.wtns): witness has 7 values"),
            std::string::npos)
      << res.error;
  EXPECT_NE(res.error.find("nVars = 8"), std::string::npos) << res.error;
  EXPECT_TRUE(res.proofs.empty());
  // The same check and message where the synthesis runs on its own.
  const ZkeyParameters zp = zkey_parameters(key.zkey);
  r1cs::ProvingBuffers buf;
  try {
    synthesize(zp.circuit, w, buf, "toy.zkey", "toy.wtns");
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.kind(), FileError::Mismatch);
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("toy.wtns"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("7 values"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nVars = 8"), std::string::npos) << e.what();
  }
}

// The engine takes one (r, s) per partition or none.
TEST_F(ToyProof, WrongRandomizerCountIsRefused) {
  const auto key = testing::toy_setup(testing::toy_r1cs(), toxic());
  const std::string zkey = testing::write_temp_zkey(key.zkey);
  engine::ProofRequest r;
  r.kind = "snarkjs";
  r.args = {{"zkey", zkey}};
  r.payload = testing::toy_witness(3, 17).to_bytes();
  r.randomizers = {Randomizers{Fr::one(), Fr::one()}, Randomizers{Fr::one(), Fr::one()}};
  const engine::ProofResult res = testing::test_engine().prove(r, std::chrono::minutes(1)).result;
  EXPECT_EQ(res.state, engine::JobState::Failed);
  EXPECT_EQ(res.failure, engine::Failure::BadInput);
  EXPECT_NE(res.error.find("randomizers (r, s): got 2 pairs, expected 1"), std::string::npos) << res.error;
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
  const engine::ProofResult res = testing::engine_prove(z, w);
  ASSERT_EQ(res.state, engine::JobState::Done) << fail_text(res);
  ASSERT_EQ(res.public_inputs.at(0), (std::vector<Fr>{Fr::from_u64(142), Fr::from_u64(100)}));
  const PreparedVerifyingKey pvk = prepare_verifying_key(z.verifying_key());
  EXPECT_TRUE(verify_proof(pvk, res.proofs.at(0), res.public_inputs.at(0)));
  EXPECT_FALSE(verify_proof(pvk, res.proofs.at(0), std::vector<Fr>{Fr::from_u64(142), Fr::from_u64(101)}));
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
