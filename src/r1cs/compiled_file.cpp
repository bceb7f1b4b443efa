// The on-disk form of a CompiledCircuit: atomic write, mapped and checked read
// (include/proofline/r1cs/compiled_file.hpp).
#include "proofline/r1cs/compiled_file.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <openssl/evp.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proofline/util/error.hpp"
#include "proofline/util/hex.hpp"

namespace proofline::r1cs {

static_assert(std::endian::native == std::endian::little,
              "the compiled file's arrays are little-endian and used in place");

namespace {

constexpr std::uint64_t kDigestOffset = 80;
constexpr std::uint64_t kDigestBytes = 32;
constexpr std::uint64_t kChunkLog2Offset = 112;   // version 2: u32 L (compiled_file.hpp)
constexpr unsigned kMinChunkLog2 = 6, kMaxChunkLog2 = 40;
constexpr std::uint64_t kMaxDigestChunks = std::uint64_t{1} << 20;  // 32 MiB of chunk digests at most
constexpr const char* kMatrixName[3] = {"A", "B", "C"};
using Digest = std::array<std::uint8_t, kDigestBytes>;

// ---- layout ----------------------------------------------------------------------------------

std::uint64_t words_of(std::uint64_t bits) { return bits / 64 + (bits % 64 != 0); }

// Section offsets of a shape; 128-bit arithmetic, so that no count read from a file can overflow it.
struct Layout {
  unsigned __int128 coeffs = kCompiledHeaderBytes;
  std::array<unsigned __int128, 3> rows{}, cols{}, idx{};
  std::array<unsigned __int128, 3> dens{};  // a_aux, b_input, b_aux
  unsigned __int128 total = 0;
};

unsigned __int128 pad8(unsigned __int128 x) { return (x + 7) & ~static_cast<unsigned __int128>(7); }

Layout layout_of(const CompiledShape& s) {
  Layout l;
  unsigned __int128 at = l.coeffs + static_cast<unsigned __int128>(s.coefficients) * 32;
  for (int m = 0; m < 3; ++m) {
    l.rows[m] = at;
    l.cols[m] = l.rows[m] + (static_cast<unsigned __int128>(s.constraints) + 1) * sizeof(RowOffset);
    l.idx[m] = l.cols[m] + static_cast<unsigned __int128>(s.nnz[m]) * sizeof(Column);
    at = pad8(l.idx[m] + static_cast<unsigned __int128>(s.nnz[m]) * sizeof(CoeffIndex));
  }
  const std::uint64_t bits[3] = {s.aux, s.inputs, s.aux};
  for (int d = 0; d < 3; ++d) {
    l.dens[d] = at;
    at += static_cast<unsigned __int128>(words_of(bits[d])) * 8;
  }
  l.total = at;
  return l;
}

std::string u128(unsigned __int128 x) {
  if (x <= UINT64_MAX) return std::to_string(static_cast<std::uint64_t>(x));
  return "more than 2^64";
}

// ---- SHA-256 ---------------------------------------------------------------------------------

class Sha256 {
 public:
  Sha256() {
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1) fail();
  }
  void update(const void* p, std::size_t n) {
    if (n != 0 && EVP_DigestUpdate(ctx_.get(), p, n) != 1) fail();
  }
  Digest final() {
    Digest d{};
    unsigned len = 0;
    if (EVP_DigestFinal_ex(ctx_.get(), d.data(), &len) != 1 || len != d.size()) fail();
    return d;
  }

