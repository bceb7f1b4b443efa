// tests/gpu_host/ntt_emulation_test.cpp — the device NTT's group kernel, run on the host: the block
// template of src/gpu/ntt_group.cuh (the code the CUDA kernel instantiates with DevFr) instantiated
// with ff::Fr, every block and thread of every launch emulated phase by phase (a phase is the code
// between two __syncthreads; within one, threads run in ascending order in even blocks and
// descending in odd ones, so a phase that read what another thread of it wrote would differ), with
// the launch plan (ntt_group::plan) and twiddle tables (ntt_group::build_table) of NttDomain.
// Composed exactly as NttDomain's methods compose their passes (src/gpu/ntt.cu), the results must
// equal poly::EvaluationDomain, poly::compute_h and snarkjs::OddCosetH bit for bit: every order,
// both directions, cosets, and the H path (h_column ×3 + h_combine), at 2^0…2^14 with GroupBlock's
// radix-4 rounds (the kernel's default), its radix-8 and radix-2 ones (PROOFLINE_NTT_RADIX=8 / 2) and
// one column bit (PROOFLINE_NTT_COLS=1), and at 2^19 in radix 4 (three groups: two with between-group
// twiddles); radix 2 and one column bit at 2^19 and radix 8 at 2^20 are a DISABLED_ test (~50 s)
// that ctest runs as gpu_ntt_emulation_slow (label slow). Needs no GPU; both run in `make test`.
// Both paths of NttDomain are emulated: the folded one (the default: cosets, 1/n and Z^{-1} in the
// twiddles through ntt_group::Variant and build_low_table) and the legacy one (PROOFLINE_NTT_LEGACY=1:
// element-wise passes of powers).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "fr_vectors.hpp"
#include "gpu/ntt_group.cuh"
#include "proofline/groth16/snarkjs/prover.hpp"
#include "proofline/poly/domain.hpp"
#include "proofline/poly/quotient.hpp"

// An "element" that is only an exponent of τ = ω_{2n} (mod 2n): products add exponents, negation adds
// n (τ^n = −1), and an element read from the wide table at index e is τ^e. It lets the wide table's
// index and sign arithmetic (GroupBlock::wide_twiddle) run at every k up to 31 without a 2^31-entry
// table (WideTwiddleExponentsUpTo2e31).
namespace {
struct TauPower {
  std::uint64_t e = 0, two_n = 1;
  TauPower operator-() const { return {(e + two_n / 2) % two_n, two_n}; }
  bool operator==(const TauPower&) const = default;
};
const TauPower* const kTauTable = reinterpret_cast<const TauPower*>(std::uintptr_t{1} << 40);  // never read
std::uint64_t g_two_n = 2;
}  // namespace
template <>
TauPower proofline::gpu::ntt_group::ld_elem<TauPower>(const TauPower* p) {
  return {std::uint64_t(p - kTauTable), g_two_n};
}

