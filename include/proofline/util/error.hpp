// proofline/util/error.hpp — the project's error codes and exception type.
//
// Owns: `Error` (one code per distinct failure a caller may want to branch on), `to_string`, and
// `ProoflineError` (code + human message naming what was wrong, where, and what was expected).
// Arithmetic never throws; errors arise only where untrusted bytes enter (decoders, file readers,
// requests). This header sits below every layer (ff, ec, ...) and includes nothing of theirs.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace proofline {

enum class Error : int {
  Ok = 0,
  // field element encodings
  BadLength,             ///< a byte string of the wrong size
  NotCanonical,          ///< integer >= the field modulus (Fp: >= p, Fr: >= r)
  // curve point encodings (ZCash BLS12-381 format)
  InfinityNotZero,       ///< infinity flag set but other bits / bytes non-zero
  SignFlagUncompressed,  ///< sign (S) flag set on an uncompressed encoding
  CompressionMismatch,   ///< compression (C) flag does not match the encoding's length
  NotOnCurve,            ///< coordinates do not satisfy the curve equation (or x has no y)
  NotInSubgroup,         ///< on the curve but not in the prime-order subgroup
  UnexpectedInfinity,    ///< a point at infinity where the format forbids it
  // devices
  OutOfMemory,           ///< a device (GPU) allocation failed; the message gives bytes asked and free
  // inputs of the Filecoin layer
  BadC1Json,             ///< C1 (seal commit phase 1) JSON malformed or of the wrong shape; message starts with the JSON path
  BadArgument,           ///< an unsupported name or value (sector size, registered proof, ...)
  // any input
  Malformed,             ///< does not parse as its format (not JSON, a field missing or of the wrong type, bad magic)
  ProofCheckFailed,      ///< a proof just made fails its own verification (witness not satisfying the circuit, or a key not matching it)
  // control
  Cancelled,             ///< the caller's cancellation flag was set while the work ran (prover backends, msm)
};

/// Short stable name of an error code, e.g. "not in subgroup".
constexpr std::string_view to_string(Error e) {
  switch (e) {
    case Error::Ok: return "ok";
    case Error::BadLength: return "bad length";
    case Error::NotCanonical: return "value not canonical (>= modulus)";
    case Error::InfinityNotZero: return "infinity flag with non-zero bits";
    case Error::SignFlagUncompressed: return "sign flag on uncompressed encoding";
    case Error::CompressionMismatch: return "compression flag does not match length";
    case Error::NotOnCurve: return "point not on curve";
    case Error::NotInSubgroup: return "point not in prime-order subgroup";
    case Error::UnexpectedInfinity: return "unexpected point at infinity";
    case Error::OutOfMemory: return "out of device memory";
    case Error::BadC1Json: return "malformed C1 JSON";
    case Error::BadArgument: return "unsupported argument";
    case Error::Malformed: return "malformed input";
    case Error::ProofCheckFailed: return "proof does not verify";
    case Error::Cancelled: return "cancelled";
  }
  return "unknown error";
}

/// Exception carrying an `Error` code and a message that says what, where and what was expected.
class ProoflineError : public std::runtime_error {
 public:
  ProoflineError(Error code, const std::string& message)
      : std::runtime_error(std::string(to_string(code)) + ": " + message), code_(code) {}
  Error code() const noexcept { return code_; }

 private:
  Error code_;
};

/// A value quoted in an error message, never longer than `max` bytes of it: longer text is cut and
/// its length said ("ZZZZ… (1048576 bytes)"), so a message never echoes unbounded input.
inline std::string excerpt(std::string_view text, std::size_t max = 64) {
  if (text.size() <= max) return std::string(text);
  return std::string(text.substr(0, max)) + "… (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace proofline
