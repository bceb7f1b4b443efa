// Development / test parameter generation (include/proofline/groth16/setup.hpp).
#include "proofline/groth16/setup.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "proofline/r1cs/shape_counter.hpp"

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
  mul_batch(scalars, out);
  return out;
}

template <class Cfg>
void FixedBaseTable<Cfg>::mul_batch(std::span<const Fr> scalars, std::span<ec::AffinePoint<Cfg>> out) const {
  if (out.size() != scalars.size()) {
    throw std::invalid_argument("FixedBaseTable::mul_batch: " + std::to_string(out.size()) + " outputs for " +
                                std::to_string(scalars.size()) + " scalars");
  }
  constexpr std::size_t kChunk = 1024;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), kChunk), [&](const auto& r) {
    std::vector<ec::JacobianPoint<Cfg>> jac(r.size());
    for (std::size_t i = r.begin(); i != r.end(); ++i) jac[i - r.begin()] = mul(scalars[i]);
    ec::batch_to_affine(std::span<const ec::JacobianPoint<Cfg>>(jac),
                        std::span<ec::AffinePoint<Cfg>>(out.data() + r.begin(), r.size()));
  });
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

// ---- the streamed generator ---------------------------------------------------------------------
namespace {

/// Progress on stderr: one stage at a time, its percent, elapsed time and ETA every kEvery seconds,
/// and a closing line. Silent when `on` is false.
class Progress {
 public:
  static constexpr double kEvery = 5.0;
  Progress(bool on, int stages) : on_(on), stages_(stages), t_all_(Clock::now()) {}

  void stage(const char* name, std::size_t total, const char* unit) {
    name_ = name;
    unit_ = unit;
    total_ = total;
    ++index_;
    t0_ = last_ = Clock::now();
  }
  void advance_to(std::size_t done) {
    if (!on_ || total_ == 0) return;
    const auto now = Clock::now();
    if (std::chrono::duration<double>(now - last_).count() < kEvery || done >= total_) return;
    last_ = now;
    const double s = std::chrono::duration<double>(now - t0_).count();
    const double frac = double(done) / double(total_);
    const double eta = frac > 0 ? s * (1 - frac) / frac : 0;
    std::fprintf(stderr, "setup [%d/%d] %-9s %5.1f %%  %s / %s %s  %.1f s, ETA %.1f s\n", index_, stages_, name_,
                 100 * frac, human(done).c_str(), human(total_).c_str(), unit_, s, eta);
  }
  void end_stage(std::size_t done) {
    if (!on_) return;
    const double s = std::chrono::duration<double>(Clock::now() - t0_).count();
    std::fprintf(stderr, "setup [%d/%d] %-9s done: %s %s in %.2f s (total %.1f s)\n", index_, stages_, name_,
                 human(done).c_str(), unit_, s, std::chrono::duration<double>(Clock::now() - t_all_).count());
  }
  bool on() const { return on_; }
  double total_seconds() const { return std::chrono::duration<double>(Clock::now() - t_all_).count(); }

 private:
  static std::string human(std::size_t n) {
    char b[32];
    if (n >= 10'000'000) {
      std::snprintf(b, sizeof b, "%.1fM", double(n) / 1e6);
    } else {
      std::snprintf(b, sizeof b, "%zu", n);
    }
    return b;
  }
  bool on_;
  int stages_;
  int index_ = 0;
  const char* name_ = "";
  const char* unit_ = "";
  std::size_t total_ = 0;
  Clock::time_point t_all_, t0_, last_;
};

/// The smallest i < n with bad(i), or n; blocks in parallel.
template <class Bad>
std::size_t find_first(std::size_t n, Bad&& bad) {
  std::atomic<std::size_t> first{n};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 14), [&](const auto& r) {
    if (r.begin() >= first.load(std::memory_order_relaxed)) return;
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      if (bad(i)) {
        std::size_t cur = first.load(std::memory_order_relaxed);
        while (i < cur && !first.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {
        }
        return;
      }
    }
  });
  return first.load();
}

