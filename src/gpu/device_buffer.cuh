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
// Accounting and limits (DeviceBudget): a buffer allocated while a DeviceBudgetScope is active on
// the allocating thread is counted in that budget (live and peak bytes) until it is freed, whichever
// thread frees it. A budget with a nonzero cap refuses an allocation that would take its live bytes
// past the cap, before calling CUDA, with the same CudaError as a real lack of memory (status 2) and
// an expression naming the cap — so a large card behaves like a smaller one
// (GpuBackendConfig::device_memory_limit). A budget must outlive the buffers counted in it.
//
// Host code only (no kernels): g++ translation units may include it (tests do) through the CUDA
// include path that the proofline_gpu target exports.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <string>
#include <utility>

#include "proofline/gpu/device.hpp"

namespace proofline::gpu {

/// Device bytes counted for one owner (a GpuBackend): live now, the most live since the last
/// reset_peak(), and an optional cap (0: none). See the file comment.
struct DeviceBudget {
  std::size_t cap = 0;
  std::atomic<std::size_t> live{0};
  std::atomic<std::size_t> peak{0};
  void reset_peak() noexcept { peak.store(live.load()); }
};

namespace detail {
inline thread_local DeviceBudget* t_device_budget = nullptr;
}  // namespace detail

/// While alive, buffers allocated on this thread are counted in `budget` (null: in none).
class DeviceBudgetScope {
 public:
  explicit DeviceBudgetScope(DeviceBudget* budget) noexcept : prev_(detail::t_device_budget) {
    detail::t_device_budget = budget;
  }
  ~DeviceBudgetScope() { detail::t_device_budget = prev_; }
  DeviceBudgetScope(const DeviceBudgetScope&) = delete;
  DeviceBudgetScope& operator=(const DeviceBudgetScope&) = delete;

 private:
  DeviceBudget* prev_;
};

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
        budget_(std::exchange(o.budget_, nullptr)),
        what_(std::move(o.what_)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
      stream_ = o.stream_;
      budget_ = std::exchange(o.budget_, nullptr);
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
    DeviceBudget* budget = detail::t_device_budget;
    if (budget != nullptr && budget->cap != 0 && budget->live.load() + bytes > budget->cap) {
      detail::throw_cuda_error(static_cast<int>(cudaErrorMemoryAllocation),
                               ("cudaMalloc(" + std::to_string(bytes) + " bytes for " + what_ +
                                ") refused: over the device memory limit of " + std::to_string(budget->cap) +
                                " bytes (" + std::to_string(budget->live.load()) + " in use)")
                                   .c_str(),
                               __FILE__, __LINE__);
    }
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
    budget_ = budget;
    if (budget_ != nullptr) {
      const std::size_t now = budget_->live.fetch_add(bytes) + bytes;
      std::size_t peak = budget_->peak.load();
      while (now > peak && !budget_->peak.compare_exchange_weak(peak, now)) {
      }
    }
  }
  /// Frees the region (stream-ordered on the buffer's stream, if it has one); the buffer is empty.
  void release() noexcept {
    if (ptr_ != nullptr) {
      const cudaError_t e = stream_ ? cudaFreeAsync(ptr_, stream_) : cudaFree(ptr_);
      if (e != cudaSuccess) (void)cudaGetLastError();  // see the file comment
      if (budget_ != nullptr) budget_->live.fetch_sub(bytes_);
    }
    ptr_ = nullptr;
    bytes_ = 0;
    budget_ = nullptr;
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
  DeviceBudget* budget_ = nullptr;  ///< the budget this region is counted in (null: none)
  std::string what_ = "device buffer";
};

}  // namespace proofline::gpu
