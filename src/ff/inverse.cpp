// Variable-time modular inversion for Fp and Fr: binary extended GCD driven by 64-bit
// approximations (the structure of T. Pornin, "Optimized Binary GCD for Modular Inversion",
// ePrint 2020/972, here without the constant-time discipline: loops stop as soon as a = 0 and the
// inner steps branch on data). VARIABLE TIME: do not use on secret values.
//
// State: a, b ≥ 0 with b odd, u, v in [0, m) such that a ≡ u·y and b ≡ v·y (mod m); start a = y,
// b = m, u = 1, v = 0. One binary-GCD step: if a is odd, (a, b) ← (|a − b|, min(a, b)) (with u, v
// following), then a ← a/2. Each outer round runs 31 steps on the approximations
//   ā = (a mod 2^31) + 2^31·⌊a / 2^(n−33)⌋,  b̄ likewise,  n = max(len a, len b, 64),
// whose low 31 bits are exact, so every parity decision is exact and only the comparisons are
// approximate. The 31 steps are recorded as a matrix (f0 g0; f1 g1), |f|, |g| ≤ 2^31, and applied
// to the full values: a ← (f0·a + g0·b) / 2^31, b ← (f1·a + g1·b) / 2^31 (exact divisions; a
// negative result is negated with its row), and u ← (f0·u + g0·v) / 2^31 mod m (a 31-bit Montgomery
// division), so the invariants hold exactly. When a = 0, b = gcd(y, m) = 1 and v = y^(−1) mod m.
// A wrong comparison only costs progress (Pornin, §3), never correctness.
//
// Montgomery form: the input is A = x·R, v = A^(−1) = x^(−1)·R^(−1), and x^(−1)·R = v·R^2 =
// mont_mul(v, R^3 mod m).
//
// The Legendre symbol uses the binary Jacobi algorithm on exact values (see legendre_impl).
#include <algorithm>
#include <utility>

#include "proofline/ff/fp.hpp"
#include "proofline/ff/fr.hpp"

