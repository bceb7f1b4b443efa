// `proofline daemon | submit | status` (src/cli/daemon_cmds.hpp).
#include "daemon_cmds.hpp"

#include <google/protobuf/util/json_util.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cctype>
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
#include "engine_client.hpp"

namespace proofline::cli {

namespace pb = ::proofline::v1;
using Json = nlohmann::ordered_json;

const engine::ArgSpec* KindDecl::find(const std::string& arg) const {
  for (const auto& a : args) {
    if (a.name == arg) return &a;
  }
  return nullptr;
}

namespace {

/// The request id rule (engine::check_request_id) in the words of every --help that takes an id.
constexpr const char* kRequestIdRule =
    "at most 128 bytes of printable ASCII, space through '~' (spaces and brackets allowed, as in Curio's ids)";

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
/// 7 busy (queue full), 3 refused, 4 anything else.
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
    case grpc::StatusCode::PERMISSION_DENIED:  // a path outside the daemon's paths.allowed
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::ALREADY_EXISTS:
      rc = kBadInput;
      msg = "refused: " + st.error_message();
      break;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:  // a full queue, not a bad request: retry later
      rc = kBusy;
      msg = "the daemon at " + address + " is busy: " + st.error_message();
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
  if (!d.listen.empty()) {
    // cuzk's --listen: each address a unix socket (unix:///path, unix:/path) or a TCP ip:port; the
    // listeners not named are off.
    cfg.unix_socket.clear();
    cfg.tcp.clear();
    for (const std::string& a : d.listen) {
      std::string* slot = &cfg.tcp;
      std::string value = a;
      if (a.rfind("unix://", 0) == 0) {
        slot = &cfg.unix_socket;
        value = a.substr(7);
      } else if (a.rfind("unix:", 0) == 0) {
        slot = &cfg.unix_socket;
        value = a.substr(5);
      }
      // A URL ("http://127.0.0.1:5000") is neither: said so, not judged as a host name that does not resolve.
      if (value.empty() || (slot == &cfg.unix_socket ? value.front() != '/' : value.find('/') != std::string::npos)) {
        throw UsageError("--listen '" + a + "': expected unix:///absolute/path or ip:port");
      }
      if (!slot->empty()) throw UsageError("--listen '" + a + "': a second " +
                                           (slot == &cfg.tcp ? "TCP" : "unix socket") + " address (one of each)");
      *slot = value;
    }
  }
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
  std::cerr << "; " << daemon.backend_note() << "; " << daemon.status_note() << "\n";
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

/// "" / "default": UNSPECIFIED, the daemon gives the job its kind's default class.
pb::Priority parse_priority(const std::string& s) {
  if (s.empty() || s == "default") return pb::PRIORITY_UNSPECIFIED;
  if (s == "low") return pb::PRIORITY_LOW;
  if (s == "normal") return pb::PRIORITY_NORMAL;
  if (s == "high") return pb::PRIORITY_HIGH;
  if (s == "critical") return pb::PRIORITY_CRITICAL;
  throw CLI::ValidationError("--priority", "expected default, low, normal, high or critical, got '" + s + "'");
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

/// "--" + the argument's name with '-' for '_': the flag submit takes it as.
std::string flag_of(const std::string& arg) {
  std::string f = "--" + arg;
  std::replace(f.begin(), f.end(), '_', '-');
  return f;
}

const KindDecl* find_kind(const DaemonCli& d, const std::string& name) {
  for (const auto& k : d.kinds) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string kind_names(const DaemonCli& d) {
  std::string out;
  for (const auto& k : d.kinds) out += (out.empty() ? "" : ", ") + k.name;
  return out;
}

/// The kind of this submit, or a usage error (2) naming the kinds; when the declarations are this
/// binary's because the daemon did not answer, an unknown kind is the daemon's to judge: exit 6.
const KindDecl& submit_kind(const DaemonCli& d) {
  if (const KindDecl* k = find_kind(d, d.kind)) return *k;
  if (!d.kinds_from_daemon) {
    throw ExitError(kUnreachable, "cannot reach the daemon at " + d.address + " to learn the arguments of --kind " +
                                      d.kind + " (" + d.kinds_note + ")");
  }
  throw UsageError("--kind " + d.kind + ": the daemon at " + d.address + " proves " + kind_names(d) +
                   " (proofline kinds --address " + d.address + " lists their arguments)");
}

/// The one rule for request ids (engine::check_request_id), as a flag's usage error (exit 2) naming
/// the flag and saying what is wrong without repeating the value (its length, or the bad byte).
void check_id_flag(const char* flag, const std::string& id) {
  try {
    engine::check_request_id(id);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string(flag) + ": " + e.what());
  }
}

/// A request id as a shell word for the hints printed after it ("proofline await --id …"): as it is,
/// or in single quotes when it holds a space or another character the shell reads.
std::string shell_word(const std::string& id) {
  if (!id.empty() && id.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-:/@%+=,") ==
                         std::string::npos) {
    return id;
  }
  std::string out = "'";
  for (char c : id) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The request from the kind's flags and --arg, checked against the kind's declarations: a payload
/// argument's file is read here and sent as the payload; with the daemon's declarations, the
/// request must also be complete (required arguments, arguments that need others).
pb::ProofRequest build_request(const DaemonCli& d, const KindDecl& k) {
  check_id_flag("--request-id", d.request_id);  // here and for --local alike
  pb::ProofRequest r;
  r.set_request_id(d.request_id);
  r.set_kind(d.kind);
  r.set_priority(parse_priority(d.priority));
  // A parameter set's file that this process sees (--local, or an absolute path: maybe the daemon's
  // too) and that is a .vk: the usage error prove gives (exit 2), not the daemon's refusal (exit 3).
  auto refuse_vk = [&](const engine::ArgSpec& a, const std::string& flag, const std::string& value) {
    if (a.srs && (d.local || (!value.empty() && value.front() == '/'))) {
      refuse_vk_as_params(value, "kind " + k.name + " proves with the whole .params file", flag);
    }
  };
  for (const auto& [name, value] : d.kind_args) {
    const engine::ArgSpec* a = k.find(name);
    if (a == nullptr) continue;  // refused by its flag's check already
    refuse_vk(*a, flag_of(name), value);
    if (a->payload) {
      refuse_larger_than(flag_of(name), value, a->max, "the limit of kind " + k.name + "'s " + name);
      r.set_payload(read_all(value));
      if (r.payload().empty()) throw ProoflineError(Error::Malformed, flag_of(name) + " '" + value + "': the file is empty");
    } else {
      (*r.mutable_args())[name] = value;
    }
  }
  for (const auto& s : d.args) {
    auto [key, value] = split_kv(s, "--arg");
    if (auto it = d.kind_flags.find(key); it != d.kind_flags.end()) {
      throw CLI::ValidationError("--arg", "'" + key + "' is set by its own flag (" + it->second + "); give it once");
    }
    if (r.args().count(key) != 0) throw CLI::ValidationError("--arg", "'" + key + "' is given twice");
    const engine::ArgSpec* a = k.find(key);
    if (a == nullptr) {
      std::string names;
      for (const auto& x : k.args) names += (names.empty() ? "" : ", ") + x.name;
      throw CLI::ValidationError("--arg", "kind '" + k.name + "' has no argument '" + key + "' (its arguments: " +
                                              (names.empty() ? "none" : names) + ")");
    }
    if (const std::string why = engine::check_value(*a, value); !why.empty()) {
      throw CLI::ValidationError("--arg", key + "=" + value + ": " + why);
    }
    refuse_vk(*a, "--arg " + key, value);
    (*r.mutable_args())[key] = value;
  }
  if (d.kinds_from_daemon) {
    for (const auto& a : k.args) {
      const bool given = r.args().count(a.name) != 0 || (a.payload && !r.payload().empty());
      if (a.required && !given) {
        throw UsageError("kind " + k.name + " needs " + flag_of(a.name) + " (" + a.help + ")");
      }
    }
    engine::ProofRequest er;
    er.kind = r.kind();
    er.args.insert(r.args().begin(), r.args().end());
    er.payload.assign(r.payload().begin(), r.payload().end());
    try {
      engine::check_arguments(k.name, k.args, er);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  return r;
}

void print_result(const pb::ProofResult& r) {
  std::string prio = pb::Priority_Name(r.priority());
  for (char& c : prio) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::cout << "request     " << r.request_id() << "  (kind " << r.kind() << ", priority "
            << (prio.rfind("priority_", 0) == 0 ? prio.substr(9) : prio) << ")\n";
  std::cout << "status      " << pb::ProofStatus_Name(r.status()).substr(13) << "\n";
  if (!r.error_message().empty()) std::cout << "error       " << r.error_message() << "\n";
  const std::string& proof = r.proof();
  if (!proof.empty()) {
    std::cout << "proof       " << proof.size() / 192 << " partition(s) × 192 bytes, verified by the engine before it was returned\n";
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
    std::cout << "timings (ms)   queue     srs   synth  p.wait     h2d  kernel  prover   stage   total  backend\n";
    for (const auto& p : r.partitions()) {
      std::cout << "  [" << p.index() << "]" << std::string(p.index() < 10 ? 9 : 8, ' ')
                << fmt("%7.1f", p.queue_wait_ms()) << fmt(" %7.1f", p.srs_load_ms()) << fmt(" %7.1f", p.synthesis_ms())
                << fmt(" %7.1f", p.prove_wait_ms()) << fmt(" %7.1f", p.h2d_ms()) << fmt(" %7.1f", p.kernel_ms())
                << fmt(" %7.1f", p.prover_ms())
                << fmt(" %7.1f", p.stage_ms()) << fmt(" %7.1f", p.total_ms()) << "  " << p.backend() << "\n";
    }
  }
  const bool ended = r.status() == pb::PROOF_STATUS_COMPLETED || r.status() == pb::PROOF_STATUS_FAILED ||
                     r.status() == pb::PROOF_STATUS_CANCELLED;
  if (!ended) {  // TIMEOUT (the wait ended, not the job): no job totals yet
    std::cout << "note        the job is still running: proofline await --id " << shell_word(r.request_id())
              << " waits again, proofline cancel --id " << shell_word(r.request_id()) << " stops it\n";
    return;
  }
  std::cout << "job (ms)    queue " << fmt("%.1f", r.queue_wait_ms()) << ", srs " << fmt("%.1f", r.srs_load_ms())
            << ", synthesis " << fmt("%.1f", r.synthesis_ms()) << ", prover " << fmt("%.1f", r.prover_ms())
            << ", assemble " << fmt("%.1f", r.assemble_ms()) << ", verify " << fmt("%.1f", r.verify_ms())
            << ", total " << fmt("%.1f", r.total_ms()) << "\n";
}

/// Proof format "snarkjs": --proof and --public as `proofline prove --zkey` writes them (snarkjs
/// proof.json and public.json), from the daemon's 192-byte proof and decimal public inputs.
void write_snarkjs_outputs(PendingOutput& proof_out, PendingOutput& public_out, const pb::ProofResult& res) {
  namespace sj = groth16::snarkjs;
  if (res.proof().size() != groth16::Proof::kBytes || res.public_inputs_size() != 1) {
    throw ProoflineError(Error::BadLength, "daemon reply for kind " + res.kind() + " (snarkjs proof format): proof bytes got " +
                                               std::to_string(res.proof().size()) + ", expected " +
                                               std::to_string(groth16::Proof::kBytes) + " (one partition)");
  }
  const groth16::Proof proof = groth16::Proof::from_bytes(std::span<const std::uint8_t, groth16::Proof::kBytes>(
      reinterpret_cast<const std::uint8_t*>(res.proof().data()), groth16::Proof::kBytes));
  std::vector<ff::Fr> inputs;
  for (const auto& v : res.public_inputs(0).values()) inputs.push_back(groth16::fr_from_decimal(v, "public input"));
  proof_out.write(sj::proof_json(proof));
  public_out.write(sj::public_json(inputs));
}

/// The --proof / --public files of submit and await, checked (created under a temporary name) before
/// the request is sent, so an unwritable or doubly named path is a usage error (exit 2) before any
/// proving; renamed into place only for a COMPLETED (daemon-verified) result.
/// Inputs they must not overwrite: the files of the kind's arguments — those read here (payload
/// arguments: --wtns, --c1) and, when absolute, those the daemon opens (maybe on this machine; a
/// relative one is the daemon's folder's: --params, --zkey), from their flags or --arg.
std::vector<NamedFile> local_inputs(const DaemonCli& d) {
  std::vector<NamedFile> in;
  const KindDecl* k = find_kind(d, d.kind);
  if (k == nullptr) return in;
  auto add = [&](const std::string& flag, const engine::ArgSpec& a, const std::string& path, bool from_flag) {
    if (a.type != engine::ArgType::File || path.empty()) return;
    if ((a.payload && from_flag) || path.front() == '/') in.push_back({flag, path});
  };
  for (const auto& [name, value] : d.kind_args) {
    if (const engine::ArgSpec* a = k->find(name)) add(flag_of(name), *a, value, true);
  }
  for (const auto& s : d.args) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) continue;
    if (const engine::ArgSpec* a = k->find(s.substr(0, eq))) add("--arg " + s.substr(0, eq), *a, s.substr(eq + 1), false);
  }
  return in;
}

struct ResultOutputs {
  PendingOutput proof, pub;
  ResultOutputs(const DaemonCli& d, const std::vector<NamedFile>& inputs)
      : proof((check_output_paths(inputs, {{"--proof", d.proof_out}, {"--public", d.public_out}}), d.proof_out)),
        pub(d.public_out) {}
};

/// Writes the outputs asked for (--proof, --public; a kind of proof format "snarkjs": proof.json /
/// public.json), prints the result (text or --json) and returns the exit code of its status.
int report_result(const DaemonCli& d, const pb::ProofResult& res, ResultOutputs& out) {
  const bool snarkjs = res.proof_format() == "snarkjs";
  if (snarkjs && res.status() == pb::PROOF_STATUS_COMPLETED) {
    if (!d.proof_out.empty() || !d.public_out.empty()) {
      write_snarkjs_outputs(out.proof, out.pub, res);
    }
  } else if (!d.proof_out.empty() && !res.proof().empty()) {
    out.proof.write(res.proof());
  }
  if (!snarkjs && !d.public_out.empty() && res.public_inputs_size() > 0) {
    Json pub = Json::array();
    for (const auto& p : res.public_inputs()) pub.push_back(Json(std::vector<std::string>(p.values().begin(), p.values().end())));
    out.pub.write((pub.size() == 1 ? pub[0] : pub).dump(1) + "\n");
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

/// submit --local: the request proved by an engine in this process (header comment).
int run_submit_local(const DaemonCli& d, const KindDecl& kind) {
  if (d.no_wait) throw UsageError("--no-wait needs a daemon (submit --local waits for its own engine)");
  std::vector<groth16::Randomizers> rs;
  for (const std::string& v : d.local_rs) rs.push_back(parse_rs(v));  // a bad value: usage error, nothing read
  ResultOutputs outputs(d, local_inputs(d));
  EngineOptions eo;
  eo.backend = d.local_backend;
  eo.memory_budget = d.local_budget;
  eo.device_memory_limit = d.local_device_limit;
  LocalEngine local(eo);  // a bad --backend / --memory-budget: usage error before the inputs are read
  const pb::ProofRequest req = build_request(d, kind);
  engine::ProofRequest er = server::to_engine_request(req);
  if (er.request_id.empty()) er.request_id = "local-" + d.kind;
  er.randomizers = std::move(rs);
  const EngineRun run = local.run("submit", std::move(er), [&](const std::string& reason) {
    return "the engine's self-check of the " + d.kind + " proof failed: " + reason;
  });
  pb::ProofResult res;
  server::to_proto_result(run.result, &res);
  return report_result(d, res, outputs);
}

int run_submit(const DaemonCli& d) {
  const KindDecl& kind = submit_kind(d);
  if (d.local) return run_submit_local(d, kind);
  if (!d.local_rs.empty()) throw UsageError("--rs needs --local (a daemon always draws its randomizers)");
  ResultOutputs outputs(d, local_inputs(d));  // before anything is read or sent (--no-wait excludes --proof / --public)
  pb::ProofRequest req = build_request(d, kind);
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
              << " was submitted before and goes on (proofline cancel --id " << shell_word(sresp.request_id())
              << " stops it)\n";
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
  check_id_flag("--id", d.request_id);
  ResultOutputs outputs(d, {});
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
              << " goes on (proofline cancel --id " << shell_word(d.request_id) << " stops it)\n";
    return kUnfinished;
  }
  if (!st.ok()) return rpc_failed("await", d.address, st, d.json);
  return report_result(d, res, outputs);
}

int run_cancel(const DaemonCli& d) {
  check_id_flag("--id", d.request_id);
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

// ---- kinds ---------------------------------------------------------------------------------------

KindDecl decl_of(const pb::KindInfo& k) {
  return KindDecl{k.name(), k.description(), k.proof_format(), server::arguments_of(k)};
}

/// The kinds' declarations for submit's flags: the daemon's (ListKinds), else this binary's own.
/// Never throws (a bad address is reported by the command itself).
void learn_kinds(DaemonCli& d, const std::string& address, bool local) {
  d.kinds.clear();
  d.kinds_from_daemon = false;
  if (local) {  // submit --local: this binary's kinds are the engine's, so they are authoritative
    for (const auto& k : engine::KindRegistry::builtin()->all()) {
      pb::KindInfo info;
      server::to_proto_kind(*k, &info);
      d.kinds.push_back(decl_of(info));
    }
    d.kinds_from_daemon = true;
    d.kinds_local = true;
    return;
  }
  try {
    auto stub = pb::ProvingEngine::NewStub(client_channel(address));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    pb::ListKindsResponse resp;
    const grpc::Status st = stub->ListKinds(&ctx, pb::ListKindsRequest{}, &resp);
    if (st.ok()) {
      for (const auto& k : resp.kinds()) d.kinds.push_back(decl_of(k));
      d.kinds_from_daemon = true;
      return;
    }
    d.kinds_note = st.error_message();
  } catch (const std::exception& e) {
    d.kinds_note = e.what();
  }
  for (const auto& k : engine::KindRegistry::builtin()->all()) {
    pb::KindInfo info;
    server::to_proto_kind(*k, &info);
    d.kinds.push_back(decl_of(info));
  }
}

/// The value's word in --help: FILE, DIR, INT, SIZE, 0|1, HEX, TEXT.
std::string type_word(const engine::ArgSpec& a) {
  switch (a.type) {
    case engine::ArgType::File: return "FILE";
    case engine::ArgType::Dir: return "DIR";
    case engine::ArgType::Int: return "INT";
    case engine::ArgType::Size: return "SIZE";
    case engine::ArgType::Bool: return "0|1";
    case engine::ArgType::Hex: return "HEX";
    case engine::ArgType::String: break;
  }
  return "TEXT";
}

/// help (where the value goes, its form; required or its default); `local`: submit --local, whose
/// files are this machine's.
std::string flag_help(const engine::ArgSpec& a, bool local) {
  std::string where;
  if (a.type == engine::ArgType::File) {
    where = local       ? "a file on this machine"
            : a.payload ? "a file read here and sent with the request"
                        : "a file on the daemon's machine";
  } else if (a.type == engine::ArgType::Dir) {
    where = local ? "a folder on this machine" : "a folder on the daemon's machine";
  } else {
    where = engine::describe_form(a);
  }
  std::string help = a.help + " (" + where;
  if (a.required) help += "; required";
  if (!a.default_value.empty()) help += "; default " + a.default_value;
  if (!a.needs.empty()) {
    help += "; with";
    for (const auto& n : a.needs) help += " " + flag_of(n);
  }
  return help + ")";
}

/// One flag per argument of any kind: the chosen kind's as declared (value checks, needs), the other
/// kinds' hidden and refused with the kinds that take them.
void add_argument_flags(DaemonCli& d, const std::string& kind) {
  const KindDecl* chosen = find_kind(d, kind);
  std::map<std::string, std::vector<std::string>> takers;  // argument → kinds declaring it
  for (const auto& k : d.kinds) {
    for (const auto& a : k.args) takers[a.name].push_back(k.name);
  }
  const std::string group = "Arguments of --kind " + kind + " (declared by " +
                            (d.kinds_local         ? "this binary: --local proves in this process, no daemon"
                             : d.kinds_from_daemon ? "the daemon"
                                                   : "this binary: the daemon did not answer") +
                            ")";
  std::vector<std::string> order;  // the chosen kind's in its order (--help shows them so), then the rest
  if (chosen != nullptr) {
    for (const auto& a : chosen->args) order.push_back(a.name);
  }
  for (const auto& [name, kinds] : takers) {
    if (chosen == nullptr || chosen->find(name) == nullptr) order.push_back(name);
  }
  std::map<std::string, CLI::Option*> opts;
  for (const auto& name : order) {
    const std::vector<std::string>& kinds = takers[name];
    const std::string flag = flag_of(name);
    if (d.submit->get_option_no_throw(flag) != nullptr) continue;  // one of submit's own: --arg gives it
    const engine::ArgSpec* a = chosen ? chosen->find(name) : nullptr;
    if (a == nullptr) {  // hidden; refused when given (a hidden option has no name in CLI11's own errors)
      std::string who;
      for (const auto& k : kinds) who += (who.empty() ? "" : " or ") + k;
      const std::string why = "only for --kind " + who + " (this request is --kind " + kind + ")";
      d.submit->add_option_function<std::string>(flag, [flag, why](const std::string&) {
        throw CLI::ValidationError(flag, why);
      })->group("");
      continue;
    }
    auto store = [&d, name, flag](const std::string& v) {
      d.kind_args[name] = v;
      d.kind_flags[name] = flag;
    };
    CLI::Option* o = d.submit->add_option_function<std::string>(flag, store, flag_help(*a, d.kinds_local));
    o->group(group)->type_name(type_word(*a));
    if (a->payload) {
      o->check(CLI::ExistingFile);  // read here
    } else {
      const engine::ArgSpec spec = *a;
      o->check(CLI::Validator([spec](std::string& v) { return engine::check_value(spec, v); }, "", ""));
    }
    opts[name] = o;
  }
  if (chosen != nullptr) {
    for (const auto& a : chosen->args) {
      for (const auto& n : a.needs) {
        if (opts.count(a.name) != 0 && opts.count(n) != 0) opts[a.name]->needs(opts[n]);
      }
    }
  }
  d.submit->get_option("--kind")->description("proof kind: " + kind_names(d) + " (" +
                                               (d.kinds_from_daemon && !d.kinds_local ? "the daemon's" : "this binary's") +
                                               "; proofline kinds lists their arguments)");
}

/// `|` and line breaks out of a markdown table cell.
std::string cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

/// docs/kinds.md: the kinds' declarations as tables.
std::string kinds_markdown(const std::vector<KindDecl>& kinds) {
  std::ostringstream o;
  o << "# Proof kinds\n\n"
       "<!-- Generated by `proofline kinds --local --markdown` from the kinds' declarations (engine::ArgSpec,\n"
       "     include/proofline/engine/kind.hpp). Do not edit: ctest cli_kinds_doc checks it is current. -->\n\n"
       "Each kind declares its arguments; the daemon checks every request against them, sends them to\n"
       "clients (`ListKinds`), and `proofline submit --kind K` takes each as a flag `--name` (`-` for `_`)\n"
       "or as `--arg name=value`. `proofline kinds --address A` lists the kinds a daemon proves (a daemon\n"
       "may link more than these built-in ones); `proofline submit --kind K --help` lists K's flags.\n\n"
       "Types: `file` a path on the prover's (daemon's) machine — one marked *payload* may instead come\n"
       "as the request's bytes, which `proofline submit` sends from a local file; `dir` a folder there;\n"
       "`int` decimal digits; `size` `2^k` or a power of two; `bool` `0` or `1`; `hex` hex digits.\n"
       "*srs*: the argument naming the parameter set (`engine.preload = [\"kind:path\"]`, PreloadSRS).\n";
  for (const auto& k : kinds) {
    o << "\n## " << k.name << "\n\n" << k.description << ".";
    if (k.proof_format == "snarkjs") o << " Proof files: snarkjs proof.json and public.json.";
    o << "\n\n| argument | type | required | default | meaning |\n|---|---|---|---|---|\n";
    for (const auto& a : k.args) {
      std::string type = std::string(engine::to_string(a.type));
      const auto num = [](std::uint64_t x) { return x == ~std::uint64_t{0} ? std::string("2^64 - 1") : std::to_string(x); };
      if (a.type == engine::ArgType::Int && (a.min != 0 || a.max != ~std::uint64_t{0})) {
        type += ", " + num(a.min) + " … " + num(a.max);
      } else if (a.type == engine::ArgType::Size && (a.min != 0 || a.max < 63)) {
        type += ", k " + num(a.min) + " … " + num(std::min<std::uint64_t>(a.max, 63));
      } else if (a.type == engine::ArgType::Hex && a.bytes != 0) {
        type += ", " + std::to_string(a.bytes) + " bytes";
      } else if (a.type == engine::ArgType::File && a.max != ~std::uint64_t{0}) {
        type += ", at most " + num(a.max) + " bytes";
      }
      if (a.payload) type += ", *payload*";
      if (a.srs) type += ", *srs*";
      std::string meaning = a.help;
      if (!a.needs.empty()) {
        meaning += " (with";
        for (const auto& n : a.needs) meaning += " `" + n + "`";
        meaning += ")";
      }
      o << "| `" << a.name << "` | " << cell(type) << " | " << (a.required ? "yes" : "") << " | "
        << cell(a.default_value) << " | " << cell(meaning) << " |\n";
    }
  }
  return o.str();
}

void print_kinds(const std::vector<KindDecl>& kinds) {
  for (const auto& k : kinds) {
    std::cout << k.name << "  " << k.description << "\n";
    for (const auto& a : k.args) {
      char line[64];
      std::snprintf(line, sizeof line, "    %-20s %-5s", (flag_of(a.name)).c_str(), type_word(a).c_str());
      std::cout << line << " " << flag_help(a, false) << "\n";
    }
  }
}

int run_kinds(const DaemonCli& d) {
  pb::ListKindsResponse resp;
  if (d.local) {
    for (const auto& k : engine::KindRegistry::builtin()->all()) server::to_proto_kind(*k, resp.add_kinds());
  } else {
    auto stub = pb::ProvingEngine::NewStub(client_channel(d.address));
    grpc::ClientContext ctx;
    const grpc::Status st = stub->ListKinds(&ctx, pb::ListKindsRequest{}, &resp);
    if (!st.ok()) return rpc_failed("kinds", d.address, st, d.json);
  }
  std::vector<KindDecl> kinds;
  for (const auto& k : resp.kinds()) kinds.push_back(decl_of(k));
  if (d.json) {
    std::cout << proto_json(resp).dump(2) << "\n";
  } else if (d.markdown) {
    std::cout << kinds_markdown(kinds);
  } else {
    print_kinds(kinds);
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
  std::cout << "kinds       " << s.kind_info_size() << " (proofline kinds lists their arguments)\n";
  for (const auto& k : s.kind_info()) {
    std::cout << "  " << k.name() << "  ";
    std::string sep;
    for (const auto& a : server::arguments_of(k)) {
      std::cout << sep << flag_of(a.name) << " " << type_word(a) << (a.required ? "" : "?");
      sep = " ";
    }
    std::cout << "\n";
  }
  std::cout << "jobs        queued " << s.jobs_queued() << ", running " << s.jobs_running() << ", completed "
            << s.jobs_completed() << ", failed " << s.jobs_failed() << ", cancelled " << s.jobs_cancelled() << "\n";
  // Per job in flight: partitions synthesized / proved of n.
  for (const auto& j : s.jobs()) {
    std::cout << "  " << j.request_id() << "  " << j.kind() << "  "
              << (j.status() == pb::PROOF_STATUS_QUEUED ? "queued" : "running");
    if (j.num_partitions() != 0) {
      std::cout << "  synthesized " << j.partitions_synthesized() << "/" << j.num_partitions() << ", proved "
                << j.partitions_done() << "/" << j.num_partitions();
    } else {
      std::cout << "  (preparing)";
    }
    std::cout << ", " << fmt("%.1f", j.elapsed_s()) << " s\n";
  }
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
  if (!m.budget_source().empty()) {
    // "configured: N bytes", or "derived: MemAvailable … − SRS … − margin … = …".
    std::cout << "            budget " << (m.budget_source() == "derived" ? "derived: " : "") << m.budget_derivation()
              << "\n"
              << "            pool hits " << m.pool_hits() << ", misses " << m.pool_misses()
              << ", frees on the prove path " << m.critical_path_frees() << "\n";
  }
  std::cout << "srs cache   " << mib(m.srs_bytes()) << " of "
            << (m.srs_budget_bytes() ? mib(m.srs_budget_bytes()) : std::string("unlimited")) << "\n";
  for (const auto& e : s.srs()) {
    std::cout << "  " << e.key() << "  " << e.state() << "  " << mib(e.bytes()) << ", users " << e.users() << ", idle "
              << fmt("%.1f", e.idle_s()) << " s, load " << fmt("%.1f", e.load_ms()) << " ms\n";
  }
  if (s.compiled_size() > 0) std::cout << "compiled    " << mib(m.compiled_bytes()) << " in host memory\n";
  for (const auto& c : s.compiled()) {
    std::cout << "  " << c.key() << "  " << c.constraints() << " constraints, " << c.coefficients()
              << " coefficients; host " << mib(c.host_bytes()) << (c.mapped() ? " (mapped)" : "") << ", disk "
              << mib(c.disk_bytes()) << ", device " << mib(c.device_bytes())
              << (c.file().empty() ? std::string() : ", " + c.file()) << "\n";
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
  d.daemon = app.add_subcommand("daemon", "run the proving daemon (gRPC proofline.v1.ProvingEngine and cuzk.v1.ProvingEngine, the API Curio calls) until SIGINT/SIGTERM");
  d.daemon->add_option("--config", d.config, "config file (JSON or TOML-ish; options below); none: defaults")
      ->check(CLI::ExistingFile);
  d.daemon->add_option("--unix", d.unix_socket,
                       "listen.unix: unix socket path (\"\": none; missing folders on the path are made, as for "
                       "--listen unix://)");
  d.daemon->add_option("--tcp", d.tcp, "listen.tcp: host:port (\"\": none; loopback unless listen.allow_remote)");
  d.daemon->add_option("--listen", d.listen,
                       "listen address as cuzk takes it (repeatable, one unix and one TCP): unix:///path (e.g. "
                       "unix:///run/curio/cuzk.sock, the folder is made) or ip:port (e.g. 127.0.0.1:9820); the "
                       "listener not named is off");
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
  d.submit->add_option("--kind", d.kind, "proof kind (proofline kinds lists the daemon's)")->capture_default_str();
  d.submit->add_option("--priority", d.priority,
                       "default | low | normal | high | critical (default: the kind's: winning-post critical, "
                       "window-post high, the others normal)")
      ->capture_default_str();
  d.submit->add_option("--request-id", d.request_id,
                       std::string("idempotency key: ") + kRequestIdRule + " (default: the daemon assigns one)");
  CLI::Option* submit_timeout = add_integer_option(
      *d.submit, "--timeout-ms", d.timeout_ms,
      "stop waiting after this long (0, or more than 2^40 (35 years): wait until done); the job goes on (status "
      "TIMEOUT, exit 5; await/cancel --id)",
      0, kMaxU64);
  d.submit->add_option("--arg", d.args,
                       "an argument of the kind as name=value, sent as is (a file: a path on the daemon's machine, with "
                       "--local on this one; "
                       "repeatable)");
  CLI::Option* submit_proof = d.submit->add_option("--proof", d.proof_out,
                       "write the proof here: 192 bytes per partition, concatenated (a kind of snarkjs proof format: "
                       "proof.json)");
  CLI::Option* submit_public =
      d.submit->add_option("--public", d.public_out, "write the public inputs (snarkjs public.json format) here");
  d.submit->add_flag("--local", d.local,
                     "prove in this process (an engine started here, this binary's kinds; no daemon): the one "
                     "command that proves any kind from files — window-post, winning-post, snap-update, porep-c2, …");
  d.submit->add_option("--backend", d.local_backend, "with --local: cpu | cuda | auto")->capture_default_str();
  d.submit->add_option("--memory-budget", d.local_budget,
                       "with --local: bytes of partition buffers in flight (512MiB, 8GiB, …; 0: derived from the machine)")
      ->capture_default_str();
  d.submit->add_option("--device-memory-limit", d.local_device_limit,
                       "with --local: device bytes each CUDA backend may use, e.g. 24GiB (0: the device's free memory)")
      ->capture_default_str();
  d.submit->add_option("--rs", d.local_rs,
                       "with --local: fixed randomizers \"R,S\" (decimal), once per partition in order, to compare "
                       "proof bytes across forms or machines (TESTING ONLY: a proof with known r, s is not "
                       "zero-knowledge)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  d.submit->add_flag("--no-wait", d.no_wait, "only submit; print the request id (for await / cancel --id)")
      ->excludes(submit_proof)
      ->excludes(submit_public)
      ->excludes(submit_timeout);
  d.submit->footer(d.submit->get_footer() +
                   "\nThe kind's own flags (--params, --size, --zkey, --wtns, --c1, …) are its declared arguments, as "
                   "the daemon at --address declares them (ListKinds; this binary's kinds when it does not answer): "
                   "`proofline submit --kind K --help` lists K's, `proofline kinds` every kind's.\nCtrl-C while "
                   "waiting cancels the job (exit 5), unless the request id was already known: then it only stops "
                   "waiting.");

  d.await_cmd = app.add_subcommand("await", "wait for a request sent with `submit --no-wait`; print it as submit does");
  add_address(d.await_cmd);
  d.await_cmd->add_option("--id", d.request_id,
                          std::string("the request id (submit --no-wait prints it): ") + kRequestIdRule)
      ->required();
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
  d.cancel_cmd->add_option("--id", d.request_id, std::string("the request id: ") + kRequestIdRule)->required();

  d.status = app.add_subcommand("status", "show the daemon's backends, queues, memory budget, SRS cache and jobs");
  add_address(d.status);
  d.status->add_flag("--metrics", d.metrics, "print the Prometheus metrics text instead")
      ->excludes(d.status->get_option("--json"));

  d.kinds_cmd = app.add_subcommand("kinds", "list the proof kinds the daemon proves, with their arguments");
  add_address(d.kinds_cmd);
  d.kinds_cmd->add_flag("--local", d.local, "this binary's own kinds instead of the daemon's (no daemon needed)")
      ->excludes(d.kinds_cmd->get_option("--address"));
  d.kinds_cmd->add_flag("--markdown", d.markdown,
                        "print docs/kinds.md: a table of arguments per kind (proofline kinds --local --markdown)")
      ->excludes(d.kinds_cmd->get_option("--json"));
}

void add_kind_flags(DaemonCli& d, int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]) != d.submit->get_name()) return;
  // Blocked from here on in this thread and every thread started later (gRPC's, by the channel
  // below): submit's InterruptibleWait takes them with sigtimedwait, and a signal that reached a
  // gRPC thread would end the process without cancelling the job.
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

  // --address and --kind first (the real parse, later, reports any error of the command line).
  CLI::App pre;
  pre.allow_extras();
  pre.set_help_flag();
  std::string address = d.address, kind = d.kind;
  bool local = false;
  pre.add_option("--address", address);
  pre.add_option("--kind", kind);
  pre.add_flag("--local", local);
  std::vector<std::string> rest(argv + 2, argv + argc);
  std::reverse(rest.begin(), rest.end());  // CLI11 takes a vector of arguments last first
  try {
    pre.parse(rest);
  } catch (const CLI::Error&) {
  }
  learn_kinds(d, address, local);
  add_argument_flags(d, kind);
}

int run_daemon_commands(const DaemonCli& d) {
  const char* cmd = d.daemon->parsed()       ? "daemon"
                    : d.submit->parsed()     ? "submit"
                    : d.await_cmd->parsed()  ? "await"
                    : d.cancel_cmd->parsed() ? "cancel"
                    : d.status->parsed()     ? "status"
                    : d.kinds_cmd->parsed()  ? "kinds"
                                             : nullptr;
  if (!cmd) return -1;
  return run_guarded(cmd, [&] {
    try {
      if (d.daemon->parsed()) return run_daemon(d);
      if (d.submit->parsed()) return run_submit(d);
      if (d.await_cmd->parsed()) return run_await(d);
      if (d.cancel_cmd->parsed()) return run_cancel(d);
      if (d.kinds_cmd->parsed()) return run_kinds(d);
      return run_status(d);
    } catch (const server::ListenError& e) {
      throw UsageError(e.what());  // an address in use or not allowed: exit 2, like any bad flag
    }
  }, d.json);
}

}  // namespace proofline::cli
