// cuzk.v1.ProvingEngine on the engine (include/proofline/server/cuzk.hpp has the semantics).
#include "proofline/server/cuzk.hpp"

#include <openssl/rand.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>

#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/filecoin/sector.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/server/service.hpp"
#include "proofline/util/base64.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/hex.hpp"
#include "proofline/util/utf8.hpp"
#include "request_fingerprint.hpp"

namespace proofline::server {

namespace cz = ::cuzk::v1;
using grpc::Status;
using grpc::StatusCode;
using Clock = std::chrono::steady_clock;

namespace {

/// A random (version 4) UUID, for a request without request_id (as cuzk).
std::string uuid4() {
  std::uint8_t b[16];
  if (RAND_bytes(b, sizeof b) != 1) throw std::runtime_error("RAND_bytes failed");
  b[6] = static_cast<std::uint8_t>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<std::uint8_t>((b[8] & 0x3f) | 0x80);
  char out[37];
  std::snprintf(out, sizeof out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return out;
}

/// An engine request id for the n-th cuzk job of `request_id`: within the one rule (engine::check_request_id),
/// with spaces and other bytes outside 0x21–0x7e as `_`, so that it reads as one word in the logs.
std::string engine_id_for(std::uint64_t n, const std::string& request_id) {
  std::string id = "cuzk-" + std::to_string(n) + "-";
  for (char c : request_id) {
    if (id.size() >= 120) break;
    const unsigned char u = static_cast<unsigned char>(c);
    id.push_back(u > 0x20 && u < 0x7f ? c : '_');
  }
  return id;
}

/// `text` for an error message: cut (excerpt) and with bytes outside printable ASCII as '?', so that
/// a gRPC status message never carries a NUL or a megabyte of what the client sent.
std::string printable_excerpt(const std::string& text) {
  std::string out = excerpt(text);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) c = '?';
  }
  return out;
}

/// A cuzk request_id is kept as the job_id (Curio's have spaces and brackets: "wdpost-1000-0-[12 34 …]"):
/// the one rule of engine::check_request_id (printable ASCII including spaces, at most
/// engine::kMaxRequestIdBytes), as INVALID_ARGUMENT naming `field`.
void check_cuzk_request_id(const std::string& id, const char* field = "request_id") {
  try {
    engine::check_request_id(id);
  } catch (const std::invalid_argument& e) {
    std::string why = e.what();  // "request_id: …"
    throw RequestError(StatusCode::INVALID_ARGUMENT, field + why.substr(why.find(':')));
  }
}

/// 0: unset, so that the engine gives the job its kind's default (winning-post CRITICAL,
/// window-post HIGH, the others NORMAL: engine::ProofKind::default_priority, as cuzk's table).
std::optional<engine::Priority> priority_of(int p) {
  switch (p) {
    case cz::LOW: return engine::Priority::Low;
    case cz::NORMAL: return engine::Priority::Normal;
    case cz::HIGH: return engine::Priority::High;
    case cz::CRITICAL: return engine::Priority::Critical;
    case cz::PRIORITY_UNSPECIFIED: return std::nullopt;
    default: return engine::Priority::Normal;  // cuzk: anything else is NORMAL
  }
}

// ---- routes: cuzk fields → an engine request of one kind ----------------------------------------
// A route fills the kind's arguments and payload from the cuzk fields it reads (fill; throws
// std::invalid_argument naming the field for a value that cannot be one of the kind's) and names
// the upstream parameter file of a PreloadSRS circuit id of its family (params_file). Adding a
// proof kind to cuzk.v1 = one row of kRoutes and these two functions.

/// PoRep: the Commit2In envelope (or the bare C1 JSON) as the payload; miner_id ≠ 0 → the C1's
/// replica_id must be the one of prover_id(miner_id) and sector_number; registered_proof ≠ 0 and
/// sector_size ≠ 0 → the C1's must be those (proto3 cannot tell 0 from unset: 0 is not checked).
void fill_porep(const cz::SubmitProofRequest& req, engine::ProofRequest& r) {
  r.payload.assign(req.vanilla_proof().begin(), req.vanilla_proof().end());
  if (req.registered_proof() != 0) r.args["registered_proof"] = std::to_string(req.registered_proof());
  if (req.sector_size() != 0) r.args["sector_size"] = std::to_string(req.sector_size());
  if (req.miner_id() != 0) {
    r.args["prover_id"] = to_hex(filecoin::prover_id_from_miner(req.miner_id()));
    r.args["sector_id"] = std::to_string(req.sector_number());
  }
}

std::string porep_params_file(std::uint64_t sector_bytes) {
  return filecoin::parameter_file_name(filecoin::porep_config(filecoin::default_seal_proof(sector_bytes)), ".params");
}

/// sector_size, when not 0, must be the registered proof's (`sector_bytes`).
void check_sector_size(const cz::SubmitProofRequest& req, std::uint64_t sector_bytes) {
  if (req.sector_size() != 0 && req.sector_size() != sector_bytes) {
    throw std::invalid_argument("sector_size: " + std::to_string(req.sector_size()) + ", but registered_proof " +
                                std::to_string(req.registered_proof()) + " is of " + std::to_string(sector_bytes) +
                                "-byte sectors");
  }
}

/// vanilla_proofs in the payload form of the PoSt and Snap kinds: a JSON array of their base64.
std::vector<std::uint8_t> vanilla_payload(const cz::SubmitProofRequest& req) {
  std::string json = "[";
  for (int i = 0; i < req.vanilla_proofs_size(); ++i) {
    const std::string& b = req.vanilla_proofs(i);
    json += (i == 0 ? "\"" : ",\"") +
            base64_encode(std::span(reinterpret_cast<const std::uint8_t*>(b.data()), b.size())) + "\"";
  }
  json += "]";
  return {json.begin(), json.end()};
}

/// WindowPoSt / WinningPoSt (cuzk-api §2.4, §3.2, §3.4): registered_proof, randomness (exactly 32
/// bytes; the top 2 bits of byte 31 cleared, as Curio and the chain's verifier do), miner_id,
/// partition_index (WindowPoSt) as the kind's arguments; vanilla_proofs (bincode
/// FallbackPoStSectorProof, one per sector, which carry the sector ids and comm_r) as the payload,
/// in the kind's payload form: a JSON array of their base64. sector_size, when not 0, must be the
/// registered proof's. vanilla_proof (field 10), sector_number and comm_r_* are not read (as cuzk).
void fill_post(const cz::SubmitProofRequest& req, engine::ProofRequest& r) {
  filecoin::PoStConfig config;
  try {
    config = filecoin::post_config(filecoin::registered_post_proof_from_u64(req.registered_proof()));
  } catch (const ProoflineError& e) {
    throw std::invalid_argument(std::string("registered_proof: ") + e.what());
  }
  check_sector_size(req, config.sector_bytes);
  if (req.randomness().size() != 32) {
    throw std::invalid_argument("randomness: " + std::to_string(req.randomness().size()) +
                                " bytes, expected exactly 32");
  }
  filecoin::Domain rand{};
  std::copy(req.randomness().begin(), req.randomness().end(), rand.begin());
  rand[31] &= 0x3f;
  if (req.vanilla_proofs_size() == 0) {
    throw std::invalid_argument("vanilla_proofs: none, expected one bincode FallbackPoStSectorProof per sector");
  }
  // The limit is on the proofs as sent, not on the base64 this route encodes them into.
  std::uint64_t raw = 0;
  for (const std::string& v : req.vanilla_proofs()) raw += v.size();
  if (raw > filecoin::kMaxPoStVanillaBytes) {
    throw std::invalid_argument("vanilla_proofs: " + std::to_string(raw) + " bytes in all, at most " +
                                std::to_string(filecoin::kMaxPoStVanillaBytes) + " (96 MiB)");
  }
  r.args["registered_proof"] = std::to_string(req.registered_proof());
  r.args["randomness"] = to_hex(rand);
  r.args["miner_id"] = std::to_string(req.miner_id());
  if (req.partition_index() != 0 || config.type == filecoin::PoStType::Window) {
    r.args["partition"] = std::to_string(req.partition_index());  // WinningPoSt: the kind refuses ≠ 0
  }
  r.payload = vanilla_payload(req);
}

/// SnapDeals (cuzk-api §2.4, §3.3, §3.4): registered_proof (abi.RegisteredUpdateProof 0-4, which
/// gives the size, as cuzk: PSProve sends sector_size 0), comm_r_old / comm_d_new / comm_r_new
/// (exactly 32 raw bytes each) as the kind's arguments; vanilla_proofs (bincode PartitionProof, one
/// per partition) as the payload, a JSON array of their base64. sector_size, when not 0, must be the
/// registered proof's. sector_number, miner_id, randomness and partition_index are not read (as cuzk:
/// the circuit has none of them).
void fill_snap(const cz::SubmitProofRequest& req, engine::ProofRequest& r) {
  std::uint64_t sector_bytes = 0;
  try {
    sector_bytes = filecoin::sector_size(filecoin::registered_update_proof_from_u64(req.registered_proof()));
  } catch (const ProoflineError& e) {
    throw std::invalid_argument(std::string("registered_proof: ") + e.what());
  }
  check_sector_size(req, sector_bytes);
  for (const auto& [name, bytes] : {std::pair{"comm_r_old", &req.comm_r_old()}, std::pair{"comm_d_new", &req.comm_d_new()},
                                    std::pair{"comm_r_new", &req.comm_r_new()}}) {
    if (bytes->size() != 32) {
      throw std::invalid_argument(std::string(name) + ": " + std::to_string(bytes->size()) +
                                  " bytes, expected exactly 32 (the raw digest, not CID bytes)");
    }
    r.args[name] = to_hex(std::span(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size()));
  }
  r.args["registered_proof"] = std::to_string(req.registered_proof());
  const std::size_t partitions = filecoin::snap_params(sector_bytes).partition_count;
  if (req.vanilla_proofs_size() == 0) {
    throw std::invalid_argument("vanilla_proofs: none, expected one bincode PartitionProof per partition (" +
                                std::to_string(partitions) + ")");
  }
  r.payload = vanilla_payload(req);
}

template <filecoin::PoStType Type>
std::string post_params_file(std::uint64_t sector_bytes) {
  // The circuit (and so the file) does not depend on the API version.
  return filecoin::fallback_parameter_file_name(
      filecoin::fallback_params(filecoin::post_config(Type, sector_bytes, filecoin::ApiVersion::V1_2_0)), ".params");
}

std::string snap_params_file(std::uint64_t sector_bytes) {
  return filecoin::snap_parameter_file_name(filecoin::snap_params(sector_bytes), ".params");
}

struct CuzkRoute {
  int proof_kind;
  const char* kind;    ///< the engine kind
  const char* family;  ///< its PreloadSRS circuit ids: "<family>-<size>"
  void (*fill)(const cz::SubmitProofRequest&, engine::ProofRequest&);
  std::string (*params_file)(std::uint64_t sector_bytes);
};

constexpr CuzkRoute kRoutes[] = {
    {cz::POREP_SEAL_COMMIT, "porep-c2", "porep", fill_porep, porep_params_file},
    {cz::WINDOW_POST_PARTITION, "window-post", "wpost", fill_post, post_params_file<filecoin::PoStType::Window>},
    {cz::WINNING_POST, "winning-post", "winning", fill_post, post_params_file<filecoin::PoStType::Winning>},
    {cz::SNAP_DEALS_UPDATE, "snap-update", "snap", fill_snap, snap_params_file},
};

const CuzkRoute* route_of_kind(int proof_kind) {
  for (const CuzkRoute& r : kRoutes) {
    if (r.proof_kind == proof_kind) return &r;
  }
  return nullptr;
}

const CuzkRoute* route_of_family(const std::string& family) {
  for (const CuzkRoute& r : kRoutes) {
    if (family == r.family) return &r;
  }
  return nullptr;
}

void fill_result(const engine::ProofResult& r, const std::string& job_id, cz::AwaitProofResponse* out) {
  out->set_job_id(job_id);
  switch (r.state) {
    case engine::JobState::Done:
      out->set_status(cz::AwaitProofResponse::COMPLETED);
      out->set_proof(std::string(r.proof_bytes.begin(), r.proof_bytes.end()));
      break;
    case engine::JobState::Failed:
      out->set_status(cz::AwaitProofResponse::FAILED);
      out->set_error_message(utf8_escape_invalid(r.error));
      break;
    case engine::JobState::Cancelled:
      out->set_status(cz::AwaitProofResponse::CANCELLED);
      out->set_error_message(utf8_escape_invalid(r.error));
      break;
    default: out->set_status(cz::AwaitProofResponse::UNKNOWN); break;
  }
  auto ms = [](double v) { return static_cast<std::uint64_t>(std::max(0.0, v) + 0.5); };
  out->set_queue_wait_ms(ms(r.timings.queue_wait));
  out->set_srs_load_ms(ms(r.timings.srs_load));
  out->set_synthesis_ms(ms(r.timings.synthesis));
  out->set_gpu_compute_ms(ms(r.timings.prover_call));
  out->set_total_ms(ms(r.timings.total));
}

bool running_state(engine::JobState s) { return s == engine::JobState::Queued || s == engine::JobState::Running; }

template <class F>
Status cuzk_guarded(F&& body) {
  try {
    return body();
  } catch (const RequestError& e) {
    return Status(e.code, utf8_escape_invalid(e.what()));
  } catch (const std::exception& e) {
    return Status(StatusCode::INTERNAL, utf8_escape_invalid(std::string("internal error: ") + e.what()));
  }
}

}  // namespace

