// Helpers shared by the filecoin tests: hex of bytes, constant 32-byte values.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace proofline::filecoin_test {

inline std::string hex(std::span<const std::uint8_t> b) {
  static const char* k = "0123456789abcdef";
  std::string s;
  for (auto x : b) {
    s.push_back(k[x >> 4]);
    s.push_back(k[x & 15]);
  }
  return s;
}

inline std::array<std::uint8_t, 32> filled(std::uint8_t v) {
  std::array<std::uint8_t, 32> d;
  d.fill(v);
  return d;
}

}  // namespace proofline::filecoin_test
