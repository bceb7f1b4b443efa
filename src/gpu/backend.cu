// src/gpu/backend.cu — the CUDA Groth16 backend (proofline/gpu/backend.hpp says what it does; this
// file is the how): resident SRS per Parameters, per-partition uploads, H on the device, the
// density gathers, the five MSMs, assembly on the host, and the device factory.
#include "proofline/gpu/backend.hpp"

#include <cuda_runtime.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "device_buffer.cuh"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/ntt.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/fault.hpp"

namespace proofline::gpu {

namespace {

// Cancellation: groth16::check_prove_cancel on the host between partitions and between the stages
// of one (device work is not interrupted).

using groth16::Parameters;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string device_memory_note(int device) {
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    (void)cudaGetLastError();
    return "device " + std::to_string(device) + " free memory unknown";
  }
  return "device " + std::to_string(device) + " has " + std::to_string(free_b) + " of " +
         std::to_string(total_b) + " bytes free";
}

struct Fr32 {
  uint4 lo, hi;
};
static_assert(sizeof(Fr32) == sizeof(ff::Fr), "device copy type mirrors ff::Fr");

/// dst[rank(i)] = src[i] for every i < n whose density bit is set; rank(i) = prefix[i / 64] +
/// popcount of the word's bits below i (so the dense entries keep their order).
__global__ void gather_kernel(Fr32* __restrict__ dst, const Fr32* __restrict__ src, const uint64_t* __restrict__ words,
                              const uint32_t* __restrict__ prefix, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint64_t w = words[i >> 6];
  const unsigned bit = static_cast<unsigned>(i & 63);
  if (((w >> bit) & 1) == 0) return;
  const uint32_t r = prefix[i >> 6] + static_cast<uint32_t>(__popcll(w & ((uint64_t{1} << bit) - 1)));
  dst[r] = src[i];
}

__global__ void probe_kernel(int* out) { *out = 0x5eed; }

/// What identifies the contents of a resident SRS (backend.hpp "Residency").
struct Fingerprint {
  const void* ptr[5] = {};
  std::size_t len[5] = {};
  ec::G1Affine delta_g1;
  static Fingerprint of(const Parameters& p) {
    Fingerprint f;
    f.ptr[0] = p.h.data(), f.len[0] = p.h.size();
    f.ptr[1] = p.l.data(), f.len[1] = p.l.size();
    f.ptr[2] = p.a.data(), f.len[2] = p.a.size();
    f.ptr[3] = p.b_g1.data(), f.len[3] = p.b_g1.size();
    f.ptr[4] = p.b_g2.data(), f.len[4] = p.b_g2.size();
    f.delta_g1 = p.vk.delta_g1;
    return f;
  }
  bool operator==(const Fingerprint& o) const {
    for (int k = 0; k < 5; ++k)
      if (ptr[k] != o.ptr[k] || len[k] != o.len[k]) return false;
    return delta_g1 == o.delta_g1;
  }
};

struct Resident {
  const Parameters* key = nullptr;
  Fingerprint fp;
  GpuMsmG1 h, l, a, b_g1;
  GpuMsmG2 b_g2;
  std::size_t bytes() const {
    return h.device_bytes() + l.device_bytes() + a.device_bytes() + b_g1.device_bytes() + b_g2.device_bytes();
  }
};

/// Host-side rank prefix of a density bitmap: prefix[w] = set bits in words [0, w).
std::vector<uint32_t> rank_prefix(std::span<const uint64_t> words) {
  std::vector<uint32_t> p(words.size() + 1);
  uint32_t acc = 0;
  for (std::size_t w = 0; w < words.size(); ++w) {
    p[w] = acc;
    acc += static_cast<uint32_t>(__builtin_popcountll(words[w]));
  }
  p[words.size()] = acc;
  return p;
}

unsigned blocks_for(std::size_t n, unsigned threads) {
  return static_cast<unsigned>((n + threads - 1) / threads);
}

}  // namespace

/// The "cuda" fault-injection point (util/fault.hpp): a kernel that traps, leaving the context in a
/// sticky error state as a real kernel fault would.
__global__ void injected_fault_kernel() { __trap(); }

/// Per device: how many times it was reset after a fault (GpuBackend::recover_locked).
std::mutex g_device_mu;
std::vector<unsigned> g_device_generation;
unsigned device_generation_locked(int device) {
  if (g_device_generation.size() <= static_cast<std::size_t>(device)) g_device_generation.resize(device + 1, 0);
  return g_device_generation[static_cast<std::size_t>(device)];
}

