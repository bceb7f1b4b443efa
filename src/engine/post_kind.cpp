// The "window-post" and "winning-post" kinds: Filecoin Fallback PoSt in the engine
// (include/proofline/engine/kind.hpp; arguments: docs/kinds.md).
//
// One job per request: one partition of WindowPoSt (the request's partition_index, or the argument
// 'partition'), or WinningPoSt's one. The inputs are the files `proofline gen-vanilla` writes and
// nodes send (filecoin/post_json.hpp): the request JSON (post type, sector size, API version, miner
// id, randomness, sectors with comm_r) and the vanilla proofs as a JSON array of base64 bincode
// FallbackPoStSectorProof (the argument 'vanilla' or the request payload). The partition is
// synthesized from the vanilla proofs (circuits/post, sectors as parallel parts), its public inputs are compared with the ones a
// verifier derives from randomness, sector ids and comm_r alone, every constraint is checked (a
// failure names the sector, challenge and constraint, check_post_partition), and the self-check
// verifies the proof against those derived inputs.
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "proofline/circuits/porep.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/util/error.hpp"

namespace proofline::engine {

namespace {

namespace fs = std::filesystem;
namespace post = circuits::post;
using ff::Fr;

class PoStJob final : public KindJob {
 public:
  PoStJob(filecoin::PoStRequest request, std::vector<filecoin::FallbackPoStSectorProof> proofs, std::string params,
          bool check_constraints)
      : req_(std::move(request)),
        fp_(filecoin::fallback_params(req_.config)),
        shape_(post::shape_for(fp_)),
        part_(filecoin::partition_sector_proofs(fp_, req_.public_inputs, proofs, req_.partition)),
        proofs_(std::move(proofs)),
        inputs_(post::post_public_inputs(fp_, req_.public_inputs, req_.partition)),
        params_(std::move(params)),
        key_(params_ + file_version(params_)),
        check_constraints_(check_constraints) {}

  std::size_t num_partitions() const override { return 1; }
  std::string srs_key() const override { return key_; }

  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    progress(0);
    // Section counts first (headers only): parameters of another circuit are named before any
    // point is read.
    const auto walk = groth16::walk_param_layout(params_, groth16::ParamFileKind::Params, fs::file_size(params_));
    if (walk.counts.size() >= 3) check_counts(walk.counts[0], walk.counts[2]);
    groth16::Parameters p = groth16::Parameters::read_file(params_, groth16::ReadOptions{ec::Check::OnCurveOnly});
    progress(1);
    return make_srs(key_, std::move(p), nullptr, 0);
  }

  void check(const Srs& srs) const override { check_counts(srs.params.num_inputs(), srs.params.num_aux()); }

  void synthesize(std::size_t, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    const post::FallbackPoStCircuit circuit(shape_, post::circuit_sectors(part_));
    if (circuit.public_inputs() != inputs_) {
      throw ProoflineError(Error::Malformed, "partition " + std::to_string(req_.partition) +
                                                 ": the vanilla proofs' challenged leaves or comm_r differ from those a "
                                                 "verifier derives from randomness, sector ids and comm_r (" +
                                                 post::check_post_partition(fp_, req_.public_inputs, proofs_, req_.partition)
                                                     .describe() +
                                                 ")");
    }
    synthesize_into(buf, [&](r1cs::ProvingAssignment& cs) {
      cs.reserve(srs.params.domain_size(), srs.params.num_inputs(), srs.params.num_aux());
      // Sectors as parallel parts (upstream's extensible path; the buffers of one thread).
      circuit.synthesize_parallel(cs);
      cs.finalize();
    });
    if (!check_constraints_) return;
    if (const auto bad = circuits::porep::first_unsatisfied(buf.a, buf.b, buf.c)) {
      const std::string where = post::locate_post_constraint(post::count_post(shape_), *bad);
      const filecoin::PoStVanillaCheck v = filecoin::verify_post_vanilla(fp_, req_.public_inputs, part_, req_.partition);
      throw ProoflineError(Error::Malformed, "partition " + std::to_string(req_.partition) + ", constraint " +
                                                 std::to_string(*bad) + " unsatisfied: " + where +
                                                 (v.ok ? "" : "; vanilla check: " + v.what));
    }
  }

  std::vector<Fr> public_inputs(std::size_t, const r1cs::ProvingBuffers&) const override { return inputs_; }

