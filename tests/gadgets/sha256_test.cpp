// UInt32 and SHA-256 gadgets: pinned constraint counts (bellperson's tests), NIST vectors in and out
// of the circuit, comparison with OpenSSL for many lengths, all modes agree, tampering is caught.
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <random>
#include <string>
#include <vector>

#include "gadget_test_util.hpp"
#include "proofline/gadgets/sha256.hpp"
#include "proofline/gadgets/uint32.hpp"

namespace {

using namespace proofline::gadgets;
using namespace proofline::gadget_test;

std::vector<Boolean> alloc_bits_be(ConstraintSystem& cs, std::span<const std::uint8_t> data) {
  std::vector<Boolean> bits;
  for (std::size_t i = 0; i < data.size(); ++i) {
    for (int j = 7; j >= 0; --j) {
      auto ns = cs.namespace_([&] { return "input bit " + std::to_string(i) + " " + std::to_string(j); });
      bits.push_back(AllocatedBit::alloc(cs, (data[i] >> j) & 1));
    }
  }
  return bits;
}

std::vector<std::uint8_t> openssl_sha256(std::span<const std::uint8_t> data) {
  std::vector<std::uint8_t> out(32);
  SHA256(data.data(), data.size(), out.data());
  return out;
}

std::vector<std::uint8_t> unhex(const std::string& h) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < h.size(); i += 2) out.push_back(static_cast<std::uint8_t>(std::stoul(h.substr(i, 2), nullptr, 16)));
  return out;
}

TEST(UInt32, RotShrXorValues) {
  TestConstraintSystem cs;
  auto a = UInt32::alloc(cs, 0xdeadbeef);
  EXPECT_EQ(a.rotr(7).value(), (0xdeadbeefu >> 7) | (0xdeadbeefu << 25));
  EXPECT_EQ(a.shr(3).value(), 0xdeadbeefu >> 3);
  EXPECT_TRUE(a.shr(3).bits()[31].is_constant());
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 32; ++i) v |= static_cast<std::uint32_t>(a.rotr(9).bits()[i].value()) << i;
  EXPECT_EQ(v, a.rotr(9).value());
  auto ns = cs.namespace_("b");
  auto b = UInt32::alloc(cs, 0x12345678);
  ns.close();
  const std::size_t before = cs.num_constraints();
  auto x = a.xor_(cs, b);
  EXPECT_EQ(x.value(), 0xdeadbeefu ^ 0x12345678u);
  EXPECT_EQ(cs.num_constraints() - before, 32u);
  EXPECT_TRUE(cs.is_satisfied());
  // xor with a constant folds.
  auto ns2 = cs.namespace_("y");
  auto y = a.xor_(cs, UInt32::constant(0xffff0000));
  EXPECT_EQ(y.value(), 0xdeadbeefu ^ 0xffff0000u);
  EXPECT_EQ(cs.num_constraints() - before, 32u);
}

TEST(UInt32, AddmanyCountsAndValues) {
  std::mt19937_64 rng(42);
  for (std::size_t k = 2; k <= 10; ++k) {
    std::vector<std::uint32_t> vals(k);
    for (auto& v : vals) v = static_cast<std::uint32_t>(rng());
    std::uint32_t sum = 0;
    for (auto v : vals) sum += v;
    auto counts = check_modes([&](ConstraintSystem& cs) {
      std::vector<UInt32> ops;
      for (std::size_t i = 0; i < k; ++i) {
        auto ns = cs.namespace_([&] { return "op " + std::to_string(i); });
        // Mix allocated, constant and negated operands.
        ops.push_back(i == 1 ? UInt32::constant(vals[i]) : UInt32::alloc(cs, vals[i]));
      }
      std::vector<const UInt32*> ptrs;
      for (auto& o : ops) ptrs.push_back(&o);
      MultiEq meq(cs);
      auto r = UInt32::addmany(meq, ptrs);
      meq.finish();
      EXPECT_EQ(r.value(), sum);
    });
    // result bits = bitlen(k·(2^32 − 1)), plus one multieq constraint.
    const std::size_t nbits = std::bit_width(static_cast<std::uint64_t>(k) * 0xffffffffull);
    EXPECT_EQ(counts.constraints, 32 * (k - 1) + nbits + 1) << k;
  }
  // All constants: a constant, no constraints.
  TestConstraintSystem cs;
  MultiEq meq(cs);
  auto a = UInt32::constant(5), b = UInt32::constant(0xffffffff);
  const UInt32* ops[2] = {&a, &b};
  auto r = UInt32::addmany(meq, ops);
  meq.finish();
  EXPECT_TRUE(r.is_constant());
  EXPECT_EQ(r.value(), 4u);
  EXPECT_EQ(cs.num_constraints(), 0u);
}

