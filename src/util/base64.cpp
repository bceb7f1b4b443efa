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

std::string base64_decode_into(std::string_view text, std::vector<std::uint8_t>& out) {
  out.clear();
  if (text.size() % 4 != 0) {
    return "base64 text of " + std::to_string(text.size()) + " characters (expected a multiple of 4)";
  }
  auto not_base64 = [](std::size_t at) {
    return "not base64 at character " + std::to_string(at) + " (expected A-Z a-z 0-9 + / and final '=')";
  };
  std::size_t pad = 0;
  if (!text.empty() && text.back() == '=') pad = text[text.size() - 2] == '=' ? 2 : 1;
  out.reserve(text.size() / 4 * 3);
  const std::size_t data = text.size() - pad;
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < data; ++i) {
    const int v = kValues[static_cast<unsigned char>(text[i])];
    if (v < 0) return not_base64(i);
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    if (i % 4 == 3) {
      out.push_back(static_cast<std::uint8_t>(acc >> 16));
      out.push_back(static_cast<std::uint8_t>(acc >> 8));
      out.push_back(static_cast<std::uint8_t>(acc));
      acc = 0;
    }
  }
  const std::uint32_t unused = pad == 2 ? 0xf : 0x3;
  if (pad != 0 && (acc & unused) != 0) {
    return "not canonical base64 at character " + std::to_string(data - 1) + " (non-zero bits after the last byte)";
  }
  if (pad == 2) {
    out.push_back(static_cast<std::uint8_t>(acc >> 4));
  } else if (pad == 1) {
    out.push_back(static_cast<std::uint8_t>(acc >> 10));
    out.push_back(static_cast<std::uint8_t>(acc >> 2));
  }
  return "";
}

std::vector<std::uint8_t> base64_decode(std::string_view text) {
  std::vector<std::uint8_t> out;
  if (std::string why = base64_decode_into(text, out); !why.empty()) {
    throw ProoflineError(Error::Malformed, "base64: " + why);
  }
  return out;
}

}  // namespace proofline
