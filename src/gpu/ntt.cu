// src/gpu/ntt.cu — radix-2 NTT over Fr on the device; see include/proofline/gpu/ntt.hpp.
//
// Kernel structure: a "group" kernel performs t consecutive butterfly stages on the index bits
// [lo, lo + t) of every element (t <= 9), one block per 2^t rows × 2^c adjacent columns in shared
// memory, two stages per barrier in registers (radix 4; 8 and 2 selectable); the per-block work (index math, twiddles
// from the small tables) is the template ntt_group::GroupBlock of src/gpu/ntt_group.cuh, which the
// host emulation test runs with ff::Fr.
//   DIF (Gentleman–Sande), stages from the highest bit down: natural in, bit-reversed out.
//   DIT (Cooley–Tukey), stages from the lowest bit up:      bit-reversed in, natural out.
// Stage b (butterfly distance 2^b) uses ω_{2^(b+1)}^j with j = index mod 2^b, made from the 511 group
// roots R and the two-level powers of ω_n (ntt_group.cuh); no n-sized table.
// Cosets, 1/n and H's Z^{-1} are folded into the twiddles by default (ntt_group::Variant, ntt.hpp);
// PROOFLINE_NTT_LEGACY=1 runs them as element-wise passes as before (both share the group and
// bit-reversal kernels, which move elements as 16-byte words).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_buffer.cuh"
#include "ff.cuh"
#include "ntt_group.cuh"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/ntt.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"

namespace proofline::gpu {

namespace {

using ntt_group::kThreads;
constexpr unsigned kPowLoBits = 14;     // coset powers: lo table of 2^14, hi table of n / 2^14

inline cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }
inline DevFr* dev(ff::Fr* p) { return reinterpret_cast<DevFr*>(p); }
inline DevFr to_dev(const ff::Fr& f) {
  DevFr d;
  static_assert(sizeof(d) == sizeof(f));
  std::memcpy(&d, &f, sizeof(d));
  return d;
}

__device__ __forceinline__ uint64_t bitrev(uint64_t i, unsigned lg) {
  return lg == 0 ? 0 : (__brevll(i) >> (64 - lg));
}

/// One group of stages (ntt_group::GroupBlock): its phases with a barrier between each two, at least
/// kMinBlocks blocks per SM. The groups above the lowest hold 99 KiB of shared memory (2 blocks per
/// SM whatever their registers), so they run with kMinBlocks = 2 (at most 128 registers: radix 4
/// takes 110 and spills nothing); the lowest group (16 KiB) with 3 (80 registers: radix 4 spills
/// 32–88 bytes, radix 2 nothing), radix 8 always with 2.
/// kFolded: any ntt_group::Variant (the folded path's inverse, coset and H passes); false: the plain
/// transform, var ignored (no λ or coset code, so the forward kernels keep their registers).
/// kUpper false: a kernel that only ever runs the lowest group (radix 4's own launch bounds), compiled
/// without the wide table's code (dead there: the lowest group reads no wide twiddle), so that its
/// registers stay as before the wide table.
template <bool kDif, unsigned kRadixLog, unsigned kMinBlocks, bool kFolded, bool kUpper = true>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    ntt_group_kernel(DevFr* __restrict__ x, const DevFr* __restrict__ tw, ntt_group::GroupSpec spec,
                     ntt_group::Variant<DevFr> var) {
  extern __shared__ __align__(16) DevFr sm[];  // 16-byte words (ntt_group::ld_elem)
  ntt_group::GroupBlock<DevFr, kDif, kRadixLog, kFolded, kUpper> g(x, tw, sm, spec, blockIdx.x, var);
  const unsigned phases = g.num_phases();
  for (unsigned p = 0; p < phases; ++p) {
    g.phase(p, threadIdx.x, blockDim.x);
    if (p + 1 < phases) __syncthreads();
  }
}

/// Stages per register round: PROOFLINE_NTT_RADIX=2, 4 or 8 in the environment picks 1, 2 or 3 (for
/// comparing the variants on a device); unset: ntt_group::kDefaultRadixLog. Anything else throws
/// std::invalid_argument naming the variable.
unsigned ntt_radix_log() {
  static const unsigned r = [] {
    const char* e = std::getenv("PROOFLINE_NTT_RADIX");
    const std::string v = e ? e : "";
    if (v.empty()) return ntt_group::kDefaultRadixLog;
    if (v == "8") return 3u;
    if (v == "4") return 2u;
    if (v == "2") return 1u;
    throw std::invalid_argument("PROOFLINE_NTT_RADIX=" + v + ": expected 2, 4 or 8");
  }();
  return r;
}

/// Column bits of the groups above the lowest: PROOFLINE_NTT_COLS=1 or 2 (default; ntt_group::plan).
/// Anything else throws std::invalid_argument naming the variable.
unsigned ntt_col_bits() {
  static const unsigned c = [] {
    const char* e = std::getenv("PROOFLINE_NTT_COLS");
    const std::string v = e ? e : "";
    if (v.empty() || v == "2") return 2u;
    if (v == "1") return 1u;
    throw std::invalid_argument("PROOFLINE_NTT_COLS=" + v + ": expected 1 or 2");
  }();
  return c;
}

/// PROOFLINE_NTT_LEGACY=1 in the environment runs the transforms as before issue 30's item 3 (coset
/// powers, 1/n and Z^{-1} as separate element-wise passes); unset or 0: the folded path (coset and
/// constant factors in the twiddles, see ntt.hpp). Anything else throws std::invalid_argument.
bool ntt_legacy() {
  static const bool l = [] {
    const char* e = std::getenv("PROOFLINE_NTT_LEGACY");
    const std::string v = e ? e : "";
    if (v.empty() || v == "0") return false;
    if (v == "1") return true;
    throw std::invalid_argument("PROOFLINE_NTT_LEGACY=" + v + ": expected 0 or 1");
  }();
  return l;
}

/// The kernel of one group: rlog stages per round; lowest: the group on bits [0, t) (see
/// ntt_group_kernel for the launch bounds of each).
template <bool kDif, bool kFolded>
auto group_kernel(unsigned rlog, bool lowest) {
  if (rlog == 3) return ntt_group_kernel<kDif, 3, 2, kFolded>;
  if (rlog == 2) return lowest ? ntt_group_kernel<kDif, 2, 3, kFolded, false> : ntt_group_kernel<kDif, 2, 2, kFolded>;
  return ntt_group_kernel<kDif, 1, 3, kFolded>;
}
template <bool kFolded>
auto pick_group_kernel(bool dif, unsigned rlog, bool lowest) {
  return dif ? group_kernel<true, kFolded>(rlog, lowest) : group_kernel<false, kFolded>(rlog, lowest);
}

/// out[i] = base^(i·step) for i < count.
__global__ void powers_kernel(DevFr* out, DevFr base, uint64_t count) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += uint64_t(gridDim.x) * blockDim.x) {
    out[i] = base.pow(i);
  }
}

