// compute_h: bellperson's H = (A·B − C)/Z, as DIF/DIT chains on the caller's buffers.
#include "proofline/poly/quotient.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <string>

namespace proofline::poly {

namespace {
constexpr std::size_t kChunk = 4096;

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
    for (std::span<Fr> v : {a, b, c}) {
      // evaluations (natural) → m·coefficients, coefficient i at bitrev(i)
      d.transform_nr(v, /*forward=*/false, inner);
      // → coefficient i · g^i / m, still bit-reversed
      d.scale_powers(v, EvaluationDomain::Powers::kGOverM, /*bit_reversed=*/true, inner);
      // → evaluations at g·ω^j, natural order
      d.transform_rn(v, /*forward=*/true, inner);
    }
    // a ← (a·b − c) / Z(coset), Z(g·ω^j) = g^m − 1.
    const Fr z_inv = d.z_inv_on_coset();
    auto pointwise = [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
    };
    if (par) {
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size(), kChunk),
                        [&](const tbb::blocked_range<std::size_t>& r) { pointwise(r.begin(), r.end()); });
    } else {
      pointwise(0, a.size());
    }
    // coset evaluations → m·coefficients (bit-reversed) → natural coefficients · g^{-i} / m.
    d.transform_nr(a, /*forward=*/false, inner);
    d.bit_reverse_scale(a, EvaluationDomain::Powers::kGInvOverM, inner);
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
