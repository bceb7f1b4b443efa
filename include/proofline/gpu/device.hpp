// proofline/gpu/device.hpp — the CUDA layer's base: error checking, device queries, and a smoke
// kernel proving that the toolchain (nvcc, runtime, host linker) works end to end.
//
// This header is plain C++ (no CUDA headers), so host code compiled by g++ can include it. CUDA
// status values travel as `int` (the numeric cudaError_t) across it; CUDA_CHECK accepts any
// expression yielding a cudaError_t.
//
// Nothing here touches CUDA during static initialisation: a binary linked against proofline_gpu
// starts (and lists its tests) on machines without a driver or device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace proofline::gpu {

/// A failed CUDA runtime call: its status code, the expression that returned it, where it was
/// made, and the runtime's description of the status.
class CudaError : public std::runtime_error {
 public:
  CudaError(int code, std::string expression, std::string file, int line);

  int code() const noexcept { return code_; }  ///< numeric cudaError_t
  const std::string& expression() const noexcept { return expression_; }
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  int code_;
  std::string expression_;
  std::string file_;
  int line_;
};

namespace detail {
/// Throws CudaError for `code` (a non-zero cudaError_t). Defined in device.cu.
[[noreturn]] void throw_cuda_error(int code, const char* expression, const char* file, int line);
}  // namespace detail

/// Number of CUDA devices visible to this process; 0 (not an exception) when there is no device
/// or no usable driver. Other failures throw CudaError.
int device_count();

/// The name of device `device` (e.g. "NVIDIA H200"). Throws CudaError for a bad index.
std::string device_name(int device);

/// (free, total) bytes of the current device (cudaMemGetInfo). Throws CudaError on failure.
std::pair<std::size_t, std::size_t> device_memory_info();

/// Element-wise a[i] + b[i] mod 2^64 computed by a kernel on the current device. Sizes must match
/// (std::invalid_argument otherwise); empty inputs return an empty vector without touching CUDA.
std::vector<std::uint64_t> gpu_add_u64(const std::vector<std::uint64_t>& a,
                                       const std::vector<std::uint64_t>& b);

}  // namespace proofline::gpu

/// Evaluates `expr` (a cudaError_t) once and throws proofline::gpu::CudaError unless it is
/// cudaSuccess (0).
#ifndef CUDA_CHECK
#define CUDA_CHECK(expr)                                                                    \
  do {                                                                                      \
    const int proofline_cuda_status_ = static_cast<int>(expr);                              \
    if (proofline_cuda_status_ != 0) {                                                      \
      ::proofline::gpu::detail::throw_cuda_error(proofline_cuda_status_, #expr, __FILE__,   \
                                                 __LINE__);                                 \
    }                                                                                       \
  } while (0)
#endif
