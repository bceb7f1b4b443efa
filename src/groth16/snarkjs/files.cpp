// circom/snarkjs .r1cs, .wtns, .zkey readers and writers (include/proofline/groth16/snarkjs/files.hpp).
#include "proofline/groth16/snarkjs/files.hpp"

#include <fcntl.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "proofline/groth16/snarkjs.hpp"

namespace proofline::groth16::snarkjs {

namespace {

using ff::Fp;
using ff::Fp2;
using ff::u64;

constexpr std::size_t kN8r = 32, kN8q = 48;
constexpr std::size_t kG1Bytes = 2 * kN8q, kG2Bytes = 4 * kN8q;

// ---- primes -------------------------------------------------------------------------------------

using Limbs4 = std::array<u64, 4>;
constexpr Limbs4 kBn128R = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL};
constexpr Limbs4 kBn128Q = {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL};
constexpr Limbs4 kBls12377R = {0x0a11800000000001ULL, 0x59aa76fed0000001ULL, 0x60b44d1e5c37b001ULL, 0x12ab655e9a2ca556ULL};

template <std::size_t N>
std::array<u64, N> limbs_le(std::span<const std::uint8_t> b) {
  std::array<u64, N> l{};
  std::memcpy(l.data(), b.data(), 8 * N);
  return l;
}

std::string hex_le(std::span<const std::uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s = "0x";
  for (std::size_t i = b.size(); i-- > 0;) {
    s += d[b[i] >> 4];
    s += d[b[i] & 15];
  }
  return s;
}

bool is_bls_r(std::span<const std::uint8_t> p) { return p.size() == kN8r && limbs_le<4>(p) == Fr::kModulus; }
bool is_bls_q(std::span<const std::uint8_t> p) { return p.size() == kN8q && limbs_le<6>(p) == Fp::kModulus; }

std::string_view section_name_r1cs(std::uint32_t id) {
  switch (id) {
    case 1: return "header";
    case 2: return "constraints";
    case 3: return "wire-to-label map";
    case 4: return "custom gates list";
    case 5: return "custom gates uses";
  }
  return "";
}
std::string_view section_name_wtns(std::uint32_t id) {
  switch (id) {
    case 1: return "header";
    case 2: return "witness values";
  }
  return "";
}
std::string_view section_name_zkey(std::uint32_t id) {
  switch (id) {
    case 1: return "protocol";
    case 2: return "groth16 header";
    case 3: return "IC";
    case 4: return "coefficients";
    case 5: return "A points";
    case 6: return "B1 points";
    case 7: return "B2 points";
    case 8: return "C points";
    case 9: return "H points";
    case 10: return "contributions";
  }
  return "";
}

/// Reads "u32 n8, prime[n8]" and insists on BLS12-381's r.
void expect_r(SectionReader& rd, const char* file_kind) {
  const std::uint64_t at = rd.offset();
  const std::uint32_t n8 = rd.u32("n8");
  if (n8 != kN8r) {
    rd.fail_at(FileError::WrongCurve, at,
               "field element size n8 = " + std::to_string(n8) + " (a " + std::to_string(8 * n8) +
                   "-bit prime); expected 32 (BLS12-381 scalar field)");
  }
  auto prime = rd.bytes(n8, "prime");
  if (!is_bls_r(prime)) {
    rd.fail_at(FileError::WrongCurve, at + 4,
               std::string(file_kind) + " for prime " + describe_prime(prime) +
                   "; expected BLS12-381's r (compile with circom --prime bls12381)");
  }
}

/// Canonical 32-byte scalar < r → canonical limbs, or nullopt.
bool canonical_ok(const ScalarLimbs& l) { return !ff::detail::geq<4>(l, Fr::kModulus); }

/// Runs check(i) for i < n in parallel; returns the smallest failing index (or n).
template <class F>
std::size_t first_failure(std::size_t n, F&& check) {
  std::atomic<std::size_t> first{n};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1024), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      if (i >= first.load(std::memory_order_relaxed)) return;
      if (!check(i)) {
        std::size_t cur = first.load();
        while (i < cur && !first.compare_exchange_weak(cur, i)) {
        }
        return;
      }
    }
  });
  return first.load();
}

// ---- points (Montgomery little-endian, zero = infinity) -----------------------------------------

enum class PointStatus { Ok, CoordNotCanonical, NotOnCurve, NotInSubgroup };

bool fp_from_lem(Fp& out, const std::uint8_t* p) {
  auto l = limbs_le<6>({p, kN8q});
  if (ff::detail::geq<6>(l, Fp::kModulus)) return false;
  out = Fp::from_montgomery(l);
  return true;
}
bool all_zero(const std::uint8_t* p, std::size_t n) {
  std::uint8_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) acc |= p[i];
  return acc == 0;
}

