// src/cli/engine_client.hpp — `proofline prove` (built-in circuits) and `c2` as thin clients of an
// engine::Engine started in the process: the same backends, memory budget, overlap, buffer pool,
// reclaimer and mandatory self-check as the daemon (include/proofline/engine/engine.hpp).
//
// Options (add_engine_options), as the daemon's engine.* keys:
//   --backend cpu|cuda|auto   groth16::make_backends (cuda: one backend per usable device)
//   --memory-budget SIZE      bytes of partition buffers in flight (engine.memory_budget; "512MiB",
//                             "8GiB", …; default 0: derived from the machine, engine.hpp). Partitions beyond it wait for
//                             memory: a C1 of 10 partitions never holds more than the budget admits.
//   --device-memory-limit SIZE  device bytes each CUDA backend may use (gpu.device_memory_limit; default
//                             0: the device's free memory): a large card behaves like a smaller one,
//                             e.g. 24GiB (an SRS that does not fit is streamed, the lean working set,
//                             a compiled circuit that does not fit evaluated on the host; same proofs).
//   --threads N (the command's)  threads of one CPU backend call and synthesis workers (0: all cores).
// c2 prints the engine's memory budget and how it came about on stderr first ("c2: memory budget
// configured: N bytes" / "… MemAvailable 120.0 GiB − SRS 0.0 MiB − margin 15.0 GiB … = 105.0 GiB").
// Progress on stderr (checked 5 times a second): one line when a job's partitions are known, then
// one per event — a partition synthesized or proved —
//   "<cmd>: 4/10 partition(s) proved, 6 synthesized; 2.31 s/partition, ETA 13.9 s (12.0 s)"
// (with several jobs: "[sector 2/3 4/10] 14/30 partition(s) proved, …" over all of them). The rate
// comes from completed partitions (the time between the first and the last proof over their
// count, or the first's time from the start when only one is done); the ETA is the partitions
// left × that rate. On a terminal the line is rewritten in place; otherwise (a log, a pipe) each
// event is its own line.
// Outcome → exception (cli::run_guarded maps it to the exit code): DONE returns the result (every
// proof verified by the engine's self-check); a failure of the request's inputs (Failure::BadInput)
// or of the self-check throws ExitError (common.hpp) with exit 3; an argument value the request
// does not allow (Failure::BadArgument: the kind's arguments are this command's flags) exit 2;
// Cancelled exit 5; anything else exit 4. The
// message is the engine's reason without its "bad request: " prefix.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "proofline/engine/engine.hpp"
#include "proofline/groth16/params.hpp"

namespace proofline::cli {

struct EngineOptions {
  std::string backend = "cpu";
  std::string memory_budget = "0";
  std::string device_memory_limit = "0";
  int threads = 0;  ///< the command's --threads (0: all cores)
};

/// Adds --backend, --memory-budget and --device-memory-limit to `cmd` (--threads is the command's own).
void add_engine_options(CLI::App& cmd, EngineOptions& o);

/// Everything a command reports about the run besides the result.
struct EngineRun {
  engine::ProofResult result;
  std::string backend_note;  ///< groth16::make_backends' note ("backend cpu (16 threads per call)")
  std::string backend;       ///< the backend that proved partition 0 ("cpu", "cuda")
};

/// An engine started in this process with `o`. The constructor makes the backends and parses the
/// budget, so a bad --backend / --memory-budget is a UsageError ("--backend cuda: no usable CUDA
/// device") before the command reads its inputs.
class LocalEngine {
 public:
  explicit LocalEngine(const EngineOptions& o);
  ~LocalEngine();
  /// Submits `request`, prints progress as "<cmd>: …" on stderr and waits. `self_check_message`:
  /// the message for a self-check failure (given the engine's reason). Returns only a DONE result;
  /// throws ExitError otherwise (see the header comment).
  EngineRun run(const char* cmd, engine::ProofRequest request,
                const std::function<std::string(const std::string& reason)>& self_check_message);
  /// Submits every request at once (the engine pipelines them: partitions of request i+1
  /// synthesize while request i's are proved), prints their joint progress and waits for all.
  /// Results in request order; throws ExitError for the first that did not end DONE.
  std::vector<EngineRun> run_all(const char* cmd, std::vector<engine::ProofRequest> requests,
                                 const std::function<std::string(const std::string& reason)>& self_check_message);
  const std::string& backend_note() const { return note_; }
  engine::Engine& engine() { return *engine_; }

 private:
  std::string note_;
  std::unique_ptr<engine::Engine> engine_;
};

/// LocalEngine(o).run(cmd, request, self_check_message).
EngineRun run_in_engine(const char* cmd, const EngineOptions& o, engine::ProofRequest request,
                        const std::function<std::string(const std::string& reason)>& self_check_message);

}  // namespace proofline::cli
