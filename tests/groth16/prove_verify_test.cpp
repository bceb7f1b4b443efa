// Setup → prove → verify round trips over circuit shapes; tampering; determinism; batches; an
// independent reference computation of A, B, C from known toxic waste.
#include <gtest/gtest.h>

#include <random>

#include "../support/create_proof.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/poly/domain.hpp"
#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/r1cs/test_constraint_system.hpp"
#include "test_circuits.hpp"
#include "test_util.hpp"

namespace proofline::groth16 {
namespace {

using testing::InputsOnlyCircuit;
using testing::ShapeCircuit;
using testing::ToyCircuit;

SetupOptions quiet() {
  SetupOptions o;
  o.warn = false;
  return o;
}

template <class C>
Parameters setup_for(const C& c, std::uint64_t seed) {
  SeededRandom rng(seed);
  return generate_parameters(c, rng, quiet());
}

Error pv_error_of(auto&& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    return e.code();
  }
  return Error::Ok;
}

std::vector<Fr> random_inputs(std::size_t k, std::mt19937_64& rng) {
  std::vector<Fr> v;
  for (std::size_t i = 0; i < k; ++i) v.push_back(Fr::random(rng));
  return v;
}

// ---- setup ---------------------------------------------------------------------------------------

TEST(Setup, ToyParamsAre2136Bytes) {
  ToyCircuit c;
  Parameters p = setup_for(c, 1);
  EXPECT_EQ(p.vk.ic.size(), 2u);
  EXPECT_EQ(p.h.size(), 3u);
  EXPECT_EQ(p.l.size(), 2u);
  EXPECT_EQ(p.a.size(), 3u);
  EXPECT_EQ(p.b_g1.size(), 1u);
  EXPECT_EQ(p.b_g2.size(), 1u);
  auto bytes = p.to_bytes();
  EXPECT_EQ(bytes.size(), 2136u);
  Parameters back = Parameters::from_bytes(bytes);
  EXPECT_EQ(back, p);
  EXPECT_EQ(back.to_bytes(), bytes);
  // Same seed, same parameters; other seed, other parameters.
  EXPECT_EQ(setup_for(c, 1).to_bytes(), bytes);
  EXPECT_NE(setup_for(c, 2).to_bytes(), bytes);
}

TEST(Setup, RejectsUnconstrainedAux) {
  SeededRandom rng(1);
  try {
    generate_parameters(testing::UnconstrainedCircuit{}, rng, quiet());
    FAIL() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find("aux variable 1 is unconstrained"), std::string::npos) << e.what();
  }
}

TEST(Setup, QueryShapesFollowDensity) {
  // 2 inputs, linear constraint (ONE in B), chain of 3: the last chain variable is only in C.
  ShapeCircuit c{{Fr::from_u64(2), Fr::from_u64(3)}, Fr::from_u64(4), 3, true};
  Parameters p = setup_for(c, 4);
  // aux: w0, p1, p2, s, w1, w2, w3 = 7; A-dense aux: w0 (sq), w1, w2 (sq), w0 also in lin → w0, w1, w2
  // plus p? (no, only in C), s (only C) → 3. B-dense: w0 (prod, sq), w1, w2; inputs: ONE (lin).
  EXPECT_EQ(p.vk.ic.size(), 3u);
  EXPECT_EQ(p.l.size(), 7u);
  EXPECT_EQ(p.a.size(), 3u + 3u);
  EXPECT_EQ(p.b_g1.size(), 1u + 3u);
  // 6 own + 3 input constraints = 9 rows → m = 16.
  EXPECT_EQ(p.h.size(), 15u);
}