PointStatus g1_from_lem(G1Affine& out, const std::uint8_t* p, ec::Check check) {
  if (all_zero(p, kG1Bytes)) {
    out = G1Affine::identity();
    return PointStatus::Ok;
  }
  G1Affine q;
  q.infinity = false;
  if (!fp_from_lem(q.x, p) || !fp_from_lem(q.y, p + kN8q)) return PointStatus::CoordNotCanonical;
  if (!q.is_on_curve()) return PointStatus::NotOnCurve;
  if (check == ec::Check::Subgroup && !q.is_in_subgroup()) return PointStatus::NotInSubgroup;
  out = q;
  return PointStatus::Ok;
}
PointStatus g2_from_lem(G2Affine& out, const std::uint8_t* p, ec::Check check) {
  if (all_zero(p, kG2Bytes)) {
    out = G2Affine::identity();
    return PointStatus::Ok;
  }
  G2Affine q;
  q.infinity = false;
  if (!fp_from_lem(q.x.c0, p) || !fp_from_lem(q.x.c1, p + kN8q) || !fp_from_lem(q.y.c0, p + 2 * kN8q) ||
      !fp_from_lem(q.y.c1, p + 3 * kN8q)) {
    return PointStatus::CoordNotCanonical;
  }
  if (!q.is_on_curve()) return PointStatus::NotOnCurve;
  if (check == ec::Check::Subgroup && !q.is_in_subgroup()) return PointStatus::NotInSubgroup;
  out = q;
  return PointStatus::Ok;
}

void put_fp(std::vector<std::uint8_t>& out, const Fp& x) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(x.limbs.data());
  out.insert(out.end(), b, b + kN8q);
}
void put_g1(std::vector<std::uint8_t>& out, const G1Affine& p) {
  if (p.infinity) {
    out.insert(out.end(), kG1Bytes, 0);
    return;
  }
  put_fp(out, p.x);
  put_fp(out, p.y);
}
void put_g2(std::vector<std::uint8_t>& out, const G2Affine& p) {
  if (p.infinity) {
    out.insert(out.end(), kG2Bytes, 0);
    return;
  }
  put_fp(out, p.x.c0);
  put_fp(out, p.x.c1);
  put_fp(out, p.y.c0);
  put_fp(out, p.y.c1);
}
void put_scalar(std::vector<std::uint8_t>& out, const ScalarLimbs& l) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(l.data());
  out.insert(out.end(), b, b + kN8r);
}

[[noreturn]] void point_fail(SectionReader& rd, std::uint64_t at, PointStatus st, const std::string& what) {
  switch (st) {
    case PointStatus::CoordNotCanonical:
      rd.fail_at(FileError::NotCanonical, at, what + ": a coordinate (Montgomery form) is >= q");
    case PointStatus::NotOnCurve: rd.fail_at(FileError::NotOnCurve, at, what + " is not on the curve");
    case PointStatus::NotInSubgroup:
      rd.fail_at(FileError::NotInSubgroup, at, what + " is not in the prime-order subgroup");
    case PointStatus::Ok: break;
  }
  rd.fail_at(FileError::BadValue, at, what);
}

G1Affine read_g1(SectionReader& rd, const std::string& what, ec::Check check) {
  const std::uint64_t at = rd.offset();
  G1Affine p;
  auto st = g1_from_lem(p, rd.bytes(kG1Bytes, what).data(), check);
  if (st != PointStatus::Ok) point_fail(rd, at, st, what);
  return p;
}
G2Affine read_g2(SectionReader& rd, const std::string& what, ec::Check check) {
  const std::uint64_t at = rd.offset();
  G2Affine p;
  auto st = g2_from_lem(p, rd.bytes(kG2Bytes, what).data(), check);
  if (st != PointStatus::Ok) point_fail(rd, at, st, what);
  return p;
}

/// Section `id`, which must hold exactly `n` points of `size` bytes (FormatError SectionSize).
const BinFile::Section& require_point_section(const BinFile& f, std::uint32_t id, std::size_t n, std::size_t size,
                                              const std::string& count_meaning) {
  const auto& s = f.require(id);
  if (s.size != static_cast<std::uint64_t>(n) * size) {
    SectionReader rd(f, s);
    rd.fail(FileError::SectionSize, std::to_string(s.size) + " bytes; expected " + std::to_string(n) + " points (" +
                                        count_meaning + ") × " + std::to_string(size) + " bytes = " +
                                        std::to_string(static_cast<std::uint64_t>(n) * size));
  }
  return s;
}

/// A section holding exactly `n` points of `size` bytes each, decoded in parallel.
template <class P, class Decode>
std::vector<P> read_points(const BinFile& f, std::uint32_t id, std::size_t n, std::size_t size, const char* what,
                           const std::string& count_meaning, ec::Check check, Decode decode) {
  const auto& s = require_point_section(f, id, n, size, count_meaning);
  SectionReader rd(f, s);
  std::vector<P> out(n);
  const std::uint8_t* base = f.data(s).data();
  std::vector<PointStatus> status_of_first(1, PointStatus::Ok);
  std::size_t bad = first_failure(n, [&](std::size_t i) { return decode(out[i], base + i * size, check) == PointStatus::Ok; });
  if (bad < n) {
    P tmp;
    PointStatus st = decode(tmp, base + bad * size, check);
    point_fail(rd, s.offset + bad * size, st, std::string(what) + "[" + std::to_string(bad) + "]");
  }
  return out;
}

}  // namespace

std::string describe_prime(std::span<const std::uint8_t> p) {
  if (p.size() == kN8r) {
    auto l = limbs_le<4>(p);
    if (l == Fr::kModulus) return "bls12381 (r = " + hex_le(p) + ")";
    if (l == kBn128R) return "bn128 (r = " + hex_le(p) + ")";
    if (l == kBn128Q) return "bn128 base field (q = " + hex_le(p) + ")";
    if (l == kBls12377R) return "bls12377 (r = " + hex_le(p) + ")";
  }
  if (is_bls_q(p)) return "bls12381 base field (q)";
  return hex_le(p);
}

