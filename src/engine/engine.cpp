// The proving engine (include/proofline/engine/engine.hpp): queues, workers, cancel, status. The
// counters and histograms it keeps, and their Prometheus text, are in metrics.hpp / metrics.cpp.
//
// One mutex (`mu_`) guards the job table, both queues, the running counters and the metrics; the
// memory budget, buffer pool, reclaimer and SRS manager have their own locks and are never called
// with a lock of theirs held while `mu_` is taken (their callbacks only notify the condition
// variable). Work (prepare, synthesis, backend calls, verification, frees) runs with `mu_` released.
#include "proofline/engine/engine.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <unordered_map>

#include "log.hpp"
#include "metrics.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/engine/memory.hpp"
#include "proofline/engine/srs.hpp"
#include "proofline/groth16/prover.hpp"
#include "proofline/groth16/random.hpp"
#include "proofline/r1cs/error.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/fault.hpp"

namespace proofline::engine {

std::string_view to_string(Priority p) {
  switch (p) {
    case Priority::Critical: return "critical";
    case Priority::High: return "high";
    case Priority::Normal: return "normal";
    case Priority::Low: return "low";
  }
  return "normal";
}

std::optional<Priority> priority_from_string(std::string_view s) {
  std::string l(s);
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (Priority p : {Priority::Critical, Priority::High, Priority::Normal, Priority::Low}) {
    if (l == to_string(p)) return p;
  }
  return std::nullopt;
}

std::string_view to_string(JobState s) {
  switch (s) {
    case JobState::Queued: return "queued";
    case JobState::Running: return "running";
    case JobState::Done: return "done";
    case JobState::Failed: return "failed";
    case JobState::Cancelled: return "cancelled";
  }
  return "queued";
}

std::string_view to_string(Failure f) {
  switch (f) {
    case Failure::None: return "none";
    case Failure::BadInput: return "bad_input";
    case Failure::SelfCheck: return "self_check";
    case Failure::Internal: return "internal";
    case Failure::Cancelled: return "cancelled";
    case Failure::BadArgument: return "bad_argument";
  }
  return "internal";
}

namespace {

/// The Failure class of what a kind or backend threw (engine.hpp, Failure).
Failure classify(const std::exception& e) {
  if (dynamic_cast<const ArgumentError*>(&e)) return Failure::BadArgument;
  if (const auto* pe = dynamic_cast<const ProoflineError*>(&e)) {
    if (pe->code() == Error::Cancelled) return Failure::Cancelled;
    return pe->code() == Error::OutOfMemory ? Failure::Internal : Failure::BadInput;
  }
  if (const auto* se = dynamic_cast<const r1cs::SynthesisError*>(&e)) {
    return se->code() == r1cs::SynthesisErrorCode::Cancelled ? Failure::Cancelled : Failure::BadInput;
  }
  if (dynamic_cast<const std::system_error*>(&e) || dynamic_cast<const std::invalid_argument*>(&e)) {
    return Failure::BadInput;
  }
  return Failure::Internal;
}

/// Page faults (minor + major) of the calling thread so far.
std::uint64_t thread_page_faults() {
  rusage u{};
  if (getrusage(RUSAGE_THREAD, &u) != 0) return 0;
  return static_cast<std::uint64_t>(u.ru_minflt) + static_cast<std::uint64_t>(u.ru_majflt);
}

using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

constexpr int kStages = 3;  // prepare, synthesis, prove
constexpr const char* kStageNames[kStages] = {"prepare", "synthesis", "prove"};
constexpr int kPriorities = 4;

/// The host memory the derived budget starts from; 3/4 of the physical pages where /proc/meminfo
/// cannot be read.
HostMemory host_memory_at_start() {
  try {
    return read_host_memory();
  } catch (const std::exception&) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    HostMemory h;
    h.mem_total = pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                                        : std::uint64_t{8} << 30;
    h.mem_available = h.mem_total / 4 * 3;
    return h;
  }
}

}  // namespace

struct Engine::Impl {
  struct Job {
    std::uint64_t seq = 0;
    std::atomic<bool> host_evaluation_logged{false};  ///< the prove stage's note on a compiled form evaluated on the host
    /// Compiled-form partitions evaluated here, in the synthesis stage (a backend would evaluate them
    /// on the host inside its prove call, its device idle: ProverBackend::evaluates_compiled):
    /// -1 not asked yet, 0 no, 1 yes. Asked once per job, at its first compiled partition.
    std::atomic<int> evaluate_at_synthesis{-1};
    ProofRequest req;
    Priority priority = Priority::Normal;  ///< req.priority, or the kind's default (fixed at submit)
    JobState state = JobState::Queued;
    std::string error;
    Failure failure = Failure::Internal;  ///< the class of `error` when the job FAILS
    Clock::time_point submitted, first_synth, finished;
    bool started = false;
    std::shared_ptr<const KindJob> kjob;
    std::unique_ptr<SrsLease> lease;
    std::shared_ptr<const Srs> srs;
    double srs_load_ms = 0;
    std::size_t n = 0;
    std::uint64_t part_bytes = 0;
    std::vector<groth16::Proof> proofs;
    std::vector<std::vector<ff::Fr>> inputs;
    std::vector<PartitionTimings> pt;
    std::size_t proved = 0;
    std::size_t synthesized = 0;
    std::size_t active = 0;  ///< items of this job on a worker now
    std::size_t synth_started = 0;  ///< partitions admitted into synthesis so far
    /// Latency-first: a prover worker took one of its partitions (its first); until then the job's
    /// later partitions wait unless every prover worker is busy (see may_start_locked).
    bool first_handed = false;
    double synth_ms_ema = 0;  ///< its partitions' synthesis wall time (ms, moving average; 0: none yet)
    bool parked = false;     ///< waited (off the workers) for another job's load of its SRS
    Clock::time_point parked_at;
    ProofResult result;      ///< final results (valid once is_final(state))
    /// Set (once, under mu) when the job becomes final other than Done: its running partitions
    /// poll it (synthesis through r1cs::CancelScope, the backend through prove's `cancel`) and stop.
    std::atomic<bool> cancel{false};
  };
  using JobPtr = std::shared_ptr<Job>;
  using Key = std::tuple<int, std::uint64_t, std::int64_t>;  // priority, seq, partition (−1 prepare)

  struct ProveItem {
    JobPtr job;
    std::size_t k = 0;
    r1cs::ProvingBuffers buf;
    groth16::Randomizers rs;
    std::uint64_t reserved = 0;
    Clock::time_point synth_done;
    PartitionTimings t;
  };

  struct BackendState {
    unsigned busy = 0;
    std::uint64_t proved = 0;
  };

  EngineConfig cfg;
  std::shared_ptr<const KindRegistry> kinds;
  /// memory_budget_bytes = 0: the budget follows the SRS cache (rederive_budget); `host` is the
  /// machine's memory as it was when the engine started (what was available to it).
  const bool budget_derived;
  const HostMemory host;
  /// compiled_host_bytes() when the budget was last derived (a compiled circuit made or let go since:
  /// re-derive). Before `budget`: the first derivation counts the circuits held when the engine starts.
  std::atomic<std::uint64_t> compiled_seen{0};
  MemoryBudget budget;
  Reclaimer reclaimer;
  BufferPool pool;
  SrsManager srs;
  std::atomic<std::uint64_t> reserved{0};
  const Clock::time_point started = Clock::now();
  mutable std::mutex why_mu;
  std::string budget_why;                  ///< under why_mu
  std::atomic<bool> budget_stale{false};   ///< an SRS was evicted: re-derive the budget

  mutable std::mutex mu;
  std::condition_variable cv;       ///< queues changed / budget released / stop
  std::condition_variable done_cv;  ///< a job became final
  bool stop = false;
  std::uint64_t next_seq = 1;
  std::unordered_map<std::string, JobPtr> jobs;
  std::deque<std::string> finished_order;
  std::map<Key, JobPtr> prep_q;   ///< jobs to validate + load the SRS for (index −1)
  std::map<Key, JobPtr> synth_q;  ///< partitions to synthesize
  std::map<Key, std::unique_ptr<ProveItem>> prove_q;
  std::deque<JobPtr> finish_q;
  /// Jobs whose SRS another thread is loading, by SRS key: they hold no worker; the end of that
  /// load (SrsManager::set_on_load_done) moves them back to prep_q.
  std::multimap<std::string, JobPtr> parked;
  std::uint64_t srs_loads_ended = 0;  ///< loads ended so far (a prepare that saw "busy" re-checks it)
  std::size_t running[kStages][kPriorities] = {};
  std::size_t synth_active = 0, prove_active = 0;
  /// Jobs whose first partition is being synthesized now, by priority: it goes alone (nothing of its
  /// class or a lower one starts beside it).
  std::size_t first_in_synthesis[kPriorities] = {};
  /// Per parameter set (SRS key): moving averages of a partition's synthesis and prove-stage wall
  /// times (ms), what the feed limit is computed from (0: not measured yet).
  struct StageEstimate {
    double synthesis_ms = 0;
    double prove_ms = 0;
  };
  std::map<std::string, StageEstimate> estimates;
  std::vector<BackendState> backends;
  unsigned synth_workers = 0;

