// tests/gpu/msm_test.cpp — the GPU MSM (proofline/gpu/msm.hpp) equals the CPU msm bit for bit
// (after conversion to affine) on random data of sizes 0, 1, 2, 3, small odd sizes, 100, 1000,
// 2^16 (G1; smaller for G2), every window width class (so 0 to 4 device reduction levels), and
// the edge inputs: zero scalars, all-one scalars, r − 1, identity bases, duplicate and opposite
// bases, one scalar repeated everywhere (one huge bucket per window), witness-like 75%-bit vectors
// with and without the 0/1 split; G1 with both bucket additions (batch-affine and XYZZ) forced.
// Also: resident bases with offsets, device scalars, and recovery after an out-of-memory error.
// Skipped (not failed) without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <random>
#include <utility>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/gpu/device.hpp"
#include "require_device.hpp"
#include "proofline/gpu/msm.hpp"
#include "proofline/msm/msm.hpp"

namespace {

using namespace proofline;

/// n affine points: 16 random points S_k, then P_i = P_{i−1} + S_{i mod 16} (cheap, distinct).
template <class Cfg>
std::vector<ec::AffinePoint<Cfg>> random_bases(size_t n, std::mt19937_64& rng) {
  using J = ec::JacobianPoint<Cfg>;
  std::vector<ec::AffinePoint<Cfg>> steps;
  for (int k = 0; k < 16; ++k) steps.push_back(J::generator().mul(ff::Fr::random(rng)).to_affine());
  std::vector<ec::AffinePoint<Cfg>> out(n);
  J acc = J::generator().mul(ff::Fr::random(rng));
  for (size_t i = 0; i < n; ++i) {
    acc += steps[i % 16];
    out[i] = acc.to_affine();
  }
  return out;
}

std::vector<ff::Fr> random_scalars(size_t n, std::mt19937_64& rng) {
  std::vector<ff::Fr> s(n);
  for (auto& x : s) x = ff::Fr::random(rng);
  return s;
}

template <class Cfg>
void expect_same_cfg(gpu::GpuMsm<Cfg>& g, const std::vector<ec::AffinePoint<Cfg>>& bases,
                     const std::vector<ff::Fr>& scalars, const std::string& what, const gpu::GpuMsmConfig& cfg) {
  g.set_bases(bases);
  const auto got = g.run(scalars, 0, cfg).to_affine();
  const auto want = msm::msm<Cfg>(std::span<const ec::AffinePoint<Cfg>>(bases), msm::Scalars(scalars)).to_affine();
  EXPECT_EQ(got, want) << Cfg::kName << " " << what << " n=" << bases.size() << " c=" << cfg.window_bits
                       << " bucket_add=" << int(cfg.bucket_add) << " L=" << cfg.batch_affine_steps;
}

template <class Cfg>
void expect_same(gpu::GpuMsm<Cfg>& g, const std::vector<ec::AffinePoint<Cfg>>& bases,
                 const std::vector<ff::Fr>& scalars, const std::string& what, int window_bits = 0) {
  gpu::GpuMsmConfig cfg;
  cfg.window_bits = window_bits;
  expect_same_cfg(g, bases, scalars, what, cfg);
}

/// The config of a forced bucket addition (msm.hpp "Bucket additions") with L = steps (0: default).
gpu::GpuMsmConfig adds_cfg(gpu::BucketAdd add, int steps = 0, int window_bits = 0, int lanes = 0) {
  gpu::GpuMsmConfig cfg;
  cfg.bucket_add = add;
  cfg.batch_affine_steps = steps;
  cfg.window_bits = window_bits;
  cfg.batch_affine_lanes = lanes;
  return cfg;
}

template <class Cfg>
void sizes_test(std::vector<size_t> sizes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  gpu::GpuMsm<Cfg> g;
  for (size_t n : sizes) {
    auto bases = random_bases<Cfg>(n, rng);
    auto scalars = random_scalars(n, rng);
    expect_same(g, bases, scalars, "random");
  }
}

TEST(GpuMsm, G1RandomSizes) {
  REQUIRE_CUDA_DEVICE();
  sizes_test<ec::G1Config>({0, 1, 2, 3, 5, 7, 31, 33, 100, 1000, 4097, size_t{1} << 16}, 1);
}

TEST(GpuMsm, G2RandomSizes) {
  REQUIRE_CUDA_DEVICE();
  sizes_test<ec::G2Config>({0, 1, 2, 3, 7, 100, 1000, 4096}, 2);
}

TEST(GpuMsm, G1EveryWindowWidth) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(3);
  gpu::GpuMsmG1 g;
  auto bases = random_bases<ec::G1Config>(3000, rng);
  auto scalars = random_scalars(3000, rng);
  for (int c : {2, 3, 5, 7, 8, 11, 12, 13, 16, 17, 19, 20, 21, 22})  // 13–22: every default width
    expect_same(g, bases, scalars, "window sweep", c);
}

TEST(GpuMsm, G2WindowWidths) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(4);
  gpu::GpuMsmG2 g;
  auto bases = random_bases<ec::G2Config>(500, rng);
  auto scalars = random_scalars(500, rng);
  for (int c : {2, 9, 13, 14, 16, 17, 18, 19, 20, 22})  // 13–22: every default width
    expect_same(g, bases, scalars, "window sweep", c);
}

