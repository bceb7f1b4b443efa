// src/cli/common.hpp — what every `proofline` command shares: its exit codes, the usage-error type,
// the one exception → exit-code mapping (`run_guarded`), the --threads option and its TBB limit,
// output files that appear under their name only when complete (`PendingOutput`), and a proof
// file's reader that checks the size before reading (`read_proof_file`).
//
// Exit codes (every command; each --help footer lists them):
//   0 ok / valid, 1 a proof does not verify (verify, check-c1), 2 usage error (a bad flag, value or
//   combination, an input file named on the command line that does not exist (CLI11's
//   ExistingFile check), an output path that cannot be written, a daemon address already in use),
//   3 bad input (a malformed or inconsistent file, a file the command looks up itself that is
//   missing (c2's default parameter file), a witness that does not satisfy the circuit, a request
//   the daemon refused), 4 internal error, 5 job not finished (submit: cancelled or timed out),
//   6 daemon unreachable.
// Header-only: src/cli/*.cpp are compiled into `proofline` and, for snarkjs_cmds.cpp, into the
// standalone `proofline-snarkjs` (tests/snarkjs/CMakeLists.txt) too.
#pragma once

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "proofline/groth16/params.hpp"
#include "proofline/groth16/proof.hpp"
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
};

/// The largest --threads any command accepts (0 means all cores). A guard against typos such as
/// `--threads 100000`, which TBB would accept and then spend seconds starting and stopping.
inline constexpr int kMaxThreads = 4096;

/// A bad flag, value or combination of flags: exit 2 with the message.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Runs one command and maps what it throws to an exit code, printing "proofline <cmd>: <what>"
/// on stderr: UsageError, CLI::Error (a flag's validator) and std::invalid_argument (a name or
/// number taken from the command line) → 2; ProoflineError, r1cs::SynthesisError, std::system_error
/// (a file that cannot be opened or read) → 3; anything else → 4 ("internal error").
/// Commands with outcomes of their own (1, 5, 6) return them.
template <class F>
int run_guarded(const char* cmd, F&& f) {
  auto fail = [cmd](int rc, const std::string& prefix, const char* what) {
    std::cerr << "proofline " << cmd << ": " << prefix << what << "\n";
    return rc;
  };
  try {
    return f();
  } catch (const UsageError& e) {
    return fail(kUsage, "", e.what());
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

/// An output file written under a temporary name next to it ("<path>.partial-<pid>") and renamed
/// into place by commit(). The constructor creates the temporary file, so an output path that
/// cannot be written (no such directory, no permission, a directory) is refused before any
/// expensive work: UsageError naming the path and the reason (exit 2). Destroyed without commit()
/// (an error, an unverified proof), it removes the temporary file: the final name never holds a
/// partial or unverified file.
class PendingOutput {
 public:
  explicit PendingOutput(std::string path) : path_(std::move(path)) {
    if (path_.empty()) return;
    std::error_code ec;
    if (std::filesystem::is_directory(path_, ec)) throw UsageError("cannot write '" + path_ + "': it is a directory");
    temp_ = path_ + ".partial-" + std::to_string(::getpid());
    std::ofstream f(temp_, std::ios::binary | std::ios::trunc);
    if (!f) throw UsageError("cannot write '" + path_ + "': " + std::strerror(errno));
  }
  ~PendingOutput() {
    if (!temp_.empty()) {
      std::error_code ec;
      std::filesystem::remove(temp_, ec);
    }
  }
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;

  /// Where to write the contents ("" when the path was empty: the output was not asked for).
  const std::string& temp_path() const { return temp_; }
  /// Renames the temporary file to the final path (std::filesystem::filesystem_error on failure).
  void commit() {
    if (temp_.empty()) return;
    std::filesystem::rename(temp_, path_);
    temp_.clear();
  }

 private:
  std::string path_, temp_;
};

/// Refuses (UsageError, exit 2) two outputs that name the same file (e.g. --proof and --public
/// given one path): each would overwrite the other. `outputs`: (flag, path) pairs; empty paths skip.
inline void check_distinct_outputs(std::initializer_list<std::pair<std::string_view, std::string_view>> outputs) {
  std::vector<std::pair<std::string_view, std::filesystem::path>> seen;
  for (const auto& [flag, path] : outputs) {
    if (path.empty()) continue;
    std::error_code ec;
    std::filesystem::path canon = std::filesystem::weakly_canonical(std::filesystem::path(path), ec);
    if (ec) canon = std::filesystem::path(path);
    for (const auto& [other, other_path] : seen) {
      if (other_path == canon) {
        throw UsageError(std::string(flag) + " and " + std::string(other) + " name the same file '" + std::string(path) +
                         "'");
      }
    }
    seen.emplace_back(flag, canon);
  }
}

/// Checks before any expensive work that an output folder (e.g. --snarkjs-dir) can be made: an
/// existing folder passes; otherwise the missing part is created and removed again (nothing is left
/// behind if the command fails later); one that cannot be made is refused (UsageError naming the
/// flag, the path and why; exit 2). Empty: nothing to check.
inline void prepare_output_dir(std::string_view flag, const std::string& dir) {
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
  fs::remove_all(first_missing, ec);
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
inline CLI::Option* add_threads_option(CLI::App& sub, int& threads) {
  return sub.add_option("--threads", threads, "worker threads (0: all cores; at most " + std::to_string(kMaxThreads) + ")")
      ->check(CLI::Range(0, kMaxThreads));
}

/// Caps TBB's parallelism at `threads` while the returned object lives (null for 0: all cores).
inline std::unique_ptr<tbb::global_control> limit_threads(int threads) {
  if (threads <= 0) return nullptr;
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                               static_cast<std::size_t>(threads));
}

}  // namespace proofline::cli