std::string cuzk_engine_kind(int proof_kind) {
  switch (proof_kind) {
    case cz::POREP_SEAL_COMMIT: return "porep-c2";
    case cz::SNAP_DEALS_UPDATE: return "snap-update";
    case cz::WINDOW_POST_PARTITION: return "window-post";
    case cz::WINNING_POST: return "winning-post";
    default: return "";
  }
}

std::optional<CuzkCircuit> cuzk_circuit(const std::string& id) {
  const auto dash = id.rfind('-');
  if (dash == std::string::npos) return std::nullopt;
  const std::string family = id.substr(0, dash), size = id.substr(dash + 1);
  if (family != "porep" && family != "wpost" && family != "winning" && family != "snap") return std::nullopt;
  static const std::pair<const char*, std::uint64_t> sizes[] = {
      {"2k", 2048}, {"8m", std::uint64_t{8} << 20}, {"512m", std::uint64_t{512} << 20},
      {"32g", std::uint64_t{32} << 30}, {"64g", std::uint64_t{64} << 30}};
  for (const auto& [name, bytes] : sizes) {
    if (size == name) return CuzkCircuit{family, bytes};
  }
  return std::nullopt;
}

CuzkService::CuzkService(engine::Engine& eng, std::shared_ptr<const engine::KindRegistry> kinds,
                         const DaemonConfig& cfg, const ProvingService& validator)
    : eng_(eng), kinds_(std::move(kinds)), cfg_(cfg), validator_(validator) {}

