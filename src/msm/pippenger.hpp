// msm/pippenger.hpp (private, src/msm/) — Pippenger's drivers: argument and cancellation checks, the
// plan (window, batch, chunks), per-thread scratch, window sums over prepared (tagged base, |scalar|)
// pairs, the 0/1 path (Σ of points by batch addition), the split pass (zeros dropped, ±1 to the point
// sum, the rest canonical + sign trick), the endomorphism expansion and the segment checks.
// Part of msm_impl.hpp's template code.
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "proofline/msm/msm.hpp"
#include "batch_affine.hpp"
#include "scalar_split.hpp"

namespace proofline::msm::detail {

using ff::u64;

// ---- errors ------------------------------------------------------------------------------------

[[noreturn]] inline void throw_length(std::string_view what, std::size_t got, std::size_t expected,
                                      bool at_least = false) {
  throw ProoflineError(Error::BadLength, "msm: " + std::string(what) + ": got " + std::to_string(got) +
                                             ", expected " + (at_least ? "at least " : "") +
                                             std::to_string(expected));
}

inline void check_config(const MsmConfig& cfg) {
  if (cfg.threads < 0)
    throw ProoflineError(Error::BadLength,
                         "msm: threads: got " + std::to_string(cfg.threads) + ", expected 0 (all) or > 0");
  if (cfg.window_bits != 0 && (cfg.window_bits < 2 || cfg.window_bits > 24))
    throw ProoflineError(Error::BadLength, "msm: window_bits: got " + std::to_string(cfg.window_bits) +
                                               ", expected 0 (auto) or 2..24");
  if (cfg.batch_size < 0 || cfg.chunks < 0)
    throw ProoflineError(Error::BadLength, "msm: batch_size and chunks must be >= 0");
}

/// True once the call's cancellation flag is set (relaxed load; MsmConfig::cancel).
inline bool cancelled(const std::atomic<bool>* flag) noexcept {
  return flag != nullptr && flag->load(std::memory_order_relaxed);
}
/// Pippenger window × chunk tasks run so far in this process (a test hook: counts work done).
inline std::atomic<std::uint64_t> g_window_tasks{0};
/// Throws ProoflineError(Cancelled) if the flag is set.
inline void check_cancel(const std::atomic<bool>* flag, const char* where) {
  if (cancelled(flag)) [[unlikely]]
    throw ProoflineError(Error::Cancelled, std::string("msm cancelled ") + where);
}

/// Runs f() with at most `threads` TBB threads (0: the current arena as it is).
template <class F>
auto run_with_threads(int threads, F&& f) {
  if (threads <= 0) return f();
  tbb::task_arena arena(threads);
  return arena.execute(std::forward<F>(f));
}

// ---- plan --------------------------------------------------------------------------------------

struct Plan {
  unsigned c;        ///< window bits
  unsigned windows;  ///< ⌈bits/c⌉
  unsigned bits;     ///< scalars are < 2^(bits − 1) (255, or 128/64 after an endomorphism split)
  unsigned limbs;    ///< 64-bit limbs per stored scalar
  unsigned chunks;   ///< point chunks per window
  bool affine;       ///< batch-affine buckets
  unsigned batch;    ///< batch size (affine)
  bool segmented_reduce = true;  ///< batch-affine bucket reduction (affine buckets, nb >= 1024)
};

inline unsigned default_batch(unsigned c) {
  const std::size_t nb = std::size_t{1} << (c - 1);
  return static_cast<unsigned>(std::clamp<std::size_t>(nb / 8, 32, 2048));
}

/// Plan for n points (after any endomorphism split) with scalars of `bits` (see Plan) stored in
/// `limbs` limbs.
inline Plan make_plan(std::size_t n, int threads, const MsmConfig& cfg, unsigned bits = 255, unsigned limbs = 4) {
  Plan p{};
  p.bits = bits;
  p.limbs = limbs;
  if (cfg.window_bits == 0) {
    WindowChoice w = window_for(n, threads, cfg.buckets, static_cast<int>(bits));
    p.c = static_cast<unsigned>(w.window_bits);
    p.chunks = static_cast<unsigned>(w.chunks);
    p.affine = w.form == BucketForm::BatchAffine;
    p.batch = static_cast<unsigned>(w.batch_size);
  } else {
    p.c = static_cast<unsigned>(cfg.window_bits);
    p.affine = cfg.buckets == BucketForm::BatchAffine ||
               (cfg.buckets == BucketForm::Auto && (std::size_t{1} << (p.c - 1)) >= 256);
    if (p.c < 3) p.affine = false;  // one or two buckets: nothing to batch
    p.batch = default_batch(p.c);
    p.chunks = 1;
    if (cfg.chunks == 0) {
      // Enough tasks to keep the threads busy, chunks no smaller than the bucket count.
      const unsigned w = num_windows(p.c, bits);
      while (p.chunks < 64 && w * p.chunks < 2u * static_cast<unsigned>(threads) &&
             n / (2 * p.chunks) >= (std::size_t{1} << (p.c - 1)))
        p.chunks *= 2;
    }
  }
  if (cfg.chunks > 0) p.chunks = static_cast<unsigned>(cfg.chunks);
  if (cfg.batch_size > 0) p.batch = static_cast<unsigned>(cfg.batch_size);
  p.segmented_reduce = cfg.batch_reduce;
  p.windows = num_windows(p.c, bits);
  return p;
}

// ---- per-thread scratch ------------------------------------------------------------------------

template <class Cfg>
struct ThreadScratch {
  std::unique_ptr<BatchAffineBuckets<Cfg>> affine;
  std::unique_ptr<BatchAffineBuckets<Cfg>> chains;  // segmented reduction
  std::unique_ptr<ec::XyzzPoint<Cfg>[]> xyzz;
  std::size_t xyzz_size = 0;

