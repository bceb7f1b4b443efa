// SRS manager (include/proofline/engine/srs.hpp).
#include "proofline/engine/srs.hpp"

#include <spdlog/spdlog.h>

#include <exception>

#include "log.hpp"

namespace proofline::engine {

const PreloadedSrs* find_preloaded(std::span<const PreloadedSrs> preloaded, std::size_t inputs, std::size_t aux) {
  for (const PreloadedSrs& p : preloaded) {
    if (p.srs && p.srs->params.num_inputs() == inputs && p.srs->params.num_aux() == aux) return &p;
  }
  return nullptr;
}

SrsLease::~SrsLease() {
  if (mgr_ != nullptr && srs_) mgr_->release(srs_->key);
}

std::unique_ptr<SrsLease> SrsManager::acquire(const std::string& key, const Loader& loader, double* load_ms,
                                              bool* busy) {
  if (busy != nullptr) *busy = false;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };
  std::unique_lock lk(mu_);
  for (;;) {
    auto it = entries_.find(key);
    if (it == entries_.end()) break;
    Entry& e = it->second;
    if (!e.loading) {
      ++e.users;
      if (load_ms != nullptr) *load_ms = 0;
      return std::make_unique<SrsLease>(this, e.srs);
    }
    // Someone else is loading it: wait for that load (success or failure), or tell the caller.
    if (busy != nullptr) {
      *busy = true;
      return nullptr;
    }
    const std::uint64_t gen = e.generation;
    cv_.wait(lk, [&] {
      auto j = entries_.find(key);
      return j == entries_.end() || !j->second.loading || j->second.generation != gen;
    });
    auto j = entries_.find(key);
    if (j != entries_.end() && !j->second.loading) {
      ++j->second.users;
      if (load_ms != nullptr) *load_ms = elapsed();
      return std::make_unique<SrsLease>(this, j->second.srs);
    }
    if (j == entries_.end()) {
      // The load failed (entry removed): try ourselves, so the caller gets the error message too.
      break;
    }
  }
  Entry& e = entries_[key];
  e.loading = true;
  e.generation = ++generation_;
  e.progress = 0;
  lk.unlock();
  log()->info("srs load start key={}", key);
  std::shared_ptr<const Srs> srs;
  try {
    srs = loader([this, &key](double p) {
      {
        std::lock_guard g(mu_);
        auto it = entries_.find(key);
        if (it != entries_.end()) it->second.progress = p;
      }
      log()->info("srs load progress key={} progress={:.2f}", key, p);
    });
  } catch (...) {
    lk.lock();
    entries_.erase(key);
    cv_.notify_all();
    lk.unlock();
    log()->warn("srs load failed key={}", key);
    notify_load_done(key);
    throw;
  }
  const double ms = elapsed();
  std::vector<std::shared_ptr<const Srs>> evicted;
  lk.lock();
  Entry& done = entries_[key];
  done.srs = srs;
  done.loading = false;
  done.progress = 1;
  done.users = 1;
  done.load_ms = ms;
  ++loads_;
  evicted = evict_over_budget_locked();
  cv_.notify_all();
  lk.unlock();
  log()->info("srs loaded key={} bytes={} load_ms={:.1f}", key, srs->bytes, ms);
  if (load_ms != nullptr) *load_ms = ms;
  evicted.clear();
  auto lease = std::make_unique<SrsLease>(this, srs);
  notify_load_done(key);
  return lease;
}

