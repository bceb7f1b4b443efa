// Proof kinds: the registry, helpers for kinds, and the "snarkjs" kind (include/proofline/engine/kind.hpp).
//
// snarkjs zkey + wtns (the "snarkjs" kind): the zkey becomes Parameters with its H section as it is
// (HForm::OddCoset) and the witness becomes partition buffers, both by groth16/snarkjs/circuit.hpp;
// every backend proves it (groth16/backend.hpp).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "proofline/engine/kind.hpp"
#include "proofline/filecoin/sector.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/groth16/prover.hpp"
#include "proofline/groth16/snarkjs/circuit.hpp"
#include "proofline/groth16/snarkjs/files.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/hex.hpp"

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

std::uint64_t witness_buffer_bytes(const groth16::Parameters& p) {
  const std::uint64_t aux_words = (p.num_aux() + 63) / 64, in_words = (p.num_inputs() + 63) / 64;
  // packed aux: is_bit and bits (2 words per 64 values), the u32 prefix counts, every value an other
  const std::uint64_t packed = sizeof(Fr) * p.num_aux() + 16 * aux_words + 4 * aux_words;
  return sizeof(Fr) * p.num_inputs() + packed + 8 * (aux_words * 2 + in_words);
}

std::vector<Fr> KindJob::public_inputs(std::size_t, const r1cs::ProvingBuffers& buf) const {
  return groth16::public_inputs(buf);
}

bool KindJob::verify(const Srs& srs, const std::vector<groth16::Proof>& proofs,
                     const std::vector<std::vector<Fr>>& inputs) const {
  return groth16::verify_proofs_batch(srs.pvk, proofs, inputs);
}

void KindJob::explain_failed_check(const Srs&) const {}

namespace detail {
/// Defined in the generated kind_files.cpp (CMakeLists.txt): reads the link anchor of every
/// src/engine/*_kind.cpp, so that a static link keeps those files and their registrars.
int kind_files_linked();
}  // namespace detail

namespace {
/// The kinds KindRegistrars added, in registration order (static initialization: one thread).
std::vector<std::shared_ptr<const ProofKind>>& registered_kinds() {
  static std::vector<std::shared_ptr<const ProofKind>> kinds;
  return kinds;
}
}  // namespace

KindRegistrar::KindRegistrar(std::initializer_list<std::shared_ptr<const ProofKind>> kinds) {
  for (const auto& k : kinds) registered_kinds().push_back(k);
}

void KindRegistry::add(std::shared_ptr<const ProofKind> kind) {
  if (!kind || kind->name().empty()) throw std::invalid_argument("KindRegistry::add: a kind needs a name");
  const std::string name(kind->name());
  if (kinds_.count(name) != 0) throw std::invalid_argument("KindRegistry::add: kind '" + name + "' registered twice");
  check_declarations(name, kind->arguments());
  kinds_.emplace(name, std::move(kind));
}

const ProofKind* KindRegistry::find(std::string_view name) const {
  auto it = kinds_.find(name);
  return it == kinds_.end() ? nullptr : it->second.get();
}

