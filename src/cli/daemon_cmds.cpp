// `proofline daemon | submit | status` (src/cli/daemon_cmds.hpp).
#include "daemon_cmds.hpp"

#include <google/protobuf/util/json_util.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "proofline/groth16/proof.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"
#include "proofline/server/config.hpp"
#include "proofline/server/service.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/json.hpp"
#include "common.hpp"

namespace proofline::cli {

namespace pb = ::proofline::v1;
using Json = nlohmann::ordered_json;

namespace {

std::string read_all(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    // /dev/zero would be read without end (and sent to the daemon), a FIFO would block the open.
    throw ProoflineError(Error::Malformed, "'" + path + "' is not a regular file");
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::system_error(errno, std::generic_category(), "cannot read '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_all(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  if (!f || !f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    throw std::system_error(errno, std::generic_category(), "cannot write '" + path + "'");
  }
}

std::string hex(std::string_view b) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : b) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

std::string mib(std::uint64_t b) { return fmt("%.1f MiB", static_cast<double>(b) / 1048576.0); }

/// Splits "key=value"; throws a usage error naming the flag.
std::pair<std::string, std::string> split_kv(const std::string& s, const char* flag) {
  const auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0) throw CLI::ValidationError(flag, "expected key=value, got '" + s + "'");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

/// A failed RPC: "proofline <cmd>: <why>" on stderr (with `json`, also the JSON error object on
/// stdout) and its exit code: 6 unreachable, 5 the daemon shut down first / cancelled / deadline,
/// 3 refused, 4 anything else.
int rpc_failed(const char* cmd, const std::string& address, const grpc::Status& st, bool json) {
  int rc = kInternal;
  std::string msg;
  switch (st.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
      if (st.error_message().find("shutting down") != std::string::npos) {  // it cancels its jobs
        rc = kUnfinished;
        msg = "the daemon at " + address + " shut down before the job ended: " + st.error_message();
      } else {
        rc = kUnreachable;
        msg = "cannot reach the daemon at " + address + ": " + st.error_message();
      }
      break;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      rc = kBadInput;
      msg = "refused: " + st.error_message();
      break;
    case grpc::StatusCode::CANCELLED:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      rc = kUnfinished;
      msg = st.error_message();
      break;
    default:
      msg = "daemon error (" + std::to_string(static_cast<int>(st.error_code())) + "): " + st.error_message();
  }
  std::cerr << "proofline " << cmd << ": " << msg << "\n";
  if (json) print_json_error(rc, msg);
  return rc;
}

Json proto_json(const google::protobuf::Message& m) {
  std::string s;
  google::protobuf::util::JsonPrintOptions o;
  o.always_print_primitive_fields = true;
  o.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(m, &s, o);
  return Json::parse(s);
}

// ---- daemon --------------------------------------------------------------------------------------

int run_daemon(const DaemonCli& d) {
  server::DaemonConfig cfg = d.config.empty() ? server::DaemonConfig{} : server::load_config_file(d.config);
  nlohmann::json sets = nlohmann::json::object();
  for (const auto& s : d.sets) {
    auto [k, v] = split_kv(s, "--set");
    try {
      json::check_limits(v, {std::size_t{1} << 20}, "--set " + k, Error::BadArgument);
    } catch (const ProoflineError& e) {
      throw UsageError(e.what());  // a flag's value: exit 2
    }
    nlohmann::json value = nlohmann::json::parse(v, nullptr, false);
    sets[k] = value.is_discarded() ? nlohmann::json(v) : value;
  }
  // A bad --set / --backend value is a usage error (exit 2); a bad config file stays bad input (3).
  auto apply_flag = [&](const nlohmann::json& values, const char* flag) {
    try {
      server::apply_config(cfg, values, flag);
    } catch (const ProoflineError& e) {
      throw UsageError(e.what());
    }
  };
  apply_flag(sets, "--set");
  if (d.daemon->count("--unix")) cfg.unix_socket = d.unix_socket;
  if (d.daemon->count("--tcp")) cfg.tcp = d.tcp;
  if (d.daemon->count("--backend")) apply_flag({{"engine.backend", d.backend}}, "--backend");
  if (d.print_config) {
    std::cout << server::config_to_json(cfg).dump(2) << "\n";
    return kOk;
  }

  // SIGINT/SIGTERM are taken by one thread (sigwait), blocked everywhere else: every thread the
  // daemon starts inherits the mask.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

  server::Daemon daemon(cfg);
  std::cerr << "proofline daemon: listening on";
  for (const auto& a : daemon.listening()) std::cerr << " " << a;
  std::cerr << "; " << daemon.backend_note() << "\n";
  std::thread sig_thread([&] {
    int sig = 0;
    sigwait(&sigs, &sig);
    std::cerr << "proofline daemon: " << (sig == SIGINT ? "SIGINT" : "SIGTERM") << ", shutting down\n";
    daemon.shutdown();
  });
  daemon.wait();
  sig_thread.join();
  return kOk;
}

// ---- submit --------------------------------------------------------------------------------------

pb::Priority parse_priority(const std::string& s) {
  if (s == "low") return pb::PRIORITY_LOW;
  if (s == "normal") return pb::PRIORITY_NORMAL;
  if (s == "high") return pb::PRIORITY_HIGH;
  if (s == "critical") return pb::PRIORITY_CRITICAL;
  throw CLI::ValidationError("--priority", "expected low, normal, high or critical, got '" + s + "'");
}

/// The channel to the daemon at `address`, checked first (UsageError, exit 2): "unix:PATH" with a
/// path, "HOST:PORT" with a port 1–65535, or a gRPC target with a scheme (dns:, ipv4:, ipv6:).
std::shared_ptr<grpc::Channel> client_channel(const std::string& address) {
  auto bad = [&](const std::string& why) {
    return UsageError("--address '" + address + "': " + why + " (expected unix:/path/to.sock or host:port)");
  };
  if (address.rfind("unix:", 0) == 0) {
    if (address.size() == 5) throw bad("no socket path");
  } else if (address.rfind("dns:", 0) != 0 && address.rfind("ipv4:", 0) != 0 && address.rfind("ipv6:", 0) != 0) {
    const auto colon = address.rfind(':');
    if (colon == std::string::npos || colon == 0) throw bad("no host:port");
    const std::string port = address.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(port) == 0 || std::stoul(port) > 65535) {
      throw bad("port '" + port + "' is not 1 … 65535");
    }
  }
  return server::make_channel(address);
}

