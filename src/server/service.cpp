// The gRPC handlers of proofline.v1.ProvingEngine over engine::Engine (proofline/server/service.hpp).
#include "proofline/server/service.hpp"

#include <malloc.h>

#include <algorithm>
#include <condition_variable>
#include <thread>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <system_error>

#include "proofline/filecoin/sector.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/r1cs/error.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/utf8.hpp"
#include "request_fingerprint.hpp"

namespace proofline::server {

using grpc::Status;
using grpc::StatusCode;
using Clock = std::chrono::steady_clock;

namespace {

const char* method_name(int m) {
  static const char* names[] = {"SubmitProof", "AwaitProof", "Prove",    "CancelProof", "GetStatus",
                                "GetMetrics",  "PreloadSRS", "EvictSRS", "ListKinds"};
  return names[m];
}

const char* code_name(int c) {
  static const char* names[] = {"OK",
                                "CANCELLED",
                                "UNKNOWN",
                                "INVALID_ARGUMENT",
                                "DEADLINE_EXCEEDED",
                                "NOT_FOUND",
                                "ALREADY_EXISTS",
                                "PERMISSION_DENIED",
                                "RESOURCE_EXHAUSTED",
                                "FAILED_PRECONDITION",
                                "ABORTED",
                                "OUT_OF_RANGE",
                                "UNIMPLEMENTED",
                                "INTERNAL",
                                "UNAVAILABLE",
                                "DATA_LOSS",
                                "UNAUTHENTICATED"};
  return c >= 0 && c < 17 ? names[c] : "UNKNOWN";
}

/// engine::check_request_id as INVALID_ARGUMENT; `field` prefixes the message ("request." for a
/// SubmitProof's, "" for AwaitProof's and CancelProof's own request_id).
void check_request_id(const std::string& id, const char* field) {
  try {
    engine::check_request_id(id);
  } catch (const std::invalid_argument& e) {
    throw RequestError(StatusCode::INVALID_ARGUMENT, field + std::string(e.what()));
  }
}

/// The proto field of an engine argument, for messages.
std::string field_of(const std::string& arg) { return "request.args['" + arg + "']"; }

void fill_srs(const engine::SrsStatus& e, pb::SrsEntry* o) {
  o->set_key(e.key);
  o->set_state(e.state);
  o->set_progress(e.progress);
  o->set_bytes(e.bytes);
  o->set_users(e.users);
  o->set_idle_s(e.idle_seconds);
  o->set_load_ms(e.load_ms);
}

Status to_status(const std::exception& e, const char* what) {
  return Status(StatusCode::INVALID_ARGUMENT, utf8_escape_invalid(std::string(what) + ": " + e.what()));
}

}  // namespace

// ---- conversions ---------------------------------------------------------------------------------

std::optional<engine::Priority> to_engine_priority(pb::Priority p) {
  switch (p) {
    case pb::PRIORITY_CRITICAL: return engine::Priority::Critical;
    case pb::PRIORITY_HIGH: return engine::Priority::High;
    case pb::PRIORITY_NORMAL: return engine::Priority::Normal;
    case pb::PRIORITY_LOW: return engine::Priority::Low;
    default: return std::nullopt;  // UNSPECIFIED: the kind's default
  }
}

pb::Priority to_proto_priority(engine::Priority p) {
  switch (p) {
    case engine::Priority::Critical: return pb::PRIORITY_CRITICAL;
    case engine::Priority::High: return pb::PRIORITY_HIGH;
    case engine::Priority::Normal: return pb::PRIORITY_NORMAL;
    case engine::Priority::Low: return pb::PRIORITY_LOW;
  }
  return pb::PRIORITY_NORMAL;
}

pb::ProofStatus to_proto_status(engine::JobState s) {
  switch (s) {
    case engine::JobState::Queued: return pb::PROOF_STATUS_QUEUED;
    case engine::JobState::Running: return pb::PROOF_STATUS_RUNNING;
    case engine::JobState::Done: return pb::PROOF_STATUS_COMPLETED;
    case engine::JobState::Failed: return pb::PROOF_STATUS_FAILED;
    case engine::JobState::Cancelled: return pb::PROOF_STATUS_CANCELLED;
  }
  return pb::PROOF_STATUS_UNSPECIFIED;
}

engine::ProofRequest to_engine_request(const pb::ProofRequest& r) {
  engine::ProofRequest out;
  check_request_id(r.request_id(), "request.");
  out.request_id = r.request_id();
  out.kind = r.kind();
  if (out.kind.empty()) throw RequestError(StatusCode::INVALID_ARGUMENT, "request.kind: missing");
  if (!pb::Priority_IsValid(r.priority())) {
    throw RequestError(StatusCode::INVALID_ARGUMENT, "request.priority: " + std::to_string(r.priority()) +
                                                         " is not a priority (0 … 4)");
  }
  out.priority = to_engine_priority(r.priority());
  out.args.insert(r.args().begin(), r.args().end());
  out.payload.assign(r.payload().begin(), r.payload().end());
  return out;
}

void to_proto_kind(const engine::ProofKind& k, pb::KindInfo* out) {
  out->set_name(std::string(k.name()));
  out->set_description(std::string(k.description()));
  out->set_proof_format(std::string(k.proof_format()));
  for (const engine::ArgSpec& a : k.arguments()) {
    pb::ArgumentInfo* o = out->add_arguments();
    o->set_name(a.name);
    o->set_type(std::string(engine::to_string(a.type)));
    o->set_required(a.required);
    o->set_help(a.help);
    o->set_default_value(a.default_value);
    o->set_min(a.min);
    o->set_max(a.max);
    o->set_bytes(static_cast<std::uint32_t>(a.bytes));
    o->set_payload(a.payload);
    o->set_srs(a.srs);
    for (const auto& n : a.needs) o->add_needs(n);
    o->set_form(engine::describe_form(a));
  }
}

std::vector<engine::ArgSpec> arguments_of(const pb::KindInfo& k) {
  std::vector<engine::ArgSpec> out;
  for (const pb::ArgumentInfo& o : k.arguments()) {
    engine::ArgSpec a(o.name(), engine::arg_type_from_string(o.type()).value_or(engine::ArgType::String), o.help());
    a.required = o.required();
    a.default_value = o.default_value();
    a.min = o.min();
    a.max = o.max();
    a.bytes = o.bytes();
    a.payload = o.payload() && a.type == engine::ArgType::File;
    a.srs = o.srs();
    a.needs.assign(o.needs().begin(), o.needs().end());
    out.push_back(std::move(a));
  }
  return out;
}

void to_proto_result(const engine::ProofResult& r, pb::ProofResult* out) {
  out->set_request_id(r.request_id);
  out->set_status(to_proto_status(r.state));
  out->set_error_message(utf8_escape_invalid(r.error));
  out->set_kind(r.kind);
  out->set_priority(to_proto_priority(r.priority));
  out->set_num_partitions(static_cast<std::uint32_t>(r.num_partitions));
  out->set_partitions_done(static_cast<std::uint32_t>(r.partitions_done));
  out->set_partitions_synthesized(static_cast<std::uint32_t>(r.partitions_synthesized));
  out->set_srs_key(r.srs_key);
  out->set_proof(std::string(r.proof_bytes.begin(), r.proof_bytes.end()));
  for (const auto& inputs : r.public_inputs) {
    auto* p = out->add_public_inputs();
    for (const auto& x : inputs) p->add_values(groth16::to_decimal(x));
  }
  for (const auto& t : r.partitions) {
    auto* p = out->add_partitions();
    p->set_index(static_cast<std::uint32_t>(t.index));
    p->set_queue_wait_ms(t.queue_wait);
    p->set_srs_load_ms(t.srs_load);
    p->set_synthesis_ms(t.synthesis);
    p->set_prove_wait_ms(t.prove_wait);
    p->set_kernel_ms(t.kernel);
    p->set_prover_ms(t.prover_call);
    p->set_stage_ms(t.stage);
    p->set_total_ms(t.total);
    p->set_backend(t.backend_name);
    p->set_backend_index(t.backend);
    const auto& b = t.backend_timings;
    p->set_ntt_ms(b.ntt);
    p->set_msm_h_ms(b.msm_h);
    p->set_msm_l_ms(b.msm_l);
    p->set_msm_a_ms(b.msm_a);
    p->set_msm_b_g1_ms(b.msm_b_g1);
    p->set_msm_b_g2_ms(b.msm_b_g2);
    p->set_h2d_ms(t.h2d);
    p->set_srs_upload_ms(b.srs_upload);
    p->set_srs_upload_bytes(b.srs_upload_bytes);
  }
  const auto& t = r.timings;
  out->set_queue_wait_ms(t.queue_wait);
  out->set_srs_load_ms(t.srs_load);
  out->set_synthesis_ms(t.synthesis);
  out->set_h2d_ms(t.h2d);
  out->set_kernel_ms(t.kernel);
  out->set_prover_ms(t.prover_call);
  out->set_stage_ms(t.stage);
  out->set_assemble_ms(t.assemble);
  out->set_verify_ms(t.verify);
  out->set_total_ms(t.total);
}

std::uint64_t resident_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmRSS:  1234 kB"
  }
  return 0;
}

