// proofline/engine/kind.hpp — proof kinds: what a request means, behind one small interface, and
// the registry the engine looks kinds up in by name.
//
// Owns: `Srs` (a loaded parameter set as the engine holds it), `KindJob` (one validated request),
// `ArgSpec` (one declared argument) and `check_arguments`, `ProofKind` (the factory of KindJobs for
// one kind), `KindRegistry` with self-registration (`KindRegistrar`, PROOFLINE_REGISTER_KIND), the
// helpers kinds share, and `partition_buffer_bytes`.
//
// A kind's job, in the engine's order of calls:
//   0. check_arguments(kind, request)   the request against the kind's declared arguments (below).
//   1. ProofKind::prepare(request)      validate args/payload (cheap; may read small input files);
//                                       throws ProoflineError / std::invalid_argument /
//                                       std::system_error with a message for the client.
//   2. KindJob::num_partitions(), srs_key()     N >= 1; the canonical key of the parameter set.
//   3. KindJob::load_srs()              only when the key is not resident: read the parameter file
//                                       into an Srs (called once per key, on one thread).
//   4. KindJob::check(srs)              shape checks against the loaded parameters (throws).
//   5. KindJob::partition_bytes(srs)    the memory-budget estimate of one partition's buffers
//                                       (compiled_form(srs) known and evaluated on the devices:
//                                       witness_buffer_bytes instead, engine.hpp "The compiled form").
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
// Declaring and registering a kind (one file, src/engine/<name>_kind.cpp, plus its circuit/data
// files and tests; nothing in server/, cli/ or proto/):
//   - arguments() returns one `ArgSpec` per ProofRequest::args key the kind reads: name, type (its
//     value's form), required, help, default, and for a file whether it may arrive as the request
//     payload instead (`payload`) and whether it names the parameter set (`srs`). check_arguments
//     enforces them before prepare() (engine and daemon); the daemon's request decoding and file
//     checks, ListKinds/GetStatus, `proofline submit --<arg>` flags and --help, `proofline status`,
//     `proofline kinds` and docs/kinds.md (`proofline kinds --local --markdown`) all come from them.
//   - PROOFLINE_REGISTER_KIND(<file stem>, std::make_shared<MyKind>()…) at namespace scope (outside
//     any unnamed namespace) adds the kind to every KindRegistry::builtin() of a program that links
//     the file. CMake lists src/engine/*_kind.cpp into a generated reference to each file's anchor
//     (the macro's first argument must be the file's stem), so a static link keeps every kind file;
//     a file linked directly (a test's kind) needs no listing.
// The built-in kinds' arguments: docs/kinds.md. Their files: bench_kind.cpp ("bench", "mul"),
// kinds.cpp ("snarkjs"), porep_kind.cpp ("porep-c2"), post_kind.cpp ("window-post", "winning-post"),
// snap_kind.cpp ("snap-update").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "proofline/engine/engine.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"
#include "proofline/groth16/verifier.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/r1cs/shape_counter.hpp"

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

/// Host bytes of a Parameters object (points as held in memory): sizeof(G1Affine) per vk.ic, h, l,
/// a, b_g1 point and sizeof(G2Affine) per b_g2 point held in its vectors. A header shell (queries left in
/// the file, has_host_queries() false) counts its vk.ic alone: its queries live in device memory (or,
/// for a GPU backend streaming an SRS too large for the device, in that backend's pinned host
/// memory, which the backend's own device_memory_limit plans and this count does not include).
std::uint64_t parameters_bytes(const groth16::Parameters& p);
/// Memory-budget estimate of one partition for these parameters: a, b, c padded to the domain
/// size m (3·m·32 B, the backend may grow them to m), input + aux assignments (32 B each), the
/// three density bitmaps.
std::uint64_t partition_buffer_bytes(const groth16::Parameters& p);
/// Memory-budget estimate of one witness-only partition (the compiled form, its constraints
/// evaluated on the devices: a, b, c never on the host): the input assignment (32 B each), the
/// packed aux assignment at its largest (every value neither 0 nor 1: 32 B each, plus its 2.5 bits
/// of bitmaps and prefix counts, r1cs/packed_witness.hpp) and the three density bitmaps. At 32 GiB
/// PoRep 4.2 GB against partition_buffer_bytes' 17.1 GB (its witness, 1.3 % other values, packs
/// into ≈ 0.1 GB).
std::uint64_t witness_buffer_bytes(const groth16::Parameters& p);

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

