// proofline/engine/memory.hpp — the engine's host-memory accounting: `MemoryBudget`, the
// `Reclaimer` (frees big buffers off the critical path) and the `BufferPool` (reuses partition
// buffers across partitions).
//
// Accounting rule: every byte of a partition buffer is charged to the budget from the moment it is
// reserved until it is really freed. A buffer is charged
//   - as a reservation while its partition is admitted (synthesis → prove),
//   - as "pooled" while idle in the BufferPool,
//   - as "reclaim pending" after it was handed to the Reclaimer, until the reclaimer thread has
//     destroyed it (only then is the charge released).
// So a backlog of frees can never let the next partition be admitted past the budget.
// Sizes are CAPACITY bytes (what the allocator holds), see `buffer_bytes`.
//
// The reclaimer frees on its own thread (enabled) or inline on the caller's thread (disabled: the
// baseline of bench/pipeline.sh). After each batch of frees it calls malloc_trim(0) so the freed
// pages go back to the OS (glibc otherwise keeps large freed heap chunks).
//
// Thread-safe: every member function may be called from any thread. `MemoryBudget::release` runs
// the listener after its own lock is dropped.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "proofline/r1cs/proving_assignment.hpp"

namespace proofline::engine {

/// A byte size as a person writes it, for memory budgets (the daemon's config, the CLI's
/// --memory-budget): a number of bytes ("1048576") or a number (decimals allowed) followed by a unit,
/// optionally after blanks: B, K/KiB (1024), M/MiB, G/GiB, T/TiB (powers of 1024), KB, MB, GB, TB
/// (powers of 1000), e.g. "512MiB", "1.5GiB", "2GB", "1 TiB"; rounded down to whole bytes.
/// Throws ProoflineError(BadArgument, "<what>: '<text>' is not a byte size (…)" / "unknown unit …" /
/// "is too large") for anything else.
std::uint64_t parse_bytes(const std::string& text, const std::string& what);

/// Host memory as the budget derivation sees it (bytes).
struct HostMemory {
  std::uint64_t mem_total = 0;      ///< /proc/meminfo MemTotal
  std::uint64_t mem_available = 0;  ///< /proc/meminfo MemAvailable (MemFree + reclaimable caches)
  /// The process's cgroup limit (v2 memory.max, v1 memory.limit_in_bytes) and usage, when limited.
  std::optional<std::uint64_t> cgroup_limit, cgroup_usage;
};

/// Reads `meminfo` (a /proc/meminfo text) and the cgroup files under `cgroup_dir` (v2:
/// memory.max + memory.current; else v1: memory/memory.limit_in_bytes + memory.usage_in_bytes; a
/// limit of "max" or ≥ 2^60 means none). Missing cgroup files: no limit. Throws
/// ProoflineError(BadArgument) naming the file when `meminfo` is unreadable or lacks MemTotal.
HostMemory read_host_memory(const std::string& meminfo = "/proc/meminfo", const std::string& cgroup_dir = "/sys/fs/cgroup");

struct DerivedBudget {
  std::uint64_t bytes = 0;  ///< the partition-buffer budget
  std::string why;          ///< "MemAvailable 120.0 GiB − SRS 44.0 GiB − margin 15.0 GiB = 61.0 GiB"
};

/// The budget for partition buffers when none is configured: the memory available to the process
/// (`available`: MemAvailable, or the cgroup's limit − usage when that is lower) minus the SRS host
/// bytes the engine holds, minus the compiled circuits' host bytes (kind.hpp compiled_host_bytes;
/// named in `why` when not 0), minus a margin of max(4 GiB, available / 8) for everything else (the
/// backends' staging, the C1s, the allocator's slack); at least 1 GiB (min with `available`), so a
/// small machine still admits small partitions.
DerivedBudget derive_memory_budget(const HostMemory& host, std::uint64_t srs_host_bytes,
                                   std::uint64_t compiled_host_bytes = 0);

class MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t total_bytes) : total_(total_bytes) {}
  std::uint64_t total() const {
    std::lock_guard lk(mu_);
    return total_;
  }
  /// A new total (a re-derived budget); charges are kept (used() may exceed it until released).
  /// Runs the listener (the engine re-checks admissions).
  void set_total(std::uint64_t total_bytes);
  std::uint64_t used() const;
  /// Charges `bytes` if used() + bytes <= total(); false (nothing charged) otherwise.
  bool try_acquire(std::uint64_t bytes);
  /// Charges unconditionally (memory that already exists, e.g. a buffer that grew).
  void charge(std::uint64_t bytes);
  /// Releases a charge (clamped at 0) and then runs the listener.
  void release(std::uint64_t bytes);
  /// Called after every release (without the budget's lock held).
  void set_listener(std::function<void()> f);

 private:
  mutable std::mutex mu_;
  std::uint64_t total_;
  std::uint64_t used_ = 0;
  std::function<void()> listener_;
};

/// Capacity bytes held by a ProvingBuffers (a, b, c, assignments: 32 B per Fr of capacity;
/// density words: 8 B each).
std::uint64_t buffer_bytes(const r1cs::ProvingBuffers& b);

