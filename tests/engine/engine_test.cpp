// The proving engine end to end on the CPU backend: proofs verified, priorities, cancel, await
// timeouts, duplicate ids, memory-budget admission, overlap, bad requests, SRS cache, self-check.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "engine_test_util.hpp"
#include "proofline/engine/engine.hpp"

namespace proofline::engine {
namespace {

using namespace testing;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::size_t queue_count(const EngineStatus& s, const std::string& stage, bool running) {
  std::size_t n = 0;
  for (const auto& q : s.queues) {
    if (q.stage == stage) n += running ? q.running : q.pending;
  }
  return n;
}

TEST(Engine, BenchProofsAreVerifiedWithTimings) {
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
  AwaitResult a = e.prove(bench_request("b6", 6, 3, 5));
  ASSERT_EQ(a.status, AwaitStatus::Ready);
  const ProofResult& r = a.result;
  ASSERT_EQ(r.state, JobState::Done) << r.error;
  EXPECT_EQ(r.num_partitions, 3u);
  EXPECT_EQ(r.failure, Failure::None);
  EXPECT_EQ(r.proof_bytes.size(), 3u * 192);
  EXPECT_TRUE(verify_each(bench_vk(6), r));
  // Partition k proves SizedCircuit(2^6, input + k): public input x = 5 + k.
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(r.public_inputs[k].at(0), Fr::from_u64(5 + k));
  ASSERT_EQ(r.partitions.size(), 3u);
  for (const auto& p : r.partitions) {
    EXPECT_GT(p.synthesis, 0);
    EXPECT_GT(p.kernel, 0);
    EXPECT_GE(p.prover_call, p.kernel * 0.99);
    EXPECT_GE(p.stage, p.prover_call);
    EXPECT_GE(p.total, p.stage);
    EXPECT_EQ(p.backend, 0);
    EXPECT_EQ(p.backend_name, "cpu");
  }
  EXPECT_GT(r.timings.verify, 0);
  EXPECT_GE(r.timings.total, r.partitions.back().total);
  EXPECT_GT(r.timings.srs_load, 0);  // first use of this parameter file in this engine
  // A second job with the same parameters does not load them again.
  AwaitResult b = e.prove(bench_request("b6-again", 6, 1, 9));
  ASSERT_EQ(b.result.state, JobState::Done) << b.result.error;
  EXPECT_EQ(b.result.timings.srs_load, 0);
  const std::string m = e.metrics_text();
  EXPECT_NE(m.find("proofline_engine_partitions_proved_total{backend=\"0\",name=\"cpu\"} 4"), std::string::npos) << m;
  EXPECT_NE(m.find("proofline_engine_srs_loads_total 1\n"), std::string::npos);
  EXPECT_NE(m.find("proofline_engine_jobs_finished_total{state=\"done\"} 2"), std::string::npos);
  EXPECT_NE(m.find("proofline_engine_partition_seconds_count{timer=\"kernel\"} 4"), std::string::npos);
  EXPECT_NE(m.find("# TYPE proofline_engine_partition_seconds histogram"), std::string::npos);
}

// compiled=1 (issue 31) for the bench and mul kinds: witness-only synthesis, the constraints evaluated
// by the backend from the compiled circuit written beside the parameters; for fixed r, s per
// partition the same proof bytes as prover mode.
TEST(Engine, BenchCompiledFormProvesTheSameBytes) {
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
  for (const std::string kind : {"bench", "mul"}) {
    SCOPED_TRACE(kind);
    ProofRequest r = bench_request("compiled-" + kind, 7, 2, 3);
    if (kind == "mul") r.args = {{"params", mul_params()}, {"partitions", "2"}, {"input", "3"}};
    r.kind = kind;
    r.randomizers = {groth16::Randomizers{Fr::from_u64(5), Fr::from_u64(6)},
                     groth16::Randomizers{Fr::from_u64(7), Fr::zero()}};
    std::filesystem::remove(r.args["params"] + ".compiled");
    const AwaitResult want = e.prove(r);
    ASSERT_EQ(want.result.state, JobState::Done) << want.result.error;
    r.request_id += "-c";
    r.args["compiled"] = "1";
    const AwaitResult got = e.prove(r);
    ASSERT_EQ(got.result.state, JobState::Done) << got.result.error;
    EXPECT_EQ(got.result.proof_bytes, want.result.proof_bytes);
    ASSERT_EQ(got.result.partitions.size(), 2u);
    EXPECT_GT(got.result.partitions[0].backend_timings.evaluate, 0.0);
    EXPECT_EQ(want.result.partitions.at(0).backend_timings.evaluate, 0.0);
    EXPECT_TRUE(std::filesystem::is_regular_file(r.args["params"] + ".compiled"));
    r.request_id += "-x";
    r.args["compiled"] = "yes";
    EXPECT_EQ(e.prove(r).result.state, JobState::Failed);
    // the compiled circuit is listed and counted until its SRS leaves the cache, then let go with it
    const auto listed = [&](const EngineStatus& s) -> const CompiledCircuitStatus* {
      for (const auto& c : s.compiled) {
        if (c.file == r.args["params"] + ".compiled") return &c;
      }
      return nullptr;
    };
    const EngineStatus held = e.status();
    const CompiledCircuitStatus* c = listed(held);
    ASSERT_NE(c, nullptr);
    EXPECT_GT(c->host_bytes, 0u);
    EXPECT_GE(held.memory.compiled_bytes, c->host_bytes);
    // (the last job's lease may be let go just after its result is final: evicted once it is)
    ASSERT_TRUE(eventually([&] { return e.evict_srs(c->key); }));
    const EngineStatus after = e.status();
    EXPECT_EQ(listed(after), nullptr);
    EXPECT_EQ(after.memory.compiled_bytes, held.memory.compiled_bytes - c->host_bytes);
  }
}

TEST(Engine, MixedKindsAndSizesConcurrently) {
  EngineConfig cfg = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}));
  cfg.backends.push_back(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}));  // two "devices"
  Engine e(std::move(cfg));
  std::vector<std::string> ids;
  for (unsigned log : {6u, 8u, 10u, 7u}) {
    const std::size_t parts = log == 10 ? 1 : 2;
    ids.push_back(e.submit(bench_request("size" + std::to_string(log), log, parts, log * 10, Priority::High)).request_id);
  }
  ProofRequest mul;
  mul.request_id = "mul";
  mul.kind = "mul";
  mul.args = {{"params", mul_params()}, {"partitions", "2"}, {"input", "4"}};
  ids.push_back(e.submit(mul).request_id);
  const auto files = snarkjs_chain(60, 3, "chain60");
  ProofRequest sj;
  sj.request_id = "snarkjs";
  sj.kind = "snarkjs";
  sj.args = {{"zkey", files.zkey}, {"wtns", files.wtns}};
  ids.push_back(e.submit(sj).request_id);

  for (const auto& id : ids) {
    AwaitResult a = e.await(id, 60s);
    ASSERT_EQ(a.status, AwaitStatus::Ready) << id;
    ASSERT_EQ(a.result.state, JobState::Done) << id << ": " << a.result.error;
  }
  for (unsigned log : {6u, 8u, 10u, 7u}) {
    EXPECT_TRUE(verify_each(bench_vk(log), e.await("size" + std::to_string(log)).result)) << log;
  }
  EXPECT_TRUE(verify_each(groth16::VerifyingKey::read_params_file_head(mul_params()), e.await("mul").result));
  // The snarkjs proof verifies under the zkey's own verifying key, with snarkjs' public signals.
  const ProofResult s = e.await("snarkjs").result;
  EXPECT_TRUE(verify_each(files.vk, s));
  Fr x3 = Fr::from_u64(3), out = x3;
  for (int i = 0; i < 60; ++i) out *= x3;
  EXPECT_EQ(s.public_inputs.at(0), (std::vector<Fr>{out, x3}));
  const EngineStatus st = e.status();
  EXPECT_EQ(st.backends.size(), 2u);
  EXPECT_EQ(st.backends[0].partitions_proved + st.backends[1].partitions_proved, 10u);  // 2+2+1+2 + 2 + 1
  EXPECT_EQ(st.jobs_done, 6u);
}

