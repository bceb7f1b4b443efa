// tests/support/setup_test_util.hpp — the setup of a circuit in forms the parallel-synthesis setup
// tests (tests/post, tests/snap, tests/circuits) compare across thread counts: the .params bytes of
// a seeded setup, and a digest of everything the setup streams (the vk, the section lengths and
// every scalar handed to the fixed-base multiplications, in order) without the curve work, for the
// circuits whose real setup takes minutes. Equal scalars in equal order with the same toxic waste
// ⇒ equal .params bytes (each point is k·G; the fixed-base code is tested on its own). Also used by
// tests/circuits/porep_setup_test.cpp (the streamed setup against the whole-matrix oracle).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "proofline/groth16/groth16.hpp"

namespace proofline::testing {

/// acc = acc·ρ + k over every scalar, in order (equal digests ⇒ equal sequences, but with
/// probability ~n/r for a fixed ρ unknown to the circuit).
struct ScalarDigest {
  ff::Fr rho = ff::Fr::from_u64(0x9e3779b97f4a7c15ULL) * ff::Fr::from_u64(1234567891);
  ff::Fr acc = ff::Fr::zero();
  std::size_t n = 0;
  void add(std::span<const ff::Fr> ks) {
    for (const ff::Fr& k : ks) acc = acc * rho + k;
    n += ks.size();
  }
  friend bool operator==(const ScalarDigest&, const ScalarDigest&) = default;
};

/// Keeps the vk and the section lengths only.
class CountingSink final : public groth16::ParamsSink {
 public:
  groth16::VerifyingKey vk_;
  std::size_t len[5] = {0, 0, 0, 0, 0};

 protected:
  void on_vk(const groth16::VerifyingKey& vk) override { vk_ = vk; }
  void on_begin(groth16::ParamsSection s, std::size_t count) override { len[static_cast<int>(s)] = count; }
  void on_append(std::span<const ec::G1Affine>) override {}
  void on_append(std::span<const ec::G2Affine>) override {}
  void on_finish() override {}
};

/// SetupOptions without warning or progress, on `threads` threads, for `shape` when given.
inline groth16::SetupOptions quiet_setup_options(int threads, std::optional<r1cs::CircuitShape> shape = {}) {
  groth16::SetupOptions o;
  o.warn = false;
  o.progress_min_constraints = ~std::size_t{0};
  o.threads = threads;
  o.shape = shape;
  return o;
}

/// Installs hooks into `o` that add every G1 (G2) scalar to *g1 (*g2) and return generators.
inline void digest_scalars(groth16::SetupOptions& o, ScalarDigest* g1, ScalarDigest* g2) {
  o.g1_batch = [g1](const groth16::FixedBaseTable<ec::G1Config>&) {
    return groth16::FixedBaseMulFn<ec::G1Config>([g1](std::span<const ff::Fr> ks, std::span<ec::G1Affine> out) {
      g1->add(ks);
      std::fill(out.begin(), out.end(), ec::G1Affine::generator());
    });
  };
  o.g2_batch = [g2](const groth16::FixedBaseTable<ec::G2Config>&) {
    return groth16::FixedBaseMulFn<ec::G2Config>([g2](std::span<const ff::Fr> ks, std::span<ec::G2Affine> out) {
      g2->add(ks);
      std::fill(out.begin(), out.end(), ec::G2Affine::generator());
    });
  };
}

/// What a digested setup streamed.
struct SetupDigest {
  groth16::VerifyingKey vk;  ///< alpha … delta real; ic from the hooks (generators)
  std::size_t len[5] = {0, 0, 0, 0, 0};
  ScalarDigest g1, g2;
  friend bool operator==(const SetupDigest&, const SetupDigest&) = default;
};

/// The setup of `circuit` from `seed` on `threads` threads, digested (see the header comment).
template <class C>
SetupDigest setup_digest(const C& circuit, std::uint64_t seed, int threads, std::optional<r1cs::CircuitShape> shape = {}) {
  groth16::SeededRandom rng(seed);
  groth16::SetupOptions o = quiet_setup_options(threads, shape);
  SetupDigest d;
  digest_scalars(o, &d.g1, &d.g2);
  CountingSink sink;
  groth16::generate_parameters(circuit, groth16::draw_toxic_waste(rng), sink, o);
  d.vk = sink.vk_;
  std::copy(std::begin(sink.len), std::end(sink.len), std::begin(d.len));
  return d;
}

/// The .params bytes of the setup of `circuit` from `seed` on `threads` threads.
template <class C>
std::vector<std::uint8_t> setup_params_bytes(const C& circuit, std::uint64_t seed, int threads,
                                             std::optional<r1cs::CircuitShape> shape = {}) {
  groth16::SeededRandom rng(seed);
  std::vector<std::uint8_t> out;
  groth16::ParamsWriter w(out);
  groth16::generate_parameters(circuit, groth16::draw_toxic_waste(rng), w, quiet_setup_options(threads, shape));
  return out;
}

/// A circuit of independent parts (set_synthesis_threads: PoSt sectors, PoRep / SnapDeals
/// challenges) set up from `seed` with its parts in parallel — SetupOptions::threads 2 and 0 — and
/// with the circuit's own switch in order (threads 0) streams what the sequential synthesis
/// (SetupOptions::threads 1) streams.
template <class C>
void expect_parallel_setup_is_sequential(C circuit, const r1cs::CircuitShape& shape, std::uint64_t seed) {
  const SetupDigest seq = setup_digest(circuit, seed, 1, shape);
  ASSERT_EQ(seq.len[1], shape.aux);  // l: one point per aux variable
  EXPECT_TRUE(setup_digest(circuit, seed, 2, shape) == seq) << "2 threads";
  EXPECT_TRUE(setup_digest(circuit, seed, 0, shape) == seq) << "all threads";
  circuit.set_synthesis_threads(1);
  EXPECT_TRUE(setup_digest(circuit, seed, 0, shape) == seq) << "the circuit's parts in order";
}

}  // namespace proofline::testing