 private:
  [[noreturn]] static void fail() { throw std::runtime_error("OpenSSL SHA-256 failed"); }
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
};

// Version 2's digest (compiled_file.hpp): SHA-256 over the header (digest field zero) and the SHA-256
// of each 2^L-byte chunk of the bytes after it. The writer feeds the bytes in order (update); the
// reader hashes the chunks on every core and calls top().
class ChunkedDigest {
 public:
  explicit ChunkedDigest(unsigned log2) : chunk_(std::uint64_t{1} << log2) {}
  void update(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    while (n > 0) {
      if (!cur_) cur_ = std::make_unique<Sha256>();
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, chunk_ - in_chunk_));
      cur_->update(b, take);
      b += take;
      n -= take;
      in_chunk_ += take;
      if (in_chunk_ == chunk_) close_chunk();
    }
  }
  /// `header`: the 128 header bytes with the digest field zero.
  Digest final(const std::uint8_t* header) {
    if (cur_) close_chunk();
    return top(header, leaves_);
  }
  static Digest top(const std::uint8_t* header, const std::vector<Digest>& leaves) {
    Sha256 h;
    h.update(header, kCompiledHeaderBytes);
    for (const Digest& d : leaves) h.update(d.data(), d.size());
    return h.final();
  }

 private:
  void close_chunk() {
    leaves_.push_back(cur_->final());
    cur_.reset();
    in_chunk_ = 0;
  }
  std::uint64_t chunk_;
  std::uint64_t in_chunk_ = 0;
  std::unique_ptr<Sha256> cur_;
  std::vector<Digest> leaves_;
};

// ---- header ----------------------------------------------------------------------------------

// Little-endian integers at p (the host is little-endian, static_assert above).
template <class T>
void store(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
template <class T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The shape fields: (offset, name) in header order.
struct ShapeField {
  std::uint64_t offset;
  const char* name;
};
constexpr ShapeField kShapeFields[] = {{16, "constraints"}, {24, "inputs"},  {32, "aux"},         {40, "nnz of A"},
                                       {48, "nnz of B"},    {56, "nnz of C"}, {64, "coefficients"}};

std::array<std::uint64_t*, 7> shape_slots(CompiledShape& s) {
  return {&s.constraints, &s.inputs, &s.aux, &s.nnz[0], &s.nnz[1], &s.nnz[2], &s.coefficients};
}

// ---- writing ---------------------------------------------------------------------------------

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

class TempFile {
 public:
  explicit TempFile(const std::string& path) : path_(path), temp_(path + ".tmp-XXXXXX") {
    fd_ = ::mkstemp(temp_.data());
    if (fd_ < 0) throw_errno("compiled circuit " + path + ": cannot create a temporary file beside it");
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) ::unlink(temp_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void write_at(std::uint64_t offset, const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    while (n > 0) {
      const ssize_t w = ::pwrite(fd_, b, n, static_cast<off_t>(offset));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) throw_errno("compiled circuit " + path_ + ": write to " + temp_);
      b += w;
      n -= static_cast<std::size_t>(w);
      offset += static_cast<std::uint64_t>(w);
    }
  }
  void commit() {
    if (::fchmod(fd_, 0644) != 0 || ::fsync(fd_) != 0) throw_errno("compiled circuit " + path_ + ": sync " + temp_);
    if (::close(std::exchange(fd_, -1)) != 0) throw_errno("compiled circuit " + path_ + ": close " + temp_);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) throw_errno("compiled circuit " + path_ + ": rename " + temp_);
    temp_.clear();
  }

 private:
  std::string path_, temp_;
  int fd_ = -1;
};

// Appends sections to the temporary file and hashes them.
class SectionWriter {
 public:
  SectionWriter(TempFile& f, ChunkedDigest& h) : f_(f), h_(h) {}
  void put(const void* p, std::size_t n) {
    f_.write_at(at_, p, n);
    h_.update(p, n);
    at_ += n;
  }
  void pad8() {
    static constexpr std::uint8_t zeros[8] = {};
    if (at_ % 8 != 0) put(zeros, 8 - at_ % 8);
  }
  std::uint64_t at() const noexcept { return at_; }

 private:
  TempFile& f_;
  ChunkedDigest& h_;
  std::uint64_t at_ = kCompiledHeaderBytes;
};

}  // namespace

