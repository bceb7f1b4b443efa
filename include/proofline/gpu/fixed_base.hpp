// proofline/gpu/fixed_base.hpp — batched fixed-base scalar multiplication k_i·G on a CUDA device,
// for parameter generation (groth16 setup of development parameters at 2^24+ rows).
//
// Plain C++ (no CUDA headers). Kernels in src/gpu/fixed_base.cu.
//
// What: for a groth16::FixedBaseTable (built on the host: table[k][d − 1] = d·2^(wk)·P) and scalars
// k_i (ff::Fr, Montgomery form), returns k_i·P in affine form, in order — the same points as
// FixedBaseTable::mul_batch (tests/gpu/fixed_base_test.cpp compares them). k = 0 gives the identity.
// How: the table is uploaded once per call (packed {x, y} device layout, src/gpu/ec.cuh); scalars
// go to canonical form on the host (4 little-endian 64-bit limbs) and up in chunks; one thread per
// scalar adds one table entry per non-zero w-bit window into an XYZZ accumulator (madd, 8M + 2S);
// the XYZZ results come back (pinned host buffer) and the host converts each chunk to affine with
// ec::batch_to_affine (Montgomery's trick, in parallel with oneTBB). A `FixedBaseMultiplier` keeps
// the table and the buffers on the device between calls, so the streamed setup (one call per chunk
// of SetupOptions::chunk points) uploads each table once.
// Memory on the device: the table (⌈255/w⌉·(2^w − 1)·96 B for G1, ·192 B for G2; w = 16: 100 MB /
// 200 MB) + per chunk of 2^22 scalars 128 MB of scalars and 805 MB (G1) / 1.6 GB (G2) of XYZZ.
// Errors: CudaError for any failed CUDA call (e.g. no device: code cudaErrorNoDevice).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/ff/fr.hpp"
#include "proofline/groth16/setup.hpp"

namespace proofline::gpu {

/// The table of one base point resident on a device, with the chunk buffers (device and pinned
/// host): mul() any number of times. Not thread-safe (one caller at a time).
template <class Cfg>
class FixedBaseMultiplier {
 public:
  FixedBaseMultiplier(const groth16::FixedBaseTable<Cfg>& table, int device = 0);
  ~FixedBaseMultiplier();
  FixedBaseMultiplier(const FixedBaseMultiplier&) = delete;
  FixedBaseMultiplier& operator=(const FixedBaseMultiplier&) = delete;
  /// out[i] = scalars[i]·P (affine); out.size() == scalars.size() (std::invalid_argument otherwise).
  void mul(std::span<const ff::Fr> scalars, std::span<ec::AffinePoint<Cfg>> out);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// k_i·P for every scalar, with P the table's base, on device `device`.
std::vector<ec::G1Affine> fixed_base_mul_batch(const groth16::FixedBaseTable<ec::G1Config>& table,
                                               std::span<const ff::Fr> scalars, int device = 0);
std::vector<ec::G2Affine> fixed_base_mul_batch(const groth16::FixedBaseTable<ec::G2Config>& table,
                                               std::span<const ff::Fr> scalars, int device = 0);

/// Sets opts.g1_batch / opts.g2_batch to make a FixedBaseMultiplier on `device` per table, so that
/// groth16::generate_parameters does its fixed-base multiplications on the GPU (same output).
/// Registered with groth16::register_setup_device as "cuda" (src/gpu/register.cpp), for
/// `proofline setup --backend cuda`.
void use_gpu_for_setup(groth16::SetupOptions& opts, int device = 0);

}  // namespace proofline::gpu