__global__ void bitrev_kernel(DevFr* x, unsigned lg, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t j = bitrev(i, lg);
    if (i < j) {
      DevFr a = x[i];
      x[i] = x[j];
      x[j] = a;
    }
  }
}

/// In-place bit reversal for lg >= 2·kRevTileBits, coalesced: write i = (h, m, l) with h, l of
/// kRevTileBits = 4 bits each (h on top) and m the lg − 8 middle bits; rev(i) = (rev(l), rev(m),
/// rev(h)), so tile m (its 16 × 16 (h, l) elements, loaded as 16 runs of 16 adjacent elements)
/// lands transposed in tile rev(m). Block m swaps the tiles m and rev(m) (blocks with m > rev(m)
/// do nothing). Replaces a per-element swap that read and wrote 32-byte elements at scattered
/// addresses (13 ms of a 75 ms forward NN transform at 2^27 on the H200).
/// Every access is a 16-byte word (half an element): a warp reads or writes one 512-byte run with
/// LDG/STG.128 (the elements' own type, 4-byte aligned, made eight 32-bit accesses of which each
/// warp-wide one touched 32 sectors: 8.4 ms at 2^27, L1-bound). Shared memory holds word (row, col,
/// half) at (row·16 + (col ^ ((row >> 2) & 3)))·2 + half: the writes (one row, 4 adjacent columns
/// per 8 lanes) and the transposed reads (4 rows rev(l) whose bits 2–3 all differ, one column) each
/// hit 8 distinct 16-byte bank groups per quarter warp.
constexpr unsigned kRevTileBits = 4;
constexpr unsigned kRevThreads = 256;
__device__ __forceinline__ unsigned rev_tile_word(unsigned row, unsigned col, unsigned half) {
  return ((row << kRevTileBits) + (col ^ ((row >> 2) & 3u))) * 2 + half;
}
__global__ void __launch_bounds__(kRevThreads) bitrev_tiled_kernel(DevFr* __restrict__ x, unsigned lg) {
  constexpr unsigned T = 1u << kRevTileBits, kWords = 2 * T * T;  // 16-byte words per tile
  __shared__ uint4 a[kWords], b[kWords];
  const unsigned mid = lg - 2 * kRevTileBits;
  const uint64_t m = blockIdx.x, mr = bitrev(m, mid);
  if (m > mr) return;
  uint4* xw = reinterpret_cast<uint4*>(x);
  for (unsigned q = threadIdx.x; q < kWords; q += kRevThreads) {
    const unsigned h = q >> (kRevTileBits + 1), l = (q >> 1) & (T - 1), half = q & 1;
    const uint64_t row = uint64_t(h) << (mid + kRevTileBits);
    const uint64_t at_m = row | (m << kRevTileBits) | l, at_mr = row | (mr << kRevTileBits) | l;
    a[rev_tile_word(h, l, half)] = xw[2 * at_m + half];
    b[rev_tile_word(h, l, half)] = xw[2 * at_mr + half];
  }
  __syncthreads();
  for (unsigned q = threadIdx.x; q < kWords; q += kRevThreads) {
    const unsigned h = q >> (kRevTileBits + 1), l = (q >> 1) & (T - 1), half = q & 1;
    const unsigned hr = __brev(h) >> (32 - kRevTileBits), lr = __brev(l) >> (32 - kRevTileBits);
    const uint64_t row = uint64_t(h) << (mid + kRevTileBits);
    const uint64_t at_m = row | (m << kRevTileBits) | l, at_mr = row | (mr << kRevTileBits) | l;
    xw[2 * at_mr + half] = a[rev_tile_word(lr, hr, half)];
    xw[2 * at_m + half] = b[rev_tile_word(lr, hr, half)];
  }
}