// ---- the service ---------------------------------------------------------------------------------

/// Gives the memory freed after large messages back to the system (note_message): a background
/// thread that, once told, waits 200 ms (gRPC frees a request's buffers after its handler returns)
/// and calls malloc_trim(0), which returns the free pages of every arena.
class ProvingService::Trimmer {
 public:
  Trimmer() : thread_([this] { run(); }) {}
  ~Trimmer() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void soon() {
    {
      std::lock_guard lock(mu_);
      pending_ = true;
    }
    cv_.notify_all();
  }
  std::uint64_t passes() const { return passes_.load(std::memory_order_relaxed); }

 private:
  void run() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || pending_; });
      if (cv_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stop_; })) return;
      pending_ = false;
      lock.unlock();
      ::malloc_trim(0);
      passes_.fetch_add(1, std::memory_order_relaxed);
      lock.lock();
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  bool pending_ = false, stop_ = false;
  std::atomic<std::uint64_t> passes_{0};
  std::thread thread_;  // last: started once the members above exist
};

ProvingService::~ProvingService() = default;

void ProvingService::note_message(std::size_t bytes) const {
  if (bytes >= kTrimAfterBytes) trimmer_->soon();
}

ProvingService::ProvingService(engine::Engine& eng, std::shared_ptr<const engine::KindRegistry> kinds,
                               const DaemonConfig& cfg)
    : eng_(eng), kinds_(std::move(kinds)), cfg_(cfg), trimmer_(std::make_unique<Trimmer>()) {
  for (const std::string& d : cfg_.allowed_paths) {
    if (d == "*") {
      any_path_ = true;
      continue;
    }
    const std::filesystem::path dir = d == "$FIL_PROOFS_PARAMETER_CACHE" ? filecoin::parameter_cache_dir()
                                                                          : std::filesystem::path(d);
    std::error_code ec;
    std::filesystem::path c = std::filesystem::weakly_canonical(std::filesystem::absolute(dir, ec), ec);
    allowed_dirs_.push_back(ec ? dir.lexically_normal() : c);
  }
  if (any_path_) allowed_dirs_.clear();
}