std::string CuzkService::submit(const cz::SubmitProofRequest& req, std::string* job_id, std::string* failed,
                                bool* live_job_kept) {
  if (stopping_) throw RequestError(StatusCode::UNAVAILABLE, "the daemon is shutting down");
  const std::string kind = cuzk_engine_kind(req.proof_kind());
  if (kind.empty()) {
    throw RequestError(StatusCode::INVALID_ARGUMENT,
                       "proof_kind: " + std::to_string(req.proof_kind()) +
                           " is not a proof kind (1 POREP_SEAL_COMMIT, 2 SNAP_DEALS_UPDATE, 3 WINDOW_POST_PARTITION, "
                           "4 WINNING_POST)");
  }
  check_cuzk_request_id(req.request_id());
  *job_id = req.request_id().empty() ? uuid4() : req.request_id();
  // Curio's contract: a request that cannot be proved is a FAILED proof, not a gRPC error. Its
  // message is kept (AwaitProof answers it) for the last cfg_.max_finished_jobs refused ids, cut to
  // kMaxFailureBytes: a refused request never grows the daemon with what it sent. A refusal under an
  // id whose job is queued or running leaves that job where it is (AwaitProof and CancelProof still
  // reach it): only the refused call hears why (*live_job_kept). Call with mu_ held.
  auto fail = [&](std::string why) {
    if (why.size() > kMaxFailureBytes) {
      const std::size_t all = why.size();
      why.resize(kMaxFailureBytes);
      why += "… (" + std::to_string(all) + " bytes in all)";
    }
    ++refused_;
    *failed = why;
    if (auto it = jobs_.find(*job_id); it != jobs_.end()) {
      const engine::AwaitResult a = eng_.peek(it->second.engine_id);
      if (a.status != engine::AwaitStatus::NotFound && running_state(a.result.state)) {
        if (live_job_kept) *live_job_kept = true;
        return std::string();
      }
    }
    if (failed_.insert_or_assign(*job_id, why).second) failed_order_.push_back(*job_id);
    while (failed_order_.size() > std::max<std::size_t>(cfg_.max_finished_jobs, 1)) {
      failed_.erase(failed_order_.front());
      failed_order_.pop_front();
    }
    jobs_.erase(*job_id);
    return std::string();
  };
  const CuzkRoute* route = route_of_kind(req.proof_kind());
  if (route == nullptr || !kinds_->find(kind)) {
    std::lock_guard lock(mu_);
    return fail("proof kind " + cz::ProofKind_Name(req.proof_kind()) + " (" + kind +
                ") is not built for cuzk.v1 requests in this proofline yet");
  }
  engine::ProofRequest r;
  r.kind = kind;
  r.priority = priority_of(req.priority());
  try {
    route->fill(req, r);
  } catch (const std::invalid_argument& e) {
    std::lock_guard lock(mu_);
    return fail(cz::ProofKind_Name(req.proof_kind()) + ": " + e.what());
  }
  // A request_id whose job is queued or running: the same request (a retry) joins it; another one
  // under that id (other kind or inputs) is a new job, as cuzk queues every submission — never the
  // first one's proof for the second one's inputs. Call with mu_ held.
  const std::uint64_t fp = request_fingerprint(r);
  auto joinable = [&]() -> std::string {
    if (auto it = jobs_.find(*job_id); it != jobs_.end() && it->second.fingerprint == fp) {
      const engine::AwaitResult a = eng_.peek(it->second.engine_id);
      if (a.status != engine::AwaitStatus::NotFound && running_state(a.result.state)) return it->second.engine_id;
    }
    return {};
  };
  {
    std::lock_guard lock(mu_);
    if (std::string e = joinable(); !e.empty()) return e;
  }
  // Validation parses the inputs (a PoRep envelope of 50 MB, vanilla proofs of hundreds of MB): it
  // runs outside mu_, so that no other submission, AwaitProof or GetStatus waits behind it.
  std::optional<std::string> refused;
  try {
    r.prepared = validator_.validate(r);  // the engine takes this job: the envelope parsed once
  } catch (const RequestError& e) {
    if (e.code != StatusCode::INVALID_ARGUMENT) throw;
    refused = e.what();
  }
  std::lock_guard lock(mu_);
  if (refused) return fail(std::move(*refused));
  if (std::string e = joinable(); !e.empty()) return e;  // the same request, submitted meanwhile
  if (auto f = failed_.find(*job_id); f != failed_.end()) failed_.erase(f);  // its order entry goes when it ages out
  validator_.check_queue_room(r);
  // An engine id no job holds: proofline.v1 clients may name their jobs anything, "cuzk-1-…" too.
  do r.request_id = engine_id_for(++next_, *job_id);
  while (eng_.peek(r.request_id).status != engine::AwaitStatus::NotFound);
  const engine::SubmitResult s = eng_.submit(std::move(r));
  if (s.duplicate) {  // taken by another API's client between the look and the submit
    return fail("engine job id '" + s.request_id + "' was taken by another client at this moment; retry");
  }
  jobs_[*job_id] = Entry{s.request_id, kind, fp};
  return s.request_id;
}