void SrsManager::release(const std::string& key) {
  std::vector<std::shared_ptr<const Srs>> evicted;
  {
    std::lock_guard lk(mu_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return;
    if (it->second.users > 0 && --it->second.users == 0) it->second.idle_since = Clock::now();
    evicted = evict_over_budget_locked();
  }
  // Destroyed here, outside the lock (big frees).
}

std::vector<std::shared_ptr<const Srs>> SrsManager::evict_over_budget_locked() {
  std::vector<std::shared_ptr<const Srs>> out;
  if (budget_ == 0) return out;
  auto resident = [&] {
    std::uint64_t b = 0;
    for (const auto& [k, e] : entries_) {
      if (e.srs) b += e.srs->bytes;
    }
    return b;
  };
  while (resident() > budget_) {
    auto victim = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->second.loading || it->second.users > 0) continue;
      if (victim == entries_.end() || it->second.idle_since < victim->second.idle_since) victim = it;
    }
    if (victim == entries_.end()) break;
    log()->info("srs evict key={} bytes={} reason=over-budget", victim->first, victim->second.srs->bytes);
    if (on_evict_) on_evict_(*victim->second.srs);
    out.push_back(victim->second.srs);
    entries_.erase(victim);
    ++evictions_;
  }
  return out;
}

bool SrsManager::evict(const std::string& key) {
  std::shared_ptr<const Srs> victim;
  {
    std::lock_guard lk(mu_);
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.loading || it->second.users > 0) return false;
    if (on_evict_) on_evict_(*it->second.srs);
    victim = it->second.srs;
    entries_.erase(it);
    ++evictions_;
  }
  log()->info("srs evict key={} bytes={} reason=request", key, victim->bytes);
  return true;
}

std::vector<SrsStatus> SrsManager::status(const std::function<void(const Srs&, SrsStatus&)>& describe) const {
  std::lock_guard lk(mu_);
  std::vector<SrsStatus> out;
  const auto now = Clock::now();
  for (const auto& [k, e] : entries_) {
    SrsStatus s;
    s.key = k;
    s.state = e.loading ? "loading" : "loaded";
    s.progress = e.progress;
    s.bytes = e.srs ? e.srs->bytes : 0;
    s.users = e.users;
    s.idle_seconds = (!e.loading && e.users == 0) ? std::chrono::duration<double>(now - e.idle_since).count() : 0;
    s.load_ms = e.load_ms;
    if (describe && e.srs) describe(*e.srs, s);
    out.push_back(s);
  }
  return out;
}

std::shared_ptr<const Srs> SrsManager::find(const std::string& key) const {
  std::lock_guard lk(mu_);
  auto it = entries_.find(key);
  return it == entries_.end() || it->second.loading ? nullptr : it->second.srs;
}

std::uint64_t SrsManager::resident_bytes() const {
  std::lock_guard lk(mu_);
  std::uint64_t b = 0;
  for (const auto& [k, e] : entries_) {
    if (e.srs) b += e.srs->bytes;
  }
  return b;
}

std::uint64_t SrsManager::loads_total() const {
  std::lock_guard lk(mu_);
  return loads_;
}
std::uint64_t SrsManager::evictions_total() const {
  std::lock_guard lk(mu_);
  return evictions_;
}
void SrsManager::set_on_evict(std::function<void(const Srs&)> f) {
  std::lock_guard lk(mu_);
  on_evict_ = std::move(f);
}

void SrsManager::set_on_load_done(std::function<void(const std::string&)> f) {
  std::lock_guard lk(mu_);
  on_load_done_ = std::move(f);
}

void SrsManager::notify_load_done(const std::string& key) {
  std::function<void(const std::string&)> f;
  {
    std::lock_guard lk(mu_);
    f = on_load_done_;
  }
  if (f) f(key);
}

void describe_device_holding(const std::vector<std::shared_ptr<groth16::ProverBackend>>& backends,
                             const groth16::Parameters& params, SrsStatus& st) {
  st.device_mode.clear();
  st.device_bytes = 0;
  for (const auto& b : backends) {
    if (!b) continue;
    const groth16::SrsHolding h = b->srs_holding(params);
    if (h.mode.empty()) continue;
    st.device_bytes += h.bytes;
    if (st.device_mode.empty()) {
      st.device_mode = std::string(h.mode);
    } else if (st.device_mode != h.mode) {
      st.device_mode = "mixed";
    }
  }
}

}  // namespace proofline::engine