  // metrics (under mu)
  detail::Counters counters;

  // The timeline (Engine::timeline): recent stage spans, ids counted from 0; its own lock.
  static constexpr std::size_t kTimelineSpans = 8192;
  mutable std::mutex tl_mu;
  std::deque<StageSpan> spans;
  std::size_t spans_base = 0;  ///< id of spans.front()

  double since_start(Clock::time_point t) const { return std::chrono::duration<double>(t - started).count(); }
  /// `t`: the stage's start, taken where the item left its queue (under mu), so that spans order as
  /// the hand-offs did.
  std::size_t span_begin(const Job& job, std::size_t k, const char* stage, std::string lane, Clock::time_point t) {
    StageSpan s;
    s.request_id = job.req.request_id;
    s.kind = job.req.kind;
    s.partition = k;
    s.partitions = job.n;
    s.stage = stage;
    s.lane = std::move(lane);
    s.start_s = since_start(t);
    s.running = true;
    std::lock_guard lk(tl_mu);
    spans.push_back(std::move(s));
    if (spans.size() > kTimelineSpans) {
      spans.pop_front();
      ++spans_base;
    }
    return spans_base + spans.size() - 1;
  }
  void span_end(std::size_t id) {
    const double t = since_start(Clock::now());
    std::lock_guard lk(tl_mu);
    if (id < spans_base || id - spans_base >= spans.size()) return;  // dropped from the window already
    StageSpan& s = spans[id - spans_base];
    s.end_s = t;
    s.running = false;
  }

  /// Parameter sets preloaded (Engine::preload_srs) by a request naming the file, most recent first:
  /// offered to requests of the same kind that name none (ProofKind::prepare_preloaded) while they
  /// are resident. Its own lock.
  struct Preload {
    std::string kind;
    std::string params;  ///< the value of the kind's `srs` argument
    std::string key;     ///< the SRS key it was loaded under
  };
  mutable std::mutex preload_mu;
  std::deque<Preload> preloads;

  /// No lock held: records a preload (a key preloaded again moves to the front).
  void note_preload(Preload p) {
    std::lock_guard lk(preload_mu);
    std::erase_if(preloads, [&](const Preload& q) { return q.kind == p.kind && q.key == p.key; });
    preloads.push_front(std::move(p));
  }

  /// No lock held: the preloaded sets of `kind` resident now, most recently preloaded first.
  std::vector<PreloadedSrs> resident_preloads(std::string_view kind) const {
    std::vector<Preload> mine;
    {
      std::lock_guard lk(preload_mu);
      for (const Preload& p : preloads) {
        if (p.kind == kind) mine.push_back(p);
      }
    }
    std::vector<PreloadedSrs> out;
    for (Preload& p : mine) {
      if (auto s = srs.find(p.key)) out.push_back(PreloadedSrs{std::move(p.params), std::move(s)});
    }
    return out;
  }

  /// The value of the kind's first `srs` argument in `r` ("" when the request names no parameter file).
  static std::string srs_argument(const ProofKind& kind, const ProofRequest& r) {
    for (const ArgSpec& a : kind.arguments()) {
      if (!a.srs) continue;
      if (auto it = r.args.find(a.name); it != r.args.end() && !it->second.empty()) return it->second;
    }
    return "";
  }

  // ---- warm buffers (engine.hpp "Warm buffers"): its own lock and thread ----------------------------
  mutable std::mutex warm_mu;
  std::condition_variable warm_cv;
  /// Preloaded sets whose buffers are to be warmed, with the compiled circuit of the form their
  /// requests take by default (KindJob::compiled_form of the preload's job; null: prover mode).
  std::deque<std::pair<std::shared_ptr<const Srs>, std::shared_ptr<const r1cs::CompiledCircuit>>> warm_q;
  bool warm_stop = false;
  std::string warm_state;                          ///< MemoryStatus::warm_state (under warm_mu)
  std::atomic<std::uint64_t> warm_buffers{0}, warm_bytes{0}, warm_locked{0};
  std::atomic<std::uint64_t> prove_page_faults{0};
  std::thread warm_thread;

  std::size_t warm_target() const {
    return static_cast<std::size_t>(cfg.warm_partitions_per_prover) * cfg.backends.size() *
           cfg.prover_workers_per_backend;
  }

  /// No lock held: queues `srs` for the warmer (preload_srs).
  void request_warm(std::shared_ptr<const Srs> s, std::shared_ptr<const r1cs::CompiledCircuit> cc) {
    if (warm_target() == 0 || pool.max_bytes() == 0) return;
    std::lock_guard lk(warm_mu);
    warm_q.emplace_back(std::move(s), std::move(cc));
    warm_state = "warming";
    warm_cv.notify_all();
  }

  /// Writes one element per 4 KiB page of v's storage (resized to n, uninitialized), so that every
  /// page is faulted in (a read would map the shared zero page, and the first write fault again);
  /// the pages split over the machine's cores (at most 16 threads): the kernel zeroes each page it
  /// faults in, about 3-5 GB/s on one core, so the 33 GB of a 32 GiB PoRep's two warm sets took
  /// ~10 s on one thread before the first proof after a start could use them.
  static void fault_in(r1cs::FrVector& v, std::size_t n) {
    v.resize(n);
    constexpr std::size_t kPerPage = 4096 / sizeof(ff::Fr);
    const std::size_t pages = (n + kPerPage - 1) / kPerPage;
    const std::size_t threads =
        pages < (std::size_t{1} << 14) ? 1 : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
    auto touch = [&](std::size_t w) {
      for (std::size_t pg = pages * w / threads; pg < pages * (w + 1) / threads; ++pg) v[pg * kPerPage] = ff::Fr::zero();
    };
    std::vector<std::thread> ts;
    for (std::size_t w = 1; w < threads; ++w) ts.emplace_back(touch, w);
    touch(0);
    for (auto& t : ts) t.join();
  }

  /// The warmer thread: for each queued set, buffer sets of its shape into the pool until it holds
  /// warm_target() of at least its partition bytes; stops at the budget or at shutdown.
  void warmer() {
    std::unique_lock lk(warm_mu);
    for (;;) {
      warm_cv.wait(lk, [&] { return warm_stop || !warm_q.empty(); });
      if (warm_stop) return;
      std::shared_ptr<const Srs> set = std::move(warm_q.front().first);
      const std::shared_ptr<const r1cs::CompiledCircuit> cc = std::move(warm_q.front().second);
      warm_q.pop_front();
      lk.unlock();
      const groth16::Parameters& p = set->params;
      if (cc && witness_only_partitions(p, *cc)) {
        // Its partitions are witness-only (the compiled form, evaluated on the devices): their host
        // buffers are the witness, a fraction of a set of a, b, c, and no device copies from them
        // but the packed witness: nothing to warm (a, b, c sets would hold ~33 GB at 32 GiB unused).
        log()->info("warm buffers key={}: none needed (the compiled form, evaluated on the devices: a partition's "
                    "host buffers are its witness, at most {} bytes)",
                    set->key, witness_buffer_bytes(p));
        set.reset();
        lk.lock();
        if (warm_q.empty()) warm_state = "warm";
        continue;
      }
      const std::uint64_t est = partition_buffer_bytes(p);
      // A warmed set's capacity: a, b, c and the assignments (the density words are not pre-sized).
      const std::uint64_t set_bytes =
          sizeof(ff::Fr) * (3 * std::uint64_t{p.domain_size()} + p.num_inputs() + p.num_aux());
      bool out_of_budget = false;
      double fault_ms = 0, lock_ms = 0;
      for (std::size_t have = pool.pooled_count_at_least(set_bytes); have < warm_target(); ++have) {
        {
          std::lock_guard sl(warm_mu);
          if (warm_stop) break;
        }
        if (!budget.try_acquire(est)) {
          out_of_budget = true;
          break;
        }
        const auto t_fault = Clock::now();
        r1cs::ProvingBuffers b;
        fault_in(b.a, p.domain_size());
        fault_in(b.b, p.domain_size());
        fault_in(b.c, p.domain_size());
        fault_in(b.input_assignment, p.num_inputs());
        fault_in(b.aux_assignment, p.num_aux());
        const auto t_lock = Clock::now();
        std::uint64_t locked = 0;
        for (const auto& be : cfg.backends) {
          if (be->in_service()) locked = std::max(locked, be->warm_host_buffers(b));  // one lock serves every device
        }
        fault_ms += ms_between(t_fault, t_lock);
        lock_ms += ms_between(t_lock, Clock::now());
        b.clear();
        const std::uint64_t bytes = buffer_bytes(b);
        if (bytes > est) budget.charge(bytes - est);
        if (bytes < est) budget.release(est - bytes);
        warm_buffers += 1;
        warm_bytes += bytes;
        warm_locked += locked;
        pool.give_back(std::move(b));  // charged: now pooled
      }
      log()->info("warm buffers key={} sets={} bytes={} locked_bytes={} fault_ms={:.0f} lock_ms={:.0f}{}", set->key,
                  warm_buffers.load(), warm_bytes.load(), warm_locked.load(), fault_ms, lock_ms,
                  out_of_budget ? " (stopped: memory budget full)" : "");
      set.reset();
      lk.lock();
      if (warm_q.empty()) warm_state = out_of_budget ? "budget" : "warm";
    }
  }

