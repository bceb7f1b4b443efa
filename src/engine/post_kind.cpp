// The "window-post" and "winning-post" kinds: Filecoin Fallback PoSt in the engine
// (include/proofline/engine/kind.hpp; arguments: docs/kinds.md).
//
// One job per request: one partition of WindowPoSt (the request's partition_index, or the argument
// 'partition'), or WinningPoSt's one. The vanilla proofs are a JSON array of base64 bincode
// FallbackPoStSectorProof (the argument 'vanilla' or the request payload; filecoin/post_json.hpp).
// The public inputs come in one of two forms:
//   - 'request': the request JSON `proofline gen-vanilla` writes (post type, sector size, API
//     version, miner id, randomness, partition, sectors with comm_r);
//   - 'registered_proof' + 'randomness' + 'miner_id' (+ 'partition'): what a node sends over cuzk.v1
//     (server/cuzk.hpp); the partition's sectors are then the vanilla proofs' own sector ids and
//     comm_r, in their order (filecoin::post_request_from_vanilla).
// Each vanilla proof's own comm_r must equal the request's for its sector
// (filecoin::check_vanilla_comm_r; refused when the job is made, Malformed, naming both values).
// Parameters: 'params', else the upstream file name of the circuit in 'param_cache'. prepare_srs
// (engine.preload "window-post:<params>", PreloadSRS) needs no request: 'params', or
// 'registered_proof' to name the upstream file. The partition is
// synthesized from the vanilla proofs (circuits/post, sectors as parallel parts), its public inputs are compared with the ones a
// verifier derives from randomness, sector ids and comm_r alone, every constraint is checked (a
// failure names the sector, challenge and constraint, check_post_partition), and the self-check
// verifies the proof against those derived inputs.
#include <functional>
#include <optional>
#include <stdexcept>
#include <utility>

#include "proofline/circuits/porep.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/util/error.hpp"

namespace proofline::engine {

namespace {

namespace post = circuits::post;
using ff::Fr;

/// Throws unless (n_inputs, n_aux) are those of the circuit of `fp` (the file named in the message).
void check_post_counts(const filecoin::FallbackParams& fp, const std::string& params, std::size_t n_inputs,
                       std::size_t n_aux) {
  const post::PoStCounts c = post::count_post(post::shape_for(fp));
  check_circuit_params(params, filecoin::fallback_identifier(fp), n_inputs, n_aux, c.inputs, c.aux);
}

class PoStJob final : public KindJob {
 public:
  PoStJob(filecoin::PoStRequest request, std::vector<filecoin::FallbackPoStSectorProof> proofs, std::string params,
          bool check_constraints, bool compiled)
      : req_(std::move(request)),
        fp_(filecoin::fallback_params(req_.config)),
        shape_(post::shape_for(fp_)),
        part_(filecoin::partition_sector_proofs(fp_, req_.public_inputs, proofs, req_.partition)),
        proofs_(std::move(proofs)),
        inputs_(post::post_public_inputs(fp_, req_.public_inputs, req_.partition)),
        params_(std::move(params)),
        key_(params_ + file_version(params_)),
        check_constraints_(check_constraints),
        compiled_(compiled) {
    // The circuit proves the request's comm_r: a vanilla proof carrying another is refused here,
    // whatever check_constraints says (it would verify against the request, not the sector it names).
    if (const auto bad = filecoin::check_vanilla_comm_r(part_, req_.partition)) {
      throw ProoflineError(Error::Malformed, bad->what);
    }
  }

  std::size_t num_partitions() const override { return 1; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const r1cs::CompiledCircuit> compiled_form(const Srs&) const override {
    return compiled_ ? held_compiled_circuit(key_) : nullptr;
  }

  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    return load_circuit_params(
        key_, params_, [&](std::size_t n_inputs, std::size_t n_aux) { check_post_counts(fp_, params_, n_inputs, n_aux); },
        progress);
  }

  void check(const Srs& srs) const override {
    check_post_counts(fp_, params_, srs.params.num_inputs(), srs.params.num_aux());
  }

