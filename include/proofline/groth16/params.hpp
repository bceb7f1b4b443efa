// proofline/groth16/params.hpp — Groth16 verifying keys and parameters (SRS) in bellperson's
// exact file layout.
//
// Owns: `VerifyingKey` (the `.vk` file, and the prefix of `.params`), `Parameters` (the `.params`
// file: vk + h, l, a, b_g1, b_g2), `ReadOptions`, and their readers and writers.
//
// Layout (../shared/reference/formats-and-circuits.md §1.2–1.4; no header, no padding, no trailer):
//   .vk      alpha_g1 G1 ‖ beta_g1 G1 ‖ beta_g2 G2 ‖ gamma_g2 G2 ‖ delta_g1 G1 ‖ delta_g2 G2 ‖
//            u32 n_ic ‖ n_ic × G1                                  = 868 + 96·n_ic bytes
//   .params  .vk ‖ u32 n_h ‖ n_h × G1 ‖ u32 n_l ‖ n_l × G1 ‖ u32 n_a ‖ n_a × G1 ‖
//            u32 n_b_g1 ‖ n_b_g1 × G1 ‖ u32 n_b_g2 ‖ n_b_g2 × G2
//            = 868 + 96·(n_ic + n_h + n_l + n_a + n_b_g1) + 20 + 192·n_b_g2 bytes
// Counts are u32 BIG-endian. Points are ZCash UNCOMPRESSED encodings: G1 = x ‖ y (96 bytes), G2 =
// x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 (192 bytes), coordinates canonical big-endian, flags in byte 0 (see
// ec/curve.hpp). In memory every point is an affine point in Montgomery form.
//
// Meaning (all "·G" are the fixed generators; u_j, v_j, w_j the QAP polynomials of variable j;
// m the domain size; Z(X) = X^m − 1):
//   ic[j]   = (β·u_j(τ) + α·v_j(τ) + w_j(τ))/γ · G1   for each input j (ONE first)
//   h[i]    = τ^i·Z(τ)/δ · G1                          i = 0 .. m−2
//   l[j]    = (β·u_j(τ) + α·v_j(τ) + w_j(τ))/δ · G1   for each aux j
//   a       = u_j(τ)·G1 for every input, then for each aux with A-density (u_j ≠ 0)
//   b_g1/g2 = v_j(τ)·G1 / ·G2 for inputs with B-density, then aux with B-density
//
// Reading (bellperson's Parameters::read): the vk's points are always decoded CHECKED (on the curve
// and in the prime-order subgroup); h, l, a, b_g1, b_g2 are checked or merely on-curve per
// `ReadOptions::check` (Filecoin loads cached parameters unchecked). No point of ic, h, l, a, b_g1,
// b_g2 may be the identity (bellperson rejects it); the six vk points may (bellperson does not test
// them; the prover refuses a δ at infinity). Every count is validated against the bytes that remain
// BEFORE anything is allocated. Beyond bellperson, proofline also rejects trailing bytes after the
// last section and parameters whose h is not 2^k − 1 long or whose a is shorter than ic.
// Files are memory-mapped; the points of each section are decoded in parallel (oneTBB).
//
// Errors: a malformed file raises ProoflineError whose message names the file (or "<memory>"),
// the section (vk.alpha_g1 … vk.delta_g2, ic, h, l, a, b_g1, b_g2), the element index and its byte
// offset, what was found and what was expected; codes: BadLength (truncated, trailing bytes,
// inconsistent counts), UnexpectedInfinity, and the point decoder's code (NotCanonical,
// NotOnCurve, NotInSubgroup, CompressionMismatch, …). Operating-system failures (open, mmap, write)
// raise std::system_error naming the path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"

namespace proofline::groth16 {

using ec::Check;
using ec::G1Affine;
using ec::G2Affine;
using ff::Fr;

/// Uncompressed point sizes used by .vk / .params.
inline constexpr std::size_t kG1Uncompressed = 96;
inline constexpr std::size_t kG2Uncompressed = 192;
/// The fixed part of a verifying key: 3 G1 + 3 G2 uncompressed points, plus the u32 ic count.
inline constexpr std::size_t kVkFixedBytes = 3 * kG1Uncompressed + 3 * kG2Uncompressed + 4;  // 868

struct ReadOptions {
  /// How the points of h, l, a, b_g1, b_g2 are checked (the vk is always Check::Subgroup).
  Check check = Check::Subgroup;
  /// 0: all cores of the calling thread's TBB arena; 1: serial; n: at most n threads.
  unsigned max_threads = 0;
};

struct VerifyingKey {
  G1Affine alpha_g1;
  G1Affine beta_g1;
  G2Affine beta_g2;
  G2Affine gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
  /// One point per public input, ONE first (so ic.size() = number of public inputs + 1).
  std::vector<G1Affine> ic;

  /// 868 + 96·ic.size().
  std::size_t serialized_size() const noexcept { return kVkFixedBytes + kG1Uncompressed * ic.size(); }
  /// Appends the .vk encoding to `out`.
  void write(std::vector<std::uint8_t>& out) const;
  std::vector<std::uint8_t> to_bytes() const;
  /// Writes the .vk file (std::system_error on I/O failure).
  void write_file(const std::string& path) const;

  /// Decodes a whole .vk buffer (trailing bytes are an error). `source` names it in messages.
  static VerifyingKey from_bytes(std::span<const std::uint8_t> bytes, std::string_view source = "<memory>");
  /// Memory-maps and decodes a .vk file.
  static VerifyingKey read_file(const std::string& path);

  friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

struct Parameters {
  VerifyingKey vk;
  std::vector<G1Affine> h;
  std::vector<G1Affine> l;
  std::vector<G1Affine> a;
  std::vector<G1Affine> b_g1;
  std::vector<G2Affine> b_g2;

  /// Number of public inputs including ONE (= vk.ic.size()).
  std::size_t num_inputs() const noexcept { return vk.ic.size(); }
  /// Number of aux variables (= l.size()).
  std::size_t num_aux() const noexcept { return l.size(); }
  /// Evaluation-domain size m (= h.size() + 1).
  std::size_t domain_size() const noexcept { return h.size() + 1; }

  std::size_t serialized_size() const noexcept;
  /// Appends the .params encoding to `out` (points encoded in parallel for large sections).
  void write(std::vector<std::uint8_t>& out) const;
  std::vector<std::uint8_t> to_bytes() const;
  /// Streams the .params file to `path` (std::system_error on I/O failure).
  void write_file(const std::string& path) const;

  /// Decodes a whole .params buffer. `source` names it in messages.
  static Parameters from_bytes(std::span<const std::uint8_t> bytes, const ReadOptions& opts = {},
                               std::string_view source = "<memory>");
  /// Memory-maps and decodes a .params file.
  static Parameters read_file(const std::string& path, const ReadOptions& opts = {});

  friend bool operator==(const Parameters&, const Parameters&) = default;
};

/// Reads a whole file into memory (std::system_error naming the path on failure). Small helper for
/// proof files and tests; parameters use the memory-mapped readers above.
std::vector<std::uint8_t> read_file_bytes(const std::string& path);
/// Writes bytes to a file, replacing it (std::system_error naming the path on failure).
void write_file_bytes(const std::string& path, std::span<const std::uint8_t> bytes);

}  // namespace proofline::groth16
