// proofline/msm/msm.hpp — CPU multi-scalar multiplication over G1 and G2 (Σ k_i·P_i).
//
// Owns: the MSM entry points (general, 0/1 sum, density-filtered, Groth16 query shapes), their
// configuration `MsmConfig`, the density-bitmap view `Density`, the window-size rule and the
// scratch-size formula. Written once over the curve description `Cfg` of ec/curve.hpp and
// instantiated for G1Config and G2Config in src/msm/ (users call msm_g1 / msm_g2 or
// `msm<G1Config>(...)`).
//
// ---- Shapes and encodings -----------------------------------------------------------------------
// Bases are affine points (ec::AffinePoint, coordinates in Montgomery form, `infinity` = identity).
// They are trusted to lie in the prime-order subgroup (SRS points; not checked here — the result
// for other points is some point, not a defined value). Scalars come in either encoding:
//   * `std::span<const ff::Fr>`        Montgomery form (as ff/ holds Fr; supraseal's fr_t too);
//   * `std::span<const ScalarLimbs>`   canonical integers < r, 4 little-endian 64-bit limbs
//                                      (Fr::to_canonical(); bellperson's native `to_repr` order).
// Both convert implicitly to `Scalars`. A canonical value >= r is rejected (Error::NotCanonical);
// Montgomery-form Fr values are < r by construction.
// Results are Jacobian (ec::JacobianPoint); identity for an empty or all-zero input.
// Identity bases and zero scalars contribute nothing and cost (almost) nothing.
//
// ---- Algorithm (msm) ----------------------------------------------------------------------------
// 1. Split (one parallel pass, `split_ones`): zero scalars are dropped; scalars equal to 1 or
//    −1 go to a plain point sum of ±P (step 4); the rest are converted to canonical integers
//    with the sign trick: s > (r−1)/2 is replaced by r − s < 2^254 with the base
//    negated (as sppark's breakdown does, gpu-prover.md §3), so every scalar fits in 254 bits.
//    Identity bases are skipped wherever a base is read.
// 1b. Endomorphism split (MsmConfig::endomorphism, on by default), one parallel pass:
//    G1 (GLV): k = a + b·x² (base-|x| digits by divisions by |x|), a centred into (−x²/2, x²/2],
//    and [x²]P = −φ(P), φ(x, y) = (βx, y) (g1.hpp): two terms (P, ±a), (φ(P), ∓b), |a|, b < 2^127;
//    G2 (GLS): k = Σ_j d_j|x|^j with centred digits |d_j| < 2^63 and [|x|]P = −ψ(P) (g2.hpp):
//    four terms (ψ^j(P), ±d_j); ψ²(x, y) = (x·nx, y·ny) with nx, ny ∈ Fp the norms of ψ's
//    coefficients. The images are written once per call into scratch (1 Fp multiplication per G1
//    point; 2 Fp2 + 4 Fp2×Fp multiplications per G2 point). Pippenger then runs over 2n (4n) terms
//    with ⌈128/c⌉ (⌈64/c⌉) windows instead of ⌈255/c⌉: the same number of bucket additions, but
//    half (a quarter) of the bucket reductions and of the doublings, and one more bit of window.
//    The decomposition follows the GLV (Gallant–Lambert–Vanstone, CRYPTO 2001) and GLS
//    (Galbraith–Lin–Scott, EUROCRYPT 2009) methods with the BLS12 lattice basis given by x.
// 2. Pippenger's bucket method (N. Pippenger, "On the evaluation of powers and related problems",
//    FOCS 1976; the window/bucket form used by blst and sppark) with signed windows of c bits:
//    the Booth recoding
//      d_w = b[cw..cw+c−2] + b[cw−1] − 2^(c−1)·b[cw+c−1]   ∈ [−2^(c−1), 2^(c−1)]
//    (each digit from c+1 overlapping bits, stateless) gives k = Σ_w d_w·2^(cw) over
//    W = ⌈255/c⌉ windows; 2^(c−1) buckets per window hold Σ ±P by |d| and sign.
//    Bucket accumulation, per window (or per window × chunk of points, see the cost model):
//      * XYZZ buckets: bucket += ±P by mixed addition (madd-2008-s, 8M + 2S);
//      * batch-affine buckets: buckets are affine; up to B independent additions bucket += ±P are
//        collected, all denominators inverted at once with Montgomery's trick (one field
//        inversion per batch), then λ = (y2 − y1)/(x2 − x1), x3 = λ² − x1 − x2,
//        y3 = λ(x1 − x3) − y1: about 5M + 1S per addition plus 1/B of an inversion. A point
//        whose bucket is already in the current batch waits in a small queue for the next
//        batch; if the queue is full it goes to a per-bucket XYZZ overflow accumulator (so
//        skewed inputs, e.g. many equal scalars, stay O(n)). P + P uses λ = 3x²/2y; P + (−P)
//        empties the bucket. With AVX-512 IFMA (ff::ifma_enabled(); PROOFLINE_NO_IFMA=1 turns it
//        off) a batch of >= 16 additions runs 8 lanes at a time (msm/affine_ifma.hpp), same
//        results bit for bit. Sources: Montgomery's simultaneous inversion (P. L. Montgomery,
//        "Speeding the Pollard and elliptic curve methods of factorization", Math. Comp. 48,
//        1987); affine buckets with batched inversions as in gnark-crypto's CPU MSM
//        ("batch affine" processChunk) and the ZPrize 2022 MSM entries.
//    Bucket reduction: running sums from the top bucket down (Σ_j j·B_j = Σ_j Σ_{i≥j} B_i).
//    With affine buckets and 2^(c−1) >= 1024 the buckets are cut into S = clamp(2^(c−1)/8,
//    512, 2048) segments whose running sums advance in step as batches of S affine additions
//    (two per bucket), then Σ_j (j+1)·B_j = Σ_k T_k + L·Σ_k k·R_k combines them
//    (src/msm/batch_affine.hpp, segmented_weighted_sum); otherwise XYZZ running sums (madd + add
//    per bucket).
//    Windows combine by Horner: R = Σ_w 2^(cw)·S_w with c doublings per window.
//    With the automatic window and at most 3 such terms, each is a direct wNAF scalar
//    multiplication (JacobianPoint::mul_limbs) instead.
// 3. Parallelism (oneTBB): tasks are (window, chunk of points) pairs, each with its own bucket
//    array; chunk count and c come from the cost model below. Threads: `MsmConfig::threads`.
// 4. 0/1 path: Σ P over the selected points by batch-affine addition into K independent affine
//    accumulators (points dealt round-robin, one inversion per K additions), chunks in parallel,
//    accumulators summed in XYZZ at the end (supraseal/sppark "batch addition" idea,
//    gpu-prover.md §1.4, done on the CPU). Chunks of fewer than 1024 points use XYZZ madds.
//
// ---- Window size and bucket form (auto) ---------------------------------------------------------
// For n non-trivial scalars and T threads, choose (c, chunks, form) minimising
//    cost = ⌈W(c)·chunks / T⌉ · ( adds(n/chunks, 2^(c−1))·a + 2^(c−1)·b ),
//    adds(m, nb) = m − nb·(1 − e^(−m/nb))  (a point into an empty bucket is a copy, not an add)
// with W(c) = ⌈bits/c⌉ (bits = 255, or 128 / 64 after the G1 / G2 split, n then counting the 2n /
// 4n terms) and costs in field multiplications (checked against instruction counts):
//    XYZZ:         a = 10,  b = 24   (madd per point; madd + add per bucket)
//    batch-affine: a = 6.5 + 600/B, B = batch size = clamp(2^(c−1)/8, 32, 2048), used only when
//                  2^(c−1) >= 256 (fewer buckets make collisions frequent); b = 14 with the
//                  batched reduction (2^(c−1) >= 1024), else 24
// over c ∈ [2, 18] and chunks ∈ {1, 2, 4, …, 64} with n/chunks >= 2^(c−1). `window_for(n,T)`
// returns the choice; PROOFLINE_MSM_SWEEP=1 proofline_bench measures every c and form.
//
// ---- Threads ------------------------------------------------------------------------------------
// threads = 0 uses the current TBB arena (all cores unless the caller limited it); threads = k > 0
// runs the call inside its own tbb::task_arena of k threads (k = 1: entirely on the calling
// thread). Results do not depend on the thread count or chunking (the group is abelian; tests
// check equality of the resulting points).
//
// ---- Memory -------------------------------------------------------------------------------------
// All scratch is allocated once per call, never inside the inner loops: see `scratch_bytes`.
// Roughly n·40 bytes (base pointers + canonical scalars), with the endomorphism split another
// n·(2·(8 + 16) + 104) bytes on G1 (terms, φ(P)) and n·(4·(8 + 8) + 3·200) on G2 (terms, ψ^j(P)),
// plus, per thread, the buckets
// (2^(c−1) affine points + one state byte each, and an XYZZ overflow array that is only touched
// for skewed inputs) plus 2B entries of the batch and queue.
//
// ---- Cancellation -------------------------------------------------------------------------------
// MsmConfig::cancel (nullptr: off) is polled (relaxed) before each stage of a call (split,
// endomorphism expansion, Pippenger, ±1 sum) and at the start of every parallel task (a window ×
// chunk of Pippenger, a chunk of the 0/1 sum), never per point; tasks that start after it is set do
// nothing, and the call then throws ProoflineError(Error::Cancelled). A task already running
// finishes its window/chunk first (on a 2-core box with a 2^20-point MSM, tens of ms at most).
//
// ---- Errors -------------------------------------------------------------------------------------
// Length mismatches throw ProoflineError(Error::BadLength) with "got N, expected M" in the
// message (bases vs scalars; density bits vs scalars; bases after `start` vs density popcount;
// query sizes). A window_bits outside 0 or [2, 24], a negative thread count, batch_size or chunks
// throw Error::BadLength too (util/error.hpp has no "invalid argument" code). A canonical scalar
// >= r throws Error::NotCanonical, naming its index.
// Arithmetic never throws. The library's state is unchanged by a throwing call.
#pragma once