pb::ProofRequest build_request(const DaemonCli& d) {
  // Flags of another kind are refused rather than ignored (exit 2).
  const bool snarkjs = d.kind == "snarkjs", porep = d.kind == "porep-c2", builtin = d.kind == "bench" || d.kind == "mul";
  if (!snarkjs && (!d.zkey.empty() || !d.wtns.empty())) {
    throw CLI::ValidationError("--zkey/--wtns", "only for --kind snarkjs (this request is --kind " + d.kind + ")");
  }
  if (snarkjs && !d.zkey.empty() && !d.params.empty() && d.zkey != d.params) {
    throw CLI::ValidationError("--zkey", "kind snarkjs takes the zkey once: --zkey or --params, not both");
  }
  if (!porep && (!d.c1.empty() || !d.prover_id.empty())) {
    throw CLI::ValidationError("--c1/--prover-id", "only for --kind porep-c2 (this request is --kind " + d.kind + ")");
  }
  if (!builtin && d.partitions > 1) {
    throw CLI::ValidationError("--partitions", "only for --kind bench or mul (snarkjs: one circuit; porep-c2: the "
                                               "C1's partitions)");
  }
  pb::ProofRequest r;
  r.set_request_id(d.request_id);
  r.set_kind(d.kind);
  r.set_priority(parse_priority(d.priority));
  if (d.kind == "snarkjs") {
    r.set_params_path(d.zkey.empty() ? d.params : d.zkey);
    if (d.wtns.empty()) throw CLI::ValidationError("--wtns", "kind snarkjs needs --wtns (the witness file)");
    r.mutable_snarkjs()->set_wtns(read_all(d.wtns));
    if (r.snarkjs().wtns().empty()) throw ProoflineError(Error::Malformed, "--wtns '" + d.wtns + "': the file is empty");
  } else if (d.kind == "porep-c2") {
    // --params optional: the daemon looks the upstream file name up in its parameter cache.
    r.set_params_path(d.params);
    if (d.c1.empty()) throw CLI::ValidationError("--c1", "kind porep-c2 needs --c1 (the C1 JSON file)");
    auto* p = r.mutable_porep_c2();
    p->set_c1_json(read_all(d.c1));
    if (p->c1_json().empty()) throw ProoflineError(Error::Malformed, "--c1 '" + d.c1 + "': the file is empty");
    p->set_sector_id(d.sector_id);
    if (!d.prover_id.empty()) (*r.mutable_args())["prover_id"] = d.prover_id;
  } else {
    r.set_params_path(d.params);
    if (d.kind == "bench" || d.kind == "mul") {
      auto* b = r.mutable_bench();
      b->set_seed(d.input);
      b->set_partitions(d.partitions);
    }
    if (d.kind == "bench") (*r.mutable_args())["size"] = d.size;
  }
  for (const auto& a : d.args) {
    auto [k, v] = split_kv(a, "--arg");
    // A key one of the flags above sets (or the files they name) would silently replace it.
    if (r.args().count(k) != 0 || k == "zkey" || k == "wtns" || k == "params" || k == "c1") {
      throw CLI::ValidationError("--arg", "'" + k + "' is set by its own flag; give it there");
    }
    (*r.mutable_args())[k] = v;
  }
  return r;
}

