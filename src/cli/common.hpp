// src/cli/common.hpp — what every `proofline` command shares: its exit codes, the usage-error type,
// the one exception → exit-code mapping (`run_guarded`, with a JSON error object under --json),
// strict integer options (`add_integer_option`), the --threads option and its TBB limit, the rule
// that no output is the same file as an input or another output (`check_output_paths`, by
// `output_target`), the one writer of output files, which appear under their name only when
// complete (`PendingOutput`, with `PendingDir` for an output folder), and a proof file's
// reader that checks the size before reading (`read_proof_file`).
//
// Exit codes (every command; each --help footer lists them):
//   0 ok / valid, 1 a proof does not verify (verify, check-c1), 2 usage error (a bad flag, value or
//   combination — also a value the named request or files do not allow, e.g. a --partition beyond
//   the request's, a .vk as --params —, an input file named on the command line that does not exist (CLI11's
//   ExistingFile check), an output path that cannot be written or that is an input or another
//   output, a daemon address already in use),
//   3 bad input (a malformed or inconsistent file, a file larger than its format allows (refused
//   unread, refuse_larger_than), a file the command looks up itself that is
//   missing (c2's default parameter file), a witness that does not satisfy the circuit, a request
//   the daemon refused; also an output that could be created but not written out — a full disk, a
//   file-size limit, an I/O error: PendingOutput), 4 internal error, 5 job not finished (submit:
//   cancelled or timed out), 6 daemon unreachable. With --json a failing command prints
//   {"error": {"code": <exit code>, "kind": "usage" | "bad_input" | …, "message": "…"}} on stdout.
// Header-only: src/cli/*.cpp are compiled into `proofline` and, for snarkjs_cmds.cpp, into the
// standalone `proofline-snarkjs` (tests/snarkjs/CMakeLists.txt) too.
#pragma once

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "proofline/groth16/backend.hpp"
#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"
#include "proofline/groth16/snarkjs.hpp"
#include "proofline/r1cs/error.hpp"
#include "proofline/util/error.hpp"

