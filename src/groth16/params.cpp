// Reading and writing bellperson .vk / .params files (layout: include/proofline/groth16/params.hpp).
#include "proofline/groth16/params.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <future>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace proofline::groth16 {

namespace {

// ---- memory-mapped file (read-only, RAII) ------------------------------------------------------
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "cannot open '" + path + "'");
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      int e = errno;
      ::close(fd_);
      throw std::system_error(e, std::generic_category(), "cannot stat '" + path + "'");
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
      if (p == MAP_FAILED) {
        int e = errno;
        ::close(fd_);
        throw std::system_error(e, std::generic_category(), "cannot mmap '" + path + "'");
      }
      data_ = static_cast<const std::uint8_t*>(p);
      ::madvise(p, size_, MADV_SEQUENTIAL);
    }
  }
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
    if (fd_ >= 0) ::close(fd_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

 private:
  int fd_ = -1;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class F>
void run_with_threads(unsigned max_threads, F&& f) {
  if (max_threads > 1) {
    tbb::task_arena arena(static_cast<int>(max_threads));
    arena.execute(f);
  } else {
    f();
  }
}

// ---- the decoder's cursor ----------------------------------------------------------------------
struct Reader {
  std::span<const std::uint8_t> data;
  std::string_view source;  // file name or "<memory>"
  std::string_view kind;    // "params" or "vk"
  std::size_t offset = 0;

  std::string where(std::string_view section) const {
    return std::string(kind) + " file '" + std::string(source) + "' (" + std::to_string(data.size()) +
           " bytes): section " + std::string(section);
  }
  std::size_t remaining() const { return data.size() - offset; }

  [[noreturn]] void truncated(std::string_view section, std::size_t need, std::string_view what) const {
    throw ProoflineError(Error::BadLength, where(section) + ": truncated at byte offset " + std::to_string(offset) +
                                               ": expected " + std::to_string(need) + " bytes of " +
                                               std::string(what) + ", only " + std::to_string(remaining()) +
                                               " remain");
  }

  std::uint32_t read_u32(std::string_view section) {
    if (remaining() < 4) truncated(section, 4, "u32 big-endian element count");
    const std::uint8_t* p = data.data() + offset;
    offset += 4;
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
  }
};

template <class Point>
constexpr std::string_view curve_name() {
  return Point::kUncompressedBytes == kG1Uncompressed ? "G1" : "G2";
}

/// Message for point `index` of `section` (at `offset`) that failed with `e`.
template <class Point>
[[noreturn]] void throw_point_error(const Reader& rd, std::string_view section, std::size_t index,
                                    std::size_t count, std::size_t offset, Error e, Check check) {
  std::string reason;
  if (e == Error::UnexpectedInfinity) {
    reason = "the point at infinity, which this section may not contain";
  } else {
    try {
      ec::detail::throw_decode_error(e, curve_name<Point>(), false, Point::kUncompressedBytes);
    } catch (const ProoflineError& err) {
      reason = err.what();
      // Drop the code prefix ("<code>: "); the outer error carries the code.
      reason = reason.substr(std::string(to_string(e)).size() + 2);
    }
  }
  std::string expected = "expected an uncompressed " + std::string(curve_name<Point>()) + " point on the curve";
  if (check == Check::Subgroup) expected += ", in the prime-order subgroup";
  throw ProoflineError(e, rd.where(section) + ", element " + std::to_string(index) + " of " +
                              std::to_string(count) + " at byte offset " + std::to_string(offset) + ": " +
                              reason + " (" + expected + ")");
}

template <class Point>
Point read_point(Reader& rd, std::string_view section, Check check) {
  constexpr std::size_t n = Point::kUncompressedBytes;
  if (rd.remaining() < n) rd.truncated(section, n, std::string("an uncompressed ") + std::string(curve_name<Point>()) + " point");
  Point p;
  const std::size_t at = rd.offset;
  Error e = Point::from_uncompressed(p, std::span<const std::uint8_t, n>(rd.data.data() + at, n), check);
  if (e != Error::Ok) throw_point_error<Point>(rd, section, 0, 1, at, e, check);
  rd.offset += n;
  return p;
}

/// Reads a section's u32 count and checks that its points fit in the bytes that remain after it;
/// leaves the cursor at the first point.
template <class Point>
std::uint64_t read_count(Reader& rd, std::string_view section) {
  constexpr std::size_t n = Point::kUncompressedBytes;
  const std::size_t count_at = rd.offset;
  const std::uint64_t count = rd.read_u32(section);
  const std::uint64_t need = count * n;
  if (need > rd.remaining()) {
    throw ProoflineError(Error::BadLength,
                         rd.where(section) + ": count " + std::to_string(count) + " (u32 at byte offset " +
                             std::to_string(count_at) + ") needs " + std::to_string(need) + " bytes of " +
                             std::string(curve_name<Point>()) + " points (" + std::to_string(n) +
                             " each) but only " + std::to_string(rd.remaining()) + " remain after it");
  }
  return count;
}

/// Decodes points [first, first + bytes/size) of a section of `count` points whose point 0 lies at
/// byte `section_at` of rd's data, into out[0 …], in parallel; throws the named error of the first bad
/// one. Identities are rejected unless `allow_identity` (the vk's ic, which validate_verifying_key
/// checks with the rest of the key).
template <class Point>
void decode_points(const Reader& rd, std::string_view section, std::uint64_t count, std::size_t section_at,
                   std::uint64_t first, std::span<const std::uint8_t> bytes, Point* out, Check check,
                   unsigned max_threads, bool allow_identity = false) {
  constexpr std::size_t n = Point::kUncompressedBytes;
  const std::size_t len = bytes.size() / n;
  const std::uint8_t* base = bytes.data();
  // First failure by element index (errors are rare; a mutex is enough).
  std::mutex mu;
  std::size_t bad_index = len;
  Error bad_error = Error::Ok;
  auto body = [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      Point p;
      Error e = Point::from_uncompressed(p, std::span<const std::uint8_t, n>(base + i * n, n), check);
      if (e == Error::Ok && p.infinity && !allow_identity) e = Error::UnexpectedInfinity;
      if (e != Error::Ok) [[unlikely]] {
        std::lock_guard<std::mutex> lock(mu);
        if (i < bad_index) {
          bad_index = i;
          bad_error = e;
        }
        return;
      }
      out[i] = p;
    }
  };
  if (max_threads == 1 || len < 64) {
    body(tbb::blocked_range<std::size_t>(0, len));
  } else {
    run_with_threads(max_threads, [&] { tbb::parallel_for(tbb::blocked_range<std::size_t>(0, len, 256), body); });
  }
  if (bad_index < len) {
    const std::uint64_t index = first + bad_index;
    throw_point_error<Point>(rd, section, index, count, section_at + index * n, bad_error, check);
  }
}

