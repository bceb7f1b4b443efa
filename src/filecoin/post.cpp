// Fallback PoSt (WindowPoSt / WinningPoSt): configurations, challenges, partitioning, native
// verification and generated inputs. See post.hpp.
#include "proofline/filecoin/post.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "proofline/filecoin/hashers.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/sparse_tree.hpp"
#include "proofline/filecoin/vanilla.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/hex.hpp"

namespace proofline::filecoin {

namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
constexpr std::array<std::uint64_t, 5> kRegisteredSizes = {2 * kKiB, 8 * kMiB, 512 * kMiB, 32 * kGiB, 64 * kGiB};
constexpr std::array<std::string_view, 15> kNames = {
    "StackedDrgWinning2KiBV1",   "StackedDrgWinning8MiBV1",   "StackedDrgWinning512MiBV1",
    "StackedDrgWinning32GiBV1",  "StackedDrgWinning64GiBV1",  "StackedDrgWindow2KiBV1",
    "StackedDrgWindow8MiBV1",    "StackedDrgWindow512MiBV1",  "StackedDrgWindow32GiBV1",
    "StackedDrgWindow64GiBV1",   "StackedDrgWindow2KiBV1_1",  "StackedDrgWindow8MiBV1_1",
    "StackedDrgWindow512MiBV1_1", "StackedDrgWindow32GiBV1_1", "StackedDrgWindow64GiBV1_1"};

std::string sector_label(const PublicSector& s, std::size_t i) {
  return "sector " + std::to_string(i) + " (id " + std::to_string(s.sector_id) + ")";
}

}  // namespace

std::string_view to_string(PoStType t) { return t == PoStType::Winning ? "winning" : "window"; }

std::string_view to_string(RegisteredPoStProof p) { return kNames.at(static_cast<std::size_t>(p)); }

RegisteredPoStProof registered_post_proof_from_u64(std::uint64_t v) {
  if (v >= kNames.size()) {
    throw ProoflineError(Error::BadArgument, "registered PoSt proof " + std::to_string(v) +
                                                 ": expected 0..4 (Winning V1), 5..9 (Window V1) or 10..14 (Window V1_1)");
  }
  return static_cast<RegisteredPoStProof>(v);
}

std::size_t window_post_sector_count(std::uint64_t sector_bytes) {
  (void)sector_shape(sector_bytes);  // throws for an unsupported size
  if (sector_bytes == 32 * kGiB) return 2349;
  if (sector_bytes == 64 * kGiB) return 2300;
  return 2;
}

PoStConfig post_config(PoStType type, std::uint64_t sector_bytes, ApiVersion api_version) {
  PoStConfig c;
  c.type = type;
  c.sector_bytes = sector_shape(sector_bytes).sector_bytes;
  c.api_version = api_version;
  if (type == PoStType::Winning) {
    c.challenge_count = kWinningPoStChallengeCount;
    c.sector_count = kWinningPoStSectorCount;
  } else {
    c.challenge_count = kWindowPoStChallengeCount;
    c.sector_count = window_post_sector_count(sector_bytes);
  }
  return c;
}

PoStConfig post_config(RegisteredPoStProof p) {
  const auto v = static_cast<std::uint64_t>(p);
  const PoStType type = v < 5 ? PoStType::Winning : PoStType::Window;
  const ApiVersion api = v < 10 ? ApiVersion::V1_0_0 : ApiVersion::V1_2_0;
  return post_config(type, kRegisteredSizes.at(v % 5), api);
}

FallbackParams fallback_params(const PoStConfig& c) {
  FallbackParams p;
  p.type = c.type;
  p.sector_bytes = c.sector_bytes;
  p.api_version = c.api_version;
  if (c.type == PoStType::Winning) {
    // filecoin-proofs winning_post_setup_params: sector_count = challenges / sectors, challenge_count
    // = challenges / that.
    p.sector_count = c.challenge_count / c.sector_count;
    p.challenge_count = c.challenge_count / p.sector_count;
  } else {
    p.sector_count = c.sector_count;
    p.challenge_count = c.challenge_count;
  }
  return p;
}

