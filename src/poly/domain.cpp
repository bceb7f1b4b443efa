// EvaluationDomain: tables, radix-2 DIF/DIT kernels, the four-step split, bit reversal, scaling.
//
// Notation: m = 2^k; ω_n is the primitive n-th root ROOT_OF_UNITY^(2^32/n) for every n | 2^32, so
// the roots of all sub-transforms agree with the domain's ω (ω_m = ω).
//
// Four-step (k > DomainConfig::direct_log): x[C·n1 + n2], n1 < R (row), n2 < C (column).
//   X[k1 + R·k2] = Σ_{n2} ω_C^{n2·k2} · ω^{n2·k1} · Σ_{n1} x[C·n1 + n2]·ω_R^{n1·k1}
// DIF (natural → bit-reversed):
//   1. each column n2: R-point DIF over n1 → Y(k1, n2) at row bitrev_R(k1);
//   2. each row p = bitrev_R(k1): multiply column n2 by ω^{k1·n2}, then C-point DIF over n2 →
//      X[k1 + R·k2] at column bitrev_C(k2).
//   The final position bitrev_R(k1)·C + bitrev_C(k2) equals bitrev_k(k1 + R·k2).
// DIT (bit-reversed → natural) is the mirror image (x[n1 + R·n2] sits at row bitrev_R(n1), column
// bitrev_C(n2)): C-point DIT along each row, multiply column k2 of row bitrev_R(n1) by ω^{n1·k2},
// R-point DIT down each column; X[C·k1 + k2] lands at row k1, column k2.
#include "proofline/poly/domain.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <utility>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace proofline::poly {

namespace {

using u64 = std::uint64_t;

/// Rows and column batches of the four-step are single tasks; element-wise passes go in chunks.
constexpr std::size_t kChunk = 4096;
/// Column batch working set (elements): R rows × W columns stay in L2 during the column pass.
constexpr std::size_t kColBatchElems = std::size_t{1} << 15;
/// Tile side (log2) of the cache-blocked bit reversal.
constexpr unsigned kTileLog = 5;

/// Reverses the low `bits` bits of x (bits <= 64).
inline u64 bitrev(u64 x, unsigned bits) {
  if (bits == 0) return 0;
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
  x = __builtin_bswap64(x);
  return x >> (64 - bits);
}

/// f(i) for i in [0, n): on the calling thread or split across TBB workers in ranges of `grain`.
template <class F>
void for_each_index(bool par, std::size_t n, std::size_t grain, const F& f) {
  if (!par || n <= grain) {
    for (std::size_t i = 0; i < n; ++i) f(i);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i) f(i);
                    });
}

/// f(begin, end) over [0, n) in chunks of kChunk.
template <class F>
void for_each_chunk(bool par, std::size_t n, const F& f) {
  std::size_t chunks = (n + kChunk - 1) / kChunk;
  for_each_index(par, chunks, 1, [&](std::size_t c) { f(c * kChunk, std::min(n, (c + 1) * kChunk)); });
}

// ---- Fr addition for the butterflies ------------------------------------------------------------
// Branch-free carry chains: the generic MontField add/sub (u128-based) compiles to ~3x more
// instructions with stack spills, and the butterflies do two of them per multiply.
#if defined(__x86_64__)
constexpr auto kR = ff::FrParams::kModulus;

/// a + b mod r (a, b < r).
inline Fr add(const Fr& a, const Fr& b) {
  unsigned long long s0, s1, s2, s3, t0, t1, t2, t3;
  unsigned char c = _addcarry_u64(0, a.limbs[0], b.limbs[0], &s0);
  c = _addcarry_u64(c, a.limbs[1], b.limbs[1], &s1);
  c = _addcarry_u64(c, a.limbs[2], b.limbs[2], &s2);
  (void)_addcarry_u64(c, a.limbs[3], b.limbs[3], &s3);  // no carry out: 2r < 2^256
  unsigned char br = _subborrow_u64(0, s0, kR[0], &t0);
  br = _subborrow_u64(br, s1, kR[1], &t1);
  br = _subborrow_u64(br, s2, kR[2], &t2);
  br = _subborrow_u64(br, s3, kR[3], &t3);
  const u64 keep = u64{0} - br;  // all ones: s < r, keep s
  Fr out;
  out.limbs[0] = t0 ^ ((s0 ^ t0) & keep);
  out.limbs[1] = t1 ^ ((s1 ^ t1) & keep);
  out.limbs[2] = t2 ^ ((s2 ^ t2) & keep);
  out.limbs[3] = t3 ^ ((s3 ^ t3) & keep);
  return out;
}