/// One section: count points, in chunks of `chunk`: fill(first, scalars) → mul → sink.
template <class Cfg, class Fill>
void stream_section(ParamsSink& sink, ParamsSection s, std::size_t count, std::size_t chunk,
                    const FixedBaseMulFn<Cfg>& mul, Progress& progress, Fill&& fill) {
  progress.stage(std::string_view(to_string(s)).data(), count, "points");
  sink.begin(s, count);
  const std::size_t cap = std::min(chunk, count);
  std::vector<Fr> ks(cap);
  std::vector<ec::AffinePoint<Cfg>> pts(cap);
  for (std::size_t first = 0; first < count; first += cap) {
    const std::size_t len = std::min(cap, count - first);
    const std::span<Fr> k(ks.data(), len);
    const std::span<ec::AffinePoint<Cfg>> p(pts.data(), len);
    fill(first, k);
    mul(std::span<const Fr>(k), p);
    sink.append(std::span<const ec::AffinePoint<Cfg>>(p));
    progress.advance_to(first + len);
  }
  progress.end_stage(count);
}

template <class Cfg>
FixedBaseMulFn<Cfg> multiplier(const FixedBaseMulFactory<Cfg>& hook, const FixedBaseTable<Cfg>& table) {
  if (hook) {
    FixedBaseMulFn<Cfg> f = hook(table);
    if (f) return f;
  }
  return [&table](std::span<const Fr> ks, std::span<ec::AffinePoint<Cfg>> out) { table.mul_batch(ks, out); };
}

/// Scalars of a density-filtered query (a: u over the A flag; b: v over the B flag), inputs then
/// aux, handed out chunk by chunk in order.
struct FilteredScalars {
  const r1cs::QapEvaluator& q;
  Fr r1cs::QapTerms::*field;
  std::uint8_t flag;
  std::size_t next = 0;  // over inputs (0 … n_in − 1), then aux
  void operator()(std::size_t, std::span<Fr> out) {
    const std::size_t n_in = q.inputs().size(), n = n_in + q.aux().size();
    std::size_t k = 0;
    for (; k < out.size() && next < n; ++next) {
      const bool input = next < n_in;
      const std::size_t j = input ? next : next - n_in;
      if (((input ? q.input_flags()[j] : q.aux_flags()[j]) & flag) == 0) continue;
      out[k++] = (input ? q.inputs()[j] : q.aux()[j]).*field;
    }
    if (k != out.size()) throw std::logic_error("setup: density count changed while streaming");
  }
};

}  // namespace

