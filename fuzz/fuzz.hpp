// fuzz/fuzz.hpp — what every libFuzzer target of fuzz/ shares.
//
// A target feeds the fuzzer's bytes to one decoder. The decoder may refuse them only with
// ProoflineError (the project's contract for bad input: util/error.hpp); any other exception
// escapes and libFuzzer reports it as a crash, as it does every sanitizer finding. Where a decoder
// accepts the bytes, the target checks a property that a wrong acceptance would break (the
// re-encoding equals the input, or decoding the re-encoding gives the same value) and aborts with
// a message through PL_FUZZ_CHECK when it does not hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "proofline/util/error.hpp"

namespace proofline::fuzz {

[[noreturn]] inline void fail(const char* what, const char* file, int line) {
  std::fprintf(stderr, "fuzz property violated at %s:%d: %s\n", file, line, what);
  std::abort();
}

/// Runs `f`; a ProoflineError (a refusal) is the expected outcome for most inputs. Returns whether
/// `f` finished without one.
template <class F>
bool accepted(F&& f) {
  try {
    f();
    return true;
  } catch (const ProoflineError&) {
    return false;
  }
}

inline std::span<const std::uint8_t> bytes(const std::uint8_t* data, std::size_t size) {
  return {data, size};
}
inline std::string text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace proofline::fuzz

#define PL_FUZZ_CHECK(cond)                                       \
  do {                                                            \
    if (!(cond)) ::proofline::fuzz::fail(#cond, __FILE__, __LINE__); \
  } while (0)
