// src/cli/params_cmds.hpp — checking the Filecoin parameter cache with `proofline`.
//
//   proofline params check [--cache DIR] [--manifest parameters.json] [--sector-size S]... [--strict] [--json]
//       verifies every .params / .vk / .srs file of the cache (default $FIL_PROOFS_PARAMETER_CACHE, else
//       /var/tmp/filecoin-proof-parameters) against the published digests (built in; --manifest: another
//       parameters.json) and prints one line per file — ok, corrupted (digest differs), truncated (shorter
//       than its own section headers say), unknown (not in the manifest), missing (a .params/.vk of an
//       asked --sector-size not in the cache) — then a summary (groth16::check_param_cache).
// Exit codes: 0 every file checked is ok (unknown ones too, unless --strict); 2 usage error (a --cache
// that is not a folder, a --sector-size that is not a size or has no files in the manifest, a --manifest
// that does not exist); 3 something missing, truncated or corrupted (or unknown with --strict), or a
// malformed manifest; 4 internal error.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace proofline::cli {

struct ParamsCli {
  CLI::App* params = nullptr;
  CLI::App* check = nullptr;
  std::string cache, manifest;
  std::vector<std::string> sector_sizes;
  bool strict = false;
  bool json = false;
};

/// Adds `params` (with its subcommand `check`) to `app`.
void add_params_commands(CLI::App& app, ParamsCli& p);
/// Runs a parsed `params check` and returns its exit code, or -1 when it was not given.
int run_params_commands(const ParamsCli& p);

}  // namespace proofline::cli