  std::vector<std::thread> threads;

  explicit Impl(EngineConfig c)
      : cfg(std::move(c)),
        kinds(cfg.kinds ? cfg.kinds : KindRegistry::builtin()),
        budget_derived(cfg.memory_budget_bytes == 0),
        host(budget_derived ? host_memory_at_start() : HostMemory{}),
        compiled_seen(compiled_host_bytes()),
        budget(budget_derived ? derive_memory_budget(host, 0, compiled_seen.load()).bytes : cfg.memory_budget_bytes),
        reclaimer(budget, cfg.reclaimer),
        pool(budget, reclaimer, cfg.pool_max_bytes),
        srs(cfg.srs_budget_bytes) {
    if (cfg.backends.empty()) throw std::invalid_argument("Engine: EngineConfig::backends is empty (give at least one)");
    for (const auto& b : cfg.backends) {
      if (!b) throw std::invalid_argument("Engine: EngineConfig::backends holds a null backend");
    }
    if (cfg.prover_workers_per_backend == 0) cfg.prover_workers_per_backend = 1;
    synth_workers = cfg.synthesis_workers ? cfg.synthesis_workers : std::max(1u, std::thread::hardware_concurrency());
    backends.resize(cfg.backends.size());
    // GPU backends only: parameter sets keep no host copy of their queries (groth16::load_parameters).
    groth16::set_host_queries(std::all_of(cfg.backends.begin(), cfg.backends.end(),
                                          [](const auto& b) { return b->name() == "cuda"; })
                                  ? groth16::HostQueries::LeaveInFile
                                  : groth16::HostQueries::Keep);
    budget.set_listener([this] { cv.notify_all(); });
    // A parameter set that leaves the SRS cache leaves every backend too (a GPU's device copy).
    if (budget_derived) {
      budget_why = derive_memory_budget(host, 0, compiled_seen.load()).why;
    } else {
      budget_why = "configured: " + std::to_string(cfg.memory_budget_bytes) + " bytes";
    }
    srs.set_on_evict([this](const Srs& s) {
      for (const auto& b : cfg.backends) b->evict(s.params);
      // its compiled circuit goes with it (kept, it would hold gigabytes of host memory for nothing)
      if (const auto cc = release_compiled_circuit(s.key)) {
        for (const auto& b : cfg.backends) b->release_compiled(*cc);
      }
      if (cfg.on_srs_evict) cfg.on_srs_evict(s.params);
      budget_stale.store(true);  // re-derived by the next synthesis worker pass (the SRS lock is held here)
    });
    srs.set_on_load_done([this](const std::string& key) {
      rederive_budget();
      unpark(key);
    });
    for (unsigned i = 0; i < synth_workers; ++i) threads.emplace_back([this, i] { synth_worker(i); });
    for (std::size_t b = 0; b < cfg.backends.size(); ++b) {
      for (unsigned w = 0; w < cfg.prover_workers_per_backend; ++w) {
        threads.emplace_back([this, b, w] { prove_worker(static_cast<int>(b), w); });
      }
    }
    threads.emplace_back([this] { finisher(); });
    warm_state = warm_target() == 0 || pool.max_bytes() == 0 ? "off" : "idle";
    warm_thread = std::thread([this] { warmer(); });
    log()->info("engine start backends={} prover_workers_per_backend={} synthesis_workers={} budget_bytes={} "
                "budget_source={} budget=\"{}\" srs_budget_bytes={} reclaimer={} overlap={}",
                cfg.backends.size(), cfg.prover_workers_per_backend, synth_workers, budget.total(),
                budget_derived ? "derived" : "configured", budget_why, cfg.srs_budget_bytes, cfg.reclaimer,
                cfg.overlap);
  }

  /// A derived budget follows the SRS host bytes resident now (no engine lock needed; takes the
  /// SRS manager's). Logs a change.
  void rederive_budget() {
    if (!budget_derived) return;
    budget_stale.store(false);
    // Under why_mu from reading the SRS bytes to setting the total, so that two re-derivations
    // (a load ending, an eviction) cannot leave the older figure in place.
    std::lock_guard lk(why_mu);
    compiled_seen.store(compiled_host_bytes());
    const DerivedBudget d = derive_memory_budget(host, srs.resident_bytes(), compiled_seen.load());
    if (d.bytes == budget.total() && d.why == budget_why) return;
    budget_why = d.why;
    budget.set_total(d.bytes);
    log()->info("memory budget derived budget_bytes={} budget=\"{}\"", d.bytes, d.why);
  }

  ~Impl() {
    std::vector<std::unique_ptr<ProveItem>> drop;
    std::vector<std::unique_ptr<SrsLease>> leases;
    {
      std::lock_guard lk(mu);
      stop = true;
      for (auto& [id, job] : jobs) {
        if (!is_final(job->state)) finalize_locked(*job, JobState::Cancelled, "engine shut down", leases);
      }
      synth_q.clear();
      prep_q.clear();
      parked.clear();
      for (auto& [k, item] : prove_q) drop.push_back(std::move(item));
      prove_q.clear();
      finish_q.clear();
    }
    cv.notify_all();
    done_cv.notify_all();
    {
      std::lock_guard wl(warm_mu);
      warm_stop = true;
      warm_q.clear();
    }
    warm_cv.notify_all();
    warm_thread.join();
    for (auto& t : threads) t.join();
    srs.set_on_load_done(nullptr);
    for (auto& item : drop) release_partition(std::move(item->buf), item->reserved);
    for (auto& [id, job] : jobs) leases.push_back(std::move(job->lease));
    leases.clear();
    reclaimer.flush();
    budget.set_listener(nullptr);
  }

  // ---- helpers (mu held unless said otherwise) ----------------------------------------------------

  static int pri(const Job& j) { return static_cast<int>(j.priority); }

  ProofResult snapshot_locked(const Job& j) const {
    if (is_final(j.state)) return j.result;
    ProofResult r;
    r.request_id = j.req.request_id;
    r.kind = j.req.kind;
    r.priority = j.priority;
    r.state = j.state;
    r.num_partitions = j.n;
    r.partitions_done = j.proved;
    r.partitions_synthesized = j.synthesized;
    return r;
  }

  /// Makes the job final; fills its result; drops its queued items (their buffers are appended to
  /// `drop` … released by the caller after unlocking); hands the SRS lease out when nothing of the
  /// job is running any more.
  void finalize_locked(Job& j, JobState state, const std::string& error, std::vector<std::unique_ptr<SrsLease>>& leases,
                       std::vector<std::unique_ptr<ProveItem>>* drop = nullptr) {
    j.state = state;
    j.error = error;
    j.finished = Clock::now();
    if (state != JobState::Done) j.cancel.store(true, std::memory_order_relaxed);  // running partitions stop
    for (auto* q : {&prep_q, &synth_q}) {
      for (auto it = q->begin(); it != q->end();) it = std::get<1>(it->first) == j.seq ? q->erase(it) : std::next(it);
    }
    for (auto it = parked.begin(); it != parked.end();) it = it->second.get() == &j ? parked.erase(it) : std::next(it);
    for (auto it = prove_q.begin(); it != prove_q.end();) {
      if (std::get<1>(it->first) == j.seq) {
        if (drop != nullptr) drop->push_back(std::move(it->second));
        it = prove_q.erase(it);
      } else {
        ++it;
      }
    }
    ProofResult& r = j.result;
    r.request_id = j.req.request_id;
    r.kind = j.req.kind;
    r.priority = j.priority;
    r.state = state;
    r.error = error;
    r.failure = state == JobState::Done ? Failure::None : state == JobState::Cancelled ? Failure::Cancelled : j.failure;
    r.num_partitions = j.n;
    r.partitions_done = j.proved;
    r.partitions_synthesized = j.synthesized;
    r.timings.total = ms_between(j.submitted, j.finished);
    if (state == JobState::Done) {
      ++counters.done;
    } else if (state == JobState::Failed) {
      ++counters.failed;
    } else {
      ++counters.cancelled;
    }
    if (j.active == 0) {
      drop_request_data_locked(j);
      if (j.lease) leases.push_back(std::move(j.lease));
    }
    finished_order.push_back(j.req.request_id);
    while (finished_order.size() > cfg.max_finished_jobs) {
      auto it = jobs.find(finished_order.front());
      if (it != jobs.end() && is_final(it->second->state)) jobs.erase(it);
      finished_order.pop_front();
    }
    done_cv.notify_all();
    cv.notify_all();
    if (state != JobState::Done) {
      log()->info("job id={} kind={} state={} error=\"{}\"", j.req.request_id, j.req.kind, to_string(state), error);
    }
  }

