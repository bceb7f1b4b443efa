// Jobs waiting for an SRS that another job is loading hold no synthesis worker (they are parked and
// re-queued when the load ends); a load nobody wants any more (cancel, shutdown) is abandoned at its
// next progress report; the snarkjs zkey load keeps the zkey's H points as they are (no conversion).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine_test_util.hpp"
#include "proofline/engine/engine.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"

namespace proofline::engine {
namespace {

using namespace testing;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

/// A latch the test opens; counts the loads that entered it.
struct Latch {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  int entered = 0;
  int running = 0;  ///< loads inside load_srs now
  std::atomic<int> prepared{0};  ///< LatchKind::prepare calls
  void release() {
    std::lock_guard lk(mu);
    open = true;
    cv.notify_all();
  }
  bool wait_entered(int n) {
    std::unique_lock lk(mu);
    return cv.wait_for(lk, 10s, [&] { return entered >= n; });
  }
  /// `entered` / `running` read under the lock (the loads run on engine threads).
  int read(const int Latch::*field) {
    std::lock_guard lk(mu);
    return this->*field;
  }
  bool wait_idle() {
    std::unique_lock lk(mu);
    return cv.wait_for(lk, 10s, [&] { return running == 0; });
  }
};

/// Kind "latch-bench": the bench kind under its own SRS key ("latch:" + the bench key), whose
/// load_srs blocks until the latch opens. Arg spin=1: while closed, it reports progress every
/// millisecond (so the engine can abandon it); otherwise it just waits.
class LatchKind final : public ProofKind {
 public:
  explicit LatchKind(std::shared_ptr<Latch> l) : latch_(std::move(l)) {}
  std::string_view name() const override { return "latch-bench"; }
  std::string_view description() const override { return "bench whose SRS load waits on a latch (tests)"; }
  std::vector<ArgSpec> arguments() const override {
    std::vector<ArgSpec> a = bench_->arguments();
    a.push_back(ArgSpec("spin", ArgType::Bool, "report progress every millisecond while the latch is closed"));
    return a;
  }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    ProofRequest inner = r;
    inner.kind = "bench";
    inner.args.erase("spin");
    ++latch_->prepared;
    return std::make_shared<Job>(bench_->prepare(inner), latch_, arg_or(r, "spin", "0") == "1");
  }

 private:
  class Job final : public KindJob {
   public:
    Job(std::shared_ptr<const KindJob> in, std::shared_ptr<Latch> l, bool spin)
        : in_(std::move(in)), latch_(std::move(l)), spin_(spin) {}
    std::size_t num_partitions() const override { return in_->num_partitions(); }
    std::string srs_key() const override { return "latch:" + in_->srs_key(); }
    std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& p) const override {
      {
        std::unique_lock lk(latch_->mu);
        ++latch_->entered;
        ++latch_->running;
        latch_->cv.notify_all();
      }
      struct Leave {
        Latch& l;
        ~Leave() {
          std::lock_guard lk(l.mu);
          --l.running;
          l.cv.notify_all();
        }
      } leave{*latch_};
      for (;;) {
        {
          std::unique_lock lk(latch_->mu);
          if (spin_) {
            latch_->cv.wait_for(lk, 1ms, [&] { return latch_->open; });
          } else {
            latch_->cv.wait(lk, [&] { return latch_->open; });
          }
          if (latch_->open) break;
        }
        p(0.5);  // outside the latch's lock: may throw (load abandoned)
      }
      auto s = std::make_shared<Srs>(*in_->load_srs(p));
      s->key = srs_key();
      return s;
    }
    void check(const Srs& s) const override { in_->check(s); }
    void synthesize(std::size_t k, const Srs& s, r1cs::ProvingBuffers& b) const override { in_->synthesize(k, s, b); }

   private:
    std::shared_ptr<const KindJob> in_;
    std::shared_ptr<Latch> latch_;
    bool spin_;
  };
  std::shared_ptr<const ProofKind> bench_ = KindRegistry::builtin()->get("bench");
  std::shared_ptr<Latch> latch_;
};

EngineConfig latch_config(const std::shared_ptr<Latch>& latch) {
  EngineConfig c = test_config(std::make_shared<groth16::CpuBackend>(groth16::CpuBackendConfig{1}), 2);
  auto reg = test_registry();
  reg->add(std::make_shared<LatchKind>(latch));
  c.kinds = reg;
  return c;
}

