// proofline — the command line: setup, prove and verify Groth16 proofs for the built-in circuits,
// circom/snarkjs circuits and Filecoin PoRep C2.
//
//   proofline setup  --circuit bench --size 2^16 --params P [--vk V] [--seed S]
//   proofline prove  --circuit bench --size 2^16 --params P --proof F [--public J] [--snarkjs-dir D]
//                    [--input X] [--partitions K] [--checked] [--backend cpu|cuda|auto] [--memory-budget B]
//                                          through an engine started in the process (engine_client.hpp):
//                                          partitions streamed within the budget, every proof verified
//   proofline prove  --zkey Z --wtns W --proof proof.json --public public.json [...]
//                                          circom/snarkjs files (snarkjs_cmds.hpp), through the same
//                                          in-process engine; the circuit flags of the two forms
//                                          exclude each other (exit 2 when mixed)
//   proofline verify (--vk V | --params P) --proof F --public J
//   proofline setup --circuit porep --sector-size S | c2 --c1 C1 --out F | verify --vk V --c1 C1 --proof F
//                                          Filecoin PoRep C2 (porep_cmds.hpp)
//   proofline daemon | submit | status | kinds   the proving daemon and its clients (daemon_cmds.hpp)
//   proofline gen-c1 | seal | check-c1     Filecoin C1 files: generate, seal small sectors, check (filecoin_cmds.hpp)
//   proofline params check                 the parameter cache against the published digests (params_cmds.hpp)
//   proofline gen-vanilla | check-vanilla  Fallback PoSt vanilla proofs: generate, check; verify --post R
//                                          PoSt proofs from the verifier's inputs (post_cmds.hpp)
// Every command takes --json (one JSON object on stdout instead of text) and --threads N (0 … 4096).
// Files: .params/.vk in bellperson's layout, proofs as 192-byte bellperson proofs concatenated in
// partition order, public inputs as snarkjs public.json (an array of decimal strings; for several
// partitions an array of such arrays). --snarkjs-dir writes verification_key.json, proof.json and
// public.json for `snarkjs groth16 verify` (with --partitions K: proof_k.json and public_k.json,
// k = 0 … K-1).
//
// Exit codes (common.hpp): 0 success (verify: the proofs are valid); 1 a proof does not verify;
// 2 usage error (a bad flag, value or combination; an input file named on the command line that
// does not exist; an output path that cannot be written or that is an input or another output,
// check_output_paths); 3 bad input (a file that is malformed,
// of the wrong shape or inconsistent, a file the command looks up itself that is missing, a
// witness that does not satisfy the circuit; an output that cannot be written out: a full disk,
// a file-size limit); 4 internal error; daemon clients also 5 job not
// finished, 6 daemon unreachable.
#include <CLI/CLI.hpp>

#include "common.hpp"
#include "daemon_cmds.hpp"
#include "engine_client.hpp"
#include "filecoin_cmds.hpp"
#include "params_cmds.hpp"
#include "porep_cmds.hpp"
#include "post_cmds.hpp"
#include "snarkjs_cmds.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/util/json.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::cli;
using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

namespace {

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

/// "2^16", "65536" → 16. Sizes must be powers of two.
unsigned parse_log_size(const std::string& s) {
  // Digits only after the optional "2^" (no sign, blanks or suffix: " 2^10", "2^10x" and "2^-1"
  // are refused rather than read as something else).
  const bool pow = s.rfind("2^", 0) == 0;
  const std::string digits = pow ? s.substr(2) : s;
  if (!digits.empty() && digits.size() <= 19 && digits.find_first_not_of("0123456789") == std::string::npos) {
    const unsigned long long n = std::stoull(digits);
    if (pow && n < 64) return static_cast<unsigned>(n);
    if (!pow && n != 0 && (n & (n - 1)) == 0) return static_cast<unsigned>(__builtin_ctzll(n));
  }
  throw UsageError("--size " + s + ": expected 2^k or a power of two (e.g. 2^16 or 65536)");
}

struct Common {
  bool json = false;
  int threads = 0;
};

struct Output {
  Json j;
  bool json;
  void line(const std::string& s) const {
    if (!json) std::cout << s << "\n";
  }
  void finish() const {
    if (json) std::cout << j.dump(2) << "\n";
  }
};

std::string fmt_ms(double ms) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%10.1f ms", ms);
  return buf;
}

