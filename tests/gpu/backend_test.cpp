// tests/gpu/backend_test.cpp — the CUDA Groth16 backend (proofline/gpu/backend.hpp) gives the same
// proof bytes as groth16::CpuBackend for the same inputs and randomizers, and the proofs verify
// (groth16 verifier, CPU). Circuits of 1, 2, 3, 2^k − 1, 2^k, 2^k + 1 rows with zero, one and r − 1
// values, identity points in every query (parameters edited after setup), variables in C only (outside both
// densities), inputs outside the B density; batches; SRS residency (preload, evict, a second SRS);
// out-of-memory as a recoverable error (a DeviceBuffer's CudaError 2; the backend's ProoflineError
// OutOfMemory), then normal proving. Skipped without a device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/gpu/backend.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/ntt.hpp"
#include "gpu/device_buffer.cuh"
#include "proofline/groth16/groth16.hpp"
#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"
#include "proofline/r1cs/packed_witness.hpp"
#include "require_device.hpp"

namespace {

using namespace proofline;
using ff::Fr;
using groth16::Parameters;
using groth16::Proof;
using groth16::Randomizers;
using r1cs::ConstraintSystem;
using r1cs::LinearCombination;
using r1cs::Variable;

/// Exactly `rows` constraint rows (constraints + inputs incl. ONE) for rows >= n_inputs. Inputs:
/// x_1 = 0, x_2 = r − 1, the rest random.
/// Constraint k cycles through: a product of two earlier variables (new aux), a boolean
/// (b·(1 − b) = 0 with b = 0 or 1), w·1 = −ONE (w = r − 1), and y = p copied through C only.
class RowsCircuit final : public r1cs::CircuitInterface {
 public:
  RowsCircuit(std::size_t rows, std::size_t inputs, std::uint64_t seed) : rows_(rows), inputs_(inputs), seed_(seed) {}

  void synthesize(ConstraintSystem& cs) const override {
    std::mt19937_64 rng(seed_);
    std::vector<std::pair<Variable, Fr>> vars{{ConstraintSystem::one(), Fr::one()}};
    for (std::size_t i = 1; i < inputs_; ++i) {
      const Fr v = i == 1 ? Fr::zero() : i == 2 ? -Fr::one() : Fr::random(rng);
      vars.push_back({cs.alloc_input("x", [v] { return v; }), v});
    }
    const std::size_t constraints = rows_ - inputs_;
    for (std::size_t k = 0; k < constraints; ++k) {
      auto pick = [&] { return vars[rng() % vars.size()]; };
      switch (k % 4) {
        case 0: {
          auto [p, pv] = pick();
          auto [q, qv] = k == 0 && inputs_ > 2 ? vars[2] : pick();  // x_2 (= r − 1) in the first product
          const Fr z = pv * qv;
          Variable zv = cs.alloc("z", [z] { return z; });
          cs.enforce("mul", p, q, zv);
          vars.push_back({zv, z});
          break;
        }
        case 1: {
          const Fr b = (k / 4) % 2 ? Fr::one() : Fr::zero();
          Variable bv = cs.alloc("b", [b] { return b; });
          cs.enforce("bool", bv, LinearCombination(ConstraintSystem::one()) - bv, LinearCombination());
          vars.push_back({bv, b});
          break;
        }
        case 2: {
          const Fr w = -Fr::one();
          Variable wv = cs.alloc("w", [w] { return w; });
          cs.enforce("minus one", wv, ConstraintSystem::one(), LinearCombination(ConstraintSystem::one(), w));
          vars.push_back({wv, w});
          break;
        }
        default: {
          auto [p, pv] = pick();
          Variable yv = cs.alloc("y", [pv] { return pv; });
          cs.enforce("copy", ConstraintSystem::one(), p, yv);  // y only in C
          break;
        }
      }
    }
  }
  std::vector<Fr> public_inputs() const {
    std::mt19937_64 rng(seed_);
    std::vector<Fr> out;
    for (std::size_t i = 1; i < inputs_; ++i) out.push_back(i == 1 ? Fr::zero() : i == 2 ? -Fr::one() : Fr::random(rng));
    return out;
  }

