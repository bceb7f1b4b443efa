// src/cli/post_cmds.hpp — producing and checking Fallback PoSt and SnapDeals inputs with `proofline`.
//
//   proofline gen-vanilla window-post|winning-post --sector-size SIZE [--sectors N] [--api 1.0.0|1.1.0|1.2.0]
//                         [--miner-id M] [--seed N] --out PREFIX
//       valid vanilla proofs of random sectors of any size (filecoin::gen_post_vanilla: only the
//       challenged tree R paths are materialized): PREFIX.vanilla.json (the JSON array of base64
//       bincode FallbackPoStSectorProof that Curio and cuzk-bench use) and PREFIX.request.json (the
//       public inputs: type, size, API version, miner id, randomness, partition, sectors with comm_r;
//       filecoin/post_json.hpp). Window default: one partition's sectors; Winning: 1 sector.
//   proofline gen-vanilla snap --sector-size SIZE [--h H] [--seed N] --out PREFIX
//       valid vanilla proofs of every partition of a random SnapDeals update of a random sector
//       (filecoin::gen_snap_vanilla): PREFIX.vanilla.json (Curio's snap-vproof.json: the JSON array of
//       base64 bincode PartitionProof) and PREFIX.request.json (sector size, h, comm_r_old,
//       comm_d_new, comm_r_new; filecoin/snap_json.hpp). --h: one of the size's allowed h (default
//       its hs[3], what nodes use).
//   proofline check-vanilla --request R.json --vanilla V.json [--partition K]
//       verifies the partition's vanilla proofs natively and synthesizes its circuit, naming the
//       first failing sector / challenge, the first unsatisfied constraint (place and, for small
//       circuits, its test-mode path) and a public input that differs from the verifier's. A Snap
//       request (filecoin::is_snap_request_json) checks every partition (or K), naming per partition
//       the native check's failure and the unsatisfied constraint's part and test-mode path.
//   proofline verify (--vk V | --params P) --post R.json --proof F [--partition K]
//       verifies PoSt proofs against the public inputs a verifier derives from the request's
//       randomness, sector ids and comm_r (type, size and API version fix the circuit and the
//       challenges; miner id is part of it, not of the circuit's inputs) — never from vanilla
//       proofs. A proof file of one proof (192 bytes): partition K (default: the request's
//       partition_index); of several: every partition of the request's sectors, in order. A key of
//       another circuit is named (exit 3).
//   proofline verify (--vk V | --params P) --snap R.json --proof F
//       SnapDeals: each partition's public inputs from the Snap request (circuits::snap::
//       snap_public_inputs: k_and_h_select, comm_r_old, comm_d_new, comm_r_new), never from vanilla
//       proofs; the proof file holds one 192-byte proof per partition, in order.
// Each command takes --json and --threads N. Exit codes as main.cpp: 0 ok / valid, 1 invalid
// (check-vanilla, verify), 2 usage error, 3 bad input, 4 internal error.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace proofline::cli {

struct PostCli {
  CLI::App* gen_vanilla = nullptr;
  CLI::App* check_vanilla = nullptr;
  CLI::App* verify = nullptr;  ///< main's verify, which --post / --snap make a PoSt / SnapDeals verify
  std::string kind, sector_size, api = "1.2.0", out, request, vanilla, verify_post, verify_snap;
  std::size_t h = 0;           ///< gen-vanilla snap --h
  std::size_t sectors = 0;
  std::uint64_t miner_id = 1000, seed = 0;
  std::optional<std::size_t> partition;
  bool json = false;
  int threads = 0;
};

/// Adds the gen-vanilla and check-vanilla subcommands to `app`, and --post / --snap / --partition to
/// `verify`.
void add_post_commands(CLI::App& app, CLI::App& verify, PostCli& p);
/// Runs a parsed gen-vanilla / check-vanilla / verify --post / verify --snap command and returns its
/// exit code, or -1 when none was given.
int run_post_commands(PostCli& p);

}  // namespace proofline::cli
