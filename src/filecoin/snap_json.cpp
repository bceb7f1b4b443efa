// SnapDeals requests in files: see snap_json.hpp.
#include "proofline/filecoin/snap_json.hpp"

#include <optional>
#include <span>

#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_bincode.hpp"
#include "proofline/filecoin/snap_bincode.hpp"
#include "request_json.hpp"

namespace proofline::filecoin {

namespace {

using request_json::Json;
constexpr std::string_view kSnapSource = "Snap request";

Domain hex_key(const Json& j, const char* name) {
  return request_json::domain_from_hex(request_json::key(j, name, kSnapSource, ""), kSnapSource, name);
}

/// For bytes that are no partition proof at `sector_bytes` but are one of another supported size:
/// "these vanilla proofs are for 1KiB sectors, the request is for 2KiB sectors".
std::optional<std::string> other_size(std::span<const std::uint8_t> b, std::uint64_t sector_bytes) {
  for (const SnapParams& p : all_snap_params()) {
    if (p.sector_bytes == sector_bytes || snap_partition_proof_size(p.sector_bytes) != b.size()) continue;
    try {
      (void)decode_snap_partition_proof(b, p.sector_bytes);
    } catch (const ProoflineError&) {
      continue;
    }
    return "these vanilla proofs are for " + std::string(p.name) + " sectors, the request is for " +
           std::string(snap_params(sector_bytes).name) + " sectors";
  }
  // The other family: a PoSt sector proof (`gen-vanilla window-post|winning-post`), which would
  // otherwise read as a partition proof with a length field of ~10^18.
  for (const SectorShape& shape : all_sector_shapes()) {
    for (const std::size_t c : {kWindowPoStChallengeCount, kWinningPoStChallengeCount}) {
      if (fallback_post_sector_proof_size(shape.sector_bytes, c) != b.size()) continue;
      try {
        (void)decode_fallback_post_sector_proof(b, shape.sector_bytes, c);
      } catch (const ProoflineError&) {
        continue;
      }
      const char* type = c == kWindowPoStChallengeCount ? " challenges: WindowPoSt" : " challenges: WinningPoSt";
      return "these vanilla proofs are PoSt sector proofs (" + std::string(shape.name) + " sectors, " +
             std::to_string(c) + type + "), the request is a SnapDeals one (" + std::string(snap_params(sector_bytes).name) +
             " sectors): give its partition proofs, as `proofline gen-vanilla snap` writes them";
    }
  }
  return std::nullopt;
}

}  // namespace

std::string snap_vanilla_proofs_to_json(std::span<const SnapPartitionProof> proofs) {
  std::vector<std::vector<std::uint8_t>> items;
  items.reserve(proofs.size());
  for (const SnapPartitionProof& p : proofs) items.push_back(encode_snap_partition_proof(p));
  return request_json::base64_array(items);
}

std::vector<SnapPartitionProof> parse_snap_vanilla_proofs_json(std::string_view text, std::uint64_t sector_bytes) {
  return request_json::parse_base64_array<SnapPartitionProof>(
      text, kMaxSnapJsonBytes, kMaxSnapPartitions, kSnapSource,
      [&](const std::vector<std::uint8_t>& b) {
        try {
          return decode_snap_partition_proof(b, sector_bytes);
        } catch (const ProoflineError& e) {
          if (const auto why = other_size(b, sector_bytes)) throw ProoflineError(e.code(), *why);
          throw;
        }
      });
}

std::string to_json(const SnapRequest& r) {
  Json j;
  j["proof"] = "snap-update";
  j["sector_size"] = r.sector_bytes;
  for (std::uint64_t v = 0; v < 5; ++v) {
    if (sector_size(static_cast<RegisteredUpdateProof>(v)) == r.sector_bytes) j["registered_update_proof"] = v;
  }
  j["h"] = r.public_inputs.h;
  j["comm_r_old"] = request_json::hex32(r.public_inputs.comm_r_old);
  j["comm_d_new"] = request_json::hex32(r.public_inputs.comm_d_new);
  j["comm_r_new"] = request_json::hex32(r.public_inputs.comm_r_new);
  return j.dump(1);
}

SnapRequest parse_snap_request_json(std::string_view text) {
  const Json j = json::parse<Json>(text, {kMaxSnapJsonBytes}, "Snap request JSON");
  if (!j.is_object()) request_json::bad(kSnapSource, "top level", "not a JSON object");
  if (const auto it = j.find("proof"); it != j.end() && !(it->is_string() && *it == "snap-update")) {
    request_json::bad(kSnapSource, "proof", "expected \"snap-update\"");
  }
  SnapRequest r;
  const auto size = j.find("sector_size");
  const auto registered = j.find("registered_update_proof");
  if (registered != j.end()) {
    const std::uint64_t v = request_json::uint_of(*registered, kSnapSource, "registered_update_proof");
    try {
      r.sector_bytes = sector_size(registered_update_proof_from_u64(v));
    } catch (const ProoflineError& e) {
      request_json::bad(kSnapSource, "registered_update_proof", e.what());
    }
    if (size != j.end() && request_json::uint_of(*size, kSnapSource, "sector_size") != r.sector_bytes) {
      request_json::bad(kSnapSource, "sector_size", "not the size of registered_update_proof " + std::to_string(v) + " (" +
                                                    std::to_string(r.sector_bytes) + " bytes)");
    }
  } else {
    r.sector_bytes = request_json::uint_of(request_json::key(j, "sector_size", kSnapSource, ""), kSnapSource, "sector_size");
  }
  const SnapParams* p = nullptr;
  try {
    p = &snap_params(r.sector_bytes);
  } catch (const ProoflineError& e) {
    request_json::bad(kSnapSource, "sector_size", e.what());
  }
  r.public_inputs.h = p->h_default();
  if (const auto it = j.find("h"); it != j.end()) {
    r.public_inputs.h = request_json::uint_of(*it, kSnapSource, "h");
    try {
      (void)h_select_index(*p, r.public_inputs.h);
    } catch (const ProoflineError& e) {
      request_json::bad(kSnapSource, "h", e.what());
    }
  }
  r.public_inputs.comm_r_old = hex_key(j, "comm_r_old");
  r.public_inputs.comm_d_new = hex_key(j, "comm_d_new");
  r.public_inputs.comm_r_new = hex_key(j, "comm_r_new");
  return r;
}

bool is_snap_request_json(std::string_view text) {
  try {
    const Json j = json::parse<Json>(text, {kMaxSnapJsonBytes}, "request JSON");
    if (!j.is_object()) return false;
    const auto it = j.find("proof");
    return (it != j.end() && it->is_string() && *it == "snap-update") || j.contains("comm_r_new");
  } catch (const ProoflineError&) {
    return false;
  }
}

}  // namespace proofline::filecoin