struct GpuBackend::Impl {
  GpuBackendConfig cfg;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev_start = nullptr, ev_stop = nullptr;
  std::vector<std::unique_ptr<Resident>> residents;
  std::unique_ptr<NttDomain> domain;
  GpuMsmG1 g1;  // scratch for the four G1 MSMs, bases pointed at the resident copies
  GpuMsmG2 g2;
  DeviceBuffer abc{"a, b, c evaluations"}, aux{"aux assignment"}, sa{"A scalars"}, sb{"B scalars"},
      words{"density bitmap"}, prefix{"density ranks"};

  explicit Impl(GpuBackendConfig c) : cfg(c) {
    CUDA_CHECK(cudaSetDevice(cfg.device));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&ev_start));
    CUDA_CHECK(cudaEventCreate(&ev_stop));
  }
  ~Impl() {
    cudaSetDevice(cfg.device);
    if (stream) cudaStreamSynchronize(stream);
    for (int k = 0; k < 2; ++k) {
      if (stage[k]) cudaFreeHost(stage[k]);
      if (stage_free[k]) cudaEventDestroy(stage_free[k]);
    }
    residents.clear();
    domain.reset();
    if (ev_start) cudaEventDestroy(ev_start);
    if (ev_stop) cudaEventDestroy(ev_stop);
    if (stream) cudaStreamDestroy(stream);
  }

  void select() { CUDA_CHECK(cudaSetDevice(cfg.device)); }

  /// Runs f; a CudaError for out-of-memory from the layers below (every DeviceBuffer allocation, the
  /// NTT tables, the MSM scratch) becomes ProoflineError(OutOfMemory) naming `what`, the allocation
  /// (its bytes and buffer, in e.what()) and the device's free memory. Every allocation of a prove
  /// call runs under one of these, so an out-of-memory never reaches GpuBackend::prove's CudaError
  /// handler (which would treat it as a device fault).
  template <class F>
  auto translating_oom(const char* what, F&& f) {
    try {
      return f();
    } catch (const CudaError& e) {
      if (e.code() != static_cast<int>(cudaErrorMemoryAllocation)) throw;
      (void)cudaGetLastError();
      throw ProoflineError(Error::OutOfMemory, std::string("GPU backend: ") + what + ": " + e.what() + "; " +
                                                   device_memory_note(cfg.device));
    }
  }

  Resident* find(const Parameters& p) {
    for (auto& r : residents)
      if (r->key == &p) return r.get();
    return nullptr;
  }

  void drop(const Parameters& p) {
    for (auto it = residents.begin(); it != residents.end(); ++it) {
      if ((*it)->key == &p) {
        // the workers may point at these bases: detach them first
        g1.set_bases_device(nullptr, 0);
        g2.set_bases_device(nullptr, 0);
        residents.erase(it);
        return;
      }
    }
  }

  /// The resident copy of p's SRS, uploaded if missing or stale; *upload_ms gets the upload time.
  Resident& ensure_resident(const Parameters& p, double* upload_ms) {
    const Fingerprint fp = Fingerprint::of(p);
    if (Resident* r = find(p)) {
      if (r->fp == fp) {
        if (upload_ms) *upload_ms = 0;
        return *r;
      }
      drop(p);
    }
    const auto t0 = Clock::now();
    auto r = std::make_unique<Resident>();
    r->key = &p;
    r->fp = fp;
    translating_oom("uploading the SRS (h, l, a, b_g1, b_g2 bases)", [&] {
      r->h.set_bases(p.h);
      r->l.set_bases(p.l);
      r->a.set_bases(p.a);
      r->b_g1.set_bases(p.b_g1);
      r->b_g2.set_bases(p.b_g2);
      return 0;
    });
    residents.push_back(std::move(r));
    if (upload_ms) *upload_ms = ms_since(t0);
    return *residents.back();
  }

  // Host → device copies of the caller's (pageable) vectors go through two pinned staging chunks:
  // the host fills one (a parallel memcpy) while the DMA engine drains the other. A plain
  // cudaMemcpyAsync from pageable memory measured ~5 GB/s on the H200 (a, b, c at 2^24: ~320 ms).
  void* stage[2] = {nullptr, nullptr};
  cudaEvent_t stage_free[2] = {nullptr, nullptr};

  void upload(void* dst, const void* src, std::size_t bytes) {
    if (bytes == 0) return;
    const std::size_t stage_bytes = std::max<std::size_t>(cfg.pinned_stage_bytes, 1);
    if (!cfg.pinned_uploads || bytes < stage_bytes / 32) {
      CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));
      return;
    }
    for (int k = 0; k < 2; ++k) {
      if (!stage[k]) {
        const cudaError_t e = cudaMallocHost(&stage[k], stage_bytes);
        if (e != cudaSuccess) {
          stage[k] = nullptr;
          (void)cudaGetLastError();
          CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream));  // unpinned fallback
          return;
        }
        CUDA_CHECK(cudaEventCreateWithFlags(&stage_free[k], cudaEventDisableTiming));
      }
    }
    const auto* s = static_cast<const unsigned char*>(src);
    auto* d = static_cast<unsigned char*>(dst);
    int k = 0;
    for (std::size_t off = 0; off < bytes; off += stage_bytes, k ^= 1) {
      const std::size_t len = std::min(stage_bytes, bytes - off);
      CUDA_CHECK(cudaEventSynchronize(stage_free[k]));  // its previous DMA has finished
      auto* buf = static_cast<unsigned char*>(stage[k]);
      constexpr std::size_t kPiece = std::size_t{1} << 20;
      tbb::parallel_for(std::size_t{0}, (len + kPiece - 1) / kPiece, [&](std::size_t p) {
        const std::size_t at = p * kPiece;
        std::memcpy(buf + at, s + off + at, std::min(kPiece, len - at));
      });
      CUDA_CHECK(cudaMemcpyAsync(d + off, buf, len, cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaEventRecord(stage_free[k], stream));
    }
  }

  /// Gathers the aux entries whose bit is set in `dens` into dst (which already holds `at` entries
  /// before them). d_aux holds the aux assignment.
  void gather(ff::Fr* dst, std::size_t at, const r1cs::DensityTracker& dens, std::size_t n_aux) {
    if (n_aux == 0 || dens.popcount() == 0) return;
    const auto w = dens.words();
    const std::vector<uint32_t> pre = rank_prefix(w);
    words.ensure(w.size() * sizeof(uint64_t));
    prefix.ensure(pre.size() * sizeof(uint32_t));
    upload(words.get(), w.data(), w.size() * sizeof(uint64_t));
    upload(prefix.get(), pre.data(), pre.size() * sizeof(uint32_t));
    gather_kernel<<<blocks_for(n_aux, 256), 256, 0, stream>>>(reinterpret_cast<Fr32*>(dst + at), aux.as<Fr32>(),
                                                             words.as<uint64_t>(), prefix.as<uint32_t>(), n_aux);
    CUDA_CHECK(cudaGetLastError());
    // the bitmap buffers are reused by the next gather: wait for this one
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  groth16::MsmResults prove_one(const Parameters& p, const Resident& res, const r1cs::ProvingBuffers& w,
                                groth16::StageTimings& t, const std::atomic<bool>* cancel, std::size_t k) {
    groth16::MsmResults out;
    // m: the domain (rows zero-padded to it); h_terms: the H MSM's scalars and points (m − 1 for
    // Bellperson, m for OddCoset: groth16::HForm).
    const std::size_t m = p.domain_size();
    const std::size_t h_terms = p.h_terms();
    const bool odd_coset = p.h_form == groth16::HForm::OddCoset;
    const std::size_t rows = w.a.size();
    const std::size_t n_in = w.input_assignment.size();
    const std::size_t n_aux = w.aux_assignment.size();
    const std::size_t a_len = p.a.size();
    const std::size_t b_len = p.b_g1.size();

    // ---- assignments: aux once, then the A and B scalar vectors by density ----
    auto t0 = Clock::now();
    translating_oom("uploading the assignments (aux, A and B scalars)", [&] {
      aux.ensure(std::max<std::size_t>(n_aux, 1) * sizeof(ff::Fr));
      upload(aux.get(), w.aux_assignment.data(), n_aux * sizeof(ff::Fr));
      sa.ensure(std::max<std::size_t>(a_len, 1) * sizeof(ff::Fr));
      upload(sa.get(), w.input_assignment.data(), n_in * sizeof(ff::Fr));
      gather(sa.as<ff::Fr>(), n_in, w.a_aux_density, n_aux);
      std::vector<ff::Fr> b_inputs;
      b_inputs.reserve(w.b_input_density.popcount());
      for (std::size_t i = 0; i < n_in; ++i)
        if (w.b_input_density.test(i)) b_inputs.push_back(w.input_assignment[i]);
      sb.ensure(std::max<std::size_t>(b_len, 1) * sizeof(ff::Fr));
      upload(sb.get(), b_inputs.data(), b_inputs.size() * sizeof(ff::Fr));
      gather(sb.as<ff::Fr>(), b_inputs.size(), w.b_aux_density, n_aux);
      CUDA_CHECK(cudaStreamSynchronize(stream));
      return 0;
    });
    const double assign_ms = ms_since(t0);

    // ---- B_G2, on its own host thread (and stream) while the rest runs, when overlapping ----
    g2.set_bases_device(res.b_g2.bases_device(), res.b_g2.bases_size());
    double g2_ms = 0;
    auto run_g2 = [&] {
      const auto tg = Clock::now();
      CUDA_CHECK(cudaSetDevice(cfg.device));
      out.b_g2 = translating_oom("B_G2 MSM", [&] { return g2.run_device(sb.get(), b_len, 0, cfg.msm); });
      g2_ms = ms_since(tg);
    };
    std::future<void> g2_done;
    if (cfg.overlap_g2) g2_done = std::async(std::launch::async, run_g2);
    struct Joiner {  // the G2 thread never outlives this frame, also when the G1 side throws
      std::future<void>* f;
      ~Joiner() {
        if (f->valid()) f->wait();
      }
    } joiner{&g2_done};

    groth16::check_prove_cancel(cancel, k, "the H computation");
    // ---- H ----
    t0 = Clock::now();
    if (h_terms > 0) {
      unsigned lg = 0;
      while ((std::size_t{1} << lg) < m) ++lg;
      if (!domain || domain->lg_size() != lg) {
        domain.reset();
        translating_oom("NTT tables", [&] {
          domain = std::make_unique<NttDomain>(lg);
          return 0;
        });
      }
      translating_oom("a, b, c evaluations", [&] {
        abc.ensure(3 * m * sizeof(ff::Fr));
        return 0;
      });
      ff::Fr* d_a = abc.as<ff::Fr>();
      ff::Fr* d_b = d_a + m;
      ff::Fr* d_c = d_b + m;
      for (auto [d, h] : {std::pair{d_a, &w.a}, std::pair{d_b, &w.b}, std::pair{d_c, &w.c}}) {
        upload(d, h->data(), rows * sizeof(ff::Fr));
        if (rows < m) CUDA_CHECK(cudaMemsetAsync(d + rows, 0, (m - rows) * sizeof(ff::Fr), stream));  // 0 = Fr zero
      }
      if (odd_coset) {
        domain->compute_h_odd_coset(d_a, d_b, d_c, stream);  // m scalars in d_a
      } else {
        domain->compute_h(d_a, d_b, d_c, stream);  // m − 1 scalars in d_a
      }
      CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    t.ntt += ms_since(t0);

    groth16::check_prove_cancel(cancel, k, "the H MSM");
    if (fault::fire("cuda")) [[unlikely]] {
      injected_fault_kernel<<<1, 1, 0, stream>>>();
      CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    t0 = Clock::now();
    if (h_terms > 0) {
      g1.set_bases_device(res.h.bases_device(), res.h.bases_size());
      out.h = translating_oom("H MSM", [&] { return g1.run_device(abc.get(), h_terms, 0, cfg.msm); });
    } else {
      out.h = ec::G1Projective::identity();
    }
    t.msm_h += ms_since(t0);

    groth16::check_prove_cancel(cancel, k, "the L MSM");
    t0 = Clock::now();
    g1.set_bases_device(res.l.bases_device(), res.l.bases_size());
    out.l = translating_oom("L MSM", [&] { return g1.run_device(aux.get(), n_aux, 0, cfg.msm); });
    t.msm_l += ms_since(t0) + assign_ms;  // the assignment upload and gathers are counted here

    groth16::check_prove_cancel(cancel, k, "the A MSM");
    t0 = Clock::now();
    g1.set_bases_device(res.a.bases_device(), res.a.bases_size());
    out.a = translating_oom("A MSM", [&] { return g1.run_device(sa.get(), a_len, 0, cfg.msm); });
    t.msm_a += ms_since(t0);

    groth16::check_prove_cancel(cancel, k, "the B (G1) MSM");
    t0 = Clock::now();
    g1.set_bases_device(res.b_g1.bases_device(), res.b_g1.bases_size());
    out.b_g1 = translating_oom("B_G1 MSM", [&] { return g1.run_device(sb.get(), b_len, 0, cfg.msm); });
    t.msm_b_g1 += ms_since(t0);

    if (cfg.overlap_g2) {
      g2_done.get();  // rethrows the G2 side's exception
    } else {
      run_g2();
    }
    t.msm_b_g2 += g2_ms;
    return out;
  }
};

GpuBackend::~GpuBackend() = default;

int GpuBackend::device() const { return impl_->cfg.device; }

GpuBackend::GpuBackend(GpuBackendConfig cfg) : impl_(std::make_unique<Impl>(cfg)) {
  std::lock_guard lk(g_device_mu);
  generation_ = device_generation_locked(cfg.device);
}

groth16::ProverResult GpuBackend::prove(const Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                                        std::span<const groth16::Randomizers> randomizers,
                                        const std::atomic<bool>* cancel) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!in_service_) {
    throw ProoflineError(Error::BadArgument, "GPU backend (device " + std::to_string(impl_->cfg.device) +
                                                 ") is out of service: " + fault());
  }
  try {
    bool reset_by_another;
    {
      std::lock_guard lk(g_device_mu);
      reset_by_another = device_generation_locked(impl_->cfg.device) != generation_;
    }
    if (reset_by_another) recover_locked("the device was reset by another backend after a fault");
    if (!in_service_) throw ProoflineError(Error::BadArgument, "GPU backend is out of service: " + fault());
    return prove_locked(params, partitions, randomizers, cancel);
  } catch (const CudaError& e) {
    recover_locked(e.what());
    throw;
  }
}