/// Reads `u32 count ‖ count points` into `out`, validating the count against the remaining bytes
/// first, then decoding the points in parallel.
template <class Point>
void read_section(Reader& rd, std::string_view section, std::vector<Point>& out, Check check,
                  unsigned max_threads, bool allow_identity = false) {
  constexpr std::size_t n = Point::kUncompressedBytes;
  const std::uint64_t count = read_count<Point>(rd, section);
  out.assign(count, Point{});
  decode_points<Point>(rd, section, count, rd.offset, 0, rd.data.subspan(rd.offset, count * n), out.data(), check,
                       max_threads, allow_identity);
  rd.offset += count * n;
}

/// The rules every generated parameter set obeys (params.hpp "Reading").
void check_params_shape(const Reader& rd, std::size_t h, std::size_t ic, std::size_t a, std::size_t b_g1,
                        std::size_t b_g2) {
  auto is_pow2 = [](std::size_t x) { return x != 0 && (x & (x - 1)) == 0; };
  if (!is_pow2(h + 1)) {
    throw ProoflineError(Error::BadLength, rd.where("h") + ": holds " + std::to_string(h) +
                                               " points; expected m − 1 for a power-of-two domain size m");
  }
  if (a < ic) {
    throw ProoflineError(Error::BadLength, rd.where("a") + ": holds " + std::to_string(a) +
                                               " points, fewer than the " + std::to_string(ic) +
                                               " inputs of ic; expected one per input plus one per aux with A-density");
  }
  if (b_g1 != b_g2) {
    throw ProoflineError(Error::BadLength, rd.where("b_g2") + ": holds " + std::to_string(b_g2) +
                                               " points but b_g1 holds " + std::to_string(b_g1) +
                                               "; expected equal lengths");
  }
}

