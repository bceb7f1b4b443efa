// bench/gpu/shaped_params.hpp — parameters of a witness's exact shape for the GPU benchmarks (not a
// benchmark itself): every query has the length the circuit's densities give (h: m − 1, l: aux,
// a: inputs + aux with A-density, b: variables with B-density) and its points are 1024 distinct
// random multiples of the generator repeated (the MSM cost does not depend on which points they
// are; a setup at 2^24 and beyond would take far longer than the benchmarks). Proofs made with them
// do not verify; the benchmarks compare them with the CPU backend's instead.
#pragma once

#include <random>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <vector>

#include "proofline/groth16/params.hpp"
#include "proofline/r1cs/proving_assignment.hpp"

namespace bench_gpu {

using proofline::ff::Fr;
using proofline::groth16::Parameters;
namespace ec = proofline::ec;

template <class Affine, class Proj>
inline std::vector<Affine> repeated_points(std::size_t n, std::mt19937_64& rng) {
  std::vector<Affine> distinct;
  for (int k = 0; k < 1024; ++k) distinct.push_back(Proj::generator().mul(Fr::random(rng)).to_affine());
  std::vector<Affine> out(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 16),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i) out[i] = distinct[i % distinct.size()];
                    });
  return out;
}

inline Parameters shaped_parameters(const proofline::r1cs::ProvingBuffers& w, std::size_t m, std::mt19937_64& rng) {
  Parameters p;
  auto g1 = [&] { return ec::G1Projective::generator().mul(Fr::random(rng)).to_affine(); };
  auto g2 = [&] { return ec::G2Projective::generator().mul(Fr::random(rng)).to_affine(); };
  p.vk.alpha_g1 = g1();
  p.vk.beta_g1 = g1();
  p.vk.beta_g2 = g2();
  p.vk.gamma_g2 = g2();
  p.vk.delta_g1 = g1();
  p.vk.delta_g2 = g2();
  for (std::size_t i = 0; i < w.input_assignment.size(); ++i) p.vk.ic.push_back(g1());
  const std::size_t b_len = w.b_input_density.popcount() + w.b_aux_density.popcount();
  p.h = repeated_points<ec::G1Affine, ec::G1Projective>(m - 1, rng);
  p.l = repeated_points<ec::G1Affine, ec::G1Projective>(w.aux_assignment.size(), rng);
  p.a = repeated_points<ec::G1Affine, ec::G1Projective>(w.input_assignment.size() + w.a_aux_density.popcount(), rng);
  p.b_g1 = repeated_points<ec::G1Affine, ec::G1Projective>(b_len, rng);
  p.b_g2 = repeated_points<ec::G2Affine, ec::G2Projective>(b_len, rng);
  return p;
}

}  // namespace bench_gpu
