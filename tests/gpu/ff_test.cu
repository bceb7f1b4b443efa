// tests/gpu/ff_test.cu — device Fr, Fp, Fp2 arithmetic (src/gpu/ff.cuh) equals the host ff layer
// bit for bit on random and edge values. Skipped (not failed) without a CUDA device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <random>
#include <vector>

#include "../../src/gpu/ff.cuh"
#include "../../src/gpu/fp_inverse.cuh"
#include "proofline/ff/fp2.hpp"
#include "proofline/ff/fr.hpp"
#include "proofline/gpu/device.hpp"
#include "require_device.hpp"

namespace {

using namespace proofline;
using gpu::DevFp;
using gpu::DevFp2;
using gpu::DevFr;

// The device constants mirror the host ones (same R, same limbs).
static_assert(sizeof(ff::Fr) == sizeof(DevFr) && sizeof(ff::Fp) == sizeof(DevFp));

enum Op { kAdd = 0, kSub = 1, kMul = 2, kSqr = 3, kNeg = 4 };

template <class F>
__global__ void binop_kernel(F* out, const F* a, const F* b, int n, int op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (op) {
    case kAdd: out[i] = a[i] + b[i]; break;
    case kSub: out[i] = a[i] - b[i]; break;
    case kMul: out[i] = a[i] * b[i]; break;
    case kSqr: out[i] = a[i].sqr(); break;
    default: out[i] = -a[i]; break;
  }
}

template <class D, class H>
std::vector<H> run_on_device(const std::vector<H>& a, const std::vector<H>& b, int op) {
  static_assert(sizeof(D) == sizeof(H));
  const int n = static_cast<int>(a.size());
  std::vector<H> out(n);
  if (n == 0) return out;
  D *d_a = nullptr, *d_b = nullptr, *d_o = nullptr;
  const size_t bytes = sizeof(H) * n;
  CUDA_CHECK(cudaMalloc(&d_a, bytes));
  CUDA_CHECK(cudaMalloc(&d_b, bytes));
  CUDA_CHECK(cudaMalloc(&d_o, bytes));
  CUDA_CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));
  binop_kernel<D><<<(n + 127) / 128, 128>>>(d_o, d_a, d_b, n, op);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(out.data(), d_o, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_o));
  return out;
}

template <class H>
std::vector<H> edge_and_random(std::mt19937_64& rng, int n_random) {
  std::vector<H> v = {H::zero(), H::one(), -H::one(), H::from_u64(2), -H::from_u64(2),
                      H::from_u64(0xffffffffULL), H::from_u64(~0ULL)};
  for (int i = 0; i < n_random; ++i) v.push_back(H::random(rng));
  return v;
}

template <class D, class H>
void check_field(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<H> base = edge_and_random<H>(rng, 4000);
  // all pairs of edge values, then random pairs
  std::vector<H> a, b;
  for (size_t i = 0; i < 7; ++i)
    for (size_t j = 0; j < 7; ++j) a.push_back(base[i]), b.push_back(base[j]);
  for (size_t i = 7; i + 1 < base.size(); ++i) a.push_back(base[i]), b.push_back(base[i + 1]);
  for (int op = kAdd; op <= kNeg; ++op) {
    std::vector<H> got = run_on_device<D, H>(a, b, op);
    for (size_t i = 0; i < a.size(); ++i) {
      H want = op == kAdd ? a[i] + b[i] : op == kSub ? a[i] - b[i] : op == kMul ? a[i] * b[i]
             : op == kSqr ? a[i].square() : -a[i];
      ASSERT_EQ(got[i].limbs, want.limbs) << "op " << op << " index " << i << " a=" << a[i].to_hex()
                                          << " b=" << b[i].to_hex();
    }
  }
}

TEST(GpuFf, FrMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_field<DevFr, ff::Fr>(1);
}

TEST(GpuFf, FpMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_field<DevFp, ff::Fp>(2);
}

template <class D>
void check_fp2(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ff::Fp2> a, b;
  for (int i = 0; i < 2000; ++i) a.push_back(ff::Fp2::random(rng)), b.push_back(ff::Fp2::random(rng));
  a.push_back(ff::Fp2::zero()), b.push_back(ff::Fp2::one());
  for (int op : {kAdd, kSub, kMul, kSqr}) {
    std::vector<ff::Fp2> got = run_on_device<D, ff::Fp2>(a, b, op);
    for (size_t i = 0; i < a.size(); ++i) {
      ff::Fp2 want = op == kAdd ? a[i] + b[i] : op == kSub ? a[i] - b[i] : op == kMul ? a[i] * b[i] : a[i].square();
      ASSERT_TRUE(got[i] == want) << "op " << op << " index " << i;
    }
  }
}

TEST(GpuFf, Fp2MatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_fp2<DevFp2>(3);
}

// The by-reference compilation of the Fp2 products (msm.cuh's new G2 kernels) gives the same values.
TEST(GpuFf, Fp2ByRefMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_fp2<gpu::DevFp2ByRef>(3);
}

// The lean G1 kernels' Fp (DevFpInPlace: the same Montgomery product behind mul_ref / square_ref).
TEST(GpuFf, FpInPlaceMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_field<gpu::DevFpInPlace<4>, ff::Fp>(2);
  check_field<gpu::DevFpInPlace<5>, ff::Fp>(4);
}

// So does the lean G2 kernels' compilation (the same products as functions of their own).
TEST(GpuFf, Fp2InPlaceMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_fp2<gpu::DevFp2InPlace<3>>(3);
}

// The one-thread Fp inversion of the batch-affine MSM's batch inversion (src/gpu/fp_inverse.cuh, the
// binary extended Euclidean algorithm) on the device, one value per thread, against ff::Fp::inverse:
// edge values and 2,000 random ones; 0 gives 0.
__global__ void fp_inverse_kernel(DevFp* out, const DevFp* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) gpu::fp_inverse_mont(a[i].v, out[i].v);
}

TEST(GpuFf, FpInverseMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(5);
  const std::vector<ff::Fp> a = edge_and_random<ff::Fp>(rng, 2000);  // a[0] = 0
  const int n = static_cast<int>(a.size());
  const size_t bytes = sizeof(ff::Fp) * n;
  DevFp *d_a = nullptr, *d_o = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, bytes));
  CUDA_CHECK(cudaMalloc(&d_o, bytes));
  CUDA_CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
  fp_inverse_kernel<<<(n + 127) / 128, 128>>>(d_o, d_a, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<ff::Fp> got(n);
  CUDA_CHECK(cudaMemcpy(got.data(), d_o, bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_o));
  EXPECT_TRUE(got[0].is_zero()) << "0 has no inverse: 0 expected";
  for (int i = 1; i < n; ++i)
    ASSERT_EQ(got[i].limbs, a[i].inverse().limbs) << "index " << i << " a=" << a[i].to_hex();
}

}  // namespace