std::string fallback_identifier(const FallbackParams& p) {
  return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(p.sector_bytes) +
         ", challenge_count: " + std::to_string(p.challenge_count) + ", sector_count: " + std::to_string(p.sector_count) +
         "}";
}

std::string fallback_parameter_cache_id(const FallbackParams& p) {
  return parameter_cache_id("proof-of-spacetime-fallback-" + tree_display(sector_shape(p.sector_bytes)),
                            fallback_identifier(p));
}

std::string fallback_parameter_file_name(const FallbackParams& p, std::string_view extension) {
  return parameter_file_name(fallback_parameter_cache_id(p), extension);
}

std::uint64_t leaf_challenge(const Randomness& randomness, std::uint64_t sector_id, std::uint64_t challenge_index,
                             std::uint64_t nodes) {
  std::array<std::uint8_t, 48> pre{};
  std::copy(randomness.begin(), randomness.end(), pre.begin());
  for (int i = 0; i < 8; ++i) {
    pre[32 + i] = static_cast<std::uint8_t>(sector_id >> (8 * i));
    pre[40 + i] = static_cast<std::uint8_t>(challenge_index >> (8 * i));
  }
  std::array<std::uint8_t, 32> h{};
  SHA256(pre.data(), pre.size(), h.data());
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | h[static_cast<std::size_t>(i)];
  return v % nodes;
}

std::uint64_t challenge_index(ApiVersion v, std::size_t sector_index, std::size_t challenge_count, std::size_t n) {
  if (v == ApiVersion::V1_2_0) return n;
  return static_cast<std::uint64_t>(sector_index) * challenge_count + n;
}

std::uint64_t post_challenge_index(const FallbackParams& p, std::size_t partition, std::size_t position,
                                   std::size_t n) {
  if (p.type == PoStType::Winning) return position * p.challenge_count + n;
  return challenge_index(p.api_version, partition * p.sector_count + position, p.challenge_count, n);
}

std::vector<std::uint64_t> sector_challenges(const PoStConfig& c, const Randomness& randomness,
                                             std::uint64_t sector_id, std::size_t sector_index) {
  std::vector<std::uint64_t> out(c.challenge_count);
  for (std::size_t n = 0; n < c.challenge_count; ++n) {
    out[n] = leaf_challenge(randomness, sector_id, challenge_index(c.api_version, sector_index, c.challenge_count, n),
                            c.nodes());
  }
  return out;
}


PartitionRange partition_range(const FallbackParams& p, const PoStPublicInputs& pub) {
  if (p.type == PoStType::Winning) return {0, 1};
  return {pub.first_partition, (pub.sectors.size() + p.sector_count - 1) / p.sector_count};
}

std::string PartitionRange::describe(const FallbackParams& p, const PoStPublicInputs& pub) const {
  if (p.type == PoStType::Winning) return "WinningPoSt has one partition, 0";
  return "the request's " + std::to_string(pub.sectors.size()) + " sectors at " + std::to_string(p.sector_count) +
         " per partition make partitions " + std::to_string(first) + ".." + std::to_string(first + count - 1);
}

