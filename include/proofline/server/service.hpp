// proofline/server/service.hpp — the gRPC service proofline.v1.ProvingEngine over an
// engine::Engine, and the `Daemon` that owns engine, backends and gRPC server.
//
// Owns: `ProvingService` (the RPC handlers), `Daemon`, `to_engine_request` (proto → engine request),
// `to_proto_kind` / `arguments_of` (a kind's declarations ↔ proto KindInfo).
// The backends come from groth16::make_backends (groth16/backend_factory.hpp, engine.backend).
//
// ---- Requests ------------------------------------------------------------------------------------
// A proto ProofRequest becomes an engine::ProofRequest as it is: kind, priority (UNSPECIFIED: the
// kind's default, engine::ProofKind::default_priority), request_id, args, payload. Nothing here knows a kind: what a request of kind K must hold comes from K's declared
// arguments (engine::ArgSpec, engine/kind.hpp), which ListKinds and GetStatus send to clients
// (to_proto_kind).
// Before a request is queued, SubmitProof/Prove/PreloadSRS validate it synchronously (PreloadSRS:
// only what names the parameter set, ProvingService::validate's srs_only) — request_id
// (engine::check_request_id: ≤ 128 bytes of printable ASCII, spaces allowed), the kind (known to the registry), the request against the
// kind's declarations (engine::check_arguments: names, value forms, required ones, payload), every
// declared file or folder argument naming a path inside paths.allowed (check_client_path:
// PERMISSION_DENIED otherwise, before the path is looked at), every
// declared file argument naming a readable regular file (a folder argument a folder) on the
// daemon's machine, no parameter-set argument naming a .vk file (engine::check_srs_files), then the
// kind's own prepare() — and answer INVALID_ARGUMENT with the message
// (naming the kind and the argument) on failure; nothing is queued then. The job prepare() made
// goes to the engine with the request (engine::ProofRequest::prepared): a request's input (a 32 GiB
// C1, hundreds of MB of vanilla proofs) is parsed once.
// Problems only visible once the parameters are loaded (a size that does not match the file, a
// malformed file) fail the job: ProofResult.status FAILED with the engine's message.
//
// ---- Status codes ----------------------------------------------------------------------------------
// INVALID_ARGUMENT bad request (above; also an AwaitProof/CancelProof request_id that breaks the rule);
// PERMISSION_DENIED a file or folder argument outside paths.allowed;
// NOT_FOUND AwaitProof of an unknown request_id;
// ALREADY_EXISTS a request_id reused with different contents (the same contents: the existing job,
// duplicate = true); RESOURCE_EXHAUSTED more than server.max_queued_jobs queued + running (a CRITICAL job
// counts only CRITICAL jobs: check_queue_room); `proofline submit` exits 7 (busy, retry) on it;
// CANCELLED the client went away; UNAVAILABLE the daemon is shutting down; INTERNAL anything else.
// CancelProof of an unknown id is OK with found = false (cancel is idempotent).
//
// ---- Clients that go away ------------------------------------------------------------------------
// Prove: the job is cancelled when its client disconnects, cancels, or its deadline passes before
// the result exists (checked every server.await_poll_ms); the engine drops its queued partitions and
// stops running ones promptly (Engine::cancel: synthesis and the prover poll the job's cancel flag),
// releasing their buffers. The calls holding a job are counted — every Prove waiting on it (the one
// that created it and those that joined it) and every AwaitProof with cancel_on_disconnect: the job
// is cancelled only when the LAST of them goes away, and only if one of them asked for it — the
// Prove that created the job, or such an AwaitProof. So a Prove that joined an identical running
// job keeps it alive after the creating client left (and gets its result); a Prove that joined a
// job SubmitProof created never cancels it. A Prove's timeout_ms cancels the job it created only
// when no other call holds it. AwaitProof without cancel_on_disconnect neither holds nor cancels:
// the job goes on when it leaves; its result is retained by the engine (the last engine.max_finished_jobs finished jobs; a result is a few
// hundred bytes per partition — every big buffer is released when the job ends, awaited or not).
// Nothing a client does can leave a job's buffers allocated after the job ends.
//
// ---- Threads ---------------------------------------------------------------------------------------
// gRPC's synchronous server: one thread per call in flight (at most server.max_threads); waiting
// calls block in Engine::await in slices of server.await_poll_ms. The Daemon's destructor (or
// shutdown()) stops accepting calls, ends waiting calls with UNAVAILABLE, then destroys the engine
// (which cancels what is still queued or running and joins its threads).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/server/config.hpp"
#include "proofline/v1/engine.grpc.pb.h"

