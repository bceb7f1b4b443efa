// proofline gen-vanilla | check-vanilla (see post_cmds.hpp).
#include "post_cmds.hpp"

#include "common.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "proofline/circuits/post.hpp"
#include "proofline/circuits/snap.hpp"
#include "proofline/filecoin/post.hpp"
#include "proofline/filecoin/post_json.hpp"
#include "proofline/filecoin/snap.hpp"
#include "proofline/filecoin/snap_json.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/verifier.hpp"
#include "proofline/util/error.hpp"

namespace proofline::cli {

namespace {

using Json = nlohmann::ordered_json;
namespace fc = filecoin;

/// Milliseconds since construction or the last lap().
class Stopwatch {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t_).count();
    t_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
};

/// gen-vanilla's two outputs apart (one may be a link to the other): check_output_paths.
void check_gen_vanilla_outputs(const std::string& vanilla_path, const std::string& request_path) {
  check_output_paths({}, {{"--out (.vanilla.json)", vanilla_path}, {"--out (.request.json)", request_path}});
}

/// A --partition value for a PoSt request: one of the partitions its sectors make
/// (filecoin::partition_range), else a UsageError naming them (a flag value, not bad input).
std::size_t post_partition_flag(const fc::FallbackParams& fp, const fc::PoStRequest& r, std::size_t k) {
  const fc::PartitionRange range = fc::partition_range(fp, r.public_inputs);
  if (!range.contains(k)) throw UsageError("--partition " + std::to_string(k) + ": " + range.describe(fp, r.public_inputs));
  return k;
}

/// check-vanilla's request: a PoSt or a Snap one, the larger limit of the two.
constexpr std::uint64_t kMaxRequestBytes = std::max<std::uint64_t>(fc::kMaxPoStJsonBytes, fc::kMaxSnapJsonBytes);

/// The whole text of the input file of `flag`, refused from its size alone when larger than
/// `max_bytes` (the limit of what it holds).
std::string read_text_file(std::string_view flag, const std::string& path, std::uint64_t max_bytes,
                           std::string_view what) {
  refuse_larger_than(flag, path, max_bytes, what);
  const std::vector<std::uint8_t> b = groth16::read_file_bytes(path);
  return std::string(b.begin(), b.end());
}

int gen_snap_vanilla_cmd(const PostCli& p) {
  for (const char* post_only : {"--sectors", "--api", "--miner-id"}) {
    if (p.gen_vanilla->get_option(post_only)->count() > 0) {
      throw UsageError(std::string(post_only) + " is for window-post and winning-post, not snap");
    }
  }
  fc::GenSnapOptions o;
  o.sector_bytes = fc::snap_params(fc::parse_byte_size(p.sector_size)).sector_bytes;
  o.h = p.h;
  o.seed = p.seed;
  const std::string vanilla_path = p.out + ".vanilla.json", request_path = p.out + ".request.json";
  check_gen_vanilla_outputs(vanilla_path, request_path);
  PendingOutput vanilla_out(vanilla_path), request_out(request_path);  // unwritable paths refused first
  Stopwatch watch;
  const fc::GeneratedSnap g = fc::gen_snap_vanilla(o);
  const double gen_ms = watch.lap();
  vanilla_out.write(fc::snap_vanilla_proofs_to_json(g.partition_proofs));
  request_out.write(fc::to_json(fc::SnapRequest{g.sector_bytes, g.public_inputs}));
  vanilla_out.commit();
  request_out.commit();
  if (p.json) {
    std::cout << Json{{"command", "gen-vanilla"}, {"proof", "snap-update"},   {"sector_size", g.sector_bytes},
                      {"h", g.public_inputs.h},   {"partitions", g.partition_proofs.size()},
                      {"vanilla", vanilla_path},  {"request", request_path}, {"gen_ms", gen_ms}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << "snap        " << fc::snap_params(g.sector_bytes).name << ", h " << g.public_inputs.h << ", "
              << g.partition_proofs.size() << " partitions\nvanilla     " << vanilla_path << "\nrequest     "
              << request_path << "\n";
  }
  return 0;
}

int gen_vanilla_cmd(const PostCli& p) {
  if (p.sector_size.empty()) throw UsageError("give --sector-size (e.g. 2KiB, 32GiB)");
  // An empty prefix, or one that is a folder ("out/"), would write hidden ".vanilla.json" files.
  if (p.out.empty() || p.out.back() == '/') {
    throw UsageError("--out '" + p.out + "': empty output prefix (the file name before .vanilla.json / .request.json; "
                     "e.g. --out w3 or --out out/w3)");
  }
  if (p.kind == "snap") return gen_snap_vanilla_cmd(p);
  if (p.gen_vanilla->get_option("--h")->count() > 0) throw UsageError("--h is for snap");
  const fc::PoStType type = p.kind == "winning-post" ? fc::PoStType::Winning : fc::PoStType::Window;
  fc::GenPoStOptions o;
  o.config = fc::post_config(type, fc::parse_sector_size(p.sector_size), fc::api_version_from_string(p.api));
  o.sectors = p.sectors ? p.sectors : (type == fc::PoStType::Winning ? 1 : o.config.sector_count);
  o.miner_id = p.miner_id;
  o.seed = p.seed;
  const std::string vanilla_path = p.out + ".vanilla.json", request_path = p.out + ".request.json";
  check_gen_vanilla_outputs(vanilla_path, request_path);
  PendingOutput vanilla_out(vanilla_path), request_out(request_path);  // unwritable paths refused first
  Stopwatch watch;
  const fc::GeneratedPoSt g = fc::gen_post_vanilla(o);
  const double gen_ms = watch.lap();
  fc::PoStRequest r{g.config, o.miner_id, 0, g.public_inputs};
  vanilla_out.write(fc::vanilla_proofs_to_json(g.vanilla_proofs));
  request_out.write(fc::to_json(r));
  vanilla_out.commit();
  request_out.commit();
  const fc::FallbackParams fp = fc::fallback_params(o.config);
  const std::size_t partitions = type == fc::PoStType::Winning ? 1 : (o.sectors + fp.sector_count - 1) / fp.sector_count;
  if (p.json) {
    std::cout << Json{{"command", "gen-vanilla"}, {"post_type", std::string(fc::to_string(type))},
                      {"sector_size", o.config.sector_bytes}, {"sectors", o.sectors}, {"partitions", partitions},
                      {"vanilla", vanilla_path}, {"request", request_path}, {"gen_ms", gen_ms}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << "post        " << fc::to_string(type) << ", " << o.sectors << " sectors, " << partitions
              << " partitions\nvanilla     " << vanilla_path << "\nrequest     " << request_path << "\n";
  }
  return 0;
}

int check_snap_vanilla_cmd(const PostCli& p, const std::string& request_text) {
  Stopwatch watch;
  const fc::SnapRequest r = fc::parse_snap_request_json(request_text);
  const fc::SnapParams& sp = fc::snap_params(r.sector_bytes);
  const std::vector<fc::SnapPartitionProof> proofs =
      fc::parse_snap_vanilla_proofs_json(read_text_file("--vanilla", p.vanilla, fc::kMaxSnapJsonBytes, "the limit of Snap vanilla proofs"), r.sector_bytes);
  if (proofs.size() != sp.partition_count) {
    throw ProoflineError(Error::BadLength, std::to_string(proofs.size()) + " vanilla partition proofs, a " +
                                               std::string(sp.name) + " sector has " +
                                               std::to_string(sp.partition_count) + " partitions");
  }
  if (p.partition && *p.partition >= sp.partition_count) {
    throw UsageError("--partition " + std::to_string(*p.partition) + ": a " + std::string(sp.name) +
                     " SnapDeals sector has partitions 0.." + std::to_string(sp.partition_count - 1));
  }
  const double read_ms = watch.lap();
  bool all = true;
  Json parts = Json::array();
  std::string text;
  for (std::size_t k = 0; k < sp.partition_count; ++k) {
    if (p.partition && *p.partition != k) continue;
    const circuits::snap::SnapPartitionCheck c = circuits::snap::check_snap_partition(sp, r.public_inputs, k, proofs[k]);
    all = all && c.ok();
    Json j{{"partition", k}, {"valid", c.ok()}};
    if (!c.ok()) {
      j["error"] = c.describe();
      if (c.native.challenge) j["challenge"] = *c.native.challenge;
      if (c.unsatisfied) {
        j["unsatisfied_constraint"] = *c.unsatisfied;
        j["where"] = c.where;
        if (!c.name.empty()) j["constraint_name"] = c.name;
      }
    }
    parts.push_back(std::move(j));
    text += "partition " + std::to_string(k) + ": " + (c.ok() ? "valid" : "INVALID: " + c.describe()) + "\n";
  }
  const double check_ms = watch.lap();
  if (p.json) {
    std::cout << Json{{"command", "check-vanilla"}, {"proof", "snap-update"}, {"sector_size", r.sector_bytes},
                      {"valid", all},                {"partitions", parts},    {"read_ms", read_ms},
                      {"check_ms", check_ms}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << (all ? "valid" : "INVALID") << "\n" << text;
    std::printf("read        %10.1f ms\ncheck       %10.1f ms\n", read_ms, check_ms);
  }
  return all ? 0 : 1;
}

int check_vanilla_cmd(const PostCli& p) {
  const std::string request_text =
      read_text_file("--request", p.request, kMaxRequestBytes, "the limit of PoSt and Snap requests");
  if (fc::is_snap_request_json(request_text)) return check_snap_vanilla_cmd(p, request_text);
  Stopwatch watch;
  fc::PoStRequest r = fc::parse_post_request_json(request_text);
  const std::vector<fc::FallbackPoStSectorProof> proofs =
      fc::parse_vanilla_proofs_json(read_text_file("--vanilla", p.vanilla, fc::kMaxPoStJsonBytes, "the limit of PoSt vanilla proofs"),
                                  r.config.sector_bytes, r.config.challenge_count);
  const double read_ms = watch.lap();
  const fc::FallbackParams fp = fc::fallback_params(r.config);
  if (p.partition) r.partition = post_partition_flag(fp, r, *p.partition);
  const circuits::post::PoStPartitionCheck c =
      circuits::post::check_post_partition(fp, r.public_inputs, proofs, r.partition);
  const double check_ms = watch.lap();
  Json j{{"command", "check-vanilla"}, {"post_type", std::string(fc::to_string(r.config.type))},
         {"partition", r.partition},    {"valid", c.ok()},
         {"read_ms", read_ms},          {"check_ms", check_ms}};
  if (!c.ok()) {
    j["error"] = c.describe();
    if (!c.native.ok) {
      j["sector"] = c.native.sector;
      j["challenge"] = c.native.challenge;
    }
    if (c.unsatisfied) {
      j["unsatisfied_constraint"] = *c.unsatisfied;
      j["where"] = c.where;
      if (!c.name.empty()) j["constraint_name"] = c.name;
    }
  }
  if (p.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << (c.ok() ? "valid" : "INVALID: " + c.describe()) << "\n";
    std::printf("read        %10.1f ms\ncheck       %10.1f ms\n", read_ms, check_ms);
  }
  return c.ok() ? 0 : 1;
}

/// `verify --post R.json`: the proofs against the public inputs a verifier derives from the
/// request's randomness, sector ids and comm_r (circuits::post::post_public_inputs) — the vanilla
/// proofs are not read. One proof: the partition --partition (default: the request's
/// partition_index); several: every partition of the request's sectors, in order.
int verify_post_cmd(PostCli& p) {
  CLI::App& app = *p.verify;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string vk_path = option_value<std::string>(app, "--vk", "");
  const std::string params_path = option_value<std::string>(app, "--params", "");
  const std::string proof_path = option_value<std::string>(app, "--proof", "");
  if (vk_path.empty() == params_path.empty()) throw UsageError("verify --post: give exactly one of --vk and --params");
  refuse_vk_as_params(params_path, "give it as --vk");
  const std::string text = read_text_file("--post", p.verify_post, fc::kMaxPoStJsonBytes, "the limit of PoSt requests");
  if (fc::is_snap_request_json(text)) {  // the other family: a usage error, as verify --snap's
    throw UsageError("verify --post takes a PoSt request (post_type, randomness, sectors), as `proofline gen-vanilla "
                     "window-post|winning-post` writes it; '" + p.verify_post + "' is a SnapDeals request: use verify --snap");
  }
  const fc::PoStRequest r = fc::parse_post_request_json(text);
  const fc::FallbackParams fp = fc::fallback_params(r.config);
  const std::size_t per = fp.sector_count, first = r.public_inputs.first_partition;
  const std::size_t partitions = fp.type == fc::PoStType::Winning ? 1 : (r.public_inputs.sectors.size() + per - 1) / per;
  const std::uintmax_t proof_bytes = std::filesystem::file_size(proof_path);
  std::vector<std::size_t> ks;
  if (proof_bytes == 192) {
    ks.push_back(p.partition ? post_partition_flag(fp, r, *p.partition) : r.partition);
  } else {
    if (p.partition) throw UsageError("--partition is for a proof file of one proof (192 bytes)");
    for (std::size_t k = 0; k < partitions; ++k) ks.push_back(first + k);
  }
  const std::vector<groth16::Proof> proofs =
      read_proof_file(proof_path, ks.size(),
                      ks.size() == 1 ? std::string("one partition to verify:")
                                     : "the request's " + std::to_string(r.public_inputs.sectors.size()) +
                                           " sectors at " + std::to_string(per) + " per partition make");
  const groth16::VerifyingKey vk = vk_path.empty() ? groth16::VerifyingKey::read_params_file_head(params_path)
                                                   : groth16::VerifyingKey::read_file(vk_path);
  const circuits::post::PoStCounts counts = circuits::post::count_post(circuits::post::shape_for(fp));
  if (vk.ic.size() != counts.inputs) {
    throw ProoflineError(Error::BadLength, "verifying key '" + (vk_path.empty() ? params_path : vk_path) + "' has " +
                                               std::to_string(vk.ic.size()) + " public inputs (incl. ONE), the " +
                                               fc::fallback_identifier(fp) + " circuit has " +
                                               std::to_string(counts.inputs));
  }
  const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(vk);
  bool all = true;
  Json per_partition = Json::array();
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const bool ok = groth16::verify_proof(pvk, proofs[i], circuits::post::post_public_inputs(fp, r.public_inputs, ks[i]));
    all = all && ok;
    per_partition.push_back(Json{{"partition", ks[i]}, {"valid", ok}});
    if (!p.json) std::cout << "partition " << ks[i] << ": " << (ok ? "valid" : "INVALID") << "\n";
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (p.json) {
    std::cout << Json{{"command", "verify"}, {"post_type", std::string(fc::to_string(r.config.type))},
                      {"valid", all}, {"partitions", per_partition}, {"timings_ms", {{"total", ms}}}}
                     .dump(2)
              << "\n";
  } else {
    std::printf("result: %s   (%.1f ms)\n", all ? "valid" : "INVALID", ms);
  }
  return all ? kOk : kInvalid;
}

/// `verify --snap R.json`: one proof per partition against the public inputs a verifier derives from
/// the Snap request (circuits::snap::snap_public_inputs) — the vanilla proofs are not read.
int verify_snap_cmd(PostCli& p) {
  CLI::App& app = *p.verify;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string vk_path = option_value<std::string>(app, "--vk", "");
  const std::string params_path = option_value<std::string>(app, "--params", "");
  const std::string proof_path = option_value<std::string>(app, "--proof", "");
  if (vk_path.empty() == params_path.empty()) throw UsageError("verify --snap: give exactly one of --vk and --params");
  refuse_vk_as_params(params_path, "give it as --vk");
  const std::string text = read_text_file("--snap", p.verify_snap, fc::kMaxSnapJsonBytes, "the limit of Snap requests");
  if (!fc::is_snap_request_json(text)) {
    throw UsageError("verify --snap takes a SnapDeals request (comm_r_old, comm_d_new, comm_r_new), as "
                     "`proofline gen-vanilla snap` writes it" +
                     std::string(text.find("\"post_type\"") != std::string::npos
                                     ? "; '" + p.verify_snap + "' is a PoSt request: use verify --post"
                                     : ""));
  }
  const fc::SnapRequest r = fc::parse_snap_request_json(text);
  const fc::SnapParams& sp = fc::snap_params(r.sector_bytes);
  const std::vector<groth16::Proof> proofs =
      read_proof_file(proof_path, sp.partition_count, "a " + std::string(sp.name) + " SnapDeals sector has");
  const groth16::VerifyingKey vk = vk_path.empty() ? groth16::VerifyingKey::read_params_file_head(params_path)
                                                   : groth16::VerifyingKey::read_file(vk_path);
  const circuits::snap::SnapCounts counts = circuits::snap::count_snap(sp);
  if (vk.ic.size() != counts.inputs) {
    throw ProoflineError(Error::BadLength, "verifying key '" + (vk_path.empty() ? params_path : vk_path) + "' has " +
                                               std::to_string(vk.ic.size()) + " public inputs (incl. ONE), the " +
                                               fc::snap_identifier(sp) + " circuit has " + std::to_string(counts.inputs));
  }
  const groth16::PreparedVerifyingKey pvk = groth16::prepare_verifying_key(vk);
  bool all = true;
  Json per_partition = Json::array();
  for (std::size_t k = 0; k < proofs.size(); ++k) {
    const bool ok = groth16::verify_proof(pvk, proofs[k], circuits::snap::snap_public_inputs(sp, r.public_inputs, k));
    all = all && ok;
    per_partition.push_back(Json{{"partition", k}, {"valid", ok}});
    if (!p.json) std::cout << "partition " << k << ": " << (ok ? "valid" : "INVALID") << "\n";
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (p.json) {
    std::cout << Json{{"command", "verify"}, {"proof", "snap-update"}, {"valid", all}, {"partitions", per_partition},
                      {"timings_ms", {{"total", ms}}}}
                     .dump(2)
              << "\n";
  } else {
    std::printf("result: %s   (%.1f ms)\n", all ? "valid" : "INVALID", ms);
  }
  return all ? kOk : kInvalid;
}

}  // namespace

void add_post_commands(CLI::App& app, CLI::App& verify, PostCli& p) {
  p.verify = &verify;
  CLI::Option* post_opt =
      verify
          .add_option("--post", p.verify_post,
                      "PoSt: the public inputs a verifier derives them from — a request JSON (post type, sector size, "
                      "API version, miner id, randomness, partition, sector ids with comm_r; gen-vanilla writes one), "
                      "no vanilla proofs")
          ->check(CLI::ExistingFile);
  add_integer_option(verify, "--partition", p.partition,
                     "PoSt, a proof file of one proof: the partition it proves (default: the request's partition_index)",
                     0, kMaxU64)
      ->needs(post_opt);
  // The request gives the public inputs: a --public or --c1 next to it is refused (exit 2), never ignored.
  CLI::Option* snap_opt = verify
                              .add_option("--snap", p.verify_snap,
                                          "SnapDeals: each partition's public inputs from this Snap request JSON "
                                          "(comm_r_old, comm_d_new, comm_r_new, h; gen-vanilla snap writes one), no "
                                          "vanilla proofs")
                              ->check(CLI::ExistingFile);
  snap_opt->excludes(post_opt);
  for (const char* other : {"--public", "--c1"}) {
    if (CLI::Option* o = verify.get_option_no_throw(other)) {
      post_opt->excludes(o->required(false));
      snap_opt->excludes(o);
    }
  }

  auto common = [&](CLI::App* s) {
    s->add_flag("--json", p.json, "print one JSON object on stdout instead of text");
    add_threads_option(*s, p.threads);
  };
  p.gen_vanilla = app.add_subcommand("gen-vanilla", "write valid PoSt or SnapDeals vanilla proofs of random sectors "
                                                    "of any size and their public inputs");
  p.gen_vanilla->add_option("kind", p.kind, "window-post, winning-post or snap")
      ->required()
      ->check(CLI::IsMember({"window-post", "winning-post", "snap"}));
  p.gen_vanilla->add_option("--sector-size", p.sector_size,
                            "2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or a test size; snap: also 1KiB, 8KiB)");
  add_integer_option(*p.gen_vanilla, "--h", p.h,
                     "snap: high bits of a challenge that select its rho (1 below 8 MiB, 7..12 above; default the "
                     "size's hs[3], what nodes use)",
                     1, 12);
  add_integer_option(*p.gen_vanilla, "--sectors", p.sectors,
                     "real sectors (default: one partition's for window-post, 1 for winning-post)", 1, 100000);
  p.gen_vanilla->add_option("--api", p.api, "API version of the challenge derivation: 1.0.0, 1.1.0, 1.2.0 (default)");
  add_integer_option(*p.gen_vanilla, "--miner-id", p.miner_id, "miner actor id (prover_id)", 0, kMaxU64);
  add_integer_option(*p.gen_vanilla, "--seed", p.seed, "randomness seed (the output is a function of the options)",
                     0, kMaxU64);
  p.gen_vanilla->add_option("--out", p.out, "output prefix: PREFIX.vanilla.json and PREFIX.request.json")->required();
  common(p.gen_vanilla);

  p.check_vanilla = app.add_subcommand("check-vanilla", "verify PoSt or SnapDeals vanilla proofs natively and "
                                                        "synthesize the partition's circuit, naming what is wrong");
  p.check_vanilla->add_option("--request", p.request, "request JSON (public inputs)")->required()->check(CLI::ExistingFile);
  p.check_vanilla->add_option("--vanilla", p.vanilla, "JSON array of base64 vanilla proofs")
      ->required()
      ->check(CLI::ExistingFile);
  p.check_vanilla->add_option("--partition", p.partition,
                               "partition to check (default: PoSt the request's, snap every partition)");
  common(p.check_vanilla);
}

int run_post_commands(PostCli& p) {
  if (p.verify != nullptr && p.verify->parsed() && !p.verify_post.empty()) {
    p.json = flag_set(*p.verify, "--json");
    const auto limit = limit_threads(option_value<int>(*p.verify, "--threads", 0));
    return run_guarded("verify", [&] { return verify_post_cmd(p); }, p.json);
  }
  if (p.verify != nullptr && p.verify->parsed() && !p.verify_snap.empty()) {
    p.json = flag_set(*p.verify, "--json");
    const auto limit = limit_threads(option_value<int>(*p.verify, "--threads", 0));
    return run_guarded("verify", [&] { return verify_snap_cmd(p); }, p.json);
  }
  const char* cmd = p.gen_vanilla && p.gen_vanilla->parsed()       ? "gen-vanilla"
                    : p.check_vanilla && p.check_vanilla->parsed() ? "check-vanilla"
                                                                   : nullptr;
  if (!cmd) return -1;
  const auto limit = limit_threads(p.threads);
  return run_guarded(cmd, [&] {
    if (p.check_vanilla->parsed()) return check_vanilla_cmd(p);
    // gen-vanilla takes every name and size from the command line: an unsupported one is a usage error.
    return flags_are_arguments([&] { return gen_vanilla_cmd(p); });
  }, p.json);
}

}  // namespace proofline::cli