/// A parameter set the engine holds because it was preloaded (Engine::preload_srs: the daemon's
/// engine.preload, cuzk.v1 PreloadSRS, `c2`), offered to a request that names no parameter file
/// (ProofKind::prepare_preloaded).
struct PreloadedSrs {
  std::string params;              ///< the file as the preload named it (the kind's `srs` argument)
  std::shared_ptr<const Srs> srs;  ///< the loaded set (resident in the SRS cache when offered)
};

/// The first of `preloaded` whose parameters have `inputs` public inputs (ONE included) and `aux` aux
/// variables — the counts of the request's circuit — or null when none has.
const PreloadedSrs* find_preloaded(std::span<const PreloadedSrs> preloaded, std::size_t inputs, std::size_t aux);

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
  /// The compiled circuit this job's partitions are synthesized against (the compiled form), when it
  /// is held before any of them is (made at load, or by an earlier job: held_compiled_circuit of the
  /// SRS key), so that the engine can reserve and warm witness-only buffers for them. Null (the
  /// default): prover mode, or not made yet (the engine reserves partition_bytes).
  virtual std::shared_ptr<const r1cs::CompiledCircuit> compiled_form(const Srs& srs) const {
    (void)srs;
    return nullptr;
  }
  virtual void synthesize(std::size_t k, const Srs& srs, r1cs::ProvingBuffers& buf) const = 0;
  virtual std::vector<ff::Fr> public_inputs(std::size_t k, const r1cs::ProvingBuffers& buf) const;
  /// True iff every proof verifies. Default: groth16::verify_proofs_batch(srs.pvk, …).
  virtual bool verify(const Srs& srs, const std::vector<groth16::Proof>& proofs,
                      const std::vector<std::vector<ff::Fr>>& inputs) const;
  /// Called by the engine after this job's proofs failed verify (never on the prove path): a kind
  /// whose synthesis left a check for later (porep-c2's compiled form: the constraint check over a
  /// 130 M-row partition costs more than its witness) runs it now and throws the input's fault as
  /// it would have at synthesis — a ProoflineError naming the partition, the constraint and the
  /// challenge; the job then fails as bad input with that message instead of "self-check failed".
  /// Returns when it finds nothing to say (the default). May take a synthesis per partition.
  virtual void explain_failed_check(const Srs& srs) const;
};

// ---- arguments -------------------------------------------------------------------------------------

/// The form of an argument's value (every ProofRequest::args value is a string).
enum class ArgType : std::uint8_t {
  String,  ///< any text
  File,    ///< the path of a regular file on the prover's machine (the daemon's), opened there
  Dir,     ///< the path of a folder on the prover's machine
  Int,     ///< a decimal integer in [min, max]: digits only (no sign, blank, "0x", exponent)
  Size,    ///< a power of two 2^k, k in [min, max]: "2^k" or its decimal value
  Bool,    ///< "0" or "1"
  Hex,     ///< hex digits (either case); bytes > 0: exactly 2·bytes of them
};
/// "string", "file", "dir", "int", "size", "bool", "hex" (the names ListKinds carries).
std::string_view to_string(ArgType t);
/// Inverse of to_string; nullopt for anything else.
std::optional<ArgType> arg_type_from_string(std::string_view s);

/// One argument a kind reads: a ProofRequest::args key and what its value must be. Declared with
/// the chainable setters, e.g.
///   ArgSpec("size", ArgType::Size, "constraint rows").require().range(4, 27)
struct ArgSpec {
  /// [a-z][a-z0-9_]*; `proofline submit` takes it as --<name> with '-' for '_'.
  std::string name;
  ArgType type = ArgType::String;
  /// The request must give it (a `payload` argument: it, or the payload bytes).
  bool required = false;
  /// One line for --help, `proofline kinds` and docs/kinds.md.
  std::string help;
  /// What the kind uses when it is absent, as text for people ("" when none or when required).
  std::string default_value;
  /// Int: the value's range; Size: the range of k. Defaults: no limit (Size: k ≤ 63). File: `max` is
  /// the largest file (bytes) the kind reads: a client refuses a bigger payload file before reading
  /// it, and the kind a bigger payload (file_or_payload_text).
  std::uint64_t min = 0;
  std::uint64_t max = ~std::uint64_t{0};
  /// Hex: the exact byte count (0: any even number of digits).
  std::size_t bytes = 0;
  /// File: the file's bytes may come as the request payload instead of its path; a client such as
  /// `proofline submit --<name> F` reads F where it runs and sends the bytes. At most one per kind.
  bool payload = false;
  /// File: names the parameter set (engine.preload's "kind:path" and PreloadSRS fill this one).
  bool srs = false;
  /// Arguments that must be given together with this one.
  std::vector<std::string> needs;

