// fuzz/point_fuzz.hpp — the body of the G1 and G2 encoding targets (g1_fuzz.cpp, g2_fuzz.cpp).
//
// The input's first kCompressedBytes are decoded as a compressed point and its first
// kUncompressedBytes as an uncompressed one (when that many bytes are there), each with both
// checks (Subgroup, OnCurveOnly); `from_bytes` gets the whole input. Properties:
//   - an accepted encoding re-encodes to the same bytes (so nothing non-canonical is accepted:
//     x >= p, stray flag bits, an infinity with other bits set), and the other form of the point
//     decodes back to the same point;
//   - Subgroup accepts ⇒ OnCurveOnly accepts the same point; OnCurveOnly accepts and Subgroup
//     refuses ⇒ the point is really outside the subgroup (NotInSubgroup);
//   - from_bytes agrees with the fixed-length decoder and answers BadLength for other lengths.
#pragma once

#include <algorithm>

#include "fuzz.hpp"
#include "proofline/ec/curve.hpp"

namespace proofline::fuzz {

template <class Affine, std::size_t N, class Decode, class Encode, class DecodeOther, class EncodeOther>
void check_form(std::span<const std::uint8_t, N> in, Decode decode, Encode encode, DecodeOther decode_other,
                EncodeOther encode_other) {
  Affine sub{}, any{};
  const Error e_sub = decode(sub, in, ec::Check::Subgroup);
  const Error e_any = decode(any, in, ec::Check::OnCurveOnly);
  if (e_sub == Error::Ok) {
    PL_FUZZ_CHECK(e_any == Error::Ok && any == sub);
    PL_FUZZ_CHECK(sub.is_on_curve() && sub.is_in_subgroup());
  }
  if (e_any != Error::Ok) {
    PL_FUZZ_CHECK(e_sub == e_any);
    return;
  }
  PL_FUZZ_CHECK(any.is_on_curve());
  if (e_sub != Error::Ok) {
    PL_FUZZ_CHECK(e_sub == Error::NotInSubgroup && !any.is_in_subgroup());
  }
  const auto again = encode(any);
  PL_FUZZ_CHECK(std::equal(again.begin(), again.end(), in.begin()));
  const auto other = encode_other(any);
  Affine back{};
  PL_FUZZ_CHECK(decode_other(back, other, ec::Check::OnCurveOnly) == Error::Ok && back == any);
}

template <class Affine>
void fuzz_point(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t C = Affine::kCompressedBytes, U = Affine::kUncompressedBytes;
  auto dec_c = [](Affine& o, std::span<const std::uint8_t, C> b, ec::Check k) { return Affine::from_compressed(o, b, k); };
  auto dec_u = [](Affine& o, std::span<const std::uint8_t, U> b, ec::Check k) { return Affine::from_uncompressed(o, b, k); };
  auto enc_c = [](const Affine& p) { return p.to_compressed(); };
  auto enc_u = [](const Affine& p) { return p.to_uncompressed(); };
  if (size >= C) check_form<Affine, C>(std::span<const std::uint8_t, C>(data, C), dec_c, enc_c, dec_u, enc_u);
  if (size >= U) check_form<Affine, U>(std::span<const std::uint8_t, U>(data, U), dec_u, enc_u, dec_c, enc_c);

  Affine whole{};
  const Error e = Affine::from_bytes(whole, bytes(data, size), ec::Check::Subgroup);
  if (size != C && size != U) {
    PL_FUZZ_CHECK(e == Error::BadLength);
  } else {
    Affine fixed{};
    const Error e2 = size == C ? dec_c(fixed, std::span<const std::uint8_t, C>(data, C), ec::Check::Subgroup)
                               : dec_u(fixed, std::span<const std::uint8_t, U>(data, U), ec::Check::Subgroup);
    PL_FUZZ_CHECK(e == e2);
    if (e == Error::Ok) PL_FUZZ_CHECK(whole == fixed);
  }
}

}  // namespace proofline::fuzz
