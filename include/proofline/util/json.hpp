// proofline/util/json.hpp — JSON parsing with limits, for every JSON document that comes from outside
// (C1 output, snarkjs vk/proof/public files, daemon config, request payloads, CLI values).
//
// Owns: `json::Limits`, `json::check_limits` (size and nesting depth, checked on the raw text before
// any document is built) and `json::parse<J>` (check_limits, then nlohmann's parser). The C1 JSON
// (filecoin/c1.hpp) is checked here and then parsed with simdjson, for speed.
//
// Why: nlohmann's DOM parser itself is iterative, but building, copying, comparing and dumping a
// value recurse once per nesting level; a document nested 200,000 levels deep overflowed a daemon
// worker's stack (issue 21). No format proofline reads nests deeper than 12 levels (the C1 JSON:
// vanilla_proofs.<key>[k][i].replica_column_proofs.c_x.inclusion_proof.path[j].hashes[h][b]), so the
// default depth limit of 64 refuses nothing real. A size limit is checked first, so a caller that
// knows how big a valid document can be (e.g. public.json for n inputs) refuses an oversized one
// without parsing it.
//
// Errors: ProoflineError with code `Error::Malformed` (or the caller's code, e.g. Error::BadC1Json),
// message "<source>: <what> at byte <offset> (<expected>)". Never recurses on the input.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "proofline/util/error.hpp"

namespace proofline::json {

/// The deepest nesting any JSON input may have (arrays + objects). See the header comment.
inline constexpr std::size_t kDefaultMaxDepth = 64;

struct Limits {
  std::size_t max_bytes;                        ///< the largest document accepted, in bytes
  std::size_t max_depth = kDefaultMaxDepth;     ///< the deepest nesting of arrays/objects accepted
};

/// Checks `text` against `limits` without building anything: one pass over the bytes that tracks
/// strings (with escapes) and counts '[' / '{' nesting outside them. O(n), no allocation. A NUL
/// byte anywhere is refused too (never valid in JSON text; the parser would stop at it and ignore
/// what follows).
/// Throws ProoflineError(code) naming `source`, the byte offset and the limit when the text is
/// larger than max_bytes or nests deeper than max_depth. Malformed JSON that stays within the limits
/// passes (the parser reports it).
void check_limits(std::string_view text, const Limits& limits, std::string_view source,
                  Error code = Error::Malformed);

/// check_limits, then parses `text` into a J (nlohmann::json or nlohmann::ordered_json).
/// Throws ProoflineError(code, "<source>: not valid JSON at byte <k>: <parser message>") on syntax
/// errors.
template <class J = nlohmann::json>
J parse(std::string_view text, const Limits& limits, std::string_view source, Error code = Error::Malformed) {
  check_limits(text, limits, source, code);
  try {
    return J::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    throw ProoflineError(code, std::string(source) + ": not valid JSON at byte " + std::to_string(e.byte) + ": " +
                                   e.what());
  } catch (const nlohmann::json::exception& e) {
    throw ProoflineError(code, std::string(source) + ": not valid JSON: " + e.what());
  }
}

}  // namespace proofline::json