std::shared_ptr<const ProofKind> KindRegistry::get(std::string_view name) const {
  auto it = kinds_.find(name);
  if (it != kinds_.end()) return it->second;
  std::string known;
  for (const auto& [k, v] : kinds_) known += (known.empty() ? "" : ", ") + k;
  throw std::invalid_argument("unknown proof kind '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<std::string> KindRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : kinds_) out.push_back(k);
  return out;
}

std::vector<std::shared_ptr<const ProofKind>> KindRegistry::all() const {
  std::vector<std::shared_ptr<const ProofKind>> out;
  for (const auto& [k, v] : kinds_) out.push_back(v);
  return out;
}

std::shared_ptr<KindRegistry> KindRegistry::builtin() {
  (void)detail::kind_files_linked();
  auto r = std::make_shared<KindRegistry>();
  for (const auto& k : registered_kinds()) r->add(k);
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

std::array<std::uint8_t, 32> parse_fr_bytes_arg(const std::string& name, const std::string& s,
                                                const std::string& hint) {
  std::array<std::uint8_t, 32> d{};
  if (!from_hex(s, d)) {
    throw std::invalid_argument("argument '" + name + "': expected 64 hex digits (32 bytes), got '" + s + "'");
  }
  Fr f;
  if (Fr::from_bytes_le(f, d) != Error::Ok) {
    throw std::invalid_argument("argument '" + name + "' = " + s + ": 32 bytes little-endian >= r" + hint);
  }
  return d;
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
  std::string v = "#";  // appended piecewise: GCC 12's -Wrestrict misfires on "#" + to_string(…) here
  v += std::to_string(bytes);
  v += '-';
  v += std::to_string(ns);
  return v;
}

std::string existing_file(const std::string& what, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::invalid_argument(what + " '" + path + "' not found (or not a regular file)");
  }
  return std::filesystem::weakly_canonical(path, ec).string();
}

std::string read_text_file(const std::string& what, const std::string& path, std::uint64_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::invalid_argument(what + " '" + path + "' not found (or not a regular file)");
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    throw ProoflineError(Error::BadLength, what + " '" + path + "': " + std::to_string(size) + " bytes, at most " +
                                               std::to_string(max_bytes));
  }
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string file_or_payload_text(const ProofRequest& r, const std::string& arg, const std::string& what,
                                 std::uint64_t max_bytes) {
  const std::string path = arg_or(r, arg, "");
  if (!path.empty()) return read_text_file(what, path, max_bytes);
  if (!r.payload.empty()) {
    if (r.payload.size() > max_bytes) {
      throw ProoflineError(Error::BadLength, what + " (the request payload): " + std::to_string(r.payload.size()) +
                                                 " bytes, at most " + std::to_string(max_bytes));
    }
    return std::string(reinterpret_cast<const char*>(r.payload.data()), r.payload.size());
  }
  throw std::invalid_argument("kind '" + r.kind + "' needs the argument '" + arg + "' or " + what + " as the payload");
}

ArgSpec param_cache_arg() {
  return ArgSpec("param_cache", ArgType::Dir,
                 "the folder holding the parameters under their upstream names, when params is not given")
      .defaults_to("$FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters");
}

std::string upstream_params_path(const ProofRequest& r, const std::string& file_name) {
  const std::string dir = arg_or(r, "param_cache", filecoin::parameter_cache_dir().string());
  return (std::filesystem::path(dir) / file_name).string();
}

std::string canonical_params_path(const std::string& kind, const std::string& setup_circuit, const std::string& params) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(params, ec)) {
    throw std::invalid_argument("kind '" + kind + "': parameter file '" + params +
                                "' not found (make it with `proofline setup --circuit " + setup_circuit +
                                " --sector-size S`, or give the argument 'params')");
  }
  const std::filesystem::path c = std::filesystem::weakly_canonical(params, ec);
  return ec ? params : c.string();
}

void check_circuit_params(const std::string& path, const std::string& what, std::size_t n_inputs, std::size_t n_aux,
                          std::size_t inputs, std::size_t aux) {
  if (n_inputs == inputs && n_aux == aux) return;
  throw ProoflineError(Error::BadLength, "parameter file '" + path + "' is not for " + what + ": it has " +
                                             std::to_string(n_inputs) + " public inputs (incl. ONE) and " +
                                             std::to_string(n_aux) + " aux variables, the circuit has " +
                                             std::to_string(inputs) + " and " + std::to_string(aux));
}

std::shared_ptr<const Srs> load_circuit_params(const std::string& key, const std::string& path,
                                               const std::function<void(std::size_t, std::size_t)>& check_counts,
                                               const std::function<void(double)>& progress) {
  progress(0);
  if (check_counts) {
    const auto walk =
        groth16::walk_param_layout(path, groth16::ParamFileKind::Params, std::filesystem::file_size(path));
    if (walk.counts.size() >= 3) check_counts(walk.counts[0], walk.counts[2]);
  }
  // The one loader (groth16::load_parameters): a header shell whose queries stay in the file when every
  // backend is a GPU backend (they go from the file to the device), a whole host copy otherwise.
  groth16::Parameters p = groth16::load_parameters(path, groth16::ReadOptions{ec::Check::OnCurveOnly});
  progress(1);
  return make_srs(key, std::move(p), nullptr, 0);
}

namespace {

class ParamsOnlyJob final : public KindJob {
 public:
  ParamsOnlyJob(std::string kind, std::string params, std::function<void(std::size_t, std::size_t)> check_counts)
      : kind_(std::move(kind)),
        params_(std::move(params)),
        key_(params_ + file_version(params_)),
        check_counts_(std::move(check_counts)) {}
  std::size_t num_partitions() const override { return 1; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    return load_circuit_params(key_, params_, check_counts_, progress);
  }
  void check(const Srs&) const override {}
  void synthesize(std::size_t, const Srs&, r1cs::ProvingBuffers&) const override {
    throw std::logic_error("kind '" + kind_ + "': a parameter-only job (preload) has no partition to synthesize");
  }

 private:
  std::string kind_, params_, key_;
  std::function<void(std::size_t, std::size_t)> check_counts_;
};

}  // namespace

