// src/util/json.cpp — size and nesting limits of JSON text (see include/proofline/util/json.hpp).
#include "proofline/util/json.hpp"

namespace proofline::json {

void check_limits(std::string_view text, const Limits& limits, std::string_view source, Error code) {
  if (text.size() > limits.max_bytes) {
    throw ProoflineError(code, std::string(source) + ": " + std::to_string(text.size()) +
                                   " bytes, more than the " + std::to_string(limits.max_bytes) +
                                   " bytes a valid document of this kind can have");
  }
  std::size_t depth = 0;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const char ch = *p;
    if (ch == '"') {
      // Skip the string: up to the next quote not escaped by a backslash.
      ++p;
      while (p < end && *p != '"') {
        if (*p == '\\' && end - p < 2) return;  // an unterminated escape at the end: the parser says so
        p += (*p == '\\') ? 2 : 1;
      }
      if (p < end) ++p;
      continue;
    }
    if (ch == '[' || ch == '{') {
      if (++depth > limits.max_depth) {
        throw ProoflineError(code, std::string(source) + ": nested deeper than " + std::to_string(limits.max_depth) +
                                       " levels at byte " + std::to_string(p - text.data()) +
                                       " (no valid document of this kind nests that deep)");
      }
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
    ++p;
  }
}

}  // namespace proofline::json
