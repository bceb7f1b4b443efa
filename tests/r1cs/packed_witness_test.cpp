// PackedWitness against plain vectors of Fr: random mixes of 0, 1 and other values across word
// boundaries (value(j), expand(), counts, prefix counts, bytes()), bit pushes and appends at every
// offset within a word.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "proofline/r1cs/packed_witness.hpp"
#include "../support/buffers_test_util.hpp"

namespace proofline::r1cs {
namespace {

using ff::Fr;

using proofline::testing::same_bytes;

// 0 (p0 = 1/2), 1 (p1 = 3/8) or a random value.
std::vector<Fr> random_values(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (Fr& x : v) {
    const auto r = rng() % 8;
    x = r < 4 ? Fr::zero() : r < 7 ? Fr::one() : Fr::random(rng);
  }
  return v;
}

TEST(PackedWitness, PackExpandValueRoundTrip) {
  std::mt19937_64 rng(31);
  for (const std::size_t n : {0u, 1u, 63u, 64u, 65u, 128u, 1000u, 4097u}) {
    SCOPED_TRACE(n);
    const std::vector<Fr> v = random_values(n, rng);
    const PackedWitness w = PackedWitness::pack(v);
    ASSERT_EQ(w.size(), n);
    EXPECT_TRUE(same_bytes(w.expand(), v));
    std::size_t others = 0, ones = 0;
    for (std::size_t j = 0; j < n; ++j) {
      EXPECT_EQ(w.value(j), v[j]) << j;
      others += !(v[j].is_zero() || v[j].is_one());
      ones += v[j].is_one();
    }
    EXPECT_EQ(w.others().size(), others);
    EXPECT_EQ(w.bit_count(), n - others);
    EXPECT_EQ(w.one_count(), ones);
    const std::size_t words = (n + 63) / 64;
    EXPECT_EQ(w.is_bit_words().size(), words);
    EXPECT_EQ(w.bytes(), words * 20 + others * sizeof(Fr));
    // Prefix counts: others before word k.
    std::size_t before = 0;
    for (std::size_t k = 0; k < words; ++k) {
      EXPECT_EQ(w.others_before()[k], before);
      for (std::size_t j = 64 * k; j < n && j < 64 * k + 64; ++j) before += !(v[j].is_zero() || v[j].is_one());
    }
    // Bits beyond n are zero.
    if (n % 64 != 0) {
      EXPECT_EQ(w.is_bit_words().back() >> (n % 64), 0u);
      EXPECT_EQ(w.bit_words().back() >> (n % 64), 0u);
    }
  }
}

TEST(PackedWitness, PushBitsAndAppendAtEveryOffset) {
  std::mt19937_64 rng(7);
  for (std::size_t off = 0; off < 130; off += 3) {
    for (const std::size_t len : {0u, 1u, 5u, 64u, 77u, 200u}) {
      SCOPED_TRACE("offset " + std::to_string(off) + " length " + std::to_string(len));
      const std::vector<Fr> head = random_values(off, rng), tail = random_values(len, rng);
      std::vector<Fr> all = head;
      all.insert(all.end(), tail.begin(), tail.end());
      PackedWitness w = PackedWitness::pack(head);
      w.append(PackedWitness::pack(tail));
      EXPECT_TRUE(w == PackedWitness::pack(all));
      // push_bits: a word of random bits, count len % 65.
      const std::uint64_t bits = rng();
      const std::size_t count = len % 65;
      PackedWitness b = PackedWitness::pack(head);
      b.push_bits(bits, count);
      std::vector<Fr> expect = head;
      for (std::size_t k = 0; k < count; ++k) expect.push_back((bits >> k) & 1 ? Fr::one() : Fr::zero());
      EXPECT_TRUE(b == PackedWitness::pack(expect));
    }
  }
}

}  // namespace
}  // namespace proofline::r1cs
