// SDR sealer for small sectors and gen_c1 (sparse, any size): see seal.hpp.
#include "proofline/filecoin/seal.hpp"

#include <openssl/sha.h>
#include <tbb/parallel_for.h>

#include <chrono>
#include <map>
#include <set>

#include "proofline/filecoin/graph.hpp"
#include "proofline/filecoin/hashers.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/sparse_tree.hpp"
#include "proofline/filecoin/tree.hpp"
#include "proofline/util/error.hpp"

namespace proofline::filecoin {

using ff::Fr;

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

std::vector<PathElement> to_elements(const std::vector<hash::PathLevel>& levels) {
  std::vector<PathElement> out;
  for (const auto& l : levels) {
    PathElement e;
    e.index = l.index;
    for (const auto& h : l.hashes) e.hashes.push_back(fr_domain(h));
    out.push_back(std::move(e));
  }
  return out;
}

MerkleProof to_merkle_proof(const hash::AuthPath& p, const Domain& root, const Domain& leaf, MerkleProofKind k) {
  MerkleProof m;
  m.kind = k;
  m.root = root;
  m.leaf = leaf;
  m.base = to_elements(p.base);
  m.sub = to_elements(p.sub);
  m.top = to_elements(p.top);
  return m;
}

// What a vanilla proof is assembled from.
class ProofSource {
 public:
  virtual ~ProofSource() = default;
  virtual MerkleProof tree_d(std::uint64_t node) const = 0;
  virtual MerkleProof tree_c(std::uint64_t node) const = 0;
  virtual MerkleProof tree_r(std::uint64_t node) const = 0;
  virtual std::vector<Domain> column(std::uint64_t node) const = 0;
};

ColumnProof column_proof(const ProofSource& src, std::uint64_t node) {
  ColumnProof c;
  c.column.index = static_cast<std::uint32_t>(node);
  c.column.rows = src.column(node);
  c.inclusion_proof = src.tree_c(node);
  return c;
}

VanillaProof make_vanilla(const ProofSource& src, const StackedGraph& g, std::size_t layers, std::uint64_t node) {
  VanillaProof v;
  v.comm_d_proofs = src.tree_d(node);
  v.comm_r_last_proof = src.tree_r(node);
  auto& rcp = v.replica_column_proofs;
  rcp.c_x = column_proof(src, node);
  for (auto p : g.drg_parents(node)) rcp.drg_parents.push_back(column_proof(src, p));
  for (auto p : g.exp_parents(node)) rcp.exp_parents.push_back(column_proof(src, p));
  for (std::size_t l = 1; l <= layers; ++l) {
    std::array<Domain, kBaseDegree> dp;
    std::array<Domain, kExpDegree> ep{};
    for (std::size_t j = 0; j < kBaseDegree; ++j) dp[j] = rcp.drg_parents[j].column.rows[l - 1];
    if (l > 1) {
      for (std::size_t j = 0; j < kExpDegree; ++j) ep[j] = rcp.exp_parents[j].column.rows[l - 2];
    }
    LabelingProof lp;
    lp.parents = label_parents(l, dp, ep);
    lp.layer_index = static_cast<std::uint32_t>(l);
    lp.node = node;
    v.labeling_proofs.push_back(std::move(lp));
  }
  v.encoding_proof.parents = v.labeling_proofs.back().parents;
  v.encoding_proof.layer_index = static_cast<std::uint32_t>(layers);
  v.encoding_proof.node = node;
  return v;
}

void fill_vanilla_proofs(SealCommitPhase1Output& c1, const PorepConfig& cfg, const StackedGraph& g,
                         const ProofSource& src) {
  c1.vanilla_proofs.clear();
  for (std::size_t k = 0; k < cfg.partitions; ++k) {
    std::vector<VanillaProof> part;
    for (auto node : challenges(cfg, c1.replica_id, c1.seed, c1.comm_r, k)) {
      part.push_back(make_vanilla(src, g, cfg.shape->layers, node));
    }
    c1.vanilla_proofs.push_back(std::move(part));
  }
}

// ---- the real sealer --------------------------------------------------------------------------

class FullSector final : public ProofSource {
 public:
  FullSector(const SectorShape& s, std::span<const Domain> data, const std::vector<std::vector<Domain>>& labels,
             const Sha256Tree& d, const PoseidonTree& c, const PoseidonTree& r, const std::vector<Fr>& column_hashes,
             const std::vector<Fr>& replica)
      : s_(s), data_(data), labels_(labels), d_(d), c_(c), r_(r), ch_(column_hashes), replica_(replica) {}
  MerkleProof tree_d(std::uint64_t n) const override {
    return to_merkle_proof(d_.proof(n), d_.root(), data_[n], MerkleProofKind::Single);
  }
  MerkleProof tree_c(std::uint64_t n) const override {
    return to_merkle_proof(c_.proof(n), fr_domain(c_.root()), fr_domain(ch_[n]), tree_rc_proof_kind(s_));
  }
  MerkleProof tree_r(std::uint64_t n) const override {
    return to_merkle_proof(r_.proof(n), fr_domain(r_.root()), fr_domain(replica_[n]), tree_rc_proof_kind(s_));
  }
  std::vector<Domain> column(std::uint64_t n) const override {
    std::vector<Domain> rows;
    for (const auto& layer : labels_) rows.push_back(layer[n]);
    return rows;
  }

