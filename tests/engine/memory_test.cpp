// MemoryBudget, Reclaimer (charged until really freed), BufferPool, SrsManager (load once,
// concurrent waiters, failures, LRU), KindRegistry and argument helpers.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "proofline/engine/kind.hpp"
#include "proofline/engine/memory.hpp"
#include "proofline/engine/srs.hpp"

namespace proofline::engine {
namespace {

using ff::Fr;

r1cs::ProvingBuffers buffers_of(std::size_t n) {
  r1cs::ProvingBuffers b;
  b.a.resize(n);
  b.b.resize(n);
  b.c.resize(n);
  b.aux_assignment.resize(n);
  return b;
}

TEST(MemoryBudget, AdmitsOnlyWhatFits) {
  MemoryBudget b(1000);
  EXPECT_TRUE(b.try_acquire(600));
  EXPECT_FALSE(b.try_acquire(401));
  EXPECT_TRUE(b.try_acquire(400));
  EXPECT_EQ(b.used(), 1000u);
  int calls = 0;
  b.set_listener([&] { ++calls; });
  b.release(600);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(b.used(), 400u);
  b.charge(900);  // memory that exists is charged even past the total
  EXPECT_EQ(b.used(), 1300u);
  EXPECT_FALSE(b.try_acquire(1));
  b.release(5000);  // clamped
  EXPECT_EQ(b.used(), 0u);
}

// The budget derived from the machine (EngineConfig::memory_budget_bytes = 0), from fake /proc and
// cgroup files: MemAvailable − SRS host bytes − margin max(4 GiB, 1/8); a cgroup limit below the
// host's memory wins (v2 and v1); "max" and v1's 2^63 mean no limit; a tiny machine gets the floor.
TEST(MemoryBudget, DerivedFromTheMachine) {
  constexpr std::uint64_t GiB = std::uint64_t{1} << 30;
  const std::filesystem::path d = std::filesystem::temp_directory_path() / ("proofline-meminfo-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d / "v2");
  std::filesystem::create_directories(d / "v1" / "memory");
  std::filesystem::create_directories(d / "none");
  auto write = [](const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; };
  // The H200 host: 128 GiB, 124 GiB available.
  write(d / "meminfo", "MemTotal:       134217728 kB\nMemFree:        100000000 kB\nMemAvailable:   130023424 kB\n");
  const HostMemory h = read_host_memory((d / "meminfo").string(), (d / "none").string());
  EXPECT_EQ(h.mem_total, 128 * GiB);
  EXPECT_EQ(h.mem_available, 124 * GiB);
  EXPECT_FALSE(h.cgroup_limit.has_value());
  // margin 124/8 = 15.5 GiB; SRS 44 GiB: 124 − 44 − 15.5 = 64.5 GiB.
  DerivedBudget b = derive_memory_budget(h, 44 * GiB);
  EXPECT_EQ(b.bytes, 124 * GiB - 44 * GiB - 124 * GiB / 8);
  EXPECT_NE(b.why.find("MemAvailable 124.0 GiB − SRS 44.0 GiB − margin 15.5 GiB"), std::string::npos) << b.why;
  EXPECT_NE(b.why.find("= 64.5 GiB"), std::string::npos) << b.why;
  EXPECT_EQ(derive_memory_budget(h, 0).bytes, 124 * GiB - 124 * GiB / 8);
  // a compiled circuit held (5.9 GB for a 32 GiB PoRep partition's) is left room for, and named
  b = derive_memory_budget(h, 44 * GiB, 6 * GiB);
  EXPECT_EQ(b.bytes, 124 * GiB - 44 * GiB - 6 * GiB - 124 * GiB / 8);
  EXPECT_NE(b.why.find("− SRS 44.0 GiB − compiled circuits 6.0 GiB − margin 15.5 GiB (max(4 GiB, 1/8)) = 58.5 GiB"), std::string::npos)
      << b.why;

  // cgroup v2: 32 GiB limit, 2 GiB used → 30 GiB available; margin 4 GiB.
  write(d / "v2" / "memory.max", "34359738368\n");
  write(d / "v2" / "memory.current", "2147483648\n");
  const HostMemory c2 = read_host_memory((d / "meminfo").string(), (d / "v2").string());
  ASSERT_TRUE(c2.cgroup_limit.has_value());
  b = derive_memory_budget(c2, 0);
  EXPECT_EQ(b.bytes, 26 * GiB);
  EXPECT_NE(b.why.find("cgroup limit 32.0 GiB − usage 2.0 GiB (below MemAvailable 124.0 GiB)"), std::string::npos)
      << b.why;
  write(d / "v2" / "memory.max", "max\n");
  EXPECT_FALSE(read_host_memory((d / "meminfo").string(), (d / "v2").string()).cgroup_limit.has_value());

  // cgroup v1: 16 GiB limit; v1's "unlimited" is 2^63 − 4096.
  write(d / "v1" / "memory" / "memory.limit_in_bytes", "17179869184\n");
  write(d / "v1" / "memory" / "memory.usage_in_bytes", "0\n");
  EXPECT_EQ(derive_memory_budget(read_host_memory((d / "meminfo").string(), (d / "v1").string()), 0).bytes, 12 * GiB);
  write(d / "v1" / "memory" / "memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_FALSE(read_host_memory((d / "meminfo").string(), (d / "v1").string()).cgroup_limit.has_value());

  // A small machine: 3 GiB available, SRS 1 GiB: below the margin → the 1 GiB floor.
  write(d / "small", "MemTotal: 4194304 kB\nMemAvailable: 3145728 kB\n");
  b = derive_memory_budget(read_host_memory((d / "small").string(), (d / "none").string()), GiB);
  EXPECT_EQ(b.bytes, GiB);
  EXPECT_NE(b.why.find("(the 1 GiB floor)"), std::string::npos) << b.why;

  write(d / "bad", "nothing here\n");
  EXPECT_THROW(read_host_memory((d / "bad").string(), (d / "none").string()), ProoflineError);
  EXPECT_THROW(read_host_memory((d / "missing").string(), (d / "none").string()), ProoflineError);
  std::filesystem::remove_all(d);
}

TEST(Reclaimer, MemoryStaysChargedUntilFreed) {
  MemoryBudget budget(std::uint64_t{1} << 30);
  Reclaimer rec(budget, /*threaded=*/true);
  rec.pause();
  r1cs::ProvingBuffers buf = buffers_of(1 << 12);
  const std::uint64_t bytes = buffer_bytes(buf);
  EXPECT_EQ(bytes, 4u * 32 * (1 << 12));
  ASSERT_TRUE(budget.try_acquire(bytes));
  // Watch the memory: a weak reference tells when the buffers are really destroyed.
  auto holder = std::make_shared<r1cs::ProvingBuffers>(std::move(buf));
  std::weak_ptr<r1cs::ProvingBuffers> watch = holder;
  rec.reclaim(std::move(holder), bytes);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(watch.expired());  // paused: not freed
  EXPECT_EQ(budget.used(), bytes);  // … and still charged
  EXPECT_EQ(rec.pending_bytes(), bytes);
  EXPECT_EQ(rec.pending_count(), 1u);
  EXPECT_FALSE(budget.try_acquire((std::uint64_t{1} << 30) - bytes + 1));
  rec.resume();
  rec.flush();
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(budget.used(), 0u);
  EXPECT_EQ(rec.pending_bytes(), 0u);
  EXPECT_EQ(rec.freed_bytes_total(), bytes);
  EXPECT_EQ(rec.frees_total(), 1u);
}

TEST(Reclaimer, InlineModeFreesAtOnce) {
  MemoryBudget budget(1 << 30);
  Reclaimer rec(budget, /*threaded=*/false);
  r1cs::ProvingBuffers buf = buffers_of(1000);
  const std::uint64_t bytes = buffer_bytes(buf);
  budget.charge(bytes);
  rec.reclaim(std::move(buf), bytes);
  EXPECT_EQ(budget.used(), 0u);
  EXPECT_EQ(rec.freed_bytes_total(), bytes);
  EXPECT_FALSE(rec.threaded());
}

TEST(BufferPool, ReusesAndAccountsCapacity) {
  MemoryBudget budget(1 << 30);
  Reclaimer rec(budget, true);
  BufferPool pool(budget, rec, /*max_bytes=*/1 << 20);
  // Miss: nothing pooled.
  r1cs::ProvingBuffers b = pool.acquire(1000);
  EXPECT_EQ(pool.misses(), 1u);
  b = buffers_of(2048);
  const std::uint64_t cap = buffer_bytes(b);
  const Fr* data = b.a.data();
  budget.charge(cap);  // the caller's charge of the buffer's capacity
  pool.give_back(std::move(b));
  EXPECT_EQ(pool.pooled_bytes(), cap);
  EXPECT_EQ(budget.used(), cap);
  // Hit: the same memory comes back, its pooled charge released (the caller reserves instead).
  r1cs::ProvingBuffers again = pool.acquire(cap);
  EXPECT_EQ(pool.hits(), 1u);
  EXPECT_EQ(again.a.data(), data);
  EXPECT_EQ(again.a.capacity(), 2048u);
  EXPECT_EQ(budget.used(), 0u);
  EXPECT_EQ(pool.pooled_bytes(), 0u);
  // Over the pool limit: handed to the reclaimer (charged until freed).
  r1cs::ProvingBuffers huge = buffers_of(1 << 14);  // 2 MiB > 1 MiB limit
  const std::uint64_t hcap = buffer_bytes(huge);
  budget.charge(hcap);
  rec.pause();
  pool.give_back(std::move(huge));
  EXPECT_EQ(pool.pooled_bytes(), 0u);
  EXPECT_EQ(rec.pending_bytes(), hcap);
  EXPECT_EQ(budget.used(), hcap);
  rec.resume();
  rec.flush();
  EXPECT_EQ(budget.used(), 0u);
  // shrink() hands idle buffers to the reclaimer.
  budget.charge(cap);
  again.clear();
  pool.give_back(std::move(again));
  EXPECT_EQ(pool.shrink(0), cap);
  rec.flush();
  EXPECT_EQ(pool.pooled_count(), 0u);
  EXPECT_EQ(budget.used(), 0u);
}

std::shared_ptr<const Srs> fake_srs(const std::string& key, std::uint64_t bytes) {
  auto s = std::make_shared<Srs>();
  s->key = key;
  s->bytes = bytes;
  return s;
}

TEST(SrsManager, LoadsOnceForConcurrentUsers) {
  SrsManager m(0);
  std::atomic<int> loads{0};
  auto loader = [&](const std::function<void(double)>& progress) {
    ++loads;
    progress(0.5);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return fake_srs("k", 100);
  };
  std::vector<std::unique_ptr<SrsLease>> leases(4);
  std::vector<std::thread> t;
  for (int i = 0; i < 4; ++i) t.emplace_back([&, i] { leases[static_cast<std::size_t>(i)] = m.acquire("k", loader); });
  for (auto& th : t) th.join();
  EXPECT_EQ(loads.load(), 1);
  auto st = m.status();
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].users, 4u);
  EXPECT_EQ(st[0].state, "loaded");
  EXPECT_EQ(st[0].progress, 1.0);
  EXPECT_FALSE(m.evict("k"));  // in use
  leases.clear();
  EXPECT_EQ(m.status()[0].users, 0u);
  EXPECT_TRUE(m.evict("k"));
  EXPECT_EQ(m.resident_bytes(), 0u);
}

TEST(SrsManager, FailedLoadIsReportedAndRetried) {
  SrsManager m(0);
  int calls = 0;
  auto bad = [&](const std::function<void(double)>&) -> std::shared_ptr<const Srs> {
    ++calls;
    throw std::runtime_error("cannot read params");
  };
  EXPECT_THROW(m.acquire("k", bad), std::runtime_error);
  EXPECT_TRUE(m.status().empty());
  EXPECT_THROW(m.acquire("k", bad), std::runtime_error);
  EXPECT_EQ(calls, 2);
  auto lease = m.acquire("k", [](const std::function<void(double)>&) { return fake_srs("k", 1); });
  EXPECT_EQ(lease->srs().key, "k");
}

TEST(SrsManager, EvictsIdleLeastRecentlyUsedOverBudget) {
  SrsManager m(250);
  auto load = [](const std::string& k) {
    return [k](const std::function<void(double)>&) { return fake_srs(k, 100); };
  };
  { auto a = m.acquire("a", load("a")); }
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  { auto b = m.acquire("b", load("b")); }
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  { auto a = m.acquire("a", load("a")); }  // a used again: b is now the least recently used
  auto c = m.acquire("c", load("c"));       // 300 > 250: evict the oldest idle (b)
  std::vector<std::string> keys;
  for (const auto& s : m.status()) keys.push_back(s.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "c"}));
  auto a = m.acquire("a", load("a"));
  auto d = m.acquire("d", load("d"));  // a, c, d all in use: over budget but nothing evictable
  EXPECT_EQ(m.status().size(), 3u);
  EXPECT_EQ(m.evictions_total(), 1u);
  EXPECT_EQ(m.loads_total(), 4u);
}