std::uint64_t write_compiled_circuit(const std::string& path, const CompiledCircuit& circuit,
                                     unsigned digest_chunk_log2) {
  if (digest_chunk_log2 < kMinChunkLog2 || digest_chunk_log2 > kMaxChunkLog2) {
    throw std::invalid_argument("write_compiled_circuit: digest chunk log2 " + std::to_string(digest_chunk_log2) +
                                ", expected " + std::to_string(kMinChunkLog2) + " to " + std::to_string(kMaxChunkLog2));
  }
  CompiledShape s = circuit.shape();
  if (s.c_is_ab) {
    throw ProoflineError(Error::BadArgument, "compiled circuit '" + path +
                                                 "': a circuit whose c is a·b (a snarkjs zkey's) is made from "
                                                 "its zkey, not written to a file");
  }
  const Layout layout = layout_of(s);
  // The reader refuses more than kMaxDigestChunks chunks: never write a file it would refuse.
  const unsigned __int128 body = layout.total - kCompiledHeaderBytes, chunk = std::uint64_t{1} << digest_chunk_log2;
  if ((body + chunk - 1) / chunk > kMaxDigestChunks) {
    throw std::invalid_argument("write_compiled_circuit: " + u128(layout.total) + " bytes in chunks of 2^" +
                                std::to_string(digest_chunk_log2) + " bytes are more than the " +
                                std::to_string(kMaxDigestChunks) + " digest chunks a reader takes");
  }
  std::array<std::uint8_t, kCompiledHeaderBytes> header{};
  std::memcpy(header.data(), kCompiledMagic, 8);
  store<std::uint32_t>(header.data() + 8, kCompiledVersion);
  store<std::uint32_t>(header.data() + 12, static_cast<std::uint32_t>(kCompiledHeaderBytes));
  const auto slots = shape_slots(s);
  for (std::size_t f = 0; f < slots.size(); ++f)
    store<std::uint64_t>(header.data() + kShapeFields[f].offset, *slots[f]);
  store<std::uint64_t>(header.data() + 72, static_cast<std::uint64_t>(layout.total));
  store<std::uint32_t>(header.data() + kChunkLog2Offset, digest_chunk_log2);

  TempFile file(path);
  ChunkedDigest hash(digest_chunk_log2);
  SectionWriter out(file, hash);
  std::vector<std::uint8_t> coeffs(circuit.coefficients().size() * 32);
  for (std::size_t k = 0; k < circuit.coefficients().size(); ++k) {
    circuit.coefficients()[k].to_bytes_le(std::span<std::uint8_t, 32>(coeffs.data() + 32 * k, 32));
  }
  out.put(coeffs.data(), coeffs.size());
  for (int m = 0; m < 3; ++m) {
    const SparseRows& rows = circuit.matrix(m);
    out.put(rows.row_offsets.data(), rows.row_offsets.size_bytes());
    out.put(rows.cols.data(), rows.cols.size_bytes());
    out.put(rows.coeff_index.data(), rows.coeff_index.size_bytes());
    out.pad8();
  }
  for (const DensityTracker* d : {&circuit.a_aux_density(), &circuit.b_input_density(), &circuit.b_aux_density()}) {
    out.put(d->words().data(), d->words().size_bytes());
  }
  if (out.at() != layout.total) {
    throw std::logic_error("write_compiled_circuit: wrote " + std::to_string(out.at()) + " bytes, the layout says " +
                           u128(layout.total));
  }
  const Digest digest = hash.final(header.data());  // the digest field still zero
  std::memcpy(header.data() + kDigestOffset, digest.data(), digest.size());
  file.write_at(0, header.data(), header.size());
  file.commit();
  return out.at();
}

// ---- reading ---------------------------------------------------------------------------------