SetupResult generate_parameters_with(r1cs::FunctionRef<void(r1cs::ConstraintSystem&)> synthesize, const ToxicWaste& tw,
                                     ParamsSink& sink, const SetupOptions& opts) {
  if (opts.warn) {
    std::fprintf(stderr,
                 "WARNING: proofline setup generates Groth16 parameters for DEVELOPMENT AND TESTING ONLY. The toxic "
                 "waste was created by this process; these parameters are NOT secure (anyone knowing it can forge "
                 "proofs).\n");
  }
  if (tw.tau.is_zero() || tw.alpha.is_zero() || tw.beta.is_zero() || tw.gamma.is_zero() || tw.delta.is_zero()) {
    degenerate("toxic waste has a zero element (tau, alpha, beta, gamma and delta must be non-zero)");
  }
  if (opts.chunk == 0) throw std::invalid_argument("setup: SetupOptions::chunk must be at least 1");
  SetupResult res;
  run_with_threads(opts.threads, [&] {
    // 1. The shape.
    const auto t_count = Clock::now();
    r1cs::CircuitShape shape;
    if (opts.shape) {
      shape = *opts.shape;
    } else {
      r1cs::ShapeCounter counter;
      synthesize(counter);
      counter.finalize();
      shape = counter.shape();
    }
    Progress progress(shape.constraints >= opts.progress_min_constraints, 10);
    if (progress.on()) {
      std::fprintf(stderr, "setup: %zu constraints (incl. %zu input constraints), %zu inputs, %zu aux, domain 2^%d\n",
                   shape.constraints, shape.inputs, shape.inputs, shape.aux,
                   std::countr_zero(shape.domain_size()));
    }
    progress.stage("count", 0, "rows");
    if (!opts.shape && progress.on()) {
      std::fprintf(stderr, "setup [1/10] count     done: counting pass in %.2f s\n",
                   std::chrono::duration<double>(Clock::now() - t_count).count());
    }

    // 2. Synthesis into the evaluator.
    const std::size_t m = shape.domain_size();
    if ((tw.tau.pow(static_cast<std::uint64_t>(m)) - Fr::one()).is_zero()) {
      degenerate("tau lies in the evaluation domain (Z(tau) = 0); draw new toxic waste");
    }
    r1cs::QapEvaluator q(tw.tau, shape);
    progress.stage("synthesis", shape.constraints, "rows");
    q.set_progress([&](std::size_t rows) { progress.advance_to(rows); });
    // Circuits of independent parts (PoSt sectors, PoRep / SnapDeals challenges) synthesize them in
    // parallel into q (r1cs::ConstraintSystem::synthesize_parts); opts.threads caps them, 1 = in order.
    q.set_part_threads(opts.threads > 0 ? static_cast<std::size_t>(opts.threads) : 0);
    synthesize(q);
    q.finalize();
    progress.end_stage(q.num_constraints());
    const r1cs::CircuitShape got{q.num_constraints(), q.num_inputs(), q.num_aux()};
    if (opts.shape && got != *opts.shape) {
      throw r1cs::SynthesisError(
          r1cs::SynthesisErrorCode::ShapeMismatch,
          "setup: the circuit has " + std::to_string(got.constraints) + " constraints (incl. input constraints), " +
              std::to_string(got.inputs) + " inputs, " + std::to_string(got.aux) + " aux; SetupOptions::shape said " +
              std::to_string(opts.shape->constraints) + ", " + std::to_string(opts.shape->inputs) + ", " +
              std::to_string(opts.shape->aux));
    }
    const std::size_t n_in = q.num_inputs(), n_aux = q.num_aux();
    const auto in = q.inputs();
    const auto aux = q.aux();
    const auto in_f = q.input_flags();
    const auto aux_f = q.aux_flags();

    // 3. Checks before any point, in the order of the former whole-matrix setup.
    progress.stage("check", n_in + n_aux, "variables");
    const Fr gamma_inv = tw.gamma.inverse();
    const Fr delta_inv = tw.delta.inverse();
    auto lw = [&](const r1cs::QapTerms& t) { return tw.beta * t.u + tw.alpha * t.v + t.w; };
    if (const std::size_t j = find_first(n_aux, [&](std::size_t j) { return lw(aux[j]).is_zero(); }); j < n_aux) {
      if (aux_f[j] == 0) {
        degenerate("aux variable " + std::to_string(j) +
                   " is unconstrained (appears in no constraint); its l query point would be the identity");
      }
      degenerate("aux variable " + std::to_string(j) + " evaluates to zero at tau; draw new toxic waste");
    }
    auto check_density = [&](const char* which, Fr r1cs::QapTerms::*field, std::uint8_t flag) {
      auto bad = [&](const r1cs::QapTerms& t, std::uint8_t f) { return (t.*field).is_zero() != ((f & flag) == 0); };
      auto fail = [&](bool input, std::size_t j) {
        degenerate(std::string(which) + " polynomial of " + (input ? "input " : "aux ") + std::to_string(j) +
                   " vanishes at tau although its column is non-empty; draw new toxic waste");
      };
      if (const std::size_t j = find_first(n_in, [&](std::size_t j) { return bad(in[j], in_f[j]); }); j < n_in) {
        fail(true, j);
      }
      if (const std::size_t j = find_first(n_aux, [&](std::size_t j) { return bad(aux[j], aux_f[j]); }); j < n_aux) {
        fail(false, j);
      }
      auto has = [flag](std::uint8_t f) { return (f & flag) != 0; };
      return static_cast<std::size_t>(std::count_if(in_f.begin(), in_f.end(), has) +
                                      std::count_if(aux_f.begin(), aux_f.end(), has));
    };
    const std::size_t n_a = check_density("A", &r1cs::QapTerms::u, r1cs::QapEvaluator::kInA);
    if (n_a < n_in) degenerate("an input is absent from A (input constraints missing: was the system finalized?)");
    const std::size_t n_b = check_density("B", &r1cs::QapTerms::v, r1cs::QapEvaluator::kInB);
    progress.end_stage(n_in + n_aux);

    // 4. Tables and the verifying key.
    progress.stage("tables", 0, "windows");
    const std::size_t n_g1 = n_in + n_aux + n_a + n_b + (m - 1) + 4;
    const FixedBaseTable<ec::G1Config> g1(ec::G1Affine::generator(), FixedBaseTable<ec::G1Config>::window_for(n_g1));
    const FixedBaseTable<ec::G2Config> g2(ec::G2Affine::generator(), FixedBaseTable<ec::G2Config>::window_for(n_b + 3));
    progress.end_stage(g1.windows() + g2.windows());

    VerifyingKey& vk = res.vk;
    vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
    vk.beta_g1 = g1.mul(tw.beta).to_affine();
    vk.beta_g2 = g2.mul(tw.beta).to_affine();
    vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
    vk.delta_g1 = g1.mul(tw.delta).to_affine();
    vk.delta_g2 = g2.mul(tw.delta).to_affine();
    {
      const FixedBaseMulFn<ec::G1Config> mul1 = multiplier(opts.g1_batch, g1);
      progress.stage("ic", n_in, "points");
      std::vector<Fr> ic_s(n_in);
      for (std::size_t j = 0; j < n_in; ++j) ic_s[j] = lw(in[j]) * gamma_inv;
      vk.ic.resize(n_in);
      mul1(ic_s, vk.ic);
      sink.vk(vk);
      progress.end_stage(n_in);

      // 5. The sections, streamed.
      const std::size_t chunk = opts.chunk;
      const Fr zd = q.z_tau() * delta_inv;
      stream_section<ec::G1Config>(sink, ParamsSection::H, m - 1, chunk, mul1, progress,
                                   [&](std::size_t first, std::span<Fr> out) {
        // h_i = τ^i·Z(τ)/δ
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 4096), [&](const auto& r) {
          Fr t = tw.tau.pow(static_cast<std::uint64_t>(first + r.begin())) * zd;
          for (std::size_t i = r.begin(); i != r.end(); ++i) {
            out[i] = t;
            t *= tw.tau;
          }
        });
      });
      stream_section<ec::G1Config>(sink, ParamsSection::L, n_aux, chunk, mul1, progress,
                                   [&](std::size_t first, std::span<Fr> out) {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 4096), [&](const auto& r) {
          for (std::size_t i = r.begin(); i != r.end(); ++i) out[i] = lw(aux[first + i]) * delta_inv;
        });
      });
      stream_section<ec::G1Config>(sink, ParamsSection::A, n_a, chunk, mul1, progress,
                                   FilteredScalars{q, &r1cs::QapTerms::u, r1cs::QapEvaluator::kInA});
      stream_section<ec::G1Config>(sink, ParamsSection::BG1, n_b, chunk, mul1, progress,
                                   FilteredScalars{q, &r1cs::QapTerms::v, r1cs::QapEvaluator::kInB});
    }
    {
      const FixedBaseMulFn<ec::G2Config> mul2 = multiplier(opts.g2_batch, g2);
      stream_section<ec::G2Config>(sink, ParamsSection::BG2, n_b, opts.chunk, mul2, progress,
                                   FilteredScalars{q, &r1cs::QapTerms::v, r1cs::QapEvaluator::kInB});
    }
    sink.finish();
    res.shape = got;
    res.h = m - 1;
    res.l = n_aux;
    res.a = n_a;
    res.b = n_b;
    if (progress.on()) {
      struct rusage ru {};
      ::getrusage(RUSAGE_SELF, &ru);
      std::fprintf(stderr, "setup: done in %.2f s (peak RSS of the process so far %.2f GiB)\n", progress.total_seconds(),
                   double(ru.ru_maxrss) / (1024.0 * 1024.0));
    }
  });
  return res;
}

