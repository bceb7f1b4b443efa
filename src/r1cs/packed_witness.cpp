// PackedWitness: 0/1 values as bits, the rest in order (include/proofline/r1cs/packed_witness.hpp).
#include "proofline/r1cs/packed_witness.hpp"

#include <algorithm>
#include <string>

namespace proofline::r1cs {

void PackedWitness::new_word() {
  // Called when the last word is full (or there is none): its non-bit values are 64 − its bits.
  std::uint64_t before = 0;
  if (!is_bit_.empty()) before = others_before_.back() + (64 - static_cast<std::uint64_t>(std::popcount(is_bit_.back())));
  if (before > 0xffffffffull) {
    throw std::length_error("PackedWitness: " + std::to_string(before) +
                            " non-bit values, more than its u32 prefix counts hold");
  }
  is_bit_.push_back(0);
  bits_.push_back(0);
  others_before_.push_back(static_cast<std::uint32_t>(before));
}

void PackedWitness::append_word(std::uint64_t is_bit, std::uint64_t bits, std::size_t count) {
  const unsigned off = n_ & 63;
  if (off == 0) new_word();
  is_bit_.back() |= is_bit << off;
  bits_.back() |= bits << off;
  if (off != 0 && count > 64 - off) {  // the rest goes into a new word
    new_word();
    is_bit_.back() = is_bit >> (64 - off);
    bits_.back() = bits >> (64 - off);
  }
  n_ += count;
}

void PackedWitness::append(const PackedWitness& other) {
  if (other.n_ == 0) return;
  if ((n_ & 63) == 0) {  // word-aligned: copy the words, rebase the prefix counts
    const std::uint64_t base = others_.size();
    if (base + other.others_.size() > 0xffffffffull) {
      throw std::length_error("PackedWitness: more than 2^32 − 1 non-bit values (u32 prefix counts)");
    }
    is_bit_.insert(is_bit_.end(), other.is_bit_.begin(), other.is_bit_.end());
    bits_.insert(bits_.end(), other.bits_.begin(), other.bits_.end());
    for (const std::uint32_t b : other.others_before_) others_before_.push_back(static_cast<std::uint32_t>(base + b));
  } else {
    for (std::size_t k = 0; k < other.is_bit_.size(); ++k) {
      const std::size_t count = std::min<std::size_t>(64, other.n_ - 64 * k);
      append_word(other.is_bit_[k], other.bits_[k], count);
    }
    n_ -= other.n_;  // append_word counted them; counted once below
  }
  n_ += other.n_;
  others_.insert(others_.end(), other.others_.begin(), other.others_.end());
}

void PackedWitness::expand(std::span<Fr> out) const {
  if (out.size() != n_) {
    throw std::length_error("PackedWitness::expand: got " + std::to_string(out.size()) + " values, expected " +
                            std::to_string(n_));
  }
  const Fr zero = Fr::zero(), one = Fr::one();
  for (std::size_t k = 0; k < is_bit_.size(); ++k) {
    const std::size_t end = std::min<std::size_t>(64, n_ - 64 * k);
    const Fr* other = others_.data() + others_before_[k];
    Fr* o = out.data() + 64 * k;
    const std::uint64_t ib = is_bit_[k], bv = bits_[k];
    for (std::size_t b = 0; b < end; ++b) {
      if ((ib >> b) & 1) o[b] = ((bv >> b) & 1) ? one : zero;
      else o[b] = *other++;
    }
  }
}

std::vector<ff::Fr> PackedWitness::expand() const {
  std::vector<Fr> out(n_);
  expand(out);
  return out;
}

PackedWitness PackedWitness::pack(std::span<const Fr> values) {
  PackedWitness w;
  w.reserve(values.size());
  for (const Fr& v : values) w.push_back(v);
  return w;
}

std::size_t PackedWitness::one_count() const noexcept {
  std::size_t n = 0;
  for (const std::uint64_t w : bits_) n += static_cast<std::size_t>(std::popcount(w));
  return n;
}

void PackedWitness::reserve(std::size_t n, std::size_t n_others) {
  const std::size_t words = (n + 63) / 64;
  is_bit_.reserve(words);
  bits_.reserve(words);
  others_before_.reserve(words);
  others_.reserve(n_others);
}

void PackedWitness::clear() noexcept {
  n_ = 0;
  is_bit_.clear();
  bits_.clear();
  others_before_.clear();
  others_.clear();
}

bool operator==(const PackedWitness& x, const PackedWitness& y) noexcept {
  return x.n_ == y.n_ && x.is_bit_ == y.is_bit_ && x.bits_ == y.bits_ && x.others_before_ == y.others_before_ &&
         x.others_ == y.others_;
}

}  // namespace proofline::r1cs