void print_result(const pb::ProofResult& r) {
  std::cout << "request     " << r.request_id() << "  (kind " << r.kind() << ")\n";
  std::cout << "status      " << pb::ProofStatus_Name(r.status()).substr(13) << "\n";
  if (!r.error_message().empty()) std::cout << "error       " << r.error_message() << "\n";
  const std::string& proof = r.proof();
  if (!proof.empty()) {
    std::cout << "proof       " << proof.size() / 192 << " partition(s) × 192 bytes, verified by the daemon\n";
    for (std::size_t k = 0; k * 192 < proof.size(); ++k) {
      std::cout << "  [" << k << "] " << hex(std::string_view(proof).substr(k * 192, 192)) << "\n";
    }
  }
  for (int k = 0; k < r.public_inputs_size(); ++k) {
    std::cout << "public [" << k << "]";
    for (const auto& v : r.public_inputs(k).values()) std::cout << " " << v;
    std::cout << "\n";
  }
  if (r.partitions_size() > 0) {
    std::cout << "timings (ms)   queue     srs   synth  p.wait  kernel  prover   stage   total  backend\n";
    for (const auto& p : r.partitions()) {
      std::cout << "  [" << p.index() << "]" << std::string(p.index() < 10 ? 9 : 8, ' ')
                << fmt("%7.1f", p.queue_wait_ms()) << fmt(" %7.1f", p.srs_load_ms()) << fmt(" %7.1f", p.synthesis_ms())
                << fmt(" %7.1f", p.prove_wait_ms()) << fmt(" %7.1f", p.kernel_ms()) << fmt(" %7.1f", p.prover_ms())
                << fmt(" %7.1f", p.stage_ms()) << fmt(" %7.1f", p.total_ms()) << "  " << p.backend() << "\n";
    }
  }
  const bool ended = r.status() == pb::PROOF_STATUS_COMPLETED || r.status() == pb::PROOF_STATUS_FAILED ||
                     r.status() == pb::PROOF_STATUS_CANCELLED;
  if (!ended) {  // TIMEOUT (the wait ended, not the job): no job totals yet
    std::cout << "note        the job is still running: proofline await --id " << r.request_id()
              << " waits again, proofline cancel --id " << r.request_id() << " stops it\n";
    return;
  }
  std::cout << "job (ms)    queue " << fmt("%.1f", r.queue_wait_ms()) << ", srs " << fmt("%.1f", r.srs_load_ms())
            << ", synthesis " << fmt("%.1f", r.synthesis_ms()) << ", prover " << fmt("%.1f", r.prover_ms())
            << ", assemble " << fmt("%.1f", r.assemble_ms()) << ", verify " << fmt("%.1f", r.verify_ms())
            << ", total " << fmt("%.1f", r.total_ms()) << "\n";
}

