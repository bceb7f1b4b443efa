// The built-in circuits as kinds: "bench" (circuits::bench::SizedCircuit, exactly 2^size rows) and
// "mul" (circuits::bench::MulCircuit, a·b = c), proved from a bellperson .params file made by
// `proofline setup --circuit bench|mul` (include/proofline/engine/kind.hpp; arguments: docs/kinds.md).
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/util/error.hpp"

namespace proofline::engine {

namespace {

using ff::Fr;

/// The most partitions one request of these kinds takes.
constexpr std::uint64_t kMaxPartitions = 4096;

class BuiltinJob final : public KindJob {
 public:
  /// `checked`: subgroup-check every point of the parameter file on load (else on-curve only).
  BuiltinJob(std::string circuit, std::string path, unsigned log_rows, std::size_t n, std::uint64_t input,
             bool checked = false, bool compiled = false)
      : circuit_(std::move(circuit)), path_(std::move(path)),
        key_(path_ + file_version(path_) + (checked ? "#subgroup-checked" : "")), log_(log_rows), n_(n), input_(input),
        checked_(checked), compiled_(compiled) {}
  std::size_t num_partitions() const override { return n_; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const r1cs::CompiledCircuit> compiled_form(const Srs&) const override {
    return compiled_ ? held_compiled_circuit(key_) : nullptr;
  }
  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    progress(0);
    // On-curve checks only unless asked (as Filecoin loads its parameter cache): every proof is verified anyway.
    groth16::Parameters p = groth16::load_parameters(
        path_, groth16::ReadOptions{checked_ ? ec::Check::Subgroup : ec::Check::OnCurveOnly});
    progress(1);
    return make_srs(key_, std::move(p), nullptr, 0);
  }
  void check(const Srs& srs) const override {
    if (circuit_ == "bench" && srs.params.domain_size() != (std::size_t{1} << log_)) {
      throw ProoflineError(Error::BadLength, "kind 'bench' size 2^" + std::to_string(log_) +
                                                 " does not match the parameter file '" + path_ + "': domain got " +
                                                 std::to_string(std::size_t{1} << log_) + ", expected " +
                                                 std::to_string(srs.params.domain_size()));
    }
    const std::size_t want_inputs = circuit_ == "bench" ? circuits::bench::SizedCircuit::kNumInputs : 2;
    if (srs.params.num_inputs() != want_inputs) {
      throw ProoflineError(Error::BadLength, "kind '" + circuit_ + "': parameter file '" + path_ +
                                                 "' has the wrong number of public inputs (incl. ONE): got " +
                                                 std::to_string(srs.params.num_inputs()) + ", expected " +
                                                 std::to_string(want_inputs));
    }
  }
  void synthesize(std::size_t k, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    // The circuits of circuits::bench::make_circuit(circuit_, log_, input_ + k), without its native
    // computation of the public inputs (the prover's buffers hold them).
    const std::uint64_t seed = input_ + k;
    std::unique_ptr<r1cs::CircuitInterface> circuit;
    if (circuit_ == "bench") {
      circuit = std::make_unique<circuits::bench::SizedCircuit>(log_, Fr::from_u64(seed));
    } else {
      circuit = std::make_unique<circuits::bench::MulCircuit>(Fr::from_u64(seed + 3), Fr::from_u64(seed + 11));
    }
    const auto& p = srs.params;
    if (compiled_) {  // witness only; the backend evaluates the constraints (compiled_circuit)
      synthesize_witness(*circuit, compiled_circuit(circuit_, key_, path_, p, *circuit, std::nullopt), p, buf);
      return;
    }
    const std::size_t rows = circuit_ == "bench" ? (std::size_t{1} << log_) : p.domain_size();
    synthesize_into(buf, [&](r1cs::ProvingAssignment& cs) {
      cs.reserve(rows, p.num_inputs(), p.num_aux());
      r1cs::synthesize(*circuit, cs);
    });
  }

