// proofline/util/hex.hpp — bytes as hex digits and back (ids, digests and 32-byte field values in
// arguments, messages and JSON).
//
// Owns: `to_hex`, `from_hex`.
// to_hex writes two lower-case digits per byte, in byte order. from_hex takes exactly two digits
// (0-9, a-f, A-F) per byte of `out`, no prefix or separator.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace proofline {

inline std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (const std::uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

/// Fills `out` from 2·out.size() hex digits: true, or false for another length or a character that
/// is not a hex digit (`out` is then unspecified).
inline bool from_hex(std::string_view text, std::span<std::uint8_t> out) {
  auto nibble = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  };
  if (text.size() != 2 * out.size()) return false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = nibble(text[2 * i]), lo = nibble(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return true;
}

}  // namespace proofline
