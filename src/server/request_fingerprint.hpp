// The fingerprint of an engine request's meaning (private to src/server): FNV-1a over kind,
// priority, arguments and payload, not the request id. Two submissions under one id are the same
// request (a retry, which may join the job) exactly when their fingerprints agree; proofline.v1
// (service.cpp) and cuzk.v1 (cuzk_service.cpp) both decide joins with it.
#pragma once

#include <cstdint>
#include <string_view>

#include "proofline/engine/engine.hpp"

namespace proofline::server {

inline std::uint64_t request_fingerprint(const engine::ProofRequest& r) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&](std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // field separator
  };
  mix(r.kind);
  mix(r.priority ? engine::to_string(*r.priority) : std::string_view("kind default"));
  for (const auto& [k, v] : r.args) {
    mix(k);
    mix(v);
  }
  mix(std::string_view(reinterpret_cast<const char*>(r.payload.data()), r.payload.size()));
  return h;
}

}  // namespace proofline::server
