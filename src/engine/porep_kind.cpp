// The "porep-c2" kind: Filecoin PoRep commit phase 2 in the engine (include/proofline/engine/kind.hpp;
// arguments: docs/kinds.md).
//
// One job per sector (one C1 JSON), one engine partition per circuit partition of the registered
// proof (1 for 2 KiB … 512 MiB interactive, 10 for 32/64 GiB). Each partition is synthesized from the
// C1's vanilla proofs on a synthesis worker (circuits/porep), its public inputs are compared with the
// ones a verifier derives from the C1 header alone (challenges from the seed, parents from the
// graph: filecoin::public_inputs), every constraint is checked so an unsatisfied circuit fails with
// the challenge and part named, and the batch self-check verifies every proof against those derived
// inputs — the same checks as `proofline c2`, so the daemon never returns a proof `proofline verify
// --c1` would reject.
#include <algorithm>
#include <any>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <utility>

#include "proofline/circuits/porep.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/graph.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/sector.hpp"
#include "proofline/filecoin/vanilla.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/hex.hpp"
#include "log.hpp"

namespace proofline::engine {

namespace {

namespace fs = std::filesystem;
namespace porep = circuits::porep;
using ff::Fr;

/// 32 bytes from 64 hex digits (either case), or std::invalid_argument naming the argument.
filecoin::Domain parse_domain_hex(const std::string& name, const std::string& s) {
  filecoin::Domain d{};
  if (!from_hex(s, d)) {
    throw std::invalid_argument("argument '" + name + "': expected 64 hex digits (32 bytes), got '" + s + "'");
  }
  return d;
}

std::string yes_no_arg(const ProofRequest& r, const std::string& name, const std::string& fallback) {
  const std::string v = arg_or(r, name, fallback);
  if (v != "0" && v != "1") throw std::invalid_argument("argument '" + name + "' = '" + v + "': expected 0 or 1");
  return v;
}

/// The parameter set of a PoRep .params file as the engine holds it (key: path + file_version).
/// On-curve checks only, as Filecoin loads its parameter cache: every proof is verified anyway.
std::shared_ptr<const Srs> read_porep_params(const std::string& params, const std::string& key,
                                             const std::function<void(double)>& progress) {
  groth16::Parameters p = groth16::load_parameters(params, groth16::ReadOptions{ec::Check::OnCurveOnly});
  progress(1);
  auto srs = std::make_shared<Srs>();
  srs->key = key;
  srs->pvk = groth16::prepare_verifying_key(p.vk);
  srs->bytes = parameters_bytes(p);
  srs->params = std::move(p);
  return srs;
}

/// PreloadSRS / engine.preload = ["porep-c2:<params>"] without a C1: only the parameter file,
/// under the key a request naming the same file gets (its shape is checked against each request's
/// sector when that request is prepared). Loading it also counts the circuit of the file's sector
/// size (porep::count_porep_matching), which each request's prepare and check need: the first
/// request after a preload finds it counted (at 32 GiB ~7 M constraints, ~1 s, off its path).
class PoRepParamsOnlyJob final : public KindJob {
 public:
  PoRepParamsOnlyJob(std::string params, std::string key, bool compiled)
      : params_(std::move(params)), key_(std::move(key)), compiled_(compiled) {}
  std::size_t num_partitions() const override { return 1; }
  std::string srs_key() const override { return key_; }
  /// The form the requests after the preload take by default (the compiled form unless the preload
  /// said compiled=0): the engine warms buffers of that form.
  std::shared_ptr<const r1cs::CompiledCircuit> compiled_form(const Srs&) const override {
    return compiled_ ? held_compiled_circuit(key_) : nullptr;
  }
  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    progress(0);
    auto srs = read_porep_params(params_, key_, progress);
    // The circuit of the file's sector size, counted and compiled now (read from <params>.compiled or
    // recorded from a blank partition and written there): the first request after the preload
    // neither counts ~7 M constraints nor records ~130 M rows (32 GiB) on its way in.
    if (const auto shape = porep::count_porep_matching(srs->params.num_inputs(), srs->params.num_aux())) {
      const porep::PoRepCounts counts = porep::count_porep(*shape);
      (void)compiled_circuit("porep-c2", key_, params_, srs->params, porep::PoRepCircuit(*shape, porep::blank_inputs(*shape)),
                             r1cs::CircuitShape{counts.constraints + counts.inputs, counts.inputs, counts.aux});
    }
    return srs;
  }
  void check(const Srs&) const override {}
  void synthesize(std::size_t, const Srs&, r1cs::ProvingBuffers&) const override {
    throw std::logic_error("kind 'porep-c2': a parameter-only job (preload) has no partition to synthesize");
  }