namespace {
/// True when `p` is `dir` or lies below it (both absolute and normal).
bool inside(const std::filesystem::path& p, const std::filesystem::path& dir) {
  auto a = p.begin(), b = dir.begin();
  for (; b != dir.end(); ++a, ++b) {
    if (b->empty() && std::next(b) == dir.end()) return true;  // "dir/" ends with an empty element
    if (a == p.end() || *a != *b) return false;
  }
  return true;
}
}  // namespace

void ProvingService::check_client_path(const std::string& arg, const std::string& path) const {
  if (any_path_) return;
  std::error_code ec;
  // As the kind will open it: relative to the daemon's folder, every symlink (also a dangling one's
  // target) resolved; nothing here says whether the file exists.
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  if (!ec) {
    for (const auto& d : allowed_dirs_) {
      if (inside(p, d)) return;
    }
  }
  std::string dirs;
  for (const auto& d : allowed_dirs_) dirs += (dirs.empty() ? "" : ", ") + d.string();
  throw RequestError(StatusCode::PERMISSION_DENIED,
                     field_of(arg) + ": '" + path + "' is outside the folders this daemon lets clients name (" +
                         (dirs.empty() ? std::string("none") : dirs) +
                         "; config paths.allowed); send the file's bytes as the payload where the kind takes them, "
                         "or have the operator add its folder");
}


Status ProvingService::finish(Method m, Status s) {
  const int code = static_cast<int>(s.error_code());
  calls_[m][code >= 0 && code < 17 ? code : 2].fetch_add(1, std::memory_order_relaxed);
  return s;
}

