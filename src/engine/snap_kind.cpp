// The "snap-update" kind: Filecoin SnapDeals (EmptySectorUpdate) in the engine
// (include/proofline/engine/kind.hpp; arguments: docs/kinds.md).
//
// One job per request, one engine partition per SnapDeals partition (1, 2, 4 or 16 by sector size),
// all proved: the proof is partition_count × 192 bytes in partition order. The inputs are the files
// `proofline gen-vanilla snap` writes and nodes send (filecoin/snap_json.hpp): the request JSON
// (sector size, h, comm_r_old, comm_d_new, comm_r_new) and the vanilla proofs as the JSON array of
// base64 bincode PartitionProof that Curio writes to snap-vproof.json (the argument 'vanilla' or the
// request payload). Instead of the request JSON, the public inputs may come in cuzk.v1's form
// (server/cuzk.hpp): 'registered_proof' (abi.RegisteredUpdateProof 0-4, which gives the sector size;
// h is then the size's hs[3], what nodes use: filecoin-proofs HSelect::from_nodes) with 'comm_r_old',
// 'comm_d_new' and 'comm_r_new' (64 hex digits each, the raw 32-byte digests). Partition k is synthesized from vanilla proof k (circuits/snap); its public inputs
// are the ones a verifier derives from the request alone (k_and_h_select, comm_r_old, comm_d_new,
// comm_r_new), every constraint is checked (a failure names the partition, the part and the
// constraint's path, with the native check's finding), and the engine's self-check verifies every
// partition's proof against those inputs before anything is returned.
#include <stdexcept>
#include <utility>

#include "proofline/circuits/porep.hpp"
#include "proofline/circuits/snap.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/filecoin/snap_json.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/constraint_path.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/util/error.hpp"

namespace proofline::engine {

namespace {

namespace snap = circuits::snap;
using ff::Fr;

class SnapJob final : public KindJob {
 public:
  SnapJob(filecoin::SnapRequest request, std::vector<filecoin::SnapPartitionProof> proofs, std::string params,
          bool check_constraints, bool compiled)
      : req_(std::move(request)),
        p_(&filecoin::snap_params(req_.sector_bytes)),
        proofs_(std::move(proofs)),
        params_(std::move(params)),
        key_(params_ + file_version(params_)),
        check_constraints_(check_constraints),
        compiled_(compiled),
        counts_(snap::count_snap(*p_)) {}

  std::size_t num_partitions() const override { return p_->partition_count; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const r1cs::CompiledCircuit> compiled_form(const Srs&) const override {
    return compiled_ ? held_compiled_circuit(key_) : nullptr;
  }

  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    return load_circuit_params(
        key_, params_,
        [&](std::size_t n_inputs, std::size_t n_aux) {
          check_circuit_params(params_, what(), n_inputs, n_aux, counts_.inputs, counts_.aux);
        },
        progress);
  }

  void check(const Srs& srs) const override {
    check_circuit_params(params_, what(), srs.params.num_inputs(), srs.params.num_aux(), counts_.inputs, counts_.aux);
  }

  void synthesize(std::size_t k, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    const snap::EmptySectorUpdateCircuit circuit = partition_circuit(k);
    // The compiled form checks its constraints only when the proofs fail the self-check
    // (explain_failed_check names the constraint as the check below would).
    if (compiled_) {
      synthesize_compiled(circuit, srs, buf);
      return;
    }
    synthesize_into(buf, [&](r1cs::ProvingAssignment& cs) {
      cs.reserve(srs.params.domain_size(), srs.params.num_inputs(), srs.params.num_aux());
      circuit.synthesize(cs);
      cs.finalize();
    });
    if (!check_constraints_) return;
    if (const auto bad = circuits::porep::first_unsatisfied(buf.a, buf.b, buf.c)) throw_unsatisfied(k, circuit, *bad);
  }

  void explain_failed_check(const Srs& srs) const override {
    if (!compiled_ || !check_constraints_) return;  // the evaluated form was checked at synthesis
    r1cs::ProvingBuffers buf;
    for (std::size_t k = 0; k < p_->partition_count; ++k) {
      const snap::EmptySectorUpdateCircuit circuit = partition_circuit(k);
      synthesize_compiled(circuit, srs, buf);
      if (const auto bad = r1cs::first_unsatisfied(*buf.compiled, buf.input_assignment, buf.packed_aux)) {
        throw_unsatisfied(k, circuit, *bad);
      }
    }
  }

