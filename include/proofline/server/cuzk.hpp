// proofline/server/cuzk.hpp — cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto), the wire API
// that Curio calls ([Cuzk] Address), served by the daemon beside proofline.v1 on the same engine
// and listeners (config api.cuzk; issue 20). A provider switches from cuzk to proofline by pointing
// Curio at the daemon's address; nothing else changes on Curio's side.
//
// Owns: `CuzkService` (the RPC handlers), `cuzk_engine_kind` (ProofKind → engine kind name),
// `cuzk_circuit` (PreloadSRS/EvictSRS circuit ids → sector size).
// Facts: shared/reference/cuzk-api.md (§1 messages and the reference daemon's behaviour, §2 how
// Curio calls it, §3 byte formats).
//
// ---- Requests ------------------------------------------------------------------------------------
// proof_kind → engine kind: POREP_SEAL_COMMIT → "porep-c2", SNAP_DEALS_UPDATE → "snap-update",
// WINDOW_POST_PARTITION → "window-post", WINNING_POST → "winning-post". 0 or an unknown value:
// INVALID_ARGUMENT (a gRPC error). Each routed kind has a route (cuzk_service.cpp kRoutes) that
// fills the engine kind's arguments and payload from the cuzk fields; all four are routed. A kind
// whose engine kind this daemon does not have answers status FAILED, error_message "… is not built
// for cuzk.v1 requests in this proofline yet" (gRPC OK, so Curio's task fails and is retried
// elsewhere).
// priority: 1 LOW, 2 NORMAL, 3 HIGH, 4 CRITICAL; 0 = the kind's default (engine::ProofKind::
// default_priority: WinningPoSt CRITICAL, WindowPoSt HIGH, PoRep and Snap NORMAL); any other value
// NORMAL (as cuzk).
// PoRep: `vanilla_proof` is the Commit2In envelope (or the bare C1 JSON), parsed by
// filecoin::parse_c1_json; the proof type comes from the inner registered_proof. Beyond cuzk (which
// ignores them), the request's registered_proof (abi.RegisteredSealProof 0–19) and sector_size, when
// not 0, must be the C1's: a contradiction is FAILED "kind 'porep-c2': argument 'registered_proof' =
// 3, but C1 JSON (request payload) is a StackedDrg2KiBV1_1 proof (5)" (or "'sector_size' = …"), as
// PoSt and Snap refuse theirs (0 is proto3's unset and is not checked). When miner_id ≠ 0, the C1's replica_id
// must be the one of prover_id = LEB128(miner_id) (filecoin::prover_id_from_miner) and sector id =
// sector_number: a C1 sent with another sector's ids fails before any proving.
// WindowPoSt / WinningPoSt (kinds "window-post" / "winning-post", arguments registered_proof,
// randomness, miner_id, partition): registered_proof 0–4 (Winning V1) / 5–9 (Window V1, API 1.0.0)
// / 10–14 (Window V1_1, proved as API 1.2.0 like filecoin-ffi and cuzk), of the kind's type;
// sector_size 0 or the registered proof's; randomness exactly 32 bytes, the top 2 bits of byte 31
// cleared here (Curio sends it cleared; the chain's verifier clears them too); miner_id → prover_id
// = LEB128(miner_id); partition_index = the partition the sectors are (WindowPoSt; Curio sends 0;
// WinningPoSt: 0); vanilla_proofs = one bincode FallbackPoStSectorProof per sector (filecoin/
// post_bincode.hpp) — the partition's sectors are the ids and comm_r inside them, in the order sent
// (filecoin::post_request_from_vanilla; WindowPoSt 1 … sector_count of them, padded by repeating the
// last as filecoin-proofs does; WinningPoSt exactly 1). They travel to the kind as its payload (a
// JSON array of their base64). The proof is one 192-byte Groth16 proof, verified against the
// public inputs a verifier derives from randomness, sector ids and comm_r before it is returned.
// vanilla_proof, sector_number and comm_r_* are not read for PoSt (as cuzk).
// SnapDeals (kind "snap-update", arguments registered_proof, comm_r_old, comm_d_new, comm_r_new):
// registered_proof 0–4 (abi.RegisteredUpdateProof StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1), which
// gives the sector size (PSProve sends sector_size 0; when not 0 it must be the registered proof's)
// and h (the size's hs[3], what nodes use); comm_r_old, comm_d_new, comm_r_new exactly 32 raw bytes
// each (the digests, not CID bytes; little-endian < r); vanilla_proofs = one bincode PartitionProof
// per partition (filecoin/snap_bincode.hpp; exactly the size's partition count: 1 at 2 KiB, 4 at
// 8 MiB, 16 at 512 MiB and above), sent to the kind as its payload (a JSON array of their base64).
// The proof is partition_count × 192 bytes in partition order, each partition verified against the
// public inputs a verifier derives from the commitments and h. sector_number, miner_id, randomness,
// partition_index and vanilla_proof are not read (as cuzk).
// Refusals name the field: "SNAP_DEALS_UPDATE: registered_proof: …", "…: comm_r_new: 31 bytes,
// expected exactly 32 …", "…: vanilla_proofs: none …", the kind's "2 vanilla partition proofs, a
// 2KiB sector has 1 partitions", a vanilla proof of another size "vanilla_proofs[0]: …".
// Any problem with a request's contents (a malformed envelope, a C1 that does not verify, missing
// parameters) is a proving failure: gRPC OK with status FAILED and error_message, never a gRPC error.
//
// ---- request_id and job_id -------------------------------------------------------------------------
// job_id = request_id (what Curio sends, spaces and brackets included: printable ASCII, at most 128
// bytes — a longer one or one with control characters or non-ASCII bytes is INVALID_ARGUMENT naming
// the length or the byte; an empty one is replaced by a UUIDv4). Each request_id maps to its current engine job (engine id "cuzk-<n>-<sanitized id>").
// A request_id whose job is queued or running: the same request again (kind, priority and inputs:
// request_fingerprint) joins it (same result, nothing queued); another request under that id is a
// new job (as cuzk queues every submission), and the id then names the newer one for AwaitProof —
// a call never gets a proof made for another request's inputs. An engine id is never shared with
// a proofline.v1 job (a free "cuzk-<n>-…" is taken).
// A request refused before the engine (FAILED) keeps its message, cut to kMaxFailureBytes, for the
// last server.max_finished_jobs such ids — unless its request_id names a job that is queued or
// running: that job stays the id's (AwaitProof answers it, CancelProof cancels it) and only the
// refused call hears why: Prove as FAILED with the reason, SubmitProof as gRPC ALREADY_EXISTS
// "request_id '<id>' names a queued or running job of another request, which goes on; this request
// was refused: <reason>".
// A request's inputs are validated (parsed, checked by the kind) outside every lock of this service:
// a 250 MB message being validated holds up no other call.
// A request_id whose job has finished (done, failed or cancelled): a retry — a new job proves again.
// Prove cancels its job only when every Prove waiting on that engine job has gone away (disconnect or
// deadline), counted per engine job: two Prove calls under one request_id with different contents
// are two jobs, and each is cancelled when its own callers go. AwaitProof never cancels.
//
// ---- Calls -----------------------------------------------------------------------------------------
// Prove: submit, then wait (no time limit of ours; the client's deadline applies). SubmitProof:
// queue_position = jobs queued in the engine before this one; assigned_gpu "". AwaitProof: waits up
// to timeout_ms (0 = no limit); on expiry status TIMEOUT (the job goes on); unknown job_id NOT_FOUND.
// CancelProof: was_running = the job was queued or running (it is cancelled). GetStatus: queues = one
// entry per engine kind with queued or running jobs (pending = queued jobs, in_progress = running
// jobs, from every API, not only cuzk's), gpus = the engine's backends (ordinal = backend index,
// name = backend name, current_proof_kind "busy"/"" — device memory figures are 0: not measured
// here), loaded_srs = the engine's parameter sets (circuit_id = the id they were preloaded by, else
// the file name; HOT once loaded, WARM while loading; size_bytes; ref_count = jobs using it),
// totals from the engine, pinned_memory_* 0. GetMetrics: the engine's Prometheus text.
// PreloadSRS / EvictSRS: circuit ids porep-*, wpost-*, winning-* and snap-* with a size 2k, 8m,
// 512m, 32g, 64g: the upstream-named .params in $FIL_PROOFS_PARAMETER_CACHE (PoRep: the default seal
// proof of the size, filecoin::parameter_file_name; PoSt: filecoin::fallback_parameter_file_name of
// the size's Window / Winning circuit, e.g. wpost-32g → v28-proof-of-spacetime-fallback-merkletree-
// poseidon_hasher-8-8-0-<sha256>.params; Snap: filecoin::snap_parameter_file_name, e.g. snap-32g →
// v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-<sha256>.params), loaded under the key a
// request's job uses; a family whose kind this daemon lacks FAILED_PRECONDITION; anything else
// INVALID_ARGUMENT. A missing parameter file: NOT_FOUND naming it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <grpcpp/grpcpp.h>

