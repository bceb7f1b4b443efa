// The streamed setup (r1cs::QapEvaluator + sections streamed into a ParamsSink) against the former
// whole-matrix setup kept as the oracle (setup_oracle.hpp): the same QAP at τ, the same .params
// bytes for the same toxic waste (bench 2^10, 2^12, 2^16 and small shapes, any chunking), the same
// errors; and the streamed .params writer against the whole one.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/r1cs/keypair_assembly.hpp"
#include "proofline/r1cs/qap_evaluator.hpp"
#include "proofline/r1cs/shape_counter.hpp"
#include "setup_oracle.hpp"
#include "test_circuits.hpp"
#include "test_util.hpp"

namespace proofline::groth16 {
namespace {

using testing::InputsOnlyCircuit;
using testing::ShapeCircuit;
using testing::ToyCircuit;

SetupOptions quiet_setup() {
  SetupOptions o;
  o.warn = false;
  o.progress_min_constraints = ~std::size_t{0};
  return o;
}

ToxicWaste waste(std::uint64_t seed) {
  SeededRandom rng(seed);
  return draw_toxic_waste(rng);
}

template <class C>
r1cs::CircuitShape shape_of(const C& c) {
  r1cs::ShapeCounter s;
  r1cs::synthesize(c, s);
  return {s.num_constraints(), s.num_inputs(), s.num_aux()};
}

/// The evaluator's u, v, w and flags equal the oracle's column sums and column emptiness.
template <class C>
void expect_same_qap(const C& c, const Fr& tau) {
  r1cs::KeypairAssembly k;
  r1cs::synthesize(c, k);
  const oracle::QapAtTau want = oracle::evaluate_qap(k, tau);
  r1cs::QapEvaluator q(tau, shape_of(c));
  r1cs::synthesize(c, q);
  ASSERT_EQ(q.domain_size(), want.m);
  EXPECT_EQ(q.z_tau(), want.z_tau);
  ASSERT_EQ(q.inputs().size(), want.u_in.size());
  ASSERT_EQ(q.aux().size(), want.u_aux.size());
  auto flags = [](const r1cs::KeypairAssembly& k, bool input, std::size_t j) {
    auto col = [&](const r1cs::SparseColumns& m) { return input ? m.input(j) : m.aux(j); };
    return std::uint8_t((col(k.a()).empty() ? 0 : r1cs::QapEvaluator::kInA) |
                        (col(k.b()).empty() ? 0 : r1cs::QapEvaluator::kInB) |
                        (col(k.c()).empty() ? 0 : r1cs::QapEvaluator::kInC));
  };
  for (std::size_t j = 0; j < want.u_in.size(); ++j) {
    EXPECT_EQ(q.inputs()[j].u, want.u_in[j]) << "input " << j;
    EXPECT_EQ(q.inputs()[j].v, want.v_in[j]) << "input " << j;
    EXPECT_EQ(q.inputs()[j].w, want.w_in[j]) << "input " << j;
    EXPECT_EQ(q.input_flags()[j], flags(k, true, j)) << "input " << j;
  }
  std::size_t bad = 0;
  for (std::size_t j = 0; j < want.u_aux.size() && bad < 5; ++j) {
    const bool ok = q.aux()[j].u == want.u_aux[j] && q.aux()[j].v == want.v_aux[j] && q.aux()[j].w == want.w_aux[j] &&
                    q.aux_flags()[j] == flags(k, false, j);
    if (!ok) {
      ++bad;
      ADD_FAILURE() << "aux " << j << " differs";
    }
  }
}

TEST(QapEvaluator, EqualsColumnSumsOfKeypairAssembly) {
  const Fr tau = waste(3).tau;
  expect_same_qap(ToyCircuit{}, tau);
  expect_same_qap(ShapeCircuit{{Fr::from_u64(2), Fr::from_u64(3)}, Fr::from_u64(4), 5, true}, tau);
  expect_same_qap(InputsOnlyCircuit{}, tau);
  expect_same_qap(circuits::bench::SizedCircuit(10, Fr::from_u64(1)), tau);
}

TEST(QapEvaluator, EqualsColumnSumsAcrossLagrangeChunks) {
  // 2^17 rows: two Lagrange chunks of 2^16.
  expect_same_qap(circuits::bench::SizedCircuit(17, Fr::from_u64(5)), waste(4).tau);
}

TEST(QapEvaluator, RefusesAShapeThatIsNotTheCircuits) {
  const Fr tau = waste(5).tau;
  const circuits::bench::SizedCircuit c(6, Fr::one());  // 64 rows
  {
    r1cs::QapEvaluator q(tau, {32, 3, 0});  // domain 32: row 32 lies beyond it
    try {
      r1cs::synthesize(c, q);
      FAIL() << "accepted";
    } catch (const r1cs::SynthesisError& e) {
      EXPECT_EQ(e.code(), r1cs::SynthesisErrorCode::ShapeMismatch);
      EXPECT_NE(std::string(e.what()).find("constraint 32 lies beyond the evaluation domain of size 32"),
                std::string::npos)
          << e.what();
    }
  }
  {
    r1cs::QapEvaluator q(tau, {65, 3, 0});  // domain 128, the circuit's is 64
    EXPECT_THROW(r1cs::synthesize(c, q), r1cs::SynthesisError);
  }
  // A term naming an unallocated variable: KeypairAssembly's message.
  struct Bad {
    void synthesize(r1cs::ConstraintSystem& cs) const {
      cs.enforce("bad", r1cs::Variable::aux(3), r1cs::ConstraintSystem::one(), r1cs::ConstraintSystem::one());
    }
  };
  r1cs::QapEvaluator q(tau, {4, 1, 0});
  try {
    r1cs::synthesize(Bad{}, q);
    FAIL() << "accepted";
  } catch (const r1cs::SynthesisError& e) {
    EXPECT_EQ(e.code(), r1cs::SynthesisErrorCode::UnknownVariable);
    EXPECT_NE(std::string(e.what()).find("aux variable 3 used, but only 0 allocated"), std::string::npos) << e.what();
  }
}

// ---- whole parameters: byte-identical to the oracle ------------------------------------------------

template <class C>
void expect_same_params(const C& c, std::uint64_t seed, SetupOptions o = quiet_setup()) {
  const ToxicWaste tw = waste(seed);
  const Parameters want = oracle::generate_parameters(c, tw);
  const Parameters got = generate_parameters(c, tw, o);
  EXPECT_TRUE(got == want);
  EXPECT_EQ(got.to_bytes(), want.to_bytes());
}

TEST(SetupStream, SmallShapesEqualWholeMatrixSetup) {
  expect_same_params(ToyCircuit{}, 1);
  expect_same_params(ShapeCircuit{{Fr::from_u64(2), Fr::from_u64(3)}, Fr::from_u64(4), 5, true}, 2);
  expect_same_params(ShapeCircuit{{}, Fr::from_u64(4), 9, false}, 3);
  expect_same_params(InputsOnlyCircuit{}, 4);
  expect_same_params(circuits::bench::MulCircuit{}, 5);
}

TEST(SetupStream, Bench2p10And2p12EqualWholeMatrixSetup) {
  expect_same_params(circuits::bench::SizedCircuit(10, Fr::from_u64(1)), 20261201);
  SetupOptions o = quiet_setup();
  o.chunk = 1000;  // sections in several chunks, the last one short
  expect_same_params(circuits::bench::SizedCircuit(12, Fr::from_u64(2)), 20261202, o);
}

// ~12 CPU-s (the oracle's fixed-base work): DISABLED_ in the per-case run, run once by ctest as
// setup_stream_slow (label slow; CMakeLists.txt).
TEST(SetupStreamSlow, DISABLED_Bench2p16EqualsWholeMatrixSetup) {
  SetupOptions o = quiet_setup();
  o.chunk = std::size_t{1} << 14;
  expect_same_params(circuits::bench::SizedCircuit(16, Fr::from_u64(3)), 20261203, o);
}

TEST(SetupStream, GivenShapeSparesTheCountAndIsChecked) {
  const circuits::bench::SizedCircuit c(8, Fr::from_u64(1));
  const ToxicWaste tw = waste(6);
  SetupOptions o = quiet_setup();
  o.shape = shape_of(c);
  EXPECT_EQ(generate_parameters(c, tw, o).to_bytes(), oracle::generate_parameters(c, tw).to_bytes());
  o.shape->aux += 1;  // same domain, other counts: refused
  try {
    generate_parameters(c, tw, o);
    FAIL() << "accepted";
  } catch (const r1cs::SynthesisError& e) {
    EXPECT_EQ(e.code(), r1cs::SynthesisErrorCode::ShapeMismatch);
  }
}

TEST(SetupStream, SameErrorsAsWholeMatrixSetup) {
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const ProoflineError& e) {
      EXPECT_EQ(e.code(), Error::UnexpectedInfinity);
      return e.what();
    }
    return "no error";
  };
  const ToxicWaste tw = waste(7);
  const testing::UnconstrainedCircuit u;
  const std::string want = message([&] { oracle::generate_parameters(u, tw); });
  EXPECT_NE(want.find("aux variable 1 is unconstrained"), std::string::npos) << want;
  EXPECT_EQ(message([&] { generate_parameters(u, tw, quiet_setup()); }), want);
  // Zero toxic waste, τ in the domain.
  ToxicWaste zero = tw;
  zero.alpha = Fr::zero();
  EXPECT_EQ(message([&] { generate_parameters(ToyCircuit{}, zero, quiet_setup()); }),
            message([&] { oracle::generate_parameters(ToyCircuit{}, zero); }));
  ToxicWaste in_domain = tw;
  in_domain.tau = Fr::one();
  const std::string d = message([&] { generate_parameters(ToyCircuit{}, in_domain, quiet_setup()); });
  EXPECT_NE(d.find("tau lies in the evaluation domain"), std::string::npos) << d;
  EXPECT_EQ(d, message([&] { oracle::generate_parameters(ToyCircuit{}, in_domain); }));
}