void GpuBackend::recover_locked(const std::string& what) {
  const int device = impl_->cfg.device;
  (void)cudaSetDevice(device);
  const cudaError_t sync = cudaDeviceSynchronize();
  (void)cudaGetLastError();  // a non-sticky error is cleared here
  bool stale;
  {
    std::lock_guard lk(g_device_mu);
    stale = device_generation_locked(device) != generation_;
  }
  if (!stale && sync == cudaSuccess && cudaGetLastError() == cudaSuccess) {
    set_fault("CUDA error, device still usable: " + what);
    return;
  }
  // The context is dead: every call on it fails until the device is reset. The old state's device
  // handles die with the context, so once a fresh state exists the old one is deliberately not
  // destroyed (its destructor would call into the dead context); what it holds on the host is small.
  // If no fresh state can be made, the old one stays (its calls fail with CUDA errors) and the
  // backend goes out of service.
  const GpuBackendConfig cfg = impl_->cfg;
  try {
    {
      std::lock_guard lk(g_device_mu);
      if (device_generation_locked(device) == generation_) {
        // Nobody reset it since our state was made: we do (other backends on this device then only
        // recreate their state when they meet the dead context).
        const cudaError_t r = cudaDeviceReset();
        if (r != cudaSuccess) throw CudaError(static_cast<int>(r), "cudaDeviceReset()", __FILE__, __LINE__);
        ++g_device_generation[static_cast<std::size_t>(device)];
      }
      generation_ = device_generation_locked(device);
    }
    // The driver may still be tearing the faulted context down (the device then reports itself
    // busy, cudaErrorDevicesUnavailable): retry for up to ~10 s before giving up on the device.
    std::unique_ptr<Impl> fresh;
    for (int attempt = 0;; ++attempt) {
      try {
        fresh = std::make_unique<Impl>(cfg);
        break;
      } catch (const CudaError& e) {
        if (attempt >= 40) throw;
        (void)cudaGetLastError();
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
      }
    }
    (void)impl_.release();  // see above: not destroyed
    impl_ = std::move(fresh);
    ++recoveries_;
    set_fault("device reset after: " + what);
  } catch (const std::exception& e) {
    set_fault("out of service: " + what + "; recovery failed: " + e.what());
    in_service_ = false;
  }
}

