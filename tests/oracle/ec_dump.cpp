// ec_dump SEED — prints JSON of random G1/G2 inputs and proofline's results, for ec_check.mjs to
// recompute with @noble/curves. Everything is derived from SEED (default 1) with mt19937_64.
//
// Per curve ("g1", "g2"):
//   mul:    {k, comp, uncomp}        [k]G (k canonical big-endian hex; edge k = 0, 1, 2, r−1, r−2)
//   pmul:   {p, k, comp}             [k]P for P a random subgroup point (compressed)
//   add:    {a, b, sum}              a + b, including a + a, a + (−a), a + O
//   nonsub: {x, y, k, kx, ky}        P on the curve outside the subgroup (coordinates as in the
//                                    uncompressed encoding, hex), [k]P via the plain integer path
//   decode: {hex, checked, unchecked, decoded}
//                                    proofline's verdict (Error name) with Check::Subgroup and
//                                    Check::OnCurveOnly, and the decoded point re-encoded
//                                    uncompressed when the unchecked decode succeeded
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"

using namespace proofline;
using namespace proofline::ec;
using ff::Fr;

namespace {

const char* error_name(Error e) {
  switch (e) {
    case Error::Ok: return "Ok";
    case Error::BadLength: return "BadLength";
    case Error::NotCanonical: return "NotCanonical";
    case Error::InfinityNotZero: return "InfinityNotZero";
    case Error::SignFlagUncompressed: return "SignFlagUncompressed";
    case Error::CompressionMismatch: return "CompressionMismatch";
    case Error::NotOnCurve: return "NotOnCurve";
    case Error::NotInSubgroup: return "NotInSubgroup";
    case Error::UnexpectedInfinity: return "UnexpectedInfinity";
  }
  return "?";
}

template <class Bytes>
std::string hex(const Bytes& b) {
  static constexpr char d[] = "0123456789abcdef";
  std::string s;
  for (uint8_t v : b) s += {d[v >> 4], d[v & 15]};
  return s;
}
std::string fr_hex(const Fr& k) { return k.to_hex().substr(2); }

/// Collects `"key": value` pairs into one JSON object line.
struct Obj {
  std::string s = "{";
  Obj& str(const char* k, const std::string& v) {
    if (s.size() > 1) s += ", ";
    s += std::string("\"") + k + "\": \"" + v + "\"";
    return *this;
  }
  std::string done() { return s + "}"; }
};

void print_list(const char* name, const std::vector<std::string>& items, bool last) {
  std::printf("    \"%s\": [\n", name);
  for (std::size_t i = 0; i < items.size(); ++i)
    std::printf("      %s%s\n", items[i].c_str(), i + 1 < items.size() ? "," : "");
  std::printf("    ]%s\n", last ? "" : ",");
}

template <class Cfg>
void dump_curve(const char* name, std::mt19937_64& rng, bool last) {
  using Affine = AffinePoint<Cfg>;
  using Proj = JacobianPoint<Cfg>;
  using Field = typename Cfg::Field;
  constexpr std::size_t kC = Affine::kCompressedBytes, kU = Affine::kUncompressedBytes;
  const Fr r_minus_1 = -Fr::one();
  auto rand_sub = [&] { return Proj::generator().mul(Fr::random(rng)); };
  auto rand_nonsub = [&] {
    for (;;) {
      Affine p;
      if (Affine::lift_x(p, Field::random(rng), rng() & 1)) return p;
    }
  };

  // [k]G
  std::vector<std::string> mul;
  std::vector<Fr> ks = {Fr::zero(), Fr::one(), Fr::from_u64(2), r_minus_1, r_minus_1 - Fr::one(),
                        Fr::from_u64(rng()),
                        Fr::from_canonical_unchecked({rng(), rng(), 0, 0})};  // a 128-bit k
  for (int i = 0; i < 8; ++i) ks.push_back(Fr::random(rng));
  for (const Fr& k : ks) {
    const Affine p = Proj::generator().mul(k).to_affine();
    mul.push_back(Obj().str("k", fr_hex(k)).str("comp", hex(p.to_compressed())).str("uncomp", hex(p.to_uncompressed())).done());
  }
  // [k]P
  std::vector<std::string> pmul;
  for (int i = 0; i < 4; ++i) {
    const Affine p = rand_sub().to_affine();
    const Fr k = Fr::random(rng);
    pmul.push_back(Obj().str("p", hex(p.to_compressed())).str("k", fr_hex(k)).str("comp", hex(p.mul(k).to_affine().to_compressed())).done());
  }
  // a + b
  std::vector<std::string> add;
  for (int i = 0; i < 6; ++i) {
    const Proj a = rand_sub();
    Proj b = rand_sub();
    if (i == 1) b = a;
    if (i == 2) b = -a;
    if (i == 3) b = Proj::identity();
    const Affine aa = a.to_affine(), ba = b.to_affine();
    const Affine sum = (i % 2 ? a + ba : a + b).to_affine();
    add.push_back(Obj().str("a", hex(aa.to_compressed())).str("b", hex(ba.to_compressed())).str("sum", hex(sum.to_compressed())).done());
  }
  // Points outside the subgroup, [k]P by the plain path.
  std::vector<std::string> nonsub;
  std::vector<std::vector<uint8_t>> decode_inputs;
  for (int i = 0; i < 3; ++i) {
    const Affine p = rand_nonsub();
    const Fr k = Fr::random(rng);
    const Affine kp = p.to_projective().mul_limbs(k.to_canonical()).to_affine();
    const auto pu = p.to_uncompressed();
    const auto ku = kp.to_uncompressed();
    nonsub.push_back(Obj()
                         .str("x", hex(std::span(pu).template first<kC>()))
                         .str("y", hex(std::span(pu).template last<kC>()))
                         .str("k", fr_hex(k))
                         .str("kx", hex(std::span(ku).template first<kC>()))
                         .str("ky", hex(std::span(ku).template last<kC>()))
                         .done());
    const auto pc = p.to_compressed();
    decode_inputs.emplace_back(pc.begin(), pc.end());
    decode_inputs.emplace_back(pu.begin(), pu.end());
  }

  // Decode verdicts: valid encodings, then each kind of damage, then random flag/byte patterns.
  const Affine v = rand_sub().to_affine();
  const auto vc = v.to_compressed();
  const auto vu = v.to_uncompressed();
  auto push = [&](std::vector<uint8_t> b) { decode_inputs.push_back(std::move(b)); };
  auto vcv = [&] { return std::vector<uint8_t>(vc.begin(), vc.end()); };
  auto vuv = [&] { return std::vector<uint8_t>(vu.begin(), vu.end()); };
  push(vcv());
  push(vuv());
  { auto b = std::vector<uint8_t>(kC, 0); b[0] = 0xC0; push(b); }
  { auto b = std::vector<uint8_t>(kU, 0); b[0] = 0x40; push(b); }
  { auto b = vcv(); b[0] &= 0x7F; push(b); }                      // C clear
  { auto b = vuv(); b[0] |= 0x80; push(b); }                      // C set, uncompressed
  { auto b = vuv(); b[0] |= 0x20; push(b); }                      // S on uncompressed
  { auto b = std::vector<uint8_t>(kC, 0); b[0] = 0xE0; push(b); } // infinity + S
  { auto b = std::vector<uint8_t>(kC, 0); b[0] = 0xC0; b[kC - 1] = 1; push(b); }
  { auto b = std::vector<uint8_t>(kU, 0); b[0] = 0x40; b[kU / 2] = 1; push(b); }
  { auto b = vcv(); b[0] |= 0x40; push(b); }                      // infinity over x
  { auto b = std::vector<uint8_t>(kC, 0xFF); b[0] = 0x9F; push(b); }  // x ≥ p
  { auto b = vuv(); b[kC] |= 0x1F; push(b); }                     // y's first Fp ≥ p (likely)
  { auto b = vuv(); b[kU - 1] ^= 1; push(b); }                    // y changed: off the curve
  { auto b = std::vector<uint8_t>(kU, 0); push(b); }              // all zero, no infinity flag
  { auto b = std::vector<uint8_t>(kC, 0); b[0] = 0x80; push(b); } // x = 0
  { auto b = std::vector<uint8_t>(kC, 0); b[0] = 0xA0; push(b); } // x = 0, S
  // Random x < p with random flags (mostly off the curve or outside the subgroup).
  for (int i = 0; i < 12; ++i) {
    Affine a{Field::random(rng), Field::random(rng), false};
    const auto u = a.to_uncompressed();
    std::vector<uint8_t> b(u.begin(), u.begin() + ((i & 1) ? kU : kC));
    b[0] |= static_cast<uint8_t>(rng() & 0xE0);
    push(b);
  }
  std::vector<std::string> decode;
  for (const auto& b : decode_inputs) {
    Affine p;
    const Error checked = Affine::from_bytes(p, b, Check::Subgroup);
    const Error unchecked = Affine::from_bytes(p, b, Check::OnCurveOnly);
    Obj o;
    o.str("hex", hex(b)).str("checked", error_name(checked)).str("unchecked", error_name(unchecked));
    if (unchecked == Error::Ok) o.str("decoded", hex(p.to_uncompressed()));
    decode.push_back(o.done());
  }

  std::printf("  \"%s\": {\n", name);
  print_list("mul", mul, false);
  print_list("pmul", pmul, false);
  print_list("add", add, false);
  print_list("nonsub", nonsub, false);
  print_list("decode", decode, true);
  std::printf("  }%s\n", last ? "" : ",");
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned long seed = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1;
  std::mt19937_64 rng(seed);
  std::printf("{\n  \"seed\": %lu,\n", seed);
  dump_curve<G1Config>("g1", rng, false);
  dump_curve<G2Config>("g2", rng, true);
  std::printf("}\n");
  return 0;
}