  std::vector<Fr> public_inputs(std::size_t k, const r1cs::ProvingBuffers&) const override {
    return snap::snap_public_inputs(*p_, req_.public_inputs, k);
  }

 private:
  snap::EmptySectorUpdateCircuit partition_circuit(std::size_t k) const {
    return snap::EmptySectorUpdateCircuit(*p_, snap::snap_witness(*p_, req_.public_inputs, k, proofs_.at(k)));
  }

  /// Witness-only synthesis into `buf` with the circuit's compiled form (compiled_circuit).
  void synthesize_compiled(const snap::EmptySectorUpdateCircuit& circuit, const Srs& srs,
                           r1cs::ProvingBuffers& buf) const {
    synthesize_witness(circuit,
                       compiled_circuit(filecoin::snap_identifier(*p_), key_, params_, srs.params, circuit,
                                        r1cs::CircuitShape{counts_.constraints + counts_.inputs, counts_.inputs,
                                                           counts_.aux}),
                       srs.params, buf);
  }

  /// Constraint `bad` of partition k is unsatisfied: the error naming it, its gadget path and what the
  /// vanilla proof's own check says.
  [[noreturn]] void throw_unsatisfied(std::size_t k, const snap::EmptySectorUpdateCircuit& circuit,
                                      std::size_t bad) const {
    r1cs::ConstraintPathFinder finder(bad);
    circuit.synthesize(finder);
    const filecoin::SnapVanillaCheck v = filecoin::verify_snap_vanilla(*p_, req_.public_inputs, k, proofs_[k]);
    throw ProoflineError(Error::Malformed, "partition " + std::to_string(k) + ", constraint " + std::to_string(bad) +
                                               " unsatisfied: " + snap::locate_snap_constraint(counts_, bad) + " (" +
                                               finder.path().value_or("?") + ")" +
                                               (v.ok ? "" : "; vanilla check: " + v.what));
  }

  std::string what() const { return filecoin::snap_identifier(*p_) + " (SnapDeals " + std::string(p_->name) + ")"; }