/// out[i] = lo[i & mask]·hi[i >> lo_bits] for i < n (the wide table from two levels of powers).
__global__ void two_level_powers_kernel(DevFr* __restrict__ out, const DevFr* __restrict__ lo,
                                        const DevFr* __restrict__ hi, unsigned lo_bits, uint64_t n) {
  const uint64_t mask = (uint64_t{1} << lo_bits) - 1;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    out[i] = lo[i & mask] * hi[i >> lo_bits];
}

/// x[p] *= lo[e & mask]·hi[e >> lo_bits]·scale, e = p or bitrev(p).
__global__ void scale_powers_kernel(DevFr* x, const DevFr* lo, const DevFr* hi, DevFr scale,
                                    unsigned lg, unsigned lo_bits, bool bitrev_positions, uint64_t n) {
  const uint64_t mask = (uint64_t{1} << lo_bits) - 1;
  for (uint64_t p = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; p < n;
       p += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t e = bitrev_positions ? bitrev(p, lg) : p;
    x[p] = x[p] * (lo[e & mask] * (hi[e >> lo_bits] * scale));
  }
}

/// x[i] *= s.
__global__ void scale_kernel(DevFr* x, DevFr s, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    x[i] = x[i] * s;
  }
}

/// a[i] = (a[i]·b[i] − c[i])·z_inv.
__global__ void abc_kernel(DevFr* a, const DevFr* b, const DevFr* c, DevFr z_inv, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    a[i] = (a[i] * b[i] - c[i]) * z_inv;
  }
}

/// c[p] = a[p]·b[p] − c[p] (same position: each thread reads and writes only its own p).
__global__ void ab_minus_c_kernel(DevFr* c, const DevFr* a, const DevFr* b, uint64_t n) {
  for (uint64_t p = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; p < n;
       p += uint64_t(gridDim.x) * blockDim.x) {
    c[p] = a[p] * b[p] - c[p];
  }
}

/// a[i] = a[i]·b[i] − c[i] (the folded path's combine: Z^{-1} rides on the inverse transform).
__global__ void ab_minus_c_into_a_kernel(DevFr* a, const DevFr* b, const DevFr* c, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    a[i] = a[i] * b[i] - c[i];
  }
}

/// a[i] −= b[i].
__global__ void sub_kernel(DevFr* a, const DevFr* b, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    a[i] = a[i] - b[i];
  }
}

/// a[i] *= b[i].
__global__ void mul_kernel(DevFr* a, const DevFr* b, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    a[i] = a[i] * b[i];
  }
}

/// ab[i] = (ab[i] − c[i])·z_inv (abc_kernel with a·b already formed).
__global__ void ab_minus_c_scaled_kernel(DevFr* ab, const DevFr* c, DevFr z_inv, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    ab[i] = (ab[i] - c[i]) * z_inv;
  }
}

/// c[p] = ab[p] − c[p].
__global__ void rsub_kernel(DevFr* c, const DevFr* ab, uint64_t n) {
  for (uint64_t p = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; p < n;
       p += uint64_t(gridDim.x) * blockDim.x) {
    c[p] = ab[p] - c[p];
  }
}

/// out[i] = in[j·i mod n] (n a power of two, j odd: a permutation; out and in do not overlap).
__global__ void gather_mul_index_kernel(DevFr* __restrict__ out, const DevFr* __restrict__ in, uint64_t j,
                                        uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    out[i] = in[(j * i) & (n - 1)];
  }
}

/// The group and bit-reversal kernels move elements as 16-byte words (ntt_group::ld_elem).
void check_aligned(const void* d_x, const char* op) {
  if (reinterpret_cast<std::uintptr_t>(d_x) % 16 != 0) {
    throw std::invalid_argument(std::string("gpu::NttDomain::") + op +
                                ": the device pointer is not 16-byte aligned (n elements of 32 bytes from a device allocation are)");
  }
}

unsigned grid_for(uint64_t n) {
  const uint64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < 65536 ? (blocks ? blocks : 1) : 65536);
}

}  // namespace

