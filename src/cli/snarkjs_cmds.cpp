// The snarkjs-compatible commands of `proofline` (src/cli/snarkjs_cmds.hpp).
#include "snarkjs_cmds.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "engine_client.hpp"

#include "proofline/engine/engine.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/groth16/snarkjs/files.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"
#include "proofline/groth16/verifier.hpp"

namespace proofline::cli {

namespace {

namespace sj = groth16::snarkjs;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string fmt_ms(double ms) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%10.1f ms", ms);
  return buf;
}

std::string read_text(const std::string& path) {
  auto b = groth16::read_file_bytes(path);
  return std::string(b.begin(), b.end());
}

/// read_text of a JSON file that can be at most `max_bytes` long for its contents to be valid:
/// refused from its size (ProoflineError Malformed naming `what` and both sizes; with_file adds the
/// path) before reading.
std::string read_json_text(const std::string& path, std::size_t max_bytes, const std::string& what) {
  const std::uintmax_t size = std::filesystem::file_size(path);
  if (size > max_bytes) {
    throw ProoflineError(Error::Malformed, std::to_string(size) + " bytes, more than the " +
                                               std::to_string(max_bytes) + " bytes " + what + " can take");
  }
  return read_text(path);
}

/// Re-throws a parser's ProoflineError with the file's path in front.
template <class F>
auto with_file(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const sj::FormatError&) {
    throw;
  } catch (const ProoflineError& e) {
    const std::string what = e.what();
    const std::string prefix = std::string(to_string(e.code())) + ": ";
    throw ProoflineError(e.code(), path + ": " + (what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what));
  }
}

}  // namespace

void add_snarkjs_prove_options(CLI::App& prove, SnarkjsProveArgs& a) {
  prove.add_option("--zkey", a.zkey, "snarkjs Groth16 .zkey (curve bls12381)")->check(CLI::ExistingFile);
  prove.add_option("--wtns", a.wtns, "witness .wtns (snarkjs wtns calculate / circom's generate_witness.js)")
      ->check(CLI::ExistingFile);
  prove.add_option("--r1cs", a.r1cs, "circuit .r1cs (for --check)")->check(CLI::ExistingFile);
  prove.add_flag("--check", a.check, "check the witness against --r1cs first (names the first failing constraint)");
  // Stored through a callback so that a given but empty value (--rs "") is seen and refused.
  prove.add_option_function<std::string>(
      "--rs", [&a](const std::string& v) { a.rs = v; },
      "fixed randomizers \"R,S\" (decimal; TESTING ONLY: a proof with known r, s is not zero-knowledge)");
  prove.add_flag("--checked-points", a.checked_points, "subgroup-check every zkey point on load (default: on-curve only)");
}

namespace {

/// --rs "R,S" → one (r, s); given but empty (--rs "") is refused, never read as "random r, s".
Json prover_timings_json(const groth16::StageTimings& t) {
  return Json{{"evaluate", t.evaluate}, {"ntt", t.ntt},         {"msm_h", t.msm_h},       {"msm_l", t.msm_l},
              {"msm_a", t.msm_a},       {"msm_b_g1", t.msm_b_g1}, {"msm_b_g2", t.msm_b_g2},
              {"assemble", t.assemble}, {"srs_upload", t.srs_upload}, {"srs_upload_bytes", t.srs_upload_bytes},
              {"total", t.total}};
}

}  // namespace

