// proofline/groth16/param_cache.hpp — checking a Filecoin parameter cache (the folder of `.params`,
// `.vk` and `.srs` files) against the published digests, without loading a single point.
//
// Owns: `ParamManifest` (parameters.json: file name → {cid, digest, sector_size}; the built-in one is
// Filecoin's published table, compiled in), `blake2b512` / `blake2b512_file` (OpenSSL, streamed),
// `param_digest` (the published digest form), `walk_param_layout` (the bellperson section headers
// of a .vk / .params file, by seeks), `check_param_cache` (one status per file) and the report types.
//
// Facts (../shared/reference/formats-and-circuits.md §1.2, §1.3, §1.6; filecoin-proofs
// `parameters.json`, checked by `get_digest_for_file_within_cache`):
//  - parameters.json maps each file name to {"cid": IPFS CID, "digest": hex, "sector_size": bytes};
//    digest = the first 32 hex characters (16 bytes) of the unkeyed BLAKE2b-512 of the whole file.
//  - Built-in table: filecoin-project/lotus build/proof-params/parameters.json (commit 533e76ff, the
//    44 v28 files of empty-sector-update (and its -poseidon variant), proof-of-spacetime-fallback and
//    stacked-proof-of-replication for 2 KiB … 64 GiB) plus build/proof-params/srs-inner-product.json
//    (v28-fil-inner-product-v1.srs, sector_size 0); copied into data/ on 2026-12-01 and embedded at
//    build time (CMakeLists.txt → parameters_json.cpp).
//  - Layout walked (params.hpp): .vk = 868 fixed bytes ending with the u32 BE ic count, then ic × G1
//    (96); .params = the .vk, then h, l, a, b_g1 (u32 BE count, count × 96) and b_g2 (u32 BE count,
//    count × 192). Counts are of uncompressed points.
//
// Statuses (exactly one per file): Ok (digest matches), Corrupted (digest differs and the file is
// exactly as long as its layout says; or it is longer — detail "N bytes beyond the M its layout needs
// (not hashed: …)", known from the header alone; or the name holds no regular file — detail "a FIFO
// (named pipe), not a regular file", "a folder, …", "a character device, …", never opened),
// Truncated (shorter than its own layout says: not hashed), Unknown (name not in the manifest: not
// hashed), Missing (a manifest file of an asked sector size — its .params and .vk — absent from the
// cache, or a symbolic link to nothing: detail "no such file" / "a symbolic link to nothing"). `.srs`
// files have no layout walk: Ok or Corrupted only.
//
// Errors: a malformed manifest raises ProoflineError(Malformed) naming the source and the entry; a
// sector size the manifest has no file for raises ProoflineError(BadArgument) listing the sizes it
// has; a file that cannot be opened or read raises std::system_error naming it.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace proofline::groth16 {

// ---- parameters.json ---------------------------------------------------------------------------
struct PublishedParam {
  std::string name;    ///< file name, e.g. "v28-stacked-proof-of-replication-…-sha256_hasher-<hex>.params"
  std::string cid;     ///< IPFS CID (not used by the check)
  std::string digest;  ///< 32 lowercase hex characters: the first 16 bytes of BLAKE2b-512
  std::uint64_t sector_size = 0;  ///< bytes; 0 for files of no sector size (.srs)
};

class ParamManifest {
 public:
  /// Parses parameters.json text: an object of file name → {"cid": string, "digest": 32 hex,
  /// "sector_size": unsigned}. `source` names it in errors and in reports.
  static ParamManifest parse(std::string_view json, std::string source);
  /// Reads and parses a parameters.json file (std::system_error if it cannot be read).
  static ParamManifest read_file(const std::string& path);
  /// Filecoin's published table (see the header comment), compiled in.
  static const ParamManifest& builtin();

  /// The entry of a file name, or null.
  const PublishedParam* find(std::string_view name) const;
  /// Every entry, sorted by name.
  const std::vector<PublishedParam>& entries() const { return entries_; }
  /// The distinct sector sizes of the entries (0 left out), smallest first.
  std::vector<std::uint64_t> sector_sizes() const;
  const std::string& source() const { return source_; }

 private:
  void sort_entries();  ///< by name; a name twice is an error
  std::vector<PublishedParam> entries_;
  std::string source_;
};