  ArgSpec() = default;
  ArgSpec(std::string name_, ArgType type_, std::string help_)
      : name(std::move(name_)), type(type_), help(std::move(help_)) {}
  ArgSpec& require() { required = true; return *this; }
  ArgSpec& defaults_to(std::string v) { default_value = std::move(v); return *this; }
  ArgSpec& range(std::uint64_t lo, std::uint64_t hi) { min = lo; max = hi; return *this; }
  ArgSpec& of_bytes(std::size_t n) { bytes = n; return *this; }
  ArgSpec& at_most_bytes(std::uint64_t n) { max = n; return *this; }
  ArgSpec& or_payload() { payload = true; return *this; }
  ArgSpec& names_srs() { srs = true; return *this; }
  ArgSpec& needing(std::string other) { needs.push_back(std::move(other)); return *this; }
};

/// Words for people: the form a value of `a` must have ("an integer 1 … 4096", "2^k, k 4 … 27",
/// "64 hex digits (32 bytes)", "0 or 1", "a file path", …).
std::string describe_form(const ArgSpec& a);
/// "" if `value` has the form of `a`, else "expected <describe_form(a)>" (nothing is opened: a
/// File or Dir is only checked to be a non-empty path).
std::string check_value(const ArgSpec& a, std::string_view value);
/// Throws std::invalid_argument for declarations that cannot be used: an empty or malformed or
/// repeated name, more than one payload argument, a payload or srs flag on a non-File argument,
/// min > max, a `needs` naming an undeclared argument. KindRegistry::add checks every kind with it.
void check_declarations(std::string_view kind, const std::vector<ArgSpec>& args);

/// The request against declared arguments; throws std::invalid_argument, naming the kind, the
/// argument and what was expected, for (in this order) a key that is not declared ("kind 'K' has no
/// argument 'X' (its arguments: …)"), a payload when no argument takes one, a payload together with
/// the path of its argument, a value not of its form ("kind 'K': argument 'A' = 'V': expected …"),
/// a required argument missing ("kind 'K' needs the argument 'A' (<help>)"), an argument given
/// without one it needs. An empty value counts as absent. The engine checks every request with it
/// before prepare(); the daemon also before it queues one (INVALID_ARGUMENT).
void check_arguments(std::string_view kind, const std::vector<ArgSpec>& args, const ProofRequest& r);

/// The files of the request's parameter-set (`srs`) arguments, as far as this process can see them: one
/// that is a verifying-key file (the key alone, as `setup --vk` writes it: groth16::is_verifying_key_file)
/// throws ArgumentError (the job fails as BadArgument: a usage error for `submit --local`) "kind 'K': argument 'params' = 'P' is a verifying-key (.vk) file (1156
/// bytes: the key alone), not a parameter file; give the .params file (proofline setup --params)" —
/// before any load, which would report it only as a section truncated after the key. Reads 4 bytes of
/// each; a missing or unreadable file passes (the kind reports it). The engine checks every request
/// with it after check_arguments; the daemon also before it queues one (INVALID_ARGUMENT).
void check_srs_files(std::string_view kind, const std::vector<ArgSpec>& args, const ProofRequest& r);

// ---- kinds -----------------------------------------------------------------------------------------

