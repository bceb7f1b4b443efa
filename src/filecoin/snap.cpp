// SnapDeals (EmptySectorUpdate): shapes, challenges, phi / rho, native verification of a partition's
// vanilla proof and generated inputs. See snap.hpp.
#include "proofline/filecoin/snap.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <tuple>

#include "proofline/filecoin/graph.hpp"
#include "proofline/filecoin/hashers.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/sector.hpp"
#include "proofline/filecoin/sparse_tree.hpp"
#include "proofline/filecoin/vanilla.hpp"
#include "proofline/hash/poseidon.hpp"
#include "proofline/util/error.hpp"

namespace proofline::filecoin {

using ff::Fr;

namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

constexpr std::array<std::string_view, 5> kUpdateNames = {"StackedDrg2KiBV1", "StackedDrg8MiBV1",
                                                          "StackedDrg512MiBV1", "StackedDrg32GiBV1",
                                                          "StackedDrg64GiBV1"};
constexpr std::array<std::uint64_t, 5> kUpdateSizes = {2 * kKiB, 8 * kMiB, 512 * kMiB, 32 * kGiB, 64 * kGiB};

std::size_t log2_exact(std::uint64_t v) { return static_cast<std::size_t>(__builtin_ctzll(v)); }

/// storage-proofs-update constants.rs, by sector size (see the header comment).
SnapParams make_params(std::uint64_t bytes, std::string_view name, hash::TreeShape tree) {
  SnapParams p;
  p.sector_bytes = bytes;
  p.nodes = bytes / kNodeBytes;
  p.name = name;
  p.tree_r = tree;
  p.challenge_bit_len = log2_exact(p.nodes);
  const auto at_most = [&](std::uint64_t bytes) { return p.nodes <= bytes / kNodeBytes; };
  p.partition_count = at_most(8 * kKiB) ? 1 : at_most(32 * kKiB) ? 2 : at_most(16 * kMiB) ? 4 : 16;
  p.partition_bit_len = log2_exact(p.partition_count);
  p.challenge_count = at_most(16 * kMiB) ? 10 : 86;
  p.apex_leaf_count = at_most(8 * kKiB) ? 8 : 128;
  p.apex_leaf_bit_len = log2_exact(p.apex_leaf_count);
  if (at_most(32 * kKiB)) {
    p.hs = {1, 1, 1, 1, 1, 1};
  } else {
    p.hs = {7, 8, 9, 10, 11, 12};
  }
  std::size_t bits = p.challenge_bit_len;
  if (tree.sub) bits -= log2_exact(tree.sub);
  if (tree.top) bits -= log2_exact(tree.top);
  p.tree_r_base_levels = bits / log2_exact(tree.base);
  return p;
}

const std::array<SnapParams, 11>& table() {
  static const std::array<SnapParams, 11> t = {
      make_params(1 * kKiB, "1KiB", {8, 4, 0}),      make_params(2 * kKiB, "2KiB", {8, 0, 0}),
      make_params(4 * kKiB, "4KiB", {8, 2, 0}),      make_params(8 * kKiB, "8KiB", {8, 4, 0}),
      make_params(16 * kKiB, "16KiB", {8, 8, 0}),    make_params(32 * kKiB, "32KiB", {8, 8, 2}),
      make_params(8 * kMiB, "8MiB", {8, 0, 0}),      make_params(16 * kMiB, "16MiB", {8, 2, 0}),
      make_params(512 * kMiB, "512MiB", {8, 0, 0}),  make_params(32 * kGiB, "32GiB", {8, 8, 0}),
      make_params(64 * kGiB, "64GiB", {8, 8, 2})};
  return t;
}

const hash::PoseidonConstants& gen_randomness() { return hash::PoseidonConstants::custom(2, 1); }

Fr poseidon2_custom(const Fr& a, const Fr& b) {
  const Fr pre[2] = {a, b};
  return hash::poseidon_hash_native(gen_randomness(), pre);
}

/// The little-endian bits of a field element (255 of them).
std::array<bool, 255> le_bits(const Fr& f) {
  const Domain d = fr_domain(f);
  std::array<bool, 255> out{};
  for (std::size_t i = 0; i < 255; ++i) out[i] = (d[i / 8] >> (i % 8)) & 1;
  return out;
}

/// The node a binary SHA-256 path reaches after its first `levels` levels.
Domain sha_path_node(const MerkleProof& m, std::size_t levels) {
  Domain cur = m.leaf;
  for (std::size_t l = 0; l < levels && l < m.base.size(); ++l) {
    const PathElement& e = m.base[l];
    if (e.hashes.size() != 1) return cur;
    const std::array<Domain, 2> kids = e.index == 0 ? std::array<Domain, 2>{cur, e.hashes[0]}
                                                    : std::array<Domain, 2>{e.hashes[0], cur};
    cur = sha256_node(kids);
  }
  return cur;
}

bool has_shape(const MerkleProof& m, MerkleProofKind kind, std::size_t base_levels, const hash::TreeShape& t) {
  auto levels_ok = [](const std::vector<PathElement>& ls, std::size_t n, std::size_t arity) {
    if (ls.size() != n) return false;
    return std::all_of(ls.begin(), ls.end(),
                       [&](const PathElement& e) { return e.hashes.size() + 1 == arity && e.index < arity; });
  };
  return m.kind == kind && levels_ok(m.base, base_levels, t.base) && levels_ok(m.sub, t.sub ? 1 : 0, t.sub) &&
         levels_ok(m.top, t.top ? 1 : 0, t.top);
}

std::string hex_prefix(const Domain& d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < 4; ++i) {
    s.push_back(kHex[d[i] >> 4]);
    s.push_back(kHex[d[i] & 15]);
  }
  return s + "…";
}

}  // namespace