namespace proofline::server {

namespace pb = ::proofline::v1;

/// A request the daemon refuses; becomes a gRPC status with this code and message.
struct RequestError : std::runtime_error {
  grpc::StatusCode code;
  RequestError(grpc::StatusCode c, const std::string& m) : std::runtime_error(m), code(c) {}
};

/// proto → engine request (header comment). Throws RequestError(INVALID_ARGUMENT) for a request
/// that cannot be translated (no kind, a bad request_id or priority).
engine::ProofRequest to_engine_request(const pb::ProofRequest& r);
/// A kind's name, description, proof format and declared arguments (each with its form in words).
void to_proto_kind(const engine::ProofKind& k, pb::KindInfo* out);
/// The declared arguments of a KindInfo, for clients that check a request before sending it (an
/// unknown type reads as String, so a newer daemon's types are not refused here).
std::vector<engine::ArgSpec> arguments_of(const pb::KindInfo& k);

/// PRIORITY_UNSPECIFIED → nullopt: the engine gives the job its kind's default class
/// (engine::ProofKind::default_priority: winning-post CRITICAL, window-post HIGH, others NORMAL).
std::optional<engine::Priority> to_engine_priority(pb::Priority p);
pb::Priority to_proto_priority(engine::Priority p);
pb::ProofStatus to_proto_status(engine::JobState s);
/// engine result → proto (proofs, public inputs as decimal strings, timings).
void to_proto_result(const engine::ProofResult& r, pb::ProofResult* out);


class ProvingService final : public pb::ProvingEngine::Service {
 public:
  ProvingService(engine::Engine& eng, std::shared_ptr<const engine::KindRegistry> kinds, const DaemonConfig& cfg);
  ~ProvingService() override;

  grpc::Status SubmitProof(grpc::ServerContext* ctx, const pb::SubmitProofRequest* req,
                           pb::SubmitProofResponse* resp) override;
  grpc::Status AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req, pb::ProofResult* resp) override;
  grpc::Status Prove(grpc::ServerContext* ctx, const pb::ProveRequest* req, pb::ProofResult* resp) override;
  grpc::Status CancelProof(grpc::ServerContext* ctx, const pb::CancelProofRequest* req,
                           pb::CancelProofResponse* resp) override;
  grpc::Status GetStatus(grpc::ServerContext* ctx, const pb::GetStatusRequest* req, pb::StatusResponse* resp) override;
  grpc::Status GetMetrics(grpc::ServerContext* ctx, const pb::GetMetricsRequest* req, pb::MetricsResponse* resp) override;
  grpc::Status PreloadSRS(grpc::ServerContext* ctx, const pb::PreloadSRSRequest* req,
                          pb::PreloadSRSResponse* resp) override;
  grpc::Status EvictSRS(grpc::ServerContext* ctx, const pb::EvictSRSRequest* req, pb::EvictSRSResponse* resp) override;
  grpc::Status ListKinds(grpc::ServerContext* ctx, const pb::ListKindsRequest* req,
                         pb::ListKindsResponse* resp) override;

  /// The checks a request passes before it is queued (header comment, "Requests"): the kind, its
  /// declared arguments, the files they name, the kind's prepare(). Throws RequestError
  /// (INVALID_ARGUMENT, naming the kind and the argument). Also used by CuzkService (cuzk.hpp).
  /// `srs_only` (PreloadSRS): the request names only a parameter set — no argument is required by
  /// its declaration, and the kind's prepare_srs() (e.g. porep-c2, window-post, winning-post with
  /// 'params' alone) stands for prepare(). Returns the kind's job for `r` (Engine::prepare_request;
  /// null when `srs_only`), for the caller to hand to the engine as ProofRequest::prepared.
  std::shared_ptr<const engine::KindJob> validate(const engine::ProofRequest& r, bool srs_only = false) const;

