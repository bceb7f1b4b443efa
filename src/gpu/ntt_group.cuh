// src/gpu/ntt_group.cuh — the per-block computation of the NTT group kernel (src/gpu/ntt.cu) and the
// twiddle tables it reads, as __host__ __device__ templates over the field type: the device kernel
// instantiates them with DevFr (src/gpu/ff.cuh), and tests/gpu_host/ntt_emulation_test.cpp runs the
// very same code on the host with ff::Fr, emulating every block and thread phase by phase (a phase is
// the work between two __syncthreads of the kernel), against poly::EvaluationDomain.
//
// A group performs t <= 9 consecutive radix-2 stages on the index bits [lo, lo + t) of all n = 2^k
// elements. A block owns 2^t rows × 2^c adjacent columns (c = min(2, lo); 4 × 32 B = 128-byte
// segments): rows differ in bits [lo, lo + t), columns in bits [0, c), the block index supplies the
// rest. Stage b = lo + b' (butterfly distance 2^b) needs ω_{2^(b+1)}^j for j = index mod 2^b; with
// j = j'·2^lo + jlow (j' < 2^b' the row part, jlow < 2^lo the block's column):
//
//     ω_{2^(b+1)}^j = ω_{2^(b'+1)}^j' · ω_{2^(b+1)}^jlow = R[2^b' − 1 + j'] · C[b'][col]
//
// R (511 elements) holds the roots of every group size, R[2^b' − 1 + j'] = ω_{2^(b'+1)}^j', the
// same for all n. C (t·2^c elements per block, shared memory) is read once per block from a two-level
// table of the powers of ω_n: ω_n^e = P_lo[e mod 2^L]·P_hi[e >> L], L = ceil(k/2). In the lowest group
// (lo = 0) C = 1 and R is used as is. Above it the block first multiplies out the twiddles of its
// stages b' <= t − 2 into shared memory ((2^(t−1) − 1)·2^c products, ≈ 1/2 per element), and the top
// stage b' = t − 1, whose 2^(t−1)·2^c twiddles are all distinct, multiplies R·C in the butterfly
// (1/2 per element): ≈ one extra product per element per group above the lowest, against t/2
// products per element for the butterflies themselves; the lowest stage of the lowest group, whose
// twiddles are all 1, multiplies nothing (1/2 per element saved). The tables total 511 + 2^L + 2^(k−L)
// elements per direction (25,087 = 0.8 MB at k = 27) instead of n − 1.
#pragma once

#include <cstdint>
#include <vector>

#include "host_device.cuh"