namespace proofline::cli {

enum Exit : int {
  kOk = 0,
  kInvalid = 1,
  kUsage = 2,
  kBadInput = 3,
  kInternal = 4,
  kUnfinished = 5,
  kUnreachable = 6,
  kBusy = 7,  ///< the daemon's queue is full (server.max_queued_jobs): nothing is wrong with the request; retry
};

/// The largest --threads any command accepts (0 means all cores). A guard against typos such as
/// `--threads 100000`, which TBB would accept and then spend seconds starting and stopping.
inline constexpr int kMaxThreads = 4096;

/// The most partitions (circuits) one prove or submit takes (the daemon's limit too).
inline constexpr unsigned kMaxPartitions = 4096;

/// A bad flag, value or combination of flags: exit 2 with the message.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An outcome with its own exit code (e.g. a job of the in-process engine that failed): `rc`
/// with the message as it is.
struct ExitError : std::runtime_error {
  ExitError(int code, const std::string& what) : std::runtime_error(what), rc(code) {}
  int rc;
};

/// The word for an exit code in a JSON error object: "invalid", "usage", "bad_input", "internal",
/// "unfinished", "unreachable", "busy".
inline const char* exit_kind(int rc) {
  switch (rc) {
    case kInvalid: return "invalid";
    case kUsage: return "usage";
    case kBadInput: return "bad_input";
    case kUnfinished: return "unfinished";
    case kUnreachable: return "unreachable";
    case kBusy: return "busy";
    default: return "internal";
  }
}

/// The JSON error object of a failed command under --json: {"error": {"code", "kind", "message"}}.
inline nlohmann::ordered_json json_error(int rc, const std::string& message) {
  return nlohmann::ordered_json{{"error", {{"code", rc}, {"kind", exit_kind(rc)}, {"message", message}}}};
}

/// Prints json_error on stdout (bytes that are not UTF-8 in a message, e.g. from a path, become U+FFFD).
inline void print_json_error(int rc, const std::string& message) {
  std::cout << json_error(rc, message).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

/// Runs one command and maps what it throws to an exit code, printing "proofline <cmd>: <what>"
/// on stderr (and, when `json`, the same message as a JSON error object on stdout): ExitError → its
/// code; UsageError,
/// CLI::Error (a flag's validator) and std::invalid_argument (a name or number taken from the
/// command line) → 2; ProoflineError, r1cs::SynthesisError, std::system_error (a file that cannot
/// be opened or read) → 3; anything else → 4 ("internal error").
/// Commands with outcomes of their own (1, 5, 6) return them.
template <class F>
int run_guarded(const char* cmd, F&& f, bool json = false) {
  auto fail = [cmd, json](int rc, const std::string& prefix, const char* what) {
    std::cerr << "proofline " << cmd << ": " << prefix << what << "\n";
    if (json) print_json_error(rc, prefix + what);
    return rc;
  };
  try {
    return f();
  } catch (const UsageError& e) {
    return fail(kUsage, "", e.what());
  } catch (const ExitError& e) {
    return fail(e.rc, "", e.what());
  } catch (const CLI::Error& e) {
    return fail(kUsage, "", e.what());
  } catch (const std::invalid_argument& e) {
    return fail(kUsage, "", e.what());
  } catch (const r1cs::SynthesisError& e) {
    // Cancelled work (a cancellation flag; no local command sets one today) is "cancelled" (5).
    if (e.code() == r1cs::SynthesisErrorCode::Cancelled) return fail(kUnfinished, "", e.what());
    return fail(kBadInput, "synthesis failed: ", e.what());
  } catch (const ProoflineError& e) {
    if (e.code() == Error::Cancelled) return fail(kUnfinished, "", e.what());
    return fail(kBadInput, "", e.what());
  } catch (const std::system_error& e) {
    return fail(kBadInput, "", e.what());
  } catch (const std::bad_alloc&) {
    return fail(kInternal, "internal error: ", "out of memory");
  } catch (const std::exception& e) {
    return fail(kInternal, "internal error: ", e.what());
  }
}

/// f() for work whose names and sizes all come from the command line (gen-vanilla, gen-c1, seal,
/// the Filecoin setups): a ProoflineError(BadArgument) it throws (an unsupported sector size, h, API
/// version) is a usage error (exit 2) there, not bad input.
template <class F>
decltype(auto) flags_are_arguments(F&& f) {
  try {
    return f();
  } catch (const ProoflineError& e) {
    if (e.code() == Error::BadArgument) throw UsageError(e.what());
    throw;
  }
}

/// A usage error found outside run_guarded: "proofline <cmd>: <message>" on stderr (and the JSON
/// error object on stdout when `json`); returns kUsage.
inline int usage_error(const char* cmd, const std::string& message, bool json) {
  return run_guarded(cmd, [&]() -> int { throw UsageError(message); }, json);
}

/// Parses the command line; on an error CLI11 prints it (and --help its text) and the exit code is
/// returned: 0 for --help, 2 otherwise, with a JSON error object on stdout when "--json" is among
/// the arguments. nullopt: parsed, go on.
inline std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e) == 0 ? kOk : kUsage;
    bool json = false;
    for (int i = 1; i < argc; ++i) json = json || std::string_view(argv[i]) == "--json";
    if (rc != kOk && json) print_json_error(rc, e.what());
    return rc;
  }
}

/// "12.34 GB in 1.23 s = 10.03 GB/s" (decimal GB) for a copy of `bytes` that took `ms`.
inline std::string fmt_gbps(std::uint64_t bytes, double ms) {
  char b[96];
  const double gb = static_cast<double>(bytes) / 1e9;
  std::snprintf(b, sizeof b, "%.2f GB in %.2f s = %.2f GB/s", gb, ms / 1e3, ms > 0 ? gb / (ms / 1e3) : 0.0);
  return b;
}

// ---- integer options ---------------------------------------------------------------------------

/// "lo … hi" for help texts and messages; 2^64 - 1 is written as such.
inline std::string range_text(std::uint64_t lo, std::uint64_t hi) {
  auto num = [](std::uint64_t x) {
    return x == std::numeric_limits<std::uint64_t>::max() ? std::string("2^64 - 1") : std::to_string(x);
  };
  return num(lo) + " … " + num(hi);
}

/// Reads `text` as a decimal integer in lo … hi: digits only (no sign, blank, "0x", exponent or
/// suffix), nothing after them, no wrap or saturation. nullopt with `why` set otherwise.
inline std::optional<std::uint64_t> parse_decimal(std::string_view text, std::uint64_t lo, std::uint64_t hi,
                                                  std::string& why) {
  std::uint64_t x = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, x);
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits || (ec != std::errc{} && ec != std::errc::result_out_of_range) || ptr != end) {
    why = "'" + std::string(text) + "' is not a decimal integer; expected " + range_text(lo, hi);
    return std::nullopt;
  }
  if (ec == std::errc::result_out_of_range || x < lo || x > hi) {
    why = std::string(text) + " is out of range; expected " + range_text(lo, hi);
    return std::nullopt;
  }
  return x;
}