/// Marks the calling thread as being on the critical path (the engine's prove workers) while it
/// lives: a free done on such a thread (Reclaimer inline, or a holder destroyed there) counts in
/// Reclaimer::critical_path_frees(). Scopes nest.
class CriticalPathScope {
 public:
  CriticalPathScope();
  ~CriticalPathScope();
  CriticalPathScope(const CriticalPathScope&) = delete;
  CriticalPathScope& operator=(const CriticalPathScope&) = delete;
  /// True on a thread inside a scope.
  static bool active();
};

class Reclaimer {
 public:
  /// `threaded` false: reclaim() frees inline.
  Reclaimer(MemoryBudget& budget, bool threaded);
  ~Reclaimer();  ///< frees everything still queued, then joins
  Reclaimer(const Reclaimer&) = delete;
  Reclaimer& operator=(const Reclaimer&) = delete;

  /// Takes ownership of `holder` (the last reference to the memory) whose memory is charged
  /// `bytes` to the budget; the charge is released right after the holder is destroyed.
  void reclaim(std::shared_ptr<void> holder, std::uint64_t bytes);
  void reclaim(r1cs::ProvingBuffers&& buf, std::uint64_t bytes);
  /// Waits until everything handed over so far is freed.
  void flush();
  /// Tests: stop / restart freeing (queued items stay charged while paused).
  void pause();
  void resume();

  bool threaded() const { return threaded_; }
  std::uint64_t pending_bytes() const;
  std::size_t pending_count() const;
  std::uint64_t freed_bytes_total() const;
  std::uint64_t frees_total() const;
  /// Milliseconds spent freeing (destroying + malloc_trim), on whichever thread did it.
  double free_ms_total() const;
  /// Frees done on a thread inside a CriticalPathScope (each holder destroyed counts one).
  std::uint64_t critical_path_frees() const;

 private:
  struct Item {
    std::shared_ptr<void> holder;
    std::uint64_t bytes;
  };
  void run();
  void free_now(std::vector<Item>& items);

  MemoryBudget& budget_;
  const bool threaded_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;
  std::uint64_t pending_bytes_ = 0;
  std::size_t in_progress_ = 0;
  std::uint64_t freed_bytes_ = 0, frees_ = 0, critical_path_frees_ = 0;
  double free_ms_ = 0;
  bool paused_ = false, stop_ = false;
  std::thread thread_;
};

class BufferPool {
 public:
  /// Keeps at most `max_bytes` of idle buffers (0: none; everything goes to the reclaimer).
  BufferPool(MemoryBudget& budget, Reclaimer& reclaimer, std::uint64_t max_bytes);

  /// A buffer for a partition of about `want_bytes`: the pooled one with the smallest capacity
  /// >= want_bytes, else the largest pooled one, else a fresh empty one. Its pooled charge is
  /// released (the caller's reservation covers the partition from now on).
  r1cs::ProvingBuffers acquire(std::uint64_t want_bytes);
  /// A pooled buffer for an admission that keeps its charge: the pooled one with the smallest
  /// capacity >= want_bytes, else the largest pooled one; its `bytes` stay charged to the budget
  /// and become the caller's (a reservation of at least that much). nullopt when nothing is pooled
  /// (the caller counts a fresh buffer it uses with note_fresh). The pages of a pooled buffer are already faulted in: reusing it spares
  /// the next partition the first-touch cost (seconds per 16 GB partition).
  struct Taken {
    r1cs::ProvingBuffers buf;
    std::uint64_t bytes = 0;
  };
  std::optional<Taken> take_charged(std::uint64_t want_bytes);
  /// Puts back a buffer from take_charged that was not used (its charge moves back to "pooled";
  /// not counted as a hit).
  void put_back_charged(Taken&& t);
  /// Counts a partition that starts with a fresh (empty) buffer: a miss.
  void note_fresh();
  /// Returns a buffer whose capacity (buffer_bytes) the caller has ALREADY charged to the budget:
  /// kept (charge moves to "pooled") if the pool stays within its limit, else handed to the reclaimer.
  void give_back(r1cs::ProvingBuffers&& buf);
  /// Hands idle buffers to the reclaimer until at most `keep_bytes` stay pooled; returns the bytes
  /// handed over.
  std::uint64_t shrink(std::uint64_t keep_bytes);
  /// Hands every idle buffer but the largest to the reclaimer (the engine, when the head partition
  /// does not fit: the largest stays for it); returns the bytes handed over.
  std::uint64_t shrink_keeping_largest();

  std::uint64_t pooled_bytes() const;
  std::size_t pooled_count() const;
  /// Idle buffers whose capacity (buffer_bytes) is at least `bytes`.
  std::size_t pooled_count_at_least(std::uint64_t bytes) const;
  /// The pool's limit (constructor's max_bytes).
  std::uint64_t max_bytes() const { return max_bytes_; }
  std::uint64_t hits() const;    ///< acquire() served from the pool
  std::uint64_t misses() const;  ///< acquire() with nothing pooled, and note_fresh()

 private:
  struct Entry {
    r1cs::ProvingBuffers buf;
    std::uint64_t bytes;
  };
  MemoryBudget& budget_;
  Reclaimer& reclaimer_;
  const std::uint64_t max_bytes_;
  mutable std::mutex mu_;
  std::vector<Entry> idle_;
  std::uint64_t pooled_ = 0, hits_ = 0, misses_ = 0;
};

}  // namespace proofline::engine
