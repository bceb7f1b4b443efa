// proofline/groth16/proof.hpp — a Groth16 proof and its 192-byte encoding.
//
// Owns: `Proof` {A ∈ G1, B ∈ G2, C ∈ G1}, its bellperson encoding, and the multi-partition form
// (Filecoin's MultiProof: the partition proofs concatenated in partition order).
//
// Encoding (../shared/reference/formats-and-circuits.md §1.5), 192 bytes:
//   A: G1 COMPRESSED (48) ‖ B: G2 compressed (96) ‖ C: G1 compressed (48)
// ZCash format (flags C/I/S in byte 0, big-endian coordinates, G2 x as c1 ‖ c0; see ec/curve.hpp).
// Decoding is checked by default (on the curve and in the prime-order subgroup), as bellperson's
// Proof::read, and rejects a point at infinity in A, B or C.
//
// Errors: ProoflineError naming the proof (its index in a multi-proof), the element (A, B, C), its
// byte offset and the decoder's finding; BadLength for a multi-proof not a multiple of 192 bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"

namespace proofline::groth16 {

struct Proof {
  ec::G1Affine a;
  ec::G2Affine b;
  ec::G1Affine c;

  static constexpr std::size_t kBytes = 192;

  /// A ‖ B ‖ C, compressed.
  void to_bytes(std::span<std::uint8_t, kBytes> out) const;
  std::array<std::uint8_t, kBytes> to_bytes() const;

  /// Non-throwing decode: Error::Ok, or the first failure (A, then B, then C); `failed_element`
  /// (if given) receives 0, 1 or 2 for A, B, C. `out` is untouched on failure.
  static Error decode(Proof& out, std::span<const std::uint8_t, kBytes> in, ec::Check check = ec::Check::Subgroup,
                      int* failed_element = nullptr);
  /// Throwing decode (ProoflineError with element, offset and reason).
  static Proof from_bytes(std::span<const std::uint8_t, kBytes> in, ec::Check check = ec::Check::Subgroup);

  friend bool operator==(const Proof&, const Proof&) = default;
};

/// The proofs concatenated in order (192·n bytes).
std::vector<std::uint8_t> encode_proofs(std::span<const Proof> proofs);
/// Splits and decodes a multi-proof; BadLength unless the size is a multiple of 192 (and > 0).
std::vector<Proof> decode_proofs(std::span<const std::uint8_t> bytes, ec::Check check = ec::Check::Subgroup);

}  // namespace proofline::groth16
