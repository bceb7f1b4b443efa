// src/gpu/device.cu — CUDA error type, device queries and the u64 addition smoke kernel.
#include "proofline/gpu/device.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "device_buffer.cuh"

namespace proofline::gpu {

namespace {

std::string describe(int code, const std::string& expression, const std::string& file, int line) {
  const auto status = static_cast<cudaError_t>(code);
  return "CUDA error " + std::to_string(code) + " (" + cudaGetErrorName(status) + ": " +
         cudaGetErrorString(status) + ") from `" + expression + "` at " + file + ":" +
         std::to_string(line);
}

__global__ void add_u64_kernel(const std::uint64_t* a, const std::uint64_t* b, std::uint64_t* out,
                               std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    out[i] = a[i] + b[i];  // unsigned: wraps mod 2^64
  }
}

}  // namespace

CudaError::CudaError(int code, std::string expression, std::string file, int line)
    : std::runtime_error(describe(code, expression, file, line)),
      code_(code),
      expression_(std::move(expression)),
      file_(std::move(file)),
      line_(line) {}

namespace detail {
void throw_cuda_error(int code, const char* expression, const char* file, int line) {
  // A failed runtime call also records its status as the thread's "last error"; consume it here,
  // so that a later cudaGetLastError() (the launch check) does not report this one again.
  cudaGetLastError();
  throw CudaError(code, expression, file, line);
}
}  // namespace detail

int device_count() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
    cudaGetLastError();  // clear the sticky error so later calls do not report it
    return 0;
  }
  CUDA_CHECK(status);
  return count;
}

std::string device_name(int device) {
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

std::pair<std::size_t, std::size_t> device_memory_info() {
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return {free_b, total_b};
}

std::vector<std::uint64_t> gpu_add_u64(const std::vector<std::uint64_t>& a,
                                       const std::vector<std::uint64_t>& b) {
  if (a.size() != b.size()) {
    throw std::invalid_argument("gpu_add_u64: inputs differ in size (" + std::to_string(a.size()) +
                                " vs " + std::to_string(b.size()) + ")");
  }
  const std::size_t n = a.size();
  std::vector<std::uint64_t> out(n);
  if (n == 0) return out;
  const std::size_t bytes = n * sizeof(std::uint64_t);

  DeviceBuffer da(bytes, "gpu_add_u64 a"), db(bytes, "gpu_add_u64 b"), dout(bytes, "gpu_add_u64 out");
  CUDA_CHECK(cudaMemcpy(da.get(), a.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db.get(), b.data(), bytes, cudaMemcpyHostToDevice));

  constexpr unsigned kThreads = 256;
  const std::size_t wanted = (n + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(wanted < 65535 ? wanted : 65535);
  add_u64_kernel<<<blocks, kThreads>>>(da.as<std::uint64_t>(), db.as<std::uint64_t>(), dout.as<std::uint64_t>(), n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  CUDA_CHECK(cudaMemcpy(out.data(), dout.get(), bytes, cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace proofline::gpu