/// a − b mod r (a, b < r).
inline Fr sub(const Fr& a, const Fr& b) {
  unsigned long long d0, d1, d2, d3, o0, o1, o2, o3;
  unsigned char br = _subborrow_u64(0, a.limbs[0], b.limbs[0], &d0);
  br = _subborrow_u64(br, a.limbs[1], b.limbs[1], &d1);
  br = _subborrow_u64(br, a.limbs[2], b.limbs[2], &d2);
  br = _subborrow_u64(br, a.limbs[3], b.limbs[3], &d3);
  const u64 add_r = u64{0} - br;  // all ones: went negative, add r back
  unsigned char c = _addcarry_u64(0, d0, kR[0] & add_r, &o0);
  c = _addcarry_u64(c, d1, kR[1] & add_r, &o1);
  c = _addcarry_u64(c, d2, kR[2] & add_r, &o2);
  (void)_addcarry_u64(c, d3, kR[3] & add_r, &o3);
  Fr out;
  out.limbs = {o0, o1, o2, o3};
  return out;
}
#else
inline Fr add(const Fr& a, const Fr& b) { return a + b; }
inline Fr sub(const Fr& a, const Fr& b) { return a - b; }
#endif

// ---- radix-2 kernels ----------------------------------------------------------------------------
// tw[h + j] = ω_{2h}^j (j < h). The inverse transforms use the same table: for 0 < j < h,
// ω_{2h}^{-j} = ω_{2h}^h · ω_{2h}^{h−j} = −tw[2h − j], and the sign is folded into the butterfly.
// DIF stage h (span 2h, largest first; natural in, bit-reversed out):
//   (u, v) → (u + v, (u − v)·ω_{2h}^j)      inverse: (u + v, (v − u)·tw[2h − j])
// DIT stage h (span 2h, smallest first; bit-reversed in, natural out), y = v·ω_{2h}^j:
//   (u, v) → (u + y, u − y)                  inverse, y = v·tw[2h − j]: (u − y, u + y)
// j = 0 has twiddle 1 and no multiplication.

/// DIF butterflies j ∈ [j0, j1) of one span-2h block whose halves start at p and q = p + h·stride;
/// each butterfly acts on `w` adjacent elements (columns).
template <bool kInv>
inline void dif_run(Fr* p, Fr* q, std::size_t j0, std::size_t j1, std::size_t h, std::size_t stride,
                    std::size_t w, const Fr* tw) {
  for (std::size_t j = j0; j < j1; ++j) {
    Fr* pj = p + j * stride;
    Fr* qj = q + j * stride;
    if (j == 0) {
      for (std::size_t c = 0; c < w; ++c) {
        const Fr u = pj[c], v = qj[c];
        pj[c] = add(u, v);
        qj[c] = sub(u, v);
      }
    } else if constexpr (!kInv) {
      const Fr t = tw[h + j];
      for (std::size_t c = 0; c < w; ++c) {
        const Fr u = pj[c], v = qj[c];
        pj[c] = add(u, v);
        qj[c] = sub(u, v) * t;
      }
    } else {
      const Fr t = tw[2 * h - j];
      for (std::size_t c = 0; c < w; ++c) {
        const Fr u = pj[c], v = qj[c];
        pj[c] = add(u, v);
        qj[c] = sub(v, u) * t;
      }
    }
  }
}

