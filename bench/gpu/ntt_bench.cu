// bench/gpu/ntt_bench.cu — device NTT timings with the data already on the device (CUDA events),
// checked against the CPU EvaluationDomain first at 2^16. Prints one table row per size.
// Usage: gpu_ntt_bench [max_lg=27]; env MIN_LG (default 16): the smallest size timed (the 2^16
// check runs whatever MIN_LG is). env WIDE (default "0,1"): the twiddle tables, one row per size
// for each listed: 0 the compact tables, 1 the wide table (NttDomain(lg, true), ntt.hpp), so both
// show side by side in one run; the 2^16 check covers each (compute_h of the wide domain on a
// satisfied system, c = a·b, which is when it equals bellperson's H).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "proofline/gpu/device.hpp"
#include "proofline/gpu/ntt.hpp"
#include "proofline/poly/domain.hpp"
#include "proofline/poly/quotient.hpp"

#include <string>

using proofline::ff::Fr;
using proofline::gpu::NttDomain;
using proofline::gpu::NttOrder;

__global__ void fill_kernel(uint64_t* x, uint64_t n, uint64_t seed) {
  // deterministic pseudo-random canonical-ish values (< 2^254, hence < r), Montgomery form not needed
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t s = (i + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
    for (int k = 0; k < 4; ++k) {
      s ^= s >> 33; s *= 0xff51afd7ed558ccdULL; s ^= s >> 33;
      x[4 * i + k] = s;
    }
    x[4 * i + 3] &= 0x0fffffffffffffffULL;
  }
}

int main(int argc, char** argv) {
  if (proofline::gpu::device_count() == 0) {
    std::printf("no CUDA device: skipping GPU NTT benchmark\n");
    return 0;
  }
  const unsigned max_lg = argc > 1 ? std::atoi(argv[1]) : 27;
  const unsigned min_lg = std::getenv("MIN_LG") ? std::atoi(std::getenv("MIN_LG")) : 16;
  std::printf("device: %s\n", proofline::gpu::device_name(0).c_str());
  std::vector<bool> wides;
  {
    const std::string w = std::getenv("WIDE") ? std::getenv("WIDE") : "0,1";
    for (char ch : w) {
      if (ch == '0') wides.push_back(false);
      else if (ch == '1') wides.push_back(true);
      else if (ch != ',') { std::printf("WIDE=%s: expected a comma list of 0 and 1\n", w.c_str()); return 2; }
    }
  }
  // correctness gate before timing
  for (bool wide : wides) {
    const unsigned lg = 16;
    const std::size_t n = std::size_t{1} << lg;
    std::vector<Fr> x(n), a(n), b(n), c(n);
    std::mt19937_64 rng(1);
    for (auto& v : x) v = Fr::random(rng);
    for (std::size_t i = 0; i < n; ++i) a[i] = Fr::random(rng), b[i] = Fr::random(rng), c[i] = a[i] * b[i];
    const auto cpu = proofline::poly::EvaluationDomain::with_log_size(lg);
    auto want = x, want_i = x, want_h = a;
    cpu.ntt(want);
    cpu.intt(want_i);
    {
      auto cb = b, cc = c;
      proofline::poly::compute_h(want_h, cb, cc, cpu);
      want_h.resize(n - 1);
    }
    NttDomain d(lg, wide);
    auto got = x, got_i = x, got_h = a;
    d.forward_host(got);
    d.inverse_host(got_i);
    d.compute_h_host(got_h, b, c);
    got_h.resize(n - 1);
    if (got != want || got_i != want_i || got_h != want_h) {
      std::printf("GPU NTT (wide %d) != CPU at 2^16 (forward %d, inverse %d, H %d): not timing\n", int(wide),
                  int(got == want), int(got_i == want_i), int(got_h == want_h));
      return 1;
    }
  }
  std::printf("| size | twiddles | tables MB | forward NN (ms) | forward NR (ms) | inverse NN (ms) | coset fwd (ms) | compute_h (ms) |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
  for (unsigned lg : {16u, 20u, 21u, 22u, 23u, 24u, 25u, 26u, 27u})
  for (bool wide : wides) {
    if (lg > max_lg) break;
    if (lg < min_lg) continue;
    const uint64_t n = uint64_t{1} << lg;
    NttDomain d(lg, wide);
    Fr *a, *b, *c;
    CUDA_CHECK(cudaMalloc(&a, n * sizeof(Fr)));
    CUDA_CHECK(cudaMalloc(&b, n * sizeof(Fr)));
    CUDA_CHECK(cudaMalloc(&c, n * sizeof(Fr)));
    fill_kernel<<<4096, 256>>>(reinterpret_cast<uint64_t*>(a), n, 1);
    fill_kernel<<<4096, 256>>>(reinterpret_cast<uint64_t*>(b), n, 2);
    fill_kernel<<<4096, 256>>>(reinterpret_cast<uint64_t*>(c), n, 3);
    CUDA_CHECK(cudaGetLastError());
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    auto time = [&](auto&& f) {
      f();  // warm-up
      std::vector<float> ms;
      for (int r = 0; r < 5; ++r) {
        CUDA_CHECK(cudaEventRecord(e0));
        f();
        CUDA_CHECK(cudaEventRecord(e1));
        CUDA_CHECK(cudaEventSynchronize(e1));
        float t; CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1)); ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      return ms[0];
    };
    float fnn = time([&] { d.forward(a, NttOrder::NN); });
    float fnr = time([&] { d.forward(a, NttOrder::NR); });
    float inn = time([&] { d.inverse(a, NttOrder::NN); });
    float cf = time([&] { d.coset_forward(a); });
    float h = time([&] { d.compute_h(a, b, c); });
    std::printf("| 2^%u | %s | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", lg, wide ? "wide" : "compact",
                d.table_bytes() / 1e6, fnn, fnr, inn, cf, h);
    cudaFree(a); cudaFree(b); cudaFree(c);
    cudaEventDestroy(e0); cudaEventDestroy(e1);
  }
  return 0;
}