TEST(Engine, SnarkjsWitnessAsPayload) {
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
  const auto files = snarkjs_chain(200, 7, "chain200");  // domain 256
  ProofRequest r;
  r.kind = "snarkjs";
  r.args = {{"zkey", files.zkey}};
  r.payload = files.wtns_bytes;
  AwaitResult a = e.prove(r);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_TRUE(verify_each(files.vk, a.result));
  EXPECT_EQ(a.result.request_id.rfind("job-", 0), 0u);  // engine-assigned id
}

TEST(Engine, CriticalOvertakesQueuedNormalAtEveryStage) {
  auto be = std::make_shared<TestBackend>(/*gate_closed=*/true);
  EngineConfig cfg = test_config(be, 1);
  // Room for exactly one partition of 2^6 in flight: later partitions wait for admission.
  groth16::Parameters p6 = groth16::Parameters::read_file(bench_params(6));
  cfg.memory_budget_bytes = partition_buffer_bytes(p6) + partition_buffer_bytes(p6) / 2;
  cfg.pool_max_bytes = 0;
  Engine e(std::move(cfg));
  e.submit(bench_request("A", 6, 1, 100));  // occupies the prover (gate closed) and the budget
  ASSERT_TRUE(be->wait_entered(1));
  e.submit(bench_request("B", 6, 2, 200));
  e.submit(bench_request("C", 6, 2, 300, Priority::Low));
  e.submit(bench_request("D", 6, 2, 400));
  ASSERT_TRUE(eventually([&] { return queue_count(e.status(), "synthesis", false) == 6; }));
  e.submit(bench_request("X", 6, 2, 900, Priority::Critical));
  ASSERT_TRUE(eventually([&] { return queue_count(e.status(), "synthesis", false) == 8; }));
  be->open();
  for (const char* id : {"A", "B", "C", "D", "X"}) ASSERT_EQ(e.await(id, 60s).result.state, JobState::Done) << id;
  const std::vector<std::uint64_t> want = {100, 900, 901, 200, 201, 400, 401, 300, 301};
  EXPECT_EQ(be->order(), want);
}

