// tests/gpu/srs_stream_test.cpp — the SRS straight from a .params file to the device
// (gpu/srs_load.hpp) and the two residency modes of GpuBackend (backend.hpp "Residency"):
//  - the loader's device bytes equal GpuMsm::set_bases' bytes for the host-decoded points (every
//    section, chunks of one point up to the whole section; to device and to host memory);
//  - proofs from a shell (queries only in the file) equal the CPU's for the same r, s;
//  - a device memory limit too small for the SRS streams it (chunks of a few hundred points):
//    same proof bytes as the resident path and the CPU, host or file source;
//  - a bad point is named as read_file names it (section, element, offset), on-curve always and
//    subgroup when the file was opened with Check::Subgroup.
// Skipped without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "../groth16/test_util.hpp"
#include "gpu/device_buffer.cuh"
#include "proofline/circuits/bench/bench.hpp"
#include "proofline/gpu/backend.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/msm.hpp"
#include "proofline/gpu/srs_load.hpp"
#include "proofline/groth16/groth16.hpp"
#include "require_device.hpp"

namespace {

using namespace proofline;
using ff::Fr;
using groth16::Parameters;
using groth16::ParamsFile;
using groth16::ParamsSection;
using groth16::Randomizers;

Parameters setup_for(const r1cs::CircuitInterface& c, std::uint64_t seed) {
  groth16::SeededRandom rng(seed);
  groth16::SetupOptions opts;
  opts.warn = false;
  opts.progress_min_constraints = ~std::size_t{0};
  return groth16::generate_parameters(c, rng, opts);
}

std::vector<std::uint8_t> device_bytes(const void* d, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  if (n) CUDA_CHECK(cudaMemcpy(out.data(), d, n, cudaMemcpyDeviceToHost));
  return out;
}

/// The packed device bytes GpuMsm::set_bases makes of host points (the old upload path).
template <class Msm, class Affine>
std::vector<std::uint8_t> uploaded_bytes(const std::vector<Affine>& pts) {
  Msm m;
  m.set_bases(pts);
  return device_bytes(m.bases_device(), pts.size() * 2 * sizeof(typename Affine::Field));
}

/// Device bytes of a resident SRS (backend.hpp "Residency"): 96 per G1 base, 192 per G2 base.
std::size_t srs_device_bytes(const Parameters& p) {
  return 96 * (p.h_len() + p.l_len() + p.a_len() + p.b_g1_len()) + 192 * p.b_g2_len();
}

struct Bench12 {
  circuits::bench::SizedCircuit circuit{12, Fr::from_u64(12)};
  Parameters params = setup_for(circuit, 1212);
  std::string path = groth16::testing::temp_path("gpu_bench12.params");
  Bench12() { params.write_file(path); }
  /// The parameters as a shell over the file (queries left in it), as the daemon loads them.
  Parameters shell() const { return ParamsFile::shell(std::make_shared<const ParamsFile>(path)); }
  ~Bench12() { std::remove(path.c_str()); }
};

TEST(SrsLoad, DeviceBytesEqualTheUploadPath) {
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  const std::vector<std::uint8_t> want[5] = {
      uploaded_bytes<gpu::GpuMsmG1>(b.params.h), uploaded_bytes<gpu::GpuMsmG1>(b.params.l),
      uploaded_bytes<gpu::GpuMsmG1>(b.params.a), uploaded_bytes<gpu::GpuMsmG1>(b.params.b_g1),
      uploaded_bytes<gpu::GpuMsmG2>(b.params.b_g2)};
  // chunks of 1–2 points up to the whole section; the subgroup check (one thread per point, [r]P)
  // only with whole-section chunks (a chunk of one point would run it one point per launch)
  for (std::size_t chunk : {std::size_t{192}, std::size_t{96 * 1000}, std::size_t{64} << 20}) {
    const ParamsFile f(b.path, groth16::ReadOptions{chunk == (std::size_t{64} << 20) ? ec::Check::Subgroup
                                                                                     : ec::Check::OnCurveOnly});
    gpu::SrsLoader loader(chunk);
    for (int k = 0; k < 5; ++k) {
      const auto s = static_cast<ParamsSection>(k);
      const std::size_t bytes = f.section(s).count * gpu::device_point_bytes(s);
      ASSERT_EQ(bytes, want[k].size());
      gpu::DeviceBuffer d(bytes, "test bases");
      loader.load(f, s, d.get());
      EXPECT_EQ(device_bytes(d.get(), bytes), want[k]) << "section " << k << " chunk " << chunk;
      std::vector<std::uint8_t> host(bytes);
      loader.load(f, s, host.data(), true);
      EXPECT_EQ(host, want[k]) << "section " << k << " chunk " << chunk << " to host";
    }
  }
}

TEST(SrsLoad, BadPointsAreNamedAsReadFileNamesThem) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(51);
  const Parameters p = groth16::testing::random_parameters(rng, 2, 7, 5, 6, 4);
  const auto bytes = p.to_bytes();
  const std::string path = groth16::testing::temp_path("gpu_bad.params");
  auto outcome = [&](const std::vector<std::uint8_t>& b, ec::Check check, bool via_backend) {
    groth16::write_file_bytes(path, b);
    std::pair<Error, std::string> whole{Error::Ok, ""}, gpu_side{Error::Ok, ""};
    try {
      Parameters::read_file(path, groth16::ReadOptions{check});
    } catch (const ProoflineError& e) {
      whole = {e.code(), e.what()};
    }
    try {
      auto f = std::make_shared<const ParamsFile>(path, groth16::ReadOptions{check});
      if (via_backend) {
        gpu::GpuBackend backend;
        const Parameters shell = ParamsFile::shell(f);
        try {
          backend.preload(shell);
        } catch (...) {
          EXPECT_EQ(backend.resident_bytes(), 0u) << "nothing stays after a failed load";
          EXPECT_EQ(backend.srs_holding(shell).mode, "");
          throw;
        }
      } else {
        gpu::SrsLoader loader(96 * 2);
        for (int k = 0; k < 5; ++k) {
          const auto s = static_cast<ParamsSection>(k);
          gpu::DeviceBuffer d(f->section(s).count * gpu::device_point_bytes(s), "test bases");
          loader.load(*f, s, d.get());
        }
      }
    } catch (const ProoflineError& e) {
      gpu_side = {e.code(), e.what()};
    }
    return std::pair{whole, gpu_side};
  };
  const std::size_t vk = p.vk.serialized_size();
  const std::size_t l0 = vk + 4 + 96 * 7 + 4, b20 = l0 + 96 * 5 + 4 + 96 * 6 + 4 + 96 * 4 + 4;
  for (bool via_backend : {false, true}) {
    auto bad = bytes;
    bad[l0 + 96 * 3 + 95] ^= 1;  // l[3] off the curve
    auto [whole, got] = outcome(bad, ec::Check::OnCurveOnly, via_backend);
    EXPECT_EQ(got.first, Error::NotOnCurve) << got.second;
    EXPECT_EQ(got.second, whole.second);
    EXPECT_NE(got.second.find("section l, element 3 of 5 at byte offset " + std::to_string(l0 + 96 * 3)),
              std::string::npos)
        << got.second;
    bad = bytes;
    bad[b20 + 192 * 2] |= 0x40;  // b_g2[2]: infinity flag over a non-zero point
    std::tie(whole, got) = outcome(bad, ec::Check::OnCurveOnly, via_backend);
    EXPECT_NE(got.first, Error::Ok);
    EXPECT_EQ(got.second, whole.second);
    // a coordinate >= p
    bad = bytes;
    for (int i = 1; i < 48; ++i) bad[l0 + i] = 0xff;
    bad[l0] = 0x1f;
    std::tie(whole, got) = outcome(bad, ec::Check::OnCurveOnly, via_backend);
    EXPECT_NE(got.first, Error::Ok);
    EXPECT_EQ(got.second, whole.second);
    Parameters q = p;
    q.a[5] = groth16::testing::g1_outside_subgroup();
    q.b_g2[3] = groth16::testing::g2_outside_subgroup();
    std::tie(whole, got) = outcome(q.to_bytes(), ec::Check::Subgroup, via_backend);
    EXPECT_EQ(got.first, Error::NotInSubgroup) << got.second;
    EXPECT_EQ(got.second, whole.second);
    EXPECT_NE(got.second.find("section a, element 5"), std::string::npos) << got.second;
    std::tie(whole, got) = outcome(q.to_bytes(), ec::Check::OnCurveOnly, via_backend);
    EXPECT_EQ(got.first, Error::Ok) << got.second;
    q = p;
    q.h[2] = ec::G1Affine::identity();
    std::tie(whole, got) = outcome(q.to_bytes(), ec::Check::OnCurveOnly, via_backend);
    EXPECT_EQ(got.first, Error::UnexpectedInfinity) << got.second;
    EXPECT_EQ(got.second, whole.second);
  }
  std::remove(path.c_str());
}

