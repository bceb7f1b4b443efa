// Checking a Filecoin parameter cache against published digests (proofline/groth16/param_cache.hpp).
#include "proofline/groth16/param_cache.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "proofline/groth16/params.hpp"
#include "proofline/util/error.hpp"

namespace proofline::groth16 {

namespace detail {
// Generated at configure time from data/parameters.json and data/srs-inner-product.json
// (CMakeLists.txt, cmake/parameters_json.cpp.in).
extern const std::string_view kParametersJson;
extern const std::string_view kSrsInnerProductJson;
}  // namespace detail

namespace {

using Json = nlohmann::json;

/// parameters.json is two levels deep; anything deeper is refused while parsing (a deeply nested
/// document never becomes a deep tree).
constexpr int kManifestMaxDepth = 3;
/// A manifest larger than this is refused before parsing (the published one is 13 KB).
constexpr std::uint64_t kManifestMaxBytes = 16u << 20;
constexpr std::size_t kHashChunk = 16u << 20;

[[noreturn]] void malformed(const std::string& source, const std::string& what) {
  throw ProoflineError(Error::Malformed, "parameter manifest '" + source + "': " + what);
}

bool is_hex32(const std::string& s) {
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

/// Appends the entries of one parameters.json document to `out`.
void parse_entries(std::string_view text, const std::string& source, std::vector<PublishedParam>& out) {
  if (text.size() > kManifestMaxBytes) {
    malformed(source, std::to_string(text.size()) + " bytes; expected at most " + std::to_string(kManifestMaxBytes));
  }
  Json doc;
  try {
    doc = Json::parse(text, [&](int depth, Json::parse_event_t, Json&) {
      if (depth > kManifestMaxDepth) {
        malformed(source, "nested deeper than " + std::to_string(kManifestMaxDepth) +
                              " levels; expected {\"<file name>\": {\"cid\", \"digest\", \"sector_size\"}, …}");
      }
      return true;
    });
  } catch (const Json::exception& e) {
    malformed(source, std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object()) malformed(source, "expected an object of file name → {cid, digest, sector_size}");
  for (const auto& [name, v] : doc.items()) {
    const std::string where = "entry '" + name + "'";
    if (!param_file_kind(name)) malformed(source, where + ": expected a file name ending in .params, .vk or .srs");
    if (name.find('/') != std::string::npos) malformed(source, where + ": a file name may not contain '/'");
    if (!v.is_object()) malformed(source, where + ": expected an object {cid, digest, sector_size}, got " + v.dump());
    if (!v.contains("digest") || !v["digest"].is_string() || !is_hex32(v["digest"].get<std::string>())) {
      malformed(source, where + ": \"digest\" must be 32 lowercase hex characters (the first 16 bytes of BLAKE2b-512)");
    }
    if (!v.contains("sector_size") || !v["sector_size"].is_number_unsigned()) {
      malformed(source, where + ": \"sector_size\" must be a non-negative integer (bytes)");
    }
    if (v.contains("cid") && !v["cid"].is_string()) malformed(source, where + ": \"cid\" must be a string");
    out.push_back({name, v.value("cid", std::string()), v["digest"].get<std::string>(),
                   v["sector_size"].get<std::uint64_t>()});
  }
}

/// Reads `n` bytes at `offset` (false: the file ends before).
bool read_at(int fd, std::uint64_t offset, std::uint8_t* out, std::size_t n, const std::string& path) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd, out + got, n - got, static_cast<off_t>(offset + got));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "cannot read '" + path + "'");
    }
    if (r == 0) return false;
    got += static_cast<std::size_t>(r);
  }
  return true;
}

struct Fd {
  int fd;
  explicit Fd(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot open '" + path + "'");
  }
  ~Fd() { ::close(fd); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / double(1u << 30));
  return buf;
}

}  // namespace

// ---- parameters.json ---------------------------------------------------------------------------
ParamManifest ParamManifest::parse(std::string_view json, std::string source) {
  ParamManifest m;
  m.source_ = std::move(source);
  parse_entries(json, m.source_, m.entries_);
  m.sort_entries();
  return m;
}

void ParamManifest::sort_entries() {
  std::sort(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < entries_.size(); ++i) {
    if (entries_[i].name == entries_[i - 1].name) malformed(source_, "entry '" + entries_[i].name + "' appears twice");
  }
}

