// msm/msm_impl.hpp (private, src/msm/) — the definitions of msm.hpp's templates (scratch_bytes,
// msm_segments, msm, msm_density, msm_query_a/b, sum, sum_selected).
//
// Included only by src/msm/*.cpp, which instantiate them for G1 and G2 (and by tests that read the
// detail:: test hooks, through the src/ include path tests get). The machinery is split by job:
//   scalar_split.hpp  scalar kinds, sign trick, Booth digits, GLV/GLS split, tagged base pointers
//   batch_affine.hpp  the batch-affine bucket accumulator and the running-sum reduction
//   pippenger.hpp     checks, plan, scratch, window sums, 0/1 path, split pass, endomorphism expansion
// See msm.hpp for the algorithm description and cost model.
#pragma once

#include <cstddef>
#include <span>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "proofline/msm/msm.hpp"
#include "pippenger.hpp"

namespace proofline::msm {

// =================================================================================================
// entry points
// =================================================================================================

template <class Cfg>
std::size_t scratch_bytes(std::size_t n, const MsmConfig& cfg) {
  using Acc = detail::BatchAffineBuckets<Cfg>;
  using E = detail::EndoSplit<Cfg>;
  const int threads = cfg.threads > 0 ? cfg.threads : tbb::this_task_arena::max_concurrency();
  const bool endo = cfg.endomorphism && E::D > 1;
  const std::size_t m = endo ? n * E::D : n;  // Pippenger terms
  const detail::Plan p = endo ? detail::make_plan(m, threads, cfg, E::kBits, E::kLimbs) : detail::make_plan(n, threads, cfg);
  const std::size_t nb = std::size_t{1} << (p.c - 1);
  std::size_t per_thread;
  if (p.affine) {
    per_thread = Acc::bytes(nb, p.batch);
    if (p.segmented_reduce && nb >= 2 * detail::kMinReduceSegments)
      per_thread += Acc::bytes(2 * detail::kMaxReduceSegments, detail::kMaxReduceSegments);
  } else {
    per_thread = nb * sizeof(ec::XyzzPoint<Cfg>);
  }
  const std::size_t tasks = static_cast<std::size_t>(p.windows) * p.chunks;
  const std::size_t live = std::min<std::size_t>(tasks, static_cast<std::size_t>(threads));
  std::size_t split_bytes = n * (sizeof(std::uintptr_t) + sizeof(ScalarLimbs));
  if (endo)  // expanded terms: tagged pointers, scalar parts, endomorphism images
    split_bytes += m * (sizeof(std::uintptr_t) + E::kLimbs * sizeof(std::uint64_t)) +
                   n * (E::D - 1) * sizeof(ec::AffinePoint<Cfg>);
  return split_bytes + live * per_thread + tasks * sizeof(ec::XyzzPoint<Cfg>);
}

namespace detail {
/// Up to this many Pippenger terms (auto window) are done by direct scalar multiplication.
inline constexpr std::size_t kDirectMax = 3;
}  // namespace detail

template <class Cfg>
ec::JacobianPoint<Cfg> msm_segments(std::span<const Segment<Cfg>> segments, const MsmConfig& cfg) {
  detail::check_config(cfg);
  for (const Segment<Cfg>& sg : segments) detail::check_segment(sg);
  return detail::run_with_threads(cfg.threads, [&]() -> ec::JacobianPoint<Cfg> {
    const int threads = tbb::this_task_arena::max_concurrency();
    detail::check_cancel(cfg.cancel, "before the split");
    detail::Split<Cfg> sp = detail::split<Cfg>(segments, cfg.split_ones);
    detail::check_cancel(cfg.cancel, "after the split");
    detail::ScratchSlots<Cfg> slots;
    ec::XyzzPoint<Cfg> r = ec::XyzzPoint<Cfg>::identity();
    if (sp.rest > 0 && sp.rest <= detail::kDirectMax && cfg.window_bits == 0) {
      // A handful of terms: one wNAF scalar multiplication each beats 128 windows of c = 2.
      ec::JacobianPoint<Cfg> acc = ec::JacobianPoint<Cfg>::identity();
      for (std::size_t i = 0; i < sp.rest; ++i) {
        const ec::AffinePoint<Cfg>& p = detail::base_of<Cfg>(sp.ptr[i]);
        if (p.infinity) continue;
        const ec::JacobianPoint<Cfg> t = p.to_projective().mul_limbs(sp.scalar[i]);
        acc += (sp.ptr[i] & 1) ? -t : t;
      }
      r = ec::XyzzPoint<Cfg>::from_projective(acc);
    } else if (sp.rest > 0) {
      using E = detail::EndoSplit<Cfg>;
      bool done = false;
      if constexpr (E::D > 1) {
        if (cfg.endomorphism) {
          const detail::Expanded<Cfg> ex = detail::expand_endo<Cfg>(sp.ptr.get(), sp.scalar.get(), sp.rest);
          detail::check_cancel(cfg.cancel, "after the endomorphism split");
          const detail::Plan plan = detail::make_plan(ex.m, threads, cfg, E::kBits, E::kLimbs);
          r = detail::pippenger<Cfg>(ex.ptr.get(), ex.scalar.get(), ex.m, plan, slots, cfg.cancel);
          done = true;
        }
      }
      if (!done) {
        const detail::Plan plan = detail::make_plan(sp.rest, threads, cfg);
        r = detail::pippenger<Cfg>(sp.ptr.get(), sp.scalar[0].data(), sp.rest, plan, slots, cfg.cancel);
      }
    }
    if (sp.ones > 0) r += detail::sum_tagged<Cfg>(sp.ptr.get() + (sp.cap - sp.ones), sp.ones, slots, cfg.cancel);
    return r.to_projective();
  });
}

template <class Cfg>
ec::JacobianPoint<Cfg> msm(std::span<const ec::AffinePoint<Cfg>> bases, Scalars scalars, const MsmConfig& cfg) {
  if (bases.size() != scalars.size()) detail::throw_length("bases vs scalars", bases.size(), scalars.size());
  const Segment<Cfg> seg{bases, 0, nullptr, scalars};
  return msm_segments<Cfg>(std::span<const Segment<Cfg>>(&seg, 1), cfg);
}

template <class Cfg>
ec::JacobianPoint<Cfg> msm_density(std::span<const ec::AffinePoint<Cfg>> bases, std::size_t start,
                                   const Density& density, Scalars scalars, const MsmConfig& cfg) {
  const Segment<Cfg> seg{bases, start, &density, scalars};
  return msm_segments<Cfg>(std::span<const Segment<Cfg>>(&seg, 1), cfg);
}

template <class Cfg>
ec::JacobianPoint<Cfg> msm_query_a(std::span<const ec::AffinePoint<Cfg>> a, Scalars inputs, Scalars aux,
                                   const Density& aux_density, const MsmConfig& cfg) {
  const std::size_t want = inputs.size() + aux_density.popcount();
  if (a.size() != want) detail::throw_length("A query length (inputs + A aux density)", a.size(), want);
  const Segment<Cfg> segs[2] = {{a, 0, nullptr, inputs}, {a, inputs.size(), &aux_density, aux}};
  return msm_segments<Cfg>(segs, cfg);
}

template <class Cfg>
ec::JacobianPoint<Cfg> msm_query_b(std::span<const ec::AffinePoint<Cfg>> b, Scalars inputs,
                                   const Density& input_density, Scalars aux, const Density& aux_density,
                                   const MsmConfig& cfg) {
  const std::size_t pin = input_density.popcount();
  const std::size_t want = pin + aux_density.popcount();
  if (b.size() != want) detail::throw_length("B query length (B input + aux density)", b.size(), want);
  const Segment<Cfg> segs[2] = {{b, 0, &input_density, inputs}, {b, pin, &aux_density, aux}};
  return msm_segments<Cfg>(segs, cfg);
}

namespace detail {

/// Σ bases[i] over all i (sel == nullptr) or over the set bits of *sel.
template <class Cfg>
ec::JacobianPoint<Cfg> sum_impl(std::span<const ec::AffinePoint<Cfg>> bases, const Density* sel,
                                const MsmConfig& cfg) {
  using Xyzz = ec::XyzzPoint<Cfg>;
  detail::check_config(cfg);
  const bool all = sel == nullptr;
  const Density empty;
  const Density& selected = all ? empty : *sel;
  if (!all) {
    if (selected.bits != bases.size()) detail::throw_length("selection bits vs bases", selected.bits, bases.size());
    if (selected.words.size() * 64 < selected.bits)
      detail::throw_length("selection words", selected.words.size(), (selected.bits + 63) / 64);
  }
  const std::size_t n = bases.size();
  return detail::run_with_threads(cfg.threads, [&]() -> ec::JacobianPoint<Cfg> {
    if (n == 0) return ec::JacobianPoint<Cfg>::identity();
    detail::ScratchSlots<Cfg> slots;
    const std::size_t T = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
    // Chunks of whole 64-bit words.
    const std::size_t words = (n + 63) / 64;
    const std::size_t chunks = std::max<std::size_t>(1, std::min(4 * T, words / 64));
    std::vector<Xyzz> part(chunks);
    detail::check_cancel(cfg.cancel, "before the sum");
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t c = r.begin(); c != r.end(); ++c) {
        if (detail::cancelled(cfg.cancel)) return;
        const std::size_t wlo = words * c / chunks, whi = words * (c + 1) / chunks;
        const std::size_t lo = wlo * 64, hi = std::min(n, whi * 64);
        std::size_t count = hi - lo;
        if (!all) {
          count = 0;
          for (std::size_t w = wlo; w < whi; ++w) {
            std::uint64_t bits = selected.words[w];
            if (w == words - 1 && (n & 63)) bits &= (std::uint64_t{1} << (n & 63)) - 1;
            count += static_cast<std::size_t>(std::popcount(bits));
          }
        }
        part[c] = detail::sum_chunk<Cfg>(
            count,
            [&](auto&& emit) {
              if (all) {
                for (std::size_t i = lo; i < hi; ++i) emit(detail::tag<Cfg>(&bases[i], false));
                return;
              }
              for (std::size_t w = wlo; w < whi; ++w) {
                std::uint64_t bits = selected.words[w];
                if (w == words - 1 && (n & 63)) bits &= (std::uint64_t{1} << (n & 63)) - 1;
                while (bits) {
                  const unsigned b = static_cast<unsigned>(std::countr_zero(bits));
                  bits &= bits - 1;
                  emit(detail::tag<Cfg>(&bases[w * 64 + b], false));
                }
              }
            },
            slots.mine());
      }
    });
    detail::check_cancel(cfg.cancel, "between chunks of the sum");
    Xyzz acc = Xyzz::identity();
    for (const Xyzz& p : part) acc += p;
    return acc.to_projective();
  });
}

}  // namespace detail

template <class Cfg>
ec::JacobianPoint<Cfg> sum(std::span<const ec::AffinePoint<Cfg>> bases, const MsmConfig& cfg) {
  return detail::sum_impl<Cfg>(bases, nullptr, cfg);
}

template <class Cfg>
ec::JacobianPoint<Cfg> sum_selected(std::span<const ec::AffinePoint<Cfg>> bases, const Density& selected,
                                    const MsmConfig& cfg) {
  return detail::sum_impl<Cfg>(bases, &selected, cfg);
}

}  // namespace proofline::msm
