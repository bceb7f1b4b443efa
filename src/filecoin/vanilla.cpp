// Native verification of C1 vanilla proofs (see vanilla.hpp for the list of checks).
#include "proofline/filecoin/vanilla.hpp"

#include <tbb/parallel_for.h>

#include "proofline/filecoin/hashers.hpp"
#include "proofline/filecoin/porep.hpp"

namespace proofline::filecoin {

using ff::Fr;

Domain merkle_root(const MerkleProof& proof, bool sha256) {
  Domain cur = proof.leaf;
  for (const auto* levels : {&proof.base, &proof.sub, &proof.top}) {
    for (const auto& e : *levels) {
      std::vector<Domain> ch(e.hashes.begin(), e.hashes.end());
      ch.insert(ch.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(e.index, ch.size())), cur);
      if (sha256) {
        cur = sha256_node(ch);
      } else {
        std::vector<Fr> f;
        for (const auto& d : ch) f.push_back(domain_fr(d));
        cur = fr_domain(poseidon_node(f));
      }
    }
  }
  return cur;
}

namespace {

struct Failure {
  std::string what;
};

void require(bool cond, const std::string& what) {
  if (!cond) throw Failure{what};
}

/// A 32-byte value in messages that compare two of them: all 64 hex digits, most significant byte
/// first (a cut prefix showed two values that differ in a low byte as the same).
std::string hexs(const Domain& d) {
  static const char* k = "0123456789abcdef";
  std::string s;
  for (int i = 31; i >= 0; --i) {
    s.push_back(k[d[i] >> 4]);
    s.push_back(k[d[i] & 15]);
  }
  return "0x" + s;
}

/// " (bytes 5, … differ; byte i as in the file's array, comm_d[i])": where two values part.
std::string differing_bytes(const Domain& a, const Domain& b) {
  std::string out;
  int n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    if (++n <= 4) out += (out.empty() ? "" : ", ") + std::to_string(i);
  }
  if (n > 4) out += ", … (" + std::to_string(n) + " in all)";
  return " (byte" + std::string(n == 1 ? " " : "s ") + out + " of 0 … 31 differ" + (n == 1 ? "s" : "") + ")";
}

// Path, leaf index and root of one Merkle proof.
void check_path(const MerkleProof& m, bool sha256, std::uint64_t index, const Domain& root, const std::string& name) {
  const Domain r = merkle_root(m, sha256);
  require(r == m.root, name + ": path does not hash to its root (got " + hexs(r) + ", root " + hexs(m.root) + ")");
  require(m.leaf_index() == index, name + ": path positions spell leaf " + std::to_string(m.leaf_index()) +
                                       ", expected " + std::to_string(index));
  require(m.root == root, name + ": root " + hexs(m.root) + " differs from the expected " + hexs(root) +
                              (m.root == root ? std::string() : differing_bytes(m.root, root)));
}

void check_column(const ColumnProof& c, std::uint64_t index, std::size_t layers, const Domain& comm_c,
                  const std::string& name) {
  require(c.column.index == index,
          name + ": column index " + std::to_string(c.column.index) + ", expected " + std::to_string(index));
  require(c.column.rows.size() == layers, name + ": " + std::to_string(c.column.rows.size()) + " rows, expected " +
                                              std::to_string(layers));
  require(fr_domain(column_hash(c.column.rows)) == c.inclusion_proof.leaf,
          name + ": inclusion leaf is not the Poseidon hash of the column rows");
  check_path(c.inclusion_proof, false, index, comm_c, name + ".inclusion_proof");
}

