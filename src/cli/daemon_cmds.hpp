// src/cli/daemon_cmds.hpp — the daemon commands of `proofline` (server/, proto/proofline/v1).
//
//   proofline daemon [--config FILE] [--unix PATH] [--tcp HOST:PORT] [--backend cpu|cuda|auto]
//                    [--set section.key=value]... [--print-config]
//   proofline submit [--address A] --kind bench --params P --size 2^k [--input N] [--partitions K]
//                    [--priority low|normal|high|critical] [--request-id ID] [--timeout-ms T]
//                    [--zkey Z --wtns W] [--c1 C1 [--sector-id N --prover-id HEX]] [--arg key=value]...
//                    [--proof OUT] [--public OUT]
//                    [--no-wait] [--json]
//   proofline await  [--address A] --id ID [--timeout-ms T] [--proof OUT] [--public OUT] [--json]
//   proofline cancel [--address A] --id ID [--json]
//   proofline status [--address A] [--metrics] [--json]
// Addresses: "unix:/path" or "host:port"; default unix:/tmp/proofline.sock (the daemon's default).
// `daemon` runs until SIGINT/SIGTERM. `submit` is SubmitProof + AwaitProof with
// cancel_on_disconnect: SIGINT/SIGTERM (Ctrl-C) cancels the job, says so and exits 5; --no-wait only
// submits and prints the id. `await` waits for such an id and reports it as submit does (Ctrl-C stops
// waiting only: exit 5, the job goes on); `cancel` cancels one (queued partitions dropped, running
// ones stop at their next cancellation poll, promptly; exit 3 if the daemon does not know the id).
// --proof: the proof bytes (192 per partition; kind porep-c2: the concatenated C2 proof, as
// `proofline c2 --out` writes it; --params optional, the daemon then looks the upstream file name up
// in its $FIL_PROOFS_PARAMETER_CACHE); kind snarkjs: --proof and --public are snarkjs proof.json and
// public.json, as `proofline prove --zkey` writes them.
//
// Exit codes (as main.cpp, plus two): 0 ok (submit: proof COMPLETED and verified by the daemon);
// 2 usage; 3 bad request or input (INVALID_ARGUMENT, job FAILED); 4 internal; 5 the job did not
// finish (CANCELLED, or TIMEOUT after --timeout-ms, or interrupted); 6 the daemon cannot be reached.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace proofline::cli {

struct DaemonCli {
  CLI::App* daemon = nullptr;
  CLI::App* submit = nullptr;
  CLI::App* await_cmd = nullptr;   // proofline await --id
  CLI::App* cancel_cmd = nullptr;  // proofline cancel --id
  CLI::App* status = nullptr;

  // daemon
  std::string config, unix_socket, tcp, backend;
  std::vector<std::string> sets;
  bool print_config = false;
  // submit / status
  std::string address = "unix:/tmp/proofline.sock";
  std::string kind = "bench", params, size = "2^10", priority = "normal", request_id, zkey, wtns, proof_out, public_out;
  std::string c1, prover_id;
  std::uint64_t input = 0, sector_id = 0;
  unsigned partitions = 0;
  std::uint64_t timeout_ms = 0;
  std::vector<std::string> args;
  bool no_wait = false, metrics = false, json = false;
};

/// Adds the daemon, submit and status subcommands to `app`.
void add_daemon_commands(CLI::App& app, DaemonCli& d);
/// Runs the one of them that was parsed; returns its exit code, or -1 if none was.
int run_daemon_commands(const DaemonCli& d);

}  // namespace proofline::cli
