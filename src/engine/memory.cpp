// Memory budget, reclaimer and buffer pool (include/proofline/engine/memory.hpp).
#include "proofline/engine/memory.hpp"

#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "proofline/util/error.hpp"

namespace proofline::engine {

namespace {
[[noreturn]] void bad_bytes(const std::string& where, const std::string& msg) {
  throw ProoflineError(Error::BadArgument, where + ": " + msg);
}
}  // namespace

std::uint64_t parse_bytes(const std::string& text, const std::string& what) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  std::string num = text.substr(0, i), unit = text.substr(i);
  while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  double x = 0;
  try {
    std::size_t used = 0;
    x = std::stod(num, &used);
    if (used != num.size()) throw std::invalid_argument(num);
  } catch (const std::exception&) {
    bad_bytes(what, "'" + text + "' is not a byte size (expected e.g. 1048576, \"512MiB\", \"8GiB\", \"2GB\")");
  }
  static const std::pair<const char*, double> units[] = {
      {"", 1},          {"B", 1},         {"K", 1024.0},     {"KiB", 1024.0},   {"KB", 1e3},
      {"M", 1048576.0}, {"MiB", 1048576.0}, {"MB", 1e6},     {"G", 1073741824.0}, {"GiB", 1073741824.0},
      {"GB", 1e9},      {"T", 1099511627776.0}, {"TiB", 1099511627776.0}, {"TB", 1e12}};
  for (const auto& [name, mult] : units) {
    if (unit == name) {
      const double b = std::floor(x * mult);
      if (b >= 1.8e19) bad_bytes(what, "'" + text + "' is too large");
      return static_cast<std::uint64_t>(b);
    }
  }
  bad_bytes(what, "'" + text + "': unknown unit '" + unit + "' (B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)");
}


// ---- host memory and the derived budget ----------------------------------------------------------

namespace {

/// The first line of a file as a byte count; nullopt if missing, unparsable, "max" or ≥ 2^60 (v1's
/// "no limit" is a page-rounded 2^63 − 1).
std::optional<std::uint64_t> read_limit_file(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  if (!f || !std::getline(f, line)) return std::nullopt;
  if (line.empty() || line == "max") return std::nullopt;
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(line, &used);
    if (used == 0 || v >= (std::uint64_t{1} << 60)) return std::nullopt;
    return static_cast<std::uint64_t>(v);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

/// "44.0 GiB", or "0.1 MiB" below 1 GiB.
std::string gib(std::uint64_t bytes) {
  char b[32];
  if (bytes >= (std::uint64_t{1} << 30)) {
    std::snprintf(b, sizeof b, "%.1f GiB", static_cast<double>(bytes) / 1073741824.0);
  } else {
    std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / 1048576.0);
  }
  return b;
}

}  // namespace

HostMemory read_host_memory(const std::string& meminfo, const std::string& cgroup_dir) {
  std::ifstream f(meminfo);
  if (!f) throw ProoflineError(Error::BadArgument, "host memory: cannot read '" + meminfo + "'");
  HostMemory h;
  bool total = false, avail = false;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    std::string key, unit;
    std::uint64_t v = 0;
    if (!(in >> key >> v)) continue;
    in >> unit;
    const std::uint64_t bytes = unit == "kB" ? v * 1024 : v;
    if (key == "MemTotal:") h.mem_total = bytes, total = true;
    if (key == "MemAvailable:") h.mem_available = bytes, avail = true;
  }
  if (!total) throw ProoflineError(Error::BadArgument, "host memory: '" + meminfo + "' has no MemTotal line");
  if (!avail) h.mem_available = h.mem_total;  // kernels before 3.14
  if (auto lim = read_limit_file(cgroup_dir + "/memory.max")) {
    h.cgroup_limit = lim;
    h.cgroup_usage = read_limit_file(cgroup_dir + "/memory.current").value_or(0);
  } else if (auto lim1 = read_limit_file(cgroup_dir + "/memory/memory.limit_in_bytes")) {
    h.cgroup_limit = lim1;
    h.cgroup_usage = read_limit_file(cgroup_dir + "/memory/memory.usage_in_bytes").value_or(0);
  }
  return h;
}

DerivedBudget derive_memory_budget(const HostMemory& host, std::uint64_t srs_host_bytes,
                                   std::uint64_t compiled_host_bytes) {
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  std::uint64_t available = host.mem_available;
  std::string from = "MemAvailable " + gib(host.mem_available);
  if (host.cgroup_limit) {
    const std::uint64_t usage = host.cgroup_usage.value_or(0);
    const std::uint64_t room = *host.cgroup_limit > usage ? *host.cgroup_limit - usage : 0;
    if (room < available) {
      available = room;
      from = "cgroup limit " + gib(*host.cgroup_limit) + " − usage " + gib(usage) + " (below MemAvailable " +
             gib(host.mem_available) + ")";
    }
  }
  const std::uint64_t margin = std::max(4 * kGiB, available / 8);
  const std::uint64_t taken = srs_host_bytes + compiled_host_bytes + margin;
  const std::uint64_t floor = std::min(kGiB, available);
  DerivedBudget d;
  d.bytes = available > taken ? std::max(available - taken, floor) : floor;
  d.why = from + " − SRS " + gib(srs_host_bytes) +
          (compiled_host_bytes ? " − compiled circuits " + gib(compiled_host_bytes) : std::string()) + " − margin " + gib(margin) + " (max(4 GiB, 1/8)) = " +
          gib(d.bytes) + (available > taken && available - taken >= floor ? "" : " (the 1 GiB floor)");
  return d;
}

