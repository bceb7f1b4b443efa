// src/gpu/r1cs_eval.cu — a = A·z, b = B·z, c = C·z on the device; see include/proofline/gpu/r1cs_eval.hpp.
#include <cuda_runtime.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "device_buffer.cuh"
#include "ff.cuh"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/r1cs_eval.hpp"

namespace proofline::gpu {

namespace {

constexpr unsigned kThreads = 256;

/// One matrix on the device (views into DeviceCompiledCircuit::Arrays).
struct DevRows {
  const uint32_t* offsets;  // n + 1
  const uint32_t* cols;     // nnz
  const uint16_t* coeff;    // nnz
};

/// out[i] = Σ_e table[coeff[e]]·z[cols[e]] over row i's entries, for every row i < n; z[j] is
/// inputs[j] for j < n_in, aux[j − n_in] above.
__global__ void __launch_bounds__(kThreads) evaluate_rows_kernel(DevFr* __restrict__ out, DevRows m,
                                                                  const DevFr* __restrict__ table,
                                                                  const DevFr* __restrict__ inputs, uint32_t n_in,
                                                                  const DevFr* __restrict__ aux, uint64_t n) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const DevFr one = DevFr::one();
  DevFr acc = DevFr::zero();
  const uint32_t end = m.offsets[i + 1];
  for (uint32_t e = m.offsets[i]; e < end; ++e) {
    const uint32_t col = m.cols[e];
    const DevFr v = col < n_in ? inputs[col] : aux[col - n_in];
    const uint16_t k = m.coeff[e];
    if (k == r1cs::CompiledCircuit::kPlusOne) {
      acc = acc + v;
    } else if (k == r1cs::CompiledCircuit::kMinusOne) {
      acc = acc - v;
    } else if (v.is_zero()) {
      // adds nothing
    } else if (v == one) {
      acc = acc + table[k];
    } else {
      acc = acc + table[k] * v;
    }
  }
  out[i] = acc;
}

unsigned blocks_for(uint64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

template <class T>
void upload(DeviceBuffer& buf, std::span<const T> host) {
  buf.ensure(host.size_bytes() ? host.size_bytes() : 1);
  if (!host.empty()) CUDA_CHECK(cudaMemcpy(buf.get(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice));
}

void check_length(const char* what, std::size_t got, std::uint64_t want) {
  if (got != want)
    throw std::invalid_argument(std::string("gpu::DeviceCompiledCircuit::evaluate_host: ") + what + " has " +
                                std::to_string(got) + " elements, expected " + std::to_string(want));
}

}  // namespace

struct DeviceCompiledCircuit::Arrays {
  DeviceBuffer offsets[3] = {DeviceBuffer{"compiled circuit A row offsets"}, DeviceBuffer{"compiled circuit B row offsets"},
                             DeviceBuffer{"compiled circuit C row offsets"}};
  DeviceBuffer cols[3] = {DeviceBuffer{"compiled circuit A columns"}, DeviceBuffer{"compiled circuit B columns"},
                          DeviceBuffer{"compiled circuit C columns"}};
  DeviceBuffer coeff[3] = {DeviceBuffer{"compiled circuit A coefficients"},
                           DeviceBuffer{"compiled circuit B coefficients"},
                           DeviceBuffer{"compiled circuit C coefficients"}};
  DeviceBuffer table{"compiled circuit coefficient table"};
};

DeviceCompiledCircuit::DeviceCompiledCircuit(const r1cs::CompiledCircuit& cc)
    : shape_(cc.shape()), d_(std::make_unique<Arrays>()) {
  static_assert(sizeof(ff::Fr) == sizeof(DevFr), "device Fr mirrors the host Fr");
  if (shape_.c_is_ab) {
    throw std::invalid_argument("DeviceCompiledCircuit: a circuit whose c is a·b (a snarkjs zkey's) is evaluated on "
                                "the host (r1cs::evaluate)");
  }
  for (int m = 0; m < 3; ++m) {
    const r1cs::SparseRows& rows = cc.matrix(m);
    upload(d_->offsets[m], rows.row_offsets);
    upload(d_->cols[m], rows.cols);
    upload(d_->coeff[m], rows.coeff_index);
  }
  upload(d_->table, cc.coefficients());
}

DeviceCompiledCircuit::~DeviceCompiledCircuit() = default;

std::uint64_t DeviceCompiledCircuit::device_bytes() const noexcept {
  std::uint64_t s = d_->table.bytes();
  for (int m = 0; m < 3; ++m) s += d_->offsets[m].bytes() + d_->cols[m].bytes() + d_->coeff[m].bytes();
  return s;
}

void DeviceCompiledCircuit::evaluate_matrix(int matrix, const ff::Fr* d_inputs, const ff::Fr* d_aux, ff::Fr* d_out,
                                            void* stream) const {
  if (matrix < 0 || matrix > 2)
    throw std::invalid_argument("gpu::DeviceCompiledCircuit::evaluate_matrix: matrix " + std::to_string(matrix) +
                                ", expected 0 (A), 1 (B) or 2 (C)");
  const uint64_t n = shape_.constraints;
  if (n == 0) return;
  const DevRows rows{d_->offsets[matrix].as<const uint32_t>(), d_->cols[matrix].as<const uint32_t>(),
                     d_->coeff[matrix].as<const uint16_t>()};
  evaluate_rows_kernel<<<blocks_for(n), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<DevFr*>(d_out), rows, d_->table.as<const DevFr>(), reinterpret_cast<const DevFr*>(d_inputs),
      static_cast<uint32_t>(shape_.inputs), reinterpret_cast<const DevFr*>(d_aux), n);
  CUDA_CHECK(cudaGetLastError());
}

void DeviceCompiledCircuit::evaluate(const ff::Fr* d_inputs, const ff::Fr* d_aux, ff::Fr* d_a, ff::Fr* d_b,
                                     ff::Fr* d_c, void* stream) const {
  ff::Fr* out[3] = {d_a, d_b, d_c};
  for (int m = 0; m < 3; ++m) evaluate_matrix(m, d_inputs, d_aux, out[m], stream);
}

void DeviceCompiledCircuit::evaluate_host(std::span<ff::Fr> a, std::span<ff::Fr> b, std::span<ff::Fr> c,
                                          std::span<const ff::Fr> inputs, std::span<const ff::Fr> aux) const {
  check_length("a", a.size(), shape_.constraints);
  check_length("b", b.size(), shape_.constraints);
  check_length("c", c.size(), shape_.constraints);
  check_length("the input assignment", inputs.size(), shape_.inputs);
  check_length("the aux assignment", aux.size(), shape_.aux);
  const std::size_t nz = inputs.size() + aux.size(), n = a.size();
  DeviceBuffer z(nz * sizeof(ff::Fr) + 1, "compiled circuit z"), abc(3 * n * sizeof(ff::Fr) + 1, "compiled circuit a, b, c");
  if (!inputs.empty()) CUDA_CHECK(cudaMemcpy(z.get(), inputs.data(), inputs.size_bytes(), cudaMemcpyHostToDevice));
  if (!aux.empty())
    CUDA_CHECK(cudaMemcpy(z.as<ff::Fr>() + inputs.size(), aux.data(), aux.size_bytes(), cudaMemcpyHostToDevice));
  ff::Fr* d = abc.as<ff::Fr>();
  evaluate(z.as<const ff::Fr>(), z.as<const ff::Fr>() + inputs.size(), d, d + n, d + 2 * n);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::span<ff::Fr> outs[3] = {a, b, c};
  for (int m = 0; m < 3; ++m)
    if (n) CUDA_CHECK(cudaMemcpy(outs[m].data(), d + m * n, n * sizeof(ff::Fr), cudaMemcpyDeviceToHost));
}

}  // namespace proofline::gpu
