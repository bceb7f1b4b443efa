// SHA-256 compression and hash over Booleans, in bellperson's constraint order.
#include "proofline/gadgets/sha256.hpp"

#include <array>
#include <string>

#include "proofline/r1cs/error.hpp"

namespace proofline::gadgets {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

namespace {

constexpr std::uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t kIv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// A register that is either a word or a deferred sum (bellperson's Maybe): the additions for the
// new a and e are only performed (and constrained) when the word is next used, so that the final
// h0/h4 additions fold into the same addmany. At most 7 deferred terms (temp1 ‖ S0 ‖ maj).
struct Maybe {
  bool deferred = false;
  UInt32 concrete;
  std::array<UInt32, 7> terms;
  std::size_t n_terms = 0;

  UInt32 compute(MultiEq& meq, const UInt32* extra) const {
    if (!deferred) return concrete;
    const UInt32* ops[8];
    std::size_t n = 0;
    for (std::size_t k = 0; k < n_terms; ++k) ops[n++] = &terms[k];
    if (extra != nullptr) ops[n++] = extra;
    return UInt32::addmany(meq, std::span<const UInt32* const>(ops, n));
  }
  void defer(std::span<const UInt32> first, const UInt32& x, const UInt32* y) {
    deferred = true;
    n_terms = 0;
    for (const UInt32& t : first) terms[n_terms++] = t;
    terms[n_terms++] = x;
    if (y != nullptr) terms[n_terms++] = *y;
  }
};

UInt32 addmany2(MultiEq& meq, const UInt32& a, const UInt32& b) {
  const UInt32* ops[2] = {&a, &b};
  return UInt32::addmany(meq, ops);
}

}  // namespace

std::array<UInt32, 8> sha256_iv() {
  std::array<UInt32, 8> iv;
  for (std::size_t i = 0; i < 8; ++i) iv[i] = UInt32::constant(kIv[i]);
  return iv;
}

std::array<UInt32, 8> sha256_compression_function(ConstraintSystem& cs, std::span<const Boolean> input,
                                                  std::span<const UInt32, 8> current) {
  if (input.size() != 512) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "sha256_compression_function: got " +
                                                                std::to_string(input.size()) + " bits, expected 512");
  }
  // Prover fast path: the input words (and `current`) are checked against the assignment once, so
  // that the word gadgets take their whole-word form (UInt32::check); words made below are checked
  // as they are made. No effect on the constraints.
  std::vector<UInt32> w;
  w.reserve(64);
  for (std::size_t i = 0; i < 16; ++i) {
    w.push_back(UInt32::from_bits_be(input.subspan(32 * i, 32)));
    w.back().check(cs);
  }
  std::array<UInt32, 8> cur;
  for (std::size_t i = 0; i < 8; ++i) {
    cur[i] = current[i];
    cur[i].check(cs);
  }

  MultiEq meq(cs);

  for (std::size_t i = 16; i < 64; ++i) {
    auto ns = cs.namespace_([&] { return "w extension " + std::to_string(i); });
    // s0 = (w[i−15] ⋙ 7) ⊕ (w[i−15] ⋙ 18) ⊕ (w[i−15] ≫ 3)
    UInt32 s0 = w[i - 15].rotr(7);
    {
      auto n1 = cs.namespace_("first xor for s0");
      s0 = s0.xor_(cs, w[i - 15].rotr(18));
    }
    {
      auto n2 = cs.namespace_("second xor for s0");
      s0 = s0.xor_(cs, w[i - 15].shr(3));
    }
    // s1 = (w[i−2] ⋙ 17) ⊕ (w[i−2] ⋙ 19) ⊕ (w[i−2] ≫ 10)
    UInt32 s1 = w[i - 2].rotr(17);
    {
      auto n1 = cs.namespace_("first xor for s1");
      s1 = s1.xor_(cs, w[i - 2].rotr(19));
    }
    {
      auto n2 = cs.namespace_("second xor for s1");
      s1 = s1.xor_(cs, w[i - 2].shr(10));
    }
    // w[i] = w[i−16] + s0 + w[i−7] + s1
    auto n3 = cs.namespace_("computation of w[i]");
    const UInt32* ops[4] = {&w[i - 16], &s0, &w[i - 7], &s1};
    UInt32 tmp = UInt32::addmany(meq, ops);
    w.push_back(tmp);
  }

  Maybe a{false, cur[0], {}, 0};
  UInt32 b = cur[1], c = cur[2], d = cur[3];
  Maybe e{false, cur[4], {}, 0};
  UInt32 f = cur[5], g = cur[6], h = cur[7];

  for (std::size_t i = 0; i < 64; ++i) {
    auto ns = cs.namespace_([&] { return "compression round " + std::to_string(i); });
    UInt32 new_e;
    {
      auto n = cs.namespace_("deferred e computation");
      new_e = e.compute(meq, nullptr);
    }
    // S1 = (e ⋙ 6) ⊕ (e ⋙ 11) ⊕ (e ⋙ 25)
    UInt32 s1 = new_e.rotr(6);
    {
      auto n = cs.namespace_("first xor for s1");
      s1 = s1.xor_(cs, new_e.rotr(11));
    }
    {
      auto n = cs.namespace_("second xor for s1");
      s1 = s1.xor_(cs, new_e.rotr(25));
    }
    // ch = (e ∧ f) ⊕ (¬e ∧ g)
    UInt32 ch;
    {
      auto n = cs.namespace_("ch");
      ch = UInt32::sha256_ch(cs, new_e, f, g);
    }
    // temp1 = h + S1 + ch + k[i] + w[i]
    const std::array<UInt32, 5> temp1 = {h, s1, ch, UInt32::constant(kRoundConstants[i]), w[i]};

    UInt32 new_a;
    {
      auto n = cs.namespace_("deferred a computation");
      new_a = a.compute(meq, nullptr);
    }
    // S0 = (a ⋙ 2) ⊕ (a ⋙ 13) ⊕ (a ⋙ 22)
    UInt32 s0 = new_a.rotr(2);
    {
      auto n = cs.namespace_("first xor for s0");
      s0 = s0.xor_(cs, new_a.rotr(13));
    }
    {
      auto n = cs.namespace_("second xor for s0");
      s0 = s0.xor_(cs, new_a.rotr(22));
    }
    // maj = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c)
    UInt32 maj;
    {
      auto n = cs.namespace_("maj");
      maj = UInt32::sha256_maj(cs, new_a, b, c);
    }
    // h ← g, g ← f, f ← e, e ← d + temp1, d ← c, c ← b, b ← a, a ← temp1 + S0 + maj
    h = g;
    g = f;
    f = new_e;
    e.defer(temp1, d, nullptr);
    d = c;
    c = b;
    b = new_a;
    a.defer(temp1, s0, &maj);
  }

  std::array<UInt32, 8> out;
  {
    auto n = cs.namespace_("deferred h0 computation");
    out[0] = a.compute(meq, &cur[0]);
  }
  {
    auto n = cs.namespace_("new h1");
    out[1] = addmany2(meq, cur[1], b);
  }
  {
    auto n = cs.namespace_("new h2");
    out[2] = addmany2(meq, cur[2], c);
  }
  {
    auto n = cs.namespace_("new h3");
    out[3] = addmany2(meq, cur[3], d);
  }
  {
    auto n = cs.namespace_("deferred h4 computation");
    out[4] = e.compute(meq, &cur[4]);
  }
  {
    auto n = cs.namespace_("new h5");
    out[5] = addmany2(meq, cur[5], f);
  }
  {
    auto n = cs.namespace_("new h6");
    out[6] = addmany2(meq, cur[6], g);
  }
  {
    auto n = cs.namespace_("new h7");
    out[7] = addmany2(meq, cur[7], h);
  }
  meq.finish();  // bellperson: the MultiEq's drop at the end of the compression
  return out;
}

std::vector<Boolean> sha256_block_no_padding(ConstraintSystem& cs, std::span<const Boolean> input) {
  const auto iv = sha256_iv();
  const auto out = sha256_compression_function(cs, input, iv);
  std::vector<Boolean> bits;
  bits.reserve(256);
  for (const UInt32& word : out) word.append_bits_be(bits);
  return bits;
}

std::vector<Boolean> sha256(ConstraintSystem& cs, std::span<const Boolean> input) {
  if (input.size() % 8 != 0) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                         "sha256: " + std::to_string(input.size()) + " input bits, not a multiple of 8");
  }
  std::vector<Boolean> padded(input.begin(), input.end());
  const std::uint64_t len = input.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant((len >> i) & 1));

  std::array<UInt32, 8> cur = sha256_iv();
  for (std::size_t blk = 0; blk * 512 < padded.size(); ++blk) {
    auto ns = cs.namespace_([&] { return "block " + std::to_string(blk); });
    cur = sha256_compression_function(cs, std::span<const Boolean>(padded).subspan(512 * blk, 512), cur);
  }
  std::vector<Boolean> bits;
  bits.reserve(256);
  for (const UInt32& word : cur) word.append_bits_be(bits);
  return bits;
}

}  // namespace proofline::gadgets