namespace proofline::gpu::ntt_group {

constexpr unsigned kMaxGroupBits = 9;  // stages fused per kernel
constexpr unsigned kMaxColBits = 2;    // adjacent columns per block (4 × 32 B = 128 B)
constexpr unsigned kThreads = 256;
constexpr unsigned kRoots = (1u << kMaxGroupBits) - 1;  // R: ω_{2^(b'+1)}^j' for b' < 9

/// One direction's twiddle table: [R (kRoots) | P_lo (2^L) | P_hi (2^(k−L))], L = ceil(k/2).
struct TableLayout {
  unsigned k, lbits;
  PROOFLINE_HD static TableLayout for_log(unsigned k) { return {k, (k + 1) / 2}; }
  PROOFLINE_HD uint64_t lo_count() const { return uint64_t{1} << lbits; }
  PROOFLINE_HD uint64_t hi_count() const { return uint64_t{1} << (k - lbits); }
  PROOFLINE_HD uint64_t count() const { return kRoots + lo_count() + hi_count(); }
};

/// Builds one direction's table on the host. `root` is a primitive 2^32-th root of unity (the
/// inverse direction passes its inverse); ω_{2^m} = root^(2^(32−m)), so ω_n and R agree for every k.
template <class F>
std::vector<F> build_table(unsigned k, const F& root) {
  const TableLayout lay = TableLayout::for_log(k);
  std::vector<F> tab(lay.count());
  for (unsigned b = 0; b < kMaxGroupBits; ++b) {  // R[2^b − 1 + j] = ω_{2^(b+1)}^j
    F w = root;
    for (unsigned s = 0; s < 31 - b; ++s) w = w * w;
    F p = F::one();
    for (uint64_t j = 0; j < (uint64_t{1} << b); ++j, p = p * w) tab[(uint64_t{1} << b) - 1 + j] = p;
  }
  F omega = root;  // ω_n = root^(2^(32−k))
  for (unsigned s = 0; s < 32 - k; ++s) omega = omega * omega;
  F p = F::one();
  for (uint64_t i = 0; i < lay.lo_count(); ++i, p = p * omega) tab[kRoots + i] = p;
  const F step = p;  // ω_n^(2^L)
  F q = F::one();
  for (uint64_t i = 0; i < lay.hi_count(); ++i, q = q * step) tab[kRoots + lay.lo_count() + i] = q;
  return tab;
}

/// One kernel launch: stages on bits [lo, lo + t) of 2^k elements, 2^c columns per block.
struct GroupSpec {
  unsigned k, lo, t, c;
  PROOFLINE_HD uint64_t blocks() const { return uint64_t{1} << (k - t - c); }
  /// Threads per block for rounds of 2^rlog elements per thread (GroupBlock's kRadixLog): one
  /// unit of the widest round each, at most kThreads.
  PROOFLINE_HD unsigned threads(unsigned rlog) const {
    const unsigned units = (1u << (t + c)) >> rlog;
    return units < kThreads ? (units ? units : 1) : kThreads;
  }
  /// Shared memory in elements: the 2^(t+c) data, then (lo > 0) the stage twiddles b' <= t − 2 and C.
  PROOFLINE_HD unsigned smem_elems() const {
    const unsigned e = 1u << (t + c);
    return lo == 0 ? e : e + (((1u << (t - 1)) - 1) << c) + (t << c);
  }
};
constexpr unsigned kMaxSmemElems = (1u << (kMaxGroupBits + kMaxColBits)) +
                                   (((1u << (kMaxGroupBits - 1)) - 1) << kMaxColBits) +
                                   (kMaxGroupBits << kMaxColBits);

/// The launches of one transform: k bits in ceil(k/9) nearly equal groups, DIF from the top group
/// down, DIT from the bottom up; a group above the lowest takes min(lo, col_bits) column bits
/// (col_bits <= kMaxColBits: 2 gives 128-byte rows of four elements, 1 halves a block's shared
/// memory so that more blocks fit on an SM).
inline std::vector<GroupSpec> plan(unsigned k, bool dif, unsigned col_bits = kMaxColBits) {
  if (col_bits > kMaxColBits) col_bits = kMaxColBits;
  std::vector<GroupSpec> out;
  if (k == 0) return out;
  const unsigned groups = (k + kMaxGroupBits - 1) / kMaxGroupBits;
  unsigned lo = 0;
  for (unsigned g = 0; g < groups; ++g) {
    const unsigned t = k / groups + (g < k % groups ? 1 : 0);
    out.push_back({k, lo, t, lo < col_bits ? lo : col_bits});
    lo += t;
  }
  if (dif) out = std::vector<GroupSpec>(out.rbegin(), out.rend());
  return out;
}

PROOFLINE_HD unsigned log2_floor(unsigned v) {
#if defined(__CUDA_ARCH__)
  return 31 - __clz(v);
#else
  return 31 - __builtin_clz(v);
#endif
}

/// Stages per round (elements per thread in registers: 2^kRadixLog) that the kernel and the host
/// emulation run by default: 2 (radix 4). Radix 8 (3: four independent butterflies per stage in each
/// thread) measured slower on the H200 (bench/RESULTS.md: 128 registers with spills, no more issue).
constexpr unsigned kDefaultRadixLog = 2;

/// The work of one block, split into phases separated by barriers (load, the stage twiddles, one
/// phase per round of up to kRadixLog stages, store): the kernel runs
/// phase(0..num_phases()−1) with __syncthreads between them; the host emulation runs every thread of
/// a phase before the next phase. Within a phase no thread reads what another writes.
///   DIF (Gentleman–Sande, kDif): stages from the highest bit down, u' = u + v, v' = (u − v)·w.
///   DIT (Cooley–Tukey):          stages from the lowest bit up,   v·w first, then u ± v·w.
/// Shared memory holds the block's element (row, col) at swizzled(row) << c | col, where swizzled()
/// XORs the row's bits [0, 3) with its bits [3, 6): a round on the lowest stages, whose threads take
/// rows 2^S apart, then spreads its warp over the banks as a run of adjacent rows does (without it,
/// all 32 threads of the lowest group's bottom round read the same four banks).
template <class F, bool kDif, unsigned kRadixLog = kDefaultRadixLog>
struct GroupBlock {
  static_assert(kRadixLog >= 1 && kRadixLog <= 3, "rounds of 1, 2 or 3 stages");
  F* x;         // the 2^k elements (global memory)
  const F* tw;  // the direction's table (TableLayout)
  F* sm;        // shared memory, spec.smem_elems() elements
  GroupSpec s;
  uint64_t low_fixed, base;
  unsigned cmask;
  bool twist;  // lo > 0: C != 1

