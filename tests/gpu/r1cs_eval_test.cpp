// gpu::DeviceCompiledCircuit (proofline/gpu/r1cs_eval.hpp): a = A·z, b = B·z, c = C·z evaluated on
// the device must equal prover mode's a, b, c (r1cs::ProvingAssignment) bit for bit — on the
// hand-written circuit of the compiled-circuit tests (duplicate terms, net-zero rows, inputs in B),
// on the bench circuit, and on random matrices (rows of 0 to 300 entries, coefficients ±1 and
// random, values 0, 1 and random) against the CPU's r1cs::evaluate, which tests/r1cs and
// tests/circuits check against prover mode. Skipped without a device.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "../r1cs/awkward_circuit.hpp"
#include "proofline/circuits/bench/bench.hpp"
#include "proofline/gpu/r1cs_eval.hpp"
#include "proofline/r1cs/circuit_recorder.hpp"
#include "proofline/r1cs/proving_assignment.hpp"
#include "require_device.hpp"
#include "../support/buffers_test_util.hpp"

namespace proofline {
namespace {

using ff::Fr;
using r1cs::CompiledCircuit;

using proofline::testing::same_bytes;

void expect_device_equals(const CompiledCircuit& cc, std::span<const Fr> inputs, std::span<const Fr> aux,
                          std::span<const Fr> want_a, std::span<const Fr> want_b, std::span<const Fr> want_c) {
  const gpu::DeviceCompiledCircuit dev(cc);
  EXPECT_GT(dev.device_bytes(), 0u);
  const std::size_t n = cc.shape().constraints;
  std::vector<Fr> a(n), b(n), c(n);
  dev.evaluate_host(a, b, c, inputs, aux);
  EXPECT_TRUE(same_bytes(a, want_a)) << "a differs";
  EXPECT_TRUE(same_bytes(b, want_b)) << "b differs";
  EXPECT_TRUE(same_bytes(c, want_c)) << "c differs";
}

void expect_device_equals_prover(const CompiledCircuit& cc, const r1cs::ProvingAssignment& pa) {
  ASSERT_EQ(cc.shape().constraints, pa.num_constraints());
  expect_device_equals(cc, pa.input_assignment(), pa.aux_assignment(), pa.a(), pa.b(), pa.c());
}

TEST(GpuR1csEval, HandWrittenCircuitEqualsProver) {
  REQUIRE_CUDA_DEVICE();
  r1cs::ProvingAssignment pa;
  r1cs::synthesize(r1cs::compiled_test::Awkward{}, pa);
  expect_device_equals_prover(r1cs::compiled_test::record_awkward(), pa);
}

TEST(GpuR1csEval, BenchCircuitEqualsProver) {
  REQUIRE_CUDA_DEVICE();
  for (unsigned k : {4u, 12u, 16u}) {
    SCOPED_TRACE(k);
    const circuits::bench::SizedCircuit circuit(k, Fr::from_u64(91 + k));
    r1cs::CircuitRecorder rec;
    r1cs::synthesize(circuit, rec);
    const CompiledCircuit cc = std::move(rec).compile();
    r1cs::ProvingAssignment pa;
    r1cs::synthesize(circuit, pa);
    expect_device_equals_prover(cc, pa);
  }
}

TEST(GpuR1csEval, RandomMatricesEqualCpu) {
  REQUIRE_CUDA_DEVICE();
  std::mt19937_64 rng(20261203);
  const std::size_t n = 20000, inputs = 5, aux = 50000;
  std::vector<Fr> table = {Fr::one(), -Fr::one()};
  for (int i = 0; i < 300; ++i) table.push_back(Fr::random(rng));
  std::array<CompiledCircuit::OwnedRows, 3> m;
  for (auto& rows : m) {
    for (std::size_t i = 0; i < n; ++i) {
      // mostly short rows, some long ones (up to 300 entries), some empty
      const std::size_t len = i % 97 == 0 ? rng() % 301 : rng() % 6;
      std::vector<r1cs::Column> cols;
      for (std::size_t e = 0; e < len; ++e) cols.push_back(r1cs::Column(rng() % (inputs + aux)));
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());  // strictly increasing, as recorded
      for (r1cs::Column col : cols) {
        rows.cols.push_back(col);
        const auto pick = rng() % 4;  // half ±1, half from the table
        rows.coeff_index.push_back(r1cs::CoeffIndex(pick < 2 ? pick : 2 + rng() % (table.size() - 2)));
      }
      rows.row_offsets.push_back(r1cs::RowOffset(rows.cols.size()));
    }
  }
  r1cs::DensityTracker da, dbi, dba;
  for (std::size_t j = 0; j < aux; ++j) da.push_back(false), dba.push_back(false);
  for (std::size_t j = 0; j < inputs; ++j) dbi.push_back(false);
  const CompiledCircuit cc(inputs, aux, std::move(m), table, std::move(da), std::move(dbi), std::move(dba));
  std::vector<Fr> in(inputs), ax(aux);
  in[0] = Fr::one();
  for (std::size_t j = 1; j < inputs; ++j) in[j] = Fr::random(rng);
  for (auto& v : ax) {
    const auto kind = rng() % 3;  // the PoRep witness is mostly 0 and 1
    v = kind == 0 ? Fr::zero() : kind == 1 ? Fr::one() : Fr::random(rng);
  }
  std::vector<Fr> a(n), b(n), c(n);
  r1cs::evaluate(a, b, c, cc, in, ax);
  expect_device_equals(cc, in, ax, a, b, c);
}

TEST(GpuR1csEval, WrongLengthsAreRefused) {
  REQUIRE_CUDA_DEVICE();
  const CompiledCircuit cc = r1cs::compiled_test::record_awkward();
  const gpu::DeviceCompiledCircuit dev(cc);
  const std::size_t n = cc.shape().constraints;
  std::vector<Fr> a(n), b(n), c(n + 1), in(cc.shape().inputs), ax(cc.shape().aux);
  try {
    dev.evaluate_host(a, b, c, in, ax);
    FAIL() << "a c of n + 1 elements was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("c has " + std::to_string(n + 1) + " elements, expected " + std::to_string(n)),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace proofline
