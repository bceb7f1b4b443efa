// Messages for point-decoding failures (the throwing decoders of curve.hpp).
#include <string>

#include "proofline/ec/curve.hpp"

namespace proofline::ec::detail {

void throw_decode_error(Error e, std::string_view curve, bool compressed, std::size_t length) {
  std::string what(curve);
  what += compressed ? " compressed point (" : " uncompressed point (";
  what += std::to_string(length) + " bytes): ";
  switch (e) {
    case Error::CompressionMismatch:
      what += compressed ? "compression flag 0x80 is clear, expected set for this length"
                         : "compression flag 0x80 is set, expected clear for this length";
      break;
    case Error::InfinityNotZero:
      what += "infinity flag 0x40 is set but another flag bit or byte is non-zero";
      break;
    case Error::SignFlagUncompressed:
      what += "sign flag 0x20 is set, which only compressed encodings may carry";
      break;
    case Error::NotCanonical:
      what += "a coordinate (flag bits cleared) is >= p, not a canonical field element";
      break;
    case Error::NotOnCurve:
      what += compressed ? "no curve point has this x (x^3 + b is not a square)"
                         : "(x, y) does not satisfy y^2 = x^3 + b";
      break;
    case Error::NotInSubgroup:
      what += "the point is on the curve but not in the prime-order subgroup";
      break;
    default:
      what += "invalid encoding";
      break;
  }
  throw ProoflineError(e, what);
}

}  // namespace proofline::ec::detail