Json timings_json(const StageTimings& t) {
  return Json{{"evaluate", t.evaluate}, {"ntt", t.ntt},         {"msm_h", t.msm_h},       {"msm_l", t.msm_l},
              {"msm_a", t.msm_a},       {"msm_b_g1", t.msm_b_g1}, {"msm_b_g2", t.msm_b_g2},
              {"assemble", t.assemble}, {"total", t.total}};
}

std::string read_text(const std::string& path) {
  auto b = read_file_bytes(path);
  return std::string(b.begin(), b.end());
}

// ---- setup ----------------------------------------------------------------------------------------
struct SetupArgs {
  std::string circuit = "bench", size = "2^10", params, vk, backend = "cpu";
  std::optional<std::uint64_t> seed;
  bool discard = false;
};

/// The built-in circuit for setup (no witness: its public inputs are never computed) and its shape.
struct SetupCircuit {
  std::unique_ptr<r1cs::CircuitInterface> circuit;
  std::optional<r1cs::CircuitShape> shape;
};

SetupCircuit setup_circuit(const std::string& name, unsigned log) {
  SetupCircuit c;
  if (name == "bench") {
    auto sized = std::make_unique<circuits::bench::SizedCircuit>(log, Fr::one());
    c.shape = sized->shape();
    c.circuit = std::move(sized);
  } else if (name == "mul") {
    c.circuit = std::make_unique<circuits::bench::MulCircuit>();
  } else {
    throw UsageError("--circuit " + name + ": expected mul, bench or porep");
  }
  return c;
}

int cmd_setup(const SetupArgs& a, const Common& c) {
  Output out{Json::object(), c.json};
  const unsigned log = a.circuit == "bench" ? parse_log_size(a.size) : 0;
  const std::string description = circuits::bench::circuit_description(a.circuit, log);
  const SetupCircuit built = setup_circuit(a.circuit, log);
  SetupOptions opts;
  opts.threads = c.threads;
  opts.progress_min_constraints = c.json ? ~std::size_t{0} : (std::size_t{1} << 16);
  opts.shape = built.shape;
  std::string device_note;
  try {
    use_device_for_setup(a.backend, opts, &device_note);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--backend ") + e.what());
  }
  if (a.discard && (!a.params.empty() || !a.vk.empty())) throw UsageError("--discard writes no files: drop --params and --vk");
  if (!a.discard && a.params.empty()) throw UsageError("--params is required (or --discard)");
  // The output paths are checked (distinct, created under a temporary name) before the setup runs.
  check_output_paths({}, {{"--params", a.params}, {"--vk", a.vk}});
  PendingOutput params_file(a.params), vk_file(a.vk);
  auto t0 = Clock::now();
  std::unique_ptr<ByteSource> rng;
  if (a.seed) {
    rng = std::make_unique<SeededRandom>(*a.seed);
  } else {
    rng = std::make_unique<OsRandom>();
  }
  if (!c.json) std::cerr << device_note << "\n";
  // Streamed: each section is written as it is made (no whole copy of the parameters in memory).
  SetupResult r;
  std::uint64_t params_bytes = 0;
  {
    auto w = a.discard ? std::make_unique<ParamsWriter>(ParamsWriter::Discard{})
                       : std::make_unique<ParamsWriter>(params_file.temp_path());
    r = generate_parameters(*built.circuit, draw_toxic_waste(*rng), *w, opts);
    params_bytes = w->bytes_written();
  }
  vk_file.write(r.vk.to_bytes());
  if (!a.discard) params_file.commit();
  vk_file.commit();
  const double setup_ms = ms_since(t0);
  const std::uint64_t rss = peak_rss_bytes();
  out.line("circuit     " + description);
  out.line("parameters  " + (a.discard ? std::string("(discarded)") : a.params) + " (" + std::to_string(params_bytes) +
           " bytes; h " + std::to_string(r.h) +
           ", l " + std::to_string(r.l) + ", a " + std::to_string(r.a) + ", b " + std::to_string(r.b) + ", ic " +
           std::to_string(r.vk.ic.size()) + ")");
  if (!a.vk.empty()) out.line("vk          " + a.vk + " (" + std::to_string(r.vk.serialized_size()) + " bytes)");
  out.line("setup       " + fmt_ms(setup_ms) + "  (synthesis, queries and the streamed write)");
  out.line("peak RSS    " + std::to_string(rss >> 20) + " MiB");
  out.line("NOTE: development parameters; NOT secure (see the warning above).");
  out.j = Json{{"command", "setup"},
               {"circuit", a.circuit},
               {"description", description},
               {"params", a.params},
               {"params_bytes", params_bytes},
               {"vk", a.vk},
               {"domain_size", r.h + 1},
               {"num_inputs", r.vk.ic.size()},
               {"num_aux", r.l},
               {"secure", false},
               {"fixed_base", device_note},
               {"peak_rss_bytes", rss},
               {"timings_ms", {{"setup", setup_ms}}}};
  out.finish();
  return kOk;
}