ProofRequest latch_request(const std::string& id, std::uint64_t input, bool spin = false) {
  ProofRequest r = bench_request(id, 6, 1, input);
  r.kind = "latch-bench";
  if (spin) r.args["spin"] = "1";
  return r;
}

std::size_t prepare_count(const EngineStatus& s, bool running) {
  std::size_t n = 0;
  for (const auto& q : s.queues) {
    if (q.stage == "prepare") n += running ? q.running : q.pending;
  }
  return n;
}

/// True once `waiting` jobs wait for the SRS (parked, pending "prepare") and `loading` run a load,
/// after LatchKind::prepare ran for all of them: a job still in the prepare queue is not counted.
bool parked(const Engine& e, const Latch& l, std::size_t waiting, std::size_t loading = 1) {
  return eventually([&] {
    const EngineStatus s = e.status();
    return l.prepared.load() == static_cast<int>(waiting + loading) && prepare_count(s, true) == loading &&
           prepare_count(s, false) == waiting;
  });
}

TEST(EngineSrsWait, OtherKindsFlowWhileAnSrsLoads) {
  auto latch = std::make_shared<Latch>();
  Engine e(latch_config(latch));
  struct OpenOnExit {
    Latch& l;
    ~OpenOnExit() { l.release(); }  // before ~Engine, so a failed assertion does not hang the test
  } open_on_exit{*latch};
  e.submit(latch_request("L1", 1));
  ASSERT_TRUE(latch->wait_entered(1));
  e.submit(latch_request("L2", 2));
  // L2 finds the set loading: it is parked (pending "prepare"), not waiting on the second worker.
  ASSERT_TRUE(parked(e, *latch, 1));
  // With both workers taken (the old behaviour) this CRITICAL job could not even be prepared.
  AwaitResult b = e.prove(bench_request("B", 6, 1, 3, Priority::Critical), 30s);
  ASSERT_EQ(b.status, AwaitStatus::Ready);
  ASSERT_EQ(b.result.state, JobState::Done) << b.result.error;
  EXPECT_TRUE(verify_each(bench_vk(6), b.result));
  EXPECT_EQ(e.peek("L1").result.state, JobState::Queued);
  EXPECT_EQ(e.peek("L2").result.state, JobState::Queued);

  latch->release();
  for (const char* id : {"L1", "L2"}) {
    AwaitResult a = e.await(id, 30s);
    ASSERT_EQ(a.status, AwaitStatus::Ready) << id;
    ASSERT_EQ(a.result.state, JobState::Done) << id << ": " << a.result.error;
    EXPECT_TRUE(verify_each(bench_vk(6), a.result)) << id;
    EXPECT_EQ(a.result.srs_key,
              "latch:" + std::filesystem::weakly_canonical(bench_params(6)).string() + file_version(bench_params(6)));
    EXPECT_GT(a.result.timings.srs_load, 0) << id;  // L2: the time it waited for L1's load
  }
  EXPECT_EQ(latch->read(&Latch::entered), 1);  // loaded once, shared
  const std::string m = e.metrics_text();
  EXPECT_NE(m.find("proofline_engine_srs_loads_total 2"), std::string::npos) << m;
  EXPECT_EQ(prepare_count(e.status(), false), 0u);
}

TEST(EngineSrsWait, CancelledLoaderGoesOnForAParkedJob) {
  // The loading job is cancelled while another waits: the load goes on (L2 still wants it).
  auto latch = std::make_shared<Latch>();
  Engine e(latch_config(latch));
  e.submit(latch_request("L1", 1, true));
  ASSERT_TRUE(latch->wait_entered(1));
  e.submit(latch_request("L2", 2, true));
  e.submit(latch_request("L3", 3, true));
  ASSERT_TRUE(parked(e, *latch, 2));
  EXPECT_EQ(e.cancel("L3").previous, JobState::Queued);  // a parked job: dropped from the parked set
  EXPECT_EQ(e.cancel("L1").previous, JobState::Queued);  // the loader: L2 still waits, the load goes on
  EXPECT_TRUE(eventually([&] { return prepare_count(e.status(), false) == 1; }));
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(latch->read(&Latch::running), 1);
  latch->release();
  AwaitResult a = e.await("L2", 30s);
  ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
  EXPECT_TRUE(verify_each(bench_vk(6), a.result));
  EXPECT_EQ(e.await("L1", 1s).result.state, JobState::Cancelled);
  EXPECT_EQ(e.await("L3", 1s).result.state, JobState::Cancelled);
  EXPECT_EQ(latch->read(&Latch::entered), 1);
}

