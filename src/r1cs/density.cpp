// DensityTracker::extend.
#include "proofline/r1cs/density.hpp"

#include <cassert>

namespace proofline::r1cs {

void DensityTracker::extend(const DensityTracker& other, bool merge_first) {
  assert(!is_window() && !other.is_window());
  std::size_t start = 0;
  if (merge_first && other.size_ > 0) {
    assert(size_ > 0);
    if (other.test(0)) set(0);
    start = 1;
  }
  if (start == 0 && (size_ & 63) == 0) {  // word-aligned: copy whole words
    words_.insert(words_.end(), other.words_.begin(), other.words_.end());
    size_ += other.size_;
    popcount_ += other.popcount_;
    return;
  }
  reserve(size_ + (other.size_ - start));
  for (std::size_t i = start; i < other.size_; ++i) push_back(other.test(i));
}

DensityTracker DensityTracker::window(std::size_t first_bit, std::size_t low_bits) {
  DensityTracker t;
  t.base_word_ = first_bit >> 6;
  const std::size_t low_words = (low_bits + 63) >> 6;
  t.low_.assign(low_words < t.base_word_ ? low_words : t.base_word_, 0);
  if ((first_bit & 63) != 0) t.words_.push_back(0);  // the partly owned first word
  t.size_ = first_bit;
  return t;
}

void DensityTracker::merge_window(const DensityTracker& w) noexcept {
  assert(!is_window() && w.size_ <= size_);
  auto or_word = [&](std::size_t k, std::uint64_t bits) {
    popcount_ += static_cast<std::size_t>(std::popcount(bits & ~words_[k]));
    words_[k] |= bits;
  };
  for (std::size_t k = 0; k < w.low_.size(); ++k) {
    if (w.low_[k] != 0) or_word(k, w.low_[k]);
  }
  for (std::size_t k = 0; k < w.words_.size(); ++k) {
    if (w.words_[k] != 0) or_word(w.base_word_ + k, w.words_[k]);
  }
}

void DensityTracker::or_at(std::size_t offset, const DensityTracker& other) noexcept {
  assert(offset + other.size_ <= size_);
  const std::size_t shift = offset & 63;
  std::size_t w = offset >> 6;
  auto or_word = [&](std::size_t k, std::uint64_t bits) {
    std::uint64_t& dst = word(k);
    const std::uint64_t added = bits & ~dst;
    popcount_ += static_cast<std::size_t>(std::popcount(added));
    dst |= bits;
  };
  // other's bits beyond its size are zero, so whole words can be ORed.
  for (const std::uint64_t src : other.words_) {
    if (src != 0) {
      or_word(w, src << shift);
      if (shift != 0 && (src >> (64 - shift)) != 0) or_word(w + 1, src >> (64 - shift));
    }
    ++w;
  }
}

}  // namespace proofline::r1cs