 private:
  std::string params_, key_;
  bool compiled_;
};

class PoRepC2Job final : public KindJob {
 public:
  /// `ks`: the circuit partitions to prove, in order (engine partition i is circuit partition ks[i]).
  PoRepC2Job(std::string source, std::shared_ptr<const filecoin::SealCommitPhase1Output> c1, std::string params,
             bool check_constraints, std::vector<std::size_t> ks, bool compiled = false)
      : source_(std::move(source)),
        c1_(std::move(c1)),
        cfg_(filecoin::porep_config(c1_->registered_proof)),
        shape_(porep::shape_for(cfg_)),
        params_(std::move(params)),
        key_(params_ + file_version(params_)),
        check_constraints_(check_constraints),
        compiled_(compiled),
        ks_(std::move(ks)) {
    const filecoin::StackedGraph g(cfg_);
    for (std::size_t k = 0; k < c1_->vanilla_proofs.size(); ++k) {
      inputs_.push_back(filecoin::public_inputs(cfg_, g, c1_->replica_id, c1_->comm_d, c1_->comm_r, c1_->seed, k));
    }
  }

  std::size_t num_partitions() const override { return ks_.size(); }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const r1cs::CompiledCircuit> compiled_form(const Srs&) const override {
    return compiled_ ? held_compiled_circuit(key_) : nullptr;
  }

  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    progress(0);
    // The file's section counts (headers only, no point read) against this sector's circuit first:
    // a file of another sector size or circuit is named as such before GBs of points are read.
    const auto walk = groth16::walk_param_layout(params_, groth16::ParamFileKind::Params, fs::file_size(params_));
    if (walk.counts.size() >= 3) {
      porep::check_parameter_counts(porep::count_porep(shape_), cfg_.shape->name, params_, walk.counts[0],
                                    walk.counts[2]);
    }
    return read_porep_params(params_, key_, progress);
  }

  void check(const Srs& srs) const override {
    // Public inputs and aux variables: the cheap shape test of a parameter file made for another
    // sector size or circuit, before any synthesis (the domain size is checked per partition).
    porep::check_parameter_counts(porep::count_porep(shape_), cfg_.shape->name, params_, srs.params.num_inputs(),
                                  srs.params.num_aux());
  }

  void synthesize(std::size_t i, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    const std::size_t k = ks_[i];
    const porep::PoRepCircuit circuit = partition_circuit(k);
    // The evaluated form (prover mode: a, b, c on the host, checked here row by row), or the compiled
    // form (witness-only synthesis; the backend evaluates a, b, c from the compiled circuit, on the
    // device where it has one). The compiled form's constraint check — 3 sparse rows evaluated per
    // constraint, more than its witness costs — runs only when the proofs fail the engine's
    // self-check (explain_failed_check), which then names the constraint and the challenge as this
    // check would have: a bad C1 still gets its located error; a good one does not pay for it.
    if (compiled_) {
      synthesize_compiled(circuit, srs, buf);
      return;
    }
    synthesize_into(buf, [&](r1cs::ProvingAssignment& cs) {
      cs.reserve(srs.params.domain_size(), srs.params.num_inputs(), srs.params.num_aux());
      r1cs::synthesize(circuit, cs);
    });
    if (!check_constraints_) return;
    if (const auto bad = porep::first_unsatisfied(buf.a, buf.b, buf.c)) throw_unsatisfied(k, *bad);
  }

  void explain_failed_check(const Srs& srs) const override {
    if (!compiled_ || !check_constraints_) return;  // the evaluated form was checked at synthesis
    r1cs::ProvingBuffers buf;
    for (const std::size_t k : ks_) {
      synthesize_compiled(partition_circuit(k), srs, buf);
      if (const auto bad = r1cs::first_unsatisfied(*buf.compiled, buf.input_assignment, buf.packed_aux)) {
        throw_unsatisfied(k, *bad);
      }
    }
  }

  std::vector<Fr> public_inputs(std::size_t i, const r1cs::ProvingBuffers&) const override { return inputs_[ks_[i]]; }