/// DIT butterflies j ∈ [j0, j1) of one span-2h block (layout as dif_run).
template <bool kInv>
inline void dit_run(Fr* p, Fr* q, std::size_t j0, std::size_t j1, std::size_t h, std::size_t stride,
                    std::size_t w, const Fr* tw) {
  for (std::size_t j = j0; j < j1; ++j) {
    Fr* pj = p + j * stride;
    Fr* qj = q + j * stride;
    if (j == 0) {
      for (std::size_t c = 0; c < w; ++c) {
        const Fr u = pj[c], v = qj[c];
        pj[c] = add(u, v);
        qj[c] = sub(u, v);
      }
    } else {
      const Fr t = kInv ? tw[2 * h - j] : tw[h + j];
      for (std::size_t c = 0; c < w; ++c) {
        const Fr u = pj[c], y = qj[c] * t;
        pj[c] = kInv ? sub(u, y) : add(u, y);
        qj[c] = kInv ? add(u, y) : sub(u, y);
      }
    }
  }
}

/// Contiguous single-element butterflies: the common case, kept free of the column loop.
template <bool kInv>
inline void dif_run1(Fr* p, Fr* q, std::size_t j0, std::size_t j1, std::size_t h, const Fr* tw) {
  std::size_t j = j0;
  if (j == 0 && j < j1) {
    const Fr u = p[0], v = q[0];
    p[0] = add(u, v);
    q[0] = sub(u, v);
    ++j;
  }
  if constexpr (!kInv) {
    const Fr* t = tw + h;
    for (; j < j1; ++j) {
      const Fr u = p[j], v = q[j];
      p[j] = add(u, v);
      q[j] = sub(u, v) * t[j];
    }
  } else {
    const Fr* t = tw + 2 * h;  // t[-j] = tw[2h − j]
    for (; j < j1; ++j) {
      const Fr u = p[j], v = q[j];
      p[j] = add(u, v);
      q[j] = sub(v, u) * *(t - j);
    }
  }
}

template <bool kInv>
inline void dit_run1(Fr* p, Fr* q, std::size_t j0, std::size_t j1, std::size_t h, const Fr* tw) {
  std::size_t j = j0;
  if (j == 0 && j < j1) {
    const Fr u = p[0], v = q[0];
    p[0] = add(u, v);
    q[0] = sub(u, v);
    ++j;
  }
  if constexpr (!kInv) {
    const Fr* t = tw + h;
    for (; j < j1; ++j) {
      const Fr u = p[j], y = q[j] * t[j];
      p[j] = add(u, y);
      q[j] = sub(u, y);
    }
  } else {
    const Fr* t = tw + 2 * h;
    for (; j < j1; ++j) {
      const Fr u = p[j], y = q[j] * *(t - j);
      p[j] = sub(u, y);
      q[j] = add(u, y);
    }
  }
}

/// Transforms of at most this many elements run stage by stage on one thread (in L2).
constexpr std::size_t kSerialBlock = std::size_t{1} << 12;

/// n-point DIF on contiguous x, cache-oblivious: the top stage as one pass, then both halves
/// recursively (in parallel when `par`), so every block of kSerialBlock finishes while in cache.
template <bool kInv>
void dif_contiguous(Fr* x, std::size_t n, const Fr* tw, bool par) {
  if (n <= kSerialBlock) {
    for (std::size_t h = n >> 1; h >= 1; h >>= 1) {
      for (std::size_t b = 0; b < n; b += 2 * h) dif_run1<kInv>(x + b, x + b + h, 0, h, h, tw);
    }
    return;
  }
  const std::size_t h = n >> 1;
  for_each_chunk(par, h, [&](std::size_t b, std::size_t e) { dif_run1<kInv>(x, x + h, b, e, h, tw); });
  if (par) {
    tbb::parallel_invoke([&] { dif_contiguous<kInv>(x, h, tw, true); },
                         [&] { dif_contiguous<kInv>(x + h, h, tw, true); });
  } else {
    dif_contiguous<kInv>(x, h, tw, false);
    dif_contiguous<kInv>(x + h, h, tw, false);
  }
}