/// Decodes the vk (points on the curve), then validate_verifying_key checks identities and subgroups
/// with the same rules and field names as every other vk source.
VerifyingKey read_vk(Reader& rd, unsigned max_threads) {
  VerifyingKey vk;
  vk.alpha_g1 = read_point<G1Affine>(rd, "vk.alpha_g1", Check::OnCurveOnly);
  vk.beta_g1 = read_point<G1Affine>(rd, "vk.beta_g1", Check::OnCurveOnly);
  vk.beta_g2 = read_point<G2Affine>(rd, "vk.beta_g2", Check::OnCurveOnly);
  vk.gamma_g2 = read_point<G2Affine>(rd, "vk.gamma_g2", Check::OnCurveOnly);
  vk.delta_g1 = read_point<G1Affine>(rd, "vk.delta_g1", Check::OnCurveOnly);
  vk.delta_g2 = read_point<G2Affine>(rd, "vk.delta_g2", Check::OnCurveOnly);
  read_section(rd, "ic", vk.ic, Check::OnCurveOnly, max_threads, /*allow_identity=*/true);
  validate_verifying_key(vk, std::string(rd.kind) + " file '" + std::string(rd.source) + "'");
  return vk;
}

void expect_end(const Reader& rd, std::string_view last_section) {
  if (rd.offset != rd.data.size()) {
    throw ProoflineError(Error::BadLength, std::string(rd.kind) + " file '" + std::string(rd.source) + "' (" +
                                               std::to_string(rd.data.size()) + " bytes): " +
                                               std::to_string(rd.remaining()) +
                                               " trailing bytes after the last section (" +
                                               std::string(last_section) + ") ending at byte offset " +
                                               std::to_string(rd.offset) + "; expected end of file");
  }
}

// ---- writing -----------------------------------------------------------------------------------
void put_u32(std::vector<std::uint8_t>& out, std::size_t v) {
  if (v > 0xffffffffu) {
    throw ProoflineError(Error::BadLength, "section of " + std::to_string(v) + " points does not fit a u32 count");
  }
  out.push_back(static_cast<std::uint8_t>(v >> 24));
  out.push_back(static_cast<std::uint8_t>(v >> 16));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
  out.push_back(static_cast<std::uint8_t>(v));
}

template <class Point>
void put_point(std::vector<std::uint8_t>& out, const Point& p) {
  constexpr std::size_t n = Point::kUncompressedBytes;
  std::size_t at = out.size();
  out.resize(at + n);
  p.to_uncompressed(std::span<std::uint8_t, n>(out.data() + at, n));
}

template <class Point>
void put_section(std::vector<std::uint8_t>& out, const std::vector<Point>& pts) {
  constexpr std::size_t n = Point::kUncompressedBytes;
  put_u32(out, pts.size());
  std::size_t at = out.size();
  out.resize(at + n * pts.size());
  std::uint8_t* base = out.data() + at;
  auto body = [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      pts[i].to_uncompressed(std::span<std::uint8_t, n>(base + i * n, n));
    }
  };
  if (pts.size() < 1024) {
    body(tbb::blocked_range<std::size_t>(0, pts.size()));
  } else {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pts.size(), 1024), body);
  }
}

void write_vk(std::vector<std::uint8_t>& out, const VerifyingKey& vk) {
  put_point(out, vk.alpha_g1);
  put_point(out, vk.beta_g1);
  put_point(out, vk.beta_g2);
  put_point(out, vk.gamma_g2);
  put_point(out, vk.delta_g1);
  put_point(out, vk.delta_g2);
  put_section(out, vk.ic);
}

}  // namespace

// ---- files -------------------------------------------------------------------------------------
std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
  MappedFile f(path);
  auto b = f.bytes();
  return {b.begin(), b.end()};
}

void write_file_bytes(const std::string& path, std::span<const std::uint8_t> bytes) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) throw std::system_error(errno, std::generic_category(), "cannot create '" + path + "'");
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size()) {
    throw std::system_error(errno, std::generic_category(), "cannot write '" + path + "'");
  }
  if (std::fflush(f.get()) != 0) throw std::system_error(errno, std::generic_category(), "cannot write '" + path + "'");
  FILE* raw = f.release();
  if (std::fclose(raw) != 0) throw std::system_error(errno, std::generic_category(), "cannot close '" + path + "'");
}

// ---- VerifyingKey ------------------------------------------------------------------------------
void VerifyingKey::write(std::vector<std::uint8_t>& out) const {
  out.reserve(out.size() + serialized_size());
  write_vk(out, *this);
}