// The default window rule (proofline/gpu/msm.hpp gpu_msm_window_bits): the measured widths at the
// nearest power of two, the two curves apart, the cost model outside the tables; no device needed.
TEST(GpuMsmWindow, MeasuredWidthsAtTheNearestPowerOfTwo) {
  const auto c1 = [](double n) { return gpu::gpu_msm_window_bits(static_cast<size_t>(n), 1); };
  const auto c2 = [](double n) { return gpu::gpu_msm_window_bits(static_cast<size_t>(n), 2); };
  EXPECT_EQ(c1(0x1p17), 16);          // the model's 13 took 2.2× as long (17.3 against 7.9 ms)
  EXPECT_EQ(c1(0x1p26), 22);          // the model's 20: +7 % (548.8 against 510.0 ms)
  EXPECT_EQ(c1(0x1p27 - 1), 22);      // a 32 GiB partition's H MSM (domain 2^27, n − 1 points)
  EXPECT_EQ(c1(96e6), 22);            // log2 = 26.52: nearest 2^27
  EXPECT_EQ(c1(1.4 * 0x1p25), 20);    // log2 = 25.49: nearest 2^25
  EXPECT_EQ(c1(1.5 * 0x1p25), 22);    // log2 = 25.58: nearest 2^26
  EXPECT_EQ(c1(0x1p13), 16);          // the curves differ where their measurements did
  EXPECT_EQ(c2(0x1p13), 13);
  EXPECT_EQ(c2(0x1p26), 22);
  EXPECT_EQ(gpu::gpu_msm_window_bits(0x1p20), c1(0x1p20));  // group 1 by default
  int last1 = 0, last2 = 0;
  for (int lg = 0; lg <= 32; ++lg) {  // within 2..22 and non-decreasing in n, inside and outside the tables
    const int w1 = c1(std::ldexp(1.0, lg)), w2 = c2(std::ldexp(1.0, lg));
    EXPECT_GE(w1, std::max(2, last1)) << "G1 2^" << lg;
    EXPECT_GE(w2, std::max(2, last2)) << "G2 2^" << lg;
    EXPECT_LE(std::max(w1, w2), 22) << "2^" << lg;
    last1 = w1;
    last2 = w2;
  }
  EXPECT_THROW(gpu::gpu_msm_window_bits(1000, 3), std::invalid_argument);
}

template <class Cfg>
void edge_cases(uint64_t seed, size_t n, const gpu::GpuMsmConfig& cfg = {}) {
  using A = ec::AffinePoint<Cfg>;
  std::mt19937_64 rng(seed);
  gpu::GpuMsm<Cfg> g;
  auto bases = random_bases<Cfg>(n, rng);
  auto scalars = random_scalars(n, rng);
  const ff::Fr r_minus_1 = -ff::Fr::one();

  std::vector<ff::Fr> zeros(n, ff::Fr::zero());
  expect_same_cfg(g, bases, zeros, "all-zero scalars", cfg);
  std::vector<ff::Fr> ones(n, ff::Fr::one());
  expect_same_cfg(g, bases, ones, "all-one scalars", cfg);
  std::vector<ff::Fr> top(n, r_minus_1);
  expect_same_cfg(g, bases, top, "all r-1 scalars", cfg);
  std::vector<ff::Fr> same(n, scalars[0]);
  expect_same_cfg(g, bases, same, "one scalar everywhere", cfg);

  auto mixed = scalars;
  for (size_t i = 0; i < n; i += 3) mixed[i] = ff::Fr::zero();
  for (size_t i = 1; i < n; i += 7) mixed[i] = ff::Fr::one();
  for (size_t i = 2; i < n; i += 11) mixed[i] = r_minus_1;
  for (size_t i = 4; i < n; i += 13) mixed[i] = ff::Fr::from_u64(i);
  expect_same_cfg(g, bases, mixed, "mixed zero/one/r-1/small", cfg);

  auto with_identity = bases;
  for (size_t i = 0; i < n; i += 5) with_identity[i] = A::identity();
  expect_same_cfg(g, with_identity, scalars, "identity bases", cfg);
  std::vector<A> all_identity(n, A::identity());
  expect_same_cfg(g, all_identity, scalars, "all identity bases", cfg);

  // duplicates and opposites: P, P, −P, P, ... and equal scalars (P + P and P − P in one bucket)
  std::vector<A> dup(n);
  for (size_t i = 0; i < n; ++i) dup[i] = (i % 3 == 2) ? -bases[i % 4] : bases[i % 4];
  expect_same_cfg(g, dup, scalars, "duplicate/opposite bases, random scalars", cfg);
  expect_same_cfg(g, dup, same, "duplicate/opposite bases, equal scalars", cfg);
  expect_same_cfg(g, dup, ones, "duplicate/opposite bases, ones", cfg);
  // P and −P with the same scalar cancel exactly
  std::vector<A> pm = {bases[0], -bases[0]};
  expect_same_cfg(g, pm, std::vector<ff::Fr>{scalars[1], scalars[1]}, "P - P", cfg);
  expect_same_cfg(g, std::vector<A>{bases[0], bases[0]}, std::vector<ff::Fr>{scalars[1], scalars[1]}, "P + P", cfg);
}

TEST(GpuMsm, G1EdgeCases) {
  REQUIRE_CUDA_DEVICE();
  edge_cases<ec::G1Config>(5, 1000);
  edge_cases<ec::G1Config>(6, size_t{1} << 16);
}

TEST(GpuMsm, G2EdgeCases) {
  REQUIRE_CUDA_DEVICE();
  edge_cases<ec::G2Config>(7, 300);
}

// Witness-like scalars (75% bits): the 0/1 split (msm.hpp step 0) and the plain path
// (PROOFLINE_GPU_MSM_NO_SPLIT) both equal the CPU.
template <class Cfg>
void bits_split(uint64_t seed, size_t n, const gpu::GpuMsmConfig& cfg = {}) {
  std::mt19937_64 rng(seed);
  gpu::GpuMsm<Cfg> g;
  auto bases = random_bases<Cfg>(n, rng);
  auto scalars = random_scalars(n, rng);
  for (size_t i = 0; i < n; ++i)
    if (i % 4 != 0) scalars[i] = (rng() & 1) ? ff::Fr::one() : ff::Fr::zero();
  expect_same_cfg(g, bases, scalars, "75% bits, split", cfg);
  ::setenv("PROOFLINE_GPU_MSM_NO_SPLIT", "1", 1);
  expect_same_cfg(g, bases, scalars, "75% bits, no split", cfg);
  ::unsetenv("PROOFLINE_GPU_MSM_NO_SPLIT");
  std::vector<ff::Fr> one_only(n, ff::Fr::zero());
  one_only[n / 2] = ff::Fr::one();
  expect_same_cfg(g, bases, one_only, "a single one", cfg);
  std::vector<ff::Fr> tail_only(n, ff::Fr::zero());
  tail_only[n - 1] = ff::Fr::from_u64(12345);
  expect_same_cfg(g, bases, tail_only, "a single full scalar", cfg);
}

