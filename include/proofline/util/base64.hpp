// proofline/util/base64.hpp — standard base64 (RFC 4648 §4: alphabet A–Z a–z 0–9 + /, '=' padding),
// as Go's encoding/base64.StdEncoding writes it (Curio's JSON arrays of vanilla proofs, cuzk-bench's
// --vanilla files).
//
// Owns: `base64_encode`, `base64_decode`.
// Strict decoding: length a multiple of 4, only alphabet characters, '=' only as the last one or
// two characters, and the unused low bits of the last symbol zero (so every byte string has exactly
// one accepted encoding). Errors: ProoflineError(Error::Malformed, "base64: <what> at character
// <offset>").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace proofline {

std::string base64_encode(std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> base64_decode(std::string_view text);

}  // namespace proofline
