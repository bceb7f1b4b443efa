// msm: instantiation of the MSM templates for G1.
#include "proofline/ec/g1.hpp"
#include "msm_impl.hpp"

namespace proofline::msm {

template std::size_t scratch_bytes<ec::G1Config>(std::size_t, const MsmConfig&);
template ec::G1Projective msm<ec::G1Config>(std::span<const ec::G1Affine>, Scalars, const MsmConfig&);
template ec::G1Projective msm_segments<ec::G1Config>(std::span<const Segment<ec::G1Config>>, const MsmConfig&);
template ec::G1Projective msm_density<ec::G1Config>(std::span<const ec::G1Affine>, std::size_t, const Density&,
                                                   Scalars, const MsmConfig&);
template ec::G1Projective msm_query_a<ec::G1Config>(std::span<const ec::G1Affine>, Scalars, Scalars,
                                                   const Density&, const MsmConfig&);
template ec::G1Projective msm_query_b<ec::G1Config>(std::span<const ec::G1Affine>, Scalars, const Density&,
                                                   Scalars, const Density&, const MsmConfig&);
template ec::G1Projective sum<ec::G1Config>(std::span<const ec::G1Affine>, const MsmConfig&);
template ec::G1Projective sum_selected<ec::G1Config>(std::span<const ec::G1Affine>, const Density&,
                                                    const MsmConfig&);

}  // namespace proofline::msm