  PROOFLINE_HD GroupBlock(F* x_, const F* tw_, F* sm_, GroupSpec s_, uint64_t blk)
      : x(x_), tw(tw_), sm(sm_), s(s_), cmask((1u << s_.c) - 1), twist(s_.lo > 0) {
    low_fixed = blk & ((uint64_t{1} << (s.lo - s.c)) - 1);
    const uint64_t high_fixed = blk >> (s.lo - s.c);
    base = (high_fixed << (s.lo + s.t)) | (low_fixed << s.c);
  }
  PROOFLINE_HD unsigned elems() const { return 1u << (s.t + s.c); }
  PROOFLINE_HD F* sm_tw() const { return sm + elems(); }  // [(2^b' − 1 + j') << c | col], b' <= t − 2
  PROOFLINE_HD F* sm_col() const { return sm_tw() + (((1u << (s.t - 1)) - 1) << s.c); }  // C[b' << c | col]
  PROOFLINE_HD uint64_t addr(unsigned e) const {
    return base | (uint64_t(e >> s.c) << s.lo) | (e & cmask);
  }
  /// Shared-memory slot of row `row`, column `col` (see the struct comment).
  PROOFLINE_HD unsigned slot(unsigned row, unsigned col) const {
    return ((row ^ ((row >> 3) & 7u)) << s.c) | col;
  }
  PROOFLINE_HD unsigned slot(unsigned e) const { return slot(e >> s.c, e & cmask); }
  PROOFLINE_HD unsigned rounds() const { return (s.t + kRadixLog - 1) / kRadixLog; }
  PROOFLINE_HD unsigned num_phases() const { return rounds() + (twist ? 3 : 2); }

  PROOFLINE_HD void phase(unsigned p, unsigned tid, unsigned nthr) {
    if (p == 0) return load(tid, nthr);
    if (twist) {
      if (p == 1) return stage_twiddles(tid, nthr);
      --p;
    }
    if (p - 1 < rounds()) return round(p - 1, tid, nthr);
    store(tid, nthr);
  }

  /// Data to shared memory; C[b'][col] = ω_{2^(lo+b'+1)}^jlow = ω_n^(jlow·2^(k−lo−b'−1)).
  PROOFLINE_HD void load(unsigned tid, unsigned nthr) {
    for (unsigned e = tid; e < elems(); e += nthr) sm[slot(e)] = x[addr(e)];
    if (!twist) return;
    const TableLayout lay = TableLayout::for_log(s.k);
    const F* p_lo = tw + kRoots;
    const F* p_hi = p_lo + lay.lo_count();
    F* col_roots = sm_col();
    for (unsigned i = tid; i < (s.t << s.c); i += nthr) {
      const unsigned brel = i >> s.c, col = i & cmask;
      const uint64_t e = ((low_fixed << s.c) | col) << (s.k - s.lo - brel - 1);
      col_roots[i] = p_lo[e & (lay.lo_count() - 1)] * p_hi[e >> lay.lbits];
    }
  }

  /// The twiddles of stages b' <= t − 2: sm_tw[(2^b' − 1 + j') << c | col] = R[2^b' − 1 + j']·C[b'][col].
  PROOFLINE_HD void stage_twiddles(unsigned tid, unsigned nthr) {
    const F* col_roots = sm_col();
    F* out = sm_tw();
    for (unsigned i = tid; i < (((1u << (s.t - 1)) - 1) << s.c); i += nthr) {
      const unsigned idx = i >> s.c, col = i & cmask;
      out[i] = tw[idx] * col_roots[(log2_floor(idx + 1) << s.c) | col];
    }
  }