/// n-point DIT on contiguous x: both halves recursively, then the top stage.
template <bool kInv>
void dit_contiguous(Fr* x, std::size_t n, const Fr* tw, bool par) {
  if (n <= kSerialBlock) {
    for (std::size_t h = 1; h < n; h <<= 1) {
      for (std::size_t b = 0; b < n; b += 2 * h) dit_run1<kInv>(x + b, x + b + h, 0, h, h, tw);
    }
    return;
  }
  const std::size_t h = n >> 1;
  if (par) {
    tbb::parallel_invoke([&] { dit_contiguous<kInv>(x, h, tw, true); },
                         [&] { dit_contiguous<kInv>(x + h, h, tw, true); });
  } else {
    dit_contiguous<kInv>(x, h, tw, false);
    dit_contiguous<kInv>(x + h, h, tw, false);
  }
  for_each_chunk(par, h, [&](std::size_t b, std::size_t e) { dit_run1<kInv>(x, x + h, b, e, h, tw); });
}

/// n-point DIF down `w` adjacent columns at once: element i of column c is x[i·stride + c].
template <bool kInv>
void dif_columns(Fr* x, std::size_t n, std::size_t stride, std::size_t w, const Fr* tw) {
  for (std::size_t h = n >> 1; h >= 1; h >>= 1) {
    for (std::size_t b = 0; b < n; b += 2 * h) {
      dif_run<kInv>(x + b * stride, x + (b + h) * stride, 0, h, h, stride, w, tw);
    }
  }
}

/// n-point DIT down `w` adjacent columns at once.
template <bool kInv>
void dit_columns(Fr* x, std::size_t n, std::size_t stride, std::size_t w, const Fr* tw) {
  for (std::size_t h = 1; h < n; h <<= 1) {
    for (std::size_t b = 0; b < n; b += 2 * h) {
      dit_run<kInv>(x + b * stride, x + (b + h) * stride, 0, h, h, stride, w, tw);
    }
  }
}

/// x[j] *= w^j for j < n (x[0] unchanged).
void multiply_by_powers(Fr* x, std::size_t n, const Fr& w) {
  if (w.is_one()) return;
  Fr t = w;
  for (std::size_t j = 1; j < n; ++j) {
    x[j] *= t;
    t *= w;
  }
}

/// A per-thread buffer of at least n elements (n <= kColBatchElems), kept for the thread's lifetime.
/// The column transforms run on a contiguous copy of their R × W block: strided in place, every
/// stage touches R pages (one per row), which at 2^24 made the transform 1.8x slower (TLB misses).
Fr* column_scratch(std::size_t n) {
  thread_local std::vector<Fr> buf;
  if (buf.size() < n) buf.resize(n);
  return buf.data();
}
/// s[r·w + c] = x[r·stride + c] for r < rows, c < w.
void gather_columns(Fr* s, const Fr* x, std::size_t rows, std::size_t stride, std::size_t w) {
  for (std::size_t r = 0; r < rows; ++r) std::copy(x + r * stride, x + r * stride + w, s + r * w);
}
void scatter_columns(Fr* x, const Fr* s, std::size_t rows, std::size_t stride, std::size_t w) {
  for (std::size_t r = 0; r < rows; ++r) std::copy(s + r * w, s + r * w + w, x + r * stride);
}

/// Columns per batch: the R × W block stays cache-resident; at least 8 batches when C allows.
std::size_t column_batch(std::size_t rows, std::size_t cols) {
  std::size_t w = std::max<std::size_t>(1, kColBatchElems / rows);
  w = std::min(w, std::max<std::size_t>(1, cols / 8));
  return std::min(w, cols);
}

// ---- permutation and scaling --------------------------------------------------------------------