PartitionSectors partition_sector_proofs(const FallbackParams& p, const PoStPublicInputs& pub,
                                         std::span<const FallbackPoStSectorProof> proofs, std::size_t partition) {
  PartitionSectors out;
  auto one_sector = [](const FallbackPoStSectorProof& f) -> const PoStSectorProof& {
    if (f.sectors.size() != 1) {
      throw ProoflineError(Error::BadLength, "vanilla proof of sector " + std::to_string(f.sector_id) + " has " +
                                                 std::to_string(f.sectors.size()) + " sector proofs, expected 1");
    }
    return f.sectors[0];
  };
  if (p.type == PoStType::Winning) {
    if (partition != 0) throw ProoflineError(Error::BadArgument, "WinningPoSt has one partition, asked for partition " + std::to_string(partition));
    if (pub.sectors.size() != 1 || proofs.size() != 1) {
      throw ProoflineError(Error::BadLength, "WinningPoSt covers 1 sector: got " + std::to_string(pub.sectors.size()) +
                                                 " public sectors and " + std::to_string(proofs.size()) + " vanilla proofs");
    }
    const PoStSectorProof& s = one_sector(proofs[0]);
    if (s.inclusion_proofs.size() != p.sector_count * p.challenge_count) {
      throw ProoflineError(Error::BadLength, "WinningPoSt vanilla proof has " + std::to_string(s.inclusion_proofs.size()) +
                                                 " inclusion proofs, expected " +
                                                 std::to_string(p.sector_count * p.challenge_count));
    }
    for (std::size_t i = 0; i < p.sector_count; ++i) {
      PoStSectorProof one;
      one.comm_c = s.comm_c;
      one.comm_r_last = s.comm_r_last;
      one.inclusion_proofs.assign(s.inclusion_proofs.begin() + static_cast<std::ptrdiff_t>(i * p.challenge_count),
                                  s.inclusion_proofs.begin() + static_cast<std::ptrdiff_t>((i + 1) * p.challenge_count));
      out.proofs.push_back(std::move(one));
      out.sectors.push_back(pub.sectors[0]);
      out.vanilla_comm_r.push_back(proofs[0].comm_r);
      out.vanilla_index.push_back(0);
    }
    out.real_sectors = p.sector_count;
    return out;
  }
  // Every vanilla proof must be one of the request's sectors: extra ones are refused, not ignored
  // (as the cuzk.v1 form, whose sectors are the proofs', refuses more than a partition's).
  if (proofs.size() > pub.sectors.size()) {
    throw ProoflineError(Error::BadLength, std::to_string(proofs.size()) + " vanilla proofs for the request's " +
                                               std::to_string(pub.sectors.size()) +
                                               " sectors: at most one per sector");
  }
  std::unordered_set<std::uint64_t> ids;
  for (const PublicSector& ps : pub.sectors) ids.insert(ps.sector_id);
  std::unordered_map<std::uint64_t, std::size_t> first_of;  // sector id → its first vanilla proof
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    if (!ids.contains(proofs[i].sector_id)) {
      throw ProoflineError(Error::Malformed, "vanilla_proofs[" + std::to_string(i) + "] is of sector id " +
                                                 std::to_string(proofs[i].sector_id) + ", which is not one of the "
                                                 "request's " + std::to_string(pub.sectors.size()) + " sectors");
    }
    if (const auto [it, fresh] = first_of.try_emplace(proofs[i].sector_id, i); !fresh) {
      throw ProoflineError(Error::Malformed, "vanilla_proofs[" + std::to_string(i) + "] is of sector id " +
                                                 std::to_string(proofs[i].sector_id) + " again (already vanilla_proofs[" +
                                                 std::to_string(it->second) + "]): one proof per sector");
    }
  }
  const std::size_t first = (partition - pub.first_partition) * p.sector_count;
  if (partition < pub.first_partition || first >= pub.sectors.size()) {
    throw ProoflineError(Error::BadArgument, "partition " + std::to_string(partition) + " of " +
                                                 std::to_string(pub.sectors.size()) + " sectors at " +
                                                 std::to_string(p.sector_count) + " per partition" +
                                                 (pub.first_partition == 0
                                                      ? std::string()
                                                      : " from partition " + std::to_string(pub.first_partition)) +
                                                 " does not exist");
  }
  const std::size_t last = std::min(pub.sectors.size(), first + p.sector_count);
  for (std::size_t i = first; i < last; ++i) {
    const PublicSector& ps = pub.sectors[i];
    const auto it = std::find_if(proofs.begin(), proofs.end(),
                                 [&](const FallbackPoStSectorProof& f) { return f.sector_id == ps.sector_id; });
    if (it == proofs.end()) {
      throw ProoflineError(Error::Malformed, "no vanilla proof for sector id " + std::to_string(ps.sector_id) +
                                                 " (sectors[" + std::to_string(i) + "] of the request; " +
                                                 std::to_string(proofs.size()) + " vanilla proof(s) given)");
    }
    const PoStSectorProof& s = one_sector(*it);
    if (s.inclusion_proofs.size() != p.challenge_count) {
      throw ProoflineError(Error::BadLength, "vanilla proof of sector id " + std::to_string(ps.sector_id) + " has " +
                                                 std::to_string(s.inclusion_proofs.size()) +
                                                 " inclusion proofs, expected " + std::to_string(p.challenge_count));
    }
    out.proofs.push_back(s);
    out.sectors.push_back(ps);
    out.vanilla_comm_r.push_back(it->comm_r);
    out.vanilla_index.push_back(static_cast<std::size_t>(it - proofs.begin()));
  }
  out.real_sectors = out.proofs.size();
  while (out.proofs.size() < p.sector_count) {
    out.proofs.push_back(out.proofs.back());
    out.sectors.push_back(out.sectors.back());
    out.vanilla_comm_r.push_back(out.vanilla_comm_r.back());
    out.vanilla_index.push_back(out.vanilla_index.back());
  }
  return out;
}