  BatchAffineBuckets<Cfg>& affine_buckets(std::size_t nb, std::size_t batch) {
    if (!affine || affine->max_buckets() < nb || affine->max_batch() < batch)
      affine = std::make_unique<BatchAffineBuckets<Cfg>>(nb, batch);
    return *affine;
  }
  BatchAffineBuckets<Cfg>& chain_buckets() {
    if (!chains) chains = std::make_unique<BatchAffineBuckets<Cfg>>(2 * kMaxReduceSegments, kMaxReduceSegments);
    return *chains;
  }
  ec::XyzzPoint<Cfg>* xyzz_buckets(std::size_t nb) {
    if (xyzz_size < nb) {
      xyzz = std::make_unique_for_overwrite<ec::XyzzPoint<Cfg>[]>(nb);
      xyzz_size = nb;
    }
    return xyzz.get();
  }
};

/// One scratch set per thread taking part in this call, allocated on the thread's first task.
template <class Cfg>
class ScratchSlots {
 public:
  ThreadScratch<Cfg>& mine() { return slots_.local(); }

 private:
  tbb::enumerable_thread_specific<ThreadScratch<Cfg>> slots_;
};

// ---- Pippenger over prepared (tagged base, canonical |scalar|) pairs ---------------------------

/// Σ over window w of points [lo, hi): Σ_j (j+1)·bucket_j with bucket_j = Σ ±P_i (|d_i| = j + 1).
/// Scalar i is sc[i·L .. i·L + L), L = plan.limbs.
template <class Cfg>
ec::XyzzPoint<Cfg> window_sum(const std::uintptr_t* ptr, const u64* sc, std::size_t lo, std::size_t hi,
                              unsigned c, unsigned w, const Plan& plan, ThreadScratch<Cfg>& scratch) {
  const unsigned L = plan.limbs;
  using Affine = ec::AffinePoint<Cfg>;
  using Xyzz = ec::XyzzPoint<Cfg>;
  const std::size_t nb = std::size_t{1} << (c - 1);
  constexpr std::size_t kAhead = 8;
  if (plan.affine) {
    auto& acc = scratch.affine_buckets(nb, plan.batch);
    acc.reset(nb, plan.batch);
    for (std::size_t i = lo; i < hi; ++i) {
      if (i + kAhead < hi) __builtin_prefetch(&base_of<Cfg>(ptr[i + kAhead]));
      const int d = booth_digit(sc + i * L, L, c, w);
      if (d == 0) continue;
      const Affine& p = base_of<Cfg>(ptr[i]);
      if (p.infinity) continue;
      const bool neg = (d < 0) != static_cast<bool>(ptr[i] & 1);
      const std::uint32_t b = static_cast<std::uint32_t>((d < 0 ? -d : d) - 1);
      acc.add(b, p.x, p.y, neg);
    }
    acc.finish();
    if (plan.segmented_reduce && nb >= 2 * kMinReduceSegments && !acc.any_overflow())
      return segmented_weighted_sum<Cfg>(acc, nb, scratch.chain_buckets());
    return acc.weighted_sum();
  }
  Xyzz* bucket = scratch.xyzz_buckets(nb);
  std::fill(bucket, bucket + nb, Xyzz::identity());
  for (std::size_t i = lo; i < hi; ++i) {
    if (i + kAhead < hi) __builtin_prefetch(&base_of<Cfg>(ptr[i + kAhead]));
    const int d = booth_digit(sc + i * L, L, c, w);
    if (d == 0) continue;
    const Affine& p = base_of<Cfg>(ptr[i]);
    if (p.infinity) continue;
    const bool neg = (d < 0) != static_cast<bool>(ptr[i] & 1);
    Xyzz& bk = bucket[(d < 0 ? -d : d) - 1];
    if (neg) {
      bk += -p;
    } else {
      bk += p;
    }
  }
  Xyzz running = Xyzz::identity(), total = Xyzz::identity();
  for (std::size_t j = nb; j-- > 0;) {
    running += bucket[j];
    total += running;
  }
  return total;
}

template <class Cfg>
ec::XyzzPoint<Cfg> pippenger(const std::uintptr_t* ptr, const u64* sc, std::size_t m, const Plan& plan,
                             ScratchSlots<Cfg>& slots, const std::atomic<bool>* cancel = nullptr) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  if (m == 0) return Xyzz::identity();
  const unsigned W = plan.windows, C = plan.chunks;
  std::vector<Xyzz> partial(static_cast<std::size_t>(W) * C);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, partial.size(), 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t t = r.begin(); t != r.end(); ++t) {
                        if (cancelled(cancel)) return;  // the caller throws after the loop
                        g_window_tasks.fetch_add(1, std::memory_order_relaxed);
                        const unsigned w = static_cast<unsigned>(t / C), ch = static_cast<unsigned>(t % C);
                        const std::size_t lo = m * ch / C, hi = m * (ch + 1) / C;
                        partial[t] = window_sum<Cfg>(ptr, sc, lo, hi, plan.c, w, plan, slots.mine());
                      }
                    });
  check_cancel(cancel, "between Pippenger windows");
  // Horner over windows: R = Σ_w 2^(cw)·S_w.
  Xyzz acc = Xyzz::identity();
  for (unsigned w = W; w-- > 0;) {
    if (!acc.is_identity())
      for (unsigned k = 0; k < plan.c; ++k) acc = acc.dbl();
    for (unsigned ch = 0; ch < C; ++ch) acc += partial[static_cast<std::size_t>(w) * C + ch];
  }
  return acc;
}

