// bench/gpu/msm_bench.cu — GPU MSM timings (proofline/gpu/msm.hpp) with data already on the device,
// each result checked against the CPU msm.
//
//   gpu_msm_bench [SPEC...]     SPEC = g1:LG[:C[,C...]] or g2:LG[:C...]   (default: g1:20 … g1:26
//                               and g2:20 … g2:24, every power of two, with the automatic window)
//   env REPS (default 5) timed repetitions after one warm-up; the table gives min and median.
//   env G2_KERNELS=old,new,new-fold,lean,lean-4 (any comma list): each G2 spec is timed once per listed G2
//       kernel variant (GpuMsmConfig::g2_kernels, proofline/gpu/msm.hpp) in this one process;
//       unset: one run per spec with PROOFLINE_G2_KERNELS's choice (column "kernels": env).
//   env G1_KERNELS=new,lean-4,lean-5 (any comma list): the same for each G1 spec and the G1 kernel
//       variants (GpuMsmConfig::g1_kernels); unset: PROOFLINE_G1_KERNELS's choice (column "kernels": env).
//   env BUCKET_ADD=xyzz,batch-affine (any comma list): each spec is timed once per listed bucket
//       addition (GpuMsmConfig::bucket_add); unset: one run per spec
//       with the environment's choice (PROOFLINE_MSM_XYZZ, PROOFLINE_MSM_BA_MIN; column "adds": "env: " and what ran).
//   Column "adds" also says "(ran xyzz)" where a batch-affine row fell back to XYZZ (too few windows fit).
//   env BA_STEPS=16,32,64 (any comma list): batch-affine runs once per listed L
//       (GpuMsmConfig::batch_affine_steps); unset: PROOFLINE_MSM_BA_STEPS or 32.
//   env BA_LANES=4,16,64 (any comma list): and once per listed K, the lanes per thread
//       (GpuMsmConfig::batch_affine_lanes, column "adds": "batch-affine K=…"); unset: PROOFLINE_MSM_BA_LANES or 32.
//   env BA_VARIANTS=overlap,one-stream,priority,no-priority,pipeline,no-pipeline (any comma list): and once
//       per listed variant of the steps, each set through its environment switch around each of its calls
//       (column "adds": "… one-stream"): overlap / one-stream, a group's windows as two halves on two
//       streams or all on one (PROOFLINE_MSM_BA_OVERLAP=1 / 0); priority / no-priority, each half's
//       inversions on a priority stream or its own (PROOFLINE_MSM_BA_PRIORITY=1 / 0); pipeline /
//       no-pipeline, G1's software-pipelined step kernel or the plain one (PROOFLINE_MSM_BA_PIPELINE=1 / 0).
//       Unset: the environment's.
//   env BA_STATE=per-call,kept (any comma list): and once per listed life of the batch-affine state
//       (GpuMsm::keep_batch_affine_state: allocated per call, or once and reused, as a backend that plans
//       it does; column "adds": "… kept"); unset: per call (GpuMsm's default). The state kept by a row is
//       freed after it.
//
// Data, as in the sppark anchor (shared/reference/anchor-sppark-h200.md): 4096 distinct G1 points
// (2048 for G2), random multiples of the generator, repeated on the device to fill N (each copy
// its own address); scalars uniform below 2^254, used as Montgomery-form Fr (so their canonical
// values are uniform-ish in [0, r)), uploaded once. Timing: wall clock around the synchronous
// run_device call (it ends with a stream synchronisation, so this is kernel time plus the small
// device→host copy and the host's final window combination), equivalent to sppark's
// "device-resident" column. Check: Σ_i k_i·P_(i mod K) = Σ_j (Σ_{i ≡ j} k_i)·P_j, the right side by
// the CPU msm over the K distinct points.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "proofline/ec/g1.hpp"
#include "proofline/ec/g2.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/msm.hpp"
#include "proofline/msm/msm.hpp"

using namespace proofline;

