// The daemon's options table and config-file readers (proofline/server/config.hpp).
#include "proofline/server/config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "proofline/filecoin/sector.hpp"
#include "proofline/groth16/param_cache.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/json.hpp"

namespace proofline::server {

using Json = nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& where, const std::string& msg) {
  throw ProoflineError(Error::BadArgument, where + ": " + msg);
}
/// A config text that does not parse (JSON or the TOML-ish form): "malformed input", not an option's
/// value ("unsupported argument").
[[noreturn]] void malformed(const std::string& where, const std::string& msg) {
  throw ProoflineError(Error::Malformed, where + ": " + msg);
}

/// A value for a message: its JSON text, cut after 64 characters with its length (a --set value
/// may be a megabyte).
std::string shown(const Json& v) {
  const std::string s = v.dump();
  return s.size() <= 64 ? s : s.substr(0, 61) + "... (" + std::to_string(s.size()) + " characters)";
}

std::string want_string(const Json& v, const std::string& where) {
  if (!v.is_string()) bad(where, "expected a string, got " + shown(v));
  return v.get<std::string>();
}

bool want_bool(const Json& v, const std::string& where) {
  if (!v.is_boolean()) bad(where, "expected true or false, got " + shown(v));
  return v.get<bool>();
}

std::uint64_t want_uint(const Json& v, const std::string& where) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_float() && v.get<double>() >= 18446744073709551616.0) {  // JSON's reading of a huge integer
    bad(where, "expected a non-negative integer, got one above 2^64 - 1 (" + shown(v) + ")");
  }
  bad(where, "expected a non-negative integer, got " + shown(v));
}

std::uint64_t want_bytes(const Json& v, const std::string& where) {
  if (v.is_string()) return parse_bytes(v.get<std::string>(), where);
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  bad(where, "expected a byte size (a number of bytes or a string such as \"8GiB\"), got " + shown(v));
}