// ---- prove -------------------------------------------------------------------------------------
struct ProveArgs {
  std::string circuit = "bench", size = "2^10", params, proof, pub, snarkjs_dir;
  std::uint64_t input = 1;
  unsigned partitions = 1;  ///< 1 … kMaxPartitions
  bool checked = false, no_verify = false;
};

std::string public_json(const std::vector<std::vector<Fr>>& inputs) {
  if (inputs.size() == 1) return snarkjs_public_json(inputs[0]);
  Json j = Json::array();
  for (const auto& v : inputs) j.push_back(Json::parse(snarkjs_public_json(v)));
  return j.dump(1) + "\n";
}

/// The built-in circuits through an engine started in this process (engine_client.hpp): kind
/// "bench" or "mul", every partition synthesized and proved within --memory-budget and verified by
/// the engine's self-check before anything is written.
int cmd_prove(const ProveArgs& a, const Common& c, EngineOptions eo) {
  Output out{Json::object(), c.json};
  const auto t_all = Clock::now();
  if (a.no_verify) throw UsageError("--no-verify: every proof is verified before it is written (the engine's self-check)");
  const unsigned log = a.circuit == "bench" ? parse_log_size(a.size) : 0;
  const std::string description = circuits::bench::circuit_description(a.circuit, log);
  // Partition k proves input + k: the last one must not wrap past 2^64 - 1.
  if (a.input > kMaxU64 - (a.partitions - 1)) {
    throw UsageError("--input " + std::to_string(a.input) + " with --partitions " + std::to_string(a.partitions) +
                     ": partition k uses input + k, which passes 2^64 - 1; give --input at most " +
                     std::to_string(kMaxU64 - (a.partitions - 1)));
  }
  std::vector<NamedFile> outputs{{"--proof", a.proof}, {"--public", a.pub}};
  const std::vector<NamedFile> snarkjs_files = snarkjs_dir_outputs(a.snarkjs_dir, a.partitions);
  outputs.insert(outputs.end(), snarkjs_files.begin(), snarkjs_files.end());
  check_output_paths({{"--params", a.params}}, outputs);
  refuse_zkey_as_params("--params", a.params, "use --zkey");
  refuse_vk_as_params(a.params, "prove needs the whole .params file");
  PendingOutput proof_file(a.proof), pub_file(a.pub);
  PendingDir snarkjs_dir("--snarkjs-dir", a.snarkjs_dir);
  const auto snarkjs_out = pending_outputs(snarkjs_files);  // verification_key, then proof, public per partition

  engine::ProofRequest req;
  req.kind = a.circuit;
  req.args = {{"params", a.params},
              {"partitions", std::to_string(a.partitions)},
              {"input", std::to_string(a.input)},
              {"checked", a.checked ? "1" : "0"}};
  if (a.circuit == "bench") req.args["size"] = "2^" + std::to_string(log);
  eo.threads = c.threads;
  const EngineRun run = run_in_engine("prove", eo, std::move(req), [&](const std::string& reason) {
    // With a consistent .params file this cannot happen; it does when the file's verifying key does
    // not belong to its proving key (a spliced or wrong file).
    return "the proof made with '" + a.params +
           "' does not verify against that file's own verifying key (the .params file is inconsistent or "
           "corrupt); no files written (" + reason + ")";
  });
  const engine::ProofResult& r = run.result;

  auto t0 = Clock::now();
  // Every output written before any is committed: a write that fails (a full disk) leaves none.
  proof_file.write(r.proof_bytes);
  if (!a.pub.empty()) pub_file.write(public_json(r.public_inputs));
  if (!snarkjs_out.empty()) {
    write_snarkjs_dir(snarkjs_out, VerifyingKey::read_params_file_head(a.params), r.proofs, r.public_inputs);
  }
  proof_file.commit();
  pub_file.commit();
  for (const auto& f : snarkjs_out) f->commit();
  snarkjs_dir.keep();
  const double write_ms = ms_since(t0);
  const double total_ms = ms_since(t_all);
  // The backends' own stage times, summed over partitions (StageTimings::operator+=).
  StageTimings t;
  for (const auto& p : r.partitions) t += p.backend_timings;
  t.total = r.timings.prover_call;

  out.line("circuit        " + description);
  out.line("partitions     " + std::to_string(a.partitions) + "   proof " + a.proof + " (" +
           std::to_string(r.proof_bytes.size()) + " bytes)");
  out.line("load params    " + fmt_ms(r.timings.srs_load) + (a.checked ? "  (subgroup-checked)" : "  (on-curve only)"));
  out.line("synthesis      " + fmt_ms(r.timings.synthesis) + "  (witness + constraints, summed over partitions)");
  out.line("prover (" + run.backend + ")" + std::string(run.backend.size() < 6 ? 6 - run.backend.size() : 0, ' ') +
           fmt_ms(t.total));
  if (t.srs_upload_bytes > 0) out.line("  srs → device " + fmt_ms(t.srs_upload) + "  (" + fmt_gbps(t.srs_upload_bytes, t.srs_upload) + ")");
  if (t.evaluate > 0) out.line("  evaluate     " + fmt_ms(t.evaluate) + "  (a, b, c from the compiled circuit)");
  out.line("  ntt / H      " + fmt_ms(t.ntt));
  out.line("  msm H        " + fmt_ms(t.msm_h));
  out.line("  msm L        " + fmt_ms(t.msm_l));
  out.line("  msm A        " + fmt_ms(t.msm_a));
  out.line("  msm B G1     " + fmt_ms(t.msm_b_g1));
  out.line("  msm B G2     " + fmt_ms(t.msm_b_g2));
  out.line("  assemble     " + fmt_ms(t.assemble));
  out.line("verify         " + fmt_ms(r.timings.verify) + "  OK");
  out.line("write          " + fmt_ms(write_ms));
  out.line("total          " + fmt_ms(total_ms));
  out.j = Json{{"command", "prove"},
               {"circuit", a.circuit},
               {"description", description},
               {"partitions", a.partitions},
               {"proof", a.proof},
               {"proof_bytes", r.proof_bytes.size()},
               {"verified", true},
               {"backend", run.backend},
               {"timings_ms",
                {{"load_params", r.timings.srs_load},
                 {"synthesis", r.timings.synthesis},
                 {"prover", timings_json(t)},
                 {"verify", r.timings.verify},
                 {"write", write_ms},
                 {"total", total_ms}}}};
  out.finish();
  return kOk;
}

