// src/cli/daemon_cmds.hpp — the daemon commands of `proofline` (server/, proto/proofline/v1).
//
//   proofline daemon [--config FILE] [--unix PATH] [--tcp HOST:PORT] [--backend cpu|cuda|auto]
//                    [--set section.key=value]... [--print-config]
//   proofline submit [--address A] [--kind K] [--<argument of K> VALUE]... [--arg name=value]...
//                    [--priority default|low|normal|high|critical] [--request-id ID] [--timeout-ms T]
//                    [--proof OUT] [--public OUT] [--no-wait] [--json] [--help]
//   proofline submit --local [--backend cpu|cuda|auto] [--memory-budget SIZE] [--kind K] [--<argument
//                    of K> VALUE]... (the same request proved by an engine in this process: no daemon)
//   proofline kinds  [--address A | --local] [--markdown] [--json]
//   proofline await  [--address A] --id ID [--timeout-ms T] [--proof OUT] [--public OUT] [--json]
//   proofline cancel [--address A] --id ID [--json]
//   proofline status [--address A] [--metrics] [--json]
// Addresses: "unix:/path" or "host:port"; default unix:/tmp/proofline.sock (the daemon's default).
// `daemon` runs until SIGINT/SIGTERM. `submit` is SubmitProof + AwaitProof with
// cancel_on_disconnect: SIGINT/SIGTERM (Ctrl-C) cancels the job, says so and exits 5; --no-wait only
// submits and prints the id. `await` waits for such an id and reports it as submit does (Ctrl-C stops
// waiting only: exit 5, the job goes on); `cancel` cancels one (queued partitions dropped, running
// ones stop at their next cancellation poll, promptly; exit 3 if the daemon does not know the id).
//
// Kinds: this file knows none. Before the command line is parsed, `submit` asks the daemon at
// --address for the kinds' declared arguments (ListKinds; when it does not answer, the kinds built
// into this binary stand in) and adds one flag per argument: --<name> with '-' for '_' (--params,
// --size, --zkey, --wtns, --c1, --prover-id, …), value-checked as declared (a file argument that
// may be the payload is read here and sent as the request's bytes: --wtns, --c1; another file
// argument is a path on the daemon's machine: --params, --zkey); another kind's argument is refused
// naming the kinds that take it; `submit --kind K --help` lists K's flags. --arg name=value passes
// any declared argument as is (a file argument then as a path on the daemon's machine). With the
// declarations from the daemon, a required argument missing is a usage error before anything is
// sent; without (daemon unreachable) the flags are still checked and submit then exits 6. `kinds`
// prints every kind with its arguments (--markdown: docs/kinds.md, which a test keeps current).
// Outputs: --proof writes the proof bytes (192 per partition, concatenated; kind porep-c2: as
// `proofline c2 --out` writes them) and --public the public inputs (public.json); a kind whose
// proof format is "snarkjs" (kind snarkjs) gets snarkjs proof.json and public.json instead, as
// `proofline prove --zkey` writes them.
//
// `submit --local` builds the same request from this binary's kinds (no daemon is asked) and proves
// it with an engine started in this process (cli/engine_client.hpp, as `c2` and `prove` do): the
// one command that proves any kind from files (window-post, winning-post, snap-update, porep-c2, …);
// a file argument is then a path on this machine; the result is reported as for the daemon.
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

#include "proofline/engine/kind.hpp"

namespace proofline::cli {

/// One kind as a client sees it (from the daemon's ListKinds, or this binary's own registry).
struct KindDecl {
  std::string name, description, proof_format;
  std::vector<engine::ArgSpec> args;
  const engine::ArgSpec* find(const std::string& arg) const;
};

struct DaemonCli {
  CLI::App* daemon = nullptr;
  CLI::App* submit = nullptr;
  CLI::App* await_cmd = nullptr;   // proofline await --id
  CLI::App* cancel_cmd = nullptr;  // proofline cancel --id
  CLI::App* status = nullptr;
  CLI::App* kinds_cmd = nullptr;   // proofline kinds

  // daemon
  std::string config, unix_socket, tcp, backend;
  std::vector<std::string> listen;  ///< daemon --listen (cuzk's form: unix:///path or ip:port)
  std::vector<std::string> sets;
  bool print_config = false;
  // submit / status
  std::string address = "unix:/tmp/proofline.sock";
  std::string kind = "bench", priority = "default", request_id, proof_out, public_out;
  std::uint64_t timeout_ms = 0;
  std::vector<std::string> args;  // --arg name=value
  bool no_wait = false, metrics = false, json = false;
  // kinds (--local: this binary's kinds); submit --local: prove in this process
  bool local = false, markdown = false;
  std::string local_backend = "cpu", local_budget = "0", local_device_limit = "0";
  std::vector<std::string> local_rs;  ///< submit --local --rs "R,S", one per partition (testing only)

  // The kinds' declarations submit's flags were made from (add_kind_flags), and where they came
  // from: the daemon (kinds_from_daemon), else this binary (kinds_note says why).
  std::vector<KindDecl> kinds;
  bool kinds_from_daemon = false;
  bool kinds_local = false;  ///< submit --local: this binary's kinds, proved in this process (no daemon)
  std::string kinds_note;
  /// Values of the kind's argument flags, by argument name, and the flag that gave each.
  std::map<std::string, std::string> kind_args, kind_flags;
};

/// Adds the daemon, submit, await, cancel, status and kinds subcommands to `app`.
void add_daemon_commands(CLI::App& app, DaemonCli& d);
/// Before app.parse: when the command line is `proofline submit …`, learns the kinds' declarations
/// (header comment) and adds submit's flags for their arguments. Blocks SIGINT and SIGTERM in the
/// calling thread first (submit's wait takes them; gRPC's threads, started here, inherit the mask).
void add_kind_flags(DaemonCli& d, int argc, char** argv);
/// Runs the one of them that was parsed; returns its exit code, or -1 if none was.
int run_daemon_commands(const DaemonCli& d);

}  // namespace proofline::cli