 private:
  std::size_t rows_, inputs_;
  std::uint64_t seed_;
};

Parameters setup_for(const r1cs::CircuitInterface& c, std::uint64_t seed) {
  groth16::SeededRandom rng(seed);
  groth16::SetupOptions opts;
  opts.warn = false;
  opts.progress_min_constraints = ~std::size_t{0};
  return groth16::generate_parameters(c, rng, opts);
}

/// The compiled form of `circuit` (r1cs::CircuitRecorder).
std::shared_ptr<const r1cs::CompiledCircuit> record_compiled(const r1cs::CircuitInterface& circuit) {
  r1cs::CircuitRecorder rec;
  r1cs::synthesize(circuit, rec);
  return std::make_shared<const r1cs::CompiledCircuit>(std::move(rec).compile());
}

/// `evaluated` in the compiled form of `cc`: a, b, c emptied, the compiled circuit named.
std::vector<r1cs::ProvingBuffers> compiled_form(const std::vector<r1cs::ProvingBuffers>& evaluated,
                                                const std::shared_ptr<const r1cs::CompiledCircuit>& cc) {
  std::vector<r1cs::ProvingBuffers> out = evaluated;
  for (auto& w : out) {
    w.a.clear();
    w.b.clear();
    w.c.clear();
    w.compiled = cc;
  }
  return out;
}

std::vector<Randomizers> randomizers(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Randomizers> out;
  for (std::size_t k = 0; k < n; ++k) out.push_back({Fr::random(rng), Fr::random(rng)});
  return out;
}

/// CPU and GPU proofs of copies of `parts`; expects byte equality and returns the GPU proofs.
std::vector<Proof> expect_same_proofs(gpu::GpuBackend& gpu_backend, const Parameters& params,
                                      const std::vector<r1cs::ProvingBuffers>& parts, const std::vector<Randomizers>& rs,
                                      const std::string& what) {
  std::vector<r1cs::ProvingBuffers> for_cpu = parts, for_gpu = parts;
  groth16::CpuBackend cpu;
  const auto want = cpu.prove(params, for_cpu, rs);
  const auto got = gpu_backend.prove(params, for_gpu, rs);
  EXPECT_EQ(got.proofs.size(), parts.size()) << what;
  for (std::size_t k = 0; k < parts.size() && k < got.proofs.size(); ++k) {
    EXPECT_EQ(got.proofs[k].to_bytes(), want.proofs[k].to_bytes()) << what << " partition " << k;
  }
  // the caller's buffers are untouched
  for (std::size_t k = 0; k < parts.size(); ++k) {
    EXPECT_EQ(for_gpu[k].a, parts[k].a) << what;
    EXPECT_EQ(for_gpu[k].aux_assignment, parts[k].aux_assignment) << what;
  }
  EXPECT_GT(got.timings.total, 0) << what;
  EXPECT_GT(got.timings.kernel, 0) << what;
  EXPECT_LE(got.timings.kernel, got.timings.total * 1.01 + 0.05) << what;
  return got.proofs;
}

/// Each test gets the first device's backend (skipped without a device).
class GpuBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_CUDA_DEVICE();
    auto all = gpu::make_gpu_backends();
    ASSERT_FALSE(all.empty()) << "a device is visible but make_gpu_backends found none usable";
    backend = std::move(all.front());
  }
  std::unique_ptr<gpu::GpuBackend> backend;
};

TEST(GpuBackend, FactoryFindsTheDevices) {
  REQUIRE_CUDA_DEVICE();
  auto all = gpu::make_gpu_backends();
  ASSERT_EQ(all.size(), static_cast<std::size_t>(gpu::device_count()));
  for (std::size_t d = 0; d < all.size(); ++d) {
    EXPECT_EQ(all[d]->device(), static_cast<int>(d));
    EXPECT_EQ(all[d]->name(), "cuda");
  }
}

TEST_F(GpuBackendTest, SameProofsAsCpuAcrossSizes) {
  // (rows, inputs incl. ONE): 1, 2, 3 rows; 2^k − 1, 2^k, 2^k + 1 rows
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{{1, 1}, {2, 1}, {3, 2}, {255, 4}, {256, 4}, {257, 4},
                                                                {1023, 5}};
  for (auto [rows, inputs] : shapes) {
    const RowsCircuit circuit(rows, inputs, rows * 31 + inputs);
    const Parameters params = setup_for(circuit, rows);
    std::vector<r1cs::ProvingBuffers> parts{groth16::synthesize_for_proving(circuit)};
    ASSERT_EQ(parts[0].a.size(), rows);
    const std::string what = "rows=" + std::to_string(rows);
    const auto proofs = expect_same_proofs(*backend, params, parts, randomizers(1, rows), what);
    ASSERT_EQ(proofs.size(), 1u);
    EXPECT_TRUE(groth16::verify_proof(groth16::prepare_verifying_key(params.vk), proofs[0], circuit.public_inputs()))
        << what;
  }
}

