// Development / test parameter generation (include/proofline/groth16/setup.hpp).
#include "proofline/groth16/setup.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "proofline/poly/domain.hpp"

namespace proofline::groth16 {

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
void run_with_threads(int threads, F&& f) {
  if (threads > 0) {
    tbb::task_arena arena(threads);
    arena.execute(f);
  } else {
    f();
  }
}

[[noreturn]] void degenerate(const std::string& what) {
  throw ProoflineError(Error::UnexpectedInfinity, "setup: " + what);
}

/// Bits [lo, lo + w) of a 4-limb little-endian integer.
inline unsigned window_digit(const ff::Fr::Limbs& k, unsigned lo, unsigned w) {
  const unsigned limb = lo / 64, shift = lo % 64;
  std::uint64_t v = k[limb] >> shift;
  if (shift + w > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - shift);
  return static_cast<unsigned>(v & ((std::uint64_t{1} << w) - 1));
}

constexpr unsigned kScalarBits = 255;

}  // namespace

// ---- toxic waste -------------------------------------------------------------------------------
ToxicWaste draw_toxic_waste(ByteSource& rng) {
  ToxicWaste tw;
  tw.tau = random_nonzero_fr(rng);
  tw.alpha = random_nonzero_fr(rng);
  tw.beta = random_nonzero_fr(rng);
  tw.gamma = random_nonzero_fr(rng);
  tw.delta = random_nonzero_fr(rng);
  return tw;
}

// ---- fixed-base tables -------------------------------------------------------------------------
template <class Cfg>
FixedBaseTable<Cfg>::FixedBaseTable(const ec::AffinePoint<Cfg>& base, unsigned window_bits)
    : w_(std::clamp(window_bits, 1u, 16u)), windows_((kScalarBits + w_ - 1) / w_) {
  const std::size_t per = (std::size_t{1} << w_) - 1;
  // bases_k = 2^(wk)·P, sequentially (w doublings each).
  std::vector<ec::JacobianPoint<Cfg>> bases(windows_);
  ec::JacobianPoint<Cfg> b = base.to_projective();
  for (unsigned k = 0; k < windows_; ++k) {
    bases[k] = b;
    for (unsigned i = 0; i < w_; ++i) b = b.dbl();
  }
  table_.resize(windows_ * per);
  tbb::parallel_for(0u, windows_, [&](unsigned k) {
    std::vector<ec::JacobianPoint<Cfg>> jac(per);
    ec::JacobianPoint<Cfg> acc = bases[k];
    jac[0] = acc;
    for (std::size_t d = 1; d < per; ++d) {
      acc += bases[k];
      jac[d] = acc;
    }
    ec::batch_to_affine(std::span<const ec::JacobianPoint<Cfg>>(jac),
                        std::span<ec::AffinePoint<Cfg>>(table_.data() + k * per, per));
  });
}

template <class Cfg>
ec::JacobianPoint<Cfg> FixedBaseTable<Cfg>::mul(const Fr& k) const {
  const ff::Fr::Limbs c = k.to_canonical();
  const std::size_t per = (std::size_t{1} << w_) - 1;
  ec::JacobianPoint<Cfg> acc = ec::JacobianPoint<Cfg>::identity();
  for (unsigned i = 0; i < windows_; ++i) {
    unsigned d = window_digit(c, i * w_, w_);  // bits >= 255 are zero (k < r < 2^255)
    if (d != 0) acc += table_[i * per + d - 1];
  }
  return acc;
}

template <class Cfg>
std::vector<ec::AffinePoint<Cfg>> FixedBaseTable<Cfg>::mul_batch(std::span<const Fr> scalars) const {
  std::vector<ec::AffinePoint<Cfg>> out(scalars.size());
  constexpr std::size_t kChunk = 1024;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), kChunk), [&](const auto& r) {
    std::vector<ec::JacobianPoint<Cfg>> jac(r.size());
    for (std::size_t i = r.begin(); i != r.end(); ++i) jac[i - r.begin()] = mul(scalars[i]);
    ec::batch_to_affine(std::span<const ec::JacobianPoint<Cfg>>(jac),
                        std::span<ec::AffinePoint<Cfg>>(out.data() + r.begin(), r.size()));
  });
  return out;
}