TEST(Engine, CriticalGoesAheadInTheProveQueue) {
  auto be = std::make_shared<TestBackend>(true);
  Engine e(test_config(be, 2));
  e.submit(bench_request("A", 6, 1, 10));
  ASSERT_TRUE(be->wait_entered(1));
  e.submit(bench_request("N", 6, 3, 20));
  // Latency-first: N's first partition waits for the prover; its others are not synthesized while
  // it waits (one in flight per prover worker and class), so the more urgent jobs find them still
  // queued; C's and H's first partitions are synthesized and queued ahead of N's.
  ASSERT_TRUE(eventually([&] { return queue_count(e.status(), "prove", false) == 1; }));
  e.submit(bench_request("H", 6, 1, 30, Priority::High));
  e.submit(bench_request("C", 6, 1, 40, Priority::Critical));
  ASSERT_TRUE(eventually([&] { return queue_count(e.status(), "prove", false) == 3; }));
  be->open();
  for (const char* id : {"A", "N", "H", "C"}) ASSERT_EQ(e.await(id, 60s).result.state, JobState::Done) << id;
  EXPECT_EQ(be->order(), (std::vector<std::uint64_t>{10, 40, 30, 20, 21, 22}));
}

TEST(Engine, CancelQueuedAndRunning) {
  auto be = std::make_shared<TestBackend>(true);
  EngineConfig cfg = test_config(be, 1);
  cfg.pool_max_bytes = 0;  // every released buffer goes to the reclaimer: memory back to 0 afterwards
  Engine e(std::move(cfg));
  e.submit(bench_request("run", 6, 2, 10));
  ASSERT_TRUE(be->wait_entered(1));  // partition 0 in the backend; partition 1 synthesized behind it
  e.submit(bench_request("queued", 6, 3, 50));
  // Partition 1 of "run" in the prove queue and its synthesis worker done with it: a worker counts
  // its item as running until it takes the lock again after queueing it (CI flake: 2 running).
  ASSERT_TRUE(eventually([&] {
    const EngineStatus s = e.status();
    return queue_count(s, "prove", false) >= 1 && queue_count(s, "synthesis", true) == 0;
  }));

  CancelResult cq = e.cancel("queued");
  EXPECT_TRUE(cq.found);
  AwaitResult q = e.await("queued", 1s);
  ASSERT_EQ(q.status, AwaitStatus::Ready);
  EXPECT_EQ(q.result.state, JobState::Cancelled);
  EXPECT_TRUE(q.result.proofs.empty());

  CancelResult cr = e.cancel("run");
  EXPECT_TRUE(cr.found);
  EXPECT_EQ(cr.previous, JobState::Running);
  EXPECT_EQ(cr.stopping_running, 1u);  // the partition inside the backend
  EXPECT_EQ(cr.dropped_queued, 1u);    // partition 1 waiting in the prove queue
  AwaitResult r = e.await("run", 1s);
  ASSERT_EQ(r.status, AwaitStatus::Ready);
  EXPECT_EQ(r.result.state, JobState::Cancelled);
  EXPECT_EQ(r.result.error, "cancelled by request");
  EXPECT_EQ(queue_count(e.status(), "prove", true), 1u);  // still running until its stage ends

  be->open();
  ASSERT_TRUE(eventually([&] {
    const EngineStatus s = e.status();
    return queue_count(s, "prove", true) == 0 && s.memory.used_bytes == 0 && s.memory.reserved_bytes == 0;
  }));
  EXPECT_EQ(e.cancel("run").previous, JobState::Cancelled);  // final: nothing changes
  EXPECT_FALSE(e.cancel("nope").found);
  // The engine keeps serving.
  AwaitResult after = e.prove(bench_request("after", 6, 1, 77), 60s);
  EXPECT_EQ(after.result.state, JobState::Done) << after.result.error;
  EXPECT_EQ(be->order(), (std::vector<std::uint64_t>{10, 77}));
  EXPECT_NE(e.metrics_text().find("proofline_engine_jobs_finished_total{state=\"cancelled\"} 2"), std::string::npos);
}

TEST(Engine, AwaitHonoursTimeout) {
  auto be = std::make_shared<TestBackend>(true);
  Engine e(test_config(be, 1));
  e.submit(bench_request("slow", 6, 1, 1));
  ASSERT_TRUE(be->wait_entered(1));
  const auto t0 = Clock::now();
  AwaitResult a = e.await("slow", 100ms);
  const double waited = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  EXPECT_EQ(a.status, AwaitStatus::TimedOut);
  EXPECT_EQ(a.result.state, JobState::Running);
  EXPECT_EQ(a.result.num_partitions, 1u);
  EXPECT_GE(waited, 95);
  EXPECT_LT(waited, 5000);
  EXPECT_EQ(e.await("missing", 10ms).status, AwaitStatus::NotFound);
  be->open();
  AwaitResult b = e.await("slow", 60s);
  EXPECT_EQ(b.status, AwaitStatus::Ready);
  EXPECT_EQ(b.result.state, JobState::Done);
}

TEST(Engine, DuplicateRequestIdsAreIdempotent) {
  auto be = std::make_shared<TestBackend>(true);
  Engine e(test_config(be, 1));
  SubmitResult s1 = e.submit(bench_request("same", 6, 1, 1));
  SubmitResult s2 = e.submit(bench_request("same", 6, 1, 2));
  EXPECT_FALSE(s1.duplicate);
  EXPECT_TRUE(s2.duplicate);
  EXPECT_EQ(s2.request_id, "same");
  be->open();
  AwaitResult a = e.await("same", 60s);
  ASSERT_EQ(a.result.state, JobState::Done);
  SubmitResult s3 = e.submit(bench_request("same", 6, 1, 3));
  EXPECT_TRUE(s3.duplicate);
  EXPECT_EQ(s3.state, JobState::Done);
  EXPECT_EQ(be->order(), (std::vector<std::uint64_t>{1}));  // proved once, with the first request
  EXPECT_EQ(e.status().jobs_done, 1u);
  EXPECT_NE(e.metrics_text().find("proofline_engine_jobs_duplicate_total 2"), std::string::npos);
}