  /// Outside mu: the partition's buffers go back to the pool (or the reclaimer); the reservation
  /// becomes a charge of the buffers' real capacity.
  void release_partition(r1cs::ProvingBuffers&& buf, std::uint64_t reserved_bytes) {
    budget.charge(buffer_bytes(buf));
    budget.release(reserved_bytes);
    reserved -= reserved_bytes;
    pool.give_back(std::move(buf));
  }

  /// Outside mu.
  void fail_job(const JobPtr& job, const std::string& error, Failure failure) {
    std::vector<std::unique_ptr<ProveItem>> drop;
    std::vector<std::unique_ptr<SrsLease>> leases;
    {
      std::lock_guard lk(mu);
      if (is_final(job->state)) return;
      job->failure = failure;
      finalize_locked(*job, JobState::Failed, error, leases, &drop);
    }
    for (auto& item : drop) release_partition(std::move(item->buf), item->reserved);
  }

  /// mu held: the job's lease once it is final and idle (destroyed by the caller after unlocking).
  std::unique_ptr<SrsLease> take_idle_lease_locked(Job& j) {
    if (!is_final(j.state) || j.active != 0) return nullptr;
    drop_request_data_locked(j);
    return std::move(j.lease);
  }

  /// mu held, the job final and idle: its input (payload, parsed input, the front end's KindJob)
  /// is let go. Never while an item of it runs: a prepare reads them without the lock (a cancel
  /// that cleared them under a running prepare was a data race, found by TSan in CI).
  static void drop_request_data_locked(Job& j) {
    j.req.payload.clear();
    j.req.payload.shrink_to_fit();
    j.req.parsed_input.reset();
    j.req.prepared.reset();
  }

  // ---- prepare: validate, load SRS, enqueue partitions (no lock held) -----------------------------

  /// Thrown by a load's progress callback when nobody wants the load any more (see load_wanted).
  struct LoadAbandoned : std::runtime_error {
    using std::runtime_error::runtime_error;
  };

  /// Called (no lock held) by SrsManager when a load of `key` ended: the jobs parked on it go back to
  /// the prepare queue (they find the set resident, or retry the load and get its error).
  void unpark(const std::string& key) {
    std::lock_guard lk(mu);
    ++srs_loads_ended;
    auto [b, e] = parked.equal_range(key);
    for (auto it = b; it != e; ++it) prep_q.emplace(Key{pri(*it->second), it->second->seq, -1}, it->second);
    parked.erase(b, e);
    cv.notify_all();
  }

  /// The progress callback of a load that `job` runs: throws LoadAbandoned when the engine shuts down,
  /// or when the job is final (cancelled) and no other job is parked on the key, so a worker is not
  /// held by a load nobody waits for. A kind's loader calls it between its phases.
  void check_load_wanted(const Job& job, const std::string& key) {
    std::lock_guard lk(mu);
    if (stop) throw LoadAbandoned("engine shut down");
    if (is_final(job.state) && parked.count(key) == 0) throw LoadAbandoned("job " + job.req.request_id + " cancelled");
  }

  /// The job's KindJob: validated now, or kept from an earlier prepare that parked the job.
  std::shared_ptr<const KindJob> prepare_kind_job(const Job& job, std::shared_ptr<const KindJob> kept) {
    if (kept) return kept;
    const ProofKind* kind = kinds->find(job.req.kind);
    if (kind == nullptr) {
      std::string known;
      for (const auto& n : kinds->names()) known += (known.empty() ? "" : ", ") + n;
      throw std::invalid_argument("unknown proof kind '" + job.req.kind + "' (known: " + known + ")");
    }
    check_arguments(*kind, job.req);
    check_srs_files(kind->name(), kind->arguments(), job.req);
    if (job.req.prepared) return job.req.prepared;  // the front end's check made it (ProofRequest::prepared)
    return prepare_with_preloads(*kind, job.req);
  }

  /// No lock held: the kind's prepare, offered the preloaded sets of its kind when the request
  /// names no parameter file (a preloaded set of its circuit serves it).
  std::shared_ptr<const KindJob> prepare_with_preloads(const ProofKind& kind, const ProofRequest& r) const {
    if (srs_argument(kind, r).empty()) {
      const std::vector<PreloadedSrs> pre = resident_preloads(kind.name());
      if (!pre.empty()) return kind.prepare_preloaded(r, pre);
    }
    return kind.prepare(r);
  }

  void do_prepare(const JobPtr& job) {
    try {
      std::shared_ptr<const KindJob> kept;
      std::uint64_t loads_ended = 0;
      {
        std::lock_guard lk(mu);
        kept = job->kjob;
        loads_ended = srs_loads_ended;
      }
      std::shared_ptr<const KindJob> kj = prepare_kind_job(*job, std::move(kept));
      const std::size_t n = kj->num_partitions();
      if (n == 0) throw std::invalid_argument("the request has no partitions");
      if (!job->req.randomizers.empty() && job->req.randomizers.size() != n) {
        throw std::invalid_argument("fixed randomizers (r, s): got " + std::to_string(job->req.randomizers.size()) +
                                    " pairs, expected " + std::to_string(n) + " (one per partition) or none");
      }
      const std::string key = kj->srs_key();
      {
        // Cancelled while it was being prepared: take no lease (a client that saw CANCELLED may evict
        // the set at once; EvictSRS refuses a set in use).
        std::lock_guard lk(mu);
        if (is_final(job->state)) return;
      }
      double load_ms = 0;
      bool busy = false;
      auto lease = srs.acquire(
          key,
          [&](const std::function<void(double)>& p) {
            return kj->load_srs([&](double x) {
              check_load_wanted(*job, key);
              p(x);
            });
          },
          &load_ms, &busy);
      if (busy) {
        // Another job loads this set: park this one (no worker held) until that load ends.
        std::lock_guard lk(mu);
        if (is_final(job->state)) return;
        job->kjob = kj;
        if (!job->parked) {
          job->parked = true;
          job->parked_at = Clock::now();
        }
        if (srs_loads_ended != loads_ended) {
          prep_q.emplace(Key{pri(*job), job->seq, -1}, job);  // a load ended meanwhile: look again
          cv.notify_all();
        } else {
          parked.emplace(key, job);
        }
        return;
      }
      if (job->parked) load_ms = ms_between(job->parked_at, Clock::now());  // waited for another job's load
      kj->check(lease->srs());
      std::uint64_t bytes = kj->partition_bytes(lease->srs());
      // The compiled form evaluated on the devices: a partition's host buffers are its witness alone
      // (engine.hpp "The compiled form"), and none of its partitions is evaluated at synthesis.
      bool witness_only = false;
      if (const auto cc = kj->compiled_form(lease->srs()); cc && witness_only_partitions(lease->srs().params, *cc)) {
        bytes = std::min(bytes, witness_buffer_bytes(lease->srs().params));
        witness_only = true;
      }
      if (bytes > budget.total()) {
        throw std::invalid_argument("one partition needs " + std::to_string(bytes) +
                                    " bytes of buffers; the engine's memory budget is " +
                                    std::to_string(budget.total()) + " bytes");
      }
      std::lock_guard lk(mu);
      if (is_final(job->state)) return;  // cancelled meanwhile; the lease is dropped on return
      job->kjob = std::move(kj);
      job->srs = lease->shared();
      job->lease = std::move(lease);
      job->srs_load_ms = load_ms;
      job->n = n;
      job->part_bytes = bytes;
      if (witness_only) job->evaluate_at_synthesis.store(0);
      job->proofs.resize(n);
      job->inputs.resize(n);
      job->pt.resize(n);
      for (std::size_t k = 0; k < n; ++k) synth_q.emplace(Key{pri(*job), job->seq, static_cast<std::int64_t>(k)}, job);
      cv.notify_all();
    } catch (const LoadAbandoned& e) {
      fail_job(job, std::string("SRS load abandoned: ") + e.what(), Failure::Cancelled);  // the job is final already: no-op
    } catch (const std::exception& e) {
      fail_job(job, std::string("bad request: ") + e.what(), classify(e));
    }
  }

  // ---- synthesis (no lock held) -------------------------------------------------------------------

  /// What admitting one partition gave it: a buffer (pooled, its pages faulted in already, or
  /// fresh) and the bytes reserved for it (the estimate, or the pooled buffer's capacity if larger).
  struct Admission {
    r1cs::ProvingBuffers buf;
    std::uint64_t reserved = 0;
  };