  /// Room for one more job of `r` (its priority, else its kind's default): RequestError
  /// RESOURCE_EXHAUSTED "N jobs queued or running, the limit is M (server.max_queued_jobs); retry
  /// later" when queued + running jobs reach server.max_queued_jobs — except for a CRITICAL job,
  /// which only CRITICAL jobs count against the limit ("N CRITICAL jobs queued or running, …"): a
  /// queue full of LOW work never refuses a WinningPoSt. Also used by CuzkService.
  void check_queue_room(const engine::ProofRequest& r) const;
  /// A path a client names for argument `arg` (a kind's file or folder argument) must lie inside
  /// paths.allowed (config.hpp DaemonConfig::allowed_paths), resolved as the kind will open it
  /// (absolute, symlinks followed): else RequestError PERMISSION_DENIED "request.args['<arg>']:
  /// '<path>' is outside the folders this daemon lets clients name (<folders>; config
  /// paths.allowed); …" — the same message whether or not the path exists. validate() checks every
  /// file and folder argument with it before it stats or opens anything.
  void check_client_path(const std::string& arg, const std::string& path) const;

  /// The folders of paths.allowed as this service holds them: absolute, symlinks resolved, the
  /// parameter cache's token replaced; empty when "*" is among them (any path).
  const std::vector<std::filesystem::path>& allowed_dirs() const { return allowed_dirs_; }

  /// A submission (SubmitProof or Prove, of either API) of `bytes` was handled: from
  /// kTrimAfterBytes on, the memory its handling freed (gRPC's buffers, the parsed copies: hundreds
  /// of MB for a refused 250 MB message) is given back to the system shortly after the call ends
  /// (malloc_trim on a background thread, at most one pass per 200 ms; counted by the metric
  /// proofline_server_memory_trims_total). Without it the freed pages stayed in the allocator's
  /// arenas: idle RSS grew 23 → 2,787 MiB over ~60 refused 250 MB messages.
  void note_message(std::size_t bytes) const;
  static constexpr std::size_t kTrimAfterBytes = std::size_t{16} << 20;
  /// note_message(bytes) when it goes out of scope: declared first in a handler, it runs as the call ends.
  struct MessageNote {
    const ProvingService& service;
    std::size_t bytes;
    ~MessageNote() { service.note_message(bytes); }
  };

  /// Ends every waiting call (UNAVAILABLE) and refuses new ones; called by Daemon::shutdown.
  void stop() { stopping_ = true; }
  void set_listen(std::vector<std::string> addrs) { listen_ = std::move(addrs); }

 private:
  enum Method : int { kSubmit, kAwait, kProve, kCancel, kStatus, kMetrics, kPreload, kEvict, kListKinds, kMethods };
  /// Validates and submits; fills `created` (false when the id was known).
  engine::SubmitResult submit_checked(const pb::ProofRequest& req, bool* created);
  /// Waits in slices, watching the client; see the header comment.
  /// `prove`: the caller is a Prove (it holds the job while it waits, see "Clients that go away");
  /// `last_waiter` (if given): whether this call was the last one holding the job when it left.
  grpc::Status wait_for(grpc::ServerContext* ctx, const std::string& id, std::uint64_t timeout_ms,
                        bool cancel_on_disconnect, pb::ProofResult* resp, bool* last_waiter = nullptr,
                        bool prove = false);
  grpc::Status finish(Method m, grpc::Status s);
  /// The kind's ProofKind::proof_format ("" for a kind not in the registry).
  std::string proof_format(const std::string& kind) const;

  engine::Engine& eng_;
  std::shared_ptr<const engine::KindRegistry> kinds_;
  DaemonConfig cfg_;
  std::vector<std::string> listen_;
  std::atomic<bool> stopping_{false};
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();

  std::vector<std::filesystem::path> allowed_dirs_;  ///< see allowed_dirs()
  bool any_path_ = false;                           ///< paths.allowed holds "*"

  std::mutex ids_mu_;
  /// request_id → fingerprint of its contents, to tell a retry from a conflicting reuse.
  std::unordered_map<std::string, std::uint64_t> fingerprints_;

  /// The calls holding a job (Prove, AwaitProof with cancel_on_disconnect), by request_id; see
  /// "Clients that go away".
  struct Waiting {
    unsigned calls = 0;
    bool cancel_when_abandoned = false;  ///< its creating Prove, or an AwaitProof with cancel_on_disconnect
  };
  std::mutex waiting_mu_;
  std::unordered_map<std::string, Waiting> waiting_;