/// kind snarkjs: --proof and --public as `proofline prove --zkey` writes them (snarkjs proof.json
/// and public.json), from the daemon's 192-byte proof and decimal public inputs.
void write_snarkjs_outputs(const std::string& proof_path, const std::string& public_path, const pb::ProofResult& res) {
  namespace sj = groth16::snarkjs;
  if (res.proof().size() != groth16::Proof::kBytes || res.public_inputs_size() != 1) {
    throw ProoflineError(Error::BadLength, "daemon reply for kind snarkjs: proof bytes got " +
                                               std::to_string(res.proof().size()) + ", expected " +
                                               std::to_string(groth16::Proof::kBytes) + " (one partition)");
  }
  const groth16::Proof proof = groth16::Proof::from_bytes(std::span<const std::uint8_t, groth16::Proof::kBytes>(
      reinterpret_cast<const std::uint8_t*>(res.proof().data()), groth16::Proof::kBytes));
  std::vector<ff::Fr> inputs;
  for (const auto& v : res.public_inputs(0).values()) inputs.push_back(groth16::fr_from_decimal(v, "public input"));
  sj::write_proof_files(proof_path, public_path, proof, inputs);
}

/// Writes the outputs asked for (--proof, --public; kind snarkjs: proof.json / public.json), prints
/// the result (text or --json) and returns the exit code of its status.
/// The --proof / --public files of submit and await, checked (created under a temporary name) before
/// the request is sent, so an unwritable or doubly named path is a usage error (exit 2) before any
/// proving; renamed into place only for a COMPLETED (daemon-verified) result.
/// Inputs they must not overwrite: --wtns and --c1 (read here) and --params / --zkey when absolute
/// (opened by the daemon, maybe on this machine; a relative one is the daemon's folder's).
std::vector<NamedFile> local_inputs(const DaemonCli& d) {
  std::vector<NamedFile> in{{"--wtns", d.wtns}, {"--c1", d.c1}};
  if (!d.params.empty() && d.params.front() == '/') in.push_back({"--params", d.params});
  if (!d.zkey.empty() && d.zkey.front() == '/') in.push_back({"--zkey", d.zkey});
  return in;
}

struct ResultOutputs {
  PendingOutput proof, pub;
  explicit ResultOutputs(const DaemonCli& d)
      : proof((check_output_paths(local_inputs(d), {{"--proof", d.proof_out}, {"--public", d.public_out}}),
               d.proof_out)),
        pub(d.public_out) {}
};

int report_result(const DaemonCli& d, const pb::ProofResult& res, ResultOutputs& out) {
  const bool snarkjs = res.kind() == "snarkjs";
  if (snarkjs && res.status() == pb::PROOF_STATUS_COMPLETED) {
    if (!d.proof_out.empty() || !d.public_out.empty()) {
      write_snarkjs_outputs(out.proof.temp_path(), out.pub.temp_path(), res);
    }
  } else if (!d.proof_out.empty() && !res.proof().empty()) {
    write_all(out.proof.temp_path(), res.proof());
  }
  if (!snarkjs && !d.public_out.empty() && res.public_inputs_size() > 0) {
    Json pub = Json::array();
    for (const auto& p : res.public_inputs()) pub.push_back(Json(std::vector<std::string>(p.values().begin(), p.values().end())));
    write_all(out.pub.temp_path(), (pub.size() == 1 ? pub[0] : pub).dump(1) + "\n");
  }
  if (res.status() == pb::PROOF_STATUS_COMPLETED) {
    out.proof.commit();
    out.pub.commit();
  }
  const int rc = res.status() == pb::PROOF_STATUS_COMPLETED ? kOk
                 : res.status() == pb::PROOF_STATUS_FAILED  ? kBadInput
                                                             : kUnfinished;
  if (d.json) {
    Json j = proto_json(res);
    Json proofs = Json::array();
    for (std::size_t k = 0; k * 192 < res.proof().size(); ++k) proofs.push_back(hex(std::string_view(res.proof()).substr(k * 192, 192)));
    j["proof"] = proofs;  // hex, one string per partition (instead of proto JSON's base64)
    if (rc != kOk) {
      const std::string status = pb::ProofStatus_Name(res.status()).substr(13);
      j["error"] = json_error(rc, "request " + res.request_id() + " " + status +
                                      (res.error_message().empty() ? "" : ": " + res.error_message()))["error"];
    }
    std::cout << j.dump(2) << "\n";
  } else {
    print_result(res);
  }
  return rc;
}

