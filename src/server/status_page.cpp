// The daemon's status page (status_page.hpp).
#include "status_page.hpp"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "proofline/server/service.hpp"

namespace proofline::server {

namespace {

using PageJson = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

/// A connection's socket as an httplib::Stream whose reads and writes all end by one deadline
/// (StatusPage::kConnectionDeadline after the accept): a client that sends its request a byte at a
/// time, or nothing, is cut off then instead of holding a worker for as long as it trickles
/// (httplib's own stream restarts its read timeout at every byte).
class DeadlineStream final : public httplib::Stream {
 public:
  DeadlineStream(int fd, Clock::time_point deadline) : fd_(fd), deadline_(deadline) {}

  bool is_readable() const override { return wait(POLLIN); }
  bool is_writable() const override { return wait(POLLOUT); }
  ssize_t read(char* ptr, std::size_t size) override {
    if (!wait(POLLIN)) return -1;
    ssize_t n;
    do n = ::recv(fd_, ptr, size, 0);
    while (n < 0 && errno == EINTR);
    return n;
  }
  ssize_t write(const char* ptr, std::size_t size) override {
    if (!wait(POLLOUT)) return -1;
    ssize_t n;
    do n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    return n;
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override { address(true, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address(false, ip, port); }
  socket_t socket() const override { return fd_; }

 private:
  /// True once `events` are ready on the socket before the deadline.
  bool wait(short events) const {
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{fd_, events, 0};
      const int r = ::poll(&p, 1, static_cast<int>(left));
      if (r > 0) return (p.revents & (events | POLLHUP | POLLERR)) != 0;
      if (r == 0 || errno != EINTR) return false;
    }
  }
  void address(bool remote, std::string& ip, int& port) const {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    ip.clear();
    port = 0;
    if ((remote ? ::getpeername(fd_, reinterpret_cast<sockaddr*>(&a), &len)
                : ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len)) != 0) {
      return;
    }
    char buf[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET) {
      const auto* v4 = reinterpret_cast<const sockaddr_in*>(&a);
      ::inet_ntop(AF_INET, &v4->sin_addr, buf, sizeof buf);
      port = ntohs(v4->sin_port);
    } else if (a.ss_family == AF_INET6) {
      const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a);
      ::inet_ntop(AF_INET6, &v6->sin6_addr, buf, sizeof buf);
      port = ntohs(v6->sin6_port);
    }
    ip = buf;
  }

  int fd_;
  Clock::time_point deadline_;
};

}  // namespace

/// httplib's server with one request per connection, read and answered within the connection's
/// deadline (DeadlineStream), on StatusPage::kWorkers threads.
class StatusPage::Server final : public httplib::Server {
 public:
  Server() {
    new_task_queue = [] { return new httplib::ThreadPool(StatusPage::kWorkers); };
  }

 private:
  bool process_and_close_socket(socket_t sock) override {
    const auto accepted = Clock::now();
    const unsigned busy = active_.fetch_add(1) + 1;
    // A client that connects and says nothing holds a worker only until its first byte is due: the
    // connections queued behind it (a /status among a thousand idle ones) wait that long, not
    // kConnectionDeadline each.
    const auto first = busy > StatusPage::kWorkers / 2 ? StatusPage::kFirstByteDeadlineBusy : StatusPage::kFirstByteDeadline;
    pollfd p{sock, POLLIN, 0};
    int ready;
    do ready = ::poll(&p, 1, static_cast<int>(first.count()));
    while (ready < 0 && errno == EINTR);
    if (ready > 0) {
      DeadlineStream strm(sock, accepted + StatusPage::kConnectionDeadline);
      bool closed = false;
      process_request(strm, /*close_connection=*/true, closed, [](httplib::Request&) {});
    }
    active_.fetch_sub(1);
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return true;
  }
  std::atomic<unsigned> active_{0};  ///< connections being served now
};

