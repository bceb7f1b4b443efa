// The bincode decoders' error: see bincode.hpp.
#include "proofline/filecoin/bincode.hpp"

#include <utility>

namespace proofline::filecoin {

BincodeError::BincodeError(std::string_view type, Error code, std::size_t offset, std::string field,
                           std::string expected, const std::string& found)
    : ProoflineError(code, "bincode " + std::string(type) + ": " + field + " at byte " + std::to_string(offset) + ": " +
                               found + ", expected " + expected),
      offset_(offset),
      field_(std::move(field)),
      expected_(std::move(expected)) {}

}  // namespace proofline::filecoin