/// SIGINT / SIGTERM for a waiting client (submit, await): blocked from construction on, so that the
/// threads gRPC starts afterwards inherit the mask and the signal reaches only wait()'s watcher,
/// which cancels the RPC in flight (ClientContext::TryCancel) and records it. Restores the mask.
class InterruptibleWait {
 public:
  InterruptibleWait() {
    sigemptyset(&sigs_);
    sigaddset(&sigs_, SIGINT);
    sigaddset(&sigs_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs_, &old_);
  }
  ~InterruptibleWait() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  InterruptibleWait(const InterruptibleWait&) = delete;
  InterruptibleWait& operator=(const InterruptibleWait&) = delete;

  /// Runs `call` (one blocking RPC on ctx); a signal meanwhile cancels it and sets interrupted().
  template <class F>
  grpc::Status wait(grpc::ClientContext& ctx, F&& call) {
    std::atomic<bool> done{false};
    std::thread watcher([&] {
      const timespec tick{0, 100'000'000};  // checks `done` ten times a second
      while (!done.load()) {
        const int sig = sigtimedwait(&sigs_, nullptr, &tick);
        if (sig == SIGINT || sig == SIGTERM) {
          signal_ = sig;
          ctx.TryCancel();
          return;
        }
      }
    });
    grpc::Status st = call();
    done = true;
    watcher.join();
    return st;
  }
  bool interrupted() const noexcept { return signal_ != 0; }
  const char* signal_name() const noexcept { return signal_ == SIGINT ? "SIGINT" : "SIGTERM"; }

 private:
  sigset_t sigs_, old_;
  std::atomic<int> signal_{0};
};

int run_submit(const DaemonCli& d) {
  pb::ProofRequest req = build_request(d);
  ResultOutputs outputs(d);  // before anything is sent (--no-wait excludes --proof / --public)
  InterruptibleWait interrupt;  // before the channel: gRPC's threads inherit the blocked signals
  auto stub = pb::ProvingEngine::NewStub(client_channel(d.address));
  pb::SubmitProofRequest sreq;
  *sreq.mutable_request() = req;
  pb::SubmitProofResponse sresp;
  grpc::ClientContext sctx;
  grpc::Status st = stub->SubmitProof(&sctx, sreq, &sresp);
  if (!st.ok()) return rpc_failed("submit", d.address, st, d.json);
  if (d.no_wait) {
    if (d.json) {
      std::cout << proto_json(sresp).dump(2) << "\n";
    } else {
      std::cout << sresp.request_id() << "\n";  // the id alone: id=$(proofline submit --no-wait ...)
      if (sresp.duplicate()) std::cerr << "proofline submit: request " << sresp.request_id() << " was already known\n";
    }
    return kOk;
  }
  pb::AwaitProofRequest areq;
  areq.set_request_id(sresp.request_id());
  areq.set_timeout_ms(d.timeout_ms);
  // A duplicate (the same request id and contents sent before, maybe by another client) is not this
  // client's to cancel: Ctrl-C then only stops waiting.
  areq.set_cancel_on_disconnect(!sresp.duplicate());
  pb::ProofResult res;
  grpc::ClientContext actx;
  st = interrupt.wait(actx, [&] { return stub->AwaitProof(&actx, areq, &res); });
  if (interrupt.interrupted() && sresp.duplicate()) {
    std::cerr << "proofline submit: " << interrupt.signal_name() << ": stopped waiting; request " << sresp.request_id()
              << " was submitted before and goes on (proofline cancel --id " << sresp.request_id() << " stops it)\n";
    return kUnfinished;
  }
  if (interrupt.interrupted()) {
    // The daemon cancels a job whose waiting submit went away; say so explicitly as well.
    pb::CancelProofRequest creq;
    creq.set_request_id(sresp.request_id());
    pb::CancelProofResponse cres;
    grpc::ClientContext cctx;
    cctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    const grpc::Status cst = stub->CancelProof(&cctx, creq, &cres);
    std::cerr << "proofline submit: " << interrupt.signal_name() << ": request " << sresp.request_id() << " cancelled"
              << (cst.ok() ? "" : " (the daemon cancels it when it sees this client gone: " + cst.error_message() + ")")
              << "\n";
    return kUnfinished;
  }
  if (!st.ok()) return rpc_failed("submit", d.address, st, d.json);
  return report_result(d, res, outputs);
}

// ---- await / cancel ------------------------------------------------------------------------------

