// proofline/server/config.hpp — the daemon's configuration: every option, its default, its
// documentation, and the config-file readers (`proofline daemon --config FILE`).
//
// Owns: `DaemonConfig`, `config_options()` (the one table of options: key, default, help — used by
// the reader, `proofline daemon --help` and `--print-config`), `load_config_file`, `parse_config`.
//
// File formats (picked by the first non-blank character: '{' → JSON, else TOML-ish):
//   JSON:      {"listen": {"unix": "/tmp/p.sock", "tcp": ""}, "engine": {"synthesis_workers": 2}}
//              (sections as objects; a dotted key at the top level, "engine.backend": "cpu", works too)
//   TOML-ish:  [listen]
//              unix = "/tmp/p.sock"      # comments with '#'
//              [engine]
//              memory_budget = "8GiB"
//              preload = ["bench:/p/a.params", "snarkjs:/p/b.zkey"]
//              Values are JSON values (strings in double quotes, numbers, true/false, arrays).
// Byte sizes take a number of bytes or a string with a suffix: "512MiB", "8GiB", "2GB", "1.5TiB".
// Unknown keys and values of the wrong type are errors (ProoflineError BadArgument naming the file,
// line or JSON path, the key and what was expected); a missing file is std::system_error.
// No file at all: every option has its default (DaemonConfig{}).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "proofline/engine/memory.hpp"

namespace proofline::server {

struct DaemonConfig {
  // [listen]
  std::string unix_socket = "/tmp/proofline.sock";  ///< "" : no unix socket
  std::string tcp = "127.0.0.1:50551";              ///< host:port, "" : no TCP; port 0: any free port
  bool allow_remote = false;                        ///< TCP on a non-loopback address only if true
  // [status]
  /// The live status page (GET / and GET /status): host:port ("": none; port 0: any free port).
  /// Loopback unless listen.allow_remote. A port that cannot be bound is reported and skipped.
  std::string status_listen = "127.0.0.1:9821";
  // [api]
  bool api_proofline = true;                        ///< serve proofline.v1.ProvingEngine
  bool api_cuzk = true;                             ///< serve cuzk.v1.ProvingEngine (Curio; server/cuzk.hpp)
  // [engine]
  std::string backend = "cpu";                      ///< cpu | cuda | auto (cuda if a device is usable)
  unsigned cpu_threads = 0;                         ///< CPU backend threads per call; 0: all cores
  unsigned synthesis_workers = 0;                   ///< 0: number of cores
  unsigned prover_workers_per_backend = 1;
  std::uint64_t memory_budget = 0;                  ///< partition buffers, bytes; 0: derived (EngineConfig::memory_budget_bytes)
  std::uint64_t srs_budget = 0;                     ///< SRS cache, bytes; 0: unlimited
  std::uint64_t pool_max = std::uint64_t{1} << 62;  ///< idle buffers kept for reuse, bytes
  bool reclaimer = true;
  bool overlap = true;
  std::uint64_t max_finished_jobs = 4096;
  bool log_partitions = true;
  // [gpu]
  /// Device bytes each CUDA backend plans for (SRS + working space; 0: the device's memory): an SRS
  /// that does not fit is streamed from pinned host memory (gpu/backend.hpp "Residency").
  std::uint64_t gpu_device_memory_limit = 0;
  /// Parameter files loaded at start: "kind:path" (kind bench, mul or snarkjs) or a path
  /// (.zkey → snarkjs, else bench).
  std::vector<std::string> preload;
  // [server]
  std::uint64_t max_message_bytes = std::uint64_t{256} << 20;  ///< Curio sends and accepts 256 MiB
  unsigned max_threads = 64;                        ///< gRPC sync-server threads (concurrent calls)
  unsigned await_poll_ms = 100;                     ///< how often a waiting call checks its client
  std::uint64_t max_queued_jobs = 100000;           ///< submissions beyond: RESOURCE_EXHAUSTED
  // [paths]
  /// The folders whose files (and subfolders) a client's request may name — every argument a kind
  /// declares as a file or folder (params, zkey, request, param_cache, …): its path, made absolute
  /// and with every symlink resolved, must lie inside one of them, else the request is refused before
  /// the path is looked at (so nothing about files elsewhere, not even their existence, reaches the
  /// client). "$FIL_PROOFS_PARAMETER_CACHE" stands for the parameter cache (that variable, else
  /// /var/tmp/filecoin-proof-parameters); "*" lets clients name any path (the old behaviour: only
  /// for a daemon no untrusted user can reach). Paths in the daemon's own configuration
  /// (engine.preload, the parameter cache itself) are not limited by this.
  std::vector<std::string> allowed_paths = {"$FIL_PROOFS_PARAMETER_CACHE"};
  // [params]
  /// Check the parameter cache ($FIL_PROOFS_PARAMETER_CACHE) against Filecoin's published digests
  /// at start (groth16::check_param_cache); a missing, truncated or corrupted file: refuse to start.
  bool params_check_at_start = false;
  /// With params_check_at_start: sector sizes ("32GiB", …) whose .params/.vk must be in the cache.
  std::vector<std::string> params_sector_sizes;
};

/// One option: "section.name", the value's type (for messages), its help text, and how it is
/// read from / written to JSON.
struct ConfigOption {
  std::string key;
  std::string type;  ///< "string", "bool", "uint", "bytes", "string list"
  std::string help;
  std::function<void(DaemonConfig&, const nlohmann::json&, const std::string& where)> set;
  std::function<nlohmann::json(const DaemonConfig&)> get;
};

/// Every option, in documentation order.
const std::vector<ConfigOption>& config_options();

/// Applies a config document (JSON object, as above) to `cfg`. `source` names it in errors.
void apply_config(DaemonConfig& cfg, const nlohmann::json& doc, const std::string& source);
/// Parses JSON or TOML-ish text (see the header comment) into a JSON object of sections.
nlohmann::json parse_config_text(const std::string& text, const std::string& source);
/// Reads and applies a file onto the defaults.
DaemonConfig load_config_file(const std::string& path);

/// The whole configuration as JSON (sections → keys), e.g. for --print-config and GetStatus logs.
nlohmann::ordered_json config_to_json(const DaemonConfig& cfg);
/// The options table as help text (key, type, default, help), for `proofline daemon --help`.
std::string config_help();

/// Byte sizes ("8GiB", …): engine::parse_bytes (engine/memory.hpp), shared with the CLI's --memory-budget.
using engine::parse_bytes;

}  // namespace proofline::server