  /// Admits a partition of `bytes` into the budget. A pooled buffer is taken with its charge (so a
  /// budget that is full of pooled buffers admits the next partition into one of them instead of
  /// freeing it and faulting a fresh one in); only the part of `bytes` beyond its capacity is
  /// acquired. false: it does not fit yet (nothing changed).
  bool admit(std::uint64_t bytes, Admission& out) {
    if (std::optional<BufferPool::Taken> t = pool.take_charged(bytes)) {
      const std::uint64_t extra = bytes > t->bytes ? bytes - t->bytes : 0;
      if (extra == 0 || budget.try_acquire(extra)) {
        out.reserved = t->bytes + extra;
        out.buf = std::move(t->buf);
        return true;
      }
      pool.put_back_charged(std::move(*t));
      return false;
    }
    if (!budget.try_acquire(bytes)) return false;
    pool.note_fresh();
    out.reserved = bytes;
    return true;
  }

  /// Whether compiled-form partitions of params (circuit cc) need no host a, b, c: some backend is in
  /// service and none fills them (ProverBackend::compiled_needs_host_rows; a GPU evaluating on its
  /// device). Then the engine reserves witness_buffer_bytes for such a partition and warms nothing.
  bool witness_only_partitions(const groth16::Parameters& params, const r1cs::CompiledCircuit& cc) const {
    bool any = false;
    for (const auto& be : cfg.backends) {
      if (!be->in_service()) continue;
      if (be->compiled_needs_host_rows(params, cc)) return false;
      any = true;
    }
    return any;
  }

  /// Whether `job`'s compiled-form partitions (circuit cc) are evaluated in the synthesis stage:
  /// when some backend in service would evaluate them on the host inside its prove call
  /// (ProverBackend::evaluates_compiled), so that its device does not idle meanwhile. Decided at the
  /// job's first such partition and logged.
  bool evaluate_at_synthesis(Job& job, const r1cs::CompiledCircuit& cc) {
    const int known = job.evaluate_at_synthesis.load();
    if (known >= 0) return known == 1;
    std::string which;
    for (const auto& be : cfg.backends) {
      if (be->in_service() && !be->evaluates_compiled(job.srs->params, cc)) which = std::string(be->name());
    }
    int expected = -1;
    if (job.evaluate_at_synthesis.compare_exchange_strong(expected, which.empty() ? 0 : 1) && !which.empty()) {
      log()->info("job {}: the compiled circuit is evaluated on the host at synthesis (backend {} has no room for it "
                  "on its device)",
                  job.req.request_id, which);
    }
    return job.evaluate_at_synthesis.load() == 1;
  }

  void do_synthesize(const JobPtr& job, std::size_t k, Admission adm, groth16::ByteSource& rng, Clock::time_point t0) {
    PartitionTimings t;
    t.index = k;
    t.srs_load = job->srs_load_ms;
    t.queue_wait = std::max(0.0, ms_between(job->submitted, t0) - job->srs_load_ms);
    const std::uint64_t reserved_bytes = adm.reserved;
    r1cs::ProvingBuffers buf = std::move(adm.buf);
    std::vector<ff::Fr> inputs;
    groth16::Randomizers rs;
    try {
      {
        // The kind's ProvingAssignment polls the job's flag and stays within the shape the
        // parameters allow (so its buffers stay within the bytes reserved for them).
        const groth16::Parameters& params = job->srs->params;
        const r1cs::CancelScope cancel_scope(
            &job->cancel, r1cs::SynthesisLimits{params.domain_size(), params.num_inputs(), params.num_aux()});
        const fault::JobScope fault_scope(job->req.request_id);
        job->kjob->synthesize(k, *job->srs, buf);
      }
      if (buf.compiled && evaluate_at_synthesis(*job, *buf.compiled)) {
        r1cs::evaluate_in_place(buf);  // the evaluated form from here on: every backend proves it as such
      }
      groth16::check_partition_shape(job->srs->params, buf, k);
      inputs = job->kjob->public_inputs(k, buf);
      rs = job->req.randomizers.empty() ? groth16::draw_randomizers(1, rng).front() : job->req.randomizers[k];
    } catch (const r1cs::SynthesisError& e) {
      release_partition(std::move(buf), reserved_bytes);  // partly filled: its capacity goes back to the pool
      // Cancelled: the flag is only set once the job is final (fail_job is then a no-op).
      if (e.code() != r1cs::SynthesisErrorCode::Cancelled)
        fail_job(job, "partition " + std::to_string(k) + ": synthesis failed: " + e.what(), Failure::BadInput);
      return;
    } catch (const std::exception& e) {
      release_partition(std::move(buf), reserved_bytes);
      fail_job(job, "partition " + std::to_string(k) + ": synthesis failed: " + e.what(), classify(e));
      return;
    }
    const auto t1 = Clock::now();
    t.synthesis = ms_between(t0, t1);
    {
      std::lock_guard lk(mu);
      if (!is_final(job->state)) {
        ++job->synthesized;
        job->synth_ms_ema = ema(job->synth_ms_ema, t.synthesis);
        StageEstimate& est = estimates[job->srs->key];
        est.synthesis_ms = ema(est.synthesis_ms, t.synthesis);
        job->inputs[k] = std::move(inputs);
        auto item = std::make_unique<ProveItem>();
        item->job = job;
        item->k = k;
        item->buf = std::move(buf);
        item->rs = rs;
        item->reserved = reserved_bytes;
        item->synth_done = t1;
        item->t = t;
        prove_q.emplace(Key{pri(*job), job->seq, static_cast<std::int64_t>(k)}, std::move(item));
        cv.notify_all();
        return;
      }
    }
    release_partition(std::move(buf), reserved_bytes);  // cancelled while synthesizing
  }

  /// mu held (by `lk`): one item of `job` left stage `stage` (priority `p`); drops the job's SRS
  /// lease (outside the lock) when the job is final and nothing of it runs any more.
  void item_done(std::unique_lock<std::mutex>& lk, Job& job, int stage, int p) {
    --running[stage][p];
    --job.active;
    auto lease = take_idle_lease_locked(job);
    cv.notify_all();
    lk.unlock();
    lease.reset();
    lk.lock();
  }

  // ---- latency-first scheduling (mu held) ---------------------------------------------------------

  static double ema(double avg, double x) { return avg <= 0 ? x : 0.7 * avg + 0.3 * x; }

  /// Prover workers of the backends in service (every worker when none is: they fail the items).
  std::size_t provers_locked() const {
    std::size_t n = 0;
    for (const auto& be : cfg.backends) n += be->in_service() ? cfg.prover_workers_per_backend : 0;
    return n > 0 ? n : cfg.backends.size() * cfg.prover_workers_per_backend;
  }

  /// Partitions of priority `p` being synthesized or waiting for a prover, plus those of the more
  /// urgent classes being synthesized (they share the cores; the ones waiting for a prover do not
  /// hold back a less urgent class's synthesis, which then is ready when the prover is).
  std::size_t in_flight_locked(int p) const {
    std::size_t n = 0;
    for (int q = 0; q <= p; ++q) n += running[1][q];
    for (const auto& [key, item] : prove_q) {
      if (std::get<0>(key) > p) break;
      n += std::get<0>(key) == p;
    }
    return n;
  }

  /// How many partitions of `job`'s class and the more urgent ones may be in flight (being
  /// synthesized or waiting for a prover) and still keep the provers fed: one per prover worker
  /// when a synthesis is no slower than a proof (the next is synthesized while the prover works on
  /// the last), ⌈provers · S / P⌉ when it is slower (that many syntheses must run at once for a
  /// partition to come out every P / provers); S = the job's synthesis wall time per partition (as
  /// measured with the syntheses beside it), P = the prove-stage time of its parameter set (taken
  /// as S while none was measured); at most provers + synthesis workers.
  std::size_t feed_limit_locked(const Job& job) const {
    const std::size_t provers = provers_locked();
    double s = job.synth_ms_ema;
    double pr = 0;
    if (job.srs) {
      if (auto it = estimates.find(job.srs->key); it != estimates.end()) {
        pr = it->second.prove_ms;
        if (s <= 0) s = it->second.synthesis_ms;
      }
    }
    if (s <= 0) return provers;
    if (pr <= 0) pr = s;
    const double need = std::ceil(static_cast<double>(provers) * s / pr - 1e-9);
    return std::clamp<std::size_t>(static_cast<std::size_t>(need), provers, provers + synth_workers);
  }

  /// Whether the head partition of the synthesis queue (of `job`, priority `p`) may start now
  /// (engine.hpp, "Scheduling"): no first partition of its class or a more urgent one is being
  /// synthesized (a job's first partition goes alone, with every core); a job's later partitions
  /// wait until a prover took its first (or every prover worker is busy, so the first could not be
  /// taken now anyway); and in_flight_locked stays within feed_limit_locked. A more urgent class
  /// does not count the less urgent ones: it overtakes.
  bool may_start_locked(const Job& job, int p) const {
    for (int q = 0; q <= p; ++q) {
      if (first_in_synthesis[q] > 0) return false;
    }
    if (job.synth_started > 0 && !job.first_handed) {
      if (job.synthesized == 0 || prove_active < provers_locked()) return false;
    }
    return in_flight_locked(p) < feed_limit_locked(job);
  }

