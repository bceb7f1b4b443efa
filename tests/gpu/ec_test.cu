// tests/gpu/ec_test.cu — device G1/G2 point arithmetic (src/gpu/ec.cuh: XYZZ madd, add, dbl,
// mdbl) equals the host ec layer on random points and the special cases (P + P, P + (−P),
// identities). Results are compared in affine form. Skipped (not failed) without a CUDA device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <random>
#include <vector>

#include "../../src/gpu/ec.cuh"
#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/gpu/device.hpp"
#include "require_device.hpp"

namespace {

using namespace proofline;

template <class Cfg>
struct DevOf;
template <>
struct DevOf<ec::G1Config> {
  using F = gpu::DevFp;
};
template <>
struct DevOf<ec::G2Config> {
  using F = gpu::DevFp2;
};

// out[4i + 0] = A + B (madd), out[4i + 1] = 2A + (2B + A) (XYZZ + XYZZ with ZZ != 1),
// out[4i + 2] = dbl(xyzz(A)), out[4i + 3] = mdbl(A); each through + and dbl() and, in out2, through
// += and dbl_assign() (the in-place formulas where the field has kInPlace, ec.cuh).
template <class F>
__global__ void ec_ops_kernel(gpu::DevXyzz<F>* out, gpu::DevXyzz<F>* out2, const gpu::DevAffine<F>* a,
                              const gpu::DevAffine<F>* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using X = gpu::DevXyzz<F>;
  const X xa = X::from_affine(a[i]);
  const X xb = X::from_affine(b[i]);
  out[4 * i + 0] = xa + b[i];
  out[4 * i + 1] = xa.dbl() + (xb.dbl() + a[i]);
  out[4 * i + 2] = xa.dbl();
  out[4 * i + 3] = X::dbl_affine(a[i]);
  X s = xa;
  s += b[i];
  out2[4 * i + 0] = s;
  X d = xa, e = xb;
  d.dbl_assign();
  e.dbl_assign();
  e += a[i];
  d += e;
  out2[4 * i + 1] = d;
  d = xa;
  d.dbl_assign();
  out2[4 * i + 2] = d;
  d = X::identity();
  d += a[i];
  d += a[i];  // P + P: the doubling of the affine point (madd's special case)
  out2[4 * i + 3] = d;
}

template <class Cfg, class F = typename DevOf<Cfg>::F>
void check_ops(uint64_t seed, int n_random) {
  using A = ec::AffinePoint<Cfg>;
  using J = ec::JacobianPoint<Cfg>;
  using X = ec::XyzzPoint<Cfg>;
  std::mt19937_64 rng(seed);
  std::vector<A> a, b;
  auto rnd = [&] { return J::generator().mul(ff::Fr::random(rng)).to_affine(); };
  for (int i = 0; i < n_random; ++i) a.push_back(rnd()), b.push_back(rnd());
  const A p = rnd();
  a.push_back(p), b.push_back(p);                 // P + P
  a.push_back(p), b.push_back(-p);                // P + (−P)
  a.push_back(A::identity()), b.push_back(p);     // O + P
  a.push_back(p), b.push_back(A::identity());     // P + O
  a.push_back(A::identity()), b.push_back(A::identity());
  const int n = static_cast<int>(a.size());

  auto pack = [](const std::vector<A>& v) {
    std::vector<gpu::DevAffine<F>> d(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i].infinity) {
        std::memset(&d[i], 0, sizeof(d[i]));
      } else {
        std::memcpy(&d[i].x, &v[i].x, sizeof(F));
        std::memcpy(&d[i].y, &v[i].y, sizeof(F));
      }
    }
    return d;
  };
  auto ha = pack(a), hb = pack(b);
  gpu::DevAffine<F>*da, *db;
  gpu::DevXyzz<F>*dout, *dout2;
  CUDA_CHECK(cudaMalloc(&da, n * sizeof(*da)));
  CUDA_CHECK(cudaMalloc(&db, n * sizeof(*db)));
  CUDA_CHECK(cudaMalloc(&dout, 4 * n * sizeof(*dout)));
  CUDA_CHECK(cudaMalloc(&dout2, 4 * n * sizeof(*dout2)));
  CUDA_CHECK(cudaMemcpy(da, ha.data(), n * sizeof(*da), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, hb.data(), n * sizeof(*db), cudaMemcpyHostToDevice));
  ec_ops_kernel<F><<<(n + 63) / 64, 64>>>(dout, dout2, da, db, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<X> out(4 * n), out2(4 * n);
  static_assert(sizeof(X) == sizeof(gpu::DevXyzz<F>));
  CUDA_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(X), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(out2.data(), dout2, out2.size() * sizeof(X), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(da));
  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dout));
  CUDA_CHECK(cudaFree(dout2));

  for (int i = 0; i < n; ++i) {
    const J ja = a[i].to_projective(), jb = b[i].to_projective();
    EXPECT_EQ(out[4 * i + 0].to_affine(), (ja + jb).to_affine()) << Cfg::kName << " madd, case " << i;
    EXPECT_EQ(out[4 * i + 1].to_affine(), (ja.dbl() + jb.dbl() + ja).to_affine()) << Cfg::kName << " add, case " << i;
    EXPECT_EQ(out[4 * i + 2].to_affine(), ja.dbl().to_affine()) << Cfg::kName << " dbl, case " << i;
    EXPECT_EQ(out[4 * i + 3].to_affine(), ja.dbl().to_affine()) << Cfg::kName << " mdbl, case " << i;
    EXPECT_TRUE(out[4 * i + 1].is_on_curve()) << Cfg::kName << " case " << i;
    // += and dbl_assign(): the same coordinates as + and dbl() (the same formulas, whatever their
    // schedule), the identity wherever the affine result is the identity
    for (int k = 0; k < 4; ++k) {
      const X &x1 = out[4 * i + k], &x2 = out2[4 * i + k];
      if (x1.is_identity()) {
        EXPECT_TRUE(x2.is_identity()) << Cfg::kName << " in place, op " << k << ", case " << i;
      } else {
        EXPECT_TRUE(x1.x == x2.x && x1.y == x2.y && x1.zz == x2.zz && x1.zzz == x2.zzz)
            << Cfg::kName << " in place, op " << k << ", case " << i;
      }
    }
  }
}

TEST(GpuEc, G1MatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_ops<ec::G1Config>(11, 200);
}

TEST(GpuEc, G2MatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_ops<ec::G2Config>(12, 100);
}

// The by-reference compilation of the Fp2 products (msm.cuh's new G2 kernels).
TEST(GpuEc, G2ByRefMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_ops<ec::G2Config, gpu::DevFp2ByRef>(12, 100);
}

// The in-place XYZZ formulas (xyzz_in_place.cuh) over the lean G1 kernels' Fp (DevFpInPlace: products
// by reference; msm.cuh's PROOFLINE_G1_KERNELS=lean-4, lean-5), both bounds.
TEST(GpuEc, G1InPlaceMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_ops<ec::G1Config, gpu::DevFpInPlace<4>>(14, 200);
  check_ops<ec::G1Config, gpu::DevFpInPlace<5>>(15, 200);
}

// The in-place XYZZ formulas (xyzz_in_place.cuh) over the lean kernels' Fp2 (msm.cuh's lean G2
// kernels), both bounds.
TEST(GpuEc, G2InPlaceMatchesHost) {
  REQUIRE_CUDA_DEVICE();
  check_ops<ec::G2Config, gpu::DevFp2InPlace<3>>(12, 100);
  check_ops<ec::G2Config, gpu::DevFp2InPlace<4>>(13, 100);
}

}  // namespace
