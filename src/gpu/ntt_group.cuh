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
//
// Coset and scale folded into the twiddles (LowTable, the default path of ntt.cu): a transform whose
// stage b uses G_b·ω_{2^(b+1)}^j with G_b = γ^(2^(k−1−b)) is a coset transform with generator γ.
//   DIT (bit-reversed coefficients c in) gives Σ_i c_i·(γ·ω^j)^i: P(x) = P_e(x²) + x·P_o(x²) at
//     x = γ·ω^j; the halves are coset transforms of generator γ² on the half domain, and the top
//     stage's twiddle is x's factor γ·ω_n^j.
//   DIF (natural values X in) gives γ^i·Σ_j X_j·ω^(ij) at bit-reversed position i: for even i = 2i'
//     the top stage's u + v feeds the half transform with γ², for odd i = 2i' + 1 the factor
//     γ·ω_n^j of (u − v) does (γ^(2i'+1)·ω^(j(2i'+1)) = (γ²)^i'·(ω²)^(ji')·γ·ω^j).
// So the coset scaling of a coefficient by γ^i costs no pass and no product except on the bottom
// stage (b = 0), whose twiddle G_0 = γ^(n/2) is no longer 1. A constant factor λ of all outputs
// (1/n of the inverse, Z's inverse in H) rides on the bottom stage as well: DIF u' = (u + v)·λ,
// v' = (u − v)·(λ·G_0); DIT u' = u·λ + v·(λ·G_0), v' = u·λ − v·(λ·G_0) (½ product per element).
// Upper groups fold G_(lo+b') into their column roots C (t·2^c products per block); the lowest group
// reads its twiddles from the transform's LowTable [R'(511) | λ | G (32)], R'[2^b − 1 + j] =
// G_b·ω_{2^(b+1)}^j and R'[0] = λ·G_0.
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

/// A transform's variant table (see the file comment): [R' (kRoots) | λ | G_b for b < kMaxLog].
constexpr unsigned kMaxLog = 32;
constexpr unsigned kLowLambda = kRoots;          // λ
constexpr unsigned kLowCoset = kRoots + 1;       // G_0 … G_31
constexpr unsigned kLowCount = kRoots + 1 + kMaxLog;

/// Builds the LowTable of a transform of 2^k points (k <= 31) over `root` (a primitive 2^32-th root of
/// unity, or its inverse for the inverse direction, as build_table) with coset generator `gamma`
/// (F::one() for none) and output factor `lambda`: R'[2^b − 1 + j] = G_b·ω_{2^(b+1)}^j, R'[0] =
/// λ·G_0, G_b = γ^(2^(k−1−b)) for b < k (1 above). Only stages b < min(k, 9) are read.
template <class F>
std::vector<F> build_low_table(unsigned k, const F& root, const F& gamma, const F& lambda) {
  std::vector<F> tab(kLowCount, F::one());
  for (unsigned b = 0; b < k && b < kMaxLog; ++b) {  // G_b = γ^(2^(k−1−b))
    F gb = gamma;
    for (unsigned s = 0; s + 1 + b < k; ++s) gb = gb * gb;
    tab[kLowCoset + b] = gb;
  }
  for (unsigned b = 0; b < kMaxGroupBits; ++b) {
    F w = root;
    for (unsigned s = 0; s < 31 - b; ++s) w = w * w;
    const F gb = b < k ? tab[kLowCoset + b] : F::one();
    F p = F::one();
    for (uint64_t j = 0; j < (uint64_t{1} << b); ++j, p = p * w) tab[(uint64_t{1} << b) - 1 + j] = gb * p;
  }
  tab[0] = tab[0] * lambda;
  tab[kLowLambda] = lambda;
  return tab;
}

