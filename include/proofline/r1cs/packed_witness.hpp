// proofline/r1cs/packed_witness.hpp — a witness vector with its 0/1 values bit-packed.
//
// Owns: `PackedWitness`, n field values (Fr, Montgomery form, as everywhere) stored as
//   is_bit       ceil(n / 64) words: bit j set where value j is 0 or 1
//   bits         ceil(n / 64) words: bit j = value j where it is 0 or 1, else 0
//   others       the values that are neither 0 nor 1, in index order
//   others_before  ceil(n / 64) u32: the number of `others` in words [0, k) (prefix counts), so that
//                value j is found in O(1): others[others_before[j/64] + popcount(~is_bit[j/64] below
//                bit j%64)]
// Bit j of a bitmap is bit (j mod 64) of word j / 64 (LSB first, as density.hpp); bits at and beyond
// n in the last word are zero. Every array is flat and position-independent, so it uploads to a
// device as it is.
//
// Bytes (bytes()): 2 bits + 0.5 bit (prefix count) per value + 32 B per other value. A 32 GiB PoRep
// partition's witness is 51.3 % zeros, 47.4 % ones and 1.3 % other values
// (../shared/reference/porep-32gib-partition.md): ≈ 2.5 bits + 0.013 × 256 bits ≈ 5.8 bits per value,
// 2.3 % of the 32 B per value of a plain vector<Fr>.
//
// Made by push_back() / push_bits() as values are allocated (witness-only synthesis,
// witness_assignment.hpp) or all at once by pack(); append() concatenates (parallel parts).
// Limits: fewer than 2^32 other values (u32 prefix counts); push_* throw std::length_error beyond.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "proofline/ff/fr.hpp"
#include "proofline/r1cs/linear_combination.hpp"

namespace proofline::r1cs {

class PackedWitness {
 public:
  using Fr = ff::Fr;

  /// Appends one value: a bit if it is 0 or 1 (limb compares), else an entry of others().
  [[gnu::always_inline]] void push_back(const Fr& v) {
    if ((n_ & 63) == 0) [[unlikely]] new_word();
    const std::uint64_t m = std::uint64_t{1} << (n_ & 63);
    ++n_;
    if (v.is_zero()) {
      is_bit_.back() |= m;
    } else if (detail::is_one(v)) {
      is_bit_.back() |= m;
      bits_.back() |= m;
    } else {
      others_.push_back(v);
    }
  }
  /// Appends count <= 64 values 0/1: bits 0 .. count−1 of `values` (LSB first; higher bits ignored).
  void push_bits(std::uint64_t values, std::size_t count) {
    if (count == 0) return;
    const std::uint64_t mask = count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
    append_word(mask, values & mask, count);
  }
  /// Appends `other`'s values after this one's.
  void append(const PackedWitness& other);

  /// Number of values.
  std::size_t size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  /// Value j (j < size()).
  Fr value(std::size_t j) const noexcept {
    const std::size_t k = j >> 6;
    const std::uint64_t below = (std::uint64_t{1} << (j & 63)) - 1, m = below + 1;
    if (is_bit_[k] & m) return (bits_[k] & m) ? Fr::one() : Fr::zero();
    return others_[others_before_[k] + static_cast<std::size_t>(std::popcount(~is_bit_[k] & below))];
  }
  /// The plain form: out[j] = value(j); out.size() must be size().
  void expand(std::span<Fr> out) const;
  std::vector<Fr> expand() const;
  /// The packed form of `values`.
  static PackedWitness pack(std::span<const Fr> values);

  std::span<const std::uint64_t> is_bit_words() const noexcept { return is_bit_; }
  std::span<const std::uint64_t> bit_words() const noexcept { return bits_; }
  std::span<const Fr> others() const noexcept { return others_; }
  std::span<const std::uint32_t> others_before() const noexcept { return others_before_; }
  /// Values that are 0 or 1.
  std::size_t bit_count() const noexcept { return n_ - others_.size(); }
  /// Values that are 1.
  std::size_t one_count() const noexcept;

  /// Bytes of the four arrays (their sizes, not capacities): 8 + 8 + 4 per 64 values, 32 per
  /// other value.
  std::size_t bytes() const noexcept {
    return is_bit_.size() * 8 + bits_.size() * 8 + others_before_.size() * 4 + others_.size() * sizeof(Fr);
  }

  /// Room for n values of which `n_others` are not bits.
  void reserve(std::size_t n, std::size_t n_others = 0);
  /// Empties, keeping capacity.
  void clear() noexcept;

  /// Same values (every array equal).
  friend bool operator==(const PackedWitness& x, const PackedWitness& y) noexcept;

 private:
  void new_word();
  // Appends `count` (1..64) values whose is_bit / bit flags are the low bits of is_bit / bits; the
  // non-bit ones are taken from others_ (already appended) by the caller.
  void append_word(std::uint64_t is_bit, std::uint64_t bits, std::size_t count);

  std::size_t n_ = 0;
  std::vector<std::uint64_t> is_bit_, bits_;
  std::vector<std::uint32_t> others_before_;
  std::vector<Fr> others_;
};

}  // namespace proofline::r1cs
