// src/gpu/msm_g1.cu — the GPU MSM instantiated for G1 (kernels in msm.cuh), the window rule and
// the one-shot msm_g1.
#include <cmath>

#include "msm.cuh"

namespace proofline::gpu {

// cost(c) = W(c) · (n + 2.1·2^c + 140000), W(c) = ⌈255/c⌉, in units of one bucket madd:
// n madds per window, about 4.2 madd-equivalents per bucket (two XYZZ additions of the level-0
// running sums, the partial-sum combine, the later levels) and a per-window fixed cost of about
// 40 µs (sort and four launches) at ~3.5·10^9 madds/s.
int gpu_msm_window_bits(std::size_t n) {
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