namespace proofline::ff {

namespace {

using i64 = std::int64_t;
using i128 = __int128;

template <std::size_t N>
using Limbs = detail::Limbs<N>;

/// (f·x + g·y) for x, y < 2^(64N) unsigned, as an (N+1)-limb two's-complement number.
template <std::size_t N>
void lin_comb(u64* out, const u64* x, i64 f, const u64* y, i64 g) {
  i128 carry = 0;
  for (std::size_t i = 0; i < N; ++i) {
    i128 t = carry + static_cast<i128>(f) * static_cast<i128>(x[i]) + static_cast<i128>(g) * static_cast<i128>(y[i]);
    out[i] = static_cast<u64>(t);
    carry = t >> 64;  // arithmetic
  }
  out[N] = static_cast<u64>(carry);
}

/// Negates an (N+1)-limb two's-complement value in place.
template <std::size_t N>
void negate(u64* x) {
  u64 c = 1;
  for (std::size_t i = 0; i <= N; ++i) {
    u64 t = ~x[i] + c;
    c = (c && t == 0) ? 1 : 0;
    x[i] = t;
  }
}

/// a ← (f·a + g·b) >> 31 (exact), made non-negative; returns true if it was negated.
template <std::size_t N>
bool update_ab(Limbs<N>& out, const Limbs<N>& a, i64 f, const Limbs<N>& b, i64 g) {
  u64 t[N + 1];
  lin_comb<N>(t, a.data(), f, b.data(), g);
  bool neg = static_cast<i64>(t[N]) < 0;
  if (neg) negate<N>(t);
  for (std::size_t i = 0; i < N; ++i) out[i] = (t[i] >> 31) | (t[i + 1] << 33);
  return neg;
}

/// u ← (f·u + g·v) / 2^31 mod m for u, v < m.
template <class F>
void update_uv(Limbs<F::kLimbs>& out, const Limbs<F::kLimbs>& u, i64 f, const Limbs<F::kLimbs>& v, i64 g) {
  constexpr std::size_t N = F::kLimbs;
  constexpr u64 kInv31 = F::kInv & ((u64{1} << 31) - 1);  // −m^(−1) mod 2^31
  u64 t[N + 1];
  lin_comb<N>(t, u.data(), f, v.data(), g);
  bool neg = static_cast<i64>(t[N]) < 0;
  if (neg) negate<N>(t);  // |t| < 2^32·m
  // t += q·m with q = t·(−m^(−1)) mod 2^31, so that 2^31 | t; then t / 2^31 < 3m.
  u64 q = (t[0] * kInv31) & ((u64{1} << 31) - 1);
  u128 c = 0;
  for (std::size_t i = 0; i < N; ++i) {
    c += static_cast<u128>(q) * F::kModulus[i] + t[i];
    t[i] = static_cast<u64>(c);
    c >>= 64;
  }
  t[N] += static_cast<u64>(c);
  Limbs<N> r;
  for (std::size_t i = 0; i < N; ++i) r[i] = (t[i] >> 31) | (t[i + 1] << 33);
  while (detail::geq<N>(r, F::kModulus)) {  // at most twice
    u64 br = 0;
    for (std::size_t i = 0; i < N; ++i) r[i] = detail::sbb(r[i], F::kModulus[i], br);
  }
  if (neg && !detail::is_zero<N>(r)) {
    Limbs<N> s{};
    u64 br = 0;
    for (std::size_t i = 0; i < N; ++i) s[i] = detail::sbb(F::kModulus[i], r[i], br);
    r = s;
  }
  out = r;
}

template <std::size_t N>
unsigned bit_len(const Limbs<N>& a) {
  return detail::bit_length<N>(a);
}

/// Bits [lo, lo + 64) of a (zero beyond the top).
template <std::size_t N>
u64 bits_at(const Limbs<N>& a, unsigned lo) {
  std::size_t w = lo / 64;
  unsigned s = lo % 64;
  u64 x = w < N ? a[w] >> s : 0;
  if (s && w + 1 < N) x |= a[w + 1] << (64 - s);
  return x;
}

template <class F>
void inverse_impl(u64* r, const u64* in) {
  constexpr std::size_t N = F::kLimbs;
  // R^3 mod m: turns v = (xR)^(−1) into x^(−1)·R by one Montgomery multiplication.
  static constexpr Limbs<N> kR3 = detail::pow2_mod<N>(3 * 64 * N, F::kModulus);
  Limbs<N> a, b = F::kModulus, u{}, v{};
  for (std::size_t i = 0; i < N; ++i) a[i] = in[i];
  if (detail::is_zero<N>(a)) {
    for (std::size_t i = 0; i < N; ++i) r[i] = 0;
    return;
  }
  u[0] = 1;
  // u = 1 is the plain integer 1; all of u, v are plain residues until the final conversion.
  while (!detail::is_zero<N>(a)) {
    unsigned n = std::max({bit_len<N>(a), bit_len<N>(b), 64u});
    u64 ah = bits_at<N>(a, n - 33), bh = bits_at<N>(b, n - 33);
    u64 abar = (a[0] & 0x7fffffff) | (ah << 31);
    u64 bbar = (b[0] & 0x7fffffff) | (bh << 31);
    i64 f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    for (int j = 0; j < 31; ++j) {
      if (abar & 1) {
        if (abar < bbar) {
          std::swap(abar, bbar);
          std::swap(f0, f1);
          std::swap(g0, g1);
        }
        abar -= bbar;
        f0 -= f1;
        g0 -= g1;
      }
      abar >>= 1;
      f1 *= 2;
      g1 *= 2;
    }
    Limbs<N> na, nb, nu, nv;
    bool nega = update_ab<N>(na, a, f0, b, g0);
    bool negb = update_ab<N>(nb, a, f1, b, g1);
    if (nega) f0 = -f0, g0 = -g0;
    if (negb) f1 = -f1, g1 = -g1;
    update_uv<F>(nu, u, f0, v, g0);
    update_uv<F>(nv, u, f1, v, g1);
    a = na, b = nb, u = nu, v = nv;
  }
  // b = 1 and v = A^(−1) mod m.
  Limbs<N> out = detail::mont_mul<N>(v, kR3, F::kModulus, F::kInv);
  for (std::size_t i = 0; i < N; ++i) r[i] = out[i];
}

/// Legendre symbol of A = x·R by the binary Jacobi algorithm on exact multi-limb values:
/// (A/m) = (x/m)·(2/m)^(64N) = (x/m). With b odd: (2a'/b) = (2/b)(a'/b), and (2/b) = −1 iff
/// b ≡ 3, 5 (mod 8); swapping two odd values flips the sign iff both are ≡ 3 (mod 4) (quadratic
/// reciprocity); (a − b / b) = (a / b). Variable time.
template <class F>
int legendre_impl(const u64* in) {
  constexpr std::size_t N = F::kLimbs;
  Limbs<N> a, b = F::kModulus;
  for (std::size_t i = 0; i < N; ++i) a[i] = in[i];
  int t = 1;
  std::size_t len = N;  // a, b < 2^(64·len)
  while (!detail::is_zero<N>(a)) {
    while (len > 1 && a[len - 1] == 0 && b[len - 1] == 0) --len;
    // Remove the factors of two of a.
    unsigned tz = 0;
    std::size_t w = 0;
    while (a[w] == 0) ++w, tz += 64;
    unsigned s = static_cast<unsigned>(__builtin_ctzll(a[w]));
    tz += s;
    if (w) {
      for (std::size_t i = 0; i < len; ++i) a[i] = i + w < len ? a[i + w] : 0;
    }
    if (s) {
      for (std::size_t i = 0; i + 1 < len; ++i) a[i] = (a[i] >> s) | (a[i + 1] << (64 - s));
      a[len - 1] >>= s;
    }
    if ((tz & 1) && ((b[0] & 7) == 3 || (b[0] & 7) == 5)) t = -t;
    // Both odd: order them (reciprocity), then a ← a − b (even).
    bool less = false;
    for (std::size_t i = len; i-- > 0;) {
      if (a[i] != b[i]) {
        less = a[i] < b[i];
        break;
      }
    }
    if (less) {
      std::swap(a, b);
      if ((a[0] & 3) == 3 && (b[0] & 3) == 3) t = -t;
    }
    u64 br = 0;
    for (std::size_t i = 0; i < len; ++i) a[i] = detail::sbb(a[i], b[i], br);
  }
  // a = 0: b = gcd(x, m), which is m only for x = 0 (m is prime).
  Limbs<N> one{};
  one[0] = 1;
  return b == one ? t : 0;
}

}  // namespace

void fp_inverse_fast(u64* r, const u64* a) { inverse_impl<Fp>(r, a); }
void fr_inverse_fast(u64* r, const u64* a) { inverse_impl<Fr>(r, a); }

int fp_legendre_fast(const u64* a) { return legendre_impl<Fp>(a); }
int fr_legendre_fast(const u64* a) { return legendre_impl<Fr>(a); }

}  // namespace proofline::ff
