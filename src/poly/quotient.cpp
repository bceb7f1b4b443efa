// compute_h: bellperson's H = (A·B − C)/Z, as DIF/DIT chains on the caller's buffers.
#include "proofline/poly/quotient.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <string>

namespace proofline::poly {

namespace {
constexpr std::size_t kQuotientChunk = 4096;

void check(std::span<Fr> v, const EvaluationDomain& d, const char* name) {
  if (v.size() != d.size()) {
    throw DomainError(std::string("poly::compute_h: ") + name + " has " + std::to_string(v.size()) +
                      " elements, expected the domain size " + std::to_string(d.size()) +
                      " (pad with zeros)");
  }
}
}  // namespace

void compute_h(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const EvaluationDomain& d,
               const NttConfig& cfg) {
  check(a, d, "a");
  check(b, d, "b");
  check(c, d, "c");
  // Limit threads once for the whole chain; the steps then run in the current arena (or serially).
  NttConfig inner;
  inner.max_threads = cfg.max_threads == 1 ? 1 : 0;
  const bool par = cfg.max_threads != 1 && d.log_size() >= kParallelLog;
  d.with_threads(cfg, [&] {
    // Each of a, b, c: evaluations on <ω> → evaluations on g·<ω>, natural order throughout:
    //   DIF with ω^{-1}: natural evaluations → m·(coefficient i) at position bitrev(i);
    //   multiply by g^i/m (bit-reversed positions): coefficients of f(gX);
    //   DIT with ω: bit-reversed coefficients → evaluations f(g·ω^j) at j.
    auto to_coset = [&](std::span<Fr> v) {
      d.transform_nr(v, /*forward=*/false, inner);
      d.scale_powers(v, EvaluationDomain::Powers::kGOverM, /*bit_reversed=*/true, inner);
      d.transform_rn(v, /*forward=*/true, inner);
    };
    if (par) {
      tbb::parallel_invoke([&] { to_coset(a); }, [&] { to_coset(b); }, [&] { to_coset(c); });
    } else {
      to_coset(a);
      to_coset(b);
      to_coset(c);
    }
    // a ← a·b − c on the coset (the division by Z(g·ω^j) = g^m − 1 is folded into the last scaling).
    auto pointwise = [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) a[i] = a[i] * b[i] - c[i];
    };
    if (par) {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size(), kQuotientChunk),
                        [&](const tbb::blocked_range<std::size_t>& r) { pointwise(r.begin(), r.end()); });
    } else {
      pointwise(0, a.size());
    }
    // Coset evaluations → m·coefficients at bit-reversed positions (DIF with ω^{-1}), then one pass
    // that permutes to natural order and multiplies coefficient i by g^{-i}/(m·(g^m − 1)).
    d.transform_nr(a, /*forward=*/false, inner);
    d.bit_reverse_scale(a, EvaluationDomain::Powers::kGInvOverMZ, inner);
  });
}

std::vector<Fr> compute_h(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c, const NttConfig& cfg) {
  const EvaluationDomain d(std::max({a.size(), b.size(), c.size()}));
  a.resize(d.size(), Fr::zero());
  b.resize(d.size(), Fr::zero());
  c.resize(d.size(), Fr::zero());
  compute_h(std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c), d, cfg);
  a.resize(d.size() - 1);
  return a;
}

}  // namespace proofline::poly