TEST(GpuMsm, G1BitsSplit) {
  REQUIRE_CUDA_DEVICE();
  bits_split<ec::G1Config>(10, 5000);
  bits_split<ec::G1Config>(11, size_t{1} << 17);
}

TEST(GpuMsm, G2BitsSplit) {
  REQUIRE_CUDA_DEVICE();
  bits_split<ec::G2Config>(12, 3000);
}

// The scalars of the kernel-variant tests, named: random, 75 % bits (the ones' sum and the split),
// one scalar everywhere (long cut runs, so the fold levels), all ones (all through the ones' sum: one
// bucket, long cut runs).
std::vector<std::pair<std::string, std::vector<ff::Fr>>> kernel_variant_inputs(size_t n, std::mt19937_64& rng) {
  auto random = random_scalars(n, rng);
  auto bits = random;
  for (size_t i = 0; i < n; ++i)
    if (i % 4 != 0) bits[i] = (rng() & 1) ? ff::Fr::one() : ff::Fr::zero();
  std::vector<std::pair<std::string, std::vector<ff::Fr>>> out;
  out.emplace_back("random", random);
  out.emplace_back("75% bits", std::move(bits));
  out.emplace_back("one scalar everywhere", std::vector<ff::Fr>(n, random[0]));
  out.emplace_back("all ones", std::vector<ff::Fr>(n, ff::Fr::one()));
  return out;
}

// The G2 kernel variants (msm.hpp, PROOFLINE_G2_KERNELS / GpuMsmConfig::g2_kernels) compute the same
// values: the Jacobian result of every variant is bit-identical to the old one (same coordinates,
// not only the same point), and new, lean and lean-4 equal the CPU. Window widths with 0 to 3 device
// reduction levels; random scalars, 75 % bits (the ones' sum and the split), one scalar everywhere
// (long cut runs, so the fold levels), all ones (the ones' sum alone).
TEST(GpuMsm, G2KernelVariantsAgree) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(13);
  const size_t n = 2000;
  gpu::GpuMsmG2 g;
  auto bases = random_bases<ec::G2Config>(n, rng);
  g.set_bases(bases);
  for (const auto& [what, scalars] : kernel_variant_inputs(n, rng)) {
    const auto want = msm::msm_g2(bases, msm::Scalars(scalars)).to_affine();
    for (int c : {0, 4, 9, 13, 16}) {
      gpu::GpuMsmConfig cfg;
      cfg.window_bits = c;
      cfg.g2_kernels = gpu::G2Kernels::kOld;
      const auto old_result = g.run(scalars, 0, cfg);
      for (auto k :
           {gpu::G2Kernels::kNew, gpu::G2Kernels::kNewFold, gpu::G2Kernels::kLean, gpu::G2Kernels::kLean4}) {
        cfg.g2_kernels = k;
        const auto got = g.run(scalars, 0, cfg);
        EXPECT_TRUE(got.x == old_result.x && got.y == old_result.y && got.z == old_result.z)
            << "variant " << int(k) << " c=" << c << " scalars: " << what;
        if (k != gpu::G2Kernels::kNewFold)
          EXPECT_EQ(got.to_affine(), want) << "variant " << int(k) << " c=" << c << " scalars: " << what;
      }
    }
  }
}

// The G1 kernel variants (msm.hpp, PROOFLINE_G1_KERNELS / GpuMsmConfig::g1_kernels) compute the same
// values: the Jacobian result of lean-4 and lean-5 is bit-identical to new's (same coordinates), and
// every variant equals the CPU. Window widths with 0 to 3 device reduction levels; random scalars,
// 75 % bits (the ones' sum and the split), one scalar everywhere (long cut runs, so the fold levels),
// all ones (the ones' sum alone); XYZZ bucket additions (batch-affine has no variants). Then 2^16
// random scalars over repeated bases (many threads, cut runs in every window) at the default width.
TEST(GpuMsm, G1KernelVariantsAgree) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(17);
  const size_t n = 3000;
  gpu::GpuMsmG1 g;
  auto bases = random_bases<ec::G1Config>(n, rng);
  g.set_bases(bases);
  for (const auto& [what, scalars] : kernel_variant_inputs(n, rng)) {
    const auto want = msm::msm_g1(bases, msm::Scalars(scalars)).to_affine();
    for (int c : {0, 4, 9, 13, 16}) {
      gpu::GpuMsmConfig cfg;
      cfg.window_bits = c;
      cfg.bucket_add = gpu::BucketAdd::kXyzz;
      cfg.g1_kernels = gpu::G1Kernels::kNew;
      const auto new_result = g.run(scalars, 0, cfg);
      EXPECT_EQ(new_result.to_affine(), want) << "new c=" << c << " scalars: " << what;
      for (auto k : {gpu::G1Kernels::kLean4, gpu::G1Kernels::kLean5}) {
        cfg.g1_kernels = k;
        const auto got = g.run(scalars, 0, cfg);
        EXPECT_TRUE(got.x == new_result.x && got.y == new_result.y && got.z == new_result.z)
            << "variant " << int(k) << " c=" << c << " scalars: " << what;
        EXPECT_EQ(got.to_affine(), want) << "variant " << int(k) << " c=" << c << " scalars: " << what;
      }
    }
  }
  const size_t big = size_t{1} << 16;
  auto distinct = random_bases<ec::G1Config>(1024, rng);
  std::vector<ec::G1Affine> rep(big);
  for (size_t i = 0; i < big; ++i) rep[i] = distinct[i % distinct.size()];
  auto scalars = random_scalars(big, rng);
  for (auto k : {gpu::G1Kernels::kNew, gpu::G1Kernels::kLean4, gpu::G1Kernels::kLean5}) {
    gpu::GpuMsmConfig cfg;
    cfg.bucket_add = gpu::BucketAdd::kXyzz;
    cfg.g1_kernels = k;
    expect_same_cfg(g, rep, scalars, "2^16 random, G1 variant " + std::to_string(int(k)), cfg);
  }
}

