// proofline/groth16/snarkjs/binfile.hpp — the iden3 binary container under .r1cs, .wtns and .zkey,
// and the error type of every snarkjs file reader.
//
// Owns: `FileError` (what went wrong) and `FormatError` (the exception: file, section, byte offset),
// `MappedFile` (read-only mmap), `BinFile` (the section table of one container) and `SectionReader`
// (a bounds-checked cursor over one section).
//
// Container layout (../shared/reference/oracles.md §5.0; all integers little-endian):
//   magic[4] (ASCII: "r1cs", "wtns", "zkey"), u32 version, u32 nSections,
//   then nSections × { u32 sectionId, u64 byteLength, byteLength bytes }.
// Sections may come in any order (circom2 writes r1cs section 2 before section 1), so they are
// indexed by id; an id that appears twice is refused (none of the three formats repeats one).
//
// Errors: every reader throws FormatError, a ProoflineError whose message reads
//   "<file>: section <id> (<name>) at byte <offset>: <what>; expected <what was expected>"
// (section and offset left out where they do not apply). `kind()` says which failure it was;
// `code()` maps it onto util/error.hpp (BadLength for Truncated, SectionSize and Mismatch, Malformed
// for the other structure errors, NotCanonical for values >= the modulus, NotOnCurve / NotInSubgroup
// for points). I/O failures are std::system_error naming the path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/util/error.hpp"

namespace proofline::groth16::snarkjs {

/// Which failure a FormatError reports.
enum class FileError {
  BadMagic,          ///< the first four bytes are not the expected magic
  BadVersion,        ///< container version not supported
  Truncated,         ///< the file ends inside the header, the section table or a section
  MissingSection,    ///< a required section id is absent
  DuplicateSection,  ///< a section id appears twice
  SectionSize,       ///< a section's length disagrees with what its header implies
  WrongCurve,        ///< field prime(s) other than BLS12-381's
  WrongProtocol,     ///< a zkey for another proving system (PLONK, FFLONK), or custom gates in an r1cs
  BadValue,          ///< an integer field out of range (index, matrix id, domain size, …)
  NotCanonical,      ///< a field element >= its modulus
  NotOnCurve,        ///< a point that is not on the curve
  NotInSubgroup,     ///< a point outside the prime-order subgroup
  Mismatch,          ///< two files that do not belong together (witness length ≠ zkey variables, …)
  Unsatisfied,       ///< a witness that violates an r1cs constraint
};

std::string_view to_string(FileError e);

/// A malformed or mismatched snarkjs file. See the header comment for the message layout.
class FormatError : public ProoflineError {
 public:
  FormatError(FileError kind, std::string file, std::optional<std::uint32_t> section, std::optional<std::uint64_t> offset,
              const std::string& what, std::string_view section_name = {});
  FileError kind() const noexcept { return kind_; }
  const std::string& file() const noexcept { return file_; }
  std::optional<std::uint32_t> section() const noexcept { return section_; }
  std::optional<std::uint64_t> offset() const noexcept { return offset_; }

 private:
  FileError kind_;
  std::string file_;
  std::optional<std::uint32_t> section_;
  std::optional<std::uint64_t> offset_;
};

/// A whole file mapped read-only (or, from_bytes, a borrowed buffer). Move-only.
class MappedFile {
 public:
  /// Maps `path` (std::system_error naming it on failure). An empty file maps to an empty span.
  static MappedFile open(const std::string& path);
  MappedFile() = default;
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  void* map_ = nullptr;
};

/// Names for messages: section names per format ("header", "constraints", …).
using SectionNamer = std::string_view (*)(std::uint32_t id);

/// The parsed section table of one container (views into the caller's bytes, which must outlive it).
class BinFile {
 public:
  struct Section {
    std::uint32_t id = 0;
    std::uint64_t offset = 0;  ///< byte offset of the section's data in the file
    std::uint64_t size = 0;
  };

  /// Checks magic and the section table (every section inside the file). `versions` lists the
  /// accepted versions. `source` names the file in messages.
  BinFile(std::span<const std::uint8_t> bytes, std::string_view magic, std::span<const std::uint32_t> versions,
          std::string source, SectionNamer namer);

  std::uint32_t version() const { return version_; }
  const std::vector<Section>& sections() const { return sections_; }
  const std::string& source() const { return source_; }
  const Section* find(std::uint32_t id) const;
  /// The section or FormatError(MissingSection).
  const Section& require(std::uint32_t id) const;
  std::span<const std::uint8_t> data(const Section& s) const { return bytes_.subspan(s.offset, s.size); }
  std::string_view section_name(std::uint32_t id) const { return namer_(id); }

  /// Throws a FormatError located in section `id` at file offset `offset`.
  [[noreturn]] void fail(FileError kind, std::uint32_t id, std::uint64_t offset, const std::string& what) const;

 private:
  std::span<const std::uint8_t> bytes_;
  std::string source_;
  SectionNamer namer_;
  std::uint32_t version_ = 0;
  std::vector<Section> sections_;
};

/// A bounds-checked little-endian cursor over one section. Reading past the end throws
/// FormatError(Truncated) naming the field being read.
class SectionReader {
 public:
  SectionReader(const BinFile& file, const BinFile::Section& s) : file_(file), s_(s) {}
  std::uint32_t u32(std::string_view what);
  std::uint64_t u64(std::string_view what);
  std::span<const std::uint8_t> bytes(std::uint64_t n, std::string_view what);
  /// Bytes left in the section.
  std::uint64_t remaining() const { return s_.size - pos_; }
  /// File offset of the cursor.
  std::uint64_t offset() const { return s_.offset + pos_; }
  std::uint64_t position() const { return pos_; }
  [[noreturn]] void fail(FileError kind, const std::string& what) const { file_.fail(kind, s_.id, offset(), what); }
  [[noreturn]] void fail_at(FileError kind, std::uint64_t file_offset, const std::string& what) const {
    file_.fail(kind, s_.id, file_offset, what);
  }
  /// FormatError(SectionSize) unless the whole section was consumed.
  void expect_end() const;

 private:
  const BinFile& file_;
  BinFile::Section s_;
  std::uint64_t pos_ = 0;
};

/// Little-endian helpers for writers.
void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v);
void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v);
/// Appends magic, version and section count.
void put_container_header(std::vector<std::uint8_t>& out, std::string_view magic, std::uint32_t version,
                          std::uint32_t n_sections);
/// Appends { id, length, bytes }.
void put_section(std::vector<std::uint8_t>& out, std::uint32_t id, std::span<const std::uint8_t> body);

}  // namespace proofline::groth16::snarkjs