TEST(UInt32, MultiEqFlushesBeforeCapacity) {
  // Seven 2-operand additions of 33 bits each: 7·33 = 231 < 254 fit one constraint, the 8th flushes.
  TestConstraintSystem cs;
  MultiEq meq(cs);
  std::vector<UInt32> words;
  for (int i = 0; i < 16; ++i) {
    auto ns = cs.namespace_([&] { return "w" + std::to_string(i); });
    words.push_back(UInt32::alloc(cs, 0x9e3779b9u * (i + 1)));
  }
  const std::size_t base = cs.num_constraints();
  for (int i = 0; i < 8; ++i) {
    auto ns = cs.namespace_([&] { return "add" + std::to_string(i); });
    const UInt32* ops[2] = {&words[2 * i], &words[2 * i + 1]};
    auto r = UInt32::addmany(meq, ops);
    EXPECT_EQ(r.value(), words[2 * i].value() + words[2 * i + 1].value());
    EXPECT_EQ(meq.bits_used(), i < 7 ? 33u * (i + 1) : 33u);
  }
  meq.finish();
  EXPECT_EQ(cs.num_constraints() - base, 8 * 33 + 2u);
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(Sha256, BlankHashIsFree) {
  TestConstraintSystem cs;
  std::vector<Boolean> input(512, Boolean::constant(false));
  input[0] = Boolean::constant(true);
  auto out = sha256_block_no_padding(cs, input);
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_EQ(bits_be_to_bytes(out), unhex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
}

TEST(Sha256, FullBlockCount25840) {
  std::mt19937_64 rng(0x5962be3d);
  std::vector<std::uint8_t> data(64);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  TestConstraintSystem cs;
  auto bits = alloc_bits_be(cs, data);
  auto ns = cs.namespace_("sha256");
  auto out = sha256_block_no_padding(cs, bits);
  ns.close();
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_EQ(cs.num_constraints() - 512, 25840u);
  check_flips(cs, 30, 11);
}

TEST(Sha256, FullHashCount44874AndModes) {
  std::mt19937_64 rng(0x17db3732);
  std::vector<std::uint8_t> data(64);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  const auto expect = openssl_sha256(data);
  auto counts = check_modes([&](ConstraintSystem& cs) {
    auto bits = alloc_bits_be(cs, data);
    auto ns = cs.namespace_("sha256");
    auto out = sha256(cs, bits);
    if (cs.computes_values()) EXPECT_EQ(bits_be_to_bytes(out), expect);
  });
  EXPECT_EQ(counts.constraints - 512, 44874u);
}

TEST(Sha256, TwoConstantBitsSave8) {
  // Tree D node: 2 × (255 allocated bits + 1 constant false bit), reordered per byte → 44,866.
  TestConstraintSystem cs;
  std::vector<Boolean> bits;
  for (int i = 0; i < 512; ++i) {
    auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
    bits.push_back((i % 256) == 248 ? Boolean::constant(false) : Boolean(AllocatedBit::alloc(cs, (i * 7) & 1)));
  }
  const std::size_t base = cs.num_constraints();
  auto ns = cs.namespace_("sha256");
  sha256(cs, bits);
  EXPECT_EQ(cs.num_constraints() - base, 44866u);
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(Sha256, NistVectors) {
  const std::pair<std::string, std::string> vectors[] = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
  };
  for (const auto& [msg, hex] : vectors) {
    std::vector<std::uint8_t> data(msg.begin(), msg.end());
    EXPECT_EQ(openssl_sha256(data), unhex(hex)) << msg;  // native
    TestConstraintSystem cs;
    auto bits = alloc_bits_be(cs, data);
    auto out = sha256(cs, bits);
    EXPECT_EQ(bits_be_to_bytes(out), unhex(hex)) << msg;  // in the circuit
    EXPECT_TRUE(cs.is_satisfied());
    // The same message as constants: no constraints at all.
    TestConstraintSystem cs2;
    auto out2 = sha256(cs2, bytes_to_constant_bits_be(data));
    EXPECT_EQ(cs2.num_constraints(), 0u);
    EXPECT_EQ(bits_be_to_bytes(out2), unhex(hex));
  }
}

TEST(Sha256, AgainstOpenSslManyLengths) {
  std::mt19937_64 rng(0x54066bce5);
  std::vector<std::size_t> lens;
  for (std::size_t l = 0; l < 32; l += 3) lens.push_back(l);
  for (std::size_t l = 32; l < 256; l += 24) lens.push_back(l);
  for (std::size_t len : lens) {
    std::vector<std::uint8_t> data(len);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
    const auto expect = openssl_sha256(data);
    ProvingAssignment pa;
    auto bits = alloc_bits_be(pa, data);
    auto out = sha256(pa, bits);
    EXPECT_EQ(bits_be_to_bytes(out), expect) << len;
    // Satisfaction in test mode for a few lengths around block boundaries.
    if (len == 0 || len == 3 || len == 55 || len == 56 || len == 64 || len == 120) {
      TestConstraintSystem cs;
      auto tb = alloc_bits_be(cs, data);
      sha256(cs, tb);
      EXPECT_TRUE(cs.is_satisfied()) << len;
    }
  }
}

}  // namespace
