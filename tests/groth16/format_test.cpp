// .vk / .params / proof encodings: round trips, sizes, and rejection of malformed files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <random>

#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"
#include "test_util.hpp"

namespace proofline::groth16 {
namespace {

using testing::random_g1;
using testing::random_g2;
using testing::random_parameters;

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    return e.what();
  }
  return "";
}

Error code_of(auto&& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    return e.code();
  }
  return Error::Ok;
}

TEST(Format, VerifyingKeyRoundTrip) {
  std::mt19937_64 rng(1);
  Parameters p = random_parameters(rng, 5, 0, 0, 5, 0);
  auto bytes = p.vk.to_bytes();
  ASSERT_EQ(bytes.size(), 868u + 96 * 5);
  ASSERT_EQ(bytes.size(), p.vk.serialized_size());
  VerifyingKey back = VerifyingKey::from_bytes(bytes);
  EXPECT_EQ(back, p.vk);
  EXPECT_EQ(back.to_bytes(), bytes);
  // ic count is u32 big-endian right after the six fixed points.
  EXPECT_EQ(bytes[864], 0);
  EXPECT_EQ(bytes[867], 5);
}

TEST(Format, ToyShapeIs2136Bytes) {
  // bellperson's serialization test: 1 constraint, 2 inputs (ONE included), 2 aux →
  // ic = 2, h = 3, l = 2, a = 3, b_g1 = b_g2 = 1.
  std::mt19937_64 rng(2);
  Parameters p = random_parameters(rng, 2, 3, 2, 3, 1);
  EXPECT_EQ(p.serialized_size(), 2136u);
  auto bytes = p.to_bytes();
  EXPECT_EQ(bytes.size(), 2136u);
  Parameters back = Parameters::from_bytes(bytes);
  EXPECT_EQ(back, p);
  EXPECT_EQ(back.to_bytes(), bytes);
  Parameters unchecked = Parameters::from_bytes(bytes, ReadOptions{Check::OnCurveOnly});
  EXPECT_EQ(unchecked, p);
}

TEST(Format, ParametersFileRoundTripParallel) {
  std::mt19937_64 rng(3);
  Parameters p = random_parameters(rng, 3, 1023, 700, 500, 300);
  std::string path = testing::temp_path("roundtrip.params");
  p.write_file(path);
  for (unsigned threads : {0u, 1u, 2u}) {
    Parameters back = Parameters::read_file(path, ReadOptions{Check::Subgroup, threads});
    EXPECT_EQ(back, p);
  }
  auto bytes = read_file_bytes(path);
  EXPECT_EQ(bytes, p.to_bytes());
  EXPECT_EQ(bytes.size(), p.serialized_size());
  std::string vk_path = testing::temp_path("roundtrip.vk");
  p.vk.write_file(vk_path);
  EXPECT_EQ(VerifyingKey::read_file(vk_path), p.vk);
  // The .params file begins with the .vk bytes.
  auto vk_bytes = read_file_bytes(vk_path);
  EXPECT_TRUE(std::equal(vk_bytes.begin(), vk_bytes.end(), bytes.begin()));
  std::remove(path.c_str());
  std::remove(vk_path.c_str());
}

// The vk at the head of a .params file (the --snarkjs-dir export of prove/c2): the file's own vk,
// and an ic count larger than the file is refused from the count, before any allocation.
TEST(Format, ParamsFileHeadIsItsVerifyingKey) {
  std::mt19937_64 rng(8);
  Parameters p = random_parameters(rng, 3, 63, 40, 30, 20);
  std::string path = testing::temp_path("head.params");
  p.write_file(path);
  EXPECT_EQ(VerifyingKey::read_params_file_head(path), p.vk);
  auto bytes = p.to_bytes();
  bytes[864] = bytes[865] = bytes[866] = bytes[867] = 0xff;  // ic count 2^32 - 1
  write_file_bytes(path, bytes);
  const std::string msg = error_of([&] { VerifyingKey::read_params_file_head(path); });
  EXPECT_NE(msg.find("section ic"), std::string::npos) << msg;
  EXPECT_NE(msg.find("count 4294967295"), std::string::npos) << msg;
  std::remove(path.c_str());
}

TEST(Format, MissingFileIsSystemError) {
  EXPECT_THROW(Parameters::read_file("/nonexistent/dir/x.params"), std::system_error);
  try {
    VerifyingKey::read_file("/nonexistent/dir/x.vk");
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.vk"), std::string::npos);
  }
}