 private:
  std::string circuit_, path_, key_;  // key_: path_ + file_version(path_)
  unsigned log_;
  std::size_t n_;
  std::uint64_t input_;
  bool checked_;
  bool compiled_;  ///< argument `compiled`: partitions in the compiled form
};

class BuiltinKind final : public ProofKind {
 public:
  explicit BuiltinKind(std::string circuit) : circuit_(std::move(circuit)) {
    description_ = circuit_ == "bench"
                       ? "The built-in SizedCircuit of exactly 2^size constraint rows (as `proofline prove --circuit "
                         "bench`); public inputs x and y"
                       : "The built-in a·b = c circuit, c public (as `proofline prove --circuit mul`)";
  }
  std::string_view name() const override { return circuit_; }
  std::string_view description() const override { return description_; }
  std::vector<ArgSpec> arguments() const override {
    const bool bench = circuit_ == "bench";
    std::vector<ArgSpec> a;
    a.push_back(ArgSpec("params", ArgType::File, "the bellperson .params file (proofline setup --circuit " + circuit_ + ")")
                    .require()
                    .names_srs());
    if (bench) {
      a.push_back(ArgSpec("size", ArgType::Size, "constraint rows; must match the parameter file")
                      .require()
                      .range(circuits::bench::SizedCircuit::kMinLog, circuits::bench::SizedCircuit::kMaxLog));
    }
    a.push_back(ArgSpec("partitions", ArgType::Int, "circuits proved in this request (partition k uses input + k)")
                    .defaults_to("1")
                    .range(1, kMaxPartitions));
    a.push_back(ArgSpec("input", ArgType::Int,
                        bench ? "witness seed: partition k proves SizedCircuit(size, x = input + k)"
                              : "witness seed: partition k proves a = input + k + 3, b = input + k + 11")
                    .defaults_to("1"));
    a.push_back(ArgSpec("checked", ArgType::Bool,
                        "subgroup-check every point of the parameter file on load (else on-curve only; the SRS key "
                        "then ends in #subgroup-checked)")
                    .defaults_to("0"));
    a.push_back(compiled_arg());
    return a;
  }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    const std::string path = existing_file("parameter file", require_arg(r, "params"));
    unsigned log = 0;
    if (circuit_ == "bench") {
      log = parse_log_size_arg("size", require_arg(r, "size"));
      if (log < circuits::bench::SizedCircuit::kMinLog || log > circuits::bench::SizedCircuit::kMaxLog) {
        throw std::invalid_argument("argument 'size' = 2^" + std::to_string(log) + ": the bench circuit takes 2^" +
                                    std::to_string(circuits::bench::SizedCircuit::kMinLog) + " … 2^" +
                                    std::to_string(circuits::bench::SizedCircuit::kMaxLog));
      }
    }
    const std::uint64_t n = parse_u64_arg("partitions", arg_or(r, "partitions", "1"));
    if (n == 0 || n > kMaxPartitions) {
      throw std::invalid_argument("argument 'partitions' must be 1 … " + std::to_string(kMaxPartitions) + ", got " +
                                  std::to_string(n));
    }
    const std::uint64_t input = parse_u64_arg("input", arg_or(r, "input", "1"));
    const std::string checked = arg_or(r, "checked", "0");
    if (checked != "0" && checked != "1") {
      throw std::invalid_argument("argument 'checked' = '" + checked + "': expected 0 or 1");
    }
    return std::make_shared<BuiltinJob>(circuit_, path, log, static_cast<std::size_t>(n), input, checked == "1",
                                        compiled_arg_of(r));
  }
  /// The file alone; 'compiled' = 1: the requests after the preload take the compiled form (the
  /// engine warms buffers of that form).
  std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& r) const override {
    return std::make_shared<BuiltinJob>(circuit_, existing_file("parameter file", require_arg(r, "params")), 0, 1, 1,
                                        false, compiled_arg_of(r));
  }

 private:
  /// Argument 'compiled' ("0" when absent); anything but 0 or 1 is refused by name.
  static bool compiled_arg_of(const ProofRequest& r) {
    const std::string compiled = arg_or(r, "compiled", "0");
    if (compiled != "0" && compiled != "1") {
      throw std::invalid_argument("argument 'compiled' = '" + compiled + "': expected 0 or 1");
    }
    return compiled == "1";
  }

  std::string circuit_, description_;
};

}  // namespace

PROOFLINE_REGISTER_KIND(bench_kind, std::make_shared<BuiltinKind>("bench"), std::make_shared<BuiltinKind>("mul"));

}  // namespace proofline::engine