// The NTT domain's wide twiddle table (GpuBackendConfig::ntt_wide_twiddles, where it fits; on by
// default): the same proof bytes as the CPU with it and without it, for the evaluated and the compiled
// form (H on the coset τ instead of g: the same quotient for a satisfied witness), and the working
// set it is planned with counts n·32 bytes more.
TEST(GpuBackend, WideNttTwiddlesSameProofs) {
  REQUIRE_CUDA_DEVICE();
  const circuits::bench::SizedCircuit circuit(13, Fr::from_u64(9));
  const Parameters params = setup_for(circuit, 21);
  const std::size_t m = params.domain_size();
  EXPECT_EQ(gpu::GpuBackend::working_bytes(params, 0, false, true) - gpu::GpuBackend::working_bytes(params, 0, false),
            m * sizeof(Fr));
  EXPECT_EQ(gpu::GpuBackend::working_bytes(params, 0, true, true), gpu::GpuBackend::working_bytes(params, 0, true));
  const std::vector<r1cs::ProvingBuffers> parts(2, groth16::synthesize_for_proving(circuit));
  const auto cc = record_compiled(circuit);
  for (bool wide : {true, false}) {
    gpu::GpuBackendConfig cfg;
    cfg.ntt_wide_twiddles = wide;
    auto all = gpu::make_gpu_backends(cfg);
    ASSERT_FALSE(all.empty());
    const std::string what = wide ? "wide twiddles" : "compact twiddles";
    expect_same_proofs(*all.front(), params, parts, randomizers(2, 5), what);
    expect_same_proofs(*all.front(), params, compiled_form(parts, cc), randomizers(2, 6), what + ", compiled form");
    const char* env = std::getenv("PROOFLINE_NTT_WIDE");  // overrides the config when set
    const bool want = env && *env ? std::string(env) == "1" : wide;
    EXPECT_EQ(all.front()->ntt_table_bytes(), gpu::NttDomain::table_bytes_for(m, want)) << what;
  }
}

// Identity points in every query (setup never makes them for a circuit whose variables are all
// constrained, so they are put in by hand): the proofs no longer verify, but both backends must
// still give the same bytes.
TEST_F(GpuBackendTest, IdentityPointsInEveryQuery) {
  const RowsCircuit circuit(300, 4, 77);
  Parameters params = setup_for(circuit, 77);
  for (std::size_t i = 0; i < params.h.size(); i += 3) params.h[i] = ec::G1Affine::identity();
  for (std::size_t i = 1; i < params.l.size(); i += 4) params.l[i] = ec::G1Affine::identity();
  for (std::size_t i = 0; i < params.a.size(); i += 5) params.a[i] = ec::G1Affine::identity();
  for (std::size_t i = 0; i < params.b_g1.size(); i += 2) params.b_g1[i] = ec::G1Affine::identity();
  for (std::size_t i = 1; i < params.b_g2.size(); i += 2) params.b_g2[i] = ec::G2Affine::identity();
  std::vector<r1cs::ProvingBuffers> parts{groth16::synthesize_for_proving(circuit)};
  expect_same_proofs(*backend, params, parts, randomizers(1, 77), "identity points");
}

TEST_F(GpuBackendTest, ZeroOneAndMinusOneRandomizersAndBatches) {
  const circuits::bench::SizedCircuit circuit(10, Fr::from_u64(5));
  const Parameters params = setup_for(circuit, 7);
  std::vector<r1cs::ProvingBuffers> parts(4, groth16::synthesize_for_proving(circuit));
  std::vector<Randomizers> rs{{Fr::zero(), Fr::zero()}, {Fr::one(), Fr::one()}, {-Fr::one(), -Fr::one()},
                              randomizers(1, 3)[0]};
  const auto proofs = expect_same_proofs(*backend, params, parts, rs, "bench 2^10 batch");
  const auto pvk = groth16::prepare_verifying_key(params.vk);
  for (const auto& p : proofs) EXPECT_TRUE(groth16::verify_proof(pvk, p, circuit.public_inputs()));
}

TEST_F(GpuBackendTest, ResidencyPreloadEvictAndTwoParameterSets) {
  const RowsCircuit c1(300, 3, 1), c2(500, 4, 2);
  const Parameters p1 = setup_for(c1, 11), p2 = setup_for(c2, 12);
  EXPECT_FALSE(backend->is_resident(p1));
  EXPECT_GE(backend->preload(p1), 0.0);
  EXPECT_TRUE(backend->is_resident(p1));
  const std::size_t one = backend->resident_bytes();
  EXPECT_EQ(one, (p1.h.size() + p1.l.size() + p1.a.size() + p1.b_g1.size()) * 96 + p1.b_g2.size() * 192);
  EXPECT_EQ(backend->preload(p1), 0.0);  // already resident: nothing uploaded
  std::vector<r1cs::ProvingBuffers> w1{groth16::synthesize_for_proving(c1)}, w2{groth16::synthesize_for_proving(c2)};
  expect_same_proofs(*backend, p1, w1, randomizers(1, 1), "p1");
  expect_same_proofs(*backend, p2, w2, randomizers(1, 2), "p2");  // uploads p2 beside p1
  EXPECT_TRUE(backend->is_resident(p1));
  EXPECT_TRUE(backend->is_resident(p2));
  backend->evict(p1);
  EXPECT_FALSE(backend->is_resident(p1));
  EXPECT_TRUE(backend->is_resident(p2));
  expect_same_proofs(*backend, p2, w2, randomizers(1, 3), "p2 after evicting p1");
  expect_same_proofs(*backend, p1, w1, randomizers(1, 4), "p1 uploaded again");
  // a modified Parameters object at the same address is uploaded again, never used stale
  Parameters p3 = setup_for(c1, 11);
  backend->preload(p3);
  p3 = setup_for(c1, 99);
  expect_same_proofs(*backend, p3, w1, randomizers(1, 5), "p3 replaced in place");
  backend->evict_all();
  EXPECT_EQ(backend->resident_bytes(), 0u);
  backend->release_scratch();
  expect_same_proofs(*backend, p2, w2, randomizers(1, 6), "after evict_all and release_scratch");
}

