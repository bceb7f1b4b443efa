// tests/gpu/ntt_test.cpp — the device NTT (gpu/ntt.hpp) equals the CPU EvaluationDomain
// (poly/domain.hpp) bit for bit: every order, both directions, cosets, and the H computation in both
// forms (bellperson's against poly::compute_h, snarkjs' odd coset against
// groth16::snarkjs::OddCosetH). Skipped (not failed) without a CUDA device.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "proofline/gpu/device.hpp"
#include "require_device.hpp"
#include "gpu/device_buffer.cuh"
#include "proofline/gpu/ntt.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"
#include "proofline/poly/domain.hpp"
#include "proofline/poly/quotient.hpp"
#include "../gpu_host/fr_vectors.hpp"

namespace {

using proofline::ff::Fr;
using proofline::gpu::NttDomain;
using proofline::gpu::NttOrder;
using proofline::poly::EvaluationDomain;

using proofline::test::expect_same;
using proofline::test::random_vec;

TEST(GpuNtt, MatchesCpuAllOrdersAndSizes) {
  REQUIRE_CUDA_DEVICE();
  for (unsigned lg : {0u, 1u, 2u, 3u, 5u, 8u, 9u, 10u, 11u, 13u, 17u, 19u, 20u}) {
    const std::size_t n = std::size_t{1} << lg;
    EvaluationDomain cpu = EvaluationDomain::with_log_size(lg);
    NttDomain gpu(lg);
    const auto x = random_vec(n, 100 + lg);

    auto want = x;
    cpu.ntt(want);
    auto got = x;
    gpu.forward_host(got, NttOrder::NN);
    expect_same(got, want, "forward NN", lg);

    auto nr = x;
    gpu.forward_host(nr, NttOrder::NR);
    auto want_nr = want;
    cpu.bit_reverse(want_nr);
    expect_same(nr, want_nr, "forward NR", lg);

    auto rn = want_nr;  // bit-reversed evaluations → inverse RN gives back x
    gpu.inverse_host(rn, NttOrder::RN);
    expect_same(rn, x, "inverse RN", lg);

    auto inv = x;
    cpu.intt(inv);
    auto ginv = x;
    gpu.inverse_host(ginv, NttOrder::NN);
    expect_same(ginv, inv, "inverse NN", lg);

    auto cos = x;
    cpu.coset_ntt(cos);
    auto gcos = x;
    gpu.coset_forward_host(gcos);
    expect_same(gcos, cos, "coset forward", lg);

    auto icos = x;
    cpu.coset_intt(icos);
    auto gicos = x;
    gpu.coset_inverse_host(gicos);
    expect_same(gicos, icos, "coset inverse", lg);
  }
}

TEST(GpuNtt, ComputeHMatchesCpu) {
  REQUIRE_CUDA_DEVICE();
  for (unsigned lg : {1u, 4u, 10u, 16u}) {
    const std::size_t n = std::size_t{1} << lg;
    auto a = random_vec(n, 7 + lg), b = random_vec(n, 8 + lg), c = random_vec(n, 9 + lg);
    EvaluationDomain cpu = EvaluationDomain::with_log_size(lg);
    auto ca = a, cb = b, cc = c;
    proofline::poly::compute_h(ca, cb, cc, cpu);
    NttDomain gpu(lg);
    gpu.compute_h_host(a, b, c);
    ca.resize(n - 1);
    a.resize(n - 1);
    expect_same(a, ca, "compute_h", lg);
  }
}

TEST(GpuNtt, ComputeHOddCosetMatchesOddCosetH) {
  REQUIRE_CUDA_DEVICE();
  for (unsigned lg : {1u, 5u, 10u, 16u}) {
    const std::size_t n = std::size_t{1} << lg;
    auto a = random_vec(n, 70 + lg), b = random_vec(n, 80 + lg), c = random_vec(n, 90 + lg);
    const proofline::groth16::snarkjs::OddCosetH cpu(lg);
    auto ca = a, cb = b, cc = c;
    const std::vector<Fr> want = cpu.compute(ca, cb, cc);
    NttDomain gpu(lg);
    gpu.compute_h_odd_coset_host(a, b, c);
    expect_same(a, want, "compute_h_odd_coset", lg);
  }
  // the same domain object serves both forms, in any order
  NttDomain gpu(6);
  auto a = random_vec(64, 1), b = random_vec(64, 2), c = random_vec(64, 3);
  auto bell = a;
  gpu.compute_h_host(bell, b, c);
  auto odd = a;
  gpu.compute_h_odd_coset_host(odd, b, c);
  auto ca = a, cb = b, cc = c;
  expect_same(odd, proofline::groth16::snarkjs::OddCosetH(6).compute(ca, cb, cc), "odd coset after bellperson", 6);
}

TEST(GpuNtt, TwoColumnHEqualsComputeH) {
  // The lean working set's H (h_column a, b; h_mul; h_column c in b's place; h_finish) leaves the
  // bytes compute_h / compute_h_odd_coset leave, in both forms.
  REQUIRE_CUDA_DEVICE();
  for (unsigned lg : {1u, 5u, 12u}) {
    const std::size_t n = std::size_t{1} << lg;
    const auto a = random_vec(n, 170 + lg), b = random_vec(n, 180 + lg), c = random_vec(n, 190 + lg);
    NttDomain gpu(lg);
    for (bool odd : {false, true}) {
      auto want = a;
      if (odd) {
        gpu.compute_h_odd_coset_host(want, b, c);
      } else {
        gpu.compute_h_host(want, b, c);
      }
      proofline::gpu::DeviceBuffer d(2 * n * sizeof(Fr), "two columns");
      Fr* d0 = d.as<Fr>();
      Fr* d1 = d0 + n;
      CUDA_CHECK(cudaMemcpy(d0, a.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(d1, b.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
      gpu.h_column(d0, odd);
      gpu.h_column(d1, odd);
      gpu.h_mul(d0, d1);
      CUDA_CHECK(cudaDeviceSynchronize());
      CUDA_CHECK(cudaMemcpy(d1, c.data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
      gpu.h_column(d1, odd);
      gpu.h_finish(d0, d1, odd);
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<Fr> got(n);
      CUDA_CHECK(cudaMemcpy(got.data(), d0, n * sizeof(Fr), cudaMemcpyDeviceToHost));
      expect_same(got, want, odd ? "two-column odd-coset H" : "two-column H", lg);
    }
  }
  EXPECT_EQ(NttDomain::table_bytes_for(1000), NttDomain(10).table_bytes());
  EXPECT_EQ(NttDomain::table_bytes_for(1024), NttDomain(10).table_bytes());
}

TEST(GpuNtt, RejectsWrongLength) {
  REQUIRE_CUDA_DEVICE();
  NttDomain gpu(4);
  std::vector<Fr> v(15);
  EXPECT_THROW(gpu.forward_host(v), std::invalid_argument);
  std::vector<Fr> full(16);
  EXPECT_THROW(gpu.compute_h_odd_coset_host(full, v, full), std::invalid_argument);
}

}  // namespace