std::shared_ptr<const engine::KindJob> ProvingService::validate(const engine::ProofRequest& r, bool srs_only) const {
  const engine::ProofKind* kind = kinds_->find(r.kind);
  if (!kind) {
    std::string known;
    for (const auto& n : kinds_->names()) known += (known.empty() ? "" : ", ") + n;
    throw RequestError(StatusCode::INVALID_ARGUMENT,
                       "request.kind: '" + r.kind + "' is not a kind this daemon proves (known: " + known + ")");
  }
  std::vector<engine::ArgSpec> args = kind->arguments();
  const std::string prefix = "kind '" + r.kind + "'";
  if (srs_only) {
    for (engine::ArgSpec& a : args) a.required = false;  // the parameter set's arguments are the kind's to ask for
  }
  try {
    engine::check_arguments(r.kind, args, r);
  } catch (const std::exception& e) {
    throw RequestError(StatusCode::INVALID_ARGUMENT, e.what());  // names the kind
  }
  // The files and folders the daemon must read (declared as such): exist, are of their kind,
  // readable — checked here so the client hears it now.
  for (const engine::ArgSpec& a : args) {
    if (a.type != engine::ArgType::File && a.type != engine::ArgType::Dir) continue;
    auto it = r.args.find(a.name);
    if (it == r.args.end() || it->second.empty()) continue;
    const std::string& path = it->second;
    check_client_path(a.name, path);  // before anything looks at the path
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st)) {
      throw RequestError(StatusCode::INVALID_ARGUMENT,
                         field_of(a.name) + ": '" + path + "': no such " +
                             (a.type == engine::ArgType::Dir ? "folder" : "file") + " on the daemon's machine");
    }
    if (a.type == engine::ArgType::Dir) {
      if (!std::filesystem::is_directory(st)) {
        throw RequestError(StatusCode::INVALID_ARGUMENT, field_of(a.name) + ": '" + path + "' is not a folder");
      }
      continue;
    }
    if (!std::filesystem::is_regular_file(st)) {
      throw RequestError(StatusCode::INVALID_ARGUMENT, field_of(a.name) + ": '" + path + "' is not a regular file");
    }
    if (!std::ifstream(path, std::ios::binary)) {
      throw RequestError(StatusCode::INVALID_ARGUMENT, field_of(a.name) + ": '" + path + "' cannot be read by the daemon");
    }
  }
  try {
    engine::check_srs_files(r.kind, args, r);  // names the kind
  } catch (const std::exception& e) {
    throw RequestError(StatusCode::INVALID_ARGUMENT, e.what());
  }
  try {
    if (srs_only) {
      kind->prepare_srs(r);
      return nullptr;
    }
    return eng_.prepare_request(r);  // as the engine's job will: a preloaded set serves a request without one
  } catch (const std::exception& e) {
    // Name the kind once: some kinds' messages already start with it.
    const std::string what = e.what();
    throw RequestError(StatusCode::INVALID_ARGUMENT, what.rfind(prefix, 0) == 0 ? what : prefix + ": " + what);
  }
}

void ProvingService::check_queue_room(const engine::ProofRequest& r) const {
  const engine::EngineStatus st = eng_.status();
  const std::uint64_t active = st.jobs_queued + st.jobs_running;
  if (active < cfg_.max_queued_jobs) return;
  const engine::ProofKind* kind = kinds_->find(r.kind);
  const engine::Priority p = r.priority ? *r.priority : kind ? kind->default_priority() : engine::Priority::Normal;
  std::uint64_t critical = 0;
  for (const engine::JobProgress& j : st.jobs) {
    critical += j.priority == engine::Priority::Critical &&
                (j.state == engine::JobState::Queued || j.state == engine::JobState::Running);
  }
  // A CRITICAL job (a WinningPoSt: its deadline is seconds away) is not refused for a queue full of
  // other work; only CRITICAL jobs themselves count against the limit for it.
  if (p == engine::Priority::Critical && critical < cfg_.max_queued_jobs) return;
  throw RequestError(StatusCode::RESOURCE_EXHAUSTED,
                     std::to_string(p == engine::Priority::Critical ? critical : active) +
                         (p == engine::Priority::Critical ? " CRITICAL" : "") +
                         " jobs queued or running, the limit is " + std::to_string(cfg_.max_queued_jobs) +
                         " (server.max_queued_jobs); retry later");
}

std::string ProvingService::proof_format(const std::string& kind) const {
  const engine::ProofKind* k = kinds_->find(kind);
  return k ? std::string(k->proof_format()) : std::string();
}

