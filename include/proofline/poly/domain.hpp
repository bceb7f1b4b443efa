// proofline/poly/domain.hpp — radix-2 evaluation domains over Fr and their NTTs (CPU).
//
// Owns: `EvaluationDomain` (the multiplicative subgroup {ω^i} of size m = 2^k, 0 <= k <= 32, its
// coset g·{ω^i} with g = 7, and the twiddle tables of both), the in-place forward / inverse / coset
// NTTs over `std::span<Fr>`, `Order` (input and output index orders) and `NttConfig`.
//
// Conventions (the same as bellperson's `EvaluationDomain`, src/domain.rs, summarized in
// ../shared/reference/formats-and-circuits.md §2.5):
//   ROOT_OF_UNITY = 7^((r−1)/2^32)  (= `ff::Fr::root_of_unity()`, a primitive 2^32-th root),
//   ω = ROOT_OF_UNITY^(2^(32−k))     (a primitive m-th root; for m = 1, ω = 1),
//   g = 7                            (the multiplicative generator; cosets are g·<ω>).
//   Forward NTT:  X[j] = Σ_i x[i]·ω^{ij}          (coefficients → evaluations at ω^j)
//   Inverse NTT:  x[i] = m^{-1}·Σ_j X[j]·ω^{-ij}  (evaluations → coefficients)
//   Coset NTT:    X[j] = Σ_i x[i]·(g·ω^j)^i       (multiply coefficient i by g^i, then NTT)
//   Coset iNTT:   iNTT, then multiply coefficient i by g^{-i}
// Any correct natural-order NTT gives the same numbers, so results equal bellperson's bit for bit.
//
// Shapes: every transform takes exactly m = `size()` elements (DomainError otherwise); callers pad
// with zeros. All elements are Fr in Montgomery form, in and out (as everywhere in proofline).
//
// Orders (`Order`, sppark's NN/NR/RN/RR naming: first letter input, second output): N = natural
// (element i at index i), R = bit-reversed (element i at index bitrev_k(i), k = log2 m). NN is the
// default and what bellperson uses; NR and RN are the cheapest (no permutation pass): NR is a
// decimation-in-frequency transform, RN a decimation-in-time one, and an NR transform followed by an
// RN one (or the reverse) returns to natural order without ever permuting. NN and RR cost one
// bit-reversal pass more. For cosets, "coefficient i" means the coefficient of X^i wherever it sits.
//
// Algorithm: radix-2 butterflies, one multiplication each, twiddles read from tables (none computed
// on the fly). Two regimes, chosen at construction by `DomainConfig::direct_log` (default 20):
//  - direct (m <= 2^direct_log): one table tw[h + j] = ω_{2h}^j of m elements serves every stage
//    and both directions (ω_{2h}^{-j} = −ω_{2h}^{h−j}). Cache-oblivious recursion: the top stage as
//    one pass, then both halves, so blocks of 2^12 elements finish in L2; TBB splits the top-stage
//    passes and runs the halves in parallel.
//  - four-step (larger m): m = R·C (R = 2^floor(k/2) rows, C = 2^ceil(k/2) columns, row-major):
//    R-point transforms down the columns (W adjacent columns per task, copied into a per-thread
//    contiguous scratch of R·W ≈ 2^15 elements first), a twiddle ω^{row·col}
//    applied to each row before (DIF) or after (DIT) its C-point transform. With sub-transforms that
//    leave bit-reversed output, the composition is exactly the bit-reversed order, so no transposition
//    is needed. Tables are O(sqrt m) (~4 MiB at 2^27); the row twiddles cost ~2 multiplications per
//    element more than the direct regime.
// Bit reversal swaps 32×32 tiles pairwise so both stay in cache. Coset powers c·g^i are read as
// hi[i >> L]·lo[i mod 2^L] from two tables of ~sqrt m elements (1/m folded into lo where needed).
//
// Threads: transforms, permutations and element-wise passes run through tbb::parallel_for /
// parallel_invoke on the calling thread's TBB arena (all cores by default). `NttConfig::max_threads`
// = 1 runs everything on the calling thread (no TBB); n > 1 runs in a task_arena of n threads.
// Transforms of m < 2^kParallelLog always run on the calling thread. A domain is immutable after
// construction: any number of threads may run transforms on one domain (on different buffers) at once.
//
// Memory: transforms work in place and read only the domain's tables (`table_bytes()`: m·32 bytes
// plus O(sqrt m) in the direct regime, O(sqrt m) in the four-step one). The only other memory is the
// four-step column scratch: 1 MiB per thread (2 MiB at 2^32), allocated on a thread's first four-step
// transform and kept (thread_local) — nothing is allocated per call.
//
// Errors: the constructor throws `DomainError` when the size exceeds 2^32 (Fr's two-adicity);
// transforms throw `DomainError` when the span length differs from m. Arithmetic never fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "proofline/ff/fr.hpp"