  void synthesize(std::size_t, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    const post::FallbackPoStCircuit circuit = partition_circuit();
    // The compiled form (witness only; the backend evaluates the constraints) checks its constraints
    // only when the proof fails the self-check (explain_failed_check, which names the constraint as
    // the check below would): a good partition does not pay for a host evaluation.
    if (compiled_) {
      synthesize_compiled(circuit, srs, buf);
      return;
    }
    synthesize_into(buf, [&](r1cs::ProvingAssignment& cs) {
      cs.reserve(srs.params.domain_size(), srs.params.num_inputs(), srs.params.num_aux());
      // Sectors as parallel parts (upstream's extensible path; the buffers of one thread).
      circuit.synthesize_parallel(cs);
      cs.finalize();
    });
    if (!check_constraints_) return;
    if (const auto bad = circuits::porep::first_unsatisfied(buf.a, buf.b, buf.c)) throw_unsatisfied(*bad);
  }

  void explain_failed_check(const Srs& srs) const override {
    if (!compiled_ || !check_constraints_) return;  // the evaluated form was checked at synthesis
    r1cs::ProvingBuffers buf;
    synthesize_compiled(partition_circuit(), srs, buf);
    if (const auto bad = r1cs::first_unsatisfied(*buf.compiled, buf.input_assignment, buf.packed_aux)) {
      throw_unsatisfied(*bad);
    }
  }

  std::vector<Fr> public_inputs(std::size_t, const r1cs::ProvingBuffers&) const override { return inputs_; }

 private:
  /// The partition's circuit, its public inputs checked against those a verifier derives.
  post::FallbackPoStCircuit partition_circuit() const {
    post::FallbackPoStCircuit circuit(shape_, post::circuit_sectors(part_));
    if (circuit.public_inputs() != inputs_) {
      throw ProoflineError(Error::Malformed, "partition " + std::to_string(req_.partition) +
                                                 ": the vanilla proofs' challenged leaves or comm_r differ from those a "
                                                 "verifier derives from randomness, sector ids and comm_r (" +
                                                 post::check_post_partition(fp_, req_.public_inputs, proofs_, req_.partition)
                                                     .describe() +
                                                 ")");
    }
    return circuit;
  }

  /// Witness-only synthesis into `buf` with the circuit's compiled form (compiled_circuit).
  void synthesize_compiled(const post::FallbackPoStCircuit& circuit, const Srs& srs, r1cs::ProvingBuffers& buf) const {
    const post::PoStCounts c = post::count_post(shape_);
    synthesize_witness(circuit,
                       compiled_circuit(filecoin::fallback_identifier(fp_), key_, params_, srs.params, circuit,
                                        r1cs::CircuitShape{c.constraints + c.inputs, c.inputs, c.aux}),
                       srs.params, buf);
  }

  /// Constraint `bad` of the partition is unsatisfied: the error naming its sector and challenge, and
  /// what the vanilla proofs' own check says.
  [[noreturn]] void throw_unsatisfied(std::size_t bad) const {
    const std::string where = post::locate_post_constraint(post::count_post(shape_), bad);
    const filecoin::PoStVanillaCheck v = filecoin::verify_post_vanilla(fp_, req_.public_inputs, part_, req_.partition);
    throw ProoflineError(Error::Malformed, "partition " + std::to_string(req_.partition) + ", constraint " +
                                               std::to_string(bad) + " unsatisfied: " + where +
                                               (v.ok ? "" : "; vanilla check: " + v.what));
  }