/// The proofs of `params` on `backend` equal the CPU backend's on the host parameters `ref`.
void expect_cpu_proofs(gpu::GpuBackend& backend, const Parameters& params, const Parameters& ref,
                       const r1cs::CircuitInterface& circuit, std::uint64_t seed, const std::string& what) {
  std::vector<r1cs::ProvingBuffers> w(2, groth16::synthesize_for_proving(circuit));
  std::vector<r1cs::ProvingBuffers> for_cpu = w;
  std::mt19937_64 rng(seed);
  std::vector<Randomizers> rs;
  for (int k = 0; k < 2; ++k) rs.push_back({Fr::random(rng), Fr::random(rng)});
  groth16::CpuBackend cpu;
  const auto want = cpu.prove(ref, for_cpu, rs);
  const auto got = backend.prove(params, w, rs);
  ASSERT_EQ(got.proofs.size(), 2u) << what;
  for (int k = 0; k < 2; ++k) EXPECT_EQ(got.proofs[k].to_bytes(), want.proofs[k].to_bytes()) << what << " #" << k;
}

TEST(GpuSrs, ShellProvesAsTheCpuWithoutHostQueries) {
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  const Parameters shell = b.shell();
  gpu::GpuBackend backend;
  EXPECT_EQ(backend.plan_mode(shell), gpu::SrsMode::Resident);
  EXPECT_GT(backend.preload(shell), 0);
  const auto held = backend.srs_holding(shell);
  EXPECT_EQ(held.mode, "resident");
  EXPECT_EQ(held.bytes, srs_device_bytes(shell));
  EXPECT_EQ(backend.resident_bytes(), held.bytes);
  // the preload also made the full working set's buffers (a, b, c and the aux / A / B scalars), so
  // the first partition allocates none of them
  const std::size_t working = 32 * (3 * shell.domain_size() + shell.l_len() + shell.a_len() + shell.b_g1_len());
  EXPECT_GE(backend.device_bytes(), held.bytes + working);
  expect_cpu_proofs(backend, shell, b.params, b.circuit, 7, "shell, resident");
  // the host-parameters path on the same backend: same bytes too
  expect_cpu_proofs(backend, b.params, b.params, b.circuit, 7, "host parameters, resident");
  backend.evict(shell);
  EXPECT_EQ(backend.srs_holding(shell).mode, "");
}

