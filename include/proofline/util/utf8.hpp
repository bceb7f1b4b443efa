// proofline/util/utf8.hpp — text that must be valid UTF-8 (proto3 `string` fields, JSON strings)
// made from messages that may quote a client's bytes.
//
// Owns: `utf8_sequence_length`, `utf8_escape_invalid`.
// Valid UTF-8 is RFC 3629's: 1–4 byte sequences, no overlong forms, no UTF-16 surrogates
// (U+D800…U+DFFF), nothing above U+10FFFF. A proto3 string field that is not valid UTF-8 makes the
// whole message undecodable for strict clients (Python's upb, Go's protobuf), and with it the reply
// (issue 33, finding 3: a cuzk.v1 error_message quoting a request's bytes ≥ 0x80).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace proofline {

/// Length of the valid UTF-8 sequence at the start of `s` (1–4), or 0 when `s` does not start with
/// one (an invalid lead byte, a missing or wrong continuation byte, an overlong form, a surrogate,
/// a code point above U+10FFFF, or a sequence cut short by the end of `s`).
std::size_t utf8_sequence_length(std::string_view s);

/// `s` with every byte that is not part of a valid UTF-8 sequence written as the four characters
/// "\xNN" (two lower-case hex digits); valid sequences, ASCII control characters included, are kept
/// as they are. The result is valid UTF-8; for valid input it equals `s`.
std::string utf8_escape_invalid(std::string_view s);

}  // namespace proofline