/// A CLI11 check that refuses (exit 2, message naming the flag, the value and the range) anything
/// but a decimal integer in lo … hi. It runs on the text before CLI11 converts it, which would
/// read "-1" into an unsigned option as 2^64 - 1 and "2^64" as 2.
inline CLI::Validator decimal_range(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& v) -> std::string {
        std::string why;
        return parse_decimal(v, lo, hi, why) ? std::string() : why;
      },
      "");  // no text in the type column: the help text states the range
}

/// Adds an integer option read strictly (decimal_range(lo, hi)); the help text ends with the range.
/// `T`: an integer type holding hi, or std::optional of one.
template <class T>
CLI::Option* add_integer_option(CLI::App& sub, const std::string& name, T& value, const std::string& help,
                                std::uint64_t lo, std::uint64_t hi) {
  return sub.add_option(name, value, help + " (" + range_text(lo, hi) + ")")->check(decimal_range(lo, hi));
}

inline constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

/// The value of option `name` of a parsed subcommand that another file added (e.g. verify's --vk),
/// or `fallback` when it is absent or was not given.
template <class T>
T option_value(CLI::App& app, const char* name, T fallback) {
  CLI::Option* o = app.get_option_no_throw(name);
  return o != nullptr && o->count() > 0 ? o->as<T>() : fallback;
}

/// True when option / flag `name` of `app` was given.
inline bool flag_set(CLI::App& app, const char* name) {
  CLI::Option* o = app.get_option_no_throw(name);
  return o != nullptr && o->count() > 0;
}

// ---- outputs -----------------------------------------------------------------------------------

/// A file a command reads or writes, with the flag that named it ({"--zkey", "c.zkey"}).
struct NamedFile {
  std::string flag;
  std::string path;
};

/// The file a write to `path` lands in: `path` with every symbolic link of its last component
/// followed (a chain of links, relative targets taken from the link's folder, a dangling link's
/// target included); `path` itself when it is not a link. UsageError for a loop of links.
/// PendingOutput writes there, and check_output_paths compares outputs by it, so two outputs that
/// land in one file are refused even when one is a dangling link to the other (`--out pb.link`,
/// pb.link → pa.proof, before pa.proof exists).
inline std::string output_target(std::string path) {
  namespace fs = std::filesystem;
  for (int hops = 0;; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(path, ec))) return path;
    if (hops == 40) throw UsageError("cannot write '" + path + "': too many levels of symbolic links");
    if (fs::exists(path, ec)) {
      const fs::path target = fs::canonical(path, ec);  // resolves /proc/self/fd/N to the open file
      if (!ec) return target.string();
    }
    const fs::path link = path;
    const fs::path target = fs::read_symlink(link, ec);
    if (ec) throw UsageError("cannot write '" + path + "': " + ec.message());
    path = (target.is_absolute() ? target : link.parent_path() / target).lexically_normal().string();
  }
}

