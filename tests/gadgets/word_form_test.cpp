// UInt32's word form (prover mode, checked words: uint32.hpp) against the per-bit gadgets, the
// generic LinearCombination path and test mode: random words mixing constant, Is and Not bits, words
// sharing variables, rotations and shifts of them, every word gadget (xor, ch, maj, alloc, addmany)
// chained as SHA-256 chains them, the SHA-256 NIST vectors, and which words count as checked (an
// invalid or inconsistent witness, an input variable, or another mode: never).
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "gadget_test_util.hpp"
#include "proofline/gadgets/sha256.hpp"
#include "proofline/gadgets/uint32.hpp"

namespace {

using namespace proofline::gadgets;
using namespace proofline::gadget_test;

// A word of 32 Booleans drawn from `rng`: each bit constant with probability p_const/8, else an
// allocated bit (with or without its boolean constraint), negated with probability p_not/8; `check` asks for the word form's check.
UInt32 random_word(ConstraintSystem& cs, std::mt19937_64& rng, unsigned p_const, unsigned p_not, bool check) {
  std::array<Boolean, 32> bits;
  for (std::size_t i = 0; i < 32; ++i) {
    const bool v = rng() & 1;
    if (rng() % 8 < p_const) {
      bits[i] = Boolean::constant(v);
      continue;
    }
    auto ns = cs.namespace_([&] { return "bit " + std::to_string(i); });
    // Half of them free bits (no boolean constraint): their densities come only from the gadgets.
    const AllocatedBit b = rng() & 1 ? AllocatedBit::alloc(cs, v)
                                     : AllocatedBit(cs.alloc("free", [&] { return bool_to_fr(v); }), v);
    bits[i] = rng() % 8 < p_not ? Boolean::not_of(b) : Boolean::is(b);
  }
  UInt32 w = UInt32::from_bits(bits);
  if (check) {
    const bool ok = w.check(cs);
    // Checked exactly in prover mode with the fast path on, and always in witness-only mode.
    EXPECT_EQ(ok, cs.prover_buffers() != nullptr || cs.witness_only());
  }
  return w;
}

// The word gadgets chained over words a, b, c, d as SHA-256 chains them, plus shared-variable cases.
void chain(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c, const UInt32& d) {
  int k = 0;
  auto step = [&] { return cs.namespace_([&] { return "step " + std::to_string(k++); }); };
  UInt32 s0, s1, ch, maj, t;
  { auto ns = step(); s0 = a.rotr(2).xor_(cs, a.rotr(13)); }
  { auto ns = step(); s0 = s0.xor_(cs, a.shr(3)); }
  { auto ns = step(); s1 = b.xor_(cs, c.rotr(7)); }
  { auto ns = step(); ch = UInt32::sha256_ch(cs, a, b, c); }
  { auto ns = step(); maj = UInt32::sha256_maj(cs, s0, b, c); }
  { auto ns = step(); t = UInt32::sha256_ch(cs, s1, maj, d.rotr(5)); }
  // b and c of ch / maj over the same word: variables shared bit by bit (per-bit fallback).
  { auto ns = step(); (void)UInt32::sha256_ch(cs, a, c, c); }
  { auto ns = step(); (void)UInt32::sha256_maj(cs, d, b, b); }
  // The same word on both sides of a xor.
  { auto ns = step(); (void)b.xor_(cs, b); }
  MultiEq meq(cs);
  const UInt32 k1 = UInt32::constant(0x428a2f98u);
  UInt32 sum;
  {
    auto ns = step();
    const UInt32* ops[6] = {&d, &s1, &ch, &k1, &a, &t};
    sum = UInt32::addmany(meq, ops);
  }
  {
    auto ns = step();
    const UInt32* ops[7] = {&sum, &s0, &maj, &ch, &c, &c, &b};  // repeats across equalities
    sum = UInt32::addmany(meq, ops);
  }
  { auto ns = step(); (void)UInt32::sha256_maj(cs, sum, s0, t); }
  { auto ns = step(); (void)sum.rotr(11).xor_(cs, UInt32::constant(0xffff0000u)); }
  meq.finish();
}

TEST(WordForm, RandomMixedWordsAllModes) {
  // Kind mixes: all variables; mostly Is with some Not; many constants; all Not. Every combination
  // of checked / unchecked operands.
  const std::array<std::pair<unsigned, unsigned>, 4> mixes = {{{0, 0}, {0, 3}, {4, 2}, {0, 8}}};
  std::mt19937_64 seeds(0x77f3);
  for (const auto& mix : mixes) {
    const unsigned pc = mix.first, pn = mix.second;  // no structured binding: clang 14 lambdas
    for (int checked = 0; checked < 16; ++checked) {
      const std::uint64_t seed = seeds();
      check_modes([&](ConstraintSystem& cs) {
        std::mt19937_64 rng(seed);
        std::array<UInt32, 4> w;
        for (std::size_t i = 0; i < 4; ++i) {
          auto ns = cs.namespace_([&] { return "word " + std::to_string(i); });
          w[i] = random_word(cs, rng, pc, pn, ((checked >> i) & 1) != 0);
        }
        chain(cs, w[0], w[1], w[2], w[3]);
      });
    }
  }
}

TEST(WordForm, AllocatedWordsAndValues) {
  std::mt19937_64 rng(0x3a1);
  for (int round = 0; round < 8; ++round) {
    std::array<std::uint32_t, 4> v;
    for (auto& x : v) x = static_cast<std::uint32_t>(rng());
    check_modes([&](ConstraintSystem& cs) {
      std::array<UInt32, 4> w;
      for (std::size_t i = 0; i < 4; ++i) {
        auto ns = cs.namespace_([&] { return "word " + std::to_string(i); });
        w[i] = UInt32::alloc(cs, v[i]);
      }
      const UInt32 x = w[0].xor_(cs, w[1].rotr(round));
      EXPECT_EQ(x.value(), v[0] ^ std::rotr(v[1], round));
      UInt32 ch, maj;
      {
        auto ns = cs.namespace_("ch");
        ch = UInt32::sha256_ch(cs, w[0], w[1], w[2]);
      }
      {
        auto ns = cs.namespace_("maj");
        maj = UInt32::sha256_maj(cs, w[1], w[2], w[3]);
      }
      EXPECT_EQ(ch.value(), (v[0] & v[1]) ^ (~v[0] & v[2]));
      EXPECT_EQ(maj.value(), (v[1] & v[2]) ^ (v[1] & v[3]) ^ (v[2] & v[3]));
      chain(cs, x, ch, maj, w[3]);
    });
  }
}

TEST(WordForm, RotrShrRebuildTheSameBits) {
  ProvingAssignment pa;
  std::mt19937_64 rng(5);
  const UInt32 w = random_word(pa, rng, 3, 3, true);
  for (std::size_t k = 0; k < 32; ++k) {
    const UInt32 r = w.rotr(k), s = w.shr(k);
    EXPECT_EQ(r.value(), std::rotr(w.value(), static_cast<int>(k)));
    EXPECT_EQ(s.value(), w.value() >> k);
    for (std::size_t i = 0; i < 32; ++i) {
      const Boolean x = r.bit(i), y = w.bit((i + k) % 32);
      EXPECT_EQ(x.kind(), y.kind());
      EXPECT_EQ(x.value(), y.value());
      if (!y.is_constant()) EXPECT_EQ(x.variable(), y.variable());
      const Boolean z = s.bit(i);
      if (i + k >= 32) {
        EXPECT_TRUE(z.is_constant() && !z.value()) << k << " " << i;
      } else {
        const Boolean o = w.bit(i + k);
        EXPECT_EQ(z.kind(), o.kind());
        EXPECT_EQ(z.value(), o.value());
      }
    }
  }
  // bits(), from_bits and append_bits_be round-trip.
  const auto bits = w.bits();
  const UInt32 back = UInt32::from_bits(bits);
  std::vector<Boolean> be;
  back.append_bits_be(be);
  const UInt32 back_be = UInt32::from_bits_be(be);
  for (std::size_t i = 0; i < 32; ++i) {
    EXPECT_EQ(back_be.bit(i).kind(), bits[i].kind());
    EXPECT_EQ(back_be.bit(i).value(), bits[i].value());
  }
}

TEST(WordForm, CheckedOnlyForConsistentAuxBits) {
  // check() is true only in prover mode with the fast path, and only if every non-constant bit is
  // an aux variable holding its bit's value.
  {
    TestConstraintSystem tcs;
    UInt32 w = UInt32::alloc(tcs, 0x1234);
    EXPECT_FALSE(w.check(tcs));
    ProvingAssignment generic;
    generic.set_fast_path(false);
    UInt32 g = UInt32::alloc(generic, 0x1234);
    EXPECT_FALSE(g.check(generic));
  }
  ProvingAssignment pa;
  UInt32 a = UInt32::alloc(pa, 0xdeadbeefu);
  EXPECT_TRUE(a.check(pa));
  UInt32 k = UInt32::constant(7);
  EXPECT_TRUE(k.check(pa));
  const Variable two = pa.alloc("two", [] { return Fr::from_u64(2); });
  const Variable one = pa.alloc("one", [] { return Fr::one(); });
  const Variable in = pa.alloc_input("input bit", [] { return Fr::one(); });
  auto with_bit = [&](const Boolean& b) {
    auto bits = a.bits();
    bits[5] = b;
    return UInt32::from_bits(bits);
  };
  UInt32 non_bit = with_bit(Boolean::is(AllocatedBit(two, false)));
  UInt32 wrong = with_bit(Boolean::is(AllocatedBit(one, false)));  // value disagrees with z
  UInt32 input = with_bit(Boolean::is(AllocatedBit(in, true)));
  UInt32 negated = with_bit(Boolean::not_of(AllocatedBit(one, true)));
  EXPECT_FALSE(non_bit.check(pa));
  EXPECT_FALSE(wrong.check(pa));
  EXPECT_FALSE(input.check(pa));
  EXPECT_TRUE(negated.check(pa));
  // Checked for one prover only: in another one (where its bits are not allocated) it is not, and
  // the word gadgets there take the per-bit path (which reports the unknown variable).
  ProvingAssignment other;
  UInt32 mine = UInt32::alloc(pa, 0x55aa55aau);
  EXPECT_FALSE(mine.check(other));
  MultiEq meq(other);
  const UInt32* ops[2] = {&mine, &mine};
  EXPECT_THROW((void)UInt32::addmany(meq, ops), proofline::r1cs::SynthesisError);
}

TEST(WordForm, UncheckedWordsMatchGeneric) {
  // Words test mode would reject (a non-bit value, a value that disagrees with the assignment) and
  // words with an input bit take the per-bit path; fast and generic provers still agree.
  for (int variant = 0; variant < 3; ++variant) {
    ProvingAssignment fast, generic;
    generic.set_fast_path(false);
    for (ProvingAssignment* pa : {&fast, &generic}) {
      ConstraintSystem& cs = *pa;
      std::mt19937_64 rng(91);
      std::array<UInt32, 4> w;
      for (auto& x : w) x = UInt32::alloc(cs, static_cast<std::uint32_t>(rng()));
      Variable odd;
      if (variant == 0) odd = cs.alloc("two", [] { return Fr::from_u64(2); });
      if (variant == 1) odd = cs.alloc("one", [] { return Fr::one(); });
      if (variant == 2) odd = cs.alloc_input("input", [] { return Fr::one(); });
      auto bits = w[1].bits();
      bits[3] = Boolean::is(AllocatedBit(odd, variant == 2));
      bits[9] = Boolean::not_of(AllocatedBit(odd, variant == 2));
      w[1] = UInt32::from_bits(bits);
      chain(cs, w[0], w[1], w[2], w[3]);
      chain(cs, w[1], w[2], w[1], w[0]);
    }
    expect_same_buffers(fast, generic);
  }
}

TEST(WordForm, Sha256NistVectorsAllModes) {
  const std::pair<std::string, std::string> vectors[] = {
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
  };
  for (const auto& vec : vectors) {
    const std::string& msg = vec.first;  // no structured binding: clang 14 lambdas
    const std::string& hex = vec.second;
    std::vector<std::uint8_t> want(32);
    for (std::size_t i = 0; i < 32; ++i) want[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    check_modes([&](ConstraintSystem& cs) {
      std::vector<Boolean> bits;
      for (std::size_t i = 0; i < msg.size(); ++i) {
        for (int j = 7; j >= 0; --j) {
          auto ns = cs.namespace_([&] { return "input " + std::to_string(8 * i + 7 - j); });
          bits.push_back(AllocatedBit::alloc(cs, (static_cast<unsigned char>(msg[i]) >> j) & 1));
        }
      }
      if (msg.size() < 4) {
        // Some input bits negated (Not words into the schedule), the digest adjusted natively.
        std::vector<Boolean> negated = bits;
        std::vector<std::uint8_t> data(msg.begin(), msg.end());
        for (std::size_t i = 0; i < bits.size(); i += 5) {
          negated[i] = bits[i].not_();
          data[i / 8] ^= static_cast<std::uint8_t>(0x80u >> (i % 8));
        }
        auto ns = cs.namespace_("sha256 negated");
        const auto out = sha256(cs, negated);
        std::vector<std::uint8_t> expect(32);
        SHA256(data.data(), data.size(), expect.data());
        if (cs.computes_values()) EXPECT_EQ(bits_be_to_bytes(out), expect);
      }
      auto ns2 = cs.namespace_("sha256 plain");
      const auto plain = sha256(cs, bits);
      if (cs.computes_values()) EXPECT_EQ(bits_be_to_bytes(plain), want) << msg;
    });
  }
}

}  // namespace

// distinct_vars() (MultiEq's fast flush sets the A-density of every staged variable without summing
// coefficients only when each staged word has distinct variables and no Not bit): which words know it,
// and addmany over words that repeat a variable (within a word, across operands and across the
// equalities of one constraint), mixed with words that do not, with negated words, and with a word
// whose variables cancel (x + Not(x)), gives the test system's densities in every mode.
TEST(WordForm, DistinctVarsAndAddmanyDensity) {
  check_modes([&](ConstraintSystem& cs) {
    const bool checks = cs.prover_buffers() != nullptr || cs.witness_only();  // check()'s answer
    std::array<AllocatedBit, 32> free;  // no boolean constraint: not dense in A before the addmany
    const std::uint32_t pattern = 0x9e3779b9u;
    for (std::size_t i = 0; i < 32; ++i) {
      const bool v = (pattern >> i) & 1;
      free[i] = AllocatedBit(cs.alloc([&] { return "free " + std::to_string(i); }, [&] { return bool_to_fr(v); }), v);
    }
    std::array<Boolean, 32> own, repeated, negated;
    for (std::size_t i = 0; i < 32; ++i) {
      own[i] = Boolean::is(free[i]);
      repeated[i] = Boolean::is(free[i % 5]);  // variables 0..4 back several bits each
      negated[i] = i % 3 == 0 ? Boolean::not_of(free[(i + 7) % 32]) : Boolean::is(free[(i + 7) % 32]);
    }
    UInt32 w_own = UInt32::from_bits(own), w_rep = UInt32::from_bits(repeated), w_neg = UInt32::from_bits(negated);
    EXPECT_TRUE(w_own.distinct_vars());
    EXPECT_FALSE(w_rep.distinct_vars());
    EXPECT_TRUE(w_neg.distinct_vars());
    EXPECT_TRUE(w_own.rotr(9).distinct_vars());
    EXPECT_TRUE(w_own.shr(4).distinct_vars());
    EXPECT_FALSE(w_rep.rotr(3).distinct_vars());
    EXPECT_EQ(w_own.check(cs), checks);
    EXPECT_EQ(w_rep.check(cs), checks);
    EXPECT_EQ(w_neg.check(cs), checks);
    const UInt32 k = UInt32::constant(0x0f0f00ffu);
    UInt32 x;
    {
      auto ns = cs.namespace_("xor");
      x = w_own.xor_(cs, k);  // every bit copied from w_own (or negated by the constant)
    }
    MultiEq meq(cs);
    auto add = [&](std::initializer_list<const UInt32*> ops, const char* name) {
      auto ns = cs.namespace_(name);
      const std::vector<const UInt32*> v(ops);
      return UInt32::addmany(meq, v);
    };
    // One constraint of simple equalities only (distinct words, same words
    // across equalities).
    const UInt32 s1 = add({&w_own, &w_own, &k}, "simple 1");
    const UInt32 s2 = add({&w_own, &s1}, "simple 2");
    meq.finish();
    {
      auto second = cs.namespace_("second multieq");
      MultiEq meq2(cs);
      auto add2 = [&](std::initializer_list<const UInt32*> ops, const char* name) {
        auto ns = cs.namespace_(name);
        const std::vector<const UInt32*> v(ops);
        return UInt32::addmany(meq2, v);
      };
      // Then one mixing a repeating word, a negated one and the xor of a
      // constant in one constraint.
      (void)add2({&w_own, &s2}, "mixed 1");
      (void)add2({&w_rep, &w_rep, &w_own}, "mixed 2");
      (void)add2({&x, &w_neg, &w_own}, "mixed 3");
      meq2.finish();
    }
    {
      // x + Not(x) bit by bit: every variable's coefficient cancels (not dense in A from here).
      std::array<Boolean, 32> fresh, nots;  // new free bits: none dense yet
      for (std::size_t i = 0; i < 32; ++i) {
        const bool v = (pattern >> (31 - i)) & 1;
        const AllocatedBit b(cs.alloc([&] { return "fresh " + std::to_string(i); }, [&] { return bool_to_fr(v); }), v);
        fresh[i] = Boolean::is(b);
        nots[i] = Boolean::not_of(b);
      }
      UInt32 w_fresh = UInt32::from_bits(fresh), w_not = UInt32::from_bits(nots);
      EXPECT_EQ(w_fresh.check(cs), checks);
      EXPECT_TRUE(w_not.distinct_vars());
      EXPECT_EQ(w_not.check(cs), checks);
      auto third = cs.namespace_("third multieq");
      MultiEq meq3(cs);
      const std::vector<const UInt32*> ops = {&w_fresh, &w_not};
      const UInt32 all_ones = UInt32::addmany(meq3, ops);
      meq3.finish();
      EXPECT_EQ(all_ones.value(), 0xffffffffu);
    }
    EXPECT_EQ(s2.value(), 2 * w_own.value() + w_own.value() + k.value());
  });
}
