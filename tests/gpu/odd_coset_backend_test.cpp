// tests/gpu/odd_coset_backend_test.cpp — the CUDA backend with snarkjs-form Parameters
// (groth16::HForm::OddCoset: h = the zkey's m H points, rows placed at J·c mod m, as the engine's
// snarkjs kind hands them over) gives the proof of the CPU references for the same (r, s), bit for
// bit: the proof computed from the toxic waste (tests/snarkjs/toy_setup.hpp) and groth16::CpuBackend's.
//   GpuOddCoset.*: the device pieces on real rows (H scalars, H MSM, assembled with the CPU's other
//     MSMs), independent of the CPU backend's OddCoset support;
//   GpuBackendOddCoset.*: GpuBackend::prove end to end.
// The zkeys: the hand-written toy (domain 8) and circom-shaped chains filling domains 512 (no
// padding) and 1024, each read back through the .zkey encoding; then a Bellperson and an OddCoset
// proof of the same domain size in turn on one backend (one NttDomain, both forms). Skipped without
// a device.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "../snarkjs/toy_setup.hpp"
#include "proofline/circuits/bench/bench.hpp"
#include "proofline/gpu/backend.hpp"
#include "proofline/gpu/msm.hpp"
#include "proofline/gpu/ntt.hpp"
#include "proofline/groth16/groth16.hpp"
#include "proofline/groth16/snarkjs/circuit.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"
#include "proofline/msm/msm.hpp"
#include "require_device.hpp"