namespace {

struct Spec {
  int curve;  // 1 or 2
  int lg;
  std::vector<int> windows;  // empty: automatic
};

std::vector<Spec> parse(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) args = {"g1:20", "g1:21", "g1:22", "g1:23", "g1:24", "g1:25", "g1:26", "g2:20", "g2:21", "g2:22", "g2:23", "g2:24"};
  std::vector<Spec> out;
  for (const auto& a : args) {
    Spec s{};
    s.curve = a.rfind("g2", 0) == 0 ? 2 : 1;
    size_t p1 = a.find(':');
    size_t p2 = a.find(':', p1 + 1);
    s.lg = std::stoi(a.substr(p1 + 1, p2 == std::string::npos ? std::string::npos : p2 - p1 - 1));
    if (p2 != std::string::npos) {
      std::string rest = a.substr(p2 + 1);
      size_t q = 0;
      while (q < rest.size()) {
        size_t e = rest.find(',', q);
        if (e == std::string::npos) e = rest.size();
        s.windows.push_back(std::stoi(rest.substr(q, e - q)));
        q = e + 1;
      }
    }
    out.push_back(s);
  }
  return out;
}

template <class F>
void parallel(size_t n, F f) {
  const unsigned t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> th;
  for (unsigned k = 0; k < t; ++k) th.emplace_back([&, k] { f(n * k / t, n * (k + 1) / t, k); });
  for (auto& x : th) x.join();
}

std::vector<ff::Fr> make_scalars(size_t n) {
  std::vector<ff::Fr> s(n);
  parallel(n, [&](size_t lo, size_t hi, unsigned k) {
    uint64_t x = 0x9e3779b97f4a7c15ULL * (k + 1);
    auto next = [&] {
      uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      return z ^ (z >> 31);
    };
    for (size_t i = lo; i < hi; ++i) {
      ff::Fr::Limbs l{next(), next(), next(), next() & 0x3fffffffffffffffULL};
      s[i] = ff::Fr::from_montgomery(l);
    }
  });
  return s;
}

template <class Cfg>
std::vector<ec::AffinePoint<Cfg>> make_points(size_t k) {
  std::vector<ec::AffinePoint<Cfg>> p(k);
  parallel(k, [&](size_t lo, size_t hi, unsigned t) {
    std::mt19937_64 rng(1234 + t);
    for (size_t i = lo; i < hi; ++i)
      p[i] = ec::JacobianPoint<Cfg>::generator().mul(ff::Fr::random(rng)).to_affine();
  });
  return p;
}

template <class Cfg>
ec::AffinePoint<Cfg> reference(const std::vector<ec::AffinePoint<Cfg>>& distinct, const std::vector<ff::Fr>& s,
                               size_t n) {
  const size_t k = distinct.size();
  const unsigned t = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<ff::Fr>> part(t, std::vector<ff::Fr>(k, ff::Fr::zero()));
  parallel(n, [&](size_t lo, size_t hi, unsigned th) {
    for (size_t i = lo; i < hi; ++i) part[th][i % k] += s[i];
  });
  std::vector<ff::Fr> sum(k, ff::Fr::zero());
  for (auto& p : part)
    for (size_t j = 0; j < k; ++j) sum[j] += p[j];
  return msm::msm<Cfg>(std::span<const ec::AffinePoint<Cfg>>(distinct), msm::Scalars(sum)).to_affine();
}

/// The comma-separated items of environment variable `name` (empty when unset or empty).
std::vector<std::string> env_list(const char* name) {
  const char* e = std::getenv(name);
  std::vector<std::string> out;
  if (e == nullptr || *e == 0) return out;
  const std::string list = e;
  for (size_t q = 0; q <= list.size();) {
    size_t end = list.find(',', q);
    if (end == std::string::npos) end = list.size();
    out.push_back(list.substr(q, end - q));
    q = end + 1;
  }
  return out;
}