// =================================================================================================
// .r1cs
// =================================================================================================

void R1cs::add_constraint(std::span<const R1csTerm> a, std::span<const R1csTerm> b, std::span<const R1csTerm> c) {
  if (lc_start.empty()) lc_start.push_back(0);
  for (auto lc : {a, b, c}) {
    terms.insert(terms.end(), lc.begin(), lc.end());
    lc_start.push_back(terms.size());
  }
  ++n_constraints;
}

R1cs R1cs::from_bytes(std::span<const std::uint8_t> bytes, std::string_view source) {
  static constexpr std::uint32_t kVersions[] = {1};
  BinFile f(bytes, "r1cs", kVersions, std::string(source), section_name_r1cs);
  for (std::uint32_t id : {4u, 5u}) {
    if (f.find(id)) {
      f.fail(FileError::WrongProtocol, id, f.find(id)->offset,
             "custom gates (a PLONK-only circom feature); a Groth16 r1cs has none");
    }
  }
  R1cs r;
  {
    SectionReader rd(f, f.require(1));
    expect_r(rd, "r1cs");
    r.n_wires = rd.u32("nWires");
    r.n_pub_out = rd.u32("nPubOut");
    r.n_pub_in = rd.u32("nPubIn");
    r.n_prv_in = rd.u32("nPrvIn");
    r.n_labels = rd.u64("nLabels");
    r.n_constraints = rd.u32("nConstraints");
    rd.expect_end();
    // Only ONE and the public signals must be wires: circom --O2 (and snarkjs, which accepts its
    // output) keeps nPrvIn as declared in the source even when the optimizer removed private inputs
    // that no constraint uses, so nPrvIn may exceed the wires left. Every wire a constraint uses is
    // checked against nWires below, and the wire-to-label map has exactly nWires entries.
    if (r.n_wires == 0 || std::uint64_t{1} + r.n_pub_out + r.n_pub_in > r.n_wires) {
      f.fail(FileError::BadValue, 1, f.require(1).offset,
             "nWires = " + std::to_string(r.n_wires) + " cannot hold ONE + " + std::to_string(r.n_pub_out) +
                 " outputs + " + std::to_string(r.n_pub_in) + " public inputs; expected nWires >= " +
                 std::to_string(std::uint64_t{1} + r.n_pub_out + r.n_pub_in));
    }
  }
  {
    const auto& s = f.require(2);
    SectionReader rd(f, s);
    // Every constraint takes at least its three u32 term counts: check the count against the
    // section before reserving anything (a forged nConstraints must not allocate gigabytes).
    if (std::uint64_t{12} * r.n_constraints > s.size) {
      rd.fail(FileError::Truncated, "nConstraints = " + std::to_string(r.n_constraints) + " needs at least " +
                                        std::to_string(std::uint64_t{12} * r.n_constraints) +
                                        " bytes (3 term counts each); the section has " + std::to_string(s.size));
    }
    r.lc_start.reserve(3 * std::size_t{r.n_constraints} + 1);
    r.lc_start.push_back(0);
    r.terms.reserve(s.size / (4 + kN8r));
    for (std::uint32_t c = 0; c < r.n_constraints; ++c) {
      for (int k = 0; k < 3; ++k) {
        const char* lcn = k == 0 ? "A" : k == 1 ? "B" : "C";
        const std::uint32_t nt = rd.u32("a term count");
        if (nt > rd.remaining() / (4 + kN8r)) {
          rd.fail(FileError::Truncated, "constraint " + std::to_string(c) + " " + lcn + " claims " + std::to_string(nt) +
                                            " terms; only " + std::to_string(rd.remaining()) + " bytes remain");
        }
        for (std::uint32_t t = 0; t < nt; ++t) {
          const std::uint64_t at = rd.offset();
          const std::uint32_t wire = rd.u32("a wire id");
          if (wire >= r.n_wires) {
            rd.fail_at(FileError::BadValue, at,
                       "constraint " + std::to_string(c) + " " + lcn + " term " + std::to_string(t) + ": wire " +
                           std::to_string(wire) + "; expected < nWires = " + std::to_string(r.n_wires));
          }
          ScalarLimbs l = limbs_le<4>(rd.bytes(kN8r, "a coefficient"));
          if (!canonical_ok(l)) {
            rd.fail_at(FileError::NotCanonical, at + 4,
                       "constraint " + std::to_string(c) + " " + lcn + " term " + std::to_string(t) +
                           ": coefficient >= r (coefficients are canonical little-endian)");
          }
          r.terms.push_back({wire, Fr::from_canonical_unchecked(l)});
        }
        r.lc_start.push_back(r.terms.size());
      }
    }
    rd.expect_end();
  }
  if (const auto* s = f.find(3)) {
    SectionReader rd(f, *s);
    if (s->size != std::uint64_t{8} * r.n_wires) {
      rd.fail(FileError::SectionSize, std::to_string(s->size) + " bytes; expected nWires × 8 = " +
                                          std::to_string(std::uint64_t{8} * r.n_wires));
    }
    r.wire_to_label.resize(r.n_wires);
    std::memcpy(r.wire_to_label.data(), f.data(*s).data(), s->size);
  }
  return r;
}

