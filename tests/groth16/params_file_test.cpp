// groth16::ParamsFile (params.hpp "a .params file read in chunks"): the chunked CPU read gives the
// same Parameters as read_file, and every malformed file the same named error (code and message:
// file, section, element index, byte offset); parameters whose queries stay in the file (shell)
// report the file's shape and are refused by the CPU backend by name.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>

#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/params.hpp"
#include "test_util.hpp"

namespace proofline::groth16 {
namespace {

using testing::random_parameters;

struct Outcome {
  Error code = Error::Ok;
  std::string message;
};

template <class F>
Outcome outcome_of(F&& f) {
  try {
    f();
  } catch (const ProoflineError& e) {
    return {e.code(), e.what()};
  }
  return {};
}

/// The outcome of read_file and of ParamsFile + read_parameters (chunks of `chunk` bytes) on `bytes`.
std::pair<Outcome, Outcome> both_reads(const std::vector<std::uint8_t>& bytes, const std::string& name,
                                       ReadOptions opts = {}, std::size_t chunk = 200) {
  const std::string path = testing::temp_path(name);
  write_file_bytes(path, bytes);
  Outcome whole = outcome_of([&] { Parameters::read_file(path, opts); });
  Outcome chunked = outcome_of([&] { ParamsFile(path, opts).read_parameters(chunk); });
  std::remove(path.c_str());
  return {whole, chunked};
}

TEST(ParamsFile, ChunkedReadEqualsWholeRead) {
  std::mt19937_64 rng(31);
  const Parameters p = random_parameters(rng, 3, 1023, 700, 500, 300);
  const std::string path = testing::temp_path("chunked.params");
  p.write_file(path);
  for (unsigned threads : {0u, 1u}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{200}, std::size_t{9600}, std::size_t{64} << 20}) {
      const ParamsFile f(path, ReadOptions{Check::Subgroup, threads});
      EXPECT_EQ(f.read_parameters(chunk), p) << "chunk " << chunk << " threads " << threads;
    }
  }
  const ParamsFile f(path);
  EXPECT_EQ(f.file_size(), p.serialized_size());
  EXPECT_EQ(f.vk(), p.vk);
  const std::size_t vk = p.vk.serialized_size();
  EXPECT_EQ(f.section(ParamsSection::H).count, 1023u);
  EXPECT_EQ(f.section(ParamsSection::H).offset, vk + 4);
  EXPECT_EQ(f.section(ParamsSection::L).offset, vk + 4 + 96 * 1023 + 4);
  EXPECT_EQ(f.section(ParamsSection::BG2).point_bytes, 192u);
  EXPECT_EQ(f.section(ParamsSection::BG2).offset + 192 * 300, p.serialized_size());
  // read(): the file's bytes, across 8 MiB pieces or not
  std::vector<std::uint8_t> got(5000);
  f.read(100, got);
  const auto bytes = p.to_bytes();
  EXPECT_TRUE(std::equal(got.begin(), got.end(), bytes.begin() + 100));
  EXPECT_THROW(f.read(bytes.size() - 10, got), std::out_of_range);
  std::remove(path.c_str());
}

TEST(ParamsFile, ShellHoldsTheShapeAndNoQueries) {
  std::mt19937_64 rng(32);
  const Parameters p = random_parameters(rng, 3, 255, 70, 50, 30);
  const std::string path = testing::temp_path("shell.params");
  p.write_file(path);
  const Parameters s = ParamsFile::shell(std::make_shared<const ParamsFile>(path));
  EXPECT_FALSE(s.has_host_queries());
  EXPECT_TRUE(s.h.empty() && s.l.empty() && s.a.empty() && s.b_g1.empty() && s.b_g2.empty());
  EXPECT_EQ(s.vk, p.vk);
  EXPECT_EQ(s.h_len(), 255u);
  EXPECT_EQ(s.l_len(), 70u);
  EXPECT_EQ(s.a_len(), 50u);
  EXPECT_EQ(s.b_g1_len(), 30u);
  EXPECT_EQ(s.b_g2_len(), 30u);
  EXPECT_EQ(s.domain_size(), p.domain_size());
  EXPECT_EQ(s.num_aux(), p.num_aux());
  EXPECT_EQ(s.h_terms(), p.h_terms());
  EXPECT_EQ(s.query_bytes(), p.query_bytes());
  EXPECT_EQ(s.source->path(), path);
  EXPECT_EQ(s.serialized_size(), p.serialized_size());  // the file's size
  EXPECT_THROW(s.to_bytes(), std::logic_error);          // no points to encode
  const auto* file = dynamic_cast<const ParamsFile*>(s.source.get());
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->read_parameters(), p);
  // The CPU backend proves from host queries only: refused by name, before any work.
  CpuBackend cpu;
  r1cs::ProvingBuffers w;
  w.a.assign(256, Fr::zero());
  w.b = w.a;
  w.c = w.a;
  w.input_assignment.assign(3, Fr::zero());
  w.aux_assignment.assign(70, Fr::zero());
  w.b_input_density.push_zeros(3);
  w.a_aux_density.push_zeros(70);
  w.b_aux_density.push_zeros(70);
  for (std::size_t i = 0; i < 47; ++i) w.a_aux_density.set(i);  // a = 3 inputs + 47
  for (std::size_t i = 0; i < 30; ++i) w.b_aux_density.set(i);
  std::vector<r1cs::ProvingBuffers> one{w};
  std::vector<Randomizers> rs{{Fr::one(), Fr::one()}};
  const Outcome o = outcome_of([&] { cpu.prove(s, one, rs); });
  EXPECT_EQ(o.code, Error::BadArgument) << o.message;
  EXPECT_NE(o.message.find("no host queries"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find(path), std::string::npos) << o.message;
  std::remove(path.c_str());
}