TEST(KindRegistry, BuiltinsAndErrors) {
  auto r = KindRegistry::builtin();
  // The exact list (with the kind kind_args_test.cpp registers): Kinds.EveryBuiltinKindIsRegistered….
  EXPECT_NE(r->find("bench"), nullptr);
  EXPECT_EQ(r->find("porep"), nullptr);
  EXPECT_THROW(r->add(r->get("bench")), std::invalid_argument);
  EXPECT_THROW(r->get("porep"), std::invalid_argument);
  EXPECT_EQ(parse_log_size_arg("size", "2^16"), 16u);
  EXPECT_EQ(parse_log_size_arg("size", "65536"), 16u);
  EXPECT_THROW(parse_log_size_arg("size", "65535"), std::invalid_argument);
  EXPECT_THROW(parse_log_size_arg("size", "2^x"), std::invalid_argument);
  EXPECT_EQ(parse_u64_arg("n", "42"), 42u);
  EXPECT_THROW(parse_u64_arg("n", "-1"), std::invalid_argument);
  EXPECT_THROW(parse_u64_arg("n", "4x"), std::invalid_argument);
  EXPECT_EQ(priority_from_string("CRITICAL"), Priority::Critical);
  EXPECT_EQ(priority_from_string("urgent"), std::nullopt);
  EXPECT_EQ(to_string(JobState::Cancelled), "cancelled");
}

}  // namespace
}  // namespace proofline::engine