namespace proofline::poly {

using ff::Fr;

/// Thrown for a domain larger than Fr's two-adicity allows, or a buffer whose length is not m.
class DomainError : public std::length_error {
 public:
  explicit DomainError(const std::string& what) : std::length_error(what) {}
};

/// Input / output index order of a transform: first letter input, second output.
/// N = natural (element i at index i); R = bit-reversed (element i at index bitrev_{log m}(i)).
enum class Order { NN, NR, RN, RR };

/// Per-call options of a transform.
struct NttConfig {
  Order order = Order::NN;
  /// 0: the calling thread's TBB arena (all cores unless the caller limited it); 1: serial on the
  /// calling thread, no TBB; n > 1: a task_arena of at most n threads.
  unsigned max_threads = 0;
};

/// Default for DomainConfig::direct_log.
inline constexpr unsigned kDirectLog = 20;

/// Construction options of a domain.
struct DomainConfig {
  /// Domains of up to 2^direct_log points transform with one full stage-twiddle table of m elements
  /// (m·32 bytes; radix-2 throughout). Larger domains use the four-step split, whose tables are
  /// O(sqrt m) but whose transforms cost about 2 more multiplications per element (~15 %).
  unsigned direct_log = kDirectLog;
};

/// Transforms of fewer than 2^kParallelLog elements never use TBB.
inline constexpr unsigned kParallelLog = 12;

/// A radix-2 evaluation domain of size m = 2^k over Fr, with its coset by g = 7. Immutable.
class EvaluationDomain {
 public:
  /// Largest supported log2 size (Fr's two-adicity).
  static constexpr unsigned kMaxLog = Fr::kTwoAdicity;

  /// Smallest domain holding `min_size` points: m = next power of two >= min_size (m = 1 for 0 or 1).
  /// Throws DomainError("domain of 2^k exceeds Fr two-adicity 32 (requested n points)") when m > 2^32.
  explicit EvaluationDomain(std::uint64_t min_size, const DomainConfig& cfg = {});
  /// The domain of exactly 2^log_size points; DomainError when log_size > 32.
  static EvaluationDomain with_log_size(unsigned log_size, const DomainConfig& cfg = {});

  std::uint64_t size() const { return m_; }
  unsigned log_size() const { return log_m_; }
  /// ω, a primitive m-th root of unity (Montgomery form, like every Fr here).
  const Fr& omega() const { return omega_; }
  const Fr& omega_inv() const { return omega_inv_; }
  /// m^{-1}.
  const Fr& size_inv() const { return m_inv_; }
  /// The coset generator g = 7 and its inverse.
  const Fr& coset_generator() const { return g_; }
  const Fr& coset_generator_inv() const { return g_inv_; }
  /// (g^m − 1)^{-1}: 1/Z(x) for every x on the coset, Z(X) = X^m − 1.
  const Fr& z_inv_on_coset() const { return z_inv_on_coset_; }
  /// Z(x) = x^m − 1 at any point x.
  Fr z_at(const Fr& x) const;
  /// Bytes held by the domain's tables (for memory budgets).
  std::size_t table_bytes() const;
  /// True when the transforms use the four-step split (m > 2^direct_log).
  bool four_step() const { return log_rows_ > 0; }

  // ---- transforms (in place, |v| = m; see the header comment for orders) ----------------------
  /// Coefficients → evaluations at ω^j.
  void ntt(std::span<Fr> v, const NttConfig& cfg = {}) const;
  /// Evaluations at ω^j → coefficients (includes the 1/m scaling).
  void intt(std::span<Fr> v, const NttConfig& cfg = {}) const;
  /// Coefficients → evaluations at g·ω^j (coefficient i is multiplied by g^i first).
  void coset_ntt(std::span<Fr> v, const NttConfig& cfg = {}) const;
  /// Evaluations at g·ω^j → coefficients (iNTT, then coefficient i multiplied by g^{-i}).
  void coset_intt(std::span<Fr> v, const NttConfig& cfg = {}) const;
  /// Multiplies every element by z_inv_on_coset(): divides evaluations on the coset by Z.
  void divide_by_z_on_coset(std::span<Fr> v, const NttConfig& cfg = {}) const;
  /// Permutes v into bit-reversed order (an involution: applying it twice restores v).
  void bit_reverse(std::span<Fr> v, const NttConfig& cfg = {}) const;