/// The device tables (see ntt.hpp's private members for what each holds).
struct NttDomain::Tables {
  DeviceBuffer tw_fwd{"NTT forward twiddles"};  // ntt_group::TableLayout: [R (511) | ω^lo | ω^(hi·2^L)]
  DeviceBuffer tw_inv{"NTT inverse twiddles"};  // the same for ω^{-1}
  DeviceBuffer gpow{"NTT coset powers"};        // [g^lo (2^14) | g^(hi·2^14) | g^-lo | g^-(hi·2^14)]
  DeviceBuffer spow{"NTT odd-coset powers"};    // [σ^lo (2^14) | σ^(hi·2^14)]
  DeviceBuffer low{"NTT folded variants"};      // kFoldedTables LowTables (ntt_group::build_low_table)
  DeviceBuffer wide{"NTT wide twiddles"};       // ntt_group::build_wide_table (n elements), or empty
  std::array<ff::Fr, kFoldedTables> lambda{};   // each one's λ, for the empty plan of 2^0
};

NttDomain::NttDomain(unsigned lg_n, bool wide_twiddles) : lg_n_(lg_n) {
  if (lg_n > 31) throw std::invalid_argument("gpu::NttDomain: 2^" + std::to_string(lg_n) + " exceeds the supported 2^31");
  const uint64_t n = size();
  n_inv_ = ff::Fr::from_u64(n).inverse();
  const ff::Fr g = ff::Fr::from_u64(ff::Fr::kGenerator);
  z_inv_on_coset_ = (g.pow(std::array<ff::u64, 1>{n}) - ff::Fr::one()).inverse();
  tau_ = ntt_group::wide_root(lg_n, ff::Fr::root_of_unity());  // ω_{2n}
  n_lo_ = uint64_t{1} << kPowLoBits;
  n_hi_ = (n >> kPowLoBits) + 1;
  odd_coset_j_ = groth16::snarkjs::snarkjs_root_exponent() & (n - 1);

  t_ = std::make_unique<Tables>();
  // Twiddles (≈ 2^(lg_n/2 + 1) elements per direction), built on the host: exact products, so
  // the device reads the same bytes as any other correct computation of the powers.
  const ff::Fr root = ff::Fr::root_of_unity();
  const std::pair<DeviceBuffer*, ff::Fr> twiddles[] = {{&t_->tw_fwd, root}, {&t_->tw_inv, root.inverse()}};
  for (const auto& [buf, r] : twiddles) {
    const std::vector<ff::Fr> tab = ntt_group::build_table(lg_n, r);
    buf->ensure(tab.size() * sizeof(ff::Fr));
    CUDA_CHECK(cudaMemcpy(buf->get(), tab.data(), tab.size() * sizeof(ff::Fr), cudaMemcpyHostToDevice));
  }
  t_->gpow.ensure(2 * (n_lo_ + n_hi_) * sizeof(ff::Fr));
  t_->spow.ensure((n_lo_ + n_hi_) * sizeof(ff::Fr));
  // Power tables base^i, read as lo[e & (2^14 − 1)]·hi[e >> 14]: g, g^{-1} (bellperson's coset) and
  // σ = ffjavascript's ω_{2n} (snarkjs' odd coset, groth16/snarkjs/prover.hpp).
  const ff::Fr g_inv = g.inverse();
  const ff::Fr sigma = groth16::snarkjs::snarkjs_root_of_unity(lg_n + 1);
  const std::pair<DevFr*, ff::Fr> tables[] = {{t_->gpow.as<DevFr>(), g},
                                              {t_->gpow.as<DevFr>() + n_lo_ + n_hi_, g_inv},
                                              {t_->spow.as<DevFr>(), sigma}};
  for (const auto& [out, base] : tables) {
    powers_kernel<<<grid_for(n_lo_), kThreads>>>(out, to_dev(base), n_lo_);
    CUDA_CHECK(cudaGetLastError());
    powers_kernel<<<grid_for(n_hi_), kThreads>>>(out + n_lo_, to_dev(base.pow(std::array<ff::u64, 1>{n_lo_})),
                                                n_hi_);
    CUDA_CHECK(cudaGetLastError());
  }
  // The folded variants (ntt.hpp's Folded, in order): [R' (511) | λ | G (32)] each.
  {
    const ff::Fr w = root, wi = root.inverse(), one = ff::Fr::one();
    const ff::Fr lam_z = z_inv_on_coset_ * n_inv_;
    const ff::Fr lam_z_tau = (tau_.pow(std::array<ff::u64, 1>{n}) - one).inverse() * n_inv_;  // τ^n − 1 = −2
    const struct {
      ff::Fr root, gamma, lambda;
    } spec[kFoldedTables] = {
        {wi, one, n_inv_},     // Inverse: 1/n
        {w, g, one},           // CosetGen: γ = g
        {w, sigma, one},       // CosetSigma: γ = σ
        {wi, g_inv, n_inv_},   // CosetGenInv: γ = g^{-1}, 1/n
        {wi, g_inv, lam_z},    // CosetGenInvZ: γ = g^{-1}, Z^{-1}/n
        {w, tau_, one},                  // CosetTau: γ = τ
        {wi, tau_.inverse(), lam_z_tau},  // CosetTauInvZ: γ = τ^{-1}, Z_τ^{-1}/n
    };
    std::vector<ff::Fr> all;
    all.reserve(kFoldedTables * ntt_group::kLowCount);
    for (unsigned i = 0; i < kFoldedTables; ++i) {
      const std::vector<ff::Fr> tab = ntt_group::build_low_table(lg_n, spec[i].root, spec[i].gamma, spec[i].lambda);
      all.insert(all.end(), tab.begin(), tab.end());
      t_->lambda[i] = spec[i].lambda;
    }
    t_->low.ensure(all.size() * sizeof(ff::Fr));
    CUDA_CHECK(cudaMemcpy(t_->low.get(), all.data(), all.size() * sizeof(ff::Fr), cudaMemcpyHostToDevice));
  }
  DeviceBuffer two("NTT wide twiddles (two levels)");  // freed after the synchronization below
  if (wide_twiddles) {  // W[e] = τ^e, e < n: lo[e mod 2^14]·hi[e >> 14], both made by powers_kernel
    two.ensure(sizeof(DevFr) * (n_lo_ + n_hi_));
    t_->wide.ensure(n * sizeof(ff::Fr));
    DevFr* lo = two.as<DevFr>();
    powers_kernel<<<grid_for(n_lo_), kThreads>>>(lo, to_dev(tau_), n_lo_);
    CUDA_CHECK(cudaGetLastError());
    powers_kernel<<<grid_for(n_hi_), kThreads>>>(lo + n_lo_, to_dev(tau_.pow(std::array<ff::u64, 1>{n_lo_})), n_hi_);
    CUDA_CHECK(cudaGetLastError());
    two_level_powers_kernel<<<grid_for(n), kThreads>>>(t_->wide.as<DevFr>(), lo, lo + n_lo_, kPowLoBits, n);
    CUDA_CHECK(cudaGetLastError());
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  for (auto kernel :
       {ntt_group_kernel<true, 3, 2, false>, ntt_group_kernel<false, 3, 2, false>, ntt_group_kernel<true, 2, 2, false>,
        ntt_group_kernel<false, 2, 2, false>, ntt_group_kernel<true, 2, 3, false, false>, ntt_group_kernel<false, 2, 3, false, false>,
        ntt_group_kernel<true, 1, 3, false>, ntt_group_kernel<false, 1, 3, false>, ntt_group_kernel<true, 3, 2, true>,
        ntt_group_kernel<false, 3, 2, true>, ntt_group_kernel<true, 2, 2, true>, ntt_group_kernel<false, 2, 2, true>,
        ntt_group_kernel<true, 2, 3, true, false>, ntt_group_kernel<false, 2, 3, true, false>, ntt_group_kernel<true, 1, 3, true>,
        ntt_group_kernel<false, 1, 3, true>}) {
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    int(sizeof(DevFr) * ntt_group::kMaxSmemElems)));
  }
}

