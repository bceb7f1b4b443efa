// tests/gpu/fixed_base_test.cpp — the GPU fixed-base batch (proofline/gpu/fixed_base.hpp) returns
// the same affine points as the CPU FixedBaseTable::mul_batch (and as k·G by the ec layer) for G1
// and G2, window widths 1, 4, 7 and 16, scalars 0, 1, 2, r − 1, powers of two at window edges and
// random ones; a FixedBaseMultiplier reused over calls of any size; and generate_parameters with
// use_gpu_for_setup gives byte-identical parameters to the CPU setup for the same toxic waste, which
// then prove and verify.
// Skipped (not failed) without a CUDA device.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "../support/create_proof.hpp"
#include "proofline/circuits/bench/bench.hpp"
#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/gpu/device.hpp"
#include "require_device.hpp"
#include "proofline/gpu/fixed_base.hpp"
#include "proofline/groth16/groth16.hpp"

namespace {

using namespace proofline;
using ff::Fr;

std::vector<Fr> edge_and_random_scalars(std::size_t n_random, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> ks = {Fr::zero(), Fr::one(), Fr::from_u64(2), -Fr::one(), -Fr::from_u64(2)};
  for (unsigned b : {15u, 16u, 63u, 64u, 127u, 128u, 239u, 240u, 253u, 254u}) {
    ks.push_back(Fr::from_u64(2).pow(std::array<ff::u64, 1>{b}));
  }
  for (std::size_t i = 0; i < n_random; ++i) ks.push_back(Fr::random(rng));
  return ks;
}

template <class Cfg>
void expect_same_as_cpu(unsigned w, std::size_t n_random) {
  const groth16::FixedBaseTable<Cfg> t(ec::AffinePoint<Cfg>::generator(), w);
  const auto ks = edge_and_random_scalars(n_random, 100 + w);
  const auto gpu_pts = gpu::fixed_base_mul_batch(t, ks);
  const auto cpu_pts = t.mul_batch(ks);
  ASSERT_EQ(gpu_pts.size(), ks.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    ASSERT_EQ(gpu_pts[i], cpu_pts[i]) << "w = " << w << ", scalar " << i;
  }
  EXPECT_TRUE(gpu_pts[0].infinity);
  EXPECT_EQ(gpu_pts[1], ec::AffinePoint<Cfg>::generator());
  EXPECT_EQ(gpu_pts[3], ec::JacobianPoint<Cfg>::generator().mul(-Fr::one()).to_affine());
}

TEST(GpuFixedBase, G1MatchesCpuTable) {
  REQUIRE_CUDA_DEVICE();
  for (unsigned w : {1u, 4u, 7u, 16u}) expect_same_as_cpu<ec::G1Config>(w, w == 16 ? 20000 : 2000);
}

TEST(GpuFixedBase, G2MatchesCpuTable) {
  REQUIRE_CUDA_DEVICE();
  for (unsigned w : {1u, 4u, 7u, 16u}) expect_same_as_cpu<ec::G2Config>(w, w == 16 ? 5000 : 500);
}

TEST(GpuFixedBase, MultiplierReusedAcrossCallsOfAnySize) {
  // One resident table, calls of growing and shrinking sizes (the chunk buffers grow on demand), as
  // the streamed setup makes them: the same points as the CPU table each time.
  REQUIRE_CUDA_DEVICE();
  const groth16::FixedBaseTable<ec::G1Config> t1(ec::G1Affine::generator(), 8);
  const groth16::FixedBaseTable<ec::G2Config> t2(ec::G2Affine::generator(), 8);
  gpu::FixedBaseMultiplier<ec::G1Config> m1(t1);
  gpu::FixedBaseMultiplier<ec::G2Config> m2(t2);
  std::uint64_t seed = 7;
  for (std::size_t n : {std::size_t{3}, std::size_t{5000}, std::size_t{1}, std::size_t{777}}) {
    const auto ks = edge_and_random_scalars(n, ++seed);
    std::vector<ec::G1Affine> g1(ks.size());
    std::vector<ec::G2Affine> g2(ks.size());
    m1.mul(ks, g1);
    m2.mul(ks, g2);
    EXPECT_EQ(g1, t1.mul_batch(ks)) << n;
    EXPECT_EQ(g2, t2.mul_batch(ks)) << n;
  }
  std::vector<ec::G1Affine> wrong(2);
  EXPECT_THROW(m1.mul(edge_and_random_scalars(0, 1), wrong), std::invalid_argument);
}

TEST(GpuFixedBase, EmptyBatch) {
  REQUIRE_CUDA_DEVICE();
  const groth16::FixedBaseTable<ec::G1Config> t(ec::G1Affine::generator(), 4);
  EXPECT_TRUE(gpu::fixed_base_mul_batch(t, std::span<const Fr>()).empty());
}

TEST(GpuFixedBase, SetupEqualsCpuSetupAndProves) {
  REQUIRE_CUDA_DEVICE();
  auto built = circuits::bench::make_circuit("bench", 12, 7);
  groth16::SetupOptions cpu_opts;
  cpu_opts.warn = false;
  groth16::SetupOptions gpu_opts = cpu_opts;
  gpu::use_gpu_for_setup(gpu_opts);
  groth16::SeededRandom r1(20261130), r2(20261130);
  const groth16::Parameters cpu_p = groth16::generate_parameters(*built.circuit, r1, cpu_opts);
  const groth16::Parameters gpu_p = groth16::generate_parameters(*built.circuit, r2, gpu_opts);
  EXPECT_EQ(gpu_p.to_bytes(), cpu_p.to_bytes());
  const groth16::Proof proof = groth16::create_proof(gpu_p, *built.circuit);
  EXPECT_TRUE(groth16::verify_proof(groth16::prepare_verifying_key(gpu_p.vk), proof, built.public_inputs));
}

}  // namespace
