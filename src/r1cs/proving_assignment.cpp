// ProvingAssignment: prover-mode synthesis (evaluate each constraint at once, track densities).
#include "proofline/r1cs/proving_assignment.hpp"

#include <algorithm>
#include <atomic>
#include <array>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>


#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace proofline::r1cs {

namespace {
thread_local const std::atomic<bool>* t_cancel_scope = nullptr;
thread_local SynthesisLimits t_limits_scope;
}  // namespace

CancelScope::CancelScope(const std::atomic<bool>* flag, const SynthesisLimits& limits) noexcept
    : prev_(t_cancel_scope), prev_limits_(t_limits_scope) {
  t_cancel_scope = flag;
  t_limits_scope = limits;
}
CancelScope::~CancelScope() {
  t_cancel_scope = prev_;
  t_limits_scope = prev_limits_;
}
const std::atomic<bool>* CancelScope::current() noexcept { return t_cancel_scope; }
SynthesisLimits CancelScope::current_limits() noexcept { return t_limits_scope; }

namespace {

// Asks the kernel for transparent huge pages on the whole 2 MiB pages of [p, p + bytes) not yet
// touched (a hint: without effect where THP is off, on pages already faulted in, or elsewhere than
// Linux). Fresh GB-sized buffers otherwise take a page fault per 4 KiB as the parts first write
// them: most of a partition's synthesis time on a fresh buffer.
void advise_huge_pages([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

}  // namespace

namespace {
std::atomic<ReleaseHook> g_release_hook{nullptr};
}  // namespace

void set_release_hook(ReleaseHook hook) noexcept { g_release_hook.store(hook, std::memory_order_release); }
ReleaseHook release_hook() noexcept { return g_release_hook.load(std::memory_order_acquire); }

void ProvingBuffers::clear() noexcept {
  a.clear();
  b.clear();
  c.clear();
  input_assignment.clear();
  aux_assignment.clear();
  packed_aux.clear();
  a_aux_density.clear();
  b_input_density.clear();
  b_aux_density.clear();
  compiled.reset();
}

ProvingAssignment::ProvingAssignment() {
  set_prover_buffers(&buf_);
  set_cancel_flag(CancelScope::current());
  set_limits(CancelScope::current_limits());
  init_one();
}

ProvingAssignment::ProvingAssignment(ProvingBuffers recycled) : buf_(std::move(recycled)) {
  set_prover_buffers(&buf_);
  set_cancel_flag(CancelScope::current());
  set_limits(CancelScope::current_limits());
  buf_.clear();
  init_one();
}

void ProvingAssignment::init_one() {
  // ONE is Input(0) (the base class counts it): value 1, and not (yet) B-dense.
  buf_.input_assignment.push_back(Fr::one());
  buf_.b_input_density.push_back(false);
}

void ProvingAssignment::reserve(std::size_t n_constraints, std::size_t n_inputs, std::size_t n_aux) {
  buf_.a.reserve(n_constraints);
  buf_.b.reserve(n_constraints);
  buf_.c.reserve(n_constraints);
  buf_.input_assignment.reserve(n_inputs);
  buf_.aux_assignment.reserve(n_aux);
  buf_.a_aux_density.reserve(n_aux);
  buf_.b_input_density.reserve(n_inputs);
  buf_.b_aux_density.reserve(n_aux);
  for (FrVector* v : {&buf_.a, &buf_.b, &buf_.c, &buf_.aux_assignment}) {
    advise_huge_pages(v->data() + v->size(), (v->capacity() - v->size()) * sizeof(Fr));
  }
}

ProvingBuffers ProvingAssignment::release() noexcept { return std::move(buf_); }

void ProvingAssignment::on_alloc(Name, ValueFn value, std::size_t) {
  tick_cancel(1);
  buf_.aux_assignment.push_back(value());
  buf_.a_aux_density.push_back(false);
  buf_.b_aux_density.push_back(false);
}

void ProvingAssignment::on_alloc_input(Name, ValueFn value, std::size_t) {
  buf_.input_assignment.push_back(value());
  buf_.b_input_density.push_back(false);
}

void ProvingAssignment::on_enforce(Name, const LinearCombination& a, const LinearCombination& b,
                                   const LinearCombination& c, std::size_t) {
  tick_cancel(1);
  const std::span<const Fr> in = buf_.input_assignment;
  const std::span<const Fr> aux = buf_.aux_assignment;
  using detail::accumulate_terms;
  using detail::NoDensity;
  DensityTracker& a_aux = buf_.a_aux_density;
  DensityTracker& b_in = buf_.b_input_density;
  DensityTracker& b_aux = buf_.b_aux_density;

  // A: density over aux only (inputs are always dense in A).
  Fr va = Fr::zero();
  bool sa = false;
  accumulate_terms(va, sa, a.inputs(), in, "input", NoDensity{});
  accumulate_terms(va, sa, a.aux(), aux, "aux", [&](std::uint64_t j) { a_aux.set(j); });
  // B: density over inputs and aux.
  Fr vb = Fr::zero();
  bool sb = false;
  accumulate_terms(vb, sb, b.inputs(), in, "input", [&](std::uint64_t j) { b_in.set(j); });
  accumulate_terms(vb, sb, b.aux(), aux, "aux", [&](std::uint64_t j) { b_aux.set(j); });
  // C: no density.
  Fr vc = Fr::zero();
  bool sc = false;
  accumulate_terms(vc, sc, c.inputs(), in, "input", NoDensity{});
  accumulate_terms(vc, sc, c.aux(), aux, "aux", NoDensity{});

  buf_.a.push_back(va);
  buf_.b.push_back(vb);
  buf_.c.push_back(vc);
}

void ProvingAssignment::extend(ProvingAssignment&& other) {
  if (is_finalized() || other.is_finalized()) {
    throw SynthesisError(SynthesisErrorCode::AlreadyFinalized,
                         "extend() combines provers before their input constraints are appended");
  }
  if (&other == this) {
    throw SynthesisError(SynthesisErrorCode::ShapeMismatch, "extend() of a prover with itself");
  }
  ProvingBuffers& o = other.buf_;
  buf_.a.insert(buf_.a.end(), o.a.begin(), o.a.end());
  buf_.b.insert(buf_.b.end(), o.b.begin(), o.b.end());
  buf_.c.insert(buf_.c.end(), o.c.begin(), o.c.end());
  buf_.aux_assignment.insert(buf_.aux_assignment.end(), o.aux_assignment.begin(), o.aux_assignment.end());
  buf_.a_aux_density.extend(o.a_aux_density, false);
  buf_.b_aux_density.extend(o.b_aux_density, false);
  // Other's ONE is dropped; its B-density bit is ORed into ours.
  buf_.input_assignment.insert(buf_.input_assignment.end(), o.input_assignment.begin() + 1,
                               o.input_assignment.end());
  buf_.b_input_density.extend(o.b_input_density, true);
  add_counts(other.num_inputs() - 1, other.num_aux(), other.num_constraints());
  o.clear();
}

// ---- parallel parts ------------------------------------------------------------------------------


ProvingAssignment::ProvingAssignment(PartTag, ProvingAssignment& parent, std::size_t j, const PartShape& part,
                                     std::size_t c0, std::size_t i0, std::size_t x0) {
  // Counters at part j's first constraint / input / aux (the base class starts with ONE counted).
  add_counts(i0 - 1 + j * part.inputs, x0 + j * part.aux, c0 + j * part.constraints);
  set_cancel_flag(parent.cancel_flag());
  set_limits(parent.limits());
  set_prover_buffers(parent.fast_path() ? &buf_ : nullptr);
  // Vectors over the parent's storage, ending at this part's region's end (a push beyond it throws
  // std::length_error instead of writing into the next part), sized to its start without writing.
  ProvingBuffers& p = parent.buf_;
  auto over = [](FrVector& whole, std::size_t start, std::size_t end) {
    FrVector v(UninitAllocator<Fr>(whole.data(), end));
    v.reserve(end);
    v.resize(start);
    return v;
  };
  const std::size_t ce = c0 + (j + 1) * part.constraints;
  buf_.a = over(p.a, num_constraints(), ce);
  buf_.b = over(p.b, num_constraints(), ce);
  buf_.c = over(p.c, num_constraints(), ce);
  buf_.input_assignment = over(p.input_assignment, num_inputs(), i0 + (j + 1) * part.inputs);
  buf_.aux_assignment = over(p.aux_assignment, num_aux(), x0 + (j + 1) * part.aux);
  buf_.a_aux_density = DensityTracker::window(num_aux(), x0);
  buf_.b_aux_density = DensityTracker::window(num_aux(), x0);
  buf_.b_input_density = DensityTracker::window(num_inputs(), i0);
}

void ProvingAssignment::synthesize_parts(std::size_t n_parts, const PartShape& part,
                                         const PartBody& body, std::size_t threads) {
  if (is_finalized()) {
    throw SynthesisError(SynthesisErrorCode::AlreadyFinalized, "synthesize_parts() after finalize()");
  }
  if (threads == 1 || n_parts == 0) {
    for (std::size_t j = 0; j < n_parts; ++j) body(*this, j);
    return;
  }
  const std::size_t c0 = num_constraints(), i0 = num_inputs(), x0 = num_aux();
  const std::size_t ct = c0 + n_parts * part.constraints, it = i0 + n_parts * part.inputs,
                    xt = x0 + n_parts * part.aux;
  check_parts_fit(ct, it, xt);

  // Final sizes up front (no element written: UninitAllocator); finalize()'s input constraints fit
  // in the capacity, so nothing moves while the parts write and after.
  for (FrVector* v : {&buf_.a, &buf_.b, &buf_.c}) {
    if (v->capacity() < ct + it) v->reserve(ct + it);
    v->resize(ct);
  }
  if (buf_.input_assignment.capacity() < it) buf_.input_assignment.reserve(it);
  buf_.input_assignment.resize(it);
  if (buf_.aux_assignment.capacity() < xt) buf_.aux_assignment.reserve(xt);
  buf_.aux_assignment.resize(xt);
  buf_.a_aux_density.push_zeros(xt - x0);
  buf_.b_aux_density.push_zeros(xt - x0);
  buf_.b_input_density.push_zeros(it - i0);

  for (FrVector* v : {&buf_.a, &buf_.b, &buf_.c}) advise_huge_pages(v->data() + c0, (v->capacity() - c0) * sizeof(Fr));
  advise_huge_pages(buf_.aux_assignment.data() + x0, (buf_.aux_assignment.capacity() - x0) * sizeof(Fr));

  std::vector<std::array<DensityTracker, 3>> windows(n_parts);
  run_parts(n_parts, threads, [&](std::size_t j) {
    ProvingAssignment cs(PartTag{}, *this, j, part, c0, i0, x0);
    try {
      body(cs, j);
    } catch (const std::length_error&) {
      throw_part_outgrew(j, part);
    }
    check_part(cs, j, part, c0, i0, x0);
    windows[j] = {std::move(cs.buf_.a_aux_density), std::move(cs.buf_.b_aux_density),
                  std::move(cs.buf_.b_input_density)};
  });

  for (const auto& w : windows) {
    buf_.a_aux_density.merge_window(w[0]);
    buf_.b_aux_density.merge_window(w[1]);
    buf_.b_input_density.merge_window(w[2]);
  }
  add_counts(it - i0, xt - x0, ct - c0);
}

}  // namespace proofline::r1cs
