// The parameter-cache check (proofline/groth16/param_cache.hpp): BLAKE2b-512 against RFC 7693's test
// vector and against coreutils' `b2sum` (an independent implementation) on generated files; the
// layout walk against the bellperson toy size (2136 bytes) and every truncation; the built-in table
// against the PoRep file names proofline derives (filecoin::parameter_file_name) and the 32 GiB
// digests of the reference (§1.6); each status of check_param_cache on a scratch cache.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "proofline/filecoin/sector.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/util/error.hpp"
#include "test_util.hpp"

namespace proofline::groth16 {
namespace {

namespace fs = std::filesystem;

std::string hex(std::span<const std::uint8_t> b) {
  std::string s;
  char buf[3];
  for (auto x : b) {
    std::snprintf(buf, sizeof buf, "%02x", x);
    s += buf;
  }
  return s;
}

/// The 128 hex characters `b2sum` (coreutils, BLAKE2b-512) prints for a file.
std::string b2sum(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> p(::popen(("b2sum '" + path + "'").c_str(), "r"), &::pclose);
  if (!p) return "";
  char buf[256] = {};
  if (std::fgets(buf, sizeof buf, p.get()) == nullptr) return "";
  return std::string(buf).substr(0, 128);
}

void write_bytes(const std::string& path, const std::vector<std::uint8_t>& b) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

struct ScratchDir {
  fs::path path = testing::temp_path("cache");
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() { fs::remove_all(path); }
};

TEST(Blake2b, Rfc7693AppendixAVector) {
  // RFC 7693, Appendix A: BLAKE2b-512("abc").
  const std::string abc = "abc";
  const auto h = blake2b512(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(abc.data()), 3));
  EXPECT_EQ(hex(h),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  EXPECT_EQ(param_digest(h), "ba80a53f981c4d0d6a2797b69f12f6e9");
}

TEST(Blake2b, FilesMatchB2sum) {
  ASSERT_EQ(std::system("b2sum --version >/dev/null 2>&1"), 0) << "coreutils b2sum is needed as the oracle";
  ScratchDir dir;
  // Sizes around BLAKE2b's 128-byte block and the reader's 16 MiB chunk.
  const std::size_t sizes[] = {0, 1, 127, 128, 129, 1000003, (16u << 20) - 1, (16u << 20) + 5};
  std::uint64_t seed = 1;
  for (std::size_t n : sizes) {
    const std::string path = (dir.path / ("f" + std::to_string(n))).string();
    write_bytes(path, random_bytes(n, seed++));
    std::uint64_t last_done = 0, last_total = 0;
    const auto h = blake2b512_file(path, [&](std::uint64_t done, std::uint64_t total) {
      EXPECT_GT(done, last_done);
      last_done = done;
      last_total = total;
    });
    const std::string want = b2sum(path);
    ASSERT_EQ(want.size(), 128u) << "b2sum failed on " << path;
    EXPECT_EQ(hex(h), want) << n << " bytes";
    EXPECT_EQ(param_digest(h), want.substr(0, 32)) << n << " bytes";
    EXPECT_EQ(last_done, n);
    if (n != 0) EXPECT_EQ(last_total, n);
  }
}

TEST(Blake2b, MissingFileNamesIt) {
  try {
    blake2b512_file("/nonexistent/x.params");
    FAIL() << "no error";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.params"), std::string::npos) << e.what();
  }
}

TEST(ParamLayout, ToyShapeAndEveryTruncation) {
  std::mt19937_64 rng(21);
  // bellperson's toy circuit: ic 2, h 3, l 2, a 3, b 1 → 2136 bytes (reference §1.3).
  const Parameters p = testing::random_parameters(rng, 2, 3, 2, 3, 1);
  ScratchDir dir;
  const std::string params = (dir.path / "toy.params").string(), vk = (dir.path / "toy.vk").string();
  p.write_file(params);
  p.vk.write_file(vk);
  const auto bytes = read_file_bytes(params);
  ASSERT_EQ(bytes.size(), 2136u);
  LayoutWalk w = walk_param_layout(params, ParamFileKind::Params, bytes.size());
  EXPECT_TRUE(w.complete);
  EXPECT_EQ(w.required_bytes, 2136u);
  w = walk_param_layout(vk, ParamFileKind::Vk, fs::file_size(vk));
  EXPECT_TRUE(w.complete);
  EXPECT_EQ(w.required_bytes, 868u + 2 * 96);
  // Every shorter prefix needs more than it has; the section named is where it ends. (The walk
  // reads nothing at or beyond `file_size`, so the whole file stands in for each prefix.)
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    w = walk_param_layout(params, ParamFileKind::Params, n);
    ASSERT_GT(w.required_bytes, n) << "prefix of " << n << " bytes";
    ASSERT_FALSE(w.section.empty()) << n;
  }
  const std::string cut = (dir.path / "cut.params").string();
  write_bytes(cut, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 2000));
  w = walk_param_layout(cut, ParamFileKind::Params, 2000);
  EXPECT_TRUE(w.complete);  // 2000 = inside b_g2's one point, after its count
  EXPECT_EQ(w.required_bytes, 2136u);
  EXPECT_EQ(w.section, "b_g2");
  w = walk_param_layout(cut, ParamFileKind::Params, 500);
  EXPECT_FALSE(w.complete);
  EXPECT_EQ(w.required_bytes, 868u);
}