#include <array>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "proofline/ec/curve.hpp"
#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fr.hpp"

namespace proofline::msm {

/// Canonical (non-Montgomery) scalar: 4 little-endian 64-bit limbs, value < r.
using ScalarLimbs = std::array<std::uint64_t, 4>;

/// How buckets accumulate (see the header comment).
enum class BucketForm {
  Auto,         ///< cost model picks (batch-affine for large windows, XYZZ for small ones)
  Xyzz,         ///< XYZZ buckets, mixed additions
  BatchAffine,  ///< affine buckets, batched inversions (falls back to XYZZ for c < 3)
};

/// Options of one MSM call (icicle MSMConfig style). The defaults are the fast choice.
struct MsmConfig {
  /// 0: every thread of the current TBB arena; k > 0: a private task_arena of k threads.
  int threads = 0;
  /// 0: chosen by the cost model from n and the thread count; else the window width c in bits,
  /// 2..24 (signed digits in [−2^(c−1), 2^(c−1)], 2^(c−1) buckets per window).
  int window_bits = 0;
  /// Bucket accumulation form; Auto follows the cost model.
  BucketForm buckets = BucketForm::Auto;
  /// Additions per batch inversion in batch-affine accumulation; 0: clamp(2^(c−1)/8, 32, 2048).
  int batch_size = 0;
  /// Points per task: 0: cost model; k > 0: split each window into k chunks of points.
  int chunks = 0;
  /// Sum the bases of scalars equal to ±1 by batch addition instead of Pippenger.
  bool split_ones = true;
  /// With batch-affine buckets and 2^(c−1) >= 1024: reduce the buckets by batched affine
  /// running sums (512 to 2048 chains in step) instead of XYZZ running sums. For measurement/tests.
  bool batch_reduce = true;
  /// Split every scalar along the curve's endomorphism (GLV on G1: two parts < 2^127 on P and
  /// φ(P); GLS on G2: four parts < 2^63 on P, ψ(P), ψ²(P), ψ³(P)), so that Pippenger runs over
  /// D·n points with 128- or 64-bit scalars. false: one 255-bit signed scalar per point.
  bool endomorphism = true;
  /// Cancellation flag (see "Cancellation" above): once true, the call throws
  /// ProoflineError(Error::Cancelled) at its next task boundary. nullptr: never.
  const std::atomic<bool>* cancel = nullptr;
};

/// A view of scalars in either encoding (implicit from both span types).
class Scalars {
 public:
  Scalars() = default;
  Scalars(std::span<const ff::Fr> montgomery) : mont_(montgomery.data()), n_(montgomery.size()) {}
  Scalars(std::span<const ScalarLimbs> canonical) : canon_(canonical.data()), n_(canonical.size()) {}
  Scalars(std::span<ff::Fr> montgomery) : Scalars(std::span<const ff::Fr>(montgomery)) {}
  Scalars(std::span<ScalarLimbs> canonical) : Scalars(std::span<const ScalarLimbs>(canonical)) {}
  Scalars(const std::vector<ff::Fr>& v) : Scalars(std::span<const ff::Fr>(v)) {}
  Scalars(const std::vector<ScalarLimbs>& v) : Scalars(std::span<const ScalarLimbs>(v)) {}

