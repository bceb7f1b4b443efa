// The daemon over gRPC, in process, on a unix socket and on 127.0.0.1 (CPU backend, small circuits):
// concurrent mixed jobs verified, one proof checked by the outside noble verifier, CRITICAL
// overtaking queued NORMAL work, cancel of queued and running jobs, await timeouts, duplicate
// request ids, malformed requests, clients that go away, status/metrics/SRS RPCs, listen rules.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include "server/status_page.hpp"
#include "server_test_util.hpp"

namespace proofline::server {
namespace {

using namespace testing;
using grpc::StatusCode;

TEST(Daemon, ConcurrentMixedJobsOnUnixAndTcpAllVerify) {
  Harness h(2);
  const auto sj = engine::testing::snarkjs_chain(40, 5, "server-chain40");
  const groth16::VerifyingKey mul_vk = groth16::VerifyingKey::read_params_file_head(mul_params());
  for (unsigned log : {4u, 5u, 6u, 7u}) bench_vk(log);  // parameters written before the clients start

  struct Case {
    pb::ProofRequest req;
    unsigned partitions;
    const groth16::VerifyingKey* vk;
  };
  std::vector<Case> cases;
  const pb::Priority pris[] = {pb::PRIORITY_LOW, pb::PRIORITY_NORMAL, pb::PRIORITY_HIGH, pb::PRIORITY_CRITICAL};
  for (unsigned i = 0; i < 8; ++i) {
    const unsigned log = 4 + i % 4, parts = 1 + i % 3;
    cases.push_back({bench_req("mixed-" + std::to_string(i), log, parts, 10 + i, pris[i % 4]), parts, &bench_vk(log)});
  }
  pb::ProofRequest mul;
  mul.set_request_id("mixed-mul");
  mul.set_kind("mul");
  (*mul.mutable_args())["params"] = mul_params();
  (*mul.mutable_args())["partitions"] = "2";
  (*mul.mutable_args())["input"] = "4";
  cases.push_back({mul, 2, &mul_vk});
  pb::ProofRequest snark;
  snark.set_request_id("mixed-snarkjs");
  snark.set_kind("snarkjs");
  snark.set_priority(pb::PRIORITY_HIGH);
  (*snark.mutable_args())["zkey"] = sj.zkey;
  snark.set_payload(std::string(sj.wtns_bytes.begin(), sj.wtns_bytes.end()));
  cases.push_back({snark, 1, &sj.vk});

  std::vector<pb::ProofResult> results(cases.size());
  std::vector<grpc::Status> statuses(cases.size());
  std::vector<std::thread> clients;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    // Half the clients on the unix socket, half on TCP; half use Prove, half Submit + Await.
    clients.emplace_back([&, i] {
      auto& stub = h.stub(i % 2 == 1);
      if (i % 4 < 2) {
        results[i] = prove(stub, cases[i].req, &statuses[i]);
      } else {
        statuses[i] = submit(stub, cases[i].req);
        if (statuses[i].ok()) results[i] = await(stub, cases[i].req.request_id(), 0, &statuses[i]);
      }
    });
  }
  for (auto& t : clients) t.join();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    ASSERT_TRUE(statuses[i].ok()) << cases[i].req.request_id() << ": " << statuses[i].error_message();
    EXPECT_TRUE(verified(*cases[i].vk, results[i], cases[i].partitions));
    EXPECT_EQ(results[i].request_id(), cases[i].req.request_id());
    for (const auto& p : results[i].partitions()) {
      EXPECT_GT(p.synthesis_ms(), 0);
      EXPECT_GT(p.kernel_ms(), 0);
      EXPECT_GE(p.prover_ms(), p.kernel_ms() * 0.99);
      EXPECT_GE(p.stage_ms(), p.prover_ms());
      EXPECT_GE(p.total_ms(), p.stage_ms());
      EXPECT_EQ(p.backend(), "cpu");
    }
    EXPECT_GT(results[i].verify_ms(), 0);
  }
  // bench partition k proves SizedCircuit(2^log, seed + k): x = seed + k is public input 0.
  const auto in0 = public_inputs_of(results[2]);
  ASSERT_EQ(in0.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(in0[k].at(0), ff::Fr::from_u64(12 + k));
  const pb::StatusResponse st = h.status();
  EXPECT_EQ(st.jobs_completed(), cases.size());
  EXPECT_EQ(st.jobs_failed() + st.jobs_cancelled() + st.jobs_queued() + st.jobs_running(), 0u);
  ASSERT_EQ(st.listen_size(), 2);
  EXPECT_EQ(st.listen(0).rfind("unix:", 0), 0u);
  EXPECT_EQ(st.listen(1).rfind("127.0.0.1:", 0), 0u);
}

// The outside verifier: a daemon proof exported as snarkjs JSON is accepted by noble_verify.mjs
// (@noble/curves, ../shared/tools) and rejected with a tampered public input.
TEST(Daemon, NobleVerifierAcceptsADaemonProof) {
  const std::string repo = PROOFLINE_SOURCE_DIR;
  const char* odir = std::getenv("PROOFLINE_ORACLE_DIR");
  const std::string oracle = odir ? odir : repo + "/.oracle";
  std::string node = "node";
#ifdef PROOFLINE_NODE
  node = PROOFLINE_NODE;
#endif
  std::string noble;
  for (const std::string& c : {oracle + "/noble_verify.mjs", repo + "/tests/oracle/npm/noble_verify.mjs"}) {
    if (std::filesystem::exists(c)) {
      noble = c;
      break;
    }
  }
  ASSERT_FALSE(noble.empty()) << "noble_verify.mjs not found: run scripts/install-deps.sh";
  ASSERT_TRUE(std::filesystem::exists(oracle + "/node_modules/@noble/curves"))
      << "@noble/curves not installed in " << oracle << ": run scripts/install-deps.sh";

  Harness h(1);
  const pb::ProofResult r = prove(h.stub(true), bench_req("noble", 5, 1, 77));
  ASSERT_TRUE(verified(bench_vk(5), r, 1));
  const auto dir = server_dir() / "noble";
  std::filesystem::create_directories(dir);
  const auto inputs = public_inputs_of(r);
  groth16::write_snarkjs_files((dir / "vk.json").string(), (dir / "proof.json").string(), (dir / "public.json").string(),
                               bench_vk(5), proofs_of(r).at(0), inputs.at(0));
  auto run = [&](const std::string& pub) {
    const std::string cmd = "cd '" + oracle + "' && '" + node + "' '" + noble + "' '" + (dir / "vk.json").string() +
                            "' '" + pub + "' '" + (dir / "proof.json").string() + "' > '" +
                            (dir / "out.txt").string() + "' 2>&1";
    return std::system(cmd.c_str());
  };
  EXPECT_EQ(run((dir / "public.json").string()), 0) << "noble rejected a daemon proof";
  std::vector<ff::Fr> bad = inputs.at(0);
  bad.at(0) += ff::Fr::one();
  std::ofstream((dir / "bad.json").string()) << groth16::snarkjs_public_json(bad);
  EXPECT_NE(run((dir / "bad.json").string()), 0) << "noble accepted a tampered public input";
}

TEST(Daemon, CriticalOvertakesQueuedNormalWork) {
  auto gate = std::make_shared<engine::testing::TestBackend>(/*gate_closed=*/true);
  Harness h(1, {gate});
  auto& s = h.stub();
  ASSERT_TRUE(submit(s, bench_req("blocker", 4, 1, 100)).ok());
  ASSERT_TRUE(gate->wait_entered(1));  // the prover holds the blocker; everything else queues
  for (std::uint64_t x : {200, 300, 400}) ASSERT_TRUE(submit(s, bench_req("n" + std::to_string(x), 4, 1, x)).ok());
  ASSERT_TRUE(submit(s, bench_req("critical", 4, 1, 500, pb::PRIORITY_CRITICAL)).ok());
  // True counts: the blocker running in the prove stage; the CRITICAL job and the first NORMAL one
  // synthesized and waiting for the prover; the other two NORMAL ones not synthesized yet
  // (latency-first scheduling: one partition in flight per prover worker and class keeps the prover
  // fed; engine.hpp "Scheduling").
  pb::StatusResponse st;
  ASSERT_TRUE(eventually([&] {
    st = h.status();
    return stage_count(st, "prove", false) == 2 && stage_count(st, "synthesis", false) == 2;
  })) << st.DebugString();
  const pb::QueueStats* prove_q = nullptr;
  for (const auto& q : st.queues()) {
    if (q.stage() == "prove") prove_q = &q;
  }
  ASSERT_NE(prove_q, nullptr);
  EXPECT_EQ(prove_q->running(), 1u);
  EXPECT_EQ(prove_q->pending_by_priority().at("critical"), 1u);
  EXPECT_EQ(prove_q->pending_by_priority().at("normal"), 1u);
  EXPECT_EQ(st.jobs_running() + st.jobs_queued(), 5u);
  EXPECT_EQ(st.devices(0).busy_workers(), 1u);
  gate->open();
  for (const char* id : {"blocker", "n200", "n300", "n400", "critical"}) {
    EXPECT_TRUE(verified(bench_vk(4), await(s, id), 1)) << id;
  }
  EXPECT_EQ(gate->order(), (std::vector<std::uint64_t>{100, 500, 200, 300, 400}));
}

TEST(Daemon, CancelQueuedAndRunningJobs) {
  Harness h(1);
  auto& s = h.stub();
  // One synthesis worker, busy for 1.5 s with "running"; "queued" waits behind it.
  ASSERT_TRUE(submit(s, slow_req("running", 4, 1, 1, 1500)).ok());
  ASSERT_TRUE(eventually([&] { return h.status().jobs_running() == 1; }));
  ASSERT_TRUE(submit(s, bench_req("queued", 4, 1, 2)).ok());

  const pb::CancelProofResponse r1 = cancel(s, "queued");
  EXPECT_TRUE(r1.found());
  EXPECT_TRUE(r1.was_queued());
  EXPECT_FALSE(r1.was_running());
  EXPECT_EQ(r1.previous(), pb::PROOF_STATUS_QUEUED);

  const auto t0 = Clock::now();
  const pb::CancelProofResponse r2 = cancel(s, "running");
  EXPECT_TRUE(r2.found());
  EXPECT_TRUE(r2.was_running());
  EXPECT_EQ(r2.previous(), pb::PROOF_STATUS_RUNNING);
  EXPECT_EQ(r2.stopping_running(), 1u);
  // Both are CANCELLED at once (the running one's synthesis stops at its next cancellation poll).
  EXPECT_EQ(await(s, "queued").status(), pb::PROOF_STATUS_CANCELLED);
  EXPECT_EQ(await(s, "running").status(), pb::PROOF_STATUS_CANCELLED);
  EXPECT_LT(Clock::now() - t0, 1000ms);
  // Cancelling again: found, nothing changes; an unknown id: found = false.
  const pb::CancelProofResponse r3 = cancel(s, "running");
  EXPECT_TRUE(r3.found());
  EXPECT_EQ(r3.previous(), pb::PROOF_STATUS_CANCELLED);
  EXPECT_FALSE(cancel(s, "never-submitted").found());
  // The running partition stops at its boundary; its buffers are released.
  pb::StatusResponse st;
  EXPECT_TRUE(eventually([&] {
    st = h.status();
    return st.jobs_running() == 0 && stage_count(st, "synthesis", true) == 0 && st.memory().reserved_bytes() == 0;
  })) << st.DebugString();
  EXPECT_EQ(st.jobs_cancelled(), 2u);
  // The daemon goes on serving.
  EXPECT_TRUE(verified(bench_vk(4), prove(s, bench_req("after-cancel", 4, 1, 3)), 1));
}

TEST(Daemon, AwaitHonoursItsTimeout) {
  Harness h(1);
  auto& s = h.stub(true);
  ASSERT_TRUE(submit(s, slow_req("slow", 4, 1, 1, 1200)).ok());
  auto t0 = Clock::now();
  pb::ProofResult r = await(s, "slow", 150);
  const auto waited = Clock::now() - t0;
  EXPECT_EQ(r.status(), pb::PROOF_STATUS_TIMEOUT);
  EXPECT_EQ(r.request_id(), "slow");
  EXPECT_GE(waited, 140ms);
  EXPECT_LT(waited, 900ms);
  // The job went on; waiting without a limit gets the proof.
  EXPECT_TRUE(verified(bench_vk(4), await(s, "slow"), 1));
  // An expired timeout on a finished job returns the result at once.
  EXPECT_EQ(await(s, "slow", 1).status(), pb::PROOF_STATUS_COMPLETED);

  // Prove with a timeout: TIMEOUT, and the job it created is cancelled.
  grpc::ClientContext ctx;
  pb::ProveRequest pr;
  *pr.mutable_request() = slow_req("prove-timeout", 4, 1, 2, 1200);
  pr.set_timeout_ms(100);
  pb::ProofResult out;
  t0 = Clock::now();
  ASSERT_TRUE(s.Prove(&ctx, pr, &out).ok());
  EXPECT_EQ(out.status(), pb::PROOF_STATUS_TIMEOUT);
  EXPECT_LT(Clock::now() - t0, 900ms);
  EXPECT_EQ(await(s, "prove-timeout").status(), pb::PROOF_STATUS_CANCELLED);
}

// An id the engine holds for a job of the other API (cuzk.v1's engine ids are "cuzk-<n>-<id>"): a
// proofline.v1 request under it is ALREADY_EXISTS, never answered with that job (a new user got a
// cuzk job's WinningPoSt proof back for a PoRep this way, and the reverse).
TEST(Daemon, AnIdHeldByAnotherApisJobIsNotJoined) {
  Harness h(1);
  engine::ProofRequest other = engine::testing::bench_request("cuzk-1-porep-0-1", 4, 1, 3);
  ASSERT_FALSE(h.daemon->engine().submit(other).duplicate);
  const pb::ProofRequest req = slow_req("cuzk-1-porep-0-1", 4, 1, 9, 50);
  const grpc::Status st = submit(h.stub(), req);
  EXPECT_EQ(st.error_code(), StatusCode::ALREADY_EXISTS) << st.error_message();
  EXPECT_NE(st.error_message().find("submitted through another API (cuzk.v1)"), std::string::npos)
      << st.error_message();
}

TEST(Daemon, DuplicateRequestIds) {
  Harness h(1);
  auto& s = h.stub();
  const pb::ProofRequest req = slow_req("dup", 4, 2, 9, 200);
  pb::SubmitProofResponse a, b;
  ASSERT_TRUE(submit(s, req, &a).ok());
  ASSERT_TRUE(submit(h.stub(true), req, &b).ok());  // same id, same contents, other transport
  EXPECT_FALSE(a.duplicate());
  EXPECT_TRUE(b.duplicate());
  EXPECT_EQ(b.request_id(), "dup");
  // The same id with other contents is refused, naming the id.
  pb::ProofRequest other = req;
  (*other.mutable_args())["input"] = "10";
  grpc::Status st = submit(s, other);
  EXPECT_EQ(st.error_code(), StatusCode::ALREADY_EXISTS);
  EXPECT_NE(st.error_message().find("'dup'"), std::string::npos) << st.error_message();
  const pb::ProofResult first = await(s, "dup");
  EXPECT_TRUE(verified(bench_vk(4), first, 2));
  // After it finished: a retry (Submit or Prove) returns the same job and the same proof bytes.
  ASSERT_TRUE(submit(s, req, &b).ok());
  EXPECT_TRUE(b.duplicate());
  EXPECT_EQ(b.status(), pb::PROOF_STATUS_COMPLETED);
  const pb::ProofResult again = prove(s, req);
  EXPECT_EQ(again.proof(), first.proof());
  const pb::StatusResponse stat = h.status();
  EXPECT_EQ(stat.jobs_completed(), 1u);
  EXPECT_NE(h.metrics().find("proofline_engine_jobs_submitted_total 1\n"), std::string::npos);
  // The three retries (Submit on the other transport, Submit after the end, Prove) are counted as
  // duplicates, once each; the refused different-contents submit is not.
  EXPECT_NE(h.metrics().find("proofline_engine_jobs_duplicate_total 3\n"), std::string::npos) << h.metrics();
  // Without a request id the daemon assigns distinct ones.
  pb::ProofRequest anon = bench_req("", 4, 1, 5);
  pb::SubmitProofResponse x, y;
  ASSERT_TRUE(submit(s, anon, &x).ok());
  ASSERT_TRUE(submit(s, anon, &y).ok());
  EXPECT_FALSE(x.request_id().empty());
  EXPECT_NE(x.request_id(), y.request_id());
  EXPECT_EQ(await(s, x.request_id()).status(), pb::PROOF_STATUS_COMPLETED);
  EXPECT_EQ(await(s, y.request_id()).status(), pb::PROOF_STATUS_COMPLETED);
}

TEST(Daemon, QueueLimitRefusesNewJobsButNotRetries) {
  DaemonConfig cfg;
  cfg.max_queued_jobs = 1;
  Harness h(1, {}, cfg);
  auto& s = h.stub();
  const pb::ProofRequest first = slow_req("first", 4, 1, 1, 300);
  ASSERT_TRUE(submit(s, first).ok());
  const grpc::Status st = submit(s, bench_req("second", 4, 1, 2));
  EXPECT_EQ(st.error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("server.max_queued_jobs"), std::string::npos) << st.error_message();
  pb::SubmitProofResponse retry;
  ASSERT_TRUE(submit(s, first, &retry).ok());  // a retry of a known job is not a new job
  EXPECT_TRUE(retry.duplicate());
  EXPECT_TRUE(verified(bench_vk(4), await(s, "first"), 1));
  EXPECT_TRUE(verified(bench_vk(4), prove(s, bench_req("second", 4, 1, 2)), 1));  // room again
}

// paths.allowed: a file or folder a client names must lie inside the allowed folders, symlinks
// resolved, else PERMISSION_DENIED before the path is looked at — the same answer for a file that
// exists and one that does not, and nothing of its bytes (zkey=/etc/passwd once answered 'magic
// "root"'). Inside, requests work as before; a symlink inside pointing outside is outside.
TEST(Daemon, ClientsNameOnlyPathsInsideTheAllowedFolders) {
  const std::filesystem::path allowed = server_dir() / "allowed";
  std::filesystem::create_directories(allowed);
  const std::string params = (allowed / "b4.params").string();
  std::filesystem::copy_file(bench_params(4), params, std::filesystem::copy_options::overwrite_existing);
  const std::filesystem::path link = allowed / "passwd-link";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/etc/passwd", link);
  DaemonConfig cfg;
  cfg.allowed_paths = {allowed.string()};
  Harness h(1, {}, cfg);
  auto& s = h.stub();
  pb::ProofRequest ok = bench_req("inside", 4, 1, 1);
  (*ok.mutable_args())["params"] = params;
  EXPECT_TRUE(verified(bench_vk(4), prove(s, ok), 1));
  for (const std::string& path : std::vector<std::string>{"/etc/passwd", "/etc/no-such-file", link.string(),
                                                         (allowed / ".." / "allowed-not" / "x").string(),
                                                         bench_params(4)}) {
    for (const char* kind : {"bench", "snarkjs"}) {
      pb::ProofRequest bad = bench_req(std::string("outside-") + kind, 4, 1, 2);
      if (std::string(kind) == "snarkjs") {
        bad.set_kind("snarkjs");
        bad.mutable_args()->clear();
        (*bad.mutable_args())["zkey"] = path;
        (*bad.mutable_args())["wtns"] = params;
      } else {
        (*bad.mutable_args())["params"] = path;
      }
      const grpc::Status st = submit(s, bad);
      EXPECT_EQ(st.error_code(), StatusCode::PERMISSION_DENIED) << path << ": " << st.error_message();
      const std::string arg = std::string(kind) == "snarkjs" ? "zkey" : "params";
      EXPECT_EQ(st.error_message(), "request.args['" + arg + "']: '" + path +
                                        "' is outside the folders this daemon lets clients name (" +
                                        std::filesystem::weakly_canonical(allowed).string() +
                                        "; config paths.allowed); send the file's bytes as the payload where the kind "
                                        "takes them, or have the operator add its folder")
          << path;
    }
  }
  EXPECT_EQ(h.status().jobs_failed(), 0u);  // nothing was queued
  std::filesystem::remove(link);
}

// A queue full of other work never refuses a CRITICAL job (a WinningPoSt's deadline is seconds away):
// CRITICAL jobs count only CRITICAL jobs against server.max_queued_jobs. (Before: refused.)
TEST(Daemon, ACriticalJobIsNotRefusedForAQueueFullOfOtherWork) {
  DaemonConfig cfg;
  cfg.max_queued_jobs = 2;
  auto backend = std::make_shared<engine::testing::TestBackend>(/*gate_closed=*/true);
  Harness h(1, {backend}, cfg);
  struct OpenAtEnd {
    engine::testing::TestBackend& b;
    ~OpenAtEnd() { b.open(); }
  } open_at_end{*backend};
  auto& s = h.stub();
  ASSERT_TRUE(submit(s, bench_req("low-1", 4, 1, 1, pb::PRIORITY_LOW)).ok());
  ASSERT_TRUE(submit(s, bench_req("low-2", 4, 1, 2, pb::PRIORITY_LOW)).ok());
  grpc::Status st = submit(s, bench_req("low-3", 4, 1, 3, pb::PRIORITY_LOW));
  EXPECT_EQ(st.error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("2 jobs queued or running, the limit is 2 (server.max_queued_jobs)"),
            std::string::npos)
      << st.error_message();
  st = submit(s, bench_req("critical-1", 4, 1, 4, pb::PRIORITY_CRITICAL));
  EXPECT_TRUE(st.ok()) << st.error_message();
  st = submit(s, bench_req("critical-2", 4, 1, 5, pb::PRIORITY_CRITICAL));
  EXPECT_TRUE(st.ok()) << st.error_message();
  st = submit(s, bench_req("critical-3", 4, 1, 6, pb::PRIORITY_CRITICAL));
  EXPECT_EQ(st.error_code(), StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(st.error_message().find("2 CRITICAL jobs queued or running, the limit is 2"), std::string::npos)
      << st.error_message();
  backend->open();
  for (const char* id : {"low-1", "low-2", "critical-1", "critical-2"}) EXPECT_TRUE(verified(bench_vk(4), await(s, id), 1)) << id;
}

TEST(Daemon, MalformedRequestsGetClearErrorsAndTheDaemonKeepsServing) {
  Harness h(1);
  auto& s = h.stub();
  const std::string p4 = bench_params(4);
  struct Bad {
    std::string name;
    pb::ProofRequest req;
    std::string expect;  // substring of the message
  };
  std::vector<Bad> bad;
  auto base = [&] { return bench_req("", 4, 1, 1); };
  {
    pb::ProofRequest r = base();
    r.clear_kind();
    bad.push_back({"no kind", r, "request.kind: missing"});
  }
  {
    pb::ProofRequest r = base();
    r.set_kind("porep-c2-64g");
    bad.push_back({"unknown kind", r,
                   "'porep-c2-64g' is not a kind this daemon proves (known: bench, mul, overrun, porep-c2, slow-bench, "
                   "snap-update, snarkjs, window-post, winning-post)"});
  }
  {
    pb::ProofRequest r = base();
    r.mutable_args()->erase("params");
    bad.push_back({"no params", r, "kind 'bench' needs the argument 'params'"});
  }
  {
    pb::ProofRequest r = base();
    (*r.mutable_args())["partitons"] = "2";  // issue 21: a misspelt argument is refused, not ignored
    bad.push_back({"unknown argument", r,
                   "kind 'bench' has no argument 'partitons' (its arguments: params, size, partitions, input, checked, "
                   "compiled)"});
  }
  {
    pb::ProofRequest r = base();
    r.mutable_args()->erase("size");
    bad.push_back({"no size", r, "kind 'bench' needs the argument 'size' (constraint rows; must match the parameter file)"});
  }
  {
    pb::ProofRequest r = base();
    (*r.mutable_args())["size"] = "2^3";
    bad.push_back({"size too small", r, "kind 'bench': argument 'size' = '2^3': expected 2^k or a power of two, k 4 … 27"});
  }
  {
    pb::ProofRequest r = base();
    (*r.mutable_args())["size"] = "2^40";
    bad.push_back({"size too large", r, "argument 'size' = '2^40'"});
  }
  {
    pb::ProofRequest r = base();
    (*r.mutable_args())["size"] = "1000";
    bad.push_back({"size not a power of two", r, "1000"});
  }
  {
    pb::ProofRequest r = base();
    (*r.mutable_args())["partitions"] = "many";
    bad.push_back({"partitions not a number", r, "argument 'partitions' = 'many': expected an integer 1 … 4096"});
  }
  {
    pb::ProofRequest r = base();
    (*r.mutable_args())["params"] = (server_dir() / "missing.params").string();
    bad.push_back({"missing params file", r, "request.args['params']: '" + (server_dir() / "missing.params").string() +
                                                 "': no such file on the daemon's machine"});
  }
  {
    pb::ProofRequest r = base();
    (*r.mutable_args())["params"] = server_dir().string();
    bad.push_back({"params is a folder", r, "is not a regular file"});
  }
  {
    pb::ProofRequest r;
    r.set_kind("snarkjs");
    (*r.mutable_args())["zkey"] = engine::testing::snarkjs_chain(10, 2, "server-chain10").zkey;
    bad.push_back({"snarkjs without witness", r, "kind 'snarkjs' needs the argument 'wtns'"});
  }
  {
    pb::ProofRequest r = base();
    r.set_request_id("has\ttab");  // a space is allowed (the one rule: Curio's ids have spaces)
    bad.push_back({"request id with a tab", r, "request.request_id: byte 3 (0x09)"});
  }
  {
    pb::ProofRequest r = base();
    r.set_request_id(std::string(200, 'x'));
    bad.push_back({"request id too long", r, "200 bytes, at most 128"});
  }
  {
    pb::ProofRequest r = base();
    r.set_priority(static_cast<pb::Priority>(9));
    bad.push_back({"priority out of range", r, "request.priority: 9"});
  }
  {
    pb::ProofRequest r = base();
    r.set_kind("porep-c2");
    r.clear_args();
    r.set_payload("{}");
    (*r.mutable_args())["prover_id"] = "0102";
    (*r.mutable_args())["sector_id"] = "1";
    bad.push_back({"prover id length", r, "kind 'porep-c2': argument 'prover_id' = '0102': expected 64 hex digits (32 bytes)"});
  }
  {
    pb::ProofRequest r = base();
    r.set_payload("bytes");
    bad.push_back({"a payload for a kind that takes none", r, "kind 'bench' takes no request payload (got 5 bytes)"});
  }
  {
    pb::ProofRequest r;
    r.set_kind("porep-c2");
    r.set_payload("{}");
    (*r.mutable_args())["sector_id"] = "7";
    bad.push_back({"sector_id without prover_id", r, "kind 'porep-c2': argument 'sector_id' needs 'prover_id' too"});
  }
  {
    pb::ProofRequest r;
    r.set_kind("porep-c2");
    r.set_payload("{}");
    (*r.mutable_args())["param_cache"] = (server_dir() / "no-such-cache").string();
    bad.push_back({"param_cache missing", r, "request.args['param_cache']: '" + (server_dir() / "no-such-cache").string() +
                                                 "': no such folder on the daemon's machine"});
  }
  {
    // The parameter set's file is a .vk (the key alone): named as such before anything loads it
    // (new-user session 4, finding 2), not "section h: truncated" once the job runs.
    const std::string vk_path = (server_dir() / "bench4.vk").string();
    bench_vk(4).write_file(vk_path);
    pb::ProofRequest r = base();
    (*r.mutable_args())["params"] = vk_path;
    bad.push_back({"a .vk as params", r, "kind 'bench': argument 'params' = '" + vk_path +
                                             "' is a verifying-key (.vk) file"});
  }
  for (const auto& b : bad) {
    grpc::Status st = submit(s, b.req);
    EXPECT_EQ(st.error_code(), StatusCode::INVALID_ARGUMENT) << b.name << ": " << st.error_message();
    EXPECT_NE(st.error_message().find(b.expect), std::string::npos) << b.name << ": " << st.error_message();
    EXPECT_EQ(st.error_message().find("': kind '"), std::string::npos) << b.name << ": kind named twice: " << st.error_message();
    grpc::Status pst;
    prove(h.stub(true), b.req, &pst);
    EXPECT_EQ(pst.error_code(), StatusCode::INVALID_ARGUMENT) << b.name << " (Prove over TCP)";
  }
  // An empty SubmitProof / Prove, await of unknown or empty ids.
  grpc::ClientContext c1;
  pb::SubmitProofResponse sr;
  EXPECT_EQ(s.SubmitProof(&c1, pb::SubmitProofRequest{}, &sr).error_code(), StatusCode::INVALID_ARGUMENT);
  grpc::Status ast;
  await(s, "nobody-submitted-this", 0, &ast);
  EXPECT_EQ(ast.error_code(), StatusCode::NOT_FOUND);
  EXPECT_NE(ast.error_message().find("'nobody-submitted-this'"), std::string::npos);
  await(s, "", 0, &ast);
  EXPECT_EQ(ast.error_code(), StatusCode::INVALID_ARGUMENT);
  // An id that breaks the request-id rule: refused with its length, not looked up and echoed
  // (new-user session 4, finding 3); CancelProof alike.
  await(s, std::string(5000, 'x'), 0, &ast);
  EXPECT_EQ(ast.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(ast.error_message().find("request_id: 5000 bytes, at most 128 allowed"), std::string::npos)
      << ast.error_message().substr(0, 200);
  EXPECT_LT(ast.error_message().size(), 200u);
  {
    grpc::ClientContext cc;
    pb::CancelProofRequest cr;
    cr.set_request_id(std::string(5000, 'x'));
    pb::CancelProofResponse cres;
    const grpc::Status cst = s.CancelProof(&cc, cr, &cres);
    EXPECT_EQ(cst.error_code(), StatusCode::INVALID_ARGUMENT);
    EXPECT_LT(cst.error_message().size(), 200u);
  }
  // Nothing of the above was queued.
  EXPECT_EQ(h.status().jobs_failed() + h.status().jobs_completed(), 0u);

  // Accepted, then FAILED once the parameters are read: a size that does not match the file, a
  // truncated parameter file.
  pb::ProofRequest mismatch = bench_req("mismatch", 5, 1, 1);
  (*mismatch.mutable_args())["params"] = p4;
  const pb::ProofResult m = prove(s, mismatch);
  EXPECT_EQ(m.status(), pb::PROOF_STATUS_FAILED);
  EXPECT_NE(m.error_message().find("does not match"), std::string::npos) << m.error_message();
  const std::string trunc = (server_dir() / "truncated.params").string();
  {
    std::ifstream in(p4, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(trunc, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  pb::ProofRequest tr = bench_req("truncated", 4, 1, 1);
  (*tr.mutable_args())["params"] = trunc;
  const pb::ProofResult t = prove(s, tr);
  EXPECT_EQ(t.status(), pb::PROOF_STATUS_FAILED);
  EXPECT_FALSE(t.error_message().empty());

  // Meanwhile and afterwards the daemon serves good requests.
  EXPECT_TRUE(verified(bench_vk(4), prove(s, bench_req("good", 4, 2, 3)), 2));
  const std::string metrics = h.metrics();
  EXPECT_NE(metrics.find("proofline_server_calls_total{method=\"SubmitProof\",code=\"INVALID_ARGUMENT\"} " +
                         std::to_string(bad.size() + 1)),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("proofline_server_calls_total{method=\"AwaitProof\",code=\"NOT_FOUND\"} 1"), std::string::npos);
}

TEST(Daemon, ClientThatGoesAwayDoesNotLeakItsJob) {
  Harness h(1);
  auto& s = h.stub();
  // Prove whose client gives up (deadline) while the job is still synthesizing: cancelled.
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 300ms);
    pb::ProveRequest pr;
    *pr.mutable_request() = slow_req("abandoned", 4, 2, 1, 800);
    pb::ProofResult out;
    EXPECT_EQ(s.Prove(&ctx, pr, &out).error_code(), StatusCode::DEADLINE_EXCEEDED);
  }
  pb::StatusResponse st;
  EXPECT_TRUE(eventually([&] {
    st = h.status();
    return st.jobs_cancelled() == 1 && st.jobs_running() == 0 && stage_count(st, "synthesis", true) == 0 &&
           st.memory().reserved_bytes() == 0;
  })) << st.DebugString();
  EXPECT_EQ(await(s, "abandoned").status(), pb::PROOF_STATUS_CANCELLED);
  EXPECT_NE(h.metrics().find("proofline_server_client_gone_cancels_total 1\n"), std::string::npos);

  // AwaitProof with cancel_on_disconnect: the same.
  ASSERT_TRUE(submit(s, slow_req("await-cancel", 4, 1, 2, 800)).ok());
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 200ms);
    pb::AwaitProofRequest ar;
    ar.set_request_id("await-cancel");
    ar.set_cancel_on_disconnect(true);
    pb::ProofResult out;
    EXPECT_EQ(s.AwaitProof(&ctx, ar, &out).error_code(), StatusCode::DEADLINE_EXCEEDED);
  }
  EXPECT_TRUE(eventually([&] { return await(s, "await-cancel", 1).status() == pb::PROOF_STATUS_CANCELLED; }));

  // AwaitProof without it: the job goes on and its result can be fetched later.
  ASSERT_TRUE(submit(s, slow_req("kept", 4, 1, 3, 400)).ok());
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 100ms);
    pb::AwaitProofRequest ar;
    ar.set_request_id("kept");
    pb::ProofResult out;
    EXPECT_EQ(s.AwaitProof(&ctx, ar, &out).error_code(), StatusCode::DEADLINE_EXCEEDED);
  }
  EXPECT_TRUE(verified(bench_vk(4), await(s, "kept"), 1));
  EXPECT_TRUE(eventually([&] { return h.status().memory().reserved_bytes() == 0; }));
}