std::string status_json(engine::Engine& eng, double window_s) {
  const engine::EngineStatus s = eng.status();
  PageJson j;
  j["uptime_s"] = s.uptime_seconds;
  j["memory"] = {{"budget_bytes", s.memory.budget_bytes},
                 {"used_bytes", s.memory.used_bytes},
                 {"reserved_bytes", s.memory.reserved_bytes},
                 {"pooled_bytes", s.memory.pooled_bytes},
                 {"reclaim_pending_bytes", s.memory.reclaim_pending_bytes},
                 {"srs_bytes", s.memory.srs_bytes},
                 {"compiled_bytes", s.memory.compiled_bytes},
                 {"rss_bytes", resident_bytes()}};
  j["srs"] = PageJson::array();
  for (const auto& e : s.srs) {
    j["srs"].push_back({{"key", e.key}, {"state", e.state}, {"progress", e.progress}, {"host_bytes", e.bytes},
                        {"users", e.users}, {"idle_s", e.idle_seconds}, {"load_ms", e.load_ms},
                        {"device_mode", e.device_mode}, {"device_bytes", e.device_bytes}});
  }
  j["compiled"] = PageJson::array();
  for (const auto& c : s.compiled) {
    j["compiled"].push_back({{"key", c.key}, {"file", c.file}, {"constraints", c.constraints},
                             {"coefficients", c.coefficients}, {"host_bytes", c.host_bytes},
                             {"disk_bytes", c.disk_bytes}, {"device_bytes", c.device_bytes}, {"mapped", c.mapped}});
  }
  j["queues"] = PageJson::array();
  for (const auto& q : s.queues) {
    if (q.pending == 0 && q.running == 0) continue;
    j["queues"].push_back({{"stage", q.stage}, {"priority", std::string(engine::to_string(q.priority))},
                           {"pending", q.pending}, {"running", q.running}});
  }
  j["kinds"] = PageJson::object();
  for (const auto& [kind, k] : s.jobs_by_kind) {
    j["kinds"][kind] = {{"queued", k.queued}, {"running", k.running}, {"done", k.done}, {"failed", k.failed}};
  }
  j["backends"] = PageJson::array();
  for (const auto& b : s.backends) {
    j["backends"].push_back({{"index", b.index}, {"name", b.name}, {"workers", b.workers},
                             {"busy_workers", b.busy_workers}, {"partitions_proved", b.partitions_proved},
                             {"in_service", b.in_service}, {"fault", b.fault}, {"recoveries", b.recoveries}});
  }
  j["counters"] = {{"jobs_queued", s.jobs_queued},     {"jobs_running", s.jobs_running},
                   {"jobs_done", s.jobs_done},         {"jobs_failed", s.jobs_failed},
                   {"jobs_cancelled", s.jobs_cancelled}, {"synthesis_workers", s.synthesis_workers}};

  // Jobs and their partitions, from the timeline (the jobs seen in the window) and the engine.
  const double since = std::max(0.0, s.uptime_seconds - window_s);
  const std::vector<engine::StageSpan> spans = eng.timeline(since);
  struct Part {
    std::string state = "pending";
    double synth_ms = -1, prove_ms = -1;
  };
  struct JobView {
    std::string kind;
    std::size_t n = 0;
    std::map<std::size_t, Part> parts;
  };
  std::map<std::string, JobView> jobs;
  std::vector<std::string> order;
  for (const auto& sp : spans) {
    auto [it, fresh] = jobs.try_emplace(sp.request_id);
    if (fresh) order.push_back(sp.request_id);
    JobView& v = it->second;
    v.kind = sp.kind;
    v.n = std::max(v.n, sp.partitions);
    Part& p = v.parts[sp.partition];
    const double ms = (sp.end_s - sp.start_s) * 1e3;
    if (sp.stage == "synthesis") {
      p.synth_ms = ms;
      if (p.state == "pending" || p.state == "synthesizing" || p.state == "synth_done") {
        p.state = sp.running ? "synthesizing" : "synth_done";
      }
    } else {
      p.prove_ms = ms;
      p.state = sp.running ? "proving" : "done";
    }
  }
  j["jobs"] = PageJson::array();
  for (const std::string& id : order) {
    const JobView& v = jobs[id];
    const engine::AwaitResult a = eng.peek(id);
    PageJson jj = {{"request_id", id}, {"kind", v.kind}, {"partitions", v.n}};
    jj["state"] = a.status == engine::AwaitStatus::NotFound ? "forgotten" : std::string(engine::to_string(a.result.state));
    jj["partitions_done"] = a.result.partitions_done;
    jj["error"] = a.result.error;
    PageJson parts = PageJson::array();
    for (std::size_t k = 0; k < v.n; ++k) {
      auto it = v.parts.find(k);
      const Part p = it == v.parts.end() ? Part{} : it->second;
      PageJson pj = {{"index", k}, {"state", p.state}};
      pj["synth_ms"] = p.synth_ms >= 0 ? PageJson(p.synth_ms) : PageJson(nullptr);
      pj["prove_ms"] = p.prove_ms >= 0 ? PageJson(p.prove_ms) : PageJson(nullptr);
      parts.push_back(pj);
    }
    jj["partition_states"] = parts;
    j["jobs"].push_back(jj);
  }
  PageJson tl = {{"now_s", s.uptime_seconds}, {"window_s", window_s}};
  tl["lanes"] = PageJson::array();
  for (unsigned i = 0; i < s.synthesis_workers; ++i) tl["lanes"].push_back("synthesis " + std::to_string(i));
  for (const auto& b : s.backends) {
    for (unsigned w = 0; w < b.workers; ++w) {
      tl["lanes"].push_back("backend " + std::to_string(b.index) + " (" + b.name + ") worker " + std::to_string(w));
    }
  }
  tl["spans"] = PageJson::array();
  for (const auto& sp : spans) {
    tl["spans"].push_back({{"job", sp.request_id}, {"kind", sp.kind}, {"partition", sp.partition},
                           {"stage", sp.stage}, {"lane", sp.lane}, {"start_s", sp.start_s}, {"end_s", sp.end_s},
                           {"running", sp.running}});
  }
  j["timeline"] = tl;
  return j.dump();
}