// ---- registered proofs, shapes, names ---------------------------------------------------------------

std::string_view to_string(RegisteredUpdateProof p) { return kUpdateNames.at(static_cast<std::size_t>(p)); }

RegisteredUpdateProof registered_update_proof_from_u64(std::uint64_t v) {
  if (v >= kUpdateNames.size()) {
    throw ProoflineError(Error::BadArgument, "registered update proof " + std::to_string(v) +
                                                 ": expected 0..4 (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)");
  }
  return static_cast<RegisteredUpdateProof>(v);
}

std::uint64_t sector_size(RegisteredUpdateProof p) { return kUpdateSizes.at(static_cast<std::size_t>(p)); }

MerkleProofKind SnapParams::tree_r_proof_kind() const {
  return tree_r.top ? MerkleProofKind::Top : tree_r.sub ? MerkleProofKind::Sub : MerkleProofKind::Single;
}

std::vector<std::size_t> SnapParams::tree_r_arities() const {
  std::vector<std::size_t> a(tree_r_base_levels, tree_r.base);
  if (tree_r.sub) a.push_back(tree_r.sub);
  if (tree_r.top) a.push_back(tree_r.top);
  return a;
}

const SnapParams& snap_params(std::uint64_t sector_bytes) {
  for (const SnapParams& p : table()) {
    if (p.sector_bytes == sector_bytes) return p;
  }
  std::string list;
  for (const SnapParams& p : table()) list += (list.empty() ? "" : ", ") + std::string(p.name);
  throw ProoflineError(Error::BadArgument, "SnapDeals sector size " + std::to_string(sector_bytes) +
                                               " bytes: expected one of " + list);
}

std::span<const SnapParams> all_snap_params() { return table(); }

std::string snap_identifier(const SnapParams& p) {
  return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(p.nodes) + " }";
}

std::string snap_parameter_cache_id(const SnapParams& p) {
  return parameter_cache_id("empty-sector-update-merkletree-poseidon_hasher-" + std::to_string(p.tree_r.base) + "-" +
                                std::to_string(p.tree_r.sub) + "-" + std::to_string(p.tree_r.top),
                            snap_identifier(p));
}

