// Poseidon (neptune, Strength::Standard): Grain-LFSR constants, MDS and its optimized factorization,
// native hashes and neptune's legacy circuit.
#include "proofline/gadgets/poseidon.hpp"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "proofline/r1cs/error.hpp"
#include "proofline/r1cs/proving_assignment.hpp"

namespace proofline::gadgets {

using r1cs::SynthesisError;
using r1cs::SynthesisErrorCode;

namespace {
std::shared_ptr<const PoseidonCircuitShape> record_shape(const PoseidonConstants& c);
}  // namespace

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

Fr sbox(Fr x) {
  const Fr x2 = x.square();
  return x2.square() * x;
}

}  // namespace

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
  c.circuit_shape = record_shape(c);
  return c;
}

const PoseidonConstants& PoseidonConstants::merkle(std::size_t arity) {
  static std::mutex mu;
  static std::map<std::size_t, std::unique_ptr<PoseidonConstants>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[arity];
  if (!slot) {
    Fr tag = Fr::zero();
    for (std::size_t i = 0; i < arity; ++i) tag += pow2(i);  // 2^arity − 1
    slot = std::make_unique<PoseidonConstants>(make(arity, tag));
  }
  return *slot;
}

const PoseidonConstants& PoseidonConstants::custom(std::size_t arity, std::uint64_t id) {
  static std::mutex mu;
  static std::map<std::pair<std::size_t, std::uint64_t>, std::unique_ptr<PoseidonConstants>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{arity, id}];
  if (!slot) slot = std::make_unique<PoseidonConstants>(make(arity, Fr::from_u64(id) * pow2(40)));
  return *slot;
}

// ---- native hashes -----------------------------------------------------------------------------

namespace {
void check_preimage(const PoseidonConstants& c, std::size_t n) {
  if (n > c.arity) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "Poseidon: preimage of " + std::to_string(n) +
                                                                " elements for arity " + std::to_string(c.arity));
  }
}
}  // namespace

Fr poseidon_hash_correct(const PoseidonConstants& c, std::span<const Fr> preimage) {
  check_preimage(c, preimage.size());
  const std::size_t t = c.width;
  std::vector<Fr> s(t, Fr::zero());
  s[0] = c.domain_tag;
  for (std::size_t i = 0; i < preimage.size(); ++i) s[i + 1] = preimage[i];
  const std::size_t rounds = c.full_rounds + c.partial_rounds;
  for (std::size_t r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < t; ++i) s[i] += c.round_constants[r * t + i];
    const bool full = r < c.half_full_rounds || r >= c.half_full_rounds + c.partial_rounds;
    if (full) {
      for (auto& x : s) x = sbox(x);
    } else {
      s[0] = sbox(s[0]);
    }
    s = row_times(c.m, s);
  }
  return s[1];
}

Fr poseidon_hash_native(const PoseidonConstants& c, std::span<const Fr> preimage) {
  check_preimage(c, preimage.size());
  const std::size_t t = c.width;
  Fr s[40], tmp[40];
  s[0] = c.domain_tag;
  for (std::size_t i = 1; i < t; ++i) s[i] = i - 1 < preimage.size() ? preimage[i - 1] : Fr::zero();
  const Fr* k = c.compressed_round_constants.data();
  auto mix = [&](const FrMatrix& m) {
    for (std::size_t j = 0; j < t; ++j) {
      Fr acc = s[0] * m(0, j);
      for (std::size_t i = 1; i < t; ++i) acc += s[i] * m(i, j);
      tmp[j] = acc;
    }
    for (std::size_t j = 0; j < t; ++j) s[j] = tmp[j];
  };
  // First round: pre-add keys, S-box, post-add keys.
  for (std::size_t i = 0; i < t; ++i) s[i] += k[i];
  k += t;
  for (std::size_t i = 0; i < t; ++i) s[i] = sbox(s[i]) + k[i];
  k += t;
  mix(c.m);
  // Remaining initial full rounds; the last of them mixes with the pre-sparse matrix.
  for (std::size_t r = 1; r < c.half_full_rounds; ++r) {
    for (std::size_t i = 0; i < t; ++i) s[i] = sbox(s[i]) + k[i];
    k += t;
    mix(r + 1 == c.half_full_rounds ? c.pre_sparse : c.m);
  }
  // Partial rounds with sparse matrices.
  for (std::size_t r = 0; r < c.partial_rounds; ++r) {
    s[0] = sbox(s[0]) + *k++;
    const SparseMdsMatrix& sp = c.sparse[r];
    Fr first = s[0] * sp.w_hat[0];
    for (std::size_t i = 1; i < t; ++i) first += s[i] * sp.w_hat[i];
    for (std::size_t j = 1; j < t; ++j) s[j] += s[0] * sp.v_rest[j - 1];
    s[0] = first;
  }
  // Final full rounds; the terminal one adds no key.
  for (std::size_t r = 0; r < c.half_full_rounds; ++r) {
    const bool terminal = r + 1 == c.half_full_rounds;
    for (std::size_t i = 0; i < t; ++i) s[i] = terminal ? sbox(s[i]) : sbox(s[i]) + k[i];
    if (!terminal) k += t;
    mix(c.m);
  }
  return s[1];
}