  std::size_t size() const { return n_; }
  bool is_montgomery() const { return canon_ == nullptr; }
  const ff::Fr* montgomery() const { return mont_; }
  const ScalarLimbs* canonical() const { return canon_; }
  /// Scalars [offset, offset + count).
  Scalars subspan(std::size_t offset, std::size_t count) const {
    Scalars s = *this;
    if (mont_) s.mont_ += offset;
    if (canon_) s.canon_ += offset;
    s.n_ = count;
    return s;
  }

 private:
  const ff::Fr* mont_ = nullptr;
  const ScalarLimbs* canon_ = nullptr;
  std::size_t n_ = 0;
};

/// A density bitmap: bit i (LSB-first in 64-bit words: word i/64, bit i%64) says that variable i
/// has a base in the query. `bits` is the number of variables; words.size() >= ⌈bits/64⌉; bits
/// past `bits` are ignored. Builds implicitly from anything with words() and size() (such as
/// r1cs::DensityTracker) — msm/ sits below r1cs/ and does not include it.
struct Density {
  std::span<const std::uint64_t> words;
  std::size_t bits = 0;

  Density() = default;
  Density(std::span<const std::uint64_t> w, std::size_t n) : words(w), bits(n) {}
  template <class T>
    requires requires(const T& t) {
      { t.words() } -> std::convertible_to<std::span<const std::uint64_t>>;
      { t.size() } -> std::convertible_to<std::size_t>;
    }
  Density(const T& tracker) : words(tracker.words()), bits(tracker.size()) {}