std::string snap_parameter_file_name(const SnapParams& p, std::string_view extension) {
  return parameter_file_name(snap_parameter_cache_id(p), extension);
}

// ---- public inputs, challenges, randomness ---------------------------------------------------------

std::size_t h_select_index(const SnapParams& p, std::size_t h) {
  const auto it = std::find(p.hs.begin(), p.hs.end(), h);
  if (it == p.hs.end()) {
    throw ProoflineError(Error::BadArgument, "h = " + std::to_string(h) + " is not allowed for " +
                                                 std::string(p.name) + " sectors (expected " +
                                                 (p.hs[0] == p.hs[5] ? std::to_string(p.hs[0]) : "7..12") + ")");
  }
  return static_cast<std::size_t>(it - p.hs.begin());
}

std::uint64_t k_and_h_select(const SnapParams& p, std::size_t k, std::size_t h) {
  if (k >= p.partition_count) {
    throw ProoflineError(Error::BadArgument, "partition " + std::to_string(k) + " of a " + std::string(p.name) +
                                                 " sector: expected 0.." + std::to_string(p.partition_count - 1));
  }
  return static_cast<std::uint64_t>(k) | (std::uint64_t{1} << h_select_index(p, h)) << p.partition_bit_len;
}

std::vector<std::uint64_t> snap_challenges(const SnapParams& p, const Domain& comm_r_new, std::size_t k) {
  if (k >= p.partition_count) {
    throw ProoflineError(Error::BadArgument, "partition " + std::to_string(k) + " of a " + std::string(p.name) +
                                                 " sector: expected 0.." + std::to_string(p.partition_count - 1));
  }
  const std::size_t bits = p.random_bits(), per_digest = p.challenges_per_digest();
  const Fr comm = domain_fr(comm_r_new);
  std::vector<std::uint64_t> out;
  out.reserve(p.challenge_count);
  for (std::size_t j = 0; out.size() < p.challenge_count; ++j) {
    const std::uint64_t digest_index = k * p.digests_per_partition() + j;
    const std::array<bool, 255> d = le_bits(poseidon2_custom(comm, Fr::from_u64(digest_index)));
    for (std::size_t i = 0; i < per_digest && out.size() < p.challenge_count; ++i) {
      std::uint64_t c = 0;
      for (std::size_t b = 0; b < bits; ++b) c |= static_cast<std::uint64_t>(d[i * bits + b]) << b;
      out.push_back(c | static_cast<std::uint64_t>(k) << bits);
    }
  }
  return out;
}

Fr snap_phi(const Domain& comm_d_new, const Domain& comm_r_old) {
  return poseidon2_custom(domain_fr(comm_d_new), domain_fr(comm_r_old));
}

Fr snap_rho(const Fr& phi, std::uint64_t high) { return poseidon2_custom(phi, Fr::from_u64(high)); }

// ---- native verification -------------------------------------------------------------------------

