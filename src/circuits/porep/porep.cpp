// The StackedDRG PoRep circuit of one partition, in rust-fil-proofs' synthesis order.
#include "proofline/circuits/porep.hpp"

#include <atomic>
#include <bit>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include <tbb/parallel_reduce.h>
#include <tbb/blocked_range.h>

#include "proofline/gadgets/poseidon.hpp"
#include "proofline/gadgets/sha256.hpp"
#include "proofline/gadgets/uint32.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/r1cs/shape_counter.hpp"
#include "proofline/util/error.hpp"

namespace proofline::circuits::porep {

using gadgets::AllocatedBit;
using gadgets::AllocatedNum;
using gadgets::AuthPath;
using gadgets::Boolean;
using gadgets::PathLevel;
using gadgets::TreeHash;
using gadgets::TreeShape;
using r1cs::ConstraintSystem;

namespace {

[[noreturn]] void bad_shape(const std::string& what) { throw ProoflineError(Error::BadLength, "PoRep circuit: " + what); }

bool is_pow2(std::uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

std::size_t log2_exact(std::uint64_t x) { return static_cast<std::size_t>(std::countr_zero(x)); }

std::string tree_name(const TreeShape& t) {
  return std::to_string(t.base) + "-" + std::to_string(t.sub) + "-" + std::to_string(t.top);
}

// ---- witness shape checks ----------------------------------------------------------------------

void check_levels(const std::vector<PathLevel>& levels, std::size_t want_levels, std::size_t arity,
                  const std::string& where) {
  if (levels.size() != want_levels) {
    bad_shape(where + ": " + std::to_string(levels.size()) + " levels, expected " + std::to_string(want_levels));
  }
  for (std::size_t l = 0; l < levels.size(); ++l) {
    if (levels[l].hashes.size() != arity - 1) {
      bad_shape(where + " level " + std::to_string(l) + ": " + std::to_string(levels[l].hashes.size()) +
                " siblings, expected " + std::to_string(arity - 1));
    }
    if (levels[l].index >= arity) {
      bad_shape(where + " level " + std::to_string(l) + ": position " + std::to_string(levels[l].index) +
                " >= arity " + std::to_string(arity));
    }
  }
}

void check_path(const AuthPath& p, const TreeShape& t, std::size_t base_levels, const std::string& where) {
  check_levels(p.base, base_levels, t.base, where + " (base)");
  check_levels(p.sub, t.sub ? 1 : 0, t.sub, where + " (sub)");
  check_levels(p.top, t.top ? 1 : 0, t.top, where + " (top)");
}

void check_column(const ColumnOpening& c, const PoRepShape& s, std::size_t base_levels, const std::string& where) {
  if (c.rows.size() != s.layers) {
    bad_shape(where + ": column of " + std::to_string(c.rows.size()) + " rows, expected " + std::to_string(s.layers));
  }
  check_path(c.path, s.tree_rc, base_levels, where + " tree C path");
}

// ---- small gadgets (storage-proofs-core gadgets/{uint64,por}.rs, porep stacked/circuit) ---------

/// to_bits_le (255 bits, 256 c), padded to 256 with a constant false, reversed per byte: the SHA-256
/// bit stream of the value's 32-byte little-endian encoding.
std::vector<Boolean> sha_bits_of(ConstraintSystem& cs, const AllocatedNum& n) {
  std::vector<Boolean> le = n.to_bits_le(cs);
  while (le.size() % 8 != 0) le.push_back(Boolean::constant(false));
  return gadgets::reverse_bit_numbering(le);
}

/// enforce_inclusion: PoRCircuit with an allocated leaf and a private, allocated root: auth path,
/// path bits packed into one input, computed_root · ONE = root.
void enforce_inclusion(ConstraintSystem& cs, TreeHash hash, const TreeShape& tree, const AuthPath& path,
                       const AllocatedNum& root, const AllocatedNum& leaf) {
  gadgets::AuthPathResult r;
  {
    auto ns = cs.namespace_("auth_path");
    r = gadgets::synthesize_auth_path(cs, hash, tree, path, leaf);
  }
  {
    auto ns = cs.namespace_("path");
    gadgets::pack_into_inputs(cs, r.index_bits);
  }
  gadgets::enforce_equal(cs, "enforce root is correct", r.root, root);
}

/// create_label_circuit: SHA-256 over replica_id ‖ layer (u32 BE) ‖ node (u64 BE) ‖ zero pad to 512
/// bits ‖ 37 parents of 256 bits; output reversed per byte, first 254 bits packed.
AllocatedNum create_label(ConstraintSystem& cs, std::span<const Boolean> replica_id,
                          const std::vector<const std::vector<Boolean>*>& parents, std::uint32_t layer,
                          std::span<const Boolean> node_le) {
  std::vector<Boolean> pre;
  pre.reserve((2 + kTotalParents) * 256);
  pre.insert(pre.end(), replica_id.begin(), replica_id.end());
  while (pre.size() < 256) pre.push_back(Boolean::constant(false));
  for (int i = 31; i >= 0; --i) pre.push_back(Boolean::constant((layer >> i) & 1));
  for (std::size_t i = node_le.size(); i-- > 0;) pre.push_back(node_le[i]);
  while (pre.size() < 512) pre.push_back(Boolean::constant(false));
  for (const std::vector<Boolean>* p : parents) {
    pre.insert(pre.end(), p->begin(), p->end());
    while (pre.size() % 256 != 0) pre.push_back(Boolean::constant(false));
  }
  std::vector<Boolean> digest;
  {
    auto ns = cs.namespace_("sha256");
    digest = gadgets::sha256(cs, pre);
  }
  std::vector<Boolean> le = gadgets::reverse_bit_numbering(digest);
  le.resize(254);  // Fr::CAPACITY
  auto ns = cs.namespace_("result_num");
  return gadgets::pack_bits(cs, le);
}

std::vector<AllocatedNum> alloc_column(ConstraintSystem& cs, const std::vector<Fr>& rows) {
  auto ns = cs.namespace_("column");
  std::vector<AllocatedNum> out;
  out.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto nr = cs.namespace_([&] { return "column_num_row_" + std::to_string(i); });
    out.push_back(AllocatedNum::alloc(cs, rows[i]));
  }
  return out;
}

struct Header {
  std::vector<Boolean> replica_id_bits;
  AllocatedNum comm_d, comm_r_last, comm_c;
};

/// One challenge (storage-proofs-porep stacked/circuit/params.rs, Proof::synthesize).
void synthesize_challenge(ConstraintSystem& cs, const PoRepShape& shape, const ChallengeWitness& w, const Header& h,
                          ChallengeLayout* lay) {
  const gadgets::PoseidonConstants& column_hash = gadgets::PoseidonConstants::merkle(shape.layers);
  const TreeShape tree_d{2, 0, 0};
  std::size_t mark = cs.num_constraints();
  auto take = [&](std::size_t& field) {
    field = cs.num_constraints() - mark;
    mark = cs.num_constraints();
  };
  const std::size_t start = mark;

  AllocatedNum data_leaf;
  {
    auto ns = cs.namespace_("data_leaf");
    data_leaf = AllocatedNum::alloc(cs, w.data_leaf);
  }
  {
    auto ns = cs.namespace_("comm_d_inclusion");
    enforce_inclusion(cs, TreeHash::Sha256, tree_d, w.comm_d_path, h.comm_d, data_leaf);
  }
  std::size_t dummy = 0;
  if (lay) take(lay->comm_d_inclusion);

  auto parent_columns = [&](const std::vector<ColumnOpening>& cols, const char* kind, std::size_t* per) {
    std::vector<std::vector<AllocatedNum>> out;
    out.reserve(cols.size());
    for (std::size_t i = 0; i < cols.size(); ++i) {
      std::vector<AllocatedNum> col;
      {
        auto ns = cs.namespace_([&] { return std::string(kind) + "_parent_" + std::to_string(i) + "_num"; });
        col = alloc_column(cs, cols[i].rows);
      }
      AllocatedNum val;
      {
        auto ns = cs.namespace_([&] { return std::string(kind) + "_parent_" + std::to_string(i) + "_constraint"; });
        val = gadgets::poseidon_hash(cs, col, column_hash);
      }
      {
        auto ns = cs.namespace_([&] { return std::string(kind) + "_parent_" + std::to_string(i) + "_inclusion"; });
        enforce_inclusion(cs, TreeHash::Poseidon, shape.tree_rc, cols[i].path, h.comm_c, val);
      }
      if (lay) take(i == 0 ? *per : dummy);
      out.push_back(std::move(col));
    }
    return out;
  };
  const auto drg = parent_columns(w.drg_parents, "drg", lay ? &lay->drg_parent : &dummy);
  const auto exp = parent_columns(w.exp_parents, "exp", lay ? &lay->exp_parent : &dummy);

  std::vector<Boolean> challenge_bits;
  {
    auto ns = cs.namespace_("challenge");
    challenge_bits = gadgets::u64_into_boolean_vec_le(cs, w.challenge);  // UInt64::alloc
  }
  {
    auto ns = cs.namespace_("challenge input");
    gadgets::pack_into_inputs(cs, challenge_bits);
  }
  if (lay) take(lay->challenge_bits);

  std::vector<AllocatedNum> labels;
  labels.reserve(shape.layers);
  if (lay) lay->labels.assign(shape.layers, 0);
  for (std::size_t layer = 1; layer <= shape.layers; ++layer) {
    auto ns = cs.namespace_([&] { return "labeling_" + std::to_string(layer); });
    std::vector<std::vector<Boolean>> parents;
    parents.reserve(kDrgParents + kExpParents);
    for (const auto& col : drg) {
      auto nb = cs.namespace_([&] { return "drg_parent_" + std::to_string(parents.size()) + "_bits"; });
      parents.push_back(sha_bits_of(cs, col[layer - 1]));
    }
    if (layer > 1) {
      for (const auto& col : exp) {
        auto nb = cs.namespace_([&] { return "exp_parent_" + std::to_string(parents.size()) + "_bits"; });
        parents.push_back(sha_bits_of(cs, col[layer - 2]));
      }
    }
    // Expansion to 37 parents: layer 1 repeats its 6 DRG parents 6 times, then parent 0; later
    // layers repeat their 14 parents twice, then the first 9.
    std::vector<const std::vector<Boolean>*> expanded;
    expanded.reserve(kTotalParents);
    while (expanded.size() + parents.size() <= kTotalParents) {
      for (const auto& p : parents) expanded.push_back(&p);
    }
    for (std::size_t i = 0; expanded.size() < kTotalParents; ++i) expanded.push_back(&parents[i]);
    auto nl = cs.namespace_("create_label");
    labels.push_back(create_label(cs, h.replica_id_bits, expanded, static_cast<std::uint32_t>(layer), challenge_bits));
    if (lay) take(lay->labels[layer - 1]);
  }

  AllocatedNum encoded;
  {
    auto ns = cs.namespace_("encode_node");
    auto na = cs.namespace_("encode_add");
    encoded = labels.back().add(cs, data_leaf);
  }
  if (lay) take(lay->encoding);
  {
    auto ns = cs.namespace_("comm_r_last_data_inclusion");
    enforce_inclusion(cs, TreeHash::Poseidon, shape.tree_rc, w.comm_r_last_path, h.comm_r_last, encoded);
  }
  if (lay) take(lay->comm_r_last_inclusion);
  AllocatedNum col_hash;
  {
    auto ns = cs.namespace_("c_x_column_hash");
    col_hash = gadgets::poseidon_hash(cs, labels, column_hash);
  }
  {
    auto ns = cs.namespace_("c_x_inclusion");
    enforce_inclusion(cs, TreeHash::Poseidon, shape.tree_rc, w.comm_c_path, h.comm_c, col_hash);
  }
  if (lay) {
    take(lay->c_x);
    lay->total = cs.num_constraints() - start;
  }
}

}  // namespace

// ---- shapes ------------------------------------------------------------------------------------

std::size_t PoRepShape::tree_d_levels() const { return log2_exact(nodes); }

std::size_t PoRepShape::tree_rc_base_levels() const {
  std::uint64_t n = nodes;
  for (std::size_t a : {tree_rc.sub, tree_rc.top}) {
    if (a == 0) continue;
    if (n % a != 0) bad_shape(std::to_string(nodes) + " nodes do not fit tree " + tree_name(tree_rc));
    n /= a;
  }
  const std::size_t bits = log2_exact(tree_rc.base);
  const std::size_t lg = log2_exact(n);
  if (!is_pow2(n) || bits == 0 || lg % bits != 0) {
    bad_shape(std::to_string(nodes) + " nodes do not fit tree " + tree_name(tree_rc));
  }
  return lg / bits;
}

void PoRepShape::validate() const {
  if (layers != 2 && layers != 11) bad_shape("layers = " + std::to_string(layers) + ", expected 2 or 11");
  if (!is_pow2(nodes) || nodes < 2) bad_shape("nodes = " + std::to_string(nodes) + ", expected a power of two >= 2");
  for (std::size_t a : {tree_rc.base, tree_rc.sub, tree_rc.top}) {
    if (a != 0 && a != 2 && a != 4 && a != 8) bad_shape("tree arity " + std::to_string(a) + ", expected 2, 4 or 8");
  }
  if (tree_rc.base == 0) bad_shape("tree base arity 0");
  if (tree_rc.top != 0 && tree_rc.sub == 0) bad_shape("tree " + tree_name(tree_rc) + ": top arity without sub arity");
  if (challenges == 0) bad_shape("0 challenges per partition");
  (void)tree_rc_base_levels();
}

std::string PoRepShape::describe() const {
  return std::to_string(layers) + " layers, " + std::to_string(nodes) + " nodes, tree " + tree_name(tree_rc) + ", " +
         std::to_string(challenges) + " challenge" + (challenges == 1 ? "" : "s");
}

PoRepShape shape_for(const filecoin::PorepConfig& config) {
  const filecoin::SectorShape& s = *config.shape;
  return PoRepShape{s.layers, s.nodes, s.tree_rc, config.challenges_per_partition};
}

PoRepShape shape_for_sector_size(std::uint64_t sector_bytes) {
  return shape_for(filecoin::porep_config(filecoin::default_seal_proof(sector_bytes)));
}

PoRepPartitionInputs partition_inputs(const filecoin::SealCommitPhase1Output& c1, std::size_t partition) {
  if (partition >= c1.vanilla_proofs.size() || c1.vanilla_proofs[partition].empty()) {
    throw ProoflineError(Error::BadLength, "C1: partition " + std::to_string(partition) + " of " +
                                               std::to_string(c1.vanilla_proofs.size()) + " (or no challenges)");
  }
  const auto& proofs = c1.vanilla_proofs[partition];
  auto column = [](const filecoin::ColumnProof& p) {
    ColumnOpening c;
    c.rows.reserve(p.column.rows.size());
    for (const auto& r : p.column.rows) c.rows.push_back(filecoin::domain_fr(r));
    c.path = p.inclusion_proof.auth_path();
    return c;
  };
  PoRepPartitionInputs in;
  in.replica_id = filecoin::domain_fr(c1.replica_id);
  in.comm_d = filecoin::domain_fr(c1.comm_d);
  in.comm_r = filecoin::domain_fr(c1.comm_r);
  in.comm_r_last = filecoin::domain_fr(proofs[0].comm_r_last_proof.root);
  in.comm_c = filecoin::domain_fr(proofs[0].replica_column_proofs.c_x.inclusion_proof.root);
  in.challenges.reserve(proofs.size());
  for (const filecoin::VanillaProof& v : proofs) {
    ChallengeWitness w;
    w.challenge = v.challenge();
    w.data_leaf = filecoin::domain_fr(v.comm_d_proofs.leaf);
    w.comm_d_path = v.comm_d_proofs.auth_path();
    for (const auto& p : v.replica_column_proofs.drg_parents) w.drg_parents.push_back(column(p));
    for (const auto& p : v.replica_column_proofs.exp_parents) w.exp_parents.push_back(column(p));
    w.comm_r_last_path = v.comm_r_last_proof.auth_path();
    w.comm_c_path = v.replica_column_proofs.c_x.inclusion_proof.auth_path();
    in.challenges.push_back(std::move(w));
  }
  return in;
}

PoRepPartitionInputs blank_inputs(const PoRepShape& shape) {
  shape.validate();
  auto blank_levels = [](std::size_t n, std::size_t arity) {
    if (n == 0) return std::vector<PathLevel>{};
    return std::vector<PathLevel>(n, PathLevel{std::vector<Fr>(arity - 1, Fr::zero()), 0});
  };
  AuthPath rc{blank_levels(shape.tree_rc_base_levels(), shape.tree_rc.base),
              blank_levels(shape.tree_rc.sub ? 1 : 0, shape.tree_rc.sub),
              blank_levels(shape.tree_rc.top ? 1 : 0, shape.tree_rc.top)};
  ChallengeWitness w;
  w.data_leaf = Fr::zero();
  w.comm_d_path.base = blank_levels(shape.tree_d_levels(), 2);
  const ColumnOpening col{std::vector<Fr>(shape.layers, Fr::zero()), rc};
  w.drg_parents.assign(kDrgParents, col);
  w.exp_parents.assign(kExpParents, col);
  w.comm_r_last_path = rc;
  w.comm_c_path = rc;
  PoRepPartitionInputs in;
  in.challenges.assign(shape.challenges, w);
  return in;
}

// ---- the circuit -------------------------------------------------------------------------------

namespace {

std::atomic<std::size_t> g_default_threads{0};

// Counts of one challenge per (layers, nodes, tree R/C): from count_porep, or measured by the first
// parallel-mode synthesis of that shape (prover or setup), which then runs its challenge 0 in order.
using ChallengeKey = std::tuple<std::size_t, std::uint64_t, std::size_t, std::size_t, std::size_t>;
std::mutex g_part_mutex;
std::map<ChallengeKey, r1cs::PartShape> g_part_shapes;
// count_porep's counts of one challenge per shape (under g_part_mutex): counted once per process.
std::map<ChallengeKey, PoRepCounts> g_counted;

ChallengeKey challenge_key(const PoRepShape& s) {
  return {s.layers, s.nodes, s.tree_rc.base, s.tree_rc.sub, s.tree_rc.top};
}

}  // namespace

void set_default_synthesis_threads(std::size_t n) noexcept { g_default_threads.store(n, std::memory_order_relaxed); }
std::size_t default_synthesis_threads() noexcept { return g_default_threads.load(std::memory_order_relaxed); }

PoRepCircuit::PoRepCircuit(const PoRepShape& shape, PoRepPartitionInputs inputs)
    : shape_(shape), in_(std::move(inputs)), threads_(default_synthesis_threads()) {
  shape_.validate();
  if (in_.challenges.size() != shape_.challenges) {
    bad_shape(std::to_string(in_.challenges.size()) + " challenges, expected " + std::to_string(shape_.challenges));
  }
  const std::size_t rc_levels = shape_.tree_rc_base_levels();
  for (std::size_t i = 0; i < in_.challenges.size(); ++i) {
    const ChallengeWitness& w = in_.challenges[i];
    const std::string at = "challenge " + std::to_string(i);
    check_path(w.comm_d_path, TreeShape{2, 0, 0}, shape_.tree_d_levels(), at + " tree D path");
    if (w.drg_parents.size() != kDrgParents) {
      bad_shape(at + ": " + std::to_string(w.drg_parents.size()) + " DRG parents, expected 6");
    }
    if (w.exp_parents.size() != kExpParents) {
      bad_shape(at + ": " + std::to_string(w.exp_parents.size()) + " expander parents, expected 8");
    }
    for (std::size_t p = 0; p < kDrgParents; ++p) {
      check_column(w.drg_parents[p], shape_, rc_levels, at + " DRG parent " + std::to_string(p));
    }
    for (std::size_t p = 0; p < kExpParents; ++p) {
      check_column(w.exp_parents[p], shape_, rc_levels, at + " expander parent " + std::to_string(p));
    }
    check_path(w.comm_r_last_path, shape_.tree_rc, rc_levels, at + " tree R path");
    check_path(w.comm_c_path, shape_.tree_rc, rc_levels, at + " tree C path");
  }
}

void PoRepCircuit::synthesize(ConstraintSystem& cs) const { synthesize_marked(cs, nullptr); }

void PoRepCircuit::synthesize_marked(ConstraintSystem& cs, PoRepCounts* marks) const {
  // storage-proofs-porep stacked/circuit/proof.rs, StackedCircuit::synthesize.
  Header h;
  AllocatedNum replica_id;
  {
    auto ns = cs.namespace_("replica_id");
    replica_id = AllocatedNum::alloc(cs, in_.replica_id);
  }
  {
    auto ns = cs.namespace_("replica_id_input");
    replica_id.inputize(cs);
  }
  {
    auto ns = cs.namespace_("replica_id_bits");
    h.replica_id_bits = sha_bits_of(cs, replica_id);
  }
  auto alloc_named = [&](const char* name, const Fr& v) {
    auto ns = cs.namespace_(name);
    return AllocatedNum::alloc(cs, v);
  };
  h.comm_d = alloc_named("comm_d", in_.comm_d);
  {
    auto ns = cs.namespace_("comm_d_input");
    h.comm_d.inputize(cs);
  }
  const AllocatedNum comm_r = alloc_named("comm_r", in_.comm_r);
  {
    auto ns = cs.namespace_("comm_r_input");
    comm_r.inputize(cs);
  }
  h.comm_r_last = alloc_named("comm_r_last", in_.comm_r_last);
  h.comm_c = alloc_named("comm_c", in_.comm_c);
  AllocatedNum hashed;
  {
    auto ns = cs.namespace_("H_comm_c_comm_r_last");
    const AllocatedNum pre[2] = {h.comm_c, h.comm_r_last};
    hashed = gadgets::poseidon_hash(cs, pre, gadgets::PoseidonConstants::merkle(2));
  }
  gadgets::enforce_equal(cs, "enforce comm_r = H(comm_c || comm_r_last)", comm_r, hashed);
  if (marks) {
    marks->header = cs.num_constraints();
    marks->header_aux = cs.num_aux();
  }

  const std::size_t n = in_.challenges.size();
  auto challenge = [&](ConstraintSystem& c, std::size_t i) {
    auto ns = c.namespace_([&] { return "challenge_" + std::to_string(i); });
    synthesize_challenge(c, shape_, in_.challenges[i], h, i == 0 && marks ? &marks->challenge : nullptr);
  };
  if (marks != nullptr || threads_ == 1 || n <= 1 || !cs.parallel_parts()) {
    for (std::size_t i = 0; i < n; ++i) challenge(cs, i);
    return;
  }
  // Parallel: every challenge adds the same counts; measure them on challenge 0 (in order) the
  // first time this shape is synthesized.
  r1cs::PartShape part;
  bool known = false;
  {
    std::lock_guard lock(g_part_mutex);
    const auto it = g_part_shapes.find(challenge_key(shape_));
    if (it != g_part_shapes.end()) {
      part = it->second;
      known = true;
    }
  }
  std::size_t first = 0;  // challenges before `first` are done
  if (!known) {
    const std::size_t c0 = cs.num_constraints(), i0 = cs.num_inputs(), x0 = cs.num_aux();
    challenge(cs, 0);
    part = {cs.num_constraints() - c0, cs.num_inputs() - i0, cs.num_aux() - x0};
    std::lock_guard lock(g_part_mutex);
    g_part_shapes.emplace(challenge_key(shape_), part);
    first = 1;
  }
  cs.synthesize_parts(
      n - first, part, [&](ConstraintSystem& c, std::size_t j) { challenge(c, first + j); }, threads_);
}

std::uint64_t path_index(const AuthPath& path, const TreeShape& tree) {
  std::uint64_t idx = 0;
  unsigned shift = 0;
  auto walk = [&](const std::vector<PathLevel>& levels, std::size_t arity) {
    const unsigned bits = arity ? static_cast<unsigned>(log2_exact(arity)) : 0;
    for (const PathLevel& l : levels) {
      idx |= l.index << shift;
      shift += bits;
    }
  };
  walk(path.base, tree.base);
  walk(path.sub, tree.sub);
  walk(path.top, tree.top);
  return idx;
}

std::vector<Fr> PoRepCircuit::public_inputs() const {
  std::vector<Fr> out{in_.replica_id, in_.comm_d, in_.comm_r};
  out.reserve(3 + kInputsPerChallenge * in_.challenges.size());
  const TreeShape tree_d{2, 0, 0};
  for (const ChallengeWitness& w : in_.challenges) {
    out.push_back(Fr::from_u64(path_index(w.comm_d_path, tree_d)));
    for (const auto& p : w.drg_parents) out.push_back(Fr::from_u64(path_index(p.path, shape_.tree_rc)));
    for (const auto& p : w.exp_parents) out.push_back(Fr::from_u64(path_index(p.path, shape_.tree_rc)));
    out.push_back(Fr::from_u64(w.challenge));
    out.push_back(Fr::from_u64(path_index(w.comm_r_last_path, shape_.tree_rc)));
    out.push_back(Fr::from_u64(path_index(w.comm_c_path, shape_.tree_rc)));
  }
  return out;
}

// ---- counting ----------------------------------------------------------------------------------

void check_parameter_counts(const PoRepCounts& counts, std::string_view sector, std::string_view file,
                            std::size_t n_inputs, std::size_t n_aux) {
  if (n_inputs == counts.inputs && n_aux == counts.aux) return;
  throw ProoflineError(Error::BadLength,
                       "parameter file '" + std::string(file) + "' is not for a " + std::string(sector) +
                           " PoRep sector: it has " + std::to_string(n_inputs) + " public inputs (incl. ONE) and " +
                           std::to_string(n_aux) + " aux variables, a " + std::string(sector) +
                           " partition's circuit has " + std::to_string(counts.inputs) + " and " +
                           std::to_string(counts.aux) + " (a parameter file of another sector size?)");
}

PoRepCounts count_porep(const PoRepShape& shape) {
  shape.validate();
  // The counts of one challenge depend on the graph and tree shape alone: counted once per shape in
  // this process (a 32 GiB challenge is ~7 M constraints, a few hundred ms of counting that every
  // job's check and every compiled partition would otherwise pay again).
  PoRepCounts c;
  bool known = false;
  {
    std::lock_guard lock(g_part_mutex);
    if (const auto it = g_counted.find(challenge_key(shape)); it != g_counted.end()) {
      c = it->second;
      known = true;
    }
  }
  if (!known) {
    PoRepShape one = shape;
    one.challenges = 1;
    const PoRepCircuit circuit(one, blank_inputs(one));
    r1cs::ShapeCounter cs;
    circuit.synthesize_marked(cs, &c);
    const std::size_t ch_inputs = cs.num_inputs() - 4;  // ONE, replica_id, comm_d, comm_r
    if (ch_inputs != kInputsPerChallenge) {
      bad_shape("one challenge allocated " + std::to_string(ch_inputs) + " inputs, expected 18");
    }
    c.challenge_aux = cs.num_aux() - c.header_aux;
    // the parallel path's per-challenge counts, known from here on
    std::lock_guard lock(g_part_mutex);
    g_part_shapes.emplace(challenge_key(shape), r1cs::PartShape{c.challenge.total, kInputsPerChallenge, c.challenge_aux});
    g_counted.emplace(challenge_key(shape), c);
  }
  c.constraints = c.header + shape.challenges * c.challenge.total;
  c.inputs = 4 + shape.challenges * kInputsPerChallenge;
  c.aux = c.header_aux + shape.challenges * c.challenge_aux;
  return c;
}

bool porep_counts_known(const PoRepShape& shape) {
  std::lock_guard lock(g_part_mutex);
  return g_counted.count(challenge_key(shape)) != 0;
}

std::optional<PoRepShape> count_porep_matching(std::size_t inputs, std::size_t aux) {
  for (const filecoin::SectorShape& s : filecoin::all_sector_shapes()) {
    const PoRepShape shape = shape_for_sector_size(s.sector_bytes);
    const PoRepCounts c = count_porep(shape);
    if (c.inputs == inputs && c.aux == aux) return shape;
  }
  return std::nullopt;
}

std::string locate_constraint(const PoRepCounts& counts, std::span<const std::uint64_t> nodes, std::size_t index) {
  if (index < counts.header) return "header (replica_id bits, comm_r = H(comm_c, comm_r_last))";
  const ChallengeLayout& l = counts.challenge;
  if (l.total == 0 || index >= counts.constraints) {
    return "input constraint " + std::to_string(index - counts.constraints);
  }
  const std::size_t ch = (index - counts.header) / l.total;
  std::size_t off = (index - counts.header) % l.total;
  std::string where = "challenge " + std::to_string(ch);
  if (ch < nodes.size()) where += " (node " + std::to_string(nodes[ch]) + ")";
  where += ": ";
  auto in = [&](std::size_t n) {
    if (off < n) return true;
    off -= n;
    return false;
  };
  if (in(l.comm_d_inclusion)) return where + "data leaf inclusion in tree D (comm_d)";
  for (std::size_t p = 0; p < kDrgParents; ++p) {
    if (in(l.drg_parent)) return where + "DRG parent " + std::to_string(p) + " column hash / tree C inclusion";
  }
  for (std::size_t p = 0; p < kExpParents; ++p) {
    if (in(l.exp_parent)) return where + "expander parent " + std::to_string(p) + " column hash / tree C inclusion";
  }
  if (in(l.challenge_bits)) return where + "challenge bits";
  for (std::size_t k = 0; k < l.labels.size(); ++k) {
    if (in(l.labels[k])) return where + "labeling layer " + std::to_string(k + 1);
  }
  if (in(l.encoding)) return where + "encoding (label + data)";
  if (in(l.comm_r_last_inclusion)) return where + "replica node inclusion in tree R (comm_r_last)";
  return where + "column hash of the labels / tree C inclusion (comm_c)";
}

std::optional<std::size_t> first_unsatisfied(std::span<const Fr> a, std::span<const Fr> b, std::span<const Fr> c) {
  const std::size_t n = std::min({a.size(), b.size(), c.size()});
  const std::size_t none = n;
  const std::size_t first = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, 1 << 14), none,
      [&](const tbb::blocked_range<std::size_t>& r, std::size_t best) {
        for (std::size_t i = r.begin(); i < r.end() && i < best; ++i) {
          if (!(a[i] * b[i] == c[i])) return i;
        }
        return best;
      },
      [](std::size_t x, std::size_t y) { return std::min(x, y); });
  if (first == none) return std::nullopt;
  return first;
}

}  // namespace proofline::circuits::porep
