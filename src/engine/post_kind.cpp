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
#include <stdexcept>
#include <utility>

#include "proofline/circuits/porep.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "proofline/util/error.hpp"

namespace proofline::engine {

namespace {

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
    const post::PoStCounts c = post::count_post(shape_);
    return load_circuit_params(key_, params_, filecoin::fallback_identifier(fp_), c.inputs, c.aux, progress);
  }

  void check(const Srs& srs) const override {
    const post::PoStCounts c = post::count_post(shape_);
    check_circuit_params(params_, filecoin::fallback_identifier(fp_), srs.params.num_inputs(), srs.params.num_aux(),
                         c.inputs, c.aux);
  }

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
            param_cache_arg(),
            ArgSpec("partition", ArgType::Int, "the WindowPoSt partition to prove (default: the request's)")
                .defaults_to("the request's partition_index"),
            ArgSpec("check_constraints", ArgType::Bool,
                    "check every constraint after synthesis and name the failing sector and challenge")
                .defaults_to("1")};
  }

  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    const std::string kind(name());
    filecoin::PoStRequest req = filecoin::parse_post_request_json(
        read_text_file("request", require_arg(r, "request"), filecoin::kMaxPoStJsonBytes));
    if (req.config.type != type_) {
      throw std::invalid_argument("kind '" + kind + "': the request is a " +
                                  std::string(filecoin::to_string(req.config.type)) + " PoSt request");
    }
    const std::string only = arg_or(r, "partition", "");
    if (!only.empty()) req.partition = parse_u64_arg("partition", only);
    const std::string vanilla_text =
        file_or_payload_text(r, "vanilla", "the vanilla proofs", filecoin::kMaxPoStJsonBytes);
    std::vector<filecoin::FallbackPoStSectorProof> proofs =
        filecoin::parse_vanilla_proofs_json(vanilla_text, req.config.sector_bytes, req.config.challenge_count);
    std::string params = filecoin_params_path(
        r, filecoin::fallback_parameter_file_name(filecoin::fallback_params(req.config), ".params"));
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