 private:
  void check_counts(std::size_t n_inputs, std::size_t n_aux) const {
    const post::PoStCounts c = post::count_post(shape_);
    if (n_inputs == c.inputs && n_aux == c.aux) return;
    throw ProoflineError(Error::BadLength, "parameter file '" + params_ + "' is not for " +
                                               filecoin::fallback_identifier(fp_) + ": it has " +
                                               std::to_string(n_inputs) + " public inputs (incl. ONE) and " +
                                               std::to_string(n_aux) + " aux variables, the circuit has " +
                                               std::to_string(c.inputs) + " and " + std::to_string(c.aux));
  }

  filecoin::PoStRequest req_;
  filecoin::FallbackParams fp_;
  post::FallbackPoStShape shape_;
  filecoin::PartitionSectors part_;
  std::vector<filecoin::FallbackPoStSectorProof> proofs_;
  std::vector<Fr> inputs_;  ///< as a verifier derives them
  std::string params_, key_;
  bool check_constraints_;
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
  std::vector<ArgSpec> arguments() const override {
    return {ArgSpec("request", ArgType::File,
                    "the request JSON: post type, sector size, API version, miner id, randomness, partition, sectors "
                    "with comm_r (as `proofline gen-vanilla` writes it)")
                .require(),
            ArgSpec("vanilla", ArgType::File,
                    "the vanilla proofs: a JSON array of base64 bincode FallbackPoStSectorProof (Curio's form)")
                .require()
                .or_payload(),
            ArgSpec("params", ArgType::File,
                    "the PoSt .params file (default: param_cache / the upstream file name of the circuit)")
                .names_srs(),
            ArgSpec("param_cache", ArgType::Dir,
                    "the folder holding the parameters under their upstream names, when params is not given")
                .defaults_to("$FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters"),
            ArgSpec("partition", ArgType::Int, "the WindowPoSt partition to prove (default: the request's)")
                .defaults_to("the request's partition_index"),
            ArgSpec("check_constraints", ArgType::Bool,
                    "check every constraint after synthesis and name the failing sector and challenge")
                .defaults_to("1")};
  }

  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    const std::string kind(name());
    filecoin::PoStRequest req = filecoin::parse_post_request_json(read_text_file("request", require_arg(r, "request"), filecoin::kMaxPoStJsonBytes));
    if (req.config.type != type_) {
      throw std::invalid_argument("kind '" + kind + "': the request is a " +
                                  std::string(filecoin::to_string(req.config.type)) + " PoSt request");
    }
    const std::string only = arg_or(r, "partition", "");
    if (!only.empty()) req.partition = parse_u64_arg("partition", only);
    std::string vanilla_text;
    const std::string vanilla = arg_or(r, "vanilla", "");
    if (!vanilla.empty()) {
      vanilla_text = read_text_file("vanilla proofs", vanilla, filecoin::kMaxPoStJsonBytes);
    } else if (!r.payload.empty()) {
      vanilla_text.assign(reinterpret_cast<const char*>(r.payload.data()), r.payload.size());
    } else {
      throw std::invalid_argument("kind '" + kind + "' needs the argument 'vanilla' or the vanilla proofs as the payload");
    }
    std::vector<filecoin::FallbackPoStSectorProof> proofs =
        filecoin::parse_vanilla_proofs_json(vanilla_text, req.config.sector_bytes, req.config.challenge_count);
    std::string params = arg_or(r, "params", "");
    if (params.empty()) {
      const std::string dir = arg_or(r, "param_cache", filecoin::parameter_cache_dir().string());
      params = (fs::path(dir) / filecoin::fallback_parameter_file_name(filecoin::fallback_params(req.config), ".params"))
                   .string();
    }
    std::error_code ec;
    if (!fs::is_regular_file(params, ec)) {
      throw std::invalid_argument("kind '" + kind + "': parameter file '" + params +
                                  "' not found (give the argument 'params')");
    }
    params = fs::weakly_canonical(params, ec).string();
    const std::string check = arg_or(r, "check_constraints", "1");
    return std::make_shared<PoStJob>(std::move(req), std::move(proofs), std::move(params), check == "1");
  }

 private:
  filecoin::PoStType type_;
};

}  // namespace

PROOFLINE_REGISTER_KIND(post_kind, std::make_shared<PoStKind>(filecoin::PoStType::Window),
                        std::make_shared<PoStKind>(filecoin::PoStType::Winning));

}  // namespace proofline::engine