/// v[q] ← v[bitrev_k(q)] · s(q) for all q (s = identity when Scale is std::nullptr_t).
/// Cache-blocked: q = (hi | mid | lo) with a-bit hi/lo, b-bit mid; bitrev maps tile mid onto tile
/// bitrev_b(mid), transposing and reversing within, so each pair of 2^a × 2^a tiles is swapped
/// while both are in cache.
template <class Scale>
void bit_reverse_permute(Fr* v, unsigned k, bool par, const Scale& s) {
  constexpr bool kScaled = !std::is_same_v<Scale, std::nullptr_t>;
  auto scale = [&](Fr x, u64 q) {
    if constexpr (kScaled) {
      return x * s(q);
    } else {
      (void)q;
      return x;
    }
  };
  const unsigned a = std::min(kTileLog, k / 2);
  const unsigned b = k - 2 * a;
  const u64 side = u64{1} << a;
  auto tile_pair = [&](u64 mid) {
    const u64 mid2 = bitrev(mid, b);
    if (mid2 < mid) return;
    for (u64 hi = 0; hi < side; ++hi) {
      for (u64 lo = 0; lo < side; ++lo) {
        const u64 q = (hi << (a + b)) | (mid << a) | lo;
        const u64 r = (bitrev(lo, a) << (a + b)) | (mid2 << a) | bitrev(hi, a);
        // Across two tiles every pair is met once (from tile mid); within one tile, from q < r.
        if (mid != mid2 || q < r) {
          Fr x = v[q];
          v[q] = scale(v[r], q);
          v[r] = scale(x, r);
        } else if (q == r) {
          if constexpr (kScaled) v[q] = scale(v[q], q);
        }
      }
    }
  };
  for_each_index(par && k >= kParallelLog, std::size_t{1} << b, 1, tile_pair);
}

}  // namespace

// ---- construction -------------------------------------------------------------------------------

namespace {
unsigned log_for(std::uint64_t n) {
  if (n <= 1) return 0;
  return 64 - static_cast<unsigned>(__builtin_clzll(n - 1));
}
[[noreturn]] void throw_too_large(unsigned k, std::uint64_t requested) {
  throw DomainError("domain of 2^" + std::to_string(k) + " exceeds Fr two-adicity " +
                    std::to_string(EvaluationDomain::kMaxLog) + " (requested " + std::to_string(requested) +
                    " points)");
}
}  // namespace

EvaluationDomain::EvaluationDomain(std::uint64_t min_size, const DomainConfig& cfg)
    : EvaluationDomain(log_for(min_size), min_size, cfg) {}

EvaluationDomain EvaluationDomain::with_log_size(unsigned log_size, const DomainConfig& cfg) {
  if (log_size > kMaxLog) {
    throw DomainError("domain of 2^" + std::to_string(log_size) + " exceeds Fr two-adicity " +
                      std::to_string(kMaxLog));
  }
  return EvaluationDomain(log_size, std::uint64_t{1} << log_size, cfg);
}

EvaluationDomain::EvaluationDomain(unsigned log_size, std::uint64_t requested, const DomainConfig& cfg) {
  if (log_size > kMaxLog) throw_too_large(log_size, requested);
  log_m_ = log_size;
  m_ = std::uint64_t{1} << log_size;

  // ω = ROOT_OF_UNITY^(2^(32−k)).
  omega_ = Fr::root_of_unity();
  for (unsigned i = log_size; i < kMaxLog; ++i) omega_ = omega_.square();
  omega_inv_ = omega_.inverse();
  m_inv_ = Fr::from_u64(m_).inverse();
  g_ = Fr::from_u64(Fr::kGenerator);
  g_inv_ = g_.inverse();
  z_inv_on_coset_ = (g_.pow(m_) - Fr::one()).inverse();

  // Stage twiddles up to T = m (direct) or C (four-step).
  std::uint64_t t_size = m_;
  if (log_size > cfg.direct_log && log_size >= 2) {
    log_rows_ = log_size / 2;
    log_cols_ = log_size - log_rows_;
    t_size = std::uint64_t{1} << log_cols_;
  }
  {
    // Top stage h = T/2: tw[T/2 + j] = ω_T^j, ω_T = ω^(m/T), computed in parallel chunks. Every
    // lower stage is a subsample: tw[h + j] = ω_{2h}^j = ω_T^(j·T/(2h)) = tw[T/2 + j·T/(2h)].
    Fr root = omega_;
    for (std::uint64_t n = m_; n > t_size; n >>= 1) root = root.square();
    tw_.assign(std::max<std::uint64_t>(t_size, 1), Fr::one());
    const std::uint64_t top = t_size >> 1;
    if (top > 0) {
      for_each_chunk(log_size >= kParallelLog, top, [&](std::size_t b, std::size_t e) {
        Fr w = root.pow(b);
        for (std::size_t j = b; j < e; ++j) {
          tw_[top + j] = w;
          w *= root;
        }
      });
      for (std::uint64_t h = top >> 1, step = 2; h >= 1; h >>= 1, step <<= 1) {
        for (std::uint64_t j = 0; j < h; ++j) tw_[h + j] = tw_[top + j * step];
      }
    }
  }

  if (log_rows_ > 0) {
    const std::uint64_t rows = std::uint64_t{1} << log_rows_;
    row_fwd_.resize(rows);
    row_inv_.resize(rows);
    Fr w = Fr::one(), wi = Fr::one();
    for (std::uint64_t r = 0; r < rows; ++r) {
      row_fwd_[r] = w;
      row_inv_[r] = wi;
      w *= omega_;
      wi *= omega_inv_;
    }
  }

  auto fill_pow = [&](PowTable& t, const Fr& x, const Fr& c) {
    t.lo_bits = (log_size + 1) / 2;
    const std::uint64_t lo_n = std::uint64_t{1} << t.lo_bits;
    const std::uint64_t hi_n = std::uint64_t{1} << (log_size - t.lo_bits);
    t.lo.resize(lo_n);
    t.hi.resize(hi_n);
    Fr p = c;
    for (std::uint64_t u = 0; u < lo_n; ++u) {
      t.lo[u] = p;
      p *= x;
    }
    const Fr step = x.pow(lo_n);
    p = Fr::one();
    for (std::uint64_t v = 0; v < hi_n; ++v) {
      t.hi[v] = p;
      p *= step;
    }
  };
  fill_pow(pow_g_, g_, Fr::one());
  fill_pow(pow_g_over_m_, g_, m_inv_);
  fill_pow(pow_ginv_over_m_, g_inv_, m_inv_);
  fill_pow(pow_ginv_over_mz_, g_inv_, m_inv_ * z_inv_on_coset_);
}

