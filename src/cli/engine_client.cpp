// The CLI's in-process engine (engine_client.hpp).
#include "engine_client.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "common.hpp"
#include "proofline/engine/memory.hpp"
#include "proofline/groth16/backend_factory.hpp"

namespace proofline::cli {

void add_engine_options(CLI::App& cmd, EngineOptions& o) {
  cmd.add_option("--backend", o.backend, "prover backend: cpu | cuda | auto (cuda when a device is usable)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd.add_option("--memory-budget", o.memory_budget,
                 "bytes of partition buffers in flight, e.g. 512MiB, 8GiB (0: derived from the machine: the memory "
                 "available − the parameters held − a margin); partitions beyond it wait")
      ->capture_default_str();
  cmd.add_option("--device-memory-limit", o.device_memory_limit,
                 "device bytes each CUDA backend may use, e.g. 24GiB (0: the device's free memory); a large card "
                 "behaves like a smaller one, same proofs")
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
  std::uint64_t device_limit = 0;
  try {
    device_limit = engine::parse_bytes(o.device_memory_limit, "--device-memory-limit");
  } catch (const ProoflineError& e) {
    throw UsageError(std::string(e.what()).substr(to_string(e.code()).size() + 2));
  }
  const unsigned threads = static_cast<unsigned>(o.threads);
  try {
    groth16::BackendOptions bo{threads, 0};
    bo.device_memory_limit = device_limit;
    cfg.backends = groth16::make_backends(o.backend, bo, &note_);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--backend ") + e.what());  // "--backend cuda: <why>"
  }
  cfg.synthesis_workers = threads;  // 0: all cores
  cfg.log_partitions = false;
  cfg.max_finished_jobs = 4096;  // run_all peeks each job after it ended: several may end between two polls
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
  std::vector<engine::ProofRequest> one;
  one.push_back(std::move(request));
  return std::move(run_all(cmd, std::move(one), self_check_message).front());
}

namespace {

/// Progress of the jobs of one run_all on stderr (see the header comment).
class ProgressLine {
 public:
  ProgressLine(const char* cmd, std::string backend_note, std::size_t jobs)
      : cmd_(cmd), note_(std::move(backend_note)), tty_(::isatty(2) != 0), seen_(jobs) {}

  /// One poll: the jobs' snapshots in request order.
  void update(const std::vector<engine::ProofResult>& rs) {
    using Clock = std::chrono::steady_clock;
    const auto now = Clock::now();
    std::size_t n = 0, done = 0, synth = 0;
    bool changed = false;
    int current = -1;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const engine::ProofResult& r = rs[i];
      Seen& s = seen_[i];
      if (r.num_partitions != 0 && !s.announced) {
        s.announced = true;
        say(std::string(rs.size() > 1 ? "sector " + std::to_string(i + 1) + "/" + std::to_string(rs.size()) + ": " : "") +
                "proving " + std::to_string(r.num_partitions) + " partition(s) (" + note_ + ")",
            true);
      }
      if (r.partitions_done > s.done) {
        for (std::size_t k = s.done; k < r.partitions_done; ++k) proved_at_.push_back(now);
        changed = true;
      }
      if (r.partitions_synthesized != s.synth) changed = true;
      s.done = r.partitions_done;
      s.synth = std::max(r.partitions_synthesized, r.partitions_done);
      n += r.num_partitions;
      done += s.done;
      synth += s.synth;
      if (current < 0 && r.num_partitions != 0 && s.done < r.num_partitions) current = static_cast<int>(i);
    }
    if (!changed) return;
    std::ostringstream line;
    if (rs.size() > 1 && current >= 0) {
      line << "[sector " << current + 1 << "/" << rs.size() << " " << seen_[current].done << "/"
           << rs[current].num_partitions << "] ";
    }
    line << done << "/" << n << " partition(s) proved, " << synth << " synthesized";
    if (!proved_at_.empty()) {
      const double rate = proved_at_.size() >= 2
                              ? secs(proved_at_.front(), proved_at_.back()) / static_cast<double>(proved_at_.size() - 1)
                              : secs(t0_, proved_at_.front());
      line << "; " << fixed2(rate) << " s/partition";
      if (done < n) line << ", ETA " << fixed1(rate * static_cast<double>(n - done)) << " s";
    }
    line << " (" << fixed1(secs(t0_, now)) << " s)";
    say(line.str(), false);
  }

