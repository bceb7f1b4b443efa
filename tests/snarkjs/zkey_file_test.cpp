// snarkjs::ZkeyFile and zkey_shell (issue 33: a zkey through the one parameter loader, its points
// left in the file): the queries a loader reads are the bytes of the points zkey_parameters holds
// (in the zkey's encoding), in every split a loader may ask for; the circuit, verifying key and
// counts equal zkey_parameters'; a bad point is named by throw_bad_point exactly as Zkey::read_file
// names it; a damaged head is refused with read_file's error. The GPU side (the same proof from the
// file's points) is tests/gpu/odd_coset_backend_test.cpp.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "proofline/groth16/snarkjs/circuit.hpp"
#include "toy_setup.hpp"

namespace proofline::groth16::snarkjs {
namespace {

using Bytes = std::vector<std::uint8_t>;

/// A temporary file removed at scope exit.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& tag, const Bytes& bytes)
      : path((std::filesystem::temp_directory_path() /
              ("proofline-zkeyfile-" + tag + "-" + std::to_string(::getpid()) + ".zkey"))
                 .string()) {
    write_file_bytes(path, bytes);
  }
  ~TempFile() { std::filesystem::remove(path); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
};

void put_fp(Bytes& out, const ff::Fp& x) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(x.limbs.data());
  out.insert(out.end(), b, b + 48);
}
/// The zkey encoding of points (Montgomery little-endian x ‖ y, all zero for infinity), written here
/// independently of the reader.
Bytes encode(const std::vector<G1Affine>& ps) {
  Bytes out;
  for (const auto& p : ps) {
    if (p.infinity) {
      out.insert(out.end(), 96, 0);
    } else {
      put_fp(out, p.x);
      put_fp(out, p.y);
    }
  }
  return out;
}
Bytes encode(const std::vector<G2Affine>& ps) {
  Bytes out;
  for (const auto& p : ps) {
    if (p.infinity) {
      out.insert(out.end(), 192, 0);
    } else {
      put_fp(out, p.x.c0);
      put_fp(out, p.x.c1);
      put_fp(out, p.y.c0);
      put_fp(out, p.y.c1);
    }
  }
  return out;
}

/// x^3 + x + 5 = y chain: `links` constraints, plus wires used nowhere every `gap` wires (so the A and
/// B queries skip signals and a loader's read of them is a gather, not one run).
R1cs gappy_r1cs(std::uint32_t links, std::uint32_t gap) {
  R1cs r;
  r.n_pub_out = 1;
  r.n_pub_in = 1;
  r.n_prv_in = 0;
  const Fr one = Fr::one();
  auto T = [](std::uint32_t w, Fr c) { return R1csTerm{w, c}; };
  // wires: 0 ONE, 1 y, 2 z, then x_k interleaved with unused wires
  std::vector<std::uint32_t> x;
  std::uint32_t next = 3;
  for (std::uint32_t k = 0; k < links; ++k) {
    if (gap != 0 && k % gap == gap - 1) ++next;  // an unused wire
    x.push_back(next++);
  }
  r.n_wires = next;
  r.n_labels = next;
  std::vector<R1csTerm> a{T(2, one)}, b{T(2, one)}, c{T(x[0], one)};
  r.add_constraint(a, b, c);
  for (std::uint32_t k = 1; k < links; ++k) {
    // x_k = (x_{k−1} + k)·z on even k (A side), x_k = z·(x_{k−1} + k) on odd k (B side)
    if (k % 2 == 0) {
      a = {T(x[k - 1], one), T(0, Fr::from_u64(k))}, b = {T(2, one)};
    } else {
      a = {T(2, one)}, b = {T(x[k - 1], one), T(0, Fr::from_u64(k))};
    }
    c = {T(x[k], one)};
    r.add_constraint(a, b, c);
  }
  a = {T(x.back(), one)}, b = {T(0, one)}, c = {T(1, one)};
  r.add_constraint(a, b, c);
  for (std::uint64_t i = 0; i < r.n_wires; ++i) r.wire_to_label.push_back(i);
  return r;
}

struct Case {
  std::string name;
  Bytes zkey;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  const testing::Toxic t{Fr::from_u64(77), Fr::from_u64(3), Fr::from_u64(5), Fr::from_u64(7)};
  out.push_back({"toy", testing::toy_setup(testing::toy_r1cs(), t).zkey.to_bytes()});
  out.push_back({"gappy 300 / 7", testing::toy_setup(gappy_r1cs(300, 7), t).zkey.to_bytes()});
  out.push_back({"gappy 200 / 0", testing::toy_setup(gappy_r1cs(200, 0), t).zkey.to_bytes()});
  return out;
}

constexpr ParamsSection kQueries[] = {ParamsSection::H, ParamsSection::L, ParamsSection::A, ParamsSection::BG1,
                                      ParamsSection::BG2};

Bytes expected_query(const Parameters& p, ParamsSection s) {
  switch (s) {
    case ParamsSection::H: return encode(p.h);
    case ParamsSection::L: return encode(p.l);
    case ParamsSection::A: return encode(p.a);
    case ParamsSection::BG1: return encode(p.b_g1);
    case ParamsSection::BG2: return encode(p.b_g2);
  }
  return {};
}

TEST(ZkeyFile, QueriesAreTheConvertedPointsInTheZkeyEncoding) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    TempFile f(c.name.substr(0, 4), c.zkey);
    const ZkeyParameters whole = zkey_parameters(Zkey::read_file(f.path));
    const ZkeyParameters shell = zkey_shell(f.path);
    ASSERT_TRUE(shell.params.source);
    EXPECT_FALSE(shell.params.has_host_queries());
    EXPECT_TRUE(shell.params.h.empty() && shell.params.l.empty() && shell.params.a.empty() && shell.params.b_g1.empty() &&
                shell.params.b_g2.empty());
    EXPECT_EQ(shell.params.source->encoding(), QuerySource::Encoding::Zkey);
    EXPECT_EQ(shell.params.source->path(), f.path);
    EXPECT_EQ(shell.params.h_form, HForm::OddCoset);
    EXPECT_EQ(shell.params.vk, whole.params.vk);
    EXPECT_EQ(shell.params.h_len(), whole.params.h.size());
    EXPECT_EQ(shell.params.l_len(), whole.params.l.size());
    EXPECT_EQ(shell.params.a_len(), whole.params.a.size());
    EXPECT_EQ(shell.params.b_g1_len(), whole.params.b_g1.size());
    EXPECT_EQ(shell.params.b_g2_len(), whole.params.b_g2.size());
    EXPECT_EQ(shell.params.domain_size(), whole.params.domain_size());
    // the circuit
    EXPECT_EQ(shell.circuit.n_vars, whole.circuit.n_vars);
    EXPECT_EQ(shell.circuit.n_public, whole.circuit.n_public);
    EXPECT_EQ(shell.circuit.domain_size, whole.circuit.domain_size);
    EXPECT_EQ(shell.circuit.coeffs, whole.circuit.coeffs);
    EXPECT_EQ(shell.circuit.a_aux_density.words().size(), whole.circuit.a_aux_density.words().size());
    EXPECT_TRUE(std::ranges::equal(shell.circuit.a_aux_density.words(), whole.circuit.a_aux_density.words()));
    EXPECT_TRUE(std::ranges::equal(shell.circuit.b_input_density.words(), whole.circuit.b_input_density.words()));
    EXPECT_TRUE(std::ranges::equal(shell.circuit.b_aux_density.words(), whole.circuit.b_aux_density.words()));
    // the queries: whole, and in every chunking a loader may use (1, 2, 3, 5, 64 points at a time)
    const QuerySource& src = *shell.params.source;
    for (ParamsSection s : kQueries) {
      const Bytes want = expected_query(whole.params, s);
      const std::size_t pb = QuerySource::point_bytes(s);
      const std::uint64_t n = src.count(s);
      ASSERT_EQ(want.size(), n * pb) << static_cast<int>(s);
      for (std::uint64_t per : {n, std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{5}, std::uint64_t{64}}) {
        if (per == 0) continue;
        Bytes got(n * pb, 0xaa);
        for (std::uint64_t first = 0; first < n; first += per) {
          const std::uint64_t k = std::min(per, n - first);
          src.read_points(s, first, k, std::span<std::uint8_t>(got.data() + first * pb, k * pb));
        }
        EXPECT_EQ(got, want) << "query " << static_cast<int>(s) << ", " << per << " points per read";
      }
      // past the end, or a destination of the wrong size
      Bytes one(pb);
      EXPECT_THROW(src.read_points(s, n, 1, one), std::out_of_range);
      if (n > 0) {
        Bytes two(2 * pb);
        EXPECT_THROW(src.read_points(s, 0, 1, two), std::out_of_range);
      }
    }
    // the gappy circuits skip signals in both the A and the B query
    if (c.name.starts_with("gappy 300")) {
      EXPECT_LT(src.count(ParamsSection::A), whole.circuit.n_vars);
      EXPECT_LT(src.count(ParamsSection::BG1), whole.circuit.n_vars - 100);
    }
  }
}