// Pinned double-buffered uploads (GpuBackendConfig::pinned_uploads) give the CPU backend's proof
// bytes. A 64 KiB stage makes every vector of a 4099-row circuit (a, b, c: 128 KiB each; the
// assignments ~96 KiB) cross several chunks, the last one partial, both stages reused; vectors
// under 2 KiB (the inputs) take the pageable path in the same proof. The default 32 MiB stage is
// checked on a 2^12 batch of two partitions, and the same backend again after release_scratch.
TEST(GpuBackend, PinnedUploadsSameProofsAsCpu) {
  REQUIRE_CUDA_DEVICE();
  for (std::size_t stage : {std::size_t{64} << 10, std::size_t{32} << 20}) {
    gpu::GpuBackendConfig cfg;
    cfg.pinned_uploads = true;
    cfg.pinned_stage_bytes = stage;
    gpu::GpuBackend pinned(cfg);
    const std::string what = "pinned, stage " + std::to_string(stage) + " B";
    const RowsCircuit rows(4099, 5, 4099);
    const Parameters p1 = setup_for(rows, 41);
    std::vector<r1cs::ProvingBuffers> w1{groth16::synthesize_for_proving(rows)};
    const auto proofs = expect_same_proofs(pinned, p1, w1, randomizers(1, 41), what + " rows=4099");
    ASSERT_EQ(proofs.size(), 1u);
    EXPECT_TRUE(groth16::verify_proof(groth16::prepare_verifying_key(p1.vk), proofs[0], rows.public_inputs())) << what;
    const circuits::bench::SizedCircuit bench(12, Fr::from_u64(12));
    const Parameters p2 = setup_for(bench, 42);
    std::vector<r1cs::ProvingBuffers> w2(2, groth16::synthesize_for_proving(bench));
    expect_same_proofs(pinned, p2, w2, randomizers(2, 42), what + " bench 2^12 x2");
    pinned.release_scratch();
    expect_same_proofs(pinned, p1, w1, randomizers(1, 43), what + " after release_scratch");
  }
}

TEST(GpuBackend, OverlappedAndSerialSchedulesSameProofsAsCpu) {
  // backend.hpp "Schedule": the copies of a, b, c and the assignments on a second stream beside the
  // transforms and the H MSM must give the CPU's bytes, with B_G2 beside or after the G1 MSMs, with
  // small pinned chunks (many chunks per column) and pageable copies; three partitions per call, so
  // the second and third reuse the buffers the first grew.
  REQUIRE_CUDA_DEVICE();
  const circuits::bench::SizedCircuit bench(13, Fr::from_u64(13));
  const Parameters params = setup_for(bench, 51);
  const std::vector<r1cs::ProvingBuffers> parts(3, groth16::synthesize_for_proving(bench));
  for (bool overlap : {true, false})
    for (bool g2 : {true, false})
      for (bool pinned : {true, false}) {
        gpu::GpuBackendConfig cfg;
        cfg.overlap_uploads = overlap;
        cfg.overlap_g2 = g2;
        cfg.pinned_uploads = pinned;
        cfg.pinned_stage_bytes = std::size_t{64} << 10;
        gpu::GpuBackend backend(cfg);
        const std::string what = std::string(overlap ? "overlapped" : "serial") + (g2 ? ", G2 beside" : ", G2 after") +
                                 (pinned ? ", pinned" : ", pageable");
        const auto proofs = expect_same_proofs(backend, params, parts, randomizers(3, 52), what);
        ASSERT_EQ(proofs.size(), 3u);
        for (const auto& pr : proofs)
          EXPECT_TRUE(groth16::verify_proof(groth16::prepare_verifying_key(params.vk), pr, bench.public_inputs()))
              << what;
      }
}

