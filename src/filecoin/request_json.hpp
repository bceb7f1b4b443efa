// The pieces of the Filecoin request files (post_json.hpp, snap_json.hpp) that both read and write:
// keys that must be there, unsigned integers, 32-byte values as 64 hex digits (little-endian, < r),
// and the JSON array of base64 strings Curio writes its vanilla proofs as. Every refusal is
// ProoflineError(Error::Malformed, "<source>: <where>: <what>"), `source` naming the file's kind
// ("PoSt request", "Snap request").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/filecoin/c1.hpp"
#include "proofline/util/base64.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/json.hpp"

namespace proofline::filecoin::request_json {

using Json = nlohmann::ordered_json;

[[noreturn]] void bad(std::string_view source, const std::string& where, const std::string& what);
/// 64 lowercase hex digits of the 32 bytes in order.
std::string hex32(const Domain& d);
/// 64 hex digits (either case) of a value < r, little-endian.
Domain domain_from_hex(const Json& j, std::string_view source, const std::string& where);
/// j[name]; refused when missing (named "<where>.<name>", or "<name>" at the top level).
const Json& key(const Json& j, const char* name, std::string_view source, const std::string& where);
std::uint64_t uint_of(const Json& j, std::string_view source, const std::string& where);

/// `[ "<base64>", … ]` of `items` (compact).
std::string base64_array(std::span<const std::vector<std::uint8_t>> items);

/// Parses `[ "<base64>", … ]` (at most `max_bytes` of text and `max_elements` elements) and decodes
/// element i with decode(bytes); a decoder's ProoflineError comes back with the same code, prefixed
/// by "vanilla_proofs[i]: ".
template <class T, class Decode>
std::vector<T> parse_base64_array(std::string_view text, std::size_t max_bytes, std::size_t max_elements,
                                  std::string_view source, Decode&& decode) {
  const Json a = json::parse<Json>(text, {max_bytes}, "vanilla proofs JSON");
  if (!a.is_array()) bad(source, "vanilla proofs", "not a JSON array of base64 strings");
  if (a.size() > max_elements) {
    bad(source, "vanilla proofs", std::to_string(a.size()) + " elements, at most " + std::to_string(max_elements));
  }
  std::vector<T> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string at = "vanilla_proofs[" + std::to_string(i) + "]";
    if (!a[i].is_string()) bad(source, at, "not a base64 string");
    try {
      out.push_back(decode(base64_decode(a[i].get_ref<const std::string&>())));
    } catch (const ProoflineError& e) {
      // e.what() starts with its code's name ("bad length: …"), which the new error repeats.
      const std::string what = e.what(), code = std::string(to_string(e.code())) + ": ";
      throw ProoflineError(e.code(), at + ": " + (what.rfind(code, 0) == 0 ? what.substr(code.size()) : what));
    }
  }
  return out;
}

}  // namespace proofline::filecoin::request_json
