// Registered seal proofs, sector shapes, porep_id and parameter file names (reference §1.6, §3.2, §5).
#include "proofline/filecoin/sector.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdlib>

#include "proofline/util/error.hpp"

namespace proofline::filecoin {

namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

// size, layers, tree R/C shape, partitions, challenges/partition, minimum challenges, NI partitions,
// name, vanilla key (test sizes have no upstream key; proofline uses the same naming pattern).
SectorShape make_shape(std::uint64_t bytes, std::size_t layers, hash::TreeShape t, std::size_t partitions,
                       std::size_t minimum, std::size_t ni_partitions, std::string_view name,
                       std::string_view key) {
  SectorShape s;
  s.sector_bytes = bytes;
  s.nodes = bytes / kNodeBytes;
  s.layers = layers;
  s.tree_rc = t;
  s.tree_d_levels = static_cast<std::size_t>(std::countr_zero(s.nodes));
  s.partitions = partitions;
  s.minimum_challenges = minimum;
  s.challenges_per_partition = (minimum + partitions - 1) / partitions;
  s.ni_partitions = ni_partitions;
  s.name = name;
  s.vanilla_key = key;
  return s;
}

const std::vector<SectorShape>& shapes() {
  static const std::vector<SectorShape> v = {
      make_shape(2 * KiB, 2, {8, 0, 0}, 1, 2, 13, "2KiB", "StackedDrg2KiBV1"),
      make_shape(4 * KiB, 2, {8, 2, 0}, 1, 2, 13, "4KiB", "StackedDrg4KiBV1"),
      make_shape(16 * KiB, 2, {8, 8, 0}, 1, 2, 13, "16KiB", "StackedDrg16KiBV1"),
      make_shape(32 * KiB, 2, {8, 8, 2}, 1, 2, 13, "32KiB", "StackedDrg32KiBV1"),
      make_shape(8 * MiB, 2, {8, 0, 0}, 1, 2, 13, "8MiB", "StackedDrg8MiBV1"),
      make_shape(16 * MiB, 2, {8, 2, 0}, 1, 2, 13, "16MiB", "StackedDrg16MiBV1"),
      make_shape(512 * MiB, 2, {8, 0, 0}, 1, 2, 13, "512MiB", "StackedDrg512MiBV1"),
      make_shape(1 * GiB, 2, {8, 2, 0}, 1, 2, 13, "1GiB", "StackedDrg1GiBV1"),
      make_shape(32 * GiB, 11, {8, 8, 0}, 10, 176, 126, "32GiB", "StackedDrg32GiBV1"),
      make_shape(64 * GiB, 11, {8, 8, 2}, 10, 176, 126, "64GiB", "StackedDrg64GiBV1"),
  };
  return v;
}

struct ProofInfo {
  RegisteredSealProof p;
  std::string_view name;
  std::uint64_t bytes;
  ApiVersion version;
  PorepMode mode;
};

using R = RegisteredSealProof;
using V = ApiVersion;
using M = PorepMode;
constexpr ProofInfo kProofs[] = {
    {R::StackedDrg2KiBV1, "StackedDrg2KiBV1", 2 * KiB, V::V1_0_0, M::Interactive},
    {R::StackedDrg8MiBV1, "StackedDrg8MiBV1", 8 * MiB, V::V1_0_0, M::Interactive},
    {R::StackedDrg512MiBV1, "StackedDrg512MiBV1", 512 * MiB, V::V1_0_0, M::Interactive},
    {R::StackedDrg32GiBV1, "StackedDrg32GiBV1", 32 * GiB, V::V1_0_0, M::Interactive},
    {R::StackedDrg64GiBV1, "StackedDrg64GiBV1", 64 * GiB, V::V1_0_0, M::Interactive},
    {R::StackedDrg2KiBV1_1, "StackedDrg2KiBV1_1", 2 * KiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg8MiBV1_1, "StackedDrg8MiBV1_1", 8 * MiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg512MiBV1_1, "StackedDrg512MiBV1_1", 512 * MiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg32GiBV1_1, "StackedDrg32GiBV1_1", 32 * GiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg64GiBV1_1, "StackedDrg64GiBV1_1", 64 * GiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg2KiBV1_1_Feat_SyntheticPoRep, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 2 * KiB, V::V1_1_0,
     M::Synthetic},
    {R::StackedDrg8MiBV1_1_Feat_SyntheticPoRep, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 8 * MiB, V::V1_1_0,
     M::Synthetic},
    {R::StackedDrg512MiBV1_1_Feat_SyntheticPoRep, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 512 * MiB,
     V::V1_1_0, M::Synthetic},
    {R::StackedDrg32GiBV1_1_Feat_SyntheticPoRep, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", 32 * GiB, V::V1_1_0,
     M::Synthetic},
    {R::StackedDrg64GiBV1_1_Feat_SyntheticPoRep, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", 64 * GiB, V::V1_1_0,
     M::Synthetic},
    {R::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 2 * KiB,
     V::V1_2_0, M::NonInteractive},
    {R::StackedDrg8MiBV1_2_Feat_NonInteractivePoRep, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 8 * MiB,
     V::V1_2_0, M::NonInteractive},
    {R::StackedDrg512MiBV1_2_Feat_NonInteractivePoRep, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
     512 * MiB, V::V1_2_0, M::NonInteractive},
    {R::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 32 * GiB,
     V::V1_2_0, M::NonInteractive},
    {R::StackedDrg64GiBV1_2_Feat_NonInteractivePoRep, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 64 * GiB,
     V::V1_2_0, M::NonInteractive},
    {R::StackedDrg4KiBV1_1_Test, "StackedDrg4KiBV1_1_Test", 4 * KiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg16KiBV1_1_Test, "StackedDrg16KiBV1_1_Test", 16 * KiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg32KiBV1_1_Test, "StackedDrg32KiBV1_1_Test", 32 * KiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg16MiBV1_1_Test, "StackedDrg16MiBV1_1_Test", 16 * MiB, V::V1_1_0, M::Interactive},
    {R::StackedDrg1GiBV1_1_Test, "StackedDrg1GiBV1_1_Test", 1 * GiB, V::V1_1_0, M::Interactive},
};

const ProofInfo& info(RegisteredSealProof p) {
  for (const auto& i : kProofs) {
    if (i.p == p) return i;
  }
  throw ProoflineError(Error::BadArgument,
                       "registered seal proof " + std::to_string(static_cast<std::uint64_t>(p)) + " is unknown");
}

std::string supported_sizes() {
  std::string s;
  for (const auto& sh : shapes()) s += (s.empty() ? "" : ", ") + std::string(sh.name);
  return s;
}

}  // namespace