// ---- MemoryBudget ---------------------------------------------------------------------------------

void MemoryBudget::set_total(std::uint64_t total_bytes) {
  std::function<void()> f;
  {
    std::lock_guard lk(mu_);
    total_ = total_bytes;
    f = listener_;
  }
  if (f) f();
}

std::uint64_t MemoryBudget::used() const {
  std::lock_guard lk(mu_);
  return used_;
}

bool MemoryBudget::try_acquire(std::uint64_t bytes) {
  std::lock_guard lk(mu_);
  if (used_ + bytes > total_) return false;
  used_ += bytes;
  return true;
}

void MemoryBudget::charge(std::uint64_t bytes) {
  std::lock_guard lk(mu_);
  used_ += bytes;
}

void MemoryBudget::release(std::uint64_t bytes) {
  std::function<void()> f;
  {
    std::lock_guard lk(mu_);
    used_ -= std::min(used_, bytes);
    f = listener_;
  }
  if (f) f();
}

void MemoryBudget::set_listener(std::function<void()> f) {
  std::lock_guard lk(mu_);
  listener_ = std::move(f);
}

std::uint64_t buffer_bytes(const r1cs::ProvingBuffers& b) {
  const std::uint64_t fr = sizeof(ff::Fr);
  auto words = [](const r1cs::DensityTracker& d) { return std::uint64_t{8} * ((d.size() + 63) / 64); };
  return fr * (b.a.capacity() + b.b.capacity() + b.c.capacity() + b.input_assignment.capacity() +
               b.aux_assignment.capacity()) +
         words(b.a_aux_density) + words(b.b_input_density) + words(b.b_aux_density) + b.packed_aux.bytes();
}

// ---- CriticalPathScope ----------------------------------------------------------------------------

namespace {
thread_local int t_critical_depth = 0;
}

CriticalPathScope::CriticalPathScope() { ++t_critical_depth; }
CriticalPathScope::~CriticalPathScope() { --t_critical_depth; }
bool CriticalPathScope::active() { return t_critical_depth > 0; }

// ---- Reclaimer ------------------------------------------------------------------------------------

Reclaimer::Reclaimer(MemoryBudget& budget, bool threaded) : budget_(budget), threaded_(threaded) {
  if (threaded_) thread_ = std::thread([this] { run(); });
}

Reclaimer::~Reclaimer() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
    paused_ = false;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::vector<Item> rest(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
  queue_.clear();
  free_now(rest);
}

void Reclaimer::free_now(std::vector<Item>& items) {
  if (items.empty()) return;
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t bytes = 0;
  for (Item& it : items) {
    it.holder.reset();  // the memory is freed here (last reference)
    bytes += it.bytes;
  }
  malloc_trim(0);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  {
    std::lock_guard lk(mu_);
    freed_bytes_ += bytes;
    frees_ += items.size();
    if (CriticalPathScope::active()) critical_path_frees_ += items.size();
    free_ms_ += ms;
  }
  budget_.release(bytes);
}

void Reclaimer::reclaim(std::shared_ptr<void> holder, std::uint64_t bytes) {
  if (!threaded_) {
    std::vector<Item> one;
    one.push_back(Item{std::move(holder), bytes});
    free_now(one);
    return;
  }
  {
    std::lock_guard lk(mu_);
    queue_.push_back(Item{std::move(holder), bytes});
    pending_bytes_ += bytes;
  }
  cv_.notify_all();
}

void Reclaimer::reclaim(r1cs::ProvingBuffers&& buf, std::uint64_t bytes) {
  reclaim(std::make_shared<r1cs::ProvingBuffers>(std::move(buf)), bytes);
}

void Reclaimer::run() {
  std::unique_lock lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return stop_ || (!paused_ && !queue_.empty()); });
    if (stop_) return;
    std::vector<Item> batch(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
    queue_.clear();
    ++in_progress_;
    lk.unlock();
    std::uint64_t bytes = 0;
    for (const Item& it : batch) bytes += it.bytes;
    free_now(batch);
    lk.lock();
    pending_bytes_ -= std::min(pending_bytes_, bytes);
    --in_progress_;
    cv_.notify_all();
  }
}

void Reclaimer::flush() {
  if (!threaded_) return;
  std::unique_lock lk(mu_);
  cv_.wait(lk, [&] { return stop_ || (queue_.empty() && in_progress_ == 0); });
}

void Reclaimer::pause() {
  std::lock_guard lk(mu_);
  paused_ = true;
}

void Reclaimer::resume() {
  {
    std::lock_guard lk(mu_);
    paused_ = false;
  }
  cv_.notify_all();
}