SnapVanillaCheck verify_snap_vanilla(const SnapParams& p, const SnapPublicInputs& pub, std::size_t k,
                                     const SnapPartitionProof& proof) {
  SnapVanillaCheck r;
  const std::string part = "partition " + std::to_string(k);
  auto fail = [&](std::optional<std::size_t> c, std::string what) {
    r.ok = false;
    r.challenge = c;
    r.what = std::move(what);
    return r;
  };
  if (k >= p.partition_count) {
    return fail(std::nullopt, part + ": a " + std::string(p.name) + " sector has " +
                                  std::to_string(p.partition_count) + " partitions");
  }
  if (std::find(p.hs.begin(), p.hs.end(), pub.h) == p.hs.end()) {
    return fail(std::nullopt, "h = " + std::to_string(pub.h) + " is not allowed for " + std::string(p.name) + " sectors");
  }
  if (proof.apex_leafs.size() != p.apex_leaf_count) {
    return fail(std::nullopt, part + ": " + std::to_string(proof.apex_leafs.size()) + " apex leaves, expected " +
                                  std::to_string(p.apex_leaf_count));
  }
  if (proof.challenge_proofs.size() != p.challenge_count) {
    return fail(std::nullopt, part + ": " + std::to_string(proof.challenge_proofs.size()) +
                                  " challenge proofs, expected " + std::to_string(p.challenge_count));
  }
  const MerkleProofKind kind_r = p.tree_r_proof_kind();
  const hash::TreeShape tree_d{2, 0, 0};
  for (std::size_t i = 0; i < p.challenge_count; ++i) {
    const SnapChallengeProof& cp = proof.challenge_proofs[i];
    const std::string at = part + " challenge " + std::to_string(i);
    if (!has_shape(cp.proof_r_old, kind_r, p.tree_r_base_levels, p.tree_r)) {
      return fail(i, at + ": tree R old path is not of the " + std::string(p.name) + " tree R shape");
    }
    if (!has_shape(cp.proof_r_new, kind_r, p.tree_r_base_levels, p.tree_r)) {
      return fail(i, at + ": tree R new path is not of the " + std::string(p.name) + " tree R shape");
    }
    if (!has_shape(cp.proof_d_new, MerkleProofKind::Single, p.challenge_bit_len, tree_d)) {
      return fail(i, at + ": tree D new path is not a binary path of " + std::to_string(p.challenge_bit_len) +
                         " levels");
    }
  }
  const SnapChallengeProof& first = proof.challenge_proofs[0];
  const Domain root_r_old = first.proof_r_old.root, root_r_new = first.proof_r_new.root;
  const Fr comm_c = domain_fr(proof.comm_c);
  if (fr_domain(comm_r(comm_c, domain_fr(root_r_old))) != pub.comm_r_old) {
    return fail(std::nullopt, part + ": comm_r_old ≠ Poseidon2(comm_c, root of tree R old)");
  }
  if (fr_domain(comm_r(comm_c, domain_fr(root_r_new))) != pub.comm_r_new) {
    return fail(std::nullopt, part + ": comm_r_new ≠ Poseidon2(comm_c, root of tree R new)");
  }
  // The apex tree, then challenge 0's partition path with the positions of k.
  std::vector<Domain> row = proof.apex_leafs;
  while (row.size() > 1) {
    std::vector<Domain> up(row.size() / 2);
    for (std::size_t j = 0; j < up.size(); ++j) up[j] = sha256_node(std::array<Domain, 2>{row[2 * j], row[2 * j + 1]});
    row = std::move(up);
  }
  Domain top = row[0];
  const std::size_t partition_from = p.challenge_bit_len - p.partition_bit_len;
  for (std::size_t l = 0; l < p.partition_bit_len; ++l) {
    const Domain& sib = first.proof_d_new.base[partition_from + l].hashes[0];
    top = ((k >> l) & 1) ? sha256_node(std::array<Domain, 2>{sib, top}) : sha256_node(std::array<Domain, 2>{top, sib});
  }
  if (top != pub.comm_d_new) {
    return fail(std::nullopt, part + ": the apex leaves with challenge 0's partition path do not hash to comm_d_new");
  }
  const Fr phi = snap_phi(pub.comm_d_new, pub.comm_r_old);
  const std::vector<std::uint64_t> challenges = snap_challenges(p, pub.comm_r_new, k);
  const std::size_t apex_height = p.apex_leaf_height();
  for (std::size_t i = 0; i < p.challenge_count; ++i) {
    const SnapChallengeProof& cp = proof.challenge_proofs[i];
    const std::uint64_t c = challenges[i];
    const std::string at = part + " challenge " + std::to_string(i) + " (node " + std::to_string(c) + ")";
    struct Tree {
      const MerkleProof* m;
      const char* name;
      const Domain* root;
      bool sha256;
    };
    const Tree trees[3] = {{&cp.proof_r_old, "tree R old", &root_r_old, false},
                           {&cp.proof_d_new, "tree D new", &pub.comm_d_new, true},
                           {&cp.proof_r_new, "tree R new", &root_r_new, false}};
    for (const Tree& t : trees) {
      if (t.m->root != *t.root) {
        return fail(i, at + ": " + t.name + " root " + hex_prefix(t.m->root) + " differs from " +
                           (t.sha256 ? "comm_d_new" : "challenge 0's"));
      }
      if (t.m->leaf_index() != c) {
        return fail(i, at + ": " + t.name + " path leads to leaf " + std::to_string(t.m->leaf_index()) +
                           ", challenged leaf " + std::to_string(c));
      }
      if (merkle_root(*t.m, t.sha256) != t.m->root) return fail(i, at + ": " + t.name + " path does not hash to its root");
    }
    const Fr rho = snap_rho(phi, c >> (p.challenge_bit_len - pub.h));
    if (domain_fr(cp.proof_r_old.leaf) + domain_fr(cp.proof_d_new.leaf) * rho != domain_fr(cp.proof_r_new.leaf)) {
      return fail(i, at + ": leaf_r_new ≠ leaf_r_old + leaf_d_new · rho");
    }
    const std::uint64_t apex_index = (c >> apex_height) & (p.apex_leaf_count - 1);
    if (sha_path_node(cp.proof_d_new, apex_height) != proof.apex_leafs[apex_index]) {
      return fail(i, at + ": tree D new path does not reach apex leaf " + std::to_string(apex_index));
    }
    for (std::size_t l = partition_from; l < p.challenge_bit_len; ++l) {
      if (cp.proof_d_new.base[l].hashes != first.proof_d_new.base[l].hashes) {
        return fail(i, at + ": tree D new partition path (level " + std::to_string(l) + ") differs from challenge 0's");
      }
    }
  }
  return r;
}