/// The wide table of a domain of n = 2^k points (k <= 31): W[e] = τ^e for e < n, with τ = ω_{2n}
/// = root^(2^(31−k)) (so τ² = ω_n: the same ω_n as build_table's). Since τ^n = −1, every twiddle of the
/// groups above the lowest is ±W[e] for one e, in both directions and with the coset τ^{±1} folded:
///   stage b, plain:   ω_{2^(b+1)}^{±j}             = τ^{±(j·2^(k−b))}
///   stage b, coset τ: G_b·ω_{2^(b+1)}^j, G_b = τ^(2^(k−1−b)), = τ^{(2j+1)·2^(k−1−b)} (τ^{-1}: the negated exponent)
/// and τ^E = W[E] for E < n, −W[E − n] for n <= E < 2n (E taken mod 2n). So those groups multiply
/// no twiddle out (GroupBlock::wide_twiddle): ≈ one product per element less per group, for n
/// elements of table (4 GiB at 2^27). `root` is a primitive 2^32-th root of unity; wide_root gives τ.
template <class F>
F wide_root(unsigned k, const F& root) {  // τ = ω_{2n} = root^(2^(31−k)), k <= 31
  F tau = root;
  for (unsigned s = 0; s + 1 + k < 32; ++s) tau = tau * tau;
  return tau;
}
template <class F>
std::vector<F> build_wide_table(unsigned k, const F& root) {
  const F tau = wide_root(k, root);
  std::vector<F> tab(uint64_t{1} << k);
  F p = F::one();
  for (auto& w : tab) {
    w = p;
    p = p * tau;
  }
  return tab;
}

/// How a launch reads its twiddles beyond the direction's table: the plain transform (low = the
/// direction's table, bottom-stage twiddle 1, no λ), or a LowTable variant.
template <class F>
struct Variant {
  const F* low = nullptr;   // the lowest group's R (kRoots entries; LowTable or the direction's table)
  const F* coset = nullptr; // G_b for b < k (upper groups multiply it into C), or null: no coset
  bool unit_bottom = true;  // R'[0] == 1: the bottom stage multiplies nothing
  bool scaled = false;      // λ != 1: the bottom stage multiplies u by low[kLowLambda]
  /// The groups above the lowest: twiddles read from the wide table (build_wide_table of this k) instead
  /// of multiplied out as R·C, or null. wide_inverse: the inverse direction's (τ^{-E}); wide_coset:
  /// the coset τ^{±1} folded into every stage (then `coset` is not read; the lowest group's is in low).
  const F* wide = nullptr;
  bool wide_inverse = false;
  bool wide_coset = false;
};

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

/// An element between global or shared memory and registers: on the device as two 16-byte words
/// (LDG/LDS/STG/STS.128; the field type's alignment is 4, so a plain copy is eight 32-bit accesses,
/// and each 32-bit warp access to elements 32 bytes apart touches 32 sectors), plain on the host.
/// Every device pointer passed here is 16-byte aligned (buffers from cudaMalloc, elements of 32 B).
template <class F>
PROOFLINE_HD F ld_elem(const F* p) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(F) == 32 && sizeof(p->v[0]) == 4, "two 16-byte words of 8 limbs");
  const uint4 a = reinterpret_cast<const uint4*>(p)[0], b = reinterpret_cast<const uint4*>(p)[1];
  F r;
  r.v[0] = a.x, r.v[1] = a.y, r.v[2] = a.z, r.v[3] = a.w;
  r.v[4] = b.x, r.v[5] = b.y, r.v[6] = b.z, r.v[7] = b.w;
  return r;
#else
  return *p;
#endif
}
template <class F>
PROOFLINE_HD void st_elem(F* p, const F& r) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(F) == 32 && sizeof(r.v[0]) == 4, "two 16-byte words of 8 limbs");
  reinterpret_cast<uint4*>(p)[0] = make_uint4(r.v[0], r.v[1], r.v[2], r.v[3]);
  reinterpret_cast<uint4*>(p)[1] = make_uint4(r.v[4], r.v[5], r.v[6], r.v[7]);
