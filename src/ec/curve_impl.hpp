// ec/curve_impl.hpp (private, src/ec/) — out-of-line template definitions for curve.hpp.
//
// Included only by src/ec/*.cpp, which instantiate them for G1 and G2 (`template struct ...`).
// Users include g1.hpp / g2.hpp and link against those instantiations. Holds: ZCash encoders and
// decoders, lift_x, batch_to_affine (Montgomery's trick), wNAF recoding and the Straus
// interleaved multi-scalar loop used by every scalar multiplication.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstring>
#include <vector>

#include "proofline/ec/curve.hpp"

namespace proofline::ec {

namespace detail {

/// a / d for a small divisor d (little-endian limbs); the remainder goes to `rem`.
template <std::size_t N>
constexpr std::array<u64, N> div_small(std::array<u64, N> a, u64 d, u64& rem) {
  ff::u128 r = 0;
  for (std::size_t i = N; i-- > 0;) {
    ff::u128 cur = (r << 64) | a[i];
    a[i] = static_cast<u64>(cur / d);
    r = cur % d;
  }
  rem = static_cast<u64>(r);
  return a;
}

inline constexpr uint8_t kFlagCompressed = 0x80;
inline constexpr uint8_t kFlagInfinity = 0x40;
inline constexpr uint8_t kFlagSign = 0x20;
inline constexpr uint8_t kFlagMask = 0xE0;

/// Width-w non-adjacent form of the integer k (little-endian limbs): k = Σ digits[i]·2^i, each
/// digit 0 or odd with |digit| < 2^(w−1), and any w consecutive digits hold at most one non-zero.
/// `digits` must hold 64·k.size() + 1 entries, `scratch` k.size() + 2 limbs. Returns the number
/// of digits written (0 for k = 0).
inline std::size_t wnaf_recode(std::span<const u64> k, unsigned w, int8_t* digits, u64* scratch) {
  assert(w >= 2 && w <= 7);
  u64* buf = scratch;
  std::size_t n = k.size();
  std::copy(k.begin(), k.end(), buf);
  buf[n] = buf[n + 1] = 0;
  while (n > 0 && buf[n - 1] == 0) --n;
  const u64 mask = (u64{1} << w) - 1;
  const int full = 1 << w, half = 1 << (w - 1);
  std::size_t len = 0;
  while (n > 0) {
    int d = 0;
    if (buf[0] & 1) {
      d = static_cast<int>(buf[0] & mask);
      if (d >= half) d -= full;
      // k −= d (d odd, |d| < 2^(w−1)); afterwards k ≡ 0 mod 2^w.
      if (d > 0) {
        buf[0] -= static_cast<u64>(d);  // d = k mod 2^w ≤ buf[0]: no borrow
      } else {
        u64 c = static_cast<u64>(-d);
        for (std::size_t i = 0; i <= n && c; ++i) {
          buf[i] += c;
          c = buf[i] < c;
        }
        if (buf[n]) ++n;
      }
    }
    digits[len++] = static_cast<int8_t>(d);
    // k >>= 1 (buf[n] is zero, so the top limb takes a zero bit)
    for (std::size_t i = 0; i < n; ++i) buf[i] = (buf[i] >> 1) | (buf[i + 1] << 63);
    while (n > 0 && buf[n - 1] == 0) --n;
  }
  return len;
}

/// wnaf_recode with stack buffers, for scalars of at most 4 limbs (Fr-sized and smaller).
inline std::size_t wnaf_recode_small(std::span<const u64> k, unsigned w, int8_t* digits) {
  assert(k.size() <= 4);
  u64 scratch[6];
  return wnaf_recode(k, w, digits, scratch);
}

/// Odd multiples table[j] = (2j + 1)·P, j < size (size ≥ 1).
template <class Cfg>
void odd_multiples(const JacobianPoint<Cfg>& p, std::span<JacobianPoint<Cfg>> table) {
  table[0] = p;
  if (table.size() == 1) return;
  JacobianPoint<Cfg> p2 = p.dbl();
  for (std::size_t j = 1; j < table.size(); ++j) table[j] = table[j - 1] + p2;
}

/// Straus (interleaved) multi-scalar multiplication from wNAF digits: Σ_c Σ_i digits[c][i]·2^i·B_c
/// where tables[c][j] = (2j + 1)·B_c. One shared doubling chain; leading doublings of the
/// identity are skipped.
template <class Cfg, std::size_t C>
JacobianPoint<Cfg> straus_wnaf(const std::array<const JacobianPoint<Cfg>*, C>& tables,
                               const std::array<const int8_t*, C>& digits,
                               const std::array<std::size_t, C>& lens) {
  std::size_t top = 0;
  for (std::size_t c = 0; c < C; ++c) top = std::max(top, lens[c]);
  JacobianPoint<Cfg> acc = JacobianPoint<Cfg>::identity();
  for (std::size_t i = top; i-- > 0;) {
    if (!acc.is_identity()) acc = acc.dbl();
    for (std::size_t c = 0; c < C; ++c) {
      if (i >= lens[c]) continue;
      int d = digits[c][i];
      if (d > 0) {
        acc += tables[c][d >> 1];
      } else if (d < 0) {
        acc -= tables[c][(-d) >> 1];
      }
    }
  }
  return acc;
}

template <class Cfg>
void batch_to_affine(std::span<const JacobianPoint<Cfg>> in, std::span<AffinePoint<Cfg>> out,
                     std::span<typename Cfg::Field> scratch) {
  using F = typename Cfg::Field;
  assert(out.size() >= in.size() && scratch.size() >= in.size());
  // scratch[i] = Π_{j<i, Z_j≠0} Z_j
  F acc = F::one();
  for (std::size_t i = 0; i < in.size(); ++i) {
    scratch[i] = acc;
    if (!in[i].is_identity()) acc *= in[i].z;
  }
  F inv = acc.inverse();  // (Π Z)^(−1)
  for (std::size_t i = in.size(); i-- > 0;) {
    const JacobianPoint<Cfg>& p = in[i];
    if (p.is_identity()) {
      out[i] = AffinePoint<Cfg>::identity();
      continue;
    }
    F zi = inv * scratch[i];  // 1/Z_i
    inv *= p.z;               // drop Z_i from the running inverse
    F zi2 = zi.square();
    out[i] = AffinePoint<Cfg>{p.x * zi2, p.y * zi2 * zi, false};
  }
}

template <class Cfg>
void batch_to_affine(std::span<const XyzzPoint<Cfg>> in, std::span<AffinePoint<Cfg>> out,
                     std::span<typename Cfg::Field> scratch) {
  using F = typename Cfg::Field;
  assert(out.size() >= in.size() && scratch.size() >= in.size());
  F acc = F::one();
  for (std::size_t i = 0; i < in.size(); ++i) {
    scratch[i] = acc;
    if (!in[i].is_identity()) acc *= in[i].zzz;
  }
  F inv = acc.inverse();
  for (std::size_t i = in.size(); i-- > 0;) {
    const XyzzPoint<Cfg>& p = in[i];
    if (p.is_identity()) {
      out[i] = AffinePoint<Cfg>::identity();
      continue;
    }
    F t = inv * scratch[i];  // 1/ZZZ_i
    inv *= p.zzz;
    F u = p.zz * t;  // ZZ/ZZZ, whose square is 1/ZZ
    out[i] = AffinePoint<Cfg>{p.x * u.square(), p.y * t, false};
  }
}

}  // namespace detail

// =================================================================================================
// JacobianPoint
// =================================================================================================

template <class Cfg>
JacobianPoint<Cfg> JacobianPoint<Cfg>::mul_limbs(std::span<const u64> k) const {
  constexpr unsigned kW = 5;
  constexpr std::size_t kTable = std::size_t{1} << (kW - 2);
  constexpr std::size_t kStackLimbs = 8;
  if (is_identity()) return identity();
  while (!k.empty() && k.back() == 0) k = k.first(k.size() - 1);
  if (k.empty()) return identity();
  // Scalars up to 512 bits recode on the stack; longer ones (never on a hot path) on the heap.
  int8_t digits_stack[64 * kStackLimbs + 1];
  u64 scratch_stack[kStackLimbs + 2];
  std::vector<int8_t> digits_heap;
  std::vector<u64> scratch_heap;
  int8_t* digits = digits_stack;
  u64* scratch = scratch_stack;
  if (k.size() > kStackLimbs) {
    digits_heap.resize(64 * k.size() + 1);
    scratch_heap.resize(k.size() + 2);
    digits = digits_heap.data();
    scratch = scratch_heap.data();
  }
  const std::size_t len = detail::wnaf_recode(k, kW, digits, scratch);
  std::array<JacobianPoint, kTable> table;
  detail::odd_multiples<Cfg>(*this, table);
  return detail::straus_wnaf<Cfg, 1>({table.data()}, {digits}, {len});
}

// =================================================================================================
// AffinePoint: lift_x and ZCash encodings
// =================================================================================================

template <class Cfg>
bool AffinePoint<Cfg>::lift_x(AffinePoint& out, const Field& x, bool y_largest) {
  Field rhs = x.square() * x + Cfg::kB;
  Field y;
  if (!rhs.sqrt(y)) return false;
  if (y.lexicographically_largest() != y_largest) y = -y;
  out = AffinePoint{x, y, false};
  return true;
}

template <class Cfg>
void AffinePoint<Cfg>::to_compressed(std::span<uint8_t, kCompressedBytes> out) const {
  if (infinity) {
    std::fill(out.begin(), out.end(), uint8_t{0});
    out[0] = detail::kFlagCompressed | detail::kFlagInfinity;
    return;
  }
  x.to_bytes_be(out);
  out[0] |= detail::kFlagCompressed;
  if (y.lexicographically_largest()) out[0] |= detail::kFlagSign;
}

template <class Cfg>
void AffinePoint<Cfg>::to_uncompressed(std::span<uint8_t, kUncompressedBytes> out) const {
  if (infinity) {
    std::fill(out.begin(), out.end(), uint8_t{0});
    out[0] = detail::kFlagInfinity;
    return;
  }
  x.to_bytes_be(out.template subspan<0, kCompressedBytes>());
  y.to_bytes_be(out.template subspan<kCompressedBytes, kCompressedBytes>());
}

namespace detail {
/// True iff every byte after the flag bits of byte 0 is zero.
inline bool rest_is_zero(std::span<const uint8_t> in) {
  if (in[0] & ~kFlagMask & 0xFF) return false;
  for (std::size_t i = 1; i < in.size(); ++i)
    if (in[i]) return false;
  return true;
}
}  // namespace detail

template <class Cfg>
Error AffinePoint<Cfg>::from_compressed(AffinePoint& out, std::span<const uint8_t, kCompressedBytes> in,
                                        Check check) {
  const uint8_t flags = in[0] & detail::kFlagMask;
  if (!(flags & detail::kFlagCompressed)) return Error::CompressionMismatch;
  if (flags & detail::kFlagInfinity) {
    if ((flags & detail::kFlagSign) || !detail::rest_is_zero(in)) return Error::InfinityNotZero;
    out = identity();
    return Error::Ok;
  }
  std::array<uint8_t, kCompressedBytes> buf;
  std::copy(in.begin(), in.end(), buf.begin());
  buf[0] &= static_cast<uint8_t>(~detail::kFlagMask);
  Field px;
  if (Error e = Field::from_bytes_be(px, buf); e != Error::Ok) return e;
  AffinePoint p;
  if (!lift_x(p, px, (flags & detail::kFlagSign) != 0)) return Error::NotOnCurve;
  if (check == Check::Subgroup && !p.is_in_subgroup()) return Error::NotInSubgroup;
  out = p;
  return Error::Ok;
}

template <class Cfg>
Error AffinePoint<Cfg>::from_uncompressed(AffinePoint& out, std::span<const uint8_t, kUncompressedBytes> in,
                                          Check check) {
  const uint8_t flags = in[0] & detail::kFlagMask;
  if (flags & detail::kFlagCompressed) return Error::CompressionMismatch;
  if (flags & detail::kFlagSign) return Error::SignFlagUncompressed;
  if (flags & detail::kFlagInfinity) {
    if (!detail::rest_is_zero(in)) return Error::InfinityNotZero;
    out = identity();
    return Error::Ok;
  }
  // Flags are all clear here, so the bytes are the plain coordinates.
  AffinePoint p;
  p.infinity = false;
  if (Error e = Field::from_bytes_be(p.x, in.template subspan<0, kCompressedBytes>()); e != Error::Ok) return e;
  if (Error e = Field::from_bytes_be(p.y, in.template subspan<kCompressedBytes, kCompressedBytes>());
      e != Error::Ok)
    return e;
  if (!p.is_on_curve()) return Error::NotOnCurve;
  if (check == Check::Subgroup && !p.is_in_subgroup()) return Error::NotInSubgroup;
  out = p;
  return Error::Ok;
}

template <class Cfg>
AffinePoint<Cfg> AffinePoint<Cfg>::from_compressed(std::span<const uint8_t, kCompressedBytes> in, Check check) {
  AffinePoint p;
  if (Error e = from_compressed(p, in, check); e != Error::Ok)
    detail::throw_decode_error(e, Cfg::kName, true, kCompressedBytes);
  return p;
}

template <class Cfg>
AffinePoint<Cfg> AffinePoint<Cfg>::from_uncompressed(std::span<const uint8_t, kUncompressedBytes> in,
                                                     Check check) {
  AffinePoint p;
  if (Error e = from_uncompressed(p, in, check); e != Error::Ok)
    detail::throw_decode_error(e, Cfg::kName, false, kUncompressedBytes);
  return p;
}

template <class Cfg>
Error AffinePoint<Cfg>::from_bytes(AffinePoint& out, std::span<const uint8_t> in, Check check) {
  if (in.size() == kCompressedBytes)
    return from_compressed(out, in.template first<kCompressedBytes>(), check);
  if (in.size() == kUncompressedBytes)
    return from_uncompressed(out, in.template first<kUncompressedBytes>(), check);
  return Error::BadLength;
}

template <class Cfg>
std::string AffinePoint<Cfg>::to_hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  auto b = to_compressed();
  std::string s;
  s.reserve(2 * b.size());
  for (uint8_t v : b) {
    s.push_back(kDigits[v >> 4]);
    s.push_back(kDigits[v & 15]);
  }
  return s;
}

}  // namespace proofline::ec
