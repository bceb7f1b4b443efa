// src/util/fault.cpp — fault injection points (include/proofline/util/fault.hpp).
#include "proofline/util/fault.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace proofline::fault {

namespace detail {
std::atomic<int> g_armed{0};
}  // namespace detail

namespace {

struct Entry {
  std::string point, job;
  int left;
};

struct State {
  std::mutex mu;
  std::vector<Entry> armed;
  std::map<std::string, int, std::less<>> fired;
};

thread_local const std::string* t_job = nullptr;

void arm_locked(State& s, std::string_view point, std::string_view job, int count) {
  if (count <= 0) return;
  s.armed.push_back({std::string(point), std::string(job), count});
  detail::g_armed.fetch_add(1, std::memory_order_relaxed);
}

/// "<point>[@<job>][*<count>],…" from PROOFLINE_FAULTS; malformed entries are ignored.
void arm_from_env(State& s) {
  const char* env = std::getenv("PROOFLINE_FAULTS");
  if (env == nullptr) return;
  std::string_view spec(env);
  while (!spec.empty()) {
    const auto comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    int count = 1;
    if (const auto star = item.find('*'); star != std::string_view::npos) {
      count = std::atoi(std::string(item.substr(star + 1)).c_str());
      item = item.substr(0, star);
    }
    std::string_view job;
    if (const auto at = item.find('@'); at != std::string_view::npos) {
      job = item.substr(at + 1);
      item = item.substr(0, at);
    }
    if (!item.empty()) arm_locked(s, item, job, count);
  }
}

State& state() {
  static State* s = [] {
    auto* st = new State;  // never destroyed: fire() may run on threads outliving static destruction
    arm_from_env(*st);
    return st;
  }();
  return *s;
}

// PROOFLINE_FAULTS is read when the process starts, so that g_armed is set before any fire().
const bool g_env_read = (state(), true);

}  // namespace

void arm(std::string_view point, std::string_view job, int count) {
  State& s = state();
  std::lock_guard lk(s.mu);
  arm_locked(s, point, job, count);
}

void disarm_all() {
  State& s = state();
  std::lock_guard lk(s.mu);
  detail::g_armed.fetch_sub(static_cast<int>(s.armed.size()), std::memory_order_relaxed);
  s.armed.clear();
}

int fired(std::string_view point) {
  State& s = state();
  std::lock_guard lk(s.mu);
  const auto it = s.fired.find(point);
  return it == s.fired.end() ? 0 : it->second;
}

bool detail::fire_slow(std::string_view point) {
  State& s = state();
  std::lock_guard lk(s.mu);
  for (auto it = s.armed.begin(); it != s.armed.end(); ++it) {
    if (it->point != point) continue;
    if (!it->job.empty() && (t_job == nullptr || *t_job != it->job)) continue;
    ++s.fired[it->point];
    if (--it->left == 0) {
      s.armed.erase(it);
      detail::g_armed.fetch_sub(1, std::memory_order_relaxed);
    }
    return true;
  }
  return false;
}

JobScope::JobScope(const std::string& request_id) noexcept : prev_(t_job) { t_job = &request_id; }
JobScope::~JobScope() { t_job = prev_; }
const std::string* JobScope::current() noexcept { return t_job; }

}  // namespace proofline::fault