// Request ids are bounded (128 bytes) and printable ASCII in the engine itself, so no caller (the
// daemon, submit --local, a program) can make it keep an id of any length: refused before anything
// is queued, with the length or the byte named and the id not repeated. Spaces are printable: the one
// rule of every API (Curio's ids have spaces and brackets; new-user session 4, finding 3).
TEST(Engine, RequestIdsAreBoundedAndPrintable) {
  auto be = std::make_shared<TestBackend>(true);
  Engine e(test_config(be, 1));
  for (const auto& [id, want] : std::vector<std::pair<std::string, std::string>>{
           {std::string(129, 'a'), "request_id: 129 bytes, at most 128 allowed"},
           {std::string(1 << 20, 'a'), "request_id: 1048576 bytes, at most 128 allowed"},
           {"ab\ncd", "request_id: byte 2 (0x0a) is not printable ASCII"},
           {"ab\x7f", "request_id: byte 2 (0x7f) is not printable ASCII"},
           {"caf\xc3\xa9", "request_id: byte 3 (0xc3) is not printable ASCII"}}) {
    try {
      e.submit(bench_request(id, 6, 1, 1));
      ADD_FAILURE() << "accepted an id of " << id.size() << " bytes";
    } catch (const std::invalid_argument& ex) {
      EXPECT_NE(std::string(ex.what()).find(want), std::string::npos) << ex.what();
      EXPECT_LT(std::string(ex.what()).size(), 200u) << "the id is repeated";
    }
  }
  EXPECT_NO_THROW(check_request_id("wdpost-1000-0-[12 34 56]"));
  EXPECT_EQ(e.status().jobs_queued, 0u);
  const std::string longest(kMaxRequestIdBytes, '~');
  EXPECT_EQ(e.submit(bench_request(longest, 6, 1, 1)).request_id, longest);
  be->open();
  EXPECT_EQ(e.await(longest, 60s).result.state, JobState::Done);
}

// A generated id never names a job a client called "job-N" itself (a tester got another request's
// proof back: the generated id matched the client's and the new request was taken for a duplicate).
TEST(Engine, GeneratedIdsSkipClientChosenOnes) {
  auto be = std::make_shared<TestBackend>(true);
  Engine e(test_config(be, 1));
  // The next generated ids would be job-1 (seq 1 is taken by this submit) and job-2.
  SubmitResult c = e.submit(bench_request("job-1", 6, 1, 1));
  SubmitResult c2 = e.submit(bench_request("job-2", 6, 1, 2));
  SubmitResult g = e.submit(bench_request("", 6, 1, 3));
  EXPECT_FALSE(c.duplicate);
  EXPECT_FALSE(c2.duplicate);
  EXPECT_FALSE(g.duplicate) << g.request_id;
  EXPECT_NE(g.request_id, "job-1");
  EXPECT_NE(g.request_id, "job-2");
  EXPECT_EQ(g.request_id.rfind("job-", 0), 0u);
  be->open();
  ASSERT_EQ(e.await(g.request_id, 60s).result.state, JobState::Done);
  ASSERT_EQ(e.await("job-2", 60s).result.state, JobState::Done);
  std::vector<std::uint64_t> order = be->order();
  std::sort(order.begin(), order.end());
  EXPECT_EQ(order, (std::vector<std::uint64_t>{1, 2, 3}));  // all three proved, each with its own input
  EXPECT_NE(e.metrics_text().find("proofline_engine_jobs_duplicate_total 0"), std::string::npos);
}