// ---- 0/1 path: Σ of points by batch addition ---------------------------------------------------

/// Sums the points a chunk visits: visit(emit) calls emit(tagged pointer) per point.
template <class Cfg, class Visit>
ec::XyzzPoint<Cfg> sum_chunk(std::size_t count_hint, Visit&& visit, ThreadScratch<Cfg>& scratch) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  using Affine = ec::AffinePoint<Cfg>;
  if (count_hint < 1024) {  // too few additions to amortise inversions: XYZZ
    Xyzz acc = Xyzz::identity();
    visit([&](std::uintptr_t t) {
      const Affine& p = base_of<Cfg>(t);
      if (p.infinity) return;
      if (t & 1) {
        acc += -p;
      } else {
        acc += p;
      }
    });
    return acc;
  }
  // K accumulators dealt round-robin; a batch of K additions per inversion.
  // 1/8 of the points fill the slots for free; the rest cost 6 multiplications plus 1/K inversion.
  const std::size_t k = std::clamp<std::size_t>(count_hint / 8, 128, 2048);
  auto& acc = scratch.affine_buckets(k, k);
  acc.reset(k, k);
  std::uint32_t slot = 0;
  visit([&](std::uintptr_t t) {
    const Affine& p = base_of<Cfg>(t);
    if (p.infinity) return;
    acc.add(slot, p.x, p.y, (t & 1) != 0);
    if (++slot == k) slot = 0;
  });
  acc.finish();
  return acc.plain_sum();
}

