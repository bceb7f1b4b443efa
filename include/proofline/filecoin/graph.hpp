// proofline/filecoin/graph.hpp — the stacked DRG graph of Filecoin's SDR PoRep: the DRG parents
// (bucket sampling) and the expander parents (Feistel permutation) of a node, as upstream computes
// them (storage-proofs-core `drgraph.rs`, `crypto/feistel.rs`, `crypto/mod.rs`; storage-proofs-porep
// `stacked/vanilla/graph.rs`), and the ChaCha8 generator they draw from (rand_chacha's ChaCha8Rng).
//
// Owns: `ChaCha8Rng`, `derive_porep_domain_seed`, `feistel_precompute` / `feistel_permute` /
// `feistel_invert_permute`, `StackedGraph`.
//
// Facts:
//  - domain seed(dst, porep_id) = SHA-256(dst ‖ porep_id) (32 bytes, untrimmed); dst
//    "Filecoin_DRSample" for the DRG (its first 28 bytes are the DRG seed) and "Filecoin_Feistel" for
//    the expander (the four u64 LE words are the Feistel keys; only the first 3 are used: 3 rounds).
//  - ChaCha8Rng::from_seed(key): the ChaCha block function with 8 rounds (4 double rounds), key = the
//    32 seed bytes as 8 LE words, 64-bit block counter from 0 in words 12–13, stream 0 in words 14–15;
//    output words in block order, LE. next_u64 = lo | hi << 32 of the next two words.
//  - DRG parents of node v (degree 6, m' = 5): v ∈ {0, 1} → all six parents 0. Otherwise the RNG is
//    seeded with drg_seed (28 bytes) ‖ u32 LE v; metagraph node M = 5v; buckets = ceil(log2 M); five
//    times: bucket = next_u64 % buckets + 1, hi = min(M, 2^bucket), lo = max(2, hi >> 1),
//    distance = lo + next_u64 % (hi − lo + 1), p = (M − distance) / 5, p = v − 1 if p == v.
//    ApiVersion 1.0.0 fills slots 0..4 and puts v − 1 in slot 5; later versions put v − 1 in slot 0 and
//    fill slots 1..5.
//  - Feistel over N = 8·nodes elements: half_bits = smallest h ≥ 1 with 4^h ≥ N; encode (L, R) =
//    (index >> h, index & mask) through 3 rounds (L, R) ← (R, L ⊕ F(R, key_i)) with
//    F(R, k) = first 8 bytes (BE) of BLAKE2b-512(R u64 BE ‖ k u64 BE) & mask; re-encode while ≥ N.
//  - Expander parent i of node v: permute(N, 8v + i) / 8 (ApiVersion 1.0.0 truncates the permuted
//    index to u32 before dividing: the "pathological" legacy graph).
// BLAKE2b-512 and SHA-256 are OpenSSL's.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "proofline/filecoin/sector.hpp"

namespace proofline::filecoin {

/// rand_chacha ChaCha8Rng (also ChaCha20 with rounds = 20, for testing against other implementations).
class ChaCha8Rng {
 public:
  explicit ChaCha8Rng(const std::array<std::uint8_t, 32>& seed, unsigned rounds = 8);
  std::uint32_t next_u32();
  std::uint64_t next_u64();
  /// Fills `out` with keystream bytes (words LE, in order).
  void fill_bytes(std::span<std::uint8_t> out);

 private:
  void refill();
  std::array<std::uint32_t, 16> key_state_{};
  std::array<std::uint32_t, 16> block_{};
  std::uint64_t counter_ = 0;
  unsigned index_ = 16;
  unsigned rounds_;
};

/// SHA-256(dst ‖ porep_id).
std::array<std::uint8_t, 32> derive_porep_domain_seed(std::string_view dst, const PorepId& porep_id);

struct FeistelPrecomputed {
  std::uint64_t left_mask = 0, right_mask = 0, half_bits = 0;
};
FeistelPrecomputed feistel_precompute(std::uint64_t num_elements);
/// The permutation of [0, num_elements) (cycle-walking); keys.size() ≥ 3.
std::uint64_t feistel_permute(std::uint64_t num_elements, std::uint64_t index, std::span<const std::uint64_t> keys,
                              const FeistelPrecomputed& pre);
std::uint64_t feistel_invert_permute(std::uint64_t num_elements, std::uint64_t index,
                                     std::span<const std::uint64_t> keys, const FeistelPrecomputed& pre);

/// StackedBucketGraph: DRG (bucket sampling, degree 6) + expander (degree 8) parents.
class StackedGraph {
 public:
  StackedGraph(std::uint64_t nodes, const PorepId& porep_id, ApiVersion version);
  explicit StackedGraph(const PorepConfig& c) : StackedGraph(c.shape->nodes, c.porep_id, c.api_version) {}

  std::uint64_t nodes() const { return nodes_; }
  /// The 6 DRG parents of `node` (< node for node ≥ 2; 0 for nodes 0 and 1).
  std::array<std::uint32_t, kBaseDegree> drg_parents(std::uint64_t node) const;
  /// The 8 expander parents of `node` (any node of the previous layer).
  std::array<std::uint32_t, kExpDegree> exp_parents(std::uint64_t node) const;

  const std::array<std::uint8_t, 28>& drg_seed() const { return drg_seed_; }
  const std::array<std::uint64_t, 4>& feistel_keys() const { return feistel_keys_; }

 private:
  std::uint64_t nodes_;
  ApiVersion version_;
  std::array<std::uint8_t, 28> drg_seed_{};
  std::array<std::uint64_t, 4> feistel_keys_{};
  FeistelPrecomputed feistel_;
};

}  // namespace proofline::filecoin