namespace {

using proofline::ff::Fr;
using proofline::poly::EvaluationDomain;
namespace ng = proofline::gpu::ntt_group;

enum class Order { NN, NR, RN, RR };

/// NttDomain (src/gpu/ntt.cu) with every kernel run on the host: the group kernel through
/// ng::GroupBlock<Fr>, the element-wise kernels written out as their loops.
class EmulatedNtt {
 public:
  /// rlog: GroupBlock's stages per round: 2 (radix 4, the kernel's default), 3 or 1
  /// (PROOFLINE_NTT_RADIX=8 / 2).
  /// cols: the plan's column bits (PROOFLINE_NTT_COLS; 2 is the default).
  /// legacy: PROOFLINE_NTT_LEGACY=1's composition instead of the folded one.
  /// wide: NttDomain(k, /*wide_twiddles=*/true): the upper groups read the wide table, and
  /// bellperson's H runs on the coset τ = ω_{2n} (the same H wherever a·b − c vanishes on the domain).
  explicit EmulatedNtt(unsigned k, unsigned rlog = ng::kDefaultRadixLog, unsigned cols = ng::kMaxColBits,
                       bool legacy = false, bool wide = false)
      : rlog_(rlog), cols_(cols), legacy_(legacy), k_(k), n_(std::size_t{1} << k),
        tw_fwd_(ng::build_table(k, Fr::root_of_unity())), tw_inv_(ng::build_table(k, Fr::root_of_unity().inverse())) {
    if (wide && !legacy) wide_ = ng::build_wide_table(k, Fr::root_of_unity());
    n_inv_ = Fr::from_u64(n_).inverse();
    g_ = Fr::from_u64(Fr::kGenerator);
    z_inv_ = (g_.pow(std::array<proofline::ff::u64, 1>{n_}) - Fr::one()).inverse();
    sigma_ = proofline::groth16::snarkjs::snarkjs_root_of_unity(k + 1);
    j_ = proofline::groth16::snarkjs::snarkjs_root_exponent() & (n_ - 1);
    // NttDomain's folded tables, in the order of its Folded enum (Inverse … CosetGenInvZ).
    const Fr w = Fr::root_of_unity(), wi = w.inverse(), one = Fr::one();
    const Fr tau = ng::wide_root(k, w);  // ω_{2n}
    const Fr z_tau_inv = (tau.pow(std::array<proofline::ff::u64, 1>{n_}) - one).inverse();  // (τ^n − 1)^{-1} = (−2)^{-1}
    const Fr spec[7][3] = {{wi, one, n_inv_}, {w, g_, one}, {w, sigma_, one}, {wi, g_.inverse(), n_inv_},
                           {wi, g_.inverse(), z_inv_ * n_inv_}, {w, tau, one}, {wi, tau.inverse(), z_tau_inv * n_inv_}};
    for (const auto& sp : spec) {
      low_.push_back(ng::build_low_table(k, sp[0], sp[1], sp[2]));
      lambda_.push_back(sp[2]);
    }
  }
  std::size_t size() const { return n_; }
  /// Negative control: changes one forward twiddle-table entry.
  void corrupt_forward_table(std::size_t index) { tw_fwd_[index] = tw_fwd_[index] + Fr::one(); }
  /// Negative control: changes one wide-table entry.
  void corrupt_wide_table(std::size_t index) { wide_.at(index) = wide_.at(index) + Fr::one(); }