/// Σ of the points behind tagged pointers ptr[0..k).
template <class Cfg>
ec::XyzzPoint<Cfg> sum_tagged(const std::uintptr_t* ptr, std::size_t k, ScratchSlots<Cfg>& slots,
                              const std::atomic<bool>* cancel = nullptr) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  if (k == 0) return Xyzz::identity();
  const std::size_t T = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  const std::size_t chunks = std::max<std::size_t>(1, std::min(4 * T, k / 4096));
  std::vector<Xyzz> part(chunks);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      if (cancelled(cancel)) return;
      const std::size_t lo = k * c / chunks, hi = k * (c + 1) / chunks;
      part[c] = sum_chunk<Cfg>(
          hi - lo,
          [&](auto&& emit) {
            for (std::size_t i = lo; i < hi; ++i) {
              if (i + 8 < hi) __builtin_prefetch(&base_of<Cfg>(ptr[i + 8]));
              emit(ptr[i]);
            }
          },
          slots.mine());
    }
  });
  check_cancel(cancel, "between chunks of the ±1 sum");
  Xyzz acc = Xyzz::identity();
  for (const Xyzz& p : part) acc += p;
  return acc;
}

// ---- split pass --------------------------------------------------------------------------------

inline constexpr std::size_t kSplitChunk = 8192;  // positions per split task (multiple of 64)

struct SplitChunk {
  std::size_t seg, lo, hi;   // positions [lo, hi) of segment seg
  std::size_t rank = 0;      // set density bits of seg below lo
  std::size_t n_set = 0, n_ones = 0, n_rest = 0;
  std::size_t ones_off = 0, rest_off = 0;
};

template <class Cfg>
struct Split {
  std::unique_ptr<std::uintptr_t[]> ptr;  // [0, rest): Pippenger bases; [cap − ones, cap): ±1 bases
  std::unique_ptr<Limbs4[]> scalar;       // [0, rest)
  std::size_t rest = 0, ones = 0, cap = 0;
};

inline const Limbs4& limbs_at(const Scalars& s, std::size_t i) {
  return s.is_montgomery() ? s.montgomery()[i].limbs : s.canonical()[i];
}