engine::SubmitResult ProvingService::submit_checked(const pb::ProofRequest& req, bool* created) {
  if (stopping_) throw RequestError(StatusCode::UNAVAILABLE, "the daemon is shutting down");
  engine::ProofRequest r = to_engine_request(req);
  const std::uint64_t fp = request_fingerprint(r);
  // A known id: the existing job (same contents) or ALREADY_EXISTS. Call with ids_mu_ held. The
  // same contents go through Engine::submit, which answers the existing job and counts the duplicate
  // (proofline_engine_jobs_duplicate_total, the one place duplicates are counted); should the engine
  // have dropped the id just now, that submit queues the request afresh. Moves `r`: the caller
  // returns what this returns.
  auto known = [&]() -> std::optional<engine::SubmitResult> {
    if (r.request_id.empty()) return std::nullopt;
    auto it = fingerprints_.find(r.request_id);
    if (it == fingerprints_.end()) return std::nullopt;
    engine::AwaitResult job = eng_.peek(r.request_id);
    if (job.status == engine::AwaitStatus::NotFound) {
      fingerprints_.erase(it);  // the engine has dropped it: the id is free again
      return std::nullopt;
    }
    if (it->second != fp) {
      throw RequestError(StatusCode::ALREADY_EXISTS, "request.request_id: '" + r.request_id +
                                                         "' is already used by a different request (kind, "
                                                         "priority, inputs); resubmit with a new id");
    }
    return eng_.submit(std::move(r));
  };
  {
    std::lock_guard lock(ids_mu_);
    if (auto k = known()) {
      *created = !k->duplicate;
      return *k;
    }
  }
  r.prepared = validate(r);  // parses large inputs: outside the lock, so other clients are not held up
  std::lock_guard lock(ids_mu_);
  if (auto k = known()) {  // submitted by another client meanwhile
    *created = !k->duplicate;
    return *k;
  }
  check_queue_room(r);
  engine::SubmitResult s = eng_.submit(r);
  if (s.duplicate) {
    // The engine holds this id but this service never submitted it: a job of the cuzk.v1 API
    // (its engine ids are "cuzk-<n>-<request id>"). Never answer it as this request's job.
    throw RequestError(StatusCode::ALREADY_EXISTS, "request.request_id: '" + r.request_id +
                                                       "' is the id of a job submitted through another API "
                                                       "(cuzk.v1); resubmit with a new id");
  }
  *created = true;
  if (!s.request_id.empty()) fingerprints_[s.request_id] = fp;
  // Forget ids the engine no longer retains, so this map stays as small as the engine's.
  if (fingerprints_.size() > 2 * cfg_.max_finished_jobs + 1024) {
    for (auto it = fingerprints_.begin(); it != fingerprints_.end();) {
      it = eng_.peek(it->first).status == engine::AwaitStatus::NotFound ? fingerprints_.erase(it) : std::next(it);
    }
  }
  return s;
}

Status ProvingService::wait_for(grpc::ServerContext* ctx, const std::string& id, std::uint64_t timeout_ms,
                                bool cancel_on_disconnect, pb::ProofResult* resp, bool* last_waiter, bool prove) {
  // The calls holding the job are counted (every Prove, created or joined, and every AwaitProof with
  // cancel_on_disconnect); the job is cancelled when the last of them has gone away (disconnect,
  // deadline) and one of them asked for that (the Prove that created it, such an AwaitProof): a Prove
  // that joined the job keeps it alive after its creator left. A plain AwaitProof neither holds nor
  // cancels.
  const bool holds = prove || cancel_on_disconnect;
  if (holds) {
    std::lock_guard lock(waiting_mu_);
    Waiting& w = waiting_[id];
    ++w.calls;
    w.cancel_when_abandoned = w.cancel_when_abandoned || cancel_on_disconnect;
  }
  // Sets *last_waiter: whether this call was the last one holding the job; `gone`: its client went away.
  auto leave = [&](bool gone) {
    bool last = !holds, cancel = false;
    if (holds) {
      std::lock_guard lock(waiting_mu_);
      auto it = waiting_.find(id);
      if (it != waiting_.end() && --it->second.calls == 0) {
        last = true;
        cancel = gone && it->second.cancel_when_abandoned;
        waiting_.erase(it);
      }
    }
    if (cancel) {
      eng_.cancel(id);
      client_gone_cancels_.fetch_add(1, std::memory_order_relaxed);
    }
    if (last_waiter) *last_waiter = last;
  };
  // A limit beyond ~34 years means none (and std::chrono::milliseconds, signed 64-bit, would wrap
  // a value >= 2^63 into an immediate timeout).
  if (timeout_ms > (std::uint64_t{1} << 40)) timeout_ms = 0;
  const auto t0 = Clock::now();
  const auto poll = std::chrono::milliseconds(cfg_.await_poll_ms);
  try {
    for (;;) {
      if (stopping_) {
        leave(false);
        return Status(StatusCode::UNAVAILABLE, "the daemon is shutting down");
      }
      auto slice = poll;
      if (timeout_ms > 0) {
        const auto left = std::chrono::milliseconds(timeout_ms) -
                          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
        slice = std::clamp(left, std::chrono::milliseconds(0), poll);
      }
      engine::AwaitResult r = eng_.await(id, slice);
      if (r.status == engine::AwaitStatus::Ready) {
        leave(false);
        to_proto_result(r.result, resp);
        resp->set_proof_format(proof_format(r.result.kind));
        return Status::OK;
      }
      if (r.status == engine::AwaitStatus::NotFound) {
        leave(false);
        return Status(StatusCode::NOT_FOUND, "request_id '" + id + "' is not known to this daemon (never submitted, "
                                             "or its result was dropped: engine.max_finished_jobs)");
      }
      if (ctx->IsCancelled()) {
        leave(true);
        return Status(StatusCode::CANCELLED, "the client went away");
      }
      if (timeout_ms > 0 && Clock::now() - t0 >= std::chrono::milliseconds(timeout_ms)) {
        leave(false);
        to_proto_result(r.result, resp);
        resp->set_proof_format(proof_format(r.result.kind));
        resp->set_status(pb::PROOF_STATUS_TIMEOUT);
        return Status::OK;
      }
    }
  } catch (...) {
    leave(false);
    throw;
  }
}