Status CuzkService::wait(grpc::ServerContext* ctx, const std::string& job_id, const std::string& engine_id,
                         std::uint64_t timeout_ms, bool prove_waiter, cz::AwaitProofResponse* out) {
  if (timeout_ms > (std::uint64_t{1} << 40)) timeout_ms = 0;
  // Prove waiters are counted per engine job (not per request_id, which may name a newer job by the
  // time this one ends): the job is cancelled when the last of them has gone away.
  if (prove_waiter) {
    std::lock_guard lock(mu_);
    ++prove_waiters_[engine_id];
  }
  auto leave = [&](bool gone) {
    if (!prove_waiter) return;
    std::lock_guard lock(mu_);
    auto it = prove_waiters_.find(engine_id);
    if (it == prove_waiters_.end() || --it->second > 0) return;
    prove_waiters_.erase(it);
    if (gone) eng_.cancel(engine_id);  // nobody waits for it any more
  };
  const auto t0 = Clock::now();
  const auto poll = std::chrono::milliseconds(cfg_.await_poll_ms);
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
    const engine::AwaitResult r = eng_.await(engine_id, slice);
    if (r.status == engine::AwaitStatus::Ready) {
      leave(false);
      fill_result(r.result, job_id, out);
      return Status::OK;
    }
    if (r.status == engine::AwaitStatus::NotFound) {
      leave(false);
      return Status(StatusCode::NOT_FOUND, "job_id '" + job_id + "': its result is no longer kept "
                                           "(engine.max_finished_jobs)");
    }
    if (ctx->IsCancelled()) {
      leave(true);
      return Status(StatusCode::CANCELLED, "the client went away");
    }
    if (timeout_ms > 0 && Clock::now() - t0 >= std::chrono::milliseconds(timeout_ms)) {
      leave(false);
      out->set_job_id(job_id);
      out->set_status(cz::AwaitProofResponse::TIMEOUT);
      out->set_error_message("not finished after " + std::to_string(timeout_ms) + " ms (the job goes on)");
      return Status::OK;
    }
  }
}