TEST(GpuBackend, StageTimesAreDisjointWithG2AfterG1) {
  // backend.hpp "Timings": with B_G2 after the G1 MSMs, ntt and the five MSM stages are disjoint
  // intervals of the call in every schedule, so they sum to at most `total`; the assignments' copies
  // are counted in h2d only (msm_l used to include them, although they are made before the
  // transforms or, overlapped, beside the transforms and the H MSM). Three partitions per call.
  REQUIRE_CUDA_DEVICE();
  const circuits::bench::SizedCircuit bench(13, Fr::from_u64(13));
  const Parameters params = setup_for(bench, 53);
  const std::vector<r1cs::ProvingBuffers> parts(3, groth16::synthesize_for_proving(bench));
  for (int schedule = 0; schedule < 3; ++schedule) {
    gpu::GpuBackendConfig cfg;
    cfg.overlap_uploads = schedule == 0;
    if (schedule == 2) cfg.working_set = gpu::WorkingSet::Lean;
    cfg.overlap_g2 = false;
    gpu::GpuBackend backend(cfg);
    const std::string what = schedule == 0 ? "overlapped" : schedule == 1 ? "serial" : "lean";
    backend.preload(params);
    for (int rep = 0; rep < 2; ++rep) {  // the second call on buffers the first grew
      std::vector<r1cs::ProvingBuffers> w = parts;
      const auto got = backend.prove(params, w, randomizers(3, 54));
      ASSERT_EQ(got.proofs.size(), 3u) << what;
      const auto& t = got.timings;
      const double stages = t.ntt + t.msm_h + t.msm_l + t.msm_a + t.msm_b_g1 + t.msm_b_g2;
      EXPECT_LE(stages, t.total + 1e-6) << what << " rep " << rep << ": ntt " << t.ntt << ", msm_h " << t.msm_h
                                        << ", msm_l " << t.msm_l << ", msm_a " << t.msm_a << ", msm_b_g1 "
                                        << t.msm_b_g1 << ", msm_b_g2 " << t.msm_b_g2 << ", h2d " << t.h2d;
      EXPECT_GT(t.h2d, 0.0) << what;
      EXPECT_GT(t.msm_l, 0.0) << what;
    }
  }
}

TEST(GpuBackend, CompiledFormSameProofsAsCpu) {
  // r1cs::ProvingBuffers' compiled form (a, b, c empty, the compiled circuit named): the backend
  // evaluates a, b, c on the device from the assignments (gpu/r1cs_eval.hpp) and must give the CPU's
  // bytes for the evaluated form — in the overlapped, serial and lean schedules, three partitions
  // per call sharing one compiled circuit (uploaded once), then a second circuit's.
  REQUIRE_CUDA_DEVICE();
  for (unsigned lg : {13u, 10u}) {
    const circuits::bench::SizedCircuit bench(lg, Fr::from_u64(61 + lg));
    const Parameters params = setup_for(bench, 62 + lg);
    const std::vector<r1cs::ProvingBuffers> evaluated(3, groth16::synthesize_for_proving(bench));
    const auto cc = record_compiled(bench);
    std::vector<r1cs::ProvingBuffers> compiled = compiled_form(evaluated, cc);
    // the same with the aux assignment packed (ProvingBuffers::packed_aux): expanded on the device
    std::vector<r1cs::ProvingBuffers> packed = compiled;
    for (auto& w : packed) {
      w.packed_aux = r1cs::PackedWitness::pack(w.aux_assignment);
      w.aux_assignment.clear();
    }
    const std::size_t n_aux = evaluated[0].aux_assignment.size();
    const std::size_t packed_bytes = packed[0].packed_aux.bytes();
    const auto rs = randomizers(3, 63 + lg);
    std::vector<r1cs::ProvingBuffers> for_cpu = evaluated;
    const auto want = groth16::CpuBackend().prove(params, for_cpu, rs);
    for (int schedule = 0; schedule < 3; ++schedule) {
      gpu::GpuBackendConfig cfg;
      cfg.overlap_uploads = schedule == 0;
      if (schedule == 2) cfg.working_set = gpu::WorkingSet::Lean;
      gpu::GpuBackend backend(cfg);
      std::uint64_t plain_h2d = 0;
      for (bool use_packed : {false, true}) {
        const std::string what = std::string("2^") + std::to_string(lg) +
                                 (schedule == 0 ? " overlapped" : schedule == 1 ? " serial" : " lean") +
                                 (use_packed ? ", packed aux" : "");
        std::vector<r1cs::ProvingBuffers> for_gpu = use_packed ? packed : compiled;
        const auto got = backend.prove(params, for_gpu, rs);
        ASSERT_EQ(got.proofs.size(), 3u) << what;
        for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(got.proofs[k].to_bytes(), want.proofs[k].to_bytes()) << what << " partition " << k;
        if (schedule != 2) EXPECT_GT(got.timings.evaluate, 0.0) << what;
        EXPECT_TRUE(for_gpu[0].a.empty()) << what << ": the caller's compiled-form buffers were filled";
        EXPECT_TRUE(!use_packed || for_gpu[0].aux_assignment.empty()) << what << ": the packed buffers were expanded on the host";
        if (!use_packed) {
          plain_h2d = got.timings.h2d_bytes;
          EXPECT_GE(plain_h2d, 3 * n_aux * sizeof(Fr)) << what;
        } else {
          // the same copies but the aux values: the packed arrays instead of n_aux plain values, per partition
          EXPECT_EQ(plain_h2d - got.timings.h2d_bytes, 3 * (n_aux * sizeof(Fr) - packed_bytes)) << what;
        }
        EXPECT_EQ(got.timings.host_evaluations, 0u) << what;
      }
      EXPECT_EQ(backend.compiled_evaluations().device, 6u);
      EXPECT_EQ(backend.compiled_evaluations().host, 0u);
    }
    // evaluated on the host (gpu/backend.hpp "Compiled form": a compiled circuit that does not fit
    // the device budget), then proved as the evaluated form: the same bytes
    for (bool use_packed : {false, true}) {
      gpu::GpuBackendConfig cfg;
      cfg.compiled_evaluation = gpu::CompiledEvaluation::Host;
      gpu::GpuBackend backend(cfg);
      const std::string what = std::string("2^") + std::to_string(lg) + " host evaluation" + (use_packed ? ", packed aux" : "");
      std::vector<r1cs::ProvingBuffers> for_gpu = use_packed ? packed : compiled;
      const auto got = backend.prove(params, for_gpu, rs);
      ASSERT_EQ(got.proofs.size(), 3u) << what;
      for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(got.proofs[k].to_bytes(), want.proofs[k].to_bytes()) << what << " partition " << k;
      EXPECT_EQ(got.timings.host_evaluations, 3u) << what;
      EXPECT_GT(got.timings.evaluate, 0.0) << what;
      EXPECT_EQ(backend.compiled_evaluations().host, 3u) << what;
      EXPECT_EQ(backend.compiled_evaluations().device, 0u) << what;
      EXPECT_EQ(for_gpu[0].compiled, nullptr) << what << ": the host-evaluated buffers keep their compiled circuit";
      EXPECT_EQ(for_gpu[0].a.size() >= for_gpu[0].rows() && for_gpu[0].aux_assignment.size() == n_aux, true) << what;
    }
  }
}

