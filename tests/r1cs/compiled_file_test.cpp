// The compiled circuit's file (write_compiled_circuit / read_compiled_circuit) on the hand-written
// circuit of awkward_circuit.hpp: a round trip whose read-back form evaluates to prover mode's a, b,
// c; the exact size of the format; an atomic rewrite that leaves a mapped reader intact; and refusals
// with their messages: truncated, a flipped bit (digest), damaged header fields, damaged content
// under a valid digest, another circuit's shape, a size limit, a missing file.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include <openssl/sha.h>

#include "awkward_circuit.hpp"
#include "proofline/r1cs/compiled_file.hpp"
#include "proofline/util/error.hpp"

namespace {

using namespace proofline::r1cs;
using proofline::Error;
using proofline::ProoflineError;
using proofline::ff::Fr;
using proofline::r1cs::compiled_test::Awkward;
using proofline::r1cs::compiled_test::expect_equals_prover;
using proofline::r1cs::compiled_test::F;
using proofline::r1cs::compiled_test::record_awkward;

class CompiledFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("proofline-compiled-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "awkward.plcc").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::vector<char> bytes() const {
    std::ifstream f(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  }
  void put(const std::vector<char>& b) const {
    std::ofstream f(path_, std::ios::binary | std::ios::trunc);
    f.write(b.data(), static_cast<std::streamsize>(b.size()));
  }
  // The message of the ProoflineError that reading throws (and its code).
  std::string refusal(Error code, const CompiledReadOptions& o = {}) const {
    try {
      (void)read_compiled_circuit(path_, o);
    } catch (const ProoflineError& e) {
      EXPECT_EQ(e.code(), code) << e.what();
      EXPECT_NE(std::string(e.what()).find("compiled circuit " + path_ + ": "), std::string::npos) << e.what();
      return e.what();
    }
    ADD_FAILURE() << "read_compiled_circuit accepted the file";
    return {};
  }

  std::filesystem::path dir_;
  std::string path_;
};

// `b` with the digest at offset 80 recomputed from the format's definition (compiled_file.hpp), by
// OpenSSL's one-shot SHA256: version 1, the whole file; version 2, the header and the SHA-256 of each
// 2^L-byte chunk after it (L at offset 112).
std::vector<char> with_digest(std::vector<char> b) {
  std::fill(b.begin() + 80, b.begin() + 112, 0);
  const auto* u = reinterpret_cast<const unsigned char*>(b.data());
  std::uint8_t d[32];
  if (b[8] == 1) {
    SHA256(u, b.size(), d);
  } else {
    const std::size_t chunk = std::size_t{1} << static_cast<unsigned char>(b[112]);
    std::vector<unsigned char> top(u, u + 128);
    for (std::size_t at = 128; at < b.size(); at += chunk) {
      std::uint8_t leaf[32];
      SHA256(u + at, std::min(chunk, b.size() - at), leaf);
      top.insert(top.end(), leaf, leaf + 32);
    }
    SHA256(top.data(), top.size(), d);
  }
  std::copy(d, d + 32, b.begin() + 80);
  return b;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST_F(CompiledFile, RoundTrip) {
  const CompiledCircuit cc = record_awkward();
  const std::uint64_t size = write_compiled_circuit(path_, cc);
  EXPECT_EQ(std::filesystem::file_size(path_), size);
  // 128 header + 6 coefficients × 32 + per matrix 8 offsets × 4 and nnz (11, 5, 3) × 6 padded to 8,
  // + 3 bitmap words.
  EXPECT_EQ(size, 128u + 6 * 32 + (32 + 72) + (32 + 32) + (32 + 24) + 3 * 8);
  // Nothing left beside it (the temporary was renamed).
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator()), 1);