Fr EvaluationDomain::z_at(const Fr& x) const { return x.pow(m_) - Fr::one(); }

std::size_t EvaluationDomain::table_bytes() const {
  std::size_t n = tw_.size() + row_fwd_.size() + row_inv_.size();
  for (const PowTable* t : {&pow_g_, &pow_g_over_m_, &pow_ginv_over_m_, &pow_ginv_over_mz_})
    n += t->lo.size() + t->hi.size();
  return n * sizeof(Fr);
}

const EvaluationDomain::PowTable& EvaluationDomain::powers(Powers which) const {
  switch (which) {
    case Powers::kG:
      return pow_g_;
    case Powers::kGOverM:
      return pow_g_over_m_;
    case Powers::kGInvOverM:
      return pow_ginv_over_m_;
    case Powers::kGInvOverMZ:
      return pow_ginv_over_mz_;
  }
  return pow_g_;
}

// ---- helpers --------------------------------------------------------------------------------------

void EvaluationDomain::check_length(std::span<Fr> v, const char* op) const {
  if (v.size() != m_) {
    throw DomainError(std::string("poly::EvaluationDomain::") + op + ": buffer of " +
                      std::to_string(v.size()) + " elements, expected the domain size " + std::to_string(m_) +
                      " (pad with zeros)");
  }
}

bool EvaluationDomain::parallel(const NttConfig& cfg) const {
  return cfg.max_threads != 1 && log_m_ >= kParallelLog;
}

void EvaluationDomain::run_limited(const NttConfig& cfg, void (*fn)(void*), void* ctx) const {
  if (cfg.max_threads > 1 && log_m_ >= kParallelLog) {
    tbb::task_arena arena(static_cast<int>(cfg.max_threads));
    arena.execute([&] { fn(ctx); });
  } else {
    fn(ctx);
  }
}

// ---- transforms -----------------------------------------------------------------------------------

void EvaluationDomain::dif(Fr* v, bool forward, bool par) const {
  if (forward) {
    dif_impl<false>(v, par);
  } else {
    dif_impl<true>(v, par);
  }
}

void EvaluationDomain::dit(Fr* v, bool forward, bool par) const {
  if (forward) {
    dit_impl<false>(v, par);
  } else {
    dit_impl<true>(v, par);
  }
}

