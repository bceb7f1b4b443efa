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
      // A NUL byte ends the skip where it is, for the check below.
      while (p < end && *p != '"' && *p != '\0') {
        if (*p != '\\') {
          ++p;
        } else if (end - p < 2) {
          return;  // an unterminated escape at the end: the parser says so
        } else {
          p += p[1] == '\0' ? 1 : 2;
        }
      }
      if (p < end && *p == '"') ++p;
      continue;
    }
    if (ch == '\0') {
      // Never valid in JSON text (inside a string it must be escaped); nlohmann's parser would stop
      // there and accept whatever trailing bytes follow.
      throw ProoflineError(code, std::string(source) + ": a NUL byte at byte " + std::to_string(p - text.data()) +
                                     " (not valid in JSON text)");
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
