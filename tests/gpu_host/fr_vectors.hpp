// tests/gpu_host/fr_vectors.hpp — random Fr vectors and a bitwise comparison naming the first index
// that differs, for the NTT tests on the device (tests/gpu/) and in host emulation (tests/gpu_host/).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "proofline/ff/fr.hpp"

namespace proofline::test {

inline std::vector<ff::Fr> random_vec(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ff::Fr> v(n);
  for (auto& x : v) x = ff::Fr::random(rng);
  return v;
}

inline void expect_same(const std::vector<ff::Fr>& got, const std::vector<ff::Fr>& want, const char* what,
                        unsigned lg) {
  ASSERT_EQ(got.size(), want.size()) << what << " lg=" << lg;
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].limbs, want[i].limbs) << what << " lg=" << lg << " index " << i;
  }
}

}  // namespace proofline::test
