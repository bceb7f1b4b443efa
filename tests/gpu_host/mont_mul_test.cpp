// tests/gpu_host/mont_mul_test.cpp — the device field arithmetic without a device, in two halves:
//  1. the algorithm: mont_mul / mod_add / mod_sub (src/gpu/mont_mul.cuh, the templates DevField runs)
//     with the portable HostChains equal ff::Fr's and ff::Fp's product, sum and difference on edge
//     values (0, 1, R mod m, m − 1, m − 2, (m − 1)/2, every limb 0xffffffff below the top one, powers
//     of two) and random ones;
//  2. the PTX: every asm chain of DevChains<8> and DevChains<12> (src/gpu/ff.cuh), read from the
//     source and run by a small interpreter of the instructions it uses (mad/madc lo/hi, add/addc,
//     sub/subc with the carry flag), equals HostChains step for step on random and all-ones
//     operands; so the device computes what part 1 tested, provided nvcc/ptxas honour PTX semantics.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/field_params.cuh"
#include "gpu/mont_mul.cuh"
#include "proofline/ff/fp.hpp"
#include "proofline/ff/fr.hpp"

namespace {

namespace g = proofline::gpu;
using proofline::ff::Fp;
using proofline::ff::Fr;

// ---- 1. the algorithm ------------------------------------------------------------------------

template <class F>
std::vector<F> edge_values() {
  constexpr std::size_t L = F::kLimbs;
  std::vector<F> out = {F::zero(), F::one(), F::from_u64(1), F::from_u64(2)};
  auto from_limbs = [](std::array<std::uint64_t, L> limbs) {
    F f;
    f.limbs = limbs;
    return f;
  };
  auto m = F::kModulus;
  auto m1 = m;
  m1[0] -= 1;  // m − 1 (m is odd)
  out.push_back(from_limbs(m1));
  auto m2 = m;
  m2[0] -= 2;
  out.push_back(from_limbs(m2));
  auto half = m1;  // (m − 1)/2
  for (std::size_t i = 0; i < L; ++i) half[i] = (half[i] >> 1) | (i + 1 < L ? half[i + 1] << 63 : 0);
  out.push_back(from_limbs(half));
  std::array<std::uint64_t, L> ones{};  // all ones below a top limb one less than m's
  for (auto& x : ones) x = ~std::uint64_t{0};
  ones[L - 1] = m[L - 1] - 1;
  out.push_back(from_limbs(ones));
  for (unsigned k : {0u, 31u, 32u, 63u, 64u, 100u, 200u}) {  // raw powers of two below m
    std::array<std::uint64_t, L> p{};
    p[k / 64] = std::uint64_t{1} << (k % 64);
    out.push_back(from_limbs(p));
  }
  return out;
}

template <class F, class P>
void check_field(std::uint64_t seed) {
  constexpr int N = P::N;
  static_assert(sizeof(F) == 4 * N);
  using Ch = g::HostChains<N>;
  auto dev = [](const F& f) {
    std::array<std::uint32_t, N> v;
    std::memcpy(v.data(), f.limbs.data(), sizeof(v));
    return v;
  };
  auto host = [](const std::array<std::uint32_t, N>& v) {
    F f;
    std::memcpy(f.limbs.data(), v.data(), sizeof(v));
    return f;
  };
  std::vector<F> vals = edge_values<F>();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 64; ++i) vals.push_back(F::random(rng));
  std::array<std::uint32_t, N> r;
  for (const F& a : vals) {
    for (const F& b : vals) {
      const auto da = dev(a), db = dev(b);
      g::mont_mul<P, Ch>(r.data(), da.data(), db.data());
      ASSERT_EQ(host(r), a * b) << "mul " << a.to_hex() << " " << b.to_hex();
      g::mod_add<P, Ch>(r.data(), da.data(), db.data());
      ASSERT_EQ(host(r), a + b) << "add " << a.to_hex() << " " << b.to_hex();
      g::mod_sub<P, Ch>(r.data(), da.data(), db.data());
      ASSERT_EQ(host(r), a - b) << "sub " << a.to_hex() << " " << b.to_hex();
    }
  }
  // aliasing: r = a·r, as operator*= does
  auto x = dev(vals.back());
  F want = vals.back();
  for (int i = 0; i < 100; ++i) {
    g::mont_mul<P, Ch>(x.data(), x.data(), x.data());
    want = want * want;
  }
  EXPECT_EQ(host(x), want);
}

