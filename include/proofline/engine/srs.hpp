// proofline/engine/srs.hpp — the SRS manager: each parameter set loaded once, shared, reference-
// counted, evicted least-recently-used when idle and over budget.
//
// Owns: `SrsLease` (a job's hold on a loaded parameter set) and `SrsManager`.
//
// Keys: a kind names its parameter set by a canonical key (built-in kinds: the absolute path of the
// .params file; "snarkjs:" + the absolute path of the .zkey). acquire(key, loader) returns the
// resident entry, or runs `loader` once — other callers of the same key wait for that load — and
// logs the load (start, progress from the loader, bytes, milliseconds). A failed load is reported to
// every waiter and forgotten (a later acquire tries again). A caller that must not block while
// another thread loads the key (the engine's synthesis workers) passes `busy`: it gets null back
// at once and waits for the `on_load_done` callback instead (called with the key after every load
// ends, loaded or failed, on the loading thread, with no lock of the manager held).
// Eviction: an entry with no lease is "idle". After every load and every lease release, idle entries
// are evicted oldest-idle first while the resident bytes exceed the budget (0 = unlimited). evict()
// drops an idle entry on request. An entry in use is never evicted. `on_evict` (optional) is called
// with the entry being dropped (e.g. to free a GPU's device copy).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"

namespace proofline::engine {

class SrsManager;

/// Holds a loaded parameter set; releasing the last lease of a key makes it idle.
class SrsLease {
 public:
  SrsLease(SrsManager* mgr, std::shared_ptr<const Srs> srs) : mgr_(mgr), srs_(std::move(srs)) {}
  ~SrsLease();
  SrsLease(const SrsLease&) = delete;
  SrsLease& operator=(const SrsLease&) = delete;
  const Srs& srs() const { return *srs_; }
  const std::shared_ptr<const Srs>& shared() const { return srs_; }

 private:
  SrsManager* mgr_;
  std::shared_ptr<const Srs> srs_;
};

class SrsManager {
 public:
  using Loader = std::function<std::shared_ptr<const Srs>(const std::function<void(double)>& progress)>;

  explicit SrsManager(std::uint64_t budget_bytes) : budget_(budget_bytes) {}

  /// The resident set for `key`, loading it with `loader` if needed (see the header comment).
  /// `load_ms` receives the time this call spent loading or waiting for a load (0 if resident).
  /// Rethrows the loader's exception. `busy` non-null: when another thread is loading `key` now,
  /// sets *busy = true and returns null instead of waiting (otherwise *busy = false).
  std::unique_ptr<SrsLease> acquire(const std::string& key, const Loader& loader, double* load_ms = nullptr,
                                    bool* busy = nullptr);
  /// Evicts an idle entry; false if unknown, loading or in use.
  bool evict(const std::string& key);
  /// The loaded set of `key`, or null when it is not resident (unknown or still loading). Takes no
  /// lease: the set may be evicted right after (a later acquire then loads it again).
  std::shared_ptr<const Srs> find(const std::string& key) const;
  /// One entry per set; `describe` (if given) fills what the manager does not know (the backends'
  /// device holdings: describe_device_holding) for each loaded set, under the manager's lock.
  std::vector<SrsStatus> status(const std::function<void(const Srs&, SrsStatus&)>& describe = {}) const;
  std::uint64_t resident_bytes() const;
  std::uint64_t budget() const { return budget_; }
  std::uint64_t loads_total() const;
  std::uint64_t evictions_total() const;
  void set_on_evict(std::function<void(const Srs&)> f);
  /// Called with the key when a load ends (loaded or failed); see the header comment.
  void set_on_load_done(std::function<void(const std::string&)> f);

 private:
  friend class SrsLease;
  void release(const std::string& key);
  /// Evicts idle entries while over budget; returns the evicted sets (destroyed by the caller
  /// outside the lock).
  std::vector<std::shared_ptr<const Srs>> evict_over_budget_locked();

  using Clock = std::chrono::steady_clock;
  struct Entry {
    std::shared_ptr<const Srs> srs;  ///< null while loading
    bool loading = true;
    std::string error;               ///< set when the load failed (entry removed right after)
    double progress = 0;
    unsigned users = 0;
    Clock::time_point idle_since{};
    double load_ms = 0;
    std::uint64_t generation = 0;
  };
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Entry> entries_;
  std::uint64_t budget_;
  std::uint64_t loads_ = 0, evictions_ = 0, generation_ = 0;
  std::function<void(const Srs&)> on_evict_;
  std::function<void(const std::string&)> on_load_done_;
  void notify_load_done(const std::string& key);
};

/// Fills st.device_mode / st.device_bytes from every backend's srs_holding(params) (SrsStatus).
void describe_device_holding(const std::vector<std::shared_ptr<groth16::ProverBackend>>& backends,
                             const groth16::Parameters& params, SrsStatus& st);

}  // namespace proofline::engine
