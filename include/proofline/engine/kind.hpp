// proofline/engine/kind.hpp — proof kinds: what a request means, behind one small interface, and
// the registry the engine looks kinds up in by name.
//
// Owns: `Srs` (a loaded parameter set as the engine holds it), `KindJob` (one validated request),
// `ProofKind` (the factory of KindJobs for one kind), `KindRegistry`, the built-in kinds
// (`make_bench_kind`, `make_mul_kind`, `make_snarkjs_kind`, `make_porep_c2_kind`) and `partition_buffer_bytes`.
//
// A kind's job, in the engine's order of calls:
//   1. ProofKind::prepare(request)      validate args/payload (cheap; may read small input files);
//                                       throws ProoflineError / std::invalid_argument /
//                                       std::system_error with a message for the client.
//   2. KindJob::num_partitions(), srs_key()     N >= 1; the canonical key of the parameter set.
//   3. KindJob::load_srs()              only when the key is not resident: read the parameter file
//                                       into an Srs (called once per key, on one thread).
//   4. KindJob::check(srs)              shape checks against the loaded parameters (throws).
//   5. KindJob::partition_bytes(srs)    the memory-budget estimate of one partition's buffers.
//   6. KindJob::synthesize(k, srs, buf) partition k into `buf` (r1cs::ProvingBuffers, finalized:
//                                       the shape of groth16/backend.hpp). `buf` comes from the
//                                       buffer pool: its contents are stale; reuse its capacity.
//                                       Called concurrently for different k (must be thread-safe).
//                                       The engine runs it inside an r1cs::CancelScope of the job's
//                                       cancel flag: a ProvingAssignment made here throws
//                                       SynthesisError(Cancelled) once the job is cancelled. Leave
//                                       the buffers in `buf` also when throwing (synthesize_into),
//                                       so that their capacity goes back to the pool instead of
//                                       being freed on the worker.
//   7. KindJob::public_inputs(k, buf)   partition k's public inputs (ONE excluded).
//   8. KindJob::verify(srs, proofs, inputs)   the self-check (default: groth16::verify_proofs_batch
//                                       with srs.pvk over all partitions).
//
// Built-in kinds (args are strings; sizes "2^k" or a power of two):
//   "bench"    SizedCircuit (circuits/bench): params=<.params>, size, partitions (default 1),
//              input (u64, default 1; partition k uses input + k) — as `proofline prove --circuit bench`;
//              checked=0|1 (default 0): subgroup-check every point of the file on load (else on-curve
//              only; the SRS key then ends in "#subgroup-checked").
//   "mul"      MulCircuit: params, partitions, input (a = input + k + 3, b = input + k + 11), checked.
//   "snarkjs"  circom/snarkjs Groth16: zkey=<.zkey>, and wtns=<.wtns> or the .wtns bytes as the
//              request payload; checked=0|1 (default 0): subgroup-check every zkey point on load (else
//              on-curve only; the SRS key then ends in "#subgroup-checked"). One partition. The zkey
//              becomes Parameters once, on load, without curve arithmetic (groth16/snarkjs/circuit.hpp:
//              its H section kept as snarkjs' odd-coset Lagrange points, HForm::OddCoset, which every
//              backend honours; rows permuted to the blst ω-domain); the proof is the one snarkjs
//              makes for the same r, s, valid under the zkey's verifying key. A witness of the wrong
//              length is refused by name (FormatError Mismatch) before synthesis; one that does not
//              satisfy the circuit fails the self-check (Failure::SelfCheck).
//   "porep-c2" Filecoin PoRep commit phase 2 (src/engine/porep_kind.cpp): one job per sector, one
//              partition per circuit partition of the C1's registered proof (1 for 2 KiB … 512 MiB,
//              10 for 32/64 GiB; proofs concatenated in partition order as `proofline c2` writes them).
//              c1=<C1 JSON path>, or the C1 JSON bytes as the payload (SealCommitPhase1Output as
//              filecoin-proofs / `proofline gen-c1` write it). Parameters: params=<.params path>, else
//              param_cache=<dir>/<upstream file name>, else $FIL_PROOFS_PARAMETER_CACHE (default
//              /var/tmp/filecoin-proof-parameters)/<upstream name> (filecoin::parameter_file_name).
//              prover_id=<64 hex digits> (+ sector_id=<u64>, default 0): the C1's replica_id must be
//              theirs. check_constraints=0|1 (default 1): check every constraint after synthesis
//              and name the failing challenge (and what the vanilla proofs' check finds).
//              partition=<k> (0-based, < the C1's partitions): prove only circuit partition k (one
//              engine partition; `proofline c2 --partition k`). The parameter file's section counts
//              are checked against the sector's circuit before its points are read. Public inputs: derived as a verifier does (challenges
//              from the seed, parents from the graph); a C1 whose paths disagree fails.
//              Errors: a malformed C1 names its JSON path (and the file); a missing parameter file
//              is named; both fail only that job.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proofline/engine/engine.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"
#include "proofline/groth16/verifier.hpp"
#include "proofline/r1cs/proving_assignment.hpp"

