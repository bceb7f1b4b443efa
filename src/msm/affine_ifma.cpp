// msm: the 8-lane IFMA batches of affine G1 / G2 additions (see proofline/msm/affine_ifma.hpp).
#include "proofline/msm/affine_ifma.hpp"

#include <memory>
#include <new>
#include <string>
#include <type_traits>

#include "proofline/ff/fp.hpp"
#include "proofline/ff/fp_ifma.hpp"
#include "proofline/util/error.hpp"

namespace proofline::msm::detail {

#if defined(PROOFLINE_IFMA_BUILD)
namespace {

using namespace ff::ifma;

#define IFMA_FN __attribute__((target("avx512f,avx512ifma")))

/// Lane-field adaptors: the vector type, loads/stores at byte addresses (Fp: 6 words; Fp2: c0 then
/// c1, 12 words; eq: lanes whose two addresses hold equal values), and how the denominators enter
/// Montgomery's trick, whose chains always run over Fp.
struct LaneFp {
  using V = Fp8;
  static constexpr unsigned kBytes = 48;
  static IFMA_FN V gather_eq(__m512i a, __m512i b, V& vb, __mmask8& eq) {
    __m512i w[6], u[6];
    const V va = gather(a, w);
    vb = gather(b, u);
    eq = 0xFF;
    for (int k = 0; k < 6; ++k) eq &= _mm512_cmpeq_epi64_mask(w[k], u[k]);
    return va;
  }
  static IFMA_FN V load_at(__m512i a) {
    __m512i w[6];
    return gather(a, w);
  }
  static IFMA_FN void store_at(__m512i a, __mmask8 mask, const V& v) { scatter(a, mask, v); }
  /// The chain runs over d itself; 1/d is the chain's inverse.
  static IFMA_FN Fp8 chain_value(const V& d) { return d; }
  static IFMA_FN V inverse_from(const V&, const Fp8& inv_chain) { return inv_chain; }
};

struct LaneFp2 {
  using V = Fp2x8;
  static constexpr unsigned kBytes = 96;
  static IFMA_FN V gather_eq(__m512i a, __m512i b, V& vb, __mmask8& eq) {
    __mmask8 e0, e1;
    const __m512i a1 = _mm512_add_epi64(a, bc(48)), b1 = _mm512_add_epi64(b, bc(48));
    V va;
    va.c0 = LaneFp::gather_eq(a, b, vb.c0, e0);
    va.c1 = LaneFp::gather_eq(a1, b1, vb.c1, e1);
    eq = e0 & e1;
    return va;
  }
  static IFMA_FN V load_at(__m512i a) { return {LaneFp::load_at(a), LaneFp::load_at(_mm512_add_epi64(a, bc(48)))}; }
  static IFMA_FN void store_at(__m512i a, __mmask8 mask, const V& v) {
    scatter(a, mask, v.c0);
    scatter(_mm512_add_epi64(a, bc(48)), mask, v.c1);
  }
  /// The chain runs over the norms N(d) = d0² + d1² ∈ Fp (non-zero for d ≠ 0: −1 is not a square
  /// mod p), and 1/d = conj(d)/N(d): 4 Fp multiplies per entry for the trick instead of 9.
  static IFMA_FN Fp8 chain_value(const V& d) { return add(sqr(d.c0), sqr(d.c1)); }
  static IFMA_FN V inverse_from(const V& d, const Fp8& inv_norm) {
    Fp8 zero;
    for (int j = 0; j < 8; ++j) zero.l[j] = _mm512_setzero_si512();
    return {mul(d.c0, inv_norm), sub(zero, mul(d.c1, inv_norm))};
  }
};

/// Per-thread scratch: for each group of 8 entries, the chain prefix and the denominator.
struct Scratch {
  struct Deleter {
    void operator()(u64* p) const { ::operator delete[](p, std::align_val_t{64}); }
  };
  std::unique_ptr<u64, Deleter> mem;
  std::size_t words = 0;
  u64* get(std::size_t w) {
    if (w > words) {
      mem.reset(static_cast<u64*>(::operator new[](w * sizeof(u64), std::align_val_t{64})));
      words = w;
    }
    return mem.get();
  }
};
thread_local Scratch t_scratch;

/// Stores / loads a lane value as consecutive 512-bit vectors.
template <class V>
IFMA_FN void spill(u64* dst, const V& a) {
  static_assert(sizeof(V) % 64 == 0);
  const __m512i* src = reinterpret_cast<const __m512i*>(&a);
  for (std::size_t j = 0; j < sizeof(V) / 64; ++j) _mm512_store_si512(dst + 8 * j, src[j]);
}
template <class V>
IFMA_FN V unspill(const u64* src) {
  V a;
  __m512i* dst = reinterpret_cast<__m512i*>(&a);
  for (std::size_t j = 0; j < sizeof(V) / 64; ++j) dst[j] = _mm512_load_si512(src + 8 * j);
  return a;
}

/// Addresses of group g (lanes past m repeat lane 0's, which is always present).
IFMA_FN __m512i addr8(const std::uintptr_t* a, std::size_t g, __mmask8 active) {
  return _mm512_mask_loadu_epi64(bc(a[8 * g]), active, a + 8 * g);
}

IFMA_FN Fp8 select(__mmask8 take_b, const Fp8& a, const Fp8& b) {
  Fp8 r;
  for (int j = 0; j < 8; ++j) r.l[j] = _mm512_mask_mov_epi64(a.l[j], take_b, b.l[j]);
  return r;
}

template <class L>
IFMA_FN void run(const std::uintptr_t* xp, const std::uintptr_t* yp, const std::uintptr_t* q,
                 const std::uint8_t* neg, std::size_t m, std::uint8_t* special) {
  using V = typename L::V;
  constexpr std::size_t kW = sizeof(Fp8) / 8;  // words per spilled chain value
  const std::size_t G = (m + 7) / 8;
  u64* buf = t_scratch.get(G * 2 * kW);
  const Fp8 one = one8();
  Fp8 acc = one;
  for (std::size_t g = 0; g < G; ++g) {
    const std::size_t lanes = m - 8 * g < 8 ? m - 8 * g : 8;
    const __mmask8 active = static_cast<__mmask8>((1u << lanes) - 1);
    V x2;
    __mmask8 eq;
    const V x1 = L::gather_eq(addr8(xp, g, active), addr8(q, g, active), x2, eq);
    const Fp8 d = select(static_cast<__mmask8>(~active | eq), L::chain_value(sub(x1, x2)), one);
    for (std::size_t i = 0; i < lanes; ++i) special[8 * g + i] = (eq >> i) & 1;
    spill(buf + 2 * kW * g, acc);
    spill(buf + 2 * kW * g + kW, d);
    acc = mul(acc, d);
  }
  // Invert the 8 chain products together: c_i = Π_{k≤i} a_k, one inversion, then back.
  ff::Fp a[8], c[8], inv[8];
  store(a, reduce_full(acc));
  c[0] = a[0];
  for (int i = 1; i < 8; ++i) c[i] = c[i - 1] * a[i];
  ff::Fp t = c[7].inverse();
  for (int i = 7; i > 0; --i) {
    inv[i] = t * c[i - 1];
    t = t * a[i];
  }
  inv[0] = t;
  Fp8 iv = load(inv);
  for (std::size_t g = G; g-- > 0;) {
    const std::size_t lanes = m - 8 * g < 8 ? m - 8 * g : 8;
    const __mmask8 active = static_cast<__mmask8>((1u << lanes) - 1);
    const Fp8 ic = mul(iv, unspill<Fp8>(buf + 2 * kW * g));  // 1 / chain value
    iv = mul(iv, unspill<Fp8>(buf + 2 * kW * g + kW));
    __mmask8 ng = 0, write = 0;
    for (std::size_t l = 0; l < lanes; ++l) {
      ng |= static_cast<__mmask8>((neg[8 * g + l] != 0) << l);
      write |= static_cast<__mmask8>((special[8 * g + l] == 0) << l);
    }
    const __m512i qa = addr8(q, g, active);
    const __m512i qy = _mm512_add_epi64(qa, bc(L::kBytes));
    const V x1 = L::load_at(addr8(xp, g, active));
    const V y1 = cond_neg(L::load_at(addr8(yp, g, active)), ng);
    const V x2 = L::load_at(qa);
    const V y2 = L::load_at(qy);
    const V i = L::inverse_from(sub(x1, x2), ic);  // 1/d
    const V lambda = mul(sub(y1, y2), i);
    const V x3 = sub(sub(sqr(lambda), x2), x1);
    const V y3 = sub(mul(lambda, sub(x2, x3)), y2);
    L::store_at(qa, write, reduce_full(x3));
    L::store_at(qy, write, reduce_full(y3));
  }
}

}  // namespace
#endif

namespace {
[[noreturn]] void refuse(const char* fn) {
  throw ProoflineError(Error::BadArgument, std::string("msm: ") + fn +
                                               ": the AVX-512 IFMA path is off or unsupported (expected "
                                               "ff::ifma_enabled())");
}
}  // namespace

namespace {
struct LaneNone {};
#if defined(PROOFLINE_IFMA_BUILD)
using G1Lane = LaneFp;
using G2Lane = LaneFp2;
#else
using G1Lane = LaneNone;
using G2Lane = LaneNone;
#endif

template <class L>
void checked_run(const char* fn, const std::uintptr_t* xp, const std::uintptr_t* yp, const std::uintptr_t* q,
                 const std::uint8_t* neg, std::size_t m, std::uint8_t* special) {
  if (m == 0) return;
  if (!ff::ifma_enabled()) refuse(fn);
  if constexpr (!std::is_same_v<L, LaneNone>) run<L>(xp, yp, q, neg, m, special);
}
}  // namespace

void g1_affine_add_batch_ifma(const std::uintptr_t* xp, const std::uintptr_t* yp, const std::uintptr_t* q,
                              const std::uint8_t* neg, std::size_t m, std::uint8_t* special) {
  checked_run<G1Lane>("g1_affine_add_batch_ifma", xp, yp, q, neg, m, special);
}

void g2_affine_add_batch_ifma(const std::uintptr_t* xp, const std::uintptr_t* yp, const std::uintptr_t* q,
                              const std::uint8_t* neg, std::size_t m, std::uint8_t* special) {
  checked_run<G2Lane>("g2_affine_add_batch_ifma", xp, yp, q, neg, m, special);
}

}  // namespace proofline::msm::detail
