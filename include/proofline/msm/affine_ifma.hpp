// proofline/msm/affine_ifma.hpp — batches of independent affine G1 / G2 additions, 8 lanes at a time
// with AVX-512 IFMA (ff/fp_ifma.hpp).
//
// Used by the batch-affine bucket accumulator (src/msm/batch_affine.hpp) when ff::ifma_enabled().
// Same formulas and same results, bit for bit, as the scalar flush: Montgomery's trick over
// the batch (8 interleaved product chains, entry k in lane k mod 8, the 8 chain products inverted
// together with one scalar Fp inversion; for G2 the chains run over the Fp norms
// N(d) = d0² + d1² and 1/d = conj(d)/N(d)), then λ = (y_p − y_q)/(x_p − x_q),
// x3 = λ² − x_q − x_p, y3 = λ(x_q − x3) − y_q, written back fully reduced.
#pragma once

#include <cstddef>
#include <cstdint>

namespace proofline::msm::detail {

/// For k < m: bucket q_k += (x_p, y_p), with y_p negated where neg[k] != 0. Addresses are byte
/// addresses of Fp values in Montgomery form (6 little-endian 64-bit limbs, < p): xp[k], yp[k]
/// the added point (read only), q[k] the bucket's x, with its y at q[k] + 48 (ec::AffinePoint /
/// XY layout). The q[k] must be distinct and must not alias any xp / yp of the batch.
/// Entries with x_p == x_q are not performed: special[k] is set to 1 (else 0) and the caller
/// doubles or empties that bucket. Requires ff::ifma_enabled() (throws Error::BadArgument if not).
/// Scratch: 1 KiB (G2: 2 KiB) per 8 entries, thread-local, kept between calls.
void g1_affine_add_batch_ifma(const std::uintptr_t* xp, const std::uintptr_t* yp, const std::uintptr_t* q,
                              const std::uint8_t* neg, std::size_t m, std::uint8_t* special);
/// The same for G2: coordinates are Fp2 (c0 then c1, 96 bytes), the bucket's y at q[k] + 96.
/// Fp2 products by Karatsuba (3 Fp multiplies), squares by 2.
void g2_affine_add_batch_ifma(const std::uintptr_t* xp, const std::uintptr_t* yp, const std::uintptr_t* q,
                              const std::uint8_t* neg, std::size_t m, std::uint8_t* special);

}  // namespace proofline::msm::detail