TEST(Setup, FixedBaseTableMatchesScalarMul) {
  std::mt19937_64 rng(5);
  for (unsigned w : {1u, 3u, 8u}) {
    FixedBaseTable<ec::G1Config> t1(ec::G1Affine::generator(), w);
    FixedBaseTable<ec::G2Config> t2(ec::G2Affine::generator(), w);
    std::vector<Fr> ks = {Fr::zero(), Fr::one(), -Fr::one(), Fr::random(rng), Fr::random(rng)};
    auto b1 = t1.mul_batch(ks);
    for (std::size_t i = 0; i < ks.size(); ++i) {
      EXPECT_EQ(t1.mul(ks[i]), ec::G1Projective::generator().mul(ks[i]));
      EXPECT_EQ(t2.mul(ks[i]), ec::G2Projective::generator().mul(ks[i]));
      EXPECT_EQ(b1[i], ec::G1Projective::generator().mul(ks[i]).to_affine());
    }
  }
}

TEST(Setup, WindowForGrowsToSixteenBits) {
  EXPECT_LE(FixedBaseTable<ec::G1Config>::window_for(4), 4u);
  EXPECT_EQ(FixedBaseTable<ec::G1Config>::window_for(std::size_t{1} << 24), 16u);
  EXPECT_EQ(FixedBaseTable<ec::G1Config>::window_for(std::size_t{1} << 27), 16u);
  unsigned prev = 0;
  for (std::size_t n = 1; n <= (std::size_t{1} << 26); n *= 4) {
    const unsigned w = FixedBaseTable<ec::G1Config>::window_for(n);
    EXPECT_GE(w, prev) << n;
    prev = w;
  }
}

TEST(Setup, FixedBaseTableEntriesAreWindowMultiples) {
  // table()[k·(2^w − 1) + d − 1] = d·2^(wk)·G, for the windows built in parallel.
  const unsigned w = 5;
  FixedBaseTable<ec::G1Config> t(ec::G1Affine::generator(), w);
  EXPECT_EQ(t.window_bits(), w);
  EXPECT_EQ(t.windows(), 51u);
  const std::size_t per = (std::size_t{1} << w) - 1;
  ASSERT_EQ(t.table().size(), t.windows() * per);
  for (unsigned k : {0u, 1u, 25u, 50u}) {
    for (std::size_t d : {std::size_t{1}, std::size_t{2}, per}) {
      const Fr s = Fr::from_u64(d) * Fr::from_u64(2).pow(std::array<ff::u64, 1>{std::uint64_t{w} * k});
      EXPECT_EQ(t.table()[k * per + d - 1], ec::G1Projective::generator().mul(s).to_affine()) << k << " " << d;
    }
  }
}

TEST(Setup, BatchHooksGiveTheSameParameters) {
  // SetupOptions::g1_batch / g2_batch (how the GPU layer takes over the fixed-base work): a factory
  // called once per table, whose function computing each point alone gives byte-identical
  // parameters, is used for every query, in chunks of SetupOptions::chunk points.
  ShapeCircuit c{{Fr::from_u64(2), Fr::from_u64(3)}, Fr::from_u64(4), 5, true};
  SetupOptions o = quiet();
  o.chunk = 3;
  std::size_t g1_points = 0, g2_points = 0, g1_tables = 0, g2_tables = 0, max_call = 0;
  o.g1_batch = [&](const FixedBaseTable<ec::G1Config>& t) {
    ++g1_tables;
    return FixedBaseMulFn<ec::G1Config>([&](std::span<const Fr> ks, std::span<ec::G1Affine> out) {
      for (std::size_t i = 0; i < ks.size(); ++i) out[i] = t.mul(ks[i]).to_affine();
      g1_points += ks.size();
      max_call = std::max(max_call, ks.size());
    });
  };
  o.g2_batch = [&](const FixedBaseTable<ec::G2Config>& t) {
    ++g2_tables;
    return FixedBaseMulFn<ec::G2Config>([&](std::span<const Fr> ks, std::span<ec::G2Affine> out) {
      for (std::size_t i = 0; i < ks.size(); ++i) out[i] = t.mul(ks[i]).to_affine();
      g2_points += ks.size();
    });
  };
  SeededRandom r1(21), r2(21);
  const Parameters hooked = generate_parameters(c, r1, o);
  const Parameters plain = generate_parameters(c, r2, quiet());
  EXPECT_EQ(hooked.to_bytes(), plain.to_bytes());
  EXPECT_EQ(g1_tables, 1u);
  EXPECT_EQ(g2_tables, 1u);
  EXPECT_EQ(max_call, 3u);
  EXPECT_EQ(g1_points, plain.vk.ic.size() + plain.h.size() + plain.l.size() + plain.a.size() + plain.b_g1.size());
  EXPECT_EQ(g2_points, plain.b_g2.size());
}