Status CuzkService::Prove(grpc::ServerContext* ctx, const cz::ProveRequest* req, cz::ProveResponse* resp) {
  const ProvingService::MessageNote note{validator_, req->ByteSizeLong()};  // its memory goes back to the system after the call
  return cuzk_guarded([&] {
    if (!req->has_submit()) return Status(StatusCode::INVALID_ARGUMENT, "submit: missing");
    std::string job_id, failed;
    const std::string engine_id = submit(req->submit(), &job_id, &failed, nullptr);
    cz::AwaitProofResponse* out = resp->mutable_result();
    if (engine_id.empty()) {
      out->set_job_id(job_id);
      out->set_status(cz::AwaitProofResponse::FAILED);
      out->set_error_message(utf8_escape_invalid(failed));
      return Status::OK;
    }
    return wait(ctx, job_id, engine_id, 0, true, out);
  });
}

Status CuzkService::SubmitProof(grpc::ServerContext*, const cz::SubmitProofRequest* req,
                                cz::SubmitProofResponse* resp) {
  const ProvingService::MessageNote note{validator_, req->ByteSizeLong()};
  return cuzk_guarded([&] {
    const std::size_t before = eng_.status().jobs_queued;
    std::string job_id, failed;
    bool live_job_kept = false;
    (void)submit(*req, &job_id, &failed, &live_job_kept);
    if (live_job_kept) {
      // AwaitProof of this id answers the queued or running job of the other request: the refusal
      // is this call's alone.
      throw RequestError(StatusCode::ALREADY_EXISTS,
                         "request_id '" + job_id + "' names a queued or running job of another request, which goes "
                         "on; this request was refused: " + failed);
    }
    resp->set_job_id(job_id);
    resp->set_queue_position(static_cast<std::uint32_t>(before));
    resp->set_assigned_gpu("");
    return Status::OK;
  });
}

