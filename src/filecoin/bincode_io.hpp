// Reading and writing the bincode of Filecoin vanilla proofs (include/proofline/filecoin/bincode.hpp
// states the format): a bounds-checked reader whose every refusal names the offset, the field and
// what was expected, the MerkleProof enum of storage-proofs-core, and the writers. Shared by
// post_bincode.cpp and snap_bincode.cpp; `E` is the decoder's error type, constructible from
// (Error, offset, field, expected, found) and derived from BincodeError.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/filecoin/c1.hpp"
#include "proofline/hash/merkle.hpp"

namespace proofline::filecoin::bincode {

inline constexpr std::size_t kDomainBytes = 32;

template <class E>
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  std::size_t offset() const { return pos_; }
  std::size_t left() const { return b_.size() - pos_; }

  /// Refuses (BadLength) unless `n` more bytes are there; `what` says what they should hold.
  void need(std::size_t n, const std::string& field, const std::string& what) {
    if (left() < n) {
      throw E(Error::BadLength, pos_, field, what + " (" + std::to_string(n) + " bytes)",
              "only " + std::to_string(left()) + " bytes left");
    }
  }
  /// A little-endian fixed-width unsigned integer.
  template <class T>
  T uint_le(const std::string& field, const char* type) {
    need(sizeof(T), field, type);
    T v = 0;
    for (std::size_t i = sizeof(T); i-- > 0;) v = static_cast<T>((v << 8) | b_[pos_ + i]);
    pos_ += sizeof(T);
    return v;
  }
  std::uint64_t u64(const std::string& field) { return uint_le<std::uint64_t>(field, "u64"); }
  std::uint32_t u32(const std::string& field) { return uint_le<std::uint32_t>(field, "u32"); }
  /// 32 raw bytes that must be a little-endian value < r (NotCanonical otherwise).
  Domain domain(const std::string& field) {
    need(kDomainBytes, field, "32-byte domain value");
    Domain d;
    std::copy_n(b_.begin() + static_cast<std::ptrdiff_t>(pos_), kDomainBytes, d.begin());
    ff::Fr f;
    if (ff::Fr::from_bytes_le(f, d) != Error::Ok) {
      throw E(Error::NotCanonical, pos_, field, "a little-endian value < r", "value >= r");
    }
    pos_ += kDomainBytes;
    return d;
  }
  /// A Vec length that must be exactly `want` (BadLength otherwise).
  void length(const std::string& field, std::uint64_t want) {
    const std::size_t at = pos_;
    const std::uint64_t n = u64(field + " length");
    if (n != want) throw E(Error::BadLength, at, field + " length", std::to_string(want), std::to_string(n));
  }
  /// Refuses trailing bytes (Malformed).
  void end() {
    if (left() != 0) {
      throw E(Error::Malformed, pos_, "end of input", "no further bytes", std::to_string(left()) + " trailing bytes");
    }
  }

 private:
  std::span<const std::uint8_t> b_;
  std::size_t pos_ = 0;
};

/// What a MerkleProof must look like: its variant, base levels and arities; `tree` names the tree in
/// messages ("tree R", "tree D").
struct ProofShape {
  MerkleProofKind kind = MerkleProofKind::Single;
  std::size_t base_levels = 0;
  hash::TreeShape tree;
  const char* tree_name = "tree R";
};

/// InclusionPath = Vec<PathElement>; PathElement = hashes: Vec<Domain> ‖ index u64 (< arity).
template <class E>
std::vector<PathElement> read_path(Reader<E>& r, const std::string& field, std::size_t levels, std::size_t arity) {
  r.length(field, levels);
  std::vector<PathElement> out(levels);
  for (std::size_t l = 0; l < levels; ++l) {
    const std::string at = field + "[" + std::to_string(l) + "]";
    r.length(at + ".hashes", arity - 1);
    r.need((arity - 1) * kDomainBytes + 8, at, "hashes and index");
    out[l].hashes.reserve(arity - 1);
    for (std::size_t h = 0; h < arity - 1; ++h) out[l].hashes.push_back(r.domain(at + ".hashes[" + std::to_string(h) + "]"));
    const std::size_t off = r.offset();
    out[l].index = r.u64(at + ".index");
    if (out[l].index >= arity) {
      throw E(Error::Malformed, off, at + ".index", "< arity " + std::to_string(arity), std::to_string(out[l].index));
    }
  }
  return out;
}