  void forward(std::vector<Fr>& x, Order o) const { transform(x, o, true); }
  void inverse(std::vector<Fr>& x, Order o) const {
    if (!legacy_) return transform(x, o, false, kInverse);
    transform(x, o, false);
    for (auto& v : x) v = v * n_inv_;
  }
  void coset_forward(std::vector<Fr>& x) const {
    if (!legacy_) {
      bit_reverse(x);
      return run_pass(x, false, true, kCosetGen);
    }
    scale_powers(x, g_, false, Fr::one());
    forward(x, Order::NN);
  }
  void coset_inverse(std::vector<Fr>& x) const {
    if (!legacy_) {
      run_pass(x, true, false, kCosetGenInv);
      return bit_reverse(x);
    }
    run_pass(x, true, false);
    scale_powers(x, g_.inverse(), true, n_inv_);
    bit_reverse(x);
  }
  void h_column(std::vector<Fr>& x, bool odd) const {
    if (!legacy_) {
      run_pass(x, true, false, kInverse);
      return run_pass(x, false, true, odd ? kCosetSigma : wide_.empty() ? kCosetGen : kCosetTau);
    }
    run_pass(x, true, false);
    scale_powers(x, odd ? sigma_ : g_, true, n_inv_);
    run_pass(x, false, true);
  }
  void h_combine(std::vector<Fr>& a, const std::vector<Fr>& b, std::vector<Fr>& c, bool odd) const {
    if (!odd && !legacy_) {
      for (std::size_t i = 0; i < n_; ++i) a[i] = a[i] * b[i] - c[i];
      run_pass(a, true, false, wide_.empty() ? kCosetGenInvZ : kCosetTauInvZ);
      return bit_reverse(a);
    }
    if (!odd) {
      for (std::size_t i = 0; i < n_; ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv_;
      coset_inverse(a);
      return;
    }
    for (std::size_t p = 0; p < n_; ++p) c[p] = a[p] * b[p] - c[p];
    for (std::size_t i = 0; i < n_; ++i) a[i] = c[(j_ * i) & (n_ - 1)];
  }

 private:
  // NttDomain's Folded values (kNone: the plain transform).
  static constexpr int kNone = -1, kInverse = 0, kCosetGen = 1, kCosetSigma = 2, kCosetGenInv = 3, kCosetGenInvZ = 4,
                       kCosetTau = 5, kCosetTauInvZ = 6;

  void transform(std::vector<Fr>& x, Order o, bool fwd, int folded = kNone) const {
    switch (o) {
      case Order::NR: run_pass(x, true, fwd, folded); break;
      case Order::RN: run_pass(x, false, fwd, folded); break;
      case Order::NN: run_pass(x, true, fwd, folded); bit_reverse(x); break;
      case Order::RR: bit_reverse(x); run_pass(x, true, fwd, folded); break;
    }
  }
  template <bool kDif, unsigned kRadixLog>
  void launch(std::vector<Fr>& x, const std::vector<Fr>& tw, const ng::GroupSpec& spec,
              const ng::Variant<Fr>& var) const {
    if (var.low == nullptr) return launch_as<kDif, kRadixLog, false>(x, tw, spec, var);  // the plain kernels
    launch_as<kDif, kRadixLog, true>(x, tw, spec, var);
  }
  template <bool kDif, unsigned kRadixLog, bool kFolded>
  void launch_as(std::vector<Fr>& x, const std::vector<Fr>& tw, const ng::GroupSpec& spec,
                 const ng::Variant<Fr>& var) const {
    ASSERT_LE(spec.smem_elems(), ng::kMaxSmemElems);
    ASSERT_LE(spec.t, ng::kMaxGroupBits);
    std::vector<Fr> sm(spec.smem_elems());
    const unsigned nthr = spec.threads(kRadixLog);
    for (uint64_t blk = 0; blk < spec.blocks(); ++blk) {
      ng::GroupBlock<Fr, kDif, kRadixLog, kFolded> g(x.data(), tw.data(), sm.data(), spec, blk, var);
      for (unsigned p = 0; p < g.num_phases(); ++p) {
        for (unsigned i = 0; i < nthr; ++i) g.phase(p, blk % 2 ? nthr - 1 - i : i, nthr);
      }
    }
  }
  /// NttDomain::run_pass: the plan's launches with the variant of `folded`.
  void run_pass(std::vector<Fr>& x, bool dif, bool fwd, int folded = kNone) const {
    const auto& tw = fwd ? tw_fwd_ : tw_inv_;
    ng::Variant<Fr> var;
    if (folded != kNone) {
      const std::vector<Fr>& low = low_[folded];
      var.low = low.data();
      var.coset = folded != kInverse ? low.data() + ng::kLowCoset : nullptr;
      var.unit_bottom = false;
      var.scaled = !(lambda_[folded] == Fr::one());
    }
    if (!wide_.empty() && (folded == kNone || folded == kInverse || folded == kCosetTau || folded == kCosetTauInvZ)) {
      var.wide = wide_.data();  // NttDomain::run_pass: the passes whose upper-group twiddles are ±W[E]
      var.wide_inverse = !fwd;
      var.wide_coset = folded == kCosetTau || folded == kCosetTauInvZ;
    }
    const auto plan = ng::plan(k_, dif, cols_);
    for (const ng::GroupSpec& spec : plan) {
      if (dif)
        rlog_ == 3   ? launch<true, 3>(x, tw, spec, var)
        : rlog_ == 2 ? launch<true, 2>(x, tw, spec, var)
                     : launch<true, 1>(x, tw, spec, var);
      else
        rlog_ == 3   ? launch<false, 3>(x, tw, spec, var)
        : rlog_ == 2 ? launch<false, 2>(x, tw, spec, var)
                     : launch<false, 1>(x, tw, spec, var);
    }
    if (plan.empty() && var.scaled)
      for (auto& v : x) v = v * lambda_[folded];
  }
  std::size_t rev(std::size_t i) const {
    std::size_t r = 0;
    for (unsigned b = 0; b < k_; ++b) r |= ((i >> b) & 1) << (k_ - 1 - b);
    return r;
  }
  void bit_reverse(std::vector<Fr>& x) const {
    for (std::size_t i = 0; i < n_; ++i)
      if (i < rev(i)) std::swap(x[i], x[rev(i)]);
  }
  /// x[p] *= base^e · scale, e = p or bitrev(p).
  void scale_powers(std::vector<Fr>& x, const Fr& base, bool bitrev_positions, const Fr& scale) const {
    std::vector<Fr> pw(n_);
    Fr p = scale;
    for (std::size_t e = 0; e < n_; ++e, p = p * base) pw[e] = p;
    for (std::size_t i = 0; i < n_; ++i) x[i] = x[i] * pw[bitrev_positions ? rev(i) : i];
  }

  unsigned rlog_, cols_;
  bool legacy_;
  unsigned k_;
  std::size_t n_;
  std::vector<Fr> tw_fwd_, tw_inv_;
  std::vector<Fr> wide_;  // ng::build_wide_table, or empty
  std::vector<std::vector<Fr>> low_;  // the folded tables (ng::build_low_table), by Folded value
  std::vector<Fr> lambda_;
  Fr n_inv_, g_, z_inv_, sigma_;
  std::uint64_t j_;
};

using proofline::test::expect_same;
using proofline::test::random_vec;

/// rlog: stages per round (3: radix 8; 2: radix 4, the default; 1: radix 2); cols: the plan's
/// column bits.
/// wide: the wide table (NttDomain(lg, true)); bellperson's H then on inputs with c = a·b on the domain.
void check_all(unsigned lg, unsigned rlog, unsigned cols = ng::kMaxColBits, bool legacy = false, bool wide = false) {
  const std::size_t n = std::size_t{1} << lg;
  const EvaluationDomain cpu = EvaluationDomain::with_log_size(lg);
  const EmulatedNtt emu(lg, rlog, cols, legacy, wide);
  const auto x = random_vec(n, 100 + lg);

  for (bool fwd : {true, false}) {  // natural-order results of the CPU, then each order of the emulation
    auto want = x;
    if (fwd)
      cpu.ntt(want);
    else
      cpu.intt(want);
    auto want_r = want, x_r = x;
    cpu.bit_reverse(want_r);
    cpu.bit_reverse(x_r);
    const struct {
      Order order;
      const std::vector<Fr>& in;
      const std::vector<Fr>& out;
      const char* what;
    } cases[] = {{Order::NN, x, want, "NN"}, {Order::NR, x, want_r, "NR"},
                 {Order::RN, x_r, want, "RN"}, {Order::RR, x_r, want_r, "RR"}};
    for (const auto& c : cases) {
      auto got = c.in;
      if (fwd)
        emu.forward(got, c.order);
      else
        emu.inverse(got, c.order);
      expect_same(got, c.out, (std::string(fwd ? "forward " : "inverse ") + c.what).c_str(), lg);
    }
  }

  for (bool fwd : {true, false}) {
    auto want = x, got = x;
    if (fwd) {
      cpu.coset_ntt(want);
      emu.coset_forward(got);
    } else {
      cpu.coset_intt(want);
      emu.coset_inverse(got);
    }
    expect_same(got, want, fwd ? "coset forward" : "coset inverse", lg);
  }

  if (lg == 0) return;  // H needs n >= 2 (poly::compute_h)
  for (bool odd : {false, true}) {
    auto a = random_vec(n, 7 + lg), b = random_vec(n, 8 + lg), c = random_vec(n, 9 + lg);
    if (wide && !odd) {  // a satisfied system: c = a·b row by row, so A·B − C vanishes on the domain
      for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
    }
    std::vector<Fr> h_want;
    if (odd) {
      auto ca = a, cb = b, cc = c;
      h_want = proofline::groth16::snarkjs::OddCosetH(lg).compute(ca, cb, cc);
    } else {
      h_want = a;
      auto cb = b, cc = c;
      proofline::poly::compute_h(h_want, cb, cc, cpu);
      h_want.resize(n - 1);
    }
    for (auto* col : {&a, &b, &c}) emu.h_column(*col, odd);
    emu.h_combine(a, b, c, odd);
    if (!odd) a.resize(n - 1);
    expect_same(a, h_want, odd ? "h odd coset" : "h bellperson", lg);
  }
}

TEST(GpuNttEmulation, PlanCoversEveryBitOnce) {
  for (unsigned k = 0; k <= 31; ++k) {
    for (bool dif : {false, true}) {
      unsigned covered = 0;
      for (const auto& s : ng::plan(k, dif)) {  // the default column bits
        EXPECT_GE(s.t, 1u);
        EXPECT_LE(s.t, ng::kMaxGroupBits);
        EXPECT_EQ(s.c, std::min(s.lo, ng::kMaxColBits));
        EXPECT_LE(s.smem_elems(), ng::kMaxSmemElems);
        EXPECT_LE(s.blocks(), uint64_t{1} << 31);
        covered += s.t;
      }
      EXPECT_EQ(covered, k);
    }
  }
}

TEST(GpuNttEmulation, TablesAreSmall) {
  // 2^27: 511 + 2^14 + 2^13 elements per direction (≈ 0.8 MB) instead of 2^27 − 1 (4.3 GB).
  const ng::TableLayout lay = ng::TableLayout::for_log(27);
  EXPECT_EQ(lay.count(), 511u + 16384u + 8192u);
  const auto tab = ng::build_table(5, Fr::root_of_unity());
  const Fr w32 = Fr::root_of_unity().pow(std::array<proofline::ff::u64, 1>{uint64_t{1} << 27});
  EXPECT_EQ(tab[ng::kRoots + 1], w32);  // P_lo[1] = ω_32
  EXPECT_EQ(tab[0], Fr::one());
}

TEST(GpuNttEmulation, CorruptTableIsCaught) {
  // 2^10: groups (lo 5, t 5) and (lo 0, t 5). R[2] (ω_4, stages b' = 1) and P_lo[1] (ω_n, the
  // column root C[t−1] of block column jlow = 1 in the upper group) are each read by forward NR.
  const unsigned lg = 10;
  const auto x = random_vec(1u << lg, 5);
  auto want = x;
  EmulatedNtt(lg).forward(want, Order::NR);
  const std::size_t p_lo_1 = ng::kRoots + 1;
  for (std::size_t idx : {std::size_t{2}, p_lo_1}) {
    EmulatedNtt bad(lg);
    bad.corrupt_forward_table(idx);
    auto got = x;
    bad.forward(got, Order::NR);
    EXPECT_NE(got, want) << "table entry " << idx;
  }
}

TEST(GpuNttEmulation, MatchesCpuSmallSizes) {
  for (unsigned rlog : {3u, 2u, 1u})
    for (unsigned lg = 0; lg <= 14; ++lg) check_all(lg, rlog);
  for (unsigned lg = 10; lg <= 14; ++lg) check_all(lg, 2, 1);  // one column bit (PROOFLINE_NTT_COLS=1)
}

TEST(GpuNttEmulation, LegacyPathMatchesCpuSmallSizes) {  // PROOFLINE_NTT_LEGACY=1
  for (unsigned lg = 0; lg <= 12; ++lg) check_all(lg, 2, ng::kMaxColBits, /*legacy=*/true);
}

TEST(GpuNttEmulation, FoldedTableIsRead) {
  // The folded path reads its LowTable: a corrupt G_b (upper groups) or R' entry changes the coset
  // transform. 2^10: groups (lo 5, t 5) and (lo 0, t 5).
  const unsigned lg = 10;
  const std::size_t n = std::size_t{1} << lg;
  const auto x = random_vec(n, 6);
  auto want = x;
  EvaluationDomain::with_log_size(lg).coset_ntt(want);
  auto got = x;
  EmulatedNtt(lg).coset_forward(got);
  EXPECT_EQ(got, want);
  const auto tab = ng::build_low_table(lg, Fr::root_of_unity(), Fr::from_u64(Fr::kGenerator), Fr::one());
  EXPECT_NE(tab[0], Fr::one());                                    // G_0 = g^(n/2): the bottom stage multiplies
  EXPECT_EQ(tab[ng::kLowCoset + lg - 1], Fr::from_u64(Fr::kGenerator));  // G_(k−1) = g
  EXPECT_EQ(tab[ng::kLowCoset + lg], Fr::one());                   // above k: 1
}

TEST(GpuNttEmulation, WidePathMatchesCpuSmallSizes) {  // NttDomain(lg, /*wide_twiddles=*/true)
  for (unsigned rlog : {2u, 3u, 1u})
    for (unsigned lg = 0; lg <= 14; ++lg) check_all(lg, rlog, ng::kMaxColBits, false, /*wide=*/true);
  for (unsigned lg = 10; lg <= 14; ++lg) check_all(lg, 2, 1, false, /*wide=*/true);
}

TEST(GpuNttEmulation, WideTableIsReadBothWays) {
  // 2^10: groups (lo 5, t 5) and (lo 0, t 5). W[1] = τ is read by the upper group's top stage in the
  // coset-τ passes only (odd exponents), W[32] = ω_{2^5}·… by the plain ones, W[n − 32] by the
  // inverse (τ^{-32} = −W[n − 32]); each corruption must show.
  const unsigned lg = 10;
  const std::size_t n = std::size_t{1} << lg;
  const auto x = random_vec(n, 12);
  auto want_f = x, want_i = x;
  EvaluationDomain::with_log_size(lg).ntt(want_f);
  EvaluationDomain::with_log_size(lg).intt(want_i);
  for (std::size_t idx : {std::size_t{32}, n - 32}) {
    EmulatedNtt bad(lg, ng::kDefaultRadixLog, ng::kMaxColBits, false, /*wide=*/true);
    auto f = x, i = x;
    bad.forward(f, Order::NN);
    bad.inverse(i, Order::NN);
    EXPECT_TRUE(f == want_f && i == want_i) << "clean table, entry " << idx;
    bad.corrupt_wide_table(idx);
    f = x, i = x;
    bad.forward(f, Order::NN);
    bad.inverse(i, Order::NN);
    EXPECT_NE(idx == 32 ? f : i, idx == 32 ? want_f : want_i) << "wide entry " << idx;
  }
  // The coset τ reads odd entries: H of a satisfied system changes with W[1] corrupted.
  auto a = random_vec(n, 13), b = random_vec(n, 14), c = a;
  for (std::size_t r = 0; r < n; ++r) c[r] = a[r] * b[r];
  auto h = [&](EmulatedNtt& e) {
    auto ha = a, hb = b, hc = c;
    for (auto* col : {&ha, &hb, &hc}) e.h_column(*col, false);
    e.h_combine(ha, hb, hc, false);
    return ha;
  };
  EmulatedNtt clean(lg, ng::kDefaultRadixLog, ng::kMaxColBits, false, true), bad(lg, ng::kDefaultRadixLog,
                                                                                  ng::kMaxColBits, false, true);
  bad.corrupt_wide_table(1);
  EXPECT_NE(h(bad), h(clean));
}

TEST(GpuNttEmulation, WideHIsBellpersonsOnlyForSatisfiedSystems) {
  // The contract NttDomain(lg, true)'s compute_h documents: the quotient is the same polynomial on
  // any coset when A·B − C vanishes on the domain (a satisfied R1CS), and not otherwise.
  const unsigned lg = 8;
  const std::size_t n = std::size_t{1} << lg;
  const EvaluationDomain cpu = EvaluationDomain::with_log_size(lg);
  const EmulatedNtt wide(lg, ng::kDefaultRadixLog, ng::kMaxColBits, false, true), plain(lg);
  auto a = random_vec(n, 15), b = random_vec(n, 16), c = random_vec(n, 17);
  auto run = [&](const EmulatedNtt& e, std::vector<Fr> ca, std::vector<Fr> cb, std::vector<Fr> cc) {
    for (auto* col : {&ca, &cb, &cc}) e.h_column(*col, false);
    e.h_combine(ca, cb, cc, false);
    ca.resize(n - 1);
    return ca;
  };
  EXPECT_NE(run(wide, a, b, c), run(plain, a, b, c));  // unsatisfied: different cosets, different values
  for (std::size_t r = 0; r < n; ++r) c[r] = a[r] * b[r];
  auto want = a;
  auto cb = b, cc = c;
  proofline::poly::compute_h(want, cb, cc, cpu);
  want.resize(n - 1);
  EXPECT_EQ(run(wide, a, b, c), want);
  EXPECT_EQ(run(plain, a, b, c), want);
}

TEST(GpuNttEmulation, WideTwiddleExponentsUpTo2e31) {
  // Every group above the lowest of every k in [10, 31], both directions, plain and coset τ, DIF and
  // DIT: the twiddle read for (block, stage b', row part j', column) is τ^E with E the exponent of
  // ω_{2^(b+1)}^{±j} (= ±j·2n/2^(b+1)) or of the coset factor G_b = τ^{±n/2^(b+1)} times it
  // (±(2j + 1)·n/2^(b+1)), mod 2n,
  // b = lo + b' and j = j'·2^lo + the block's column index — computed here with 128-bit integers
  // from those definitions, not from the kernel's shifts. The first and last block, stage, row part
  // and column of each group, and random ones.
  std::mt19937_64 rng(31);
  for (unsigned k = 10; k <= 31; ++k) {
    g_two_n = std::uint64_t{2} << k;
    for (bool dif : {true, false})
      for (bool inv : {false, true})
        for (bool coset : {false, true}) {
          ng::Variant<TauPower> v;
          v.low = kTauTable;
          v.wide = kTauTable;
          v.wide_inverse = inv;
          v.wide_coset = coset;
          for (const ng::GroupSpec& s : ng::plan(k, dif)) {
            if (s.lo == 0) continue;
            for (int trial = 0; trial < 300; ++trial) {
              const bool edge = trial < 16;  // corners first
              const std::uint64_t blk = edge ? (trial & 1 ? s.blocks() - 1 : 0) : rng() % s.blocks();
              const unsigned brel = edge ? (trial & 2 ? s.t - 1 : 0) : unsigned(rng() % s.t);
              const unsigned jr = edge ? (trial & 4 ? (1u << brel) - 1 : 0) : unsigned(rng() % (1u << brel));
              const unsigned col = edge ? (trial & 8 ? (1u << s.c) - 1 : 0) : unsigned(rng() % (1u << s.c));
              const TauPower got = dif ? ng::GroupBlock<TauPower, true>(nullptr, kTauTable, nullptr, s, blk, v)
                                             .wide_twiddle(brel, jr, col)
                                       : ng::GroupBlock<TauPower, false>(nullptr, kTauTable, nullptr, s, blk, v)
                                             .wide_twiddle(brel, jr, col);
              // the block's column index: its low bits (below lo) are blk's low part and col
              const std::uint64_t jlow = ((blk % (std::uint64_t{1} << (s.lo - s.c))) << s.c) + col;
              const unsigned __int128 j = (unsigned __int128)jr * (std::uint64_t{1} << s.lo) + jlow;
              const unsigned b = s.lo + brel;
              const unsigned __int128 two_n = g_two_n, n = two_n / 2;
              unsigned __int128 e = coset ? (2 * j + 1) * (n >> (b + 1)) : j * (two_n >> (b + 1));
              e %= two_n;
              if (inv) e = (two_n - e) % two_n;
              ASSERT_EQ(got.e, std::uint64_t(e)) << "k " << k << (dif ? " DIF" : " DIT") << (inv ? " inverse" : "")
                                                 << (coset ? " coset" : "") << " lo " << s.lo << " b' " << brel
                                                 << " j' " << jr << " col " << col << " block " << blk;
            }
          }
        }
  }
}

TEST(GpuNttEmulation, MatchesCpuThreeGroups) {  // ~9 s each: the smallest size with three groups
  check_all(19, 2);
  check_all(19, 2, ng::kMaxColBits, false, /*wide=*/true);
}

// ~35 s (2^19 radix 2, 2^20 radix 4): ctest's gpu_ntt_emulation_slow (CMakeLists.txt) runs it.
TEST(GpuNttEmulation, DISABLED_MatchesCpuThreeGroups2e20) {
  check_all(19, 1);
  check_all(19, 2, 1);
  check_all(20, 3);
}

}  // namespace
