// proofline/filecoin/hashers.hpp — Filecoin's native hashers (filecoin-hashers): SHA-256 with the
// 254-bit trim and Poseidon with neptune's MerkleTree constants.
//
// Owns: `Sha256Domain` (32 raw bytes, read as a little-endian integer when used as a field element),
// `trim_to_fr32`, `sha256_trimmed`, `sha256_node`, domain ⇄ Fr conversions, `poseidon_node`,
// `poseidon_hash_md`.
//
// Rules (reference §5): every SHA-256 output used as a domain element is trimmed: byte[31] &= 0x3F, so
// the little-endian integer is < 2^254 < r. A SHA-256 tree node is trim(SHA-256(child_0 ‖ … ‖ child_{a−1}))
// (leaves are not hashed). A Poseidon tree node is Poseidon_arity(children) with tag 2^arity − 1.
// hash_md (arity 36): acc = x_0, then for each chunk of up to 35 further elements
// acc = Poseidon36(acc, chunk…, zero padding). SHA-256 is OpenSSL's.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "proofline/ff/fr.hpp"

namespace proofline::filecoin {

using ff::Fr;
using Sha256Domain = std::array<std::uint8_t, 32>;

inline void trim_to_fr32(Sha256Domain& d) noexcept { d[31] &= 0x3f; }
/// trim(SHA-256(data)).
Sha256Domain sha256_trimmed(std::span<const std::uint8_t> data);
/// trim(SHA-256(children concatenated)).
Sha256Domain sha256_node(std::span<const Sha256Domain> children);
/// The domain bytes as a little-endian Fr (the bytes must encode a value < r; trimmed ones do).
Fr domain_to_fr(const Sha256Domain& d);
Sha256Domain fr_to_domain(const Fr& f);

/// Poseidon with the MerkleTree tag, arity = children.size() (2, 4, 8, 11, 16, 24, 36).
Fr poseidon_node(std::span<const Fr> children);
/// neptune's hash_md over arity-36 Poseidon.
Fr poseidon_hash_md(std::span<const Fr> elements);

}  // namespace proofline::filecoin
