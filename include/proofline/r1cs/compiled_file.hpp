// proofline/r1cs/compiled_file.hpp — the on-disk form of a CompiledCircuit (compiled_circuit.hpp).
//
// Owns: `write_compiled_circuit`, `read_compiled_circuit`, `CompiledReadOptions` and the format's
// constants (kCompiledMagic, kCompiledVersion, kCompiledHeaderBytes).
//
// Format, version 2 (written; version 1 is still read). Every integer little-endian; the file is
// memory-mapped on read and the arrays are used in place, so each section starts at a multiple of 8
// bytes (zero padding).
//   header, 128 bytes:
//     0   8  magic "PLCCIRC\0"
//     8   4  u32 version (2; 1 for files written before 2026-12-06)
//     12  4  u32 header bytes (128)
//     16  8  u64 constraints n (input constraints included)
//     24  8  u64 inputs I (ONE included)
//     32  8  u64 aux X
//     40  8  u64 nnz of A     48  8  nnz of B     56  8  nnz of C
//     64  8  u64 coefficients K (2 <= K <= 65,536)
//     72  8  u64 file bytes (the whole file, header included)
//     80  32 the digest, with these 32 bytes read as zero:
//              version 2: SHA-256(header ‖ SHA-256(chunk 0) ‖ SHA-256(chunk 1) ‖ …), the chunks being
//              the bytes after the header in consecutive slices of 2^L bytes (the last one shorter;
//              none when the file is the header alone), so a reader hashes them on every core;
//              version 1: SHA-256 of the whole file (one core: ~1.6 GB/s, 3.7 s for a 32 GiB PoRep's)
//     112 4  u32 L, log2 of the digest's chunk bytes, 6 <= L <= 40 (the writer: 26, 64 MiB);
//              version 1: zero
//     116 12 zero
//   coefficients: K × 32 bytes, each Fr canonical little-endian (Filecoin's encoding; < r);
//     [0] = 1, [1] = r − 1 (= −1)
//   for A, B, C in turn: row offsets (n + 1) × u32, columns nnz × u32, coefficient indices nnz × u16,
//     zero padding to 8 bytes
//   densities, LSB-first u64 words (density.hpp): a_aux ⌈X/64⌉, b_input ⌈I/64⌉, b_aux ⌈X/64⌉;
//     bits beyond the bitmap's size zero
//
// Write: to a new temporary file beside `path` (mkstemp, so never onto an existing file), fsync'd,
// then renamed onto `path`. A file already at `path` is replaced as a whole by the rename and never
// written in place, so a CompiledCircuit mapped from it keeps its bytes. The temporary is removed on
// any failure. Throws std::system_error (errno, with the path) on an I/O failure.
//
// Read: the file is mapped read-only (MAP_PRIVATE) and checked in this order, each failure a
// ProoflineError whose message starts "compiled circuit <path>: " and names the offset or field:
//   1. size >= 128, magic, version, header bytes, chunk log2 L, reserved zero   Error::Malformed
//   2. the shape's counts within the format's limits, and the file's size equal to the size they
//      describe (a truncated or extended file; "truncated" when shorter)   Error::Malformed
//   3. the digest at offset 80 equal to the content's ("digest mismatch")   Error::Malformed
//   4. the shape equal to options.expected, when given: constraints, inputs, aux each named with
//      the file's value and the expected one ("another circuit")       Error::BadArgument
//   5. the content: coefficients canonical, [0] = 1, [1] = −1; row offsets start at 0, never
//      decrease, end at nnz; columns < I + X and increasing within a row; indices < K; no density
//      bit beyond a bitmap's size                                       Error::Malformed
// Cost: one pass over the file for the digest (version 2: its chunks on every core of the process's
// oneTBB arena; version 1: one core) and one over the matrices for step 5 (rows in parallel); the
// matrices then stay in the page cache / mapping (no copy). The coefficient
// table and the three bitmaps are copied out (K × 32 B, (2X + I) / 8 B). System errors (open, mmap)
// throw std::system_error with the path.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/shape_counter.hpp"

namespace proofline::r1cs {

inline constexpr char kCompiledMagic[8] = {'P', 'L', 'C', 'C', 'I', 'R', 'C', '\0'};
inline constexpr std::uint32_t kCompiledVersion = 2;
/// log2 of the digest's chunk bytes that write_compiled_circuit uses by default (64 MiB).
inline constexpr unsigned kCompiledDigestChunkLog2 = 26;
inline constexpr std::uint64_t kCompiledHeaderBytes = 128;

struct CompiledReadOptions {
  /// The circuit the caller means (counts from its parameters or a ShapeCounter run): a file of
  /// another shape is refused (step 4 above). std::nullopt: any shape.
  std::optional<CircuitShape> expected;
  /// Files larger than this are refused before they are mapped (Error::Malformed).
  std::uint64_t max_bytes = std::uint64_t{1} << 40;
};

/// Writes `circuit` to `path` (format above) atomically. Returns the file's size in bytes. A
/// CompiledShape::c_is_ab circuit is refused (ProoflineError BadArgument): it is made from its zkey.
/// `digest_chunk_log2` sets L (6..40, and at most 2^20 chunks after the header, which is what a
/// reader takes; else std::invalid_argument): tests use small chunks.
std::uint64_t write_compiled_circuit(const std::string& path, const CompiledCircuit& circuit,
                                     unsigned digest_chunk_log2 = kCompiledDigestChunkLog2);

/// Maps and checks the file at `path` (steps above); the result's arrays point into the mapping,
/// which lives as long as the CompiledCircuit.
CompiledCircuit read_compiled_circuit(const std::string& path, const CompiledReadOptions& options = {});

}  // namespace proofline::r1cs