std::vector<std::string> want_strings(const Json& v, const std::string& where) {
  if (!v.is_array()) bad(where, "expected an array of strings, got " + shown(v));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(want_string(v[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

unsigned want_small(const Json& v, const std::string& where, unsigned lo, unsigned hi) {
  const std::uint64_t x = want_uint(v, where);
  if (x < lo || x > hi) bad(where, "expected " + std::to_string(lo) + " … " + std::to_string(hi) + ", got " + shown(v));
  return static_cast<unsigned>(x);
}

// Member-pointer helpers so each table row stays one line of meaning.
template <class T>
ConfigOption str_opt(std::string key, std::string help, std::string DaemonConfig::*m, T check) {
  return {std::move(key), "string", std::move(help),
          [m, check](DaemonConfig& c, const Json& v, const std::string& w) {
            std::string s = want_string(v, w);
            check(s, w);
            c.*m = std::move(s);
          },
          [m](const DaemonConfig& c) { return Json(c.*m); }};
}
ConfigOption bool_opt(std::string key, std::string help, bool DaemonConfig::*m) {
  return {std::move(key), "bool", std::move(help),
          [m](DaemonConfig& c, const Json& v, const std::string& w) { c.*m = want_bool(v, w); },
          [m](const DaemonConfig& c) { return Json(c.*m); }};
}
ConfigOption uint_opt(std::string key, std::string help, unsigned DaemonConfig::*m, unsigned lo, unsigned hi) {
  return {std::move(key), "uint", std::move(help),
          [m, lo, hi](DaemonConfig& c, const Json& v, const std::string& w) { c.*m = want_small(v, w, lo, hi); },
          [m](const DaemonConfig& c) { return Json(c.*m); }};
}
ConfigOption u64_opt(std::string key, std::string help, std::uint64_t DaemonConfig::*m, bool bytes) {
  return {std::move(key), bytes ? "bytes" : "uint", std::move(help),
          [m, bytes](DaemonConfig& c, const Json& v, const std::string& w) {
            c.*m = bytes ? want_bytes(v, w) : want_uint(v, w);
          },
          [m](const DaemonConfig& c) { return Json(c.*m); }};
}

void no_check(const std::string&, const std::string&) {}

}  // namespace

const std::vector<ConfigOption>& config_options() {
  static const std::vector<ConfigOption> opts = [] {
    std::vector<ConfigOption> o;
    o.push_back(str_opt("listen.unix",
                        "unix socket path the daemon listens on (\"\": none); a stale socket file is replaced, "
                        "missing folders on the path are made (and named on stderr)",
                        &DaemonConfig::unix_socket, no_check));
    o.push_back(str_opt("listen.tcp",
                        "TCP host:port to listen on (\"\": none; port 0: any free port, printed at start)",
                        &DaemonConfig::tcp, no_check));
    o.push_back(bool_opt("listen.allow_remote",
                         "allow listen.tcp on a non-loopback address (the API has no authentication)",
                         &DaemonConfig::allow_remote));
    o.push_back(str_opt("status.listen",
                        "the live status page (GET / HTML, GET /status JSON) at host:port (\"\": none; port 0: any "
                        "free port); loopback unless listen.allow_remote; a port in use is reported and skipped",
                        &DaemonConfig::status_listen, no_check));
    o.push_back(bool_opt("api.proofline", "serve proofline.v1.ProvingEngine on the listeners",
                         &DaemonConfig::api_proofline));
    o.push_back(bool_opt("api.cuzk",
                         "serve cuzk.v1.ProvingEngine (the API Curio calls: [Cuzk] Address) on the listeners",
                         &DaemonConfig::api_cuzk));
    o.push_back(str_opt("engine.backend",
                        "prover backend: cpu, cuda (one per usable GPU; error if none) or auto (cuda when a "
                        "device is usable, else cpu)",
                        &DaemonConfig::backend, [](const std::string& s, const std::string& w) {
                          if (s != "cpu" && s != "cuda" && s != "auto") bad(w, "expected cpu, cuda or auto, got '" + s + "'");
                        }));
    o.push_back(uint_opt("engine.cpu_threads", "threads of one CPU backend call (0: all cores)",
                         &DaemonConfig::cpu_threads, 0, 4096));
    o.push_back(uint_opt("engine.synthesis_workers", "synthesis worker threads (0: number of cores)",
                         &DaemonConfig::synthesis_workers, 0, 4096));
    o.push_back(uint_opt("engine.prover_workers_per_backend",
                         "prover worker threads per backend (each proves one partition at a time)",
                         &DaemonConfig::prover_workers_per_backend, 1, 64));
    o.push_back(u64_opt("engine.memory_budget",
                        "bytes of partition buffers in flight; a partition enters synthesis only when it fits "
                        "(0: derived from the machine: MemAvailable or the cgroup room − SRS host bytes − a margin; see GetStatus memory.budget_derivation)",
                        &DaemonConfig::memory_budget, true));
    o.push_back(u64_opt("engine.srs_budget", "bytes of the SRS cache; idle sets evicted LRU beyond it (0: unlimited)",
                        &DaemonConfig::srs_budget, true));
    o.push_back(u64_opt("engine.pool_max", "bytes of idle buffers kept for reuse (0: no pooling)",
                        &DaemonConfig::pool_max, true));
    o.push_back(bool_opt("engine.reclaimer",
                         "free big buffers on the background reclaimer thread (false: inline, on the worker)",
                         &DaemonConfig::reclaimer));
    o.push_back(bool_opt("engine.overlap",
                         "overlap synthesis with proving (false: the sequential baseline, for benchmarks)",
                         &DaemonConfig::overlap));
    o.push_back(u64_opt("engine.max_finished_jobs",
                        "finished jobs kept for AwaitProof / duplicate submits (oldest dropped first)",
                        &DaemonConfig::max_finished_jobs, false));
    o.push_back(u64_opt("gpu.device_memory_limit",
                        "device bytes each CUDA backend may use, SRS and working space (0: the device's "
                        "memory); an SRS that does not fit is streamed to the device per MSM from pinned host memory, "
                        "a partition whose full working space does not fit runs with the lean one, and an allocation "
                        "past the limit fails as out of memory",
                        &DaemonConfig::gpu_device_memory_limit, true));
    o.push_back(bool_opt("engine.log_partitions", "log one structured line per partition and per job",
                         &DaemonConfig::log_partitions));
    o.push_back({"engine.preload", "string list",
                 "parameter files loaded at start, each \"kind:path\" (e.g. bench:/p/b12.params, "
                 "snarkjs:/p/c.zkey): the path fills the kind's parameter-file argument",
                 [](DaemonConfig& c, const Json& v, const std::string& w) { c.preload = want_strings(v, w); },
                 [](const DaemonConfig& c) { return Json(c.preload); }});
    o.push_back(u64_opt("server.max_message_bytes", "largest gRPC message accepted or sent",
                        &DaemonConfig::max_message_bytes, true));
    o.push_back(uint_opt("server.max_threads", "gRPC server threads (bounds concurrent calls)",
                         &DaemonConfig::max_threads, 4, 100000));
    o.push_back(uint_opt("server.await_poll_ms",
                         "how often a waiting AwaitProof/Prove checks whether its client went away (ms)",
                         &DaemonConfig::await_poll_ms, 1, 10000));
    o.push_back(u64_opt("server.max_queued_jobs", "queued + running jobs beyond which SubmitProof is refused",
                        &DaemonConfig::max_queued_jobs, false));
    o.push_back({"paths.allowed", "string list",
                 "folders whose files a client's request may name (params, zkey, request, param_cache, …): the path, "
                 "absolute with symlinks resolved, must lie inside one, else the request is refused before the path "
                 "is looked at; \"$FIL_PROOFS_PARAMETER_CACHE\" is the parameter cache, \"*\" any path (only where no "
                 "untrusted user reaches the daemon); one folder may be given as a string",
                 [](DaemonConfig& c, const Json& v, const std::string& w) {
                   std::vector<std::string> dirs =
                       v.is_string() ? std::vector<std::string>{v.get<std::string>()} : want_strings(v, w);
                   for (const std::string& d : dirs) {
                     if (d.empty()) bad(w, "an empty folder name (give a folder, \"$FIL_PROOFS_PARAMETER_CACHE\" or \"*\")");
                   }
                   c.allowed_paths = std::move(dirs);
                 },
                 [](const DaemonConfig& c) { return Json(c.allowed_paths); }});
    o.push_back(bool_opt("params.check_at_start",
                         "check every .params/.vk/.srs file of $FIL_PROOFS_PARAMETER_CACHE against Filecoin's "
                         "published digests at start (minutes for 32 GiB files); refuse to start (exit 3) when one "
                         "is truncated or corrupted, or missing for params.sector_sizes",
                         &DaemonConfig::params_check_at_start));
    o.push_back({"params.sector_sizes", "string list",
                 "with params.check_at_start: sector sizes (\"32GiB\", …, or one as a string) whose .params and .vk "
                 "files must be in the cache",
                 [](DaemonConfig& c, const Json& v, const std::string& w) {
                   // One size may be given as a plain string (`--set params.sector_sizes=32GiB`).
                   std::vector<std::string> sizes =
                       v.is_string() ? std::vector<std::string>{v.get<std::string>()} : want_strings(v, w);
                   const auto published = groth16::ParamManifest::builtin().sector_sizes();
                   for (const std::string& s : sizes) {
                     std::uint64_t bytes = 0;
                     try {
                       bytes = filecoin::parse_sector_size(s);
                     } catch (const ProoflineError&) {
                     }
                     if (std::find(published.begin(), published.end(), bytes) == published.end()) {
                       bad(w, "'" + s + "' is not a sector size with published parameters (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
                     }
                   }
                   c.params_sector_sizes = std::move(sizes);
                 },
                 [](const DaemonConfig& c) { return Json(c.params_sector_sizes); }});
    return o;
  }();
  return opts;
}

void apply_config(DaemonConfig& cfg, const Json& doc, const std::string& source) {
  if (!doc.is_object()) bad(source, "expected an object of sections (listen, engine, gpu, server, params)");
  auto set = [&](const std::string& key, const Json& v, const std::string& where) {
    for (const auto& o : config_options()) {
      if (o.key == key) return o.set(cfg, v, where);
    }
    std::string known;
    for (const auto& o : config_options()) known += (known.empty() ? "" : ", ") + o.key;
    bad(where, "unknown option '" + key + "' (known: " + known + ")");
  };
  for (const auto& [name, value] : doc.items()) {
    if (name.find('.') != std::string::npos) {
      set(name, value, source + ": " + name);
    } else if (value.is_object()) {
      for (const auto& [k, v] : value.items()) set(name + "." + k, v, source + ": " + name + "." + k);
    } else {
      bad(source + ": " + name, "expected a section object (listen, engine, gpu, server, params) or a dotted key");
    }
  }
}

Json parse_config_text(const std::string& text, const std::string& source) {
  // A config is a few hundred bytes; 1 MiB and the usual nesting limit refuse anything else before
  // it is parsed (util/json.hpp).
  json::check_limits(text, {std::size_t{1} << 20}, source, Error::Malformed);
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') {
    try {
      return Json::parse(text);
    } catch (const Json::exception& e) {
      malformed(source, std::string("not valid JSON: ") + e.what());
    }
  }
  // TOML-ish: [section] headers, key = <JSON value>, '#' comments (outside strings).
  Json doc = Json::object();
  std::string section;
  std::istringstream in(text);
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    const std::string where = source + ":" + std::to_string(lineno);
    bool in_str = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '"' && (i == 0 || line[i - 1] != '\\')) in_str = !in_str;
      if (line[i] == '#' && !in_str) {
        line.resize(i);
        break;
      }
    }
    const auto a = line.find_first_not_of(" \t\r");
    if (a == std::string::npos) continue;
    const auto b = line.find_last_not_of(" \t\r");
    line = line.substr(a, b - a + 1);
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3) malformed(where, "expected a [section] header, got '" + line + "'");
      section = line.substr(1, line.size() - 2);
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos) malformed(where, "expected key = value, got '" + line + "'");
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    if (key.empty()) malformed(where, "empty key");
    Json v;
    try {
      v = Json::parse(value);
    } catch (const Json::exception&) {
      malformed(where, "value of '" + key + "' is not a JSON value (strings in double quotes): " + value);
    }
    const std::string full = section.empty() ? key : section + "." + key;
    if (doc.contains(full)) bad(where, "'" + full + "' set twice");
    doc[full] = v;
  }
  return doc;
}

DaemonConfig load_config_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) &&
      (!std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) > (std::size_t{1} << 20))) {
    bad("config file '" + path + "'", "not a regular file of at most 1 MiB");
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::system_error(errno, std::generic_category(), "config file '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  DaemonConfig cfg;
  apply_config(cfg, parse_config_text(ss.str(), path), path);
  return cfg;
}

nlohmann::ordered_json config_to_json(const DaemonConfig& cfg) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& o : config_options()) {
    const auto dot = o.key.find('.');
    j[o.key.substr(0, dot)][o.key.substr(dot + 1)] = nlohmann::ordered_json::parse(o.get(cfg).dump());
  }
  return j;
}

std::string config_help() {
  const DaemonConfig defaults;
  std::string out = "Config options (JSON sections or TOML-ish [section] key = value; see docs/daemon.md):\n";
  for (const auto& o : config_options()) {
    out += "  " + o.key + " (" + o.type + ", default " + o.get(defaults).dump() + ")\n      " + o.help + "\n";
  }
  return out;
}

}  // namespace proofline::server