int run_await(const DaemonCli& d) {
  ResultOutputs outputs(d);
  InterruptibleWait interrupt;
  auto stub = pb::ProvingEngine::NewStub(client_channel(d.address));
  pb::AwaitProofRequest areq;
  areq.set_request_id(d.request_id);
  areq.set_timeout_ms(d.timeout_ms);
  areq.set_cancel_on_disconnect(false);  // waiting is all this does: the job goes on without us
  pb::ProofResult res;
  grpc::ClientContext actx;
  const grpc::Status st = interrupt.wait(actx, [&] { return stub->AwaitProof(&actx, areq, &res); });
  if (interrupt.interrupted()) {
    std::cerr << "proofline await: " << interrupt.signal_name() << ": stopped waiting; request " << d.request_id
              << " goes on (proofline cancel --id " << d.request_id << " stops it)\n";
    return kUnfinished;
  }
  if (!st.ok()) return rpc_failed("await", d.address, st, d.json);
  return report_result(d, res, outputs);
}

int run_cancel(const DaemonCli& d) {
  auto stub = pb::ProvingEngine::NewStub(client_channel(d.address));
  pb::CancelProofRequest creq;
  creq.set_request_id(d.request_id);
  pb::CancelProofResponse cres;
  grpc::ClientContext ctx;
  const grpc::Status st = stub->CancelProof(&ctx, creq, &cres);
  if (!st.ok()) return rpc_failed("cancel", d.address, st, d.json);
  const std::string not_found = "no request '" + d.request_id + "' at " + d.address;
  if (d.json) {
    Json j = proto_json(cres);
    if (!cres.found()) j["error"] = json_error(kBadInput, not_found)["error"];
    std::cout << j.dump(2) << "\n";
  } else if (!cres.found()) {
    std::cout << "request     " << d.request_id << ": not known to the daemon\n";
  } else {
    std::cout << "request     " << d.request_id << "\n";
    std::cout << "before      " << pb::ProofStatus_Name(cres.previous()).substr(13) << "\n";
    if (cres.was_queued() || cres.was_running()) {
      std::cout << "cancelled   " << cres.dropped_queued() << " queued partition(s) dropped, " << cres.stopping_running()
                << " running partition(s) stopping (within a fraction of a second on the CPU)\n";
    } else {
      std::cout << "unchanged   the job had already ended\n";
    }
  }
  if (!cres.found()) {
    std::cerr << "proofline cancel: " << not_found << "\n";
    return kBadInput;
  }
  return kOk;
}

// ---- status --------------------------------------------------------------------------------------

void print_status(const pb::StatusResponse& s) {
  std::cout << "daemon      " << s.version() << ", up " << fmt("%.1f", s.uptime_s()) << " s, resident "
            << mib(s.resident_bytes()) << ", listening on";
  for (const auto& a : s.listen()) std::cout << " " << a;
  std::cout << "\n";
  for (const auto& dv : s.devices()) {
    std::cout << "backend     [" << dv.index() << "] " << dv.backend() << "  workers " << dv.workers() << " (busy "
              << dv.busy_workers() << "), partitions proved " << dv.partitions_proved()
              << (dv.in_service() ? "" : "  OUT OF SERVICE") << "\n";
    if (!dv.fault().empty()) {
      std::cout << "              last fault (" << dv.recoveries() << " recoveries): " << dv.fault() << "\n";
    }
  }
  std::cout << "kinds      ";
  for (const auto& k : s.kinds()) std::cout << " " << k;
  std::cout << "\njobs        queued " << s.jobs_queued() << ", running " << s.jobs_running() << ", completed "
            << s.jobs_completed() << ", failed " << s.jobs_failed() << ", cancelled " << s.jobs_cancelled() << "\n";
  std::cout << "queues      stage        pending  running   pending by priority (critical/high/normal/low)\n";
  for (const auto& q : s.queues()) {
    auto at = [&](const char* p) {
      auto it = q.pending_by_priority().find(p);
      return it == q.pending_by_priority().end() ? 0u : it->second;
    };
    char line[160];
    std::snprintf(line, sizeof line, "            %-12s %7u  %7u   %u/%u/%u/%u\n", q.stage().c_str(), q.pending(),
                  q.running(), at("critical"), at("high"), at("normal"), at("low"));
    std::cout << line;
  }
  const auto& m = s.memory();
  std::cout << "memory      budget " << mib(m.budget_bytes()) << ", used " << mib(m.used_bytes()) << " (reserved "
            << mib(m.reserved_bytes()) << ", pooled " << mib(m.pooled_bytes()) << ", reclaim pending "
            << mib(m.reclaim_pending_bytes()) << "), reclaimer " << (m.reclaimer_enabled() ? "on" : "off") << "\n";
  std::cout << "srs cache   " << mib(m.srs_bytes()) << " of "
            << (m.srs_budget_bytes() ? mib(m.srs_budget_bytes()) : std::string("unlimited")) << "\n";
  for (const auto& e : s.srs()) {
    std::cout << "  " << e.key() << "  " << e.state() << "  " << mib(e.bytes()) << ", users " << e.users() << ", idle "
              << fmt("%.1f", e.idle_s()) << " s, load " << fmt("%.1f", e.load_ms()) << " ms\n";
  }
}

