// src/cli/filecoin_cmds.hpp — producing and checking Filecoin C1 files with `proofline`.
//
//   proofline gen-c1   --sector-size SIZE [--proof NAME] [--seed N] --out c1.json
//       a valid C1 (commit phase 1 output) for a random sector of any size, without sealing it
//       (filecoin::gen_c1: only the challenged paths are materialized). Interactive proofs only
//       (default: the size's V1_1 proof).
//   proofline seal     --sector-size SIZE [--proof NAME] [--zero] [--seed N] [--sector-id ID] --out c1.json
//       a real SDR seal (filecoin::seal_sector) of random data (or zeros with --zero) for sectors up
//       to 1 GiB (practical: 2 KiB … 16 MiB), any registered proof including synthetic and NI, then its C1.
//   proofline check-c1 --c1 c1.json
//       parses the C1 (errors name the JSON path) and verifies every vanilla proof natively
//       (filecoin::verify_vanilla); a failure names the partition, challenge and node.
// Each command takes --json (one JSON object on stdout) and --threads N. Exit codes as main.cpp:
// 0 ok / valid, 1 C1 invalid (check-c1), 2 usage error, 3 bad input, 4 internal error.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace proofline::cli {

struct FilecoinCli {
  CLI::App* gen_c1 = nullptr;
  CLI::App* seal = nullptr;
  CLI::App* check_c1 = nullptr;
  std::string sector_size, proof, out, c1;
  std::uint64_t seed = 0;
  std::uint64_t sector_id = 1;
  bool zero = false;
  bool json = false;
  int threads = 0;
};

/// Adds the gen-c1, seal and check-c1 subcommands to `app`.
void add_filecoin_commands(CLI::App& app, FilecoinCli& f);
/// Runs a parsed gen-c1 / seal / check-c1 command and returns its exit code, or -1 when none of them
/// was given.
int run_filecoin_commands(FilecoinCli& f);

}  // namespace proofline::cli