  /// The twiddle of stage b' for the row part j' and column col: ω_{2^(lo+b'+1)}^(j'·2^lo + jlow).
  PROOFLINE_HD F twiddle(unsigned brel, unsigned jr, unsigned col) const {
    const unsigned idx = (1u << brel) - 1 + jr;
    if (brel + 1 == s.t) {  // top stage: R·C here (its twiddles are all distinct)
      F w = tw[idx];
      if (twist) w = w * sm_col()[(brel << s.c) | col];
      return w;
    }
    return twist ? sm_tw()[(idx << s.c) | col] : tw[idx];
  }

  /// One radix-2 butterfly on (u, v) with twiddle w (unit: w = 1, not read).
  PROOFLINE_HD static void butterfly(F& u, F& v, const F& w, bool unit) {
    if (kDif) {
      F d = u - v;
      u = u + v;
      if (!unit) d = d * w;
      v = d;
    } else {
      F vw = v;
      if (!unit) vw = vw * w;
      v = u - vw;
      u = u + vw;
    }
  }

  /// Round `rd`: stages [bl, bl + S) with S = kRadixLog, or fewer in the one round that takes the
  /// rest of t (DIF rounds go down from b' = t − 1, so the rest is at the bottom; DIT rounds go up
  /// from b' = 0, the rest at the top). Each thread takes units q = tid, tid + nthr, …: the 2^S
  /// elements of rows r0 + i·2^bl (i < 2^S; r0 with bits [bl, bl + S) clear) of one column, in
  /// registers for all S stages.
  PROOFLINE_HD void round(unsigned rd, unsigned tid, unsigned nthr) {
    unsigned bl, st;
    if (kDif) {
      const unsigned top = s.t - 1 - kRadixLog * rd;
      bl = top + 1 >= kRadixLog ? top + 1 - kRadixLog : 0;
      st = top + 1 - bl;
    } else {
      bl = kRadixLog * rd;
      st = s.t - bl < kRadixLog ? s.t - bl : kRadixLog;
    }
    if (st == 3) {
      if constexpr (kRadixLog >= 3) for (unsigned q = tid; q < (elems() >> 3); q += nthr) unit<3>(bl, q);
    } else if (st == 2) {
      if constexpr (kRadixLog >= 2) for (unsigned q = tid; q < (elems() >> 2); q += nthr) unit<2>(bl, q);
    } else {
      for (unsigned q = tid; q < (elems() >> 1); q += nthr) unit<1>(bl, q);
    }
  }

  /// One unit of a round of S stages from bl: stage bl + k pairs elements i and i + 2^k (bit k of i
  /// clear), whose row part is j' = jl + (i mod 2^k)·2^bl: 2^k distinct twiddles, each loaded (or,
  /// on the top stage, multiplied out) once and used by 2^(S−1−k) butterflies; the butterflies of
  /// one stage are independent (instruction-level parallelism within the thread).
  template <unsigned S>
  PROOFLINE_HD void unit(unsigned bl, unsigned q) {
    constexpr unsigned E = 1u << S;
    const unsigned hl = 1u << bl;
    const unsigned col = q & cmask, qr = q >> s.c;
    const unsigned jl = qr & (hl - 1);
    const unsigned r0 = ((qr >> bl) << (bl + S)) | jl;
    F v[E];
    unsigned at[E];
    PROOFLINE_UNROLL
    for (unsigned i = 0; i < E; ++i) {
      at[i] = slot(r0 + i * hl, col);
      v[i] = sm[at[i]];
    }
    PROOFLINE_UNROLL
    for (unsigned kk = 0; kk < S; ++kk) {
      const unsigned k = kDif ? S - 1 - kk : kk;
      const unsigned d = 1u << k;
      const bool unit_twiddle = bl + k == 0 && !twist;  // ω_2^0 = 1: the lowest stage of the lowest group
      PROOFLINE_UNROLL
      for (unsigned jj = 0; jj < d; ++jj) {
        F w;
        if (!unit_twiddle) w = twiddle(bl + k, jl + jj * hl, col);
        PROOFLINE_UNROLL
        for (unsigned i = jj; i < E; i += 2 * d) butterfly(v[i], v[i + d], w, unit_twiddle);
      }
    }
    PROOFLINE_UNROLL
    for (unsigned i = 0; i < E; ++i) sm[at[i]] = v[i];
  }

  PROOFLINE_HD void store(unsigned tid, unsigned nthr) {
    for (unsigned e = tid; e < elems(); e += nthr) x[addr(e)] = sm[slot(e)];
  }
};

}  // namespace proofline::gpu::ntt_group