std::vector<std::uint8_t> VerifyingKey::to_bytes() const {
  std::vector<std::uint8_t> out;
  write(out);
  return out;
}

void VerifyingKey::write_file(const std::string& path) const { write_file_bytes(path, to_bytes()); }

VerifyingKey VerifyingKey::from_bytes(std::span<const std::uint8_t> bytes, std::string_view source) {
  Reader rd{bytes, source, "vk"};
  VerifyingKey vk = read_vk(rd, 0);
  expect_end(rd, "ic");
  return vk;
}

VerifyingKey VerifyingKey::read_file(const std::string& path) {
  MappedFile f(path);
  return from_bytes(f.bytes(), path);
}

VerifyingKey VerifyingKey::read_params_file_head(const std::string& path) {
  MappedFile f(path);
  Reader rd{f.bytes(), path, "params"};
  VerifyingKey vk = read_vk(rd, 0);
  if (rd.offset == rd.data.size()) {
    throw ProoflineError(Error::BadLength, "params file '" + path + "' (" + std::to_string(rd.data.size()) +
                                               " bytes) ends right after its verifying key: it is a verifying-key "
                                               "(.vk) file, not a .params file (whose key is followed by the h, l, "
                                               "a, b_g1 and b_g2 sections)");
  }
  return vk;
}

bool is_verifying_key_file(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size < kVkFixedBytes) return false;
  std::ifstream f(path, std::ios::binary);
  unsigned char b[4] = {};
  if (!f.seekg(static_cast<std::streamoff>(kVkFixedBytes - 4)) || !f.read(reinterpret_cast<char*>(b), 4)) return false;
  const std::uint64_t n = (std::uint64_t{b[0]} << 24) | (std::uint64_t{b[1]} << 16) | (std::uint64_t{b[2]} << 8) | b[3];
  return size == kVkFixedBytes + kG1Uncompressed * n;
}

// ---- Parameters --------------------------------------------------------------------------------
std::size_t Parameters::serialized_size() const noexcept {
  return vk.serialized_size() + 20 + kG1Uncompressed * (h_len() + l_len() + a_len() + b_g1_len()) +
         kG2Uncompressed * b_g2_len();
}

namespace {
void require_bellperson_h(const Parameters& p, const char* op) {
  if (!p.has_host_queries()) {
    throw std::logic_error(std::string("Parameters::") + op + ": these parameters hold no host queries (they stay in '" +
                           p.source->path() + "'); read them whole (ParamsFile::read_parameters) to re-encode");
  }
  if (p.h_form != HForm::Bellperson) {
    throw std::logic_error(std::string("Parameters::") + op +
                           ": these parameters hold snarkjs' odd-coset H query (from a zkey); only bellperson's "
                           "form has a .params encoding");
  }
}
}  // namespace

void Parameters::write(std::vector<std::uint8_t>& out) const {
  require_bellperson_h(*this, "write");
  out.reserve(out.size() + serialized_size());
  ParamsWriter w(out);
  stream_to(w);
}

std::vector<std::uint8_t> Parameters::to_bytes() const {
  std::vector<std::uint8_t> out;
  write(out);
  return out;
}

void Parameters::write_file(const std::string& path) const {
  require_bellperson_h(*this, "write_file");
  ParamsWriter w(path);
  stream_to(w);
}

void Parameters::stream_to(ParamsSink& sink) const {
  require_bellperson_h(*this, "stream_to");
  sink.vk(vk);
  sink.begin(ParamsSection::H, h.size());
  sink.append(std::span<const G1Affine>(h));
  sink.begin(ParamsSection::L, l.size());
  sink.append(std::span<const G1Affine>(l));
  sink.begin(ParamsSection::A, a.size());
  sink.append(std::span<const G1Affine>(a));
  sink.begin(ParamsSection::BG1, b_g1.size());
  sink.append(std::span<const G1Affine>(b_g1));
  sink.begin(ParamsSection::BG2, b_g2.size());
  sink.append(std::span<const G2Affine>(b_g2));
  sink.finish();
}

// ---- streamed .params --------------------------------------------------------------------------
std::string_view to_string(ParamsSection s) noexcept {
  switch (s) {
    case ParamsSection::H: return "h";
    case ParamsSection::L: return "l";
    case ParamsSection::A: return "a";
    case ParamsSection::BG1: return "b_g1";
    case ParamsSection::BG2: return "b_g2";
  }
  return "?";
}

