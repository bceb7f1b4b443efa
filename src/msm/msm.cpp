// msm: curve-independent pieces — the window/bucket-form cost model and density popcounts.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "msm_impl.hpp"

namespace proofline::msm {

std::size_t Density::popcount() const {
  const std::size_t full = bits / 64;
  std::size_t n = 0;
  for (std::size_t w = 0; w < full; ++w) n += static_cast<std::size_t>(std::popcount(words[w]));
  if (bits & 63) n += static_cast<std::size_t>(std::popcount(words[full] & ((std::uint64_t{1} << (bits & 63)) - 1)));
  return n;
}

// Cost model of msm.hpp, in field multiplications (squarings counted as multiplications):
//   cost(c, chunks, form) = ⌈W(c)·chunks / T⌉ · (adds(n/chunks, 2^(c−1))·a + 2^(c−1)·b)
//   adds(m, nb) = m − nb·(1 − e^(−m/nb))   (the first point into an empty bucket is a copy)
// a: per point addition (XYZZ madd 8M + 2S = 10; batch-affine 5M + 1S plus the shares of
// Montgomery's trick and the inversion, ≈ 6.5 + kInversion/B); b: per bucket in the reduction
// (XYZZ running sums: madd + add ≈ 24; batched affine running sums: two affine additions ≈ 14).
// Checked against instruction counts (callgrind) of G1 2^16 for c = 12..16: the measured
// per-bucket/per-point ratio of the batched reduction is 1.84 (model 14/7.7 = 1.82), and the
// optimum (c = 15 for one thread) agrees.
namespace {
constexpr double kXyzzPerPoint = 10.0;
constexpr double kAffinePerPoint = 6.5;
constexpr double kInversion = 600.0;         // Fermat inversion in Fp multiplications (measured)
constexpr double kPerBucket = 24.0;          // XYZZ running sums
constexpr double kPerBucketBatched = 14.0;   // two batch-affine additions (segmented reduction)
constexpr int kMaxAutoWindow = 18;
}  // namespace

WindowChoice window_for(std::size_t n, int threads, BucketForm form, int scalar_bits) {
  if (scalar_bits < 2) scalar_bits = 2;
  if (threads < 1) threads = 1;
  WindowChoice best{2, 1, BucketForm::Xyzz, 0};
  double best_cost = std::numeric_limits<double>::infinity();
  const double nn = static_cast<double>(std::max<std::size_t>(n, 1));
  for (int c = 2; c <= kMaxAutoWindow; ++c) {
    const std::size_t nb = std::size_t{1} << (c - 1);
    const double W =
        static_cast<double>(detail::num_windows(static_cast<unsigned>(c), static_cast<unsigned>(scalar_bits)));
    for (int f = 0; f < 2; ++f) {
      const bool affine = f == 1;
      if (affine && (form == BucketForm::Xyzz || nb < 256)) continue;
      if (!affine && form == BucketForm::BatchAffine && c >= 3) continue;
      const int batch = static_cast<int>(detail::default_batch(static_cast<unsigned>(c)));
      const double a = affine ? kAffinePerPoint + kInversion / batch : kXyzzPerPoint;
      for (int chunks = 1; chunks <= 64; chunks *= 2) {
        if (chunks > 1 && n / static_cast<std::size_t>(chunks) < nb) break;
        const double rounds = std::ceil(W * chunks / threads);
        const double b = affine && nb >= 2 * detail::kMinReduceSegments ? kPerBucketBatched : kPerBucket;
        const double m = nn / chunks, fb = static_cast<double>(nb);
        const double adds = m - fb * (1.0 - std::exp(-m / fb));
        const double cost = rounds * (adds * a + fb * b);
        if (cost < best_cost * 0.999) {
          best_cost = cost;
          best = WindowChoice{c, chunks, affine ? BucketForm::BatchAffine : BucketForm::Xyzz, affine ? batch : 0};
        }
      }
    }
  }
  return best;
}

namespace {
/// min(k, r − k) and whether r − k was taken; k < r.
detail::Limbs4 fold_sign(const ScalarLimbs& k, bool& neg) {
  if (ff::detail::geq<4>(k, detail::kR))
    throw ProoflineError(Error::NotCanonical, "msm: endomorphism split: scalar is >= r");
  neg = !ff::detail::geq<4>(detail::kHalfR, k);
  if (!neg) return k;
  detail::Limbs4 t;
  ff::u64 br = 0;
  for (int i = 0; i < 4; ++i) t[i] = ff::detail::sbb(detail::kR[i], k[i], br);
  return t;
}
}  // namespace

std::array<SignedPart, 2> glv_split_g1(const ScalarLimbs& k) {
  bool neg;
  const detail::Limbs4 h = fold_sign(k, neg);
  std::array<SignedPart, 2> out{};
  bool n0, n1;
  detail::glv_parts(h, out[0].mag.data(), n0, out[1].mag.data(), n1);
  out[0].neg = n0 != neg;
  out[1].neg = n1 != neg;
  return out;
}

std::array<SignedPart, 4> gls_split_g2(const ScalarLimbs& k) {
  bool neg;
  const detail::Limbs4 h = fold_sign(k, neg);
  ff::u64 m[4];
  bool ng[4];
  detail::gls_parts(h, m, ng);
  std::array<SignedPart, 4> out{};
  for (int j = 0; j < 4; ++j) out[j] = SignedPart{{m[j], 0}, ng[j] != neg};
  return out;
}

}  // namespace proofline::msm