namespace {

struct Mapping {
  void* p = MAP_FAILED;
  std::size_t n = 0;
  ~Mapping() {
    if (p != MAP_FAILED) ::munmap(p, n);
  }
  const std::uint8_t* bytes() const noexcept { return static_cast<const std::uint8_t*>(p); }
};

class Reader {
 public:
  Reader(const std::string& path, const CompiledReadOptions& options) : path_(path), options_(options) {}

  CompiledCircuit read() {
    map();
    check_header();
    check_size();
    check_digest();
    check_expected();
    return build();
  }

 private:
  [[noreturn]] void fail(Error code, const std::string& what) const {
    throw ProoflineError(code, "compiled circuit " + path_ + ": " + what);
  }
  [[noreturn]] void malformed(const std::string& what) const { fail(Error::Malformed, what); }

  void map() {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw_errno("compiled circuit " + path_ + ": open");
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const int e = errno;
      ::close(fd);
      throw std::system_error(e, std::generic_category(), "compiled circuit " + path_ + ": stat");
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      malformed("not a regular file");
    }
    if (size_ > options_.max_bytes) {
      ::close(fd);
      malformed(std::to_string(size_) + " bytes, more than the " + std::to_string(options_.max_bytes) +
                " allowed (CompiledReadOptions::max_bytes)");
    }
    if (size_ < kCompiledHeaderBytes) {
      ::close(fd);
      malformed("truncated: " + std::to_string(size_) + " bytes, the header alone is " +
                std::to_string(kCompiledHeaderBytes));
    }
    map_ = std::make_shared<Mapping>();
    map_->p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    const int e = errno;
    ::close(fd);
    if (map_->p == MAP_FAILED)
      throw std::system_error(e, std::generic_category(), "compiled circuit " + path_ + ": mmap");
    map_->n = size_;
    base_ = map_->bytes();
  }

  void check_header() {
    if (std::memcmp(base_, kCompiledMagic, 8) != 0) {
      malformed("bad magic at offset 0: got " + to_hex(std::span(base_, 8)) + ", expected " +
                to_hex(std::span(reinterpret_cast<const std::uint8_t*>(kCompiledMagic), 8)) +
                " (\"PLCCIRC\"): not a compiled circuit");
    }
    version_ = load<std::uint32_t>(base_ + 8);
    if (version_ != 1 && version_ != kCompiledVersion) {
      malformed("version " + std::to_string(version_) + " at offset 8; this build reads versions 1 and " +
                std::to_string(kCompiledVersion));
    }
    if (const std::uint32_t h = load<std::uint32_t>(base_ + 12); h != kCompiledHeaderBytes) {
      malformed("header bytes " + std::to_string(h) + " at offset 12, expected " +
                std::to_string(kCompiledHeaderBytes));
    }
    std::uint64_t reserved = kChunkLog2Offset;
    if (version_ >= 2) {
      chunk_log2_ = load<std::uint32_t>(base_ + kChunkLog2Offset);
      if (chunk_log2_ < kMinChunkLog2 || chunk_log2_ > kMaxChunkLog2) {
        malformed("digest chunk log2 " + std::to_string(chunk_log2_) + " at offset 112, expected " +
                  std::to_string(kMinChunkLog2) + " to " + std::to_string(kMaxChunkLog2));
      }
      reserved += 4;
    }
    for (std::uint64_t o = reserved; o < kCompiledHeaderBytes; ++o) {
      if (base_[o] != 0) malformed("reserved header byte at offset " + std::to_string(o) + " is not zero");
    }
    const auto slots = shape_slots(shape_);
    for (std::size_t f = 0; f < slots.size(); ++f) *slots[f] = load<std::uint64_t>(base_ + kShapeFields[f].offset);
  }