// Batch-affine bucket additions (msm.hpp "Bucket additions": G1's default from 2^24 points; below that and
// for G2 through PROOFLINE_MSM_BA_MIN or GpuMsmConfig::bucket_add)
// forced at every size, and XYZZ forced beside it: both equal the CPU. Sizes 1, 2, 3, 31, 2^10,
// 2^16, 2^20 (2^20: 4096 random bases repeated, so the CPU reference stays cheap); lane lengths L =
// 1 (no affine addition at all: everything through the fold), 2, 3 (most runs cut), the default, 64.
TEST(GpuMsm, G1BatchAffineSizes) {
  REQUIRE_CUDA_DEVICE();
  using gpu::BucketAdd;
  std::mt19937_64 rng(21);
  gpu::GpuMsmG1 g;
  for (size_t n : {size_t{1}, size_t{2}, size_t{3}, size_t{31}, size_t{1} << 10, size_t{1} << 16}) {
    auto bases = random_bases<ec::G1Config>(n, rng);
    auto scalars = random_scalars(n, rng);
    expect_same_cfg(g, bases, scalars, "random, xyzz", adds_cfg(BucketAdd::kXyzz));
    for (int steps : {0, 1, 2, 3, 64})
      expect_same_cfg(g, bases, scalars, "random, batch-affine", adds_cfg(BucketAdd::kBatchAffine, steps));
    // lanes per thread: one (no running product), two, three (a thread's last lanes past the group's
    // end), 16, the default (32), and more lanes than the whole call has
    for (int lanes : {1, 2, 3, 16, 32, 256})
      expect_same_cfg(g, bases, scalars, "random, batch-affine, K=" + std::to_string(lanes),
                      adds_cfg(BucketAdd::kBatchAffine, 5, 0, lanes));
  }
  const size_t n = size_t{1} << 20;
  auto distinct = random_bases<ec::G1Config>(4096, rng);
  std::vector<ec::G1Affine> bases(n);
  for (size_t i = 0; i < n; ++i) bases[i] = distinct[i % distinct.size()];
  auto scalars = random_scalars(n, rng);
  expect_same_cfg(g, bases, scalars, "2^20 random, xyzz", adds_cfg(BucketAdd::kXyzz));
  expect_same_cfg(g, bases, scalars, "2^20 random, batch-affine", adds_cfg(BucketAdd::kBatchAffine));
  expect_same_cfg(g, bases, scalars, "2^20 random, batch-affine, L=8, c=12",
                  adds_cfg(BucketAdd::kBatchAffine, 8, 12));
  expect_same_cfg(g, bases, scalars, "2^20 random, batch-affine, L=7, c=13, K=5",
                  adds_cfg(BucketAdd::kBatchAffine, 7, 13, 5));
  for (auto k : {gpu::G1Kernels::kLean4, gpu::G1Kernels::kLean5}) {  // the cut runs folded by the lean kernels
    auto cfg = adds_cfg(BucketAdd::kBatchAffine, 3, 0, 4);
    cfg.g1_kernels = k;
    expect_same_cfg(g, bases, scalars, "2^20 random, batch-affine, lean fold " + std::to_string(int(k)), cfg);
  }
  expect_same_cfg(g, bases, scalars, "2^20 random, environment's choice", gpu::GpuMsmConfig{});
}

// The edge inputs of edge_cases and bits_split (zero and one scalars, identity bases, P and −P in one
// bucket, P + P, one scalar everywhere = one bucket of every point per window, the 0/1 split on and
// off) through batch-affine lanes of several lengths and window widths.
TEST(GpuMsm, G1BatchAffineEdgeCases) {
  REQUIRE_CUDA_DEVICE();
  using gpu::BucketAdd;
  edge_cases<ec::G1Config>(22, 31, adds_cfg(BucketAdd::kBatchAffine, 4));
  edge_cases<ec::G1Config>(23, 1000, adds_cfg(BucketAdd::kBatchAffine));
  edge_cases<ec::G1Config>(24, 1000, adds_cfg(BucketAdd::kBatchAffine, 3, 5));
  edge_cases<ec::G1Config>(25, size_t{1} << 16, adds_cfg(BucketAdd::kBatchAffine));
  edge_cases<ec::G1Config>(26, size_t{1} << 16, adds_cfg(BucketAdd::kBatchAffine, 128, 16));
  edge_cases<ec::G1Config>(31, 1000, adds_cfg(BucketAdd::kBatchAffine, 6, 0, 3));
  edge_cases<ec::G1Config>(32, size_t{1} << 16, adds_cfg(BucketAdd::kBatchAffine, 33, 0, 1));
  edge_cases<ec::G1Config>(27, 1000, adds_cfg(BucketAdd::kXyzz));
  bits_split<ec::G1Config>(28, 5000, adds_cfg(BucketAdd::kBatchAffine));
  bits_split<ec::G1Config>(29, size_t{1} << 17, adds_cfg(BucketAdd::kBatchAffine, 16));
  bits_split<ec::G1Config>(30, 5000, adds_cfg(BucketAdd::kXyzz));
  ::setenv("PROOFLINE_MSM_BA_OVERLAP", "0", 1);  // the same with a group's windows on one stream
  edge_cases<ec::G1Config>(33, 1000, adds_cfg(BucketAdd::kBatchAffine, 3, 5));
  edge_cases<ec::G1Config>(34, size_t{1} << 16, adds_cfg(BucketAdd::kBatchAffine, 128, 16));
  edge_cases<ec::G1Config>(35, size_t{1} << 16, adds_cfg(BucketAdd::kBatchAffine, 33, 0, 1));
  bits_split<ec::G1Config>(36, size_t{1} << 17, adds_cfg(BucketAdd::kBatchAffine, 16));
  ::unsetenv("PROOFLINE_MSM_BA_OVERLAP");
}