TEST(Format, EveryTruncationRejected) {
  std::mt19937_64 rng(4);
  Parameters p = random_parameters(rng, 2, 3, 2, 3, 1);
  auto bytes = p.to_bytes();
  for (std::size_t len = 0; len < bytes.size(); len += (len < 880 ? 1 : 5)) {
    std::span<const std::uint8_t> cut(bytes.data(), len);
    std::string msg = error_of([&] { Parameters::from_bytes(cut, {}, "toy.params"); });
    ASSERT_FALSE(msg.empty()) << "length " << len << " accepted";
    EXPECT_NE(msg.find("toy.params"), std::string::npos) << msg;
    EXPECT_NE(msg.find("section"), std::string::npos) << msg;
    EXPECT_EQ(code_of([&] { Parameters::from_bytes(cut); }), Error::BadLength) << msg;
  }
  // Examples of the message: a cut inside b_g2's only point, and inside the vk.
  std::string msg = error_of([&] { Parameters::from_bytes(std::span(bytes.data(), bytes.size() - 1), {}, "toy.params"); });
  EXPECT_NE(msg.find("section b_g2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs 192 bytes"), std::string::npos) << msg;
  msg = error_of([&] { Parameters::from_bytes(std::span(bytes.data(), 100), {}, "toy.params"); });
  EXPECT_NE(msg.find("section vk.beta_g1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("byte offset 96"), std::string::npos) << msg;
}

TEST(Format, TrailingBytesRejected) {
  std::mt19937_64 rng(5);
  Parameters p = random_parameters(rng, 2, 3, 2, 3, 1);
  auto bytes = p.to_bytes();
  bytes.push_back(0);
  std::string msg = error_of([&] { Parameters::from_bytes(bytes, {}, "t.params"); });
  EXPECT_NE(msg.find("trailing"), std::string::npos) << msg;
  auto vk = p.vk.to_bytes();
  vk.push_back(1);
  EXPECT_EQ(code_of([&] { VerifyingKey::from_bytes(vk); }), Error::BadLength);
}

TEST(Format, HugeCountRejectedBeforeAllocation) {
  std::mt19937_64 rng(6);
  Parameters p = random_parameters(rng, 2, 3, 2, 3, 1);
  auto bytes = p.to_bytes();
  // The h count sits right after the vk (868 + 96·2 = 1060).
  std::size_t at = p.vk.serialized_size();
  bytes[at] = bytes[at + 1] = bytes[at + 2] = bytes[at + 3] = 0xff;
  std::string msg = error_of([&] { Parameters::from_bytes(bytes, {}, "big.params"); });
  EXPECT_NE(msg.find("section h"), std::string::npos) << msg;
  EXPECT_NE(msg.find("count 4294967295"), std::string::npos) << msg;
  EXPECT_NE(msg.find("byte offset " + std::to_string(at)), std::string::npos) << msg;
  // Same for ic.
  auto vk = p.vk.to_bytes();
  vk[864] = 0x7f;
  EXPECT_NE(error_of([&] { VerifyingKey::from_bytes(vk); }).find("section ic"), std::string::npos);
}

TEST(Format, BitFlipsRejectedWithSectionAndIndex) {
  std::mt19937_64 rng(7);
  Parameters p = random_parameters(rng, 2, 3, 2, 3, 1);
  const auto bytes = p.to_bytes();
  struct Where {
    const char* section;
    std::size_t offset;  // first byte of the element
    std::size_t index;
  };
  const std::size_t vk = p.vk.serialized_size();
  const Where cases[] = {
      {"vk.alpha_g1", 0, 0},
      {"vk.beta_g2", 192, 0},
      {"vk.delta_g2", 672, 0},
      {"section ic", 868 + 96, 1},
      {"section h", vk + 4 + 96 * 2, 2},
      {"section l", vk + 4 + 96 * 3 + 4 + 96, 1},
      {"section a", vk + 4 + 96 * 3 + 4 + 96 * 2 + 4, 0},
      {"section b_g1", vk + 4 + 96 * 3 + 4 + 96 * 2 + 4 + 96 * 3 + 4, 0},
      {"section b_g2", vk + 4 + 96 * 3 + 4 + 96 * 2 + 4 + 96 * 3 + 4 + 96 + 4, 0},
  };
  for (const Where& w : cases) {
    // Flip a low bit of the last byte of y: the point leaves the curve.
    auto bad = bytes;
    std::size_t len = std::string(w.section).find("g2") != std::string::npos ? 192 : 96;
    bad[w.offset + len - 1] ^= 1;
    std::string msg = error_of([&] { Parameters::from_bytes(bad, {}, "flip.params"); });
    EXPECT_NE(msg.find(w.section), std::string::npos) << msg;
    EXPECT_NE(msg.find("byte offset " + std::to_string(w.offset)), std::string::npos) << msg;
    EXPECT_NE(msg.find("element " + std::to_string(w.index)), std::string::npos) << msg;
    EXPECT_EQ(code_of([&] { Parameters::from_bytes(bad); }), Error::NotOnCurve) << msg;
    // Setting the compression flag is a different, named error.
    bad = bytes;
    bad[w.offset] |= 0x80;
    EXPECT_EQ(code_of([&] { Parameters::from_bytes(bad); }), Error::CompressionMismatch);
  }
  // Flipping any single bit anywhere in the file is never silently accepted as the same params.
  std::size_t accepted_same = 0;
  for (std::size_t i = 0; i < bytes.size(); i += 7) {
    auto bad = bytes;
    bad[i] ^= static_cast<std::uint8_t>(1u << (i % 8));
    try {
      if (Parameters::from_bytes(bad) == p) ++accepted_same;
    } catch (const ProoflineError&) {
    }
  }
  EXPECT_EQ(accepted_same, 0u);
}

TEST(Format, InfinityRejectedInQueriesAndVkPoints) {
  std::mt19937_64 rng(8);
  Parameters p = random_parameters(rng, 2, 3, 2, 3, 1);
  Parameters q = p;
  q.l[1] = G1Affine::identity();
  std::string msg = error_of([&] { Parameters::from_bytes(q.to_bytes(), {}, "inf.params"); });
  EXPECT_NE(msg.find("section l, element 1"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { Parameters::from_bytes(q.to_bytes()); }), Error::UnexpectedInfinity);
  q = p;
  q.vk.ic[0] = G1Affine::identity();
  EXPECT_EQ(code_of([&] { Parameters::from_bytes(q.to_bytes()); }), Error::UnexpectedInfinity);
  q = p;
  q.b_g2[0] = G2Affine::identity();
  EXPECT_EQ(code_of([&] { Parameters::from_bytes(q.to_bytes()); }), Error::UnexpectedInfinity);
  // bellperson does not test the six vk points for infinity; proofline does (validate_verifying_key).
  q = p;
  q.vk.beta_g1 = G1Affine::identity();
  msg = error_of([&] { Parameters::from_bytes(q.to_bytes(), {}, "inf.params"); });
  EXPECT_NE(msg.find("params file 'inf.params': verifying key field beta_1 is the point at infinity"), std::string::npos)
      << msg;
  EXPECT_EQ(code_of([&] { Parameters::from_bytes(q.to_bytes()); }), Error::UnexpectedInfinity);
}

TEST(Format, SubgroupCheckedAndUnchecked) {
  std::mt19937_64 rng(9);
  Parameters p = random_parameters(rng, 2, 3, 2, 3, 1);
  Parameters q = p;
  q.a[2] = testing::g1_outside_subgroup();
  q.b_g2[0] = testing::g2_outside_subgroup();
  auto bytes = q.to_bytes();
  std::string msg = error_of([&] { Parameters::from_bytes(bytes, {}, "sub.params"); });
  EXPECT_NE(msg.find("section a, element 2"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { Parameters::from_bytes(bytes); }), Error::NotInSubgroup);
  // Unchecked (Filecoin's cached-parameter mode) accepts on-curve points.
  EXPECT_EQ(Parameters::from_bytes(bytes, ReadOptions{Check::OnCurveOnly}), q);
  // The vk is always checked.
  q = p;
  q.vk.ic[1] = testing::g1_outside_subgroup();
  EXPECT_EQ(code_of([&] { Parameters::from_bytes(q.to_bytes(), ReadOptions{Check::OnCurveOnly}); }),
            Error::NotInSubgroup);
}

TEST(Format, InconsistentCountsRejected) {
  std::mt19937_64 rng(10);
  // h of 4 points is not m − 1 for a power of two m.
  Parameters p = random_parameters(rng, 2, 4, 2, 3, 1);
  EXPECT_NE(error_of([&] { Parameters::from_bytes(p.to_bytes()); }).find("section h"), std::string::npos);
  p = random_parameters(rng, 3, 3, 2, 2, 1);  // a shorter than ic
  EXPECT_NE(error_of([&] { Parameters::from_bytes(p.to_bytes()); }).find("section a"), std::string::npos);
  p = random_parameters(rng, 2, 3, 2, 3, 1);
  p.b_g2.push_back(p.b_g2[0]);
  EXPECT_NE(error_of([&] { Parameters::from_bytes(p.to_bytes()); }).find("b_g2"), std::string::npos);
}

// ---- proofs ----------------------------------------------------------------------------------------

Proof random_proof(std::mt19937_64& rng) { return Proof{random_g1(rng), random_g2(rng), random_g1(rng)}; }

TEST(ProofEncoding, RoundTripAndLayout) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 8; ++i) {
    Proof p = random_proof(rng);
    auto bytes = p.to_bytes();
    ASSERT_EQ(bytes.size(), 192u);
    EXPECT_EQ(Proof::from_bytes(bytes), p);
    // A ‖ B ‖ C, each compressed (flag 0x80 set).
    auto a = p.a.to_compressed();
    auto b = p.b.to_compressed();
    auto c = p.c.to_compressed();
    EXPECT_TRUE(std::equal(a.begin(), a.end(), bytes.begin()));
    EXPECT_TRUE(std::equal(b.begin(), b.end(), bytes.begin() + 48));
    EXPECT_TRUE(std::equal(c.begin(), c.end(), bytes.begin() + 144));
    EXPECT_EQ(bytes[0] & 0x80, 0x80);
    EXPECT_EQ(bytes[48] & 0x80, 0x80);
    EXPECT_EQ(bytes[144] & 0x80, 0x80);
  }
}