  bool test(std::size_t i) const { return (words[i >> 6] >> (i & 63)) & 1; }
  /// Number of set bits among the first `bits` (the query length this bitmap selects).
  std::size_t popcount() const;
};

/// One term group of a density-filtered MSM: Σ_{i < scalars.size(), density bit i set}
/// scalars[i]·bases[start + rank(i)], rank(i) = number of set bits below i. A null `density`
/// means every bit set (then bases[start + i]).
template <class Cfg>
struct Segment {
  std::span<const ec::AffinePoint<Cfg>> bases;
  std::size_t start = 0;
  const Density* density = nullptr;
  Scalars scalars;
};

/// The auto choice for n non-trivial scalars on `threads` threads.
struct WindowChoice {
  int window_bits;
  int chunks;
  BucketForm form;  ///< Xyzz or BatchAffine
  int batch_size;   ///< for BatchAffine
};
/// `scalar_bits`: the signed windows must cover scalars of |k| < 2^(scalar_bits − 1) (255 for
/// plain scalars after the sign trick; 128 after the G1 GLV split, 64 after the G2 GLS split);
/// n counts the points after the split.
WindowChoice window_for(std::size_t n, int threads, BucketForm form = BucketForm::Auto, int scalar_bits = 255);

/// One part of an endomorphism split: |value| as little-endian limbs, and its sign.
struct SignedPart {
  std::array<std::uint64_t, 2> mag;
  bool neg;
};
/// GLV split on G1 (φ(x, y) = (βx, y) acts on G1 as [λ], λ = −x², x the BLS parameter; g1.hpp):
/// for a canonical k < r, returns p0, p1 with k ≡ p0 + p1·λ (mod r) and |p0|, |p1| < 2^127, so
/// [k]P = [p0]P + [p1]φ(P). Construction: k' = min(k, r − k) (the sign folded into both parts),
/// base-|x| digits k' = d0 + d1|x| + d2|x|² + d3|x|³, a = d0 + d1|x|, b = d2 + d3|x|, a centred
/// into (−x²/2, x²/2] with a carry into b, then k' = a + b·x² = a − b·λ.
std::array<SignedPart, 2> glv_split_g1(const ScalarLimbs& k);
/// GLS split on G2 (ψ acts on G2 as [x], x = −|x|; g2.hpp): for a canonical k < r, returns
/// p0..p3 (mag[1] = 0) with k ≡ Σ_j p_j·x^j (mod r) and |p_j| < 2^63, so [k]P = Σ_j [p_j]ψ^j(P).
/// Construction: k' = min(k, r − k), base-|x| digits centred into (−|x|/2, |x|/2] with carries,
/// |x|^j = (−1)^j x^j.
std::array<SignedPart, 4> gls_split_g2(const ScalarLimbs& k);

/// Scratch bytes one msm call over n scalars allocates (an upper bound): n·(8 + 32) for the split
/// (tagged base pointers, canonical scalars), plus per thread with batch-affine buckets
/// 2^(c−1)·(sizeof(x,y) + 1 + sizeof(XYZZ)) + B·(2·24 + sizeof(Field) + 1)
/// (buckets, state bytes, overflow, batch and queue entries, prefix products, kinds)
/// and the same for the 2·2048
/// reduction chains, or 2^(c−1)·sizeof(XYZZ) with XYZZ buckets, plus one XYZZ point per task.
/// With the endomorphism split add m·(8 + 8·limbs) for the m = 2n (G1) or 4n (G2) terms and
/// n·(D − 1)·sizeof(AffinePoint) for the images. G1 at 2^18 on 2 threads (GLV: c = 16 over 2^19
/// terms, B = 2048): ≈ 70 MiB = 10 MiB for the split + 12 MiB of terms + 26 MiB of φ(P) + 11 MiB
/// per thread, of which the 6 MiB overflow array stays untouched for non-skewed inputs; without
/// the split 32 MiB.
template <class Cfg>
std::size_t scratch_bytes(std::size_t n, const MsmConfig& cfg = {});

// ---- entry points (templates; instantiated for ec::G1Config and ec::G2Config) -----------------

/// Σ scalars[i]·bases[i]. bases.size() must equal scalars.size().
template <class Cfg>
ec::JacobianPoint<Cfg> msm(std::span<const ec::AffinePoint<Cfg>> bases, Scalars scalars,
                           const MsmConfig& cfg = {});

/// Σ over all segments (one Pippenger run shares the bucket reduction across segments).
template <class Cfg>
ec::JacobianPoint<Cfg> msm_segments(std::span<const Segment<Cfg>> segments, const MsmConfig& cfg = {});

/// Density-filtered MSM (formats-and-circuits.md §1.3, §2.6): Σ_{i: bit i set} scalars[i] ·
/// bases[start + rank(i)]. scalars.size() must equal density.bits, and bases.size() − start must
/// be at least density.popcount().
template <class Cfg>
ec::JacobianPoint<Cfg> msm_density(std::span<const ec::AffinePoint<Cfg>> bases, std::size_t start,
                                   const Density& density, Scalars scalars, const MsmConfig& cfg = {});

/// Groth16 A' = Σ_i inputs[i]·a[i] + Σ_{aux j with A-density} aux[j]·a[#inputs + rank(j)]
/// (all inputs are dense in A). a.size() must equal inputs.size() + aux_density.popcount();
/// aux_density.bits must equal aux.size().
template <class Cfg>
ec::JacobianPoint<Cfg> msm_query_a(std::span<const ec::AffinePoint<Cfg>> a, Scalars inputs, Scalars aux,
                                   const Density& aux_density, const MsmConfig& cfg = {});

/// Groth16 B' (G1 or G2) = Σ_{inputs with B-density} inputs[i]·b[rank_in(i)]
///   + Σ_{aux with B-density} aux[j]·b[popcount(input_density) + rank_aux(j)].
/// b.size() must equal the two popcounts' sum; each density's bits must equal its scalars' size.
template <class Cfg>
ec::JacobianPoint<Cfg> msm_query_b(std::span<const ec::AffinePoint<Cfg>> b, Scalars inputs,
                                   const Density& input_density, Scalars aux, const Density& aux_density,
                                   const MsmConfig& cfg = {});

/// 0/1 path: Σ bases[i] (all of them), by batch-affine addition.
template <class Cfg>
ec::JacobianPoint<Cfg> sum(std::span<const ec::AffinePoint<Cfg>> bases, const MsmConfig& cfg = {});

/// 0/1 path: Σ_{bit i set} bases[i] — the MSM with 0/1 scalars given as a bitmap;
/// selected.bits must equal bases.size().
template <class Cfg>
ec::JacobianPoint<Cfg> sum_selected(std::span<const ec::AffinePoint<Cfg>> bases, const Density& selected,
                                    const MsmConfig& cfg = {});

// ---- non-template spellings (deduce from vectors and spans of G1Affine / G2Affine) -------------

inline ec::G1Projective msm_g1(std::span<const ec::G1Affine> bases, Scalars scalars, const MsmConfig& cfg = {}) {
  return msm<ec::G1Config>(bases, scalars, cfg);
}
inline ec::G2Projective msm_g2(std::span<const ec::G2Affine> bases, Scalars scalars, const MsmConfig& cfg = {}) {
  return msm<ec::G2Config>(bases, scalars, cfg);
}
inline ec::G1Projective msm_density_g1(std::span<const ec::G1Affine> bases, std::size_t start,
                                       const Density& density, Scalars scalars, const MsmConfig& cfg = {}) {
  return msm_density<ec::G1Config>(bases, start, density, scalars, cfg);
}
inline ec::G2Projective msm_density_g2(std::span<const ec::G2Affine> bases, std::size_t start,
                                       const Density& density, Scalars scalars, const MsmConfig& cfg = {}) {
  return msm_density<ec::G2Config>(bases, start, density, scalars, cfg);
}
inline ec::G1Projective sum_g1(std::span<const ec::G1Affine> bases, const MsmConfig& cfg = {}) {
  return sum<ec::G1Config>(bases, cfg);
}
inline ec::G2Projective sum_g2(std::span<const ec::G2Affine> bases, const MsmConfig& cfg = {}) {
  return sum<ec::G2Config>(bases, cfg);
}
inline ec::G1Projective sum_selected_g1(std::span<const ec::G1Affine> bases, const Density& selected,
                                        const MsmConfig& cfg = {}) {
  return sum_selected<ec::G1Config>(bases, selected, cfg);
}
inline ec::G2Projective sum_selected_g2(std::span<const ec::G2Affine> bases, const Density& selected,
                                        const MsmConfig& cfg = {}) {
  return sum_selected<ec::G2Config>(bases, selected, cfg);
}

#define PROOFLINE_MSM_EXTERN(CFG)                                                                          \
  extern template std::size_t scratch_bytes<CFG>(std::size_t, const MsmConfig&);                           \
  extern template ec::JacobianPoint<CFG> msm<CFG>(std::span<const ec::AffinePoint<CFG>>, Scalars,          \
                                                  const MsmConfig&);                                       \
  extern template ec::JacobianPoint<CFG> msm_segments<CFG>(std::span<const Segment<CFG>>, const MsmConfig&); \
  extern template ec::JacobianPoint<CFG> msm_density<CFG>(std::span<const ec::AffinePoint<CFG>>,           \
                                                          std::size_t, const Density&, Scalars,            \
                                                          const MsmConfig&);                               \
  extern template ec::JacobianPoint<CFG> msm_query_a<CFG>(std::span<const ec::AffinePoint<CFG>>, Scalars,  \
                                                          Scalars, const Density&, const MsmConfig&);      \
  extern template ec::JacobianPoint<CFG> msm_query_b<CFG>(std::span<const ec::AffinePoint<CFG>>, Scalars,  \
                                                          const Density&, Scalars, const Density&,         \
                                                          const MsmConfig&);                               \
  extern template ec::JacobianPoint<CFG> sum<CFG>(std::span<const ec::AffinePoint<CFG>>, const MsmConfig&); \
  extern template ec::JacobianPoint<CFG> sum_selected<CFG>(std::span<const ec::AffinePoint<CFG>>,          \
                                                           const Density&, const MsmConfig&);
PROOFLINE_MSM_EXTERN(ec::G1Config)
PROOFLINE_MSM_EXTERN(ec::G2Config)
#undef PROOFLINE_MSM_EXTERN

}  // namespace proofline::msm