TEST(SetupStream, ProgressNamesStagesPercentAndEta) {
  SetupOptions o = quiet_setup();
  o.progress_min_constraints = 0;
  ::testing::internal::CaptureStderr();
  generate_parameters(circuits::bench::SizedCircuit(10, Fr::one()), waste(8), o);
  const std::string err = ::testing::internal::GetCapturedStderr();
  for (const char* stage : {"[1/10] count", "[2/10] synthesis", "[3/10] check", "[4/10] tables", "[5/10] ic",
                            "[6/10] h", "[7/10] l", "[8/10] a", "[9/10] b_g1", "[10/10] b_g2", "setup: done in"}) {
    EXPECT_NE(err.find(stage), std::string::npos) << stage << "\n" << err;
  }
}

// ---- the streamed writer ---------------------------------------------------------------------------

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string("proofline_") + name + "_" +
                                                    std::to_string(::getpid()) + ".params"))
      .string();
}

TEST(ParamsWriter, StreamedWriteEqualsWholeWrite) {
  std::mt19937_64 rng(11);
  const Parameters p = testing::random_parameters(rng, 3, 15, 9, 7, 5);
  const std::vector<std::uint8_t> whole = p.to_bytes();
  // Chunked appends of random lengths, to a file and to bytes.
  for (int round = 0; round < 3; ++round) {
    const std::string path = temp_path("stream");
    std::vector<std::uint8_t> bytes;
    {
      ParamsWriter file(path), mem(bytes);
      for (ParamsSink* s : {static_cast<ParamsSink*>(&file), static_cast<ParamsSink*>(&mem)}) s->vk(p.vk);
      auto feed = [&](ParamsSection sec, const auto& pts) {
        using P = typename std::decay_t<decltype(pts)>::value_type;
        file.begin(sec, pts.size());
        mem.begin(sec, pts.size());
        for (std::size_t i = 0; i < pts.size();) {
          const std::size_t n = std::min<std::size_t>(pts.size() - i, 1 + rng() % 4);
          file.append(std::span<const P>(pts.data() + i, n));
          mem.append(std::span<const P>(pts.data() + i, n));
          i += n;
        }
      };
      feed(ParamsSection::H, p.h);
      feed(ParamsSection::L, p.l);
      feed(ParamsSection::A, p.a);
      feed(ParamsSection::BG1, p.b_g1);
      feed(ParamsSection::BG2, p.b_g2);
      file.finish();
      mem.finish();
      EXPECT_EQ(file.bytes_written(), whole.size());
    }
    EXPECT_EQ(bytes, whole);
    EXPECT_EQ(read_file_bytes(path), whole);
    std::filesystem::remove(path);
  }
  // write_file (the writer fed from memory) = to_bytes.
  const std::string path = temp_path("whole");
  p.write_file(path);
  EXPECT_EQ(read_file_bytes(path), whole);
  std::filesystem::remove(path);
}

