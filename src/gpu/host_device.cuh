// src/gpu/host_device.cuh — PROOFLINE_HD: `__host__ __device__` (forced inline) under nvcc, `inline` under
// a host compiler, for the templates that both the device kernels and the host tests of tests/gpu_host
// instantiate (ntt_group.cuh, mont_mul.cuh, field_params.cuh). PROOFLINE_UNROLL asks both compilers to
// unroll a loop with a constant trip count (register arrays stay in registers on the device).
#pragma once

#if defined(__CUDACC__)
#define PROOFLINE_HD __host__ __device__ __forceinline__
#define PROOFLINE_HD_CONSTEXPR __host__ __device__ constexpr
#define PROOFLINE_UNROLL _Pragma("unroll")
#else
#define PROOFLINE_HD inline
#define PROOFLINE_HD_CONSTEXPR constexpr
#define PROOFLINE_UNROLL _Pragma("GCC unroll 32")
#endif
