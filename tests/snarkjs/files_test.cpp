// snarkjs files: round trips and the malformed-file table (each case its own FormatError naming
// file, section and offset). Runs on a hand-made file set (toy_setup.hpp) and, when
// PROOFLINE_SNARKJS_CASE names a folder made by tests/snarkjs/oracle_case.sh (circom2 + snarkjs
// files), on real files too (RealFiles.*, ctest snarkjs_malformed_real).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>

#include "toy_setup.hpp"

namespace proofline::groth16::snarkjs {
namespace {

using Bytes = std::vector<std::uint8_t>;

struct Sec {
  std::uint32_t id;
  std::size_t header, data, size;
};

std::uint32_t get32(const Bytes& b, std::size_t off) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + off, 4);
  return v;
}
void set32(Bytes& b, std::size_t off, std::uint32_t v) { std::memcpy(b.data() + off, &v, 4); }

std::vector<Sec> table(const Bytes& b) {
  std::vector<Sec> out;
  std::size_t p = 12;
  for (std::uint32_t i = 0, n = get32(b, 8); i < n; ++i) {
    std::uint64_t len;
    std::memcpy(&len, b.data() + p + 4, 8);
    out.push_back({get32(b, p), p, p + 12, static_cast<std::size_t>(len)});
    p += 12 + len;
  }
  return out;
}
Sec sec(const Bytes& b, std::uint32_t id) {
  for (auto s : table(b)) {
    if (s.id == id) return s;
  }
  throw std::logic_error("test: no section " + std::to_string(id));
}
Bytes without_section(const Bytes& b, std::uint32_t id) {
  Sec s = sec(b, id);
  Bytes out(b.begin(), b.begin() + s.header);
  out.insert(out.end(), b.begin() + s.data + s.size, b.end());
  set32(out, 8, get32(b, 8) - 1);
  return out;
}
Bytes with_extra_section(const Bytes& b, std::uint32_t id, const Bytes& body) {
  Bytes out = b;
  put_section(out, id, body);
  set32(out, 8, get32(b, 8) + 1);
  return out;
}
/// Sections in reverse order (same content).
Bytes reversed_sections(const Bytes& b) {
  auto t = table(b);
  Bytes out(b.begin(), b.begin() + 12);
  for (auto it = t.rbegin(); it != t.rend(); ++it) out.insert(out.end(), b.begin() + it->header, b.begin() + it->data + it->size);
  return out;
}
/// File offset of the first r1cs term (wire id), walking constraint 0's LCs.
std::size_t first_r1cs_term(const Bytes& b) {
  std::size_t p = sec(b, 2).data;
  while (get32(b, p) == 0) p += 4;
  return p + 4;
}

const std::uint8_t kBn128R[32] = {0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9, 0x79, 0x48, 0xe8, 0x33, 0x28,
                                  0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30};

struct FileSet {
  Bytes r1cs, wtns, zkey;
};

FileSet toy_files() {
  const R1cs r = testing::toy_r1cs();
  const auto key = testing::toy_setup(r, testing::Toxic{Fr::from_u64(77), Fr::from_u64(3), Fr::from_u64(5), Fr::from_u64(7)});
  return {r.to_bytes(), testing::toy_witness(3, 4).to_bytes(), key.zkey.to_bytes()};
}

enum class Kind { R1cs, Wtns, Zkey };
const char* name_of(Kind k) { return k == Kind::R1cs ? "c.r1cs" : k == Kind::Wtns ? "w.wtns" : "c.zkey"; }

void load(Kind k, const Bytes& b) {
  switch (k) {
    case Kind::R1cs: R1cs::from_bytes(b, name_of(k)); break;
    case Kind::Wtns: Witness::from_bytes(b, name_of(k)); break;
    case Kind::Zkey: Zkey::from_bytes(b, {}, name_of(k)); break;
  }
}

