// tests/gpu_host/mont_mul_test.cpp — the device field arithmetic without a device, in two halves:
//  1. the algorithm: mont_mul / mod_add / mod_sub (src/gpu/mont_mul.cuh, the templates DevField runs)
//     with the portable HostChains equal ff::Fr's and ff::Fp's product, sum and difference on edge
//     values (0, 1, R mod m, m − 1, m − 2, (m − 1)/2, every limb 0xffffffff below the top one, powers
//     of two) and random ones; mont_sqr equals mont_mul(a, a) and ff's square on those, the Montgomery
//     forms of 0..999 and thousands of random values, and a planted bug in it (one off-diagonal
//     product not doubled) is caught;
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

/// HostChains with a planted bug for the negative control of mont_sqr: of a squaring's four row_k<1>
/// (rows N − 4 into Y, N − 3 into X and into Y, N − 2 into X), the fourth (a_{N−2}·a_{N−1} into X at
/// word 2N − 3) is postponed to after dbl_wide, so that one off-diagonal product is counted once
/// instead of twice.
template <int N>
struct UndoubledProductChains : g::HostChains<N> {
  using Base = g::HostChains<N>;
  static inline int row1_calls = 0;
  static inline std::uint32_t* postponed_at = nullptr;
  static inline std::uint32_t postponed_x = 0, postponed_w = 0;
  template <int K>
  static void row_k(std::uint32_t* acc, const std::uint32_t* x, std::uint32_t w) {
    if constexpr (K == 1) {
      if (row1_calls++ % 4 == 3) {
        postponed_at = acc;
        postponed_x = x[0];
        postponed_w = w;
        return;
      }
    }
    Base::template row_k<K>(acc, x, w);
  }
  static void add_squares(std::uint32_t* acc, const std::uint32_t* x) {
    Base::add_squares(acc, x);
    Base::template row_k<1>(postponed_at, &postponed_x, postponed_w);
  }
};

/// The values mont_sqr is checked on: edge_values, the Montgomery forms of 0..999, 4000 random ones.
template <class F>
std::vector<F> square_values(std::uint64_t seed) {
  std::vector<F> vals = edge_values<F>();
  for (std::uint64_t k = 0; k < 1000; ++k) vals.push_back(F::from_u64(k));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 4000; ++i) vals.push_back(F::random(rng));
  return vals;
}

template <class F, class P>
void check_square(std::uint64_t seed) {
  constexpr int N = P::N;
  using Ch = g::HostChains<N>;
  std::array<std::uint32_t, N> da, sq, mul;
  int checked = 0;
  for (const F& a : square_values<F>(seed)) {
    std::memcpy(da.data(), a.limbs.data(), sizeof(da));
    g::mont_sqr<P, Ch>(sq.data(), da.data());
    g::mont_mul<P, Ch>(mul.data(), da.data(), da.data());
    ASSERT_EQ(sq, mul) << "mont_sqr vs mont_mul " << a.to_hex();
    F got;
    std::memcpy(got.limbs.data(), sq.data(), sizeof(sq));
    ASSERT_EQ(got, a.square()) << "mont_sqr vs square " << a.to_hex();
    ASSERT_EQ(got, a * a) << "mont_sqr vs a·a " << a.to_hex();
    ++checked;
  }
  EXPECT_GT(checked, 5000);
  // aliasing: x = x², as DevField::sqr's callers do
  std::mt19937_64 rng(seed + 1);
  F want = F::random(rng);
  std::memcpy(da.data(), want.limbs.data(), sizeof(da));
  for (int i = 0; i < 100; ++i) {
    g::mont_sqr<P, Ch>(da.data(), da.data());
    want = want.square();
  }
  F got;
  std::memcpy(got.limbs.data(), da.data(), sizeof(da));
  EXPECT_EQ(got, want);
}

TEST(DeviceFieldAlgorithm, FrSquareMatchesHost) { check_square<Fr, g::FrParams32>(5); }
TEST(DeviceFieldAlgorithm, FpSquareMatchesHost) { check_square<Fp, g::FpParams32>(6); }

template <class F, class P>
int undoubled_mismatches() {
  constexpr int N = P::N;
  std::array<std::uint32_t, N> da, sq;
  int bad = 0;
  for (const F& a : square_values<F>(7)) {
    std::memcpy(da.data(), a.limbs.data(), sizeof(da));
    g::mont_sqr<P, UndoubledProductChains<N>>(sq.data(), da.data());
    F got;
    std::memcpy(got.limbs.data(), sq.data(), sizeof(sq));
    bad += got != a.square();
  }
  return bad;
}

