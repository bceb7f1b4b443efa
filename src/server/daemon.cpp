// The daemon: engine + ProvingService + gRPC server on a unix socket and/or TCP
// (proofline/server/service.hpp).
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "proofline/filecoin/sector.hpp"
#include "proofline/groth16/backend_factory.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/server/cuzk.hpp"
#include "proofline/server/service.hpp"
#include "status_page.hpp"
#include "proofline/util/error.hpp"

namespace proofline::server {

namespace {

/// True if something accepts connections on the unix socket at `path`.
bool unix_socket_live(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  const bool live = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return live;
}

/// Makes `path` free for a new listener: a stale socket file (nobody listening) is removed; a live
/// one or any other kind of file is an error.
void claim_unix_path(const std::string& path) {
  if (path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    throw ListenError("listen.unix: '" + path + "' is longer than a unix socket path may be (" +
                      std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) + " bytes)");
  }
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(path, ec);
  if (ec || !std::filesystem::exists(st)) return;
  if (!std::filesystem::is_socket(st)) {
    throw ListenError("listen.unix: '" + path + "' exists and is not a socket; not replacing it");
  }
  if (unix_socket_live(path)) {
    throw ListenError("listen.unix: '" + path + "': another process (a running daemon?) listens there");
  }
  std::filesystem::remove(path, ec);
}

std::string host_of(const std::string& hostport) {
  if (!hostport.empty() && hostport.front() == '[') return hostport.substr(0, hostport.find(']') + 1);
  return hostport.substr(0, hostport.rfind(':'));
}

/// params.check_at_start: every parameter file of the cache against the published digests, and the
/// .params/.vk of params.sector_sizes present; a failure refuses the start (ProoflineError: exit 3).
void check_parameter_cache(const DaemonConfig& cfg) {
  groth16::ParamCheckOptions opts;
  for (const std::string& s : cfg.params_sector_sizes) opts.sector_sizes.push_back(filecoin::parse_sector_size(s));
  opts.progress = groth16::stderr_hash_progress("proofline daemon");
  const std::filesystem::path dir = filecoin::parameter_cache_dir();
  std::cerr << "proofline daemon: params.check_at_start: checking " << dir.string() << "\n";
  const groth16::ParamCheckReport rep = groth16::check_param_cache(dir, groth16::ParamManifest::builtin(), opts);
  if (rep.failed()) {
    throw ProoflineError(Error::Malformed, "params.check_at_start: the parameter cache '" + dir.string() +
                                               "' does not match Filecoin's published digests: " +
                                               rep.failure_summary() + "; not starting (`proofline params check "
                                               "--cache " + dir.string() + "` prints the whole report)");
  }
  std::cerr << "proofline daemon: parameter cache " << dir.string() << ": " << rep.count(groth16::ParamStatus::Ok)
            << " file(s) ok, " << rep.count(groth16::ParamStatus::Unknown) << " not in the published table\n";
}

}  // namespace

bool resolves_to_loopback(const std::string& host, std::string* why) {
  auto say = [why](const std::string& w) {
    if (why != nullptr) *why = w;
    return false;
  };
  std::string name = host;
  if (name.size() >= 2 && name.front() == '[' && name.back() == ']') name = name.substr(1, name.size() - 2);
  if (name.empty()) return say("no host (it would listen on every interface)");
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  if (const int rc = ::getaddrinfo(name.c_str(), nullptr, &hints, &list); rc != 0) {
    return say("'" + name + "' does not resolve (" + ::gai_strerror(rc) + ")");
  }
  bool any = false, all = true;
  std::string other;
  for (const addrinfo* a = list; a != nullptr; a = a->ai_next) {
    char text[INET6_ADDRSTRLEN] = "?";
    bool loop = false;
    if (a->ai_family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(a->ai_addr);
      loop = (ntohl(in->sin_addr.s_addr) >> 24) == 127;  // 127.0.0.0/8
      ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    } else if (a->ai_family == AF_INET6) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(a->ai_addr);
      // ::1, or an IPv4-mapped ::ffff:127.x.y.z
      loop = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr) ||
             (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr) && in6->sin6_addr.s6_addr[12] == 127);
      ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    }
    any = true;
    if (!loop && all) other = text;
    all = all && loop;
  }
  ::freeaddrinfo(list);
  if (!any) return say("'" + name + "' resolves to no address");
  if (!all) return say("'" + name + "' resolves to " + other + ", which is not loopback");
  return true;
}