// ---- prove / verify over shapes -------------------------------------------------------------------

struct Shape {
  const char* name;
  std::size_t inputs;
  std::size_t chain;
  bool linear;
  int witness;  // 0 random, 1 all zero, 2 all one
};

class Shapes : public ::testing::TestWithParam<Shape> {};

TEST_P(Shapes, RoundTrip) {
  const Shape& s = GetParam();
  std::mt19937_64 rng(42);
  ShapeCircuit c;
  c.chain = s.chain;
  c.linear = s.linear;
  if (s.witness == 0) {
    c.inputs = random_inputs(s.inputs, rng);
    c.w0 = Fr::random(rng);
  } else {
    Fr v = s.witness == 1 ? Fr::zero() : Fr::one();
    c.inputs.assign(s.inputs, v);
    c.w0 = v;
  }
  Parameters p = setup_for(c, 7);
  const std::size_t rows = c.own_constraints() + s.inputs + 1;
  std::size_t m = 1;
  while (m < rows) m <<= 1;
  EXPECT_EQ(p.h.size() + 1, m);
  // Parameters survive their file format (checked) unchanged.
  Parameters loaded = Parameters::from_bytes(p.to_bytes());
  ASSERT_EQ(loaded, p);
  PreparedVerifyingKey pvk = prepare_verifying_key(loaded.vk);

  Proof proof = create_proof(loaded, c);
  EXPECT_TRUE(verify_proof(pvk, proof, c.inputs)) << s.name;
  EXPECT_TRUE(verify_proof_bytes(pvk, proof.to_bytes(), [&] {
    std::vector<std::uint8_t> b(32 * c.inputs.size());
    for (std::size_t i = 0; i < c.inputs.size(); ++i) c.inputs[i].to_bytes_le(std::span<std::uint8_t, 32>(b.data() + 32 * i, 32));
    return b;
  }()));
  // Wrong inputs are rejected.
  if (!c.inputs.empty()) {
    auto bad = c.inputs;
    bad.back() += Fr::one();
    EXPECT_FALSE(verify_proof(pvk, proof, bad));
  }
  // Tampered proofs are rejected.
  Proof t = proof;
  t.a = (t.a.to_projective() + ec::G1Affine::generator()).to_affine();
  EXPECT_FALSE(verify_proof(pvk, t, c.inputs));
  t = proof;
  t.c = (t.c.to_projective() + ec::G1Affine::generator()).to_affine();
  EXPECT_FALSE(verify_proof(pvk, t, c.inputs));
  t = proof;
  t.b = (t.b.to_projective() + ec::G2Affine::generator()).to_affine();
  EXPECT_FALSE(verify_proof(pvk, t, c.inputs));
  t = proof;
  std::swap(t.a, t.c);
  EXPECT_FALSE(verify_proof(pvk, t, c.inputs));
}

INSTANTIATE_TEST_SUITE_P(
    Groth16, Shapes,
    ::testing::Values(Shape{"no_public_inputs", 0, 5, false, 0},            //
                      Shape{"one_constraint_no_inputs", 0, 1, false, 0},    // 1 own + ONE → m = 2
                      Shape{"one_input_one_constraint", 1, 0, false, 0},    //
                      Shape{"rows_exactly_16", 2, 10, true, 0},             // 2+10+1 + 3 = 16
                      Shape{"rows_17", 2, 11, true, 0},                     // 17 → m = 32
                      Shape{"rows_exactly_64", 4, 54, true, 0},             // 4+54+1 + 5 = 64
                      Shape{"rows_65", 4, 55, true, 0},                     // 65 → m = 128
                      Shape{"all_zero_witness", 3, 6, true, 1},             //
                      Shape{"all_one_witness", 3, 6, false, 2},             //
                      Shape{"zero_witness_no_linear", 2, 4, false, 1}),
    [](const ::testing::TestParamInfo<Shape>& i) { return std::string(i.param.name); });

