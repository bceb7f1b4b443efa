// src/cli/porep_cmds.hpp — Filecoin PoRep commit phase 2 in `proofline` (circuits/porep.hpp).
//
//   proofline setup  --circuit porep --sector-size SIZE [--params P] [--vk V] [--seed S]
//       development parameters (NOT secure) for one partition's circuit of the size's default
//       registered proof; default output: $FIL_PROOFS_PARAMETER_CACHE (else
//       /var/tmp/filecoin-proof-parameters) / v28-stacked-proof-of-replication-…{.params,.vk}, the
//       upstream file names (filecoin::parameter_file_name).
//   proofline c2     --c1 c1.json [--params P] --out proof.bin [--public J] [--snarkjs-dir D]
//                    [--backend cpu|cuda|auto] [--memory-budget B] [--partition K]
//       every partition of the C1 proved by an engine started in the process (engine_client.hpp,
//       kind "porep-c2"; one 192-byte proof per partition, concatenated in partition order):
//       partitions are synthesized and proved as the memory budget admits them (a 32 GiB C1's 10
//       partitions are never all in memory unless the budget holds them). Parameters by upstream
//       name from the cache when --params is not given; their counts are checked against the
//       sector's circuit before their points are read. Each partition's circuit is checked (a·b = c
//       on every row): a failing one names its partition, challenge (node) and part, and no proof is
//       written (exit 3). Every proof is verified by the engine, with the public inputs a verifier
//       derives from the C1 (graph parents, challenges), before the file is written. --backend:
//       groth16::make_backends (cuda = every usable CUDA device, auto = cuda when one is usable,
//       else cpu; default cpu). --partition K: only partition K is synthesized, proved, verified and
//       written (one 192-byte proof; for benchmarks of one 32 GiB partition).
//   proofline c2     --c1 A --out PA --c1 B --out PB … [--first-alone] [--params P] [--json]
//       several sectors through one engine (the sustained mode of bench/porep.sh): the parameters
//       are loaded once first (with the first C1's checks), then every C1 is submitted at once, so
//       partitions of sector i+1 synthesize while sector i's are proved; each proof verified and
//       written to its --out. --first-alone: the first C1 is proved alone first (its latency, C1 →
//       verified proof written, with the parameters resident), then the others together. Prints
//       the sustained seconds per proof (wall / proofs, and between the first and last completion),
//       the backends' busy fraction (Σ prover call / (wall × backends)), per-partition stage means,
//       peak RSS, and with --json every proof's per-partition timings (below). --public,
//       --snarkjs-dir: one --c1 only.
// c2 --json (one C1): command, registered_proof, partitions, partitions_in_c1,
//   constraints_per_partition, proof, proof_bytes, verified, backend, timings_s {read_c1,
//   load_params, synthesis, prove, verify, total} (seconds; synthesis and prove summed over
//   partitions), timings_ms {queue_wait, srs_load, synthesis, h2d, kernel, prover_call, stage,
//   assemble, verify, total} (the engine's ProofTimings), partition_timings_ms [{index, backend,
//   queue_wait, srs_load, synthesis, prove_wait, h2d, kernel, prover_call, stage, total}] (the
//   engine's PartitionTimings, engine.hpp), peak_rss_bytes (VmHWM).
//   proofline verify --vk V --c1 c1.json --proof proof.bin
//       public inputs of each partition from the C1 (filecoin::public_inputs), then Groth16 verify.
// Progress lines go to stderr; results to stdout (text, or one JSON object with --json).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine_client.hpp"

namespace proofline::cli {

struct PorepCli {
  CLI::App* setup = nullptr;
  CLI::App* c2 = nullptr;
  CLI::App* verify = nullptr;
  // setup (the setup subcommand's own --circuit, --params, --vk, --seed are read back from it)
  std::string sector_size;
  // c2
  std::string c1, params, out, pub, snarkjs_dir;  ///< c1, out: the first pair of c1s, outs
  std::vector<std::string> c1s, outs;            ///< --c1 / --out, in pairs
  bool first_alone = false;                      ///< --first-alone
  bool compiled = true;                          ///< --compiled (default) / --prover-mode: kind argument compiled
  std::string rs;  ///< --rs "R,S": fixed randomizers for every partition (testing only; empty: drawn)
  EngineOptions engine;  ///< --backend, --memory-budget (engine_client.hpp)
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
