// LinearCombination, Variable, DensityTracker, Name/FunctionRef.
//
// Expected values are written out from the algebra (coefficients as small integers, "−k" as
// -F(k)); the randomized test compares against a dense model (one coefficient per index, updated
// by plain field arithmetic) that shares nothing with the sparse implementation.
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "proofline/r1cs/r1cs.hpp"

namespace proofline::ff {
void PrintTo(const Fr& f, std::ostream* os) { *os << f.to_hex(); }
}  // namespace proofline::ff

namespace {

using namespace proofline::r1cs;
using proofline::ff::Fr;

Fr F(std::uint64_t v) { return Fr::from_u64(v); }

std::vector<Term> T(std::initializer_list<std::pair<std::uint64_t, Fr>> l) {
  std::vector<Term> v;
  for (auto& [i, c] : l) v.push_back(Term{i, c});
  return v;
}
std::vector<Term> V(std::span<const Term> s) { return {s.begin(), s.end()}; }

TEST(Variable, KindIndexAndOrder) {
  Variable i3 = Variable::input(3), a3 = Variable::aux(3), a0 = Variable::aux(0);
  EXPECT_TRUE(i3.is_input());
  EXPECT_FALSE(i3.is_aux());
  EXPECT_TRUE(a3.is_aux());
  EXPECT_EQ(i3.index(), 3u);
  EXPECT_EQ(a3.index(), 3u);
  EXPECT_NE(i3, a3);
  EXPECT_LT(i3, a0);  // inputs order before aux
  EXPECT_LT(a0, a3);
  EXPECT_EQ(Variable(), Variable::input(0));
  EXPECT_EQ(ConstraintSystem::one(), Variable::input(0));
  EXPECT_EQ(Variable::from_raw(a3.raw()), a3);
  Variable big = Variable::aux(Variable::kMaxIndex);
  EXPECT_EQ(big.index(), Variable::kMaxIndex);
  EXPECT_TRUE(big.is_aux());
}

TEST(LinearCombination, EmptyIsZero) {
  LinearCombination lc;
  EXPECT_TRUE(lc.empty());
  EXPECT_EQ(lc.size(), 0u);
  EXPECT_EQ(lc.evaluate({}, {}), Fr::zero());
}

TEST(LinearCombination, SameIndexAddsInPlace) {
  LinearCombination lc;
  lc.add(Variable::aux(0), F(2)).add(Variable::aux(0), F(3));
  EXPECT_EQ(V(lc.aux()), T({{0, F(5)}}));
  lc.add(Variable::input(1)).add(Variable::input(1)).add(Variable::input(1));
  EXPECT_EQ(V(lc.inputs()), T({{1, F(3)}}));
  EXPECT_EQ(lc.size(), 2u);
}

TEST(LinearCombination, ZeroSumTermIsKept) {
  LinearCombination lc;
  lc.add(Variable::aux(4)).add(Variable::aux(7), F(9)).sub(Variable::aux(4));
  // aux 4: 1 − 1 = 0 stays as a term (bellpepper semantics).
  EXPECT_EQ(V(lc.aux()), T({{4, Fr::zero()}, {7, F(9)}}));
  EXPECT_EQ(lc.size(), 2u);
  EXPECT_EQ(lc.coeff_of(Variable::aux(4)), Fr::zero());
  // Evaluation skips it: 9 · aux[7].
  std::vector<Fr> aux(8, F(100));
  aux[7] = F(2);
  EXPECT_EQ(lc.evaluate({}, aux), F(18));
  // Differs from an LC without the term.
  EXPECT_NE(lc, LinearCombination(Variable::aux(7), F(9)));
}

TEST(LinearCombination, OutOfOrderInsertsStaySorted) {
  LinearCombination lc;
  for (std::uint64_t i : {5, 1, 3, 9, 0, 3, 9, 2}) lc.add(Variable::aux(i));
  for (std::uint64_t i : {2, 0, 1}) lc.add(Variable::input(i), F(10 + i));
  EXPECT_EQ(V(lc.aux()), T({{0, F(1)}, {1, F(1)}, {2, F(1)}, {3, F(2)}, {5, F(1)}, {9, F(2)}}));
  EXPECT_EQ(V(lc.inputs()), T({{0, F(10)}, {1, F(11)}, {2, F(12)}}));
}

TEST(LinearCombination, SubtractNegates) {
  LinearCombination lc;
  lc.sub(Variable::aux(2), F(3)).sub(Variable::input(0));
  EXPECT_EQ(V(lc.aux()), T({{2, -F(3)}}));
  EXPECT_EQ(V(lc.inputs()), T({{0, -F(1)}}));
}

TEST(LinearCombination, ScaledAddAndSub) {
  // l1 = 2·a0 + 3·a2,  l2 = 5·a1 + 7·a2 + 1·i0
  LinearCombination l1, l2;
  l1.add(Variable::aux(0), F(2)).add(Variable::aux(2), F(3));
  l2.add(Variable::aux(1), F(5)).add(Variable::aux(2), F(7)).add(Variable::input(0));

  LinearCombination s = l1;
  s.add(l2, F(10));  // 2·a0 + 50·a1 + 73·a2 + 10·i0
  EXPECT_EQ(V(s.aux()), T({{0, F(2)}, {1, F(50)}, {2, F(73)}}));
  EXPECT_EQ(V(s.inputs()), T({{0, F(10)}}));

  LinearCombination d = l1;
  d.sub(l2, F(10));  // 2·a0 − 50·a1 − 67·a2 − 10·i0
  EXPECT_EQ(V(d.aux()), T({{0, F(2)}, {1, -F(50)}, {2, -F(67)}}));
  EXPECT_EQ(V(d.inputs()), T({{0, -F(10)}}));

  LinearCombination u = l1;
  u.add(l2);  // 2·a0 + 5·a1 + 10·a2 + i0
  EXPECT_EQ(V(u.aux()), T({{0, F(2)}, {1, F(5)}, {2, F(10)}}));
  u.sub(l2);  // back to l1 plus zero terms for a1 and i0
  EXPECT_EQ(V(u.aux()), T({{0, F(2)}, {1, Fr::zero()}, {2, F(3)}}));
  EXPECT_EQ(V(u.inputs()), T({{0, Fr::zero()}}));
}

TEST(LinearCombination, MergeShapes) {
  auto aux_lc = [](std::initializer_list<std::uint64_t> idx) {
    LinearCombination lc;
    for (auto i : idx) lc.add(Variable::aux(i), F(i + 1));
    return lc;
  };
  // Append (all src above), prepend (all src below), interleaved, all present.
  LinearCombination a = aux_lc({1, 2});
  a.add(aux_lc({5, 6}));
  EXPECT_EQ(V(a.aux()), T({{1, F(2)}, {2, F(3)}, {5, F(6)}, {6, F(7)}}));
  LinearCombination b = aux_lc({5, 6});
  b.add(aux_lc({0, 1}));
  EXPECT_EQ(V(b.aux()), T({{0, F(1)}, {1, F(2)}, {5, F(6)}, {6, F(7)}}));
  LinearCombination c = aux_lc({1, 4, 8});
  c.add(aux_lc({0, 4, 5, 9}), F(2));
  EXPECT_EQ(V(c.aux()), T({{0, F(2)}, {1, F(2)}, {4, F(5 + 10)}, {5, F(12)}, {8, F(9)}, {9, F(20)}}));
  LinearCombination d = aux_lc({1, 4, 8});
  d.add(aux_lc({4, 8}));
  EXPECT_EQ(V(d.aux()), T({{1, F(2)}, {4, F(10)}, {8, F(18)}}));
  // Self-merge doubles / cancels.
  LinearCombination e = aux_lc({3, 7});
  e.add(e);
  EXPECT_EQ(V(e.aux()), T({{3, F(8)}, {7, F(16)}}));
  e.sub(e);
  EXPECT_EQ(V(e.aux()), T({{3, Fr::zero()}, {7, Fr::zero()}}));
  // Operators.
  LinearCombination f = LinearCombination(Variable::aux(0)) + Variable::aux(1) - Variable::input(0);
  EXPECT_EQ(V(f.aux()), T({{0, F(1)}, {1, F(1)}}));
  EXPECT_EQ(V(f.inputs()), T({{0, -F(1)}}));
  f += aux_lc({1});
  f -= Variable::aux(0);
  EXPECT_EQ(V(f.aux()), T({{0, Fr::zero()}, {1, F(3)}}));
}

TEST(LinearCombination, ClearKeepsCapacity) {
  LinearCombination lc;
  for (int i = 0; i < 32; ++i) lc.add(Variable::aux(i)).add(Variable::input(i));
  const Term* pa = lc.aux().data();
  const Term* pi = lc.inputs().data();
  lc.clear();
  EXPECT_TRUE(lc.empty());
  for (int i = 0; i < 32; ++i) lc.add(Variable::aux(i)).add(Variable::input(i));
  EXPECT_EQ(lc.aux().data(), pa);
  EXPECT_EQ(lc.inputs().data(), pi);
}

TEST(LinearCombination, Evaluate) {
  // inputs = (1, 10, 20), aux = (3, 4, 5)
  std::vector<Fr> in = {F(1), F(10), F(20)}, aux = {F(3), F(4), F(5)};
  LinearCombination lc;
  lc.add(Variable::input(0), F(7))   // 7
      .add(Variable::input(2))       // + 20
      .add(Variable::aux(1), F(0))   // + 0 (zero coefficient, skipped)
      .add(Variable::aux(2), F(3))   // + 15
      .sub(Variable::aux(0));        // − 3
  EXPECT_EQ(lc.evaluate(in, aux), F(7 + 20 + 15 - 3));
  // −1 coefficient and a wrap-around below zero: 3 − 4·... = −1
  LinearCombination neg;
  neg.add(Variable::aux(0)).sub(Variable::aux(1));
  EXPECT_EQ(neg.evaluate(in, aux), -F(1));
  // Unknown variables throw; a zero-coefficient term is never read.
  LinearCombination bad(Variable::aux(3));
  try {
    (void)bad.evaluate(in, aux);
    FAIL() << "expected UnknownVariable";
  } catch (const SynthesisError& e) {
    EXPECT_EQ(e.code(), SynthesisErrorCode::UnknownVariable);
    EXPECT_NE(std::string(e.what()).find("aux variable 3"), std::string::npos) << e.what();
  }
  LinearCombination zero_far(Variable::aux(99), Fr::zero());
  EXPECT_EQ(zero_far.evaluate(in, aux), Fr::zero());
}

TEST(LinearCombination, RandomOpsMatchDenseModel) {
  std::mt19937_64 rng(42);
  constexpr std::uint64_t kN = 40;
  for (int round = 0; round < 200; ++round) {
    LinearCombination lc;
    std::map<std::uint64_t, Fr> in_model, aux_model;  // present terms, including zero sums
    auto apply_term = [&](bool aux, std::uint64_t i, const Fr& c) {
      auto& m = aux ? aux_model : in_model;
      auto it = m.find(i);
      if (it == m.end()) m.emplace(i, c); else it->second = it->second + c;
    };
    const int ops = 1 + static_cast<int>(rng() % 30);
    for (int k = 0; k < ops; ++k) {
      const bool aux = rng() & 1;
      const std::uint64_t i = rng() % kN;
      const Variable v = aux ? Variable::aux(i) : Variable::input(i);
      switch (rng() % 5) {
        case 0: lc.add(v); apply_term(aux, i, F(1)); break;
        case 1: { Fr c = Fr::random(rng); lc.add(v, c); apply_term(aux, i, c); break; }
        case 2: { Fr c = Fr::random(rng); lc.sub(v, c); apply_term(aux, i, -c); break; }
        default: {  // merge a small random LC, scaled
          LinearCombination o;
          std::vector<std::tuple<bool, std::uint64_t, Fr>> o_terms;
          for (int t = 0, n = static_cast<int>(rng() % 6); t < n; ++t) {
            bool oa = rng() & 1;
            std::uint64_t oi = rng() % kN;
            Fr c = Fr::random(rng);
            o.add(oa ? Variable::aux(oi) : Variable::input(oi), c);
            o_terms.emplace_back(oa, oi, c);
          }
          const Fr s = (rng() % 3 == 0) ? Fr::one() : Fr::random(rng);
          const bool neg = rng() & 1;
          if (neg) lc.sub(o, s); else lc.add(o, s);
          // Model: o's own duplicates combine first, then each of its terms is added once.
          std::map<std::pair<bool, std::uint64_t>, Fr> o_combined;
          for (auto& [oa, oi, c] : o_terms) {
            auto key = std::make_pair(oa, oi);
            auto it = o_combined.find(key);
            if (it == o_combined.end()) o_combined.emplace(key, c); else it->second = it->second + c;
          }
          for (auto& [key, c] : o_combined) apply_term(key.first, key.second, neg ? -(c * s) : c * s);
        }
      }
    }
    std::vector<Term> want_in, want_aux;
    for (auto& [i, c] : in_model) want_in.push_back(Term{i, c});
    for (auto& [i, c] : aux_model) want_aux.push_back(Term{i, c});
    ASSERT_EQ(V(lc.inputs()), want_in) << "round " << round;
    ASSERT_EQ(V(lc.aux()), want_aux) << "round " << round;
    // Evaluation against the model.
    std::vector<Fr> in(kN), aux(kN);
    for (auto& x : in) x = Fr::random(rng);
    for (auto& x : aux) x = Fr::random(rng);
    Fr want = Fr::zero();
    for (auto& [i, c] : in_model) want = want + c * in[i];
    for (auto& [i, c] : aux_model) want = want + c * aux[i];
    ASSERT_EQ(lc.evaluate(in, aux), want) << "round " << round;
  }
}

std::string bits(const DensityTracker& d) {
  std::string s;
  for (std::size_t i = 0; i < d.size(); ++i) s.push_back(d.test(i) ? '1' : '0');
  return s;
}

TEST(DensityTracker, PushSetPopcountWords) {
  DensityTracker d;
  for (int i = 0; i < 70; ++i) d.push_back(false);
  d.set(0);
  d.set(3);
  d.set(3);  // counted once
  d.set(64);
  d.set(69);
  d.push_back(true);  // bit 70
  EXPECT_EQ(d.size(), 71u);
  EXPECT_EQ(d.popcount(), 5u);
  ASSERT_EQ(d.words().size(), 2u);
  EXPECT_EQ(d.words()[0], (1ull << 0) | (1ull << 3));
  EXPECT_EQ(d.words()[1], (1ull << 0) | (1ull << 5) | (1ull << 6));
  d.clear();
  EXPECT_EQ(d.size(), 0u);
  EXPECT_EQ(d.popcount(), 0u);
}

TEST(DensityTracker, Extend) {
  auto make = [](const std::string& s) {
    DensityTracker d;
    for (char ch : s) d.push_back(ch == '1');
    return d;
  };
  DensityTracker a = make("101");
  a.extend(make("0110"), false);
  EXPECT_EQ(bits(a), "1010110");
  EXPECT_EQ(a.popcount(), 4u);
  DensityTracker b = make("01");
  b.extend(make("110"), true);  // other's bit 0 ORed into ours, rest appended
  EXPECT_EQ(bits(b), "1110");
  EXPECT_EQ(b.popcount(), 3u);
  // Word-aligned and long unaligned extensions.
  std::string s64(64, '0'), t(100, '0');
  for (int i = 0; i < 100; i += 7) t[i] = '1';
  DensityTracker c = make(s64);
  c.extend(make(t), false);
  EXPECT_EQ(bits(c), s64 + t);
  DensityTracker e = make("1");
  e.extend(make(t), false);
  EXPECT_EQ(bits(e), "1" + t);
  EXPECT_EQ(e.popcount(), 1u + 15u);
  EXPECT_EQ(e, make("1" + t));
}

TEST(DensityTracker, OrAtMatchesBitwiseModel) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 50; ++round) {
    const std::size_t n = 1 + rng() % 300, m = 1 + rng() % 200;
    const std::size_t offset = rng() % (n + 1);
    DensityTracker dst, src;
    std::vector<bool> model(n + m, false);
    for (std::size_t i = 0; i < n + m; ++i) {
      const bool bit = rng() % 3 == 0;
      dst.push_back(bit);
      model[i] = bit;
    }
    for (std::size_t i = 0; i < m && offset + i < n + m; ++i) src.push_back(rng() % 2 == 0);
    dst.or_at(offset, src);
    std::size_t pop = 0;
    for (std::size_t i = 0; i < n + m; ++i) {
      if (i >= offset && i - offset < src.size() && src.test(i - offset)) model[i] = true;
      EXPECT_EQ(dst.test(i), model[i]) << "bit " << i << " offset " << offset;
      pop += model[i];
    }
    EXPECT_EQ(dst.popcount(), pop);
  }
}

TEST(Name, LazyAndTextForms) {
  int calls = 0;
  auto lazy = [&] { ++calls; return std::string("made"); };
  Name n1(lazy);
  EXPECT_FALSE(n1.is_text());
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(n1.str(), "made");
  EXPECT_EQ(calls, 1);
  std::string s = "owned";
  EXPECT_EQ(Name(s).str(), "owned");
  EXPECT_EQ(Name("lit").str(), "lit");
  EXPECT_EQ(Name(std::string_view("view")).str(), "view");
  EXPECT_TRUE(Name("lit").is_text());
  auto cstr = [] { return "from const char*"; };
  EXPECT_EQ(Name(cstr).str(), "from const char*");
}

TEST(FunctionRef, CallsWithoutCopying) {
  int state = 0;
  auto f = [&state](int x) { state += x; return state; };
  FunctionRef<int(int)> r(f);
  EXPECT_EQ(r(2), 2);
  EXPECT_EQ(r(3), 5);
  auto call = [](FunctionRef<Fr()> g) { return g(); };
  EXPECT_EQ(call([] { return Fr::from_u64(9); }), Fr::from_u64(9));
}

}  // namespace