TEST(Engine, BudgetAdmitsOnlyWhatFits) {
  auto be = std::make_shared<TestBackend>(true);
  EngineConfig cfg = test_config(be, 2);
  groth16::Parameters p6 = groth16::Parameters::read_file(bench_params(6));
  const std::uint64_t part = partition_buffer_bytes(p6);
  cfg.memory_budget_bytes = 2 * part + part / 2;  // two partitions, not three
  Engine e(std::move(cfg));
  e.submit(bench_request("J", 6, 4, 1));
  ASSERT_TRUE(be->wait_entered(1));
  // Partition 0 in the backend, partition 1 synthesized and queued; 2 and 3 wait for the budget.
  ASSERT_TRUE(eventually([&] { return queue_count(e.status(), "prove", false) == 1; }));
  std::this_thread::sleep_for(50ms);
  EngineStatus s = e.status();
  EXPECT_EQ(queue_count(s, "synthesis", false), 2u);
  EXPECT_EQ(queue_count(s, "synthesis", true), 0u);
  EXPECT_EQ(s.memory.reserved_bytes, 2 * part);
  EXPECT_LE(s.memory.used_bytes, s.memory.budget_bytes);
  be->open();
  AwaitResult a = e.await("J", 60s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_TRUE(verify_each(bench_vk(6), a.result));
  // The job is Done once its last proof is in; the prove worker hands that partition's reservation
  // back just after (CI once read 8,184 bytes still reserved here).
  EXPECT_TRUE(eventually([&] { return e.status().memory.reserved_bytes == 0; }))
      << e.status().memory.reserved_bytes << " bytes still reserved";

  // A partition larger than the whole budget fails its job with a clear message.
  AwaitResult big = e.prove(bench_request("big", 10, 1, 1), 60s);
  EXPECT_EQ(big.result.state, JobState::Failed);
  EXPECT_NE(big.result.error.find("memory budget"), std::string::npos) << big.result.error;
}

// A budget full of pooled buffers admits the next partition into one of them: before, the head
// partition that did not fit made the engine hand every pooled buffer to the reclaimer and fault a
// fresh one in (11.3 s instead of 3.15 s for a 32 GiB partition). With room for two partitions and
// eight to prove, only two buffers are ever allocated, the same two addresses reach the backend,
// and nothing is freed until the engine ends.
TEST(Engine, PoolKeepsBuffersWarmWithinAFullBudget) {
  auto be = std::make_shared<TestBackend>();
  EngineConfig cfg = test_config(be, 1);
  const std::uint64_t part = partition_buffer_bytes(groth16::Parameters::read_file(bench_params(6)));
  cfg.memory_budget_bytes = 2 * part + part / 2;
  Engine e(std::move(cfg));
  AwaitResult a = e.prove(bench_request("warm", 6, 8, 1), 60s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_TRUE(verify_each(bench_vk(6), a.result));
  const EngineStatus s = e.status();
  EXPECT_LE(s.memory.pool_misses, 2u);
  EXPECT_EQ(s.memory.pool_hits + s.memory.pool_misses, 8u);
  EXPECT_EQ(s.memory.freed_bytes_total, 0u);
  EXPECT_EQ(s.memory.critical_path_frees, 0u);
  EXPECT_LE(s.memory.used_bytes, s.memory.budget_bytes);
  std::vector<const void*> addrs = be->a_addresses();
  ASSERT_EQ(addrs.size(), 8u);
  std::sort(addrs.begin(), addrs.end());
  EXPECT_LE(std::unique(addrs.begin(), addrs.end()) - addrs.begin(), 2);
}

// No budget given: derived from the machine, and it follows the SRS cache: loading a parameter
// set lowers it by exactly that set's host bytes (the machine figures are those of the start);
// evicting it gives them back. Status says so.
TEST(Engine, DerivedBudgetFollowsTheSrs) {
  EngineConfig cfg = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}));
  cfg.memory_budget_bytes = 0;
  Engine e(std::move(cfg));
  const EngineStatus s0 = e.status();
  EXPECT_EQ(s0.memory.budget_source, "derived");
  // (" − compiled circuits X" follows when an earlier test of this process left one held: the
  // engine counts those from its start, CI's TSan run of the whole binary on a1dba9e+)
  EXPECT_NE(s0.memory.budget_derivation.find(" − SRS 0.0 MiB − "), std::string::npos)
      << s0.memory.budget_derivation;
  const SrsStatus srs = e.preload_srs("bench", {{"params", bench_params(8)}});
  ASSERT_GT(srs.bytes, 0u);
  const EngineStatus s1 = e.status();
  if (s0.memory.budget_bytes > (std::uint64_t{1} << 30) + srs.bytes) {  // above the 1 GiB floor
    EXPECT_EQ(s1.memory.budget_bytes, s0.memory.budget_bytes - srs.bytes);
  }
  EXPECT_EQ(s1.memory.budget_derivation.find(" − SRS 0.0 MiB − "), std::string::npos)
      << s1.memory.budget_derivation;
  ASSERT_TRUE(e.evict_srs(srs.key));
  EXPECT_EQ(e.status().memory.budget_bytes, s0.memory.budget_bytes);
  EXPECT_EQ(e.status().memory.budget_derivation, s0.memory.budget_derivation);
}

// Nothing is freed on a prove worker while the reclaimer runs, even with no pooling at all; the
// baseline without the reclaimer frees every partition's buffers there (the counter sees them).
TEST(Engine, NoFreesOnTheProvePath) {
  for (const bool reclaimer : {true, false}) {
    EngineConfig cfg = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}), 2);
    cfg.pool_max_bytes = 0;
    cfg.reclaimer = reclaimer;
    Engine e(std::move(cfg));
    AwaitResult a = e.prove(bench_request("free", 6, 4, 1), 60s);
    ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
    // The job is Done once its last proof is in; the prove worker hands that partition's buffers
    // back just after (never inside the stage timer), so wait until nothing is charged any more.
    ASSERT_TRUE(eventually([&] {
      const MemoryStatus m = e.status().memory;
      return m.reclaim_pending_bytes == 0 && m.reserved_bytes == 0 && m.used_bytes == 0;
    }));
    const EngineStatus s = e.status();
    EXPECT_GT(s.memory.freed_bytes_total, 0u);
    EXPECT_EQ(s.memory.critical_path_frees, reclaimer ? 0u : 4u) << "reclaimer " << reclaimer;
  }
}

// The three timers nest: kernel (inside the backend) ≤ prover call (the engine around it) ≤ stage
// (the pipeline), per partition, and the job's timings are their sums. How little the stage adds to
// the call is a wall-clock ratio, which a loaded 2-core box can break (CI failed once at 6.7 % of a
// 63 ms stage): the benchmarks report it (bench/porep.sh, stage vs prover call on the H200), and
// Engine.NoFreesOnTheProvePath checks the cause it guards against (frees on the prove path).
TEST(Engine, TimersAgree) {
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}), 2));
  AwaitResult a = e.prove(bench_request("timers", 8, 4, 1), 60s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  double call = 0, stage = 0;
  for (const PartitionTimings& p : a.result.partitions) {
    EXPECT_LE(p.kernel, p.prover_call);
    EXPECT_LE(p.prover_call, p.stage);
    EXPECT_EQ(p.h2d, 0);  // the CPU copies nothing
    call += p.prover_call;
    stage += p.stage;
  }
  EXPECT_DOUBLE_EQ(a.result.timings.prover_call, call);
  EXPECT_DOUBLE_EQ(a.result.timings.stage, stage);
}