template <class Cfg>
unsigned FixedBaseTable<Cfg>::window_for(std::size_t n) {
  unsigned best = 2;
  double best_cost = 1e300;
  for (unsigned w = 2; w <= 16; ++w) {
    double windows = (kScalarBits + w - 1) / w;
    double cost = windows * (double(std::size_t{1} << w) + double(n));
    if (cost < best_cost) {
      best_cost = cost;
      best = w;
    }
  }
  return best;
}

template class FixedBaseTable<ec::G1Config>;
template class FixedBaseTable<ec::G2Config>;

// ---- QAP at τ -----------------------------------------------------------------------------------
QapAtTau evaluate_qap(const r1cs::KeypairAssembly& cs, const Fr& tau, int threads) {
  QapAtTau q;
  const poly::EvaluationDomain domain(std::max<std::size_t>(cs.num_constraints(), 1));
  const std::size_t m = domain.size();
  q.m = m;
  q.z_tau = domain.z_at(tau);
  if (q.z_tau.is_zero()) degenerate("tau lies in the evaluation domain (Z(tau) = 0); draw new toxic waste");
  // L_i(τ) = Z(τ)/m · ω^i / (τ − ω^i)
  const Fr zm = q.z_tau * domain.size_inv();
  std::vector<Fr> lag(m);
  run_with_threads(threads, [&] {
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
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_in, 1024), [&](const auto& r) {
      for (std::size_t j = r.begin(); j != r.end(); ++j) {
        q.u_in[j] = eval(cs.a().input(j));
        q.v_in[j] = eval(cs.b().input(j));
        q.w_in[j] = eval(cs.c().input(j));
      }
    });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_aux, 1024), [&](const auto& r) {
      for (std::size_t j = r.begin(); j != r.end(); ++j) {
        q.u_aux[j] = eval(cs.a().aux(j));
        q.v_aux[j] = eval(cs.b().aux(j));
        q.w_aux[j] = eval(cs.c().aux(j));
      }
    });
  });
  return q;
}

