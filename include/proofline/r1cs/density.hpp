// proofline/r1cs/density.hpp — density bitmaps of the prover (which variables a query touches).
//
// Owns: `DensityTracker`, a growable bit vector with a running popcount.
//
// Window trackers (parallel synthesis, ProvingAssignment::synthesize_parts): window(first_bit,
// low_bits) makes a tracker of size first_bit that stores only bits [0, low_bits) (the shared
// prefix's variables, which a part may set) and bits from first_bit on (the part's own); the bits
// between belong to other parts and must not be touched. Its popcount() counts the bits set in it.
// merge_window() ORs it into the full tracker afterwards; words(), extend() and == are for full
// trackers only.
//
// Layout: bit i of the vector is bit (i mod 64) of word i / 64 (LSB-first in 64-bit words, as
// bellperson's bitvec<Lsb0, u64> and supraseal's density pointers); bits beyond size() in the last
// word are zero. One bit per variable of one kind (inputs or aux), in allocation order.
//
// Meaning (reference §2.2, §8.5): the prover sets bit j when variable j appears with a nonzero
// coefficient in the A (aux only) or B (inputs and aux) linear combination of any constraint. The
// Groth16 parameters hold query points only for the set bits (`a` = all inputs + aux with A-density;
// `b_g1`/`b_g2` = inputs with B-density + aux with B-density), so the MSMs use these bitmaps to line
// scalars up with bases, and popcount() gives the query lengths.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace proofline::r1cs {

class DensityTracker {
 public:
  /// Appends one bit (a newly allocated variable; the prover pushes false and sets it later).
  void push_back(bool bit) {
    if ((size_ & 63) == 0) words_.push_back(0);  // word size_/64 (window: words_ starts at base_word_)
    if (bit) {
      words_.back() |= std::uint64_t{1} << (size_ & 63);
      ++popcount_;
    }
    ++size_;
  }
  /// Sets bit i (i < size()); counts it once however often it is set.
  void set(std::size_t i) noexcept {
    std::uint64_t& w = word(i >> 6);
    const std::uint64_t m = std::uint64_t{1} << (i & 63);
    popcount_ += (w & m) == 0;
    w |= m;
  }
  /// Appends n zero bits (a block of newly allocated variables, ConstraintSystem::prover_extend()).
  void push_zeros(std::size_t n) {
    size_ += n;
    const std::size_t words = ((size_ + 63) >> 6) - base_word_;
    if (words > words_.size()) words_.resize(words, 0);
  }
  /// Sets bits [first, first + n) (first + n <= size()), a 64-bit word at a time.
  void set_range(std::size_t first, std::size_t n) noexcept {
    while (n > 0) {
      const std::size_t b = first & 63, take = n < 64 - b ? n : 64 - b;
      const std::uint64_t m = (take == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << take) - 1)) << b;
      std::uint64_t& w = word(first >> 6);
      popcount_ += static_cast<std::size_t>(std::popcount(m & ~w));
      w |= m;
      first += take;
      n -= take;
    }
  }
  bool test(std::size_t i) const noexcept {
    const std::size_t k = i >> 6;
    return ((k >= base_word_ ? words_[k - base_word_] : low_[k]) >> (i & 63)) & 1;
  }

  /// Number of bits (= variables tracked).
  std::size_t size() const noexcept { return size_; }
  /// Number of set bits.
  std::size_t popcount() const noexcept { return popcount_; }
  /// The bits as LSB-first 64-bit words; ceil(size() / 64) of them (full trackers only).
  std::span<const std::uint64_t> words() const noexcept { return words_; }

  void reserve(std::size_t bits) {
    const std::size_t words = (bits + 63) / 64;
    if (words > base_word_) words_.reserve(words - base_word_);
  }
  /// Removes every bit, keeping the capacity (a window tracker becomes a full, empty one).
  void clear() noexcept {
    words_.clear();
    low_.clear();
    base_word_ = 0;
    size_ = 0;
    popcount_ = 0;
  }

  /// A window tracker (see the header comment) of size `first_bit`, all zero, that stores bits
  /// [0, low_bits) and [first_bit, ...). Bits in between must not be set or tested.
  static DensityTracker window(std::size_t first_bit, std::size_t low_bits);
  bool is_window() const noexcept { return base_word_ != 0 || !low_.empty(); }
  /// ORs the window tracker `w` (w.size() <= size()) into this full tracker, a word at a time,
  /// keeping popcount() exact.
  void merge_window(const DensityTracker& w) noexcept;

  /// Appends `other`'s bits. With `merge_first` (bellperson's input-density rule when one prover's
  /// assignment is extended by another's), other's bit 0 (its own ONE) is ORed into this bit 0
  /// instead of being appended; this must then be non-empty.
  void extend(const DensityTracker& other, bool merge_first);

  /// ORs `other`'s bits into bits [offset, offset + other.size()) of this, which must exist, a
  /// 64-bit word at a time (a recorded density pattern replayed onto a block of new variables).
  void or_at(std::size_t offset, const DensityTracker& other) noexcept;

  friend bool operator==(const DensityTracker& a, const DensityTracker& b) {
    return a.size_ == b.size_ && a.words_ == b.words_;
  }

 private:
  // Word k of the bit vector (window: k < low_.size() or k >= base_word_).
  std::uint64_t& word(std::size_t k) noexcept { return k >= base_word_ ? words_[k - base_word_] : low_[k]; }

  std::vector<std::uint64_t> words_;  // words base_word_, base_word_ + 1, ...
  std::vector<std::uint64_t> low_;    // window only: words [0, low_.size()), low_.size() <= base_word_
  std::size_t base_word_ = 0;         // 0 for full trackers
  std::size_t size_ = 0;
  std::size_t popcount_ = 0;
};

}  // namespace proofline::r1cs