// ---- circuit -----------------------------------------------------------------------------------

namespace {

constexpr Variable kOne = ConstraintSystem::one();

// A state element: an allocated number, or a value with the LC computing it (neptune's Elt).
struct Elt {
  bool allocated = false;
  AllocatedNum num;  // when allocated
  Fr value;          // when not
  LinearCombination lc;

  const Fr& val() const { return allocated ? num.value() : value; }
  void set_allocated(const AllocatedNum& n) {
    allocated = true;
    num = n;
    lc.clear();
  }
  void set_constant(const Fr& v) {
    allocated = false;
    value = v;
    lc.clear();
    lc.add(kOne, v);
  }
  /// dst += s · this   (value, and terms unless `values_only`: the prover fast path)
  void scaled_into(Fr& dst_value, LinearCombination& dst_lc, const Fr& s, bool values_only) const {
    if (allocated) {
      dst_value += num.value() * s;
      if (!values_only) dst_lc.add(num.variable(), s);
    } else {
      dst_value += value * s;
      if (!values_only) dst_lc.add(lc, s);
    }
  }
};

class Circuit {
 public:
  Circuit(ConstraintSystem& cs, const PoseidonConstants& c, bool fast)
      : cs_(cs), c_(c), t_(c.width), fast_(fast), cur_(t_), next_(t_) {}

  AllocatedNum hash(std::span<const AllocatedNum> preimage) {
    cur_[0].set_constant(c_.domain_tag);
    for (std::size_t i = 0; i < preimage.size(); ++i) cur_[i + 1].set_allocated(preimage[i]);
    {
      auto ns = cs_.namespace_("first round");
      full_round(true, false);
    }
    for (std::size_t i = 1; i < c_.half_full_rounds; ++i) {
      auto ns = cs_.namespace_([&] { return "initial full round " + std::to_string(i); });
      full_round(false, false);
    }
    for (std::size_t i = 0; i < c_.partial_rounds; ++i) {
      auto ns = cs_.namespace_([&] { return "partial round " + std::to_string(i); });
      partial_round();
    }
    for (std::size_t i = 0; i + 1 < c_.half_full_rounds; ++i) {
      auto ns = cs_.namespace_([&] { return "final full round " + std::to_string(i); });
      full_round(false, false);
    }
    {
      auto ns = cs_.namespace_("terminal full round");
      full_round(false, true);
    }
    auto ns = cs_.namespace_("hash result");
    return ensure_allocated(cur_[1]);
  }

 private:
  // Allocates a Num element: v with (lc) · ONE = v (neptune's ensure_allocated with enforce).
  AllocatedNum ensure_allocated(const Elt& e) {
    if (e.allocated) return e.num;
    if (fast_) {  // A = lc (value e.value), B = ONE, C = v
      const AllocatedNum v(cs_.prover_alloc(e.value), e.value);
      cs_.prover_enforce(e.value, cs_.prover_value(kOne), e.value);
      return v;
    }
    AllocatedNum v;
    {
      auto ns = cs_.namespace_("allocate for Elt::Num");
      v = AllocatedNum::alloc(cs_, e.value);
    }
    cs_.enforce("enforce num allocation preserves lc", e.lc, kOne, v.variable());
    return v;
  }

  AllocatedNum alloc_named(const char* ns_name, const Fr& value) {
    auto ns = cs_.namespace_(ns_name);
    return AllocatedNum::alloc(cs_, value);
  }

  // x⁵ + post (post optional); 4 constraints (3 if x is already allocated).
  AllocatedNum quintic_s_box(const Elt& e, const Fr* post) {
    AllocatedNum l;
    {
      auto ns = cs_.namespace_("S-box input");
      l = ensure_allocated(e);
    }
    AllocatedNum l2, l4;
    {
      auto ns = cs_.namespace_("l^2");
      l2 = l.square(cs_);
    }
    {
      auto ns = cs_.namespace_("l^4");
      l4 = l2.square(cs_);
    }
    auto ns = cs_.namespace_("(l4 * l) + rk)");
    return mul_sum(l4, l, nullptr, post);
  }