namespace {
constexpr int kSections = 5;
std::string section_name(int i) { return std::string(to_string(static_cast<ParamsSection>(i))); }
}  // namespace

void ParamsSink::vk(const VerifyingKey& vk) {
  if (next_ != -1) throw std::logic_error("ParamsSink::vk: the verifying key comes first, once");
  on_vk(vk);
  next_ = 0;
}

void ParamsSink::close_section(const char* why) {
  if (!open_) return;
  if (given_ != count_) {
    throw ProoflineError(Error::BadLength, "params stream: section " + section_name(next_ - 1) + ": " +
                                               std::to_string(given_) + " points appended, expected " +
                                               std::to_string(count_) + " (" + why + ")");
  }
  open_ = false;
}

void ParamsSink::begin(ParamsSection s, std::size_t count) {
  close_section("at the next section");
  const int i = static_cast<int>(s);
  if (next_ != i) {
    throw std::logic_error("ParamsSink::begin(" + section_name(i) + "): expected " +
                           (next_ < 0 ? std::string("the verifying key")
                                      : next_ < kSections ? "section " + section_name(next_) : std::string("finish()")));
  }
  if (count > 0xffffffffu) {
    throw ProoflineError(Error::BadLength, "params stream: section " + section_name(i) + " of " + std::to_string(count) +
                                               " points does not fit a u32 count");
  }
  on_begin(s, count);
  next_ = i + 1;
  open_ = true;
  count_ = count;
  given_ = 0;
}

void ParamsSink::accept(std::size_t n, bool g2) {
  if (!open_) throw std::logic_error("ParamsSink::append: no section is open (begin() first)");
  const bool want_g2 = next_ - 1 == static_cast<int>(ParamsSection::BG2);
  if (g2 != want_g2) {
    throw std::logic_error("ParamsSink::append: section " + section_name(next_ - 1) + " holds " +
                           (want_g2 ? "G2" : "G1") + " points");
  }
  if (n > count_ - given_) {
    throw ProoflineError(Error::BadLength, "params stream: section " + section_name(next_ - 1) + ": " +
                                               std::to_string(given_ + n) + " points appended, expected " +
                                               std::to_string(count_));
  }
}

void ParamsSink::append(std::span<const G1Affine> points) {
  accept(points.size(), false);
  if (!points.empty()) on_append(points);
  given_ += points.size();
}

void ParamsSink::append(std::span<const G2Affine> points) {
  accept(points.size(), true);
  if (!points.empty()) on_append(points);
  given_ += points.size();
}

void ParamsSink::finish() {
  close_section("at finish()");
  if (next_ != kSections) {
    throw std::logic_error("ParamsSink::finish: " + (next_ < 0 ? std::string("the verifying key")
                                                               : "section " + section_name(std::min(next_, kSections - 1))) +
                           " not given yet");
  }
  on_finish();
  next_ = kSections + 1;
}

ParamsWriter::ParamsWriter(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) throw std::system_error(errno, std::generic_category(), "cannot create '" + path + "'");
}

ParamsWriter::ParamsWriter(std::vector<std::uint8_t>& out) : out_(&out) {}

ParamsWriter::~ParamsWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void ParamsWriter::emit(std::span<const std::uint8_t> bytes) {
  if (out_ != nullptr) {
    out_->insert(out_->end(), bytes.begin(), bytes.end());
  } else if (file_ != nullptr && !bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    throw std::system_error(errno, std::generic_category(), "cannot write '" + path_ + "'");
  }
  written_ += bytes.size();
}

void ParamsWriter::on_vk(const VerifyingKey& vk) {
  buf_.clear();
  write_vk(buf_, vk);
  emit(buf_);
}

void ParamsWriter::on_begin(ParamsSection, std::size_t count) {
  buf_.clear();
  put_u32(buf_, count);
  emit(buf_);
}

