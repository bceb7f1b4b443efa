// fuzz/json_mutator.hpp — a custom libFuzzer mutator for the JSON targets (c1, snarkjs_vk,
// snarkjs_proof, snarkjs_public): one mutation in eight inserts a deeply nested array
// ("[[[…]]]", 1 … 300,000 levels, lengths chosen around the parsers' depth limit of 64 and the
// depths that crashed the daemon and the CLI before issue 21) at a random offset; the rest are
// libFuzzer's own mutations (guided by fuzz/json.dict). Plain mutations almost never build nesting
// deeper than a few levels, so without this the depth limit would go untested.
// Include it in exactly one translation unit of a target.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  std::minstd_rand rng(seed);
  if (rng() % 8 != 0 || size == 0) return LLVMFuzzerMutate(data, size, max_size);
  static constexpr std::size_t kDepths[] = {2, 63, 64, 65, 100, 1000, 50000, 80000, 200000, 300000};
  std::size_t depth = kDepths[rng() % (sizeof kDepths / sizeof kDepths[0])];
  if (size + 2 * depth > max_size) depth = (max_size - size) / 2;
  if (depth == 0) return LLVMFuzzerMutate(data, size, max_size);
  const std::size_t at = rng() % (size + 1);
  std::memmove(data + at + 2 * depth, data + at, size - at);
  std::memset(data + at, '[', depth);
  std::memset(data + at + depth, ']', depth);
  return size + 2 * depth;
}