// G1's batch-affine step kernels, the software-pipelined one (the default, msm_batch_affine.cuh's
// ba_step_pipelined_kernel) and the plain one (PROOFLINE_MSM_BA_PIPELINE=0): random scalars over lane
// lengths L, lanes per thread K and windows c = 3, 13, 22 (two streams and one) with each, then
// G1BatchAffineEdgeCases' edge inputs (zero/one-heavy, all ones, identity bases, P and −P, P + P, the
// 0/1 split) with the default, all equal to the CPU; G2 (it keeps the plain step) and a value the
// switch refuses.
TEST(GpuMsm, G1BatchAffinePipelined) {
  REQUIRE_CUDA_DEVICE();
  using gpu::BucketAdd;
  ::unsetenv("PROOFLINE_MSM_BA_PIPELINE");
  std::mt19937_64 rng(51);
  gpu::GpuMsmG1 g;
  auto bases = random_bases<ec::G1Config>(3000, rng);
  auto scalars = random_scalars(3000, rng);
  for (const char* pipeline : {"1", "0"}) {
    ::setenv("PROOFLINE_MSM_BA_PIPELINE", pipeline, 1);
    for (const char* overlap : {"1", "0"}) {
      ::setenv("PROOFLINE_MSM_BA_OVERLAP", overlap, 1);
      for (int c : {3, 13, 22})
        for (int steps : {1, 2, 32, 64})
          for (int lanes : {1, 5, 32, 256})
            expect_same_cfg(
                g, bases, scalars,
                std::string("pipeline=") + pipeline + ", overlap=" + overlap + " K=" + std::to_string(lanes),
                adds_cfg(BucketAdd::kBatchAffine, steps, c, lanes));
    }
    EXPECT_EQ(g.last_step_pipelined(), *pipeline == '1') << "PROOFLINE_MSM_BA_PIPELINE=" << pipeline;
  }
  ::unsetenv("PROOFLINE_MSM_BA_OVERLAP");
  ::unsetenv("PROOFLINE_MSM_BA_PIPELINE");  // the default: pipelined
  expect_same_cfg(g, bases, scalars, "default", adds_cfg(BucketAdd::kBatchAffine));
  EXPECT_EQ(g.last_bucket_add(), BucketAdd::kBatchAffine) << "3,000 points: every window's lanes fit";
  EXPECT_TRUE(g.last_step_pipelined()) << "an sm_90 device gives a block the pipelined step's shared memory";
  expect_same_cfg(g, bases, scalars, "XYZZ between", adds_cfg(BucketAdd::kXyzz));
  EXPECT_FALSE(g.last_step_pipelined()) << "XYZZ ran no step kernel";
  edge_cases<ec::G1Config>(61, 31, adds_cfg(BucketAdd::kBatchAffine, 4));
  edge_cases<ec::G1Config>(62, 1000, adds_cfg(BucketAdd::kBatchAffine));
  edge_cases<ec::G1Config>(63, 1000, adds_cfg(BucketAdd::kBatchAffine, 3, 3));
  edge_cases<ec::G1Config>(64, size_t{1} << 16, adds_cfg(BucketAdd::kBatchAffine, 0, 13));
  edge_cases<ec::G1Config>(65, size_t{1} << 16, adds_cfg(BucketAdd::kBatchAffine, 128, 22));
  edge_cases<ec::G1Config>(66, 1000, adds_cfg(BucketAdd::kBatchAffine, 6, 0, 3));
  edge_cases<ec::G1Config>(67, size_t{1} << 16, adds_cfg(BucketAdd::kBatchAffine, 33, 0, 1));
  bits_split<ec::G1Config>(68, 5000, adds_cfg(BucketAdd::kBatchAffine));
  bits_split<ec::G1Config>(69, size_t{1} << 17, adds_cfg(BucketAdd::kBatchAffine, 16, 22));
  gpu::GpuMsmG2 g2;  // G2 ignores the switch (here at its default, on)
  auto bases2 = random_bases<ec::G2Config>(1000, rng);
  auto scalars2 = random_scalars(1000, rng);
  expect_same_cfg(g2, bases2, scalars2, "G2 (always the plain step)", adds_cfg(BucketAdd::kBatchAffine, 3));
  EXPECT_FALSE(g2.last_step_pipelined());
  ::setenv("PROOFLINE_MSM_BA_PIPELINE", "2", 1);  // only 0 and 1
  g.set_bases(bases);
  EXPECT_THROW(g.run(scalars, 0, adds_cfg(BucketAdd::kBatchAffine)), std::invalid_argument);
  ::unsetenv("PROOFLINE_MSM_BA_PIPELINE");
  expect_same_cfg(g, bases, scalars, "after PROOFLINE_MSM_BA_PIPELINE=2 threw", adds_cfg(BucketAdd::kBatchAffine));
}

// G2 batch-affine lanes (Fp2; the inversion by the norm): random sizes, lane lengths and lanes per
// thread, the G2 kernel variants of the fold beside it, and the edge inputs, all equal to the CPU.
TEST(GpuMsm, G2BatchAffine) {
  REQUIRE_CUDA_DEVICE();
  using gpu::BucketAdd;
  std::mt19937_64 rng(41);
  gpu::GpuMsmG2 g;
  for (size_t n : {size_t{1}, size_t{3}, size_t{31}, size_t{1000}, size_t{1} << 13}) {
    auto bases = random_bases<ec::G2Config>(n, rng);
    auto scalars = random_scalars(n, rng);
    for (int steps : {0, 1, 3})
      for (int lanes : {1, 16})
        expect_same_cfg(g, bases, scalars, "G2 random, batch-affine L=" + std::to_string(steps) + " K=" +
                                               std::to_string(lanes),
                        adds_cfg(BucketAdd::kBatchAffine, steps, 0, lanes));
    auto cfg = adds_cfg(BucketAdd::kBatchAffine, 5, 0, 3);
    cfg.g2_kernels = gpu::G2Kernels::kLean;
    expect_same_cfg(g, bases, scalars, "G2 random, batch-affine, lean fold", cfg);
  }
  edge_cases<ec::G2Config>(42, 300, adds_cfg(BucketAdd::kBatchAffine, 4));
  bits_split<ec::G2Config>(43, 3000, adds_cfg(BucketAdd::kBatchAffine, 0, 0, 5));
  ::setenv("PROOFLINE_MSM_BA_OVERLAP", "0", 1);  // a group's windows on one stream
  edge_cases<ec::G2Config>(46, 300, adds_cfg(BucketAdd::kBatchAffine, 4));
  bits_split<ec::G2Config>(47, 3000, adds_cfg(BucketAdd::kBatchAffine, 0, 0, 5));
  ::unsetenv("PROOFLINE_MSM_BA_OVERLAP");
}

