// Stacked DRG graph: ChaCha8 against published keystreams and OpenSSL's ChaCha20, Feistel permutation
// properties (storage-proofs-core feistel.rs tests), DRG invariants (drgraph.rs tests), the parent
// cache names of upstream (they hash the graph id and the Feistel keys), and the expander properties
// upstream tests (graph.rs: legacy pathology, high parent bits, histogram).
#include <gtest/gtest.h>

#include "filecoin_test_util.hpp"
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <set>
#include <string>
#include <vector>

#include "proofline/filecoin/graph.hpp"

namespace {

using namespace proofline::filecoin;

using proofline::filecoin_test::hex;

PorepId pid(std::uint64_t id) {
  PorepId p{};
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(id >> (8 * i));
  return p;
}

TEST(ChaCha8, PublishedKeystream) {
  // draft-strombergson-chacha-test-vectors TC1, 8 rounds, 256-bit zero key, zero IV: two blocks.
  ChaCha8Rng rng(std::array<std::uint8_t, 32>{});
  std::vector<std::uint8_t> out(128);
  rng.fill_bytes(out);
  EXPECT_EQ(hex(out),
            "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
            "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
            "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
            "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa");
}

TEST(ChaCha8, TwentyRoundsMatchOpenSsl) {
  // The same block function with 20 rounds against OpenSSL's ChaCha20 (counter 0, zero nonce), 5 blocks.
  for (int t = 0; t < 4; ++t) {
    std::array<std::uint8_t, 32> key;
    for (int i = 0; i < 32; ++i) key[i] = static_cast<std::uint8_t>(t * 77 + i * 13);
    ChaCha8Rng rng(key, 20);
    std::vector<std::uint8_t> mine(320), ref(320), zeros(320, 0);
    rng.fill_bytes(mine);
    std::uint8_t iv[16] = {0};
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    int n = 0;
    ASSERT_EQ(EVP_EncryptInit_ex(ctx, EVP_chacha20(), nullptr, key.data(), iv), 1);
    ASSERT_EQ(EVP_EncryptUpdate(ctx, ref.data(), &n, zeros.data(), 320), 1);
    EVP_CIPHER_CTX_free(ctx);
    EXPECT_EQ(hex(mine), hex(ref));
  }
}

TEST(ChaCha8, U64IsTwoWordsLowFirst) {
  std::array<std::uint8_t, 32> key{};
  key[0] = 1;
  ChaCha8Rng a(key), b(key);
  for (int i = 0; i < 40; ++i) {  // crosses block boundaries
    const std::uint64_t lo = a.next_u32(), hi = a.next_u32();
    EXPECT_EQ(b.next_u64(), lo | hi << 32);
  }
}

TEST(Feistel, PowersOfFourArePermutations) {
  const std::uint64_t keys[] = {1, 2, 3, 4};
  for (std::uint64_t n = 4; n <= 256; n *= 4) {
    const auto pre = feistel_precompute(n);
    std::set<std::uint64_t> seen;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t p = feistel_permute(n, i, keys, pre);
      EXPECT_LT(p, n);
      EXPECT_EQ(feistel_invert_permute(n, p, keys, pre), i);
      seen.insert(p);
    }
    EXPECT_EQ(seen.size(), n);
  }
}

TEST(Feistel, ArbitrarySetsByCycleWalking) {
  const std::uint64_t keys[] = {1, 2, 3, 4};
  for (std::uint64_t n : {5, 6, 8, 12, 17}) {  // upstream's BAD_NS
    const auto pre = feistel_precompute(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t p = feistel_permute(n, i, keys, pre);
      EXPECT_LT(p, n);
      EXPECT_EQ(feistel_invert_permute(n, p, keys, pre), i) << "n " << n;
    }
  }
  const auto pre = feistel_precompute(std::uint64_t{8} << 30);
  EXPECT_EQ(pre.half_bits, 17u);
  EXPECT_EQ(pre.right_mask, (std::uint64_t{1} << 17) - 1);
}

// upstream cache.rs: file name = v28-sdr-parent-hex(SHA-256("poseidon_hasher" ‖ graph identifier ‖
// Feistel keys (u64 LE) ‖ u32 LE nodes)); these names appear in upstream/Curio/supraseal logs and code.
TEST(StackedGraph, ParentCacheNamesOfUpstream) {
  auto name = [](std::uint64_t nodes, std::uint64_t id) {
    const StackedGraph g(nodes, pid(id), ApiVersion::V1_1_0);
    const std::string ident = "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: " +
                              std::to_string(nodes) + "; degree: 6; hasher: poseidon_hasher} }";
    std::vector<std::uint8_t> buf;
    const std::string h = "poseidon_hasher";
    buf.insert(buf.end(), h.begin(), h.end());
    buf.insert(buf.end(), ident.begin(), ident.end());
    for (auto k : g.feistel_keys()) {
      for (int i = 0; i < 8; ++i) buf.push_back(static_cast<std::uint8_t>(k >> (8 * i)));
    }
    for (int i = 0; i < 4; ++i) buf.push_back(static_cast<std::uint8_t>(nodes >> (8 * i)));
    std::uint8_t d[32];
    SHA256(buf.data(), buf.size(), d);
    return hex(d);
  };
  EXPECT_EQ(name(64, 0), "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899");  // 2 KiB V1
  EXPECT_EQ(name(std::uint64_t{1} << 24, 7).substr(0, 23), "7ba215a1d2345774ab90b8c");        // 512 MiB V1_1
  EXPECT_EQ(name(std::uint64_t{1} << 30, 8), "21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117");
}