NttDomain::~NttDomain() = default;

std::uint64_t NttDomain::table_bytes() const {
  return t_->tw_fwd.bytes() + t_->tw_inv.bytes() + t_->gpow.bytes() + t_->spow.bytes() + t_->low.bytes() +
         t_->wide.bytes();
}

bool NttDomain::wide_twiddles() const { return t_->wide.bytes() != 0;
}

void NttDomain::run_pass(ff::Fr* d_x, Pass pass, void* stream, Folded folded) const {
  check_aligned(d_x, "transform");
  const bool dif = pass == Pass::DifForward || pass == Pass::DifInverse;
  const bool fwd = pass == Pass::DifForward || pass == Pass::DitForward;
  const DevFr* tw = (fwd ? t_->tw_fwd : t_->tw_inv).as<const DevFr>();
  ntt_group::Variant<DevFr> var;  // plain: the direction's R, bottom twiddle 1, no λ
  if (folded != Folded::None) {
    const unsigned i = unsigned(folded) - 1;
    const DevFr* low = t_->low.as<const DevFr>() + std::size_t{i} * ntt_group::kLowCount;
    const bool coset = folded != Folded::Inverse;
    var.low = low;
    var.coset = coset ? low + ntt_group::kLowCoset : nullptr;
    var.unit_bottom = false;
    var.scaled = !(t_->lambda[i] == ff::Fr::one());
  }
  // The wide table serves the plain twiddles of both directions and the coset τ^{±1}, not g or σ.
  if (t_->wide.bytes() != 0 &&
      (folded == Folded::None || folded == Folded::Inverse || folded == Folded::CosetTau ||
       folded == Folded::CosetTauInvZ)) {
    var.wide = t_->wide.as<const DevFr>();
    var.wide_inverse = !fwd;
    var.wide_coset = folded == Folded::CosetTau || folded == Folded::CosetTauInvZ;
  }
  const unsigned rlog = ntt_radix_log();
  const std::vector<ntt_group::GroupSpec> plan = ntt_group::plan(lg_n_, dif, ntt_col_bits());
  for (const ntt_group::GroupSpec& spec : plan) {
    const auto kernel = folded == Folded::None ? pick_group_kernel<false>(dif, rlog, spec.lo == 0)
                                               : pick_group_kernel<true>(dif, rlog, spec.lo == 0);
    const size_t smem = sizeof(DevFr) * spec.smem_elems();
    kernel<<<unsigned(spec.blocks()), spec.threads(rlog), smem, as_stream(stream)>>>(dev(d_x), tw, spec, var);
    CUDA_CHECK(cudaGetLastError());
  }
  if (plan.empty() && var.scaled) {  // 2^0: no stage to carry λ (a coset of one point is the identity)
    const unsigned i = unsigned(folded) - 1;
    scale_kernel<<<1, 1, 0, as_stream(stream)>>>(dev(d_x), to_dev(t_->lambda[i]), size());
    CUDA_CHECK(cudaGetLastError());
  }
}