namespace {
/// Encodes `pts` (uncompressed) in pieces of at most 2^18 points, each passed to `emit`.
template <class Point, class Emit>
void encode_points(std::vector<std::uint8_t>& buf, std::span<const Point> pts, Emit&& emit) {
  constexpr std::size_t n = Point::kUncompressedBytes;
  constexpr std::size_t kPiece = std::size_t{1} << 18;
  for (std::size_t base = 0; base < pts.size(); base += kPiece) {
    const std::size_t len = std::min(kPiece, pts.size() - base);
    buf.resize(len * n);
    auto body = [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        pts[base + i].to_uncompressed(std::span<std::uint8_t, n>(buf.data() + i * n, n));
      }
    };
    if (len < 1024) {
      body(tbb::blocked_range<std::size_t>(0, len));
    } else {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, len, 1024), body);
    }
    emit(std::span<const std::uint8_t>(buf));
  }
}
}  // namespace

void ParamsWriter::on_append(std::span<const G1Affine> points) {
  encode_points(buf_, points, [&](std::span<const std::uint8_t> b) { emit(b); });
}

void ParamsWriter::on_append(std::span<const G2Affine> points) {
  encode_points(buf_, points, [&](std::span<const std::uint8_t> b) { emit(b); });
}

void ParamsWriter::on_finish() {
  std::vector<std::uint8_t>().swap(buf_);
  if (file_ == nullptr) return;
  std::FILE* f = std::exchange(file_, nullptr);
  if (std::fflush(f) != 0) {
    const int e = errno;
    std::fclose(f);
    throw std::system_error(e, std::generic_category(), "cannot write '" + path_ + "'");
  }
  if (std::fclose(f) != 0) throw std::system_error(errno, std::generic_category(), "cannot close '" + path_ + "'");
}

void ParamsCollector::on_begin(ParamsSection s, std::size_t count) {
  switch (s) {
    case ParamsSection::H: g1_ = &p_.h; break;
    case ParamsSection::L: g1_ = &p_.l; break;
    case ParamsSection::A: g1_ = &p_.a; break;
    case ParamsSection::BG1: g1_ = &p_.b_g1; break;
    case ParamsSection::BG2:
      g1_ = nullptr;
      p_.b_g2.reserve(count);
      return;
  }
  g1_->reserve(count);
}

void ParamsCollector::on_append(std::span<const G1Affine> points) { g1_->insert(g1_->end(), points.begin(), points.end()); }

void ParamsCollector::on_append(std::span<const G2Affine> points) {
  p_.b_g2.insert(p_.b_g2.end(), points.begin(), points.end());
}

Parameters Parameters::from_bytes(std::span<const std::uint8_t> bytes, const ReadOptions& opts,
                                  std::string_view source) {
  Reader rd{bytes, source, "params"};
  Parameters p;
  p.vk = read_vk(rd, opts.max_threads);
  read_section(rd, "h", p.h, opts.check, opts.max_threads);
  read_section(rd, "l", p.l, opts.check, opts.max_threads);
  read_section(rd, "a", p.a, opts.check, opts.max_threads);
  read_section(rd, "b_g1", p.b_g1, opts.check, opts.max_threads);
  read_section(rd, "b_g2", p.b_g2, opts.check, opts.max_threads);
  expect_end(rd, "b_g2");
  check_params_shape(rd, p.h.size(), p.vk.ic.size(), p.a.size(), p.b_g1.size(), p.b_g2.size());
  return p;
}

Parameters Parameters::read_file(const std::string& path, const ReadOptions& opts) {
  MappedFile f(path);
  return from_bytes(f.bytes(), opts, path);
}

// ---- queries off the host -----------------------------------------------------------------------
std::size_t Parameters::h_len() const noexcept { return source ? source->count(ParamsSection::H) : h.size(); }
std::size_t Parameters::l_len() const noexcept { return source ? source->count(ParamsSection::L) : l.size(); }
std::size_t Parameters::a_len() const noexcept { return source ? source->count(ParamsSection::A) : a.size(); }
std::size_t Parameters::b_g1_len() const noexcept {
  return source ? source->count(ParamsSection::BG1) : b_g1.size();
}
std::size_t Parameters::b_g2_len() const noexcept {
  return source ? source->count(ParamsSection::BG2) : b_g2.size();
}
std::size_t Parameters::query_bytes() const noexcept {
  return sizeof(G1Affine) * (h_len() + l_len() + a_len() + b_g1_len()) + sizeof(G2Affine) * b_g2_len();
}

// ---- ParamsFile ------------------------------------------------------------------------------------
namespace {
Reader file_reader(const std::uint8_t* map, std::uint64_t size, const std::string& path) {
  return Reader{std::span<const std::uint8_t>(map, size), path, "params"};
}
}  // namespace