#include "cuzk/v1/proving.grpc.pb.h"
#include "proofline/engine/engine.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/server/config.hpp"

namespace proofline::server {

class ProvingService;

/// The engine kind for a cuzk ProofKind value, or "" for 0 / an unknown value.
std::string cuzk_engine_kind(int proof_kind);
/// The sector size (bytes) a PreloadSRS circuit id stands for and its family ("porep", "wpost",
/// "winning", "snap"); nullopt for an id of no family or size.
struct CuzkCircuit {
  std::string family;
  std::uint64_t sector_bytes = 0;
};
std::optional<CuzkCircuit> cuzk_circuit(const std::string& circuit_id);

class CuzkService final : public ::cuzk::v1::ProvingEngine::Service {
 public:
  /// `validator`: the proofline.v1 service, whose request checks (kind arguments, files, the kind's
  /// prepare) cuzk requests go through too.
  CuzkService(engine::Engine& eng, std::shared_ptr<const engine::KindRegistry> kinds, const DaemonConfig& cfg,
              const ProvingService& validator);

  grpc::Status SubmitProof(grpc::ServerContext*, const ::cuzk::v1::SubmitProofRequest*,
                           ::cuzk::v1::SubmitProofResponse*) override;
  grpc::Status AwaitProof(grpc::ServerContext*, const ::cuzk::v1::AwaitProofRequest*,
                          ::cuzk::v1::AwaitProofResponse*) override;
  grpc::Status Prove(grpc::ServerContext*, const ::cuzk::v1::ProveRequest*, ::cuzk::v1::ProveResponse*) override;
  grpc::Status CancelProof(grpc::ServerContext*, const ::cuzk::v1::CancelProofRequest*,
                           ::cuzk::v1::CancelProofResponse*) override;
  grpc::Status GetStatus(grpc::ServerContext*, const ::cuzk::v1::GetStatusRequest*,
                         ::cuzk::v1::GetStatusResponse*) override;
  grpc::Status GetMetrics(grpc::ServerContext*, const ::cuzk::v1::GetMetricsRequest*,
                          ::cuzk::v1::GetMetricsResponse*) override;
  grpc::Status PreloadSRS(grpc::ServerContext*, const ::cuzk::v1::PreloadSrsRequest*,
                          ::cuzk::v1::PreloadSrsResponse*) override;
  grpc::Status EvictSRS(grpc::ServerContext*, const ::cuzk::v1::EvictSrsRequest*,
                        ::cuzk::v1::EvictSrsResponse*) override;

