// proofline/gadgets/sha256.hpp — SHA-256 over Booleans (bellperson `gadgets/sha256.rs`).
//
// Owns: `sha256` (padded hash of a bit string), `sha256_block_no_padding` (one compression of a
// 512-bit block from the IV), `sha256_compression_function`, `sha256_iv`.
//
// Bit order: input and output bits are the SHA-256 bit stream — bytes in order, each byte most
// significant bit first. Padding (the 1 bit, zeros, the 64-bit big-endian length) is appended as
// Boolean constants; the IV and round constants are constant UInt32s, so constant folding in
// Boolean/UInt32 removes every constraint that only touches constants (the compression of the padded
// empty message costs 0 constraints).
//
// Constraint order (it fixes the parameters; reference §3.1, §8.1): per compression, one MultiEq;
// message schedule w[16..64) (xors, then addmany of 4); 64 rounds (deferred e = addmany(temp1 ‖ d),
// S1 xors, ch, deferred a = addmany(temp1 ‖ temp2), S0 xors, maj); then h0 (deferred a + H0),
// h1..h3 (addmany of 2), h4 (deferred e + H4), h5..h7; then the MultiEq's last flush.
// Counts: 25,840 per compression of 512 allocated bits; 44,874 for the 2-block hash of 512
// allocated bits; 44,866 when the last two of those bits are constants (tree D nodes).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "proofline/gadgets/boolean.hpp"
#include "proofline/gadgets/uint32.hpp"

namespace proofline::gadgets {

/// H0..H7 as constant UInt32s.
std::array<UInt32, 8> sha256_iv();

/// One compression of a 512-bit block (`input`, 512 bits MSB-first) onto `current`.
std::array<UInt32, 8> sha256_compression_function(ConstraintSystem& cs, std::span<const Boolean> input,
                                                  std::span<const UInt32, 8> current);

/// Compression of one 512-bit block from the IV, no padding; 256 output bits.
std::vector<Boolean> sha256_block_no_padding(ConstraintSystem& cs, std::span<const Boolean> input);

/// SHA-256 of `input` (a multiple of 8 bits); blocks in namespaces "block i"; 256 output bits.
std::vector<Boolean> sha256(ConstraintSystem& cs, std::span<const Boolean> input);

}  // namespace proofline::gadgets