// Every window width with batch-affine lanes (1 to 4 device reduction levels after it), and the
// environment switches: PROOFLINE_MSM_XYZZ=1 and PROOFLINE_MSM_BA_MIN=0 / PROOFLINE_MSM_BA_STEPS=5
// (/ PROOFLINE_MSM_BA_LANES=7 / PROOFLINE_MSM_BA_GROUP=1, 2, 3 / PROOFLINE_MSM_BA_OVERLAP=0 /
// PROOFLINE_MSM_BA_PRIORITY=0, and PROOFLINE_MSM_ACC_ENTRIES of the XYZZ path) under the
// default config, and the values they refuse.
TEST(GpuMsm, G1BatchAffineWindowsAndEnvironment) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(31);
  gpu::GpuMsmG1 g;
  auto bases = random_bases<ec::G1Config>(3000, rng);
  auto scalars = random_scalars(3000, rng);
  for (int c : {2, 3, 7, 8, 12, 13, 16, 17, 21, 22})
    expect_same_cfg(g, bases, scalars, "window sweep, batch-affine", adds_cfg(gpu::BucketAdd::kBatchAffine, 0, c));
  ::setenv("PROOFLINE_MSM_BA_MIN", "0", 1);
  ::setenv("PROOFLINE_MSM_BA_STEPS", "5", 1);
  expect_same(g, bases, scalars, "PROOFLINE_MSM_BA_MIN=0, PROOFLINE_MSM_BA_STEPS=5");
  ::setenv("PROOFLINE_MSM_BA_LANES", "7", 1);
  for (const char* group : {"1", "2", "3"}) {  // the default width's windows in groups of 1, 2 (halves of 1), 3 (2 + 1)
    ::setenv("PROOFLINE_MSM_BA_GROUP", group, 1);
    expect_same(g, bases, scalars, std::string("PROOFLINE_MSM_BA_LANES=7, PROOFLINE_MSM_BA_GROUP=") + group);
  }
  for (const char* bad : {"0", "65", "x"}) {  // 1 … 64 only
    ::setenv("PROOFLINE_MSM_BA_GROUP", bad, 1);
    g.set_bases(bases);
    EXPECT_THROW(g.run(scalars, 0, gpu::GpuMsmConfig{}), std::invalid_argument) << "PROOFLINE_MSM_BA_GROUP=" << bad;
  }
  ::unsetenv("PROOFLINE_MSM_BA_GROUP");
  expect_same(g, bases, scalars, "after PROOFLINE_MSM_BA_GROUP=0 threw");
  ::setenv("PROOFLINE_MSM_BA_OVERLAP", "0", 1);  // a group's windows stepped together on one stream
  expect_same(g, bases, scalars, "PROOFLINE_MSM_BA_LANES=7, PROOFLINE_MSM_BA_OVERLAP=0");
  for (int c : {3, 13, 22})
    expect_same_cfg(g, bases, scalars, "window sweep, batch-affine, one stream",
                    adds_cfg(gpu::BucketAdd::kBatchAffine, 0, c));
  for (const char* overlap : {"1", ""}) {  // both two streams, as unset
    ::setenv("PROOFLINE_MSM_BA_OVERLAP", overlap, 1);
    expect_same(g, bases, scalars, std::string("PROOFLINE_MSM_BA_OVERLAP='") + overlap + "'");
  }
  ::unsetenv("PROOFLINE_MSM_BA_LANES");
  ::unsetenv("PROOFLINE_MSM_BA_OVERLAP");
  for (int steps : {1, 2, 64})
    for (int lanes : {1, 5, 32, 256})
      expect_same_cfg(g, bases, scalars, "lanes L=" + std::to_string(steps) + " K=" + std::to_string(lanes),
                      adds_cfg(gpu::BucketAdd::kBatchAffine, steps, 0, lanes));
  ::setenv("PROOFLINE_MSM_BA_OVERLAP", "2", 1);  // only 0 and 1
  {
    g.set_bases(bases);
    EXPECT_THROW(g.run(scalars, 0, gpu::GpuMsmConfig{}), std::invalid_argument);
  }
  ::unsetenv("PROOFLINE_MSM_BA_OVERLAP");
  ::setenv("PROOFLINE_MSM_BA_PRIORITY", "0", 1);  // each half's inversions on its own stream
  for (int c : {3, 13, 22})
    expect_same_cfg(g, bases, scalars, "window sweep, batch-affine, no priority streams",
                    adds_cfg(gpu::BucketAdd::kBatchAffine, 0, c));
  expect_same_cfg(g, bases, scalars, "no priority streams, L 3 K 5", adds_cfg(gpu::BucketAdd::kBatchAffine, 3, 0, 5));
  ::setenv("PROOFLINE_MSM_BA_PRIORITY", "yes", 1);  // only 0 and 1
  {
    g.set_bases(bases);
    EXPECT_THROW(g.run(scalars, 0, adds_cfg(gpu::BucketAdd::kBatchAffine)), std::invalid_argument);
  }
  ::unsetenv("PROOFLINE_MSM_BA_PRIORITY");
  ::setenv("PROOFLINE_MSM_XYZZ", "1", 1);
  expect_same(g, bases, scalars, "PROOFLINE_MSM_XYZZ=1");
  ::unsetenv("PROOFLINE_MSM_XYZZ");
  for (const char* bad : {"8", "4097", "x"}) {  // the XYZZ accumulation's most entries per thread: 64 … 4096
    ::setenv("PROOFLINE_MSM_ACC_ENTRIES", bad, 1);
    g.set_bases(bases);
    EXPECT_THROW(g.run(scalars, 0, adds_cfg(gpu::BucketAdd::kXyzz)), std::invalid_argument)
        << "PROOFLINE_MSM_ACC_ENTRIES=" << bad;
  }
  ::setenv("PROOFLINE_MSM_ACC_ENTRIES", "4096", 1);
  expect_same_cfg(g, bases, scalars, "PROOFLINE_MSM_ACC_ENTRIES=4096", adds_cfg(gpu::BucketAdd::kXyzz));
  ::unsetenv("PROOFLINE_MSM_ACC_ENTRIES");
  ::unsetenv("PROOFLINE_MSM_BA_STEPS");
  ::unsetenv("PROOFLINE_MSM_BA_MIN");
  // the lanes' state lives for one call: after a batch-affine call the object holds what an XYZZ call
  // of the same size left (its parts are the larger), nothing more
  gpu::GpuMsmG1 fresh;
  expect_same_cfg(fresh, bases, scalars, "XYZZ, then the bytes held", adds_cfg(gpu::BucketAdd::kXyzz));
  const size_t held = fresh.device_bytes();
  expect_same_cfg(fresh, bases, scalars, "batch-affine after it", adds_cfg(gpu::BucketAdd::kBatchAffine));
  EXPECT_EQ(fresh.device_bytes(), held) << "batch-affine kept device memory after its call";
  EXPECT_EQ(fresh.last_bucket_add(), gpu::BucketAdd::kBatchAffine) << "3,000 points: every window's lanes fit";
  expect_same_cfg(fresh, bases, scalars, "XYZZ again", adds_cfg(gpu::BucketAdd::kXyzz));
  EXPECT_EQ(fresh.last_bucket_add(), gpu::BucketAdd::kXyzz);
  std::vector<ff::Fr> ones(bases.size(), ff::Fr::one());  // no tail: every scalar 1 (the 0/1 split takes all)
  expect_same_cfg(fresh, bases, ones, "every scalar 1, batch-affine asked", adds_cfg(gpu::BucketAdd::kBatchAffine));
  EXPECT_EQ(fresh.last_bucket_add(), gpu::BucketAdd::kFromEnv) << "a call without tail points added none";
}