  // (x + pre)⁵ + post for an allocated x: 3 constraints.
  AllocatedNum quintic_s_box_pre_add(const Elt& e, const Fr& pre, const Fr& post) {
    AllocatedNum l;
    {
      auto ns = cs_.namespace_("S-box input");
      l = ensure_allocated(e);
    }
    AllocatedNum l2;
    {
      auto ns = cs_.namespace_("(l+rk)^2");
      const Fr lp = l.value() + pre;
      const Fr v = lp.square();
      l2 = alloc_named("squared sum", v);
      if (fast_) {
        cs_.prover_enforce(lp, lp, v);
      } else {
        // (l + pre·ONE) · (l + pre·ONE) = l2
        auto fill = [&](LinearCombination& lc) { lc.add(l.variable()).add(kOne, pre); };
        cs_.enforce("squared sum constraint", fill, fill, l2.variable());
      }
    }
    AllocatedNum l4;
    {
      auto ns = cs_.namespace_("l^4");
      l4 = l2.square(cs_);
    }
    auto ns = cs_.namespace_("l4 * (l + rk)");
    return mul_sum(l4, l, &pre, &post);
  }

  // res = a·(b + pre) + post: (b + pre·ONE) · a = res − post·ONE.
  AllocatedNum mul_sum(const AllocatedNum& a, const AllocatedNum& b, const Fr* pre, const Fr* post) {
    Fr bp = b.value();
    if (pre != nullptr) bp += *pre;
    Fr v = bp * a.value();
    if (post != nullptr) v += *post;
    const AllocatedNum res = alloc_named("mul_sum", v);
    if (fast_) {  // A = b + pre·ONE, B = a, C = res − post·ONE
      cs_.prover_enforce(bp, a.value(), post != nullptr ? v - *post : v);
      return res;
    }
    const char* name = post != nullptr ? (pre != nullptr ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                                       : (pre != nullptr ? "mul sum constraint pre-add" : "mul sum constraint");
    cs_.enforce(
        name,
        [&](LinearCombination& lc) {
          lc.add(b.variable());
          if (pre != nullptr) lc.add(kOne, *pre);
        },
        a.variable(),
        [&](LinearCombination& lc) {
          lc.add(res.variable());
          if (post != nullptr) lc.add(kOne, -*post);
        });
    return res;
  }

  void full_round(bool first, bool last) {
    const Fr* pre = nullptr;
    if (first) {
      pre = c_.compressed_round_constants.data() + offset_;
      offset_ += t_;
    }
    const Fr* post = nullptr;
    if (first || !last) {
      post = c_.compressed_round_constants.data() + offset_;
      offset_ += t_;
    }
    for (std::size_t i = 0; i < t_; ++i) {
      if (first && i == 0) {
        // The tag's S-box is a constant: (tag + pre)⁵ + post.
        cur_[0].set_constant(sbox(cur_[0].value + pre[0]) + post[0]);
        continue;
      }
      auto ns = cs_.namespace_([&] { return "quintic s-box " + std::to_string(i); });
      const AllocatedNum r = first ? quintic_s_box_pre_add(cur_[i], pre[i], post[i])
                                   : quintic_s_box(cur_[i], post != nullptr ? post + i : nullptr);
      cur_[i].set_allocated(r);
    }
    product_mds();
  }

  void partial_round() {
    const Fr* key = c_.compressed_round_constants.data() + offset_;
    offset_ += 1;
    auto ns = cs_.namespace_("solitary quintic s-box");
    const AllocatedNum r = quintic_s_box(cur_[0], key);
    ns.close();
    cur_[0].set_allocated(r);
    product_mds();
  }

  void product_mds() {
    const std::size_t sparse_offset = c_.half_full_rounds - 1;
    if (round_ == sparse_offset) {
      product_dense(c_.pre_sparse);
    } else if (round_ > sparse_offset && round_ < c_.half_full_rounds + c_.partial_rounds) {
      product_sparse(c_.sparse[round_ - sparse_offset - 1]);
    } else {
      product_dense(c_.m);
    }
    ++round_;
  }

  // new[j] = Σ_i cur[i]·M[i][j], as Nums.
  void product_dense(const FrMatrix& m) {
    for (std::size_t j = 0; j < t_; ++j) {
      Elt& out = next_[j];
      out.allocated = false;
      out.value = Fr::zero();
      out.lc.clear();
      for (std::size_t i = 0; i < t_; ++i) cur_[i].scaled_into(out.value, out.lc, m(i, j), fast_);
    }
    std::swap(cur_, next_);
  }

  // new[0] = Σ_i cur[i]·ŵ[i]; new[j] = cur[j] + cur[0]·v[j−1].
  void product_sparse(const SparseMdsMatrix& sp) {
    Elt& out0 = next_[0];
    out0.allocated = false;
    out0.value = Fr::zero();
    out0.lc.clear();
    for (std::size_t i = 0; i < t_; ++i) cur_[i].scaled_into(out0.value, out0.lc, sp.w_hat[i], fast_);
    for (std::size_t j = 1; j < t_; ++j) {
      // cur[j] is a Num here (neptune only adds Nums).
      Elt& e = cur_[j];
      cur_[0].scaled_into(e.value, e.lc, sp.v_rest[j - 1], fast_);
    }
    std::swap(cur_[0], next_[0]);
  }

  ConstraintSystem& cs_;
  const PoseidonConstants& c_;
  std::size_t t_;
  bool fast_;  // prover fast path: values only, no LinearCombinations (densities: circuit_shape)
  std::vector<Elt> cur_, next_;
  std::size_t offset_ = 0;
  std::size_t round_ = 0;
};

}  // namespace

namespace {

// The prover fast path applies: prover mode, a recorded shape, and a preimage of allocated aux
// variables whose assigned values are their AllocatedNum values (anything else: generic path).
bool fast_path_applies(ConstraintSystem& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c) {
  const r1cs::ProvingBuffers* p = cs.prover_buffers();
  if (p == nullptr || c.circuit_shape == nullptr) return false;
  for (const AllocatedNum& x : preimage) {
    const Variable v = x.variable();
    if (!v.is_aux() || v.index() >= p->aux_assignment.size() || !(p->aux_assignment[v.index()] == x.value())) {
      return false;
    }
  }
  return true;
}

}  // namespace

struct PoseidonCircuitShape {
  std::size_t n_aux = 0, n_constraints = 0;  // the hash's own variables and constraints
  r1cs::DensityTracker a_own, b_own;         // over the hash's own variables, in order
  std::vector<bool> a_preimage, b_preimage;  // per preimage element
  bool b_one = false;                        // ONE has a nonzero coefficient in some B
};

AllocatedNum poseidon_hash(ConstraintSystem& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c) {
  if (preimage.size() != c.arity) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "poseidon_hash: " + std::to_string(preimage.size()) +
                                                                " inputs for arity " + std::to_string(c.arity));
  }
  if (!fast_path_applies(cs, preimage, c)) {
    Circuit circuit(cs, c, false);
    return circuit.hash(preimage);
  }
  const PoseidonCircuitShape& shape = *c.circuit_shape;
  const std::size_t first_aux = cs.num_aux(), first_constraint = cs.num_constraints();
  Circuit circuit(cs, c, true);
  const AllocatedNum out = circuit.hash(preimage);
  if (cs.num_aux() - first_aux != shape.n_aux || cs.num_constraints() - first_constraint != shape.n_constraints) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "poseidon_hash: fast path left the recorded shape");
  }
  r1cs::ProvingBuffers& p = *cs.prover_buffers();
  p.a_aux_density.or_at(first_aux, shape.a_own);
  p.b_aux_density.or_at(first_aux, shape.b_own);
  for (std::size_t i = 0; i < preimage.size(); ++i) {
    if (shape.a_preimage[i]) cs.prover_dense_in_a(preimage[i].variable());
    if (shape.b_preimage[i]) cs.prover_dense_in_b(preimage[i].variable());
  }
  if (shape.b_one) cs.prover_dense_in_b(kOne);
  return out;
}