/// Refuses (UsageError, exit 2), before any work, an output that is the same file as an input or
/// as another output: writing it would destroy the input (`prove --proof c.zkey`) or the other
/// output. Same file: the same normalized absolute path of output_target (every link followed,
/// dangling ones to the path they name; std::filesystem::weakly_canonical for the folders, so
/// symlinks and "./" spellings match) or, for files that exist, the same device and inode (hard
/// links). An output that exists and is not a regular file (a socket such as the daemon's, a FIFO,
/// a device) is refused too: the rename into place would replace it. Empty paths (a flag not given)
/// are skipped. The message names both flags and the path(s).
inline void check_output_paths(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs) {
  struct Identity {
    const NamedFile* file;
    std::filesystem::path canonical;
    bool exists = false;
    bool regular = false;
    dev_t dev = 0;
    ino_t ino = 0;
  };
  auto identify = [](const NamedFile& f) {
    Identity id{&f, {}};
    std::error_code ec;
    // The file a write lands in (a dangling link's target too); absolute first: "q1" and "./q1"
    // that do not exist yet must compare equal too.
    const std::string target = output_target(f.path);
    id.canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(target, ec), ec);
    if (ec) id.canonical = std::filesystem::absolute(target).lexically_normal();
    struct stat st {};
    if (::stat(f.path.c_str(), &st) == 0) {
      id.exists = true;
      id.regular = S_ISREG(st.st_mode);
      id.dev = st.st_dev;
      id.ino = st.st_ino;
    }
    return id;
  };
  auto same = [](const Identity& a, const Identity& b) {
    return a.canonical == b.canonical || (a.exists && b.exists && a.dev == b.dev && a.ino == b.ino);
  };
  auto also = [](const Identity& a, const Identity& b) {
    if (a.file->path == b.file->path) return std::string();
    if (a.canonical != b.canonical) return " (a hard link to '" + b.file->path + "')";
    return " (the same file as '" + b.file->path + "': '" + a.canonical.string() + "')";
  };
  std::vector<Identity> ins, outs;
  for (const NamedFile& f : inputs) {
    if (!f.path.empty()) ins.push_back(identify(f));
  }
  for (const NamedFile& f : outputs) {
    if (f.path.empty()) continue;
    const Identity id = identify(f);
    if (id.exists && !id.regular && !std::filesystem::is_directory(f.path)) {
      // A socket (the daemon's), FIFO or device node would be replaced by the rename into place.
      throw UsageError(f.flag + " '" + f.path +
                       "' exists and is not a regular file (a socket, FIFO or device): refusing to replace it; give " +
                       f.flag + " another path");
    }
    for (const Identity& in : ins) {
      if (same(id, in)) {
        throw UsageError(f.flag + " '" + f.path + "' is the input " + in.file->flag + also(id, in) +
                         ": writing it would destroy the input; give " + f.flag + " another path");
      }
    }
    for (const Identity& other : outs) {
      if (same(id, other)) {
        throw UsageError(f.flag + " and " + other.file->flag + " name the same file '" + f.path + "'" +
                         also(id, other) + ": each would overwrite the other; give them different paths");
      }
    }
    outs.push_back(id);
  }
}

/// The files --snarkjs-dir DIR receives for `n` proofs: verification_key.json, then proof.json and
/// public.json (n = 1) or proof_k.json and public_k.json (k = 0 … n-1), each named "--snarkjs-dir".
inline std::vector<NamedFile> snarkjs_dir_outputs(const std::string& dir, std::size_t n) {
  std::vector<NamedFile> out;
  if (dir.empty()) return out;
  const std::string d = dir + "/";
  out.push_back({"--snarkjs-dir", d + "verification_key.json"});
  for (std::size_t k = 0; k < n; ++k) {
    const std::string suffix = n == 1 ? "" : "_" + std::to_string(k);
    out.push_back({"--snarkjs-dir", d + "proof" + suffix + ".json"});
    out.push_back({"--snarkjs-dir", d + "public" + suffix + ".json"});
  }
  return out;
}

/// Refuses (UsageError, exit 2) a snarkjs .zkey given to a flag that takes a bellperson file
/// (`flag`: "--params", "--vk"), which its reader would report only as a malformed point; `instead`
/// says what to do ("use --zkey"). An empty path or a file that cannot be read passes (its reader
/// reports it).
inline void refuse_zkey_as_params(std::string_view flag, const std::string& path, std::string_view instead) {
  if (path.empty()) return;
  std::ifstream f(path, std::ios::binary);
  char magic[4] = {};
  if (f.read(magic, 4) && std::string_view(magic, 4) == "zkey") {
    throw UsageError(std::string(flag) + " '" + path +
                     "' looks like a snarkjs .zkey (magic 'zkey'), not a bellperson file; " + std::string(instead));
  }
}

/// An input file the command reads whole: refused (ProoflineError(BadLength), exit 3) when it is
/// larger than `max_bytes`, from its size alone, before a byte of it is read: "--vanilla 'v.json':
/// 200000000 bytes, at most 100663296 (<what>)".
inline void refuse_larger_than(std::string_view flag, const std::string& path, std::uint64_t max_bytes,
                               std::string_view what) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    throw ProoflineError(Error::BadLength, std::string(flag) + " '" + path + "': " + std::to_string(size) +
                                               " bytes, at most " + std::to_string(max_bytes) + " (" +
                                               std::string(what) + ")");
  }
}