 private:
  /// Circuit partition k, its public inputs checked against those a verifier derives.
  porep::PoRepCircuit partition_circuit(std::size_t k) const {
    porep::PoRepCircuit circuit(shape_, porep::partition_inputs(*c1_, k));
    if (circuit.public_inputs() != inputs_[k]) {
      throw ProoflineError(Error::BadC1Json,
                           source_ + ": partition " + std::to_string(k) +
                               ": the challenged nodes or the paths' node indices differ from the challenges "
                               "(from the seed) and graph parents a verifier derives");
    }
    return circuit;
  }

  /// Witness-only synthesis of a partition's circuit into `buf` (the compiled form): the input
  /// assignment, the aux assignment packed, the densities and the compiled circuit.
  void synthesize_compiled(const porep::PoRepCircuit& circuit, const Srs& srs, r1cs::ProvingBuffers& buf) const {
    const porep::PoRepCounts counts = porep::count_porep(shape_);
    synthesize_witness(circuit,
                       compiled_circuit("porep-c2", key_, params_, srs.params, circuit,
                                        r1cs::CircuitShape{counts.constraints + counts.inputs, counts.inputs, counts.aux}),
                       srs.params, buf);
  }

  /// Constraint `bad` of circuit partition k is unsatisfied: the error naming it, its challenge and
  /// what the vanilla proofs' own check says.
  [[noreturn]] void throw_unsatisfied(std::size_t k, std::size_t bad) const {
    std::vector<std::uint64_t> nodes;
    for (const auto& v : c1_->vanilla_proofs[k]) nodes.push_back(v.challenge());
    std::string msg = source_ + ": partition " + std::to_string(k) + ", constraint " + std::to_string(bad) +
                      " unsatisfied: " + porep::locate_constraint(porep::count_porep(shape_), nodes, bad);
    // The vanilla proofs' own check says which Merkle path or label is wrong, where it can tell.
    const filecoin::VanillaCheck vc = filecoin::verify_vanilla(*c1_);
    if (!vc.ok) msg += "; vanilla check: " + vc.what;
    throw ProoflineError(Error::BadC1Json, msg);
  }

  std::string source_;
  std::shared_ptr<const filecoin::SealCommitPhase1Output> c1_;  ///< the caller's (parsed_input) or read here
  filecoin::PorepConfig cfg_;
  porep::PoRepShape shape_;
  std::string params_, key_;  // key_: params_ + file_version(params_)
  bool check_constraints_;
  bool compiled_;  ///< argument `compiled`: partitions in the compiled form (porep_compiled_circuit)
  std::vector<std::vector<Fr>> inputs_;  ///< per circuit partition, as a verifier derives them
  std::vector<std::size_t> ks_;          ///< the circuit partitions proved (all, or the one of 'partition')
};

class PoRepC2Kind final : public ProofKind {
 public:
  std::string_view name() const override { return "porep-c2"; }
  std::string_view description() const override {
    return "Filecoin PoRep commit phase 2 of one sector: one partition per circuit partition of the C1's proof "
           "(1 up to 512 MiB, 10 for 32/64 GiB), proofs concatenated in partition order as `proofline c2` writes them";
  }
  std::vector<ArgSpec> arguments() const override {
    return {ArgSpec("c1", ArgType::File,
                    "the sector's C1 output JSON (SealCommitPhase1Output, as filecoin-proofs or `proofline gen-c1` "
                    "write it)")
                .require()
                .or_payload(),
            ArgSpec("params", ArgType::File,
                    "the PoRep .params file (default: a preloaded set of the C1's sector size unless param_cache is "
                    "given, else param_cache / the upstream file name of the C1's proof)")
                .names_srs(),
            param_cache_arg(),
            ArgSpec("prover_id", ArgType::Hex, "the prover id; the C1's replica_id must be the one it and sector_id derive")
                .of_bytes(32)
                .needing("sector_id"),
            ArgSpec("sector_id", ArgType::Int, "the sector number").needing("prover_id"),
            ArgSpec("registered_proof", ArgType::Int,
                    "when given: the C1's registered seal proof must be this one (go-state-types abi numbers: 0-4 "
                    "StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, 5-9 V1_1, 10-14 V1_1 synthetic, 15-19 V1_2 "
                    "non-interactive)")
                .range(0, 19),
            ArgSpec("sector_size", ArgType::Int, "when given: the C1's sector size must be this one (bytes)"),
            ArgSpec("check_constraints", ArgType::Bool,
                    "check every constraint after synthesis and name the failing challenge (compiled form: when the "
                    "proofs fail their self-check, which then names it)")
                .defaults_to("1"),
            compiled_arg("1"),
            ArgSpec("partition", ArgType::Int,
                    "prove only this circuit partition (0-based, below the C1's partitions), as `proofline c2 "
                    "--partition`")
                .defaults_to("all")};
  }

  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override { return prepare_using(r, {}); }