namespace {

using namespace proofline;
namespace sj = groth16::snarkjs;
using ff::Fr;
using groth16::Parameters;
using groth16::Proof;
using groth16::Randomizers;

/// A circom-shaped R1cs of links + 1 constraints: x_0 = z·z, x_k = (x_{k−1} + k)·z (k < links), then
/// y = x_{links−1}·1. Wires: 0 ONE, 1 y (public output), 2 z (public input), 3 … links + 2 the x_k,
/// and last one wire used nowhere (outside both densities).
sj::R1cs chain_r1cs(std::uint32_t links) {
  sj::R1cs r;
  r.n_wires = links + 4;
  r.n_pub_out = 1;
  r.n_pub_in = 1;
  r.n_prv_in = 0;
  r.n_labels = r.n_wires;
  const Fr one = Fr::one();
  auto T = [](std::uint32_t w, Fr c) { return sj::R1csTerm{w, c}; };
  std::vector<sj::R1csTerm> a{T(2, one)}, b{T(2, one)}, c{T(3, one)};
  r.add_constraint(a, b, c);
  for (std::uint32_t k = 1; k < links; ++k) {
    a = {T(2 + k, one), T(0, Fr::from_u64(k))}, b = {T(2, one)}, c = {T(3 + k, one)};
    r.add_constraint(a, b, c);
  }
  a = {T(2 + links, one)}, b = {T(0, one)}, c = {T(1, one)};
  r.add_constraint(a, b, c);
  for (std::uint64_t i = 0; i < r.n_wires; ++i) r.wire_to_label.push_back(i);
  return r;
}

sj::Witness chain_witness(std::uint32_t links, std::uint64_t z) {
  std::vector<Fr> w(links + 4);
  const Fr fz = Fr::from_u64(z);
  w[0] = Fr::one();
  w[2] = fz;
  w[3] = fz * fz;
  for (std::uint32_t k = 1; k < links; ++k) w[3 + k] = (w[2 + k] + Fr::from_u64(k)) * fz;
  w[1] = w[2 + links];
  w[3 + links] = Fr::from_u64(42);
  return sj::Witness::from_fr(w);
}

/// What the engine's snarkjs kind hands a backend for a zkey and a witness: the conversion of
/// groth16/snarkjs/circuit.hpp (h = the zkey's H section, HForm::OddCoset; rows at J·c mod m).
struct OddCosetCase {
  Parameters params;
  r1cs::ProvingBuffers buf;
};

OddCosetCase odd_coset_case(const sj::Zkey& z, const sj::Witness& wit) {
  OddCosetCase out;
  sj::ZkeyParameters zp = sj::zkey_parameters(z);
  sj::synthesize(zp.circuit, wit, out.buf, "zkey", "wtns");
  out.params = std::move(zp.params);
  return out;
}

sj::testing::Toxic toxic(std::uint64_t seed) {
  return sj::testing::Toxic{Fr::from_u64(1234567 + seed), Fr::from_u64(89 + seed), Fr::from_u64(1011 + seed),
                   Fr::from_u64(121314 + seed)};
}

/// A Bellperson-form proof of a 2^lg bench circuit on `backend`, checked against the CPU backend.
void expect_bellperson_proof_as_cpu(gpu::GpuBackend& backend, unsigned lg, const std::string& what) {
  const circuits::bench::SizedCircuit circuit(lg, Fr::from_u64(3));
  groth16::SeededRandom rng(lg);
  groth16::SetupOptions opts;
  opts.warn = false;
  opts.progress_min_constraints = ~std::size_t{0};
  const Parameters params = groth16::generate_parameters(circuit, rng, opts);
  ASSERT_EQ(params.h_form, groth16::HForm::Bellperson);
  std::vector<r1cs::ProvingBuffers> for_cpu{groth16::synthesize_for_proving(circuit)}, for_gpu = for_cpu;
  const std::vector<Randomizers> rs{{Fr::from_u64(5), Fr::from_u64(6)}};
  groth16::CpuBackend cpu;
  const auto want = cpu.prove(params, for_cpu, rs);
  const auto got = backend.prove(params, for_gpu, rs);
  ASSERT_EQ(got.proofs.size(), 1u) << what;
  EXPECT_EQ(got.proofs[0].to_bytes(), want.proofs[0].to_bytes()) << what;
}

/// A snarkjs zkey (from toxic waste, read back through its .zkey bytes as a file is read), a witness
/// and what the engine makes of them.
struct ZkCase {
  std::string name;
  sj::Witness wit;
  sj::testing::ToyKey key;
  sj::Zkey zkey;
  OddCosetCase oc;
  unsigned lg = 0;
};

std::vector<ZkCase> zk_cases() {
  struct Src {
    std::string name;
    sj::R1cs r1cs;
    sj::Witness wit;
  };
  std::vector<Src> srcs;
  srcs.push_back({"toy", sj::testing::toy_r1cs(), sj::testing::toy_witness(3, 17)});
  srcs.push_back({"chain 508 (m = 512, every row used)", chain_r1cs(508), chain_witness(508, 7)});
  srcs.push_back({"chain 600 (m = 1024)", chain_r1cs(600), chain_witness(600, 11)});
  std::vector<ZkCase> out;
  std::uint64_t seed = 0;
  for (Src& src : srcs) {
    EXPECT_FALSE(sj::first_unsatisfied(src.r1cs, src.wit).has_value()) << src.name;
    ZkCase zc;
    zc.name = src.name;
    zc.wit = std::move(src.wit);
    zc.key = sj::testing::toy_setup(src.r1cs, toxic(++seed));
    zc.zkey = sj::Zkey::from_bytes(zc.key.zkey.to_bytes(), {ec::Check::Subgroup}, src.name + ".zkey");
    zc.oc = odd_coset_case(zc.zkey, zc.wit);
    zc.lg = zc.zkey.log_domain_size();
    EXPECT_EQ(zc.oc.params.domain_size(), zc.zkey.domain_size) << src.name;
    EXPECT_EQ(zc.oc.params.h_terms(), zc.zkey.domain_size) << src.name;
    out.push_back(std::move(zc));
  }
  return out;
}

/// The backend's pieces on real rows, without GpuBackend::prove: the H scalars of
/// NttDomain::compute_h_odd_coset equal OddCosetH's, their H MSM on the device equals the CPU's, and
/// that sum with the CPU's other four MSMs assembles into the CPU references' proof.
TEST(GpuOddCoset, ScalarsAndHMsmOfSnarkjsZkeys) {
  REQUIRE_CUDA_DEVICE();
  for (ZkCase& zc : zk_cases()) {
    SCOPED_TRACE(zc.name);
    const Parameters& p = zc.oc.params;
    const r1cs::ProvingBuffers& w = zc.oc.buf;
    std::vector<Fr> a(w.a.begin(), w.a.end()), b(w.b.begin(), w.b.end()), c(w.c.begin(), w.c.end());
    std::vector<Fr> ca = a, cb = b, cc = c;
    const std::vector<Fr> want_h = sj::OddCosetH(zc.lg).compute(ca, cb, cc);
    gpu::NttDomain(zc.lg).compute_h_odd_coset_host(a, b, c);
    ASSERT_EQ(a, want_h);

    groth16::MsmResults m;
    m.h = gpu::msm_g1(p.h, a);
    ASSERT_EQ(m.h.to_affine(), msm::msm_g1(p.h, std::span<const Fr>(want_h)).to_affine());
    const std::span<const Fr> in(w.input_assignment), aux(w.aux_assignment);
    m.l = msm::msm_g1(p.l, aux);
    m.a = msm::msm_query_a<ec::G1Config>(p.a, in, aux, w.a_aux_density, {});
    m.b_g1 = msm::msm_query_b<ec::G1Config>(p.b_g1, in, w.b_input_density, aux, w.b_aux_density, {});
    m.b_g2 = msm::msm_query_b<ec::G2Config>(p.b_g2, in, w.b_input_density, aux, w.b_aux_density, {});
    const Randomizers rs{Fr::from_u64(31337), Fr::from_u64(271828)};
    const Proof got = groth16::assemble_proof(p.vk, m, rs);
    EXPECT_EQ(got.to_bytes(), sj::testing::expected_proof(zc.key, zc.wit, rs.r, rs.s).to_bytes());
  }
}

/// GpuBackend::prove end to end with OddCoset Parameters.
TEST(GpuBackendOddCoset, SameProofAsTheSnarkjsCpuReferences) {
  REQUIRE_CUDA_DEVICE();
  auto all = gpu::make_gpu_backends();
  ASSERT_FALSE(all.empty()) << "a device is visible but make_gpu_backends found none usable";
  gpu::GpuBackend& backend = *all.front();
  std::vector<ZkCase> cases = zk_cases();

  for (const ZkCase& zc : cases) {
    SCOPED_TRACE(zc.name);
    const OddCosetCase& oc = zc.oc;
    for (const auto& [r, s] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 0}, {31337, 271828}}) {
      const Randomizers rs{Fr::from_u64(r), Fr::from_u64(s)};
      const std::string what = "r = " + std::to_string(r) + ", s = " + std::to_string(s);
      std::vector<r1cs::ProvingBuffers> parts{oc.buf};
      const auto got = backend.prove(oc.params, parts, std::vector<Randomizers>{rs});
      ASSERT_EQ(got.proofs.size(), 1u) << what;
      const Proof& gp = got.proofs[0];
      EXPECT_EQ(parts[0].a, oc.buf.a) << what << ": the caller's buffers are untouched";

      const Proof oracle = sj::testing::expected_proof(zc.key, zc.wit, rs.r, rs.s);
      EXPECT_EQ(gp.to_bytes(), oracle.to_bytes()) << what << ": GPU vs the toxic-waste proof";
      EXPECT_TRUE(groth16::verify_proof(groth16::prepare_verifying_key(oc.params.vk), gp, zc.wit.public_inputs(zc.zkey.n_public))) << what;

      std::vector<r1cs::ProvingBuffers> for_cpu{oc.buf};
      groth16::CpuBackend cpu_backend;
      const auto cpu_be = cpu_backend.prove(oc.params, for_cpu, std::vector<Randomizers>{rs});
      EXPECT_EQ(gp.to_bytes(), cpu_be.proofs.at(0).to_bytes()) << what << ": GPU vs CpuBackend";
    }
  }
  // Both forms through one backend (and its one NttDomain) at the same domain size, in turn.
  expect_bellperson_proof_as_cpu(backend, 10, "bellperson 2^10 after the odd-coset proofs");
  const ZkCase& zc = cases.back();
  ASSERT_EQ(zc.lg, 10u);
  std::vector<r1cs::ProvingBuffers> parts{zc.oc.buf};
  const Randomizers rs{Fr::from_u64(2), Fr::from_u64(3)};
  const auto got = backend.prove(zc.oc.params, parts, std::vector<Randomizers>{rs});
  EXPECT_EQ(got.proofs.at(0).to_bytes(), sj::testing::expected_proof(zc.key, zc.wit, rs.r, rs.s).to_bytes())
      << "odd coset 2^10 after a bellperson 2^10";
}