// ---- verify ------------------------------------------------------------------------------------
struct VerifyArgs {
  std::string vk, params, proof, pub;
};

/// The public inputs of each partition (snarkjs public.json, or an array of them), for a key with
/// `n_public` inputs and a proof file of `partitions` proofs. The file's size is checked against
/// what that many inputs can take (plus 4 KiB of spacing) before it is read, and its nesting before
/// it is parsed. Every error names the file and, in an array of partitions, the partition.
std::vector<std::vector<Fr>> read_public(const std::string& path, std::size_t n_public, std::size_t partitions) {
  const std::string where = "public inputs file '" + path + "'";
  const std::size_t max_bytes = 4096 + partitions * snarkjs_public_json_max_bytes(n_public);
  const std::uintmax_t size = std::filesystem::file_size(path);
  if (size > max_bytes) {
    throw ProoflineError(Error::Malformed, where + " is " + std::to_string(size) + " bytes, more than " +
                                               std::to_string(partitions) + " partition(s) (the proofs in --proof) of " +
                                               std::to_string(n_public) + " public input(s) can take (" +
                                               std::to_string(max_bytes) + " bytes)");
  }
  const std::string text = read_text(path);
  json::check_limits(text, {max_bytes}, where);
  Json j;
  try {
    j = Json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw ProoflineError(Error::Malformed, where + " is not JSON: " + e.what());
  }
  // "public inputs file 'p.json': partition 1: public[1]: …" (the reader's "snarkjs JSON: " left out).
  auto parse_one = [&](const std::string& one, const std::string& place) {
    try {
      return public_from_snarkjs_json(one, n_public);
    } catch (const ProoflineError& e) {
      std::string why = std::string(e.what()).substr(to_string(e.code()).size() + 2);  // without "<code>: "
      if (why.rfind("snarkjs JSON: ", 0) == 0) why.erase(0, 14);
      throw ProoflineError(e.code(), where + place + ": " + std::string(why));
    }
  };
  std::vector<std::vector<Fr>> out;  // each document re-read compact (the spacing was counted above)
  if (j.is_array() && !j.empty() && j[0].is_array()) {
    for (std::size_t k = 0; k < j.size(); ++k) out.push_back(parse_one(j[k].dump(), ", partition " + std::to_string(k)));
  } else {
    out.push_back(parse_one(j.dump(), ""));
  }
  return out;
}