template <class Cfg>
Split<Cfg> split(std::span<const Segment<Cfg>> segs, bool split_ones) {
  std::vector<SplitChunk> chunks;
  for (std::size_t s = 0; s < segs.size(); ++s) {
    const std::size_t n = segs[s].scalars.size();
    for (std::size_t lo = 0; lo < n; lo += kSplitChunk)
      chunks.push_back(SplitChunk{s, lo, std::min(n, lo + kSplitChunk)});
  }
  // Pass 1: counts.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      SplitChunk& ch = chunks[c];
      const Segment<Cfg>& sg = segs[ch.seg];
      const bool mont = sg.scalars.is_montgomery();
      for (std::size_t i = ch.lo; i < ch.hi; ++i) {
        if (sg.density && !sg.density->test(i)) continue;
        ++ch.n_set;
        const Limbs4& s = limbs_at(sg.scalars, i);
        if (!mont && ff::detail::geq<4>(s, kR))
          throw ProoflineError(Error::NotCanonical, "msm: canonical scalar " + std::to_string(i) + " of segment " +
                                                        std::to_string(ch.seg) + " is >= r");
        const Kind k = classify(s, mont);
        if (k == Kind::Zero) continue;
        if (split_ones && k != Kind::Other) {
          ++ch.n_ones;
        } else {
          ++ch.n_rest;
        }
      }
    }
  });
  Split<Cfg> out;
  std::size_t rank = 0, prev_seg = ~std::size_t{0};
  for (SplitChunk& ch : chunks) {
    if (ch.seg != prev_seg) rank = 0, prev_seg = ch.seg;
    ch.rank = rank;
    rank += ch.n_set;
    ch.rest_off = out.rest;
    ch.ones_off = out.ones;
    out.rest += ch.n_rest;
    out.ones += ch.n_ones;
  }
  out.cap = out.rest + out.ones;
  out.ptr = std::make_unique_for_overwrite<std::uintptr_t[]>(std::max<std::size_t>(out.cap, 1));
  out.scalar = std::make_unique_for_overwrite<Limbs4[]>(std::max<std::size_t>(out.rest, 1));
  // Pass 2: fill.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks.size(), 1), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t c = r.begin(); c != r.end(); ++c) {
      const SplitChunk& ch = chunks[c];
      const Segment<Cfg>& sg = segs[ch.seg];
      const bool mont = sg.scalars.is_montgomery();
      const ec::AffinePoint<Cfg>* base = sg.bases.data() + sg.start + ch.rank;
      std::size_t ro = ch.rest_off, oo = out.cap - ch.ones_off;
      for (std::size_t i = ch.lo; i < ch.hi; ++i) {
        if (sg.density && !sg.density->test(i)) continue;
        const ec::AffinePoint<Cfg>* p = base++;
        const Limbs4& s = limbs_at(sg.scalars, i);
        const Kind k = classify(s, mont);
        if (k == Kind::Zero) continue;
        if (split_ones && k != Kind::Other) {
          out.ptr[--oo] = tag<Cfg>(p, k == Kind::MinusOne);
        } else {
          bool neg;
          out.scalar[ro] = signed_canonical(s, mont, neg);
          out.ptr[ro++] = tag<Cfg>(p, neg);
        }
      }
    }
  });
  return out;
}

// ---- endomorphism expansion ---------------------------------------------------------------------

/// ψ² on G2 without Frobenius: ψ²(x, y) = (x·nx, y·ny) with nx = cx·conj(cx) and ny = cy·conj(cy)
/// in Fp (the norms of the ψ coefficients of g2.hpp, since conj is a field automorphism).
struct Psi2Coeffs {
  ff::Fp nx, ny;
};
inline const Psi2Coeffs& psi2_coeffs() {
  static const Psi2Coeffs k{ec::g2_psi_coeff_x().norm(), ec::g2_psi_coeff_y().norm()};
  return k;
}

/// The Pippenger terms after the endomorphism split: D terms per input term, scalar parts of
/// kLimbs limbs each, bases the input base or one of its D − 1 images (stored in `images`).
template <class Cfg>
struct Expanded {
  std::unique_ptr<ec::AffinePoint<Cfg>[]> images;  // D − 1 per input term
  std::unique_ptr<std::uintptr_t[]> ptr;           // D per input term (tagged)
  std::unique_ptr<u64[]> scalar;                   // D·kLimbs per input term
  std::size_t m = 0;                               // D·n
};

