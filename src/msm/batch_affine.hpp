// msm/batch_affine.hpp (private, src/msm/) — the batch-affine bucket accumulator: bucket[b] += ±P
// batched B at a time so that one field inversion serves B additions (Montgomery's trick), with
// XYZZ overflow buckets, and the segmented running-sum reduction Σ_j (j+1)·B_j (msm.hpp's cost model).
// Part of msm_impl.hpp's template code; included through pippenger.hpp.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "proofline/ff/fp2.hpp"
#include "proofline/ff/fp_ifma.hpp"
#include "proofline/msm/affine_ifma.hpp"
#include "proofline/msm/msm.hpp"

namespace proofline::msm::detail {

using ff::u64;

// ---- batch-affine accumulator ------------------------------------------------------------------

/// Affine bucket storage without the infinity flag (occupancy lives in the state bytes).
template <class Cfg>
struct XY {
  typename Cfg::Field x, y;
};

/// A set of affine buckets fed by `add(b, x, y, neg)`; additions are batched B at a time so that one
/// field inversion serves B of them (Montgomery's trick). State per bucket: occupied, busy (an
/// addition into it is pending in the batch), overflow (its XYZZ overflow accumulator is live).
template <class Cfg>
class BatchAffineBuckets {
 public:
  using F = typename Cfg::Field;
  using Xyzz = ec::XyzzPoint<Cfg>;
  using Affine = ec::AffinePoint<Cfg>;
  /// A pending bucket[b] += (x, ±y): the point is referenced, not copied (it stays in place
  /// until the batch is flushed: a base, or a bucket that this batch does not write).
  struct Entry {
    const F* x;
    const F* y;
    std::uint32_t b;
    bool neg;
  };
  static constexpr uint8_t kOcc = 1, kBusy = 2, kOvf = 4;
  /// Fp (G1) and Fp2 (G2) coordinates: batches of at least kVectorMin additions go to the 8-lane
  /// IFMA kernels (affine_ifma.hpp) when ff::ifma_enabled(); smaller ones stay scalar.
  static constexpr bool kVectorFlush = std::is_same_v<F, ff::Fp> || std::is_same_v<F, ff::Fp2>;
  static constexpr std::size_t kVectorMin = 16;

  /// Allocates for up to `max_buckets` buckets and batches of `max_batch`. Nothing is touched
  /// except the state bytes at reset().
  BatchAffineBuckets(std::size_t max_buckets, std::size_t max_batch)
      : max_buckets_(max_buckets),
        max_batch_(max_batch),
        bucket_(std::make_unique_for_overwrite<XY<Cfg>[]>(max_buckets)),
        state_(std::make_unique_for_overwrite<uint8_t[]>(max_buckets)),
        overflow_raw_(std::make_unique_for_overwrite<std::byte[]>(max_buckets * sizeof(Xyzz) + alignof(Xyzz))),
        batch_(std::make_unique_for_overwrite<Entry[]>(max_batch)),
        queue_(std::make_unique_for_overwrite<Entry[]>(max_batch)),
        pref_(std::make_unique_for_overwrite<F[]>(max_batch)),
        kind_(std::make_unique_for_overwrite<uint8_t[]>(max_batch)) {
    if constexpr (kVectorFlush) {
      addr_ = std::make_unique_for_overwrite<std::uintptr_t[]>(3 * max_batch);
      neg_ = std::make_unique_for_overwrite<uint8_t[]>(max_batch);
    }
    void* p = overflow_raw_.get();
    std::size_t space = max_buckets * sizeof(Xyzz) + alignof(Xyzz);
    overflow_ = static_cast<Xyzz*>(std::align(alignof(Xyzz), max_buckets * sizeof(Xyzz), p, space));
  }

  /// Bytes the constructor allocates (the overflow array is reserved, touched only when used).
  static std::size_t bytes(std::size_t max_buckets, std::size_t max_batch) {
    return max_buckets * (sizeof(XY<Cfg>) + 1 + sizeof(Xyzz)) + alignof(Xyzz) +
           max_batch * (2 * sizeof(Entry) + sizeof(F) + 1 + (kVectorFlush ? 3 * sizeof(std::uintptr_t) + 1 : 0));
  }

