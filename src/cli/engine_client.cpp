// The CLI's in-process engine (engine_client.hpp).
#include "engine_client.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "common.hpp"
#include "proofline/engine/memory.hpp"
#include "proofline/groth16/backend_factory.hpp"

namespace proofline::cli {

void add_engine_options(CLI::App& cmd, EngineOptions& o) {
  cmd.add_option("--backend", o.backend, "prover backend: cpu | cuda | auto (cuda when a device is usable)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd.add_option("--memory-budget", o.memory_budget,
                 "bytes of partition buffers in flight, e.g. 512MiB, 8GiB (0: 3/4 of the RAM); partitions beyond "
                 "it wait")
      ->capture_default_str();
}

namespace {

std::string fmt_s(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

/// The engine logs (spdlog "proofline.engine", stderr) only warnings here: the command prints its own lines.
void quiet_engine_log() {
  auto l = spdlog::get("proofline.engine");
  if (!l) l = spdlog::stderr_color_mt("proofline.engine");
  l->set_level(spdlog::level::warn);
}

}  // namespace

LocalEngine::LocalEngine(const EngineOptions& o) {
  engine::EngineConfig cfg;
  try {
    cfg.memory_budget_bytes = engine::parse_bytes(o.memory_budget, "--memory-budget");
  } catch (const ProoflineError& e) {
    throw UsageError(std::string(e.what()).substr(to_string(e.code()).size() + 2));  // "--memory-budget: …"
  }
  const unsigned threads = static_cast<unsigned>(o.threads);
  try {
    cfg.backends = groth16::make_backends(o.backend, groth16::BackendOptions{threads, 0}, &note_);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--backend ") + e.what());  // "--backend cuda: <why>"
  }
  cfg.synthesis_workers = threads;  // 0: all cores
  cfg.log_partitions = false;
  cfg.max_finished_jobs = 1;
  quiet_engine_log();
  engine_ = std::make_unique<engine::Engine>(std::move(cfg));
}

LocalEngine::~LocalEngine() = default;

EngineRun run_in_engine(const char* cmd, const EngineOptions& o, engine::ProofRequest request,
                        const std::function<std::string(const std::string&)>& self_check_message) {
  return LocalEngine(o).run(cmd, std::move(request), self_check_message);
}

EngineRun LocalEngine::run(const char* cmd, engine::ProofRequest request,
                           const std::function<std::string(const std::string&)>& self_check_message) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  EngineRun run;
  run.backend_note = note_;
  engine::Engine& eng = *engine_;
  const std::string id = eng.submit(std::move(request)).request_id;
  std::size_t shown = 0;
  engine::AwaitResult a;
  for (;;) {
    a = eng.await(id, std::chrono::seconds(1));
    if (a.status != engine::AwaitStatus::TimedOut) break;
    const engine::ProofResult& r = a.result;
    if (r.num_partitions != 0 && (shown == 0 || r.partitions_done > shown - 1)) {
      if (shown == 0) {
        std::cerr << cmd << ": proving " << r.num_partitions << " partition(s) (" << run.backend_note << ")"
                  << std::endl;
      } else {
        std::cerr << cmd << ": " << r.partitions_done << "/" << r.num_partitions << " partition(s) proved ("
                  << fmt_s(std::chrono::duration<double>(Clock::now() - t0).count()) << ")" << std::endl;
      }
      shown = r.partitions_done + 1;
    }
  }
  if (a.status != engine::AwaitStatus::Ready) throw std::runtime_error("the engine lost job " + id);
  run.result = std::move(a.result);
  const engine::ProofResult& r = run.result;
  if (r.state == engine::JobState::Done) {
    if (shown == 0) {
      std::cerr << cmd << ": proving " << r.num_partitions << " partition(s) (" << run.backend_note << ")" << std::endl;
    }
    std::cerr << cmd << ": " << r.num_partitions << "/" << r.num_partitions << " partition(s) proved and verified ("
              << fmt_s(std::chrono::duration<double>(Clock::now() - t0).count()) << ")" << std::endl;
    run.backend = r.partitions.empty() ? "" : r.partitions[0].backend_name;
    return run;
  }
  std::string why = r.error;
  if (why.rfind("bad request: ", 0) == 0) why = why.substr(13);
  switch (r.failure) {
    case engine::Failure::BadInput: throw ExitError(kBadInput, why);
    case engine::Failure::SelfCheck: throw ExitError(kBadInput, self_check_message(why));
    case engine::Failure::Cancelled: throw ExitError(kUnfinished, why);
    default: throw ExitError(kInternal, "internal error: " + why);
  }
}

}  // namespace proofline::cli