  /// Synthesis workers serve two queues: "prepare" items (validation + SRS load, no budget) and
  /// partitions (need budget). The smaller key goes first; a prepare item also goes when the
  /// partition at the head of the synthesis queue cannot be admitted yet.
  void synth_worker(unsigned slot) {
    groth16::OsRandom rng;
    std::unique_lock lk(mu);
    while (!stop) {
      auto pit = prep_q.begin();
      auto sit = synth_q.begin();
      if (pit == prep_q.end() && sit == synth_q.end()) {
        cv.wait(lk);
        continue;
      }
      if (budget_stale.load() || (budget_derived && compiled_host_bytes() != compiled_seen.load())) rederive_budget();
      bool admitted = false;
      bool blocked = false;
      Admission adm;
      if (sit != synth_q.end() && (pit == prep_q.end() || sit->first < pit->first)) {
        const JobPtr& job = sit->second;
        if (!cfg.overlap && (synth_active > 0 || prove_active > 0 || !prove_q.empty())) {
          blocked = true;
        } else if (cfg.overlap && !may_start_locked(*job, std::get<0>(sit->first))) {
          blocked = true;  // a hand-off to a prover or a synthesis ending wakes us (cv)
        } else if (admit(job->part_bytes, adm)) {
          admitted = true;
        } else if (job->part_bytes > budget.total()) {
          // The budget was re-derived below this job's partition after its prepare (an SRS load).
          JobPtr victim = job;
          lk.unlock();
          fail_job(victim, "bad request: one partition needs " + std::to_string(victim->part_bytes) +
                               " bytes of buffers; the engine's memory budget is now " +
                               std::to_string(budget.total()) + " bytes", Failure::BadInput);
          lk.lock();
          continue;
        } else {
          blocked = true;
          // The pooled buffers other than the one kept for this admission go to the reclaimer;
          // the budget listener wakes us when they are freed.
          if (pool.pooled_count() > 1) {
            lk.unlock();
            pool.shrink_keeping_largest();
            lk.lock();
            continue;
          }
        }
      }
      if (admitted) {
        const Key key = sit->first;
        JobPtr job = sit->second;
        const int p = std::get<0>(key);
        reserved += adm.reserved;
        synth_q.erase(sit);
        ++running[1][p];
        ++synth_active;
        ++job->active;
        const bool first = job->synth_started++ == 0;
        if (first) ++first_in_synthesis[p];
        const auto t0 = Clock::now();
        if (!job->started) {
          job->started = true;
          job->first_synth = t0;
          if (job->state == JobState::Queued) job->state = JobState::Running;
        }
        lk.unlock();
        const std::size_t span = span_begin(*job, static_cast<std::size_t>(std::get<2>(key)), "synthesis",
                                            "synthesis " + std::to_string(slot), t0);
        do_synthesize(job, static_cast<std::size_t>(std::get<2>(key)), std::move(adm), rng, t0);
        span_end(span);
        lk.lock();
        if (first) --first_in_synthesis[p];
        --synth_active;
        item_done(lk, *job, 1, p);
        continue;
      }
      if (pit != prep_q.end()) {
        JobPtr job = pit->second;
        const int p = std::get<0>(pit->first);
        prep_q.erase(pit);
        ++running[0][p];
        ++job->active;
        lk.unlock();
        do_prepare(job);
        lk.lock();
        item_done(lk, *job, 0, p);
        continue;
      }
      if (blocked) cv.wait_for(lk, std::chrono::milliseconds(20));
    }
  }

  // ---- proving ------------------------------------------------------------------------------------

  bool any_backend_in_service() const {
    for (const auto& be : cfg.backends) {
      if (be->in_service()) return true;
    }
    return false;
  }

  void prove_worker(int b, unsigned w) {
    groth16::ProverBackend& be = *cfg.backends[static_cast<std::size_t>(b)];
    const std::string be_name(be.name());
    const CriticalPathScope critical;  // frees on this thread are counted (MemoryStatus::critical_path_frees)
    const std::string lane = "backend " + std::to_string(b) + " (" + be_name + ") worker " + std::to_string(w);
    std::unique_lock lk(mu);
    for (;;) {
      // A backend out of service (a device it could not recover) takes no more work while another
      // one can; when none can, its worker fails the queued partitions instead of leaving them.
      cv.wait(lk, [&] { return stop || (!prove_q.empty() && (be.in_service() || !any_backend_in_service())); });
      if (stop) return;
      if (!be.in_service()) {
        auto node = prove_q.extract(prove_q.begin());
        std::unique_ptr<ProveItem> item = std::move(node.mapped());
        JobPtr job = item->job;
        lk.unlock();
        release_partition(std::move(item->buf), item->reserved);
        fail_job(job, "partition " + std::to_string(item->k) + ": no prover backend in service (backend " +
                          std::to_string(b) + " (" + be_name + "): " + be.fault() + ")", Failure::Internal);
        item.reset();
        lk.lock();
        cv.notify_all();
        continue;
      }
      auto node = prove_q.extract(prove_q.begin());
      std::unique_ptr<ProveItem> item = std::move(node.mapped());
      const int p = std::get<0>(node.key());
      JobPtr job = item->job;
      ++running[2][p];
      ++prove_active;
      ++job->active;
      ++backends[static_cast<std::size_t>(b)].busy;
      job->first_handed = true;  // its later partitions may start (latency-first)
      const auto t_stage = Clock::now();
      cv.notify_all();
      lk.unlock();

      const std::size_t span = span_begin(*job, item->k, "prove", lane, t_stage);
      PartitionTimings& t = item->t;
      t.prove_wait = ms_between(item->synth_done, t_stage);
      t.backend = b;
      t.backend_name = be_name;
      std::string error;
      Failure failure = Failure::Internal;
      groth16::Proof proof;
      try {
        const auto t_call = Clock::now();
        const std::uint64_t faults0 = thread_page_faults();
        const fault::JobScope fault_scope(job->req.request_id);
        groth16::ProverResult res = be.prove(job->srs->params, std::span<r1cs::ProvingBuffers>(&item->buf, 1),
                                             std::span<const groth16::Randomizers>(&item->rs, 1), &job->cancel);
        t.prover_call = ms_between(t_call, Clock::now());
        prove_page_faults += thread_page_faults() - faults0;
        if (res.proofs.size() != 1) throw std::runtime_error("backend returned " + std::to_string(res.proofs.size()) + " proofs for 1 partition");
        proof = res.proofs[0];
        t.kernel = res.timings.kernel;
        t.h2d = res.timings.h2d;
        t.backend_timings = res.timings;
        // The compiled form evaluated on the host by a device backend (its compiled circuit did not
        // fit the device budget; gpu/backend.hpp "Compiled form"): said once per job.
        if (res.timings.host_evaluations > 0 && be_name != "cpu" && !job->host_evaluation_logged.exchange(true)) {
          log()->warn("job {}: partition {}: the constraints were evaluated on the host by backend {} (the compiled "
                      "circuit does not fit its device budget beside the parameters and the working set)",
                      job->req.request_id, item->k, be_name);
        }
      } catch (const std::exception& e) {
        error = e.what();
        failure = classify(e);
      }
      span_end(span);
      // The stage ends with the result; the buffers go back to the pool after it (below), so their
      // hand-off (and, with the reclaimer off, their free) is never inside the stage timer.
      const auto t_end = Clock::now();
      t.stage = ms_between(t_stage, t_end);
      t.total = ms_between(job->submitted, t_end);

      if (!error.empty()) {
        fail_job(job, "partition " + std::to_string(item->k) + ": backend " + std::to_string(b) + " (" + be_name +
                          ") failed: " + error, failure);
        if (!be.fault().empty()) log()->warn("backend {} ({}): {}", b, be_name, be.fault());
      }
      lk.lock();
      --running[2][p];
      --prove_active;
      --job->active;
      --backends[static_cast<std::size_t>(b)].busy;
      bool logged = false;
      if (error.empty() && !is_final(job->state)) {
        job->proofs[item->k] = proof;
        job->pt[item->k] = t;
        ++job->proved;
        ++backends[static_cast<std::size_t>(b)].proved;
        StageEstimate& est = estimates[job->srs->key];
        est.prove_ms = ema(est.prove_ms, t.stage);
        ++counters.partitions;
        const double vals[] = {t.queue_wait, t.srs_load, t.synthesis, t.prove_wait, t.kernel, t.prover_call, t.stage, t.total};
        for (std::size_t i = 0; i < counters.partition.size(); ++i) counters.partition[i].observe_ms(vals[i]);
        if (job->proved == job->n) finish_q.push_back(job);
        logged = true;
      }
      auto lease = take_idle_lease_locked(*job);
      cv.notify_all();
      lk.unlock();
      release_partition(std::move(item->buf), item->reserved);
      lease.reset();
      if (logged && cfg.log_partitions) {
        log()->info(
            "partition job={} kind={} k={}/{} backend={}:{} queue_wait_ms={:.2f} srs_load_ms={:.2f} synthesis_ms={:.2f} "
            "prove_wait_ms={:.2f} h2d_ms={:.2f} kernel_ms={:.2f} prover_call_ms={:.2f} stage_ms={:.2f} total_ms={:.2f} "
            "srs_upload_ms={:.2f} srs_upload_bytes={}",
            job->req.request_id, job->req.kind, item->k, job->n, b, be_name, t.queue_wait, t.srs_load, t.synthesis,
            t.prove_wait, t.h2d, t.kernel, t.prover_call, t.stage, t.total, t.backend_timings.srs_upload,
            t.backend_timings.srs_upload_bytes);
      }
      item.reset();
      lk.lock();
    }
  }