TEST(DeviceFieldAlgorithm, FrMatchesHost) { check_field<Fr, g::FrParams32>(1); }
TEST(DeviceFieldAlgorithm, FpMatchesHost) { check_field<Fp, g::FpParams32>(2); }

// ---- 2. the PTX chains -----------------------------------------------------------------------

/// One asm statement of ff.cuh: its instructions and its operands in order (%0, %1, …), each an
/// array element "name[i]" or a scalar "name".
struct AsmChain {
  std::vector<std::string> instrs;
  std::vector<std::string> operands;
};

/// src/gpu/ff.cuh of the tree this test was built from: __FILE__ is absolute, or relative to the
/// build folder, where CMake puts the test executable.
std::string read_ff_cuh() {
  std::string here = __FILE__;
  if (here[0] != '/') {
    const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
    here = exe.substr(0, exe.rfind('/') + 1) + here;
  }
  const auto at = here.rfind("tests/gpu_host/");
  std::ifstream in(here.substr(0, at) + "src/gpu/ff.cuh");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// `text` with every PROOFLINE_* object-like macro of `src` (#define with \ continuations) expanded.
std::string expand_macros(const std::string& src, std::string text) {
  std::map<std::string, std::string> defs;
  const std::regex def(R"rx(#define (PROOFLINE_[A-Z_0-9]+)((?:[^\n]*\\\n)*[^\n]*))rx");
  for (auto it = std::sregex_iterator(src.begin(), src.end(), def); it != std::sregex_iterator(); ++it) {
    std::string body = (*it)[2];
    for (std::size_t p; (p = body.find("\\\n")) != std::string::npos;) body.replace(p, 2, " ");
    defs[(*it)[1]] = body;
  }
  const std::regex use(R"(\bPROOFLINE_[A-Z_0-9]+\b)");
  for (std::smatch m; std::regex_search(text, m, use);) {
    if (!defs.count(m.str())) break;
    text = m.prefix().str() + defs[m.str()] + m.suffix().str();
  }
  return text;
}

/// The chain that DevChains<n>::fn runs: in the body of `fn` in `struct DevChains`, the asm statement
/// whose macros end in _n, macros expanded.
AsmChain find_chain(const std::string& src, int n, const std::string& fn) {
  const auto s = src.find("struct DevChains {");
  if (s == std::string::npos) return {};
  const auto f = src.find(" " + fn + "(", s);
  if (f == std::string::npos) return {};
  const auto end = src.find("\n  }\n", f);
  const std::regex mine("PROOFLINE_[A-Z_]+_" + std::to_string(n) + "\\b");
  std::string stmt;
  for (auto a = src.find("asm(", f); a < end; a = src.find("asm(", a + 1)) {
    const auto z = src.find(");", a);
    const std::string cand = src.substr(a + 4, z - a - 4);
    if (std::regex_search(cand, mine)) {
      stmt = expand_macros(src, cand);
      break;
    }
  }
  if (stmt.empty()) return {};
  AsmChain c;
  // the template: the string literals before the first ':' outside them
  std::string text;
  std::size_t i = 0;
  for (; i < stmt.size() && stmt[i] != ':'; ++i) {
    if (stmt[i] != '"') continue;
    const auto j = stmt.find('"', i + 1);
    text += stmt.substr(i + 1, j - i - 1);
    i = j;
  }
  std::string cur;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '\\') {  // \n, \t
      ++k;
      cur += ' ';
    } else if (text[k] == ';' || text[k] == '{' || text[k] == '}') {
      if (cur.find_first_not_of(' ') != std::string::npos) c.instrs.push_back(cur);
      cur.clear();
    } else {
      cur += text[k];
    }
  }
  const std::regex op(R"rx("[+=]?r"\(\s*([A-Za-z_0-9]+(\[\d+\])?)\s*\))rx");
  const std::string ops = stmt.substr(i);
  for (auto it = std::sregex_iterator(ops.begin(), ops.end(), op); it != std::sregex_iterator(); ++it)
    c.operands.push_back((*it)[1]);
  return c;
}

