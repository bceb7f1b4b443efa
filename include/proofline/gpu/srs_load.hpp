// proofline/gpu/srs_load.hpp — loading the queries of a bellperson .params file straight into device
// memory (or into pinned host memory in the device layout), decoded and checked on the GPU.
//
// Plain C++ (no CUDA headers). Implemented in src/gpu/srs_load.cu. Used by GpuBackend (backend.hpp
// "Residency") for parameters whose queries are off the host (groth16::Parameters::source).
//
// ---- Pipeline (one section) --------------------------------------------------------------------
// The section's points are read in chunks of `chunk_bytes` (whole points) with parallel preads
// (groth16::ParamsFile::read) into one of two pinned host buffers, copied to one of two raw device
// buffers on one of two streams and decoded there by a kernel, one thread per point; while the
// device copies and decodes chunk i, the host reads chunk i + 1 into the other pinned buffer. The
// kernel checks what Parameters::read_file checks: flags (no compression or sign bit, no point at
// infinity), both coordinates canonical (< p), the point on its curve (y² = x³ + 4, or + 4(1 + i)
// on G2), and when file.options().check is Check::Subgroup the prime-order subgroup ([r]P = O);
// it converts the coordinates to Montgomery form and writes the packed device layout (msm.hpp
// "Encodings": x ‖ y, 96 B per G1 point, 192 B per G2 point), the same bytes as GpuMsm::set_bases
// makes from the host-decoded points.
//
// ---- Errors ------------------------------------------------------------------------------------
// The kernel records the lowest index of a bad point; at the end of the section that point is
// decoded again on the CPU (ParamsFile::throw_bad_point) so the error is the one read_file gives:
// ProoflineError naming the file, section, element index and byte offset, what was found and what
// was expected. I/O errors: std::system_error naming the path. CUDA failures: CudaError
// (allocation failures with cudaErrorMemoryAllocation, as DeviceBuffer's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "proofline/groth16/params.hpp"

namespace proofline::gpu {

/// Decoded device bytes of one point of a section: 96 (G1) or 192 (G2), as in the file.
std::size_t device_point_bytes(groth16::ParamsSection s) noexcept;

/// Streams sections of .params files into device (or pinned host) memory on the current device.
/// Owns two pinned staging buffers of chunk_bytes, two raw device buffers of chunk_bytes and (for
/// host destinations) two decoded device buffers of chunk_bytes: 4–6 · chunk_bytes in all, allocated
/// on first use, freed by release() or the destructor. Not thread-safe: one load at a time.
class SrsLoader {
 public:
  /// chunk_bytes: bytes of each staging chunk (rounded down to whole points; at least one point).
  explicit SrsLoader(std::size_t chunk_bytes = std::size_t{64} << 20);
  ~SrsLoader();
  SrsLoader(const SrsLoader&) = delete;
  SrsLoader& operator=(const SrsLoader&) = delete;

  /// Decodes every point of section s of `file` into dst (count · device_point_bytes(s) bytes):
  /// a device pointer, or with dst_on_host a host pointer (pinned memory for full speed; pageable
  /// works). Returns when the bytes are in place. Errors: see the file comment.
  void load(const groth16::ParamsFile& file, groth16::ParamsSection s, void* dst, bool dst_on_host = false);
  /// Frees the staging buffers (the next load allocates them again).
  void release();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace proofline::gpu