void check_challenge(const VanillaProof& v, std::uint64_t node, const StackedGraph& g, std::size_t layers,
                     const SealCommitPhase1Output& c1, const Domain& comm_c, const Domain& comm_r_last) {
  check_path(v.comm_d_proofs, true, node, c1.comm_d, "comm_d_proofs");
  check_path(v.comm_r_last_proof, false, node, comm_r_last, "comm_r_last_proof");
  const auto& rcp = v.replica_column_proofs;
  require(rcp.drg_parents.size() == kBaseDegree && rcp.exp_parents.size() == kExpDegree,
          "replica_column_proofs: parent counts");
  check_column(rcp.c_x, node, layers, comm_c, "replica_column_proofs.c_x");
  const auto drg = g.drg_parents(node);
  const auto exp = g.exp_parents(node);
  for (std::size_t j = 0; j < kBaseDegree; ++j) {
    check_column(rcp.drg_parents[j], drg[j], layers, comm_c,
                 "replica_column_proofs.drg_parents[" + std::to_string(j) + "]");
  }
  for (std::size_t j = 0; j < kExpDegree; ++j) {
    check_column(rcp.exp_parents[j], exp[j], layers, comm_c,
                 "replica_column_proofs.exp_parents[" + std::to_string(j) + "]");
  }
  require(v.labeling_proofs.size() == layers, "labeling_proofs: " + std::to_string(v.labeling_proofs.size()) +
                                                  " proofs, expected " + std::to_string(layers));
  for (std::size_t l = 1; l <= layers; ++l) {
    const LabelingProof& lp = v.labeling_proofs[l - 1];
    const std::string name = "labeling_proofs[" + std::to_string(l - 1) + "]";
    require(lp.layer_index == l, name + ": layer_index " + std::to_string(lp.layer_index) + ", expected " +
                                     std::to_string(l));
    require(lp.node == node, name + ": node " + std::to_string(lp.node) + ", expected " + std::to_string(node));
    std::array<Domain, kBaseDegree> dp;
    std::array<Domain, kExpDegree> ep{};
    for (std::size_t j = 0; j < kBaseDegree; ++j) dp[j] = rcp.drg_parents[j].column.rows[l - 1];
    if (l > 1) {
      for (std::size_t j = 0; j < kExpDegree; ++j) ep[j] = rcp.exp_parents[j].column.rows[l - 2];
    }
    const auto expected = label_parents(l, dp, ep);
    for (std::size_t j = 0; j < kLabelParents; ++j) {
      require(j < lp.parents.size() && lp.parents[j] == expected[j],
              name + ".parents[" + std::to_string(j) + "]: differs from the parents' column rows");
    }
    const Domain label = label_hash(c1.replica_id, static_cast<std::uint32_t>(l), node, lp.parents);
    require(label == rcp.c_x.column.rows[l - 1], name + ": the label computed from the parents (" + hexs(label) +
                                                     ") differs from c_x row " + std::to_string(l) + " (" +
                                                     hexs(rcp.c_x.column.rows[l - 1]) + ")");
  }
  const EncodingProof& ep = v.encoding_proof;
  require(ep.layer_index == layers && ep.node == node, "encoding_proof: layer_index/node " +
                                                           std::to_string(ep.layer_index) + "/" +
                                                           std::to_string(ep.node) + ", expected " +
                                                           std::to_string(layers) + "/" + std::to_string(node));
  require(ep.parents == v.labeling_proofs[layers - 1].parents,
          "encoding_proof.parents: differ from the last labeling proof's parents");
  const Fr replica = domain_fr(rcp.c_x.column.rows[layers - 1]) + domain_fr(v.comm_d_proofs.leaf);
  require(fr_domain(replica) == v.comm_r_last_proof.leaf,
          "encoding: replica leaf ≠ key (last layer label) + data leaf");
}

}  // namespace

VanillaCheck verify_vanilla(const SealCommitPhase1Output& c1, const VerifyVanillaOptions& options) {
  const StackedGraph g(porep_config(c1.registered_proof));
  return verify_vanilla(c1, g, options);
}

VanillaCheck verify_vanilla(const SealCommitPhase1Output& c1, const StackedGraph& g,
                            const VerifyVanillaOptions& options) {
  const PorepConfig cfg = porep_config(c1.registered_proof);
  VanillaCheck res;
  auto global_fail = [&](const std::string& what) {
    res.ok = false;
    res.global = true;
    res.what = what;
    return res;
  };
  if (c1.vanilla_proofs.size() != cfg.partitions) {
    return global_fail(std::to_string(c1.vanilla_proofs.size()) + " partitions, expected " +
                       std::to_string(cfg.partitions));
  }
  for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    if (c1.vanilla_proofs[k].size() != cfg.challenges_per_partition) {
      return global_fail("partition " + std::to_string(k) + ": " + std::to_string(c1.vanilla_proofs[k].size()) +
                         " challenges, expected " + std::to_string(cfg.challenges_per_partition));
    }
  }
  const VanillaProof& first = c1.vanilla_proofs[0][0];
  const Domain comm_c = first.replica_column_proofs.c_x.inclusion_proof.root;
  const Domain comm_r_last = first.comm_r_last_proof.root;
  try {
    if (fr_domain(comm_r(domain_fr(comm_c), domain_fr(comm_r_last))) != c1.comm_r) {
      return global_fail("comm_r ≠ Poseidon(comm_c, comm_r_last) (comm_c and comm_r_last of partition 0 challenge 0)");
    }
  } catch (const std::exception& e) {
    return global_fail(std::string("comm_c / comm_r_last: ") + e.what());
  }
  // Every challenge is checked (in parallel); the first failure in (partition, challenge) order is
  // reported.
  std::vector<std::vector<std::uint64_t>> derived(c1.vanilla_proofs.size());
  if (options.check_challenges) {
    for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
      derived[k] = challenges(cfg, c1.replica_id, c1.seed, c1.comm_r, k);
    }
  }
  const std::size_t per = cfg.challenges_per_partition;
  std::vector<std::string> failures(c1.vanilla_proofs.size() * per);
  tbb::parallel_for(std::size_t{0}, failures.size(), [&](std::size_t n) {
    const std::size_t k = n / per, i = n % per;
    const VanillaProof& v = c1.vanilla_proofs[k][i];
    const std::uint64_t node = v.challenge();
    try {
      if (options.check_challenges) {
        require(node == derived[k][i], "challenged node " + std::to_string(node) + " is not the derived challenge " +
                                           std::to_string(derived[k][i]));
      }
      check_challenge(v, node, g, cfg.shape->layers, c1, comm_c, comm_r_last);
    } catch (const Failure& f) {
      failures[n] = f.what;
    } catch (const std::exception& e) {
      failures[n] = e.what();
    }
  });
  for (std::size_t n = 0; n < failures.size(); ++n) {
    if (failures[n].empty()) continue;
    res.ok = false;
    res.partition = n / per;
    res.challenge = n % per;
    res.node = c1.vanilla_proofs[res.partition][res.challenge].challenge();
    res.what = "partition " + std::to_string(res.partition) + " challenge " + std::to_string(res.challenge) +
               " (node " + std::to_string(res.node) + "): " + failures[n];
    return res;
  }
  return res;
}

}  // namespace proofline::filecoin