ParamManifest ParamManifest::read_file(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw std::system_error(ec, "parameter manifest '" + path + "'");
  if (size > kManifestMaxBytes) {
    malformed(path, std::to_string(size) + " bytes; expected at most " + std::to_string(kManifestMaxBytes));
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::system_error(errno, std::generic_category(), "cannot open parameter manifest '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  return parse(ss.str(), path);
}

const ParamManifest& ParamManifest::builtin() {
  static const ParamManifest m = [] {
    ParamManifest m;
    m.source_ = "built-in (Filecoin's parameters.json + srs-inner-product.json)";
    parse_entries(detail::kParametersJson, m.source_, m.entries_);
    parse_entries(detail::kSrsInnerProductJson, m.source_, m.entries_);
    m.sort_entries();
    return m;
  }();
  return m;
}

const PublishedParam* ParamManifest::find(std::string_view name) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [](const PublishedParam& e, std::string_view n) { return e.name < n; });
  return it != entries_.end() && it->name == name ? &*it : nullptr;
}

std::vector<std::uint64_t> ParamManifest::sector_sizes() const {
  std::vector<std::uint64_t> out;
  for (const auto& e : entries_) {
    if (e.sector_size != 0) out.push_back(e.sector_size);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ---- BLAKE2b-512 -------------------------------------------------------------------------------
namespace {
/// One BLAKE2b-512 computation (OpenSSL 3 fetched digest).
class Blake2bCtx {
 public:
  Blake2bCtx() {
    static EVP_MD* md = EVP_MD_fetch(nullptr, "BLAKE2B-512", nullptr);
    if (!md || !ctx_ || EVP_DigestInit_ex2(ctx_.get(), md, nullptr) != 1) fail();
  }
  void update(const std::uint8_t* p, std::size_t n) {
    if (n != 0 && EVP_DigestUpdate(ctx_.get(), p, n) != 1) fail();
  }
  Blake2b512 final() {
    Blake2b512 h{};
    unsigned len = 0;
    if (EVP_DigestFinal_ex(ctx_.get(), h.data(), &len) != 1 || len != h.size()) fail();
    return h;
  }

 private:
  [[noreturn]] static void fail() { throw std::runtime_error("OpenSSL BLAKE2b-512 (BLAKE2B-512) failed"); }
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
};
}  // namespace

Blake2b512 blake2b512(std::span<const std::uint8_t> data) {
  Blake2bCtx c;
  c.update(data.data(), data.size());
  return c.final();
}

Blake2b512 blake2b512_file(const std::string& path, const HashProgress& progress) {
  Fd f(path);
  ::posix_fadvise(f.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  std::error_code ec;
  const std::uint64_t total = std::filesystem::file_size(path, ec);
  // Fills `b` (fewer bytes only at the end of the file); returns the count.
  auto read_chunk = [&](std::vector<std::uint8_t>& b) {
    std::size_t got = 0;
    while (got < b.size()) {
      const ssize_t r = ::read(f.fd, b.data() + got, b.size() - got);
      if (r < 0) {
        if (errno == EINTR) continue;
        throw std::system_error(errno, std::generic_category(), "cannot read '" + path + "'");
      }
      if (r == 0) break;
      got += static_cast<std::size_t>(r);
    }
    return got;
  };
  // Two buffers: the next chunk is read while this one is hashed (disk and BLAKE2b overlap).
  std::vector<std::uint8_t> bufs[2] = {std::vector<std::uint8_t>(kHashChunk), std::vector<std::uint8_t>(kHashChunk)};
  Blake2bCtx c;
  std::uint64_t done = 0;
  int cur = 0;
  for (std::size_t n = read_chunk(bufs[0]); n != 0; cur ^= 1) {
    auto next = std::async(std::launch::async, read_chunk, std::ref(bufs[cur ^ 1]));
    c.update(bufs[cur].data(), n);
    done += n;
    if (progress) progress(done, std::max(total, done));
    n = next.get();
  }
  return c.final();
}

std::string param_digest(const Blake2b512& h) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(32, '0');
  for (std::size_t i = 0; i < 16; ++i) {
    s[2 * i] = kHex[h[i] >> 4];
    s[2 * i + 1] = kHex[h[i] & 15];
  }
  return s;
}

// ---- layout walk -------------------------------------------------------------------------------
std::optional<ParamFileKind> param_file_kind(std::string_view name) {
  auto ends = [&](std::string_view ext) {
    return name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext;
  };
  if (ends(".params")) return ParamFileKind::Params;
  if (ends(".vk")) return ParamFileKind::Vk;
  if (ends(".srs")) return ParamFileKind::Srs;
  return std::nullopt;
}

LayoutWalk walk_param_layout(const std::string& path, ParamFileKind kind, std::uint64_t file_size) {
  if (kind == ParamFileKind::Srs) return {true, file_size, "", {}};
  Fd f(path);
  struct Section {
    const char* name;
    std::uint64_t point_bytes;
  };
  static constexpr Section kSections[] = {{"ic", kG1Uncompressed}, {"h", kG1Uncompressed},  {"l", kG1Uncompressed},
                                          {"a", kG1Uncompressed},  {"b_g1", kG1Uncompressed}, {"b_g2", kG2Uncompressed}};
  const std::size_t n_sections = kind == ParamFileKind::Vk ? 1 : std::size(kSections);
  // The ic count closes the vk's fixed part (3 G1 + 3 G2 points, then the u32).
  std::uint64_t header = kVkFixedBytes - 4;
  std::vector<std::uint64_t> counts;
  for (std::size_t i = 0; i < n_sections; ++i) {
    const Section& s = kSections[i];
    std::uint8_t b[4];
    if (header + 4 > file_size || !read_at(f.fd, header, b, 4, path)) {
      return {false, header + 4, i == 0 ? std::string("vk (the fixed part and the ic count)") : std::string(s.name),
              std::move(counts)};
    }
    const std::uint64_t count = (std::uint64_t{b[0]} << 24) | (std::uint64_t{b[1]} << 16) | (std::uint64_t{b[2]} << 8) | b[3];
    counts.push_back(count);
    const std::uint64_t end = header + 4 + count * s.point_bytes;
    if (end > file_size) return {true, end, s.name, std::move(counts)};  // the points of this section run past the end
    header = end;
  }
  return {true, header, "", std::move(counts)};
}

// ---- the cache check ---------------------------------------------------------------------------
std::string_view to_string(ParamStatus s) {
  switch (s) {
    case ParamStatus::Ok: return "ok";
    case ParamStatus::Corrupted: return "corrupted";
    case ParamStatus::Truncated: return "truncated";
    case ParamStatus::Unknown: return "unknown";
    case ParamStatus::Missing: return "missing";
  }
  return "?";
}

std::size_t ParamCheckReport::count(ParamStatus s) const {
  return static_cast<std::size_t>(std::count_if(files.begin(), files.end(), [s](const auto& f) { return f.status == s; }));
}

bool ParamCheckReport::failed() const {
  return count(ParamStatus::Missing) + count(ParamStatus::Truncated) + count(ParamStatus::Corrupted) > 0;
}

std::string ParamCheckReport::failure_summary() const {
  std::string out;
  for (const auto& f : files) {
    if (f.status == ParamStatus::Ok || f.status == ParamStatus::Unknown) continue;
    out += (out.empty() ? "" : "; ") + std::string(to_string(f.status)) + " " + f.name + " (" + f.detail + ")";
  }
  return out;
}

namespace {

/// The status of one file of the cache.
ParamFileReport check_file(const std::filesystem::path& path, const ParamManifest& manifest,
                           const ParamCheckOptions& opts) {
  ParamFileReport r;
  r.name = path.filename().string();
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);  // follows symbolic links
  const PublishedParam* known = manifest.find(r.name);
  if (known) {
    r.sector_size = known->sector_size;
    r.expected_digest = known->digest;
  }
  if (!std::filesystem::exists(st)) {
    r.status = known ? ParamStatus::Missing : ParamStatus::Unknown;
    r.detail = std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))
                   ? "a symbolic link to nothing"
                   : "no such file";
    return r;
  }
  if (!std::filesystem::is_regular_file(st)) {
    // There is something under the name, but not the file (never opened: a FIFO would block).
    using std::filesystem::file_type;
    const char* what = st.type() == file_type::directory ? "a folder"
                       : st.type() == file_type::fifo    ? "a FIFO (named pipe)"
                       : st.type() == file_type::character ? "a character device"
                       : st.type() == file_type::block   ? "a block device"
                       : st.type() == file_type::socket  ? "a socket"
                                                          : "not a file";
    r.status = known ? ParamStatus::Corrupted : ParamStatus::Unknown;
    r.detail = std::string(what) + ", not a regular file";
    return r;
  }
  r.size = std::filesystem::file_size(path, ec);
  if (ec) throw std::system_error(ec, "cannot stat '" + path.string() + "'");
  if (!known) {
    r.status = ParamStatus::Unknown;
    r.detail = "not in the manifest";
    return r;
  }
  const ParamFileKind kind = *param_file_kind(r.name);
  const LayoutWalk walk = walk_param_layout(path.string(), kind, r.size);
  if (r.size < walk.required_bytes) {
    r.status = ParamStatus::Truncated;
    r.detail = std::to_string(r.size) + " bytes, but its layout needs " + (walk.complete ? "" : "at least ") +
               std::to_string(walk.required_bytes) + " (the file ends in section " + walk.section + ")";
    return r;
  }
  if (walk.complete && r.size > walk.required_bytes) {
    // The published file ends where its layout does: no digest can match; say so without reading it.
    r.status = ParamStatus::Corrupted;
    r.detail = std::to_string(r.size - walk.required_bytes) + " bytes beyond the " +
               std::to_string(walk.required_bytes) + " its layout needs (not hashed: the published file has none)";
    return r;
  }
  HashProgress progress;
  if (opts.progress) progress = [&](std::uint64_t done, std::uint64_t total) { opts.progress(r.name, done, total); };
  r.actual_digest = param_digest(blake2b512_file(path.string(), progress));
  if (r.actual_digest == r.expected_digest) {
    r.status = ParamStatus::Ok;
    return r;
  }
  r.status = ParamStatus::Corrupted;
  r.detail = "digest " + r.actual_digest + ", expected " + r.expected_digest;
  return r;
}