// ---- the generator ------------------------------------------------------------------------------
Parameters generate_parameters(const r1cs::KeypairAssembly& cs, const ToxicWaste& tw, const SetupOptions& opts) {
  if (opts.warn) {
    std::fprintf(stderr,
                 "WARNING: proofline setup generates Groth16 parameters for DEVELOPMENT AND TESTING ONLY. The toxic "
                 "waste was created by this process; these parameters are NOT secure (anyone knowing it can forge "
                 "proofs).\n");
  }
  if (tw.tau.is_zero() || tw.alpha.is_zero() || tw.beta.is_zero() || tw.gamma.is_zero() || tw.delta.is_zero()) {
    degenerate("toxic waste has a zero element (tau, alpha, beta, gamma and delta must be non-zero)");
  }
  const bool progress = cs.num_constraints() >= opts.progress_min_constraints;
  const auto t_start = Clock::now();
  auto report = [&](const char* what, std::size_t count, Clock::time_point t0) {
    if (!progress) return;
    double s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::fprintf(stderr, "setup: %-8s %10zu points  %8.2f s\n", what, count, s);
  };
  if (progress) {
    std::fprintf(stderr, "setup: %zu constraints (incl. %zu input constraints), %zu inputs, %zu aux\n",
                 cs.num_constraints(), cs.num_inputs(), cs.num_inputs(), cs.num_aux());
  }

  Parameters p;
  run_with_threads(opts.threads, [&] {
    auto t0 = Clock::now();
    const QapAtTau q = evaluate_qap(cs, tw.tau, 0);
    const std::size_t m = q.m, n_in = cs.num_inputs(), n_aux = cs.num_aux();
    report("qap", m, t0);
    t0 = Clock::now();

    const Fr gamma_inv = tw.gamma.inverse();
    const Fr delta_inv = tw.delta.inverse();

    // Scalars of every query.
    std::vector<Fr> ic_s(n_in), l_s(n_aux), a_s, b_s;
    for (std::size_t j = 0; j < n_in; ++j) ic_s[j] = (tw.beta * q.u_in[j] + tw.alpha * q.v_in[j] + q.w_in[j]) * gamma_inv;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n_aux, 4096), [&](const auto& r) {
      for (std::size_t j = r.begin(); j != r.end(); ++j) {
        l_s[j] = (tw.beta * q.u_aux[j] + tw.alpha * q.v_aux[j] + q.w_aux[j]) * delta_inv;
      }
    });
    for (std::size_t j = 0; j < n_aux; ++j) {
      if (l_s[j].is_zero()) {
        if (cs.a().aux(j).empty() && cs.b().aux(j).empty() && cs.c().aux(j).empty()) {
          degenerate("aux variable " + std::to_string(j) +
                     " is unconstrained (appears in no constraint); its l query point would be the identity");
        }
        degenerate("aux variable " + std::to_string(j) + " evaluates to zero at tau; draw new toxic waste");
      }
    }
    a_s.reserve(n_in + n_aux);
    b_s.reserve(n_in + n_aux);
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

    // h_i = τ^i·Z(τ)/δ, i < m − 1.
    std::vector<Fr> h_s(m - 1);
    const Fr zd = q.z_tau * delta_inv;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h_s.size(), 4096), [&](const auto& r) {
      Fr t = tw.tau.pow(static_cast<std::uint64_t>(r.begin())) * zd;
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        h_s[i] = t;
        t *= tw.tau;
      }
    });

    report("scalars", n_in + n_aux + h_s.size(), t0);

    // Fixed-base multiplications.
    t0 = Clock::now();
    const std::size_t n_g1 = ic_s.size() + l_s.size() + a_s.size() + b_s.size() + h_s.size() + 4;
    const FixedBaseTable<ec::G1Config> g1(ec::G1Affine::generator(), FixedBaseTable<ec::G1Config>::window_for(n_g1));
    const FixedBaseTable<ec::G2Config> g2(ec::G2Affine::generator(), FixedBaseTable<ec::G2Config>::window_for(b_s.size() + 3));
    report("tables", 0, t0);

    p.vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
    p.vk.beta_g1 = g1.mul(tw.beta).to_affine();
    p.vk.beta_g2 = g2.mul(tw.beta).to_affine();
    p.vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
    p.vk.delta_g1 = g1.mul(tw.delta).to_affine();
    p.vk.delta_g2 = g2.mul(tw.delta).to_affine();
    auto batch1 = [&](const char* what, std::span<const Fr> ks) {
      const auto t = Clock::now();
      auto out = opts.g1_batch ? opts.g1_batch(g1, ks) : g1.mul_batch(ks);
      if (out.size() != ks.size()) {
        throw ProoflineError(Error::BadLength, std::string("setup: SetupOptions::g1_batch returned ") +
                                                   std::to_string(out.size()) + " points for " + what + ", expected " +
                                                   std::to_string(ks.size()));
      }
      report(what, ks.size(), t);
      return out;
    };
    p.vk.ic = batch1("ic", ic_s);
    p.h = batch1("h", h_s);
    p.l = batch1("l", l_s);
    p.a = batch1("a", a_s);
    p.b_g1 = batch1("b_g1", b_s);
    t0 = Clock::now();
    p.b_g2 = opts.g2_batch ? opts.g2_batch(g2, b_s) : g2.mul_batch(b_s);
    if (p.b_g2.size() != b_s.size()) {
      throw ProoflineError(Error::BadLength, "setup: SetupOptions::g2_batch returned " + std::to_string(p.b_g2.size()) +
                                                 " points for b_g2, expected " + std::to_string(b_s.size()));
    }
    report("b_g2", b_s.size(), t0);
  });
  if (progress) {
    std::fprintf(stderr, "setup: done in %.2f s\n", std::chrono::duration<double>(Clock::now() - t_start).count());
  }
  return p;
}

}  // namespace proofline::groth16