TEST(ProveVerify, OnlyPublicInputs) {
  InputsOnlyCircuit c;
  Parameters p = setup_for(c, 8);
  EXPECT_EQ(p.l.size(), 0u);
  EXPECT_EQ(p.vk.ic.size(), 4u);
  PreparedVerifyingKey pvk = prepare_verifying_key(p.vk);
  Proof proof = create_proof(p, c);
  std::vector<Fr> x = {c.x1, c.x2, c.x1 * c.x2};
  EXPECT_TRUE(verify_proof(pvk, proof, x));
  // Swapped public inputs are rejected.
  std::swap(x[0], x[2]);
  EXPECT_FALSE(verify_proof(pvk, proof, x));
}

TEST(ProveVerify, SwappedPublicInputsRejected) {
  ShapeCircuit c{{Fr::from_u64(2), Fr::from_u64(3), Fr::from_u64(5)}, Fr::from_u64(7), 4, true};
  Parameters p = setup_for(c, 9);
  PreparedVerifyingKey pvk = prepare_verifying_key(p.vk);
  Proof proof = create_proof(p, c);
  EXPECT_TRUE(verify_proof(pvk, proof, c.inputs));
  auto x = c.inputs;
  std::swap(x[0], x[1]);
  EXPECT_FALSE(verify_proof(pvk, proof, x));
}

TEST(ProveVerify, WrongInputCountThrows) {
  ToyCircuit c;
  Parameters p = setup_for(c, 10);
  PreparedVerifyingKey pvk = prepare_verifying_key(p.vk);
  Proof proof = create_proof(p, c);
  EXPECT_EQ(pv_error_of([&] { verify_proof(pvk, proof, std::vector<Fr>{}); }), Error::BadLength);
  EXPECT_EQ(pv_error_of([&] { verify_proof(pvk, proof, std::vector<Fr>{Fr::one(), Fr::one()}); }), Error::BadLength);
  try {
    verify_proof(pvk, proof, std::vector<Fr>{});
  } catch (const ProoflineError& e) {
    EXPECT_NE(std::string(e.what()).find("got 0, expected 1"), std::string::npos) << e.what();
  }
}

TEST(ProveVerify, BytesApiRejectsNonCanonicalInputsAndBadProofs) {
  ToyCircuit c;
  Parameters p = setup_for(c, 11);
  PreparedVerifyingKey pvk = prepare_verifying_key(p.vk);
  Proof proof = create_proof(p, c);
  auto pb = proof.to_bytes();
  std::vector<std::uint8_t> x(32);
  Fr(c.a * c.b).to_bytes_le(std::span<std::uint8_t, 32>(x.data(), 32));
  EXPECT_TRUE(verify_proof_bytes(pvk, pb, x));
  // 33 + r: same value mod r, but not canonical → rejected, not silently reduced.
  std::vector<std::uint8_t> big(32);
  ff::Fr::Limbs r = ff::Fr::kModulus;
  r[0] += 33;
  for (int i = 0; i < 32; ++i) big[i] = static_cast<std::uint8_t>(r[i / 8] >> (8 * (i % 8)));
  EXPECT_EQ(pv_error_of([&] { verify_proof_bytes(pvk, pb, big); }), Error::NotCanonical);
  EXPECT_EQ(pv_error_of([&] { verify_proof_bytes(pvk, std::span(pb.data(), 191), x); }), Error::BadLength);
  EXPECT_EQ(pv_error_of([&] { verify_proof_bytes(pvk, pb, std::span(x.data(), 31)); }), Error::BadLength);
  // A proof point outside the subgroup fails the decode.
  Proof q = proof;
  q.a = testing::g1_outside_subgroup();
  EXPECT_EQ(pv_error_of([&] { verify_proof_bytes(pvk, q.to_bytes(), x); }), Error::NotInSubgroup);
  // ... and the value-level API returns false for it.
  EXPECT_FALSE(verify_proof(pvk, q, std::vector<Fr>{c.a * c.b}));
}

