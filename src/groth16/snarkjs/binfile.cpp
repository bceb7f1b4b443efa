// iden3 binary container and snarkjs file errors (include/proofline/groth16/snarkjs/binfile.hpp).
#include "proofline/groth16/snarkjs/binfile.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace proofline::groth16::snarkjs {

namespace {

Error code_of(FileError k) {
  switch (k) {
    case FileError::NotCanonical: return Error::NotCanonical;
    case FileError::NotOnCurve: return Error::NotOnCurve;
    case FileError::NotInSubgroup: return Error::NotInSubgroup;
    case FileError::Truncated:
    case FileError::SectionSize:
    case FileError::Mismatch: return Error::BadLength;
    default: return Error::Malformed;
  }
}

std::string message(FileError kind, const std::string& file, std::optional<std::uint32_t> section,
                    std::string_view section_name, std::optional<std::uint64_t> offset, const std::string& what) {
  std::string m = std::string(to_string(kind)) + ": " + file;
  if (section) {
    m += ": section " + std::to_string(*section);
    if (!section_name.empty()) m += " (" + std::string(section_name) + ")";
  }
  if (offset) m += (section ? " at byte " : ": at byte ") + std::to_string(*offset);
  return m + ": " + what;
}

std::uint32_t rd32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint64_t rd64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

std::string_view to_string(FileError e) {
  switch (e) {
    case FileError::BadMagic: return "bad magic";
    case FileError::BadVersion: return "unsupported version";
    case FileError::Truncated: return "truncated";
    case FileError::MissingSection: return "missing section";
    case FileError::DuplicateSection: return "duplicate section";
    case FileError::SectionSize: return "bad section size";
    case FileError::WrongCurve: return "wrong curve";
    case FileError::WrongProtocol: return "wrong protocol";
    case FileError::BadValue: return "bad value";
    case FileError::NotCanonical: return "value >= modulus";
    case FileError::NotOnCurve: return "point not on curve";
    case FileError::NotInSubgroup: return "point not in subgroup";
    case FileError::Mismatch: return "files do not match";
    case FileError::Unsatisfied: return "witness does not satisfy the r1cs";
  }
  return "unknown";
}

FormatError::FormatError(FileError kind, std::string file, std::optional<std::uint32_t> section,
                         std::optional<std::uint64_t> offset, const std::string& what, std::string_view section_name)
    : ProoflineError(code_of(kind), message(kind, file, section, section_name, offset, what)),
      kind_(kind),
      file_(std::move(file)),
      section_(section),
      offset_(offset) {}

// ---- MappedFile ---------------------------------------------------------------------------------

MappedFile MappedFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "cannot open '" + path + "'");
  struct stat st{};
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    throw std::system_error(e, std::generic_category(), "cannot stat '" + path + "'");
  }
  MappedFile f;
  f.size_ = static_cast<std::size_t>(st.st_size);
  if (f.size_ > 0) {
    void* p = ::mmap(nullptr, f.size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      throw std::system_error(e, std::generic_category(), "cannot mmap '" + path + "'");
    }
    f.map_ = p;
    f.data_ = static_cast<const std::uint8_t*>(p);
  }
  ::close(fd);
  return f;
}

MappedFile::MappedFile(MappedFile&& o) noexcept : data_(o.data_), size_(o.size_), map_(o.map_) {
  o.data_ = nullptr;
  o.size_ = 0;
  o.map_ = nullptr;
}
MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    this->~MappedFile();
    new (this) MappedFile(std::move(o));
  }
  return *this;
}
MappedFile::~MappedFile() {
  if (map_) ::munmap(map_, size_);
}

// ---- BinFile ------------------------------------------------------------------------------------

