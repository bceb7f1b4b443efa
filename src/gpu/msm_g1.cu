// src/gpu/msm_g1.cu — the GPU MSM instantiated for G1 (kernels in msm.cuh), the window rule and
// the one-shot msm_g1.
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>

#include "msm.cuh"

namespace proofline::gpu {

namespace {

// cost(c) = W(c) · (n + 2.1·2^c + 140000), W(c) = ⌈255/c⌉, in units of one bucket madd:
// n madds per window, about 4.2 madd-equivalents per bucket (two XYZZ additions of the level-0
// running sums, the partial-sum combine, the later levels) and a per-window fixed cost of about
// 40 µs (sort and four launches) at ~3.5·10^9 madds/s. Used where no size was measured (below).
int window_bits_model(std::size_t n) {
  int best = 2;
  double best_cost = 1e300;
  for (int c = 2; c <= 22; ++c) {
    const double w = (255 + c - 1) / c;
    const double cost = w * (double(n) + 2.1 * std::ldexp(1.0, c) + 140000.0);
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

// The fastest window per size, measured: gpu_msm_bench with every c around the model's choice,
// random scalars, bases resident, median of 3–5 runs, on an NVIDIA H100 80GB HBM3 (sm_90, 132 SMs:
// the H200's SMs and clocks; its extra memory bandwidth does not bind these kernels), 2026-12-06,
// commit b30106f (bench/RESULTS.md, "MSM window per size"). Index: log2 n − kMeasuredFrom. Where two
// widths were within 1 %, the smaller (less bucket memory). The model was off by up to 2.2× below
// 2^20 (at 2^17: c = 13, 17.3 ms against 7.9 ms at c = 16: the per-window fixed cost is larger than
// it assumed) and by 7 % at 2^26 (c = 20 against 22, both curves).
constexpr int kMeasuredFrom = 12;
constexpr int kMeasuredG1[] = {13, 16, 16, 16, 16, 16, 17, 17, 17, 17, 17, 19, 20, 20, 22, 22};  // 2^12 … 2^27
constexpr int kMeasuredG2[] = {13, 13, 14, 16, 16, 16, 16, 16, 17, 17, 17, 19, 20, 20, 22};      // 2^12 … 2^26

}  // namespace

int gpu_msm_window_bits(std::size_t n, int group) {
  if (group != 1 && group != 2)
    throw std::invalid_argument("gpu_msm_window_bits: group " + std::to_string(group) + ", expected 1 (G1) or 2 (G2)");
  if (n < 2) return window_bits_model(n);
  // nearest log2: sizes between two measured powers of two take the nearer one's width
  const int lg = static_cast<int>(std::lround(std::log2(static_cast<double>(n))));
  const int idx = lg - kMeasuredFrom;
  const auto pick = [&](const int* table, int size) { return idx >= 0 && idx < size ? table[idx] : window_bits_model(n); };
  return group == 1 ? pick(kMeasuredG1, int(std::size(kMeasuredG1))) : pick(kMeasuredG2, int(std::size(kMeasuredG2)));
}

template class GpuMsm<ec::G1Config>;

ec::G1Projective msm_g1(std::span<const ec::G1Affine> bases, std::span<const ff::Fr> scalars,
                        const GpuMsmConfig& cfg) {
  if (bases.size() != scalars.size())
    throw std::invalid_argument("gpu::msm_g1: " + std::to_string(scalars.size()) + " scalars, expected " +
                                std::to_string(bases.size()) + " (one per base)");
  if (bases.empty()) return ec::G1Projective::identity();
  GpuMsmG1 m;
  m.set_bases(bases);
  return m.run(scalars, 0, cfg);
}

}  // namespace proofline::gpu