/// Loads and expects a FormatError of `kind` whose message holds the file name and `needle`.
void expect_error(Kind k, const Bytes& b, FileError kind, const std::string& needle, const std::string& label) {
  SCOPED_TRACE(label);
  try {
    load(k, b);
    ADD_FAILURE() << label << ": no error";
  } catch (const FormatError& e) {
    EXPECT_EQ(e.kind(), kind) << label << ": " << e.what();
    EXPECT_EQ(e.file(), name_of(k));
    const std::string what = e.what();
    EXPECT_NE(what.find(name_of(k)), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << label << ": \"" << needle << "\" not in: " << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << label << ": wrong exception type: " << e.what();
  }
}

void truncations(Kind k, const Bytes& b) {
  std::vector<std::size_t> cuts = {0, 3, 4, 8, 11};
  for (const Sec& s : table(b)) {
    for (std::size_t c : {s.header, s.header + 6, s.data, s.data + s.size / 2, s.data + s.size - 1}) {
      if (c < b.size()) cuts.push_back(c);
    }
  }
  for (std::size_t c : cuts) {
    const Bytes t(b.begin(), b.begin() + c);
    expect_error(k, t, FileError::Truncated, c < 12 ? "" : "byte", std::string(name_of(k)) + " cut at " + std::to_string(c));
  }
}

void malformed_table(const FileSet& f) {
  // ---- container level, all three kinds
  for (auto [k, b] : {std::pair{Kind::R1cs, &f.r1cs}, {Kind::Wtns, &f.wtns}, {Kind::Zkey, &f.zkey}}) {
    EXPECT_NO_THROW(load(k, *b)) << name_of(k);
    truncations(k, *b);
    Bytes m = *b;
    m[3] ^= 0x20;
    expect_error(k, m, FileError::BadMagic, "magic", "bad magic");
    m = *b;
    set32(m, 4, 7);
    expect_error(k, m, FileError::BadVersion, "version 7", "bad version");
    expect_error(k, with_extra_section(*b, table(*b).front().id, Bytes(4, 0)), FileError::DuplicateSection,
                 "twice", "duplicate section");
    EXPECT_NO_THROW(load(k, reversed_sections(*b))) << name_of(k) << " with sections in reverse order";
  }
  // ---- r1cs
  {
    const Bytes& b = f.r1cs;
    Bytes m = b;
    std::memcpy(m.data() + sec(b, 1).data + 4, kBn128R, 32);
    expect_error(Kind::R1cs, m, FileError::WrongCurve, "bn128", "r1cs for bn128");
    m = b;
    set32(m, sec(b, 1).data, 48);
    expect_error(Kind::R1cs, m, FileError::WrongCurve, "n8 = 48", "r1cs n8 48");
    m = b;
    const std::size_t t = first_r1cs_term(b);
    std::memset(m.data() + t + 4, 0xff, 32);
    expect_error(Kind::R1cs, m, FileError::NotCanonical, "coefficient >= r", "r1cs coefficient >= r");
    m = b;
    set32(m, t, 0xfffffff0u);
    expect_error(Kind::R1cs, m, FileError::BadValue, "wire 4294967280", "r1cs wire out of range");
    m = b;
    set32(m, sec(b, 1).data + 4 + 32 + 4 * 4 + 8, get32(b, sec(b, 1).data + 4 + 32 + 4 * 4 + 8) + 1);
    expect_error(Kind::R1cs, m, FileError::Truncated, "constraints", "r1cs nConstraints + 1");
    expect_error(Kind::R1cs, with_extra_section(b, 4, Bytes(4, 0)), FileError::WrongProtocol, "custom gates",
                 "r1cs with custom gates");
    expect_error(Kind::R1cs, without_section(b, 2), FileError::MissingSection, "constraints", "r1cs without constraints");
  }
  // ---- wtns
  {
    const Bytes& b = f.wtns;
    Bytes m = b;
    std::memcpy(m.data() + sec(b, 1).data + 4, kBn128R, 32);
    expect_error(Kind::Wtns, m, FileError::WrongCurve, "bn128", "wtns for bn128");
    m = b;
    std::memcpy(m.data() + sec(b, 2).data + 32, Fr::kModulus.data(), 32);  // w[1] = r
    expect_error(Kind::Wtns, m, FileError::NotCanonical, "witness value 1 is >= r", "witness value = r");
    m = b;
    set32(m, sec(b, 1).data + 36, get32(b, sec(b, 1).data + 36) + 1);
    expect_error(Kind::Wtns, m, FileError::SectionSize, "nWitness", "nWitness + 1");
    expect_error(Kind::Wtns, without_section(b, 2), FileError::MissingSection, "witness values", "wtns without values");
  }
  // ---- zkey
  {
    const Bytes& b = f.zkey;
    const std::size_t h = sec(b, 2).data;
    Bytes m = b;
    set32(m, sec(b, 1).data, 2);
    expect_error(Kind::Zkey, m, FileError::WrongProtocol, "plonk", "plonk zkey");
    m = b;
    set32(m, sec(b, 1).data, 10);
    expect_error(Kind::Zkey, m, FileError::WrongProtocol, "fflonk", "fflonk zkey");
    m = b;
    std::memcpy(m.data() + h + 4 + 48 + 4, kBn128R, 32);
    expect_error(Kind::Zkey, m, FileError::WrongCurve, "bn128", "zkey for bn128");
    m = b;
    set32(m, h, 32);
    expect_error(Kind::Zkey, m, FileError::WrongCurve, "n8q = 32", "zkey n8q 32");
    const std::size_t nvars_at = h + 4 + 48 + 4 + 32;
    m = b;
    set32(m, nvars_at + 8, 3);
    expect_error(Kind::Zkey, m, FileError::BadValue, "domainSize = 3", "domain not a power of two");
    m = b;
    set32(m, nvars_at, get32(b, nvars_at) + 1);
    expect_error(Kind::Zkey, m, FileError::SectionSize, "nVars", "nVars + 1");
    for (std::uint32_t id : {3u, 4u, 5u, 6u, 7u, 8u, 9u}) {
      expect_error(Kind::Zkey, without_section(b, id), FileError::MissingSection, "section " + std::to_string(id),
                   "zkey without section " + std::to_string(id));
    }
    const std::size_t c0 = sec(b, 4).data + 4;
    m = b;
    set32(m, c0, 2);
    expect_error(Kind::Zkey, m, FileError::BadValue, "matrix 2", "coefficient matrix 2");
    m = b;
    set32(m, c0 + 8, get32(b, nvars_at));
    expect_error(Kind::Zkey, m, FileError::BadValue, "signal", "coefficient signal = nVars");
    m = b;
    std::memset(m.data() + c0 + 12, 0xff, 32);
    expect_error(Kind::Zkey, m, FileError::NotCanonical, "value >= r", "coefficient value >= r");
    // First non-zero A point: coordinate >= q, then off the curve.
    std::size_t a = sec(b, 5).data;
    while (std::all_of(b.begin() + a, b.begin() + a + 96, [](std::uint8_t x) { return x == 0; })) a += 96;
    m = b;
    std::memset(m.data() + a, 0xff, 48);
    expect_error(Kind::Zkey, m, FileError::NotCanonical, "A[", "A point coordinate >= q");
    m = b;
    m[a] ^= 1;
    expect_error(Kind::Zkey, m, FileError::NotOnCurve, "not on the curve", "A point off the curve");
    m = b;
    m[sec(b, 3).data] ^= 1;
    expect_error(Kind::Zkey, m, FileError::NotOnCurve, "IC[0]", "IC point off the curve");
    m = b;
    m[h + 4 + 48 + 4 + 32 + 12] ^= 1;
    expect_error(Kind::Zkey, m, FileError::NotOnCurve, "alpha1", "alpha1 off the curve");
  }
  // ---- files that do not belong together
  {
    const Zkey z = Zkey::from_bytes(f.zkey, {}, "c.zkey");
    Witness w = Witness::from_bytes(f.wtns, "w.wtns");
    const R1cs r = R1cs::from_bytes(f.r1cs, "c.r1cs");
    EXPECT_NO_THROW(check_witness_matches(z, w, "c.zkey", "w.wtns"));
    EXPECT_NO_THROW(check_r1cs_matches(z, r, "c.zkey", "c.r1cs"));
    EXPECT_NO_THROW(check_witness(r, w, "w.wtns"));
    Witness longer = w;
    longer.values.push_back({1, 0, 0, 0});
    try {
      check_witness_matches(z, longer, "c.zkey", "w.wtns");
      ADD_FAILURE() << "witness too long: no error";
    } catch (const FormatError& e) {
      EXPECT_EQ(e.kind(), FileError::Mismatch);
      EXPECT_NE(std::string(e.what()).find(std::to_string(longer.size()) + " values"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("nVars = " + std::to_string(z.n_vars)), std::string::npos) << e.what();
    }
    // Break the first constraint that involves a non-ONE wire of its A side: change that wire.
    std::size_t c = 0;
    std::uint32_t wire = 0;
    for (; c < r.n_constraints && wire == 0; ++c) {
      for (const auto& t : r.lc(c, 0)) {
        if (t.wire != 0) {
          wire = t.wire;
          break;
        }
      }
    }
    ASSERT_NE(wire, 0u);
    Witness bad = w;
    bad.values[wire][0] ^= 1;
    auto first = first_unsatisfied(r, bad);
    ASSERT_TRUE(first.has_value());
    try {
      check_witness(r, bad, "w.wtns");
      ADD_FAILURE() << "unsatisfied witness: no error";
    } catch (const FormatError& e) {
      EXPECT_EQ(e.kind(), FileError::Unsatisfied);
      EXPECT_NE(std::string(e.what()).find("constraint " + std::to_string(*first) + " of"), std::string::npos) << e.what();
    }
  }
}

TEST(SnarkjsFiles, ToyRoundTrips) {
  const R1cs r = testing::toy_r1cs();
  const Bytes rb = r.to_bytes();
  const R1cs r2 = R1cs::from_bytes(rb);
  EXPECT_EQ(r2.n_wires, r.n_wires);
  EXPECT_EQ(r2.n_constraints, r.n_constraints);
  EXPECT_EQ(r2.terms, r.terms);
  EXPECT_EQ(r2.lc_start, r.lc_start);
  EXPECT_EQ(r2.wire_to_label, r.wire_to_label);
  EXPECT_EQ(r2.to_bytes(), rb);
  const R1cs r3 = R1cs::from_bytes(reversed_sections(rb));
  EXPECT_EQ(r3.terms, r.terms);

  const Witness w = testing::toy_witness(3, 4);
  EXPECT_EQ(Witness::from_bytes(w.to_bytes()).values, w.values);

  const auto key = testing::toy_setup(r, testing::Toxic{Fr::from_u64(77), Fr::from_u64(3), Fr::from_u64(5), Fr::from_u64(7)});
  const Bytes zb = key.zkey.to_bytes();
  const Zkey z = Zkey::from_bytes(zb, {ec::Check::Subgroup});
  EXPECT_EQ(z.to_bytes(), zb);
  EXPECT_EQ(z.coeffs, key.zkey.coeffs);
  EXPECT_EQ(z.a, key.zkey.a);
  EXPECT_EQ(z.b2, key.zkey.b2);
  EXPECT_EQ(z.h, key.zkey.h);
  EXPECT_TRUE(z.a[7].infinity);  // the unused wire
  EXPECT_EQ(z.verifying_key(), key.zkey.verifying_key());
}

TEST(SnarkjsFiles, ToyMalformedTable) { malformed_table(toy_files()); }

TEST(SnarkjsFiles, MissingFileIsASystemError) {
  EXPECT_THROW(Zkey::read_file("/nonexistent/c.zkey"), std::system_error);
}

// ---- real circom2 / snarkjs files ----------------------------------------------------------------

Bytes slurp(const std::filesystem::path& p) { return read_file_bytes(p.string()); }

std::filesystem::path real_case() {
  const char* d = std::getenv("PROOFLINE_SNARKJS_CASE");
  return d ? std::filesystem::path(d) : std::filesystem::path();
}

FileSet real_files(const std::filesystem::path& dir) {
  FileSet f;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".r1cs") f.r1cs = slurp(e.path());
  }
  f.wtns = slurp(dir / "w.wtns");
  f.zkey = slurp(dir / "c.zkey");
  return f;
}