TEST(ProveVerify, SameRandomizersSameBytes) {
  ShapeCircuit c{{Fr::from_u64(2), Fr::from_u64(3)}, Fr::from_u64(4), 7, true};
  Parameters p = setup_for(c, 12);
  SeededRandom rng(99);
  Randomizers rs{random_fr(rng), random_fr(rng)};
  Proof p1 = create_proof(p, c, rs);
  Proof p2 = create_proof(p, c, rs);
  EXPECT_EQ(p1.to_bytes(), p2.to_bytes());
  CpuBackend one_thread(CpuBackendConfig{1});
  EXPECT_EQ(create_proof(p, c, rs, &one_thread).to_bytes(), p1.to_bytes());
  Proof p3 = create_proof(p, c, Randomizers{rs.r, rs.s + Fr::one()});
  EXPECT_NE(p3.to_bytes(), p1.to_bytes());
  PreparedVerifyingKey pvk = prepare_verifying_key(p.vk);
  EXPECT_TRUE(verify_proof(pvk, p1, c.inputs));
  EXPECT_TRUE(verify_proof(pvk, p3, c.inputs));
  // r = s = 0 is a valid (non-zero-knowledge) proof too.
  EXPECT_TRUE(verify_proof(pvk, create_proof(p, c, Randomizers{Fr::zero(), Fr::zero()}), c.inputs));
  // Two random proofs differ.
  EXPECT_NE(create_proof(p, c).to_bytes(), create_proof(p, c).to_bytes());
}

TEST(ProveVerify, BatchOfPartitionsAndBatchVerify) {
  std::mt19937_64 rng(13);
  std::vector<ShapeCircuit> cs;
  for (int i = 0; i < 5; ++i) cs.push_back(ShapeCircuit{random_inputs(2, rng), Fr::random(rng), 6, true});
  Parameters p = setup_for(cs[0], 14);
  PreparedVerifyingKey pvk = prepare_verifying_key(p.vk);
  std::vector<Proof> proofs = create_proofs(p, std::span<const ShapeCircuit>(cs));
  ASSERT_EQ(proofs.size(), 5u);
  std::vector<std::vector<Fr>> inputs;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    EXPECT_TRUE(verify_proof(pvk, proofs[i], cs[i].inputs));
    inputs.push_back(cs[i].inputs);
  }
  EXPECT_TRUE(verify_proofs_batch(pvk, proofs, inputs));
  SeededRandom zr(5);
  EXPECT_TRUE(verify_proofs_batch(pvk, proofs, inputs, &zr));
  // Multi-proof bytes round trip.
  auto bytes = encode_proofs(proofs);
  EXPECT_EQ(bytes.size(), 5u * 192u);
  EXPECT_EQ(decode_proofs(bytes), proofs);
  // One wrong input, or two proofs swapped, sinks the batch.
  auto bad = inputs;
  bad[3][1] += Fr::one();
  EXPECT_FALSE(verify_proofs_batch(pvk, proofs, bad));
  auto swapped = proofs;
  std::swap(swapped[0], swapped[1]);
  EXPECT_FALSE(verify_proofs_batch(pvk, swapped, inputs));
  EXPECT_TRUE(verify_proofs_batch(pvk, std::span<const Proof>(proofs.data(), 1), std::span(inputs.data(), 1)));
  EXPECT_TRUE(verify_proofs_batch(pvk, {}, {}));
  EXPECT_EQ(pv_error_of([&] { verify_proofs_batch(pvk, proofs, std::span(inputs.data(), 4)); }), Error::BadLength);
}

