// msm: curve-independent pieces — the window/bucket-form cost model and density popcounts.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "proofline/msm/msm_impl.hpp"

namespace proofline::msm {

std::size_t Density::popcount() const {
  const std::size_t full = bits / 64;
  std::size_t n = 0;
  for (std::size_t w = 0; w < full; ++w) n += static_cast<std::size_t>(std::popcount(words[w]));
  if (bits & 63) n += static_cast<std::size_t>(std::popcount(words[full] & ((std::uint64_t{1} << (bits & 63)) - 1)));
  return n;
}

// Cost model of msm.hpp, in field multiplications (squarings counted as multiplications):
//   cost(c, chunks, form) = ⌈W(c)·chunks / T⌉ · ((n / chunks)·a + 2^(c−1)·b)
// a: per point and window (XYZZ madd 8M + 2S = 10; batch-affine 5M + 1S plus the shared pieces
// of Montgomery's trick and the inversion, ≈ 6.5 + kInv/B); b: per bucket and window in the
// running-sum reduction (madd or add + add ≈ 24).
namespace {
constexpr double kXyzzPerPoint = 10.0;
constexpr double kAffinePerPoint = 6.5;
constexpr double kInversion = 600.0;  // Fermat inversion in multiplications (measured ratio)
constexpr double kPerBucket = 24.0;
constexpr int kMaxAutoWindow = 18;
}  // namespace

WindowChoice window_for(std::size_t n, int threads, BucketForm form) {
  if (threads < 1) threads = 1;
  WindowChoice best{2, 1, BucketForm::Xyzz, 0};
  double best_cost = std::numeric_limits<double>::infinity();
  const double nn = static_cast<double>(std::max<std::size_t>(n, 1));
  for (int c = 2; c <= kMaxAutoWindow; ++c) {
    const std::size_t nb = std::size_t{1} << (c - 1);
    const double W = static_cast<double>(detail::num_windows(static_cast<unsigned>(c)));
    for (int f = 0; f < 2; ++f) {
      const bool affine = f == 1;
      if (affine && (form == BucketForm::Xyzz || nb < 256)) continue;
      if (!affine && form == BucketForm::BatchAffine && c >= 3) continue;
      const int batch = static_cast<int>(detail::default_batch(static_cast<unsigned>(c)));
      const double a = affine ? kAffinePerPoint + kInversion / batch : kXyzzPerPoint;
      for (int chunks = 1; chunks <= 64; chunks *= 2) {
        if (chunks > 1 && n / static_cast<std::size_t>(chunks) < nb) break;
        const double rounds = std::ceil(W * chunks / threads);
        const double cost = rounds * (nn / chunks * a + static_cast<double>(nb) * kPerBucket);
        if (cost < best_cost * 0.999) {
          best_cost = cost;
          best = WindowChoice{c, chunks, affine ? BucketForm::BatchAffine : BucketForm::Xyzz, affine ? batch : 0};
        }
      }
    }
  }
  return best;
}

}  // namespace proofline::msm