std::shared_ptr<const KindJob> params_only_job(std::string kind, std::string params,
                                               std::function<void(std::size_t, std::size_t)> check_counts) {
  return std::make_shared<ParamsOnlyJob>(std::move(kind), std::move(params), std::move(check_counts));
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

namespace {

// ---- snarkjs zkey + wtns --------------------------------------------------------------------------

/// The zkey as Parameters (h_form OddCoset, the H section unchanged) with its ZkeyCircuit as the
/// Srs extra. `checked`: subgroup-check every point of the big sections (else on-curve only).
/// The one loader's choice (groth16::host_queries(), as load_parameters makes it for .params): when
/// every backend is a GPU backend the points stay in the file (snarkjs::zkey_shell) and go from the
/// file to the device; otherwise the zkey is read whole into host memory.
std::shared_ptr<const Srs> load_zkey(const std::string& key, const std::string& path, bool checked,
                                     const std::function<void(double)>& progress) {
  progress(0);
  const sj::ZkeyReadOptions opts{checked ? ec::Check::Subgroup : ec::Check::OnCurveOnly};
  sj::ZkeyParameters zp = groth16::host_queries() == groth16::HostQueries::LeaveInFile
                              ? sj::zkey_shell(path, opts)
                              : sj::zkey_parameters(sj::Zkey::read_file(path, opts));
  progress(0.8);
  auto circuit = std::make_shared<const sj::ZkeyCircuit>(std::move(zp.circuit));
  const std::uint64_t extra = circuit->bytes();
  auto srs = make_srs(key, std::move(zp.params), circuit, extra);
  progress(1);
  return srs;
}

class SnarkjsJob final : public KindJob {
 public:
  /// `wtns_name`: the witness' source for messages (its path, or "request payload (.wtns)").
  SnarkjsJob(std::string zkey, bool checked, sj::Witness w, std::string wtns_name, bool compiled = true)
      : zkey_(std::move(zkey)),
        key_("snarkjs:" + zkey_ + file_version(zkey_) + (checked ? "#subgroup-checked" : "")),
        checked_(checked),
        compiled_(compiled),
        w_(std::move(w)),
        wtns_name_(std::move(wtns_name)) {}
  std::size_t num_partitions() const override { return 1; }
  std::string srs_key() const override { return key_; }
  std::shared_ptr<const r1cs::CompiledCircuit> compiled_form(const Srs&) const override {
    return compiled_ ? held_compiled_circuit(key_) : nullptr;
  }
  std::shared_ptr<const Srs> load_srs(const std::function<void(double)>& progress) const override {
    return load_zkey(srs_key(), zkey_, checked_, progress);
  }
  void check(const Srs& srs) const override {
    sj::check_witness_matches(circuit(srs).n_vars, w_, "'" + zkey_ + "'", wtns_name_);
  }
  std::uint64_t partition_bytes(const Srs& srs) const override { return partition_buffer_bytes(srs.params); }
  void synthesize(std::size_t, const Srs& srs, r1cs::ProvingBuffers& buf) const override {
    // The compiled form (the zkey's A and B as sparse rows, c = a·b; evaluated in parallel over the
    // rows, by the backend or at synthesis), or the zkey's entries added up here when there is none.
    if (compiled_) {
      if (auto cc = compiled_circuit_made("snarkjs", key_, [&] { return sj::compiled_circuit(circuit(srs)); })) {
        sj::synthesize_compiled(circuit(srs), w_, std::move(cc), buf, "'" + zkey_ + "'", wtns_name_);
        return;
      }
    }
    sj::synthesize(circuit(srs), w_, buf, "'" + zkey_ + "'", wtns_name_);
  }

 private:
  static const sj::ZkeyCircuit& circuit(const Srs& srs) { return *static_cast<const sj::ZkeyCircuit*>(srs.extra.get()); }
  std::string zkey_, key_;  // key_: "snarkjs:" + zkey_ + file_version(zkey_) [+ "#subgroup-checked"]
  bool checked_;
  bool compiled_;  ///< argument `compiled`
  sj::Witness w_;
  std::string wtns_name_;
};

class SnarkjsKind final : public ProofKind {
 public:
  std::string_view name() const override { return "snarkjs"; }
  std::string_view description() const override {
    return "A circom/snarkjs Groth16 circuit (BLS12-381) from its .zkey and a witness; one partition";
  }
  std::vector<ArgSpec> arguments() const override {
    return {ArgSpec("zkey", ArgType::File, "the circuit's .zkey (snarkjs groth16 setup, BLS12-381)")
                .require()
                .names_srs(),
            ArgSpec("wtns", ArgType::File, "the witness .wtns (snarkjs wtns calculate)")
                .require()
                .or_payload(),
            ArgSpec("checked", ArgType::Bool,
                    "1: subgroup-check every zkey point on load (else on-curve only; the SRS key then ends in "
                    "#subgroup-checked)")
                .defaults_to("0"),
            compiled_arg("1")};
  }
  std::string_view proof_format() const override { return "snarkjs"; }
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
    const std::string compiled_v = arg_or(r, "compiled", "1");
    if (compiled_v != "0" && compiled_v != "1") {
      throw std::invalid_argument("argument 'compiled' = '" + compiled_v + "': expected 0 or 1");
    }
    const bool compiled = compiled_v == "1";
    return std::make_shared<SnarkjsJob>(zkey, checked_arg(r), std::move(w), std::move(wtns_name), compiled);
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

PROOFLINE_REGISTER_KIND(kinds, std::make_shared<SnarkjsKind>());

}  // namespace proofline::engine