namespace {
/// Runs a handler body, turning exceptions into statuses.
template <class F>
Status guarded(F&& body) {
  try {
    return body();
  } catch (const RequestError& e) {
    return Status(e.code, utf8_escape_invalid(e.what()));
  } catch (const ProoflineError& e) {
    return to_status(e, "bad request");
  } catch (const std::invalid_argument& e) {
    return to_status(e, "bad request");
  } catch (const std::system_error& e) {
    return to_status(e, "bad request");
  } catch (const r1cs::SynthesisError& e) {
    return to_status(e, "synthesis failed");
  } catch (const std::exception& e) {
    return Status(StatusCode::INTERNAL, utf8_escape_invalid(std::string("internal error: ") + e.what()));
  }
}
}  // namespace

Status ProvingService::SubmitProof(grpc::ServerContext*, const pb::SubmitProofRequest* req,
                                   pb::SubmitProofResponse* resp) {
  const MessageNote note{*this, req->ByteSizeLong()};  // at the end of the call, when its buffers go
  return finish(kSubmit, guarded([&] {
    if (!req->has_request()) return Status(StatusCode::INVALID_ARGUMENT, "request: missing");
    bool created = false;
    engine::SubmitResult s = submit_checked(req->request(), &created);
    resp->set_request_id(s.request_id);
    resp->set_duplicate(s.duplicate);
    resp->set_status(to_proto_status(s.state));
    return Status::OK;
  }));
}

Status ProvingService::AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req, pb::ProofResult* resp) {
  return finish(kAwait, guarded([&] {
    if (req->request_id().empty()) return Status(StatusCode::INVALID_ARGUMENT, "request_id: missing");
    check_request_id(req->request_id(), "");  // no job has another: refused, not echoed as unknown
    return wait_for(ctx, req->request_id(), req->timeout_ms(), req->cancel_on_disconnect(), resp);
  }));
}

Status ProvingService::Prove(grpc::ServerContext* ctx, const pb::ProveRequest* req, pb::ProofResult* resp) {
  const MessageNote note{*this, req->ByteSizeLong()};  // at the end of the call, when its buffers go
  return finish(kProve, guarded([&] {
    if (!req->has_request()) return Status(StatusCode::INVALID_ARGUMENT, "request: missing");
    bool created = false;
    engine::SubmitResult s = submit_checked(req->request(), &created);
    bool last = false;
    Status st = wait_for(ctx, s.request_id, req->timeout_ms(), created, resp, &last, /*prove=*/true);
    if (st.ok() && resp->status() == pb::PROOF_STATUS_TIMEOUT && created && last) {
      eng_.cancel(s.request_id);  // Prove's timeout ends the job (engine.proto) unless others still wait on it
    }
    return st;
  }));
}