int cmd_verify(const VerifyArgs& a, const Common& c) {
  Output out{Json::object(), c.json};
  if (a.vk.empty() == a.params.empty()) throw UsageError("verify: give exactly one of --vk and --params");
  refuse_zkey_as_params("--params", a.params, "verify takes the zkey's verification_key.json as --vk");
  refuse_zkey_as_params("--vk", a.vk, "verify takes the zkey's verification_key.json as --vk");
  refuse_vk_as_params(a.params, "give it as --vk");
  auto t0 = Clock::now();
  VerifyingKey vk = a.vk.empty() ? Parameters::read_file(a.params).vk : VerifyingKey::read_file(a.vk);
  const std::size_t n_public = vk.ic.empty() ? 0 : vk.ic.size() - 1;
  // As many partitions as the proof file holds (192 bytes each; a size that is not a multiple is
  // refused by read_proof_file with both counts).
  const std::uintmax_t proof_bytes = std::filesystem::file_size(a.proof);
  const auto inputs = read_public(a.pub, n_public, std::max<std::uintmax_t>(1, (proof_bytes + 191) / 192));
  const std::vector<Proof> proofs = read_proof_file(a.proof, inputs.size(), "the public inputs file '" + a.pub + "' has");
  const double load_ms = ms_since(t0);
  t0 = Clock::now();
  PreparedVerifyingKey pvk = prepare_verifying_key(vk);
  std::vector<bool> ok;
  bool all = true;
  for (std::size_t k = 0; k < proofs.size(); ++k) {
    ok.push_back(verify_proof(pvk, proofs[k], inputs[k]));
    all = all && ok.back();
  }
  const double verify_ms = ms_since(t0);
  for (std::size_t k = 0; k < proofs.size(); ++k) {
    out.line("partition " + std::to_string(k) + ": " + (ok[k] ? "valid" : "INVALID"));
  }
  out.line(std::string("result: ") + (all ? "valid" : "INVALID") + "   (load " + fmt_ms(load_ms) + ", verify " +
           fmt_ms(verify_ms) + ")");
  Json per = Json::array();
  for (bool b : ok) per.push_back(b);
  out.j = Json{{"command", "verify"},
               {"valid", all},
               {"partitions", per},
               {"timings_ms", {{"load", load_ms}, {"verify", verify_ms}}}};
  out.finish();
  return all ? kOk : kInvalid;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"proofline — Groth16 prover for BLS12-381 (bellperson-compatible files)"};
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 ok / valid, 1 proof invalid, 2 usage error (also: an input file named on the command line\n"
      "does not exist, an output that is an input or another output), 3 bad input (a malformed or inconsistent file, a witness that does not satisfy the circuit;\n"
      "also an output that cannot be written out: a full disk),\n"
      "4 internal error; daemon clients also 5 job cancelled, timed out or interrupted, 6 daemon unreachable.\n"
      "Circuits: mul (a*b = c, 1 constraint), bench (exactly --size rows: S-box rounds, bit decompositions, ANDs),\n"
      "porep (Filecoin PoRep C2 partition: setup --circuit porep --sector-size 2KiB, then c2).");
  Common common;
  auto add_common = [&](CLI::App* sub) {
    sub->add_flag("--json", common.json, "print one JSON object on stdout instead of text");
    add_threads_option(*sub, common.threads);
  };

  SetupArgs sa;
  CLI::App* setup = app.add_subcommand(
      "setup", "generate development parameters (NOT secure) for a built-in circuit (mul, bench), Filecoin PoRep "
               "(--circuit porep --sector-size S), PoSt (--circuit window-post|winning-post --sector-size S) or SnapDeals "
               "(--circuit snap --sector-size S)");
  setup->add_option("--circuit", sa.circuit,
                    "circuit: mul | bench | porep | window-post | winning-post | snap (the Filecoin ones need --sector-size)")
      ->capture_default_str();
  setup->add_option("--size", sa.size, "bench: constraint rows, 2^4 … 2^27 (e.g. 2^16)")->capture_default_str();
  setup->add_option("--params", sa.params, "output .params file (required unless --discard)");
  setup->add_option("--vk", sa.vk, "also write the .vk file");
  add_integer_option(*setup, "--seed", sa.seed,
                     "derive the toxic waste from this seed (reproducible; default: OpenSSL CSPRNG)", 0, kMaxU64);
  setup->add_flag("--discard", sa.discard,
                  "write no file: make the parameters, count their bytes and drop them (timing runs of sizes whose "
                  ".params does not fit the disk: bench 2^27 is 74 GB)");
  setup->add_option("--backend", sa.backend,
                    "where the fixed-base multiplications run: cpu | cuda | auto (cuda: GPU 0; the same bytes)")
      ->capture_default_str();
  add_common(setup);

  ProveArgs pa;
  CLI::App* prove = app.add_subcommand(
      "prove",
      "prove a built-in circuit with a .params file (--circuit, --size, --params, ...), or a circom circuit with a "
      "snarkjs .zkey and its witness (--zkey, --wtns, ...); the flags of the two forms exclude each other");
  std::vector<CLI::Option*> builtin_opts{
      prove->add_option("--circuit", pa.circuit, "built-in circuit: mul | bench")->capture_default_str(),
      prove->add_option("--size", pa.size, "bench: constraint rows (must match the parameters)")->capture_default_str(),
      prove->add_option("--params", pa.params, "input .params file")->check(CLI::ExistingFile)};
  CLI::Option* params_opt = builtin_opts.back();
  prove->add_option("--proof", pa.proof,
                    "output proof file (192 bytes per partition; with --zkey: snarkjs proof.json)")->required();
  prove->add_option("--public", pa.pub, "output public inputs (snarkjs public.json format; required with --zkey)");
  builtin_opts.push_back(
      prove->add_option("--snarkjs-dir", pa.snarkjs_dir,
                        "also write verification_key.json, proof.json, public.json here (with --partitions K > 1: "
                        "proof_k.json and public_k.json, k = 0 … K-1)"));
  builtin_opts.push_back(
      add_integer_option(*prove, "--input", pa.input, "witness seed (bench: x; partition k uses input + k)", 0, kMaxU64)
          ->capture_default_str());
  builtin_opts.push_back(add_integer_option(*prove, "--partitions", pa.partitions,
                                            "number of partitions (circuits) proved in one batch", 1, kMaxPartitions)
                             ->capture_default_str());
  builtin_opts.push_back(prove->add_flag("--checked", pa.checked,
                                         "subgroup-check every parameter point on load (default: on-curve only, as "
                                         "Filecoin loads its cache; every proof is verified before it is written anyway)"));
  prove->add_flag("--no-verify", pa.no_verify,
                  "refused: every proof is verified before it is written (the engine's self-check)");
  EngineOptions prove_engine;
  add_engine_options(*prove, prove_engine);  // both forms prove through the in-process engine
  add_common(prove);
  // circom/snarkjs files: `proofline prove --zkey c.zkey --wtns w.wtns --proof proof.json --public public.json`.
  // Its own flags need --zkey; the built-in circuits' flags are refused next to it (exit 2), never ignored.
  cli::SnarkjsProveArgs sj;
  cli::add_snarkjs_prove_options(*prove, sj);
  CLI::Option* zkey_opt = prove->get_option("--zkey");
  for (CLI::Option* o : builtin_opts) zkey_opt->excludes(o);
  for (const char* name : {"--wtns", "--r1cs", "--check", "--rs", "--checked-points"}) prove->get_option(name)->needs(zkey_opt);

  VerifyArgs va;
  CLI::App* verify = app.add_subcommand("verify", "verify proofs against a verifying key and public inputs");
  verify->add_option("--vk", va.vk, ".vk file")->check(CLI::ExistingFile);
  verify->add_option("--params", va.params, ".params file (its verifying key is used)")->check(CLI::ExistingFile);
  verify->add_option("--proof", va.proof, "proof file (192 bytes per partition)")->required()->check(CLI::ExistingFile);
  verify->add_option("--public", va.pub, "public inputs (snarkjs public.json format)")->required()->check(CLI::ExistingFile);
  add_common(verify);
  cli::PorepCli porep_cli;
  cli::add_porep_commands(app, *setup, *verify, porep_cli);

  cli::DaemonCli daemon_cli;
  cli::add_daemon_commands(app, daemon_cli);
  cli::add_kind_flags(daemon_cli, argc, argv);  // submit: a flag per argument of the daemon's kinds
  cli::FilecoinCli filecoin_cli;
  cli::add_filecoin_commands(app, filecoin_cli);
  cli::ParamsCli params_cli;
  cli::add_params_commands(app, params_cli);
  cli::PostCli post_cli;
  cli::add_post_commands(app, *verify, post_cli);

  // CLI11 reports an unknown first word only as "A subcommand is required": name it and the commands.
  if (argc > 1 && argv[1][0] != '-') {
    const std::function<bool(CLI::App*)> every;  // empty filter: every subcommand
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands(every)) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      known = known || sub->check_name(argv[1]);
    }
    if (!known) {
      std::cerr << "proofline: unknown command '" << argv[1] << "' (commands: " << names << "; see proofline --help)\n";
      return kUsage;
    }
  }
  if (const std::optional<int> rc = parse_command_line(app, argc, argv)) return *rc;

  const auto limit = limit_threads(common.threads);
  if (int rc = cli::run_daemon_commands(daemon_cli); rc >= 0) return rc;
  if (int rc = cli::run_filecoin_commands(filecoin_cli); rc >= 0) return rc;
  if (int rc = cli::run_params_commands(params_cli); rc >= 0) return rc;
  if (int rc = cli::run_post_commands(post_cli); rc >= 0) return rc;
  if (int rc = cli::run_porep_commands(porep_cli); rc >= 0) return rc;
  if (setup->parsed()) return run_guarded("setup", [&] { return cmd_setup(sa, common); }, common.json);
  if (prove->parsed() && !sj.zkey.empty()) {
    if (pa.pub.empty()) {
      return usage_error("prove", "--zkey needs --public (the public.json to write)", common.json);
    }
    sj.proof = pa.proof;
    sj.pub = pa.pub;
    sj.no_verify = pa.no_verify;
    sj.json = common.json;
    sj.threads = common.threads;
    sj.engine = prove_engine;
    return cli::run_snarkjs_prove(sj);
  }
  if (prove->parsed()) {
    return run_guarded("prove", [&] {
      if (params_opt->count() == 0) throw UsageError("prove needs --params (bellperson .params) or --zkey (snarkjs)");
      return cmd_prove(pa, common, prove_engine);
    }, common.json);
  }
  if (!va.vk.empty() && cli::is_snarkjs_json(va.vk)) return cli::run_snarkjs_verify({va.vk, va.pub, va.proof, common.json});
  return run_guarded("verify", [&] { return cmd_verify(va, common); }, common.json);
}