Status CuzkService::AwaitProof(grpc::ServerContext* ctx, const cz::AwaitProofRequest* req,
                               cz::AwaitProofResponse* resp) {
  return cuzk_guarded([&] {
    check_cuzk_request_id(req->job_id(), "job_id");  // bounded before it is looked up or echoed
    std::string engine_id;
    {
      std::lock_guard lock(mu_);
      if (auto f = failed_.find(req->job_id()); f != failed_.end()) {
        resp->set_job_id(req->job_id());
        resp->set_status(cz::AwaitProofResponse::FAILED);
        resp->set_error_message(utf8_escape_invalid(f->second));
        return Status::OK;
      }
      auto it = jobs_.find(req->job_id());
      if (it == jobs_.end()) return Status(StatusCode::NOT_FOUND, "job_id '" + req->job_id() + "' is not known");
      engine_id = it->second.engine_id;
    }
    return wait(ctx, req->job_id(), engine_id, req->timeout_ms(), false, resp);
  });
}

Status CuzkService::CancelProof(grpc::ServerContext*, const cz::CancelProofRequest* req,
                                cz::CancelProofResponse* resp) {
  return cuzk_guarded([&] {
    std::string engine_id;
    {
      std::lock_guard lock(mu_);
      auto it = jobs_.find(req->job_id());
      if (it == jobs_.end()) {
        resp->set_was_running(false);
        return Status::OK;
      }
      engine_id = it->second.engine_id;
    }
    const engine::CancelResult c = eng_.cancel(engine_id);
    resp->set_was_running(c.found && running_state(c.previous));
    return Status::OK;
  });
}