R1cs R1cs::read_file(const std::string& path) {
  auto m = MappedFile::open(path);
  return from_bytes(m.bytes(), path);
}

std::vector<std::uint8_t> R1cs::to_bytes() const {
  std::vector<std::uint8_t> out;
  const bool labels = !wire_to_label.empty();
  put_container_header(out, "r1cs", 1, labels ? 3 : 2);
  std::vector<std::uint8_t> h;
  put_u32(h, kN8r);
  put_scalar(h, Fr::kModulus);
  put_u32(h, n_wires);
  put_u32(h, n_pub_out);
  put_u32(h, n_pub_in);
  put_u32(h, n_prv_in);
  put_u64(h, n_labels);
  put_u32(h, n_constraints);
  put_section(out, 1, h);
  std::vector<std::uint8_t> body;
  for (std::uint32_t c = 0; c < n_constraints; ++c) {
    for (int k = 0; k < 3; ++k) {
      auto lc = this->lc(c, k);
      put_u32(body, static_cast<std::uint32_t>(lc.size()));
      for (const auto& t : lc) {
        put_u32(body, t.wire);
        put_scalar(body, t.coeff.to_canonical());
      }
    }
  }
  put_section(out, 2, body);
  if (labels) {
    std::vector<std::uint8_t> l;
    for (auto v : wire_to_label) put_u64(l, v);
    put_section(out, 3, l);
  }
  return out;
}

void R1cs::write_file(const std::string& path) const { write_file_bytes(path, to_bytes()); }

// =================================================================================================
// .wtns
// =================================================================================================

std::vector<Fr> Witness::public_inputs(std::size_t n_public) const {
  std::vector<Fr> out;
  for (std::size_t i = 1; i <= n_public && i < values.size(); ++i) out.push_back(fr(i));
  return out;
}

Witness Witness::from_fr(std::span<const Fr> w) {
  Witness out;
  out.values.reserve(w.size());
  for (const Fr& x : w) out.values.push_back(x.to_canonical());
  return out;
}

Witness Witness::from_bytes(std::span<const std::uint8_t> bytes, std::string_view source) {
  static constexpr std::uint32_t kVersions[] = {2};
  BinFile f(bytes, "wtns", kVersions, std::string(source), section_name_wtns);
  std::uint32_t n = 0;
  {
    SectionReader rd(f, f.require(1));
    expect_r(rd, "witness");
    n = rd.u32("nWitness");
    rd.expect_end();
  }
  const auto& s = f.require(2);
  SectionReader rd(f, s);
  if (s.size != std::uint64_t{kN8r} * n) {
    rd.fail(FileError::SectionSize, std::to_string(s.size) + " bytes; expected nWitness (" + std::to_string(n) +
                                        ") × 32 = " + std::to_string(std::uint64_t{kN8r} * n));
  }
  Witness w;
  w.values.resize(n);
  if (n) std::memcpy(w.values.data(), f.data(s).data(), s.size);
  std::size_t bad = first_failure(n, [&](std::size_t i) { return canonical_ok(w.values[i]); });
  if (bad < n) {
    rd.fail_at(FileError::NotCanonical, s.offset + bad * kN8r,
               "witness value " + std::to_string(bad) + " is >= r (values are canonical little-endian, < r)");
  }
  return w;
}

Witness Witness::read_file(const std::string& path) {
  auto m = MappedFile::open(path);
  return from_bytes(m.bytes(), path);
}

std::vector<std::uint8_t> Witness::to_bytes() const {
  std::vector<std::uint8_t> out;
  put_container_header(out, "wtns", 2, 2);
  std::vector<std::uint8_t> h;
  put_u32(h, kN8r);
  put_scalar(h, Fr::kModulus);
  put_u32(h, static_cast<std::uint32_t>(values.size()));
  put_section(out, 1, h);
  std::span<const std::uint8_t> body(reinterpret_cast<const std::uint8_t*>(values.data()), values.size() * kN8r);
  put_section(out, 2, body);
  return out;
}

void Witness::write_file(const std::string& path) const { write_file_bytes(path, to_bytes()); }

// =================================================================================================
// .zkey
// =================================================================================================

unsigned Zkey::log_domain_size() const { return static_cast<unsigned>(__builtin_ctz(domain_size)); }

VerifyingKey Zkey::verifying_key() const {
  VerifyingKey vk;
  vk.alpha_g1 = alpha1;
  vk.beta_g1 = beta1;
  vk.beta_g2 = beta2;
  vk.gamma_g2 = gamma2;
  vk.delta_g1 = delta1;
  vk.delta_g2 = delta2;
  vk.ic = ic;
  return vk;
}