int run_snarkjs_prove(const SnarkjsProveArgs& a) {
  return run_guarded("prove", [&] {
    if (a.zkey.empty() || a.wtns.empty()) throw std::invalid_argument("--zkey and --wtns are both required");
    if (a.proof.empty()) throw std::invalid_argument("--proof is required");
    if (a.check && a.r1cs.empty()) throw std::invalid_argument("--check needs --r1cs");
    if (a.no_verify) {
      throw UsageError("--no-verify: every proof is verified before it is written (the engine's self-check), --zkey "
                       "included");
    }
    std::vector<groth16::Randomizers> randomizers;
    if (a.rs) randomizers.push_back(parse_rs(*a.rs));
    check_output_paths({{"--zkey", a.zkey}, {"--wtns", a.wtns}, {"--r1cs", a.r1cs}},
                       {{"--proof", a.proof}, {"--public", a.pub}});
    PendingOutput proof_file(a.proof), pub_file(a.pub);
    const auto t_all = Clock::now();
    const auto limit = limit_threads(a.threads);
    EngineOptions eo = a.engine;
    eo.threads = a.threads;
    // The backends first: a bad --backend / --memory-budget is a usage error before any input is read.
    LocalEngine local(eo);

    // The zkey's header (counts only, memory-mapped): for the report and the --check of the files
    // against each other. The engine reads the whole zkey.
    auto t0 = Clock::now();
    const sj::Zkey head = sj::Zkey::read_header_file(a.zkey);
    double check_ms = 0;
    if (a.check) {
      sj::Witness w = sj::Witness::read_file(a.wtns);
      sj::check_witness_matches(head, w, a.zkey, a.wtns);
      sj::R1cs r1cs = sj::R1cs::read_file(a.r1cs);
      sj::check_r1cs_matches(head, r1cs, a.zkey, a.r1cs);
      sj::check_witness(r1cs, w, a.wtns);
      check_ms = ms_since(t0);
    }

    engine::ProofRequest req;
    req.kind = "snarkjs";
    req.args = {{"zkey", a.zkey}, {"wtns", a.wtns}, {"checked", a.checked_points ? "1" : "0"}};
    req.randomizers = std::move(randomizers);
    const EngineRun run = local.run("prove", std::move(req), [&](const std::string& reason) {
      return "proof does not verify: the proof made with '" + a.zkey + "' and '" + a.wtns +
             "' does not verify with the zkey's verifying key (a witness that does not satisfy the circuit: check it "
             "with --check --r1cs; or a zkey point off the subgroup: try --checked-points); no files written (" +
             reason + ")";
    });
    const engine::ProofResult& r = run.result;
    if (r.proofs.size() != 1 || r.public_inputs.size() != 1) {
      throw std::runtime_error("the engine returned " + std::to_string(r.proofs.size()) +
                               " proofs for kind snarkjs; expected 1");
    }

    t0 = Clock::now();
    proof_file.write(sj::proof_json(r.proofs[0]));
    pub_file.write(sj::public_json(r.public_inputs[0]));
    proof_file.commit();
    pub_file.commit();
    const double write_ms = ms_since(t0);
    const double total_ms = ms_since(t_all);
    // The backend's own stage times (one partition); total = the backend call as the engine saw it.
    groth16::StageTimings t;
    for (const auto& p : r.partitions) t += p.backend_timings;
    t.total = r.timings.prover_call;
    const std::string points = a.checked_points ? "subgroup-checked" : "on-curve only";
    if (a.json) {
      Json j{{"command", "prove"},
             {"format", "snarkjs"},
             {"zkey", a.zkey},
             {"n_vars", head.n_vars},
             {"n_public", head.n_public},
             {"domain_size", head.domain_size},
             {"verified", true},
             {"backend", run.backend},
             {"timings_ms",
              {{"load_zkey", r.timings.srs_load},
               {"check", check_ms},
               {"synthesis", r.timings.synthesis},
               {"prover", prover_timings_json(t)},
               {"verify", r.timings.verify},
               {"write", write_ms},
               {"total", total_ms}}}};
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << "zkey           " << a.zkey << " (nVars " << head.n_vars << ", nPublic " << head.n_public
                << ", domain " << head.domain_size << ")\n";
      std::cout << "load zkey      " << fmt_ms(r.timings.srs_load) << "  (" << points << ")\n";
      if (a.check) std::cout << "r1cs check     " << fmt_ms(check_ms) << "  OK\n";
      std::cout << "synthesis      " << fmt_ms(r.timings.synthesis) << "  (witness → a, b, c)\n";
      std::cout << "prover (" << run.backend << ")" << std::string(run.backend.size() < 6 ? 6 - run.backend.size() : 0, ' ')
                << fmt_ms(t.total) << "\n";
      if (t.srs_upload_bytes > 0) {
        std::cout << "  zkey → device " << fmt_ms(t.srs_upload) << "  (" << fmt_gbps(t.srs_upload_bytes, t.srs_upload)
                  << ", from the file)\n";
      }
      std::cout << "  ntt / H      " << fmt_ms(t.ntt) << "\n";
      std::cout << "  msm H        " << fmt_ms(t.msm_h) << "\n";
      std::cout << "  msm L (C)    " << fmt_ms(t.msm_l) << "\n";
      std::cout << "  msm A        " << fmt_ms(t.msm_a) << "\n";
      std::cout << "  msm B G1     " << fmt_ms(t.msm_b_g1) << "\n";
      std::cout << "  msm B G2     " << fmt_ms(t.msm_b_g2) << "\n";
      std::cout << "  assemble     " << fmt_ms(t.assemble) << "\n";
      std::cout << "verify         " << fmt_ms(r.timings.verify) << "  OK\n";
      std::cout << "write          " << fmt_ms(write_ms) << "\n";
      std::cout << "total          " << fmt_ms(total_ms) << "\n";
    }
    return kOk;
  }, a.json);
}