TEST(Engine, SynthesisOverlapsProving) {
  // Artificial delays (sleeps, so a loaded 2-core box or a sanitizer build does not matter: the
  // circuit is the 1-constraint mul, whose real work is ~1 ms): synthesis 120 ms and proving 120 ms
  // per partition, 6 partitions. Sequential ≈ 6·240 ms; pipelined ≈ 7·120 ms.
  auto run = [&](bool overlap) {
    auto be = std::make_shared<TestBackend>(false, 120ms);
    EngineConfig cfg = test_config(be, 1);
    cfg.overlap = overlap;
    Engine e(std::move(cfg));
    e.preload_srs("mul", {{"params", mul_params()}});
    ProofRequest r;
    r.request_id = "o";
    r.kind = "slow-bench";
    r.args = {{"inner", "mul"}, {"params", mul_params()}, {"partitions", "6"}, {"synth_ms", "120"}};
    const auto t0 = Clock::now();
    AwaitResult a = e.prove(r, 60s);
    const double wall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    EXPECT_EQ(a.result.state, JobState::Done) << a.result.error;
    const double sum = a.result.timings.synthesis + a.result.timings.prover_call;
    return std::make_pair(wall, sum);
  };
  const auto [wall_on, sum_on] = run(true);
  const auto [wall_off, sum_off] = run(false);
  EXPECT_GT(sum_on, 6 * 240 * 0.95);
  EXPECT_LT(wall_on, 0.8 * sum_on) << "wall " << wall_on << " ms, synthesis + prove " << sum_on << " ms";
  EXPECT_GT(wall_off, 0.95 * sum_off) << "no-overlap baseline: wall " << wall_off << " ms, sum " << sum_off;
}

TEST(Engine, BadRequestsFailOnlyThatJob) {
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
  auto fail_msg = [&](ProofRequest r) {
    AwaitResult a = e.prove(std::move(r), 60s);
    EXPECT_EQ(a.result.state, JobState::Failed);
    EXPECT_EQ(a.result.failure, Failure::BadInput) << a.result.error;  // the request's fault, not ours
    return a.result.error;
  };
  ProofRequest unknown;
  unknown.kind = "porep-c2-64g";
  std::string m = fail_msg(unknown);
  EXPECT_NE(m.find("unknown proof kind 'porep-c2-64g'"), std::string::npos) << m;
  EXPECT_NE(m.find("bench"), std::string::npos) << m;  // names the known kinds

  ProofRequest missing = bench_request("", 6, 1, 1);
  missing.args["params"] = (test_dir() / "does-not-exist.params").string();
  m = fail_msg(missing);
  EXPECT_NE(m.find("not found"), std::string::npos) << m;
  EXPECT_NE(m.find("does-not-exist.params"), std::string::npos) << m;

  ProofRequest wrong = bench_request("", 6, 1, 1);
  wrong.args["size"] = "2^7";
  m = fail_msg(wrong);
  EXPECT_NE(m.find("does not match"), std::string::npos) << m;

  ProofRequest noarg = bench_request("", 6, 1, 1);
  noarg.args.erase("size");
  m = fail_msg(noarg);
  EXPECT_NE(m.find("needs the argument 'size'"), std::string::npos) << m;

  ProofRequest badsize = bench_request("", 6, 1, 1);
  badsize.args["size"] = "1000";
  m = fail_msg(badsize);
  EXPECT_NE(m.find("power of two"), std::string::npos) << m;

  // A malformed parameter file (truncated).
  const std::string trunc = (test_dir() / "truncated.params").string();
  auto bytes = groth16::read_file_bytes(bench_params(6));
  bytes.resize(bytes.size() / 2);
  groth16::write_file_bytes(trunc, bytes);
  ProofRequest bad = bench_request("", 6, 1, 1);
  bad.args["params"] = trunc;
  m = fail_msg(bad);
  EXPECT_NE(m.find("truncated.params"), std::string::npos) << m;

  // snarkjs: witness of the wrong length for the zkey.
  const auto a = snarkjs_chain(20, 2, "chain20");
  const auto b = snarkjs_chain(30, 2, "chain30");
  ProofRequest sj;
  sj.kind = "snarkjs";
  sj.args = {{"zkey", a.zkey}, {"wtns", b.wtns}};
  m = fail_msg(sj);
  EXPECT_NE(m.find("witness has 33 values; the zkey '" + std::filesystem::weakly_canonical(a.zkey).string() +
                   "' has nVars = 23"),
            std::string::npos)
      << m;

  // The engine still serves good requests, and counted the failures.
  EXPECT_EQ(e.prove(bench_request("good", 6, 1, 1), 60s).result.state, JobState::Done);
  EXPECT_NE(e.metrics_text().find("proofline_engine_jobs_finished_total{state=\"failed\"} 7"), std::string::npos);
}