class ProofKind {
 public:
  virtual ~ProofKind() = default;
  virtual std::string_view name() const = 0;
  /// One line: what the kind proves (for errors, `status`, `proofline kinds`, docs/kinds.md).
  virtual std::string_view description() const = 0;
  /// Every argument the kind reads (ProofRequest::args keys), in the order people should see them.
  /// The engine refuses a request that does not fit them before prepare() (check_arguments), so a
  /// misspelt argument is never silently ignored.
  virtual std::vector<ArgSpec> arguments() const = 0;
  /// How clients write the proofs to files: "bellperson" (192 bytes per partition, public inputs
  /// as snarkjs public.json) or "snarkjs" (one proof as snarkjs proof.json + public.json).
  virtual std::string_view proof_format() const { return "bellperson"; }
  /// The scheduling class of a request that does not set ProofRequest::priority (engine.hpp,
  /// "Scheduling"): what the proof's deadline asks for — "winning-post" CRITICAL (a block reward is
  /// lost within seconds), "window-post" HIGH (a missed deadline is slashed), NORMAL for the rest.
  virtual Priority default_priority() const { return Priority::Normal; }
  virtual std::shared_ptr<const KindJob> prepare(const ProofRequest& request) const = 0;
  /// prepare() of a request that gives none of the kind's `srs` arguments while the engine holds
  /// preloaded parameter sets of this kind: `preloaded` (non-empty) lists them, resident at the call,
  /// the most recently preloaded first. A kind that can tell its circuit's set among them (by its
  /// counts: find_preloaded) uses that file instead of its default one (the parameter cache), so that
  /// engine.preload = ["porep-c2:/p/p32.params"] serves a request without 'params'; with none of its
  /// circuit, it prepares as prepare() does (and reports a missing default file as it would).
  /// Default: prepare(request) (the preloaded sets are not looked at).
  virtual std::shared_ptr<const KindJob> prepare_preloaded(const ProofRequest& request,
                                                           std::span<const PreloadedSrs> preloaded) const {
    (void)preloaded;
    return prepare(request);
  }
  /// For PreloadSRS / engine.preload: a job whose srs_key() and load_srs() are those a request with
  /// these parameter arguments would use, without the rest of a request (witness, size, C1).
  /// Default: prepare(request).
  virtual std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& request) const { return prepare(request); }
};

/// check_arguments(kind.name(), kind.arguments(), r).
void check_arguments(const ProofKind& kind, const ProofRequest& r);

/// Kinds by name. Registration happens before the registry is handed to an Engine.
class KindRegistry {
 public:
  /// Throws std::invalid_argument for an empty or duplicate name, or declarations that
  /// check_declarations refuses.
  void add(std::shared_ptr<const ProofKind> kind);
  /// Null if unknown.
  const ProofKind* find(std::string_view name) const;
  /// The kind, or std::invalid_argument naming the known ones.
  std::shared_ptr<const ProofKind> get(std::string_view name) const;
  std::vector<std::string> names() const;
  /// Every kind, by name.
  std::vector<std::shared_ptr<const ProofKind>> all() const;

  /// A registry of every kind registered in this program (KindRegistrar): the built-in kinds of
  /// src/engine (bench, mul, porep-c2, snarkjs) and any a host program or test links in. Throws
  /// std::invalid_argument if two registered kinds share a name.
  static std::shared_ptr<KindRegistry> builtin();

 private:
  std::map<std::string, std::shared_ptr<const ProofKind>, std::less<>> kinds_;
};

/// Registers kinds for KindRegistry::builtin() from a static object's constructor (static
/// initialization, before main). Use it through PROOFLINE_REGISTER_KIND.
struct KindRegistrar {
  KindRegistrar(std::initializer_list<std::shared_ptr<const ProofKind>> kinds);
};

/// PROOFLINE_REGISTER_KIND(file_stem, kind…): registers the kinds (shared_ptr<ProofKind>
/// expressions) and defines the file's link anchor proofline_kind_file_<file_stem>, which the
/// generated list of src/engine/*_kind.cpp references (header comment). At namespace scope, once per
/// file, outside unnamed namespaces.
#define PROOFLINE_REGISTER_KIND(file_stem, ...)                                                        \
  extern "C" {                                                                                       \
  extern const char proofline_kind_file_##file_stem;                                                 \
  const char proofline_kind_file_##file_stem = 0;                                                    \
  }                                                                                                  \
  static const ::proofline::engine::KindRegistrar proofline_kind_registrar_##file_stem { __VA_ARGS__ }

// ---- helpers for kinds -----------------------------------------------------------------------------

/// A required / optional string argument, and a size "2^k" / power of two as log2. Throw
/// std::invalid_argument naming the argument.
const std::string& require_arg(const ProofRequest& r, const std::string& name);
std::string arg_or(const ProofRequest& r, const std::string& name, const std::string& fallback);
unsigned parse_log_size_arg(const std::string& name, const std::string& value);
std::uint64_t parse_u64_arg(const std::string& name, const std::string& value);
/// 64 hex digits: 32 bytes that must be the little-endian encoding of a field element < r (a
/// commitment, PoSt randomness). Throws std::invalid_argument "argument '<name>': expected 64 hex
/// digits (32 bytes), got '<value>'" or "argument '<name>' = <value>: 32 bytes little-endian >= r"
/// followed by `hint` (e.g. " (clear the top 2 bits of byte 31, as nodes do)").
std::array<std::uint8_t, 32> parse_fr_bytes_arg(const std::string& name, const std::string& value,
                                                const std::string& hint = "");