Status ProvingService::CancelProof(grpc::ServerContext*, const pb::CancelProofRequest* req,
                                   pb::CancelProofResponse* resp) {
  return finish(kCancel, guarded([&] {
    if (req->request_id().empty()) return Status(StatusCode::INVALID_ARGUMENT, "request_id: missing");
    check_request_id(req->request_id(), "");
    engine::CancelResult c = eng_.cancel(req->request_id());
    resp->set_found(c.found);
    if (c.found) {
      resp->set_previous(to_proto_status(c.previous));
      resp->set_was_queued(c.previous == engine::JobState::Queued);
      resp->set_was_running(c.previous == engine::JobState::Running);
      resp->set_dropped_queued(static_cast<std::uint32_t>(c.dropped_queued));
      resp->set_stopping_running(static_cast<std::uint32_t>(c.stopping_running));
    }
    return Status::OK;
  }));
}

Status ProvingService::GetStatus(grpc::ServerContext*, const pb::GetStatusRequest*, pb::StatusResponse* resp) {
  return finish(kStatus, guarded([&] {
    const engine::EngineStatus s = eng_.status();
    resp->set_version("proofline.v1");
    resp->set_uptime_s(std::chrono::duration<double>(Clock::now() - started_).count());
    for (const auto& b : s.backends) {
      auto* d = resp->add_devices();
      d->set_index(static_cast<std::uint32_t>(b.index));
      d->set_backend(b.name);
      d->set_workers(b.workers);
      d->set_busy_workers(b.busy_workers);
      d->set_partitions_proved(b.partitions_proved);
      d->set_in_service(b.in_service);
      d->set_fault(b.fault);
      d->set_recoveries(b.recoveries);
    }
    for (const auto& e : s.srs) fill_srs(e, resp->add_srs());
    for (const auto& c : s.compiled) {
      pb::CompiledCircuitEntry* o = resp->add_compiled();
      o->set_key(c.key);
      o->set_file(c.file);
      o->set_constraints(c.constraints);
      o->set_coefficients(c.coefficients);
      o->set_host_bytes(c.host_bytes);
      o->set_disk_bytes(c.disk_bytes);
      o->set_device_bytes(c.device_bytes);
      o->set_mapped(c.mapped);
    }
    std::map<std::string, pb::QueueStats*> by_stage;
    for (const auto& q : s.queues) {
      pb::QueueStats*& o = by_stage[q.stage];
      if (!o) {
        o = resp->add_queues();
        o->set_stage(q.stage);
      }
      const std::string prio(engine::to_string(q.priority));
      o->set_pending(o->pending() + static_cast<std::uint32_t>(q.pending));
      o->set_running(o->running() + static_cast<std::uint32_t>(q.running));
      (*o->mutable_pending_by_priority())[prio] += static_cast<std::uint32_t>(q.pending);
      (*o->mutable_running_by_priority())[prio] += static_cast<std::uint32_t>(q.running);
    }
    auto* m = resp->mutable_memory();
    m->set_budget_bytes(s.memory.budget_bytes);
    m->set_used_bytes(s.memory.used_bytes);
    m->set_reserved_bytes(s.memory.reserved_bytes);
    m->set_pooled_bytes(s.memory.pooled_bytes);
    m->set_reclaim_pending_bytes(s.memory.reclaim_pending_bytes);
    m->set_srs_bytes(s.memory.srs_bytes);
    m->set_srs_budget_bytes(s.memory.srs_budget_bytes);
    m->set_compiled_bytes(s.memory.compiled_bytes);
    m->set_reclaimer_enabled(s.memory.reclaimer_enabled);
    m->set_budget_source(s.memory.budget_source);
    m->set_budget_derivation(s.memory.budget_derivation);
    m->set_critical_path_frees(s.memory.critical_path_frees);
    m->set_pool_hits(s.memory.pool_hits);
    m->set_pool_misses(s.memory.pool_misses);
    for (const engine::JobProgress& j : s.jobs) {
      auto* o = resp->add_jobs();
      o->set_request_id(j.request_id);
      o->set_kind(j.kind);
      o->set_priority(to_proto_priority(j.priority));
      o->set_status(to_proto_status(j.state));
      o->set_num_partitions(static_cast<std::uint32_t>(j.num_partitions));
      o->set_partitions_synthesized(static_cast<std::uint32_t>(j.partitions_synthesized));
      o->set_partitions_done(static_cast<std::uint32_t>(j.partitions_done));
      o->set_elapsed_s(j.elapsed_seconds);
    }
    for (const auto& k : kinds_->all()) {
      resp->add_kinds(std::string(k->name()));
      to_proto_kind(*k, resp->add_kind_info());
    }
    resp->set_jobs_queued(static_cast<std::uint32_t>(s.jobs_queued));
    resp->set_jobs_running(static_cast<std::uint32_t>(s.jobs_running));
    resp->set_jobs_completed(static_cast<std::uint32_t>(s.jobs_done));
    resp->set_jobs_failed(static_cast<std::uint32_t>(s.jobs_failed));
    resp->set_jobs_cancelled(static_cast<std::uint32_t>(s.jobs_cancelled));
    resp->set_synthesis_workers(s.synthesis_workers);
    resp->set_overlap(s.overlap);
    for (const auto& a : listen_) resp->add_listen(a);
    resp->set_resident_bytes(resident_bytes());
    return Status::OK;
  }));
}

