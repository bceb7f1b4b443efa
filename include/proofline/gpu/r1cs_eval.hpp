// proofline/gpu/r1cs_eval.hpp — a compiled circuit (r1cs/compiled_circuit.hpp) resident on a CUDA
// device, and a = A·z, b = B·z, c = C·z evaluated there: the Groth16 prover's a, b, c made on the
// device from the witness instead of by synthesis on the host (issue 31, item 3).
//
// Owns: `DeviceCompiledCircuit` — per matrix the row offsets (u32, n + 1), columns (u32, nnz) and
// coefficient indices (u16, nnz) of r1cs::CompiledCircuit, and its coefficient table (Fr, Montgomery
// form): bytes() of the host form, the same arrays; the density bitmaps stay on the host (the MSM
// layer reads them there). Uploaded once by the constructor on the current device, freed by the
// destructor; nothing else is allocated by evaluate().
//
// Evaluation: one thread per row and matrix; an entry with coefficient ±1 adds or subtracts its value,
// a value 0 adds nothing, a value 1 adds the coefficient, any other pair is one Montgomery product
// (the CPU's r1cs::evaluate does the same, and field arithmetic is exact: the results are equal bit
// for bit, tests/gpu/r1cs_eval_test.cpp).
//
// Data: z = [inputs | aux] as shape().inputs + shape().aux elements of ff::Fr (32 bytes, Montgomery
// form; z[0] = 1); a, b, c as shape().constraints elements each (the input constraints' rows
// included, as ProvingAssignment lays them out).
// Errors: CudaError (device.hpp) for a failed CUDA call, out of memory included; std::invalid_argument
// for a host span of the wrong length (nothing is written then).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"

namespace proofline::gpu {

class DeviceCompiledCircuit {
 public:
  /// Uploads cc's matrices and coefficient table to the current device. std::invalid_argument for a
  /// CompiledShape::c_is_ab circuit (evaluated on the host).
  explicit DeviceCompiledCircuit(const r1cs::CompiledCircuit& cc);
  ~DeviceCompiledCircuit();
  DeviceCompiledCircuit(const DeviceCompiledCircuit&) = delete;
  DeviceCompiledCircuit& operator=(const DeviceCompiledCircuit&) = delete;

  const r1cs::CompiledShape& shape() const noexcept { return shape_; }
  /// Device bytes held (the matrices and the table).
  std::uint64_t device_bytes() const noexcept;

  /// a, b, c (shape().constraints elements each, on the device) from z = [inputs | aux] held as two
  /// device arrays (d_inputs: shape().inputs elements, d_aux: shape().aux; they may be adjacent —
  /// d_aux = d_inputs + inputs — or not, as the backend keeps them), asynchronously on `stream` (a
  /// cudaStream_t; null: the default stream). Neither may overlap a, b or c.
  void evaluate(const ff::Fr* d_inputs, const ff::Fr* d_aux, ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c,
                void* stream = nullptr) const;
  /// One matrix (0 = A, 1 = B, 2 = C) into d_out (shape().constraints elements), as evaluate().
  void evaluate_matrix(int matrix, const ff::Fr* d_inputs, const ff::Fr* d_aux, ff::Fr* d_out,
                       void* stream = nullptr) const;

  /// The same from host memory (uploads z, evaluates, downloads; synchronous): for tests and tools.
  void evaluate_host(std::span<ff::Fr> a, std::span<ff::Fr> b, std::span<ff::Fr> c,
                     std::span<const ff::Fr> inputs, std::span<const ff::Fr> aux) const;

 private:
  struct Arrays;
  r1cs::CompiledShape shape_;
  std::unique_ptr<Arrays> d_;
};

}  // namespace proofline::gpu