namespace {

// One generic synthesis over `arity` fresh aux variables (values 0: densities depend only on the
// constants), read back from a prover with the fast path off.
std::shared_ptr<const PoseidonCircuitShape> record_shape(const PoseidonConstants& c) {
  r1cs::ProvingAssignment rec;
  rec.set_fast_path(false);
  std::vector<AllocatedNum> pre;
  for (std::size_t i = 0; i < c.arity; ++i) pre.push_back(AllocatedNum::alloc(rec, Fr::zero()));
  (void)poseidon_hash(rec, pre, c);
  auto shape = std::make_shared<PoseidonCircuitShape>();
  shape->n_aux = rec.num_aux() - c.arity;
  shape->n_constraints = rec.num_constraints();
  for (std::size_t k = 0; k < shape->n_aux; ++k) {
    shape->a_own.push_back(rec.a_aux_density().test(c.arity + k));
    shape->b_own.push_back(rec.b_aux_density().test(c.arity + k));
  }
  for (std::size_t i = 0; i < c.arity; ++i) {
    shape->a_preimage.push_back(rec.a_aux_density().test(i));
    shape->b_preimage.push_back(rec.b_aux_density().test(i));
  }
  shape->b_one = rec.b_input_density().test(0);
  return shape;
}

}  // namespace


}  // namespace proofline::gadgets