namespace {

/// Sections 1 (protocol) and 2 (curve, counts, the six fixed points, on the curve) into `z`.
void read_zkey_header(const BinFile& f, Zkey& z) {
  {
    SectionReader rd(f, f.require(1));
    const std::uint32_t protocol = rd.u32("protocol");
    if (protocol != 1) {
      const char* name = protocol == 2 ? "plonk" : protocol == 10 ? "fflonk" : "unknown";
      rd.fail_at(FileError::WrongProtocol, rd.offset() - 4,
                 "protocol " + std::to_string(protocol) + " (" + name + "); expected 1 (groth16)");
    }
    rd.expect_end();
  }
  {
    SectionReader rd(f, f.require(2));
    std::uint64_t at = rd.offset();
    const std::uint32_t n8q = rd.u32("n8q");
    if (n8q != kN8q) {
      auto q = rd.remaining() >= n8q ? rd.bytes(n8q, "q") : std::span<const std::uint8_t>{};
      rd.fail_at(FileError::WrongCurve, at,
                 "base field size n8q = " + std::to_string(n8q) + (q.empty() ? "" : " (q = " + describe_prime(q) + ")") +
                     "; expected 48 (BLS12-381)");
    }
    auto q = rd.bytes(n8q, "q");
    at = rd.offset();
    const std::uint32_t n8r = rd.u32("n8r");
    auto r = rd.bytes(n8r, "r");
    if (n8r != kN8r || !is_bls_r(r) || !is_bls_q(q)) {
      rd.fail_at(FileError::WrongCurve, at, "curve with r = " + describe_prime(r) + "; expected bls12381");
    }
    z.n_vars = rd.u32("nVars");
    z.n_public = rd.u32("nPublic");
    at = rd.offset();
    z.domain_size = rd.u32("domainSize");
    if (z.domain_size < 2 || (z.domain_size & (z.domain_size - 1)) != 0 || z.domain_size > (1u << 28)) {
      rd.fail_at(FileError::BadValue, at,
                 "domainSize = " + std::to_string(z.domain_size) + "; expected a power of two in [2, 2^28]");
    }
    if (std::uint64_t{z.n_public} + 1 > z.n_vars) {
      rd.fail_at(FileError::BadValue, at - 4,
                 "nPublic = " + std::to_string(z.n_public) + " with nVars = " + std::to_string(z.n_vars) +
                     "; expected nPublic + 1 <= nVars");
    }
    // On the curve here; identity and subgroup: validate_verifying_key below, with the other vk sources.
    const auto on_curve = ec::Check::OnCurveOnly;
    z.alpha1 = read_g1(rd, "alpha1", on_curve);
    z.beta1 = read_g1(rd, "beta1", on_curve);
    z.beta2 = read_g2(rd, "beta2", on_curve);
    z.gamma2 = read_g2(rd, "gamma2", on_curve);
    z.delta1 = read_g1(rd, "delta1", on_curve);
    z.delta2 = read_g2(rd, "delta2", on_curve);
    rd.expect_end();
  }
}

}  // namespace

namespace {

constexpr std::uint32_t kZkeyVersions[] = {1};

/// Sections 1–4 into `z`: the header, IC (with the verifying key validated) and the coefficients.
void read_zkey_head(const BinFile& f, Zkey& z, std::string_view source) {
  read_zkey_header(f, z);
  z.ic = read_points<G1Affine>(f, 3, std::size_t{z.n_public} + 1, kG1Bytes, "IC", "nPublic + 1", ec::Check::OnCurveOnly,
                               g1_from_lem);
  validate_verifying_key(z.verifying_key(), "zkey '" + std::string(source) + "'");
  {
    const auto& s = f.require(4);
    SectionReader rd(f, s);
    const std::uint32_t n = rd.u32("nCoeffs");
    constexpr std::size_t kEntry = 12 + kN8r;
    if (rd.remaining() != std::uint64_t{n} * kEntry) {
      rd.fail(FileError::SectionSize, std::to_string(rd.remaining()) + " bytes after nCoeffs; expected nCoeffs (" +
                                          std::to_string(n) + ") × 44 = " + std::to_string(std::uint64_t{n} * kEntry));
    }
    z.coeffs.resize(n);
    const std::uint8_t* base = f.data(s).data() + 4;
    // value = coef·R² (canonical); as Montgomery limbs it is coef·R, so one Montgomery reduction
    // (to_canonical) gives coef·R = the Montgomery form of coef.
    auto decode = [&](std::size_t i) {
      const std::uint8_t* p = base + i * kEntry;
      ZkeyCoeff& c = z.coeffs[i];
      std::memcpy(&c.matrix, p, 4);
      std::memcpy(&c.constraint, p + 4, 4);
      std::memcpy(&c.signal, p + 8, 4);
      auto l = limbs_le<4>({p + 12, kN8r});
      if (c.matrix > 1 || c.constraint >= z.domain_size || c.signal >= z.n_vars || !canonical_ok(l)) return false;
      c.value = Fr::from_montgomery(Fr::from_montgomery(l).to_canonical());
      return true;
    };
    std::size_t bad = first_failure(n, decode);
    if (bad < n) {
      const ZkeyCoeff& c = z.coeffs[bad];
      const std::uint64_t at = s.offset + 4 + bad * kEntry;
      const std::string e = "coefficient entry " + std::to_string(bad) + ": ";
      if (c.matrix > 1) rd.fail_at(FileError::BadValue, at, e + "matrix " + std::to_string(c.matrix) + "; expected 0 (A) or 1 (B)");
      if (c.constraint >= z.domain_size) {
        rd.fail_at(FileError::BadValue, at + 4, e + "constraint " + std::to_string(c.constraint) +
                                                    "; expected < domainSize = " + std::to_string(z.domain_size));
      }
      if (c.signal >= z.n_vars) {
        rd.fail_at(FileError::BadValue, at + 8,
                   e + "signal " + std::to_string(c.signal) + "; expected < nVars = " + std::to_string(z.n_vars));
      }
      rd.fail_at(FileError::NotCanonical, at + 12, e + "value >= r");
    }
  }
}

}  // namespace