  // ---- self-check and result ----------------------------------------------------------------------

  void finisher() {
    std::unique_lock lk(mu);
    for (;;) {
      cv.wait(lk, [&] { return stop || !finish_q.empty(); });
      if (stop) return;
      JobPtr job = finish_q.front();
      finish_q.pop_front();
      if (is_final(job->state)) continue;
      std::vector<groth16::Proof> proofs = job->proofs;
      std::vector<std::vector<ff::Fr>> inputs = job->inputs;
      lk.unlock();

      const auto t0 = Clock::now();
      bool ok = false;
      std::string why = "the proofs do not verify under the parameter set's verifying key";
      try {
        ok = job->kjob->verify(*job->srs, proofs, inputs);
      } catch (const std::exception& e) {
        why = std::string("verification threw: ") + e.what();
      }
      const auto t1 = Clock::now();
      // A failed check: the kind's own account of the input's fault, where it left one for now.
      Failure failure = Failure::SelfCheck;
      if (!ok) {
        try {
          job->kjob->explain_failed_check(*job->srs);
        } catch (const std::exception& e) {
          if (const Failure f = classify(e); f == Failure::BadInput || f == Failure::BadArgument) {
            failure = f;
            why = e.what();
          } else {
            why += std::string(" (looking for the input's fault failed: ") + e.what() + ")";
          }
        }
      }
      std::vector<std::uint8_t> bytes = ok ? groth16::encode_proofs(proofs) : std::vector<std::uint8_t>{};
      const auto t2 = Clock::now();

      std::vector<std::unique_ptr<SrsLease>> leases;
      lk.lock();
      if (is_final(job->state)) continue;
      if (!ok) {
        ++counters.self_check_failures;
        job->failure = failure;
        finalize_locked(*job, JobState::Failed,
                        (failure == Failure::SelfCheck ? "self-check failed: " : "the proofs failed the self-check: ") +
                            why,
                        leases);
      } else {
        ProofTimings& pt = job->result.timings;
        pt.queue_wait = ms_between(job->submitted, job->first_synth) - job->srs_load_ms;
        pt.srs_load = job->srs_load_ms;
        for (const auto& p : job->pt) {
          pt.synthesis += p.synthesis;
          pt.h2d += p.h2d;
          pt.kernel += p.kernel;
          pt.prover_call += p.prover_call;
          pt.stage += p.stage;
        }
        pt.verify = ms_between(t0, t1);
        pt.assemble = ms_between(t1, t2);
        job->result.proofs = std::move(proofs);
        job->result.proof_bytes = std::move(bytes);
        job->result.public_inputs = std::move(inputs);
        job->result.partitions = job->pt;
        job->result.srs_key = job->srs->key;
        finalize_locked(*job, JobState::Done, "", leases);
        const double vals[] = {pt.queue_wait, pt.srs_load, pt.assemble, pt.verify, pt.total};
        for (std::size_t i = 0; i < counters.proof.size(); ++i) counters.proof[i].observe_ms(vals[i]);
        if (cfg.log_partitions) {
          log()->info("job id={} kind={} state=done partitions={} queue_wait_ms={:.2f} srs_load_ms={:.2f} "
                      "synthesis_ms={:.2f} h2d_ms={:.2f} kernel_ms={:.2f} prover_call_ms={:.2f} stage_ms={:.2f} "
                      "assemble_ms={:.3f} verify_ms={:.2f} total_ms={:.2f}",
                      job->req.request_id, job->req.kind, job->n, pt.queue_wait, pt.srs_load, pt.synthesis, pt.h2d,
                      pt.kernel,
                      pt.prover_call, pt.stage, pt.assemble, pt.verify, pt.total);
        }
      }
      lk.unlock();
      leases.clear();
      lk.lock();
    }
  }
};

// ---- public API -----------------------------------------------------------------------------------

void check_request_id(const std::string& id) {
  if (id.size() > kMaxRequestIdBytes) {
    throw std::invalid_argument("request_id: " + std::to_string(id.size()) + " bytes, at most " +
                                std::to_string(kMaxRequestIdBytes) + " allowed");
  }
  for (std::size_t i = 0; i < id.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(id[i]);
    if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      throw std::invalid_argument("request_id: byte " + std::to_string(i) + " (" + hex +
                                  ") is not printable ASCII (allowed: space through '~'; control characters and "
                                  "non-ASCII bytes are not)");
    }
  }
}

Engine::Engine(EngineConfig cfg) : impl_(std::make_unique<Impl>(std::move(cfg))) {}
Engine::~Engine() = default;

const EngineConfig& Engine::config() const { return impl_->cfg; }

SubmitResult Engine::submit(ProofRequest request) {
  check_request_id(request.request_id);
  Impl& m = *impl_;
  std::lock_guard lk(m.mu);
  const std::uint64_t seq = m.next_seq++;
  if (request.request_id.empty()) {
    // A generated id must never name a job a client already called "job-N" (the new request would
    // be taken for a duplicate of it and get its proof): skip ids in use.
    std::uint64_t n = seq;
    do {
      request.request_id = "job-" + std::to_string(n++);
    } while (m.jobs.count(request.request_id) != 0);
  }
  auto it = m.jobs.find(request.request_id);
  if (it != m.jobs.end()) {
    ++m.counters.duplicates;
    return SubmitResult{request.request_id, true, it->second->state};
  }
  auto job = std::make_shared<Impl::Job>();
  job->seq = seq;
  if (request.priority) {
    job->priority = *request.priority;
  } else if (const ProofKind* kind = m.kinds->find(request.kind)) {
    job->priority = kind->default_priority();
  }
  job->req = std::move(request);
  job->submitted = Clock::now();
  m.jobs.emplace(job->req.request_id, job);
  m.prep_q.emplace(Impl::Key{Impl::pri(*job), seq, -1}, job);
  ++m.counters.submitted;
  m.cv.notify_all();
  return SubmitResult{job->req.request_id, false, JobState::Queued};
}

AwaitResult Engine::await(const std::string& request_id, std::chrono::milliseconds timeout) {
  Impl& m = *impl_;
  std::unique_lock lk(m.mu);
  auto it = m.jobs.find(request_id);
  if (it == m.jobs.end()) return AwaitResult{AwaitStatus::NotFound, {}};
  Impl::JobPtr job = it->second;
  auto done = [&] { return is_final(job->state); };
  if (timeout.count() < 0) {
    m.done_cv.wait(lk, done);
  } else if (!m.done_cv.wait_for(lk, timeout, done)) {
    return AwaitResult{AwaitStatus::TimedOut, m.snapshot_locked(*job)};
  }
  return AwaitResult{AwaitStatus::Ready, job->result};
}

AwaitResult Engine::prove(ProofRequest request, std::chrono::milliseconds timeout) {
  const SubmitResult s = submit(std::move(request));
  return await(s.request_id, timeout);
}

AwaitResult Engine::peek(const std::string& request_id) {
  Impl& m = *impl_;
  std::lock_guard lk(m.mu);
  auto it = m.jobs.find(request_id);
  if (it == m.jobs.end()) return AwaitResult{AwaitStatus::NotFound, {}};
  const auto& job = *it->second;
  return AwaitResult{is_final(job.state) ? AwaitStatus::Ready : AwaitStatus::TimedOut, m.snapshot_locked(job)};
}

CancelResult Engine::cancel(const std::string& request_id) {
  Impl& m = *impl_;
  CancelResult out;
  std::vector<std::unique_ptr<Impl::ProveItem>> drop;
  std::vector<std::unique_ptr<SrsLease>> leases;
  {
    std::lock_guard lk(m.mu);
    auto it = m.jobs.find(request_id);
    if (it == m.jobs.end()) return out;
    Impl::Job& job = *it->second;
    out.found = true;
    out.previous = job.state;
    if (is_final(job.state)) return out;
    for (const auto& [key, j] : m.synth_q) out.dropped_queued += std::get<1>(key) == job.seq;
    for (const auto& [key, item] : m.prove_q) out.dropped_queued += std::get<1>(key) == job.seq;
    out.stopping_running = job.active;
    m.finalize_locked(job, JobState::Cancelled, "cancelled by request", leases, &drop);
  }
  for (auto& item : drop) m.release_partition(std::move(item->buf), item->reserved);
  return out;
}

