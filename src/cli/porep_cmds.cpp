// Filecoin PoRep C2 commands: setup --circuit porep, c2, verify --c1.
#include "porep_cmds.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "proofline/circuits/porep.hpp"
#include "proofline/circuits/post.hpp"
#include "proofline/circuits/snap.hpp"
#include "proofline/filecoin/c1.hpp"
#include "proofline/filecoin/graph.hpp"
#include "proofline/filecoin/porep.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/sector.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/filecoin/vanilla.hpp"
#include "proofline/groth16/backend_factory.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/r1cs/error.hpp"
#include "proofline/r1cs/shape_counter.hpp"
#include "common.hpp"
#include "engine_client.hpp"

namespace proofline::cli {

namespace {

using namespace proofline::groth16;
using circuits::porep::PoRepCircuit;
using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

// Public inputs of every partition as a verifier derives them: challenges from the seed (or
// comm_r, by the proof's mode) and parents from the graph — never the C1's own challenged nodes,
// which a C1 with another seed would carry unchanged.
std::vector<std::vector<Fr>> verifier_inputs(const filecoin::SealCommitPhase1Output& c1) {
  const filecoin::PorepConfig cfg = filecoin::porep_config(c1.registered_proof);
  const filecoin::StackedGraph g(cfg);
  std::vector<std::vector<Fr>> out;
  for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    out.push_back(filecoin::public_inputs(cfg, g, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k));
  }
  return out;
}

namespace fs = std::filesystem;

double secs_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// One progress line on stderr: "c2: proving 1 partition(s) ... (12.3 s)".
void progress(const char* cmd, const std::string& what) { std::cerr << cmd << ": " << what << std::endl; }

std::string fmt_s(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

fs::path default_param_path(const filecoin::PorepConfig& cfg, const char* ext) {
  return filecoin::parameter_cache_dir() / filecoin::parameter_file_name(cfg, ext);
}

// ---- setup -------------------------------------------------------------------------------------
/// What `setup` needs of a Filecoin circuit: its blank instance, counts, names and default file.
struct SetupCircuit {
  std::string circuit;      ///< the --circuit value ("porep", "window-post", "winning-post", "snap")
  std::string title;        ///< "PoRep 2KiB partition", "WindowPoSt 2KiB partition"
  std::string describe;     ///< the shape in words
  std::size_t constraints = 0, inputs = 0, aux = 0;
  std::shared_ptr<const r1cs::CircuitInterface> blank;
  fs::path default_params;  ///< the upstream file name in the parameter cache
  Json facts;               ///< extra --json keys (registered proof, sector size…)
};

SetupCircuit porep_setup_circuit(std::uint64_t bytes) {
  const filecoin::PorepConfig cfg = filecoin::porep_config(filecoin::default_seal_proof(bytes));
  const circuits::porep::PoRepShape shape = circuits::porep::shape_for(cfg);
  const auto counts = circuits::porep::count_porep(shape);
  return {"porep",
          "PoRep " + std::string(cfg.shape->name) + " partition",
          shape.describe(),
          counts.constraints,
          counts.inputs,
          counts.aux,
          std::make_shared<PoRepCircuit>(shape, circuits::porep::blank_inputs(shape)),
          default_param_path(cfg, ".params"),
          Json{{"registered_proof", filecoin::to_string(cfg.proof)}, {"sector_size", bytes}}};
}

SetupCircuit post_setup_circuit(filecoin::PoStType type, std::uint64_t bytes) {
  const auto fp = filecoin::fallback_params(filecoin::post_config(type, bytes, filecoin::ApiVersion::V1_2_0));
  const circuits::post::FallbackPoStShape shape = circuits::post::shape_for(fp);
  const auto counts = circuits::post::count_post(shape);
  const std::string name = type == filecoin::PoStType::Window ? "WindowPoSt" : "WinningPoSt";
  return {type == filecoin::PoStType::Window ? "window-post" : "winning-post",
          name + " " + std::string(filecoin::sector_shape(bytes).name) + " partition",
          shape.describe(),
          counts.constraints,
          counts.inputs,
          counts.aux,
          std::make_shared<circuits::post::FallbackPoStCircuit>(shape, circuits::post::blank_sectors(shape)),
          filecoin::parameter_cache_dir() / filecoin::fallback_parameter_file_name(fp, ".params"),
          Json{{"identifier", filecoin::fallback_identifier(fp)}, {"sector_size", bytes}}};
}

SetupCircuit snap_setup_circuit(std::uint64_t bytes) {
  const filecoin::SnapParams& sp = filecoin::snap_params(bytes);
  const auto counts = circuits::snap::count_snap(sp);
  return {"snap",
          "SnapDeals " + std::string(sp.name) + " partition",
          std::to_string(sp.challenge_count) + " challenges, " + std::to_string(sp.apex_leaf_count) + " apex leaves, " +
              std::to_string(sp.nodes) + " nodes, tree R " + std::to_string(sp.tree_r.base) + "-" +
              std::to_string(sp.tree_r.sub) + "-" + std::to_string(sp.tree_r.top),
          counts.constraints,
          counts.inputs,
          counts.aux,
          std::make_shared<circuits::snap::EmptySectorUpdateCircuit>(sp, circuits::snap::blank_witness(sp)),
          filecoin::parameter_cache_dir() / filecoin::snap_parameter_file_name(sp, ".params"),
          Json{{"identifier", filecoin::snap_identifier(sp)}, {"sector_size", bytes}, {"partitions", sp.partition_count}}};
}

int cmd_setup(PorepCli& p) {
  CLI::App& app = *p.setup;
  const std::string which = option_value<std::string>(app, "--circuit", "");
  if (p.sector_size.empty()) throw UsageError("setup --circuit " + which + " needs --sector-size (e.g. 2KiB, 32GiB)");
  // The circuit comes from --circuit and --sector-size alone: a size it does not have is a usage error.
  const SetupCircuit sc = flags_are_arguments([&] {
    const std::uint64_t bytes =
        which == "snap" ? filecoin::parse_byte_size(p.sector_size) : filecoin::parse_sector_size(p.sector_size);
    return which == "porep"         ? porep_setup_circuit(bytes)
           : which == "snap"        ? snap_setup_circuit(bytes)
           : which == "window-post" ? post_setup_circuit(filecoin::PoStType::Window, bytes)
                                    : post_setup_circuit(filecoin::PoStType::Winning, bytes);
  });
  std::string params = option_value<std::string>(app, "--params", "");
  std::string vk = option_value<std::string>(app, "--vk", "");
  const bool discard = flag_set(app, "--discard");
  if (discard && (!params.empty() || !vk.empty())) throw UsageError("--discard writes no files: drop --params and --vk");
  if (!discard && params.empty()) params = sc.default_params.string();
  const bool vk_given = !vk.empty();
  if (!discard && vk.empty()) vk = (fs::path(params).replace_extension(".vk")).string();
  check_output_paths({}, {{"--params", params}, {vk_given ? "--vk" : "--vk (default: --params with .vk)", vk}});
  if (fs::path(params).has_parent_path()) fs::create_directories(fs::path(params).parent_path());
  if (fs::path(vk).has_parent_path()) fs::create_directories(fs::path(vk).parent_path());
  PendingOutput params_file(params), vk_file(vk);  // checked before the setup (minutes to hours)

  SetupOptions opts;
  opts.threads = p.threads;
  opts.progress_min_constraints = 0;
  // The counts are known: no counting pass; the synthesis checks them.
  opts.shape = r1cs::CircuitShape{sc.constraints + sc.inputs, sc.inputs, sc.aux};
  std::string device_note;
  try {
    use_device_for_setup(option_value<std::string>(app, "--backend", "cpu"), opts, &device_note);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--backend ") + e.what());
  }
  progress("setup", sc.title + " (" + sc.describe + "): " + std::to_string(sc.constraints) + " constraints, " +
                        std::to_string(sc.inputs) + " inputs, " + std::to_string(sc.aux) + " aux; " + device_note);
  std::unique_ptr<ByteSource> rng;
  if (flag_set(app, "--seed")) {
    rng = std::make_unique<SeededRandom>(option_value<std::uint64_t>(app, "--seed", 0));
  } else {
    rng = std::make_unique<OsRandom>();
  }
  const auto t0 = Clock::now();
  const r1cs::CircuitInterface& circuit = *sc.blank;
  // Synthesized into a QapEvaluator (no matrices) and streamed section by section into the file.
  SetupResult r;
  std::uint64_t params_bytes = 0;
  {
    auto w = discard ? std::make_unique<ParamsWriter>(ParamsWriter::Discard{})
                     : std::make_unique<ParamsWriter>(params_file.temp_path());
    r = generate_parameters(circuit, draw_toxic_waste(*rng), *w, opts);
    params_bytes = w->bytes_written();
  }
  const double setup_s = secs_since(t0);
  const std::uint64_t rss = peak_rss_bytes();
  if (!discard) {
    vk_file.write(r.vk.to_bytes());
    params_file.commit();
    vk_file.commit();
    progress("setup", "wrote " + params + " and " + vk);
  }
  const double total_s = secs_since(t0);
  if (p.json) {
    Json j{{"command", "setup"}, {"circuit", sc.circuit}};
    j.update(sc.facts);
    j.update(Json{{"constraints", sc.constraints},
                  {"inputs", sc.inputs},
                  {"params", params},
                  {"vk", vk},
                  {"params_bytes", params_bytes},
                  {"secure", false},
                  {"fixed_base", device_note},
                  {"peak_rss_bytes", rss},
                  {"timings_s", {{"setup", setup_s}, {"total", total_s}}}});
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "circuit     " << sc.title << ": " << sc.constraints << " constraints, " << sc.inputs << " inputs\n"
              << "parameters  " << (discard ? std::string("(discarded)") : params) << " (" << params_bytes << " bytes)\n"
              << "vk          " << (discard ? std::string("(discarded)") : vk) << "\n"
              << "setup       " << fmt_s(setup_s) << "\n"
              << "peak RSS    " << (rss >> 20) << " MiB\n"
              << "NOTE: development parameters; NOT secure (see the warning above).\n";
  }
  return kOk;
}

// ---- c2 ----------------------------------------------------------------------------------------
Json partition_timings_json(const engine::PartitionTimings& t) {
  return Json{{"index", t.index},         {"backend", t.backend_name}, {"queue_wait", t.queue_wait},
              {"srs_load", t.srs_load},   {"synthesis", t.synthesis},  {"prove_wait", t.prove_wait},
              {"h2d", t.h2d},             {"kernel", t.kernel},        {"prover_call", t.prover_call},
              {"stage", t.stage},         {"total", t.total},          {"h2d_bytes", t.backend_timings.h2d_bytes}};
}

Json proof_timings_json(const engine::ProofTimings& t) {
  return Json{{"queue_wait", t.queue_wait}, {"srs_load", t.srs_load}, {"synthesis", t.synthesis},
              {"h2d", t.h2d},               {"kernel", t.kernel},     {"prover_call", t.prover_call},
              {"stage", t.stage},           {"assemble", t.assemble}, {"verify", t.verify},
              {"total", t.total}};
}

Json partitions_json(const engine::ProofResult& r) {
  Json a = Json::array();
  for (const auto& t : r.partitions) a.push_back(partition_timings_json(t));
  return a;
}

int cmd_c2_many(PorepCli& p);

/// The C1's partitions through an engine started in this process (engine_client.hpp, kind
/// "porep-c2"): synthesized and proved within --memory-budget (a 10-partition C1 never holds more
/// partitions than the budget admits), every constraint checked, every proof verified with the
/// inputs a verifier derives from the C1, before the file is written.
int cmd_c2(PorepCli& p) {
  if (p.c1s.size() != p.outs.size()) {
    throw UsageError("--c1 and --out come in pairs: got " + std::to_string(p.c1s.size()) + " --c1 and " +
                     std::to_string(p.outs.size()) + " --out");
  }
  if (p.c1s.size() > 1) return cmd_c2_many(p);
  if (p.first_alone) throw UsageError("--first-alone needs several --c1 (it proves the first alone, then the others)");
  p.c1 = p.c1s.at(0);
  p.out = p.outs.at(0);
  const auto t_all = Clock::now();
  auto t0 = Clock::now();
  // Outputs apart from the inputs and each other: now for the files named here, again below once
  // the C1 gives the default parameter file and the number of partitions.
  std::vector<NamedFile> in_files{{"--c1", p.c1}, {"--params", p.params}};
  std::vector<NamedFile> out_files{{"--out", p.out}, {"--public", p.pub}};
  check_output_paths(in_files, out_files);
  refuse_zkey_as_params("--params", p.params, "c2 takes the PoRep .params file");
  refuse_vk_as_params(p.params, "c2 takes the PoRep .params file");
  PendingOutput out_file(p.out), pub_file(p.pub);  // an unwritable output is refused before the work
  PendingDir snarkjs_dir("--snarkjs-dir", p.snarkjs_dir);
  // The engine (and its backends) first: `--backend cuda` on a build without CUDA (or without a
  // usable device) is a usage error before the C1 is read.
  p.engine.threads = p.threads;
  LocalEngine eng(p.engine);
  progress("c2", "memory budget " + eng.engine().status().memory.budget_derivation);
  progress("c2", "reading " + p.c1);
  // Read once: the kind takes the parsed C1 (ProofRequest::parsed_input), not the file again.
  const auto c1 = std::make_shared<const filecoin::SealCommitPhase1Output>(filecoin::read_c1_file(p.c1));
  const filecoin::PorepConfig cfg = filecoin::porep_config(c1->registered_proof);
  const circuits::porep::PoRepShape shape = circuits::porep::shape_for(cfg);
  const std::size_t n_all = c1->vanilla_proofs.size();
  if (p.partition >= 0 && static_cast<std::size_t>(p.partition) >= n_all) {
    throw UsageError("--partition " + std::to_string(p.partition) + ": the C1 has " + std::to_string(n_all) +
                     " partition(s) (0 … " + std::to_string(n_all - 1) + ")");
  }
  const std::size_t n = p.partition >= 0 ? 1 : n_all;
  const std::string params_path = p.params.empty() ? default_param_path(cfg, ".params").string() : p.params;
  if (!fs::exists(params_path)) {
    // A missing input file, as for any file the command reads: exit 3, labelled as such.
    throw std::system_error(std::make_error_code(std::errc::no_such_file_or_directory),
                            "parameter file not found: '" + params_path + "' (run `proofline setup --circuit porep "
                            "--sector-size " + std::string(cfg.shape->name) + "` or pass --params)");
  }
  if (p.params.empty()) in_files.push_back({"parameter file (from the cache)", params_path});
  const std::vector<NamedFile> snarkjs_files = snarkjs_dir_outputs(p.snarkjs_dir, n);
  out_files.insert(out_files.end(), snarkjs_files.begin(), snarkjs_files.end());
  check_output_paths(in_files, out_files);
  const auto snarkjs_out = pending_outputs(snarkjs_files);  // verification_key, then proof, public per partition
  const double read_c1_s = secs_since(t0);
  progress("c2", std::string(filecoin::to_string(c1->registered_proof)) + ": " + std::to_string(n) + " partition(s), " +
                     shape.describe());

  engine::ProofRequest req;
  req.kind = "porep-c2";
  req.args = {{"c1", p.c1}, {"params", params_path}};
  if (p.partition >= 0) req.args["partition"] = std::to_string(p.partition);
  req.args["compiled"] = p.compiled ? "1" : "0";
  if (!p.rs.empty()) req.randomizers.assign(n, parse_rs(p.rs));
  req.parsed_input = c1;
  const EngineRun run = eng.run("c2", std::move(req), [](const std::string& reason) {
    return "the proofs made here do not verify (" + reason + "); no proof written";
  });
  const engine::ProofResult& r = run.result;

  // Every output written before any is committed: a write that fails (a full disk) leaves none.
  out_file.write(r.proof_bytes);
  if (!p.pub.empty()) {
    Json j = Json::array();
    for (const auto& in : r.public_inputs) j.push_back(Json::parse(snarkjs_public_json(in)));
    pub_file.write((n == 1 ? j[0] : j).dump(1) + "\n");
  }
  if (!snarkjs_out.empty()) {
    write_snarkjs_dir(snarkjs_out, VerifyingKey::read_params_file_head(params_path), r.proofs, r.public_inputs);
  }
  out_file.commit();
  pub_file.commit();
  for (const auto& f : snarkjs_out) f->commit();
  snarkjs_dir.keep();
  const double total_s = secs_since(t_all);
  const double load_s = r.timings.srs_load / 1000, synth_s = r.timings.synthesis / 1000,
               prove_s = r.timings.prover_call / 1000, verify_s = r.timings.verify / 1000;
  const circuits::porep::PoRepCounts counts = circuits::porep::count_porep(shape);
  progress("c2", "wrote " + p.out + " (" + std::to_string(r.proof_bytes.size()) + " bytes)");
  if (p.json) {
    std::cout << Json{{"command", "c2"},
                      {"registered_proof", filecoin::to_string(c1->registered_proof)},
                      {"partitions", n},
                      {"partitions_in_c1", n_all},
                      {"constraints_per_partition", counts.constraints},
                      {"proof", p.out},
                      {"proof_bytes", r.proof_bytes.size()},
                      {"verified", true},
                      {"backend", run.backend},
                      {"timings_s",
                       {{"read_c1", read_c1_s},
                        {"load_params", load_s},
                        {"synthesis", synth_s},
                        {"prove", prove_s},
                        {"verify", verify_s},
                        {"total", total_s}}},
                      {"timings_ms", proof_timings_json(r.timings)},
                      {"partition_timings_ms", partitions_json(r)},
                      {"peak_rss_bytes", peak_rss_bytes()}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << "c2          " << filecoin::to_string(c1->registered_proof) << ", " << n << " partition(s) × "
              << counts.constraints << " constraints\n"
              << "proof       " << p.out << " (" << r.proof_bytes.size() << " bytes), verified\n"
              << "backend     " << run.backend << "\n"
              << "load params " << fmt_s(load_s) << "\n"
              << "synthesis   " << fmt_s(synth_s) << "  (summed over partitions)\n"
              << "prove       " << fmt_s(prove_s) << "  (summed over partitions)\n"
              << "verify      " << fmt_s(verify_s) << "\n"
              << "total       " << fmt_s(total_s) << "\n";
  }
  return kOk;
}

/// Several C1s through one engine (porep_cmds.hpp, "c2 --c1 A --out PA --c1 B --out PB …").
int cmd_c2_many(PorepCli& p) {
  const std::size_t m = p.c1s.size();
  if (!p.pub.empty() || !p.snarkjs_dir.empty()) throw UsageError("--public and --snarkjs-dir take one --c1");
  refuse_zkey_as_params("--params", p.params, "c2 takes the PoRep .params file");
  refuse_vk_as_params(p.params, "c2 takes the PoRep .params file");
  std::vector<NamedFile> in_files{{"--params", p.params}}, out_files;
  for (std::size_t i = 0; i < m; ++i) {
    in_files.push_back({"--c1", p.c1s[i]});
    out_files.push_back({"--out", p.outs[i]});
  }
  check_output_paths(in_files, out_files);
  const auto outs = pending_outputs(out_files);
  p.engine.threads = p.threads;
  LocalEngine eng(p.engine);
  progress("c2", "memory budget " + eng.engine().status().memory.budget_derivation);

  // The C1s: read and checked here (registered proof, partitions), once: the kind takes them parsed.
  std::vector<std::shared_ptr<const filecoin::SealCommitPhase1Output>> c1s;
  std::vector<double> read_s;
  filecoin::RegisteredSealProof proof{};
  std::size_t n = 0;
  std::string params_path = p.params;
  for (std::size_t i = 0; i < m; ++i) {
    const auto t0 = Clock::now();
    progress("c2", "reading " + p.c1s[i]);
    c1s.push_back(std::make_shared<const filecoin::SealCommitPhase1Output>(filecoin::read_c1_file(p.c1s[i])));
    const filecoin::SealCommitPhase1Output& c1 = *c1s.back();
    read_s.push_back(secs_since(t0));
    const std::size_t parts = c1.vanilla_proofs.size();
    if (p.partition >= 0 && static_cast<std::size_t>(p.partition) >= parts) {
      throw UsageError("--partition " + std::to_string(p.partition) + ": " + p.c1s[i] + " has " +
                       std::to_string(parts) + " partition(s)");
    }
    if (i == 0) {
      proof = c1.registered_proof;
      n = p.partition >= 0 ? 1 : parts;
      if (params_path.empty()) params_path = default_param_path(filecoin::porep_config(proof), ".params").string();
    } else if (c1.registered_proof != proof) {
      throw UsageError(p.c1s[i] + " is a " + std::string(filecoin::to_string(c1.registered_proof)) + " C1, " +
                       p.c1s[0] + " a " + std::string(filecoin::to_string(proof)) +
                       " one: one run proves sectors of one registered proof (one parameter file)");
    }
  }
  if (!fs::exists(params_path)) {
    throw std::system_error(std::make_error_code(std::errc::no_such_file_or_directory),
                            "parameter file not found: '" + params_path + "' (pass --params)");
  }
  const filecoin::PorepConfig cfg = filecoin::porep_config(proof);
  const circuits::porep::PoRepCounts counts = circuits::porep::count_porep(circuits::porep::shape_for(cfg));
  auto request = [&](std::size_t i) {
    engine::ProofRequest req;
    req.kind = "porep-c2";
    req.args = {{"c1", p.c1s[i]}, {"params", params_path}};
    if (p.partition >= 0) req.args["partition"] = std::to_string(p.partition);
    req.args["compiled"] = p.compiled ? "1" : "0";
    if (!p.rs.empty()) req.randomizers.assign(p.partition >= 0 ? 1 : c1s[i]->vanilla_proofs.size(), parse_rs(p.rs));
    req.parsed_input = c1s[i];
    return req;
  };
  auto self_check = [](const std::string& reason) {
    return "the proofs made here do not verify (" + reason + "); no proof written";
  };

  // 1. The parameters, once, with the first C1's checks (its sector's circuit against the file).
  progress("c2", "loading " + params_path);
  auto t0 = Clock::now();
  try {
    eng.engine().preload_srs(request(0));
  } catch (const std::invalid_argument& e) {
    throw ExitError(kBadInput, e.what());
  }
  const double load_s = secs_since(t0);

  struct Done {
    engine::ProofResult result;
    std::string phase;
    double latency_s = 0;   ///< alone: submit → proof written; sustained: batch start → proof written
  };
  std::vector<Done> done(m);
  std::string backend;
  auto write_proof = [&](std::size_t i, engine::ProofResult&& r) {
    outs[i]->write(r.proof_bytes);
    outs[i]->commit();
    done[i].result = std::move(r);
  };
  // 2. --first-alone: the first C1 alone (single-proof latency, parameters resident).
  std::size_t first = 0;
  double single_s = -1;
  if (p.first_alone) {
    progress("c2", "sector 1/" + std::to_string(m) + " alone (latency)");
    t0 = Clock::now();
    EngineRun run = eng.run("c2", request(0), self_check);
    backend = run.backend;
    write_proof(0, std::move(run.result));
    single_s = secs_since(t0);
    done[0].phase = "alone";
    done[0].latency_s = single_s;
    first = 1;
  }
  // 3. The rest at once (sustained).
  std::vector<engine::ProofRequest> reqs;
  for (std::size_t i = first; i < m; ++i) reqs.push_back(request(i));
  progress("c2", std::to_string(m - first) + " sector(s) back to back (sustained)");
  t0 = Clock::now();
  std::vector<EngineRun> runs = eng.run_all("c2", std::move(reqs), self_check);
  const double wall_s = secs_since(t0);
  std::vector<double> ends;
  for (std::size_t j = 0; j < runs.size(); ++j) {
    const std::size_t i = first + j;
    if (backend.empty()) backend = runs[j].backend;
    ends.push_back(runs[j].result.timings.total / 1000);  // submit (≈ t0) → result
    write_proof(i, std::move(runs[j].result));
    done[i].phase = "sustained";
    done[i].latency_s = ends.back();
  }
  std::sort(ends.begin(), ends.end());
  const std::size_t k = m - first;
  const double per_proof = wall_s / static_cast<double>(k);
  const double steady = k >= 2 ? (ends.back() - ends.front()) / static_cast<double>(k - 1) : per_proof;
  const std::size_t backends = std::max<std::size_t>(1, eng.engine().status().backends.size());
  // Per-partition means over the sustained phase; the busy fraction of the backends over its wall.
  // Per-partition means of these timers (ms) over the sustained phase.
  struct Mean {
    double engine::PartitionTimings::*timer;
    const char* name;  ///< "synthesis" → JSON "mean_synthesis_ms", text "synthesis"
    double sum = 0;
  };
  Mean means[] = {{&engine::PartitionTimings::synthesis, "synthesis"},
                  {&engine::PartitionTimings::prove_wait, "prove_wait"},
                  {&engine::PartitionTimings::h2d, "h2d"},
                  {&engine::PartitionTimings::kernel, "kernel"},
                  {&engine::PartitionTimings::prover_call, "prover_call"},
                  {&engine::PartitionTimings::stage, "stage"}};
  double sum_call = 0, sum_verify = 0, sum_queue = 0, sum_h2d_bytes = 0;
  std::vector<double> call_per_backend(backends, 0.0);  // Σ prover call (ms) of each backend (device)
  std::vector<std::size_t> parts_per_backend(backends, 0);
  std::size_t parts = 0;
  for (std::size_t i = first; i < m; ++i) {
    const engine::ProofResult& r = done[i].result;
    for (const auto& t : r.partitions) {
      for (Mean& x : means) x.sum += t.*x.timer;
      sum_call += t.prover_call;
      sum_h2d_bytes += static_cast<double>(t.backend_timings.h2d_bytes);
      if (t.backend >= 0 && static_cast<std::size_t>(t.backend) < backends) {
        call_per_backend[static_cast<std::size_t>(t.backend)] += t.prover_call;
        ++parts_per_backend[static_cast<std::size_t>(t.backend)];
      }
      ++parts;
    }
    sum_verify += r.timings.verify;
    sum_queue += r.timings.queue_wait;
  }
  const double np = static_cast<double>(std::max<std::size_t>(parts, 1));
  const double busy = sum_call / 1000 / (wall_s * static_cast<double>(backends));
  std::vector<double> busy_per_backend;  // each backend's Σ prover call / the sustained wall
  for (const double ms : call_per_backend) busy_per_backend.push_back(ms / 1000 / wall_s);
  const std::uint64_t rss = peak_rss_bytes();
  const std::size_t proof_bytes = done[0].result.proof_bytes.size();
  for (std::size_t i = 0; i < m; ++i) progress("c2", "wrote " + p.outs[i]);

  if (p.json) {
    Json proofs = Json::array();
    for (std::size_t i = 0; i < m; ++i) {
      proofs.push_back(Json{{"c1", p.c1s[i]},
                            {"proof", p.outs[i]},
                            {"proof_bytes", done[i].result.proof_bytes.size()},
                            {"verified", true},
                            {"phase", done[i].phase},
                            {"read_c1_s", read_s[i]},
                            {"latency_s", done[i].latency_s},
                            {"timings_ms", proof_timings_json(done[i].result.timings)},
                            {"partition_timings_ms", partitions_json(done[i].result)}});
    }
    Json j{{"command", "c2"},
           {"registered_proof", filecoin::to_string(proof)},
           {"sectors", m},
           {"partitions", n},
           {"constraints_per_partition", counts.constraints},
           {"proof_bytes", proof_bytes},
           {"verified", true},
           {"backend", backend},
           {"backends", backends},
           {"load_params_s", load_s}};
    if (single_s >= 0) j["single_latency_s"] = single_s;
    j["sustained_proofs"] = k;
    j["sustained_wall_s"] = wall_s;
    j["sustained_seconds_per_proof"] = per_proof;
    j["steady_seconds_per_proof"] = steady;
    j["gpu_busy_fraction"] = busy;
    j["busy_fraction_per_backend"] = busy_per_backend;
    j["partitions_per_backend"] = parts_per_backend;
    j["mean_queue_wait_ms"] = sum_queue / static_cast<double>(k);
    for (const Mean& x : means) j[std::string("mean_") + x.name + "_ms"] = x.sum / np;
    j["mean_verify_ms"] = sum_verify / static_cast<double>(k);
    j["mean_h2d_bytes"] = sum_h2d_bytes / np;  // the partition's own data copied to the device
    j["peak_rss_bytes"] = rss;
    j["proofs"] = std::move(proofs);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "c2          " << m << " × " << filecoin::to_string(proof) << ", " << n << " partition(s) × "
              << counts.constraints << " constraints, backend " << backend << "\n"
              << "load params " << fmt_s(load_s) << "\n";
    if (single_s >= 0) std::cout << "single      " << fmt_s(single_s) << "  (C1 → verified proof written, alone)\n";
    std::cout << "sustained   " << k << " proof(s) in " << fmt_s(wall_s) << ": " << fmt_s(per_proof)
              << " per proof (" << fmt_s(steady) << " between completions)\n";
    char busy_s[32];
    std::snprintf(busy_s, sizeof busy_s, "%.1f %%", 100 * busy);
    std::cout << "busy        " << busy_s << " of the backends (Σ prover call / wall)";
    if (backends > 1) {
      std::cout << "; per backend:";
      for (std::size_t b = 0; b < backends; ++b) {
        std::snprintf(busy_s, sizeof busy_s, "%.1f %%", 100 * busy_per_backend[b]);
        std::cout << " [" << b << "] " << busy_s << " (" << parts_per_backend[b] << " partitions)";
      }
    }
    std::cout << "\n"
              << "per partition (means):";
    for (const Mean& x : means) std::cout << " " << x.name << " " << fmt_s(x.sum / np / 1000);
    std::cout << "\n"
              << "peak RSS    " << (rss >> 20) << " MiB\n";
    for (std::size_t i = 0; i < m; ++i) {
      std::cout << "proof       " << p.outs[i] << " (" << done[i].result.proof_bytes.size() << " bytes), verified, "
                << done[i].phase << " " << fmt_s(done[i].latency_s) << "\n";
    }
  }
  return kOk;
}

// ---- verify --c1 -------------------------------------------------------------------------------
int cmd_verify(PorepCli& p) {
  CLI::App& app = *p.verify;
  const std::string vk_path = option_value<std::string>(app, "--vk", "");
  const std::string proof_path = option_value<std::string>(app, "--proof", "");
  if (vk_path.empty()) throw UsageError("verify --c1 needs --vk (the PoRep .vk file)");
  const auto t0 = Clock::now();
  const VerifyingKey vk = VerifyingKey::read_file(vk_path);
  const filecoin::SealCommitPhase1Output c1 = filecoin::read_c1_file(p.verify_c1);
  const std::vector<Proof> proofs = read_proof_file(proof_path, c1.vanilla_proofs.size(), "the C1 has");
  const PreparedVerifyingKey pvk = prepare_verifying_key(vk);
  const std::vector<std::vector<Fr>> expected = verifier_inputs(c1);
  bool all = true;
  Json per = Json::array();
  for (std::size_t k = 0; k < proofs.size(); ++k) {
    const bool ok = verify_proof(pvk, proofs[k], expected[k]);
    all = all && ok;
    per.push_back(ok);
    if (!p.json) std::cout << "partition " << k << ": " << (ok ? "valid" : "INVALID") << "\n";
  }
  const double s = secs_since(t0);
  if (p.json) {
    std::cout << Json{{"command", "verify"}, {"valid", all}, {"partitions", per}, {"timings_s", {{"total", s}}}}.dump(2)
              << "\n";
  } else {
    std::cout << "result: " << (all ? "valid" : "INVALID") << "   (" << fmt_s(s) << ")\n";
  }
  return all ? kOk : kInvalid;
}

int run_guarded(const char* cmd, int (*fn)(PorepCli&), PorepCli& p) {
  return cli::run_guarded(cmd, [&] { return fn(p); }, p.json);
}

}  // namespace

void add_porep_commands(CLI::App& app, CLI::App& setup, CLI::App& verify, PorepCli& p) {
  p.setup = &setup;
  p.verify = &verify;
  setup.add_option("--sector-size", p.sector_size,
                   "porep / PoSt: sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB; also the test sizes 4KiB, 16KiB, "
                   "32KiB, 16MiB, 1GiB); snap: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB and the test sizes 1KiB … 32KiB, 16MiB");
  if (CLI::Option* o = setup.get_option_no_throw("--params")) {
    o->required(false);
    o->description(
        "output .params file (porep, window-post, winning-post, snap: default "
        "$FIL_PROOFS_PARAMETER_CACHE/<upstream name>.params, with the .vk beside it)");
  }
  CLI::Option* c1_opt = verify.add_option("--c1", p.verify_c1, "PoRep: take each partition's public inputs from this C1 JSON")
                            ->check(CLI::ExistingFile);
  // The C1 gives the public inputs: a --public next to it is refused (exit 2), never ignored.
  if (CLI::Option* o = verify.get_option_no_throw("--public")) c1_opt->excludes(o->required(false));

  p.c2 = app.add_subcommand("c2", "Filecoin PoRep commit phase 2: prove every partition of a C1 JSON");
  p.c2->add_option("--c1", p.c1s,
                   "C1 output JSON (SealCommitPhase1Output); repeat with --out for several sectors through one engine")
      ->required()
      ->check(CLI::ExistingFile)
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  p.c2->add_option("--params", p.params,
                   "PoRep .params file (default: $FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters, "
                   "upstream file name)");
  p.c2->add_option("--out", p.outs, "output proof file (192 bytes per partition); one per --c1, in order")
      ->required()
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  p.c2->add_flag("--first-alone", p.first_alone,
                 "with several --c1: prove the first alone (single-proof latency with the parameters loaded), then "
                 "the others back to back (sustained)");
  p.c2->add_flag("--compiled,!--prover-mode", p.compiled,
                 "the default: synthesize the witness only; the prover evaluates the constraints from the compiled "
                 "circuit (<params>.compiled, recorded and written there on first use; on the GPU a, b, c never reach "
                 "the host; on the host where it does not fit the device). --prover-mode: a, b, c built on the host "
                 "during synthesis (the path before the compiled form)");
  p.c2->add_option("--rs", p.rs,
                   "fixed randomizers \"R,S\" (decimal) for every partition, to compare proof bytes across forms or "
                   "machines (TESTING ONLY: a proof with known r, s is not zero-knowledge)");
  p.c2->add_option("--public", p.pub, "also write the public inputs (snarkjs public.json format)");
  p.c2->add_option("--snarkjs-dir", p.snarkjs_dir, "also write verification_key.json, proof.json, public.json here");
  p.c2->add_flag("--json", p.json, "print one JSON object on stdout instead of text");
  add_integer_option(*p.c2, "--partition", p.partition,
                     "prove only this partition (0-based; the output then holds its one proof; for benchmarks)", 0,
                     kMaxPartitions - 1);
  add_threads_option(*p.c2, p.threads);
  add_engine_options(*p.c2, p.engine);
}

int run_porep_commands(PorepCli& p) {
  if (p.c2 != nullptr && p.c2->parsed()) return run_guarded("c2", cmd_c2, p);
  if (p.setup != nullptr && p.setup->parsed()) {
    p.json = flag_set(*p.setup, "--json");
    p.threads = option_value<int>(*p.setup, "--threads", 0);
    const std::string circuit = option_value<std::string>(*p.setup, "--circuit", "");
    if (circuit == "porep" || circuit == "window-post" || circuit == "winning-post" || circuit == "snap") {
      return run_guarded("setup", cmd_setup, p);
    }
    if (!p.sector_size.empty()) {
      return usage_error("setup", "--sector-size is for --circuit porep, window-post, winning-post or snap", p.json);
    }
    if (!flag_set(*p.setup, "--params") && !flag_set(*p.setup, "--discard")) {
      return usage_error("setup", "--params is required (or --discard)", p.json);
    }
    return -1;
  }
  if (p.verify != nullptr && p.verify->parsed()) {
    p.json = flag_set(*p.verify, "--json");
    if (!p.verify_c1.empty()) return run_guarded("verify", cmd_verify, p);
    if (!flag_set(*p.verify, "--public")) {
      return usage_error("verify",
                         "--public is required (or --c1 for a PoRep proof, --post for a PoSt one, --snap for a "
                         "SnapDeals one)",
                         p.json);
    }
  }
  return -1;
}

}  // namespace proofline::cli