  const CompiledCircuit back = read_compiled_circuit(path_, {.expected = CircuitShape{7, 2, 4}});
  EXPECT_EQ(back.shape(), cc.shape());
  for (int m = 0; m < 3; ++m) {
    EXPECT_TRUE(std::ranges::equal(back.matrix(m).row_offsets, cc.matrix(m).row_offsets)) << m;
    EXPECT_TRUE(std::ranges::equal(back.matrix(m).cols, cc.matrix(m).cols)) << m;
    EXPECT_TRUE(std::ranges::equal(back.matrix(m).coeff_index, cc.matrix(m).coeff_index)) << m;
  }
  EXPECT_TRUE(std::ranges::equal(back.coefficients(), cc.coefficients()));
  EXPECT_EQ(back.bytes(), cc.bytes());
  ProvingAssignment pa;
  synthesize(Awkward{}, pa);
  expect_equals_prover(back, pa);
}

TEST_F(CompiledFile, RewriteKeepsAMappedReaderIntact) {
  const CompiledCircuit cc = record_awkward();
  write_compiled_circuit(path_, cc);
  const CompiledCircuit mapped = read_compiled_circuit(path_);
  struct stat before {};
  ASSERT_EQ(::stat(path_.c_str(), &before), 0);
  write_compiled_circuit(path_, cc);  // replaces the name, never writes the mapped file in place
  struct stat after {};
  ASSERT_EQ(::stat(path_.c_str(), &after), 0);
  EXPECT_NE(before.st_ino, after.st_ino);
  ProvingAssignment pa;
  synthesize(Awkward{}, pa);
  expect_equals_prover(mapped, pa);
}

TEST_F(CompiledFile, TruncatedIsRefused) {
  write_compiled_circuit(path_, record_awkward());
  std::vector<char> b = bytes();
  const std::size_t full = b.size();
  b.resize(full - 8);
  put(b);
  const std::string e = refusal(Error::Malformed);
  EXPECT_TRUE(contains(e, "truncated: the file is " + std::to_string(full - 8) + " bytes, but its header describes " +
                              std::to_string(full)))
      << e;
  b.resize(100);
  put(b);
  EXPECT_TRUE(contains(refusal(Error::Malformed), "truncated: 100 bytes, the header alone is 128"));
}

TEST_F(CompiledFile, BitFlipIsRefused) {
  write_compiled_circuit(path_, record_awkward());
  const std::vector<char> good = bytes();
  // One flipped bit in the coefficients, in matrix C's row offsets, in the last bitmap.
  for (std::size_t at : {std::size_t{128 + 40}, good.size() - 100, good.size() - 1}) {
    std::vector<char> b = good;
    b[at] ^= 0x10;
    put(b);
    const std::string e = refusal(Error::Malformed);
    EXPECT_TRUE(contains(e, "digest mismatch: the SHA-256 at offset 80 is ")) << at << ": " << e;
    EXPECT_TRUE(contains(e, "the file is corrupt")) << e;
  }
  // In the digest itself.
  std::vector<char> b = good;
  b[90] ^= 1;
  put(b);
  EXPECT_TRUE(contains(refusal(Error::Malformed), "digest mismatch"));
}

// Version 2's digest over many chunks (L = 6: the awkward circuit's 440 bytes after the header in 7
// chunks of 64 B): the writer's digest is the format's, and a flipped bit in any chunk, or a chunk
// digest's order, is caught.
TEST_F(CompiledFile, ChunkedDigestCatchesEveryChunk) {
  write_compiled_circuit(path_, record_awkward(), 6);
  const std::vector<char> good = bytes();
  ASSERT_EQ(good.size(), 568u);
  EXPECT_EQ(good[8], 2);
  EXPECT_EQ(good[112], 6);
  EXPECT_EQ(with_digest(good), good);  // the digest as the format defines it
  (void)read_compiled_circuit(path_);
  for (std::size_t at = 128; at < good.size(); at += 64) {  // one bit in each chunk
    std::vector<char> b = good;
    b[at + 17] ^= 0x04;  // the last chunk holds 56 bytes
    put(b);
    EXPECT_TRUE(contains(refusal(Error::Malformed), "digest mismatch")) << at;
  }
  std::vector<char> b = good;  // L changed: other chunks, another digest
  b[112] = 7;
  put(b);
  EXPECT_TRUE(contains(refusal(Error::Malformed), "digest mismatch"));
  EXPECT_THROW(write_compiled_circuit(path_, record_awkward(), 5), std::invalid_argument);
  EXPECT_THROW(write_compiled_circuit(path_, record_awkward(), 41), std::invalid_argument);
}