void NttDomain::bit_reverse(ff::Fr* d_x, void* stream) const {
  check_aligned(d_x, "bit reversal");
  if (lg_n_ >= 2 * kRevTileBits) {  // lg_n_ <= 31: at most 2^23 blocks
    bitrev_tiled_kernel<<<1u << (lg_n_ - 2 * kRevTileBits), kRevThreads, 0, as_stream(stream)>>>(
        dev(d_x), lg_n_);
    CUDA_CHECK(cudaGetLastError());
    return;
  }
  bitrev_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_x), lg_n_, size());
  CUDA_CHECK(cudaGetLastError());
}

void NttDomain::scale_powers(ff::Fr* d_x, Powers powers, bool bitrev_positions, const ff::Fr& scale,
                             void* stream) const {
  const DevFr* base = powers == Powers::Sigma    ? t_->spow.as<const DevFr>()
                      : powers == Powers::GenInv ? t_->gpow.as<const DevFr>() + n_lo_ + n_hi_
                                                 : t_->gpow.as<const DevFr>();
  scale_powers_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(
      dev(d_x), base, base + n_lo_, to_dev(scale), lg_n_, kPowLoBits, bitrev_positions, size());
  CUDA_CHECK(cudaGetLastError());
}

void NttDomain::forward(ff::Fr* d_x, NttOrder order, void* stream) const {
  switch (order) {
    case NttOrder::NR: run_pass(d_x, Pass::DifForward, stream); break;
    case NttOrder::RN: run_pass(d_x, Pass::DitForward, stream); break;
    case NttOrder::NN:
      run_pass(d_x, Pass::DifForward, stream);
      bit_reverse(d_x, stream);
      break;
    case NttOrder::RR:
      bit_reverse(d_x, stream);
      run_pass(d_x, Pass::DifForward, stream);
      break;
  }
}

void NttDomain::inverse(ff::Fr* d_x, NttOrder order, void* stream) const {
  if (!ntt_legacy()) {  // 1/n on the bottom stage
    switch (order) {
      case NttOrder::NR: run_pass(d_x, Pass::DifInverse, stream, Folded::Inverse); break;
      case NttOrder::RN: run_pass(d_x, Pass::DitInverse, stream, Folded::Inverse); break;
      case NttOrder::NN:
        run_pass(d_x, Pass::DifInverse, stream, Folded::Inverse);
        bit_reverse(d_x, stream);
        break;
      case NttOrder::RR:
        bit_reverse(d_x, stream);
        run_pass(d_x, Pass::DifInverse, stream, Folded::Inverse);
        break;
    }
    return;
  }
  switch (order) {
    case NttOrder::NR: run_pass(d_x, Pass::DifInverse, stream); break;
    case NttOrder::RN: run_pass(d_x, Pass::DitInverse, stream); break;
    case NttOrder::NN:
      run_pass(d_x, Pass::DifInverse, stream);
      bit_reverse(d_x, stream);
      break;
    case NttOrder::RR:
      bit_reverse(d_x, stream);
      run_pass(d_x, Pass::DifInverse, stream);
      break;
  }
  scale_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_x), to_dev(n_inv_), size());
  CUDA_CHECK(cudaGetLastError());
}

void NttDomain::coset_forward(ff::Fr* d_x, void* stream) const {
  if (!ntt_legacy()) {  // permute, then DIT with g folded into the twiddles → natural order
    bit_reverse(d_x, stream);
    run_pass(d_x, Pass::DitForward, stream, Folded::CosetGen);
    return;
  }
  // coefficient i ·= g^i (natural positions), then DIF → bit-reversed, then permute.
  scale_powers(d_x, Powers::Gen, /*bitrev_positions=*/false, ff::Fr::one(), stream);
  forward(d_x, NttOrder::NN, stream);
}