TEST(Engine, SelfCheckFailureIsReportedNeverReturned) {
  auto be = std::make_shared<TestBackend>(false);
  be->set_corrupt(true);
  Engine e(test_config(be, 1));
  AwaitResult a = e.prove(bench_request("bad", 6, 2, 1), 60s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_NE(a.result.error.find("self-check failed"), std::string::npos) << a.result.error;
  EXPECT_EQ(a.result.failure, Failure::SelfCheck);
  EXPECT_TRUE(a.result.proofs.empty());
  EXPECT_TRUE(a.result.proof_bytes.empty());
  EXPECT_NE(e.metrics_text().find("proofline_engine_self_check_failures_total 1"), std::string::npos);
  // A kind that left a check for a failed self-check (explain_failed_check: porep-c2's compiled form)
  // names the input's fault: a bad-input failure with its message, still no proof.
  ProofRequest r = bench_request("explained", 6, 2, 1);
  r.kind = "slow-bench";
  r.args["explain"] = "partition 0, constraint 7 unsatisfied";
  a = e.prove(r, 60s);
  EXPECT_EQ(a.result.state, JobState::Failed);
  EXPECT_EQ(a.result.failure, Failure::BadInput);
  EXPECT_EQ(a.result.error, "the proofs failed the self-check: malformed input: partition 0, constraint 7 unsatisfied");
  EXPECT_TRUE(a.result.proofs.empty());
  EXPECT_TRUE(a.result.proof_bytes.empty());
  // a kind with nothing to say leaves the self-check failure as it was
  r.request_id = "unexplained";
  r.args.erase("explain");
  a = e.prove(r, 60s);
  EXPECT_EQ(a.result.failure, Failure::SelfCheck);
  EXPECT_EQ(a.result.error.rfind("self-check failed: ", 0), 0u) << a.result.error;
  EXPECT_NE(e.metrics_text().find("proofline_engine_self_check_failures_total 3"), std::string::npos);
}

// Preloading needs the parameter file only (a tester's daemon refused to start with
// engine.preload of a bench .params or a .zkey: "needs the argument 'size'" / "'wtns'").
TEST(Engine, PreloadNeedsOnlyTheParameterFile) {
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
  EXPECT_EQ(e.preload_srs("bench", {{"params", bench_params(6)}}).state, "loaded");
  const auto files = snarkjs_chain(20, 3, "preload-chain20");
  const SrsStatus s = e.preload_srs("snarkjs", {{"zkey", files.zkey}});
  EXPECT_EQ(s.state, "loaded");
  EXPECT_EQ(s.key.rfind("snarkjs:", 0), 0u) << s.key;
  // A proof with the preloaded zkey loads nothing again.
  ProofRequest r;
  r.kind = "snarkjs";
  r.args = {{"zkey", files.zkey}, {"wtns", files.wtns}};
  ASSERT_EQ(e.prove(r, 60s).result.state, JobState::Done);
  EXPECT_NE(e.metrics_text().find("proofline_engine_srs_loads_total 2"), std::string::npos);
}

// A parameter file replaced on disk is a new SRS (a tester got proofs for the old zkey after
// re-running the snarkjs setup to the same path): the key carries the file's size and mtime.
TEST(Engine, ReplacedParameterFileIsANewSrs) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "proofline-replaced-params";
  std::filesystem::create_directories(dir);
  const std::string p = (dir / "bench.params").string();
  std::filesystem::copy_file(bench_params(6), p, std::filesystem::copy_options::overwrite_existing);
  Engine e(test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1})));
  auto at_p = [&](const std::string& id, unsigned log) {
    ProofRequest r = bench_request(id, log, 1, 1);
    r.args["params"] = p;
    return r;
  };
  const SrsStatus a = e.preload_srs("bench", {{"params", p}});
  ASSERT_EQ(e.prove(at_p("before", 6), 60s).result.state, JobState::Done);
  std::filesystem::copy_file(bench_params(7), p, std::filesystem::copy_options::overwrite_existing);
  const SrsStatus b = e.preload_srs("bench", {{"params", p}});
  EXPECT_NE(a.key, b.key);
  EXPECT_EQ(b.key.rfind(std::filesystem::weakly_canonical(p).string() + "#", 0), 0u) << b.key;
  // The 2^7 file now: a 2^7 request proves with it, a 2^6 request is refused by its size check.
  EXPECT_EQ(e.prove(at_p("after7", 7), 60s).result.state, JobState::Done);
  EXPECT_EQ(e.prove(at_p("after6", 6), 60s).result.state, JobState::Failed);
  std::filesystem::remove_all(dir);
}

TEST(Engine, SrsPreloadEvictAndLru) {
  EngineConfig cfg = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}));
  const std::uint64_t b7 = parameters_bytes(groth16::Parameters::read_file(bench_params(7)));
  const std::uint64_t b6 = parameters_bytes(groth16::Parameters::read_file(bench_params(6)));
  ASSERT_LT(b6, b7);
  cfg.srs_budget_bytes = b7 + b6 / 2;  // room for the 2^7 set, not for both
  Engine e(std::move(cfg));
  SrsStatus s = e.preload_srs("bench", {{"params", bench_params(7)}, {"size", "2^7"}});
  EXPECT_EQ(s.state, "loaded");
  EXPECT_EQ(s.bytes, b7);
  EXPECT_EQ(s.users, 0u);
  EXPECT_EQ(s.key, std::filesystem::weakly_canonical(bench_params(7)).string() + file_version(bench_params(7)));
  EXPECT_TRUE(e.evict_srs(s.key));
  EXPECT_FALSE(e.evict_srs(s.key));  // already gone
  EXPECT_TRUE(e.status().srs.empty());

  ASSERT_EQ(e.prove(bench_request("p7", 7, 1, 1), 60s).result.state, JobState::Done);
  ASSERT_EQ(e.status().srs.size(), 1u);  // idle, within budget: stays
  // Loading the 2^6 set puts the cache over budget: the idle 2^7 set (least recently used) goes,
  // the 2^6 set (in use) stays.
  ASSERT_EQ(e.prove(bench_request("p6", 6, 1, 1), 60s).result.state, JobState::Done);
  // (the job's lease is dropped just after its result is published)
  ASSERT_TRUE(eventually([&] { return e.status().srs.size() == 1 && e.status().srs[0].users == 0; }));
  EXPECT_EQ(e.status().srs[0].key, std::filesystem::weakly_canonical(bench_params(6)).string() + file_version(bench_params(6)));
  EXPECT_EQ(e.status().memory.srs_bytes, b6);
  const std::string m = e.metrics_text();
  EXPECT_NE(m.find("proofline_engine_srs_loads_total 3"), std::string::npos) << m;
  EXPECT_NE(m.find("proofline_engine_srs_evictions_total 2"), std::string::npos) << m;
}