EngineStatus Engine::status() const {
  const Impl& m = *impl_;
  // an SRS evicted or a compiled circuit made or let go since the last derivation: status shows the
  // budget as the next synthesis pass will have it
  if (m.budget_derived && (m.budget_stale.load() || compiled_host_bytes() != m.compiled_seen.load())) {
    impl_->rederive_budget();
  }
  EngineStatus s;
  s.srs = m.srs.status([&](const Srs& srs, SrsStatus& st) { describe_device_holding(m.cfg.backends, srs.params, st); });
  s.memory.budget_bytes = m.budget.total();
  s.memory.used_bytes = m.budget.used();
  s.memory.reserved_bytes = m.reserved.load();
  s.memory.pooled_bytes = m.pool.pooled_bytes();
  s.memory.reclaim_pending_bytes = m.reclaimer.pending_bytes();
  s.memory.srs_bytes = m.srs.resident_bytes();
  for (auto& [cs, cc] : compiled_circuits_held()) {
    for (const auto& be : m.cfg.backends) cs.device_bytes += be->compiled_device_bytes(*cc);
    s.memory.compiled_bytes += cs.host_bytes;
    s.compiled.push_back(std::move(cs));
  }
  s.memory.srs_budget_bytes = m.srs.budget();
  s.memory.reclaimer_enabled = m.reclaimer.threaded();
  s.memory.freed_bytes_total = m.reclaimer.freed_bytes_total();
  s.memory.free_ms_total = m.reclaimer.free_ms_total();
  s.memory.critical_path_frees = m.reclaimer.critical_path_frees();
  s.memory.pool_hits = m.pool.hits();
  s.memory.pool_misses = m.pool.misses();
  {
    std::lock_guard wl(m.warm_mu);
    s.memory.warm_state = m.warm_state;
  }
  s.memory.warm_buffers = m.warm_buffers.load();
  s.memory.warm_bytes = m.warm_bytes.load();
  s.memory.warm_locked_bytes = m.warm_locked.load();
  s.memory.prove_page_faults = m.prove_page_faults.load();
  s.memory.budget_source = m.budget_derived ? "derived" : "configured";
  {
    std::lock_guard wl(m.why_mu);
    s.memory.budget_derivation = m.budget_why;
  }
  std::lock_guard lk(m.mu);
  for (std::size_t b = 0; b < m.backends.size(); ++b) {
    const groth16::ProverBackend& be = *m.cfg.backends[b];
    s.backends.push_back(BackendStatus{static_cast<int>(b), std::string(be.name()), m.cfg.prover_workers_per_backend,
                                       m.backends[b].busy, m.backends[b].proved, be.in_service(), be.fault(),
                                       be.recoveries()});
  }
  std::size_t pending[kStages][kPriorities] = {};
  for (const auto& [key, job] : m.prep_q) ++pending[0][std::get<0>(key)];
  for (const auto& [key, job] : m.parked) ++pending[0][m.pri(*job)];
  for (const auto& [key, job] : m.synth_q) ++pending[1][std::get<0>(key)];
  for (const auto& [key, item] : m.prove_q) ++pending[2][std::get<0>(key)];
  for (int st = 0; st < kStages; ++st) {
    for (int p = 0; p < kPriorities; ++p) {
      s.queues.push_back(QueueStatus{kStageNames[st], static_cast<Priority>(p), pending[st][p], m.running[st][p]});
    }
  }
  std::vector<const Impl::Job*> live;
  for (const auto& [id, job] : m.jobs) {
    if (!is_final(job->state)) live.push_back(job.get());
    EngineStatus::KindJobs& k = s.jobs_by_kind[job->req.kind];
    switch (job->state) {
      case JobState::Queued: ++s.jobs_queued; ++k.queued; break;
      case JobState::Running: ++s.jobs_running; ++k.running; break;
      case JobState::Done: ++s.jobs_done; ++k.done; break;
      case JobState::Failed: ++s.jobs_failed; ++k.failed; break;
      case JobState::Cancelled: ++s.jobs_cancelled; ++k.failed; break;
    }
  }
  std::sort(live.begin(), live.end(), [](const Impl::Job* a, const Impl::Job* b) { return a->seq < b->seq; });
  const auto now = Clock::now();
  for (const Impl::Job* j : live) {
    s.jobs.push_back(JobProgress{j->req.request_id, j->req.kind, j->priority, j->state, j->n, j->synthesized,
                                 j->proved, std::chrono::duration<double>(now - j->submitted).count()});
  }
  s.total_done = m.counters.done;
  s.total_failed = m.counters.failed;
  s.total_cancelled = m.counters.cancelled;
  s.synthesis_workers = m.synth_workers;
  s.overlap = m.cfg.overlap;
  s.uptime_seconds = std::chrono::duration<double>(Clock::now() - m.started).count();
  return s;
}

std::vector<StageSpan> Engine::timeline(double since_s) const {
  const Impl& m = *impl_;
  std::vector<StageSpan> out;
  const double now = m.since_start(Clock::now());
  std::lock_guard lk(m.tl_mu);
  for (const StageSpan& s : m.spans) {
    if (!s.running && s.end_s < since_s) continue;
    out.push_back(s);
    if (s.running) out.back().end_s = now;
  }
  return out;
}

std::string Engine::metrics_text() const {
  const EngineStatus st = status();
  const Impl& m = *impl_;
  detail::MetricsSnapshot snap;
  {
    std::lock_guard lk(m.mu);
    snap.counters = m.counters;
    for (std::size_t b = 0; b < m.backends.size(); ++b) {
      snap.backend_names.emplace_back(m.cfg.backends[b]->name());
      snap.backend_proved.push_back(m.backends[b].proved);
    }
  }
  snap.srs_loads = m.srs.loads_total();
  snap.srs_evictions = m.srs.evictions_total();
  snap.pool_hits = m.pool.hits();
  snap.pool_misses = m.pool.misses();
  return detail::metrics_text(snap, st);
}

SrsStatus Engine::preload_srs(const std::string& kind_name, const std::map<std::string, std::string>& args) {
  ProofRequest r;
  r.kind = kind_name;
  r.args = args;
  return preload_srs(r);
}

SrsStatus Engine::preload_srs(const ProofRequest& r) {
  Impl& m = *impl_;
  const ProofKind* kind = m.kinds->find(r.kind);
  if (kind == nullptr) throw std::invalid_argument("unknown proof kind '" + r.kind + "'");
  auto kj = kind->prepare_srs(r);
  const std::string key = kj->srs_key();
  const std::string named = Impl::srs_argument(*kind, r);
  {
    auto lease = m.srs.acquire(key, [&](const std::function<void(double)>& p) { return kj->load_srs(p); });
    // Onto every backend that holds parameters (a GPU's device memory, resident or streamed), so that
    // the first proof does not pay the upload: the "parameters loaded" of a single-proof latency.
    for (const auto& b : m.cfg.backends) {
      if (!b->in_service()) continue;
      try {
        const double ms = b->preload(lease->srs().params);
        if (ms > 0) log()->info("preload key={} backend={} upload_ms={:.1f}", key, b->name(), ms);
      } catch (const ProoflineError& e) {
        // Does not fit the device beside the rest: the first proof loads (or streams) it instead.
        log()->warn("preload key={} backend={}: {}", key, b->name(), e.what());
      }
    }
    // The compiled circuit the kind made at load (porep-c2: read or recorded), onto the devices
    // that evaluate it there, so that the first partition does not upload it.
    if (const auto cc = held_compiled_circuit(key)) {
      for (const auto& b : m.cfg.backends) {
        if (!b->in_service()) continue;
        try {
          const double ms = b->preload_compiled(lease->srs().params, cc);
          if (ms > 0) log()->info("preload key={} backend={} compiled circuit upload_ms={:.1f}", key, b->name(), ms);
        } catch (const ProoflineError& e) {
          log()->warn("preload key={} backend={}: the compiled circuit: {}", key, b->name(), e.what());
        }
      }
    }
    m.request_warm(lease->shared(), kj->compiled_form(lease->srs()));  // its partition buffers, in the background
  }
  if (!named.empty()) m.note_preload(Impl::Preload{std::string(kind->name()), named, key});
  for (const auto& s : m.srs.status()) {
    if (s.key == key) return s;
  }
  SrsStatus gone;  // evicted at once (larger than the SRS budget)
  gone.key = key;
  gone.state = "evicted";
  return gone;
}

std::shared_ptr<const KindJob> Engine::prepare_request(const ProofRequest& r) const {
  const ProofKind* kind = impl_->kinds->find(r.kind);
  if (kind == nullptr) throw std::invalid_argument("unknown proof kind '" + r.kind + "'");
  return impl_->prepare_with_preloads(*kind, r);
}

bool Engine::evict_srs(const std::string& key) {
  const bool evicted = impl_->srs.evict(key);
  if (evicted) impl_->rederive_budget();
  return evicted;
}

}  // namespace proofline::engine