// proofline.v1 counts the calls waiting on a job: a Prove that joined an identical running job
// (same request_id and contents) keeps it alive when the Prove that created it goes away, and gets
// the proof. (Before: the creator's disconnect cancelled the job under the joined client.)
TEST(Daemon, AJoinedProveKeepsTheJobAfterItsCreatorLeaves) {
  auto backend = std::make_shared<engine::testing::TestBackend>(/*gate_closed=*/true);
  Harness h(1, {backend});
  auto& s = h.stub();
  pb::ProveRequest pr;
  *pr.mutable_request() = bench_req("shared", 4, 1, 5);
  grpc::ClientContext ctx1;
  grpc::Status st1, st2;
  pb::ProofResult out2;
  std::jthread first([&] {
    pb::ProofResult out;
    st1 = s.Prove(&ctx1, pr, &out);
  });
  std::jthread second;
  struct OpenAtEnd {
    engine::testing::TestBackend& b;
    ~OpenAtEnd() { b.open(); }
  } open_before_joins{*backend};  // an early return opens the gate before the threads are joined
  ASSERT_TRUE(backend->wait_entered(1));
  second = std::jthread([&] {
    grpc::ClientContext ctx;
    st2 = s.Prove(&ctx, pr, &out2);
  });
  ASSERT_TRUE(eventually([&] {
    return h.metrics().find("proofline_engine_jobs_duplicate_total 1\n") != std::string::npos;
  }));  // the second Prove joined the job
  ctx1.TryCancel();
  first.join();
  EXPECT_EQ(st1.error_code(), StatusCode::CANCELLED);
  ASSERT_TRUE(eventually([&] {
    return h.metrics().find("proofline_server_calls_total{method=\"Prove\",code=\"CANCELLED\"} 1\n") !=
           std::string::npos;
  }));  // the server has seen the creator go
  EXPECT_EQ(await(s, "shared", 1).status(), pb::PROOF_STATUS_TIMEOUT);  // still running
  EXPECT_NE(h.metrics().find("proofline_server_client_gone_cancels_total 0\n"), std::string::npos);
  backend->open();
  second.join();
  ASSERT_TRUE(st2.ok()) << st2.error_message();
  EXPECT_TRUE(verified(bench_vk(4), out2, 1));
}