 private:
  const SectorShape& s_;
  std::span<const Domain> data_;
  const std::vector<std::vector<Domain>>& labels_;
  const Sha256Tree& d_;
  const PoseidonTree& c_;
  const PoseidonTree& r_;
  const std::vector<Fr>& ch_;
  const std::vector<Fr>& replica_;
};

template <class F>
void parallel(std::size_t n, F f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) f(i);
  });
}

}  // namespace

SealResult seal_sector(const SealRequest& req, std::span<const Domain> data) {
  const PorepConfig cfg = porep_config(req.proof);
  const SectorShape& s = *cfg.shape;
  if (s.sector_bytes > kMaxSealBytes) {
    throw ProoflineError(Error::BadArgument, "seal_sector: " + std::string(s.name) +
                                                 " is too large to seal in memory (at most 1 GiB; use gen-c1)");
  }
  if (data.size() != s.nodes) {
    throw ProoflineError(Error::BadArgument, "seal_sector: " + std::to_string(data.size()) + " data nodes, expected " +
                                                 std::to_string(s.nodes) + " for " + std::string(s.name));
  }
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data[i][31] & 0xc0) {
      throw ProoflineError(Error::BadArgument, "seal_sector: data node " + std::to_string(i) +
                                                   " is not Fr32-padded (byte 31 ≥ 0x40)");
    }
  }
  SealResult res;
  SealCommitPhase1Output& c1 = res.c1;
  c1.registered_proof = req.proof;
  c1.seed = req.seed;
  c1.ticket = req.ticket;

  auto t = Clock::now();
  const Sha256Tree tree_d(std::vector<Sha256Domain>(data.begin(), data.end()));
  c1.comm_d = tree_d.root();
  c1.replica_id = replica_id(req.prover_id, req.sector_id, req.ticket, c1.comm_d, cfg.porep_id);
  res.timings.tree_d_ms = ms_since(t);

  t = Clock::now();
  const StackedGraph g(cfg);
  constexpr std::size_t kDeg = kBaseDegree + kExpDegree;
  std::vector<std::uint32_t> parents(s.nodes * kDeg);
  parallel(s.nodes, [&](std::size_t v) {
    const auto d = g.drg_parents(v);
    const auto e = g.exp_parents(v);
    std::copy(d.begin(), d.end(), parents.begin() + static_cast<std::ptrdiff_t>(v * kDeg));
    std::copy(e.begin(), e.end(), parents.begin() + static_cast<std::ptrdiff_t>(v * kDeg + kBaseDegree));
  });
  res.timings.parents_ms = ms_since(t);

  t = Clock::now();
  std::vector<std::vector<Domain>> labels(s.layers, std::vector<Domain>(s.nodes));
  for (std::size_t l = 1; l <= s.layers; ++l) {
    std::vector<Domain>& cur = labels[l - 1];
    const std::vector<Domain>* prev = l > 1 ? &labels[l - 2] : nullptr;
    const std::size_t used = l == 1 ? kBaseDegree : kDeg;
    std::array<Domain, kLabelParents> ps;
    const auto layer = static_cast<std::uint32_t>(l);
    cur[0] = label_hash(c1.replica_id, layer, 0, {});
    for (std::uint64_t v = 1; v < s.nodes; ++v) {
      const std::uint32_t* pv = &parents[v * kDeg];
      for (std::size_t j = 0; j < kLabelParents; ++j) {
        const std::size_t k = j % used;
        ps[j] = k < kBaseDegree ? cur[pv[k]] : (*prev)[pv[k]];
      }
      cur[v] = label_hash(c1.replica_id, layer, v, ps);
    }
  }
  res.timings.labels_ms = ms_since(t);

  t = Clock::now();
  std::vector<Fr> column_hashes(s.nodes);
  parallel(s.nodes, [&](std::size_t v) {
    std::vector<Domain> rows;
    for (const auto& layer : labels) rows.push_back(layer[v]);
    column_hashes[v] = column_hash(rows);
  });
  const PoseidonTree tree_c(column_hashes, s.tree_rc);
  res.comm_c = fr_domain(tree_c.root());
  res.timings.tree_c_ms = ms_since(t);

  t = Clock::now();
  std::vector<Fr> replica(s.nodes);
  parallel(s.nodes, [&](std::size_t v) { replica[v] = domain_fr(labels.back()[v]) + domain_fr(data[v]); });
  const PoseidonTree tree_r(replica, s.tree_rc);
  res.comm_r_last = fr_domain(tree_r.root());
  c1.comm_r = fr_domain(comm_r(tree_c.root(), tree_r.root()));
  res.timings.tree_r_ms = ms_since(t);

  t = Clock::now();
  const FullSector src(s, data, labels, tree_d, tree_c, tree_r, column_hashes, replica);
  fill_vanilla_proofs(c1, cfg, g, src);
  res.timings.proofs_ms = ms_since(t);
  return res;
}