  /// Ends waiting calls (UNAVAILABLE) and refuses new ones; called by Daemon::shutdown.
  void stop() { stopping_ = true; }

 private:
  struct Entry {
    std::string engine_id;
    std::string kind;
    std::uint64_t fingerprint = 0; ///< of the request (kind, priority, inputs): a retry joins only its own job
  };
  /// A refused request's message is kept at most this long (AwaitProof answers it).
  static constexpr std::size_t kMaxFailureBytes = 4096;
  /// Submits (or joins) the job of `req`; fills `job_id`. A request the kind refuses becomes a job
  /// that is already FAILED: `failed` gets its message and no engine job exists.
  /// A refused request under an id whose job is queued or running leaves that job under the id and
  /// sets `*live_job_kept` (when given).
  std::string submit(const ::cuzk::v1::SubmitProofRequest& req, std::string* job_id, std::string* failed,
                     bool* live_job_kept);
  /// Waits for the engine job; `prove_waiter` (Prove): cancels it when the last waiter goes away.
  grpc::Status wait(grpc::ServerContext* ctx, const std::string& job_id, const std::string& engine_id,
                    std::uint64_t timeout_ms, bool prove_waiter, ::cuzk::v1::AwaitProofResponse* out);
  /// The .params path of a circuit id and its engine kind (NOT_FOUND / FAILED_PRECONDITION /
  /// INVALID_ARGUMENT).
  std::string params_for_circuit(const std::string& circuit_id, std::string* kind) const;

  engine::Engine& eng_;
  std::shared_ptr<const engine::KindRegistry> kinds_;
  DaemonConfig cfg_;
  const ProvingService& validator_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> next_{0};
  std::atomic<std::uint64_t> refused_{0};  ///< requests answered FAILED before the engine (GetStatus.total_proofs_failed)
  std::mutex mu_;
  std::map<std::string, Entry> jobs_;                 ///< request_id → its current engine job
  std::map<std::string, unsigned> prove_waiters_;     ///< engine id → Prove calls waiting on it now
  std::map<std::string, std::string> failed_;          ///< request_id → why (refused before the engine)
  std::deque<std::string> failed_order_;               ///< failed_'s ids, oldest first (at most max_finished_jobs kept)
  std::map<std::string, std::string> circuit_of_key_;  ///< SRS key → the circuit id it was preloaded by
};

}  // namespace proofline::server