bool GpuBackend::in_service() const { return in_service_.load(); }
std::string GpuBackend::fault() const {
  std::lock_guard<std::mutex> lock(fault_mu_);
  return fault_;
}
unsigned GpuBackend::recoveries() const { return recoveries_.load(); }
void GpuBackend::set_fault(std::string f) {
  std::lock_guard<std::mutex> lock(fault_mu_);
  fault_ = std::move(f);
}

groth16::ProverResult GpuBackend::prove_locked(const Parameters& params, std::span<r1cs::ProvingBuffers> partitions,
                                               std::span<const groth16::Randomizers> randomizers,
                                               const std::atomic<bool>* cancel) {
  const auto t_call = Clock::now();
  if (randomizers.size() != partitions.size()) {
    throw ProoflineError(Error::BadLength, "randomizers for " + std::to_string(partitions.size()) +
                                               " partitions: got " + std::to_string(randomizers.size()) +
                                               ", expected " + std::to_string(partitions.size()));
  }
  for (std::size_t k = 0; k < partitions.size(); ++k) groth16::check_partition_shape(params, partitions[k], k);
  if (params.vk.delta_g1.infinity || params.vk.delta_g2.infinity) {
    throw ProoflineError(Error::UnexpectedInfinity,
                         "parameters have delta at infinity (vk.delta_g1 or vk.delta_g2); cannot prove with them");
  }
  Impl& I = *impl_;
  I.select();
  groth16::ProverResult result;
  result.proofs.resize(partitions.size());
  if (partitions.empty()) {
    result.timings.total = ms_since(t_call);
    return result;
  }
  groth16::check_prove_cancel(cancel, 0, "the parameter upload");
  const Resident& res = I.ensure_resident(params, nullptr);

  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaEventRecord(I.ev_start, I.stream));
  std::vector<groth16::MsmResults> sums(partitions.size());
  for (std::size_t k = 0; k < partitions.size(); ++k) {
    groth16::check_prove_cancel(cancel, k, "the partition");
    sums[k] = I.prove_one(params, res, partitions[k], result.timings, cancel, k);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaEventRecord(I.ev_stop, I.stream));
  CUDA_CHECK(cudaEventSynchronize(I.ev_stop));
  float kernel_ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&kernel_ms, I.ev_start, I.ev_stop));

  const auto t0 = Clock::now();
  for (std::size_t k = 0; k < partitions.size(); ++k)
    result.proofs[k] = groth16::assemble_proof(params.vk, sums[k], randomizers[k]);
  result.timings.assemble = ms_since(t0);
  result.timings.kernel = kernel_ms;
  result.timings.total = ms_since(t_call);
  return result;
}

