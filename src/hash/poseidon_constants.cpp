// Poseidon constants (neptune, Strength::Standard): round numbers, Grain-LFSR round constants, the
// Cauchy MDS matrix and its optimized factorization (compressed round constants, pre-sparse and sparse
// matrices). Public header hash/poseidon.hpp.
#include "proofline/hash/poseidon.hpp"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "poseidon_matrix.hpp"
#include "proofline/r1cs/error.hpp"

namespace proofline::hash {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;
using detail::row_times;

// ---- parameters --------------------------------------------------------------------------------

std::size_t poseidon_partial_rounds(std::size_t width) {
  switch (width) {
    case 3: return 55;
    case 5: return 56;
    case 9: return 57;
    case 12: return 57;
    case 17: return 59;
    case 25: return 59;
    case 37: return 60;
    default:
      throw SynthesisError(SynthesisErrorCode::ShapeMismatch,
                           "Poseidon: no round numbers for width " + std::to_string(width));
  }
}

namespace {

// Grain LFSR of the Poseidon reference: 80-bit state, b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕
// b_{i+23} ⊕ b_{i+13} ⊕ b_i; the first 160 outputs are discarded; then bits come in pairs and the
// second is kept only when the first is 1.
class Grain {
 public:
  Grain(std::size_t width, std::size_t rf, std::size_t rp) {
    std::size_t k = 0;
    auto put = [&](std::uint64_t v, int bits) {
      for (int i = bits - 1; i >= 0; --i) s_[k++] = (v >> i) & 1;
    };
    put(1, 2);    // field: GF(p)
    put(1, 4);    // S-box: x^alpha (neptune's SBOX = 1)
    put(255, 12); // field size in bits
    put(width, 12);
    put(rf, 10);
    put(rp, 10);
    put((std::uint64_t{1} << 30) - 1, 30);
    for (int i = 0; i < 160; ++i) step();
  }
  bool next_bit() {
    for (;;) {
      const bool b1 = step();
      const bool b2 = step();
      if (b1) return b2;
    }
  }

 private:
  bool step() {
    auto at = [&](std::size_t i) { return s_[(head_ + i) % 80]; };
    const std::uint8_t nb = at(62) ^ at(51) ^ at(38) ^ at(23) ^ at(13) ^ at(0);
    s_[head_] = nb;  // drop bit 0, append the new bit at the end
    head_ = (head_ + 1) % 80;
    return nb;
  }
  std::array<std::uint8_t, 80> s_{};
  std::size_t head_ = 0;
};

// ---- small matrix algebra over Fr ----------------------------------------------------------------

FrMatrix identity(std::size_t n) {
  FrMatrix m{n, std::vector<Fr>(n * n, Fr::zero())};
  for (std::size_t i = 0; i < n; ++i) m(i, i) = Fr::one();
  return m;
}

FrMatrix mat_mul(const FrMatrix& a, const FrMatrix& b) {
  const std::size_t n = a.n;
  FrMatrix r{n, std::vector<Fr>(n * n, Fr::zero())};
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      Fr acc = Fr::zero();
      for (std::size_t k = 0; k < n; ++k) acc += a(i, k) * b(k, j);
      r(i, j) = acc;
    }
  }
  return r;
}

// Gauss–Jordan inverse (the inverse is unique, so any elimination order gives neptune's matrix).
FrMatrix invert(const FrMatrix& in) {
  const std::size_t n = in.n;
  FrMatrix a = in, inv = identity(n);
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t piv = col;
    while (piv < n && a(piv, col).is_zero()) ++piv;
    if (piv == n) throw SynthesisError(SynthesisErrorCode::DivisionByZero, "Poseidon: singular matrix");
    if (piv != col) {
      for (std::size_t j = 0; j < n; ++j) {
        std::swap(a(piv, j), a(col, j));
        std::swap(inv(piv, j), inv(col, j));
      }
    }
    const Fr p = a(col, col).inverse();
    for (std::size_t j = 0; j < n; ++j) {
      a(col, j) *= p;
      inv(col, j) *= p;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (i == col || a(i, col).is_zero()) continue;
      const Fr f = a(i, col);
      for (std::size_t j = 0; j < n; ++j) {
        a(i, j) -= f * a(col, j);
        inv(i, j) -= f * inv(col, j);
      }
    }
  }
  return inv;
}

FrMatrix minor00(const FrMatrix& m) {
  FrMatrix r{m.n - 1, std::vector<Fr>((m.n - 1) * (m.n - 1))};
  for (std::size_t i = 1; i < m.n; ++i) {
    for (std::size_t j = 1; j < m.n; ++j) r(i - 1, j - 1) = m(i, j);
  }
  return r;
}

// M': first row e_0, other rows keep columns 1.. of M (column 0 zeroed).
FrMatrix make_prime(const FrMatrix& m) {
  FrMatrix r{m.n, std::vector<Fr>(m.n * m.n, Fr::zero())};
  r(0, 0) = Fr::one();
  for (std::size_t i = 1; i < m.n; ++i) {
    for (std::size_t j = 1; j < m.n; ++j) r(i, j) = m(i, j);
  }
  return r;
}

// M'': first row of M; below it ŵ = w·M̂⁻¹ in column 0 (w = column 0 of M below row 0) and the identity.
FrMatrix make_double_prime(const FrMatrix& m, const FrMatrix& m_hat_inv) {
  const std::size_t n = m.n;
  std::vector<Fr> w(n - 1);
  for (std::size_t i = 1; i < n; ++i) w[i - 1] = m(i, 0);
  const std::vector<Fr> w_hat = row_times(m_hat_inv, w);
  FrMatrix r{n, std::vector<Fr>(n * n, Fr::zero())};
  for (std::size_t j = 0; j < n; ++j) r(0, j) = m(0, j);
  for (std::size_t i = 1; i < n; ++i) {
    r(i, 0) = w_hat[i - 1];
    r(i, i) = Fr::one();
  }
  return r;
}

}  // namespace