TEST(RealFiles, RoundTripsAndMalformedTable) {
  const auto dir = real_case();
  if (dir.empty()) GTEST_SKIP() << "PROOFLINE_SNARKJS_CASE not set (ctest snarkjs_malformed_real sets it)";
  const FileSet f = real_files(dir);
  ASSERT_FALSE(f.r1cs.empty()) << "no .r1cs in " << dir;
  const Zkey z = Zkey::from_bytes(f.zkey, {ec::Check::Subgroup}, "c.zkey");
  EXPECT_EQ(z.to_bytes(), f.zkey) << "zkey writer does not reproduce snarkjs' bytes";
  const Witness w = Witness::from_bytes(f.wtns, "w.wtns");
  EXPECT_EQ(w.to_bytes(), f.wtns) << "wtns writer does not reproduce snarkjs' bytes";
  const R1cs r = R1cs::from_bytes(f.r1cs, "c.r1cs");
  const R1cs r2 = R1cs::from_bytes(r.to_bytes());
  EXPECT_EQ(r2.terms, r.terms);
  EXPECT_EQ(r2.lc_start, r.lc_start);
  EXPECT_EQ(table(f.r1cs).front().id, 2u) << "circom2 writes the r1cs constraints section first";
  malformed_table(f);
}

// Issue 33: a bad magic is named without quoting the file's bytes (the daemon reads files its clients
// name: zkey=/etc/passwd once answered 'magic "root"').
TEST(SnarkjsFiles, BadMagicIsNamedWithoutQuotingTheFile) {
  const Bytes bytes = {'r', 'o', 'o', 't', ':', 'x', ':', '0', ':', '0', ':', ':'};
  try {
    Witness::from_bytes(bytes, "w.wtns");
    FAIL() << "accepted";
  } catch (const FormatError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the first 4 bytes are not the magic \"wtns\": not a .wtns file"), std::string::npos) << what;
    EXPECT_EQ(what.find("root"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace proofline::groth16::snarkjs
