// tests/support/buffers_test_util.hpp — comparing two provers' buffers byte for byte (the parallel
// synthesis tests of tests/circuits and tests/snap: parallel parts against the sequential order; the
// compiled-circuit and witness-only tests of tests/r1cs, tests/circuits and tests/gpu).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <span>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/density.hpp"
#include "proofline/r1cs/proving_buffers.hpp"

namespace proofline::testing {

/// Equal lengths and bytes (empty spans compare equal without calling memcmp: their data() may be
/// null, which memcmp must not get — UBSan caught it).
inline bool same_bytes(std::span<const ff::Fr> x, std::span<const ff::Fr> y) {
  return x.size() == y.size() && (x.empty() || std::memcmp(x.data(), y.data(), x.size_bytes()) == 0);
}
inline bool same_bits(const r1cs::DensityTracker& x, const r1cs::DensityTracker& y) {
  return x.size() == y.size() && x.popcount() == y.popcount() && x.words().size() == y.words().size() &&
         (x.words().empty() || std::memcmp(x.words().data(), y.words().data(), x.words().size_bytes()) == 0);
}

/// Every buffer of `got` (a, b, c, both assignments, the three densities) equals `want`'s, byte for
/// byte; failures name the buffer and the thread count.
inline void expect_identical(const r1cs::ProvingBuffers& want, const r1cs::ProvingBuffers& got, std::size_t threads) {
  EXPECT_EQ(got.a.size(), want.a.size()) << threads << " threads";
  EXPECT_TRUE(same_bytes(got.a, want.a)) << "a differs, " << threads << " threads";
  EXPECT_TRUE(same_bytes(got.b, want.b)) << "b differs, " << threads << " threads";
  EXPECT_TRUE(same_bytes(got.c, want.c)) << "c differs, " << threads << " threads";
  EXPECT_TRUE(same_bytes(got.input_assignment, want.input_assignment)) << "inputs differ, " << threads << " threads";
  EXPECT_TRUE(same_bytes(got.aux_assignment, want.aux_assignment)) << "aux differs, " << threads << " threads";
  EXPECT_TRUE(same_bits(got.a_aux_density, want.a_aux_density)) << "A aux density differs, " << threads << " threads";
  EXPECT_TRUE(same_bits(got.b_input_density, want.b_input_density))
      << "B input density differs, " << threads << " threads";
  EXPECT_TRUE(same_bits(got.b_aux_density, want.b_aux_density)) << "B aux density differs, " << threads << " threads";
}

}  // namespace proofline::testing