// SRS residency is part of the backend seam: a parameter set that leaves the engine's SRS cache is
// evicted from every backend (a GPU's device copy), by the engine itself — no hook to wire.
class ResidencyRecorder final : public groth16::ProverBackend {
 public:
  std::string_view name() const override { return "recorder"; }
  groth16::ProverResult prove(const groth16::Parameters& params, std::span<r1cs::ProvingBuffers> parts,
                              std::span<const groth16::Randomizers> rs, const std::atomic<bool>* cancel) override {
    return cpu_.prove(params, parts, rs, cancel);
  }
  void evict(const groth16::Parameters& params) override {
    std::lock_guard lk(mu_);
    evicted_.push_back(params.domain_size());
  }
  std::vector<std::size_t> evicted() const {
    std::lock_guard lk(mu_);
    return evicted_;
  }

 private:
  groth16::CpuBackend cpu_{groth16::CpuBackendConfig{1}};
  mutable std::mutex mu_;
  std::vector<std::size_t> evicted_;  ///< domain size of each evicted set, in order
};

TEST(Engine, SrsEvictionReachesEveryBackend) {
  auto a = std::make_shared<ResidencyRecorder>(), b = std::make_shared<ResidencyRecorder>();
  EngineConfig cfg = test_config(a);
  cfg.backends.push_back(b);
  std::atomic<int> hook{0};
  cfg.on_srs_evict = [&](const groth16::Parameters&) { ++hook; };
  Engine e(std::move(cfg));
  const SrsStatus s = e.preload_srs("bench", {{"params", bench_params(7)}});
  ASSERT_EQ(e.prove(bench_request("r6", 6, 1, 1), 60s).result.state, JobState::Done);
  EXPECT_TRUE(a->evicted().empty());  // unlimited SRS budget: nothing leaves on its own
  EXPECT_TRUE(e.evict_srs(s.key));
  EXPECT_EQ(a->evicted(), std::vector<std::size_t>{128});
  EXPECT_EQ(b->evicted(), std::vector<std::size_t>{128});
  EXPECT_EQ(hook.load(), 1);
  EXPECT_EQ(a->resident_bytes(), 0u);  // the default of a backend that keeps no copy
  EXPECT_EQ(a->preload(groth16::Parameters{}), 0.0);
}

TEST(Engine, ConcurrentClientsMixedPrioritiesAndCancels) {
  EngineConfig cfg = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}), 2);
  cfg.backends.push_back(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}));
  cfg.prover_workers_per_backend = 2;
  std::atomic<int> evicted{0};
  cfg.srs_budget_bytes = 1;  // every idle set is evicted at once (exercises reloads and the hook)
  cfg.on_srs_evict = [&](const groth16::Parameters&) { ++evicted; };
  Engine e(std::move(cfg));
  const groth16::VerifyingKey vk6 = bench_vk(6), vk7 = bench_vk(7);
  constexpr int kClients = 8, kJobs = 5;
  std::atomic<int> done{0}, cancelled{0}, bad{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      for (int j = 0; j < kJobs; ++j) {
        const unsigned log = (c + j) % 3 == 0 ? 7 : 6;
        const auto pri = static_cast<Priority>((c + j) % 4);
        const std::string id = "c" + std::to_string(c) + "-" + std::to_string(j);
        e.submit(bench_request(id, log, 1 + (j % 2), static_cast<std::uint64_t>(100 * c + 10 * j), pri));
        if (j == 2 && c % 2 == 0) e.cancel(id);
        AwaitResult a = e.await(id, 60s);
        if (a.status != AwaitStatus::Ready) {
          ++bad;
        } else if (a.result.state == JobState::Cancelled) {
          ++cancelled;
        } else if (a.result.state == JobState::Done && verify_each(log == 7 ? vk7 : vk6, a.result)) {
          ++done;
        } else {
          ++bad;
        }
      }
    });
  }
  for (auto& t : clients) t.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(done.load() + cancelled.load(), kClients * kJobs);
  EXPECT_GE(done.load(), kClients * kJobs - kClients / 2);
  // Nothing left running or reserved; only pooled (reusable) buffers stay charged.
  ASSERT_TRUE(eventually([&] {
    const EngineStatus s = e.status();
    return s.jobs_queued + s.jobs_running == 0 && s.memory.reserved_bytes == 0 &&
           s.memory.used_bytes == s.memory.pooled_bytes && s.memory.reclaim_pending_bytes == 0;
  }));
  EXPECT_GT(evicted.load(), 0);
}

}  // namespace
}  // namespace proofline::engine