Zkey Zkey::from_bytes(std::span<const std::uint8_t> bytes, const ZkeyReadOptions& opts, std::string_view source) {
  BinFile f(bytes, "zkey", kZkeyVersions, std::string(source), section_name_zkey);
  Zkey z;
  read_zkey_head(f, z, source);
  const std::size_t nv = z.n_vars;
  z.a = read_points<G1Affine>(f, 5, nv, kG1Bytes, "A", "nVars", opts.check, g1_from_lem);
  z.b1 = read_points<G1Affine>(f, 6, nv, kG1Bytes, "B1", "nVars", opts.check, g1_from_lem);
  z.b2 = read_points<G2Affine>(f, 7, nv, kG2Bytes, "B2", "nVars", opts.check, g2_from_lem);
  z.c = read_points<G1Affine>(f, 8, nv - z.n_public - 1, kG1Bytes, "C", "nVars - nPublic - 1", opts.check, g1_from_lem);
  z.h = read_points<G1Affine>(f, 9, z.domain_size, kG1Bytes, "H", "domainSize", opts.check, g1_from_lem);
  if (const auto* s = f.find(10)) {
    auto d = f.data(*s);
    z.contributions.assign(d.begin(), d.end());
  }
  return z;
}

Zkey Zkey::read_file(const std::string& path, const ZkeyReadOptions& opts) {
  auto m = MappedFile::open(path);
  return from_bytes(m.bytes(), opts, path);
}

Zkey Zkey::read_header_file(const std::string& path) {
  auto m = MappedFile::open(path);
  BinFile f(m.bytes(), "zkey", kZkeyVersions, path, section_name_zkey);
  Zkey z;
  read_zkey_header(f, z);
  return z;
}

// ---- .zkey with its points left in the file (ZkeyFile) ------------------------------------------

namespace {

/// Parameters' query → its zkey section and name (as read_file's messages name it).
constexpr std::uint32_t kQuerySection[5] = {9, 8, 5, 6, 7};  // H, L, A, BG1, BG2
constexpr const char* kQueryName[5] = {"H", "C", "A", "B1", "B2"};

}  // namespace

ZkeyFile::ZkeyFile(const std::string& path, const ZkeyReadOptions& opts) : path_(path), check_(opts.check) {
  {
    auto m = MappedFile::open(path);
    BinFile f(m.bytes(), "zkey", kZkeyVersions, path, section_name_zkey);
    read_zkey_head(f, head_, path);
    const std::size_t nv = head_.n_vars;
    offset_[5] = require_point_section(f, 5, nv, kG1Bytes, "nVars").offset;
    offset_[6] = require_point_section(f, 6, nv, kG1Bytes, "nVars").offset;
    offset_[7] = require_point_section(f, 7, nv, kG2Bytes, "nVars").offset;
    offset_[8] = require_point_section(f, 8, nv - head_.n_public - 1, kG1Bytes, "nVars - nPublic - 1").offset;
    offset_[9] = require_point_section(f, 9, head_.domain_size, kG1Bytes, "domainSize").offset;
  }  // unmapped: the points are read with preads
  in_.assign(head_.n_vars, 0);
  for (const ZkeyCoeff& c : head_.coeffs) in_[c.signal] |= static_cast<std::uint8_t>(c.matrix == 0 ? 1 : 2);
  const std::uint32_t n_in = head_.n_public + 1;
  for (std::uint32_t sig = 0; sig < head_.n_vars; ++sig) {
    if (sig < n_in || in_a(sig)) a_signals_.push_back(sig);
    if (in_b(sig)) b_signals_.push_back(sig);
  }
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "zkey '" + path + "': open");
}

ZkeyFile::~ZkeyFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::uint32_t ZkeyFile::section_id(ParamsSection s) const noexcept { return kQuerySection[static_cast<int>(s)]; }

std::uint64_t ZkeyFile::count(ParamsSection s) const noexcept {
  switch (s) {
    case ParamsSection::H: return head_.domain_size;
    case ParamsSection::L: return head_.n_vars - head_.n_public - 1;
    case ParamsSection::A: return a_signals_.size();
    case ParamsSection::BG1:
    case ParamsSection::BG2: return b_signals_.size();
  }
  return 0;
}

std::uint64_t ZkeyFile::point_index(ParamsSection s, std::uint64_t i) const noexcept {
  switch (s) {
    case ParamsSection::A: return a_signals_[i];
    case ParamsSection::BG1:
    case ParamsSection::BG2: return b_signals_[i];
    default: return i;
  }
}

void ZkeyFile::pread_exact(std::uint8_t* dst, std::size_t bytes, std::uint64_t offset) const {
  while (bytes > 0) {
    const ssize_t got = ::pread(fd_, dst, bytes, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      throw std::system_error(got < 0 ? errno : EIO, std::generic_category(),
                              "zkey '" + path_ + "': read of " + std::to_string(bytes) + " bytes at byte " +
                                  std::to_string(offset) + (got == 0 ? " (the file got shorter)" : ""));
    }
    dst += got;
    bytes -= static_cast<std::size_t>(got);
    offset += static_cast<std::uint64_t>(got);
  }
}