Status CuzkService::GetStatus(grpc::ServerContext*, const cz::GetStatusRequest*, cz::GetStatusResponse* resp) {
  return cuzk_guarded([&] {
    const engine::EngineStatus s = eng_.status();
    for (const auto& b : s.backends) {
      cz::GPUStatus* g = resp->add_gpus();
      g->set_ordinal(static_cast<std::uint32_t>(b.index));
      g->set_name(b.name);
      g->set_current_proof_kind(b.busy_workers > 0 ? "busy" : "");
    }
    std::map<std::string, std::string> circuit_of;
    {
      std::lock_guard lock(mu_);
      circuit_of = circuit_of_key_;
    }
    for (const auto& e : s.srs) {
      cz::SRSStatus* o = resp->add_loaded_srs();
      auto c = circuit_of.find(e.key);
      o->set_circuit_id(c != circuit_of.end() ? c->second : std::filesystem::path(e.key).filename().string());
      o->set_tier(e.state == "loaded" ? cz::SRSStatus::HOT : cz::SRSStatus::WARM);
      o->set_size_bytes(e.bytes);
      o->set_ref_count(e.users);
    }
    for (const auto& [kind, k] : s.jobs_by_kind) {
      if (k.queued + k.running == 0) continue;
      cz::QueueStatus* q = resp->add_queues();
      q->set_proof_kind(kind);
      q->set_pending(static_cast<std::uint32_t>(k.queued));
      q->set_in_progress(static_cast<std::uint32_t>(k.running));
    }
    // Since the start: the engine's counters (not only the jobs it still retains), and the
    // requests refused before the engine (FAILED answers of this service) among the failed.
    resp->set_total_proofs_completed(s.total_done);
    resp->set_total_proofs_failed(s.total_failed + s.total_cancelled + refused_.load());
    resp->set_uptime_seconds(static_cast<std::uint64_t>(s.uptime_seconds));
    return Status::OK;
  });
}

