// Proof kinds: registry, helpers and the built-in kinds (include/proofline/engine/kind.hpp).
//
// snarkjs zkey + wtns (the "snarkjs" kind): the zkey becomes Parameters with its H section as it is
// (HForm::OddCoset) and the witness becomes partition buffers, both by groth16/snarkjs/circuit.hpp;
// every backend proves it (groth16/backend.hpp).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/engine/kind.hpp"
#include "proofline/groth16/prover.hpp"
#include "proofline/groth16/snarkjs/circuit.hpp"
#include "proofline/groth16/snarkjs/files.hpp"
#include "proofline/util/error.hpp"

namespace proofline::engine {

namespace sj = groth16::snarkjs;
using ff::Fr;

// ---- shared pieces --------------------------------------------------------------------------------

std::uint64_t parameters_bytes(const groth16::Parameters& p) {
  const std::uint64_t g1 = sizeof(ec::G1Affine), g2 = sizeof(ec::G2Affine);
  return g1 * (p.vk.ic.size() + p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) + g2 * p.b_g2.size();
}

std::uint64_t partition_buffer_bytes(const groth16::Parameters& p) {
  const std::uint64_t m = p.domain_size();
  const std::uint64_t vars = p.num_inputs() + p.num_aux();
  return sizeof(Fr) * (3 * m + vars) + 8 * ((p.num_aux() + 63) / 64 * 2 + (p.num_inputs() + 63) / 64);
}

void check_arguments(const ProofKind& kind, const ProofRequest& r) {
  const std::vector<std::string_view> declared = kind.arguments();
  for (const auto& [key, value] : r.args) {
    if (std::find(declared.begin(), declared.end(), key) != declared.end()) continue;
    std::string list;
    for (const auto& d : declared) list += (list.empty() ? "" : ", ") + std::string(d);
    throw std::invalid_argument("kind '" + std::string(kind.name()) + "' has no argument '" + key +
                                "' (its arguments: " + (list.empty() ? "none" : list) + ")");
  }
}

std::vector<Fr> KindJob::public_inputs(std::size_t, const r1cs::ProvingBuffers& buf) const {
  return groth16::public_inputs(buf);
}

bool KindJob::verify(const Srs& srs, const std::vector<groth16::Proof>& proofs,
                     const std::vector<std::vector<Fr>>& inputs) const {
  return groth16::verify_proofs_batch(srs.pvk, proofs, inputs);
}

void KindRegistry::add(std::shared_ptr<const ProofKind> kind) {
  if (!kind || kind->name().empty()) throw std::invalid_argument("KindRegistry::add: a kind needs a name");
  const std::string name(kind->name());
  if (kinds_.count(name) != 0) throw std::invalid_argument("KindRegistry::add: kind '" + name + "' registered twice");
  kinds_.emplace(name, std::move(kind));
}

const ProofKind* KindRegistry::find(std::string_view name) const {
  auto it = kinds_.find(name);
  return it == kinds_.end() ? nullptr : it->second.get();
}

std::vector<std::string> KindRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : kinds_) out.push_back(k);
  return out;
}

std::shared_ptr<KindRegistry> KindRegistry::builtin() {
  auto r = std::make_shared<KindRegistry>();
  r->add(make_bench_kind());
  r->add(make_mul_kind());
  r->add(make_snarkjs_kind());
  r->add(make_porep_c2_kind());
  return r;
}

const std::string& require_arg(const ProofRequest& r, const std::string& name) {
  auto it = r.args.find(name);
  if (it == r.args.end() || it->second.empty()) {
    throw std::invalid_argument("kind '" + r.kind + "' needs the argument '" + name + "'");
  }
  return it->second;
}

std::string arg_or(const ProofRequest& r, const std::string& name, const std::string& fallback) {
  auto it = r.args.find(name);
  return it == r.args.end() || it->second.empty() ? fallback : it->second;
}