std::optional<CommRMismatch> check_vanilla_comm_r(const PartitionSectors& part, std::size_t partition) {
  const std::size_t n = std::min({part.real_sectors, part.sectors.size(), part.vanilla_comm_r.size()});
  for (std::size_t i = 0; i < n; ++i) {
    const PublicSector& ps = part.sectors[i];
    if (part.vanilla_comm_r[i] == ps.comm_r) continue;
    return CommRMismatch{i, "partition " + std::to_string(partition) + " " + sector_label(ps, i) + ": vanilla_proofs[" +
                                std::to_string(part.vanilla_index[i]) + "] carries comm_r " +
                                to_hex(part.vanilla_comm_r[i]) + ", the request has comm_r " + to_hex(ps.comm_r) +
                                " for that sector"};
  }
  return std::nullopt;
}

PoStVanillaCheck verify_post_vanilla(const FallbackParams& p, const PoStPublicInputs& pub,
                                     const PartitionSectors& part, std::size_t partition) {
  PoStVanillaCheck r;
  auto fail = [&](std::size_t s, std::size_t c, std::string what) {
    r.ok = false;
    r.sector = s;
    r.challenge = c;
    r.what = std::move(what);
    return r;
  };
  const SectorShape& shape = sector_shape(p.sector_bytes);
  const std::uint64_t nodes = p.sector_bytes / kNodeBytes;
  const MerkleProofKind kind = tree_rc_proof_kind(shape);
  const std::size_t base_levels = shape.base_tree_levels();
  if (part.proofs.size() != p.sector_count || part.sectors.size() != p.sector_count) {
    return fail(0, 0, "partition has " + std::to_string(part.proofs.size()) + " sector proofs, expected " +
                          std::to_string(p.sector_count));
  }
  if (part.real_sectors == 0 || part.real_sectors > p.sector_count) {
    return fail(0, 0, "partition has " + std::to_string(part.real_sectors) + " real sectors, expected 1.." +
                          std::to_string(p.sector_count));
  }
  // Padding repeats the last real sector (upstream verifies the real ones only): check that it does.
  for (std::size_t i = part.real_sectors; i < p.sector_count; ++i) {
    if (!(part.proofs[i] == part.proofs[part.real_sectors - 1]) || part.sectors[i] != part.sectors[part.real_sectors - 1]) {
      return fail(i, 0, "sector " + std::to_string(i) + ": padding that is not the last real sector repeated");
    }
  }
  for (std::size_t i = 0; i < part.real_sectors; ++i) {
    const PoStSectorProof& sp = part.proofs[i];
    const PublicSector& ps = part.sectors[i];
    const std::string at = sector_label(ps, i);
    if (sp.inclusion_proofs.size() != p.challenge_count) {
      return fail(i, 0, at + ": " + std::to_string(sp.inclusion_proofs.size()) + " inclusion proofs, expected " +
                            std::to_string(p.challenge_count));
    }
    const Domain& root0 = sp.inclusion_proofs[0].root;
    if (root0 != sp.comm_r_last) return fail(i, 0, at + ": comm_r_last ≠ the root of inclusion proof 0");
    if (fr_domain(comm_r(domain_fr(sp.comm_c), domain_fr(root0))) != ps.comm_r) {
      return fail(i, 0, at + ": comm_r ≠ Poseidon2(comm_c, comm_r_last)");
    }
    for (std::size_t n = 0; n < p.challenge_count; ++n) {
      const MerkleProof& m = sp.inclusion_proofs[n];
      const std::string atc = at + " challenge " + std::to_string(n);
      const std::uint64_t index = post_challenge_index(p, partition, i, n);
      const std::uint64_t want = leaf_challenge(pub.randomness, ps.sector_id, index, nodes);
      if (m.root != root0) return fail(i, n, atc + ": root ≠ comm_r_last");
      if (m.kind != kind || m.base.size() != base_levels || m.sub.size() != (shape.tree_rc.sub ? 1u : 0u) ||
          m.top.size() != (shape.tree_rc.top ? 1u : 0u)) {
        return fail(i, n, atc + ": path is not of the tree R shape of a " + std::string(shape.name) + " sector");
      }
      if (m.leaf_index() != want) {
        return fail(i, n, atc + ": path leads to leaf " + std::to_string(m.leaf_index()) + ", challenged leaf " +
                              std::to_string(want));
      }
      if (merkle_root(m, false) != m.root) return fail(i, n, atc + ": path does not hash to its root");
    }
  }
  if (const auto bad = check_vanilla_comm_r(part, partition)) return fail(bad->sector, 0, bad->what);
  return r;
}