TEST(DeviceFieldAlgorithm, SquareCheckCatchesAnUndoubledProduct) {
  // negative control: with a_{N−2}·a_{N−1} counted once, every value with both limbs nonzero is wrong
  EXPECT_GT((undoubled_mismatches<Fr, g::FrParams32>()), 3000);
  EXPECT_GT((undoubled_mismatches<Fp, g::FpParams32>()), 3000);
}

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

/// mont_sqr's chains of DevChains<N> (`fn`, and `k` for row_k<k>) against HostChains<N>: every operand
/// of the asm statement ("acc[i]", "r[i]", "x[i]", "y[i]", "w") after one run on random words (round 0:
/// all ones), each operand array backed by 3N words.
template <int N>
void check_sqr_chain(const std::string& src, const std::string& fn, int k, std::uint64_t seed) {
  using Ch = g::HostChains<N>;
  const AsmChain c = find_chain(src, fn == "row_k" ? k : N, fn);
  ASSERT_FALSE(c.instrs.empty()) << "DevChains<" << N << ">::" << fn << " " << k << " not found in ff.cuh";
  // what was parsed: 2K multiply-adds + the carry word, 3K + 2 operands (row_k); 2N adds and 4N
  // operands (add_wide), 2N adds and 2N operands (dbl_wide), 2N multiply-adds and 3N operands (add_squares)
  const std::map<std::string, std::pair<std::size_t, std::size_t>> shape = {
      {"row_k", {2 * k + 1, 3 * k + 2}}, {"add_wide", {2 * N, 4 * N}},
      {"dbl_wide", {2 * N, 2 * N}}, {"add_squares", {2 * N, 3 * N}}};
  ASSERT_EQ(c.instrs.size(), shape.at(fn).first) << fn << " " << k;
  ASSERT_EQ(c.operands.size(), shape.at(fn).second) << fn << " " << k;
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 200; ++round) {
    std::map<std::string, std::vector<std::uint32_t>> arr;
    for (const char* name : {"acc", "r", "x", "y"}) {
      auto& v = arr[name];
      v.resize(3 * N);
      for (auto& w : v) w = round == 0 ? 0xffffffffu : std::uint32_t(rng());
    }
    const std::uint32_t w = round == 0 ? 0xffffffffu : std::uint32_t(rng());
    std::map<std::string, std::uint32_t> env = {{"w", w}};
    auto split = [](const std::string& op) {
      const auto b = op.find('[');
      return std::pair{op.substr(0, b), b == std::string::npos ? -1 : std::stoi(op.substr(b + 1))};
    };
    for (const auto& op : c.operands) {
      const auto [name, i] = split(op);
      if (i >= 0) env[op] = arr.at(name).at(i);
    }
    std::string why;
    ASSERT_TRUE(run_chain(c, env, why)) << fn << ": " << why;
    if (fn == "row_k") {
      if (k == 1) Ch::template row_k<1>(arr["acc"].data(), arr["x"].data(), w);
      if (k == 2) Ch::template row_k<2>(arr["acc"].data(), arr["x"].data(), w);
      if (k == 3) Ch::template row_k<3>(arr["acc"].data(), arr["x"].data(), w);
      if (k == 4) Ch::template row_k<4>(arr["acc"].data(), arr["x"].data(), w);
      if (k == 5) Ch::template row_k<5>(arr["acc"].data(), arr["x"].data(), w);
    }
    if (fn == "add_wide") Ch::add_wide(arr["r"].data(), arr["y"].data());
    if (fn == "dbl_wide") Ch::dbl_wide(arr["r"].data());
    if (fn == "add_squares") Ch::add_squares(arr["acc"].data(), arr["x"].data());
    for (const auto& op : c.operands) {
      const auto [name, i] = split(op);
      const std::uint32_t want = i >= 0 ? arr.at(name).at(i) : w;
      ASSERT_EQ(env.at(op), want) << "DevChains<" << N << ">::" << fn << " " << k << " " << op << " round " << round;
    }
  }
}

TEST(DeviceFieldPtx, SquareChainsMatchHostChains) {
  const std::string src = read_ff_cuh();
  ASSERT_FALSE(src.empty()) << "cannot read src/gpu/ff.cuh next to " << __FILE__;
  for (int k = 1; k <= 5; ++k) check_sqr_chain<12>(src, "row_k", k, 10 + k);  // N = 8 uses k <= 3 of the same text
  for (const std::string fn : {"add_wide", "dbl_wide", "add_squares"}) {
    check_sqr_chain<8>(src, fn, 0, 20);
    check_sqr_chain<12>(src, fn, 0, 21);
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