BinFile::BinFile(std::span<const std::uint8_t> bytes, std::string_view magic, std::span<const std::uint32_t> versions,
                 std::string source, SectionNamer namer)
    : bytes_(bytes), source_(std::move(source)), namer_(namer) {
  auto fail_file = [&](FileError k, std::uint64_t off, const std::string& what) -> FormatError {
    return FormatError(k, source_, std::nullopt, off, what);
  };
  if (bytes.size() < 4) {
    throw fail_file(FileError::Truncated, 0, "file of " + std::to_string(bytes.size()) + " bytes has no magic; expected \"" +
                                                 std::string(magic) + "\"");
  }
  if (std::memcmp(bytes.data(), magic.data(), 4) != 0) {
    // The file's bytes are not quoted: the daemon reads files its clients name, and a message must
    // not hand them the head of a file that is not theirs.
    throw fail_file(FileError::BadMagic, 0,
                    "the first 4 bytes are not the magic \"" + std::string(magic) + "\": not a ." + std::string(magic) +
                        " file");
  }
  if (bytes.size() < 12) {
    throw fail_file(FileError::Truncated, bytes.size(),
                    "file ends inside the container header (" + std::to_string(bytes.size()) + " of 12 bytes)");
  }
  version_ = rd32(bytes.data() + 4);
  if (std::find(versions.begin(), versions.end(), version_) == versions.end()) {
    std::string ok;
    for (auto v : versions) ok += (ok.empty() ? "" : " or ") + std::to_string(v);
    throw fail_file(FileError::BadVersion, 4, std::string(magic) + " version " + std::to_string(version_) + "; expected " + ok);
  }
  const std::uint32_t n = rd32(bytes.data() + 8);
  std::uint64_t p = 12;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (bytes.size() - p < 12) {
      throw fail_file(FileError::Truncated, p,
                      "file ends inside the header of section entry " + std::to_string(i) + " of " + std::to_string(n));
    }
    Section s{rd32(bytes.data() + p), p + 12, rd64(bytes.data() + p + 4)};
    if (s.size > bytes.size() - s.offset) {
      throw FormatError(FileError::Truncated, source_, s.id, s.offset,
                        "section of " + std::to_string(s.size) + " bytes, but the file ends after " +
                            std::to_string(bytes.size() - s.offset),
                        namer_(s.id));
    }
    if (find(s.id)) {
      throw FormatError(FileError::DuplicateSection, source_, s.id, p, "section id appears twice", namer_(s.id));
    }
    sections_.push_back(s);
    p = s.offset + s.size;
  }
}

const BinFile::Section* BinFile::find(std::uint32_t id) const {
  for (const auto& s : sections_) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

const BinFile::Section& BinFile::require(std::uint32_t id) const {
  if (const Section* s = find(id)) return *s;
  throw FormatError(FileError::MissingSection, source_, id, std::nullopt,
                    "required section is absent (the file has " + std::to_string(sections_.size()) + " section(s))",
                    namer_(id));
}

void BinFile::fail(FileError kind, std::uint32_t id, std::uint64_t offset, const std::string& what) const {
  throw FormatError(kind, source_, id, offset, what, namer_(id));
}

// ---- SectionReader ------------------------------------------------------------------------------

std::span<const std::uint8_t> SectionReader::bytes(std::uint64_t n, std::string_view what) {
  if (n > remaining()) {
    fail(FileError::Truncated, "section ends while reading " + std::string(what) + " (" + std::to_string(n) +
                                   " bytes needed, " + std::to_string(remaining()) + " left)");
  }
  auto d = file_.data(s_).subspan(pos_, n);
  pos_ += n;
  return d;
}
std::uint32_t SectionReader::u32(std::string_view what) { return rd32(bytes(4, what).data()); }
std::uint64_t SectionReader::u64(std::string_view what) { return rd64(bytes(8, what).data()); }

void SectionReader::expect_end() const {
  if (remaining() != 0) {
    fail(FileError::SectionSize, std::to_string(remaining()) + " bytes left over after the expected content (section of " +
                                     std::to_string(s_.size) + " bytes)");
  }
}

// ---- writers ------------------------------------------------------------------------------------

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_container_header(std::vector<std::uint8_t>& out, std::string_view magic, std::uint32_t version,
                          std::uint32_t n_sections) {
  out.insert(out.end(), magic.begin(), magic.begin() + 4);
  put_u32(out, version);
  put_u32(out, n_sections);
}
void put_section(std::vector<std::uint8_t>& out, std::uint32_t id, std::span<const std::uint8_t> body) {
  put_u32(out, id);
  put_u64(out, body.size());
  out.insert(out.end(), body.begin(), body.end());
}

}  // namespace proofline::groth16::snarkjs