std::shared_ptr<grpc::Channel> make_channel(const std::string& address, std::uint64_t max_message_bytes) {
  grpc::ChannelArguments args;
  const int limit = static_cast<int>(std::min<std::uint64_t>(max_message_bytes, INT32_MAX));
  args.SetMaxReceiveMessageSize(limit);
  args.SetMaxSendMessageSize(limit);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
}

Daemon::Daemon(DaemonConfig cfg, DaemonParts parts) : cfg_(std::move(cfg)) {
  if (cfg_.unix_socket.empty() && cfg_.tcp.empty()) {
    throw ListenError("listen: neither listen.unix nor listen.tcp is set; the daemon would be unreachable");
  }
  if (!cfg_.tcp.empty()) {
    if (cfg_.tcp.rfind(':') == std::string::npos) {
      throw ListenError("listen.tcp: '" + cfg_.tcp + "': expected host:port (e.g. 127.0.0.1:50551)");
    }
    {
      // The port must be a decimal number in 0..65535 (0: any free port); gRPC would otherwise
      // bind a random port for an out-of-range one and say nothing.
      const std::string port = cfg_.tcp.substr(cfg_.tcp.rfind(':') + 1);
      const bool digits = !port.empty() && port.size() <= 5 &&
                          port.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || std::stoul(port) > 65535) {
        throw ListenError("listen.tcp: '" + cfg_.tcp + "': port '" + port +
                          "' is not a number in 0..65535");
      }
    }
    std::string why;
    if (!cfg_.allow_remote && !resolves_to_loopback(host_of(cfg_.tcp), &why)) {
      throw ListenError("listen.tcp: '" + cfg_.tcp + "' is not a loopback address: " + why +
                        " (loopback: 127.0.0.0/8 or ::1); the API has no authentication. Set "
                        "listen.allow_remote = true to listen there anyway");
    }
  }

  if (cfg_.params_check_at_start) check_parameter_cache(cfg_);

  engine::EngineConfig ec;
  if (parts.backends.empty()) {
    try {
      ec.backends = groth16::make_backends(cfg_.backend, groth16::BackendOptions{cfg_.cpu_threads, 0, cfg_.gpu_device_memory_limit}, &backend_note_);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("engine.backend = ") + e.what());
    }
  } else {
    ec.backends = std::move(parts.backends);
    backend_note_ = std::to_string(ec.backends.size()) + " backend(s) given by the host program";
  }
  ec.prover_workers_per_backend = cfg_.prover_workers_per_backend;
  ec.synthesis_workers = cfg_.synthesis_workers;
  ec.memory_budget_bytes = cfg_.memory_budget;
  ec.srs_budget_bytes = cfg_.srs_budget;
  ec.pool_max_bytes = cfg_.pool_max;
  ec.reclaimer = cfg_.reclaimer;
  ec.overlap = cfg_.overlap;
  ec.max_finished_jobs = cfg_.max_finished_jobs;
  ec.log_partitions = cfg_.log_partitions;
  kinds_ = parts.kinds ? std::move(parts.kinds) : engine::KindRegistry::builtin();
  ec.kinds = kinds_;
  engine_ = std::make_unique<engine::Engine>(std::move(ec));

  // "kind:path": the path fills the argument the kind declares as naming its parameter set.
  for (const std::string& entry : cfg_.preload) {
    const auto colon = entry.find(':');
    const std::string kind = colon == std::string::npos ? std::string() : entry.substr(0, colon);
    const engine::ProofKind* k = kinds_->find(kind);
    if (k == nullptr) {
      std::string known;
      for (const auto& n : kinds_->names()) known += (known.empty() ? "" : ", ") + n;
      throw std::invalid_argument("engine.preload: '" + entry + "': expected kind:path with one of the kinds " + known);
    }
    const std::vector<engine::ArgSpec> args = k->arguments();
    const auto srs = std::find_if(args.begin(), args.end(), [](const engine::ArgSpec& a) { return a.srs; });
    if (srs == args.end()) {
      throw std::invalid_argument("engine.preload: '" + entry + "': kind '" + kind + "' declares no parameter file");
    }
    engine_->preload_srs(kind, {{srs->name, entry.substr(colon + 1)}});
  }

  if (!cfg_.api_proofline && !cfg_.api_cuzk) {
    throw ListenError("api: both api.proofline and api.cuzk are false; the daemon would serve nothing");
  }
  service_ = std::make_unique<ProvingService>(*engine_, kinds_, cfg_);
  if (cfg_.api_cuzk) cuzk_ = std::make_unique<CuzkService>(*engine_, kinds_, cfg_, *service_);
  grpc::ServerBuilder builder;
  const int limit = static_cast<int>(std::min<std::uint64_t>(cfg_.max_message_bytes, INT32_MAX));
  builder.SetMaxReceiveMessageSize(limit);
  builder.SetMaxSendMessageSize(limit);
  grpc::ResourceQuota quota("proofline-daemon");
  quota.SetMaxThreads(static_cast<int>(cfg_.max_threads));
  builder.SetResourceQuota(quota);
  // No SO_REUSEPORT: a second daemon on a port that one already listens on must fail to start,
  // not share the port (requests, ids and awaits would reach either daemon at random).
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  if (!cfg_.unix_socket.empty()) {
    claim_unix_path(cfg_.unix_socket);
    // The socket's folder is made when missing (e.g. /run/curio for Curio's default address).
    if (const auto parent = std::filesystem::path(cfg_.unix_socket).parent_path(); !parent.empty()) {
      std::error_code ec;
      const bool made = std::filesystem::create_directories(parent, ec);
      if (ec) throw ListenError("listen.unix: cannot make the folder '" + parent.string() + "': " + ec.message());
      if (made) std::cerr << "proofline daemon: listen.unix: made the missing folder " << parent.string() << "\n";
    }
    builder.AddListeningPort("unix:" + cfg_.unix_socket, grpc::InsecureServerCredentials());
  }
  int tcp_port = 0;
  if (!cfg_.tcp.empty()) builder.AddListeningPort(cfg_.tcp, grpc::InsecureServerCredentials(), &tcp_port);
  if (cfg_.api_proofline) builder.RegisterService(service_.get());
  if (cuzk_) builder.RegisterService(cuzk_.get());
  server_ = builder.BuildAndStart();
  if (!server_) {
    throw ListenError("cannot listen on " +
                      (cfg_.unix_socket.empty() ? std::string() : "unix:" + cfg_.unix_socket + " ") +
                      (cfg_.tcp.empty() ? std::string() : cfg_.tcp) + " (address in use or not allowed)");
  }
  if (!cfg_.unix_socket.empty()) listening_.push_back("unix:" + cfg_.unix_socket);
  if (!cfg_.tcp.empty()) {
    if (tcp_port == 0) {
      server_->Shutdown();
      throw ListenError("listen.tcp: cannot bind '" + cfg_.tcp + "' (address in use or not allowed)");
    }
    listening_.push_back(host_of(cfg_.tcp) + ":" + std::to_string(tcp_port));
  }
  service_->set_listen(listening_);

  status_note_ = "status page off (status.listen)";
  if (!cfg_.status_listen.empty()) {
    std::string why;
    if (!cfg_.allow_remote && !resolves_to_loopback(host_of(cfg_.status_listen), &why)) {
      throw ListenError("status.listen: '" + cfg_.status_listen + "' is not a loopback address: " + why +
                        " (set listen.allow_remote = true to serve it there)");
    }
    try {
      status_page_ = std::make_unique<StatusPage>(*engine_, cfg_.status_listen);
      status_note_ = "status page at http://" + status_page_->address() + "/";
    } catch (const std::exception& e) {
      status_note_ = std::string("status page not started: ") + e.what();  // proving goes on without it
    }
  }
}

void Daemon::wait() {
  if (server_) server_->Wait();
}

void Daemon::shutdown(std::chrono::milliseconds grace) {
  std::call_once(shutdown_once_, [&] {
    if (service_) service_->stop();
    if (cuzk_) cuzk_->stop();
    if (status_page_) status_page_->stop();
    if (server_) {
      server_->Shutdown(std::chrono::system_clock::now() + grace);
      server_->Wait();  // every handler has returned: none touches the engine any more
    }
    engine_.reset();  // cancels what is still queued or running, joins the engine's threads
    if (!cfg_.unix_socket.empty()) {
      std::error_code ec;
      std::filesystem::remove(cfg_.unix_socket, ec);
    }
  });
}

Daemon::~Daemon() { shutdown(); }

}  // namespace proofline::server
