// The Fallback PoSt circuit of one partition, in rust-fil-proofs' synthesis order: see post.hpp.
#include "proofline/circuits/post.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "proofline/circuits/porep.hpp"
#include "proofline/gadgets/poseidon.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/r1cs/shape_counter.hpp"
#include "proofline/r1cs/test_constraint_system.hpp"
#include "proofline/util/error.hpp"

namespace proofline::circuits::post {

using gadgets::AllocatedNum;
using gadgets::AuthPath;
using gadgets::PathLevel;
using gadgets::TreeHash;
using gadgets::TreeShape;
using r1cs::ConstraintSystem;

namespace {

[[noreturn]] void bad_shape(const std::string& what) {
  throw ProoflineError(Error::BadLength, "Fallback PoSt circuit: " + what);
}

std::string tree_name(const TreeShape& t) {
  return std::to_string(t.base) + "-" + std::to_string(t.sub) + "-" + std::to_string(t.top);
}

void check_levels(const std::vector<PathLevel>& levels, std::size_t want, std::size_t arity, const std::string& where) {
  if (levels.size() != want) {
    bad_shape(where + ": " + std::to_string(levels.size()) + " levels, expected " + std::to_string(want));
  }
  for (std::size_t l = 0; l < levels.size(); ++l) {
    if (levels[l].hashes.size() != arity - 1 || levels[l].index >= arity) {
      bad_shape(where + " level " + std::to_string(l) + ": " + std::to_string(levels[l].hashes.size()) +
                " siblings at position " + std::to_string(levels[l].index) + ", expected " +
                std::to_string(arity - 1) + " siblings and a position < " + std::to_string(arity));
    }
  }
}

/// One circuit sector (storage-proofs-post fallback circuit.rs, `impl Circuit for &Sector`).
void synthesize_sector(ConstraintSystem& cs, const FallbackPoStShape& shape, const PoStCircuitSector& s) {
  auto alloc_named = [&](const char* name, const Fr& v) {
    auto ns = cs.namespace_(name);
    return AllocatedNum::alloc(cs, v);
  };
  const AllocatedNum comm_r_last = alloc_named("comm_r_last", s.comm_r_last);
  const AllocatedNum comm_c = alloc_named("comm_c", s.comm_c);
  const AllocatedNum comm_r = alloc_named("comm_r", s.comm_r);
  {
    auto ns = cs.namespace_("comm_r_input");
    comm_r.inputize(cs);
  }
  AllocatedNum hashed;
  {
    auto ns = cs.namespace_("H_comm_c_comm_r_last");
    const AllocatedNum pre[2] = {comm_c, comm_r_last};
    hashed = gadgets::poseidon_hash(cs, pre, gadgets::PoseidonConstants::merkle(2));
  }
  gadgets::enforce_equal(cs, "enforce_comm_c_comm_r_last_hash_comm_r", comm_r, hashed);
  gadgets::PorRoot root;
  root.var = comm_r_last;
  for (std::size_t n = 0; n < shape.challenges; ++n) {
    auto ns = cs.namespace_([&] { return "challenge_inclusion_" + std::to_string(n); });
    gadgets::por_circuit(cs, TreeHash::Poseidon, shape.tree, s.paths[n], s.leaves[n], root, true);
  }
}

}  // namespace

std::size_t FallbackPoStShape::base_levels() const {
  porep::PoRepShape p;
  p.nodes = nodes;
  p.tree_rc = tree;
  return p.tree_rc_base_levels();
}

std::string FallbackPoStShape::describe() const {
  return std::to_string(sectors) + " sectors × " + std::to_string(challenges) + " challenges, " +
         std::to_string(nodes) + " nodes, tree " + tree_name(tree);
}

FallbackPoStShape shape_for(const filecoin::FallbackParams& p) {
  const filecoin::SectorShape& s = filecoin::sector_shape(p.sector_bytes);
  FallbackPoStShape out;
  out.nodes = s.nodes;
  out.tree = s.tree_rc;
  out.sectors = p.sector_count;
  out.challenges = p.challenge_count;
  return out;
}

std::vector<PoStCircuitSector> circuit_sectors(const filecoin::PartitionSectors& part) {
  std::vector<PoStCircuitSector> out;
  out.reserve(part.proofs.size());
  for (std::size_t i = 0; i < part.proofs.size(); ++i) {
    const filecoin::PoStSectorProof& sp = part.proofs[i];
    PoStCircuitSector s;
    s.comm_r = filecoin::domain_fr(part.sectors.at(i).comm_r);
    s.comm_c = filecoin::domain_fr(sp.comm_c);
    s.comm_r_last = filecoin::domain_fr(sp.comm_r_last);
    for (const filecoin::MerkleProof& m : sp.inclusion_proofs) {
      s.leaves.push_back(filecoin::domain_fr(m.leaf));
      s.paths.push_back(m.auth_path());
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<PoStCircuitSector> blank_sectors(const FallbackPoStShape& shape) {
  const std::size_t base = shape.base_levels();
  AuthPath path;
  auto levels = [](std::size_t n, std::size_t arity) {
    return std::vector<PathLevel>(n, PathLevel{std::vector<Fr>(arity - 1, Fr::zero()), 0});
  };
  path.base = levels(base, shape.tree.base);
  if (shape.tree.sub) path.sub = levels(1, shape.tree.sub);
  if (shape.tree.top) path.top = levels(1, shape.tree.top);
  PoStCircuitSector s{Fr::zero(), Fr::zero(), Fr::zero(), std::vector<Fr>(shape.challenges, Fr::zero()),
                      std::vector<AuthPath>(shape.challenges, path)};
  return std::vector<PoStCircuitSector>(shape.sectors, s);
}

FallbackPoStCircuit::FallbackPoStCircuit(const FallbackPoStShape& shape, std::vector<PoStCircuitSector> sectors)
    : shape_(shape), sectors_(std::move(sectors)), threads_(porep::default_synthesis_threads()) {
  if (sectors_.size() != shape_.sectors) {
    bad_shape(std::to_string(sectors_.size()) + " sectors, expected " + std::to_string(shape_.sectors));
  }
  const std::size_t base = shape_.base_levels();
  for (std::size_t i = 0; i < sectors_.size(); ++i) {
    const PoStCircuitSector& s = sectors_[i];
    const std::string at = "sector " + std::to_string(i);
    if (s.leaves.size() != shape_.challenges || s.paths.size() != shape_.challenges) {
      bad_shape(at + ": " + std::to_string(s.leaves.size()) + " leaves and " + std::to_string(s.paths.size()) +
                " paths, expected " + std::to_string(shape_.challenges));
    }
    for (std::size_t n = 0; n < s.paths.size(); ++n) {
      const std::string where = at + " challenge " + std::to_string(n) + " tree R path";
      check_levels(s.paths[n].base, base, shape_.tree.base, where + " (base)");
      check_levels(s.paths[n].sub, shape_.tree.sub ? 1 : 0, shape_.tree.sub, where + " (sub)");
      check_levels(s.paths[n].top, shape_.tree.top ? 1 : 0, shape_.tree.top, where + " (top)");
    }
  }
}

void FallbackPoStCircuit::synthesize(ConstraintSystem& cs) const {
  if (cs.parallel_parts() && threads_ != 1 && sectors_.size() > 1) {
    synthesize_parallel(cs, threads_);
    return;
  }
  // synthesize_default's "outer namespace"; the extensible path gives the same constraints.
  auto outer = cs.namespace_("outer namespace");
  for (std::size_t i = 0; i < sectors_.size(); ++i) {
    auto ns = cs.namespace_([&] { return "sector_" + std::to_string(i); });
    synthesize_sector(cs, shape_, sectors_[i]);
  }
}

void FallbackPoStCircuit::synthesize_parallel(ConstraintSystem& cs, std::size_t threads) const {
  // Every circuit sector reads nothing but its own variables: one part each, of one shape.
  const PoStCounts c = count_post(shape_);
  const r1cs::PartShape part{c.sector_constraints, (c.inputs - 1) / shape_.sectors, c.aux / shape_.sectors};
  cs.synthesize_parts(
      sectors_.size(), part,
      [&](r1cs::ConstraintSystem& p, std::size_t i) { synthesize_sector(p, shape_, sectors_[i]); }, threads);
}

std::vector<Fr> FallbackPoStCircuit::public_inputs() const {
  std::vector<Fr> out;
  out.reserve(shape_.sectors * (1 + shape_.challenges));
  for (const PoStCircuitSector& s : sectors_) {
    out.push_back(s.comm_r);
    for (const AuthPath& p : s.paths) out.push_back(Fr::from_u64(porep::path_index(p, shape_.tree)));
  }
  return out;
}

PoStCounts count_post(const FallbackPoStShape& shape) {
  FallbackPoStShape one = shape;
  one.sectors = 1;
  const auto blank = blank_sectors(one);
  // The comm_r part alone (a sector of no challenges), then the whole sector.
  PoStCircuitSector header_only = blank[0];
  header_only.leaves.clear();
  header_only.paths.clear();
  FallbackPoStShape none = one;
  none.challenges = 0;
  r1cs::ShapeCounter head;
  synthesize_sector(head, none, header_only);
  r1cs::ShapeCounter full;
  synthesize_sector(full, one, blank[0]);
  PoStCounts c;
  c.sector_header = head.num_constraints();
  c.sector_constraints = full.num_constraints();
  c.challenge_constraints = shape.challenges ? (c.sector_constraints - c.sector_header) / shape.challenges : 0;
  c.constraints = shape.sectors * c.sector_constraints;
  c.inputs = 1 + shape.sectors * (full.num_inputs() - 1);
  c.aux = shape.sectors * full.num_aux();
  return c;
}

std::vector<Fr> post_public_inputs(const filecoin::FallbackParams& p, const filecoin::PoStPublicInputs& pub,
                                   std::size_t partition) {
  const std::uint64_t nodes = p.sector_bytes / filecoin::kNodeBytes;
  std::vector<const filecoin::PublicSector*> sectors;
  if (p.type == filecoin::PoStType::Winning) {
    if (partition != 0 || pub.sectors.size() != 1) {
      throw ProoflineError(Error::BadArgument, "WinningPoSt public inputs: partition " + std::to_string(partition) +
                                                   " of " + std::to_string(pub.sectors.size()) +
                                                   " sectors, expected partition 0 of 1 sector");
    }
    sectors.assign(p.sector_count, &pub.sectors[0]);
  } else {
    const std::size_t first = (partition - pub.first_partition) * p.sector_count;
    if (partition < pub.first_partition || first >= pub.sectors.size()) {
      throw ProoflineError(Error::BadArgument, "WindowPoSt public inputs: partition " + std::to_string(partition) +
                                                   " of " + std::to_string(pub.sectors.size()) + " sectors at " +
                                                   std::to_string(p.sector_count) + " per partition" +
                                                   (pub.first_partition == 0
                                                        ? std::string()
                                                        : " from partition " + std::to_string(pub.first_partition)) +
                                                   " does not exist");
    }
    for (std::size_t i = first; i < std::min(pub.sectors.size(), first + p.sector_count); ++i) {
      sectors.push_back(&pub.sectors[i]);
    }
  }
  const std::size_t real = sectors.size();
  std::vector<Fr> out;
  out.reserve(p.sector_count * (1 + p.challenge_count));
  for (std::size_t i = 0; i < p.sector_count; ++i) {
    const std::size_t pos = std::min(i, real - 1);  // padding repeats the last sector's inputs
    const filecoin::PublicSector& s = *sectors[pos];
    out.push_back(filecoin::domain_fr(s.comm_r));
    for (std::size_t n = 0; n < p.challenge_count; ++n) {
      const std::uint64_t index = filecoin::post_challenge_index(p, partition, pos, n);
      out.push_back(Fr::from_u64(filecoin::leaf_challenge(pub.randomness, s.sector_id, index, nodes)));
    }
  }
  return out;
}

std::string locate_post_constraint(const PoStCounts& counts, std::size_t index) {
  if (index >= counts.constraints || counts.sector_constraints == 0) {
    return "input constraint " + std::to_string(index - counts.constraints);
  }
  const std::size_t sector = index / counts.sector_constraints;
  const std::size_t off = index % counts.sector_constraints;
  const std::string at = "sector " + std::to_string(sector);
  if (off < counts.sector_header) return at + ": comm_r = H(comm_c, comm_r_last)";
  const std::size_t ch = (off - counts.sector_header) / counts.challenge_constraints;
  return at + " challenge " + std::to_string(ch) + ": challenged leaf inclusion in tree R (comm_r_last)";
}

std::string PoStPartitionCheck::describe() const {
  if (ok()) return "ok";
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
  if (!native.ok) add("vanilla: " + native.what);
  if (unsatisfied) {
    add("constraint " + std::to_string(*unsatisfied) + " unsatisfied: " + where + (name.empty() ? "" : " (" + name + ")"));
  }
  if (!inputs_match) {
    add("public input " + std::to_string(first_input_mismatch) +
        " differs from the one a verifier derives from randomness, sector ids and comm_r");
  }
  return out;
}

PoStPartitionCheck check_post_partition(const filecoin::FallbackParams& p, const filecoin::PoStPublicInputs& pub,
                                        std::span<const filecoin::FallbackPoStSectorProof> proofs,
                                        std::size_t partition) {
  const filecoin::PartitionSectors part = filecoin::partition_sector_proofs(p, pub, proofs, partition);
  PoStPartitionCheck r;
  r.native = filecoin::verify_post_vanilla(p, pub, part, partition);
  const FallbackPoStShape shape = shape_for(p);
  const FallbackPoStCircuit circuit(shape, circuit_sectors(part));
  const PoStCounts counts = count_post(shape);
  {
    r1cs::ProvingAssignment cs;
    circuit.synthesize(cs);
    r.unsatisfied = porep::first_unsatisfied(cs.a(), cs.b(), cs.c());
  }
  if (r.unsatisfied) {
    r.where = locate_post_constraint(counts, *r.unsatisfied);
    if (counts.constraints <= kNamedCheckLimit) {
      r1cs::TestConstraintSystem test;
      circuit.synthesize(test);
      r.name = test.which_is_unsatisfied().value_or("");
    }
  }
  const std::vector<Fr> mine = circuit.public_inputs();
  const std::vector<Fr> derived = post_public_inputs(p, pub, partition);
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (i >= derived.size() || !(mine[i] == derived[i])) {
      r.inputs_match = false;
      r.first_input_mismatch = i;
      break;
    }
  }
  return r;
}

}  // namespace proofline::circuits::post