template <bool kInv>
void EvaluationDomain::dif_impl(Fr* v, bool par) const {
  const Fr* tw = tw_.data();
  if (log_rows_ == 0) {
    dif_contiguous<kInv>(v, m_, tw, par);
    return;
  }
  const std::size_t rows = std::size_t{1} << log_rows_, cols = std::size_t{1} << log_cols_;
  const std::size_t w = column_batch(rows, cols);
  for_each_index(par, cols / w, 1, [&](std::size_t g) {
    Fr* s = column_scratch(rows * w);
    gather_columns(s, v + g * w, rows, cols, w);
    dif_columns<kInv>(s, rows, w, w, tw);
    scatter_columns(v + g * w, s, rows, cols, w);
  });
  const Fr* row_root = kInv ? row_inv_.data() : row_fwd_.data();
  for_each_index(par, rows, 1, [&](std::size_t r) {
    Fr* row = v + r * cols;
    multiply_by_powers(row, cols, row_root[bitrev(r, log_rows_)]);
    dif_contiguous<kInv>(row, cols, tw, false);
  });
}

template <bool kInv>
void EvaluationDomain::dit_impl(Fr* v, bool par) const {
  const Fr* tw = tw_.data();
  if (log_rows_ == 0) {
    dit_contiguous<kInv>(v, m_, tw, par);
    return;
  }
  const std::size_t rows = std::size_t{1} << log_rows_, cols = std::size_t{1} << log_cols_;
  const Fr* row_root = kInv ? row_inv_.data() : row_fwd_.data();
  for_each_index(par, rows, 1, [&](std::size_t r) {
    Fr* row = v + r * cols;
    dit_contiguous<kInv>(row, cols, tw, false);
    multiply_by_powers(row, cols, row_root[bitrev(r, log_rows_)]);
  });
  const std::size_t w = column_batch(rows, cols);
  for_each_index(par, cols / w, 1, [&](std::size_t g) {
    Fr* s = column_scratch(rows * w);
    gather_columns(s, v + g * w, rows, cols, w);
    dit_columns<kInv>(s, rows, w, w, tw);
    scatter_columns(v + g * w, s, rows, cols, w);
  });
}

void EvaluationDomain::transform_nr(std::span<Fr> v, bool forward, const NttConfig& cfg) const {
  check_length(v, "transform_nr");
  with_threads(cfg, [&] { dif(v.data(), forward, parallel(cfg)); });
}

void EvaluationDomain::transform_rn(std::span<Fr> v, bool forward, const NttConfig& cfg) const {
  check_length(v, "transform_rn");
  with_threads(cfg, [&] { dit(v.data(), forward, parallel(cfg)); });
}

namespace {
/// Multiplies v[p] by s(i), i = p or bitrev_k(p).
template <class Scale>
void scale_each(Fr* v, std::uint64_t m, unsigned k, bool bit_reversed, bool par, const Scale& s) {
  for_each_chunk(par, m, [&](std::size_t b, std::size_t e) {
    if (bit_reversed) {
      for (std::size_t p = b; p < e; ++p) v[p] *= s(bitrev(p, k));
    } else {
      for (std::size_t p = b; p < e; ++p) v[p] *= s(p);
    }
  });
}
void scale_const(Fr* v, std::uint64_t m, bool par, const Fr& c) {
  for_each_chunk(par, m, [&](std::size_t b, std::size_t e) {
    for (std::size_t p = b; p < e; ++p) v[p] *= c;
  });
}
}  // namespace

void EvaluationDomain::scale_powers(std::span<Fr> v, Powers which, bool bit_reversed,
                                    const NttConfig& cfg) const {
  check_length(v, "scale_powers");
  const PowTable& t = powers(which);
  with_threads(cfg, [&] {
    scale_each(v.data(), m_, log_m_, bit_reversed, parallel(cfg), [&](u64 i) { return t.at(i); });
  });
}

void EvaluationDomain::bit_reverse_scale(std::span<Fr> v, Powers which, const NttConfig& cfg) const {
  check_length(v, "bit_reverse_scale");
  const PowTable& t = powers(which);
  with_threads(cfg,
               [&] { bit_reverse_permute(v.data(), log_m_, parallel(cfg), [&](u64 i) { return t.at(i); }); });
}