  filecoin::SnapRequest req_;
  const filecoin::SnapParams* p_;
  std::vector<filecoin::SnapPartitionProof> proofs_;
  std::string params_, key_;
  bool check_constraints_;
  bool compiled_;  ///< argument `compiled`: partitions in the compiled form
  snap::SnapCounts counts_;
};

class SnapKind final : public ProofKind {
 public:
  std::string_view name() const override { return "snap-update"; }
  std::string_view description() const override {
    return "Filecoin SnapDeals (EmptySectorUpdate, tree D SHA-256): every partition (16 × 86 challenges at 32 GiB), "
           "from the vanilla proofs nodes send";
  }
  /// cuzk's table: PoRep and Snap NORMAL.
  Priority default_priority() const override { return Priority::Normal; }
  std::vector<ArgSpec> arguments() const override {
    return {ArgSpec("request", ArgType::File,
                    "the request JSON: sector size, h, comm_r_old, comm_d_new, comm_r_new (as `proofline gen-vanilla "
                    "snap` writes it); or give registered_proof and the three commitments instead")
                .defaults_to("required unless registered_proof is given"),
            ArgSpec("registered_proof", ArgType::Int,
                    "instead of request (cuzk.v1's form): the registered update proof, go-state-types abi numbers: "
                    "0-4 StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1 (the sector size; h is the size's default, what "
                    "nodes use); a request needs comm_r_old, comm_d_new and comm_r_new with it")
                .range(0, 4),
            ArgSpec("comm_r_old", ArgType::Hex,
                    "with registered_proof: comm_r of the sector before the update, 32 bytes little-endian, < r")
                .of_bytes(32)
                .needing("registered_proof"),
            ArgSpec("comm_d_new", ArgType::Hex, "with registered_proof: comm_d of the new data, 32 bytes little-endian, < r")
                .of_bytes(32)
                .needing("registered_proof"),
            ArgSpec("comm_r_new", ArgType::Hex,
                    "with registered_proof: comm_r of the updated sector, 32 bytes little-endian, < r")
                .of_bytes(32)
                .needing("registered_proof"),
            ArgSpec("vanilla", ArgType::File,
                    "the vanilla proofs: a JSON array of base64 bincode PartitionProof, one per partition (Curio's "
                    "snap-vproof.json)")
                .require()
                .or_payload()
                .at_most_bytes(filecoin::kMaxSnapJsonBytes),
            ArgSpec("params", ArgType::File,
                    "the SnapDeals .params file (default: param_cache / the upstream file name of the circuit)")
                .names_srs(),
            param_cache_arg(),
            ArgSpec("check_constraints", ArgType::Bool,
                    "check every constraint after synthesis and name the failing partition, part and constraint "
                    "(compiled form: when the proofs fail their self-check, which then names it)")
                .defaults_to("1"),
            compiled_arg()};
  }

  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    const std::string kind(name());
    const std::string request = arg_or(r, "request", ""), registered = arg_or(r, "registered_proof", "");
    if (request.empty() == registered.empty()) {
      throw std::invalid_argument(
          "kind '" + kind + "' needs " +
          (request.empty() ? std::string("the argument 'request' (a request JSON path), or 'registered_proof' with "
                                         "'comm_r_old', 'comm_d_new' and 'comm_r_new'")
                           : std::string("either 'request' or 'registered_proof', not both")));
    }
    const filecoin::SnapRequest req =
        request.empty() ? request_of(r, registered)
                        : filecoin::parse_snap_request_json(read_text_file("request", request, filecoin::kMaxSnapJsonBytes));
    const std::string vanilla_text =
        file_or_payload_text(r, "vanilla", "the vanilla proofs", filecoin::kMaxSnapJsonBytes);
    std::vector<filecoin::SnapPartitionProof> proofs =
        filecoin::parse_snap_vanilla_proofs_json(vanilla_text, req.sector_bytes);
    const filecoin::SnapParams& p = filecoin::snap_params(req.sector_bytes);
    if (proofs.size() != p.partition_count) {
      throw ProoflineError(Error::BadLength, "kind '" + kind + "': " + std::to_string(proofs.size()) +
                                                 " vanilla partition proofs, a " + std::string(p.name) +
                                                 " sector has " + std::to_string(p.partition_count) + " partitions");
    }
    std::string params = arg_or(r, "params", "");
    if (params.empty()) params = upstream_params_path(r, filecoin::snap_parameter_file_name(p, ".params"));
    params = canonical_params_path(kind, "snap", params);
    const std::string check = arg_or(r, "check_constraints", "1");
    const std::string compiled = arg_or(r, "compiled", "0");
    return std::make_shared<SnapJob>(req, std::move(proofs), std::move(params), check == "1", compiled == "1");
  }

  /// With a request: as prepare. Without one (engine.preload "snap-update:<params>", PreloadSRS):
  /// the parameter file 'params' alone, under the key a request naming that file uses (each request
  /// checks the counts when it is prepared).
  std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& r) const override {
    if (!arg_or(r, "request", "").empty() || !arg_or(r, "vanilla", "").empty() || !r.payload.empty()) return prepare(r);
    const std::string kind(name());
    const std::string params = arg_or(r, "params", "");
    if (params.empty()) {
      throw std::invalid_argument("kind '" + kind + "': loading parameters without a request needs the argument "
                                  "'params' (the .params file)");
    }
    return params_only_job(kind, canonical_params_path(kind, "snap", params), {});
  }

 private:
  /// The cuzk.v1 form: the sector size from the registered update proof, h its default, the three
  /// commitments from their arguments.
  static filecoin::SnapRequest request_of(const ProofRequest& r, const std::string& registered) {
    filecoin::SnapRequest req;
    const auto v = parse_u64_arg("registered_proof", registered);
    req.sector_bytes = filecoin::sector_size(filecoin::registered_update_proof_from_u64(v));
    req.public_inputs.h = filecoin::snap_params(req.sector_bytes).h_default();
    req.public_inputs.comm_r_old = parse_fr_bytes_arg("comm_r_old", require_arg(r, "comm_r_old"));
    req.public_inputs.comm_d_new = parse_fr_bytes_arg("comm_d_new", require_arg(r, "comm_d_new"));
    req.public_inputs.comm_r_new = parse_fr_bytes_arg("comm_r_new", require_arg(r, "comm_r_new"));
    return req;
  }
};

}  // namespace

PROOFLINE_REGISTER_KIND(snap_kind, std::make_shared<SnapKind>());

}  // namespace proofline::engine
