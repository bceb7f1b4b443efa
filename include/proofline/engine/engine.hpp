// proofline/engine/engine.hpp — the proving engine: jobs, priorities, the synthesis ∥ prove
// pipeline, SRS cache, memory budget, timings, self-check. The public API the daemon (server/,
// cli `proofline daemon|submit|status`) is built on. Stable: later changes are additive only.
//
// Owns: `Priority`, `JobState`, `ProofRequest`, `ProofResult` (+ `PartitionTimings`,
// `ProofTimings`), `SubmitResult`, `AwaitResult`, `CancelResult`, `EngineStatus`, `EngineConfig`,
// and `Engine`. Proof kinds (what a request means) live in kind.hpp; the memory budget, buffer pool
// and reclaimer in memory.hpp; the SRS cache in srs.hpp.
//
// ---- Flow of one request ------------------------------------------------------------------------
//   submit(request) ──► job QUEUED ──► [prepare]  kind validates the request, counts its N
//   partitions, names its parameter file; the SRS manager loads that file once (shared by every job
//   that names it) ──► N partition items enter the SYNTHESIS queue ──► a synthesis worker admits the
//   head item when its estimated buffer bytes fit the memory budget, synthesizes partition k into
//   r1cs::ProvingBuffers (recycled from the buffer pool), draws (r, s) (or takes the request's
//   ProofRequest::randomizers[k]) ──► PROVE queue ──► a prover worker of some backend calls
//   ProverBackend::prove on that one partition ──► buffers go back to
//   the pool or to the Reclaimer (still charged to the budget until really freed) ──► when all N
//   proofs are in: batch verification with the groth16 verifier (one multi-pairing for the N
//   partitions) ──► DONE with the proofs, or FAILED with the reason. Never an unverified proof.
// Synthesis of partition k+1 (and of other jobs' partitions) overlaps the proving of partition k;
// partition 0 goes first and alone ("Scheduling", latency-first).
//
// ---- Scheduling ---------------------------------------------------------------------------------
// A job's class is ProofRequest::priority, or when the request leaves it unset the kind's default
// (ProofKind::default_priority: WinningPoSt CRITICAL, WindowPoSt HIGH, the rest NORMAL), fixed at
// submit. Both queues (synthesis, prove) are ordered by (priority, job sequence number, partition index):
// CRITICAL < HIGH < NORMAL < LOW; FIFO (submission order) within a class; a job's partitions in
// index order. A CRITICAL job's items therefore go ahead of all queued work at every stage. Work
// already running (a synthesis or a backend call) is never interrupted. The synthesis queue is
// strictly ordered: if its head does not fit the memory budget yet, nothing behind it passes.
// Latency-first (issue 32; with overlap on): a job's first partition is synthesized alone — while it
// is, no partition of its class or a lower one starts beside it, so its synthesis has every core
// (kinds synthesize on the shared oneTBB pool) — and goes to the prove queue the moment it is done.
// The job's later partitions wait until a prover worker took that first one (or every prover
// worker is busy, so it could not be taken now anyway), then are synthesized while the prover works,
// no more at once than keep the provers fed: the partitions of a class that are being synthesized or
// wait for a prover, plus the more urgent classes' partitions being synthesized, stay within
// max(provers, ⌈provers · S / P⌉)
// (provers = prover workers of the backends in service; S = the job's synthesis wall time per
// partition, P = its parameter set's prove-stage time, moving averages; P = S until a partition was
// proved; at most provers + synthesis_workers): with S ≤ P, partition k+1 is synthesized while the
// prover works on partition k, so a job of N partitions takes about S + N·P. A more urgent class
// counts only its own partitions, so a CRITICAL job still overtakes at once; a sustained stream keeps
// the provers fed (the next job's first partition follows the last one's in the same limit).
// A job's "prepare" step (validation + SRS load) also runs on a synthesis worker, from its own
// queue in the same order; a worker takes whichever head is first in that order, and takes the
// prepare head also when the synthesis head cannot be admitted yet (so validation and SRS loads of
// queued jobs proceed while partitions wait for memory).
// A job whose parameter set another job is loading right now does not wait on a worker: it is
// parked (status counts it as a pending "prepare" item) and goes back to the prepare queue when that
// load ends, so jobs of other kinds keep flowing while a long load (a PoRep .params of tens of GB)
// runs. A load is abandoned at its next progress report when the engine shuts down, or when its job
// was cancelled and no other job waits for it.
//
// ---- Cancel ---------------------------------------------------------------------------------------
// cancel(id): the job becomes CANCELLED at once (await returns it); its queued items are dropped
// (their reservations and buffers released); a partition that is being synthesized or proved stops
// promptly: the job's cancel flag (set whenever a job ends other than DONE: cancel, client gone,
// failure, shutdown) is polled by its synthesis every 64 K constraints (r1cs::CancelScope /
// ProvingAssignment::set_cancel; kinds that do not synthesize through a ProvingAssignment finish
// their synthesis) and by the backend between stages and, on the CPU, inside every MSM (between
// windows / chunks; one NTT pass is not interrupted). The stopped partition's buffers go back
// through the pool (or the reclaimer), its worker takes the next item, its result is discarded; the
// job stays CANCELLED (counted once). Status keeps counting such partitions as running until they
// stop (on the CPU, well under a second).
//
// ---- Warm buffers -----------------------------------------------------------------------------------
// A partition's buffers (a, b, c, assignments: ~16 GB at 32 GiB) cost seconds the first time they
// are touched (page faults) and, on a GPU, again when they are page-locked for DMA. The engine pools
// them across partitions; a warmer thread fills the pool before work arrives: each preload_srs
// queues its parameter set, and the warmer allocates EngineConfig::warm_partitions_per_prover ×
// prover workers buffer sets of that set's shape (minus those already pooled), writes one element
// per page of every vector, lets each backend lock them (ProverBackend::warm_host_buffers), and
// gives them to the pool, each charged to the memory budget (it stops when the budget has no room).
// A set whose requests take the compiled form by default with every backend evaluating it on its
// device (porep-c2 on a GPU with room for the circuit) needs none: its partitions' host buffers are
// their witness (see "The compiled form"), so nothing is warmed for it (it counts as warm).
// MemoryStatus reports the state, the sets and bytes warmed, the locked bytes, the cold first
// touches (pool_misses) and the page faults inside backend calls.
//
// ---- The compiled form ----------------------------------------------------------------------------
// A kind that synthesizes in the compiled form (issue 31; kind.hpp "The compiled form"; porep-c2's
// default) hands its partitions over with a, b, c empty and the compiled circuit named. At the job's
// first such partition the engine asks every backend in service whether it evaluates them itself at
// no cost to its device (ProverBackend::evaluates_compiled: the CPU backend yes, a GPU backend when
// the compiled circuit is or fits on its device); if one says no, the job's partitions are evaluated
// on the host in the synthesis stage (r1cs::evaluate_in_place, inside the synthesis time; logged
// once per job), so that no device idles while the host evaluates. preload_srs hands a compiled
// circuit the kind made at load (held_compiled_circuit) to the backends (preload_compiled). Status
// lists the compiled circuits with their host, disk and device bytes (EngineStatus::compiled), and a
// derived memory budget leaves room for their host bytes (those held when the engine starts too).
// When the job's compiled circuit is held before its first partition (KindJob::compiled_form: made
// at preload, or by an earlier job) and no backend in service fills host a, b, c for it
// (ProverBackend::compiled_needs_host_rows: a GPU evaluating on its device), a partition reserves
// witness_buffer_bytes instead of partition_bytes (at 32 GiB PoRep 4.2 GB, not 17.1) and none is
// evaluated at synthesis. A compiled circuit goes when its parameter set leaves the SRS cache
// (evict_srs, or evicted for room): release_compiled_circuit, and every backend frees its copy
// (ProverBackend::release_compiled).
//
// ---- Timings (milliseconds, steady clock) -------------------------------------------------------
// Per partition (PartitionTimings): queue_wait = submit → its synthesis starts (minus the job's
// SRS load); srs_load = the job's SRS load (0 when it was already resident; the same value on each
// partition); synthesis = kind synthesis incl. buffer acquisition; prove_wait = synthesized → a
// prover worker takes it; kernel = StageTimings::kernel as the backend measures it (CUDA events on a
// GPU); h2d = StageTimings::h2d (its host → device copies, part of kernel); prover_call = the
// ProverBackend::prove call as the engine sees it; stage = the prove stage as the pipeline sees it
// (taken from the queue → result stored; the buffers go back to the pool after the timer stops,
// never freed on the prove worker while the reclaimer runs); total =
// submit → proof stored. Per proof (ProofTimings): the job's queue wait (submit → first synthesis),
// srs_load, sums of synthesis / h2d / kernel / prover_call / stage over partitions, assemble (collecting
// and encoding the N proofs), verify (the batch check), total = submit → result ready (wall).
// One structured log line per partition (spdlog, logger "proofline.engine") and per job;
// metrics_text() exports counters and histograms (Prometheus text format 0.0.4).
//
// ---- Threads ------------------------------------------------------------------------------------
// All public member functions are thread-safe. The engine owns: `synthesis_workers` threads,
// `prover_workers_per_backend` threads per backend, one finisher (verification) thread, the
// reclaimer thread and the warmer thread ("Warm buffers"). The destructor cancels everything still
// queued or running (a warm in progress finishes its buffer set) and joins them.
//
// Errors: the constructor throws std::invalid_argument for an unusable config (no backend). A bad
// request never throws from submit(): the job FAILS with a message saying what was wrong (unknown
// kind and the known ones, missing argument, unreadable or malformed parameter file, wrong sizes,
// a partition larger than the whole memory budget, …) and the engine keeps serving other jobs.
#pragma once