// ProverBackend::evaluates_compiled / preload_compiled / compiled_device_bytes on a GPU (issue 31;
// engine.hpp "The compiled form"): room for the compiled circuit beside the SRS and the working set
// says yes, before any proof; a device limit with room for the SRS and the working set only, or
// CompiledEvaluation::Host, says no (the engine then evaluates at synthesis) and uploads nothing;
// preload_compiled uploads once, the partitions then evaluate on the device with the CPU's bytes.
TEST(GpuBackend, CompiledCircuitAnsweredAndPreloadedBeforeAnyProof) {
  REQUIRE_CUDA_DEVICE();
  const circuits::bench::SizedCircuit bench(11, Fr::from_u64(71));
  const Parameters params = setup_for(bench, 72);
  const auto cc = record_compiled(bench);
  const std::vector<r1cs::ProvingBuffers> evaluated(2, groth16::synthesize_for_proving(bench));
  const std::vector<r1cs::ProvingBuffers> compiled = compiled_form(evaluated, cc);
  const auto rs = randomizers(2, 73);
  std::vector<r1cs::ProvingBuffers> for_cpu = evaluated;
  const auto want = groth16::CpuBackend().prove(params, for_cpu, rs);
  {
    gpu::GpuBackend backend{gpu::GpuBackendConfig{}};
    EXPECT_TRUE(backend.evaluates_compiled(params, *cc));
    EXPECT_EQ(backend.compiled_device_bytes(*cc), 0u);
    EXPECT_GT(backend.preload_compiled(params, cc), 0.0);
    EXPECT_GE(backend.compiled_device_bytes(*cc), cc->bytes() / 2);
    EXPECT_EQ(backend.preload_compiled(params, cc), 0.0) << "uploaded again";
    std::vector<r1cs::ProvingBuffers> for_gpu = compiled;
    const auto got = backend.prove(params, for_gpu, rs);
    ASSERT_EQ(got.proofs.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) EXPECT_EQ(got.proofs[k].to_bytes(), want.proofs[k].to_bytes()) << k;
    EXPECT_EQ(backend.compiled_evaluations().device, 2u);
    EXPECT_GT(backend.compiled_device_bytes(*cc), 0u);
    // let go (its SRS left the engine's cache): the device copy is freed, and the next proof uploads
    // it again and gives the same bytes
    backend.release_compiled(*cc);
    EXPECT_EQ(backend.compiled_device_bytes(*cc), 0u);
    std::vector<r1cs::ProvingBuffers> again = compiled;
    const auto got2 = backend.prove(params, again, rs);
    ASSERT_EQ(got2.proofs.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) EXPECT_EQ(got2.proofs[k].to_bytes(), want.proofs[k].to_bytes()) << k;
    EXPECT_EQ(backend.compiled_evaluations().device, 4u);
  }
  const std::size_t srs = 96 * (params.h_len() + params.l_len() + params.a_len() + params.b_g1_len()) +
                          192 * params.b_g2_len();
  for (int c = 0; c < 2; ++c) {
    gpu::GpuBackendConfig cfg;
    if (c == 0) cfg.compiled_evaluation = gpu::CompiledEvaluation::Host;
    else cfg.device_memory_limit = srs + gpu::GpuBackend::working_bytes(params);  // no room for cc
    gpu::GpuBackend backend(cfg);
    EXPECT_FALSE(backend.evaluates_compiled(params, *cc)) << c;
    EXPECT_EQ(backend.preload_compiled(params, cc), 0.0) << c;
    EXPECT_EQ(backend.compiled_device_bytes(*cc), 0u) << c;
  }
}

