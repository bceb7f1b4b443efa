// Memory budget, reclaimer and buffer pool (include/proofline/engine/memory.hpp).
#include "proofline/engine/memory.hpp"

#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
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


// ---- MemoryBudget ---------------------------------------------------------------------------------

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
         words(b.a_aux_density) + words(b.b_input_density) + words(b.b_aux_density);
}

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

// ---- BufferPool -----------------------------------------------------------------------------------

BufferPool::BufferPool(MemoryBudget& budget, Reclaimer& reclaimer, std::uint64_t max_bytes)
    : budget_(budget), reclaimer_(reclaimer), max_bytes_(max_bytes) {}

r1cs::ProvingBuffers BufferPool::acquire(std::uint64_t want_bytes) {
  Entry taken;
  {
    std::lock_guard lk(mu_);
    if (idle_.empty()) {
      ++misses_;
      return {};
    }
    std::size_t best = idle_.size();
    for (std::size_t i = 0; i < idle_.size(); ++i) {
      if (idle_[i].bytes >= want_bytes && (best == idle_.size() || idle_[i].bytes < idle_[best].bytes)) best = i;
    }
    if (best == idle_.size()) {
      best = static_cast<std::size_t>(
          std::max_element(idle_.begin(), idle_.end(), [](const Entry& a, const Entry& b) { return a.bytes < b.bytes; }) -
          idle_.begin());
    }
    taken = std::move(idle_[best]);
    idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(best));
    pooled_ -= taken.bytes;
    ++hits_;
  }
  budget_.release(taken.bytes);
  return std::move(taken.buf);
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

std::uint64_t BufferPool::pooled_bytes() const {
  std::lock_guard lk(mu_);
  return pooled_;
}
std::size_t BufferPool::pooled_count() const {
  std::lock_guard lk(mu_);
  return idle_.size();
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
