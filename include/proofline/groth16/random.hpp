// proofline/groth16/random.hpp — randomness for Groth16: the prover's r, s, setup's toxic waste,
// and batch verification's coefficients.
//
// Owns: `ByteSource` (an interface: fill a buffer with random bytes), `OsRandom` (OpenSSL's
// CSPRNG, RAND_bytes — the production source), `SeededRandom` (a deterministic stream from a seed,
// for reproducible tests and development parameters: block i = SHA-256(domain ‖ u64_le(|seed|) ‖ seed ‖ u64_le(i))),
// and the derived samplers `random_fr` (uniform over Fr) and `random_u128`.
//
// Uniformity: `random_fr` draws 32 bytes, reads them as a little-endian integer, clears bit 255
// and rejects values >= r (r ≈ 0.906·2^255, so about 1.1 draws on average); every Fr value is
// equally likely.
//
// Errors: OsRandom throws std::runtime_error if OpenSSL cannot produce random bytes (never a
// silent fallback).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "proofline/ff/fr.hpp"

namespace proofline::groth16 {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual void fill(std::span<std::uint8_t> out) = 0;
};

/// OpenSSL RAND_bytes.
class OsRandom final : public ByteSource {
 public:
  void fill(std::span<std::uint8_t> out) override;
};

/// Deterministic: the same seed gives the same stream. NOT for production secrets.
class SeededRandom final : public ByteSource {
 public:
  explicit SeededRandom(std::span<const std::uint8_t> seed);
  explicit SeededRandom(std::string_view seed);
  explicit SeededRandom(std::uint64_t seed);
  void fill(std::span<std::uint8_t> out) override;

 private:
  std::vector<std::uint8_t> seed_;
  std::uint64_t counter_ = 0;
  std::uint8_t block_[32] = {};
  unsigned used_ = 32;
};

/// Uniform element of Fr (Montgomery form) by rejection sampling.
ff::Fr random_fr(ByteSource& rng);
/// Uniform non-zero element of Fr.
ff::Fr random_nonzero_fr(ByteSource& rng);
/// Uniform 128-bit integer as an Fr (< 2^128 < r).
ff::Fr random_u128_fr(ByteSource& rng);

}  // namespace proofline::groth16