// ---- BLAKE2b-512 -------------------------------------------------------------------------------
using Blake2b512 = std::array<std::uint8_t, 64>;
/// Called while a file is hashed: bytes done, bytes in all (after every chunk of 16 MiB).
using HashProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

/// Unkeyed BLAKE2b-512 (OpenSSL "BLAKE2B-512") of `data`.
Blake2b512 blake2b512(std::span<const std::uint8_t> data);
/// Unkeyed BLAKE2b-512 of a whole file, read in 16 MiB chunks (never the whole file in memory).
Blake2b512 blake2b512_file(const std::string& path, const HashProgress& progress = {});
/// The parameters.json form: lowercase hex of the first 16 bytes (32 characters).
std::string param_digest(const Blake2b512& h);

// ---- layout walk -------------------------------------------------------------------------------
enum class ParamFileKind { Params, Vk, Srs };
/// By extension: ".params", ".vk", ".srs"; nullopt for anything else.
std::optional<ParamFileKind> param_file_kind(std::string_view name);

struct LayoutWalk {
  /// Every section header was inside the file: `required_bytes` is the exact size the layout needs.
  /// Otherwise the file ends before `section`'s header and `required_bytes` is a lower bound.
  bool complete = false;
  std::uint64_t required_bytes = 0;
  std::string section;  ///< the section whose header or points the file ends in ("" when it does not)
  /// The point counts read, in file order: ic (= public inputs incl. ONE), then for .params h
  /// (= domain size - 1), l (= aux variables), a, b_g1, b_g2; as many as the file holds headers of.
  std::vector<std::uint64_t> counts;
};
/// Reads the u32 BE counts of a .vk (ic) or .params (ic, h, l, a, b_g1, b_g2) with seeks, no point
/// data. `file_size` is the file's size. Srs: {true, file_size, ""} (no layout walked).
LayoutWalk walk_param_layout(const std::string& path, ParamFileKind kind, std::uint64_t file_size);

// ---- the cache check ---------------------------------------------------------------------------
enum class ParamStatus { Ok, Corrupted, Truncated, Unknown, Missing };
std::string_view to_string(ParamStatus s);

struct ParamFileReport {
  std::string name;
  ParamStatus status = ParamStatus::Unknown;
  std::uint64_t size = 0;             ///< bytes on disk (0 when missing)
  std::uint64_t sector_size = 0;      ///< from the manifest (0 when unknown or .srs)
  std::string expected_digest;        ///< from the manifest ("" when unknown)
  std::string actual_digest;          ///< computed ("" when not hashed: truncated, too long, not a file, unknown, missing)
  std::string detail;                 ///< why, in words ("" when ok)
};

struct ParamCheckOptions {
  /// Sector sizes whose .params and .vk files must be in the cache (each must have entries in the
  /// manifest, else ProoflineError BadArgument).
  std::vector<std::uint64_t> sector_sizes;
  /// Progress of each hashed file: its name, bytes done, bytes in all.
  std::function<void(const std::string& name, std::uint64_t done, std::uint64_t total)> progress;
};

struct ParamCheckReport {
  std::filesystem::path dir;
  bool dir_exists = false;
  std::string manifest_source;
  std::vector<ParamFileReport> files;  ///< the cache's files by name, then the missing ones by name

  std::size_t count(ParamStatus s) const;
  /// Anything missing, truncated or corrupted.
  bool failed() const;
  /// "corrupted v28-….vk (digest 1234…, expected abcd…); missing v28-….params" for the failures.
  std::string failure_summary() const;
};

/// Checks every regular file named *.params, *.vk or *.srs directly in `dir` (symbolic links
/// followed) against `manifest`, then lists the missing files of `opts.sector_sizes`. A folder
/// that does not exist is an empty cache (dir_exists = false).
ParamCheckReport check_param_cache(const std::filesystem::path& dir, const ParamManifest& manifest,
                                   const ParamCheckOptions& opts = {});

/// A ParamCheckOptions::progress that prints "<who>: hashing NAME: 1.2 / 50.3 GiB (2%)" on stderr at
/// most once every `every_ms` (the first line only after `every_ms`: small files print nothing).
std::function<void(const std::string&, std::uint64_t, std::uint64_t)> stderr_hash_progress(std::string who,
                                                                                          unsigned every_ms = 1000);

}  // namespace proofline::groth16