  /// Without 'params' and 'param_cache': the preloaded set of the C1's circuit (its counts) when
  /// there is one, before the parameter cache's file.
  std::shared_ptr<const KindJob> prepare_preloaded(const ProofRequest& r,
                                                   std::span<const PreloadedSrs> preloaded) const override {
    return prepare_using(r, preloaded);
  }

 private:
  std::shared_ptr<const KindJob> prepare_using(const ProofRequest& r, std::span<const PreloadedSrs> preloaded) const {
    const std::string c1_path = arg_or(r, "c1", "");
    std::shared_ptr<const filecoin::SealCommitPhase1Output> parsed;
    std::string source;
    using Given = std::shared_ptr<const filecoin::SealCommitPhase1Output>;
    if (const Given* given = std::any_cast<Given>(&r.parsed_input); given != nullptr && *given) {
      // Read and validated by the caller (the CLI's c2): not read again.
      parsed = *given;
      source = c1_path.empty() ? std::string("C1 (parsed by the caller)") : "C1 '" + c1_path + "'";
    } else if (r.parsed_input.has_value()) {
      throw std::invalid_argument("kind 'porep-c2': the request's parsed input is not a C1 (SealCommitPhase1Output)");
    } else if (!c1_path.empty()) {
      source = "C1 '" + c1_path + "'";
      std::error_code ec;
      if (!fs::is_regular_file(c1_path, ec)) {
        throw std::invalid_argument("kind 'porep-c2': " + source + " not found (or not a regular file)");
      }
      parsed = std::make_shared<const filecoin::SealCommitPhase1Output>(filecoin::read_c1_file(c1_path));
    } else if (!r.payload.empty()) {
      source = "C1 JSON (request payload)";
      try {
        parsed = std::make_shared<const filecoin::SealCommitPhase1Output>(filecoin::parse_c1_json(
            std::string_view(reinterpret_cast<const char*>(r.payload.data()), r.payload.size())));
      } catch (const ProoflineError& e) {
        throw std::invalid_argument(source + ": " + e.what());
      }
    } else {
      throw std::invalid_argument("kind 'porep-c2' needs the argument 'c1' (a C1 JSON path) or the C1 JSON as the payload");
    }
    const filecoin::SealCommitPhase1Output& c1 = *parsed;
    const filecoin::PorepConfig cfg = filecoin::porep_config(c1.registered_proof);
    if (c1.vanilla_proofs.size() != cfg.partitions) {
      throw ProoflineError(Error::BadC1Json, source + ": vanilla_proofs: " + std::to_string(c1.vanilla_proofs.size()) +
                                                 " partition(s), expected " + std::to_string(cfg.partitions) + " for " +
                                                 std::string(filecoin::to_string(c1.registered_proof)));
    }
    check_replica_id(r, c1, cfg, source);
    check_declared_proof(r, c1, source);
    std::string params = arg_or(r, "params", "");
    // A request that names its folder (param_cache) is served from there, not from a preload.
    if (params.empty() && arg_or(r, "param_cache", "").empty() && !preloaded.empty()) {
      const porep::PoRepCounts counts = porep::count_porep(porep::shape_for(cfg));
      if (const PreloadedSrs* p = find_preloaded(preloaded, counts.inputs, counts.aux)) params = p->params;
    }
    if (params.empty()) {
      const std::string dir = arg_or(r, "param_cache", filecoin::parameter_cache_dir().string());
      params = (fs::path(dir) / filecoin::parameter_file_name(cfg, ".params")).string();
    }
    std::error_code ec;
    if (!fs::is_regular_file(params, ec)) {
      throw std::invalid_argument("kind 'porep-c2': parameter file '" + params + "' not found (make it with `proofline " +
                                  "setup --circuit porep --sector-size " + std::string(cfg.shape->name) +
                                  "`, or give the argument 'params')");
    }
    params = canonical_params(params);
    const bool check = yes_no_arg(r, "check_constraints", "1") == "1";
    std::vector<std::size_t> ks;
    const std::string only = arg_or(r, "partition", "");
    if (!only.empty()) {
      const std::uint64_t k = parse_u64_arg("partition", only);
      if (k >= c1.vanilla_proofs.size()) {
        throw std::invalid_argument("argument 'partition' = " + only + ": " + source + " has " +
                                    std::to_string(c1.vanilla_proofs.size()) + " partition(s) (0 … " +
                                    std::to_string(c1.vanilla_proofs.size() - 1) + ")");
      }
      ks.push_back(static_cast<std::size_t>(k));
    } else {
      for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) ks.push_back(k);
    }
    const bool compiled = yes_no_arg(r, "compiled", "1") == "1";
    return std::make_shared<PoRepC2Job>(std::move(source), std::move(parsed), std::move(params), check, std::move(ks),
                                        compiled);
  }

 public:
  /// With a C1 (argument or payload): as prepare. Without one (engine.preload "porep-c2:<params>",
  /// PreloadSRS with only 'params'): the parameter file alone, under the key a request naming that
  /// file would use; 'params' is then required (the C1 names the upstream file otherwise).
  std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& r) const override {
    if (!arg_or(r, "c1", "").empty() || !r.payload.empty() || r.parsed_input.has_value()) return prepare(r);
    const std::string params = arg_or(r, "params", "");
    if (params.empty()) {
      throw std::invalid_argument("kind 'porep-c2': loading parameters without a C1 needs the argument 'params' "
                                  "(the .params file)");
    }
    std::error_code ec;
    if (!fs::is_regular_file(params, ec)) {
      throw std::invalid_argument("kind 'porep-c2': parameter file '" + params + "' not found (or not a regular file)");
    }
    const std::string canon = canonical_params(params);
    return std::make_shared<PoRepParamsOnlyJob>(canon, canon + file_version(canon),
                                                yes_no_arg(r, "compiled", "1") == "1");
  }

 private:
  /// The one spelling of a parameter path that keys the SRS cache (prepare and prepare_srs agree).
  static std::string canonical_params(const std::string& params) {
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(params, ec);
    return ec ? params : c.string();
  }

  /// With registered_proof / sector_size given: the C1's must be those (a request that says one sector
  /// and carries another is refused, whatever the C1 is).
  static void check_declared_proof(const ProofRequest& r, const filecoin::SealCommitPhase1Output& c1,
                                   const std::string& source) {
    const std::string proof = arg_or(r, "registered_proof", "");
    if (!proof.empty() && parse_u64_arg("registered_proof", proof) != static_cast<std::uint64_t>(c1.registered_proof)) {
      throw ProoflineError(Error::BadArgument,
                           "argument 'registered_proof' = " + proof + ", but " + source + " is a " +
                               std::string(filecoin::to_string(c1.registered_proof)) + " proof (" +
                               std::to_string(static_cast<std::uint64_t>(c1.registered_proof)) + ")");
    }
    const std::string size = arg_or(r, "sector_size", "");
    if (!size.empty() && parse_u64_arg("sector_size", size) != filecoin::sector_size(c1.registered_proof)) {
      throw ProoflineError(Error::BadArgument, "argument 'sector_size' = " + size + ", but " + source + " is of " +
                                                   std::to_string(filecoin::sector_size(c1.registered_proof)) +
                                                   "-byte sectors (" +
                                                   std::string(filecoin::to_string(c1.registered_proof)) + ")");
    }
  }

  /// With prover_id given: replica_id must be upstream's H(prover_id, sector_id, ticket, comm_d, porep_id).
  static void check_replica_id(const ProofRequest& r, const filecoin::SealCommitPhase1Output& c1,
                               const filecoin::PorepConfig& cfg, const std::string& source) {
    const std::string prover = arg_or(r, "prover_id", "");
    if (prover.empty()) return;
    const filecoin::Domain prover_id = parse_domain_hex("prover_id", prover);
    const std::uint64_t sector_id = parse_u64_arg("sector_id", arg_or(r, "sector_id", "0"));
    const filecoin::Domain want = filecoin::replica_id(prover_id, sector_id, c1.ticket, c1.comm_d, cfg.porep_id);
    if (want != c1.replica_id) {
      // The C1 may be fine: the ids given with it do not match it (an argument error, not a JSON one).
      throw ProoflineError(Error::BadArgument, source + ": replica_id is not the one of prover_id " + prover +
                                                 ", sector_id " + std::to_string(sector_id) +
                                                 " (with the C1's ticket, comm_d and porep_id)");
    }
  }
};

}  // namespace

PROOFLINE_REGISTER_KIND(porep_kind, std::make_shared<PoRepC2Kind>());

}  // namespace proofline::engine