// PreloadSRS names only the parameter set: porep-c2 and the PoSt kinds take 'params' alone (their
// required C1 / vanilla proofs are not asked for); what a kind needs is still named. A request of
// PRIORITY_UNSPECIFIED gets its kind's default class (bench: normal).
TEST(Daemon, PreloadSRSByParamsAloneAndKindDefaultPriority) {
  Harness h(1);
  auto& s = h.stub();
  auto preload = [&](const std::string& kind, std::map<std::string, std::string> args, pb::PreloadSRSResponse* out) {
    grpc::ClientContext c;
    pb::PreloadSRSRequest req;
    req.mutable_request()->set_kind(kind);
    for (auto& [k, v] : args) (*req.mutable_request()->mutable_args())[k] = v;
    return s.PreloadSRS(&c, req, out);
  };
  pb::PreloadSRSResponse r;
  ASSERT_TRUE(preload("porep-c2", {{"params", mul_params()}}, &r).ok());
  EXPECT_EQ(r.srs().state(), "loaded");
  EXPECT_EQ(r.srs().key(), std::filesystem::canonical(mul_params()).string() + engine::file_version(mul_params()));
  // The PoSt kinds: 'params' passes the declarations (request and vanilla are not asked for) and
  // reaches the engine, which names a file of another circuit (bench parameters) as it loads it with
  // the circuit of registered_proof 10 known.
  const grpc::Status other = preload("window-post", {{"params", bench_params(4)}, {"registered_proof", "10"}}, &r);
  EXPECT_EQ(other.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(other.error_message().find("is not for FallbackPoSt::PublicParams{sector_size: 2048"), std::string::npos)
      << other.error_message();
  const grpc::Status none = preload("winning-post", {}, &r);
  EXPECT_EQ(none.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(none.error_message().find("needs the argument 'params' (the .params file) or 'registered_proof'"),
            std::string::npos)
      << none.error_message();

  const pb::ProofResult p = prove(s, bench_req("default-priority", 4, 1, 3, pb::PRIORITY_UNSPECIFIED));
  EXPECT_EQ(p.status(), pb::PROOF_STATUS_COMPLETED) << p.error_message();
  EXPECT_EQ(p.priority(), pb::PRIORITY_NORMAL);
}

TEST(Daemon, StatusMetricsPreloadAndEvict) {
  Harness h(2);
  auto& s = h.stub();
  grpc::ClientContext c1;
  pb::PreloadSRSRequest pre;
  *pre.mutable_request() = bench_req("", 5, 1, 1);
  pb::PreloadSRSResponse pr;
  ASSERT_TRUE(s.PreloadSRS(&c1, pre, &pr).ok());
  EXPECT_EQ(pr.srs().state(), "loaded");
  EXPECT_GT(pr.srs().bytes(), 0u);
  EXPECT_EQ(pr.srs().key(), std::filesystem::canonical(bench_params(5)).string() + engine::file_version(bench_params(5)));
  // A bad preload: clear error, nothing loaded.
  grpc::ClientContext c2;
  pb::PreloadSRSRequest bad;
  *bad.mutable_request() = bench_req("", 5, 1, 1);
  (*bad.mutable_request()->mutable_args())["params"] = "/nonexistent/x.params";
  pb::PreloadSRSResponse br;
  EXPECT_EQ(s.PreloadSRS(&c2, bad, &br).error_code(), StatusCode::INVALID_ARGUMENT);

  pb::StatusResponse st = h.status();
  ASSERT_EQ(st.srs_size(), 1);
  EXPECT_EQ(st.srs(0).key(), pr.srs().key());
  EXPECT_EQ(st.devices_size(), 1);
  EXPECT_EQ(st.devices(0).backend(), "cpu");
  EXPECT_EQ(st.synthesis_workers(), 2u);
  EXPECT_EQ(st.memory().budget_bytes(), std::uint64_t{1} << 30);
  EXPECT_TRUE(st.memory().reclaimer_enabled());
  EXPECT_EQ(st.memory().budget_source(), "configured");
  EXPECT_EQ(st.memory().budget_derivation(), "configured: 1073741824 bytes");
  EXPECT_EQ(st.jobs_size(), 0);
  EXPECT_EQ(st.kinds_size(), 9);  // bench, mul, overrun, porep-c2, slow-bench, snap-update, snarkjs, window-post,
                                  // winning-post
  ASSERT_EQ(st.kind_info_size(), 9);
  EXPECT_EQ(st.kind_info(0).name(), "bench");
  EXPECT_EQ(st.kind_info(0).arguments_size(), 6);  // params, size, partitions, input, checked, compiled
  std::set<std::string> stages;
  for (const auto& q : st.queues()) stages.insert(q.stage());
  EXPECT_EQ(stages, (std::set<std::string>{"prepare", "synthesis", "prove"}));
  EXPECT_GT(st.resident_bytes(), 0u);

  // A proof with the preloaded SRS does not load it again.
  const pb::ProofResult r = prove(s, bench_req("preloaded", 5, 1, 2));
  EXPECT_TRUE(verified(bench_vk(5), r, 1));
  EXPECT_EQ(r.srs_load_ms(), 0);

  // While a job holds the parameters they are not evicted.
  ASSERT_TRUE(submit(s, slow_req("holder", 5, 1, 3, 400)).ok());
  ASSERT_TRUE(eventually([&] { return h.status().jobs_running() == 1; }));
  {
    // Its progress in GetStatus (proofline status): one partition (proved or not by now).
    const pb::StatusResponse run = h.status();
    ASSERT_EQ(run.jobs_size(), 1);
    EXPECT_EQ(run.jobs(0).request_id(), "holder");
    EXPECT_EQ(run.jobs(0).kind(), "slow-bench");
    EXPECT_EQ(run.jobs(0).status(), pb::PROOF_STATUS_RUNNING);
    EXPECT_EQ(run.jobs(0).num_partitions(), 1u);
    EXPECT_LE(run.jobs(0).partitions_done(), run.jobs(0).partitions_synthesized());
    EXPECT_LE(run.jobs(0).partitions_synthesized(), 1u);
    EXPECT_GE(run.jobs(0).elapsed_s(), 0);
  }
  {
    grpc::ClientContext c;
    pb::EvictSRSRequest ev;
    ev.set_key(pr.srs().key());
    pb::EvictSRSResponse er;
    ASSERT_TRUE(s.EvictSRS(&c, ev, &er).ok());
    EXPECT_FALSE(er.evicted());
    EXPECT_EQ(er.reason(), "in use by 1 job(s)");
  }
  EXPECT_TRUE(verified(bench_vk(5), await(s, "holder"), 1));
  // The engine drops the job's SRS reference just after it publishes the result.
  ASSERT_TRUE(eventually([&] {
    const auto now = h.status();
    return now.srs_size() == 1 && now.srs(0).users() == 0;
  }));
  grpc::ClientContext c3;
  pb::EvictSRSRequest ev;
  ev.set_key(pr.srs().key());
  pb::EvictSRSResponse er;
  ASSERT_TRUE(s.EvictSRS(&c3, ev, &er).ok());
  EXPECT_TRUE(er.evicted());
  EXPECT_EQ(er.bytes_freed(), pr.srs().bytes());
  EXPECT_EQ(h.status().srs_size(), 0);
  grpc::ClientContext c4;
  ASSERT_TRUE(s.EvictSRS(&c4, ev, &er).ok());
  EXPECT_FALSE(er.evicted());
  EXPECT_EQ(er.reason(), "not loaded");

  const std::string m = h.metrics();
  for (const char* want : {"# TYPE proofline_engine_partition_seconds histogram",
                           "proofline_engine_jobs_finished_total{state=\"done\"} 2",
                           "proofline_server_calls_total{method=\"PreloadSRS\",code=\"OK\"} 1",
                           "proofline_server_calls_total{method=\"PreloadSRS\",code=\"INVALID_ARGUMENT\"} 1",
                           "proofline_server_calls_total{method=\"EvictSRS\",code=\"OK\"} 3",
                           "# TYPE proofline_server_resident_bytes gauge"}) {
    EXPECT_NE(m.find(want), std::string::npos) << want << "\n" << m;
  }
}

TEST(Daemon, ListenRules) {
  DaemonConfig cfg;
  cfg.unix_socket = "";
  cfg.tcp = "0.0.0.0:0";
  try {
    Daemon d(cfg);
    ADD_FAILURE() << "listened on 0.0.0.0 without listen.allow_remote";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a loopback address"), std::string::npos) << e.what();
  }
  cfg.tcp = "";
  EXPECT_THROW(Daemon{cfg}, std::runtime_error);  // nothing to listen on

  // A live socket is not taken over; a stale socket file is replaced; other files are left alone.
  Harness h(1);
  DaemonConfig again;
  again.unix_socket = h.daemon->listening().at(0).substr(5);
  again.tcp = "";
  try {
    Daemon d(again);
    ADD_FAILURE() << "a second daemon took over a live socket";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("another process"), std::string::npos) << e.what();
  }
  const std::string stale = (server_dir() / "stale.sock").string();
  {
    DaemonConfig c;
    c.unix_socket = stale;
    c.tcp = "";
    Daemon first(c);
    ::unlink(stale.c_str());  // shutdown removes it; recreate a stale one below by a raw bind
  }
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, stale.c_str(), sizeof a.sun_path - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ::close(fd);  // bound, never listening: a stale socket file
  }
  {
    DaemonConfig c;
    c.unix_socket = stale;
    c.tcp = "";
    Daemon d(c);
    auto stub = pb::ProvingEngine::NewStub(make_channel(d.address()));
    grpc::ClientContext ctx;
    pb::StatusResponse st;
    EXPECT_TRUE(stub->GetStatus(&ctx, {}, &st).ok());
  }
  EXPECT_FALSE(std::filesystem::exists(stale));  // removed at shutdown
  const std::string regular = (server_dir() / "regular.file").string();
  std::ofstream(regular) << "x";
  DaemonConfig c;
  c.unix_socket = regular;
  c.tcp = "";
  EXPECT_THROW(Daemon{c}, std::runtime_error);
  EXPECT_TRUE(std::filesystem::exists(regular));
}