Status ProvingService::GetMetrics(grpc::ServerContext*, const pb::GetMetricsRequest*, pb::MetricsResponse* resp) {
  return finish(kMetrics, guarded([&] {
    std::string t = eng_.metrics_text();
    if (!t.empty() && t.back() != '\n') t += '\n';
    t += "# HELP proofline_server_calls_total gRPC calls answered, by method and status code.\n"
         "# TYPE proofline_server_calls_total counter\n";
    for (int m = 0; m < kMethods; ++m) {
      for (int c = 0; c < 17; ++c) {
        const std::uint64_t n = calls_[m][c].load(std::memory_order_relaxed);
        if (n == 0) continue;
        t += std::string("proofline_server_calls_total{method=\"") + method_name(m) + "\",code=\"" + code_name(c) +
             "\"} " + std::to_string(n) + "\n";
      }
    }
    t += "# HELP proofline_server_client_gone_cancels_total jobs cancelled because their client went away.\n"
         "# TYPE proofline_server_client_gone_cancels_total counter\n"
         "proofline_server_client_gone_cancels_total " +
         std::to_string(client_gone_cancels_.load()) + "\n";
    t += "# HELP proofline_server_memory_trims_total passes giving freed memory back to the system after large "
         "messages (malloc_trim).\n"
         "# TYPE proofline_server_memory_trims_total counter\n"
         "proofline_server_memory_trims_total " +
         std::to_string(trimmer_->passes()) + "\n";
    t += "# HELP proofline_server_resident_bytes resident set of the daemon process (VmRSS).\n"
         "# TYPE proofline_server_resident_bytes gauge\n"
         "proofline_server_resident_bytes " +
         std::to_string(resident_bytes()) + "\n";
    resp->set_text(std::move(t));
    return Status::OK;
  }));
}

Status ProvingService::PreloadSRS(grpc::ServerContext*, const pb::PreloadSRSRequest* req,
                                  pb::PreloadSRSResponse* resp) {
  return finish(kPreload, guarded([&] {
    if (!req->has_request()) return Status(StatusCode::INVALID_ARGUMENT, "request: missing");
    engine::ProofRequest r = to_engine_request(req->request());
    validate(r, /*srs_only=*/true);
    fill_srs(eng_.preload_srs(r.kind, r.args), resp->mutable_srs());
    return Status::OK;
  }));
}

Status ProvingService::EvictSRS(grpc::ServerContext*, const pb::EvictSRSRequest* req, pb::EvictSRSResponse* resp) {
  return finish(kEvict, guarded([&] {
    if (req->key().empty()) return Status(StatusCode::INVALID_ARGUMENT, "key: missing (an SrsEntry.key)");
    std::uint64_t bytes = 0;
    unsigned users = 0;
    bool known = false;
    for (const auto& e : eng_.status().srs) {
      if (e.key == req->key()) {
        known = true;
        bytes = e.bytes;
        users = e.users;
      }
    }
    const bool evicted = eng_.evict_srs(req->key());
    resp->set_evicted(evicted);
    if (evicted) {
      resp->set_bytes_freed(bytes);
    } else {
      resp->set_reason(!known ? "not loaded" : "in use by " + std::to_string(users) + " job(s)");
    }
    return Status::OK;
  }));
}

Status ProvingService::ListKinds(grpc::ServerContext*, const pb::ListKindsRequest*, pb::ListKindsResponse* resp) {
  return finish(kListKinds, guarded([&] {
    for (const auto& k : kinds_->all()) to_proto_kind(*k, resp->add_kinds());
    return Status::OK;
  }));
}

}  // namespace proofline::server
