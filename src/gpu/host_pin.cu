// src/gpu/host_pin.cu — see host_pin.hpp.
#include "host_pin.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

#include "proofline/r1cs/proving_buffers.hpp"

namespace proofline::gpu::host_pin {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::uintptr_t, std::size_t> ranges;  // registered: start → bytes
  std::map<std::uintptr_t, int> seen;            // offered starts: uses so far (−1: registration failed)
  std::size_t bytes = 0;
  std::atomic<std::size_t> count{0};  // ranges.size(), read without the lock by release()'s fast path
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: the hook may run during static teardown
  return *r;
}

constexpr std::size_t kMaxSeen = 4096;  // offered starts remembered (a bound; reset when full)

}  // namespace

bool ensure(const void* p, std::size_t bytes, std::size_t min_bytes) noexcept {
  if (p == nullptr || bytes == 0) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  Registry& r = registry();
  std::lock_guard lk(r.mu);
  // inside a registered range?
  auto it = r.ranges.upper_bound(a);
  if (it != r.ranges.begin()) {
    auto prev = std::prev(it);
    if (prev->first <= a && a + bytes <= prev->first + prev->second) return true;
  }
  if (bytes < min_bytes) return false;
  if (r.seen.size() >= kMaxSeen) r.seen.clear();
  int& uses = r.seen[a];
  if (uses < 0) return false;  // failed before
  if (++uses < 2) return false;
  // Ranges of an earlier, smaller use of the same buffer (it grew in place) are replaced.
  for (auto j = r.ranges.lower_bound(a); j != r.ranges.end() && j->first < a + bytes;) {
    (void)cudaHostUnregister(reinterpret_cast<void*>(j->first));
    (void)cudaGetLastError();
    r.bytes -= j->second;
    j = r.ranges.erase(j);
  }
  r.count.store(r.ranges.size());
  if (cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterPortable) != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: clear it so that the next launch check does not see it
    uses = -1;
    return false;
  }
  r.ranges.emplace(a, bytes);
  r.bytes += bytes;
  r.count.store(r.ranges.size());
  return true;
}

void release(const void* p, std::size_t bytes) noexcept {
  if (p == nullptr || bytes == 0) return;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  Registry& r = registry();
  // Fast path for the common case (nothing registered: CPU-only runs, small buffers): the offered
  // starts inside the range are not forgotten then, which costs at most one staged copy of a
  // buffer that reuses the address.
  if (r.count.load() == 0) return;
  std::lock_guard lk(r.mu);
  auto it = r.ranges.upper_bound(a);
  if (it != r.ranges.begin() && std::prev(it)->first + std::prev(it)->second > a) --it;
  while (it != r.ranges.end() && it->first < a + bytes) {
    (void)cudaHostUnregister(reinterpret_cast<void*>(it->first));
    (void)cudaGetLastError();
    r.bytes -= it->second;
    it = r.ranges.erase(it);
  }
  r.count.store(r.ranges.size());
  for (auto s = r.seen.lower_bound(a); s != r.seen.end() && s->first < a + bytes;) s = r.seen.erase(s);
}

std::size_t registered_bytes() noexcept {
  Registry& r = registry();
  std::lock_guard lk(r.mu);
  return r.bytes;
}

void install_release_hook() noexcept { r1cs::set_release_hook(&release); }

}  // namespace proofline::gpu::host_pin