Status CuzkService::GetMetrics(grpc::ServerContext*, const cz::GetMetricsRequest*, cz::GetMetricsResponse* resp) {
  return cuzk_guarded([&] {
    resp->set_prometheus_text(eng_.metrics_text());
    return Status::OK;
  });
}

std::string CuzkService::params_for_circuit(const std::string& id, std::string* kind) const {
  const std::optional<CuzkCircuit> c = cuzk_circuit(id);
  if (!c) {
    throw RequestError(StatusCode::INVALID_ARGUMENT,
                       "circuit_id: '" + printable_excerpt(id) + "' is not a circuit id (porep-, wpost-, winning- or snap- followed by "
                                              "2k, 8m, 512m, 32g or 64g)");
  }
  const CuzkRoute* route = route_of_family(c->family);
  if (route == nullptr || !kinds_->find(route->kind)) {
    throw RequestError(StatusCode::FAILED_PRECONDITION,
                       "circuit_id: '" + id + "': its proof kind is not built in this proofline yet");
  }
  *kind = route->kind;
  const std::filesystem::path p = filecoin::parameter_cache_dir() / route->params_file(c->sector_bytes);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) {
    throw RequestError(StatusCode::NOT_FOUND, "circuit_id: '" + id + "': parameter file '" + p.string() +
                                                  "' not found ($FIL_PROOFS_PARAMETER_CACHE)");
  }
  return std::filesystem::weakly_canonical(p, ec).string();
}

Status CuzkService::PreloadSRS(grpc::ServerContext*, const cz::PreloadSrsRequest* req, cz::PreloadSrsResponse* resp) {
  return cuzk_guarded([&] {
    std::string kind;
    const std::string path = params_for_circuit(req->circuit_id(), &kind);
    bool already = false;
    for (const auto& e : eng_.status().srs) already = already || (e.key.rfind(path, 0) == 0 && e.state == "loaded");
    const auto t0 = Clock::now();
    engine::SrsStatus st;
    try {
      st = eng_.preload_srs(kind, {{"params", path}});
    } catch (const std::exception& e) {
      return Status(StatusCode::FAILED_PRECONDITION, utf8_escape_invalid("circuit_id: '" + req->circuit_id() + "': " + e.what()));
    }
    {
      std::lock_guard lock(mu_);
      circuit_of_key_[st.key] = req->circuit_id();
    }
    resp->set_already_loaded(already);
    resp->set_load_time_ms(already ? 0
                                   : static_cast<std::uint64_t>(
                                         std::chrono::duration<double, std::milli>(Clock::now() - t0).count()));
    return Status::OK;
  });
}

Status CuzkService::EvictSRS(grpc::ServerContext*, const cz::EvictSrsRequest* req, cz::EvictSrsResponse* resp) {
  return cuzk_guarded([&] {
    std::string kind;
    const std::string path = params_for_circuit(req->circuit_id(), &kind);
    for (const auto& e : eng_.status().srs) {
      if (e.key.rfind(path, 0) != 0) continue;
      if (eng_.evict_srs(e.key)) {
        resp->set_was_loaded(true);
        resp->set_freed_bytes(resp->freed_bytes() + e.bytes);
      }
    }
    return Status::OK;
  });
}

}  // namespace proofline::server
