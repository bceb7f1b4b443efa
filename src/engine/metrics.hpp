// The engine's counters and histograms, and their Prometheus text (Engine::metrics_text, format
// 0.0.4). Private header of src/engine/: engine.cpp counts under Engine::Impl's mutex, copies a
// MetricsSnapshot out of it, and metrics.cpp renders the snapshot.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "proofline/engine/engine.hpp"

namespace proofline::engine::detail {

/// Prometheus histogram over seconds (observed in ms, exported in s).
struct Histogram {
  static constexpr std::array<double, 16> kBounds = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                                     1,     2.5,   5,    10,    30,   60,  120, 600};
  std::array<std::uint64_t, kBounds.size()> buckets{};
  std::uint64_t count = 0;
  double sum = 0;
  void observe_ms(double ms);
  /// Writes the _bucket, _sum and _count lines of `name{labels,...}`.
  void write(std::ostream& o, const std::string& name, const std::string& labels) const;
};

/// The timer label of each histogram, in the order engine.cpp observes them.
inline constexpr const char* kPartitionTimers[] = {"queue_wait", "srs_load", "synthesis", "prove_wait",
                                                   "kernel",     "prover_call", "stage", "total"};
inline constexpr const char* kProofTimers[] = {"queue_wait", "srs_load", "assemble", "verify", "total"};

/// Counters of the engine's life so far (under Engine::Impl::mu).
struct Counters {
  std::uint64_t submitted = 0, duplicates = 0, done = 0, failed = 0, cancelled = 0, self_check_failures = 0,
                partitions = 0;
  std::array<Histogram, std::size(kPartitionTimers)> partition;  ///< ms per partition, by kPartitionTimers
  std::array<Histogram, std::size(kProofTimers)> proof;          ///< ms per proof, by kProofTimers
};

/// What metrics_text prints besides EngineStatus, copied out of the engine.
struct MetricsSnapshot {
  Counters counters;
  std::vector<std::string> backend_names;        ///< by backend index
  std::vector<std::uint64_t> backend_proved;     ///< partitions proved, by backend index
  std::uint64_t srs_loads = 0, srs_evictions = 0;
  std::uint64_t pool_hits = 0, pool_misses = 0;
};

/// The Prometheus text of a snapshot and the status taken with it.
std::string metrics_text(const MetricsSnapshot& m, const EngineStatus& st);

}  // namespace proofline::engine::detail