void EvaluationDomain::bit_reverse(std::span<Fr> v, const NttConfig& cfg) const {
  check_length(v, "bit_reverse");
  with_threads(cfg, [&] { bit_reverse_permute(v.data(), log_m_, parallel(cfg), nullptr); });
}

void EvaluationDomain::divide_by_z_on_coset(std::span<Fr> v, const NttConfig& cfg) const {
  check_length(v, "divide_by_z_on_coset");
  with_threads(cfg, [&] { scale_const(v.data(), m_, parallel(cfg), z_inv_on_coset_); });
}

void EvaluationDomain::ntt(std::span<Fr> v, const NttConfig& cfg) const {
  check_length(v, "ntt");
  with_threads(cfg, [&] {
    const bool par = parallel(cfg);
    Fr* x = v.data();
    switch (cfg.order) {
      case Order::NR:
        dif(x, true, par);
        break;
      case Order::RN:
        dit(x, true, par);
        break;
      case Order::NN:
        dif(x, true, par);
        bit_reverse_permute(x, log_m_, par, nullptr);
        break;
      case Order::RR:
        dit(x, true, par);
        bit_reverse_permute(x, log_m_, par, nullptr);
        break;
    }
  });
}

void EvaluationDomain::intt(std::span<Fr> v, const NttConfig& cfg) const {
  check_length(v, "intt");
  with_threads(cfg, [&] {
    const bool par = parallel(cfg);
    Fr* x = v.data();
    const Fr c = m_inv_;
    auto by_c = [&](u64) { return c; };
    switch (cfg.order) {
      case Order::NR:
        dif(x, false, par);
        scale_const(x, m_, par, c);
        break;
      case Order::RN:
        dit(x, false, par);
        scale_const(x, m_, par, c);
        break;
      case Order::NN:
        dif(x, false, par);
        bit_reverse_permute(x, log_m_, par, by_c);
        break;
      case Order::RR:
        dit(x, false, par);
        bit_reverse_permute(x, log_m_, par, by_c);
        break;
    }
  });
}

void EvaluationDomain::coset_ntt(std::span<Fr> v, const NttConfig& cfg) const {
  check_length(v, "coset_ntt");
  with_threads(cfg, [&] {
    const bool par = parallel(cfg);
    Fr* x = v.data();
    auto g_pow = [&](u64 i) { return pow_g_.at(i); };
    switch (cfg.order) {
      case Order::NR:
        scale_each(x, m_, log_m_, false, par, g_pow);
        dif(x, true, par);
        break;
      case Order::RN:
        scale_each(x, m_, log_m_, true, par, g_pow);
        dit(x, true, par);
        break;
      case Order::NN:
        scale_each(x, m_, log_m_, false, par, g_pow);
        dif(x, true, par);
        bit_reverse_permute(x, log_m_, par, nullptr);
        break;
      case Order::RR:
        scale_each(x, m_, log_m_, true, par, g_pow);
        dit(x, true, par);
        bit_reverse_permute(x, log_m_, par, nullptr);
        break;
    }
  });
}

void EvaluationDomain::coset_intt(std::span<Fr> v, const NttConfig& cfg) const {
  check_length(v, "coset_intt");
  with_threads(cfg, [&] {
    const bool par = parallel(cfg);
    Fr* x = v.data();
    auto s = [&](u64 i) { return pow_ginv_over_m_.at(i); };
    switch (cfg.order) {
      case Order::NR:  // coefficient bitrev(p) sits at p
        dif(x, false, par);
        scale_each(x, m_, log_m_, true, par, s);
        break;
      case Order::RN:
        dit(x, false, par);
        scale_each(x, m_, log_m_, false, par, s);
        break;
      case Order::NN:
        dif(x, false, par);
        bit_reverse_permute(x, log_m_, par, s);
        break;
      case Order::RR:
        dit(x, false, par);
        scale_each(x, m_, log_m_, false, par, s);
        bit_reverse_permute(x, log_m_, par, nullptr);
        break;
    }
  });
}

}  // namespace proofline::poly