unsigned parse_log_size_arg(const std::string& name, const std::string& s) {
  try {
    std::size_t used = 0;
    if (s.rfind("2^", 0) == 0) {
      const unsigned long k = std::stoul(s.substr(2), &used);
      if (used == s.size() - 2 && k < 64) return static_cast<unsigned>(k);
    } else {
      const unsigned long long n = std::stoull(s, &used);
      if (used == s.size() && n != 0 && (n & (n - 1)) == 0) return static_cast<unsigned>(__builtin_ctzll(n));
    }
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("argument '" + name + "' = '" + s + "': expected 2^k or a power of two (e.g. 2^16)");
}

std::uint64_t parse_u64_arg(const std::string& name, const std::string& s) {
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(s, &used);
    if (used == s.size() && !s.empty() && s[0] != '-') return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("argument '" + name + "' = '" + s + "': expected an unsigned integer");
}

std::string file_version(const std::string& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (ec) return "";
  const auto mtime = std::filesystem::last_write_time(path, ec);
  if (ec) return "";
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::file_clock::to_sys(mtime).time_since_epoch())
                      .count();  // ns since 1970 (file_clock's own epoch is not)
  return "#" + std::to_string(bytes) + "-" + std::to_string(ns);
}

namespace {

/// Absolute canonical path of an existing regular file, or a clear error.
std::string existing_file(const std::string& what, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::invalid_argument(what + " '" + path + "' not found (or not a regular file)");
  }
  return std::filesystem::weakly_canonical(path, ec).string();
}

std::shared_ptr<const Srs> make_srs(std::string key, groth16::Parameters params, std::shared_ptr<const void> extra,
                                    std::uint64_t extra_bytes) {
  auto srs = std::make_shared<Srs>();
  srs->key = std::move(key);
  srs->pvk = groth16::prepare_verifying_key(params.vk);
  srs->bytes = parameters_bytes(params) + extra_bytes;
  srs->params = std::move(params);
  srs->extra = std::move(extra);
  return srs;
}

// ---- built-in circuits (bench, mul) ---------------------------------------------------------------

class BuiltinJob final : public KindJob {
 public:
  /// `checked`: subgroup-check every point of the parameter file on load (else on-curve only).
  BuiltinJob(std::string circuit, std::string path, unsigned log_rows, std::size_t n, std::uint64_t input,
             bool checked = false)
      : circuit_(std::move(circuit)), path_(std::move(path)),
        key_(path_ + file_version(path_) + (checked ? "#subgroup-checked" : "")), log_(log_rows), n_(n), input_(input),
        checked_(checked) {}
  std::size_t num_partitions() const override { return n_; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    progress(0);
    // On-curve checks only unless asked (as Filecoin loads its parameter cache): every proof is verified anyway.
    groth16::Parameters p = groth16::Parameters::read_file(
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
};

class BuiltinKind final : public ProofKind {
 public:
  explicit BuiltinKind(std::string circuit) : circuit_(std::move(circuit)) {
    description_ = circuit_ == "bench"
                       ? "built-in SizedCircuit of exactly 2^k rows; args params, size, partitions, input, checked"
                       : "built-in a*b = c circuit; args params, partitions, input, checked";
  }
  std::string_view name() const override { return circuit_; }
  std::string_view description() const override { return description_; }
  std::vector<std::string_view> arguments() const override {
    if (circuit_ == "bench") return {"params", "size", "partitions", "input", "checked"};
    return {"params", "partitions", "input", "checked"};
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
    if (n == 0 || n > 4096) throw std::invalid_argument("argument 'partitions' must be 1 … 4096, got " + std::to_string(n));
    const std::uint64_t input = parse_u64_arg("input", arg_or(r, "input", "1"));
    const std::string checked = arg_or(r, "checked", "0");
    if (checked != "0" && checked != "1") {
      throw std::invalid_argument("argument 'checked' = '" + checked + "': expected 0 or 1");
    }
    return std::make_shared<BuiltinJob>(circuit_, path, log, static_cast<std::size_t>(n), input, checked == "1");
  }
  std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& r) const override {  // the file alone
    return std::make_shared<BuiltinJob>(circuit_, existing_file("parameter file", require_arg(r, "params")), 0, 1, 1);
  }

 private:
  std::string circuit_, description_;
};

// ---- snarkjs zkey + wtns --------------------------------------------------------------------------

/// The zkey as Parameters (h_form OddCoset, the H section unchanged) with its ZkeyCircuit as the
/// Srs extra. `checked`: subgroup-check every point of the big sections (else on-curve only).
std::shared_ptr<const Srs> load_zkey(const std::string& key, const std::string& path, bool checked,
                                     const std::function<void(double)>& progress) {
  progress(0);
  sj::Zkey z = sj::Zkey::read_file(path, sj::ZkeyReadOptions{checked ? ec::Check::Subgroup : ec::Check::OnCurveOnly});
  progress(0.8);
  sj::ZkeyParameters zp = sj::zkey_parameters(std::move(z));
  auto circuit = std::make_shared<const sj::ZkeyCircuit>(std::move(zp.circuit));
  const std::uint64_t extra = circuit->bytes();
  auto srs = make_srs(key, std::move(zp.params), circuit, extra);
  progress(1);
  return srs;
}

class SnarkjsJob final : public KindJob {
 public:
  /// `wtns_name`: the witness' source for messages (its path, or "request payload (.wtns)").
  SnarkjsJob(std::string zkey, bool checked, sj::Witness w, std::string wtns_name)
      : zkey_(std::move(zkey)),
        key_("snarkjs:" + zkey_ + file_version(zkey_) + (checked ? "#subgroup-checked" : "")),
        checked_(checked),
        w_(std::move(w)),
        wtns_name_(std::move(wtns_name)) {}
  std::size_t num_partitions() const override { return 1; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    return load_zkey(srs_key(), zkey_, checked_, progress);
  }
  void check(const Srs& srs) const override {
    sj::check_witness_matches(circuit(srs).n_vars, w_, "'" + zkey_ + "'", wtns_name_);
  }
  std::uint64_t partition_bytes(const Srs& srs) const override { return partition_buffer_bytes(srs.params); }
  void synthesize(std::size_t, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    sj::synthesize(circuit(srs), w_, buf, "'" + zkey_ + "'", wtns_name_);
  }

