// src/util/utf8.cpp — see include/proofline/util/utf8.hpp.
#include "proofline/util/utf8.hpp"

#include <cstdint>
#include <span>

#include "proofline/util/hex.hpp"

namespace proofline {

std::size_t utf8_sequence_length(std::string_view s) {
  if (s.empty()) return 0;
  const auto b = [&](std::size_t i) { return static_cast<std::uint8_t>(s[i]); };
  const std::uint8_t c = b(0);
  if (c < 0x80) return 1;
  std::size_t n;
  std::uint8_t lo = 0x80, hi = 0xbf;  // the allowed range of the second byte (RFC 3629 §4)
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;  // no overlong 3-byte forms
    if (c == 0xed) hi = 0x9f;  // no surrogates
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;  // no overlong 4-byte forms
    if (c == 0xf4) hi = 0x8f;  // nothing above U+10FFFF
  } else {
    return 0;  // a continuation byte, an overlong 2-byte lead (C0, C1) or F5…FF
  }
  if (s.size() < n) return 0;
  if (b(1) < lo || b(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i) {
    if (b(i) < 0x80 || b(i) > 0xbf) return 0;
  }
  return n;
}

std::string utf8_escape_invalid(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t n = utf8_sequence_length(s.substr(i));
    if (n > 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      const auto c = static_cast<std::uint8_t>(s[i]);
      out += "\\x" + to_hex(std::span<const std::uint8_t>(&c, 1));
      ++i;
    }
  }
  return out;
}

}  // namespace proofline