/// "#<bytes>-<mtime in ns>" of a file, appended by the built-in kinds to srs_key() after the path, so
/// that a parameter file replaced on disk (a zkey after another snarkjs contribution, regenerated
/// .params) is loaded as a new SRS instead of the cached old one (whose proofs would not verify
/// under the new key). "" if the file cannot be stat'ed (the load then reports it).
std::string file_version(const std::string& path);
/// The absolute canonical path of an existing regular file; std::invalid_argument
/// ("<what> '<path>' not found (or not a regular file)") otherwise.
std::string existing_file(const std::string& what, const std::string& path);
/// The whole text of a small input file (a request JSON, vanilla proofs): std::invalid_argument
/// ("<what> '<path>' not found (or not a regular file)") for a missing file, ProoflineError(BadLength)
/// for one larger than `max_bytes`.
std::string read_text_file(const std::string& what, const std::string& path, std::uint64_t max_bytes);
/// The text of the file named by argument `arg`, else the request payload (at most `max_bytes`
/// either way: read_text_file, or ProoflineError(BadLength) "<what> (the request payload): N bytes, at
/// most M"); std::invalid_argument "kind 'K' needs the argument '<arg>' or <what> as the payload" when
/// neither is given.
std::string file_or_payload_text(const ProofRequest& r, const std::string& arg, const std::string& what,
                                 std::uint64_t max_bytes);

// ---- Filecoin parameter files (the PoSt and SnapDeals kinds) ----------------------------------------

/// ArgSpec "param_cache": the folder of parameters under their upstream names.
ArgSpec param_cache_arg();
/// <the argument 'param_cache', else $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters>
/// / `file_name` (the circuit's upstream parameter file name).
std::string upstream_params_path(const ProofRequest& r, const std::string& file_name);
/// The one spelling of a parameter path that keys the SRS cache (prepare and prepare_srs agree): the
/// canonical path of `params`; std::invalid_argument "kind 'K': parameter file 'P' not found (make it
/// with `proofline setup --circuit <setup_circuit> --sector-size S`, or give the argument 'params')"
/// when it is not a regular file.
std::string canonical_params_path(const std::string& kind, const std::string& setup_circuit, const std::string& params);
/// Throws ProoflineError(BadLength) "parameter file '<path>' is not for <what>: it has N public inputs
/// (incl. ONE) and M aux variables, the circuit has A and B" unless (n_inputs, n_aux) = (inputs, aux).
void check_circuit_params(const std::string& path, const std::string& what, std::size_t n_inputs, std::size_t n_aux,
                          std::size_t inputs, std::size_t aux);
/// Loads the .params file at `path` as the Srs `key`, through groth16::load_parameters (the one loader
/// of every kind): as groth16::host_queries() says, either a header shell (vk, counts and layout
/// checked now; h, l, a, b_g1, b_g2 stay in the file and a GPU backend loads them straight to the
/// device; has_host_queries() false, Srs::bytes = the vk's bytes alone) or a whole host copy (the
/// engine has a CPU backend; Srs::bytes counts every query). With `check_counts` (the circuit is
/// known), the section counts (public inputs incl. ONE, aux variables) are read first (headers only)
/// and given to it, so that a file of another circuit is named before any point is read; the points
/// get on-curve checks only, as Filecoin loads its parameter cache (every proof is verified anyway).
/// A kind loading this way must read only the shape (num_inputs, num_aux, domain_size, *_len) and vk
/// of the parameters, never their query vectors.
std::shared_ptr<const Srs> load_circuit_params(const std::string& key, const std::string& path,
                                               const std::function<void(std::size_t, std::size_t)>& check_counts,
                                               const std::function<void(double)>& progress);

/// PreloadSRS / engine.preload ("<kind>:<params>") without a request: a job of the parameter file
/// alone, under the key a request naming the same file gets (path + file_version); its load_srs is
/// load_circuit_params with `check_counts` (empty: the circuit is not known, each request checks the
/// counts when it is prepared); it has no partition to synthesize (std::logic_error).
std::shared_ptr<const KindJob> params_only_job(std::string kind, std::string params,
                                               std::function<void(std::size_t, std::size_t)> check_counts);