// The compiled form of a partition (r1cs::ProvingBuffers with a, b, c empty and `compiled` set: the
// backend evaluates them itself, issue 31) proves the same bytes as the evaluated form, and a
// compiled circuit of another shape, or a, b, c left beside it, is refused by the shape check.
TEST(ProveVerify, CompiledFormSameBytes) {
  ShapeCircuit c{{Fr::from_u64(2), Fr::from_u64(3)}, Fr::from_u64(4), 9, true};
  Parameters p = setup_for(c, 16);
  r1cs::CircuitRecorder rec;
  r1cs::synthesize(c, rec);
  auto cc = std::make_shared<const r1cs::CompiledCircuit>(std::move(rec).compile());
  const Randomizers rs[2] = {{Fr::from_u64(11), Fr::from_u64(12)}, {Fr::zero(), Fr::from_u64(5)}};
  auto evaluated = [&] {
    r1cs::ProvingAssignment pa;
    r1cs::synthesize(c, pa);
    return pa.release();
  };
  auto compiled = [&](std::shared_ptr<const r1cs::CompiledCircuit> with) {
    r1cs::ProvingBuffers w = evaluated();
    w.a.clear();
    w.b.clear();
    w.c.clear();
    w.compiled = std::move(with);
    return w;
  };
  std::vector<r1cs::ProvingBuffers> want(2), got(2);
  for (int k = 0; k < 2; ++k) want[k] = evaluated(), got[k] = compiled(cc);
  CpuBackend be;
  const ProverResult a = be.prove(p, want, rs);
  const ProverResult b = be.prove(p, got, rs);
  ASSERT_EQ(b.proofs.size(), 2u);
  for (int k = 0; k < 2; ++k) EXPECT_EQ(b.proofs[k].to_bytes(), a.proofs[k].to_bytes()) << "partition " << k;
  EXPECT_GT(b.timings.evaluate, 0.0);
  EXPECT_EQ(a.timings.evaluate, 0.0);
  EXPECT_TRUE(verify_proof(prepare_verifying_key(p.vk), b.proofs[0], c.inputs));

  // the aux assignment packed (as witness-only synthesis makes it): the CPU backend expands it, same bytes
  std::vector<r1cs::ProvingBuffers> packed(2);
  for (int k = 0; k < 2; ++k) {
    packed[k] = compiled(cc);
    packed[k].packed_aux = r1cs::PackedWitness::pack(packed[k].aux_assignment);
    packed[k].aux_assignment.clear();
    ASSERT_EQ(packed[k].aux_len(), p.num_aux());
  }
  const ProverResult pk = be.prove(p, packed, rs);
  for (int k = 0; k < 2; ++k) EXPECT_EQ(pk.proofs[k].to_bytes(), a.proofs[k].to_bytes()) << "packed, partition " << k;
  EXPECT_EQ(pk.timings.h2d_bytes, 0u);
  // both held (plain and packed) is refused
  std::vector<r1cs::ProvingBuffers> twice(1);
  twice[0] = compiled(cc);
  twice[0].packed_aux = r1cs::PackedWitness::pack(twice[0].aux_assignment);
  try {
    be.prove(p, twice, std::span(rs, 1));
    FAIL() << "plain and packed aux values together were accepted";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("beside a packed aux assignment"), std::string::npos) << e.what();
  }

  // another circuit's compiled form: its aux count differs from the parameters'
  ShapeCircuit longer = c;
  longer.chain = 20;
  r1cs::CircuitRecorder rec2;
  r1cs::synthesize(longer, rec2);
  std::vector<r1cs::ProvingBuffers> wrong(1);
  wrong[0] = compiled(std::make_shared<const r1cs::CompiledCircuit>(std::move(rec2).compile()));
  try {
    be.prove(p, wrong, std::span(rs, 1));
    FAIL() << "another circuit's compiled form was accepted";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("compiled circuit's aux variables (l query)"), std::string::npos) << e.what();
  }
  // a, b, c left beside the compiled circuit
  std::vector<r1cs::ProvingBuffers> both(1);
  both[0] = evaluated();
  both[0].compiled = cc;
  try {
    be.prove(p, both, std::span(rs, 1));
    FAIL() << "a, b, c beside a compiled circuit were accepted";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("beside a compiled circuit"), std::string::npos) << e.what();
  }
}

