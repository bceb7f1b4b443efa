// src/cli/engine_client.hpp — `proofline prove` (built-in circuits) and `c2` as thin clients of an
// engine::Engine started in the process: the same backends, memory budget, overlap, buffer pool,
// reclaimer and mandatory self-check as the daemon (include/proofline/engine/engine.hpp).
//
// Options (add_engine_options), as the daemon's engine.* keys:
//   --backend cpu|cuda|auto   groth16::make_backends (cuda: one backend per usable device)
//   --memory-budget SIZE      bytes of partition buffers in flight (engine.memory_budget; "512MiB",
//                             "8GiB", …; default 0: 3/4 of the RAM). Partitions beyond it wait for
//                             memory: a C1 of 10 partitions never holds more than the budget admits.
//   --threads N (the command's)  threads of one CPU backend call and synthesis workers (0: all cores).
// Progress on stderr: one line when the job starts, then "<cmd>: k/N partition(s) proved (t s)"
// whenever k grows (checked every second).
// Outcome → exception (cli::run_guarded maps it to the exit code): DONE returns the result (every
// proof verified by the engine's self-check); a failure of the request's inputs (Failure::BadInput)
// or of the self-check throws ExitError (common.hpp) with exit 3; Cancelled exit 5; anything else exit 4. The
// message is the engine's reason without its "bad request: " prefix.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "proofline/engine/engine.hpp"
#include "proofline/groth16/params.hpp"

namespace proofline::cli {

struct EngineOptions {
  std::string backend = "cpu";
  std::string memory_budget = "0";
  int threads = 0;  ///< the command's --threads (0: all cores)
};

/// Adds --backend and --memory-budget to `cmd` (--threads is the command's own).
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
  const std::string& backend_note() const { return note_; }

 private:
  std::string note_;
  std::unique_ptr<engine::Engine> engine_;
};

/// LocalEngine(o).run(cmd, request, self_check_message).
EngineRun run_in_engine(const char* cmd, const EngineOptions& o, engine::ProofRequest request,
                        const std::function<std::string(const std::string& reason)>& self_check_message);

}  // namespace proofline::cli