  void check_size() {
    const CompiledShape& s = shape_;
    auto limit = [&](bool ok, const std::string& what) {
      if (!ok) malformed(what + " (header offsets 16..71: corrupt header)");
    };
    limit(s.inputs >= 1, "inputs 0: ONE is input 0");
    limit(s.constraints >= s.inputs, "constraints " + std::to_string(s.constraints) + " fewer than inputs " +
                                         std::to_string(s.inputs) + " (one input constraint each)");
    limit(s.inputs <= 0xffffffffull && s.aux <= 0xffffffffull && s.inputs + s.aux <= 0xffffffffull,
          "inputs + aux " + std::to_string(s.inputs) + " + " + std::to_string(s.aux) + " beyond the u32 columns");
    for (int m = 0; m < 3; ++m) {
      limit(s.nnz[m] <= std::numeric_limits<RowOffset>::max(),
            "nnz of " + std::string(kMatrixName[m]) + " " + std::to_string(s.nnz[m]) + " beyond the u32 row offsets");
    }
    limit(s.coefficients >= 2 && s.coefficients <= CompiledCircuit::kMaxCoefficients,
          "coefficients " + std::to_string(s.coefficients) + " outside [2, " +
              std::to_string(CompiledCircuit::kMaxCoefficients) + "]");
    layout_ = layout_of(s);
    const std::uint64_t stated = load<std::uint64_t>(base_ + 72);
    if (layout_.total != size_ || stated != size_) {
      std::string what = size_ < layout_.total ? "truncated: " : "";
      malformed(what + "the file is " + std::to_string(size_) + " bytes, but its header describes " +
                u128(layout_.total) + " (file bytes at offset 72: " + std::to_string(stated) + "; constraints " +
                std::to_string(s.constraints) + ", inputs " + std::to_string(s.inputs) + ", aux " +
                std::to_string(s.aux) + ", nnz " + std::to_string(s.nnz[0]) + "/" + std::to_string(s.nnz[1]) + "/" +
                std::to_string(s.nnz[2]) + ", coefficients " + std::to_string(s.coefficients) + ")");
    }
  }

  void check_digest() {
    const Digest got = version_ == 1 ? digest_v1() : digest_v2();
    if (std::memcmp(got.data(), base_ + kDigestOffset, kDigestBytes) != 0) {
      malformed("digest mismatch: the SHA-256 at offset 80 is " +
                to_hex(std::span(base_ + kDigestOffset, kDigestBytes)) + ", the content hashes to " + to_hex(got) +
                ": the file is corrupt");
    }
  }

  // Version 1: SHA-256 of the whole file, the digest field read as zero (one core).
  Digest digest_v1() const {
    static constexpr std::uint8_t zeros[kDigestBytes] = {};
    Sha256 h;
    h.update(base_, kDigestOffset);
    h.update(zeros, kDigestBytes);
    h.update(base_ + kDigestOffset + kDigestBytes, size_ - kDigestOffset - kDigestBytes);
    return h.final();
  }