TEST(ProveVerify, ShapeMismatchIsAClearError) {
  ShapeCircuit small{{Fr::from_u64(2)}, Fr::from_u64(3), 2, false};
  ShapeCircuit other{{Fr::from_u64(2), Fr::from_u64(5)}, Fr::from_u64(3), 2, false};
  Parameters p = setup_for(small, 15);
  try {
    create_proof(p, other);
    FAIL() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
    EXPECT_NE(std::string(e.what()).find("got 3, expected 2"), std::string::npos) << e.what();
  }
  ShapeCircuit longer = small;
  longer.chain = 40;
  EXPECT_EQ(pv_error_of([&] { create_proof(p, longer); }), Error::BadLength);
}

// ---- independent reference: A, B, C from the toxic waste, by hand -------------------------------
//
// With τ, α, β, γ, δ and r, s known, and z the full assignment, Groth16 says
//   A = α + Σ_j z_j u_j(τ) + rδ,   B = β + Σ_j z_j v_j(τ) + sδ,
//   C = (Σ_{aux j} z_j (β u_j + α v_j + w_j)(τ) + h(τ)Z(τ)) / δ + sA + rB − rsδ,
// with Σ_j z_j u_j(τ) = Σ_i a_i L_i(τ) (a_i = ⟨A_i, z⟩), h(τ)Z(τ) = A(τ)B(τ) − C(τ), and L_i(τ) the
// Lagrange basis of the domain, computed here by the product formula Π_{k≠i} (τ − ω^k)/(ω^i − ω^k).
// None of proofline's QAP evaluation, fixed-base tables, NTTs or MSMs is used.
TEST(ProveVerify, MatchesSlowReferenceFromToxicWaste) {
  for (int variant = 0; variant < 3; ++variant) {
    ShapeCircuit c{{Fr::from_u64(2), Fr::from_u64(9)}, Fr::from_u64(3 + variant), std::size_t(3 + variant * 5), variant != 1};
    SeededRandom tw_rng(100 + variant);
    ToxicWaste tw = draw_toxic_waste(tw_rng);
    Parameters p = generate_parameters(c, tw, quiet());
    Randomizers rs{Fr::from_u64(1234 + variant), Fr::from_u64(98765)};
    if (variant == 2) rs = Randomizers{Fr::zero(), Fr::zero()};
    Proof proof = create_proof(p, c, rs);

    r1cs::TestConstraintSystem tcs;
    r1cs::synthesize(c, tcs);
    ASSERT_TRUE(tcs.is_satisfied());
    const std::size_t n = tcs.num_constraints();
    std::size_t m = 1;
    while (m < n) m <<= 1;
    // ω: a primitive m-th root of unity from Fr's 2^32-th root (same domain convention as bellperson).
    Fr omega = Fr::root_of_unity();
    for (std::size_t k = m; k < (std::size_t{1} << 32); k <<= 1) omega = omega.square();
    std::vector<Fr> pts(m);
    pts[0] = Fr::one();
    for (std::size_t i = 1; i < m; ++i) pts[i] = pts[i - 1] * omega;
    std::vector<Fr> L(m);
    for (std::size_t i = 0; i < m; ++i) {
      Fr num = Fr::one(), den = Fr::one();
      for (std::size_t k = 0; k < m; ++k) {
        if (k == i) continue;
        num *= tw.tau - pts[k];
        den *= pts[i] - pts[k];
      }
      L[i] = num * den.inverse();
    }
    Fr At = Fr::zero(), Bt = Fr::zero(), Ct = Fr::zero();
    for (std::size_t i = 0; i < n; ++i) {
      At += tcs.eval_a(i) * L[i];
      Bt += tcs.eval_b(i) * L[i];
      Ct += tcs.eval_c(i) * L[i];
    }
    // Input parts Σ_{inputs j} z_j u_j(τ) (etc.), column by column.
    auto input_part = [&](auto lc_of) {
      Fr acc = Fr::zero();
      for (std::size_t j = 0; j < tcs.num_inputs(); ++j) {
        Fr uj = Fr::zero();
        for (std::size_t i = 0; i < n; ++i) uj += lc_of(tcs.constraints()[i]).coeff_of(r1cs::Variable::input(j)) * L[i];
        acc += tcs.input_values()[j] * uj;
      }
      return acc;
    };
    Fr Ain = input_part([](const auto& k) -> const r1cs::LinearCombination& { return k.a; });
    Fr Bin = input_part([](const auto& k) -> const r1cs::LinearCombination& { return k.b; });
    Fr Cin = input_part([](const auto& k) -> const r1cs::LinearCombination& { return k.c; });
    const Fr a_s = tw.alpha + At + rs.r * tw.delta;
    const Fr b_s = tw.beta + Bt + rs.s * tw.delta;
    const Fr aux_part = tw.beta * (At - Ain) + tw.alpha * (Bt - Bin) + (Ct - Cin);
    const Fr c_s = (aux_part + At * Bt - Ct) * tw.delta.inverse() + rs.s * a_s + rs.r * b_s - rs.r * rs.s * tw.delta;
    EXPECT_EQ(proof.a, ec::G1Projective::generator().mul(a_s).to_affine()) << variant;
    EXPECT_EQ(proof.b, ec::G2Projective::generator().mul(b_s).to_affine()) << variant;
    EXPECT_EQ(proof.c, ec::G1Projective::generator().mul(c_s).to_affine()) << variant;
    // And the vk: ic_0 = (β u_0 + α v_0 + w_0)/γ for ONE — via the input parts with z = (1, 0, …).
    EXPECT_EQ(p.vk.alpha_g1, ec::G1Projective::generator().mul(tw.alpha).to_affine());
    EXPECT_EQ(p.vk.delta_g2, ec::G2Projective::generator().mul(tw.delta).to_affine());
  }
}