/// Splits the n prepared terms (tagged base, |k| ≤ (r−1)/2) along the endomorphism: G1 term i
/// becomes (P, ±m0), (φ(P), ±m1); G2 term i becomes (ψ^j(P), ±m_j), j = 0..3 (glv_parts,
/// gls_parts). Identity bases give D identity terms with zero scalars. Parallel over blocks.
template <class Cfg>
Expanded<Cfg> expand_endo(const std::uintptr_t* ptr, const Limbs4* sc, std::size_t n) {
  using E = EndoSplit<Cfg>;
  using Affine = ec::AffinePoint<Cfg>;
  constexpr unsigned D = E::D, L = E::kLimbs;
  static_assert(D > 1);
  Expanded<Cfg> out;
  out.m = n * D;
  out.images = std::make_unique_for_overwrite<Affine[]>(std::max<std::size_t>(n * (D - 1), 1));
  out.ptr = std::make_unique_for_overwrite<std::uintptr_t[]>(std::max<std::size_t>(n * D, 1));
  out.scalar = std::make_unique_for_overwrite<u64[]>(std::max<std::size_t>(n * D * L, 1));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 2048), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const Affine& p = base_of<Cfg>(ptr[i]);
      const bool neg = (ptr[i] & 1) != 0;
      Affine* img = out.images.get() + i * (D - 1);
      std::uintptr_t* op = out.ptr.get() + i * D;
      u64* os = out.scalar.get() + i * D * L;
      if (p.infinity) {
        for (unsigned j = 0; j < D; ++j) op[j] = ptr[i];
        for (unsigned j = 0; j < D * L; ++j) os[j] = 0;
        continue;
      }
      if constexpr (std::is_same_v<Cfg, ec::G1Config>) {
        u64 m0[2], m1[2];
        bool n0, n1;
        glv_parts(sc[i], m0, n0, m1, n1);
        img[0] = Affine{p.x * ec::g1_beta(), p.y, false};  // φ(P)
        op[0] = tag<Cfg>(&p, neg != n0);
        op[1] = tag<Cfg>(&img[0], neg != n1);
        os[0] = m0[0], os[1] = m0[1], os[2] = m1[0], os[3] = m1[1];
      } else {
        static_assert(std::is_same_v<Cfg, ec::G2Config>);
        const Psi2Coeffs& k2 = psi2_coeffs();
        u64 m[4];
        bool ng[4];
        gls_parts(sc[i], m, ng);
        img[0] = ec::g2_psi(p);                                         // ψ(P)
        img[1] = Affine{p.x.mul_fp(k2.nx), p.y.mul_fp(k2.ny), false};   // ψ²(P)
        img[2] = Affine{img[0].x.mul_fp(k2.nx), img[0].y.mul_fp(k2.ny), false};  // ψ³(P)
        op[0] = tag<Cfg>(&p, neg != ng[0]);
        for (unsigned j = 1; j < 4; ++j) op[j] = tag<Cfg>(&img[j - 1], neg != ng[j]);
        for (unsigned j = 0; j < 4; ++j) os[j] = m[j];
      }
    }
  });
  return out;
}

template <class Cfg>
void check_segment(const Segment<Cfg>& sg) {
  if (sg.density) {
    if (sg.density->bits != sg.scalars.size()) throw_length("density bits vs scalars", sg.density->bits, sg.scalars.size());
    if (sg.density->words.size() * 64 < sg.density->bits)
      throw_length("density words", sg.density->words.size(), (sg.density->bits + 63) / 64);
    const std::size_t pop = sg.density->popcount();
    if (sg.start > sg.bases.size() || sg.bases.size() - sg.start < pop)
      throw_length("bases after start (density popcount)", sg.start > sg.bases.size() ? 0 : sg.bases.size() - sg.start,
                   pop, true);
  } else {
    if (sg.start > sg.bases.size() || sg.bases.size() - sg.start < sg.scalars.size())
      throw_length("bases after start", sg.start > sg.bases.size() ? 0 : sg.bases.size() - sg.start,
                   sg.scalars.size(), true);
  }
}

}  // namespace proofline::msm::detail