// Warm buffers (issue 32; engine.hpp "Warm buffers"): warm_host_buffers page-locks a buffer set's
// whole capacity before its first use, so the first proof from it already copies a, b, c and aux by
// DMA (the engine's warmer does this at preload, before work arrives); the proofs stay the CPU's and
// freeing the buffers unlocks them.
TEST(GpuBackend, WarmedBuffersAreCopiedDirectlyFromTheFirstUse) {
  REQUIRE_CUDA_DEVICE();
  const circuits::bench::SizedCircuit bench(12, Fr::from_u64(12));
  const Parameters params = setup_for(bench, 61);
  const std::size_t before = gpu::GpuBackend::registered_host_bytes();
  gpu::GpuBackendConfig cfg;
  cfg.register_min_bytes = 1;  // every vector of this small circuit qualifies
  gpu::GpuBackend backend(cfg);
  {
    std::vector<r1cs::ProvingBuffers> parts(1, groth16::synthesize_for_proving(bench));
    r1cs::ProvingBuffers& b = parts[0];
    for (r1cs::FrVector* v : {&b.a, &b.b, &b.c}) v->reserve(params.domain_size());  // as the warmer sizes them
    std::vector<r1cs::ProvingBuffers> for_cpu = parts;
    const auto want = groth16::CpuBackend().prove(params, for_cpu, randomizers(1, 64));
    const std::uint64_t locked = backend.warm_host_buffers(b);
    const std::size_t capacity =
        sizeof(Fr) * (b.a.capacity() + b.b.capacity() + b.c.capacity() + b.input_assignment.capacity() +
                      b.aux_assignment.capacity());
    EXPECT_EQ(locked, capacity);
    EXPECT_GE(gpu::GpuBackend::registered_host_bytes(), before + capacity);
    const auto got = backend.prove(params, parts, randomizers(1, 64));
    ASSERT_EQ(got.proofs.size(), 1u);
    EXPECT_EQ(got.proofs[0].to_bytes(), want.proofs[0].to_bytes());
    EXPECT_GE(backend.direct_copies(), 4u) << "a, b, c and aux copied by DMA on their first use";
  }
  EXPECT_EQ(gpu::GpuBackend::registered_host_bytes(), before);  // freed: unlocked first
}