std::uint64_t SectorShape::base_tree_leaves() const {
  return nodes / ((tree_rc.sub ? tree_rc.sub : 1) * (tree_rc.top ? tree_rc.top : 1));
}

std::size_t SectorShape::base_tree_levels() const {
  std::size_t levels = 0;
  for (std::uint64_t n = base_tree_leaves(); n > 1; n /= tree_rc.base) ++levels;
  return levels;
}

const SectorShape& sector_shape(std::uint64_t sector_bytes) {
  for (const auto& s : shapes()) {
    if (s.sector_bytes == sector_bytes) return s;
  }
  throw ProoflineError(Error::BadArgument, "sector size " + std::to_string(sector_bytes) +
                                               " bytes is not supported (supported: " + supported_sizes() + ")");
}

std::span<const SectorShape> all_sector_shapes() { return shapes(); }

std::uint64_t parse_byte_size(std::string_view text) {
  std::string t;
  for (char c : text) {
    if (c != ' ' && c != '_') t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  std::size_t digits = 0;
  while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits]))) ++digits;
  const std::string unit = t.substr(digits);
  std::uint64_t mult = 0;
  if (unit.empty() || unit == "b") mult = 1;
  else if (unit == "k" || unit == "kib" || unit == "kb") mult = KiB;
  else if (unit == "m" || unit == "mib" || unit == "mb") mult = MiB;
  else if (unit == "g" || unit == "gib" || unit == "gb") mult = GiB;
  if (digits == 0 || digits > 12 || mult == 0) {
    throw ProoflineError(Error::BadArgument, "sector size \"" + std::string(text) +
                                                 "\": expected a number with an optional unit (KiB, MiB, GiB), e.g. "
                                                 "2KiB, 32GiB or 2048");
  }
  return std::stoull(t.substr(0, digits)) * mult;
}

std::uint64_t parse_sector_size(std::string_view text) { return sector_shape(parse_byte_size(text)).sector_bytes; }

std::string_view to_string(RegisteredSealProof p) { return info(p).name; }