std::uint64_t Reclaimer::pending_bytes() const {
  std::lock_guard lk(mu_);
  return pending_bytes_;
}
std::size_t Reclaimer::pending_count() const {
  std::lock_guard lk(mu_);
  return queue_.size() + in_progress_;
}
std::uint64_t Reclaimer::freed_bytes_total() const {
  std::lock_guard lk(mu_);
  return freed_bytes_;
}
std::uint64_t Reclaimer::frees_total() const {
  std::lock_guard lk(mu_);
  return frees_;
}
double Reclaimer::free_ms_total() const {
  std::lock_guard lk(mu_);
  return free_ms_;
}
std::uint64_t Reclaimer::critical_path_frees() const {
  std::lock_guard lk(mu_);
  return critical_path_frees_;
}

// ---- BufferPool -----------------------------------------------------------------------------------

BufferPool::BufferPool(MemoryBudget& budget, Reclaimer& reclaimer, std::uint64_t max_bytes)
    : budget_(budget), reclaimer_(reclaimer), max_bytes_(max_bytes) {}

std::optional<BufferPool::Taken> BufferPool::take_charged(std::uint64_t want_bytes) {
  std::lock_guard lk(mu_);
  if (idle_.empty()) return std::nullopt;
  std::size_t best = idle_.size();
  for (std::size_t i = 0; i < idle_.size(); ++i) {
    if (idle_[i].bytes >= want_bytes && (best == idle_.size() || idle_[i].bytes < idle_[best].bytes)) best = i;
  }
  if (best == idle_.size()) {
    best = static_cast<std::size_t>(
        std::max_element(idle_.begin(), idle_.end(), [](const Entry& a, const Entry& b) { return a.bytes < b.bytes; }) -
        idle_.begin());
  }
  Taken t{std::move(idle_[best].buf), idle_[best].bytes};
  idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(best));
  pooled_ -= t.bytes;
  ++hits_;
  return t;
}

void BufferPool::put_back_charged(Taken&& t) {
  std::lock_guard lk(mu_);
  idle_.push_back(Entry{std::move(t.buf), t.bytes});
  pooled_ += t.bytes;
  --hits_;
}

r1cs::ProvingBuffers BufferPool::acquire(std::uint64_t want_bytes) {
  std::optional<Taken> t = take_charged(want_bytes);
  if (!t) {
    note_fresh();
    return {};
  }
  budget_.release(t->bytes);
  return std::move(t->buf);
}

void BufferPool::give_back(r1cs::ProvingBuffers&& buf) {
  const std::uint64_t bytes = buffer_bytes(buf);
  {
    std::lock_guard lk(mu_);
    if (pooled_ + bytes <= max_bytes_ && bytes > 0) {
      idle_.push_back(Entry{std::move(buf), bytes});
      pooled_ += bytes;
      return;
    }
  }
  reclaimer_.reclaim(std::move(buf), bytes);
}

std::uint64_t BufferPool::shrink(std::uint64_t keep_bytes) {
  std::vector<Entry> out;
  {
    std::lock_guard lk(mu_);
    while (pooled_ > keep_bytes && !idle_.empty()) {
      out.push_back(std::move(idle_.back()));
      idle_.pop_back();
      pooled_ -= out.back().bytes;
    }
  }
  std::uint64_t handed = 0;
  for (Entry& e : out) {
    handed += e.bytes;
    reclaimer_.reclaim(std::move(e.buf), e.bytes);
  }
  return handed;
}

std::uint64_t BufferPool::shrink_keeping_largest() {
  std::vector<Entry> out;
  {
    std::lock_guard lk(mu_);
    if (idle_.size() < 2) return 0;
    std::sort(idle_.begin(), idle_.end(), [](const Entry& a, const Entry& b) { return a.bytes > b.bytes; });
    for (std::size_t i = 1; i < idle_.size(); ++i) {
      pooled_ -= idle_[i].bytes;
      out.push_back(std::move(idle_[i]));
    }
    idle_.resize(1);
  }
  std::uint64_t handed = 0;
  for (Entry& e : out) {
    handed += e.bytes;
    reclaimer_.reclaim(std::move(e.buf), e.bytes);
  }
  return handed;
}

void BufferPool::note_fresh() {
  std::lock_guard lk(mu_);
  ++misses_;
}

std::uint64_t BufferPool::pooled_bytes() const {
  std::lock_guard lk(mu_);
  return pooled_;
}
std::size_t BufferPool::pooled_count() const {
  std::lock_guard lk(mu_);
  return idle_.size();
}
std::size_t BufferPool::pooled_count_at_least(std::uint64_t bytes) const {
  std::lock_guard lk(mu_);
  std::size_t n = 0;
  for (const Entry& e : idle_) n += e.bytes >= bytes;
  return n;
}
std::uint64_t BufferPool::hits() const {
  std::lock_guard lk(mu_);
  return hits_;
}
std::uint64_t BufferPool::misses() const {
  std::lock_guard lk(mu_);
  return misses_;
}

}  // namespace proofline::engine