/// Runs `c` on `env` (operand name → value); returns false with `why` on an unknown instruction.
bool run_chain(const AsmChain& c, std::map<std::string, std::uint32_t>& env, std::string& why) {
  std::uint32_t cc = 0;
  std::map<std::string, std::uint32_t> regs;  // .reg scratch (t)
  auto ref = [&](const std::string& tok) -> std::uint32_t& {
    if (tok[0] == '%') return env.at(c.operands.at(std::stoul(tok.substr(1))));
    return regs[tok];
  };
  auto val = [&](const std::string& tok) -> std::uint32_t {
    if (std::isdigit(static_cast<unsigned char>(tok[0]))) return std::uint32_t(std::stoul(tok, nullptr, 0));
    return ref(tok);
  };
  for (const std::string& ins : c.instrs) {
    std::istringstream is(ins);
    std::string opc;
    is >> opc;
    if (opc == ".reg") continue;
    std::vector<std::string> args;
    for (std::string a; std::getline(is, a, ',');) args.push_back(a.substr(a.find_first_not_of(' ')));
    for (auto& a : args) a = a.substr(0, a.find_last_not_of(' ') + 1);
    const bool cin = opc.rfind("madc", 0) == 0 || opc.rfind("addc", 0) == 0 || opc.rfind("subc", 0) == 0;
    const bool cout = opc.find(".cc") != std::string::npos;
    const std::uint32_t in = cin ? cc : 0;
    std::uint64_t res;
    if (opc.rfind("mad", 0) == 0 && args.size() == 4) {
      const std::uint64_t p = std::uint64_t(val(args[1])) * val(args[2]);
      const bool hi = opc.find(".hi") != std::string::npos;
      res = (hi ? p >> 32 : p & 0xffffffffu) + val(args[3]) + in;
    } else if (opc.rfind("add", 0) == 0 && args.size() == 3) {
      res = std::uint64_t(val(args[1])) + val(args[2]) + in;
    } else if (opc.rfind("sub", 0) == 0 && args.size() == 3) {
      res = std::uint64_t(val(args[1])) - val(args[2]) - in;  // bit 32 set ⇔ borrow
    } else {
      why = "unknown instruction '" + ins + "'";
      return false;
    }
    if (opc.find(".u32") == std::string::npos) {
      why = "not a .u32 instruction: '" + ins + "'";
      return false;
    }
    ref(args[0]) = std::uint32_t(res);
    if (cout) cc = std::uint32_t(res >> 32) & 1;
  }
  return true;
}