TEST(ParamManifest, BuiltinIsThePublishedTable) {
  const ParamManifest& m = ParamManifest::builtin();
  // 44 .params/.vk of parameters.json + the inner-product .srs.
  ASSERT_EQ(m.entries().size(), 45u);
  EXPECT_EQ(m.sector_sizes(), (std::vector<std::uint64_t>{2048, 8388608, 536870912, 34359738368ull, 68719476736ull}));
  // The PoRep file names proofline derives (sha256 of the public-params identifier) are published,
  // each with its sector size; the 32 GiB digests are the reference's (§1.6).
  for (std::uint64_t size : m.sector_sizes()) {
    const auto cfg = filecoin::porep_config(filecoin::default_seal_proof(size));
    for (const char* ext : {".params", ".vk"}) {
      const PublishedParam* e = m.find(filecoin::parameter_file_name(cfg, ext));
      ASSERT_NE(e, nullptr) << filecoin::parameter_file_name(cfg, ext);
      EXPECT_EQ(e->sector_size, size);
    }
  }
  const auto cfg32 = filecoin::porep_config(filecoin::default_seal_proof(34359738368ull));
  EXPECT_EQ(m.find(filecoin::parameter_file_name(cfg32, ".params"))->digest, "6a388072a518cf46ebd661f5cc46900a");
  EXPECT_EQ(m.find(filecoin::parameter_file_name(cfg32, ".vk"))->digest, "0c7b4aac1c40fdb7eb82bc355b41addf");
  ASSERT_NE(m.find("v28-fil-inner-product-v1.srs"), nullptr);
  EXPECT_EQ(m.find("v28-fil-inner-product-v1.srs")->digest, "ae20310138f5ba81451d723f858e3797");
  // Per size: porep, post (winning and window), snap and snap-poseidon (32/64 GiB only), .params + .vk.
  std::size_t at32 = 0;
  for (const auto& e : m.entries()) at32 += e.sector_size == 34359738368ull;
  EXPECT_EQ(at32, 10u);
}