// ---- gen_c1: sparse sector --------------------------------------------------------------------

namespace {

class SparseSector final : public ProofSource {
 public:
  SparseSector(const SectorShape& s, const SparseTree& d, const SparseTree& c, const SparseTree& r,
               const std::map<std::uint64_t, std::vector<Domain>>& rows)
      : s_(s), d_(d), c_(c), r_(r), rows_(rows) {}
  MerkleProof tree_d(std::uint64_t n) const override {
    return d_.proof(n, MerkleProofKind::Single, s_.tree_d_levels);
  }
  MerkleProof tree_c(std::uint64_t n) const override { return c_.proof(n, tree_rc_proof_kind(s_), s_.base_tree_levels()); }
  MerkleProof tree_r(std::uint64_t n) const override { return r_.proof(n, tree_rc_proof_kind(s_), s_.base_tree_levels()); }
  std::vector<Domain> column(std::uint64_t n) const override { return rows_.at(n); }

 private:
  const SectorShape& s_;
  const SparseTree& d_;
  const SparseTree& c_;
  const SparseTree& r_;
  const std::map<std::uint64_t, std::vector<Domain>>& rows_;
};


}  // namespace

SealCommitPhase1Output gen_c1(const GenC1Options& o) {
  const PorepConfig cfg = porep_config(o.proof);
  const SectorShape& s = *cfg.shape;
  if (cfg.mode != PorepMode::Interactive) {
    throw ProoflineError(Error::BadArgument,
                         "gen-c1: " + std::string(to_string(o.proof)) +
                             " derives its challenges from comm_r, which depends on the challenged labels; only "
                             "interactive proofs (V1, V1_1) can be generated without sealing (use the sealer for "
                             "small sectors)");
  }
  // Deterministic randomness: SHA-256("proofline gen-c1" ‖ seed u64 LE ‖ proof id u64 LE) as a ChaCha key.
  std::array<std::uint8_t, 32> key;
  {
    std::vector<std::uint8_t> buf = {'p', 'r', 'o', 'o', 'f', 'l', 'i', 'n', 'e', ' ', 'g', 'e', 'n', '-', 'c', '1'};
    for (int i = 0; i < 8; ++i) buf.push_back(static_cast<std::uint8_t>(o.seed >> (8 * i)));
    const auto id = static_cast<std::uint64_t>(o.proof);
    for (int i = 0; i < 8; ++i) buf.push_back(static_cast<std::uint8_t>(id >> (8 * i)));
    SHA256(buf.data(), buf.size(), key.data());
  }
  ChaCha8Rng rng(key, 20);

  SealCommitPhase1Output c1;
  c1.registered_proof = o.proof;
  c1.replica_id = random_fr_domain(rng);
  rng.fill_bytes(c1.seed);
  rng.fill_bytes(c1.ticket);

  const StackedGraph g(cfg);
  std::set<std::uint64_t> challenged;
  for (std::size_t k = 0; k < cfg.partitions; ++k) {
    for (auto c : interactive_challenges(s.nodes, c1.replica_id, c1.seed, k, cfg.challenges_per_partition)) {
      challenged.insert(c);
    }
  }
  // Columns: parents first (random, node 0 its true labels), then challenged nodes layer by layer.
  std::map<std::uint64_t, std::array<std::uint32_t, kBaseDegree>> drg;
  std::map<std::uint64_t, std::array<std::uint32_t, kExpDegree>> exp;
  std::map<std::uint64_t, std::vector<Domain>> rows;
  for (auto c : challenged) {
    drg[c] = g.drg_parents(c);
    exp[c] = g.exp_parents(c);
  }
  auto add_parent = [&](std::uint64_t p) {
    if (challenged.count(p) || rows.count(p)) return;
    std::vector<Domain> r(s.layers);
    for (std::size_t l = 0; l < s.layers; ++l) {
      r[l] = p == 0 ? label_hash(c1.replica_id, static_cast<std::uint32_t>(l + 1), 0, {}) : random_fr_domain(rng);
    }
    rows[p] = std::move(r);
  };
  for (auto c : challenged) {
    for (auto p : drg[c]) add_parent(p);
    for (auto p : exp[c]) add_parent(p);
  }
  for (auto c : challenged) rows[c].resize(s.layers);
  for (std::size_t l = 1; l <= s.layers; ++l) {
    for (auto c : challenged) {  // ascending: DRG parents (< c) of this layer are done
      std::array<Domain, kBaseDegree> dp;
      std::array<Domain, kExpDegree> ep{};
      for (std::size_t j = 0; j < kBaseDegree; ++j) dp[j] = rows.at(drg[c][j])[l - 1];
      if (l > 1) {
        for (std::size_t j = 0; j < kExpDegree; ++j) ep[j] = rows.at(exp[c][j])[l - 2];
      }
      rows[c][l - 1] = label_hash(c1.replica_id, static_cast<std::uint32_t>(l), c, label_parents(l, dp, ep));
    }
  }

  SparseTree tree_d(std::vector<std::size_t>(s.tree_d_levels, 2), true);
  SparseTree tree_c(tree_rc_arities(s), false);
  SparseTree tree_r(tree_rc_arities(s), false);
  {
    std::vector<const std::pair<const std::uint64_t, std::vector<Domain>>*> cols;
    for (const auto& e : rows) cols.push_back(&e);
    std::vector<Domain> hashes(cols.size());
    tbb::parallel_for(std::size_t{0}, cols.size(), [&](std::size_t n) { hashes[n] = fr_domain(column_hash(cols[n]->second)); });
    for (std::size_t n = 0; n < cols.size(); ++n) tree_c.set_leaf(cols[n]->first, hashes[n]);
  }
  for (auto c : challenged) {
    const Domain data = random_fr_domain(rng);
    tree_d.set_leaf(c, data);
    tree_r.set_leaf(c, fr_domain(domain_fr(rows[c].back()) + domain_fr(data)));
  }
  tree_d.build(rng);
  tree_c.build(rng);
  tree_r.build(rng);
  c1.comm_d = tree_d.root();
  c1.comm_r = fr_domain(comm_r(domain_fr(tree_c.root()), domain_fr(tree_r.root())));

  const SparseSector src(s, tree_d, tree_c, tree_r, rows);
  fill_vanilla_proofs(c1, cfg, g, src);
  return c1;
}

}  // namespace proofline::filecoin