  std::size_t max_buckets() const { return max_buckets_; }
  std::size_t max_batch() const { return max_batch_; }

  /// Empties nb buckets; batches of `batch` additions (≤ max_batch).
  void reset(std::size_t nb, std::size_t batch) {
    assert(nb <= max_buckets_ && batch <= max_batch_ && batch >= 1);
    nb_ = nb;
    cap_ = batch;
    m_ = 0;
    nq_ = 0;
    any_overflow_ = false;
    std::memset(state_.get(), 0, nb);
  }

  /// bucket[b] += (x, y), or (x, −y) if `neg`: an affine, non-identity point whose storage must
  /// stay unchanged until finish() (bases, or buckets of another accumulator or phase).
  inline void add(std::uint32_t b, const F& x, const F& y, bool neg) {
    uint8_t& st = state_[b];
    if (st & kBusy) {
      if (nq_ < cap_) {
        queue_[nq_++] = Entry{&x, &y, b, neg};
      } else {
        add_overflow(b, x, neg ? -y : y);
      }
      return;
    }
    if (!(st & kOcc)) {
      bucket_[b] = XY<Cfg>{x, neg ? -y : y};
      st |= kOcc;
      return;
    }
    st |= kBusy;
    __builtin_prefetch(&bucket_[b], 1);
    batch_[m_++] = Entry{&x, &y, b, neg};
    if (m_ == cap_) flush_and_drain();
  }

  /// Completes every pending addition (batch and queue).
  void finish() {
    while (m_ > 0 || nq_ > 0) {
      flush();
      drain();
    }
  }

  // Read access after finish().
  bool occupied(std::size_t j) const { return state_[j] & kOcc; }
  const XY<Cfg>& bucket(std::size_t j) const { return bucket_[j]; }
  /// Whether any bucket spilled into its XYZZ overflow accumulator since reset().
  bool any_overflow() const { return any_overflow_; }

  /// Σ_j (j + 1)·bucket[j] by running sums (after finish()).
  Xyzz weighted_sum() const {
    Xyzz running = Xyzz::identity(), total = Xyzz::identity();
    for (std::size_t j = nb_; j-- > 0;) {
      const uint8_t st = state_[j];
      if (st & kOcc) running += Affine{bucket_[j].x, bucket_[j].y, false};
      if (st & kOvf) running += overflow_[j];
      total += running;
    }
    return total;
  }
  /// Σ_j bucket[j] (after finish()).
  Xyzz plain_sum() const {
    Xyzz total = Xyzz::identity();
    for (std::size_t j = 0; j < nb_; ++j) {
      const uint8_t st = state_[j];
      if (st & kOcc) total += Affine{bucket_[j].x, bucket_[j].y, false};
      if (st & kOvf) total += overflow_[j];
    }
    return total;
  }

 private:
  enum : uint8_t { kAdd = 0, kDbl = 1, kCancel = 2 };

  void add_overflow(std::uint32_t b, const F& x, const F& y) {
    uint8_t& st = state_[b];
    any_overflow_ = true;
    if (!(st & kOvf)) {
      new (&overflow_[b]) Xyzz{x, y, F::one(), F::one()};
      st |= kOvf;
    } else {
      overflow_[b] += Affine{x, y, false};
    }
  }