void NttDomain::coset_inverse(ff::Fr* d_x, void* stream) const {
  if (!ntt_legacy()) {  // DIF with g^{-1} and 1/n folded in → bit-reversed coefficients; permute
    run_pass(d_x, Pass::DifInverse, stream, Folded::CosetGenInv);
    bit_reverse(d_x, stream);
    return;
  }
  // DIF with ω^{-1} → coefficients in bit-reversed positions; scale by g^{-i}/n there; permute.
  run_pass(d_x, Pass::DifInverse, stream);
  scale_powers(d_x, Powers::GenInv, /*bitrev_positions=*/true, n_inv_, stream);
  bit_reverse(d_x, stream);
}

void NttDomain::h_column(ff::Fr* d_x, bool odd_coset, void* stream) const {
  if (!ntt_legacy()) {  // iNTT (DIF, 1/n folded) → bit-reversed coefficients; DIT with g or σ folded
    run_pass(d_x, Pass::DifInverse, stream, Folded::Inverse);
    run_pass(d_x, Pass::DitForward, stream,
             odd_coset ? Folded::CosetSigma : wide_twiddles() ? Folded::CosetTau : Folded::CosetGen);
    return;
  }
  // iNTT (DIF, natural → bit-reversed coefficients), coefficient i ·= base^i/n in place (bit-reversed
  // positions; base = g for bellperson's coset, σ for snarkjs' odd coset), DIT (bit-reversed →
  // natural evaluations on the coset).
  run_pass(d_x, Pass::DifInverse, stream);
  scale_powers(d_x, odd_coset ? Powers::Sigma : Powers::Gen, /*bitrev_positions=*/true, n_inv_, stream);
  run_pass(d_x, Pass::DitForward, stream);
}

void NttDomain::h_combine(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, bool odd_coset, void* stream) const {
  if (!odd_coset && !ntt_legacy()) {
    // a = a·b − c, then the coset iNTT with Z^{-1}/n folded in (DIF → bit-reversed; permute).
    ab_minus_c_into_a_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_a), dev(d_b), dev(d_c),
                                                                                    size());
    CUDA_CHECK(cudaGetLastError());
    run_pass(d_a, Pass::DifInverse, stream, wide_twiddles() ? Folded::CosetTauInvZ : Folded::CosetGenInvZ);
    bit_reverse(d_a, stream);
    return;
  }
  if (!odd_coset) {
    // a = (a·b − c)/Z on the coset, then back to coefficients (coset iNTT).
    abc_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_a), dev(d_b), dev(d_c),
                                                                       to_dev(z_inv_on_coset_), size());
    CUDA_CHECK(cudaGetLastError());
    coset_inverse(d_a, stream);
    return;
  }
  // snarkjs: h_i = (a·b − c) at p = J·i mod n, i.e. at snarkjs' point σ·ω5^i: first
  // c[p] = a[p]·b[p] − c[p] in place, then the gather a[i] = c[J·i mod n] (a permutation, so it cannot
  // be done in place; c is the scratch it reads from).
  ab_minus_c_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_c), dev(d_a), dev(d_b), size());
  CUDA_CHECK(cudaGetLastError());
  gather_mul_index_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_a), dev(d_c), odd_coset_j_,
                                                                                size());
  CUDA_CHECK(cudaGetLastError());
}

void NttDomain::h_mul(ff::Fr* d_a, const ff::Fr* d_b, void* stream) const {
  mul_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_a), reinterpret_cast<const DevFr*>(d_b), size());
  CUDA_CHECK(cudaGetLastError());
}

void NttDomain::h_finish(ff::Fr* d_ab, ff::Fr* d_c, bool odd_coset, void* stream) const {
  if (!odd_coset && !ntt_legacy()) {  // as h_combine: ab − c, then the folded coset iNTT
    sub_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_ab), dev(d_c), size());
    CUDA_CHECK(cudaGetLastError());
    run_pass(d_ab, Pass::DifInverse, stream, wide_twiddles() ? Folded::CosetTauInvZ : Folded::CosetGenInvZ);
    bit_reverse(d_ab, stream);
    return;
  }
  if (!odd_coset) {
    ab_minus_c_scaled_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_ab), dev(d_c),
                                                                                   to_dev(z_inv_on_coset_), size());
    CUDA_CHECK(cudaGetLastError());
    coset_inverse(d_ab, stream);
    return;
  }
  // as h_combine: c[p] = ab[p] − c[p], then the gather ab[i] = c[J·i mod n]
  rsub_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_c), dev(d_ab), size());
  CUDA_CHECK(cudaGetLastError());
  gather_mul_index_kernel<<<grid_for(size()), kThreads, 0, as_stream(stream)>>>(dev(d_ab), dev(d_c), odd_coset_j_,
                                                                                size());
  CUDA_CHECK(cudaGetLastError());
}

