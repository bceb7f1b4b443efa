// Shared pieces of the Filecoin request files: see request_json.hpp.
#include "request_json.hpp"

#include "proofline/ff/fr.hpp"

namespace proofline::filecoin::request_json {

void bad(std::string_view source, const std::string& where, const std::string& what) {
  throw ProoflineError(Error::Malformed, std::string(source) + ": " + where + ": " + what);
}

std::string hex32(const Domain& d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (const std::uint8_t b : d) {
    s.push_back(kHex[b >> 4]);
    s.push_back(kHex[b & 15]);
  }
  return s;
}

Domain domain_from_hex(const Json& j, std::string_view source, const std::string& where) {
  if (!j.is_string()) bad(source, where, "not a string of 64 hex digits");
  const std::string& s = j.get_ref<const std::string&>();
  if (s.size() != 64) bad(source, where, std::to_string(s.size()) + " hex digits, expected 64");
  Domain d{};
  for (std::size_t i = 0; i < 64; ++i) {
    const char c = s[i];
    const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0) bad(source, where, "character " + std::to_string(i) + " is not a hex digit");
    d[i / 2] = static_cast<std::uint8_t>(d[i / 2] << 4 | v);
  }
  ff::Fr f;
  if (ff::Fr::from_bytes_le(f, d) != Error::Ok) bad(source, where, "value >= r (32 bytes little-endian, expected < r)");
  return d;
}

const Json& key(const Json& j, const char* name, std::string_view source, const std::string& where) {
  const auto it = j.find(name);
  if (it == j.end()) bad(source, where.empty() ? name : where + "." + name, "missing");
  return *it;
}

std::uint64_t uint_of(const Json& j, std::string_view source, const std::string& where) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  // JSON reads an integer beyond 2^64 - 1 as a float: "above", not "not an unsigned integer".
  if (j.is_number_float() && j.get<double>() >= 18446744073709551616.0) {
    bad(source, where, j.dump() + " is above 2^64 - 1; expected an unsigned 64-bit integer");
  }
  if (j.is_number()) bad(source, where, j.dump() + " is not an unsigned integer; expected 0 … 2^64 - 1");
  bad(source, where, std::string("a JSON ") + j.type_name() + ", not an unsigned integer; expected 0 … 2^64 - 1");
}

std::string base64_array(std::span<const std::vector<std::uint8_t>> items) {
  Json a = Json::array();
  for (const auto& b : items) a.push_back(base64_encode(b));
  return a.dump();
}

}  // namespace proofline::filecoin::request_json
