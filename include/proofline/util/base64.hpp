// proofline/util/base64.hpp — standard base64 (RFC 4648 §4: alphabet A–Z a–z 0–9 + /, '=' padding),
// as Go's encoding/base64.StdEncoding writes it (Curio's JSON arrays of vanilla proofs, cuzk-bench's
// --vanilla files).
//
// Owns: `base64_encode`, `base64_decode`, `base64_decode_into`.
// Strict decoding: length a multiple of 4, only alphabet characters, '=' only as the last one or
// two characters, and the unused low bits of the last symbol zero (so every byte string has exactly
// one accepted encoding). What is wrong is said as "base64 text of N characters (expected a multiple
// of 4)", "not base64 at character K (expected A-Z a-z 0-9 + / and final '=')" or "not canonical
// base64 at character K (non-zero bits after the last byte)"; base64_decode throws it as
// ProoflineError(Error::Malformed, "base64: <that>").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace proofline {

std::string base64_encode(std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> base64_decode(std::string_view text);
/// The same without throwing: fills `out` and returns "", or returns what is wrong (above).
std::string base64_decode_into(std::string_view text, std::vector<std::uint8_t>& out);

}  // namespace proofline