// ---- The compiled form (issue 31: witness-only synthesis, the constraints evaluated by the backend) --

/// ArgSpec "compiled" (Bool, default `default_value`): partitions in the compiled form — witness-only
/// synthesis (r1cs::WitnessAssignment, the aux assignment bit-packed) and the constraints a, b, c
/// evaluated by the backend from the circuit's compiled form (on the device where it has one), or
/// prover mode (0: a, b, c built on the host during synthesis).
ArgSpec compiled_arg(const std::string& default_value = "0");

/// The compiled form (r1cs::CompiledCircuit) of the circuit the parameter file `params` was made for,
/// one per `key` (the SRS key: path + file_version) in this process, kept until that SRS is evicted
/// (release_compiled_circuit).
/// Read from `<params>.compiled` when that file is there and newer than `params` (a file of another
/// circuit — counts other than `expected` where given, or than `p`'s public inputs and aux variables
/// — is refused: ProoflineError(BadArgument) naming the file and the counts; remove it to have it
/// made again); else recorded (r1cs::CircuitRecorder over `circuit`: the matrices do not depend on
/// the witness, so any instance of the circuit gives the same ones) and written there atomically (a
/// folder that cannot be written keeps it in memory only, with a warning). `kind` names the log
/// lines. Thread-safe: concurrent callers of one key wait for the first.
std::shared_ptr<const r1cs::CompiledCircuit> compiled_circuit(const std::string& kind, const std::string& key,
                                                              const std::string& params, const groth16::Parameters& p,
                                                              const r1cs::CircuitInterface& circuit,
                                                              const std::optional<r1cs::CircuitShape>& expected);

/// The compiled form of SRS key `key` made by `make` (a kind whose circuit comes in matrix form: the
/// snarkjs zkey's), once per key in this process, kept in memory only (no file); null when `make`
/// gives none (asked once: later calls return null at once). Listed and counted as compiled_circuit's.
/// Thread-safe as compiled_circuit. `kind` names the log line.
std::shared_ptr<const r1cs::CompiledCircuit> compiled_circuit_made(
    const std::string& kind, const std::string& key, const std::function<std::optional<r1cs::CompiledCircuit>()>& make);

/// The compiled circuit compiled_circuit made for SRS key `key` in this process, or null (none yet,
/// or still being recorded). Never waits for a recording.
std::shared_ptr<const r1cs::CompiledCircuit> held_compiled_circuit(const std::string& key);
/// Every compiled circuit this process holds, with what status reports of it (device_bytes 0: the
/// engine asks its backends). Never waits for a recording.
std::vector<std::pair<CompiledCircuitStatus, std::shared_ptr<const r1cs::CompiledCircuit>>> compiled_circuits_held();
/// Host bytes of those circuits (CompiledCircuitStatus::host_bytes summed).
std::uint64_t compiled_host_bytes();
/// Lets go of the compiled circuit held for SRS key `key` (the engine calls it when that SRS leaves
/// its cache: the circuit is of no use without it, and at 32 GiB holds gigabytes): no longer listed
/// nor counted; a later compiled_circuit call for the key reads or records it again. Returns the
/// circuit let go (null if none was held) so that the caller can have the backends free their
/// copies; a job that still holds it keeps it until it is done. Never waits for a recording (one in
/// progress for the key publishes nothing).
std::shared_ptr<const r1cs::CompiledCircuit> release_compiled_circuit(const std::string& key);

/// Witness-only synthesis of `circuit` into `buf` (emptied first, capacity kept): the input
/// assignment, the aux assignment packed (buf.packed_aux: the GPU backend expands it on the device,
/// only the packed bytes cross PCIe; the CPU backend on the host), the densities and `cc`; a, b, c
/// stay empty. Errors: the circuit's (SynthesisError, ProoflineError) and BadLength when its counts
/// differ from `p`'s (parameters of no counts, p.num_inputs() == 0, are not compared).
void synthesize_witness(const r1cs::CircuitInterface& circuit, std::shared_ptr<const r1cs::CompiledCircuit> cc,
                        const groth16::Parameters& p, r1cs::ProvingBuffers& buf);

/// An Srs of `params` (its prepared verifying key, bytes = parameters_bytes + extra_bytes).
std::shared_ptr<const Srs> make_srs(std::string key, groth16::Parameters params, std::shared_ptr<const void> extra,
                                    std::uint64_t extra_bytes);

}  // namespace proofline::engine