TEST(ProofEncoding, MultiProofConcatenation) {
  std::mt19937_64 rng(12);
  std::vector<Proof> proofs;
  for (int i = 0; i < 10; ++i) proofs.push_back(random_proof(rng));
  auto bytes = encode_proofs(proofs);
  ASSERT_EQ(bytes.size(), 1920u);
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    auto one = proofs[i].to_bytes();
    EXPECT_TRUE(std::equal(one.begin(), one.end(), bytes.begin() + 192 * i));
  }
  EXPECT_EQ(decode_proofs(bytes), proofs);
  EXPECT_EQ(code_of([&] { decode_proofs(std::span(bytes.data(), 1919)); }), Error::BadLength);
  EXPECT_EQ(code_of([&] { decode_proofs(std::span<const std::uint8_t>()); }), Error::BadLength);
  auto bad = bytes;
  bad[192 * 7 + 144 + 47] ^= 0x01;  // C of proof 7
  std::string msg = error_of([&] { decode_proofs(bad); });
  if (!msg.empty()) {  // flipping x may land on another valid x (rare); then the value differs
    EXPECT_NE(msg.find("proof 7"), std::string::npos) << msg;
    EXPECT_NE(msg.find("element C"), std::string::npos) << msg;
    EXPECT_NE(msg.find("byte offset " + std::to_string(192 * 7 + 144)), std::string::npos) << msg;
  } else {
    EXPECT_NE(decode_proofs(bad), proofs);
  }
}

