// The daemon's live status page (issue 20 item 4; private to src/server): an HTTP server on
// status.listen (cpp-httplib, Debian's libcpp-httplib-dev) with
//   GET /status  JSON: memory (budget, used, pooled, SRS bytes, the process's RSS), SRS sets (key,
//                state, where they live, bytes, users), queues per stage and priority, per kind job
//                counts, backends (GPU workers: busy, partitions proved, faults), recent jobs with a
//                state per partition (pending, synthesizing, synth_done, proving, done) and their
//                stage times, and the timeline of the last `window` seconds (Engine::timeline).
//                Shape: docs/status.md. No Access-Control-Allow-Origin header: only the page itself
//                (same origin) reads it from a browser.
//   GET /        one self-contained HTML page (no external resources) that fetches /status every
//                second and draws the pipeline as a timeline: a row per synthesis slot and per GPU
//                worker, a bar per partition stage coloured by job, plus queues, memory and jobs.
// Anything else: 404. On a loopback address (the default) a request whose Host header is not a
// loopback name (localhost, 127.x.y.z, [::1], each with or without a port) gets 421 (DNS rebinding:
// a web page elsewhere cannot read the page through a name that resolves to 127.0.0.1); on another
// address (listen.allow_remote) every Host is answered.
// Binding: port 0 … 65535 (0: any free port; anything else is refused naming it, never truncated);
// SO_REUSEADDR only, so a port another process listens on is refused (never shared). The server runs on its own threads; stop() ends it (Daemon::shutdown).
// Connections: one request each ("Connection: close"), served by kWorkers threads; a connection must
// send its request and take the answer within kConnectionDeadline of being accepted, else it is
// closed — idle or trickling clients never hold the page for longer than that (a new user froze it
// with 8 connections sending a header byte every 0.2 s: /status did not answer in 30 s). A
// connection that sends nothing is closed once its first byte is overdue (kFirstByteDeadline, 1 s;
// 100 ms while more than half of the workers are busy), so a thousand idle connections cost a
// /status queued behind them about 1000 × 0.1 s / kWorkers, not 1000 × 3 s / kWorkers (30.8 s seen).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "proofline/engine/engine.hpp"

namespace httplib {
class Server;
}

namespace proofline::server {

/// Whether a request with this Host header is answered (see the header comment); `loopback_only`:
/// the page listens on a loopback address.
bool status_host_allowed(const std::string& host_header, bool loopback_only);
/// The JSON body of GET /status (see the header comment), for `window_s` seconds of timeline.
std::string status_json(engine::Engine& eng, double window_s = 120);
/// The HTML of GET /.
const std::string& status_html();

class StatusPage {
 public:
  /// Binds `hostport` ("127.0.0.1:9821"; port 0: any free port). Throws std::runtime_error naming
  /// the address when it cannot be bound.
  StatusPage(engine::Engine& eng, const std::string& hostport);
  ~StatusPage();
  StatusPage(const StatusPage&) = delete;
  StatusPage& operator=(const StatusPage&) = delete;
  /// "host:port" actually bound.
  const std::string& address() const { return address_; }
  void stop();

  static constexpr unsigned kWorkers = 64;
  static constexpr std::chrono::milliseconds kConnectionDeadline{3000};
  /// A connection whose first byte has not come by then is closed unread: kFirstByteDeadline, or
  /// kFirstByteDeadlineBusy while more than half of the workers are serving connections.
  static constexpr std::chrono::milliseconds kFirstByteDeadline{1000};
  static constexpr std::chrono::milliseconds kFirstByteDeadlineBusy{100};

 private:
  class Server;
  engine::Engine& eng_;
  std::unique_ptr<Server> http_;
  std::thread thread_;
  std::string address_;
};

}  // namespace proofline::server