 private:
  static const sj::ZkeyCircuit& circuit(const Srs& srs) { return *static_cast<const sj::ZkeyCircuit*>(srs.extra.get()); }
  std::string zkey_, key_;  // key_: "snarkjs:" + zkey_ + file_version(zkey_) [+ "#subgroup-checked"]
  bool checked_;
  sj::Witness w_;
  std::string wtns_name_;
};

class SnarkjsKind final : public ProofKind {
 public:
  std::string_view name() const override { return "snarkjs"; }
  std::string_view description() const override {
    return "circom/snarkjs Groth16 (BLS12-381); args zkey, wtns (or the .wtns bytes as payload), checked";
  }
  std::vector<std::string_view> arguments() const override { return {"zkey", "wtns", "checked"}; }
  std::shared_ptr<const KindJob> prepare(const ProofRequest& r) const override {
    const std::string zkey = existing_file("zkey file", require_arg(r, "zkey"));
    const std::string wtns = arg_or(r, "wtns", "");
    sj::Witness w;
    std::string wtns_name;
    if (!wtns.empty()) {
      wtns_name = existing_file("witness file", wtns);
      w = sj::Witness::read_file(wtns_name);
    } else if (!r.payload.empty()) {
      wtns_name = "request payload (.wtns)";
      w = sj::Witness::from_bytes(r.payload, wtns_name);
    } else {
      throw std::invalid_argument("kind 'snarkjs' needs the argument 'wtns' or the .wtns bytes as the payload");
    }
    return std::make_shared<SnarkjsJob>(zkey, checked_arg(r), std::move(w), std::move(wtns_name));
  }
  std::shared_ptr<const KindJob> prepare_srs(const ProofRequest& r) const override {  // no witness needed
    return std::make_shared<SnarkjsJob>(existing_file("zkey file", require_arg(r, "zkey")), checked_arg(r),
                                        sj::Witness{}, "");
  }

 private:
  static bool checked_arg(const ProofRequest& r) {
    const std::string checked = arg_or(r, "checked", "0");
    if (checked != "0" && checked != "1") {
      throw std::invalid_argument("argument 'checked' = '" + checked + "': expected 0 or 1");
    }
    return checked == "1";
  }
};

}  // namespace

std::shared_ptr<const ProofKind> make_bench_kind() { return std::make_shared<BuiltinKind>("bench"); }
std::shared_ptr<const ProofKind> make_mul_kind() { return std::make_shared<BuiltinKind>("mul"); }
std::shared_ptr<const ProofKind> make_snarkjs_kind() { return std::make_shared<SnarkjsKind>(); }

}  // namespace proofline::engine