// ---- generated inputs ------------------------------------------------------------------------------

namespace {

/// A Merkle tree over leaves leaf(i) = value(i mod period, i / region_size), period and region_size
/// powers of two dividing the leaf count. A node whose leaves lie in one region and whose span
/// covers whole periods is the same for the whole region; one below a period is determined by its
/// offset in the period and its region: nodes are memoized by that class, so the tree costs one hash
/// per class (see gen_snap_vanilla in snap.hpp).
class BlockTree {
 public:
  using LeafFn = std::function<Domain(std::uint64_t offset, std::uint64_t region)>;
  BlockTree(std::vector<std::size_t> arities, bool sha256, std::uint64_t leaves, std::uint64_t period,
            std::uint64_t region_size, LeafFn leaf)
      : arities_(std::move(arities)), sha256_(sha256), period_(period), region_size_(region_size), leaf_(std::move(leaf)) {
    spans_.push_back(1);
    for (const std::size_t a : arities_) spans_.push_back(spans_.back() * a);
    if (spans_.back() != leaves) throw ProoflineError(Error::BadArgument, "BlockTree: arities do not fit the leaves");
  }

  Domain node(std::size_t level, std::uint64_t j) {
    if (level == 0) return leaf_(j % period_, j / region_size_);
    const std::uint64_t span = spans_[level];
    const auto key = span > region_size_
                         ? Key{level, j, ~std::uint64_t{0}}
                         : Key{level, span >= period_ ? 0 : (j * span % period_) / span, j * span / region_size_};
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    const std::size_t a = arities_[level - 1];
    std::vector<Domain> kids(a);
    for (std::size_t t = 0; t < a; ++t) kids[t] = node(level - 1, j * a + t);
    const Domain v = tree_node(kids, sha256_);
    memo_.emplace(key, v);
    return v;
  }

  Domain root() { return node(arities_.size(), 0); }

  MerkleProof proof(std::uint64_t i, MerkleProofKind kind, std::size_t base_levels) {
    return tree_proof(i, kind, base_levels, arities_,
                      [&](std::size_t level, std::uint64_t index) { return node(level, index); });
  }