bool is_snarkjs_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char ch;
  while (in.get(ch)) {
    if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
    return ch == '{';
  }
  return false;
}

int run_snarkjs_verify(const SnarkjsVerifyArgs& a) {
  return run_guarded("verify", [&] {
    auto t0 = Clock::now();
    // Each file's size is checked against what a valid one can take before it is read.
    groth16::VerifyingKey vk = with_file(a.vk, [&] {
      return groth16::vk_from_snarkjs_json(read_json_text(a.vk, groth16::kMaxSnarkjsVkBytes, "a verification key"));
    });
    groth16::Proof proof = with_file(a.proof, [&] {
      return groth16::proof_from_snarkjs_json(read_json_text(a.proof, groth16::kMaxSnarkjsProofBytes, "a proof"));
    });
    const std::size_t n_public = vk.ic.empty() ? 0 : vk.ic.size() - 1;
    std::vector<ff::Fr> pub = with_file(a.pub, [&] {
      return groth16::public_from_snarkjs_json(
          read_json_text(a.pub, groth16::snarkjs_public_json_max_bytes(n_public),
                         "the " + std::to_string(n_public) + " public input(s) of the verification key"),
          n_public);
    });
    if (pub.size() + 1 != vk.ic.size()) {
      throw ProoflineError(Error::BadLength, a.pub + ": " + std::to_string(pub.size()) +
                                                 " public signals; the verification key expects nPublic = " +
                                                 std::to_string(vk.ic.size() - 1));
    }
    const double load_ms = ms_since(t0);
    t0 = Clock::now();
    const bool ok = groth16::verify_proof(groth16::prepare_verifying_key(vk), proof, pub);
    const double verify_ms = ms_since(t0);
    if (a.json) {
      std::cout << Json{{"command", "verify"}, {"format", "snarkjs"}, {"valid", ok},
                        {"timings_ms", {{"load", load_ms}, {"verify", verify_ms}}}}
                       .dump(2)
                << "\n";
    } else {
      std::cout << "result: " << (ok ? "valid" : "INVALID") << "   (load " << fmt_ms(load_ms) << ", verify "
                << fmt_ms(verify_ms) << ")\n";
    }
    return ok ? kOk : kInvalid;
  }, a.json);
}

int snarkjs_main(int argc, char** argv) {
  CLI::App app{"proofline (snarkjs files) — Groth16 proofs for circom circuits on BLS12-381"};
  app.require_subcommand(1);
  app.footer("Exit codes: 0 ok / valid, 1 proof invalid, 2 usage error, 3 bad input (file, witness; an output not written out: a full disk), 4 internal error.");
  SnarkjsProveArgs pa;
  CLI::App* prove = app.add_subcommand("prove", "prove with a snarkjs .zkey and a .wtns (snarkjs groth16 prove)");
  add_snarkjs_prove_options(*prove, pa);
  prove->get_option("--zkey")->required();
  prove->get_option("--wtns")->required();
  prove->add_option("--proof", pa.proof, "output proof.json")->required();
  prove->add_option("--public", pa.pub, "output public.json");
  prove->add_flag("--no-verify", pa.no_verify, "refused: every proof is verified before it is written");
  prove->add_flag("--json", pa.json, "print one JSON object (timings) instead of text");
  add_threads_option(*prove, pa.threads);
  add_engine_options(*prove, pa.engine);

  SnarkjsVerifyArgs va;
  CLI::App* verify = app.add_subcommand("verify", "verify a snarkjs proof.json (snarkjs groth16 verify)");
  verify->add_option("--vk", va.vk, "verification_key.json")->required()->check(CLI::ExistingFile);
  verify->add_option("--public", va.pub, "public.json")->required()->check(CLI::ExistingFile);
  verify->add_option("--proof", va.proof, "proof.json")->required()->check(CLI::ExistingFile);
  verify->add_flag("--json", va.json, "print one JSON object instead of text");
  if (const std::optional<int> rc = parse_command_line(app, argc, argv)) return *rc;
  if (prove->parsed()) return run_snarkjs_prove(pa);
  return run_snarkjs_verify(va);
}

}  // namespace proofline::cli