// The status page (status.listen) of a daemon made and destroyed at once: its HTTP loop may not have
// started when shutdown stops it; that stop must still end it (it once hung: httplib's stop() is a
// no-op until the loop runs, and the join waited for ever).
TEST(Daemon, StatusPageStartsAndStopsAtOnce) {
  for (int i = 0; i < 25; ++i) {
    DaemonConfig c;
    c.unix_socket = (server_dir() / ("status-" + std::to_string(i) + ".sock")).string();
    c.tcp = "";
    c.status_listen = "127.0.0.1:0";
    Daemon d(c);
    EXPECT_EQ(d.status_note().rfind("status page at http://127.0.0.1:", 0), 0u) << d.status_note();
  }
  DaemonConfig off;
  off.unix_socket = (server_dir() / "status-off.sock").string();
  off.tcp = "";
  off.status_listen = "";
  Daemon d(off);
  EXPECT_EQ(d.status_note(), "status page off (status.listen)");
}

/// A TCP connection to 127.0.0.1:port (or -1).
int connect_loopback(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/// One GET with the given Host header over a fresh connection: the whole response (the server closes
/// the connection after it), or what came within `limit`.
std::string http_get(int port, const std::string& path, const std::string& host, std::chrono::milliseconds limit) {
  const int fd = connect_loopback(port);
  if (fd < 0) return "";
  const std::string req = "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
  std::string got;
  if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(req.size())) {
    const auto end = std::chrono::steady_clock::now() + limit;
    char buf[4096];
    while (std::chrono::steady_clock::now() < end) {
      pollfd p{fd, POLLIN, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      if (::poll(&p, 1, static_cast<int>(std::max<long long>(1, left.count()))) <= 0) break;
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return got;
}

/// One GET over a fresh connection: the status line, or "" when there is none within `limit`.
std::string http_get_status_line(int port, const std::string& path, std::chrono::milliseconds limit) {
  const std::string got = http_get(port, path, "127.0.0.1", limit);
  const auto eol = got.find("\r\n");
  return eol == std::string::npos ? "" : got.substr(0, eol);
}

// The status page keeps answering while other connections are idle or send their request a byte at
// a time (a new user froze it with 8 such connections: no answer in 30 s), and a trickling
// connection is closed once its deadline (StatusPage::kConnectionDeadline) has passed.
TEST(Daemon, StatusPageAnswersBesideIdleAndTricklingConnections) {
  DaemonConfig c;
  c.unix_socket = (server_dir() / "status-slow.sock").string();
  c.tcp = "";
  c.status_listen = "127.0.0.1:0";
  Daemon d(c);
  const std::string note = d.status_note();  // "status page at http://127.0.0.1:PORT/"
  const auto colon = note.rfind(':');
  ASSERT_NE(colon, std::string::npos) << note;
  const int port = std::atoi(note.c_str() + colon + 1);
  ASSERT_GT(port, 0) << note;

  std::vector<int> idle, trickling;
  for (int i = 0; i < 16; ++i) idle.push_back(connect_loopback(port));
  for (int i = 0; i < 8; ++i) trickling.push_back(connect_loopback(port));
  for (const int fd : idle) ASSERT_GE(fd, 0);
  for (const int fd : trickling) ASSERT_GE(fd, 0);
  const std::string partial = "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
  for (const int fd : trickling) ASSERT_EQ(::send(fd, partial.data(), partial.size(), MSG_NOSIGNAL), static_cast<ssize_t>(partial.size()));

  // Beside them, within the deadline (a wait for a slow connection's timeout would take longer).
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(http_get_status_line(port, "/status", std::chrono::seconds(10)), "HTTP/1.1 200 OK");
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(waited, StatusPage::kConnectionDeadline) << "the status page waited for the slow connections";

  // The tricklers keep sending a byte every 100 ms; the server closes them at their deadline.
  std::vector<bool> closed(trickling.size(), false);
  const auto stop = std::chrono::steady_clock::now() + StatusPage::kConnectionDeadline + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < stop &&
         std::count(closed.begin(), closed.end(), true) < static_cast<long>(closed.size())) {
    for (std::size_t i = 0; i < trickling.size(); ++i) {
      if (closed[i]) continue;
      char b = 'x';
      if (::send(trickling[i], &b, 1, MSG_NOSIGNAL) != 1) {
        closed[i] = true;
        continue;
      }
      pollfd p{trickling[i], POLLIN, 0};
      char buf[256];
      if (::poll(&p, 1, 0) > 0 && ::recv(trickling[i], buf, sizeof buf, MSG_DONTWAIT) <= 0) closed[i] = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(std::count(closed.begin(), closed.end(), true), static_cast<long>(closed.size()))
      << "a connection sending its request a byte at a time was still open after its deadline";
  // And the page still answers.
  EXPECT_EQ(http_get_status_line(port, "/status", std::chrono::seconds(10)), "HTTP/1.1 200 OK");
  for (const int fd : idle) ::close(fd);
  for (const int fd : trickling) ::close(fd);
}

int status_port(const Daemon& d) {
  const std::string note = d.status_note();  // "status page at http://127.0.0.1:PORT/"
  const auto colon = note.rfind(':');
  return colon == std::string::npos ? -1 : std::atoi(note.c_str() + colon + 1);
}

DaemonConfig status_config(const std::string& name, const std::string& listen) {
  DaemonConfig c;
  c.unix_socket = (server_dir() / (name + ".sock")).string();
  c.tcp = "";
  c.status_listen = listen;
  return c;
}

// The status page's binding and its answers: a port another daemon's page holds is refused (not
// shared through SO_REUSEPORT), a port beyond 65535 is refused naming it (not truncated: 99999 once
// bound 34463); /status carries no Access-Control-Allow-Origin; on loopback a request whose Host is
// not a loopback name gets 421 (DNS rebinding).
TEST(Daemon, StatusPageBindsItsOwnPortAndAnswersOnlyLoopbackHosts) {
  Daemon first(status_config("status-first", "127.0.0.1:0"));
  const int port = status_port(first);
  ASSERT_GT(port, 0) << first.status_note();
  Daemon second(status_config("status-second", "127.0.0.1:" + std::to_string(port)));
  EXPECT_EQ(second.status_note().rfind("status page not started: status.listen: cannot bind '127.0.0.1:" +
                                           std::to_string(port) + "'",
                                       0),
            0u)
      << second.status_note();
  Daemon wide(status_config("status-wide", "127.0.0.1:99999"));
  EXPECT_EQ(wide.status_note(), "status page not started: status.listen: '127.0.0.1:99999': the port '99999' is not a "
                                "TCP port (0 … 65535; 0: any free port)");

  const std::string ok = http_get(port, "/status", "127.0.0.1:" + std::to_string(port), 10s);
  EXPECT_EQ(ok.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << ok.substr(0, 200);
  EXPECT_EQ(ok.find("Access-Control-Allow-Origin"), std::string::npos) << ok.substr(0, 400);
  for (const std::string& host : std::vector<std::string>{"localhost", "localhost:" + std::to_string(port),
                                                         "[::1]:" + std::to_string(port), "127.0.0.2"}) {
    EXPECT_EQ(http_get(port, "/status", host, 10s).rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << host;
  }
  for (const std::string& host :
       std::vector<std::string>{"attacker.example.com", "attacker.example.com:" + std::to_string(port),
                                "127.0.0.1.attacker.example.com", "localhost:80x", ""}) {
    const std::string got = http_get(port, "/", host, 10s);
    EXPECT_EQ(got.rfind("HTTP/1.1 421 ", 0), 0u) << host << ": " << got.substr(0, 200);
  }
  EXPECT_FALSE(status_host_allowed("attacker.example.com", true));
  EXPECT_TRUE(status_host_allowed("attacker.example.com", false));  // a page on another address (allow_remote)
}

// Idle connections (connected, nothing sent) do not keep /status waiting: each is closed once its
// first byte is overdue (100 ms while the workers are busy), so a GET queued behind 256 of them
// answers within StatusPage::kConnectionDeadline. (Before: each held a worker for the whole 3 s
// deadline: 256 / 64 workers × 3 s = 12 s here; /status took 30.8 s behind 1,000 in the field.)
TEST(Daemon, StatusPageAnswersBehindManyIdleConnections) {
  Daemon d(status_config("status-idle", "127.0.0.1:0"));
  const int port = status_port(d);
  ASSERT_GT(port, 0) << d.status_note();
  std::vector<int> idle;
  for (int i = 0; i < 256; ++i) {
    const int fd = connect_loopback(port);
    ASSERT_GE(fd, 0) << i;
    idle.push_back(fd);
  }
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(http_get_status_line(port, "/status", 20s), "HTTP/1.1 200 OK");
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_LT(waited, StatusPage::kConnectionDeadline)
      << std::chrono::duration_cast<std::chrono::milliseconds>(waited).count() << " ms behind the idle connections";
  for (const int fd : idle) ::close(fd);
}

// ListKinds: every kind of the registry with its declarations as the engine holds them, and the
// client-side conversion back (server::arguments_of) loses nothing a client checks with.
TEST(Daemon, ListKindsSendsEachKindsDeclarations) {
  Harness h(1);
  grpc::ClientContext ctx;
  pb::ListKindsResponse resp;
  ASSERT_TRUE(h.stub(true).ListKinds(&ctx, pb::ListKindsRequest{}, &resp).ok());
  std::vector<std::string> names;
  for (const auto& k : resp.kinds()) names.push_back(k.name());
  EXPECT_EQ(names, (std::vector<std::string>{"bench", "mul", "overrun", "porep-c2", "slow-bench", "snap-update",
                                              "snarkjs", "window-post", "winning-post"}));
  const pb::KindInfo& bench = resp.kinds(0);
  EXPECT_EQ(bench.proof_format(), "bellperson");
  ASSERT_EQ(bench.arguments_size(), 6);
  EXPECT_EQ(bench.arguments(5).name(), "compiled");
  const pb::ArgumentInfo& size = bench.arguments(1);
  EXPECT_EQ(size.name(), "size");
  EXPECT_EQ(size.type(), "size");
  EXPECT_TRUE(size.required());
  EXPECT_EQ(size.min(), 4u);
  EXPECT_EQ(size.max(), 27u);
  EXPECT_EQ(size.form(), "2^k or a power of two, k 4 … 27");
  EXPECT_TRUE(bench.arguments(0).srs());
  EXPECT_EQ(bench.arguments(0).type(), "file");
  EXPECT_EQ(bench.arguments(2).default_value(), "1");
  const pb::KindInfo& sj = resp.kinds(6);
  EXPECT_EQ(sj.proof_format(), "snarkjs");
  ASSERT_EQ(sj.arguments_size(), 4);
  EXPECT_TRUE(sj.arguments(1).payload());
  EXPECT_EQ(sj.arguments(2).name(), "checked");
  EXPECT_EQ(sj.arguments(2).default_value(), "0");
  EXPECT_EQ(sj.arguments(3).name(), "compiled");
  EXPECT_EQ(sj.arguments(3).default_value(), "1");
  const pb::KindInfo& c2 = resp.kinds(3);
  const std::vector<engine::ArgSpec> args = arguments_of(c2);
  const auto registry = engine::testing::test_registry();
  const std::vector<engine::ArgSpec> engine_args = registry->get("porep-c2")->arguments();
  ASSERT_EQ(args.size(), engine_args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    EXPECT_EQ(args[i].name, engine_args[i].name);
    EXPECT_EQ(args[i].type, engine_args[i].type);
    EXPECT_EQ(args[i].required, engine_args[i].required);
    EXPECT_EQ(args[i].payload, engine_args[i].payload);
    EXPECT_EQ(args[i].bytes, engine_args[i].bytes);
    EXPECT_EQ(args[i].needs, engine_args[i].needs);
    EXPECT_EQ(args[i].min, engine_args[i].min);
    EXPECT_EQ(args[i].max, engine_args[i].max);
  }
  // A type this client does not know reads as a string (a newer daemon's type is not refused).
  pb::KindInfo future;
  auto* a = future.add_arguments();
  a->set_name("when");
  a->set_type("timestamp");
  EXPECT_EQ(arguments_of(future).at(0).type, engine::ArgType::String);
}

// engine.preload = ["kind:path"]: the path fills the argument the kind declares as its parameter
// set (bench: params, snarkjs: zkey); a bare path (the kind was guessed from the extension before)
// or an unknown kind refuses the start, naming the kinds.
TEST(Daemon, PreloadEntriesNameTheirKind) {
  const auto sj = engine::testing::snarkjs_chain(12, 2, "server-preload-chain12");
  {
    DaemonConfig cfg;
    // porep-c2 by its parameter file alone (no C1): was refused ("needs the argument 'c1'").
    cfg.preload = {"bench:" + bench_params(4), "snarkjs:" + sj.zkey, "porep-c2:" + engine::testing::mul_params()};
    Harness h(1, {}, cfg);
    const pb::StatusResponse st = h.status();
    ASSERT_EQ(st.srs_size(), 3);
    std::set<std::string> keys;
    for (const auto& e : st.srs()) keys.insert(e.key().substr(0, e.key().find('#')));
    EXPECT_EQ(keys, (std::set<std::string>{std::filesystem::canonical(bench_params(4)).string(),
                                           "snarkjs:" + std::filesystem::canonical(sj.zkey).string(),
                                           std::filesystem::canonical(engine::testing::mul_params()).string()}));
  }
  for (const std::string& entry : {bench_params(4), "nosuch:" + bench_params(4)}) {
    DaemonConfig cfg;
    cfg.preload = {entry};
    try {
      Harness h(1, {}, cfg);
      ADD_FAILURE() << "started with engine.preload = " << entry;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("engine.preload: '" + entry +
                                           "': expected kind:path with one of the kinds bench, mul, overrun, porep-c2, "
                                           "slow-bench, snap-update, snarkjs, window-post, winning-post"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace proofline::server