TEST(ProofEncoding, RejectsInfinityOffCurveAndOutsideSubgroup) {
  std::mt19937_64 rng(13);
  Proof p = random_proof(rng);
  Proof q = p;
  q.b = G2Affine::identity();
  auto bytes = q.to_bytes();
  EXPECT_EQ(code_of([&] { Proof::from_bytes(bytes); }), Error::UnexpectedInfinity);
  EXPECT_NE(error_of([&] { Proof::from_bytes(bytes); }).find("element B at byte offset 48"), std::string::npos);
  q = p;
  q.a = testing::g1_outside_subgroup();
  bytes = q.to_bytes();
  EXPECT_EQ(code_of([&] { Proof::from_bytes(bytes); }), Error::NotInSubgroup);
  EXPECT_EQ(Proof::from_bytes(bytes, Check::OnCurveOnly), q);
  // Every single-bit flip is rejected or decodes to a different proof.
  auto good = p.to_bytes();
  for (std::size_t i = 0; i < good.size() * 8; i += 3) {
    auto bad = good;
    bad[i / 8] ^= static_cast<std::uint8_t>(1u << (i % 8));
    Proof out;
    Error e = Proof::decode(out, bad);
    EXPECT_TRUE(e != Error::Ok || !(out == p)) << "bit " << i;
  }
}

}  // namespace
}  // namespace proofline::groth16