// A file of version 1 (written before 2026-12-06: the whole-file SHA-256, offset 112 zero) is still
// read, the same circuit.
TEST_F(CompiledFile, VersionOneIsStillRead) {
  const CompiledCircuit cc = record_awkward();
  write_compiled_circuit(path_, cc);
  std::vector<char> b = bytes();
  b[8] = 1;
  std::fill(b.begin() + 112, b.begin() + 116, 0);
  put(with_digest(b));
  const CompiledCircuit back = read_compiled_circuit(path_, {.expected = CircuitShape{7, 2, 4}});
  EXPECT_EQ(back.shape(), cc.shape());
  for (int m = 0; m < 3; ++m) EXPECT_TRUE(std::ranges::equal(back.matrix(m).cols, cc.matrix(m).cols)) << m;
  ProvingAssignment pa;
  synthesize(Awkward{}, pa);
  expect_equals_prover(back, pa);
  b[112] = 26;  // version 1 has no L: offset 112 is reserved
  put(with_digest(b));
  EXPECT_TRUE(contains(refusal(Error::Malformed), "reserved header byte at offset 112 is not zero"));
}

TEST_F(CompiledFile, HeaderDamageIsNamed) {
  write_compiled_circuit(path_, record_awkward());
  const std::vector<char> good = bytes();
  std::vector<char> b = good;
  b[0] = 'X';
  put(b);
  EXPECT_TRUE(contains(refusal(Error::Malformed), "bad magic at offset 0"));
  b = good;
  b[8] = 3;
  put(b);
  EXPECT_TRUE(contains(refusal(Error::Malformed), "version 3 at offset 8; this build reads versions 1 and 2"));
  for (const char l : {char{5}, char{41}}) {  // the digest's chunk log2 L outside 6..40
    b = good;
    b[112] = l;
    put(b);
    const std::string e = refusal(Error::Malformed);
    EXPECT_TRUE(contains(e, "digest chunk log2 " + std::to_string(int{l}) + " at offset 112, expected 6 to 40")) << e;
  }
  b = good;
  b[116] = 1;  // reserved
  put(b);
  EXPECT_TRUE(contains(refusal(Error::Malformed), "reserved header byte at offset 116 is not zero"));
  b = good;
  b[16] ^= 1;  // constraints 7 → 6: the sizes no longer add up
  put(b);
  const std::string e = refusal(Error::Malformed);
  EXPECT_TRUE(contains(e, "header describes")) << e;
  EXPECT_TRUE(contains(e, "constraints 6")) << e;
}

