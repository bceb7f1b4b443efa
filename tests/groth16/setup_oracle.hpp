// The former whole-matrix setup (until the streamed QapEvaluator setup replaced it), kept verbatim
// in algorithm as the test oracle of groth16::generate_parameters: synthesis into an
// r1cs::KeypairAssembly (the A, B, C matrices by columns), all L_i(τ) at once, column sums, every
// query's scalars in memory, then the fixed-base points. Not a test file itself; used by
// tests/groth16/setup_stream_test.cpp and tests/circuits/porep_setup_test.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "proofline/groth16/setup.hpp"
#include "proofline/poly/domain.hpp"
#include "proofline/r1cs/keypair_assembly.hpp"

namespace proofline::groth16::oracle {

/// u_j(τ), v_j(τ), w_j(τ) per input and per aux variable, with the domain facts used.
struct QapAtTau {
  std::size_t m = 0;
  Fr z_tau;
  std::vector<Fr> u_in, v_in, w_in;
  std::vector<Fr> u_aux, v_aux, w_aux;
};

[[noreturn]] inline void degenerate(const std::string& what) {
  throw ProoflineError(Error::UnexpectedInfinity, "setup: " + what);
}

/// The QAP of a finalized KeypairAssembly at τ.
inline QapAtTau evaluate_qap(const r1cs::KeypairAssembly& cs, const Fr& tau) {
  QapAtTau q;
  const poly::EvaluationDomain domain(std::max<std::size_t>(cs.num_constraints(), 1));
  const std::size_t m = domain.size();
  q.m = m;
  q.z_tau = domain.z_at(tau);
  if (q.z_tau.is_zero()) degenerate("tau lies in the evaluation domain (Z(tau) = 0); draw new toxic waste");
  const Fr zm = q.z_tau * domain.size_inv();
  std::vector<Fr> lag(m);
  constexpr std::size_t kChunk = 4096;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m, kChunk), [&](const auto& r) {
    std::vector<Fr> wpow(r.size()), scratch(r.size());
    Fr w = domain.omega().pow(static_cast<std::uint64_t>(r.begin()));
    for (std::size_t i = 0; i < r.size(); ++i) {
      wpow[i] = w;
      lag[r.begin() + i] = tau - w;
      w *= domain.omega();
    }
    ff::batch_inverse(std::span<Fr>(lag.data() + r.begin(), r.size()), std::span<Fr>(scratch));
    for (std::size_t i = 0; i < r.size(); ++i) lag[r.begin() + i] = zm * wpow[i] * lag[r.begin() + i];
  });
  auto eval = [&](std::span<const r1cs::ColumnEntry> col) {
    Fr acc = Fr::zero();
    for (const auto& e : col) acc += e.coeff * lag[e.row];
    return acc;
  };
  const std::size_t n_in = cs.num_inputs(), n_aux = cs.num_aux();
  q.u_in.resize(n_in);
  q.v_in.resize(n_in);
  q.w_in.resize(n_in);
  q.u_aux.resize(n_aux);
  q.v_aux.resize(n_aux);
  q.w_aux.resize(n_aux);
  for (std::size_t j = 0; j < n_in; ++j) {
    q.u_in[j] = eval(cs.a().input(j));
    q.v_in[j] = eval(cs.b().input(j));
    q.w_in[j] = eval(cs.c().input(j));
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_aux, 1024), [&](const auto& r) {
    for (std::size_t j = r.begin(); j != r.end(); ++j) {
      q.u_aux[j] = eval(cs.a().aux(j));
      q.v_aux[j] = eval(cs.b().aux(j));
      q.w_aux[j] = eval(cs.c().aux(j));
    }
  });
  return q;
}

/// Replaces the fixed-base multiplications (for tests that compare scalars, not points).
struct OracleMul {
  std::function<std::vector<ec::G1Affine>(std::span<const Fr>)> g1;
  std::function<std::vector<ec::G2Affine>(std::span<const Fr>)> g2;
};