/// File offset of point `index` of zkey section `id`.
std::size_t point_offset(const Bytes& b, std::uint32_t id, std::size_t index, std::size_t pb) {
  std::size_t p = 12;
  for (std::uint32_t i = 0, n = [&] { std::uint32_t v; std::memcpy(&v, b.data() + 8, 4); return v; }(); i < n; ++i) {
    std::uint32_t sid;
    std::uint64_t len;
    std::memcpy(&sid, b.data() + p, 4);
    std::memcpy(&len, b.data() + p + 4, 8);
    if (sid == id) return p + 12 + index * pb;
    p += 12 + len;
  }
  ADD_FAILURE() << "no section " << id;
  return 0;
}

std::string read_file_error(const std::string& path, ec::Check check) {
  try {
    (void)Zkey::read_file(path, ZkeyReadOptions{check});
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(ZkeyFile, ABadPointIsNamedAsReadFileNamesIt) {
  const Case c = cases()[1];  // gappy 300 / 7
  TempFile good("good", c.zkey);
  const ZkeyParameters shell = zkey_shell(good.path);
  const auto* zf = dynamic_cast<const ZkeyFile*>(shell.params.source.get());
  ASSERT_NE(zf, nullptr);
  // A query point k of the A query lies at its signal in section 5; damage one point of each query.
  struct Damage {
    ParamsSection s;
    std::uint32_t section;
    std::uint64_t query_index;
    bool off_curve;  // else a coordinate >= q
  };
  std::uint64_t a_index = shell.params.a_len() - 3, b_index = shell.params.b_g1_len() / 2;
  const std::vector<Damage> damages = {{ParamsSection::H, 9, 5, true},
                                       {ParamsSection::L, 8, 17, false},
                                       {ParamsSection::A, 5, a_index, true},
                                       {ParamsSection::BG1, 6, b_index, true},
                                       {ParamsSection::BG2, 7, b_index, false}};
  for (const Damage& d : damages) {
    SCOPED_TRACE(static_cast<int>(d.s));
    // the signal of that query point: find it through the good file's selection
    std::uint64_t signal = d.query_index;
    if (d.s == ParamsSection::A || d.s == ParamsSection::BG1 || d.s == ParamsSection::BG2) {
      std::uint64_t seen = 0;
      for (std::uint32_t sig = 0; sig < zf->head().n_vars; ++sig) {
        const bool in = d.s == ParamsSection::A ? (sig <= zf->head().n_public || zf->in_a(sig)) : zf->in_b(sig);
        if (in && seen++ == d.query_index) {
          signal = sig;
          break;
        }
      }
    }
    const std::size_t pb = QuerySource::point_bytes(d.s);
    Bytes bad = c.zkey;
    const std::size_t at = point_offset(bad, d.section, signal, pb);
    if (d.off_curve) {
      bad[at] ^= 1;  // x changes, y stays: off the curve (x stays < q: its low byte)
    } else {
      std::memset(bad.data() + at, 0xff, 48);  // x = 2^384 − 1 >= q
    }
    TempFile f("bad", bad);
    const std::string want = read_file_error(f.path, ec::Check::OnCurveOnly);
    ASSERT_NE(want, "") << "read_file takes the damaged file";
    EXPECT_NE(want.find(std::to_string(at)), std::string::npos) << want;
    const ZkeyParameters sh = zkey_shell(f.path);  // the head is fine: opens
    try {
      sh.params.source->throw_bad_point(d.s, d.query_index);
      ADD_FAILURE() << "throw_bad_point returned";
    } catch (const FormatError& e) {
      EXPECT_EQ(std::string(e.what()), want);
    }
    // a good point reported bad is a logic error, not a FormatError about the file
    EXPECT_THROW(sh.params.source->throw_bad_point(d.s, d.query_index == 0 ? 1 : 0), std::logic_error);
  }
}

TEST(ZkeyFile, ADamagedHeadIsRefusedWithReadFilesError) {
  const Case c = cases()[0];
  // truncated inside section 9 (H), a coefficient entry naming a signal beyond nVars, the IC broken
  Bytes truncated(c.zkey.begin(), c.zkey.end() - 100);
  Bytes bad_ic = c.zkey;
  bad_ic[point_offset(bad_ic, 3, 1, 96)] ^= 1;
  for (const auto& [label, bytes] : std::vector<std::pair<std::string, Bytes>>{{"truncated", truncated}, {"bad IC", bad_ic}}) {
    SCOPED_TRACE(label);
    TempFile f("head", bytes);
    const std::string want = read_file_error(f.path, ec::Check::OnCurveOnly);
    ASSERT_NE(want, "");
    try {
      (void)zkey_shell(f.path);
      ADD_FAILURE() << "zkey_shell took it";
    } catch (const FormatError& e) {
      EXPECT_EQ(std::string(e.what()), want);
    }
  }
  EXPECT_THROW((void)zkey_shell("/nonexistent/c.zkey"), std::system_error);
}

}  // namespace
}  // namespace proofline::groth16::snarkjs