template <int N>
void check_chains(const std::string& src, std::uint64_t seed) {
  using Ch = g::HostChains<N>;
  std::mt19937_64 rng(seed);
  auto word = [&](int round) { return round == 0 ? 0xffffffffu : std::uint32_t(rng()); };  // round 0: all ones
  for (const std::string fn : {"row", "row_cin", "add", "sub"}) {
    const AsmChain c = find_chain(src, N, fn);
    ASSERT_FALSE(c.instrs.empty()) << "DevChains<" << N << ">::" << fn << " not found in ff.cuh";
    // what was parsed: N multiply-adds + the carry word (row; row_cin: + the .reg line and add.cc),
    // N adds (add), N subs + the mask (sub); and every operand of the asm statement
    const std::map<std::string, std::pair<std::size_t, std::size_t>> shape = {
        {"row", {N + 1, N + 1 + N / 2 + 1}}, {"row_cin", {N + 3, N + 1 + N / 2 + 3}},
        {"add", {N, 2 * N}}, {"sub", {N + 1, 2 * N + 1}}};
    ASSERT_EQ(c.instrs.size(), shape.at(fn).first) << fn;
    ASSERT_EQ(c.operands.size(), shape.at(fn).second) << fn;
    for (int round = 0; round < 200; ++round) {
      std::uint32_t acc[N + 1], x[N], w = word(round), c0 = word(round), c1 = word(round);
      for (auto& v : acc) v = word(round);
      for (auto& v : x) v = word(round);
      acc[N] = round % 3;  // the carry word holds at most 2 in mont_mul
      std::map<std::string, std::uint32_t> env = {{"w", w}, {"c0", c0}, {"c1", c1}, {"mask", 0}};
      const bool is_row = fn.rfind("row", 0) == 0;
      for (int i = 0; i <= N; ++i) env[(is_row ? "acc[" : "r[") + std::to_string(i) + "]"] = acc[i];
      for (int i = 0; i < N; ++i) env[(is_row ? "x[" : "y[") + std::to_string(i) + "]"] = x[i];
      std::string why;
      ASSERT_TRUE(run_chain(c, env, why)) << fn << ": " << why;
      std::uint32_t mask = 0;
      if (fn == "row") Ch::row(acc, x, w);
      if (fn == "row_cin") Ch::row_cin(acc, x, w, c0, c1);
      if (fn == "add") Ch::add(acc, x);
      if (fn == "sub") mask = Ch::sub(acc, x);
      const int outs = is_row ? N + 1 : N;
      for (int i = 0; i < outs; ++i) {
        ASSERT_EQ(env[(is_row ? "acc[" : "r[") + std::to_string(i) + "]"], acc[i])
            << "DevChains<" << N << ">::" << fn << " word " << i << " round " << round;
      }
      if (fn == "sub") ASSERT_EQ(env["mask"], mask) << "DevChains<" << N << ">::sub mask round " << round;
    }
  }
}

TEST(DeviceFieldPtx, ChainsMatchHostChains) {
  const std::string src = read_ff_cuh();
  ASSERT_FALSE(src.empty()) << "cannot read src/gpu/ff.cuh next to " << __FILE__;
  check_chains<8>(src, 3);
  check_chains<12>(src, 4);
}

TEST(DeviceFieldPtx, InterpreterCatchesAWrongOperand) {
  // negative control: the same chain with one operand renumbered must differ
  std::string src = read_ff_cuh();
  const auto at = src.find("madc.hi.cc.u32 %3, %10, %13, %3;");
  ASSERT_NE(at, std::string::npos);
  src.replace(at, 32, "madc.hi.cc.u32 %3, %11, %13, %3;");
  AsmChain c = find_chain(src, 8, "row");
  std::map<std::string, std::uint32_t> env = {{"w", 0x12345678}};
  std::uint32_t acc[9] = {}, x[4] = {1, 0xfffffff0, 3, 0x80000000};
  for (int i = 0; i < 9; ++i) env["acc[" + std::to_string(i) + "]"] = 0;
  for (int i = 0; i < 4; ++i) env["x[" + std::to_string(i) + "]"] = x[i];
  std::string why;
  ASSERT_TRUE(run_chain(c, env, why)) << why;
  g::HostChains<8>::row(acc, x, 0x12345678);
  bool differs = false;
  for (int i = 0; i < 9; ++i) differs |= env["acc[" + std::to_string(i) + "]"] != acc[i];
  EXPECT_TRUE(differs);
}

}  // namespace