// Every truncation (each section boundary and inside each section) and trailing bytes: the same
// BadLength message from the chunked reader's open as from read_file.
TEST(ParamsFile, TruncationsGetTheSameNamedErrors) {
  std::mt19937_64 rng(33);
  const Parameters p = random_parameters(rng, 2, 3, 2, 3, 1);
  const auto bytes = p.to_bytes();
  const std::size_t vk = p.vk.serialized_size();
  std::vector<std::size_t> cuts{0, 50, 868, vk - 1, vk, vk + 2, vk + 4, vk + 4 + 96, vk + 4 + 96 * 3,
                                vk + 4 + 96 * 3 + 4, bytes.size() - 192, bytes.size() - 193, bytes.size() - 1};
  for (std::size_t cut = vk; cut < bytes.size(); cut += 37) cuts.push_back(cut);
  for (std::size_t cut : cuts) {
    const std::vector<std::uint8_t> b(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    const auto [whole, chunked] = both_reads(b, "cut.params");
    EXPECT_EQ(whole.code, Error::BadLength) << whole.message;
    EXPECT_EQ(chunked.code, whole.code) << "cut " << cut;
    EXPECT_EQ(chunked.message, whole.message) << "cut " << cut;
  }
  auto longer = bytes;
  longer.push_back(0);
  const auto [whole, chunked] = both_reads(longer, "long.params");
  EXPECT_EQ(chunked.code, Error::BadLength);
  EXPECT_EQ(chunked.message, whole.message);
  EXPECT_NE(chunked.message.find("trailing bytes"), std::string::npos) << chunked.message;
}

// A bad point in each section (off the curve, compression flag, infinity, outside the subgroup):
// the same code and message, with section, element index and byte offset.
TEST(ParamsFile, BadPointsGetTheSameNamedErrors) {
  std::mt19937_64 rng(34);
  const Parameters p = random_parameters(rng, 2, 7, 5, 6, 4);
  const auto bytes = p.to_bytes();
  const std::size_t vk = p.vk.serialized_size();
  const std::size_t h0 = vk + 4, l0 = h0 + 96 * 7 + 4, a0 = l0 + 96 * 5 + 4, b10 = a0 + 96 * 6 + 4,
                    b20 = b10 + 96 * 4 + 4;
  struct Case {
    const char* section;
    std::size_t at;  // first byte of the element
    std::size_t index;
    std::size_t len;
  };
  const Case cases[] = {{"section h", h0 + 96 * 6, 6, 96},
                        {"section l", l0 + 96 * 1, 1, 96},
                        {"section a", a0, 0, 96},
                        {"section b_g1", b10 + 96 * 3, 3, 96},
                        {"section b_g2", b20 + 192 * 2, 2, 192}};
  for (const Case& c : cases) {
    auto bad = bytes;
    bad[c.at + c.len - 1] ^= 1;  // y leaves the curve
    auto [whole, chunked] = both_reads(bad, "flip.params");
    EXPECT_EQ(whole.code, Error::NotOnCurve) << whole.message;
    EXPECT_EQ(chunked.code, Error::NotOnCurve);
    EXPECT_EQ(chunked.message, whole.message);
    EXPECT_NE(chunked.message.find(std::string(c.section) + ", element " + std::to_string(c.index)),
              std::string::npos)
        << chunked.message;
    EXPECT_NE(chunked.message.find("byte offset " + std::to_string(c.at)), std::string::npos) << chunked.message;
    // a chunk of one point: the index is still the section's
    std::tie(whole, chunked) = both_reads(bad, "flip1.params", {}, 1);
    EXPECT_EQ(chunked.message, whole.message);
    bad = bytes;
    bad[c.at] |= 0x80;
    std::tie(whole, chunked) = both_reads(bad, "comp.params");
    EXPECT_EQ(chunked.code, Error::CompressionMismatch);
    EXPECT_EQ(chunked.message, whole.message);
  }
  Parameters q = p;
  q.l[3] = ec::G1Affine::identity();
  auto [whole, chunked] = both_reads(q.to_bytes(), "inf.params");
  EXPECT_EQ(chunked.code, Error::UnexpectedInfinity);
  EXPECT_EQ(chunked.message, whole.message);
  q = p;
  q.a[4] = testing::g1_outside_subgroup();
  q.b_g2[1] = testing::g2_outside_subgroup();
  std::tie(whole, chunked) = both_reads(q.to_bytes(), "sub.params");
  EXPECT_EQ(chunked.code, Error::NotInSubgroup);
  EXPECT_EQ(chunked.message, whole.message);
  EXPECT_NE(chunked.message.find("section a, element 4"), std::string::npos) << chunked.message;
  // unchecked (Filecoin's cached-parameter mode): accepted, as read_file does
  const std::string path = testing::temp_path("sub_ok.params");
  q.write_file(path);
  EXPECT_EQ(ParamsFile(path, ReadOptions{Check::OnCurveOnly}).read_parameters(300), q);
  // throw_bad_point names what the CPU finds; a good point reported bad is a logic error
  const ParamsFile f(path, ReadOptions{Check::Subgroup});
  const Outcome o = outcome_of([&] { f.throw_bad_point(ParamsSection::BG2, 1); });
  EXPECT_EQ(o.code, Error::NotInSubgroup);
  EXPECT_NE(o.message.find("section b_g2, element 1 of 4"), std::string::npos) << o.message;
  EXPECT_THROW(f.throw_bad_point(ParamsSection::H, 0), std::logic_error);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace proofline::groth16
