// msm: instantiation of the MSM templates for G2.
#include "proofline/ec/g2.hpp"
#include "msm_impl.hpp"

namespace proofline::msm {

template std::size_t scratch_bytes<ec::G2Config>(std::size_t, const MsmConfig&);
template ec::G2Projective msm<ec::G2Config>(std::span<const ec::G2Affine>, Scalars, const MsmConfig&);
template ec::G2Projective msm_segments<ec::G2Config>(std::span<const Segment<ec::G2Config>>, const MsmConfig&);
template ec::G2Projective msm_density<ec::G2Config>(std::span<const ec::G2Affine>, std::size_t, const Density&,
                                                   Scalars, const MsmConfig&);
template ec::G2Projective msm_query_a<ec::G2Config>(std::span<const ec::G2Affine>, Scalars, Scalars,
                                                   const Density&, const MsmConfig&);
template ec::G2Projective msm_query_b<ec::G2Config>(std::span<const ec::G2Affine>, Scalars, const Density&,
                                                   Scalars, const Density&, const MsmConfig&);
template ec::G2Projective sum<ec::G2Config>(std::span<const ec::G2Affine>, const MsmConfig&);
template ec::G2Projective sum_selected<ec::G2Config>(std::span<const ec::G2Affine>, const Density&,
                                                    const MsmConfig&);

}  // namespace proofline::msm