TEST(GpuSrs, StreamedUnderADeviceLimitSameProofBytes) {
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  const Parameters shell = b.shell();
  for (std::size_t chunk : {std::size_t{333}, std::size_t{1000}, std::size_t{0}}) {
    gpu::GpuBackendConfig cfg;
    cfg.device_memory_limit = std::size_t{1} << 20;  // far below the SRS and working space
    cfg.enforce_device_memory_limit = false;         // a plan, not a card: nothing would fit
    cfg.srs_stream_chunk_points = chunk;
    gpu::GpuBackend backend(cfg);
    const std::string what = "streamed, chunk " + std::to_string(chunk);
    EXPECT_EQ(backend.plan_mode(shell), gpu::SrsMode::Streamed);
    backend.preload(shell);
    EXPECT_EQ(backend.srs_holding(shell).mode, "streamed");
    EXPECT_EQ(backend.srs_holding(shell).bytes,
              srs_device_bytes(shell));
    EXPECT_EQ(backend.resident_bytes(), 0u);
    expect_cpu_proofs(backend, shell, b.params, b.circuit, 9, what + ", file source");
    expect_cpu_proofs(backend, b.params, b.params, b.circuit, 9, what + ", host source");
    EXPECT_EQ(backend.srs_holding(b.params).mode, "streamed");
    for (bool overlap : {false}) {
      gpu::GpuBackendConfig c2 = cfg;
      c2.overlap_g2 = overlap;
      gpu::GpuBackend serial(c2);
      expect_cpu_proofs(serial, shell, b.params, b.circuit, 10, what + ", G2 after G1");
    }
  }
  // the resident path on the same inputs gives the same bytes (the CPU is the common reference)
  gpu::GpuBackend resident;
  expect_cpu_proofs(resident, shell, b.params, b.circuit, 9, "resident");
}