TEST(ProveVerify, ParamsFromFileCheckedAndUnchecked) {
  ShapeCircuit c{{Fr::from_u64(2), Fr::from_u64(3)}, Fr::from_u64(4), 20, true};
  Parameters p = setup_for(c, 16);
  std::string path = testing::temp_path("pv.params");
  p.write_file(path);
  for (Check check : {Check::Subgroup, Check::OnCurveOnly}) {
    Parameters q = Parameters::read_file(path, ReadOptions{check});
    ASSERT_EQ(q, p);
    EXPECT_TRUE(verify_proof(prepare_verifying_key(q.vk), create_proof(q, c), c.inputs));
  }
  std::remove(path.c_str());
}

TEST(ProveVerify, StageTimingsReported) {
  ShapeCircuit c{{Fr::from_u64(2)}, Fr::from_u64(4), 500, true};
  Parameters p = setup_for(c, 17);
  std::vector<r1cs::ProvingBuffers> parts;
  parts.push_back(synthesize_for_proving(c));
  ProverResult r = prove_assignments(p, parts);
  ASSERT_EQ(r.proofs.size(), 1u);
  const StageTimings& t = r.timings;
  EXPECT_GT(t.total, 0.0);
  EXPECT_GE(t.total, t.ntt + t.msm_h + t.msm_l + t.msm_a + t.msm_b_g1 + t.msm_b_g2 + t.assemble - 1e-6);
  EXPECT_EQ(public_inputs(parts[0]), c.inputs);
  EXPECT_TRUE(verify_proof(prepare_verifying_key(p.vk), r.proofs[0], c.inputs));
}

}  // namespace
}  // namespace proofline::groth16