// Content damage past the digest (the digest recomputed, as a writer with a bug would leave it):
// each field named with its file offset. Offsets of the awkward circuit's file: coefficients at 128
// (6 × 32), A: row offsets 320 (8 × 4), columns 352 (11 × 4), indices 396 (11 × 2); densities:
// a_aux 544, b_input 552, b_aux 560.
TEST_F(CompiledFile, ContentDamageIsNamed) {
  write_compiled_circuit(path_, record_awkward());
  const std::vector<char> good = bytes();
  ASSERT_EQ(good.size(), 568u);
  auto damaged = [&](std::size_t at, std::initializer_list<std::uint8_t> patch) {
    std::vector<char> b = good;
    for (const std::uint8_t x : patch) b[at++] = static_cast<char>(x);
    put(with_digest(b));
    return refusal(Error::Malformed);
  };
  std::string e = damaged(352, {6, 0, 0, 0});  // A row 0's column: y (3) → 6 = I + X
  EXPECT_TRUE(contains(e, "row 0: column 6 is not below 6 and above the row's previous one (matrix A, file offset 352)"))
      << e;
  e = damaged(396, {6, 0});  // A's first coefficient index → 6 = K
  EXPECT_TRUE(contains(e, "row 0: coefficient index 6 is not below 6 (matrix A, file offset 396)")) << e;
  e = damaged(324, {50, 0, 0, 0});  // A's row offset 1: 1 → 50
  EXPECT_TRUE(contains(e, "row offset 1 is 50, expected within [0, 11] (matrix A, file offset 324)")) << e;
  e = damaged(128 + 2 * 32 + 31, {0xff});  // coefficient 2 (= 2) ≥ r
  EXPECT_TRUE(contains(e, "coefficient 2 at offset 192 is not canonical (>= r)")) << e;
  e = damaged(128, {2});  // coefficient 0: 1 → 2
  EXPECT_TRUE(contains(e, "coefficients 0 and 1 (offset 128) are not +1 and −1")) << e;
  e = damaged(544, {0x2f});  // a_aux 1111 → bit 5 too
  EXPECT_TRUE(contains(e, "a_aux_density: bits beyond its 4 are set (file offset 544)")) << e;
}

// Random damage to the content under a valid digest: every file is either refused (Malformed) or
// read into a circuit that evaluates within bounds (the checks of step 5 are what keeps evaluate()
// in its arrays; under AddressSanitizer this test is the memory-safety check of the reader).
TEST_F(CompiledFile, RandomContentDamageIsRefusedOrSafe) {
  write_compiled_circuit(path_, record_awkward());
  const std::vector<char> good = bytes();
  std::mt19937_64 rng(31);
  const std::vector<Fr> in{F(1), F(19)}, aux{F(3), F(4), F(12), F(0)};
  std::vector<Fr> a(7), b(7), c(7);
  std::size_t refused = 0, accepted = 0;
  for (int round = 0; round < 2000; ++round) {
    std::vector<char> d = good;
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < n; ++k) {
      const std::size_t at = kCompiledHeaderBytes + rng() % (d.size() - kCompiledHeaderBytes);
      d[at] = static_cast<char>(d[at] ^ static_cast<char>(1u << (rng() % 8)));
    }
    put(with_digest(d));
    try {
      const CompiledCircuit cc = read_compiled_circuit(path_);
      evaluate(a, b, c, cc, in, aux);
      ++accepted;
    } catch (const ProoflineError& e) {
      ASSERT_EQ(e.code(), Error::Malformed) << e.what();
      ++refused;
    }
  }
  EXPECT_GT(refused, 1000u);  // most single-bit changes break an invariant
  EXPECT_GT(accepted, 0u);    // e.g. a density bit or a coefficient's value: well-formed, another circuit
}

TEST_F(CompiledFile, OtherCircuitIsRefused) {
  write_compiled_circuit(path_, record_awkward());
  std::string e = refusal(Error::BadArgument, {.expected = CircuitShape{8, 2, 4}});
  EXPECT_TRUE(contains(e, "another circuit: constraints (offset 16) is 7, expected 8")) << e;
  e = refusal(Error::BadArgument, {.expected = CircuitShape{7, 2, 5}});
  EXPECT_TRUE(contains(e, "another circuit: aux (offset 32) is 4, expected 5")) << e;
  EXPECT_TRUE(contains(refusal(Error::Malformed, {.max_bytes = 100}), "more than the 100 allowed"));
}

TEST_F(CompiledFile, MissingFileNamesThePath) {
  try {
    (void)read_compiled_circuit(path_);
    FAIL() << "no throw";
  } catch (const std::system_error& e) {
    EXPECT_TRUE(contains(e.what(), path_)) << e.what();
  }
}

}  // namespace