double GpuBackend::preload(const Parameters& params) {
  std::lock_guard<std::mutex> lock(mu_);
  impl_->select();
  double ms = 0;
  impl_->ensure_resident(params, &ms);
  return ms;
}

void GpuBackend::evict(const Parameters& params) {
  std::lock_guard<std::mutex> lock(mu_);
  impl_->select();
  impl_->drop(params);
}

void GpuBackend::evict_all() {
  std::lock_guard<std::mutex> lock(mu_);
  impl_->select();
  impl_->g1.set_bases_device(nullptr, 0);
  impl_->g2.set_bases_device(nullptr, 0);
  impl_->residents.clear();
}

bool GpuBackend::is_resident(const Parameters& params) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Resident* r = impl_->find(params);
  return r != nullptr && r->fp == Fingerprint::of(params);
}

std::size_t GpuBackend::resident_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::size_t s = 0;
  for (const auto& r : impl_->residents) s += r->bytes();
  return s;
}

void GpuBackend::release_scratch() {
  std::lock_guard<std::mutex> lock(mu_);
  Impl& I = *impl_;
  I.select();
  I.g1.release_scratch();
  I.g2.release_scratch();
  I.domain.reset();
  for (DeviceBuffer* b : {&I.abc, &I.aux, &I.sa, &I.sb, &I.words, &I.prefix}) b->release();
}