  /// Ends a line left open on a terminal.
  void finish() {
    if (open_) std::cerr << std::endl;
    open_ = false;
  }

 private:
  struct Seen {
    bool announced = false;
    std::size_t done = 0, synth = 0;
  };
  static double secs(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }
  static std::string fixed1(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", x);
    return b;
  }
  static std::string fixed2(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", x);
    return b;
  }
  /// `keep`: a line that stays (announcements); otherwise a progress line, rewritten on a terminal.
  void say(const std::string& text, bool keep) {
    if (tty_) {
      std::cerr << "\r" << cmd_ << ": " << text << "\033[K";
      if (keep) {
        std::cerr << std::endl;
        open_ = false;
      } else {
        std::cerr << std::flush;
        open_ = true;
      }
    } else {
      std::cerr << cmd_ << ": " << text << std::endl;
    }
  }

  const char* cmd_;
  std::string note_;
  bool tty_;
  bool open_ = false;
  std::vector<Seen> seen_;
  std::vector<std::chrono::steady_clock::time_point> proved_at_;
  const std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace

std::vector<EngineRun> LocalEngine::run_all(const char* cmd, std::vector<engine::ProofRequest> requests,
                                            const std::function<std::string(const std::string&)>& self_check_message) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  engine::Engine& eng = *engine_;
  std::vector<std::string> ids;
  for (engine::ProofRequest& r : requests) ids.push_back(eng.submit(std::move(r)).request_id);
  ProgressLine progress(cmd, note_, ids.size());
  std::vector<engine::ProofResult> snap(ids.size());
  std::vector<bool> final(ids.size(), false);
  for (;;) {
    bool all = true;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (final[i]) continue;
      engine::AwaitResult a = eng.peek(ids[i]);
      if (a.status == engine::AwaitStatus::NotFound) throw std::runtime_error("the engine lost job " + ids[i]);
      snap[i] = std::move(a.result);
      final[i] = a.status == engine::AwaitStatus::Ready;
      if (final[i] && snap[i].state != engine::JobState::Done) {
        progress.finish();
        std::string why = snap[i].error;
        if (why.rfind("bad request: ", 0) == 0) why = why.substr(13);
        switch (snap[i].failure) {
          case engine::Failure::BadInput: throw ExitError(kBadInput, why);
          case engine::Failure::BadArgument: throw ExitError(kUsage, why);  // the kind's arguments are flags here
          case engine::Failure::SelfCheck: throw ExitError(kBadInput, self_check_message(why));
          case engine::Failure::Cancelled: throw ExitError(kUnfinished, why);
          default: throw ExitError(kInternal, "internal error: " + why);
        }
      }
      all = all && final[i];
    }
    progress.update(snap);
    if (all) break;
    // Wake on the first unfinished job's end, or poll again in 200 ms for progress.
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (!final[i]) {
        eng.await(ids[i], std::chrono::milliseconds(200));
        break;
      }
    }
  }
  progress.finish();
  std::size_t parts = 0;
  for (const auto& r : snap) parts += r.num_partitions;
  std::cerr << cmd << ": " << parts << "/" << parts << " partition(s) proved and verified ("
            << fmt_s(std::chrono::duration<double>(Clock::now() - t0).count()) << ")" << std::endl;
  std::vector<EngineRun> out;
  for (engine::ProofResult& r : snap) {
    EngineRun run;
    run.backend_note = note_;
    run.backend = r.partitions.empty() ? "" : r.partitions[0].backend_name;
    run.result = std::move(r);
    out.push_back(std::move(run));
  }
  return out;
}

}  // namespace proofline::cli
