// The SnapDeals circuit of one partition, in rust-fil-proofs' synthesis order: see snap.hpp.
#include "proofline/circuits/snap.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "proofline/circuits/porep.hpp"
#include "proofline/filecoin/hashers.hpp"
#include "proofline/gadgets/merkle.hpp"
#include "proofline/gadgets/poseidon.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/r1cs/shape_counter.hpp"
#include "proofline/r1cs/constraint_path.hpp"
#include "proofline/util/error.hpp"

namespace proofline::circuits::snap {

using filecoin::SnapParams;
using gadgets::AllocatedBit;
using gadgets::AllocatedNum;
using gadgets::Boolean;
using gadgets::TreeHash;
using r1cs::ConstraintSystem;

namespace {

constexpr r1cs::Variable kOne = ConstraintSystem::one();

[[noreturn]] void bad_shape(const std::string& what) {
  throw ProoflineError(Error::BadLength, "SnapDeals circuit: " + what);
}

/// Section marks of one synthesis: (constraint index, what starts there).
using Marks = std::vector<std::pair<std::size_t, std::string>>;

void mark(Marks* m, const ConstraintSystem& cs, std::string what) {
  if (m != nullptr) m->emplace_back(cs.num_constraints(), std::move(what));
}

AllocatedNum alloc_named(ConstraintSystem& cs, const std::string& name, const Fr& v) {
  auto ns = cs.namespace_(name);
  return AllocatedNum::alloc(cs, v);
}

/// storage-proofs-update allocated_num_to_allocated_bits: 255 bits, (Σ 2^i·bit_i) · ONE = num.
std::vector<AllocatedBit> num_to_bits(ConstraintSystem& cs, const AllocatedNum& num) {
  std::vector<AllocatedBit> bits = gadgets::field_into_allocated_bits_le(cs, num.value());
  cs.enforce(
      "binary decomp",
      [&](r1cs::LinearCombination& lc) {
        for (std::size_t i = 0; i < bits.size(); ++i) lc.add(bits[i].variable(), gadgets::pow2(i));
      },
      kOne, num.variable());
  return bits;
}

std::vector<std::vector<AllocatedNum>> alloc_path(ConstraintSystem& cs, const std::vector<std::vector<Fr>>& path,
                                                  const char* what, std::size_t c_index, std::size_t levels) {
  std::vector<std::vector<AllocatedNum>> out(levels);
  for (std::size_t row = 0; row < levels; ++row) {
    for (std::size_t s = 0; s < path[row].size(); ++s) {
      auto ns = cs.namespace_([&] {
        return std::string(what) + " sibling (c_index=" + std::to_string(c_index) + ", tree_row=" + std::to_string(row) +
               (std::string(what) == "path_to_apex_leaf" ? "" : ", sibling_index=" + std::to_string(s)) + ")";
      });
      out[row].push_back(AllocatedNum::alloc(cs, path[row][s]));
    }
  }
  return out;
}

std::vector<Boolean> as_booleans(std::span<const AllocatedBit> bits) { return {bits.begin(), bits.end()}; }

/// storage-proofs-update gen_challenge_bits: per challenge its random bits (LSB first).
std::vector<std::vector<AllocatedBit>> gen_challenge_bits(ConstraintSystem& cs, const SnapParams& p,
                                                          const AllocatedNum& comm_r_new, const AllocatedNum& partition) {
  const std::size_t bits_per = p.random_bits(), per_digest = p.challenges_per_digest();
  const std::uint64_t dpp = p.digests_per_partition();
  std::vector<std::vector<AllocatedBit>> out;
  out.reserve(p.challenge_count);
  for (std::uint64_t j = 0; j < dpp; ++j) {
    const Fr dpp_fr = Fr::from_u64(dpp), j_fr = Fr::from_u64(j);
    const AllocatedNum digest_index = alloc_named(cs, "digest_index_" + std::to_string(j), partition.value() * dpp_fr + j_fr);
    // (dpp · partition + j · ONE) · ONE = digest_index
    cs.enforce(
        [&] { return "digest_index_" + std::to_string(j) + " == k * digests_per_partition + " + std::to_string(j); },
        [&](r1cs::LinearCombination& lc) {
          lc.add(partition.variable(), dpp_fr);
          lc.add(kOne, j_fr);
        },
        kOne, digest_index.variable());
    AllocatedNum digest;
    {
      auto ns = cs.namespace_([&] { return "digest_" + std::to_string(j); });
      const AllocatedNum pre[2] = {comm_r_new, digest_index};
      digest = gadgets::poseidon_hash(cs, pre, gadgets::PoseidonConstants::custom(2, 1));
    }
    std::vector<AllocatedBit> bits;
    {
      auto ns = cs.namespace_([&] { return "digest_" + std::to_string(j) + "_bits"; });
      bits = num_to_bits(cs, digest);
    }
    const std::size_t take = j + 1 == dpp ? p.challenge_count - out.size() : per_digest;
    for (std::size_t i = 0; i < take; ++i) {
      out.emplace_back(bits.begin() + static_cast<std::ptrdiff_t>(i * bits_per),
                       bits.begin() + static_cast<std::ptrdiff_t>((i + 1) * bits_per));
    }
  }
  return out;
}

/// storage-proofs-update get_challenge_high_bits: the top h bits of c_bits, h = hs[i] for the one set
/// h_select bit i.
AllocatedNum challenge_high_bits(ConstraintSystem& cs, const SnapParams& p, std::span<const AllocatedBit> c_bits,
                                 std::span<const AllocatedBit> h_select_bits) {
  const std::size_t n = c_bits.size();
  std::vector<AllocatedNum> parts;
  for (std::size_t k = 0; k < p.hs.size(); ++k) {
    const std::size_t h = p.hs[k];
    const std::string tag = "(h=" + std::to_string(h) + ", k=" + std::to_string(k) + ")";
    AllocatedNum c_high;
    {
      auto ns = cs.namespace_("c_high " + tag);
      const std::vector<Boolean> top = as_booleans(c_bits.subspan(n - h));
      c_high = gadgets::pack_bits(cs, top);
    }
    const AllocatedBit& sel = h_select_bits[k];
    const AllocatedNum or_zero = alloc_named(cs, "c_high_or_zero " + tag, sel.value() ? c_high.value() : Fr::zero());
    cs.enforce([&] { return "c_high_or_zero == c_high * h_select_bit " + tag; }, c_high.variable(), sel.variable(),
               or_zero.variable());
    parts.push_back(or_zero);
  }
  Fr sum = Fr::zero();
  for (const AllocatedNum& a : parts) sum += a.value();
  const AllocatedNum selected = alloc_named(cs, "c_high_selected", sum);
  cs.enforce(
      "c_high_selected == dot(c_highs, h_select_bits)",
      [&](r1cs::LinearCombination& lc) {
        for (const AllocatedNum& a : parts) lc.add(a.variable(), Fr::one());
      },
      kOne, selected.variable());
  return selected;
}

/// The header's variables that the challenges read (parts 1–7 of the synthesis order).
struct Header {
  std::vector<AllocatedBit> kh_bits;  ///< the partition bits, then the h_select bits
  std::size_t partition_bit_len = 0;
  AllocatedNum phi, root_r_old, root_r_new;
  std::vector<AllocatedNum> apex_leafs;
  std::vector<std::vector<AllocatedBit>> generated;  ///< each challenge's random bits
  std::span<const AllocatedBit> partition_bits() const { return {kh_bits.data(), partition_bit_len}; }
  std::span<const AllocatedBit> h_select_bits() const {
    return {kh_bits.data() + partition_bit_len, kh_bits.size() - partition_bit_len};
  }
};

/// Parts 1–7: public inputs, phi, the private header values, the comm_r checks, the apex tree and
/// the challenge generation. `marks` records the parts.
Header synthesize_header(ConstraintSystem& cs, const SnapParams& p, const SnapWitness& w, Marks* header_marks) {
  Header h;
  h.partition_bit_len = p.partition_bit_len;
  const std::size_t bit_len = p.partition_bit_len + p.hs.size();
  mark(header_marks, cs, "k_and_h_select: public input and bit decomposition");
  const AllocatedNum k_and_h_select = alloc_named(cs, "k_and_h_select", w.k_and_h_select);
  {
    auto ns = cs.namespace_("k_and_h_select (public input)");
    k_and_h_select.inputize(cs);
  }
  std::vector<AllocatedBit>& kh_bits = h.kh_bits;
  {
    const auto limbs = cs.computes_values() ? w.k_and_h_select.to_canonical() : Fr::Limbs{};
    for (std::size_t i = 0; i < bit_len; ++i) {
      auto ns = cs.namespace_([&] { return "k_and_h_select_bit_" + std::to_string(i); });
      kh_bits.push_back(AllocatedBit::alloc(cs, (limbs[i / 64] >> (i % 64)) & 1));
    }
    cs.enforce(
        "k_and_h_select binary decomp",
        [&](r1cs::LinearCombination& lc) {
          for (std::size_t i = 0; i < kh_bits.size(); ++i) lc.add(kh_bits[i].variable(), gadgets::pow2(i));
        },
        kOne, k_and_h_select.variable());
  }
  const std::span<const AllocatedBit> partition_bits = h.partition_bits();
  AllocatedNum partition;
  {
    auto ns = cs.namespace_("pack partition bits");
    partition = gadgets::pack_bits(cs, as_booleans(partition_bits));
  }
  mark(header_marks, cs, "comm_r_old, comm_d_new, comm_r_new: public inputs");
  auto public_num = [&](const char* name, const std::string& input_name, const Fr& v) {
    const AllocatedNum n = alloc_named(cs, name, v);
    auto ns = cs.namespace_(input_name);
    n.inputize(cs);
    return n;
  };
  const AllocatedNum comm_r_old = public_num("comm_r_old", "comm_r_old_input", w.comm_r_old);
  const AllocatedNum comm_d_new = public_num("comm_d_new", "comm_d_new_input", w.comm_d_new);
  const AllocatedNum comm_r_new = public_num("comm_r_new", "comm_r_new_input", w.comm_r_new);

  mark(header_marks, cs, "phi = H(comm_d_new, comm_r_old)");
  {
    auto ns = cs.namespace_("phi");
    const AllocatedNum pre[2] = {comm_d_new, comm_r_old};
    h.phi = gadgets::poseidon_hash(cs, pre, gadgets::PoseidonConstants::custom(2, 1));
  }
  const AllocatedNum comm_c = alloc_named(cs, "comm_c", w.comm_c);
  h.root_r_old = alloc_named(cs, "root_r_old", w.root_r_old);
  h.root_r_new = alloc_named(cs, "root_r_new", w.root_r_new);
  const AllocatedNum& root_r_old = h.root_r_old;
  const AllocatedNum& root_r_new = h.root_r_new;
  std::vector<AllocatedNum>& apex_leafs = h.apex_leafs;
  for (std::size_t i = 0; i < w.apex_leafs.size(); ++i) {
    apex_leafs.push_back(alloc_named(cs, "apex_leaf_" + std::to_string(i), w.apex_leafs[i]));
  }
  const std::size_t partition_from = p.challenge_bit_len - p.partition_bit_len;
  std::vector<std::vector<AllocatedNum>> partition_path;
  for (std::size_t i = 0; i < p.partition_bit_len; ++i) {
    partition_path.push_back(
        {alloc_named(cs, "partition_path_sibling_" + std::to_string(i), w.challenges[0].path_d_new[partition_from + i][0])});
  }
  auto comm_r_check = [&](const char* what, const AllocatedNum& root, const AllocatedNum& comm, const std::string& eq) {
    mark(header_marks, cs, std::string(what) + " = H(comm_c, " + (what == std::string("comm_r_old") ? "root_r_old)" : "root_r_new)"));
    AllocatedNum calc;
    {
      auto ns = cs.namespace_(std::string(what) + "_calc");
      calc = gadgets::hash2_circuit(cs, TreeHash::Poseidon, comm_c, root);
    }
    gadgets::enforce_equal(cs, eq, calc, comm);
  };
  comm_r_check("comm_r_old", root_r_old, comm_r_old, "enforce comm_r_old_calc == comm_r_old");
  comm_r_check("comm_r_new", root_r_new, comm_r_new, "enforce comm_r_new_calc == comm_r_new");

  mark(header_marks, cs, "apex tree and partition path to comm_d_new");
  {
    auto ns = cs.namespace_("apex_gadget");
    std::vector<AllocatedNum> row = apex_leafs;
    for (std::size_t r = 0; row.size() > 1; ++r) {
      std::vector<AllocatedNum> up;
      for (std::size_t i = 0; i + 1 < row.size(); i += 2) {
        auto nh = cs.namespace_([&] {
          return "apex_tree generation hash (tree_row=" + std::to_string(r) + ", siblings=" + std::to_string(i / 2) + ")";
        });
        up.push_back(gadgets::hash2_circuit(cs, TreeHash::Sha256, row[i], row[i + 1]));
      }
      row = std::move(up);
    }
    auto np = cs.namespace_("partition-tree por");
    gadgets::por_no_challenge_input(cs, TreeHash::Sha256, {2, 0, 0}, as_booleans(partition_bits), row[0], partition_path,
                                    comm_d_new);
  }

  mark(header_marks, cs, "challenge generation from comm_r_new");
  {
    auto ns = cs.namespace_("gen_challenge_bits");
    h.generated = gen_challenge_bits(cs, p, comm_r_new, partition);
  }
  return h;
}

/// Part 8 for challenge c: reads only the header's variables and its own (so the challenges may be
/// synthesized as parallel parts). `cm` records challenge c's parts relative to its first constraint.
void synthesize_challenge(ConstraintSystem& cs, const SnapParams& p, const SnapWitness& w, const Header& h,
                          std::size_t c, Marks* cm) {
  const std::span<const AllocatedBit> partition_bits = h.partition_bits();
  const std::span<const AllocatedBit> h_select_bits = h.h_select_bits();
  const AllocatedNum& phi = h.phi;
  const AllocatedNum& root_r_old = h.root_r_old;
  const AllocatedNum& root_r_new = h.root_r_new;
  const std::vector<AllocatedNum>& apex_leafs = h.apex_leafs;
  const std::size_t apex_start = p.challenge_bit_len - p.partition_bit_len - p.apex_leaf_bit_len;
  {
    const std::size_t base = cs.num_constraints();
    auto rel = [&](std::string what) {
      if (cm != nullptr) cm->emplace_back(cs.num_constraints() - base, std::move(what));
    };
    const SnapChallengeWitness& cw = w.challenges[c];
    const std::string ci = "(c_index=" + std::to_string(c) + ")";
    std::vector<AllocatedBit> c_bits = h.generated[c];
    c_bits.insert(c_bits.end(), partition_bits.begin(), partition_bits.end());
    const std::vector<Boolean> c_booleans = as_booleans(c_bits);

    rel("rho: the challenge's high bits (h_select)");
    AllocatedNum c_high;
    {
      auto ns = cs.namespace_("get_challenge_high_bits " + ci);
      c_high = challenge_high_bits(cs, p, c_bits, h_select_bits);
    }
    rel("rho = H(phi, high bits)");
    AllocatedNum rho;
    {
      auto ns = cs.namespace_("rho " + ci);
      const AllocatedNum pre[2] = {phi, c_high};
      rho = gadgets::poseidon_hash(cs, pre, gadgets::PoseidonConstants::custom(2, 1));
    }
    const AllocatedNum leaf_r_old = alloc_named(cs, "leaf_r_old " + ci, cw.leaf_r_old);
    const AllocatedNum leaf_d_new = alloc_named(cs, "leaf_d_new " + ci, cw.leaf_d_new);
    rel("leaf_r_new = leaf_r_old + leaf_d_new · rho");
    AllocatedNum leaf_r_new;
    {
      auto ns = cs.namespace_("leaf_r_new " + ci);
      AllocatedNum product;
      {
        auto nm = cs.namespace_("label_d_new * rho");
        product = leaf_d_new.mul(cs, rho);
      }
      leaf_r_new = alloc_named(cs, "label_r_new", leaf_r_old.value() + product.value());
      cs.enforce(
          "label_r_new == label_r_old + label_d_new * rho",
          [&](r1cs::LinearCombination& lc) {
            lc.add(leaf_r_old.variable(), Fr::one());
            lc.add(product.variable(), Fr::one());
          },
          kOne, leaf_r_new.variable());
    }
    const std::size_t r_levels = cw.path_r_old.size();
    const auto path_r_old = alloc_path(cs, cw.path_r_old, "path_r_old", c, r_levels);
    rel("tree R old inclusion (root_r_old)");
    {
      auto ns = cs.namespace_("por tree_r_old " + ci);
      gadgets::por_no_challenge_input(cs, TreeHash::Poseidon, p.tree_r, c_booleans, leaf_r_old, path_r_old, root_r_old);
    }
    const auto path_r_new = alloc_path(cs, cw.path_r_new, "path_r_new", c, r_levels);
    rel("tree R new inclusion (root_r_new)");
    {
      auto ns = cs.namespace_("por tree_r_new " + ci);
      gadgets::por_no_challenge_input(cs, TreeHash::Poseidon, p.tree_r, c_booleans, leaf_r_new, path_r_new, root_r_new);
    }
    rel("apex leaf selection");
    AllocatedNum apex_leaf;
    {
      auto ns = cs.namespace_("select_apex_leaf " + ci);
      apex_leaf = gadgets::select(cs, apex_leafs,
                                  std::span<const Boolean>(c_booleans).subspan(apex_start, p.apex_leaf_bit_len));
    }
    const auto path_to_apex = alloc_path(cs, cw.path_d_new, "path_to_apex_leaf", c, apex_start);
    rel("tree D new inclusion up to the apex leaf");
    {
      auto ns = cs.namespace_("por to_apex_leaf " + ci);
      gadgets::por_no_challenge_input(cs, TreeHash::Sha256, {2, 0, 0}, std::span<const Boolean>(c_booleans).first(apex_start),
                                      leaf_d_new, path_to_apex, apex_leaf);
    }
  }
}

/// The whole synthesis; only the first `limit` challenges (counting). `marks` records the parts.
/// In a mode that runs parts in parallel (prover mode, the setup's QapEvaluator) with `threads` != 1
/// and more than one challenge, challenge 0 in order (it gives the part's counts) and the others as
/// parallel parts (ConstraintSystem::synthesize_parts).
void synthesize_snap(ConstraintSystem& cs, const SnapParams& p, const SnapWitness& w, std::size_t limit,
                     Marks* header_marks, Marks* challenge_marks, std::size_t threads = 1) {
  const Header h = synthesize_header(cs, p, w, header_marks);
  const std::size_t n = std::min(limit, h.generated.size());
  if (threads == 1 || n <= 1 || !cs.parallel_parts()) {
    for (std::size_t c = 0; c < n; ++c) synthesize_challenge(cs, p, w, h, c, c == 0 ? challenge_marks : nullptr);
    return;
  }
  const std::size_t c0 = cs.num_constraints(), i0 = cs.num_inputs(), x0 = cs.num_aux();
  synthesize_challenge(cs, p, w, h, 0, challenge_marks);
  const r1cs::PartShape part{cs.num_constraints() - c0, cs.num_inputs() - i0, cs.num_aux() - x0};
  cs.synthesize_parts(
      n - 1, part, [&](ConstraintSystem& pc, std::size_t j) { synthesize_challenge(pc, p, w, h, 1 + j, nullptr); },
      threads);
}

void check_path(const std::vector<std::vector<Fr>>& path, const std::vector<std::size_t>& arities, const std::string& what) {
  if (path.size() != arities.size()) {
    bad_shape(what + ": " + std::to_string(path.size()) + " levels, expected " + std::to_string(arities.size()));
  }
  for (std::size_t l = 0; l < path.size(); ++l) {
    if (path[l].size() + 1 != arities[l]) {
      bad_shape(what + " level " + std::to_string(l) + ": " + std::to_string(path[l].size()) + " siblings, expected " +
                std::to_string(arities[l] - 1));
    }
  }
}

std::vector<std::vector<Fr>> siblings(const filecoin::MerkleProof& m) {
  std::vector<std::vector<Fr>> out;
  for (const auto* levels : {&m.base, &m.sub, &m.top}) {
    for (const filecoin::PathElement& e : *levels) {
      std::vector<Fr> s;
      for (const filecoin::Domain& d : e.hashes) s.push_back(filecoin::domain_fr(d));
      out.push_back(std::move(s));
    }
  }
  return out;
}

SnapCounts counts_from(const SnapParams& p, bool full) {
  const SnapWitness blank = blank_witness(p);
  SnapCounts c;
  r1cs::ShapeCounter head;
  synthesize_snap(head, p, blank, 0, &c.header_parts, nullptr);
  c.header_constraints = head.num_constraints();
  c.inputs = head.num_inputs();
  if (full) {
    r1cs::ShapeCounter all;
    synthesize_snap(all, p, blank, p.challenge_count, nullptr, &c.challenge_parts);
    c.constraints = all.num_constraints();
    c.aux = all.num_aux();
    c.challenge_constraints = (c.constraints - c.header_constraints) / p.challenge_count;
    return c;
  }
  r1cs::ShapeCounter one;
  synthesize_snap(one, p, blank, 1, nullptr, &c.challenge_parts);
  c.challenge_constraints = one.num_constraints() - c.header_constraints;
  c.constraints = c.header_constraints + p.challenge_count * c.challenge_constraints;
  c.aux = head.num_aux() + p.challenge_count * (one.num_aux() - head.num_aux());
  return c;
}

}  // namespace

SnapWitness blank_witness(const SnapParams& p) {
  SnapWitness w;
  w.apex_leafs.assign(p.apex_leaf_count, Fr::zero());
  SnapChallengeWitness c;
  for (const std::size_t a : p.tree_r_arities()) c.path_r_old.emplace_back(a - 1, Fr::zero());
  c.path_r_new = c.path_r_old;
  c.path_d_new.assign(p.challenge_bit_len, std::vector<Fr>(1, Fr::zero()));
  w.challenges.assign(p.challenge_count, c);
  return w;
}

SnapWitness snap_witness(const SnapParams& p, const filecoin::SnapPublicInputs& pub, std::size_t k,
                         const filecoin::SnapPartitionProof& proof) {
  SnapWitness w;
  w.k_and_h_select = Fr::from_u64(filecoin::k_and_h_select(p, k, pub.h));
  w.comm_r_old = filecoin::domain_fr(pub.comm_r_old);
  w.comm_d_new = filecoin::domain_fr(pub.comm_d_new);
  w.comm_r_new = filecoin::domain_fr(pub.comm_r_new);
  w.comm_c = filecoin::domain_fr(proof.comm_c);
  if (proof.challenge_proofs.size() != p.challenge_count) {
    bad_shape(std::to_string(proof.challenge_proofs.size()) + " challenge proofs, expected " +
              std::to_string(p.challenge_count));
  }
  w.root_r_old = filecoin::domain_fr(proof.challenge_proofs[0].proof_r_old.root);
  w.root_r_new = filecoin::domain_fr(proof.challenge_proofs[0].proof_r_new.root);
  for (const filecoin::Domain& d : proof.apex_leafs) w.apex_leafs.push_back(filecoin::domain_fr(d));
  for (const filecoin::SnapChallengeProof& cp : proof.challenge_proofs) {
    SnapChallengeWitness c;
    c.leaf_r_old = filecoin::domain_fr(cp.proof_r_old.leaf);
    c.leaf_d_new = filecoin::domain_fr(cp.proof_d_new.leaf);
    c.leaf_r_new = filecoin::domain_fr(cp.proof_r_new.leaf);
    c.path_r_old = siblings(cp.proof_r_old);
    c.path_d_new = siblings(cp.proof_d_new);
    c.path_r_new = siblings(cp.proof_r_new);
    w.challenges.push_back(std::move(c));
  }
  EmptySectorUpdateCircuit(p, w);  // the shape checks
  return w;
}

EmptySectorUpdateCircuit::EmptySectorUpdateCircuit(const SnapParams& p, SnapWitness w)
    : p_(&p), w_(std::move(w)), threads_(porep::default_synthesis_threads()) {
  if (w_.apex_leafs.size() != p.apex_leaf_count) {
    bad_shape(std::to_string(w_.apex_leafs.size()) + " apex leaves, expected " + std::to_string(p.apex_leaf_count));
  }
  if (w_.challenges.size() != p.challenge_count) {
    bad_shape(std::to_string(w_.challenges.size()) + " challenges, expected " + std::to_string(p.challenge_count));
  }
  const std::vector<std::size_t> r_arities = p.tree_r_arities();
  const std::vector<std::size_t> d_arities(p.challenge_bit_len, 2);
  for (std::size_t c = 0; c < w_.challenges.size(); ++c) {
    const std::string at = "challenge " + std::to_string(c);
    check_path(w_.challenges[c].path_r_old, r_arities, at + " tree R old path");
    check_path(w_.challenges[c].path_r_new, r_arities, at + " tree R new path");
    check_path(w_.challenges[c].path_d_new, d_arities, at + " tree D new path");
  }
}

void EmptySectorUpdateCircuit::synthesize(ConstraintSystem& cs) const {
  synthesize_snap(cs, *p_, w_, p_->challenge_count, nullptr, nullptr, threads_);
}

std::vector<Fr> EmptySectorUpdateCircuit::public_inputs() const {
  return {w_.k_and_h_select, w_.comm_r_old, w_.comm_d_new, w_.comm_r_new};
}

SnapCounts count_snap(const SnapParams& p) { return counts_from(p, false); }
SnapCounts count_snap_full(const SnapParams& p) { return counts_from(p, true); }

std::vector<Fr> snap_public_inputs(const SnapParams& p, const filecoin::SnapPublicInputs& pub, std::size_t k) {
  return {Fr::from_u64(filecoin::k_and_h_select(p, k, pub.h)), filecoin::domain_fr(pub.comm_r_old),
          filecoin::domain_fr(pub.comm_d_new), filecoin::domain_fr(pub.comm_r_new)};
}

std::string locate_snap_constraint(const SnapCounts& counts, std::size_t index) {
  if (index >= counts.constraints) return "input constraint " + std::to_string(index - counts.constraints);
  auto part = [](const std::vector<std::pair<std::size_t, std::string>>& parts, std::size_t at) {
    std::string what = "?";
    for (const auto& [from, name] : parts) {
      if (from <= at) what = name;
    }
    return what;
  };
  if (index < counts.header_constraints) return "header: " + part(counts.header_parts, index);
  const std::size_t off = index - counts.header_constraints;
  return "challenge " + std::to_string(off / counts.challenge_constraints) + ": " +
         part(counts.challenge_parts, off % counts.challenge_constraints);
}

std::string SnapPartitionCheck::describe() const {
  if (ok()) return "ok";
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  if (!native.ok) add("vanilla: " + native.what);
  if (unsatisfied) {
    add("constraint " + std::to_string(*unsatisfied) + " unsatisfied: " + where + (name.empty() ? "" : " (" + name + ")"));
  }
  return out;
}

SnapPartitionCheck check_snap_partition(const SnapParams& p, const filecoin::SnapPublicInputs& pub, std::size_t k,
                                        const filecoin::SnapPartitionProof& proof) {
  SnapPartitionCheck r;
  r.native = filecoin::verify_snap_vanilla(p, pub, k, proof);
  const EmptySectorUpdateCircuit circuit(p, snap_witness(p, pub, k, proof));
  {
    r1cs::ProvingAssignment cs;
    circuit.synthesize(cs);
    r.unsatisfied = porep::first_unsatisfied(cs.a(), cs.b(), cs.c());
  }
  if (r.unsatisfied) {
    const SnapCounts counts = count_snap(p);
    r.where = locate_snap_constraint(counts, *r.unsatisfied);
    r1cs::ConstraintPathFinder finder(*r.unsatisfied);
    circuit.synthesize(finder);
    r.name = finder.path().value_or("");
  }
  return r;
}

}  // namespace proofline::circuits::snap
