// PoSt requests in files: see post_json.hpp.
#include "proofline/filecoin/post_json.hpp"

#include <optional>
#include <span>
#include <utility>

#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/post_bincode.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/filecoin/snap_bincode.hpp"
#include "request_json.hpp"

namespace proofline::filecoin {

namespace {

using request_json::Json;
constexpr std::string_view kPoStSource = "PoSt request";

[[noreturn]] void bad(const std::string& where, const std::string& what) { request_json::bad(kPoStSource, where, what); }
std::string hex32(const Domain& d) { return request_json::hex32(d); }
Domain domain_from_hex(const Json& j, const std::string& where) { return request_json::domain_from_hex(j, kPoStSource, where); }
const Json& key(const Json& j, const char* name, const std::string& where) {
  return request_json::key(j, name, kPoStSource, where);
}
std::uint64_t uint_of(const Json& j, const std::string& where) { return request_json::uint_of(j, kPoStSource, where); }

template <class T>
using Names = std::span<const std::pair<std::string_view, T>>;

constexpr std::pair<std::string_view, ApiVersion> kApiNames[] = {
    {"1.0.0", ApiVersion::V1_0_0}, {"1.1.0", ApiVersion::V1_1_0}, {"1.2.0", ApiVersion::V1_2_0}};
constexpr std::pair<std::string_view, PoStType> kTypeNames[] = {{"window", PoStType::Window},
                                                               {"winning", PoStType::Winning}};

/// The value a string names, or a refusal listing the names.
template <class T>
T pick(const Json& j, const std::string& where, Names<T> names) {
  std::string list;
  for (const auto& [name, value] : names) {
    if (j.is_string() && j.get_ref<const std::string&>() == name) return value;
    list += (list.empty() ? "\"" : ", \"") + std::string(name) + "\"";
  }
  bad(where, "expected one of " + list);
}

std::string challenges_name(std::size_t c) {
  return std::to_string(c) + (c == kWinningPoStChallengeCount  ? " challenges (WinningPoSt's)"
                              : c == kWindowPoStChallengeCount ? " challenges (WindowPoSt's)"
                                                               : " challenges");
}

/// For bytes that are no proof of `challenges` challenges at `sector_bytes` but are one of another
/// supported size or the other PoSt type's challenge count: what they are, against what the request
/// is ("these vanilla proofs are for 2KiB sectors, the request is for 32GiB sectors").
std::optional<std::string> other_shape(std::span<const std::uint8_t> b, std::uint64_t sector_bytes,
                                       std::size_t challenges) {
  for (const SectorShape& shape : all_sector_shapes()) {
    for (const std::size_t c : {challenges, kWindowPoStChallengeCount, kWinningPoStChallengeCount}) {
      if ((shape.sector_bytes == sector_bytes && c == challenges) ||
          fallback_post_sector_proof_size(shape.sector_bytes, c) != b.size()) {
        continue;
      }
      try {
        (void)decode_fallback_post_sector_proof(b, shape.sector_bytes, c);
      } catch (const ProoflineError&) {
        continue;
      }
      const std::string want(sector_shape(sector_bytes).name);
      if (c == challenges) {
        return "these vanilla proofs are for " + std::string(shape.name) + " sectors, the request is for " + want +
               " sectors";
      }
      return "these vanilla proofs are for " + std::string(shape.name) + " sectors with " + challenges_name(c) +
             " each, the request is for " + want + " sectors with " + challenges_name(challenges);
    }
  }
  // The other family: a SnapDeals partition proof (`gen-vanilla snap`), which would otherwise read
  // as a PoSt proof with a length field of ~10^18.
  for (const SnapParams& p : all_snap_params()) {
    if (snap_partition_proof_size(p.sector_bytes) != b.size()) continue;
    try {
      (void)decode_snap_partition_proof(b, p.sector_bytes);
    } catch (const ProoflineError&) {
      continue;
    }
    return "these vanilla proofs are SnapDeals partition proofs (" + std::string(p.name) +
           " sectors, as `proofline gen-vanilla snap` writes them), the request is a PoSt one (" +
           std::string(sector_shape(sector_bytes).name) + " sectors, " + challenges_name(challenges) +
           "): give its FallbackPoStSectorProofs";
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(ApiVersion v) {
  for (const auto& [name, value] : kApiNames) {
    if (value == v) return name;
  }
  return "?";
}

ApiVersion api_version_from_string(std::string_view s) {
  for (const auto& [name, value] : kApiNames) {
    if (name == s) return value;
  }
  throw ProoflineError(Error::BadArgument, "API version '" + std::string(s) + "': expected 1.0.0, 1.1.0 or 1.2.0");
}

std::string vanilla_proofs_to_json(std::span<const FallbackPoStSectorProof> proofs) {
  std::vector<std::vector<std::uint8_t>> items;
  items.reserve(proofs.size());
  for (const FallbackPoStSectorProof& p : proofs) items.push_back(encode_fallback_post_sector_proof(p));
  return request_json::base64_array(items);
}

std::vector<FallbackPoStSectorProof> parse_vanilla_proofs_json(std::string_view text, std::uint64_t sector_bytes,
                                                               std::size_t challenges) {
  return request_json::parse_base64_array<FallbackPoStSectorProof>(
      text, kMaxPoStJsonBytes, kMaxPoStSectors, kPoStSource, [&](const std::vector<std::uint8_t>& b) {
        try {
          return decode_fallback_post_sector_proof(b, sector_bytes, challenges);
        } catch (const ProoflineError& e) {
          if (const auto why = other_shape(b, sector_bytes, challenges)) throw ProoflineError(e.code(), *why);
          throw;
        }
      });
}

std::string to_json(const PoStRequest& r) {
  Json j;
  j["post_type"] = std::string(to_string(r.config.type));
  j["sector_size"] = r.config.sector_bytes;
  j["api_version"] = std::string(to_string(r.config.api_version));
  j["miner_id"] = r.miner_id;
  j["randomness"] = hex32(r.public_inputs.randomness);
  j["partition_index"] = r.partition;
  if (r.public_inputs.first_partition != 0) j["first_partition"] = r.public_inputs.first_partition;
  Json sectors = Json::array();
  for (const PublicSector& s : r.public_inputs.sectors) {
    sectors.push_back(Json{{"sector_id", s.sector_id}, {"comm_r", hex32(s.comm_r)}});
  }
  j["sectors"] = std::move(sectors);
  return j.dump(1);
}

PoStRequest parse_post_request_json(std::string_view text) {
  const Json j = json::parse<Json>(text, {kMaxPoStJsonBytes}, "PoSt request JSON");
  if (!j.is_object()) bad("top level", "not a JSON object");
  const PoStType t = pick<PoStType>(key(j, "post_type", ""), "post_type", kTypeNames);
  const std::uint64_t size = uint_of(key(j, "sector_size", ""), "sector_size");
  const ApiVersion v = pick<ApiVersion>(key(j, "api_version", ""), "api_version", kApiNames);
  PoStRequest r;
  try {
    r.config = post_config(t, size, v);
  } catch (const ProoflineError& e) {
    bad("sector_size", e.what());
  }
  r.miner_id = uint_of(key(j, "miner_id", ""), "miner_id");
  r.partition = uint_of(key(j, "partition_index", ""), "partition_index");
  if (const auto it = j.find("first_partition"); it != j.end()) {
    r.public_inputs.first_partition = uint_of(*it, "first_partition");
  }
  r.public_inputs.prover_id = prover_id_from_miner(r.miner_id);
  r.public_inputs.randomness = domain_from_hex(key(j, "randomness", ""), "randomness");
  const Json& sectors = key(j, "sectors", "");
  if (!sectors.is_array() || sectors.empty()) bad("sectors", "not a non-empty array");
  if (sectors.size() > kMaxPoStSectors) {
    bad("sectors", std::to_string(sectors.size()) + " entries, at most " + std::to_string(kMaxPoStSectors));
  }
  for (std::size_t i = 0; i < sectors.size(); ++i) {
    const std::string at = "sectors[" + std::to_string(i) + "]";
    if (!sectors[i].is_object()) bad(at, "not an object");
    PublicSector s;
    s.sector_id = uint_of(key(sectors[i], "sector_id", at), at + ".sector_id");
    s.comm_r = domain_from_hex(key(sectors[i], "comm_r", at), at + ".comm_r");
    r.public_inputs.sectors.push_back(s);
  }
  return r;
}

PoStRequest post_request_from_vanilla(const PoStConfig& config, std::uint64_t miner_id, const Randomness& randomness,
                                      std::size_t partition, std::span<const FallbackPoStSectorProof> proofs) {
  PoStRequest r;
  r.config = config;
  r.miner_id = miner_id;
  r.partition = partition;
  r.public_inputs.randomness = randomness;
  r.public_inputs.prover_id = prover_id_from_miner(miner_id);
  const std::size_t most = config.type == PoStType::Winning ? kWinningPoStSectorCount : config.sector_count;
  if (proofs.empty() || proofs.size() > most) {
    throw ProoflineError(Error::BadLength, std::string(to_string(config.type)) + " PoSt of " +
                                               std::to_string(config.sector_bytes) + "-byte sectors: " +
                                               std::to_string(proofs.size()) + " vanilla proofs, expected 1 … " +
                                               std::to_string(most) + " (one per sector of the partition)");
  }
  if (config.type == PoStType::Winning && partition != 0) {
    throw ProoflineError(Error::BadArgument,
                         "WinningPoSt has one partition, asked for partition " + std::to_string(partition));
  }
  r.public_inputs.first_partition = partition;
  for (const FallbackPoStSectorProof& p : proofs) r.public_inputs.sectors.push_back({p.sector_id, p.comm_r});
  return r;
}

}  // namespace proofline::filecoin