/// A --params path (or that of `flag`) that names a verifying-key file (.vk: the key alone,
/// groth16::is_verifying_key_file): UsageError naming the file and its size, then `instead` (verify:
/// "give it as --vk").
inline void refuse_vk_as_params(const std::string& path, std::string_view instead,
                                std::string_view flag = "--params") {
  if (path.empty() || !groth16::is_verifying_key_file(path)) return;
  std::error_code ec;
  throw UsageError(std::string(flag) + " '" + path + "' is a verifying-key (.vk) file (" +
                   std::to_string(std::filesystem::file_size(path, ec)) +
                   " bytes: the key alone), not a .params file; " + std::string(instead));
}

/// The process's peak resident set size so far (getrusage), in bytes; 0 if unknown.
inline std::uint64_t peak_rss_bytes() {
  struct rusage ru {};
  if (::getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;  // Linux: kilobytes
}

/// The one writer of every file a command outputs. The file is written under a temporary name next
/// to its target ("<path>.partial-<pid>-<n>", cut to the folder's NAME_MAX) and renamed into place by commit(), so the name never
/// holds a partial, 0-byte or unverified file and a previous file of that name stays whole until
/// the new one replaces it.
///  - The constructor creates the temporary file, so an output path that cannot be written (no
///    such folder, no permission, a folder) is refused before any expensive work: UsageError naming
///    the path and the reason (exit 2).
///  - write() puts the whole contents (write(2) until every byte is out); a streamed writer
///    (ParamsWriter) writes to temp_path() itself and reports its own errors.
///  - commit() flushes the temporary file to the disk (fsync), renames it onto the target and
///    flushes the folder.
///  - A failure of write() or commit() (a full disk, a file-size limit, an I/O error) is
///    std::system_error "cannot write '<path>': <the OS error>" (exit 3, run_guarded); the
///    temporary file is removed and the target left as it was.
///  - Destroyed without commit() (an error, an unverified proof), it removes the temporary file.
/// A path that is a symbolic link is written through it (output_target): the temporary file goes
/// next to the link's final target (resolved, also for /dev/stdout → /proc/self/fd/1 → the file the
/// shell opened; a dangling link's target is created) and is renamed onto that target, so the link
/// stays a link (a parameter cache of links to a big disk, `--proof /dev/stdout > file`). Without
/// this, the rename replaced the link itself with a regular file — as root, /dev/stdout was
/// replaced for the whole system. Two outputs of one command never land in one target
/// (check_output_paths compares them by output_target).
/// SIGINT, SIGTERM or SIGHUP (where the command leaves them at their default) remove the temporary
/// files before the process dies of the signal (pending_detail::on_signal).
namespace pending_detail {
/// The temporary files of the live PendingOutputs, for the signal handler below (fixed storage:
/// the handler only reads these and calls unlink, both async-signal-safe).
inline constexpr int kSlots = 16;
inline char g_path[kSlots][4096];
inline std::atomic<bool> g_used[kSlots];
/// SIGINT/SIGTERM/SIGHUP: removes every registered temporary file, then dies of the signal as
/// before (default action re-raised), so an interrupted 47 GB setup leaves no "<out>.partial-<pid>".
inline void on_signal(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load()) ::unlink(g_path[i]);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}
/// Installs on_signal once, for each signal whose disposition is still the default (a command
/// that handles or blocks a signal itself — submit's sigwait — keeps its own way).
inline void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
      struct sigaction sa {};
      sa.sa_handler = on_signal;
      sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}
/// A slot holding `path` (-1 when none is free or the path is too long: the file is then only
/// removed on a normal exit).
inline int add(const std::string& path) {
  if (path.size() >= sizeof g_path[0]) return -1;
  install_once();
  static std::mutex mu;
  std::lock_guard lk(mu);
  for (int i = 0; i < kSlots; ++i) {
    if (!g_used[i].load()) {
      std::memcpy(g_path[i], path.c_str(), path.size() + 1);
      g_used[i].store(true);
      return i;
    }
  }
  return -1;
}
inline void remove(int slot) {
  if (slot >= 0) g_used[slot].store(false);
}
}  // namespace pending_detail