  /// The m_ pending additions by the IFMA kernel; the pairs with equal x (double or cancel) it
  /// leaves are done here one by one.
  void flush_vector() {
    static_assert(offsetof(XY<Cfg>, y) == sizeof(F) && sizeof(F) % 48 == 0);
    std::uintptr_t* xa = addr_.get();
    std::uintptr_t* ya = xa + m_;
    std::uintptr_t* qa = ya + m_;
    for (std::size_t k = 0; k < m_; ++k) {
      const Entry& e = batch_[k];
      xa[k] = reinterpret_cast<std::uintptr_t>(e.x);
      ya[k] = reinterpret_cast<std::uintptr_t>(e.y);
      qa[k] = reinterpret_cast<std::uintptr_t>(&bucket_[e.b].x);
      neg_[k] = e.neg;
    }
    if constexpr (std::is_same_v<F, ff::Fp>) {
      g1_affine_add_batch_ifma(xa, ya, qa, neg_.get(), m_, kind_.get());
    } else {
      g2_affine_add_batch_ifma(xa, ya, qa, neg_.get(), m_, kind_.get());
    }
    for (std::size_t k = 0; k < m_; ++k) {
      const Entry& e = batch_[k];
      uint8_t& st = state_[e.b];
      st &= static_cast<uint8_t>(~kBusy);
      if (!kind_[k]) continue;
      XY<Cfg>& q = bucket_[e.b];
      if ((e.neg ? -*e.y : *e.y) == q.y && !q.y.is_zero()) {  // q == p: λ = 3x²/2y
        const F xx = q.x.square();
        const F lambda = (xx.dbl() + xx) * q.y.dbl().inverse();
        const F x3 = lambda.square() - q.x.dbl();
        q.y = lambda * (q.x - x3) - q.y;
        q.x = x3;
      } else {  // q == −p
        st &= static_cast<uint8_t>(~kOcc);
      }
    }
    m_ = 0;
  }

  /// Performs the m_ pending additions bucket[b_k] += p_k with one inversion.
  void flush() {
    if (m_ == 0) return;
    if constexpr (kVectorFlush) {
      if (m_ >= kVectorMin && ff::ifma_enabled()) return flush_vector();
    }
    F acc = F::one();
    for (std::size_t k = 0; k < m_; ++k) {
      const Entry& e = batch_[k];
      const XY<Cfg>& q = bucket_[e.b];
      F d = *e.x - q.x;
      uint8_t kind = kAdd;
      if (d.is_zero()) {
        // Same x: q == p (double, λ = 3x²/2y) or q == −p (the sum is the identity).
        if ((e.neg ? -*e.y : *e.y) == q.y && !q.y.is_zero()) {
          d = q.y.dbl();
          kind = kDbl;
        } else {
          kind = kCancel;
        }
      }
      kind_[k] = kind;
      pref_[k] = acc;  // Π of the denominators before k
      if (kind != kCancel) acc *= d;
    }
    F inv = acc.inverse();  // 1 / Π den
    for (std::size_t k = m_; k-- > 0;) {
      const Entry& e = batch_[k];
      XY<Cfg>& q = bucket_[e.b];
      uint8_t& st = state_[e.b];
      st &= static_cast<uint8_t>(~kBusy);
      const uint8_t kind = kind_[k];
      if (kind == kCancel) {
        st &= static_cast<uint8_t>(~kOcc);
        continue;
      }
      const F i = inv * pref_[k];  // 1 / d
      inv *= kind == kAdd ? *e.x - q.x : q.y.dbl();  // the denominator again
      if (kind == kAdd && e.neg) {
        // q + (x_p, −y_p): with t = (y_p + y_q)/d = −λ, x3 = t² − x_q − x_p and
        // y3 = λ(x_q − x3) − y_q = t(x3 − x_q) − y_q (no negations).
        const F t = (*e.y + q.y) * i;
        const F x3 = t.square() - q.x - *e.x;
        q.y = t * (x3 - q.x) - q.y;
        q.x = x3;
        continue;
      }
      F lambda;
      if (kind == kAdd) {
        lambda = (*e.y - q.y) * i;  // λ = (y_p − y_q)/d
      } else {
        const F xx = q.x.square();
        lambda = (xx.dbl() + xx) * i;
      }
      const F x3 = lambda.square() - q.x - *e.x;  // x_p = x_q when doubling
      q.y = lambda * (q.x - x3) - q.y;
      q.x = x3;
    }
    m_ = 0;
  }

  /// Moves queued additions whose bucket is free into the (empty) batch.
  void drain() {
    std::size_t j = 0;
    for (std::size_t k = 0; k < nq_; ++k) {
      const Entry& e = queue_[k];
      uint8_t& st = state_[e.b];
      if (st & kBusy) {
        queue_[j++] = e;
      } else if (!(st & kOcc)) {
        bucket_[e.b] = XY<Cfg>{*e.x, e.neg ? -*e.y : *e.y};
        st |= kOcc;
      } else {
        st |= kBusy;
        batch_[m_++] = e;  // m_ ≤ nq_ ≤ cap_
      }
    }
    nq_ = j;
  }

