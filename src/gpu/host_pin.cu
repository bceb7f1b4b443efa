// src/gpu/host_pin.cu — see host_pin.hpp.
#include "host_pin.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>

#include "proofline/r1cs/proving_buffers.hpp"

namespace proofline::gpu::host_pin {
namespace {

struct Registry {
  std::mutex mu;
  std::condition_variable settled;                 // a pending registration finished
  std::map<std::uintptr_t, std::size_t> ranges;   // registered: start → bytes
  std::map<std::uintptr_t, std::size_t> pending;  // being registered on a background thread
  std::map<std::uintptr_t, int> seen;             // offered starts: uses so far (−1: registration failed)
  std::size_t bytes = 0;
  // ranges.size() + pending.size(), read without the lock by release()'s fast path
  std::atomic<std::size_t> count{0};
  void recount() { count.store(ranges.size() + pending.size()); }
  /// Unregisters the registered ranges intersecting [a, a + n); the lock is held.
  void drop_locked(std::uintptr_t a, std::size_t n) {
    auto it = ranges.upper_bound(a);
    if (it != ranges.begin() && std::prev(it)->first + std::prev(it)->second > a) --it;
    while (it != ranges.end() && it->first < a + n) {
      (void)cudaHostUnregister(reinterpret_cast<void*>(it->first));
      (void)cudaGetLastError();
      bytes -= it->second;
      it = ranges.erase(it);
    }
    recount();
  }
  bool pending_in_locked(std::uintptr_t a, std::size_t n) const {
    auto it = pending.upper_bound(a);
    if (it != pending.begin() && std::prev(it)->first + std::prev(it)->second > a) return true;
    return it != pending.end() && it->first < a + n;
  }
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: the hook may run during static teardown
  return *r;
}

constexpr std::size_t kMaxSeen = 4096;  // offered starts remembered (a bound; reset when full)
/// The use of a buffer that locks it (host_pin.hpp): the second. Measured at 32 GiB on the H200
/// (bench/RESULTS.md): locking a partition's ~16 GB costs ~1–1.5 s once and slows the copies beside
/// it, a direct copy then saves ~0.4–0.8 s per use; locking at the second use cost a single proof
/// (whose pooled buffer sets are used twice) nothing measurable (41.0 s with it against 45.3 s with
/// the third use, within the run-to-run spread) and starts the savings a whole sector earlier.
constexpr int kUsesBeforeLock = 2;

/// cudaHostRegister of [a, a + n) and its bookkeeping; the lock is not held.
void register_now(std::uintptr_t a, std::size_t n) {
  Registry& r = registry();
  const bool ok = cudaHostRegister(reinterpret_cast<void*>(a), n, cudaHostRegisterPortable) == cudaSuccess;
  if (!ok) (void)cudaGetLastError();  // not sticky: clear it so that the next launch check does not see it
  {
    std::lock_guard lk(r.mu);
    r.pending.erase(a);
    if (ok) {
      r.ranges.emplace(a, n);
      r.bytes += n;
    } else {
      r.seen[a] = -1;
    }
    r.recount();
  }
  r.settled.notify_all();
}

}  // namespace

bool ensure(const void* p, std::size_t bytes, std::size_t min_bytes, bool background) noexcept {
  if (p == nullptr || bytes == 0) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  Registry& r = registry();
  {
    std::lock_guard lk(r.mu);
    // inside a registered range?
    auto it = r.ranges.upper_bound(a);
    if (it != r.ranges.begin()) {
      auto prev = std::prev(it);
      if (prev->first <= a && a + bytes <= prev->first + prev->second) return true;
    }
    if (bytes < min_bytes || r.pending_in_locked(a, bytes)) return false;
    if (r.seen.size() >= kMaxSeen) r.seen.clear();
    int& uses = r.seen[a];
    if (uses < 0) return false;  // failed before
    if (++uses < kUsesBeforeLock) return false;
    // Ranges of an earlier, smaller use of the same buffer (it grew in place) are replaced.
    r.drop_locked(a, bytes);
    r.pending.emplace(a, bytes);
    r.recount();
  }
  if (background) {
    try {
      std::thread([a, bytes] { register_now(a, bytes); }).detach();
      return false;  // this copy is staged; the next finds the range registered
    } catch (...) {  // no thread: register here
    }
  }
  register_now(a, bytes);
  std::lock_guard lk(r.mu);
  auto it = r.ranges.find(a);
  return it != r.ranges.end() && it->second >= bytes;
}

bool lock_now(const void* p, std::size_t bytes) noexcept {
  if (p == nullptr || bytes == 0) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  Registry& r = registry();
  {
    std::lock_guard lk(r.mu);
    auto it = r.ranges.upper_bound(a);
    if (it != r.ranges.begin()) {
      auto prev = std::prev(it);
      if (prev->first <= a && a + bytes <= prev->first + prev->second) return true;
    }
    if (r.pending_in_locked(a, bytes)) return false;
    r.drop_locked(a, bytes);  // a smaller registration of the same storage is replaced
    r.pending.emplace(a, bytes);
    r.recount();
  }
  register_now(a, bytes);
  std::lock_guard lk(r.mu);
  auto it = r.ranges.find(a);
  return it != r.ranges.end() && it->second >= bytes;
}

void release(const void* p, std::size_t bytes) noexcept {
  if (p == nullptr || bytes == 0) return;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  Registry& r = registry();
  // Fast path for the common case (nothing registered or pending: CPU-only runs, small buffers):
  // the offered starts inside the range are not forgotten then, which costs at most one staged copy
  // of a buffer that reuses the address.
  if (r.count.load() == 0) return;
  std::unique_lock lk(r.mu);
  // a registration of this memory in flight finishes first (the memory is alive until we return)
  r.settled.wait(lk, [&] { return !r.pending_in_locked(a, bytes); });
  r.drop_locked(a, bytes);
  for (auto s = r.seen.lower_bound(a); s != r.seen.end() && s->first < a + bytes;) s = r.seen.erase(s);
}

void settle() noexcept {
  Registry& r = registry();
  std::unique_lock lk(r.mu);
  r.settled.wait(lk, [&] { return r.pending.empty(); });
}

std::size_t registered_bytes() noexcept {
  Registry& r = registry();
  std::lock_guard lk(r.mu);
  return r.bytes;
}

void install_release_hook() noexcept { r1cs::set_release_hook(&release); }

}  // namespace proofline::gpu::host_pin