  filecoin::PoStRequest req_;
  filecoin::FallbackParams fp_;
  post::FallbackPoStShape shape_;
  filecoin::PartitionSectors part_;
  std::vector<filecoin::FallbackPoStSectorProof> proofs_;
  std::vector<Fr> inputs_;  ///< as a verifier derives them
  std::string params_, key_;
  bool check_constraints_;
  bool compiled_;  ///< argument `compiled`: the partition in the compiled form
};

class PoStKind final : public ProofKind {
 public:
  explicit PoStKind(filecoin::PoStType type) : type_(type) {}
  std::string_view name() const override { return type_ == filecoin::PoStType::Window ? "window-post" : "winning-post"; }
  std::string_view description() const override {
    return type_ == filecoin::PoStType::Window
               ? "Filecoin WindowPoSt of one partition (2349 sectors × 10 challenges at 32 GiB, 2300 at 64 GiB, 2 "
                 "below), from the vanilla proofs nodes send"
               : "Filecoin WinningPoSt (66 challenges over 1 sector), from the vanilla proof nodes send";
  }
  Priority default_priority() const override {
    return type_ == filecoin::PoStType::Winning ? Priority::Critical : Priority::High;
  }
  std::vector<ArgSpec> arguments() const override {
    return {ArgSpec("request", ArgType::File,
                    "the request JSON: post type, sector size, API version, miner id, randomness, partition, sectors "
                    "with comm_r (as `proofline gen-vanilla` writes it); or give registered_proof, randomness and "
                    "miner_id instead")
                .defaults_to("required unless registered_proof is given"),
            ArgSpec("registered_proof", ArgType::Int,
                    "instead of request (cuzk.v1's form): the registered PoSt proof, go-state-types abi numbers: 0-4 "
                    "Winning{2KiB,8MiB,512MiB,32GiB,64GiB}V1, 5-9 Window…V1, 10-14 Window…V1_1 (API 1.2.0); the "
                    "sectors are the vanilla proofs' own sector ids and comm_r, in their order (a request needs "
                    "randomness and miner_id with it; alone it names the parameters to preload)")
                .range(0, 14),
            ArgSpec("randomness", ArgType::Hex,
                    "with registered_proof: the PoSt randomness, 32 bytes little-endian, < r (the chain's "
                    "randomness with the top 2 bits of byte 31 cleared)")
                .of_bytes(32)
                .needing("registered_proof"),
            ArgSpec("miner_id", ArgType::Int, "with registered_proof: the miner's actor id (prover_id = its LEB128)")
                .needing("registered_proof"),
            ArgSpec("vanilla", ArgType::File,
                    "the vanilla proofs: a JSON array of base64 bincode FallbackPoStSectorProof (Curio's form)")
                .require()
                .or_payload()
                .at_most_bytes(filecoin::kMaxPoStJsonBytes),
            ArgSpec("params", ArgType::File,
                    "the PoSt .params file (default: param_cache / the upstream file name of the circuit)")
                .names_srs(),
            param_cache_arg(),
            ArgSpec("partition", ArgType::Int,
                    "the WindowPoSt partition to prove (with registered_proof: the partition the vanilla proofs' "
                    "sectors are)")
                .defaults_to("the request's partition_index; with registered_proof 0"),
            ArgSpec("check_constraints", ArgType::Bool,
                    "check every constraint after synthesis and name the failing sector and challenge (compiled form: "
                    "when the proof fails its self-check, which then names it)")
                .defaults_to("1"),
            compiled_arg()};
  }

  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    const std::string kind(name());
    const std::string request = arg_or(r, "request", ""), registered = arg_or(r, "registered_proof", "");
    if (request.empty() == registered.empty()) {
      throw std::invalid_argument("kind '" + kind + "' needs " +
                                  (request.empty() ? std::string("the argument 'request' (a request JSON path), or "
                                                                 "'registered_proof' with 'randomness' and 'miner_id'")
                                                   : std::string("either 'request' or 'registered_proof', not both")));
    }
    const std::string vanilla_text =
        file_or_payload_text(r, "vanilla", "the vanilla proofs", filecoin::kMaxPoStJsonBytes);
    filecoin::PoStRequest req;
    std::vector<filecoin::FallbackPoStSectorProof> proofs;
    if (!request.empty()) {
      req = filecoin::parse_post_request_json(read_text_file("request", request, filecoin::kMaxPoStJsonBytes));
      check_type(req.config);
      const std::string only = arg_or(r, "partition", "");
      if (!only.empty()) req.partition = partition_of(req, parse_u64_arg("partition", only));
      proofs = filecoin::parse_vanilla_proofs_json(vanilla_text, req.config.sector_bytes, req.config.challenge_count);
    } else {
      const filecoin::PoStConfig config = config_of(registered);
      proofs = filecoin::parse_vanilla_proofs_json(vanilla_text, config.sector_bytes, config.challenge_count);
      req = filecoin::post_request_from_vanilla(config, parse_u64_arg("miner_id", require_arg(r, "miner_id")),
                                                randomness_of(require_arg(r, "randomness")),
                                                parse_u64_arg("partition", arg_or(r, "partition", "0")), proofs);
    }
    std::string params = arg_or(r, "params", "");
    if (params.empty()) {
      params =
          upstream_params_path(r, filecoin::fallback_parameter_file_name(filecoin::fallback_params(req.config), ".params"));
    }
    params = canonical_params_path(kind, kind, params);
    const std::string check = arg_or(r, "check_constraints", "1");
    const std::string compiled = arg_or(r, "compiled", "0");
    return std::make_shared<PoStJob>(std::move(req), std::move(proofs), std::move(params), check == "1",
                                     compiled == "1");
  }

