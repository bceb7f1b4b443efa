// src/gpu/device_buffer.cuh — DeviceBuffer, the one owner of device memory in gpu/ (sppark's
// util/gpu_t.cuh dev_ptr_t): the backend's growable scratch, the MSM's bases and scratch, the NTT
// tables, the fixed-base tables and the host convenience round trips all hold their device bytes in
// one of these.
//
// One cudaMalloc'd region on the current device (or, with a stream, a stream-ordered
// cudaMallocAsync / cudaFreeAsync pair on that stream), freed by the destructor; move-only.
// `ensure(bytes)` grows it (the old region is freed first and the contents are lost; a smaller or
// equal request keeps it); `as<T>()` views it typed.
//
// Errors: a failed allocation throws gpu::CudaError (device.hpp) with the CUDA status (for lack of
// memory: cudaErrorMemoryAllocation, 2) and the expression "cudaMalloc(<N> bytes for <what>)"
// (cudaMallocAsync with a stream); the thread's error state is consumed first, so later CUDA calls
// and allocations work, and the buffer then holds nothing. GpuBackend turns that status into ProoflineError(OutOfMemory) with the device's
// free memory (backend.cu, translating_oom). Freeing cannot throw (destructor, release()): a failed
// free only happens on a context that is already broken, and its status is consumed so that the next
// checked call reports the context's own error rather than this one.
//
// Host code only (no kernels): g++ translation units may include it (tests do) through the CUDA
// include path that the proofline_gpu target exports.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "proofline/gpu/device.hpp"

namespace proofline::gpu {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// An empty buffer; `what` names it in error messages.
  explicit DeviceBuffer(std::string what) : what_(std::move(what)) {}
  /// Allocates `bytes` (0: nothing).
  DeviceBuffer(std::size_t bytes, std::string what) : what_(std::move(what)) { ensure(bytes); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        bytes_(std::exchange(o.bytes_, 0)),
        stream_(o.stream_),
        what_(std::move(o.what_)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
      stream_ = o.stream_;
      what_ = std::move(o.what_);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  /// Makes the region at least `bytes` long (see the file comment).
  void ensure(std::size_t bytes) {
    if (bytes <= bytes_) return;
    release();
    void* p = nullptr;
    const cudaError_t e = stream_ ? cudaMallocAsync(&p, bytes, stream_) : cudaMalloc(&p, bytes);
    if (e != cudaSuccess) {
      detail::throw_cuda_error(static_cast<int>(e),
                               (std::string(stream_ ? "cudaMallocAsync(" : "cudaMalloc(") + std::to_string(bytes) +
                                " bytes for " + what_ + ")")
                                   .c_str(),
                               __FILE__, __LINE__);
    }
    ptr_ = p;
    bytes_ = bytes;
  }
  /// Frees the region (stream-ordered on the buffer's stream, if it has one); the buffer is empty.
  void release() noexcept {
    if (ptr_ != nullptr) {
      const cudaError_t e = stream_ ? cudaFreeAsync(ptr_, stream_) : cudaFree(ptr_);
      if (e != cudaSuccess) (void)cudaGetLastError();  // see the file comment
    }
    ptr_ = nullptr;
    bytes_ = 0;
  }
  /// Allocates and frees with cudaMallocAsync / cudaFreeAsync on `stream` from now on (null: plain
  /// cudaMalloc / cudaFree). The current region is released first: it was allocated the other way.
  void set_stream(cudaStream_t stream) noexcept {
    if (stream == stream_) return;
    release();
    stream_ = stream;
  }

  void* get() const noexcept { return ptr_; }
  template <class T>
  T* as() const noexcept {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const noexcept { return bytes_; }
  cudaStream_t stream() const noexcept { return stream_; }
  const std::string& what() const noexcept { return what_; }
  void set_what(std::string what) { what_ = std::move(what); }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  std::string what_ = "device buffer";
};

}  // namespace proofline::gpu
