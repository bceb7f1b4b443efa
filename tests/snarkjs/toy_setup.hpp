// A snarkjs-layout Groth16 setup from known toxic waste, for tests only (no node needed): a small
// circuit written by hand as an R1cs, its zkey computed from τ, α, β, δ (γ = 1, as snarkjs) with the
// Lagrange bases of ffjavascript's roots, and the expected proof points computed from the scalars.
#pragma once

#include <random>
#include <vector>

#include "proofline/groth16/snarkjs/files.hpp"
#include "proofline/groth16/snarkjs/prover.hpp"

namespace proofline::groth16::snarkjs::testing {

struct Toxic {
  Fr tau, alpha, beta, delta;
};

/// x^3 + x + 5 = y (y public output), z·z = zz (z public input), plus one wire used nowhere.
/// Wires: 0 ONE, 1 y, 2 z, 3 x, 4 x2, 5 x3, 6 zz, 7 unused.
inline R1cs toy_r1cs() {
  R1cs r;
  r.n_wires = 8;
  r.n_pub_out = 1;
  r.n_pub_in = 1;
  r.n_prv_in = 1;
  r.n_labels = 8;
  const Fr one = Fr::one();
  auto T = [](std::uint32_t w, Fr c) { return R1csTerm{w, c}; };
  std::vector<R1csTerm> a, b, c;
  a = {T(3, one)}, b = {T(3, one)}, c = {T(4, one)};
  r.add_constraint(a, b, c);
  a = {T(4, one)}, b = {T(3, one)}, c = {T(5, one)};
  r.add_constraint(a, b, c);
  // circom style: −(x3 + x + 5)·1 = −y
  a = {T(5, -one), T(3, -one), T(0, -Fr::from_u64(5))}, b = {T(0, one)}, c = {T(1, -one)};
  r.add_constraint(a, b, c);
  a = {T(2, one)}, b = {T(2, one)}, c = {T(6, one)};
  r.add_constraint(a, b, c);
  for (std::uint64_t i = 0; i < 8; ++i) r.wire_to_label.push_back(i);
  return r;
}

inline Witness toy_witness(std::uint64_t x, std::uint64_t z) {
  std::vector<Fr> w(8);
  const Fr fx = Fr::from_u64(x), fz = Fr::from_u64(z);
  w[0] = Fr::one();
  w[3] = fx;
  w[4] = fx * fx;
  w[5] = w[4] * fx;
  w[1] = w[5] + fx + Fr::from_u64(5);
  w[2] = fz;
  w[6] = fz * fz;
  w[7] = Fr::from_u64(42);
  return Witness::from_fr(w);
}

/// L_j(τ) over the 2^k domain of ffjavascript's roots: (τ^m − 1)/m · ω^j/(τ − ω^j).
inline Fr lagrange_at(unsigned k, std::size_t j, const Fr& tau) {
  const std::uint64_t m = std::uint64_t{1} << k;
  const Fr wj = snarkjs_root_of_unity(k).pow(static_cast<std::uint64_t>(j));
  return (tau.pow(m) - Fr::one()) * Fr::from_u64(m).inverse() * wj * (tau - wj).inverse();
}

struct ToyKey {
  Zkey zkey;
  std::vector<Fr> u, v, w;  ///< u_i(τ), v_i(τ), w_i(τ) per wire
  Toxic t;
};

inline G1Affine g1(const Fr& k) { return G1Affine::generator().mul(k).to_affine(); }
inline G2Affine g2(const Fr& k) { return G2Affine::generator().mul(k).to_affine(); }

inline ToyKey toy_setup(const R1cs& r, const Toxic& t) {
  ToyKey key;
  key.t = t;
  Zkey& z = key.zkey;
  z.n_vars = r.n_wires;
  z.n_public = r.n_public();
  const std::size_t rows = r.n_constraints + z.n_public + 1;
  unsigned k = 1;
  while ((std::size_t{1} << k) < rows) ++k;
  z.domain_size = 1u << k;
  const std::size_t nv = z.n_vars;
  key.u.assign(nv, Fr::zero());
  key.v.assign(nv, Fr::zero());
  key.w.assign(nv, Fr::zero());
  for (std::uint32_t c = 0; c < r.n_constraints; ++c) {
    const Fr L = lagrange_at(k, c, t.tau);
    for (const auto& term : r.lc(c, 0)) {
      key.u[term.wire] += term.coeff * L;
      z.coeffs.push_back({0, c, term.wire, term.coeff});
    }
    for (const auto& term : r.lc(c, 1)) {
      key.v[term.wire] += term.coeff * L;
      z.coeffs.push_back({1, c, term.wire, term.coeff});
    }
    for (const auto& term : r.lc(c, 2)) key.w[term.wire] += term.coeff * L;
  }
  for (std::uint32_t s = 0; s <= z.n_public; ++s) {
    key.u[s] += lagrange_at(k, r.n_constraints + s, t.tau);
    z.coeffs.push_back({0, r.n_constraints + s, s, Fr::one()});
  }
  const Fr dinv = t.delta.inverse();
  z.alpha1 = g1(t.alpha);
  z.beta1 = g1(t.beta);
  z.beta2 = g2(t.beta);
  z.gamma2 = G2Affine::generator();
  z.delta1 = g1(t.delta);
  z.delta2 = g2(t.delta);
  for (std::size_t i = 0; i < nv; ++i) {
    z.a.push_back(g1(key.u[i]));
    z.b1.push_back(g1(key.v[i]));
    z.b2.push_back(g2(key.v[i]));
    const Fr lc = t.beta * key.u[i] + t.alpha * key.v[i] + key.w[i];
    if (i <= z.n_public) {
      z.ic.push_back(g1(lc));
    } else {
      z.c.push_back(g1(lc * dinv));
    }
  }
  for (std::size_t j = 0; j < z.domain_size; ++j) z.h.push_back(g1(lagrange_at(k + 1, 2 * j + 1, t.tau) * dinv));
  z.contributions = std::vector<std::uint8_t>(64 + 4, 0);  // circuit hash (zeros) + 0 contributions
  return key;
}

/// The proof points computed from the scalars (what any correct prover must output).
inline Proof expected_proof(const ToyKey& key, const Witness& wit, const Fr& r, const Fr& s) {
  const auto& t = key.t;
  Fr U = Fr::zero(), V = Fr::zero(), W = Fr::zero(), priv = Fr::zero();
  for (std::size_t i = 0; i < wit.size(); ++i) {
    const Fr wi = wit.fr(i);
    U += wi * key.u[i];
    V += wi * key.v[i];
    W += wi * key.w[i];
    if (i > key.zkey.n_public) priv += wi * (t.beta * key.u[i] + t.alpha * key.v[i] + key.w[i]);
  }
  const Fr A = t.alpha + U + r * t.delta;
  const Fr B = t.beta + V + s * t.delta;
  const Fr C = (priv + U * V - W) * t.delta.inverse() + s * A + r * B - r * s * t.delta;
  return Proof{g1(A), g2(B), g1(C)};
}

}  // namespace proofline::groth16::snarkjs::testing