TEST(GpuSrs, ResidentMsmSlicesSameProofBytes) {
  // A resident SRS whose MSMs run over slices of the bases (the 2^27 case, where whole-length sort
  // scratch does not fit beside the SRS): the same proof bytes as the CPU, slice sizes that do not
  // divide the lengths included.
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  const Parameters shell = b.shell();
  for (std::size_t chunk : {std::size_t{333}, std::size_t{1024}}) {
    gpu::GpuBackendConfig cfg;
    cfg.resident_msm_chunk_points = chunk;
    gpu::GpuBackend backend(cfg);
    EXPECT_EQ(backend.plan_mode(shell), gpu::SrsMode::Resident);
    expect_cpu_proofs(backend, shell, b.params, b.circuit, 11, "resident, MSM slices of " + std::to_string(chunk));
    expect_cpu_proofs(backend, b.params, b.params, b.circuit, 11, "resident host, MSM slices of " + std::to_string(chunk));
  }
}

TEST(GpuSrs, ResidentMsmSlicesKeepTheBatchAffineState) {
  // Slices of a resident SRS (an 80 GB card holding a WindowPoSt SRS) keep the G1 MSMs' batch-affine
  // state too, sized by the slice (want_ba_keep): with the threshold at 0 (PROOFLINE_MSM_BA_MIN, which
  // moves G2's too) every tail runs batch-affine, G1's on the kept state — the CPU's proof bytes, and
  // the last G1 slice reported batch-affine on a kept state; at the default threshold (2^24 tail
  // points) slices of 1,024 run XYZZ.
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  const Parameters shell = b.shell();
  gpu::GpuBackendConfig cfg;
  cfg.resident_msm_chunk_points = 1024;
  {
    gpu::GpuBackend xyzz(cfg);
    expect_cpu_proofs(xyzz, shell, b.params, b.circuit, 12, "MSM slices of 1024, default threshold");
    EXPECT_FALSE(xyzz.last_partition_batch_affine_kept()) << "tails of at most 1,024 points: XYZZ";
  }
  struct BaMinZero {  // set for this scope only, also when an assertion returns early
    BaMinZero() { ::setenv("PROOFLINE_MSM_BA_MIN", "0", 1); }
    ~BaMinZero() { ::unsetenv("PROOFLINE_MSM_BA_MIN"); }
  } env;
  gpu::GpuBackend ba(cfg);
  EXPECT_EQ(ba.plan_mode(shell), gpu::SrsMode::Resident);
  expect_cpu_proofs(ba, shell, b.params, b.circuit, 13, "MSM slices of 1024, batch-affine kept");
  EXPECT_TRUE(ba.last_partition_batch_affine_kept());
}

TEST(GpuSrs, LeanWorkingSetSameProofBytes) {
  // The lean working set (backend.hpp "Working set"), forced, with the SRS resident (whole MSMs and
  // slices) and streamed, G2 beside the G1 MSMs or after them: the CPU's proof bytes. Two calls of
  // two partitions each, so the previous partition's buffers are freed and made again.
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  const Parameters shell = b.shell();
  struct Case {
    const char* what;
    std::size_t stream_chunk, msm_slice, limit;
    bool overlap_g2;
  };
  const Case cases[] = {{"lean, resident", 0, 0, 0, true},
                        {"lean, resident slices of 333, G2 after G1", 0, 333, 0, false},
                        {"lean, streamed chunks of 1000", 1000, 0, std::size_t{1} << 20, true}};
  for (const Case& c : cases) {
    gpu::GpuBackendConfig cfg;
    cfg.working_set = gpu::WorkingSet::Lean;
    cfg.srs_stream_chunk_points = c.stream_chunk;
    cfg.resident_msm_chunk_points = c.msm_slice;
    cfg.device_memory_limit = c.limit;
    cfg.enforce_device_memory_limit = false;
    cfg.overlap_g2 = c.overlap_g2;
    gpu::GpuBackend backend(cfg);
    backend.preload(shell);
    EXPECT_TRUE(backend.lean_working_set(shell)) << c.what;
    EXPECT_EQ(backend.srs_holding(shell).mode, c.limit ? "streamed" : "resident") << c.what;
    for (std::uint64_t seed : {21u, 22u}) expect_cpu_proofs(backend, shell, b.params, b.circuit, seed, c.what);
    expect_cpu_proofs(backend, b.params, b.params, b.circuit, 23, std::string(c.what) + ", host source");
    EXPECT_GT(backend.device_peak_bytes(), 0u);
  }
}

