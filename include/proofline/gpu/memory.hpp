// proofline/gpu/memory.hpp — device allocations whose out-of-memory failure is a recoverable
// ProoflineError, and the device's free/total memory.
//
// Plain C++ (no CUDA headers). Implemented in src/gpu/backend.cu.
//
// Errors: a failed cudaMalloc for lack of memory throws ProoflineError(Error::OutOfMemory) with the
// message "allocating <what>: <N> bytes requested, device <d> has <F> of <T> bytes free"; the CUDA
// error state is cleared first, so later CUDA calls (and later allocations) work. Any other failure
// throws gpu::CudaError (device.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace proofline::gpu {

/// (free, total) bytes of the current device (cudaMemGetInfo). Throws CudaError on failure.
std::pair<std::size_t, std::size_t> device_memory_info();

/// One cudaMalloc'd region on the current device, freed by the destructor (move-only).
class DeviceMemory {
 public:
  DeviceMemory() = default;
  /// Allocates `bytes` (0: nothing). `what` names the buffer in error messages.
  DeviceMemory(std::size_t bytes, std::string what);
  ~DeviceMemory();
  DeviceMemory(DeviceMemory&& o) noexcept;
  DeviceMemory& operator=(DeviceMemory&& o) noexcept;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  /// Makes the region at least `bytes` long; a smaller one is freed and reallocated (contents are
  /// lost). On failure the object holds nothing.
  void ensure(std::size_t bytes);
  void release() noexcept;
  void* get() const noexcept { return ptr_; }
  template <class T>
  T* as() const noexcept {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const noexcept { return bytes_; }
  const std::string& what() const noexcept { return what_; }
  void set_what(std::string what) { what_ = std::move(what); }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
  std::string what_ = "device buffer";
};

}  // namespace proofline::gpu