  // ---- building blocks (used by compute_h; no checks beyond the length) -----------------------
  /// Unscaled transforms: `forward` with ω, else with ω^{-1} and *without* the 1/m factor.
  /// NR = decimation in frequency (natural in, bit-reversed out); RN = decimation in time.
  void transform_nr(std::span<Fr> v, bool forward, const NttConfig& cfg = {}) const;
  void transform_rn(std::span<Fr> v, bool forward, const NttConfig& cfg = {}) const;

  /// Which power table `scale_powers` applies; the element of coefficient index i is multiplied by:
  enum class Powers {
    kG,           ///< g^i
    kGOverM,      ///< m^{-1}·g^i
    kGInvOverM,   ///< m^{-1}·g^{-i}
    kGInvOverMZ,  ///< m^{-1}·(g^m − 1)^{-1}·g^{-i}  (coset iNTT fused with the division by Z)
  };
  /// Multiplies v[p] by the chosen power of coefficient index i, where i = p (`bit_reversed` false)
  /// or i = bitrev(p) (`bit_reversed` true).
  void scale_powers(std::span<Fr> v, Powers which, bool bit_reversed, const NttConfig& cfg = {}) const;
  /// Bit-reversal permutation fused with `scale_powers` in natural order: afterwards
  /// v[i] = old v[bitrev(i)] · power(i).
  void bit_reverse_scale(std::span<Fr> v, Powers which, const NttConfig& cfg = {}) const;

  /// Runs f() under cfg's thread limit (a task_arena when max_threads > 1); helper for callers
  /// that chain several building blocks.
  template <class F>
  void with_threads(const NttConfig& cfg, F&& f) const;

 private:
  EvaluationDomain(unsigned log_size, std::uint64_t requested, const DomainConfig& cfg);

  void check_length(std::span<Fr> v, const char* op) const;
  bool parallel(const NttConfig& cfg) const;
  void run_limited(const NttConfig& cfg, void (*fn)(void*), void* ctx) const;
  void dif(Fr* v, bool forward, bool par) const;
  void dit(Fr* v, bool forward, bool par) const;
  template <bool kInv>
  void dif_impl(Fr* v, bool par) const;
  template <bool kInv>
  void dit_impl(Fr* v, bool par) const;

 public:
  /// x^i·c split for table lookup: c·x^i = hi[i >> lo_bits] · lo[i & (2^lo_bits − 1)].
  struct PowTable {
    std::vector<Fr> lo;  ///< c·x^u for u < 2^lo_bits
    std::vector<Fr> hi;  ///< x^(v·2^lo_bits) for v < 2^(k − lo_bits)
    unsigned lo_bits = 0;
    Fr at(std::uint64_t i) const { return hi[i >> lo_bits] * lo[i & ((std::uint64_t{1} << lo_bits) - 1)]; }
  };
  const PowTable& powers(Powers which) const;

 private:
  std::uint64_t m_ = 1;
  unsigned log_m_ = 0;
  unsigned log_rows_ = 0;  ///< four-step split: R = 2^log_rows_, C = 2^log_cols_ (0: direct)
  unsigned log_cols_ = 0;
  Fr omega_, omega_inv_, m_inv_, g_, g_inv_, z_inv_on_coset_;
  /// Stage twiddles: tw[h + j] = ω_{2h}^j for h = 1, 2, 4, …, T/2 and j < h (index 0 unused),
  /// T = m for direct transforms, C for four-step ones; ω_{2h} = ROOT_OF_UNITY^(2^32/(2h)). The
  /// inverse transforms read the same table (ω_{2h}^{-j} = −ω_{2h}^{h−j}).
  std::vector<Fr> tw_;
  /// Four-step twiddle bases: ω^r and ω^{-r} for r < R.
  std::vector<Fr> row_fwd_, row_inv_;
  PowTable pow_g_, pow_g_over_m_, pow_ginv_over_m_, pow_ginv_over_mz_;
};

template <class F>
void EvaluationDomain::with_threads(const NttConfig& cfg, F&& f) const {
  run_limited(
      cfg, [](void* ctx) { (*static_cast<std::remove_reference_t<F>*>(ctx))(); }, &f);
}

}  // namespace proofline::poly