TEST(GpuBackend, PageLockedCallerBuffersSameProofsAndUnlockedWhenFreed) {
  // backend.hpp "Host buffers": the second copy of the same buffer page-locks it in place (here or
  // on a background thread) and later copies go by DMA straight from it; the proofs stay the CPU's;
  // freeing (or growing) a buffer unlocks it first.
  REQUIRE_CUDA_DEVICE();
  const circuits::bench::SizedCircuit bench(12, Fr::from_u64(12));
  const Parameters params = setup_for(bench, 61);
  for (bool background : {false, true}) {
    const std::string what = background ? "background" : "inline";
    const std::size_t before = gpu::GpuBackend::registered_host_bytes();
    gpu::GpuBackendConfig cfg;
    cfg.register_min_bytes = 1;  // every vector of these small circuits qualifies
    cfg.register_in_background = background;
    gpu::GpuBackend backend(cfg);
    {
      std::vector<r1cs::ProvingBuffers> parts(2, groth16::synthesize_for_proving(bench));
      groth16::CpuBackend cpu;
      std::vector<r1cs::ProvingBuffers> for_cpu = parts;
      const auto want = cpu.prove(params, for_cpu, randomizers(2, 62));
      for (int use = 0; use < 4; ++use) {
        const auto got = backend.prove(params, parts, randomizers(2, 62));
        ASSERT_EQ(got.proofs.size(), 2u);
        for (std::size_t k = 0; k < 2; ++k)
          EXPECT_EQ(got.proofs[k].to_bytes(), want.proofs[k].to_bytes()) << what << " use " << use << " partition " << k;
        if (use == 0) EXPECT_EQ(backend.direct_copies(), 0u) << what << ": a buffer seen once is staged";
        gpu::GpuBackend::settle_host_registrations();
      }
      // a, b, c and aux of both partitions are locked (4 vectors × 2 partitions) and copied directly
      EXPECT_GE(backend.direct_copies(), 8u) << what;
      const std::size_t abc_aux = sizeof(Fr) * (3 * parts[0].a.size() + parts[0].aux_assignment.size());
      EXPECT_GE(gpu::GpuBackend::registered_host_bytes(), before + 2 * abc_aux) << what;
      // growing one buffer reallocates it: the old storage is unlocked before it is freed
      parts[0].a.resize(parts[0].a.capacity() * 2 + 1);
      EXPECT_LT(gpu::GpuBackend::registered_host_bytes(), before + 2 * abc_aux) << what;
    }
    // every buffer freed: nothing stays locked
    EXPECT_EQ(gpu::GpuBackend::registered_host_bytes(), before) << what;
    // and fresh buffers (possibly at the same addresses) still prove the CPU's bytes
    std::vector<r1cs::ProvingBuffers> again(1, groth16::synthesize_for_proving(bench));
    std::vector<r1cs::ProvingBuffers> for_cpu = again;
    groth16::CpuBackend cpu;
    const auto want = cpu.prove(params, for_cpu, randomizers(1, 63));
    for (int use = 0; use < 4; ++use) {
      EXPECT_EQ(backend.prove(params, again, randomizers(1, 63)).proofs[0].to_bytes(), want.proofs[0].to_bytes())
          << what;
      gpu::GpuBackend::settle_host_registrations();
    }
    again.clear();
    EXPECT_EQ(gpu::GpuBackend::registered_host_bytes(), before) << what;
  }
}

TEST_F(GpuBackendTest, ShapeErrorsBeforeDeviceWork) {
  const RowsCircuit c(64, 3, 5);
  const Parameters params = setup_for(c, 5);
  std::vector<r1cs::ProvingBuffers> parts{groth16::synthesize_for_proving(c)};
  parts[0].aux_assignment.pop_back();
  try {
    backend->prove(params, parts, randomizers(1, 1));
    FAIL() << "expected BadLength";
  } catch (const ProoflineError& e) {
    EXPECT_EQ(e.code(), Error::BadLength);
  }
  EXPECT_THROW(backend->prove(params, parts, {}), ProoflineError);
}

TEST_F(GpuBackendTest, OutOfMemoryIsRecoverable) {
  const circuits::bench::SizedCircuit circuit(12, Fr::from_u64(3));
  const Parameters params = setup_for(circuit, 8);
  std::vector<r1cs::ProvingBuffers> parts{groth16::synthesize_for_proving(circuit)};
  // an absurd allocation: 2^50 bytes
  try {
    gpu::DeviceBuffer huge(std::size_t{1} << 50, "an absurd test buffer");
    FAIL() << "2^50 bytes were allocated";
  } catch (const gpu::CudaError& e) {
    EXPECT_EQ(e.code(), 2) << e.what();  // cudaErrorMemoryAllocation
    EXPECT_NE(std::string(e.what()).find("cudaMalloc(1125899906842624 bytes for an absurd test buffer)"),
              std::string::npos)
        << e.what();
  }
  expect_same_proofs(*backend, params, parts, randomizers(1, 1), "after an absurd allocation");

  // the device filled up but for 16 MiB: proving 2^16 (SRS alone ~25 MB) fails, recoverably
  const circuits::bench::SizedCircuit big(16, Fr::from_u64(3));
  const Parameters big_params = setup_for(big, 9);
  std::vector<r1cs::ProvingBuffers> big_parts{groth16::synthesize_for_proving(big)};
  backend->evict_all();
  backend->release_scratch();
  {
    auto [free_b, total_b] = gpu::device_memory_info();
    ASSERT_GT(free_b, std::size_t{64} << 20);
    gpu::DeviceBuffer hog(free_b - (std::size_t{16} << 20), "filler");
    try {
      backend->prove(big_params, big_parts, randomizers(1, 2));
      FAIL() << "proving 2^16 in 16 MiB of free device memory succeeded";
    } catch (const ProoflineError& e) {
      EXPECT_EQ(e.code(), Error::OutOfMemory) << e.what();
      EXPECT_NE(std::string(e.what()).find("bytes free"), std::string::npos) << e.what();
    }
    (void)total_b;
  }
  EXPECT_FALSE(backend->is_resident(big_params));
  // an out-of-memory is not a device fault: no reset, no fault recorded
  EXPECT_EQ(backend->recoveries(), 0u);
  EXPECT_TRUE(backend->in_service());
  EXPECT_EQ(backend->fault(), "");
  expect_same_proofs(*backend, params, parts, randomizers(1, 3), "after running out of device memory");
}

}  // namespace