TEST(ParamManifest, MalformedRefusedWithTheEntry) {
  auto refused = [](const std::string& json, const std::string& needle) {
    try {
      ParamManifest::parse(json, "m.json");
      ADD_FAILURE() << "accepted: " << json;
    } catch (const ProoflineError& e) {
      EXPECT_EQ(e.code(), Error::Malformed);
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("[]", "m.json");
  refused("{\"a.params\": {\"digest\": \"00\", \"sector_size\": 1}}", "a.params");
  refused("{\"a.params\": {\"digest\": \"0123456789abcdef0123456789abcdef\", \"sector_size\": -1}}", "sector_size");
  refused("{\"a.txt\": {\"digest\": \"0123456789abcdef0123456789abcdef\", \"sector_size\": 1}}", "a.txt");
  refused("{\"a.params\": " + std::string(200000, '[') + std::string(200000, ']') + "}", "nested");
  refused("{", "not valid JSON");
}

TEST(ParamCache, EveryStatus) {
  ScratchDir dir;
  std::mt19937_64 rng(7);
  const Parameters p = testing::random_parameters(rng, 2, 3, 2, 3, 1);
  const auto bytes = p.to_bytes();
  const auto vk = p.vk.to_bytes();
  write_bytes((dir.path / "good.params").string(), bytes);
  write_bytes((dir.path / "short.params").string(), std::vector<std::uint8_t>(bytes.begin(), bytes.end() - 1));
  auto flipped = bytes;
  flipped[1500] ^= 0x10;
  write_bytes((dir.path / "flip.params").string(), flipped);
  auto longer = vk;
  longer.push_back(0);
  write_bytes((dir.path / "long.vk").string(), longer);
  write_bytes((dir.path / "other.srs").string(), random_bytes(1000, 3));
  write_bytes((dir.path / "notes.txt").string(), random_bytes(10, 4));  // not a parameter file: ignored
  ASSERT_EQ(::mkfifo((dir.path / "pipe.params").c_str(), 0600), 0);    // never opened (it would block)
  fs::create_directory(dir.path / "folder.vk");
  fs::create_symlink(dir.path / "nowhere", dir.path / "dangling.params");
  const std::string d = b2sum((dir.path / "good.params").string()).substr(0, 32);
  const std::string dv = b2sum((dir.path / "long.vk").string()).substr(0, 32);
  ASSERT_EQ(d.size(), 32u);
  const std::string other = "0123456789abcdef0123456789abcdef";
  const std::string json = "{\"good.params\": {\"digest\": \"" + d + "\", \"sector_size\": 2048}," +
                           "\"short.params\": {\"digest\": \"" + d + "\", \"sector_size\": 2048}," +
                           "\"flip.params\": {\"digest\": \"" + d + "\", \"sector_size\": 2048}," +
                           "\"long.vk\": {\"digest\": \"" + other + "\", \"sector_size\": 2048}," +
                           "\"gone.vk\": {\"digest\": \"" + other + "\", \"sector_size\": 2048}," +
                           "\"pipe.params\": {\"digest\": \"" + other + "\", \"sector_size\": 2048}," +
                           "\"folder.vk\": {\"digest\": \"" + other + "\", \"sector_size\": 2048}," +
                           "\"dangling.params\": {\"digest\": \"" + other + "\", \"sector_size\": 2048}," +
                           "\"big.vk\": {\"digest\": \"" + other + "\", \"sector_size\": 8388608}}";
  const ParamManifest m = ParamManifest::parse(json, "test manifest");
  ParamCheckReport r = check_param_cache(dir.path, m, {{2048}, {}});
  std::map<std::string, ParamFileReport> by;
  for (const auto& f : r.files) by[f.name] = f;
  ASSERT_EQ(by.size(), 9u);
  EXPECT_EQ(by["good.params"].status, ParamStatus::Ok);
  EXPECT_EQ(by["good.params"].actual_digest, d);
  EXPECT_EQ(by["short.params"].status, ParamStatus::Truncated);
  EXPECT_NE(by["short.params"].detail.find("2136"), std::string::npos) << by["short.params"].detail;
  EXPECT_EQ(by["flip.params"].status, ParamStatus::Corrupted);
  EXPECT_EQ(by["flip.params"].actual_digest, b2sum((dir.path / "flip.params").string()).substr(0, 32));
  EXPECT_NE(by["flip.params"].detail.find(d), std::string::npos);
  // Bytes beyond the layout: corrupted from the header alone, without hashing the file.
  EXPECT_EQ(by["long.vk"].status, ParamStatus::Corrupted);
  EXPECT_EQ(by["long.vk"].actual_digest, "");
  EXPECT_EQ(by["long.vk"].detail, "1 bytes beyond the " + std::to_string(vk.size()) +
                                      " its layout needs (not hashed: the published file has none)");
  EXPECT_NE(dv, "");
  // Something under the name that is not a file: named as what it is, never opened.
  EXPECT_EQ(by["pipe.params"].status, ParamStatus::Corrupted);
  EXPECT_EQ(by["pipe.params"].detail, "a FIFO (named pipe), not a regular file");
  EXPECT_EQ(by["folder.vk"].status, ParamStatus::Corrupted);
  EXPECT_EQ(by["folder.vk"].detail, "a folder, not a regular file");
  EXPECT_EQ(by["dangling.params"].status, ParamStatus::Missing);
  EXPECT_EQ(by["dangling.params"].detail, "a symbolic link to nothing");
  EXPECT_EQ(by["other.srs"].status, ParamStatus::Unknown);
  EXPECT_EQ(by["gone.vk"].status, ParamStatus::Missing);
  EXPECT_EQ(by.count("big.vk"), 0u);  // 8 MiB not asked
  EXPECT_TRUE(r.failed());
  EXPECT_NE(r.failure_summary().find("truncated short.params"), std::string::npos) << r.failure_summary();

  // A size the manifest has no file for is the caller's error.
  EXPECT_THROW(check_param_cache(dir.path, m, {{536870912}, {}}), ProoflineError);
  // No folder: an empty cache.
  r = check_param_cache(dir.path / "none", m, {{8388608}, {}});
  EXPECT_FALSE(r.dir_exists);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files[0].name, "big.vk");
  EXPECT_EQ(r.files[0].status, ParamStatus::Missing);
}

}  // namespace
}  // namespace proofline::groth16
