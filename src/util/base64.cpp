// Standard base64: see base64.hpp.
#include "proofline/util/base64.hpp"

#include <array>

#include "proofline/util/error.hpp"

namespace proofline {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int, 256> make_values() {
  std::array<int, 256> v{};
  for (int& x : v) x = -1;
  for (int i = 0; i < 64; ++i) v[static_cast<unsigned char>(kAlphabet[i])] = i;
  return v;
}
constexpr std::array<int, 256> kValues = make_values();

[[noreturn]] void bad(const std::string& what, std::size_t at) {
  throw ProoflineError(Error::Malformed, "base64: " + what + " at character " + std::to_string(at));
}

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t w = (std::uint32_t{bytes[i]} << 16) | (std::uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(w >> s) & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t w = std::uint32_t{bytes[i]} << 16;
    if (rest == 2) w |= std::uint32_t{bytes[i + 1]} << 8;
    out.push_back(kAlphabet[(w >> 18) & 63]);
    out.push_back(kAlphabet[(w >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(w >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::vector<std::uint8_t> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) bad("length " + std::to_string(text.size()) + " is not a multiple of 4", text.size());
  std::size_t pad = 0;
  if (!text.empty() && text.back() == '=') pad = text.size() >= 2 && text[text.size() - 2] == '=' ? 2 : 1;
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  const std::size_t data = text.size() - pad;
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < data; ++i) {
    const int v = kValues[static_cast<unsigned char>(text[i])];
    if (v < 0) bad(text[i] == '=' ? "padding before the end" : "a character outside the alphabet", i);
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    if (i % 4 == 3) {
      out.push_back(static_cast<std::uint8_t>(acc >> 16));
      out.push_back(static_cast<std::uint8_t>(acc >> 8));
      out.push_back(static_cast<std::uint8_t>(acc));
      acc = 0;
    }
  }
  if (pad == 2) {
    if (acc & 0xf) bad("non-zero bits in the last symbol", data - 1);
    out.push_back(static_cast<std::uint8_t>(acc >> 4));
  } else if (pad == 1) {
    if (acc & 0x3) bad("non-zero bits in the last symbol", data - 1);
    out.push_back(static_cast<std::uint8_t>(acc >> 10));
    out.push_back(static_cast<std::uint8_t>(acc >> 2));
  }
  return out;
}

}  // namespace proofline