RegisteredSealProof registered_seal_proof_from_string(std::string_view name) {
  for (const auto& i : kProofs) {
    if (i.name == name) return i.p;
  }
  throw ProoflineError(Error::BadArgument, "registered seal proof \"" + excerpt(name) +
                                               "\" is unknown (expected e.g. StackedDrg32GiBV1_1, "
                                               "StackedDrg2KiBV1_1_Feat_SyntheticPoRep)");
}

std::span<const RegisteredSealProof> all_registered_seal_proofs() {
  static const std::vector<RegisteredSealProof> v = [] {
    std::vector<RegisteredSealProof> r;
    for (const auto& i : kProofs) r.push_back(i.p);
    return r;
  }();
  return v;
}

ApiVersion api_version(RegisteredSealProof p) { return info(p).version; }
PorepMode porep_mode(RegisteredSealProof p) { return info(p).mode; }
std::uint64_t sector_size(RegisteredSealProof p) { return info(p).bytes; }

RegisteredSealProof default_seal_proof(std::uint64_t sector_bytes) {
  for (const auto& i : kProofs) {
    if (i.bytes == sector_bytes && i.version == ApiVersion::V1_1_0 &&
        i.mode == PorepMode::Interactive) {
      return i.p;
    }
  }
  throw ProoflineError(Error::BadArgument, "no registered seal proof for sector size " + std::to_string(sector_bytes));
}

PorepId porep_id(RegisteredSealProof p) {
  PorepId id{};
  const auto v = static_cast<std::uint64_t>(info(p).p);
  for (int i = 0; i < 8; ++i) id[i] = static_cast<std::uint8_t>(v >> (8 * i));
  // bytes 8..15: nonce (0 for every variant), 16..31: zero.
  return id;
}

PorepConfig porep_config(RegisteredSealProof p) {
  const ProofInfo& i = info(p);
  PorepConfig c;
  c.proof = p;
  c.shape = &sector_shape(i.bytes);
  c.porep_id = porep_id(p);
  c.api_version = i.version;
  c.mode = i.mode;
  c.partitions = i.mode == PorepMode::NonInteractive ? c.shape->ni_partitions : c.shape->partitions;
  c.challenges_per_partition = c.shape->challenges_per_partition;
  return c;
}

std::string tree_display(const SectorShape& s) {
  return "merkletree-poseidon_hasher-" + std::to_string(s.tree_rc.base) + "-" + std::to_string(s.tree_rc.sub) +
         "-" + std::to_string(s.tree_rc.top);
}

std::string parameter_cache_id(std::string_view prefix, std::string_view identifier) {
  std::uint8_t h[32];
  SHA256(reinterpret_cast<const std::uint8_t*>(identifier.data()), identifier.size(), h);
  static const char* hex = "0123456789abcdef";
  std::string out = std::string(prefix) + "-";
  for (auto b : h) {
    out.push_back(hex[b >> 4]);
    out.push_back(hex[b & 15]);
  }
  return out;
}

std::string parameter_file_name(std::string_view cache_id, std::string_view extension) {
  std::string ext(extension);
  if (!ext.empty() && ext[0] != '.') ext = "." + ext;
  return "v28-" + std::string(cache_id) + ext;
}

std::string parameter_identifier(const PorepConfig& c) {
  const SectorShape& s = *c.shape;
  return "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: " +
         std::to_string(kExpDegree) + " base_graph: drgraph::BucketGraph{size: " + std::to_string(s.nodes) +
         "; degree: " + std::to_string(kBaseDegree) + "; hasher: poseidon_hasher} }, challenges: LayerChallenges { "
         "layers: " + std::to_string(s.layers) + ", max_count: " + std::to_string(c.challenges_per_partition) +
         " }, tree: " + tree_display(s) + " }";
}

std::string parameter_cache_id(const PorepConfig& c) {
  return parameter_cache_id("stacked-proof-of-replication-" + tree_display(*c.shape) + "-sha256_hasher",
                            parameter_identifier(c));
}

std::string parameter_file_name(const PorepConfig& c, std::string_view extension) {
  return parameter_file_name(parameter_cache_id(c), extension);
}

std::filesystem::path parameter_cache_dir() {
  const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  if (env && *env) return env;
  return "/var/tmp/filecoin-proof-parameters";
}

}  // namespace proofline::filecoin