// ---- devices for the fixed-base work -------------------------------------------------------------
namespace {

struct DeviceRegistry {
  std::mutex mu;
  std::map<std::string, SetupDeviceInstaller, std::less<>> installers;
};

/// Function-local: registrations run from other translation units' static initializers.
DeviceRegistry& device_registry() {
  static DeviceRegistry r;
  return r;
}

}  // namespace

bool register_setup_device(std::string_view name, SetupDeviceInstaller installer) {
  DeviceRegistry& r = device_registry();
  std::lock_guard lk(r.mu);
  r.installers.insert_or_assign(std::string(name), installer);
  return true;
}

void use_device_for_setup(std::string_view which, SetupOptions& opts, std::string* note) {
  if (which != "cpu" && which != "cuda" && which != "auto") {
    throw std::invalid_argument(std::string(which) + ": expected cpu, cuda or auto");
  }
  std::string why;
  if (which != "cpu") {
    SetupDeviceInstaller install = nullptr;
    {
      DeviceRegistry& r = device_registry();
      std::lock_guard lk(r.mu);
      auto it = r.installers.find(std::string_view("cuda"));
      if (it != r.installers.end()) install = it->second;
    }
    if (install == nullptr) {
      why = "this build has no CUDA backend (nvcc not found at configure time, or -DPROOFLINE_CUDA=OFF)";
    } else if (install(opts, why)) {
      if (note) *note = "setup fixed-base: cuda";
      return;
    } else if (why.empty()) {
      why = "no usable CUDA device";
    }
    if (which == "cuda") throw std::invalid_argument("cuda: " + why);
  }
  if (note) *note = "setup fixed-base: cpu" + (why.empty() ? std::string() : "; auto: " + why);
}

}  // namespace proofline::groth16