int run_status(const DaemonCli& d) {
  auto stub = pb::ProvingEngine::NewStub(client_channel(d.address));
  grpc::ClientContext ctx;
  if (d.metrics) {
    pb::MetricsResponse m;
    grpc::Status st = stub->GetMetrics(&ctx, pb::GetMetricsRequest{}, &m);
    if (!st.ok()) return rpc_failed("status", d.address, st, d.json);
    std::cout << m.text();
    return kOk;
  }
  pb::StatusResponse s;
  grpc::Status st = stub->GetStatus(&ctx, pb::GetStatusRequest{}, &s);
  if (!st.ok()) return rpc_failed("status", d.address, st, d.json);
  if (d.json) {
    std::cout << proto_json(s).dump(2) << "\n";
  } else {
    print_status(s);
  }
  return kOk;
}

}  // namespace

void add_daemon_commands(CLI::App& app, DaemonCli& d) {
  d.daemon = app.add_subcommand("daemon", "run the proving daemon (gRPC proofline.v1.ProvingEngine) until SIGINT/SIGTERM");
  d.daemon->add_option("--config", d.config, "config file (JSON or TOML-ish; options below); none: defaults")
      ->check(CLI::ExistingFile);
  d.daemon->add_option("--unix", d.unix_socket, "listen.unix: unix socket path (\"\": none)");
  d.daemon->add_option("--tcp", d.tcp, "listen.tcp: host:port (\"\": none; loopback unless listen.allow_remote)");
  d.daemon->add_option("--backend", d.backend, "engine.backend: cpu | cuda | auto");
  d.daemon->add_option("--set", d.sets, "set any option below: section.key=value (value: JSON, or a bare string)");
  d.daemon->add_flag("--print-config", d.print_config, "print the effective configuration as JSON and exit");
  d.daemon->footer(server::config_help());

  auto add_address = [&](CLI::App* sub) {
    sub->add_option("--address", d.address, "daemon address: unix:/path or host:port")->capture_default_str();
    sub->add_flag("--json", d.json, "print one JSON object instead of text");
  };
  d.submit = app.add_subcommand("submit", "send a proof request to the daemon, wait for it, print proof and timings");
  add_address(d.submit);
  d.submit->add_option("--kind", d.kind, "proof kind: bench | mul | snarkjs | porep-c2 (proofline status lists them)")
      ->capture_default_str();
  d.submit->add_option("--params", d.params, "parameter file on the daemon's machine (.params; snarkjs: the .zkey)");
  d.submit->add_option("--size", d.size, "bench: constraint rows, 2^k or a power of two (must match --params)")
      ->capture_default_str();
  add_integer_option(*d.submit, "--input", d.input,
                     "witness seed (bench/mul; partition k uses input + k; 0: the kind's default)", 0, kMaxU64);
  add_integer_option(*d.submit, "--partitions", d.partitions, "partitions (circuits) in this request (0: 1)", 0,
                     kMaxPartitions);
  d.submit->add_option("--priority", d.priority, "low | normal | high | critical")->capture_default_str();
  d.submit->add_option("--request-id", d.request_id, "idempotency key (default: the daemon assigns one)");
  CLI::Option* submit_timeout = add_integer_option(
      *d.submit, "--timeout-ms", d.timeout_ms,
      "stop waiting after this long (0, or more than 2^40 (35 years): wait until done); the job goes on (status "
      "TIMEOUT, exit 5; await/cancel --id)",
      0, kMaxU64);
  d.submit->add_option("--zkey", d.zkey, "snarkjs: the .zkey on the daemon's machine");
  d.submit->add_option("--wtns", d.wtns, "snarkjs: the .wtns file (read here, sent in the request)")
      ->check(CLI::ExistingFile);
  d.submit->add_option("--c1", d.c1, "porep-c2: the C1 JSON (read here, sent in the request)")->check(CLI::ExistingFile);
  // The two go together (the daemon checks replica_id only with both).
  CLI::Option* sector_opt = add_integer_option(
      *d.submit, "--sector-id", d.sector_id, "porep-c2: sector number (needs --prover-id: replica_id checked)", 0,
      kMaxU64);
  CLI::Option* prover_opt = d.submit->add_option(
      "--prover-id", d.prover_id, "porep-c2: prover id, 64 hex digits (needs --sector-id; the C1's replica_id must be its)");
  sector_opt->needs(prover_opt);
  prover_opt->needs(sector_opt);
  d.submit->add_option("--arg", d.args, "extra engine argument of the kind: key=value (repeatable)");
  CLI::Option* submit_proof = d.submit->add_option("--proof", d.proof_out,
                       "write the proof here: 192 bytes per partition (porep-c2: concatenated as `proofline c2` "
                       "writes them); snarkjs: proof.json");
  CLI::Option* submit_public =
      d.submit->add_option("--public", d.public_out, "write the public inputs (snarkjs public.json format) here");
  d.submit->add_flag("--no-wait", d.no_wait, "only submit; print the request id (for await / cancel --id)")
      ->excludes(submit_proof)
      ->excludes(submit_public)
      ->excludes(submit_timeout);
  d.submit->footer(d.submit->get_footer() +
                   "\nCtrl-C while waiting cancels the job (exit 5), unless the request id was already known: then "
                   "it only stops waiting.");

  d.await_cmd = app.add_subcommand("await", "wait for a request sent with `submit --no-wait`; print it as submit does");
  add_address(d.await_cmd);
  d.await_cmd->add_option("--id", d.request_id, "the request id (submit --no-wait prints it)")->required();
  add_integer_option(*d.await_cmd, "--timeout-ms", d.timeout_ms,
                     "stop waiting after this long (0, or more than 2^40 (35 years): until done); the job goes on "
                     "(status TIMEOUT, exit 5)",
                     0, kMaxU64);
  d.await_cmd->add_option("--proof", d.proof_out, "write the proof here (as submit --proof)");
  d.await_cmd->add_option("--public", d.public_out, "write the public inputs here (as submit --public)");
  d.await_cmd->footer(d.await_cmd->get_footer() +
                      "\nCtrl-C stops waiting and leaves the job running (exit 5); `proofline cancel` stops it.");

  d.cancel_cmd = app.add_subcommand("cancel", "cancel a request: queued partitions dropped, running ones stop at their next stage");
  add_address(d.cancel_cmd);
  d.cancel_cmd->add_option("--id", d.request_id, "the request id")->required();

  d.status = app.add_subcommand("status", "show the daemon's backends, queues, memory budget, SRS cache and jobs");
  add_address(d.status);
  d.status->add_flag("--metrics", d.metrics, "print the Prometheus metrics text instead")
      ->excludes(d.status->get_option("--json"));
}

int run_daemon_commands(const DaemonCli& d) {
  const char* cmd = d.daemon->parsed()       ? "daemon"
                    : d.submit->parsed()     ? "submit"
                    : d.await_cmd->parsed()  ? "await"
                    : d.cancel_cmd->parsed() ? "cancel"
                    : d.status->parsed()     ? "status"
                                             : nullptr;
  if (!cmd) return -1;
  return run_guarded(cmd, [&] {
    try {
      if (d.daemon->parsed()) return run_daemon(d);
      if (d.submit->parsed()) return run_submit(d);
      if (d.await_cmd->parsed()) return run_await(d);
      if (d.cancel_cmd->parsed()) return run_cancel(d);
      return run_status(d);
    } catch (const server::ListenError& e) {
      throw UsageError(e.what());  // an address in use or not allowed: exit 2, like any bad flag
    }
  }, d.json);
}

}  // namespace proofline::cli