/// MerkleProof = u32 variant ‖ 0 Single { root, leaf, path } | 1 Sub { base_proof, sub_proof, root,
/// leaf } | 2 Top { base_proof, sub_proof, top_proof, root, leaf }; the variant must be `s.kind`.
template <class E>
MerkleProof read_merkle_proof(Reader<E>& r, const std::string& field, const ProofShape& s) {
  MerkleProof m;
  const std::size_t off = r.offset();
  const std::uint32_t tag = r.u32(field + " variant");
  const auto want = static_cast<std::uint32_t>(s.kind);
  if (tag != want) {
    throw E(Error::Malformed, off, field + " variant",
            std::to_string(want) + " (" + std::string(to_string(s.kind)) + ", the " + s.tree_name + " shape)",
            std::to_string(tag));
  }
  m.kind = s.kind;
  if (s.kind == MerkleProofKind::Single) {
    m.root = r.domain(field + ".root");
    m.leaf = r.domain(field + ".leaf");
    m.base = read_path(r, field + ".path", s.base_levels, s.tree.base);
    return m;
  }
  m.base = read_path(r, field + ".base_proof", s.base_levels, s.tree.base);
  m.sub = read_path(r, field + ".sub_proof", 1, s.tree.sub);
  if (s.kind == MerkleProofKind::Top) m.top = read_path(r, field + ".top_proof", 1, s.tree.top);
  m.root = r.domain(field + ".root");
  m.leaf = r.domain(field + ".leaf");
  return m;
}

// ---- writing ----

inline void put_u64(std::vector<std::uint8_t>& o, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) o.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_u32(std::vector<std::uint8_t>& o, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) o.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_domain(std::vector<std::uint8_t>& o, const Domain& d) { o.insert(o.end(), d.begin(), d.end()); }
inline void put_path(std::vector<std::uint8_t>& o, const std::vector<PathElement>& p) {
  put_u64(o, p.size());
  for (const PathElement& e : p) {
    put_u64(o, e.hashes.size());
    for (const Domain& h : e.hashes) put_domain(o, h);
    put_u64(o, e.index);
  }
}
inline void put_merkle_proof(std::vector<std::uint8_t>& o, const MerkleProof& m) {
  put_u32(o, static_cast<std::uint32_t>(m.kind));
  if (m.kind == MerkleProofKind::Single) {
    put_domain(o, m.root);
    put_domain(o, m.leaf);
    put_path(o, m.base);
    return;
  }
  put_path(o, m.base);
  put_path(o, m.sub);
  if (m.kind == MerkleProofKind::Top) put_path(o, m.top);
  put_domain(o, m.root);
  put_domain(o, m.leaf);
}

/// Bytes of an InclusionPath of `levels` levels of `arity`.
inline std::size_t path_bytes(std::size_t levels, std::size_t arity) {
  return 8 + levels * (8 + kDomainBytes * (arity - 1) + 8);
}
/// Bytes of a well-formed MerkleProof of shape `s`.
inline std::size_t merkle_proof_bytes(const ProofShape& s) {
  std::size_t n = 4 + path_bytes(s.base_levels, s.tree.base) + 2 * kDomainBytes;
  if (s.kind != MerkleProofKind::Single) n += path_bytes(1, s.tree.sub);
  if (s.kind == MerkleProofKind::Top) n += path_bytes(1, s.tree.top);
  return n;
}

}  // namespace proofline::filecoin::bincode