TEST(ParamsWriter, StreamedSetupFileEqualsWholeParameters) {
  const circuits::bench::SizedCircuit c(10, Fr::from_u64(9));
  const ToxicWaste tw = waste(12);
  const std::string path = temp_path("setup");
  SetupOptions o = quiet_setup();
  o.chunk = 300;
  SetupResult r;
  {
    ParamsWriter w(path);
    r = generate_parameters(c, tw, w, o);
  }
  const Parameters p = generate_parameters(c, tw, quiet_setup());
  EXPECT_EQ(read_file_bytes(path), p.to_bytes());
  EXPECT_EQ(r.vk, p.vk);
  EXPECT_EQ(r.h, p.h.size());
  EXPECT_EQ(r.l, p.l.size());
  EXPECT_EQ(r.a, p.a.size());
  EXPECT_EQ(r.b, p.b_g1.size());
  EXPECT_EQ(r.shape.constraints, std::size_t{1} << 10);
  std::filesystem::remove(path);
}

TEST(ParamsWriter, RefusesWrongCountsAndOrder) {
  std::mt19937_64 rng(13);
  const Parameters p = testing::random_parameters(rng, 2, 3, 2, 2, 1);
  std::vector<std::uint8_t> bytes;
  {
    ParamsWriter w(bytes);
    EXPECT_THROW(w.begin(ParamsSection::H, 3), std::logic_error);  // vk first
    w.vk(p.vk);
    EXPECT_THROW(w.begin(ParamsSection::L, 2), std::logic_error);  // h next
    w.begin(ParamsSection::H, 3);
    EXPECT_THROW(w.append(std::span<const G2Affine>(p.b_g2)), std::logic_error);  // G1 section
    w.append(std::span<const G1Affine>(p.h.data(), 2));
    try {
      w.begin(ParamsSection::L, 2);  // h short by one
      FAIL() << "accepted";
    } catch (const ProoflineError& e) {
      EXPECT_EQ(e.code(), Error::BadLength);
      EXPECT_NE(std::string(e.what()).find("section h: 2 points appended, expected 3"), std::string::npos) << e.what();
    }
  }
  ParamsWriter w(bytes);
  w.vk(p.vk);
  w.begin(ParamsSection::H, 1);
  try {
    w.append(std::span<const G1Affine>(p.h));  // 3 > 1
    FAIL() << "accepted";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
  }
  w.append(std::span<const G1Affine>(p.h.data(), 1));
  EXPECT_THROW(w.finish(), std::logic_error);  // l, a, b_g1, b_g2 missing
}

}  // namespace
}  // namespace proofline::groth16