const std::string& status_html() {
  static const std::string html = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>proofline status</title>
<style>
body{font:13px system-ui,sans-serif;margin:16px;background:#fafafa;color:#222}
h1{font-size:18px;margin:0 0 8px} h2{font-size:14px;margin:16px 0 6px}
table{border-collapse:collapse;background:#fff} td,th{border:1px solid #ddd;padding:2px 8px;text-align:right}
th{background:#f0f0f0} td:first-child,th:first-child{text-align:left}
#tl{background:#fff;border:1px solid #ddd} .muted{color:#888} .grid{display:flex;gap:24px;flex-wrap:wrap}
.p{display:inline-block;width:14px;height:14px;margin:1px;border:1px solid #999;vertical-align:middle}
.pending{background:#fff}.synthesizing{background:#ffd27f}.synth_done{background:#ffe9bf}.proving{background:#7fb2ff}.done{background:#4caf50}
</style></head><body>
<h1>proofline <span id="up" class="muted"></span></h1>
<h2>Pipeline (last 60 s; light = synthesis, solid = GPU/prover; colour = job)</h2>
<svg id="tl" width="1100" height="100"></svg>
<div class="grid">
<div><h2>Jobs</h2><table id="jobs"><tr><th>request</th><th>kind</th><th>state</th><th>partitions</th></tr></table></div>
<div><h2>Queues</h2><table id="queues"><tr><th>stage</th><th>priority</th><th>pending</th><th>running</th></tr></table>
<h2>Workers</h2><table id="backends"><tr><th>backend</th><th>busy</th><th>proved</th><th>state</th></tr></table></div>
<div><h2>Memory</h2><table id="mem"></table><h2>Parameter sets</h2><table id="srs"></table>
<h2>Compiled circuits</h2><table id="compiled"></table></div>
</div>
<p id="err" class="muted"></p>
<script>
"use strict";
const WINDOW = 60;
function colour(id) {  // FNV-1a of the job id → a hue: neighbouring ids get distant colours
  let h = 2166136261; for (const c of id) { h ^= c.charCodeAt(0); h = Math.imul(h, 16777619) >>> 0; }
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16;  // mix
  return "hsl(" + ((h >>> 0) % 360) + ",70%,48%)";
}
function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;","\"":"&quot;"})[c]); }
function gb(b) { return (b / 1e9).toFixed(2); }
function rows(id, head, list) {
  const t = document.getElementById(id);
  t.innerHTML = head + list.map(r => "<tr>" + r.map(c => "<td>" + c + "</td>").join("") + "</tr>").join("");
}
function draw(s) {
  const svg = document.getElementById("tl");
  const lanes = s.timeline.lanes, now = s.timeline.now_s, x0 = 190, w = 1100 - x0 - 10, rowh = 18;
  svg.setAttribute("height", String(lanes.length * rowh + 24));
  const t0 = now - WINDOW, X = t => x0 + Math.max(0, (t - t0) / WINDOW * w);
  let out = "";
  lanes.forEach((l, i) => { out += '<text x="4" y="' + (i * rowh + 13) + '" font-size="11">' + esc(l) + "</text>"; });
  for (let k = 0; k <= 6; k++) { const x = x0 + k * w / 6;
    out += '<line x1="' + x + '" x2="' + x + '" y1="0" y2="' + lanes.length * rowh + '" stroke="#eee"/>' +
           '<text x="' + (x - 10) + '" y="' + (lanes.length * rowh + 14) + '" font-size="10" fill="#888">' + (k * 10 - 60) + " s</text>"; }
  for (const sp of s.timeline.spans) {
    const row = lanes.indexOf(sp.lane); if (row < 0 || sp.end_s < t0) continue;
    const x = X(sp.start_s), x2 = X(sp.end_s), c = colour(sp.job);
    out += '<rect x="' + x + '" y="' + (row * rowh + 2) + '" width="' + Math.max(1, x2 - x) + '" height="' + (rowh - 4) +
           '" fill="' + c + '" fill-opacity="' + (sp.stage === "prove" ? 0.95 : 0.4) + '" stroke="' + c + '"><title>' +
           esc(sp.job + " " + sp.kind + " partition " + sp.partition + " " + sp.stage + " " + ((sp.end_s - sp.start_s) * 1000).toFixed(0) + " ms") +
           "</title></rect>";
  }
  svg.innerHTML = out;
}
function render(s) {
  document.getElementById("up").textContent = "up " + s.uptime_s.toFixed(0) + " s, RSS " + gb(s.memory.rss_bytes) + " GB";
  draw(s);
  rows("jobs", "<tr><th>request</th><th>kind</th><th>state</th><th>partitions</th></tr>",
       s.jobs.slice(-20).reverse().map(j => [esc(j.request_id), esc(j.kind), esc(j.state),
         j.partition_states.map(p => '<span class="p ' + p.state + '" title="' + p.index + ": " + p.state +
           (p.synth_ms !== null ? ", synthesis " + p.synth_ms.toFixed(0) + " ms" : "") +
           (p.prove_ms !== null ? ", prove " + p.prove_ms.toFixed(0) + " ms" : "") + '"></span>').join("")]));
  rows("queues", "<tr><th>stage</th><th>priority</th><th>pending</th><th>running</th></tr>",
       s.queues.map(q => [q.stage, q.priority, q.pending, q.running]));
  rows("backends", "<tr><th>backend</th><th>busy</th><th>proved</th><th>state</th></tr>",
       s.backends.map(b => [b.index + " " + esc(b.name), b.busy_workers + "/" + b.workers, b.partitions_proved,
                            b.in_service ? "in service" : esc("out: " + b.fault)]));
  const m = s.memory;
  rows("mem", "", [["budget GB", gb(m.budget_bytes)], ["in use GB", gb(m.used_bytes)], ["partitions GB", gb(m.reserved_bytes)],
                   ["pooled GB", gb(m.pooled_bytes)], ["SRS GB", gb(m.srs_bytes)], ["compiled GB", gb(m.compiled_bytes)], ["process RSS GB", gb(m.rss_bytes)]]);
  rows("srs", "<tr><th>file</th><th>state</th><th>where</th><th>host GB</th><th>device GB</th><th>users</th></tr>",
       s.srs.map(e => [esc(e.key.split("/").pop().split("#")[0]), esc(e.state), esc(e.device_mode || "host"),
                       gb(e.host_bytes), gb(e.device_bytes), e.users]));
  rows("compiled", "<tr><th>file</th><th>constraints</th><th>host GB</th><th>disk GB</th><th>device GB</th></tr>",
       (s.compiled || []).map(c => [esc(c.key.split("/").pop().split("#")[0]), c.constraints, gb(c.host_bytes),
                                    gb(c.disk_bytes), gb(c.device_bytes)]));
}
async function tick() {
  try {
    const r = await fetch("/status", {cache: "no-store"});
    render(await r.json());
    document.getElementById("err").textContent = "";
  } catch (e) {
    document.getElementById("err").textContent = "status unavailable: " + e;
  }
  setTimeout(tick, 1000);
}
tick();
</script></body></html>
)HTML";
  return html;
}