  /// With a request (file, or registered_proof and vanilla proofs): as prepare. Without one
  /// (engine.preload "window-post:<params>", PreloadSRS): the parameter file alone — 'params', or
  /// the upstream file of 'registered_proof' in param_cache — under the key a request naming that
  /// file would use.
  std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& r) const override {
    const std::string kind(name());
    const std::string registered = arg_or(r, "registered_proof", "");
    if (!arg_or(r, "request", "").empty() || !arg_or(r, "vanilla", "").empty() || !r.payload.empty()) return prepare(r);
    std::optional<filecoin::FallbackParams> fp;
    if (!registered.empty()) fp = filecoin::fallback_params(config_of(registered));
    std::string params = arg_or(r, "params", "");
    if (params.empty()) {
      if (!fp) {
        throw std::invalid_argument("kind '" + kind + "': loading parameters without a request needs the argument "
                                    "'params' (the .params file) or 'registered_proof' (its upstream file in "
                                    "param_cache)");
      }
      params = upstream_params_path(r, filecoin::fallback_parameter_file_name(*fp, ".params"));
    }
    // With the circuit known (from 'registered_proof') its counts are checked on load; otherwise each
    // request checks them when it is prepared.
    params = canonical_params_path(kind, kind, params);
    std::function<void(std::size_t, std::size_t)> check;
    if (fp) {
      check = [fp = *fp, params](std::size_t n_inputs, std::size_t n_aux) {
        check_post_counts(fp, params, n_inputs, n_aux);
      };
    }
    return params_only_job(kind, params, std::move(check));
  }

 private:
  void check_type(const filecoin::PoStConfig& c) const {
    if (c.type != type_) {
      throw std::invalid_argument("kind '" + std::string(name()) + "': the request is a " +
                                  std::string(filecoin::to_string(c.type)) + " PoSt request");
    }
  }

  /// The configuration of a registered proof number, which must be of this kind's type.
  filecoin::PoStConfig config_of(const std::string& registered) const {
    const auto v = parse_u64_arg("registered_proof", registered);
    const filecoin::RegisteredPoStProof p = filecoin::registered_post_proof_from_u64(v);
    const filecoin::PoStConfig c = filecoin::post_config(p);
    if (c.type != type_) {
      throw std::invalid_argument("kind '" + std::string(name()) + "': argument 'registered_proof' = " + registered +
                                  " is " + std::string(filecoin::to_string(p)) + ", a " +
                                  std::string(filecoin::to_string(c.type)) + " PoSt proof (expected " +
                                  (type_ == filecoin::PoStType::Winning ? "0-4" : "5-14") + ")");
    }
    return c;
  }

  /// The argument 'partition' = k for a request file: one of the partitions its sectors make
  /// (filecoin::partition_range), else ArgumentError.
  static std::size_t partition_of(const filecoin::PoStRequest& req, std::uint64_t k) {
    const filecoin::FallbackParams fp = filecoin::fallback_params(req.config);
    const filecoin::PartitionRange range = filecoin::partition_range(fp, req.public_inputs);
    if (!range.contains(k)) {
      throw ArgumentError("argument 'partition' = " + std::to_string(k) + ": " + range.describe(fp, req.public_inputs));
    }
    return k;
  }

  static filecoin::Randomness randomness_of(const std::string& hex) {
    return parse_fr_bytes_arg("randomness", hex, " (clear the top 2 bits of byte 31, as nodes do)");
  }

  filecoin::PoStType type_;
};

}  // namespace

PROOFLINE_REGISTER_KIND(post_kind, std::make_shared<PoStKind>(filecoin::PoStType::Window),
                        std::make_shared<PoStKind>(filecoin::PoStType::Winning));

}  // namespace proofline::engine