  void flush_and_drain() {
    do {
      flush();
      drain();
    } while (m_ == cap_);
  }

  std::size_t max_buckets_, max_batch_;
  std::size_t nb_ = 0, cap_ = 1, m_ = 0, nq_ = 0;
  bool any_overflow_ = false;
  std::unique_ptr<XY<Cfg>[]> bucket_;
  std::unique_ptr<uint8_t[]> state_;
  std::unique_ptr<std::byte[]> overflow_raw_;
  Xyzz* overflow_ = nullptr;
  std::unique_ptr<Entry[]> batch_, queue_;
  std::unique_ptr<F[]> pref_;
  std::unique_ptr<uint8_t[]> kind_;
  std::unique_ptr<std::uintptr_t[]> addr_;  // vector flush: x_p, y_p, bucket addresses (3 per entry)
  std::unique_ptr<uint8_t[]> neg_;           // vector flush: negate y_p
};

/// Segments of the batch-affine bucket reduction (see segmented_weighted_sum): S = clamp(nb/8,
/// 512, 2048) chains, used when nb >= 2·512.
inline constexpr std::size_t kMinReduceSegments = 512, kMaxReduceSegments = 2048;
inline std::size_t reduce_segments(std::size_t nb) {
  return std::clamp<std::size_t>(nb / 8, kMinReduceSegments, kMaxReduceSegments);
}

/// Σ_j (j + 1)·B_j for the nb affine buckets of `bk` (no overflow), with the additions batched:
/// the buckets are cut into S = reduce_segments(nb) segments of L = nb/S, and S independent
/// running-sum chains walk them in step (R_k += B_(kL+i), then T_k += R_k, for i = L−1 … 0), each
/// step one batch of S affine additions in `chains` (2S buckets: R_k at k, T_k at S + k). Then
///   Σ_j (j+1)·B_j = Σ_k T_k + L·Σ_k k·R_k,
/// the last sum by an XYZZ running sum over the S chains and log2(L) doublings. About 2 affine
/// additions per bucket instead of an XYZZ madd + add. nb must be a power of two >= 2S.
template <class Cfg>
ec::XyzzPoint<Cfg> segmented_weighted_sum(const BatchAffineBuckets<Cfg>& bk, std::size_t nb,
                                          BatchAffineBuckets<Cfg>& chains) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  using Affine = ec::AffinePoint<Cfg>;
  const std::size_t S = reduce_segments(nb);
  const std::size_t L = nb / S;
  chains.reset(2 * S, S);
  for (std::size_t i = L; i-- > 0;) {
    for (std::size_t k = 0; k < S; ++k) {
      const std::size_t j = k * L + i;
      if (bk.occupied(j)) chains.add(static_cast<std::uint32_t>(k), bk.bucket(j).x, bk.bucket(j).y, false);
    }
    chains.finish();
    for (std::size_t k = 0; k < S; ++k) {
      if (chains.occupied(k))
        chains.add(static_cast<std::uint32_t>(S + k), chains.bucket(k).x, chains.bucket(k).y, false);
    }
    chains.finish();
  }
  Xyzz tsum = Xyzz::identity(), run = Xyzz::identity(), acc = Xyzz::identity();
  for (std::size_t k = S; k-- > 0;) {
    if (chains.occupied(S + k)) tsum += Affine{chains.bucket(S + k).x, chains.bucket(S + k).y, false};
    if (k == 0) break;
    if (chains.occupied(k)) run += Affine{chains.bucket(k).x, chains.bucket(k).y, false};
    acc += run;  // Σ_{k' >= k} R_k', summed over k >= 1: Σ_k k·R_k
  }
  for (std::size_t l = L; l > 1; l >>= 1) acc = acc.dbl();
  return tsum + acc;
}

}  // namespace proofline::msm::detail