#else
  *p = r;
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
/// kFolded false: the plain transform only (Variant ignored, the bottom stage's twiddle 1 known at
/// compile time), so that its kernels keep their registers; true: any Variant.
/// kWideCode false: the wide table is never read (Variant::wide ignored; for kernels that only run
/// the lowest group, which reads none), so its code is not compiled in.
template <class F, bool kDif, unsigned kRadixLog = kDefaultRadixLog, bool kFolded = true, bool kWideCode = true>
struct GroupBlock {
  static_assert(kRadixLog >= 1 && kRadixLog <= 3, "rounds of 1, 2 or 3 stages");
  F* x;         // the 2^k elements (global memory)
  const F* tw;  // the direction's table (TableLayout)
  F* sm;        // shared memory, spec.smem_elems() elements
  GroupSpec s;
  uint64_t low_fixed, base;
  unsigned cmask;
  bool twist;  // lo > 0: C != 1
  const F* low;    // the R of the lowest group's rounds (Variant::low), tw in the upper groups
  const F* coset;  // Variant::coset (upper groups only)
  bool unit_bottom, scaled;
  const F* wide;   // Variant::wide in the upper groups (null in the lowest): twiddles ±W[E], no products
  bool winv, wcoset;

  /// The plain transform (Variant{} with low = tw).
  PROOFLINE_HD GroupBlock(F* x_, const F* tw_, F* sm_, GroupSpec s_, uint64_t blk)
      : GroupBlock(x_, tw_, sm_, s_, blk, Variant<F>{tw_, nullptr, true, false}) {}
  PROOFLINE_HD GroupBlock(F* x_, const F* tw_, F* sm_, GroupSpec s_, uint64_t blk, const Variant<F>& v)
      : x(x_), tw(tw_), sm(sm_), s(s_), cmask((1u << s_.c) - 1), twist(s_.lo > 0),
        low(!kFolded || s_.lo > 0 || v.low == nullptr ? tw_ : v.low), coset(kFolded ? v.coset : nullptr),
        unit_bottom(!kFolded || s_.lo > 0 || v.unit_bottom), scaled(kFolded && s_.lo == 0 && v.scaled),
        wide(kWideCode && s_.lo > 0 ? v.wide : nullptr), winv(v.wide_inverse), wcoset(kFolded && v.wide_coset) {
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

  /// Data to shared memory; C[b'][col] = ω_{2^(lo+b'+1)}^jlow = ω_n^(jlow·2^(k−lo−b'−1)), or with the wide table
  /// the stage twiddles (stage_twiddles' table) read from it.
  PROOFLINE_HD void load(unsigned tid, unsigned nthr) {
    for (unsigned e = tid; e < elems(); e += nthr) st_elem(sm + slot(e), ld_elem(x + addr(e)));
    if (!twist) return;
    if (kWideCode && wide) {  // the stage twiddles straight from the wide table, their loads beside the data's
      F* out = sm_tw();
      for (unsigned i = tid; i < (((1u << (s.t - 1)) - 1) << s.c); i += nthr) {
        const unsigned idx = i >> s.c, col = i & cmask, brel = log2_floor(idx + 1);
        out[i] = wide_twiddle(brel, idx + 1 - (1u << brel), col);
      }
      return;
    }
    const TableLayout lay = TableLayout::for_log(s.k);
    const F* p_lo = tw + kRoots;
    const F* p_hi = p_lo + lay.lo_count();
    F* col_roots = sm_col();
    for (unsigned i = tid; i < (s.t << s.c); i += nthr) {
      const unsigned brel = i >> s.c, col = i & cmask;
      const uint64_t e = ((low_fixed << s.c) | col) << (s.k - s.lo - brel - 1);
      F r = p_lo[e & (lay.lo_count() - 1)] * p_hi[e >> lay.lbits];
      if (kFolded && coset) r = r * coset[s.lo + brel];  // G_b of the absolute stage b = lo + b'
      col_roots[i] = r;
    }
  }

  /// The twiddles of stages b' <= t − 2: sm_tw[(2^b' − 1 + j') << c | col] = R[2^b' − 1 + j']·C[b'][col]
  /// (with the wide table: read in load(), nothing to do here).
  PROOFLINE_HD void stage_twiddles(unsigned tid, unsigned nthr) {
    if (kWideCode && wide) return;
    const F* col_roots = sm_col();
    F* out = sm_tw();
    for (unsigned i = tid; i < (((1u << (s.t - 1)) - 1) << s.c); i += nthr) {
      const unsigned idx = i >> s.c, col = i & cmask;
      out[i] = tw[idx] * col_roots[(log2_floor(idx + 1) << s.c) | col];
    }
  }

  /// With the wide table (upper groups): the twiddle of stage b' for the row part j' and column col,
  /// τ^E = ±W[E mod n] (build_wide_table), E = j·2^(k−b) (plain) or (2j + 1)·2^(k−1−b) (coset τ),
  /// negated mod 2n for the inverse direction; b = lo + b', j = j'·2^lo + jlow.
  PROOFLINE_HD F wide_twiddle(unsigned brel, unsigned jr, unsigned col) const {
    const unsigned b = s.lo + brel;
    const uint64_t n = uint64_t{1} << s.k;
    const uint64_t j = (uint64_t(jr) << s.lo) | (low_fixed << s.c) | col;
    const uint64_t e0 = wcoset ? (2 * j + 1) << (s.k - 1 - b) : j << (s.k - b);
    const uint64_t e = winv ? (2 * n - e0) & (2 * n - 1) : e0;
    const F w = ld_elem(wide + (e & (n - 1)));
    return (e & n) ? -w : w;
  }

  /// The twiddle of stage b' for the row part j' and column col: ω_{2^(lo+b'+1)}^(j'·2^lo + jlow).
  PROOFLINE_HD F twiddle(unsigned brel, unsigned jr, unsigned col) const {
    const unsigned idx = (1u << brel) - 1 + jr;
    if (!twist) return low[idx];  // the lowest group: R or R' (LowTable) as is
    if (kWideCode && wide && brel + 1 == s.t) return wide_twiddle(brel, jr, col);  // top stage: from the wide table
    if (brel + 1 == s.t) return tw[idx] * sm_col()[(brel << s.c) | col];  // top stage: R·C here (all distinct)
    return sm_tw()[(idx << s.c) | col];
  }

  /// One radix-2 butterfly on (u, v) with twiddle w (unit: w = 1, not read); lam: u's side also
  /// times *lam (the bottom stage of a scaled variant; w then holds λ·G_0).
  PROOFLINE_HD static void butterfly(F& u, F& v, const F& w, bool unit, const F* lam) {
    if (kDif) {
      F d = u - v;
      u = u + v;
      if (lam) u = u * *lam;
      if (!unit) d = d * w;
      v = d;
    } else {
      F vw = v;
      if (!unit) vw = vw * w;
      if (lam) u = u * *lam;
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
      v[i] = ld_elem(sm + at[i]);
    }
    PROOFLINE_UNROLL
    for (unsigned kk = 0; kk < S; ++kk) {
      const unsigned k = kDif ? S - 1 - kk : kk;
      const unsigned d = 1u << k;
      const bool bottom = bl + k == 0 && !twist;  // stage b = 0: twiddle R[0] = 1 unless a variant's R'[0]
      const bool unit_twiddle = bottom && (!kFolded || unit_bottom);
      if (kFolded && bottom && scaled) {  // jl = 0 and d = 1 here: one twiddle, λ·G_0
        const F w = low[0], lam = low[kLowLambda];
        PROOFLINE_UNROLL
        for (unsigned i = 0; i < E; i += 2) butterfly(v[i], v[i + 1], w, false, &lam);
        continue;
      }
      PROOFLINE_UNROLL
      for (unsigned jj = 0; jj < d; ++jj) {
        F w;
        if (!unit_twiddle) w = twiddle(bl + k, jl + jj * hl, col);
        PROOFLINE_UNROLL
        for (unsigned i = jj; i < E; i += 2 * d) butterfly(v[i], v[i + d], w, unit_twiddle, nullptr);
      }
    }
    PROOFLINE_UNROLL
    for (unsigned i = 0; i < E; ++i) st_elem(sm + at[i], v[i]);
  }

  PROOFLINE_HD void store(unsigned tid, unsigned nthr) {
    for (unsigned e = tid; e < elems(); e += nthr) st_elem(x + addr(e), ld_elem(sm + slot(e)));
  }
};

}  // namespace proofline::gpu::ntt_group