ParamsFile::ParamsFile(const std::string& path, const ReadOptions& opts) : path_(path), opts_(opts) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "cannot open '" + path + "'");
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int e = errno;
    ::close(fd_);
    throw std::system_error(e, std::generic_category(), "cannot stat '" + path + "'");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
  if (size_ > 0) {
    void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (m == MAP_FAILED) {
      const int e = errno;
      ::close(fd_);
      throw std::system_error(e, std::generic_category(), "cannot mmap '" + path + "'");
    }
    map_ = static_cast<const std::uint8_t*>(m);
    ::madvise(m, size_, MADV_RANDOM);  // only the vk, the counts and bad points are read through it
  }
  try {
    Reader rd = file_reader(map_, size_, path_);
    vk_ = read_vk(rd, opts_.max_threads);
    for (int k = 0; k < kSections; ++k) {
      const bool g2 = k == static_cast<int>(ParamsSection::BG2);
      const std::string name = section_name(k);
      Section& sec = sections_[k];
      sec.count = g2 ? read_count<G2Affine>(rd, name) : read_count<G1Affine>(rd, name);
      sec.point_bytes = g2 ? kG2Uncompressed : kG1Uncompressed;
      sec.offset = rd.offset;
      rd.offset += sec.bytes();
    }
    expect_end(rd, "b_g2");
    check_params_shape(rd, sections_[0].count, vk_.ic.size(), sections_[2].count, sections_[3].count,
                       sections_[4].count);
  } catch (...) {
    if (map_ != nullptr) ::munmap(const_cast<std::uint8_t*>(map_), size_);
    ::close(fd_);
    throw;
  }
}

ParamsFile::~ParamsFile() {
  if (map_ != nullptr) ::munmap(const_cast<std::uint8_t*>(map_), size_);
  if (fd_ >= 0) ::close(fd_);
}

void ParamsFile::read_points(ParamsSection s, std::uint64_t first, std::uint64_t n, std::span<std::uint8_t> dst) const {
  const Section& sec = section(s);
  if (first > sec.count || n > sec.count - first || dst.size() != n * sec.point_bytes) {
    throw std::out_of_range("ParamsFile::read_points: points [" + std::to_string(first) + ", " +
                            std::to_string(first + n) + ") of a section of " + std::to_string(sec.count) + " in '" +
                            path_ + "' into " + std::to_string(dst.size()) + " bytes");
  }
  read(sec.offset + first * sec.point_bytes, dst);
}

void ParamsFile::read(std::uint64_t offset, std::span<std::uint8_t> dst) const {
  if (offset > size_ || dst.size() > size_ - offset) {
    throw std::out_of_range("ParamsFile::read: bytes [" + std::to_string(offset) + ", " +
                            std::to_string(offset + dst.size()) + ") outside '" + path_ + "' (" +
                            std::to_string(size_) + " bytes)");
  }
  constexpr std::size_t kPiece = std::size_t{8} << 20;
  const std::size_t pieces = (dst.size() + kPiece - 1) / kPiece;
  auto one = [&](std::size_t k) {
    std::size_t at = k * kPiece;
    const std::size_t end = std::min(dst.size(), at + kPiece);
    while (at < end) {
      const ssize_t got = ::pread(fd_, dst.data() + at, end - at, static_cast<off_t>(offset + at));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        throw std::system_error(got < 0 ? errno : EIO, std::generic_category(),
                                "cannot read '" + path_ + "' at byte offset " + std::to_string(offset + at));
      }
      at += static_cast<std::size_t>(got);
    }
  };
  if (pieces <= 1 || opts_.max_threads == 1) {
    for (std::size_t k = 0; k < pieces; ++k) one(k);
  } else {
    run_with_threads(opts_.max_threads, [&] { tbb::parallel_for(std::size_t{0}, pieces, one); });
  }
}

std::span<const std::uint8_t> ParamsFile::point_bytes(ParamsSection s, std::uint64_t first, std::uint64_t n) const {
  const Section& sec = section(s);
  if (first > sec.count || n > sec.count - first) {
    throw std::out_of_range("ParamsFile::point_bytes: points [" + std::to_string(first) + ", " +
                            std::to_string(first + n) + ") outside section " + std::string(to_string(s)) + " of " +
                            std::to_string(sec.count));
  }
  return {map_ + sec.offset + first * sec.point_bytes, n * sec.point_bytes};
}

