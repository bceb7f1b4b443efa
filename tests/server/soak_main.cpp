// Soak (ctest label "soak", binary test_server_soak; run alone with `ctest -L soak`): 200 small
// proofs (bench 2^4 … 2^6, mixed priorities, one to two partitions) from 8 concurrent clients, half
// on the unix socket and half on 127.0.0.1, half with Prove and half with Submit + Await. Every
// proof must come back COMPLETED and verify; none may be lost or duplicated; afterwards the engine
// holds no reservations, and the process's resident memory (VmRSS) is back near its idle level
// (measured after a warm-up round, so one-time allocations — SRS cache, thread stacks, gRPC
// buffers — are part of "idle"). Prints the measured numbers.
#include <cstdio>
#include <mutex>
#include <random>
#include <set>

#include "server_test_util.hpp"

namespace proofline::server {
namespace {

using namespace testing;

constexpr int kClients = 8;
constexpr int kPerClient = 25;  // 200 proofs

TEST(Soak, TwoHundredProofsFromEightClientsNoneLostMemoryBackToIdle) {
  Harness h(2);
  for (unsigned log : {4u, 5u, 6u}) bench_vk(log);

  // Warm-up: every parameter set loaded once, every transport and method used.
  for (unsigned log : {4u, 5u, 6u}) {
    ASSERT_TRUE(verified(bench_vk(log), prove(h.stub(log % 2), bench_req("warm-" + std::to_string(log), log, 2, 1)), 2));
  }
  ASSERT_TRUE(eventually([&] { return h.status().memory().reserved_bytes() == 0; }));
  const std::uint64_t rss_idle = resident_bytes();

  const pb::Priority pris[] = {pb::PRIORITY_LOW, pb::PRIORITY_NORMAL, pb::PRIORITY_HIGH, pb::PRIORITY_CRITICAL};
  std::mutex mu;
  std::set<std::string> done;
  std::vector<std::string> failures;
  std::atomic<std::uint64_t> rss_peak{rss_idle};
  const auto t0 = Clock::now();
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      std::mt19937 rng(1234 + c);
      auto& stub = h.stub(c % 2 == 1);
      for (int i = 0; i < kPerClient; ++i) {
        const unsigned log = 4 + rng() % 3, parts = 1 + rng() % 2;
        const std::string id = "soak-" + std::to_string(c) + "-" + std::to_string(i);
        const pb::ProofRequest req = bench_req(id, log, parts, 1 + c * 1000 + i, pris[rng() % 4]);
        pb::ProofResult r;
        grpc::Status st;
        if ((c / 2) % 2 == 0) {
          r = prove(stub, req, &st);
        } else {
          st = submit(stub, req);
          if (st.ok()) r = await(stub, id, 0, &st);
        }
        const auto ok = st.ok() ? verified(bench_vk(log), r, parts) : ::testing::AssertionFailure() << st.error_message();
        std::uint64_t rss = resident_bytes(), peak = rss_peak.load();
        while (rss > peak && !rss_peak.compare_exchange_weak(peak, rss)) {
        }
        std::lock_guard lk(mu);
        if (!ok || r.request_id() != id) {
          failures.push_back(id + ": " + ok.message());
        } else if (!done.insert(id).second) {
          failures.push_back(id + ": returned twice");
        }
      }
    });
  }
  for (auto& t : clients) t.join();
  const double wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_TRUE(failures.empty()) << failures.size() << " failures, first: " << failures.front();
  EXPECT_EQ(done.size(), static_cast<std::size_t>(kClients * kPerClient));

  pb::StatusResponse st;
  EXPECT_TRUE(eventually([&] {
    st = h.status();
    return st.jobs_queued() + st.jobs_running() == 0 && st.memory().reserved_bytes() == 0 &&
           st.memory().reclaim_pending_bytes() == 0;
  })) << st.DebugString();
  EXPECT_EQ(st.jobs_completed(), static_cast<std::uint32_t>(kClients * kPerClient + 3));
  EXPECT_EQ(st.jobs_failed() + st.jobs_cancelled(), 0u);
  const std::uint64_t rss_after = resident_bytes();
  const double mib = 1.0 / (1 << 20);
  std::printf("soak: %d proofs from %d clients in %.1f s (%.1f proofs/s); VmRSS idle %.1f MiB, peak %.1f MiB, "
              "after %.1f MiB (+%.1f MiB)\n",
              kClients * kPerClient, kClients, wall_s, kClients * kPerClient / wall_s, rss_idle * mib,
              rss_peak.load() * mib, rss_after * mib, (static_cast<double>(rss_after) - rss_idle) * mib);
  // "Near idle": within 32 MiB of the idle level (the in-process clients, 200 retained results and
  // allocator arenas of the gRPC threads are in this figure too).
  EXPECT_LE(rss_after, rss_idle + (std::uint64_t{32} << 20));
}

}  // namespace
}  // namespace proofline::server