namespace proofline::engine {

/// A loaded parameter set. Immutable once loaded; shared by every job that uses it.
struct Srs {
  std::string key;
  groth16::Parameters params;
  groth16::PreparedVerifyingKey pvk;
  /// Kind-specific data loaded with the parameters (e.g. the zkey's coefficient matrices).
  std::shared_ptr<const void> extra;
  /// Host bytes held (points + extra), for the SRS budget.
  std::uint64_t bytes = 0;
};

/// Host bytes of a Parameters object (points as held in memory).
std::uint64_t parameters_bytes(const groth16::Parameters& p);
/// Memory-budget estimate of one partition for these parameters: a, b, c padded to the domain
/// size m (3·m·32 B, the backend may grow them to m), input + aux assignments (32 B each), the
/// three density bitmaps.
std::uint64_t partition_buffer_bytes(const groth16::Parameters& p);

/// Runs body(cs) on a ProvingAssignment made from `buf`'s capacity and moves the buffers back into
/// `buf` afterwards, also when body throws (e.g. SynthesisError Cancelled), so that the engine hands
/// their capacity to the pool (or the reclaimer) rather than freeing GBs where the exception unwinds.
template <class F>
void synthesize_into(r1cs::ProvingBuffers& buf, F&& body) {
  r1cs::ProvingAssignment cs(std::move(buf));
  try {
    body(cs);
  } catch (...) {
    buf = cs.release();
    throw;
  }
  buf = cs.release();
}

class KindJob {
 public:
  virtual ~KindJob() = default;
  virtual std::size_t num_partitions() const = 0;
  /// Canonical key of the parameter set (e.g. the absolute path of the .params file).
  virtual std::string srs_key() const = 0;
  /// Reads the parameter set. `progress` (may be called with 0..1) reports load progress.
  virtual std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const = 0;
  /// Throws (ProoflineError BadLength, "got N, expected M") unless the request fits `srs`.
  virtual void check(const Srs& srs) const = 0;
  virtual std::uint64_t partition_bytes(const Srs& srs) const { return partition_buffer_bytes(srs.params); }
  virtual void synthesize(std::size_t k, const Srs& srs, r1cs::ProvingBuffers& buf) const = 0;
  virtual std::vector<ff::Fr> public_inputs(std::size_t k, const r1cs::ProvingBuffers& buf) const;
  /// True iff every proof verifies. Default: groth16::verify_proofs_batch(srs.pvk, …).
  virtual bool verify(const Srs& srs, const std::vector<groth16::Proof>& proofs,
                      const std::vector<std::vector<ff::Fr>>& inputs) const;
};

class ProofKind {
 public:
  virtual ~ProofKind() = default;
  virtual std::string_view name() const = 0;
  /// One line: what the kind proves and its args (for errors and `status`).
  virtual std::string_view description() const = 0;
  /// The names of every argument the kind reads (ProofRequest::args keys). The engine refuses a
  /// request with any other key before prepare() (std::invalid_argument naming the key and this list),
  /// so a misspelt argument is never silently ignored.
  virtual std::vector<std::string_view> arguments() const = 0;
  virtual std::shared_ptr<const KindJob> prepare(const ProofRequest& request) const = 0;
  /// For PreloadSRS / engine.preload: a job whose srs_key() and load_srs() are those a request with
  /// these parameter arguments would use, without the rest of a request (witness, size, C1).
  /// Default: prepare(request).
  virtual std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& request) const { return prepare(request); }
};

/// Kinds by name. Registration happens before the registry is handed to an Engine.
class KindRegistry {
 public:
  /// Throws std::invalid_argument for an empty or duplicate name.
  void add(std::shared_ptr<const ProofKind> kind);
  /// Null if unknown.
  const ProofKind* find(std::string_view name) const;
  std::vector<std::string> names() const;

  /// A registry holding the built-in kinds (bench, mul, snarkjs, porep-c2).
  static std::shared_ptr<KindRegistry> builtin();

 private:
  std::map<std::string, std::shared_ptr<const ProofKind>, std::less<>> kinds_;
};

std::shared_ptr<const ProofKind> make_bench_kind();
std::shared_ptr<const ProofKind> make_mul_kind();
std::shared_ptr<const ProofKind> make_snarkjs_kind();
std::shared_ptr<const ProofKind> make_porep_c2_kind();

/// Helpers for kinds (also used by the built-ins): a required / optional string argument, and a
/// size "2^k" / power of two as log2. Throw std::invalid_argument naming the argument.
const std::string& require_arg(const ProofRequest& r, const std::string& name);
/// Throws std::invalid_argument("kind 'K' has no argument 'X' (its arguments: …)") for the first key
/// of r.args that `kind` does not declare (ProofKind::arguments). The engine checks every request
/// with it before prepare(); the daemon also before it queues one (INVALID_ARGUMENT).
void check_arguments(const ProofKind& kind, const ProofRequest& r);
std::string arg_or(const ProofRequest& r, const std::string& name, const std::string& fallback);
unsigned parse_log_size_arg(const std::string& name, const std::string& value);
std::uint64_t parse_u64_arg(const std::string& name, const std::string& value);
/// "#<bytes>-<mtime in ns>" of a file, appended by the built-in kinds to srs_key() after the path, so
/// that a parameter file replaced on disk (a zkey after another snarkjs contribution, regenerated
/// .params) is loaded as a new SRS instead of the cached old one (whose proofs would not verify
/// under the new key). "" if the file cannot be stat'ed (the load then reports it).
std::string file_version(const std::string& path);

}  // namespace proofline::engine