TEST(GpuSrs, AutoTakesTheLeanSetWhenOnlyItFitsAndStaysUnderTheLimit) {
  // A budget that holds the streamed SRS's chunk buffers beside the lean working set but not beside
  // the full one: Auto plans lean, and with the limit enforced every allocation of the proofs stays
  // under it (device_peak_bytes), same bytes as the CPU.
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  const Parameters shell = b.shell();
  const std::size_t chunk = 1000;
  const std::size_t full = gpu::GpuBackend::working_bytes(shell, chunk, false);
  const std::size_t lean = gpu::GpuBackend::working_bytes(shell, chunk, true);
  ASSERT_LT(lean, full);
  gpu::GpuBackendConfig cfg;
  cfg.srs_stream_chunk_points = chunk;
  cfg.device_memory_limit = 2 * chunk * (96 + 192) + lean;
  gpu::GpuBackend backend(cfg);
  EXPECT_EQ(backend.plan_mode(shell), gpu::SrsMode::Streamed);
  backend.preload(shell);
  EXPECT_TRUE(backend.lean_working_set(shell));
  expect_cpu_proofs(backend, shell, b.params, b.circuit, 31, "auto lean under an enforced limit");
  EXPECT_GT(backend.device_peak_bytes(), 0u);
  EXPECT_LE(backend.device_peak_bytes(), cfg.device_memory_limit);
  // with the whole device the same parameters get the full set
  gpu::GpuBackend roomy;
  roomy.preload(shell);
  EXPECT_FALSE(roomy.lean_working_set(shell));
}

TEST(GpuSrs, PlanCountsOnlyTheMemoryTheDeviceHasFree) {
  // The plan's budget without a configured limit is the device's free memory plus what the backend
  // holds, not the card's total: with memory held outside the backend (another process, the CUDA
  // context) so that the SRS no longer fits, the plan streams; once it is given back, resident.
  // (Planned against the total, a WindowPoSt 32 GiB partition ran out of memory on an 80 GB H100.)
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  const Parameters shell = b.shell();
  gpu::GpuBackend backend;
  // the least a resident plan needs: the SRS beside the lean working set (its margin alone 256 MiB)
  const std::size_t need = srs_device_bytes(shell) + gpu::GpuBackend::working_bytes(shell, 0, true);
  std::size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  ASSERT_GT(free_b, need);
  // hold all but 64 MiB (in one block, or in halves where one block is refused)
  std::vector<void*> held;
  const std::size_t leave = std::size_t{64} << 20, min_block = std::size_t{16} << 20;
  std::size_t want = free_b - leave, block = want;
  while (want >= min_block && block >= min_block) {
    void* p = nullptr;
    const std::size_t n = std::min(block, want);
    if (cudaMalloc(&p, n) == cudaSuccess) {
      held.push_back(p);
      want -= n;
    } else {
      (void)cudaGetLastError();
      block /= 2;
    }
  }
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  const gpu::SrsMode squeezed = backend.plan_mode(shell);
  for (void* p : held) ASSERT_EQ(cudaFree(p), cudaSuccess);
  ASSERT_LT(free_b, need) << "could not take the device's free memory below " << need << " bytes";
  EXPECT_EQ(squeezed, gpu::SrsMode::Streamed) << free_b << " bytes free, a resident plan needs " << need;
  EXPECT_EQ(backend.plan_mode(shell), gpu::SrsMode::Resident);
}

TEST(GpuSrs, EnforcedDeviceLimitRefusesAllocationsAsOutOfMemory) {
  // A limit below anything the proof needs: the allocation is refused before CUDA is called, as
  // OutOfMemory naming the limit, and the backend keeps working once the limit allows it.
  REQUIRE_CUDA_DEVICE();
  Bench12 b;
  gpu::GpuBackendConfig cfg;
  cfg.device_memory_limit = std::size_t{1} << 20;
  gpu::GpuBackend backend(cfg);
  std::vector<r1cs::ProvingBuffers> w(1, groth16::synthesize_for_proving(b.circuit));
  const std::vector<Randomizers> rs{{Fr::from_u64(3), Fr::from_u64(4)}};
  try {
    backend.prove(b.params, w, rs);
    ADD_FAILURE() << "a 1 MiB card proved a 2^12 circuit";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::OutOfMemory) << e.what();
    EXPECT_NE(std::string(e.what()).find("over the device memory limit of 1048576 bytes"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(backend.in_service());
  EXPECT_LE(backend.device_peak_bytes(), cfg.device_memory_limit);
}

}  // namespace