/// Issue 33: a zkey through the one loader — snarkjs::zkey_shell leaves the points in the file and
/// the backend reads them from it to the device (resident) or to pinned host memory (streamed under
/// a device limit), decoding them there: the same proofs as the toxic-waste references, the queries'
/// infinity points included (the toy's unused wire), and a bad point named as Zkey::read_file names it.
TEST(GpuBackendOddCoset, ZkeyPointsStraightFromTheFile) {
  REQUIRE_CUDA_DEVICE();
  std::vector<ZkCase> cases = zk_cases();
  gpu::GpuBackendConfig streamed_cfg;
  streamed_cfg.device_memory_limit = std::size_t{1} << 20;  // far below the SRS: streamed mode
  streamed_cfg.enforce_device_memory_limit = false;
  streamed_cfg.srs_stream_chunk_points = 100;
  for (const ZkCase& zc : cases) {
    SCOPED_TRACE(zc.name);
    const std::string path =
        (std::filesystem::temp_directory_path() / ("proofline-gpu-zkey-" + std::to_string(::getpid()) + ".zkey")).string();
    zc.zkey.write_file(path);
    for (bool streamed : {false, true}) {
      const std::string what = streamed ? "streamed" : "resident";
      gpu::GpuBackend backend(streamed ? streamed_cfg : gpu::GpuBackendConfig{});
      const sj::ZkeyParameters shell = sj::zkey_shell(path);
      ASSERT_FALSE(shell.params.has_host_queries());
      r1cs::ProvingBuffers buf;
      sj::synthesize(shell.circuit, zc.wit, buf, "zkey", "wtns");
      const Randomizers rs{Fr::from_u64(31337), Fr::from_u64(271828)};
      std::vector<r1cs::ProvingBuffers> parts{buf};
      const auto got = backend.prove(shell.params, parts, std::vector<Randomizers>{rs});
      ASSERT_EQ(got.proofs.size(), 1u) << what;
      EXPECT_EQ(got.proofs[0].to_bytes(), sj::testing::expected_proof(zc.key, zc.wit, rs.r, rs.s).to_bytes()) << what;
      EXPECT_EQ(backend.srs_holding(shell.params).mode, streamed ? "streamed" : "resident") << what;
      EXPECT_EQ(got.timings.srs_upload_bytes,
                96 * (shell.params.h_len() + shell.params.l_len() + shell.params.a_len() + shell.params.b_g1_len()) +
                    192 * shell.params.b_g2_len())
          << what << ": the upload is timed and counted";
      EXPECT_GT(got.timings.srs_upload, 0.0) << what;
      // held now: the next call uploads nothing
      std::vector<r1cs::ProvingBuffers> again{buf};
      EXPECT_EQ(backend.prove(shell.params, again, std::vector<Randomizers>{rs}).timings.srs_upload_bytes, 0u) << what;
    }
    // a point off the curve in H (query index 3): the zkey's own error, from the device decoder
    std::vector<std::uint8_t> bytes = zc.zkey.to_bytes();
    {
      std::size_t p = 12;
      std::uint32_t n = 0;
      std::memcpy(&n, bytes.data() + 8, 4);
      for (std::uint32_t i = 0; i < n; ++i) {
        std::uint32_t id = 0;
        std::uint64_t len = 0;
        std::memcpy(&id, bytes.data() + p, 4);
        std::memcpy(&len, bytes.data() + p + 4, 8);
        if (id == 9) bytes[p + 12 + 3 * 96] ^= 1;
        p += 12 + len;
      }
    }
    groth16::write_file_bytes(path, bytes);
    std::string want;
    try {
      (void)sj::Zkey::read_file(path);
    } catch (const sj::FormatError& e) {
      want = e.what();
    }
    ASSERT_NE(want.find("H[3]"), std::string::npos) << want;
    const sj::ZkeyParameters shell = sj::zkey_shell(path);
    r1cs::ProvingBuffers buf;
    sj::synthesize(shell.circuit, zc.wit, buf, "zkey", "wtns");
    gpu::GpuBackend backend;
    std::vector<r1cs::ProvingBuffers> parts{buf};
    try {
      (void)backend.prove(shell.params, parts, std::vector<Randomizers>{{Fr::from_u64(1), Fr::from_u64(2)}});
      ADD_FAILURE() << "a zkey with a point off the curve was proved with";
    } catch (const sj::FormatError& e) {
      EXPECT_EQ(std::string(e.what()), want);
    }
    EXPECT_FALSE(backend.is_resident(shell.params)) << "nothing of a refused set stays on the device";
    std::filesystem::remove(path);
  }
}

}  // namespace
