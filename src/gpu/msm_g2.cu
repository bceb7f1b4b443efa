// src/gpu/msm_g2.cu — the GPU MSM instantiated for G2 (kernels in msm.cuh) and the one-shot msm_g2.
#include "msm.cuh"

namespace proofline::gpu {

template class GpuMsm<ec::G2Config>;

ec::G2Projective msm_g2(std::span<const ec::G2Affine> bases, std::span<const ff::Fr> scalars,
                        const GpuMsmConfig& cfg) {
  if (bases.size() != scalars.size())
    throw std::invalid_argument("gpu::msm_g2: " + std::to_string(scalars.size()) + " scalars, expected " +
                                std::to_string(bases.size()) + " (one per base)");
  if (bases.empty()) return ec::G2Projective::identity();
  GpuMsmG2 m;
  m.set_bases(bases);
  return m.run(scalars, 0, cfg);
}

}  // namespace proofline::gpu