std::string size_name(std::uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t u = 0;
  while (u + 1 < std::size(units) && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + units[u];
}

}  // namespace

ParamCheckReport check_param_cache(const std::filesystem::path& dir, const ParamManifest& manifest,
                                   const ParamCheckOptions& opts) {
  // Sizes first: a size the manifest has no file for is the caller's mistake, found before hashing.
  const std::vector<std::uint64_t> known_sizes = manifest.sector_sizes();
  for (std::uint64_t s : opts.sector_sizes) {
    if (!std::binary_search(known_sizes.begin(), known_sizes.end(), s)) {
      std::string list;
      for (std::uint64_t k : known_sizes) list += (list.empty() ? "" : ", ") + size_name(k);
      throw ProoflineError(Error::BadArgument, "sector size " + size_name(s) + " (" + std::to_string(s) +
                                                   " bytes): the parameter manifest " + manifest.source() +
                                                   " lists no files for it (it has " +
                                                   (list.empty() ? std::string("none") : list) + ")");
    }
  }
  ParamCheckReport rep;
  rep.dir = dir;
  rep.manifest_source = manifest.source();
  std::error_code ec;
  rep.dir_exists = std::filesystem::is_directory(dir, ec);
  std::vector<std::filesystem::path> paths;
  if (rep.dir_exists) {
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (param_file_kind(e.path().filename().string())) paths.push_back(e.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) rep.files.push_back(check_file(p, manifest, opts));
  for (const auto& e : manifest.entries()) {
    const auto kind = param_file_kind(e.name);
    if (kind == ParamFileKind::Srs ||
        std::find(opts.sector_sizes.begin(), opts.sector_sizes.end(), e.sector_size) == opts.sector_sizes.end()) {
      continue;
    }
    if (std::any_of(rep.files.begin(), rep.files.end(), [&](const auto& f) { return f.name == e.name; })) continue;
    ParamFileReport r;
    r.name = e.name;
    r.status = ParamStatus::Missing;
    r.sector_size = e.sector_size;
    r.expected_digest = e.digest;
    r.detail = "not in the cache (sector size " + size_name(e.sector_size) + ")";
    rep.files.push_back(std::move(r));
  }
  return rep;
}

std::function<void(const std::string&, std::uint64_t, std::uint64_t)> stderr_hash_progress(std::string who,
                                                                                          unsigned every_ms) {
  using Clock = std::chrono::steady_clock;
  struct State {
    std::string name;
    Clock::time_point last;
  };
  auto st = std::make_shared<State>();
  return [st, who = std::move(who), every = std::chrono::milliseconds(every_ms)](
             const std::string& name, std::uint64_t done, std::uint64_t total) {
    const auto now = Clock::now();
    if (name != st->name) {
      st->name = name;
      st->last = now;  // first line only after `every`
      return;
    }
    if (now - st->last < every) return;
    st->last = now;
    std::cerr << who << ": hashing " << name << ": " << gib(done) << " / " << gib(total) << " GiB ("
              << (total ? done * 100 / total : 100) << "%)\n";
  };
}

}  // namespace proofline::groth16