#include <any>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/proof.hpp"

namespace proofline::engine {

class KindRegistry;  // kind.hpp
class KindJob;       // kind.hpp

/// Scheduling class; smaller value = served first.
enum class Priority : std::uint8_t { Critical = 0, High = 1, Normal = 2, Low = 3 };
/// "critical", "high", "normal", "low".
std::string_view to_string(Priority p);
/// Case-insensitive inverse of to_string; nullopt for anything else.
std::optional<Priority> priority_from_string(std::string_view s);

/// Lifecycle of a job. QUEUED: not yet started synthesis of any partition; RUNNING: at least one
/// partition started; DONE / FAILED / CANCELLED are final.
enum class JobState : std::uint8_t { Queued, Running, Done, Failed, Cancelled };
/// "queued", "running", "done", "failed", "cancelled".
std::string_view to_string(JobState s);
inline bool is_final(JobState s) { return s == JobState::Done || s == JobState::Failed || s == JobState::Cancelled; }

/// One proof request. What `args` and `payload` mean depends on the kind: each kind declares its
/// arguments (ProofKind::arguments, kind.hpp; the built-in kinds' are listed in docs/kinds.md), e.g.
///   kind "bench":   args params=<.params path>, size=2^k (or a power of two), partitions=N (default 1),
///                   input=<u64 seed, default 1: partition k proves SizedCircuit(size, input + k)>
///   kind "snarkjs": args zkey=<.zkey path>, wtns=<.wtns path> (or the .wtns bytes in `payload`),
///                   checked=0|1 (subgroup-check the zkey's points on load; default 0)
struct ProofRequest {
  /// Caller-chosen id; submit is idempotent on it. Empty: the engine assigns "job-<n>".
  std::string request_id;
  std::string kind;
  /// Scheduling class. Unset (the default): the kind's ProofKind::default_priority() (kind.hpp) —
  /// "winning-post" CRITICAL, "window-post" HIGH, every other built-in kind NORMAL; an unknown kind
  /// NORMAL (its job fails in prepare anyway). ProofResult / JobProgress carry the class the job got.
  std::optional<Priority> priority;
  std::map<std::string, std::string> args;
  std::vector<std::uint8_t> payload;
  /// Fixed (r, s) per partition, in partition order, for reproducible proofs (the CLI's --rs, tests
  /// against outside oracles): same inputs, parameters and (r, s) ⇒ the same proof bytes. Empty (the
  /// default, and always for the daemon's requests): drawn per partition from OpenSSL's CSPRNG. A
  /// proof with known r, s is not zero-knowledge. Any other count than the job's number of
  /// partitions fails the job as bad input ("got N, expected M").
  std::vector<groth16::Randomizers> randomizers;
  /// An input the caller has already parsed, for in-process callers: a kind that knows its type
  /// takes it instead of reading its file argument or the payload (porep-c2:
  /// std::shared_ptr<const filecoin::SealCommitPhase1Output>, set by the CLI's `c2`, which reads its C1
  /// once; the argument 'c1' still names the source in messages). Empty in every request from outside
  /// the process (proofline.v1, cuzk.v1: bytes). Not part of the request's identity for joining
  /// (the args and payload are); released with the payload once the job is final and no step of
  /// it (a prepare still reading the request) runs any more.
  std::any parsed_input;
  /// The job Engine::prepare_request made for this very request (a front end's check before it
  /// queues it: the daemon's), taken by the engine's prepare step instead of preparing again — a
  /// 32 GiB C1 parsed and its public inputs derived once, not once to refuse and once to prove. It
  /// must come from this engine and this request unchanged; the request's declared arguments and
  /// files are still checked. Not part of the request's identity; released when the job ends.
  std::shared_ptr<const KindJob> prepared;
};

struct PartitionTimings {
  std::size_t index = 0;
  double queue_wait = 0;
  double srs_load = 0;
  double synthesis = 0;
  double prove_wait = 0;
  double h2d = 0;  ///< StageTimings::h2d of its backend call (0 where the backend does not copy / measure)
  double kernel = 0;
  double prover_call = 0;
  double stage = 0;
  double total = 0;
  /// Which backend proved it: index into EngineConfig::backends, and its name().
  int backend = -1;
  std::string backend_name;
  /// The backend's own per-stage breakdown for this partition.
  groth16::StageTimings backend_timings;
};

struct ProofTimings {
  double queue_wait = 0;
  double srs_load = 0;
  double synthesis = 0;    ///< sum over partitions
  double h2d = 0;          ///< sum over partitions
  double kernel = 0;       ///< sum over partitions
  double prover_call = 0;  ///< sum over partitions
  double stage = 0;        ///< sum over partitions
  double assemble = 0;
  double verify = 0;
  double total = 0;        ///< wall: submit → result
};

/// Why a job did not end DONE, for callers that map outcomes to exit codes (the CLI): the request's
/// inputs were refused (a kind's argument, a malformed or wrong-shaped parameter file, witness or
/// C1, an unsatisfied constraint, a missing file: what ProoflineError, r1cs::SynthesisError,
/// std::system_error and std::invalid_argument report), the proofs failed the self-check (the
/// parameter file's verifying key does not match its proving key; for kind snarkjs also a witness
/// that does not satisfy the circuit, which the zkey alone cannot tell), something else broke (a backend
/// or device fault, out of memory, none in service), or the job was cancelled / the engine shut down.
/// BadArgument: an argument's value that its request does not allow (ArgumentError, e.g. a
/// WindowPoSt 'partition' beyond the request's sectors): for a client whose arguments are its
/// flags, a usage error rather than bad input.
enum class Failure : std::uint8_t { None, BadInput, SelfCheck, Internal, Cancelled, BadArgument };
/// "none", "bad_input", "self_check", "internal", "cancelled", "bad_argument".
std::string_view to_string(Failure f);

/// What a kind throws (from prepare) for an argument whose value the request does not allow, naming
/// the argument, the value and what the request allows; the job fails with Failure::BadArgument.
struct ArgumentError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct ProofResult {
  std::string request_id;
  std::string kind;
  Priority priority = Priority::Normal;
  JobState state = JobState::Queued;
  /// FAILED / CANCELLED: why (empty otherwise).
  std::string error;
  /// FAILED / CANCELLED: the class of `error` (None while queued, running or DONE).
  Failure failure = Failure::None;
  std::size_t num_partitions = 0;    ///< 0 until the request was validated
  std::size_t partitions_done = 0;   ///< proved so far (progress)
  std::size_t partitions_synthesized = 0;  ///< synthesized so far (progress; >= partitions_done)
  /// DONE only: one proof per partition, in partition order, all verified.
  std::vector<groth16::Proof> proofs;
  /// DONE only: the proofs concatenated (192 bytes each, bellperson encoding).
  std::vector<std::uint8_t> proof_bytes;
  /// DONE only: per partition, its public inputs (ONE excluded), what the verifier takes.
  std::vector<std::vector<ff::Fr>> public_inputs;
  /// DONE only: the verifying key's key (the parameter file key, see srs.hpp) the proofs verify under.
  std::string srs_key;
  ProofTimings timings;
  std::vector<PartitionTimings> partitions;  ///< DONE only: in partition order
};

struct SubmitResult {
  std::string request_id;
  /// True when a job with this id already existed: nothing new was queued; `state` is that job's.
  bool duplicate = false;
  JobState state = JobState::Queued;
};

enum class AwaitStatus : std::uint8_t { Ready, TimedOut, NotFound };

struct AwaitResult {
  AwaitStatus status = AwaitStatus::NotFound;
  /// Ready: the final result. TimedOut: a snapshot (state QUEUED or RUNNING, progress).
  ProofResult result;
};

struct CancelResult {
  bool found = false;
  /// State before the cancel (a final state: nothing was changed).
  JobState previous = JobState::Queued;
  std::size_t dropped_queued = 0;    ///< queued partition items removed
  std::size_t stopping_running = 0;  ///< partitions running now: they stop at their next cancellation poll
};

struct BackendStatus {
  int index = 0;
  std::string name;
  unsigned workers = 0;
  unsigned busy_workers = 0;
  std::uint64_t partitions_proved = 0;
  bool in_service = true;     ///< ProverBackend::in_service(): false = given no more work
  std::string fault;          ///< ProverBackend::fault(): the last device fault and what was done ("" if none)
  unsigned recoveries = 0;    ///< ProverBackend::recoveries(): device state recreated after faults
};

struct SrsStatus {
  std::string key;            ///< canonical parameter file key (srs.hpp)
  std::string state;          ///< "loading" | "loaded" (preload_srs: "evicted" if over the SRS budget at once)
  double progress = 0;        ///< 0..1 while loading (phases of the reader), 1 when loaded
  std::uint64_t bytes = 0;    ///< resident host bytes (estimate while loading)
  unsigned users = 0;         ///< jobs holding it now (reference count)
  double idle_seconds = 0;    ///< since the last user released it (0 while used)
  double load_ms = 0;
  /// How the prover backends hold their own copy of it (groth16::ProverBackend::srs_holding):
  /// "resident" (in device memory on every backend that holds it), "streamed" (from host memory to
  /// the device per MSM), "mixed", or "" (no backend holds a copy: CPU backends, or not loaded on a
  /// device yet). device_bytes: the backends' bytes summed (device bytes when resident, the SRS
  /// bytes streamed per proof when streamed).
  std::string device_mode;
  std::uint64_t device_bytes = 0;
};

/// A compiled circuit the process holds (issue 31; kind.hpp "The compiled form"), as status reports it.
struct CompiledCircuitStatus {
  std::string key;                  ///< the SRS key it belongs to (parameter path + file version)
  std::string file;                 ///< `<params>.compiled` it was read from or written to ("": memory only)
  std::uint64_t constraints = 0;    ///< rows, input constraints included
  std::uint64_t coefficients = 0;   ///< distinct coefficients in its table
  std::uint64_t host_bytes = 0;     ///< its arrays in host memory (mapped from `file` when `mapped`)
  std::uint64_t disk_bytes = 0;     ///< the file's size (0: not written)
  std::uint64_t device_bytes = 0;   ///< on the devices that hold it (ProverBackend::compiled_device_bytes), summed
  bool mapped = false;              ///< read from `file` (memory-mapped), else recorded in this process
};

struct QueueStatus {
  std::string stage;          ///< "prepare", "synthesis" or "prove"
  Priority priority = Priority::Normal;
  std::size_t pending = 0;    ///< items waiting in this queue and class
  std::size_t running = 0;    ///< items of this class being worked on in this stage now
};

struct MemoryStatus {
  std::uint64_t budget_bytes = 0;       ///< total budget
  std::uint64_t used_bytes = 0;         ///< charged now: reservations + pooled + pending reclaim
  std::uint64_t reserved_bytes = 0;     ///< of which: partitions in flight
  std::uint64_t pooled_bytes = 0;       ///< of which: idle buffers kept for reuse
  std::uint64_t reclaim_pending_bytes = 0;  ///< of which: handed to the reclaimer, not yet freed
  std::uint64_t srs_bytes = 0;          ///< SRS cache (its own budget, EngineConfig::srs_budget_bytes)
  std::uint64_t srs_budget_bytes = 0;
  /// Compiled circuits held in host memory (EngineStatus::compiled, summed): outside the budget, like
  /// the SRS; a derived budget leaves room for them.
  std::uint64_t compiled_bytes = 0;
  bool reclaimer_enabled = true;
  std::uint64_t freed_bytes_total = 0;  ///< freed so far (reclaimer thread, or inline when it is off)
  double free_ms_total = 0;             ///< time spent freeing (destroying + malloc_trim), ms
  /// Frees done on a prove worker's thread (the critical path): 0 while the reclaimer runs; with
  /// EngineConfig::reclaimer = false the inline frees of the baseline are counted here.
  std::uint64_t critical_path_frees = 0;
  std::uint64_t pool_hits = 0;          ///< partitions admitted with a pooled (already faulted) buffer
  /// Partitions admitted with a fresh buffer: the cold first-touches, whose pages fault in on the
  /// synthesis → prove path (seconds per 16 GB partition); 0 for a first job that finds warm buffers.
  std::uint64_t pool_misses = 0;
  /// Warm buffers ("Warm buffers" above): "off" (EngineConfig::warm_partitions_per_prover 0, or no
  /// pooling), "idle" (no parameter set preloaded yet: the shape is not known), "warming", "warm"
  /// (every preloaded set's buffers are in the pool), "budget" (stopped short: the memory budget had
  /// no room for more).
  std::string warm_state;
  std::uint64_t warm_buffers = 0;       ///< buffer sets faulted in ahead of work so far
  std::uint64_t warm_bytes = 0;         ///< their capacity bytes
  std::uint64_t warm_locked_bytes = 0;  ///< of which page-locked by a backend (ProverBackend::warm_host_buffers)
  /// Page faults (minor + major; getrusage RUSAGE_THREAD) taken on the prove workers' threads inside
  /// ProverBackend::prove calls, summed: a GPU backend's copies from cold or unlocked buffers show
  /// here. (The CPU backend's own scratch allocations fault too: not zero there.)
  std::uint64_t prove_page_faults = 0;
  /// "configured" (EngineConfig::memory_budget_bytes) or "derived" (from the machine, see
  /// derive_memory_budget in memory.hpp), and how: "MemAvailable 120.0 GiB − SRS 44.0 GiB − margin …".
  std::string budget_source;
  std::string budget_derivation;
};

/// Progress of one job that is not final yet (status; `proofline status`).
struct JobProgress {
  std::string request_id;
  std::string kind;
  Priority priority = Priority::Normal;
  JobState state = JobState::Queued;
  std::size_t num_partitions = 0;          ///< 0 until the request was validated
  std::size_t partitions_synthesized = 0;
  std::size_t partitions_done = 0;         ///< proved
  double elapsed_seconds = 0;              ///< since submit
};

struct EngineStatus {
  std::vector<BackendStatus> backends;
  std::vector<SrsStatus> srs;
  /// The compiled circuits this process holds (every engine of the process sees the same ones).
  std::vector<CompiledCircuitStatus> compiled;
  /// One entry per (stage, priority) — always all 12, zeros included.
  std::vector<QueueStatus> queues;
  MemoryStatus memory;
  /// Jobs queued or running, in submission order.
  std::vector<JobProgress> jobs;
  std::size_t jobs_queued = 0, jobs_running = 0, jobs_done = 0, jobs_failed = 0, jobs_cancelled = 0;
  /// Jobs ended since the engine started (the counters behind metrics_text's
  /// proofline_engine_jobs_*_total); jobs_done … above count only the jobs still retained
  /// (EngineConfig::max_finished_jobs).
  std::uint64_t total_done = 0, total_failed = 0, total_cancelled = 0;
  /// Per kind name (only kinds with at least one job the engine still holds): jobs queued / running /
  /// done / failed (incl. cancelled), for per-kind queue reports (e.g. cuzk.v1 GetStatus.queues).
  struct KindJobs {
    std::size_t queued = 0, running = 0, done = 0, failed = 0;
  };
  std::map<std::string, KindJobs> jobs_by_kind;
  unsigned synthesis_workers = 0;
  bool overlap = true;
  double uptime_seconds = 0;
};

/// One stage of one partition on one worker, for timelines (Engine::timeline, the daemon's status
/// page). Times in seconds since the engine started (steady clock).
struct StageSpan {
  std::string request_id;
  std::string kind;
  std::size_t partition = 0;   ///< engine partition index of the job
  std::size_t partitions = 0;  ///< the job's partition count
  std::string stage;           ///< "synthesis" or "prove"
  /// The worker: "synthesis <slot>" or "backend <b> (<name>) worker <w>".
  std::string lane;
  double start_s = 0;
  double end_s = 0;            ///< running spans: the time of the snapshot
  bool running = false;
};

struct EngineConfig {
  /// One backend per device (CPU or CUDA: the engine does not care). Required, non-empty.
  std::vector<std::shared_ptr<groth16::ProverBackend>> backends;
  /// Prover worker threads per backend (each takes one partition at a time).
  unsigned prover_workers_per_backend = 1;
  /// Synthesis worker threads; 0: std::thread::hardware_concurrency().
  unsigned synthesis_workers = 0;
  /// Memory budget for partition buffers (a, b, c, assignments, densities), bytes. A partition is
  /// admitted into synthesis only when its estimate fits. 0: derived from the machine
  /// (derive_memory_budget, memory.hpp: the host memory available at start — MemAvailable, or the
  /// cgroup's limit minus its usage when lower — minus the SRS host bytes resident in the engine,
  /// re-derived whenever a parameter set is loaded or evicted, minus a margin); logged and shown in
  /// status (MemoryStatus::budget_derivation).
  std::uint64_t memory_budget_bytes = 0;
  /// Budget of the SRS cache, bytes: idle parameter sets are evicted (least recently used first)
  /// while the cache is over it. 0: unlimited (never evicted automatically).
  std::uint64_t srs_budget_bytes = 0;
  /// Idle buffers kept for reuse are limited to this many bytes (beyond: handed to the reclaimer).
  /// 0: no pooling (every buffer is released after its partition).
  std::uint64_t pool_max_bytes = std::uint64_t{1} << 62;
  /// Free big buffers on the reclaimer thread (true) or inline on the worker that released them.
  bool reclaimer = true;
  /// Overlap synthesis with proving (true). false: a partition is admitted into synthesis only when
  /// no partition is queued for or in the prove stage (the sequential baseline, for benchmarks).
  bool overlap = true;
  /// Finished jobs kept for await/status (oldest dropped first beyond this).
  std::size_t max_finished_jobs = 4096;
  /// Warm buffers ("Warm buffers" above): when a parameter set is preloaded (preload_srs: the
  /// daemon's engine.preload and PreloadSRS, `c2`), this many partition buffer sets of its shape per
  /// prover worker are faulted in — and page-locked where a backend copies from host memory — in
  /// the background, within the memory budget, and put in the pool. 2: the partition being proved
  /// and the one synthesized beside it (latency-first). 0: none.
  unsigned warm_partitions_per_prover = 2;
  /// Kinds; null: KindRegistry::builtin() (every kind registered in the program).
  std::shared_ptr<const KindRegistry> kinds;
  /// Log one line per partition and per job (spdlog logger "proofline.engine", level info).
  bool log_partitions = true;
  /// Called (on the evicting thread) when a parameter set leaves the SRS cache, after the engine has
  /// called ProverBackend::evict on every backend (which frees a GPU backend's device copy). For
  /// observers (tests, logs). Null: nothing more.
  std::function<void(const groth16::Parameters&)> on_srs_evict;
};

/// The longest request_id a caller may give (bytes).
inline constexpr std::size_t kMaxRequestIdBytes = 128;
/// The one rule for request ids, everywhere (engine, daemon, cuzk API, submit/await/cancel; docs/daemon.md):
/// at most kMaxRequestIdBytes bytes of printable ASCII, 0x20 (space) through 0x7e ('~'); Curio's ids
/// have spaces and brackets. Throws std::invalid_argument for a longer one ("request_id: 200 bytes,
/// at most 128 allowed") or one with another byte ("request_id: byte 3 (0x0a) is not printable ASCII
/// (…)"); neither message repeats the id. An empty id passes (the engine makes one).
void check_request_id(const std::string& id);

class Engine {
 public:
  explicit Engine(EngineConfig cfg);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Queues a request and returns at once. Idempotent: a request_id that is already known (queued,
  /// running or finished and still retained) returns that job with duplicate = true. Throws
  /// std::invalid_argument (check_request_id) for a request_id that is too long or not printable;
  /// nothing is queued then.
  SubmitResult submit(ProofRequest request);
  /// Waits until the job is final or `timeout` passes (a negative timeout waits forever).
  AwaitResult await(const std::string& request_id, std::chrono::milliseconds timeout = std::chrono::milliseconds(-1));
  /// submit + await.
  AwaitResult prove(ProofRequest request, std::chrono::milliseconds timeout = std::chrono::milliseconds(-1));
  /// Cancels a queued or running job (see the header comment); a final job is left as it is.
  CancelResult cancel(const std::string& request_id);
  /// The job's current state and progress (status NotFound for an unknown id; never waits).
  AwaitResult peek(const std::string& request_id);

  EngineStatus status() const;
  /// Prometheus text exposition (format 0.0.4) of the engine's counters, gauges and histograms.
  std::string metrics_text() const;
  /// The stage spans (synthesis and prove, per partition and worker) that ended at or after
  /// `since_s` (seconds since the engine started) or are running now; at most the last 8192 spans
  /// are kept. Oldest first.
  std::vector<StageSpan> timeline(double since_s = 0) const;

  /// Loads the parameter file a request of this kind and these args would use (blocking), and
  /// keeps it resident (not evicted while the cache is within budget), on every backend that holds
  /// parameters too (a GPU's device memory). Preload means ready: while it stays resident, a later
  /// request of the same kind that names no parameter file (none of the kind's `srs` arguments) is
  /// offered it (ProofKind::prepare_preloaded, most recently preloaded first) and uses it when it is
  /// its circuit's set (porep-c2: the C1's sector size, by the file's counts) instead of the kind's
  /// default file (the parameter cache). Returns its status; throws ProoflineError /
  /// std::system_error with the kind's message when it cannot be loaded.
  SrsStatus preload_srs(const std::string& kind, const std::map<std::string, std::string>& args);
  /// The same for a whole request (its kind, args, payload or parsed_input): what the request's job
  /// will use, with the kind's checks of its input against the file before the points are read.
  SrsStatus preload_srs(const ProofRequest& request);
  /// The kind's job for `request` as the engine's prepare step makes it, without queueing anything:
  /// ProofKind::prepare, or prepare_preloaded when the request names no parameter file and sets of
  /// its kind are preloaded (preload_srs). For a front end that refuses a bad request before it
  /// queues it (the daemon's INVALID_ARGUMENT). Throws what the kind throws; std::invalid_argument
  /// for an unknown kind. Thread-safe; the request's declared arguments are not checked here.
  std::shared_ptr<const KindJob> prepare_request(const ProofRequest& request) const;
  /// Drops a resident parameter set now if no job uses it. Returns true if it was evicted; false if
  /// it is unknown or in use (then nothing changes).
  bool evict_srs(const std::string& key);

  const EngineConfig& config() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace proofline::engine
