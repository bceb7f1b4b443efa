// src/cli/porep_cmds.hpp — Filecoin PoRep commit phase 2 in `proofline` (circuits/porep.hpp).
//
//   proofline setup  --circuit porep --sector-size SIZE [--params P] [--vk V] [--seed S]
//       development parameters (NOT secure) for one partition's circuit of the size's default
//       registered proof; default output: $FIL_PROOFS_PARAMETER_CACHE (else
//       /var/tmp/filecoin-proof-parameters) / v28-stacked-proof-of-replication-…{.params,.vk}, the
//       upstream file names (filecoin::parameter_file_name).
//   proofline c2     --c1 c1.json [--params P] --out proof.bin [--public J] [--snarkjs-dir D]
//                    [--backend cpu|cuda|auto] [--partition K]
//       every partition of the C1 synthesized and proved as one batch (one 192-byte proof per
//       partition, concatenated in partition order); parameters by upstream name from the cache
//       when --params is not given. Each partition's circuit is checked (a·b = c on every row) before
//       proving: a failing one names its partition, challenge (node) and part, and no proof is
//       written (exit 3). Every proof is verified, with the public inputs a verifier derives from
//       the C1 (graph parents, challenges), before the file is written. --backend: the prover
//       backend (groth16::make_backends: cuda = the first usable CUDA device, auto = cuda when one is
//       usable, else cpu; default cpu). --partition K: only partition K is synthesized, proved,
//       verified and written (one 192-byte proof; for benchmarks of one 32 GiB partition).
//   proofline verify --vk V --c1 c1.json --proof proof.bin
//       public inputs of each partition from the C1 (filecoin::public_inputs), then Groth16 verify.
// Progress lines go to stderr; results to stdout (text, or one JSON object with --json).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace proofline::cli {

struct PorepCli {
  CLI::App* setup = nullptr;
  CLI::App* c2 = nullptr;
  CLI::App* verify = nullptr;
  // setup (the setup subcommand's own --circuit, --params, --vk, --seed are read back from it)
  std::string sector_size;
  // c2
  std::string c1, params, out, pub, snarkjs_dir, backend = "cpu";
  // verify
  std::string verify_c1;
  bool json = false;
  int threads = 0;
  long partition = -1;  ///< c2 --partition (-1: all)
};

/// Adds --sector-size to `setup`, --c1 to `verify` (making their --params / --public optional) and
/// the c2 subcommand to `app`.
void add_porep_commands(CLI::App& app, CLI::App& setup, CLI::App& verify, PorepCli& p);
/// Runs a parsed PoRep command (setup --circuit porep, c2, verify --c1) and returns its exit code,
/// or -1 when the command line is not a PoRep one (checking the bench commands' own required
/// options, which add_porep_commands relaxed: exit 2 when they are missing).
int run_porep_commands(PorepCli& p);

}  // namespace proofline::cli