namespace detail {

// v·M (v a row vector): r[j] = Σ_i M[i][j]·v[i] (neptune's apply_matrix).
std::vector<Fr> row_times(const FrMatrix& m, std::span<const Fr> v) {
  std::vector<Fr> r(m.n, Fr::zero());
  for (std::size_t j = 0; j < m.n; ++j) {
    Fr acc = Fr::zero();
    for (std::size_t i = 0; i < m.n; ++i) acc += m(i, j) * v[i];
    r[j] = acc;
  }
  return r;
}

}  // namespace detail

std::vector<Fr> grain_round_constants(std::size_t width, std::size_t full_rounds, std::size_t partial_rounds) {
  Grain g(width, full_rounds, partial_rounds);
  const std::size_t count = (full_rounds + partial_rounds) * width;
  std::vector<Fr> out;
  out.reserve(count);
  while (out.size() < count) {
    Fr::Limbs limbs{};
    for (int i = 254; i >= 0; --i) {
      if (g.next_bit()) limbs[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    Fr f;
    if (Fr::from_canonical(f, limbs) == proofline::Error::Ok) out.push_back(f);  // else redraw
  }
  return out;
}

PoseidonConstants PoseidonConstants::make(std::size_t arity, const Fr& domain_tag) {
  PoseidonConstants c;
  c.arity = arity;
  c.width = arity + 1;
  const std::size_t t = c.width;
  c.partial_rounds = poseidon_partial_rounds(t);
  c.domain_tag = domain_tag;
  c.round_constants = grain_round_constants(t, c.full_rounds, c.partial_rounds);

  // Cauchy MDS: M[i][j] = 1 / (x_i + y_j), x_i = i, y_j = t + j.
  c.m = FrMatrix{t, std::vector<Fr>(t * t)};
  for (std::size_t i = 0; i < t; ++i) {
    for (std::size_t j = 0; j < t; ++j) c.m(i, j) = Fr::from_u64(i + t + j).inverse();
  }
  c.m_inv = invert(c.m);

  // Compressed round constants (neptune preprocessing, all partial rounds preprocessed).
  const std::size_t half = c.half_full_rounds, rp = c.partial_rounds;
  auto rk = [&](std::size_t r) { return std::span<const Fr>(c.round_constants).subspan(r * t, t); };
  auto& out = c.compressed_round_constants;
  out.insert(out.end(), rk(0).begin(), rk(0).end());
  for (std::size_t i = 0; i + 1 < half; ++i) {
    const auto inv = row_times(c.m_inv, rk(i + 1));
    out.insert(out.end(), inv.begin(), inv.end());
  }
  std::vector<Fr> partial_keys;
  const std::size_t final_round = half + rp;
  std::vector<Fr> acc(rk(final_round).begin(), rk(final_round).end());
  for (std::size_t i = 0; i < rp; ++i) {
    const auto prev = rk(final_round - i - 1);
    std::vector<Fr> inv = row_times(c.m_inv, acc);
    partial_keys.push_back(inv[0]);
    inv[0] = Fr::zero();
    for (std::size_t k = 0; k < t; ++k) acc[k] = prev[k] + inv[k];
  }
  const auto acc_inv = row_times(c.m_inv, acc);
  out.insert(out.end(), acc_inv.begin(), acc_inv.end());
  out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());
  for (std::size_t i = 1; i < half; ++i) {
    const auto inv = row_times(c.m_inv, rk(i + half + rp));
    out.insert(out.end(), inv.begin(), inv.end());
  }
  if (out.size() != c.full_rounds * t + rp) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "Poseidon: compressed constants have the wrong length");
  }

  // Sparse factorization of the partial rounds' MDS (neptune factor_to_sparse_matrices).
  FrMatrix curr = c.m;
  std::vector<FrMatrix> dps;
  for (std::size_t k = 0; k < rp; ++k) {
    const FrMatrix m_hat_inv = invert(minor00(curr));
    const FrMatrix m_prime = make_prime(curr);
    dps.push_back(make_double_prime(curr, m_hat_inv));
    curr = mat_mul(c.m, m_prime);
  }
  c.pre_sparse = std::move(curr);
  for (std::size_t k = rp; k-- > 0;) {
    SparseMdsMatrix s;
    for (std::size_t i = 0; i < t; ++i) s.w_hat.push_back(dps[k](i, 0));
    for (std::size_t j = 1; j < t; ++j) s.v_rest.push_back(dps[k](0, j));
    c.sparse.push_back(std::move(s));
  }
  return c;
}

const PoseidonConstants& PoseidonConstants::merkle(std::size_t arity) {
  static std::mutex mu;
  static std::map<std::size_t, std::unique_ptr<PoseidonConstants>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[arity];
  if (!slot) {
    Fr tag = Fr::zero(), bit = Fr::one();
    for (std::size_t i = 0; i < arity; ++i, bit += bit) tag += bit;  // 2^arity − 1
    slot = std::make_unique<PoseidonConstants>(make(arity, tag));
  }
  return *slot;
}

const PoseidonConstants& PoseidonConstants::custom(std::size_t arity, std::uint64_t id) {
  static std::mutex mu;
  static std::map<std::pair<std::size_t, std::uint64_t>, std::unique_ptr<PoseidonConstants>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{arity, id}];
  if (!slot) {
    const Fr two_40 = Fr::from_u64(std::uint64_t{1} << 40);
    slot = std::make_unique<PoseidonConstants>(make(arity, Fr::from_u64(id) * two_40));
  }
  return *slot;
}

}  // namespace proofline::hash