TEST(StackedGraph, DrgInvariants) {
  for (auto v : {ApiVersion::V1_0_0, ApiVersion::V1_1_0}) {
    for (std::uint64_t nodes : {4, 16, 256, 2048}) {
      const StackedGraph g(nodes, PorepId{123}, v);
      EXPECT_EQ(g.drg_parents(0), (std::array<std::uint32_t, 6>{}));
      EXPECT_EQ(g.drg_parents(1), (std::array<std::uint32_t, 6>{}));
      for (std::uint64_t i = 2; i < nodes; ++i) {
        const auto p = g.drg_parents(i);
        EXPECT_EQ(p, g.drg_parents(i));
        EXPECT_EQ(p[v == ApiVersion::V1_0_0 ? 5 : 0], i - 1);  // the predecessor slot
        for (auto q : p) {
          EXPECT_LT(q, i) << "node " << i;  // earlier nodes only, no self reference
        }
      }
    }
  }
}

TEST(StackedGraph, ExpanderInRangeAndVersionsDiffer) {
  const StackedGraph g1(64, pid(0), ApiVersion::V1_0_0), g2(64, pid(0), ApiVersion::V1_1_0);
  for (std::uint64_t i = 0; i < 64; ++i) {
    for (auto q : g2.exp_parents(i)) EXPECT_LT(q, 64u);
    // for small sectors no truncation happens: the expanders agree, the DRG slots are rotated
    EXPECT_EQ(g1.exp_parents(i), g2.exp_parents(i));
    if (i >= 2) {
      const auto a = g1.drg_parents(i), b = g2.drg_parents(i);
      EXPECT_EQ(a[5], b[0]);
      for (int j = 0; j < 5; ++j) EXPECT_EQ(a[j], b[j + 1]);
    }
  }
}

// graph.rs test_graph_distribution_pathology: legacy (V1_0_0) graphs of 32/64 GiB never pick
// expander parents in the upper half; V1_1_0 and V1_2_0 do so quickly.
TEST(StackedGraph, LegacyPathology) {
  const std::uint64_t n32 = std::uint64_t{1} << 30, n64 = std::uint64_t{1} << 31;
  auto pathological = [](std::uint64_t nodes, std::uint64_t id, ApiVersion v) {
    const StackedGraph g(nodes, pid(id), v);
    for (std::uint64_t i = 0; i < 1000; ++i) {
      for (auto p : g.exp_parents(i)) {
        if (p >= nodes / 2) return false;
      }
    }
    return true;
  };
  EXPECT_TRUE(pathological(n32, 3, ApiVersion::V1_0_0));
  EXPECT_TRUE(pathological(n64, 4, ApiVersion::V1_0_0));
  EXPECT_FALSE(pathological(n32, 8, ApiVersion::V1_1_0));
  EXPECT_FALSE(pathological(n64, 9, ApiVersion::V1_1_0));
  EXPECT_FALSE(pathological(n32, 10, ApiVersion::V1_2_0));
}

// graph.rs test_high_parent_bits and test_exp_parent_histogram (64 GiB, porep id 5, V1_1_0).
TEST(StackedGraph, HighParentBitsAndHistogram) {
  const std::uint64_t n = std::uint64_t{1} << 31;
  const StackedGraph g(n, pid(5), ApiVersion::V1_1_0);
  bool high = false;
  for (std::uint64_t v = 0; v < 3 && !high; ++v) {
    for (auto p : g.exp_parents(v)) high = high || p >= (1u << 29);
  }
  EXPECT_TRUE(high);
  constexpr std::size_t kSamples = 10000, kBins = 32;
  std::array<std::size_t, kBins> hist{};
  for (std::size_t s = 0; s < kSamples; ++s) {
    for (auto p : g.exp_parents(s * n / kSamples)) ++hist[p / (n / kBins)];
  }
  const double uniform = kSamples * 8.0 / kBins;
  for (auto h : hist) {
    EXPECT_GE(h, static_cast<std::size_t>(0.6 * uniform) + 1);
    EXPECT_LE(h, static_cast<std::size_t>(1.4 * uniform) - 1);
  }
}

}  // namespace
