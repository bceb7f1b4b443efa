// proofline/filecoin/bincode.hpp — the error of Filecoin's strict bincode decoders (the vanilla proofs
// nodes send: PoSt FallbackPoStSectorProof, post_bincode.hpp; SnapDeals PartitionProof,
// snap_bincode.hpp).
//
// Owns: `BincodeError`.
//
// The format they read is bincode 1 with its default options (what `bincode::serialize` writes):
// little-endian fixed-width integers, a Vec as its u64 length then the elements, an enum as its u32
// variant index then the variant's fields, structs as their fields in declaration order, a 32-byte
// domain value (PoseidonDomain / Sha256Domain) as its 32 raw bytes, PhantomData as nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "proofline/util/error.hpp"

namespace proofline::filecoin {

/// A refused byte string: `offset` of the offending value, `field` its path in the decoded type (e.g.
/// "challenge_proofs[3].proof_d_new.path[2].hashes"), `expected` what was expected there. code():
/// Error::BadLength for lengths and truncation, Error::NotCanonical for a domain value ≥ r,
/// Error::Malformed for the rest (variant, index, trailing bytes). what() = "bincode <type>: <field>
/// at byte <offset>: <found>, expected <expected>" (after ProoflineError's code prefix).
class BincodeError : public ProoflineError {
 public:
  BincodeError(std::string_view type, Error code, std::size_t offset, std::string field, std::string expected,
               const std::string& found);
  std::size_t offset() const noexcept { return offset_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& expected() const noexcept { return expected_; }

 private:
  std::size_t offset_;
  std::string field_;
  std::string expected_;
};

}  // namespace proofline::filecoin