  // Version 2: the chunks after the header hashed in parallel (their pages faulted in on every
  // core too), then the top hash over the header and the chunk digests.
  Digest digest_v2() const {
    const std::uint64_t chunk = std::uint64_t{1} << chunk_log2_, body = size_ - kCompiledHeaderBytes;
    const std::uint64_t chunks = (body >> chunk_log2_) + ((body & (chunk - 1)) != 0);
    if (chunks > kMaxDigestChunks) {
      malformed(std::to_string(chunks) + " digest chunks of 2^" + std::to_string(chunk_log2_) +
                " bytes (log2 at offset 112), more than the " + std::to_string(kMaxDigestChunks) + " allowed");
    }
    std::vector<Digest> leaves(static_cast<std::size_t>(chunks));
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, leaves.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        const std::uint64_t at = kCompiledHeaderBytes + i * chunk;
        Sha256 h;
        h.update(base_ + at, static_cast<std::size_t>(std::min(chunk, size_ - at)));
        leaves[i] = h.final();
      }
    });
    std::array<std::uint8_t, kCompiledHeaderBytes> header{};
    std::memcpy(header.data(), base_, header.size());
    std::fill(header.begin() + kDigestOffset, header.begin() + kDigestOffset + kDigestBytes, 0);
    return ChunkedDigest::top(header.data(), leaves);
  }

  void check_expected() {
    if (!options_.expected) return;
    const CircuitShape& e = *options_.expected;
    const std::uint64_t got[3] = {shape_.constraints, shape_.inputs, shape_.aux};
    const std::uint64_t want[3] = {e.constraints, e.inputs, e.aux};
    for (int f = 0; f < 3; ++f) {
      if (got[f] != want[f]) {
        fail(Error::BadArgument, "another circuit: " + std::string(kShapeFields[f].name) + " (offset " +
                                     std::to_string(kShapeFields[f].offset) + ") is " + std::to_string(got[f]) +
                                     ", expected " + std::to_string(want[f]) + " (file shape " +
                                     std::to_string(shape_.constraints) + " constraints, " +
                                     std::to_string(shape_.inputs) + " inputs, " + std::to_string(shape_.aux) +
                                     " aux; expected " + std::to_string(e.constraints) + ", " +
                                     std::to_string(e.inputs) + ", " + std::to_string(e.aux) + ")");
      }
    }
  }

  template <class T>
  std::span<const T> array_at(unsigned __int128 offset, std::uint64_t n) const {
    return {reinterpret_cast<const T*>(base_ + static_cast<std::size_t>(offset)), static_cast<std::size_t>(n)};
  }

  std::vector<Fr> coefficients() const {
    std::vector<Fr> table(shape_.coefficients);
    for (std::uint64_t k = 0; k < shape_.coefficients; ++k) {
      const std::uint64_t at = static_cast<std::uint64_t>(layout_.coeffs) + 32 * k;
      if (Fr::from_bytes_le(table[k], std::span<const std::uint8_t, 32>(base_ + at, 32)) != Error::Ok) {
        malformed("coefficient " + std::to_string(k) + " at offset " + std::to_string(at) + " is not canonical (>= r)");
      }
    }
    if (!table[0].is_one() || table[1] != -Fr::one()) {
      malformed("coefficients 0 and 1 (offset " + std::to_string(static_cast<std::uint64_t>(layout_.coeffs)) +
                ") are not +1 and −1");
    }
    return table;
  }

  SparseRows matrix(int m) const {
    const std::uint64_t n = shape_.constraints, nnz = shape_.nnz[m], cols_end = shape_.inputs + shape_.aux;
    const SparseRows r{array_at<RowOffset>(layout_.rows[m], n + 1), array_at<Column>(layout_.cols[m], nnz),
                       array_at<CoeffIndex>(layout_.idx[m], nnz)};
    auto where = [&](unsigned __int128 section, std::uint64_t i, std::size_t width) {
      return " (matrix " + std::string(kMatrixName[m]) + ", file offset " + u128(section + i * width) + ")";
    };
    if (r.row_offsets[0] != 0)
      malformed("row offset 0 is " + std::to_string(r.row_offsets[0]) + ", expected 0" + where(layout_.rows[m], 0, 4));
    if (r.row_offsets[n] != nnz) {
      malformed("row offset " + std::to_string(n) + " is " + std::to_string(r.row_offsets[n]) + ", expected nnz " +
                std::to_string(nnz) + where(layout_.rows[m], n, 4));
    }
    // Row i: its end offset within [start, nnz], its columns < I + X and increasing, its coefficient
    // indices < K. Every row is checked on its own, so the rows run in parallel; the first bad row
    // in row order is the one named, with the first of its faults (the message of a one-core scan).
    const auto row_ok = [&](std::uint64_t i) {
      const std::uint64_t lo = r.row_offsets[i], hi = r.row_offsets[i + 1];
      if (hi < lo || hi > nnz) return false;
      for (std::uint64_t e = lo; e < hi; ++e) {
        if (r.cols[e] >= cols_end || (e > lo && r.cols[e] <= r.cols[e - 1])) return false;
        if (r.coeff_index[e] >= shape_.coefficients) return false;
      }
      return true;
    };
    const auto refuse_row = [&](std::uint64_t i) {
      const std::uint64_t lo = r.row_offsets[i], hi = r.row_offsets[i + 1];
      if (hi < lo || hi > nnz) {
        malformed("row offset " + std::to_string(i + 1) + " is " + std::to_string(hi) + ", expected within [" +
                  std::to_string(lo) + ", " + std::to_string(nnz) + "]" + where(layout_.rows[m], i + 1, 4));
      }
      for (std::uint64_t e = lo; e < hi; ++e) {
        if (r.cols[e] >= cols_end || (e > lo && r.cols[e] <= r.cols[e - 1])) {
          malformed("row " + std::to_string(i) + ": column " + std::to_string(r.cols[e]) + " is not below " +
                    std::to_string(cols_end) + " and above the row's previous one" + where(layout_.cols[m], e, 4));
        }
        if (r.coeff_index[e] >= shape_.coefficients) {
          malformed("row " + std::to_string(i) + ": coefficient index " + std::to_string(r.coeff_index[e]) +
                    " is not below " + std::to_string(shape_.coefficients) + where(layout_.idx[m], e, 2));
        }
      }
    };
    std::atomic<std::uint64_t> first_bad{n};
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, 1u << 14), [&](const tbb::blocked_range<std::uint64_t>& b) {
      for (std::uint64_t i = b.begin(); i != b.end(); ++i) {
        if (i >= first_bad.load(std::memory_order_relaxed)) return;  // a row before this one is bad already
        if (!row_ok(i)) {
          std::uint64_t cur = first_bad.load(std::memory_order_relaxed);
          while (i < cur && !first_bad.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {
          }
          return;
        }
      }
    });
    if (const std::uint64_t bad = first_bad.load(); bad < n) refuse_row(bad);
    return r;
  }

  DensityTracker density(int d, std::uint64_t bits, const char* name) const {
    const std::span<const std::uint64_t> words = array_at<std::uint64_t>(layout_.dens[d], words_of(bits));
    if (bits % 64 != 0 && (words.back() >> (bits % 64)) != 0) {
      malformed(std::string(name) + ": bits beyond its " + std::to_string(bits) + " are set (file offset " +
                u128(layout_.dens[d] + (words.size() - 1) * 8) + ")");
    }
    DensityTracker t;
    t.push_zeros(bits);
    for (std::size_t k = 0; k < words.size(); ++k) {
      for (std::uint64_t w = words[k]; w != 0; w &= w - 1)
        t.set(64 * k + static_cast<std::size_t>(std::countr_zero(w)));
    }
    return t;
  }

  CompiledCircuit build() const {
    CompiledCircuit::Parts parts;
    parts.shape = shape_;
    parts.coefficients = coefficients();
    for (int m = 0; m < 3; ++m) parts.matrices[m] = matrix(m);
    parts.a_aux_density = density(0, shape_.aux, "a_aux_density");
    parts.b_input_density = density(1, shape_.inputs, "b_input_density");
    parts.b_aux_density = density(2, shape_.aux, "b_aux_density");
    parts.keep_alive = map_;
    return CompiledCircuit(std::move(parts));
  }

  std::string path_;
  const CompiledReadOptions& options_;
  std::shared_ptr<Mapping> map_;
  const std::uint8_t* base_ = nullptr;
  std::uint64_t size_ = 0;
  CompiledShape shape_;
  Layout layout_;
  std::uint32_t version_ = 0;
  unsigned chunk_log2_ = 0;  // version 2's L
};

}  // namespace

CompiledCircuit read_compiled_circuit(const std::string& path, const CompiledReadOptions& options) {
  return Reader(path, options).read();
}

}  // namespace proofline::r1cs