/// G2_KERNELS (see the top of the file) as (name, variant) pairs; one kFromEnv entry when unset.
std::vector<std::pair<std::string, gpu::G2Kernels>> g2_variants() {
  std::vector<std::pair<std::string, gpu::G2Kernels>> out;
  for (const auto& name : env_list("G2_KERNELS")) {
    if (name == "old") out.emplace_back(name, gpu::G2Kernels::kOld);
    else if (name == "new") out.emplace_back(name, gpu::G2Kernels::kNew);
    else if (name == "new-fold") out.emplace_back(name, gpu::G2Kernels::kNewFold);
    else if (name == "lean") out.emplace_back(name, gpu::G2Kernels::kLean);
    else if (name == "lean-4") out.emplace_back(name, gpu::G2Kernels::kLean4);
    else throw std::invalid_argument("G2_KERNELS: '" + name + "' is not old, new, new-fold, lean or lean-4");
  }
  if (out.empty()) out.emplace_back("env", gpu::G2Kernels::kFromEnv);
  return out;
}

/// G1_KERNELS (see the top of the file) as (name, variant) pairs; one kFromEnv entry when unset.
std::vector<std::pair<std::string, gpu::G1Kernels>> g1_variants() {
  std::vector<std::pair<std::string, gpu::G1Kernels>> out;
  for (const auto& name : env_list("G1_KERNELS")) {
    if (name == "new") out.emplace_back(name, gpu::G1Kernels::kNew);
    else if (name == "lean-4") out.emplace_back(name, gpu::G1Kernels::kLean4);
    else if (name == "lean-5") out.emplace_back(name, gpu::G1Kernels::kLean5);
    else throw std::invalid_argument("G1_KERNELS: '" + name + "' is not new, lean-4 or lean-5");
  }
  if (out.empty()) out.emplace_back("env", gpu::G1Kernels::kFromEnv);
  return out;
}

/// BUCKET_ADD (see the top of the file) as (name, choice) pairs; one kFromEnv entry when unset.
std::vector<std::pair<std::string, gpu::BucketAdd>> bucket_adds() {
  std::vector<std::pair<std::string, gpu::BucketAdd>> out;
  for (const auto& name : env_list("BUCKET_ADD")) {
    if (name == "xyzz") out.emplace_back(name, gpu::BucketAdd::kXyzz);
    else if (name == "batch-affine") out.emplace_back(name, gpu::BucketAdd::kBatchAffine);
    else throw std::invalid_argument("BUCKET_ADD: '" + name + "' is not xyzz or batch-affine");
  }
  if (out.empty()) out.emplace_back("env", gpu::BucketAdd::kFromEnv);
  return out;
}

/// BA_STEPS as a list of L values; {0} (the default rule) when unset.
std::vector<int> ba_steps() {
  std::vector<int> out;
  for (const auto& item : env_list("BA_STEPS")) out.push_back(std::stoi(item));
  if (out.empty()) out.push_back(0);
  return out;
}

/// BA_VARIANTS as (name, environment variable, value) entries; one ("", nullptr, nullptr) entry (the
/// environment's) when unset.
struct BaVariant {
  std::string name;
  const char* var = nullptr;  ///< the switch this variant sets around its row's calls (nullptr: none)
  const char* value = nullptr;
};
std::vector<BaVariant> ba_variants() {
  std::vector<BaVariant> out;
  for (const auto& name : env_list("BA_VARIANTS")) {
    if (name == "overlap") out.push_back({name, "PROOFLINE_MSM_BA_OVERLAP", "1"});
    else if (name == "one-stream") out.push_back({name, "PROOFLINE_MSM_BA_OVERLAP", "0"});
    else if (name == "priority") out.push_back({name, "PROOFLINE_MSM_BA_PRIORITY", "1"});
    else if (name == "no-priority") out.push_back({name, "PROOFLINE_MSM_BA_PRIORITY", "0"});
    else if (name == "pipeline") out.push_back({name, "PROOFLINE_MSM_BA_PIPELINE", "1"});
    else if (name == "no-pipeline") out.push_back({name, "PROOFLINE_MSM_BA_PIPELINE", "0"});
    else
      throw std::invalid_argument("BA_VARIANTS: '" + name +
                                  "' is not overlap, one-stream, priority, no-priority, pipeline or no-pipeline");
  }
  if (out.empty()) out.push_back({});
  return out;
}