std::vector<std::unique_ptr<GpuBackend>> make_gpu_backends(const GpuBackendConfig& base) {
  std::vector<std::unique_ptr<GpuBackend>> out;
  int count = 0;
  try {
    count = device_count();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "proofline: no usable CUDA device (%s)\n", e.what());
    return out;
  }
  std::string skipped;
  for (int d = 0; d < count; ++d) {
    try {
      CUDA_CHECK(cudaSetDevice(d));
      DeviceBuffer flag(sizeof(int), "device probe flag");
      int got = 0;
      probe_kernel<<<1, 1>>>(flag.as<int>());
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(&got, flag.get(), sizeof(int), cudaMemcpyDeviceToHost));
      if (got != 0x5eed) throw std::runtime_error("probe kernel wrote a wrong value");
      GpuBackendConfig cfg = base;
      cfg.device = d;
      out.push_back(std::make_unique<GpuBackend>(cfg));
    } catch (const std::exception& e) {
      (void)cudaGetLastError();
      skipped += " device " + std::to_string(d) + ": " + e.what() + ";";
    }
  }
  if (out.empty()) {
    std::fprintf(stderr, "proofline: no usable CUDA device (%s)\n",
                 count == 0 ? "none visible" : skipped.c_str());
  }
  return out;
}

}  // namespace proofline::gpu