std::uint64_t NttDomain::table_bytes_for(std::uint64_t m, bool wide_twiddles) {
  unsigned lg = 0;
  while ((std::uint64_t{1} << lg) < m) ++lg;
  const std::uint64_t n = std::uint64_t{1} << lg;
  const std::uint64_t tw = ntt_group::TableLayout::for_log(lg).count();  // per direction
  const std::uint64_t lo = std::uint64_t{1} << kPowLoBits, hi = (n >> kPowLoBits) + 1;
  return sizeof(ff::Fr) * (2 * tw + 3 * (lo + hi) + std::uint64_t{kFoldedTables} * ntt_group::kLowCount +
                           (wide_twiddles ? n : 0));
}

void NttDomain::compute_h(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, void* stream) const {
  for (ff::Fr* d_x : {d_a, d_b, d_c}) h_column(d_x, /*odd_coset=*/false, stream);
  h_combine(d_a, d_b, d_c, /*odd_coset=*/false, stream);
}

void NttDomain::compute_h_odd_coset(ff::Fr* d_a, ff::Fr* d_b, ff::Fr* d_c, void* stream) const {
  // groth16::snarkjs::OddCosetH::compute on the device (ntt.hpp).
  for (ff::Fr* d_x : {d_a, d_b, d_c}) h_column(d_x, /*odd_coset=*/true, stream);
  h_combine(d_a, d_b, d_c, /*odd_coset=*/true, stream);
}

void NttDomain::check_span(std::size_t len, const char* op) const {
  if (len != size()) {
    throw std::invalid_argument(std::string("gpu::NttDomain::") + op + ": got " + std::to_string(len) +
                                " elements, expected 2^" + std::to_string(lg_n_) + " = " + std::to_string(size()));
  }
}

namespace {
template <class F>
void host_round_trip(std::span<ff::Fr> x, F&& f) {
  DeviceBuffer d(x.size_bytes(), "NTT host round trip");
  CUDA_CHECK(cudaMemcpy(d.get(), x.data(), x.size_bytes(), cudaMemcpyHostToDevice));
  f(d.as<ff::Fr>());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(x.data(), d.get(), x.size_bytes(), cudaMemcpyDeviceToHost));
}

/// b and c on the device for the host forms of compute_h / compute_h_odd_coset.
struct HostBc {
  DeviceBuffer b, c;
  HostBc(std::span<const ff::Fr> hb, std::span<const ff::Fr> hc)
      : b(hb.size_bytes(), "NTT host b"), c(hc.size_bytes(), "NTT host c") {
    CUDA_CHECK(cudaMemcpy(b.get(), hb.data(), hb.size_bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(c.get(), hc.data(), hc.size_bytes(), cudaMemcpyHostToDevice));
  }
};
}  // namespace

void NttDomain::forward_host(std::span<ff::Fr> x, NttOrder order) const {
  check_span(x.size(), "forward_host");
  host_round_trip(x, [&](ff::Fr* d) { forward(d, order); });
}
void NttDomain::inverse_host(std::span<ff::Fr> x, NttOrder order) const {
  check_span(x.size(), "inverse_host");
  host_round_trip(x, [&](ff::Fr* d) { inverse(d, order); });
}
void NttDomain::coset_forward_host(std::span<ff::Fr> x) const {
  check_span(x.size(), "coset_forward_host");
  host_round_trip(x, [&](ff::Fr* d) { coset_forward(d); });
}
void NttDomain::coset_inverse_host(std::span<ff::Fr> x) const {
  check_span(x.size(), "coset_inverse_host");
  host_round_trip(x, [&](ff::Fr* d) { coset_inverse(d); });
}
void NttDomain::compute_h_host(std::span<ff::Fr> a, std::span<const ff::Fr> b, std::span<const ff::Fr> c) const {
  check_span(a.size(), "compute_h_host(a)");
  check_span(b.size(), "compute_h_host(b)");
  check_span(c.size(), "compute_h_host(c)");
  HostBc bc(b, c);
  host_round_trip(a, [&](ff::Fr* d) { compute_h(d, bc.b.as<ff::Fr>(), bc.c.as<ff::Fr>()); });
}
void NttDomain::compute_h_odd_coset_host(std::span<ff::Fr> a, std::span<const ff::Fr> b,
                                         std::span<const ff::Fr> c) const {
  check_span(a.size(), "compute_h_odd_coset_host(a)");
  check_span(b.size(), "compute_h_odd_coset_host(b)");
  check_span(c.size(), "compute_h_odd_coset_host(c)");
  HostBc bc(b, c);
  host_round_trip(a, [&](ff::Fr* d) { compute_h_odd_coset(d, bc.b.as<ff::Fr>(), bc.c.as<ff::Fr>()); });
}

}  // namespace proofline::gpu