class PendingOutput {
 public:
  /// "<target>.partial-<pid>-<n>" (n counts this process's outputs), its last component cut so
  /// that it stays within the folder's NAME_MAX: an output named near the limit is still writable.
  static std::string temporary_name(const std::string& target) {
    static std::atomic<unsigned> next{0};
    const std::string suffix = ".partial-" + std::to_string(::getpid()) + "-" + std::to_string(next++);
    const auto slash = target.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : target.substr(0, slash + 1);
    std::string base = target.substr(dir.size());
    long max = ::pathconf(dir.empty() ? "." : dir.c_str(), _PC_NAME_MAX);
    if (max <= 0) max = NAME_MAX;
    if (base.size() + suffix.size() > static_cast<std::size_t>(max)) {
      base.resize(static_cast<std::size_t>(max) > suffix.size() ? static_cast<std::size_t>(max) - suffix.size() : 0);
    }
    return dir + base + suffix;
  }

  explicit PendingOutput(std::string path) : shown_(path), path_(std::move(path)) {
    if (path_.empty()) return;
    std::error_code ec;
    if (std::filesystem::is_directory(path_, ec)) throw UsageError("cannot write '" + path_ + "': it is a directory");
    path_ = output_target(path_);
    temp_ = temporary_name(path_);
    const int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
      const int err = errno;
      temp_.clear();  // not ours to remove (it may be another process's file of that name)
      throw UsageError("cannot write '" + shown_ + "': " + std::strerror(err));
    }
    ::close(fd);
    slot_ = pending_detail::add(temp_);
  }
  ~PendingOutput() {
    pending_detail::remove(slot_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
  }
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;

  /// Where a streamed writer puts the contents ("" when the path was empty: the output was not
  /// asked for). Everything else calls write().
  const std::string& temp_path() const { return temp_; }
  /// The whole contents of the file (replacing anything written before); nothing when the path
  /// was empty. std::system_error "cannot write '<path>': <OS error>" when a byte cannot be written.
  void write(std::span<const std::uint8_t> bytes) {
    if (temp_.empty()) return;
    const int fd = ::open(temp_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) fail(errno);
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int err = n < 0 ? errno : EIO;
        ::close(fd);
        fail(err);
      }
      done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) fail(errno);
  }
  void write(std::string_view text) {
    write(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }

  /// Flushes the temporary file to the disk and renames it onto the target (std::system_error
  /// "cannot write '<path>': …" when either fails; the target is then untouched).
  void commit() {
    if (temp_.empty()) return;
    const int fd = ::open(temp_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(errno);
    if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {  // EINVAL/EROFS: a file that cannot be synced
      const int err = errno;
      ::close(fd);
      fail(err);
    }
    ::close(fd);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) fail(errno);
    pending_detail::remove(slot_);
    slot_ = -1;
    temp_.clear();
    // The rename itself to the disk: best effort (a folder that cannot be opened or synced keeps
    // the file, which is complete and in place).
    const std::string dir = std::filesystem::path(path_).parent_path().string();
    const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }

 private:
  [[noreturn]] void fail(int err) const {
    throw std::system_error(err, std::generic_category(), "cannot write '" + shown_ + "'");
  }

  std::string shown_, path_, temp_;
  int slot_ = -1;
};

/// An output folder (e.g. --snarkjs-dir) made before any expensive work, so its files can be
/// PendingOutputs from the start: an existing folder is used as it is; otherwise the missing part
/// is created, and removed again on destruction unless keep() was called (a command that fails
/// leaves nothing behind). One that cannot be made is refused (UsageError naming the flag, the path
/// and why; exit 2). Empty: nothing to do. Declare it before the PendingOutputs in it.
class PendingDir {
 public:
  PendingDir(std::string_view flag, const std::string& dir) {
    if (dir.empty()) return;
    namespace fs = std::filesystem;
    std::error_code ec;
    auto refuse = [&](const std::string& why) {
      return UsageError(std::string(flag) + ": cannot create the folder '" + dir + "': " + why);
    };
    if (fs::exists(dir, ec)) {
      if (!fs::is_directory(dir, ec)) throw refuse("it exists and is not a folder");
      return;
    }
    fs::path first_missing = fs::absolute(dir, ec);
    while (first_missing.has_parent_path() && first_missing.parent_path() != first_missing &&
           !fs::exists(first_missing.parent_path(), ec)) {
      first_missing = first_missing.parent_path();
    }
    fs::create_directories(dir, ec);
    if (ec) throw refuse(ec.message());
    made_ = first_missing;
  }
  ~PendingDir() {
    std::error_code ec;
    if (!made_.empty()) std::filesystem::remove_all(made_, ec);
  }
  PendingDir(const PendingDir&) = delete;
  PendingDir& operator=(const PendingDir&) = delete;
  /// The folder stays (its files were committed).
  void keep() { made_.clear(); }