void ParamsFile::decode_g1(ParamsSection s, std::uint64_t first, std::span<const std::uint8_t> bytes,
                           G1Affine* out) const {
  if (s == ParamsSection::BG2) throw std::logic_error("ParamsFile::decode_g1: section b_g2 holds G2 points");
  const Section& sec = section(s);
  decode_points<G1Affine>(file_reader(map_, size_, path_), to_string(s), sec.count, sec.offset, first, bytes, out,
                          opts_.check, opts_.max_threads);
}

void ParamsFile::decode_g2(std::uint64_t first, std::span<const std::uint8_t> bytes, G2Affine* out) const {
  const Section& sec = section(ParamsSection::BG2);
  decode_points<G2Affine>(file_reader(map_, size_, path_), "b_g2", sec.count, sec.offset, first, bytes, out,
                          opts_.check, opts_.max_threads);
}

void ParamsFile::throw_bad_point(ParamsSection s, std::uint64_t index) const {
  const auto bytes = point_bytes(s, index, 1);
  if (s == ParamsSection::BG2) {
    G2Affine p;
    decode_g2(index, bytes, &p);
  } else {
    G1Affine p;
    decode_g1(s, index, bytes, &p);
  }
  throw std::logic_error("params file '" + path_ + "': section " + std::string(to_string(s)) + ", element " +
                         std::to_string(index) + " was reported bad but decodes on the CPU");
}

Parameters ParamsFile::read_parameters(std::size_t chunk_bytes) const {
  Parameters p;
  p.vk = vk_;
  std::vector<std::uint8_t> buf[2];
  for (int k = 0; k < kSections; ++k) {
    const auto s = static_cast<ParamsSection>(k);
    const Section& sec = sections_[k];
    const std::uint64_t per = std::max<std::uint64_t>(1, chunk_bytes / sec.point_bytes);
    const std::uint64_t chunks = (sec.count + per - 1) / per;
    G1Affine* g1 = nullptr;
    switch (s) {
      case ParamsSection::H: p.h.resize(sec.count); g1 = p.h.data(); break;
      case ParamsSection::L: p.l.resize(sec.count); g1 = p.l.data(); break;
      case ParamsSection::A: p.a.resize(sec.count); g1 = p.a.data(); break;
      case ParamsSection::BG1: p.b_g1.resize(sec.count); g1 = p.b_g1.data(); break;
      case ParamsSection::BG2: p.b_g2.resize(sec.count); break;
    }
    auto span_of = [&](std::uint64_t c) {
      const std::uint64_t first = c * per, n = std::min(per, sec.count - first);
      buf[c & 1].resize(n * sec.point_bytes);
      return std::pair{first, std::span<std::uint8_t>(buf[c & 1])};
    };
    if (chunks == 0) continue;
    auto cur = span_of(0);
    read(sec.offset, cur.second);
    for (std::uint64_t c = 0; c < chunks; ++c) {
      // the next chunk is read while this one is decoded
      std::future<void> next;
      std::pair<std::uint64_t, std::span<std::uint8_t>> nxt{};
      if (c + 1 < chunks) {
        nxt = span_of(c + 1);
        next = std::async(std::launch::async,
                          [&, nxt] { read(sec.offset + nxt.first * sec.point_bytes, nxt.second); });
      }
      if (s == ParamsSection::BG2) {
        decode_g2(cur.first, cur.second, p.b_g2.data() + cur.first);
      } else {
        decode_g1(s, cur.first, cur.second, g1 + cur.first);
      }
      if (next.valid()) next.get();
      cur = nxt;
    }
  }
  return p;
}

Parameters ParamsFile::shell(std::shared_ptr<const ParamsFile> self) {
  if (!self) throw std::invalid_argument("ParamsFile::shell: no file");
  Parameters p;
  p.vk = self->vk();
  p.source = std::move(self);
  return p;
}

namespace {
std::atomic<HostQueries> g_host_queries{HostQueries::Keep};
}  // namespace

void set_host_queries(HostQueries h) noexcept { g_host_queries.store(h); }
HostQueries host_queries() noexcept { return g_host_queries.load(); }

Parameters load_parameters(const std::string& path, const ReadOptions& opts) {
  if (host_queries() == HostQueries::LeaveInFile) return ParamsFile::shell(std::make_shared<const ParamsFile>(path, opts));
  return Parameters::read_file(path, opts);
}

}  // namespace proofline::groth16
