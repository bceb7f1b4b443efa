// DensityTracker::extend.
#include "proofline/r1cs/density.hpp"

#include <cassert>

namespace proofline::r1cs {

void DensityTracker::extend(const DensityTracker& other, bool merge_first) {
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

}  // namespace proofline::r1cs