  std::atomic<std::uint64_t> calls_[kMethods][17] = {};  ///< [method][grpc status code]
  std::atomic<std::uint64_t> client_gone_cancels_{0};
  class Trimmer;                      ///< see note_message
  std::unique_ptr<Trimmer> trimmer_;
};

class CuzkService;  // proofline/server/cuzk.hpp
class StatusPage;  // src/server/status_page.hpp

/// What a host program (or a test) may hand the daemon instead of what the config would build.
struct DaemonParts {
  /// Empty: groth16::make_backends(engine.backend) (groth16/backend_factory.hpp).
  std::vector<std::shared_ptr<groth16::ProverBackend>> backends;
  /// Null: engine::KindRegistry::builtin() (every kind registered in the program: the built-in
  /// kinds and any the host program links in). A host program may add kinds here instead.
  std::shared_ptr<engine::KindRegistry> kinds;
};

/// A listen address that cannot be used: none configured, malformed, not loopback without
/// listen.allow_remote, a unix path held by a live daemon or by another kind of file, or a bind
/// that failed (address in use). The message names the address. `proofline daemon` exits 2 on it.
struct ListenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// True when every address `host` resolves to (getaddrinfo; "[::1]" is read as ::1) is loopback:
/// 127.0.0.0/8, ::1 or ::ffff:127.x.y.z. Decided on the addresses, not the name: "localhost"
/// passes, "127.example.com" passes only if it resolves to loopback alone; an empty host (every
/// interface) or a name that does not resolve does not. When false, `why` (if given) says what was
/// found: "'h' does not resolve (…)", "'h' resolves to 10.0.0.1, which is not loopback".
bool resolves_to_loopback(const std::string& host, std::string* why = nullptr);

/// The running daemon: backends, engine, service, gRPC server bound to the configured addresses.
class Daemon {
 public:
  /// Starts everything; throws ListenError naming the address when a listener cannot be bound
  /// (address in use, another daemon on the unix socket, non-loopback TCP without allow_remote),
  /// std::invalid_argument for an unusable backend choice, the engine's errors for a preload
  /// file that cannot be loaded, and ProoflineError naming the files when params.check_at_start
  /// finds a parameter file missing, truncated or corrupted.
  explicit Daemon(DaemonConfig cfg, DaemonParts parts = {});
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  /// "unix:/path" and "host:port" (with the port actually bound), in that order.
  const std::vector<std::string>& listening() const { return listening_; }
  /// The address a client should use first ("unix:…" if any, else the TCP one).
  std::string address() const { return listening_.empty() ? "" : listening_.front(); }
  engine::Engine& engine() { return *engine_; }
  const std::string& backend_note() const { return backend_note_; }
  /// "status page at http://host:port/", "status page off", or why it could not be started.
  const std::string& status_note() const { return status_note_; }
  /// Blocks until shutdown() (from another thread or a signal handler thread).
  void wait();
  /// Stops the server (waiting calls end within `grace`), then the engine. Idempotent.
  void shutdown(std::chrono::milliseconds grace = std::chrono::milliseconds(2000));

 private:
  DaemonConfig cfg_;
  std::string backend_note_;
  std::shared_ptr<engine::KindRegistry> kinds_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<ProvingService> service_;
  std::unique_ptr<CuzkService> cuzk_;  ///< cuzk.v1 (api.cuzk), on the same listeners
  std::unique_ptr<StatusPage> status_page_;  ///< status.listen (src/server/status_page.hpp)
  std::string status_note_;
  std::unique_ptr<grpc::Server> server_;
  std::vector<std::string> listening_;
  std::once_flag shutdown_once_;
};

/// A channel to a daemon address ("unix:/path", "unix:///path", "host:port") with the message
/// size limit the daemon uses.
std::shared_ptr<grpc::Channel> make_channel(const std::string& address,
                                            std::uint64_t max_message_bytes = DaemonConfig{}.max_message_bytes);

/// The process's resident set (VmRSS of /proc/self/status), bytes; 0 if unreadable.
std::uint64_t resident_bytes();

}  // namespace proofline::server
