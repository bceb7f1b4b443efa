// proofline params check (see params_cmds.hpp).
#include "params_cmds.hpp"

#include "common.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "proofline/filecoin/sector.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/util/error.hpp"

namespace proofline::cli {

namespace {

using Json = nlohmann::ordered_json;
using groth16::ParamStatus;

constexpr ParamStatus kStatuses[] = {ParamStatus::Ok, ParamStatus::Corrupted, ParamStatus::Truncated,
                                     ParamStatus::Unknown, ParamStatus::Missing};

int check_cmd(const ParamsCli& p) {
  std::filesystem::path dir;
  if (p.check->count("--cache")) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p.cache, ec)) {
      throw UsageError("--cache " + p.cache + ": " +
                       (std::filesystem::exists(p.cache, ec) ? "not a folder" : "no such folder"));
    }
    dir = p.cache;
  } else {
    dir = filecoin::parameter_cache_dir();
  }
  groth16::ParamCheckOptions opts;
  for (const std::string& s : p.sector_sizes) {
    try {
      opts.sector_sizes.push_back(filecoin::parse_sector_size(s));
    } catch (const ProoflineError& e) {
      throw UsageError("--sector-size " + s + ": " + e.what());
    }
  }
  const groth16::ParamManifest custom =
      p.manifest.empty() ? groth16::ParamManifest{} : groth16::ParamManifest::read_file(p.manifest);
  const groth16::ParamManifest& manifest = p.manifest.empty() ? groth16::ParamManifest::builtin() : custom;
  opts.progress = groth16::stderr_hash_progress("proofline params check");

  groth16::ParamCheckReport rep;
  try {
    rep = groth16::check_param_cache(dir, manifest, opts);
  } catch (const ProoflineError& e) {
    if (e.code() == Error::BadArgument) throw UsageError("--sector-size: " + std::string(e.what()));
    throw;
  }
  const bool failed = rep.failed() || (p.strict && rep.count(ParamStatus::Unknown) > 0);

  if (p.json) {
    Json files = Json::array();
    for (const auto& f : rep.files) {
      files.push_back({{"name", f.name},
                       {"status", std::string(groth16::to_string(f.status))},
                       {"size", f.size},
                       {"sector_size", f.sector_size},
                       {"expected_digest", f.expected_digest},
                       {"actual_digest", f.actual_digest},
                       {"detail", f.detail}});
    }
    Json summary = Json::object();
    for (ParamStatus s : kStatuses) summary[std::string(groth16::to_string(s))] = rep.count(s);
    Json j{{"command", "params check"}, {"cache", rep.dir.string()},      {"cache_exists", rep.dir_exists},
           {"manifest", rep.manifest_source}, {"manifest_files", manifest.entries().size()},
           {"files", files},          {"summary", summary},               {"ok", !failed}};
    std::cout << j.dump(2) << "\n";
    return failed ? kBadInput : kOk;
  }
  std::cout << "cache      " << rep.dir.string() << (rep.dir_exists ? "" : " (does not exist: an empty cache)") << "\n"
            << "manifest   " << rep.manifest_source << ", " << manifest.entries().size() << " files\n";
  for (const auto& f : rep.files) {
    char status[16];
    std::snprintf(status, sizeof status, "%-10s ", std::string(groth16::to_string(f.status)).c_str());
    std::cout << status << f.name;
    if (f.status != ParamStatus::Missing) std::cout << " (" << f.size << " bytes)";
    if (!f.detail.empty()) std::cout << ": " << f.detail;
    std::cout << "\n";
  }
  std::cout << "summary    " << rep.files.size() << " file(s):";
  const char* sep = " ";
  for (ParamStatus s : kStatuses) {
    std::cout << sep << rep.count(s) << " " << groth16::to_string(s);
    sep = ", ";
  }
  std::cout << (failed ? "; FAILED" : "; ok") << "\n";
  return failed ? kBadInput : kOk;
}

}  // namespace

void add_params_commands(CLI::App& app, ParamsCli& p) {
  p.params = app.add_subcommand("params", "Filecoin parameter files: `params check` verifies the cache");
  p.params->require_subcommand(1);
  p.check = p.params->add_subcommand(
      "check", "verify every .params/.vk/.srs file of the parameter cache against Filecoin's published digests "
               "(BLAKE2b-512) and name missing, truncated and corrupted files");
  p.check->add_option("--cache", p.cache,
                      "parameter folder (default: $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters)");
  p.check->add_option("--manifest", p.manifest,
                      "parameters.json to check against instead of the built-in table (same format: "
                      "{\"<file>\": {\"cid\", \"digest\", \"sector_size\"}})")
      ->check(CLI::ExistingFile);
  p.check->add_option("--sector-size", p.sector_sizes,
                      "also require the .params and .vk files of this size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB; "
                      "repeatable): absent ones are reported missing");
  p.check->add_flag("--strict", p.strict, "files not in the manifest (unknown) fail the check too");
  p.check->add_flag("--json", p.json, "print one JSON object on stdout instead of text");
  p.check->footer(
      "Statuses: ok, corrupted (digest differs), truncated (shorter than its section headers say), unknown (not in\n"
      "the manifest), missing. Exit codes: 0 all ok (unknown too, unless --strict), 2 usage error, 3 something\n"
      "missing, truncated or corrupted (or a malformed --manifest), 4 internal error.");
}

int run_params_commands(const ParamsCli& p) {
  if (!p.check || !p.check->parsed()) return -1;
  return run_guarded("params check", [&] { return check_cmd(p); });
}

}  // namespace proofline::cli
