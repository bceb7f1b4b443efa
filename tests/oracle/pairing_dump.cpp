// Oracle dump for the pairing area (checked by pairing_check.mjs against @noble/curves).
//
// Usage: oracle_pairing_dump [seed]   (seed: decimal, default 1). Prints one JSON object:
//   "pairings":  [{a, b, value}]: value = e(a·G1, b·G2); the first entry has a = b = 1.
//   "multi":     {pairs: [{a, b}], value}: final_exponentiation(multi_miller_loop(a_i·G1, b_i·G2)).
//   "final_exp": [{x, value}]: value = final_exponentiation(x) for random x in Fp12.
//   "fp12":      [{x, y, mul, square, inverse, conjugate, frobenius: [k = 1..11], line, mul_by_014}]
//                where line = [d0, d1, d4] (Fp2 values) and mul_by_014 = x · (d0 + d1 v + d4 v w).
//   "cyclotomic":[{x, square, cyclotomic_square, pow_x}]: x = easy part of a random element,
//                pow_x = x^z for the (negative) BLS parameter z.
//   "fp6":       [{x, y, mul, square, inverse, mul_by_nonresidue, frobenius: [k = 1..5]}].
// Scalars a, b are canonical integers in [1, r) as "0x…" hex. Field values are arrays of canonical
// Fp coefficients, "0x…" hex (96 digits), in tower order:
//   Fp2:  [c0, c1]                          (c0 + c1·u)
//   Fp6:  [c0.c0, c0.c1, c1.c0, c1.c1, c2.c0, c2.c1]
//   Fp12: [c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1,
//          c1.c0.c0, c1.c0.c1, c1.c1.c0, c1.c1.c1, c1.c2.c0, c1.c2.c1]
// (noble: Fp12 {c0, c1} of Fp6 {c0, c1, c2} of Fp2 {c0, c1}, the same order).
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "proofline/pairing/pairing.hpp"

namespace {

using namespace proofline;
using ec::G1Affine;
using ec::G2Affine;
using ff::Fp12;
using ff::Fp2;
using ff::Fp6;
using ff::Fr;

std::string q(const std::string& s) { return "\"" + s + "\""; }

std::string js(const Fp2& a) { return q(a.c0.to_hex()) + "," + q(a.c1.to_hex()); }
std::string js(const Fp6& a) { return js(a.c0) + "," + js(a.c1) + "," + js(a.c2); }
std::string arr(const Fp2& a) { return "[" + js(a) + "]"; }
std::string arr(const Fp6& a) { return "[" + js(a) + "]"; }
std::string arr(const Fp12& a) { return "[" + js(a.c0) + "," + js(a.c1) + "]"; }
std::string hex(const Fr& a) { return q(a.to_hex()); }

Fr nonzero_scalar(std::mt19937_64& rng) {
  for (;;) {
    Fr a = Fr::random(rng);
    if (!a.is_zero()) return a;
  }
}

Fp12 easy_part(const Fp12& f) {
  const Fp12 t = f.conjugate() * f.inverse();
  return t.frobenius_map(2) * t;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned long seed = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1;
  std::mt19937_64 rng(seed);
  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  std::string out = "{\"seed\":" + std::to_string(seed);

  out += ",\"pairings\":[";
  for (int i = 0; i < 4; ++i) {
    const Fr a = i == 0 ? Fr::one() : nonzero_scalar(rng);
    const Fr b = i == 0 ? Fr::one() : nonzero_scalar(rng);
    const Fp12 e = pairing::pairing(g1.mul(a).to_affine(), g2.mul(b).to_affine());
    out += std::string(i ? "," : "") + "{\"a\":" + hex(a) + ",\"b\":" + hex(b) + ",\"value\":" + arr(e) + "}";
  }
  out += "]";

  {
    std::vector<std::pair<G1Affine, G2Affine>> pairs;
    out += ",\"multi\":{\"pairs\":[";
    for (int i = 0; i < 3; ++i) {
      const Fr a = nonzero_scalar(rng), b = nonzero_scalar(rng);
      pairs.emplace_back(g1.mul(a).to_affine(), g2.mul(b).to_affine());
      out += std::string(i ? "," : "") + "{\"a\":" + hex(a) + ",\"b\":" + hex(b) + "}";
    }
    const Fp12 v = pairing::final_exponentiation(pairing::multi_miller_loop(pairs));
    out += "],\"value\":" + arr(v) + "}";
  }

  out += ",\"final_exp\":[";
  for (int i = 0; i < 2; ++i) {
    const Fp12 x = Fp12::random(rng);
    out += std::string(i ? "," : "") + "{\"x\":" + arr(x) +
           ",\"value\":" + arr(pairing::final_exponentiation(x)) + "}";
  }
  out += "]";

  out += ",\"fp12\":[";
  for (int i = 0; i < 3; ++i) {
    const Fp12 x = Fp12::random(rng), y = Fp12::random(rng);
    const Fp2 d0 = Fp2::random(rng), d1 = Fp2::random(rng), d4 = Fp2::random(rng);
    out += std::string(i ? "," : "") + "{\"x\":" + arr(x) + ",\"y\":" + arr(y) + ",\"mul\":" + arr(x * y) +
           ",\"square\":" + arr(x.square()) + ",\"inverse\":" + arr(x.inverse()) +
           ",\"conjugate\":" + arr(x.conjugate()) + ",\"frobenius\":[";
    for (unsigned k = 1; k <= 11; ++k) out += std::string(k > 1 ? "," : "") + arr(x.frobenius_map(k));
    out += "],\"line\":[" + arr(d0) + "," + arr(d1) + "," + arr(d4) +
           "],\"mul_by_014\":" + arr(x.mul_by_014(d0, d1, d4)) + "}";
  }
  out += "]";

  out += ",\"cyclotomic\":[";
  for (int i = 0; i < 2; ++i) {
    const Fp12 x = easy_part(Fp12::random(rng));
    out += std::string(i ? "," : "") + "{\"x\":" + arr(x) + ",\"square\":" + arr(x.square()) +
           ",\"cyclotomic_square\":" + arr(x.cyclotomic_square()) +
           ",\"pow_x\":" + arr(x.cyclotomic_pow_x()) + "}";
  }
  out += "]";

  out += ",\"fp6\":[";
  for (int i = 0; i < 3; ++i) {
    const Fp6 x = Fp6::random(rng), y = Fp6::random(rng);
    out += std::string(i ? "," : "") + "{\"x\":" + arr(x) + ",\"y\":" + arr(y) + ",\"mul\":" + arr(x * y) +
           ",\"square\":" + arr(x.square()) + ",\"inverse\":" + arr(x.inverse()) +
           ",\"mul_by_nonresidue\":" + arr(x.mul_by_nonresidue()) + ",\"frobenius\":[";
    for (unsigned k = 1; k <= 5; ++k) out += std::string(k > 1 ? "," : "") + arr(x.frobenius_map(k));
    out += "]}";
  }
  out += "]}\n";
  std::fputs(out.c_str(), stdout);
  return 0;
}