/// Parameters of a finalized KeypairAssembly with the given toxic waste.
inline Parameters generate_parameters(const r1cs::KeypairAssembly& cs, const ToxicWaste& tw, const OracleMul& hooks = {}) {
  if (tw.tau.is_zero() || tw.alpha.is_zero() || tw.beta.is_zero() || tw.gamma.is_zero() || tw.delta.is_zero()) {
    degenerate("toxic waste has a zero element (tau, alpha, beta, gamma and delta must be non-zero)");
  }
  Parameters p;
  const QapAtTau q = evaluate_qap(cs, tw.tau);
  const std::size_t m = q.m, n_in = cs.num_inputs(), n_aux = cs.num_aux();
  const Fr gamma_inv = tw.gamma.inverse();
  const Fr delta_inv = tw.delta.inverse();
  std::vector<Fr> ic_s(n_in), l_s(n_aux), a_s, b_s;
  for (std::size_t j = 0; j < n_in; ++j) ic_s[j] = (tw.beta * q.u_in[j] + tw.alpha * q.v_in[j] + q.w_in[j]) * gamma_inv;
  for (std::size_t j = 0; j < n_aux; ++j) {
    l_s[j] = (tw.beta * q.u_aux[j] + tw.alpha * q.v_aux[j] + q.w_aux[j]) * delta_inv;
  }
  for (std::size_t j = 0; j < n_aux; ++j) {
    if (l_s[j].is_zero()) {
      if (cs.a().aux(j).empty() && cs.b().aux(j).empty() && cs.c().aux(j).empty()) {
        degenerate("aux variable " + std::to_string(j) +
                   " is unconstrained (appears in no constraint); its l query point would be the identity");
      }
      degenerate("aux variable " + std::to_string(j) + " evaluates to zero at tau; draw new toxic waste");
    }
  }
  auto keep = [&](std::vector<Fr>& out, const Fr& x, bool column_nonempty, const char* which, bool input,
                  std::size_t j) {
    if (x.is_zero() != !column_nonempty) {
      degenerate(std::string(which) + " polynomial of " + (input ? "input " : "aux ") + std::to_string(j) +
                 " vanishes at tau although its column is non-empty; draw new toxic waste");
    }
    if (column_nonempty) out.push_back(x);
  };
  for (std::size_t j = 0; j < n_in; ++j) keep(a_s, q.u_in[j], !cs.a().input(j).empty(), "A", true, j);
  for (std::size_t j = 0; j < n_aux; ++j) keep(a_s, q.u_aux[j], !cs.a().aux(j).empty(), "A", false, j);
  if (a_s.size() < n_in) degenerate("an input is absent from A (input constraints missing: was the system finalized?)");
  for (std::size_t j = 0; j < n_in; ++j) keep(b_s, q.v_in[j], !cs.b().input(j).empty(), "B", true, j);
  for (std::size_t j = 0; j < n_aux; ++j) keep(b_s, q.v_aux[j], !cs.b().aux(j).empty(), "B", false, j);
  std::vector<Fr> h_s(m - 1);
  const Fr zd = q.z_tau * delta_inv;
  Fr t = zd;
  for (std::size_t i = 0; i < h_s.size(); ++i) {
    h_s[i] = t;
    t *= tw.tau;
  }
  const std::size_t n_g1 = ic_s.size() + l_s.size() + a_s.size() + b_s.size() + h_s.size() + 4;
  const FixedBaseTable<ec::G1Config> g1(ec::G1Affine::generator(), FixedBaseTable<ec::G1Config>::window_for(n_g1));
  const FixedBaseTable<ec::G2Config> g2(ec::G2Affine::generator(), FixedBaseTable<ec::G2Config>::window_for(b_s.size() + 3));
  p.vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
  p.vk.beta_g1 = g1.mul(tw.beta).to_affine();
  p.vk.beta_g2 = g2.mul(tw.beta).to_affine();
  p.vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
  p.vk.delta_g1 = g1.mul(tw.delta).to_affine();
  p.vk.delta_g2 = g2.mul(tw.delta).to_affine();
  auto batch1 = [&](std::span<const Fr> ks) { return hooks.g1 ? hooks.g1(ks) : g1.mul_batch(ks); };
  p.vk.ic = batch1(ic_s);
  p.h = batch1(h_s);
  p.l = batch1(l_s);
  p.a = batch1(a_s);
  p.b_g1 = batch1(b_s);
  p.b_g2 = hooks.g2 ? hooks.g2(b_s) : g2.mul_batch(b_s);
  return p;
}

/// Synthesizes `circuit` into a KeypairAssembly and generates its parameters.
template <class C>
Parameters generate_parameters(const C& circuit, const ToxicWaste& tw, const OracleMul& hooks = {}) {
  r1cs::KeypairAssembly cs;
  r1cs::synthesize(circuit, cs);
  return generate_parameters(cs, tw, hooks);
}

}  // namespace proofline::groth16::oracle