GeneratedPoSt gen_post_vanilla(const GenPoStOptions& o) {
  const PoStConfig& c = o.config;
  const SectorShape& shape = c.shape();
  if (c.type == PoStType::Winning && o.sectors != 1) {
    throw ProoflineError(Error::BadArgument, "WinningPoSt proves 1 sector, asked for " + std::to_string(o.sectors));
  }
  if (o.sectors == 0) throw ProoflineError(Error::BadArgument, "gen_post_vanilla: 0 sectors");
  std::array<std::uint8_t, 32> seed{};
  for (int i = 0; i < 8; ++i) seed[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(o.seed >> (8 * i));
  const std::string_view tag = "proofline gen-vanilla post";
  // The tag's first 24 bytes fill the seed after the 8 of o.seed (the whole tag, 26 bytes, overran it).
  std::copy_n(tag.begin(), std::min(tag.size(), seed.size() - 8), seed.begin() + 8);
  ChaCha8Rng rng(seed);

  GeneratedPoSt g;
  g.config = c;
  g.public_inputs.prover_id = prover_id_from_miner(o.miner_id);
  g.public_inputs.randomness = random_fr_domain(rng);
  std::set<std::uint64_t> ids;
  while (ids.size() < o.sectors) ids.insert(rng.next_u64() % 1000000);

  std::size_t index = 0;
  for (const std::uint64_t id : ids) {
    // Window: the sector's position across partitions; Winning: 0.
    const std::vector<std::uint64_t> leaves = sector_challenges(c, g.public_inputs.randomness, id, index);
    SparseTree tree(tree_rc_arities(shape), false);
    for (const std::uint64_t l : leaves) tree.set_leaf(l, random_fr_domain(rng));
    tree.build(rng);
    PoStSectorProof sp;
    sp.comm_c = random_fr_domain(rng);
    sp.comm_r_last = tree.root();
    for (const std::uint64_t l : leaves) {
      sp.inclusion_proofs.push_back(tree.proof(l, tree_rc_proof_kind(shape), shape.base_tree_levels()));
    }
    FallbackPoStSectorProof f;
    f.sector_id = id;
    f.comm_r = fr_domain(comm_r(domain_fr(sp.comm_c), domain_fr(sp.comm_r_last)));
    f.sectors.push_back(std::move(sp));
    g.public_inputs.sectors.push_back({id, f.comm_r});
    g.vanilla_proofs.push_back(std::move(f));
    ++index;
  }
  return g;
}

}  // namespace proofline::filecoin