void ZkeyFile::read_points(ParamsSection s, std::uint64_t first, std::uint64_t n, std::span<std::uint8_t> dst) const {
  const std::size_t pb = point_bytes(s);
  const std::uint64_t total = count(s);
  if (first > total || n > total - first || dst.size() != n * pb) {
    throw std::out_of_range("ZkeyFile::read_points: points [" + std::to_string(first) + ", " + std::to_string(first + n) +
                            ") of a query of " + std::to_string(total) + " in '" + path_ + "' into " +
                            std::to_string(dst.size()) + " bytes");
  }
  const std::uint64_t base = offset_[section_id(s)];
  // Pieces of up to 8 MiB of dst, read in parallel. A piece whose signals are consecutive is one
  // pread into dst; otherwise runs of signals spanning at most kSpan bytes of the file are read
  // into a scratch buffer and the selected points copied out.
  constexpr std::size_t kPiece = std::size_t{8} << 20, kSpan = std::size_t{8} << 20;
  const std::uint64_t per_piece = std::max<std::uint64_t>(1, kPiece / pb);
  const std::uint64_t pieces = (n + per_piece - 1) / per_piece;
  tbb::parallel_for(std::uint64_t{0}, pieces, [&](std::uint64_t piece) {
    const std::uint64_t lo = first + piece * per_piece, hi = std::min(first + n, lo + per_piece);
    std::uint8_t* out = dst.data() + (lo - first) * pb;
    const std::uint64_t p_lo = point_index(s, lo), p_last = point_index(s, hi - 1);
    if (p_last - p_lo == hi - 1 - lo) {  // consecutive in the file
      pread_exact(out, (hi - lo) * pb, base + p_lo * pb);
      return;
    }
    std::vector<std::uint8_t> scratch;
    for (std::uint64_t i = lo; i < hi;) {
      const std::uint64_t start = point_index(s, i);
      std::uint64_t j = i + 1;
      while (j < hi && (point_index(s, j) - start + 1) * pb <= kSpan) ++j;
      const std::uint64_t span_points = point_index(s, j - 1) - start + 1;
      scratch.resize(span_points * pb);
      pread_exact(scratch.data(), scratch.size(), base + start * pb);
      for (std::uint64_t k = i; k < j; ++k) std::memcpy(out + (k - lo) * pb, scratch.data() + (point_index(s, k) - start) * pb, pb);
      i = j;
    }
  });
}

void ZkeyFile::throw_bad_point(ParamsSection s, std::uint64_t index) const {
  if (index >= count(s)) throw std::logic_error("ZkeyFile::throw_bad_point: index beyond the query");
  const std::uint64_t at = point_index(s, index);
  auto m = MappedFile::open(path_);
  BinFile f(m.bytes(), "zkey", kZkeyVersions, path_, section_name_zkey);
  const auto& sec = f.require(section_id(s));
  SectionReader rd(f, sec);
  const std::size_t pb = point_bytes(s);
  if ((at + 1) * pb > sec.size) throw std::logic_error("ZkeyFile::throw_bad_point: the file changed since it was opened");
  const std::uint8_t* p = f.data(sec).data() + at * pb;
  PointStatus st;
  if (s == ParamsSection::BG2) {
    G2Affine q;
    st = g2_from_lem(q, p, check_);
  } else {
    G1Affine q;
    st = g1_from_lem(q, p, check_);
  }
  if (st == PointStatus::Ok) {
    throw std::logic_error("zkey '" + path_ + "': " + kQueryName[static_cast<int>(s)] + "[" + std::to_string(at) +
                           "] was reported bad by a decoder but decodes on the CPU");
  }
  point_fail(rd, sec.offset + at * pb, st, std::string(kQueryName[static_cast<int>(s)]) + "[" + std::to_string(at) + "]");
}

std::vector<std::uint8_t> Zkey::to_bytes() const {
  // Sections in the order snarkjs 0.7.6 writes them (zkey_new.js): 1, 2, 4, 3, 9, 8, 5, 6, 7, 10.
  std::vector<std::uint8_t> out;
  const bool contrib = !contributions.empty();
  put_container_header(out, "zkey", 1, contrib ? 10 : 9);
  std::vector<std::uint8_t> s;
  put_u32(s, 1);
  put_section(out, 1, s);
  s.clear();
  put_u32(s, kN8q);
  {
    const auto* q = reinterpret_cast<const std::uint8_t*>(Fp::kModulus.data());
    s.insert(s.end(), q, q + kN8q);
  }
  put_u32(s, kN8r);
  put_scalar(s, Fr::kModulus);
  put_u32(s, n_vars);
  put_u32(s, n_public);
  put_u32(s, domain_size);
  put_g1(s, alpha1);
  put_g1(s, beta1);
  put_g2(s, beta2);
  put_g2(s, gamma2);
  put_g1(s, delta1);
  put_g2(s, delta2);
  put_section(out, 2, s);
  s.clear();
  put_u32(s, static_cast<std::uint32_t>(coeffs.size()));
  const Fr r2 = Fr::from_canonical_unchecked(Fr::kR2);  // the value R² mod r
  for (const auto& c : coeffs) {
    put_u32(s, c.matrix);
    put_u32(s, c.constraint);
    put_u32(s, c.signal);
    put_scalar(s, (c.value * r2).to_canonical());
  }
  put_section(out, 4, s);
  auto g1s = [&](std::uint32_t id, const std::vector<G1Affine>& v) {
    std::vector<std::uint8_t> b;
    b.reserve(v.size() * kG1Bytes);
    for (const auto& p : v) put_g1(b, p);
    put_section(out, id, b);
  };
  g1s(3, ic);
  g1s(9, h);
  g1s(8, c);
  g1s(5, a);
  g1s(6, b1);
  {
    std::vector<std::uint8_t> b;
    b.reserve(b2.size() * kG2Bytes);
    for (const auto& p : b2) put_g2(b, p);
    put_section(out, 7, b);
  }
  if (contrib) put_section(out, 10, contributions);
  return out;
}