 private:
  std::filesystem::path made_;  ///< the first folder this made ("" when none, or kept)
};

/// A PendingOutput for each of `files` (e.g. snarkjs_dir_outputs), in their order.
inline std::vector<std::unique_ptr<PendingOutput>> pending_outputs(const std::vector<NamedFile>& files) {
  std::vector<std::unique_ptr<PendingOutput>> out;
  for (const NamedFile& f : files) out.push_back(std::make_unique<PendingOutput>(f.path));
  return out;
}

/// Writes --snarkjs-dir's files, `out` = pending_outputs(snarkjs_dir_outputs(dir, proofs.size())):
/// verification_key.json, then each partition's proof and public inputs (nothing when `out` is
/// empty: no --snarkjs-dir). Committed by the caller with its other outputs.
inline void write_snarkjs_dir(const std::vector<std::unique_ptr<PendingOutput>>& out, const groth16::VerifyingKey& vk,
                              std::span<const groth16::Proof> proofs, std::span<const std::vector<ff::Fr>> inputs) {
  if (out.empty()) return;
  out[0]->write(groth16::snarkjs_vk_json(vk));
  for (std::size_t k = 0; k < proofs.size(); ++k) {
    out[1 + 2 * k]->write(groth16::snarkjs_proof_json(proofs[k]));
    out[2 + 2 * k]->write(groth16::snarkjs_public_json(inputs[k]));
  }
}

/// Reads a file of `n` concatenated 192-byte bellperson proofs, checking its size before reading a
/// byte, so a huge or wrong file is refused at once: ProoflineError BadLength naming both sizes
/// (`n_from` says where n came from, e.g. "the C1 has"); a bad encoding: the decoder's code.
inline std::vector<groth16::Proof> read_proof_file(const std::string& path, std::size_t n, const std::string& n_from) {
  const std::uintmax_t size = std::filesystem::file_size(path);
  if (size != 192 * static_cast<std::uintmax_t>(n)) {
    throw ProoflineError(Error::BadLength, "proof file '" + path + "' is " + std::to_string(size) + " bytes; " +
                                               n_from + " " + std::to_string(n) +
                                               " partition(s), so it should hold 192 × " + std::to_string(n) +
                                               " = " + std::to_string(192 * n) + " bytes");
  }
  const std::vector<std::uint8_t> bytes = groth16::read_file_bytes(path);
  try {
    return groth16::decode_proofs(bytes);
  } catch (const ProoflineError& e) {
    const std::string what = e.what();
    throw ProoflineError(e.code(), "proof file '" + path + "': " + what.substr(to_string(e.code()).size() + 2));
  }
}

/// Adds --threads N (0: all cores; at most kMaxThreads, else exit 2) to a subcommand.
/// `--rs "R,S"` (testing only: a proof with known r, s is not zero-knowledge): fixed Groth16
/// randomizers, two decimal integers below the scalar field's modulus r. Anything but decimal digits
/// is std::invalid_argument (a usage error, exit 2); digits >= r stay fr_from_decimal's "not
/// canonical" (exit 3).
inline groth16::Randomizers parse_rs(const std::string& rs) {
  const auto comma = rs.find(',');
  if (comma == std::string::npos) {
    throw std::invalid_argument("--rs takes \"R,S\" (two decimal integers), got '" + rs + "'");
  }
  auto decimal = [](const std::string& v, const char* what) {
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) {
      throw std::invalid_argument(std::string(what) + " '" + v + "' is not a decimal integer");
    }
    return groth16::fr_from_decimal(v, what);
  };
  return groth16::Randomizers{decimal(rs.substr(0, comma), "--rs r"), decimal(rs.substr(comma + 1), "--rs s")};
}

inline CLI::Option* add_threads_option(CLI::App& sub, int& threads) {
  return add_integer_option(sub, "--threads", threads, "worker threads (0: all cores)", 0, kMaxThreads);
}

/// Caps TBB's parallelism at `threads` while the returned object lives (null for 0: all cores).
inline std::unique_ptr<tbb::global_control> limit_threads(int threads) {
  if (threads <= 0) return nullptr;
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                               static_cast<std::size_t>(threads));
}

}  // namespace proofline::cli