 private:
  using Key = std::tuple<std::size_t, std::uint64_t, std::uint64_t>;
  std::vector<std::size_t> arities_;
  bool sha256_;
  std::uint64_t period_, region_size_;
  LeafFn leaf_;
  std::vector<std::uint64_t> spans_;
  std::map<Key, Domain> memo_;
};

constexpr std::uint64_t kFullRandomNodes = std::uint64_t{1} << 18;
constexpr std::uint64_t kBlockNodes = 64;

}  // namespace

GeneratedSnap gen_snap_vanilla(const GenSnapOptions& o) {
  const SnapParams& p = snap_params(o.sector_bytes);
  const std::size_t h = o.h ? o.h : p.h_default();
  (void)h_select_index(p, h);  // throws for an h not allowed
  std::array<std::uint8_t, 32> seed{};
  for (int i = 0; i < 8; ++i) seed[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(o.seed >> (8 * i));
  const std::string_view tag = "proofline gen-vanilla snap";
  std::copy_n(tag.begin(), std::min(tag.size(), seed.size() - 8), seed.begin() + 8);
  ChaCha8Rng rng(seed);

  const std::uint64_t period = p.nodes <= kFullRandomNodes ? p.nodes : kBlockNodes;
  std::vector<Domain> sector_key(period), data(period);
  for (std::uint64_t i = 0; i < period; ++i) {
    sector_key[i] = random_fr_domain(rng);
    data[i] = random_fr_domain(rng);
  }
  const Domain comm_c = random_fr_domain(rng);
  const std::vector<std::size_t> tree_d_arities(p.challenge_bit_len, 2);
  BlockTree tree_d(tree_d_arities, true, p.nodes, period, p.nodes,
                   [&](std::uint64_t off, std::uint64_t) { return data[off]; });
  BlockTree tree_r_old(p.tree_r_arities(), false, p.nodes, period, p.nodes,
                       [&](std::uint64_t off, std::uint64_t) { return sector_key[off]; });

  GeneratedSnap g;
  g.sector_bytes = p.sector_bytes;
  g.public_inputs.h = h;
  g.public_inputs.comm_d_new = tree_d.root();
  g.public_inputs.comm_r_old = fr_domain(comm_r(domain_fr(comm_c), domain_fr(tree_r_old.root())));
  const Fr phi = snap_phi(g.public_inputs.comm_d_new, g.public_inputs.comm_r_old);
  // rho of each region of nodes / 2^h nodes (the challenge's top h bits), computed when first needed.
  std::map<std::uint64_t, Fr> rhos;
  BlockTree tree_r_new(p.tree_r_arities(), false, p.nodes, period, p.nodes >> h,
                       [&](std::uint64_t off, std::uint64_t region) {
                         auto it = rhos.find(region);
                         if (it == rhos.end()) it = rhos.emplace(region, snap_rho(phi, region)).first;
                         return fr_domain(domain_fr(sector_key[off]) + domain_fr(data[off]) * it->second);
                       });
  g.public_inputs.comm_r_new = fr_domain(comm_r(domain_fr(comm_c), domain_fr(tree_r_new.root())));

  const MerkleProofKind kind_r = p.tree_r_proof_kind();
  for (std::size_t k = 0; k < p.partition_count; ++k) {
    SnapPartitionProof pp;
    pp.comm_c = comm_c;
    for (std::size_t t = 0; t < p.apex_leaf_count; ++t) {
      pp.apex_leafs.push_back(tree_d.node(p.apex_leaf_height(), k * p.apex_leaf_count + t));
    }
    for (const std::uint64_t c : snap_challenges(p, g.public_inputs.comm_r_new, k)) {
      pp.challenge_proofs.push_back({tree_r_old.proof(c, kind_r, p.tree_r_base_levels),
                                     tree_d.proof(c, MerkleProofKind::Single, p.challenge_bit_len),
                                     tree_r_new.proof(c, kind_r, p.tree_r_base_levels)});
    }
    g.partition_proofs.push_back(std::move(pp));
  }
  return g;
}

}  // namespace proofline::filecoin