// A kept batch-affine state (GpuMsm::keep_batch_affine_state): the first batch-affine call allocates
// exactly batch_affine_state_bytes(n) more than a per-call object holds after the same call; later calls
// (the same size, a smaller one, other L and K that need no more) reuse it without a byte more; a larger
// call grows it to that call's size, and so do calls with more threads (K = 1) or more rounded states; keep(false)
// frees it; every result equals the CPU's.
TEST(GpuMsm, G1BatchAffineKeptState) {
  REQUIRE_CUDA_DEVICE();
  using gpu::BucketAdd;
  std::mt19937_64 rng(51);
  auto big = random_bases<ec::G1Config>(6000, rng);
  auto big_scalars = random_scalars(big.size(), rng);
  std::vector<ec::G1Affine> bases(big.begin(), big.begin() + 3000);
  std::vector<ff::Fr> scalars(big_scalars.begin(), big_scalars.begin() + 3000);
  // c fixed, so the bound over every tail up to n is the state of n itself (BatchAffineStateBytes…)
  const auto ba = adds_cfg(BucketAdd::kBatchAffine, 0, 13);
  const size_t state = gpu::GpuMsmG1::batch_affine_state_bytes(bases.size(), ba);
  ASSERT_GT(state, 0u);
  EXPECT_EQ(gpu::GpuMsmG1::batch_affine_state_bytes(bases.size(), adds_cfg(BucketAdd::kXyzz, 0, 13)), 0u);
  EXPECT_EQ(gpu::GpuMsmG2::batch_affine_state_bytes(bases.size()), 0u) << "G2 runs XYZZ unless asked";
  gpu::GpuMsmG1 per_call, kept;
  expect_same_cfg(per_call, bases, scalars, "per call", ba);
  kept.keep_batch_affine_state(true);
  expect_same_cfg(kept, bases, scalars, "kept, first call", ba);
  EXPECT_EQ(kept.last_bucket_add(), BucketAdd::kBatchAffine);
  const size_t held = kept.device_bytes();
  EXPECT_EQ(held, per_call.device_bytes() + state) << "the kept state is what batch_affine_state_bytes says";
  expect_same_cfg(kept, bases, scalars, "kept, second call", ba);
  EXPECT_EQ(kept.device_bytes(), held);
  std::vector<ec::G1Affine> small(bases.begin(), bases.begin() + 1000);
  std::vector<ff::Fr> small_scalars(scalars.begin(), scalars.begin() + 1000);
  expect_same_cfg(kept, small, small_scalars, "kept, a smaller call", ba);
  // fewer lanes (L 64), fewer or as many lanes per thread: no buffer needs more (K = 1 or 7 would:
  // more threads, or more states from the rounding of 94 lanes to threads of 7)
  expect_same_cfg(kept, bases, scalars, "kept, L 64 K 32", adds_cfg(BucketAdd::kBatchAffine, 64, 13, 32));
  expect_same_cfg(kept, bases, scalars, "kept, L 64 K 16", adds_cfg(BucketAdd::kBatchAffine, 64, 13, 16));
  expect_same_cfg(kept, small, small_scalars, "kept, XYZZ between", adds_cfg(BucketAdd::kXyzz));
  expect_same_cfg(kept, bases, scalars, "kept, after XYZZ", ba);
  EXPECT_EQ(kept.device_bytes(), held) << "smaller calls and other L, K reuse the state";
  expect_same_cfg(kept, big, big_scalars, "kept, a larger call", ba);
  gpu::GpuMsmG1 per_call_big;
  expect_same_cfg(per_call_big, big, big_scalars, "per call, the larger", ba);
  EXPECT_EQ(kept.device_bytes(), per_call_big.device_bytes() + gpu::GpuMsmG1::batch_affine_state_bytes(big.size(), ba));
  for (int lanes : {1, 7})  // these grow the kept state (more threads, more rounded states); results still exact
    expect_same_cfg(kept, bases, scalars, "kept, L 32 K " + std::to_string(lanes),
                    adds_cfg(BucketAdd::kBatchAffine, 32, 13, lanes));
  EXPECT_GT(kept.device_bytes(), per_call_big.device_bytes() + gpu::GpuMsmG1::batch_affine_state_bytes(big.size(), ba));
  kept.keep_batch_affine_state(false);
  EXPECT_EQ(kept.device_bytes(), per_call_big.device_bytes()) << "keep(false) frees the state";
  expect_same_cfg(kept, big, big_scalars, "per call again", ba);
  EXPECT_EQ(kept.device_bytes(), per_call_big.device_bytes());
}