TEST(EngineSrsWait, UnwantedLoadIsAbandoned) {
  auto latch = std::make_shared<Latch>();
  {
    Engine e(latch_config(latch));
    e.submit(latch_request("L1", 1, true));
    ASSERT_TRUE(latch->wait_entered(1));
    e.cancel("L1");  // nobody else waits: the load stops at its next progress report
    ASSERT_TRUE(latch->wait_idle());
    EXPECT_TRUE(eventually([&] { return e.status().srs.empty() && prepare_count(e.status(), true) == 0; }));
    // A later job loads it again and completes.
    e.submit(latch_request("L2", 2, true));
    ASSERT_TRUE(latch->wait_entered(2));
    latch->release();
    AwaitResult a = e.await("L2", 30s);
    ASSERT_EQ(a.result.state, JobState::Done) << a.result.error;
    EXPECT_TRUE(verify_each(bench_vk(6), a.result));
  }
  // Shutdown during a load returns without the latch ever opening.
  auto closed = std::make_shared<Latch>();
  const auto t0 = Clock::now();
  {
    Engine e(latch_config(closed));
    e.submit(latch_request("L1", 1, true));
    e.submit(latch_request("L2", 2, true));
    ASSERT_TRUE(closed->wait_entered(1));
    ASSERT_TRUE(parked(e, *closed, 1));
  }
  EXPECT_EQ(closed->read(&Latch::running), 0);
  EXPECT_LT(Clock::now() - t0, 10s);
}

// The zkey becomes parameters without any curve arithmetic: its H section as it is (snarkjs' odd-coset
// form, one point per row of the domain), rows permuted to the blst domain; progress 0 → 1.
TEST(EngineSrsWait, ZkeyLoadKeepsTheOddCosetH) {
  const auto files = snarkjs_chain(200, 7, "progress200");  // domain 256
  const groth16::snarkjs::Zkey z = groth16::snarkjs::Zkey::read_file(files.zkey);
  ASSERT_EQ(z.domain_size, 256u);
  ProofRequest r;
  r.kind = "snarkjs";
  r.args = {{"zkey", files.zkey}, {"wtns", files.wtns}};
  auto kj = KindRegistry::builtin()->get("snarkjs")->prepare(r);
  std::vector<double> seen;
  auto srs = kj->load_srs([&](double p) { seen.push_back(p); });
  ASSERT_TRUE(srs);
  EXPECT_EQ(srs->params.h_form, groth16::HForm::OddCoset);
  EXPECT_EQ(srs->params.h.size(), 256u);
  EXPECT_EQ(srs->params.domain_size(), 256u);
  EXPECT_EQ(srs->params.h, z.h);  // not transformed
  EXPECT_EQ(srs->params.l, z.c);
  EXPECT_EQ(srs->params.vk, z.verifying_key());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front(), 0.0);
  EXPECT_EQ(seen.back(), 1.0);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  // The partition estimate covers a, b, c over the whole domain.
  EXPECT_GE(kj->partition_bytes(*srs), 3u * 256u * sizeof(Fr));
  // A throwing callback abandons the load.
  EXPECT_THROW(kj->load_srs([&](double p) {
    if (p > 0) throw std::runtime_error("stop");
  }),
               std::runtime_error);
  // And the synthesis gives a, b, c over the domain with the witness' assignments.
  r1cs::ProvingBuffers buf;
  kj->check(*srs);
  kj->synthesize(0, *srs, buf);
  // (the compiled form, the kind's default: a, b, c left to the backend, 256 rows in the circuit)
  ASSERT_NE(buf.compiled, nullptr);
  EXPECT_TRUE(buf.compiled->shape().c_is_ab);
  EXPECT_EQ(buf.rows(), 256u);
  r1cs::evaluate_in_place(buf);
  EXPECT_EQ(buf.a.size(), 256u);
  EXPECT_EQ(buf.input_assignment.size(), 3u);  // ONE, out, x
  EXPECT_EQ(buf.input_assignment[2], Fr::from_u64(7));
  groth16::check_partition_shape(srs->params, buf);
}

}  // namespace
}  // namespace proofline::engine
