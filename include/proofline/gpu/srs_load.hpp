// proofline/gpu/srs_load.hpp — loading the queries of a parameter file (a bellperson .params or a
// snarkjs .zkey: groth16::QuerySource) straight into device memory (or into pinned host memory in
// the device layout), decoded and checked on the GPU.
//
// Plain C++ (no CUDA headers). Implemented in src/gpu/srs_load.cu. Used by GpuBackend (backend.hpp
// "Residency") for parameters whose queries are off the host (groth16::Parameters::source).
//
// ---- Pipeline (one section) --------------------------------------------------------------------
// The query's points are read in chunks of `chunk_bytes` (whole points) with parallel preads
// (groth16::QuerySource::read_points) into one of two pinned host buffers, copied to one of two raw device
// buffers on one of two streams and decoded there by a kernel, one thread per point; while the
// device copies and decodes chunk i, the host reads chunk i + 1 into the other pinned buffer. The
// kernel checks what the CPU reader of the same file checks (QuerySource::Encoding):
//   Bellperson (Parameters::read_file): flags (no compression or sign bit, no point at infinity),
//     both coordinates canonical (< p), converted to Montgomery form;
//   Zkey (snarkjs::Zkey::read_file): all-zero bytes are the point at infinity (written as zeros, the
//     device layout's infinity); otherwise every coordinate < p, already in Montgomery form;
// then the point on its curve (y² = x³ + 4, or + 4(1 + i) on G2), and when file.check() is
// Check::Subgroup the prime-order subgroup ([r]P = O). It writes the packed device layout (msm.hpp
// "Encodings": x ‖ y, 96 B per G1 point, 192 B per G2 point), the same bytes as GpuMsm::set_bases
// makes from the host-decoded points.
//
// ---- Errors ------------------------------------------------------------------------------------
// The kernel records the lowest index of a bad point; at the end of the section that point is
// decoded again on the CPU (QuerySource::throw_bad_point) so the error is the one read_file gives:
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

/// Streams the queries of parameter files into device (or pinned host) memory on the current device.
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

  /// Decodes every point of query s of `file` into dst (file.count(s) · device_point_bytes(s) bytes):
  /// a device pointer, or with dst_on_host a host pointer (pinned memory for full speed; pageable
  /// works). Returns when the bytes are in place. Errors: see the file comment.
  void load(const groth16::QuerySource& file, groth16::ParamsSection s, void* dst, bool dst_on_host = false);
  /// Frees the staging buffers (the next load allocates them again).
  void release();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace proofline::gpu