bool status_host_allowed(const std::string& host_header, bool loopback_only) {
  if (!loopback_only) return true;
  std::string h = host_header;
  if (!h.empty() && h.front() == '[') {  // "[::1]" or "[::1]:9821"
    const auto close = h.find(']');
    if (close == std::string::npos) return false;
    const std::string rest = h.substr(close + 1);
    if (!rest.empty() && (rest[0] != ':' || rest.find_first_not_of("0123456789", 1) != std::string::npos)) return false;
    h = h.substr(1, close - 1);
  } else if (const auto colon = h.find(':'); colon != std::string::npos) {
    if (h.find_first_not_of("0123456789", colon + 1) != std::string::npos) return false;
    h = h.substr(0, colon);
  }
  for (char& c : h) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (h == "localhost" || h == "::1") return true;
  in_addr a{};
  return ::inet_pton(AF_INET, h.c_str(), &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

StatusPage::StatusPage(engine::Engine& eng, const std::string& hostport) : eng_(eng), http_(std::make_unique<Server>()) {
  const auto colon = hostport.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("status.listen: '" + hostport + "': expected host:port");
  std::string host = hostport.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  const std::string port_text = hostport.substr(colon + 1);
  if (port_text.empty() || port_text.size() > 5 || port_text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port_text) > 65535) {
    throw std::runtime_error("status.listen: '" + hostport + "': the port '" + port_text +
                             "' is not a TCP port (0 … 65535; 0: any free port)");
  }
  int port = static_cast<int>(std::stoul(port_text));
  // A page on a loopback address answers only requests whose Host names a loopback address: a web
  // page elsewhere cannot read it through a DNS name rebound to 127.0.0.1.
  const bool loopback_only = resolves_to_loopback(host);
  http_->set_pre_routing_handler([loopback_only](const httplib::Request& req, httplib::Response& res) {
    if (status_host_allowed(req.get_header_value("Host"), loopback_only)) return httplib::Server::HandlerResponse::Unhandled;
    res.status = 421;
    res.set_content("the Host header does not name this status page (on a loopback address it answers Host: "
                    "localhost, 127.x.y.z or [::1], with or without the port)\n",
                    "text/plain; charset=utf-8");
    return httplib::Server::HandlerResponse::Handled;
  });
  http_->Get("/status", [this](const httplib::Request&, httplib::Response& res) {
    // No Access-Control-Allow-Origin: the page at / is same-origin; other sites may not read it.
    res.set_header("Cache-Control", "no-store");
    res.set_content(status_json(eng_), "application/json");
  });
  http_->Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(status_html(), "text/html; charset=utf-8");
  });
  // SO_REUSEADDR only (httplib's default adds SO_REUSEPORT, which lets a second daemon bind the same
  // port and take half of its requests): a port in use is refused.
  int listen_fd = -1;
  http_->set_socket_options([&listen_fd](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listen_fd = sock;
  });
  if (port == 0) {
    port = http_->bind_to_any_port(host);
  } else if (!http_->bind_to_port(host, port)) {
    port = -1;
  }
  if (port <= 0) throw std::runtime_error("status.listen: cannot bind '" + hostport + "' (address in use or not allowed)");
  // httplib listens with a backlog of 5: a burst of connections overflows it and the rest wait for
  // SYN retransmits (seconds each). listen() again on the bound socket raises the queue.
  if (listen_fd >= 0) ::listen(listen_fd, 1024);
  http_->set_socket_options([](socket_t) {});  // the lambda above refers to this frame
  address_ = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
  thread_ = std::thread([this] { http_->listen_after_bind(); });
  // httplib's stop() does nothing until the server loop has started (it would then run for ever
  // and stop()'s join hang: a daemon made and destroyed at once, as tests do): wait for it.
  for (int i = 0; i < 10000 && !http_->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void StatusPage::stop() {
  if (http_) http_->stop();
  if (thread_.joinable()) thread_.join();
}

StatusPage::~StatusPage() { stop(); }

}  // namespace proofline::server