void Zkey::write_file(const std::string& path) const { write_file_bytes(path, to_bytes()); }

// =================================================================================================
// cross-file checks
// =================================================================================================

void check_witness_matches(const Zkey& zkey, const Witness& w, std::string_view zkey_name, std::string_view wtns_name) {
  check_witness_matches(zkey.n_vars, w, zkey_name, wtns_name);
}

void check_witness_matches(std::uint32_t n_vars, const Witness& w, std::string_view zkey_name,
                           std::string_view wtns_name) {
  if (w.size() != n_vars) {
    throw FormatError(FileError::Mismatch, std::string(wtns_name), std::nullopt, std::nullopt,
                      "witness has " + std::to_string(w.size()) + " values; the zkey " + std::string(zkey_name) +
                          " has nVars = " + std::to_string(n_vars) + " (witness and zkey of different circuits?)");
  }
  if (w.size() > 0 && w.values[0] != ScalarLimbs{1, 0, 0, 0}) {
    throw FormatError(FileError::Mismatch, std::string(wtns_name), 2, std::nullopt,
                      "witness value 0 (the constant ONE wire) is not 1");
  }
}

void check_r1cs_matches(const Zkey& zkey, const R1cs& r1cs, std::string_view zkey_name, std::string_view r1cs_name) {
  auto bad = [&](const std::string& what) {
    throw FormatError(FileError::Mismatch, std::string(r1cs_name), std::nullopt, std::nullopt,
                      what + " (zkey " + std::string(zkey_name) + "; r1cs and zkey of different circuits?)");
  };
  if (r1cs.n_wires != zkey.n_vars) {
    bad("r1cs has " + std::to_string(r1cs.n_wires) + " wires; the zkey has nVars = " + std::to_string(zkey.n_vars));
  }
  if (r1cs.n_public() != zkey.n_public) {
    bad("r1cs has " + std::to_string(r1cs.n_public()) + " public signals; the zkey has nPublic = " +
        std::to_string(zkey.n_public));
  }
  if (std::uint64_t{r1cs.n_constraints} + zkey.n_public + 1 > zkey.domain_size) {
    bad("r1cs has " + std::to_string(r1cs.n_constraints) + " constraints; with nPublic + 1 padding rows they exceed domainSize = " +
        std::to_string(zkey.domain_size));
  }
}

std::optional<std::size_t> first_unsatisfied(const R1cs& r1cs, const Witness& w) {
  if (w.size() != r1cs.n_wires) {
    throw FormatError(FileError::Mismatch, "witness", std::nullopt, std::nullopt,
                      "witness has " + std::to_string(w.size()) + " values; the r1cs has nWires = " +
                          std::to_string(r1cs.n_wires));
  }
  std::vector<Fr> wf(w.size());
  tbb::parallel_for(std::size_t{0}, w.size(), [&](std::size_t i) { wf[i] = w.fr(i); });
  auto eval = [&](std::span<const R1csTerm> lc) {
    Fr acc = Fr::zero();
    for (const auto& t : lc) acc += t.coeff * wf[t.wire];
    return acc;
  };
  const std::size_t n = r1cs.n_constraints;
  std::size_t bad = first_failure(n, [&](std::size_t c) { return eval(r1cs.lc(c, 0)) * eval(r1cs.lc(c, 1)) == eval(r1cs.lc(c, 2)); });
  if (bad < n) return bad;
  return std::nullopt;
}

void check_witness(const R1cs& r1cs, const Witness& w, std::string_view wtns_name) {
  auto failing = first_unsatisfied(r1cs, w);
  if (w.size() > 0 && w.values[0] != ScalarLimbs{1, 0, 0, 0}) {
    throw FormatError(FileError::Mismatch, std::string(wtns_name), 2, std::nullopt,
                      "witness value 0 (the constant ONE wire) is not 1");
  }
  if (!failing) return;
  const std::size_t c = *failing;
  std::vector<Fr> v;
  for (int k = 0; k < 3; ++k) {
    Fr acc = Fr::zero();
    for (const auto& t : r1cs.lc(c, k)) acc += t.coeff * w.fr(t.wire);
    v.push_back(acc);
  }
  throw FormatError(FileError::Unsatisfied, std::string(wtns_name), std::nullopt, std::nullopt,
                    "constraint " + std::to_string(c) + " of " + std::to_string(r1cs.n_constraints) +
                        " fails: <A,w> = " + to_decimal(v[0]) + ", <B,w> = " + to_decimal(v[1]) +
                        ", <A,w>*<B,w> = " + to_decimal(v[0] * v[1]) + ", <C,w> = " + to_decimal(v[2]));
}

}  // namespace proofline::groth16::snarkjs