/// BA_STATE as a list of keep flags (GpuMsm::keep_batch_affine_state); {false} when unset.
std::vector<bool> ba_state_keep() {
  std::vector<bool> out;
  for (const auto& name : env_list("BA_STATE")) {
    if (name == "per-call") out.push_back(false);
    else if (name == "kept") out.push_back(true);
    else throw std::invalid_argument("BA_STATE: '" + name + "' is not per-call or kept");
  }
  if (out.empty()) out.push_back(false);
  return out;
}

/// BA_LANES as a list of K values (lanes per thread); {0} (the default rule) when unset.
std::vector<int> ba_lanes() {
  std::vector<int> out;
  for (const auto& item : env_list("BA_LANES")) out.push_back(std::stoi(item));
  if (out.empty()) out.push_back(0);
  return out;
}

template <class Cfg>
void run_curve(const std::vector<Spec>& specs, int curve, int reps, const std::vector<ff::Fr>& scalars,
               const void* d_scalars) {
  int max_lg = 0;
  for (auto& s : specs)
    if (s.curve == curve) max_lg = std::max(max_lg, s.lg);
  if (!max_lg) return;
  const size_t nmax = size_t{1} << max_lg;
  auto distinct = make_points<Cfg>(curve == 1 ? 4096 : 2048);
  gpu::GpuMsm<Cfg> g;
  const auto t0 = std::chrono::steady_clock::now();
  g.set_bases_repeating(distinct, nmax);
  const double up = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("# %s: %zu bases on the device (%.0f ms incl. replication)\n", curve == 1 ? "G1" : "G2", nmax, up);
  for (auto& s : specs) {
    if (s.curve != curve) continue;
    const size_t n = size_t{1} << s.lg;
    const auto want = reference<Cfg>(distinct, scalars, n);
    std::vector<int> ws = s.windows.empty() ? std::vector<int>{0} : s.windows;
    // the kernel variants of this curve (G1_KERNELS or G2_KERNELS), the other curve's left to the environment
    struct Variant {
      std::string name;
      gpu::G1Kernels g1 = gpu::G1Kernels::kFromEnv;
      gpu::G2Kernels g2 = gpu::G2Kernels::kFromEnv;
    };
    std::vector<Variant> variants;
    if (curve == 1)
      for (const auto& [vname, k] : g1_variants()) variants.push_back({vname, k, gpu::G2Kernels::kFromEnv});
    else
      for (const auto& [vname, k] : g2_variants()) variants.push_back({vname, gpu::G1Kernels::kFromEnv, k});
    // every (window, kernel variant, bucket addition, lane length) asked for, one row each
    struct Row {
      gpu::GpuMsmConfig cfg;
      std::string variant, adds;
      BaVariant ba;
      bool keep = false;
    };
    std::vector<Row> rows;
    for (int c : ws)
      for (const auto& variant : variants)
        for (const auto& [aname, add] : bucket_adds())
          for (int steps : add == gpu::BucketAdd::kXyzz ? std::vector<int>{0} : ba_steps())
            for (int lanes : add == gpu::BucketAdd::kXyzz ? std::vector<int>{0} : ba_lanes())
              for (const auto& bv : add == gpu::BucketAdd::kXyzz ? std::vector<BaVariant>{{}} : ba_variants())
                for (const bool keep : add == gpu::BucketAdd::kXyzz ? std::vector<bool>{false} : ba_state_keep()) {
                Row row{{}, variant.name, lanes ? aname + " K=" + std::to_string(lanes) : aname, bv, keep};
                if (!bv.name.empty()) row.adds += " " + bv.name;
                if (keep) row.adds += " kept";
                row.cfg.window_bits = c;
                row.cfg.g1_kernels = variant.g1;
                row.cfg.g2_kernels = variant.g2;
                row.cfg.bucket_add = add;
                row.cfg.batch_affine_steps = steps;
                row.cfg.batch_affine_lanes = lanes;
                rows.push_back(row);
              }
    for (const auto& row : rows) {
      std::vector<double> ms;
      bool ok = true;
      // the step variant of this row (its switch read by GpuMsm::run at each call), the environment's
      // value restored after it
      const char* env_before = row.ba.var ? std::getenv(row.ba.var) : nullptr;
      const std::string saved = env_before ? env_before : "";
      if (row.ba.var) ::setenv(row.ba.var, row.ba.value, 1);
      g.keep_batch_affine_state(row.keep);  // kept: allocated by the warm-up, reused by the timed calls
      for (int r = 0; r <= reps; ++r) {
        const auto a = std::chrono::steady_clock::now();
        const auto got = g.run_device(d_scalars, n, 0, row.cfg);
        const auto b = std::chrono::steady_clock::now();
        if (r > 0) ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
        if (r == 0 || r == reps) ok = ok && got.to_affine() == want;
      }
      if (row.ba.var) {
        if (env_before) ::setenv(row.ba.var, saved.c_str(), 1);
        else ::unsetenv(row.ba.var);
      }
      const double mem_gib = g.device_bytes() / double(1 << 30);  // with a kept state: before it is freed
      g.keep_batch_affine_state(false);
      std::sort(ms.begin(), ms.end());
      const int c = row.cfg.window_bits;
      // what step 3 ran (GpuMsm::last_bucket_add): a batch-affine row that fell back to XYZZ says so
      std::string adds = row.adds;
      const gpu::BucketAdd ran = g.last_bucket_add();
      const char* ran_name = ran == gpu::BucketAdd::kXyzz ? "xyzz" : ran == gpu::BucketAdd::kBatchAffine ? "batch-affine" : "none";
      if (row.cfg.bucket_add == gpu::BucketAdd::kFromEnv) adds += std::string(": ") + ran_name;
      else if (ran != row.cfg.bucket_add) adds += std::string(" (ran ") + ran_name + ")";
      if (g.last_step_pipelined()) adds += " (pipelined step)";  // GpuMsm::last_step_pipelined
      std::printf("| %s | 2^%d | %2d | %9.2f | %9.2f | %s | %.1f GiB | %s | %s | %d |\n", curve == 1 ? "G1" : "G2", s.lg,
                  c ? c : gpu::gpu_msm_window_bits(n, curve), ms.front(), ms[ms.size() / 2], ok ? "ok" : "MISMATCH",
                  mem_gib, row.variant.c_str(), adds.c_str(), row.cfg.batch_affine_steps);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (gpu::device_count() == 0) {
    std::printf("gpu_msm_bench: no CUDA device, nothing to measure\n");
    return 0;
  }
  const auto specs = parse(argc, argv);
  const int reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 5;
  int max_lg = 0;
  for (auto& s : specs) max_lg = std::max(max_lg, s.lg);
  const size_t nmax = size_t{1} << max_lg;
  const auto scalars = make_scalars(nmax);
  void* d_scalars = nullptr;
  CUDA_CHECK(cudaMalloc(&d_scalars, nmax * sizeof(ff::Fr)));
  CUDA_CHECK(cudaMemcpy(d_scalars, scalars.data(), nmax * sizeof(ff::Fr), cudaMemcpyHostToDevice));
  std::printf("# gpu_msm_bench on %s, %d reps (+1 warm-up); ms = wall time of the synchronous call\n",
              gpu::device_name(0).c_str(), reps);
  std::printf(
      "| curve | n | c | min ms | median ms | check | device mem | kernels | adds | BA steps (0: default) |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  run_curve<ec::G1Config>(specs, 1, reps, scalars, d_scalars);
  run_curve<ec::G2Config>(specs, 2, reps, scalars, d_scalars);
  CUDA_CHECK(cudaFree(d_scalars));
  return 0;
}
