// bincode of FallbackPoStSectorProof: see post_bincode.hpp.
#include "proofline/filecoin/post_bincode.hpp"

#include <algorithm>

#include "proofline/ff/fr.hpp"
#include "proofline/filecoin/sparse_tree.hpp"

namespace proofline::filecoin {

PostBincodeError::PostBincodeError(Error code, std::size_t offset, std::string field, std::string expected,
                                   const std::string& found)
    : ProoflineError(code, "bincode FallbackPoStSectorProof: " + field + " at byte " + std::to_string(offset) + ": " +
                               found + ", expected " + expected),
      offset_(offset),
      field_(std::move(field)),
      expected_(std::move(expected)) {}

namespace {

constexpr std::size_t kDomainBytes = 32;

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  std::size_t offset() const { return pos_; }
  std::size_t left() const { return b_.size() - pos_; }

  void need(std::size_t n, const std::string& field, const std::string& what) {
    if (left() < n) {
      throw PostBincodeError(Error::BadLength, pos_, field, what + " (" + std::to_string(n) + " bytes)",
                             "only " + std::to_string(left()) + " bytes left");
    }
  }
  /// A little-endian fixed-width unsigned integer (bincode's fixint encoding).
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
  Domain domain(const std::string& field) {
    need(kDomainBytes, field, "32-byte domain value");
    Domain d;
    std::copy_n(b_.begin() + static_cast<std::ptrdiff_t>(pos_), kDomainBytes, d.begin());
    ff::Fr f;
    if (ff::Fr::from_bytes_le(f, d) != Error::Ok) {
      throw PostBincodeError(Error::NotCanonical, pos_, field, "a little-endian value < r", "value >= r");
    }
    pos_ += kDomainBytes;
    return d;
  }
  /// A Vec length that must be exactly `want`.
  void length(const std::string& field, std::uint64_t want) {
    const std::size_t at = pos_;
    const std::uint64_t n = u64(field + " length");
    if (n != want) {
      throw PostBincodeError(Error::BadLength, at, field + " length", std::to_string(want), std::to_string(n));
    }
  }

 private:
  std::span<const std::uint8_t> b_;
  std::size_t pos_ = 0;
};

struct Shape {
  MerkleProofKind kind;
  std::size_t base_levels;
  hash::TreeShape tree;
};

std::vector<PathElement> read_path(Reader& r, const std::string& field, std::size_t levels, std::size_t arity) {
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
      throw PostBincodeError(Error::Malformed, off, at + ".index", "< arity " + std::to_string(arity),
                             std::to_string(out[l].index));
    }
  }
  return out;
}

MerkleProof read_merkle_proof(Reader& r, const std::string& field, const Shape& s) {
  MerkleProof m;
  const std::size_t off = r.offset();
  const std::uint32_t tag = r.u32(field + " variant");
  const std::uint32_t want = static_cast<std::uint32_t>(s.kind);
  if (tag != want) {
    throw PostBincodeError(Error::Malformed, off, field + " variant",
                           std::to_string(want) + " (" + std::string(to_string(s.kind)) + ", the tree R shape)",
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

void put_u64(std::vector<std::uint8_t>& o, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) o.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u32(std::vector<std::uint8_t>& o, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) o.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_domain(std::vector<std::uint8_t>& o, const Domain& d) { o.insert(o.end(), d.begin(), d.end()); }
void put_path(std::vector<std::uint8_t>& o, const std::vector<PathElement>& p) {
  put_u64(o, p.size());
  for (const PathElement& e : p) {
    put_u64(o, e.hashes.size());
    for (const Domain& h : e.hashes) put_domain(o, h);
    put_u64(o, e.index);
  }
}

std::size_t path_bytes(std::size_t levels, std::size_t arity) { return 8 + levels * (8 + kDomainBytes * (arity - 1) + 8); }

}  // namespace

FallbackPoStSectorProof decode_fallback_post_sector_proof(std::span<const std::uint8_t> bytes,
                                                          std::uint64_t sector_bytes, std::size_t challenges,
                                                          const PostDecodeLimits& limits) {
  const SectorShape& shape = sector_shape(sector_bytes);
  if (bytes.size() > limits.max_bytes) {
    throw PostBincodeError(Error::BadLength, 0, "input", "at most " + std::to_string(limits.max_bytes) + " bytes",
                           std::to_string(bytes.size()) + " bytes");
  }
  const Shape s{tree_rc_proof_kind(shape), shape.base_tree_levels(), shape.tree_rc};
  Reader r(bytes);
  FallbackPoStSectorProof p;
  p.sector_id = r.u64("sector_id");
  p.comm_r = r.domain("comm_r");
  r.length("vanilla_proof", 1);
  PoStSectorProof sp;
  r.length("vanilla_proof[0].inclusion_proofs", challenges);
  // Each inclusion proof takes at least its variant tag and two domains: refuse a count the bytes
  // cannot hold before reserving.
  r.need(challenges * (4 + 2 * kDomainBytes), "vanilla_proof[0].inclusion_proofs",
         std::to_string(challenges) + " inclusion proofs");
  sp.inclusion_proofs.reserve(challenges);
  for (std::size_t c = 0; c < challenges; ++c) {
    sp.inclusion_proofs.push_back(
        read_merkle_proof(r, "vanilla_proof[0].inclusion_proofs[" + std::to_string(c) + "]", s));
  }
  sp.comm_c = r.domain("vanilla_proof[0].comm_c");
  sp.comm_r_last = r.domain("vanilla_proof[0].comm_r_last");
  p.sectors.push_back(std::move(sp));
  if (r.left() != 0) {
    throw PostBincodeError(Error::Malformed, r.offset(), "end of input", "no further bytes",
                           std::to_string(r.left()) + " trailing bytes");
  }
  return p;
}

std::vector<std::uint8_t> encode_fallback_post_sector_proof(const FallbackPoStSectorProof& p) {
  std::vector<std::uint8_t> o;
  put_u64(o, p.sector_id);
  put_domain(o, p.comm_r);
  put_u64(o, p.sectors.size());
  for (const PoStSectorProof& sp : p.sectors) {
    put_u64(o, sp.inclusion_proofs.size());
    for (const MerkleProof& m : sp.inclusion_proofs) {
      put_u32(o, static_cast<std::uint32_t>(m.kind));
      if (m.kind == MerkleProofKind::Single) {
        put_domain(o, m.root);
        put_domain(o, m.leaf);
        put_path(o, m.base);
        continue;
      }
      put_path(o, m.base);
      put_path(o, m.sub);
      if (m.kind == MerkleProofKind::Top) put_path(o, m.top);
      put_domain(o, m.root);
      put_domain(o, m.leaf);
    }
    put_domain(o, sp.comm_c);
    put_domain(o, sp.comm_r_last);
  }
  return o;
}

std::size_t fallback_post_sector_proof_size(std::uint64_t sector_bytes, std::size_t challenges) {
  const SectorShape& s = sector_shape(sector_bytes);
  std::size_t proof = 4 + path_bytes(s.base_tree_levels(), s.tree_rc.base) + 2 * kDomainBytes;
  if (s.tree_rc.sub) proof += path_bytes(1, s.tree_rc.sub);
  if (s.tree_rc.top) proof += path_bytes(1, s.tree_rc.top);
  return 8 + kDomainBytes + 8 + 8 + challenges * proof + 2 * kDomainBytes;
}

}  // namespace proofline::filecoin