// batch_affine_state_bytes(n) bounds the state of every call over at most n points (a planner counts it
// for a kept state): the state is sized by the call's tail t ≤ n and the width c(t), whose window count
// drops where c grows (13 windows of c = 20 just below 2^25.5, 12 of c = 22 above it), so a tail below n
// may need more than n. Checked without a device: the bound is monotone in n over tails at and around
// every width's edges and random ones (a tail's own state is at most its bound); and the value at 2^27,
// the 32 GiB PoRep H MSM, equals the buffers' sizes from the layout of msm_batch_affine.cuh (L 32, K 32,
// c 22: 12 windows of 2^22 lanes, 2^17 threads each). Needs no device.
TEST(GpuMsm, BatchAffineStateBytesBoundEveryTail) {
  using gpu::GpuMsmG1;
  const gpu::GpuMsmConfig env{};  // G1 from 2^24 points (msm.hpp)
  EXPECT_EQ(GpuMsmG1::batch_affine_state_bytes((size_t{1} << 24) - 1, env), 0u) << "below the threshold: XYZZ";
  EXPECT_GT(GpuMsmG1::batch_affine_state_bytes(size_t{1} << 24, env), 0u);
  // the reviewer's pair: a tail just below 2^25.5 (c = 20, 13 windows) needs more than n just above it
  const size_t below = 47453132, above = 47454133;
  EXPECT_GE(GpuMsmG1::batch_affine_state_bytes(above, env), GpuMsmG1::batch_affine_state_bytes(below, env));
  std::vector<size_t> ns;
  for (int k = 24; k <= 30; ++k) {
    const double edge = std::ldexp(1.0, k) * std::sqrt(2.0);  // 2^(k + 0.5): where the nearest power changes
    for (long d : {-1000L, -2L, -1L, 0L, 1L, 2L, 1000L}) ns.push_back(size_t(edge) + d);
    ns.push_back(size_t{1} << k);
  }
  std::mt19937_64 rng(61);
  for (int i = 0; i < 200; ++i) ns.push_back(size_t{1} << 24 | (rng() % ((size_t{1} << 31) - (size_t{1} << 24))));
  std::sort(ns.begin(), ns.end());
  size_t prev = 0;
  for (size_t n : ns) {
    const size_t b = GpuMsmG1::batch_affine_state_bytes(n, env);
    EXPECT_GE(b, prev) << "n = " << n << ": the bound fell below a smaller n's";
    prev = std::max(prev, b);
  }
  // the layout at 2^27: states = K·threads = 32·12·2^17, lanes = 12·2^22, threads = 12·2^17; acc 96 B,
  // cur 4, prefix 48 per state; slot 96 + key 4 per lane; 2 XYZZ parts (192 B) + 2 keys and a product (48 B)
  // per thread; two inversion scratches of 16 + ⌈m/16⌉ + … values (m = threads, while m > 16)
  const size_t threads = 12 * (size_t{1} << 17), lanes = 12 * (size_t{1} << 22), states = 32 * threads;
  size_t inv = 16;
  for (size_t m = threads; m > 16;) {
    m = (m + 15) / 16;
    inv += m;
  }
  const size_t want = states * (96 + 4 + 48) + lanes * (96 + 4) + threads * (2 * 192 + 2 * 4 + 48) + 2 * inv * 48;
  EXPECT_EQ(GpuMsmG1::batch_affine_state_bytes(size_t{1} << 27, env), want);
  EXPECT_EQ(GpuMsmG1::batch_affine_state_bytes(size_t{1} << 27, adds_cfg(gpu::BucketAdd::kXyzz)), 0u);
}

TEST(GpuMsm, ResidentBasesOffsetsAndOneShot) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(8);
  const size_t n = 5000;
  auto bases = random_bases<ec::G1Config>(n, rng);
  gpu::GpuMsmG1 g;
  g.set_bases(bases);
  ASSERT_EQ(g.bases_size(), n);
  for (size_t offset : {size_t{0}, size_t{1}, size_t{777}}) {
    for (size_t m : {size_t{1}, size_t{100}, size_t{4000}}) {
      auto scalars = random_scalars(m, rng);
      auto want = msm::msm_g1(std::span<const ec::G1Affine>(bases).subspan(offset, m), msm::Scalars(scalars));
      EXPECT_EQ(g.run(scalars, offset).to_affine(), want.to_affine()) << "offset " << offset << " m " << m;
    }
  }
  EXPECT_THROW(g.run(random_scalars(10, rng), n - 5), std::invalid_argument);
  auto scalars = random_scalars(n, rng);
  EXPECT_EQ(gpu::msm_g1(bases, scalars).to_affine(), msm::msm_g1(bases, msm::Scalars(scalars)).to_affine());
  EXPECT_TRUE(gpu::msm_g1({}, {}).is_identity());

  // repeated bases on the device equal the host vector they stand for
  std::vector<ec::G1Affine> rep(3000);
  for (size_t i = 0; i < rep.size(); ++i) rep[i] = bases[i % 7];
  gpu::GpuMsmG1 r;
  r.set_bases_repeating(std::span<const ec::G1Affine>(bases).subspan(0, 7), rep.size());
  auto s3 = random_scalars(rep.size(), rng);
  EXPECT_EQ(r.run(s3).to_affine(), msm::msm_g1(rep, msm::Scalars(s3)).to_affine());
}

TEST(GpuMsm, OutOfMemoryIsRecoverable) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(9);
  auto bases = random_bases<ec::G1Config>(100, rng);
  gpu::GpuMsmG1 g;
  try {
    g.set_bases_repeating(bases, size_t{1} << 40);  // 96 TiB
    FAIL() << "expected an out-of-memory CudaError";
  } catch (const gpu::CudaError& e) {
    EXPECT_EQ(e.code(), 2) << e.what();  // cudaErrorMemoryAllocation
  }
  auto scalars = random_scalars(100, rng);
  expect_same(g, bases, scalars, "after OOM");
}

}  // namespace
