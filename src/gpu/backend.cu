// src/gpu/backend.cu — the CUDA Groth16 backend (proofline/gpu/backend.hpp says what it does; this
// file is the how): resident SRS per Parameters, per-partition uploads, H on the device, the
// density gathers, the five MSMs, assembly on the host, and the device factory.
#include "proofline/gpu/backend.hpp"

#include <cuda_runtime.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <future>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "device_buffer.cuh"
#include "proofline/gpu/device.hpp"
#include "host_pin.hpp"
#include "proofline/gpu/ntt.hpp"
#include "proofline/gpu/r1cs_eval.hpp"
#include "proofline/gpu/srs_load.hpp"
#include "proofline/util/error.hpp"
#include "proofline/util/fault.hpp"
#include "proofline/r1cs/compiled_circuit.hpp"

namespace proofline::gpu {

namespace {

// Cancellation: groth16::check_prove_cancel on the host between partitions and between the stages
// of one (device work is not interrupted).

using groth16::Parameters;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Milliseconds between two recorded CUDA events (the later one complete).
double event_ms(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
  return ms;
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

/// dst[j] = value j of a packed witness (r1cs/packed_witness.hpp): one or zero where bit j of is_bit
/// is set (bit j of bits says which), else others[before[j / 64] + the non-bit values below j in its
/// word]. `one` is Fr's 1 in Montgomery form (the host's Fr::one()).
__global__ void expand_packed_kernel(Fr32* __restrict__ dst, const uint64_t* __restrict__ is_bit,
                                     const uint64_t* __restrict__ bits, const uint32_t* __restrict__ before,
                                     const Fr32* __restrict__ others, Fr32 one, std::size_t n) {
  const std::size_t j = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const uint64_t w = is_bit[j >> 6];
  const unsigned bit = static_cast<unsigned>(j & 63);
  if ((w >> bit) & 1) {
    if ((bits[j >> 6] >> bit) & 1) {
      dst[j] = one;
    } else {
      dst[j] = Fr32{make_uint4(0, 0, 0, 0), make_uint4(0, 0, 0, 0)};
    }
    return;
  }
  dst[j] = others[before[j >> 6] + static_cast<uint32_t>(__popcll(~w & ((uint64_t{1} << bit) - 1)))];
}

__global__ void probe_kernel(int* out) { *out = 0x5eed; }

/// What identifies the contents of a resident SRS (backend.hpp "Residency").
struct Fingerprint {
  const void* ptr[5] = {};
  std::size_t len[5] = {};
  ec::G1Affine delta_g1;
  static Fingerprint of(const Parameters& p) {
    Fingerprint f;
    const void* src = p.source.get();
    f.ptr[0] = src ? src : p.h.data(), f.len[0] = p.h_len();
    f.ptr[1] = src ? src : p.l.data(), f.len[1] = p.l_len();
    f.ptr[2] = src ? src : p.a.data(), f.len[2] = p.a_len();
    f.ptr[3] = src ? src : p.b_g1.data(), f.len[3] = p.b_g1_len();
    f.ptr[4] = src ? src : p.b_g2.data(), f.len[4] = p.b_g2_len();
    f.delta_g1 = p.vk.delta_g1;
    return f;
  }
  bool operator==(const Fingerprint& o) const {
    for (int k = 0; k < 5; ++k)
      if (ptr[k] != o.ptr[k] || len[k] != o.len[k]) return false;
    return delta_g1 == o.delta_g1;
  }
};

constexpr std::size_t kG1Dev = sizeof(ec::G1Affine::Field) * 2;  // packed device point: x ‖ y
constexpr std::size_t kG2Dev = sizeof(ec::G2Affine::Field) * 2;
static_assert(kG1Dev == 96 && kG2Dev == 192, "packed device layout (msm.hpp Encodings)");
constexpr groth16::ParamsSection kSection[5] = {groth16::ParamsSection::H, groth16::ParamsSection::L,
                                                groth16::ParamsSection::A, groth16::ParamsSection::BG1,
                                                groth16::ParamsSection::BG2};
constexpr const char* kQueryName[5] = {"h", "l", "a", "b_g1", "b_g2"};
std::size_t dev_point_bytes(int k) { return k == 4 ? kG2Dev : kG1Dev; }

/// Pinned host memory (cudaMallocHost), freed by the destructor; move-only.
struct PinnedBytes {
  void* p = nullptr;
  std::size_t n = 0;
  PinnedBytes() = default;
  PinnedBytes(PinnedBytes&& o) noexcept : p(std::exchange(o.p, nullptr)), n(std::exchange(o.n, 0)) {}
  PinnedBytes& operator=(PinnedBytes&& o) noexcept {
    std::swap(p, o.p);
    std::swap(n, o.n);
    return *this;
  }
  ~PinnedBytes() {
    if (p) (void)cudaFreeHost(p);
  }
  /// Throws CudaError(cudaErrorMemoryAllocation) naming `what` when the host memory cannot be pinned.
  void allocate(std::size_t bytes, const std::string& what) {
    if (bytes == 0) return;
    const cudaError_t e = cudaMallocHost(&p, bytes);
    if (e != cudaSuccess) {
      p = nullptr;
      (void)cudaGetLastError();
      detail::throw_cuda_error(static_cast<int>(cudaErrorMemoryAllocation),
                               ("cudaMallocHost(" + std::to_string(bytes) + " bytes for " + what + ")").c_str(),
                               __FILE__, __LINE__);
    }
    n = bytes;
  }
};

/// One SRS held by the backend: resident (dev) or streamed (host, pinned), packed device layout.
struct Resident {
  const Parameters* key = nullptr;
  Fingerprint fp;
  SrsMode mode = SrsMode::Resident;
  std::size_t msm_chunk = 0;  ///< resident: bases per MSM slice (0: whole MSMs)
  bool lean = false;          ///< its partitions run with the lean working set (backend.hpp "Working set")
  DeviceBuffer dev[5];
  PinnedBytes host[5];
  std::size_t len[5] = {};
  std::size_t device_bytes() const {
    std::size_t b = 0;
    for (const auto& d : dev) b += d.bytes();
    return b;
  }
  /// Resident: device bytes. Streamed: the packed SRS bytes streamed per proof (held in pinned host
  /// memory for a .params source; in the Parameters' own vectors for host parameters).
  std::size_t bytes() const {
    if (mode == SrsMode::Resident) return device_bytes();
    std::size_t b = 0;
    for (int k = 0; k < 5; ++k) b += len[k] * (k == 4 ? kG2Dev : kG1Dev);
    return b;
  }
};

/// Host affine points → the packed device layout (x ‖ y Montgomery limbs; identity = all zero), in
/// parallel: the bytes GpuMsm::set_bases' conversion kernel makes on the device.
template <class Affine>
void pack_points(const Affine* src, std::size_t n, unsigned char* dst) {
  constexpr std::size_t half = sizeof(typename Affine::Field);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      unsigned char* d = dst + i * 2 * half;
      if (src[i].infinity) {
        std::memset(d, 0, 2 * half);
      } else {
        std::memcpy(d, &src[i].x, half);
        std::memcpy(d + half, &src[i].y, half);
      }
    }
  });
}

/// Device scratch of one GPU MSM over n points (msm.hpp "Memory"), XYZZ points of `xyzz` bytes.
std::size_t msm_scratch_bytes(std::size_t n, std::size_t xyzz) {
  if (n == 0) return 0;
  const int c = gpu_msm_window_bits(n, xyzz > 192 ? 2 : 1);  // 192 B: a G1 XYZZ point, 384 B: G2
  const std::size_t w = (255 + c - 1) / c;
  const std::size_t per_thread = std::clamp<std::size_t>(n / (132 * 256), 4, 64);
  const std::size_t threads = (n + per_thread - 1) / per_thread;
  // split flags and indices, digits (keys + values) and their sorts' other slot (8·(w + 1)), 8 more
  // (the CUB temp of the old four-pointer sorts, now a margin: kept until a plan is re-measured on a device),
  // buckets, partial sums (the scalars
  // are the backend's own vectors, counted there). Not the batch-affine lanes' state of G1's large MSMs:
  // it is kept only where the budget has room beside the plan (want_ba_keep), else those MSMs run XYZZ
  // (backend.hpp "Residency"), so a plan that fits without it never turns lean or streamed for it
  return n * (10 + 8 * w + 8 + 8) + w * (std::size_t{1} << (c - 1)) * xyzz + 2 * 2 * threads * (xyzz + 4);
}

/// Whether the lean working set keeps NTT tables of `bytes` across a partition's MSMs (small ones)
/// rather than freeing them after the transforms and making them again for the next partition.
bool lean_keeps_tables(std::size_t bytes) { return bytes <= (std::size_t{64} << 20); }

/// ⌈log2 m⌉ (0 for m ≤ 1): the lg of the NTT domain of m rows (gpu::NttDomain::lg_size).
unsigned domain_lg(std::size_t m) { return m <= 1 ? 0u : static_cast<unsigned>(std::bit_width(m - 1)); }

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

/// Waits for a helper thread's future when the frame that started it ends, also by an exception:
/// the thread never outlives the buffers and results it refers to.
struct FutureJoiner {
  std::future<void>* f;
  ~FutureJoiner() {
    if (f->valid()) f->wait();
  }
};

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
  /// Device bytes of every buffer this object allocates (first member: destroyed last, after the
  /// buffers counted in it); capped by cfg.device_memory_limit when it is enforced.
  DeviceBudget budget;
  GpuBackendConfig cfg;
  cudaStream_t stream = nullptr;
  /// Copy stream of the overlapped schedule (prove_one_overlapped): a, b, c and the assignments go
  /// up on it while `stream` transforms the columns already there; ev_col[i] marks column i's copy.
  cudaStream_t xfer = nullptr;
  cudaEvent_t ev_col[3] = {nullptr, nullptr, nullptr};
  cudaEvent_t ev_start = nullptr, ev_stop = nullptr;
  /// Around the constraint evaluation of a partition in the compiled form (StageTimings::evaluate).
  cudaEvent_t ev_eval[2] = {nullptr, nullptr};
  /// The compiled circuit resident on the device (r1cs::ProvingBuffers' compiled form) and the
  /// host object it was made from (one at a time: a partition of another circuit replaces it).
  std::shared_ptr<const r1cs::CompiledCircuit> compiled_src;
  std::unique_ptr<DeviceCompiledCircuit> compiled_dev;
  std::size_t pinned_copies = 0;  // uploads made straight from page-locked caller buffers
  std::vector<std::unique_ptr<Resident>> residents;
  std::unique_ptr<NttDomain> domain;
  GpuMsmG1 g1;  // scratch for the four G1 MSMs, bases pointed at the resident copies
  GpuMsmG2 g2;
  DeviceBuffer abc{"a, b, c evaluations"}, aux{"aux assignment"}, sa{"A scalars"}, sb{"B scalars"},
      words{"density bitmap"}, prefix{"density ranks"}, packed{"packed aux assignment"};
  /// Bytes upload() has copied (the partition's own data; StageTimings::h2d_bytes). Atomic: the
  /// overlapped schedule uploads from a second host thread.
  std::atomic<std::uint64_t> uploaded_bytes{0};
  /// Compiled-form partitions evaluated on the device and on the host ("Compiled form").
  std::size_t compiled_on_device = 0, compiled_on_host = 0;

  explicit Impl(GpuBackendConfig c) : cfg(c) {
    // PROOFLINE_GPU_OVERLAP_G2=0 / 1 overrides cfg.overlap_g2 (to time each MSM alone in a whole proof:
    // with it on, the B_G2 MSM shares the device with L, A and B_G1 and their wall times include that)
    cfg.overlap_g2 = overlap_g2_in_effect(cfg.overlap_g2);
    g1_msm_cfg = cfg.msm;
    if (cfg.enforce_device_memory_limit) budget.cap = cfg.device_memory_limit;
    CUDA_CHECK(cudaSetDevice(cfg.device));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&xfer, cudaStreamNonBlocking));
    for (auto& e : ev_col) CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    host_pin::install_release_hook();
    CUDA_CHECK(cudaEventCreate(&ev_start));
    CUDA_CHECK(cudaEventCreate(&ev_stop));
    for (auto& e : ev_eval) CUDA_CHECK(cudaEventCreate(&e));
  }
  ~Impl() {
    cudaSetDevice(cfg.device);
    if (stream) cudaStreamSynchronize(stream);
    if (xfer) cudaStreamSynchronize(xfer);
    for (int k = 0; k < 2; ++k) {
      if (stage[k]) cudaFreeHost(stage[k]);
      if (stage_free[k]) cudaEventDestroy(stage_free[k]);
    }
    residents.clear();
    domain.reset();
    compiled_dev.reset();
    if (ev_start) cudaEventDestroy(ev_start);
    if (ev_stop) cudaEventDestroy(ev_stop);
    for (auto e : ev_eval)
      if (e) cudaEventDestroy(e);
    for (auto e : ev_col)
      if (e) cudaEventDestroy(e);
    if (xfer) cudaStreamDestroy(xfer);
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
  const Resident* find(const Parameters& p) const {
    for (const auto& r : residents)
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

  // ---- residency (backend.hpp "Residency") ----------------------------------------------------
  std::unique_ptr<SrsLoader> loader;  // .params → device/pinned host, made on first use
  /// Two device chunk buffers and a copy stream for streamed MSMs: one ring for the G1 MSMs, one for
  /// the B_G2 MSM (its own host thread).
  struct ChunkRing {
    DeviceBuffer buf[2] = {DeviceBuffer("streamed SRS chunk"), DeviceBuffer("streamed SRS chunk")};
    PinnedBytes pin[2];  // packing chunks for host parameters
    cudaStream_t copy = nullptr;
    cudaEvent_t done[2] = {nullptr, nullptr};
    void ensure(std::size_t bytes, bool pinned_chunks) {
      if (!copy) CUDA_CHECK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
      for (int k = 0; k < 2; ++k) {
        if (!done[k]) CUDA_CHECK(cudaEventCreateWithFlags(&done[k], cudaEventDisableTiming));
        buf[k].ensure(bytes);
        if (pinned_chunks && pin[k].n < bytes) {
          pin[k] = PinnedBytes();
          pin[k].allocate(bytes, "streamed SRS packing chunk (pinned host)");
        }
      }
    }
    void release() {
      if (copy) (void)cudaStreamSynchronize(copy);
      for (auto& b : buf) b.release();
      for (auto& b : pin) b = PinnedBytes();
    }
    ~ChunkRing() {
      release();
      for (auto e : done)
        if (e) cudaEventDestroy(e);
      if (copy) cudaStreamDestroy(copy);
    }
  };
  ChunkRing ring_g1, ring_g2;
  std::size_t stream_chunk = 0;  // points per streamed chunk, set by the last streamed SRS load

  /// The device bytes this backend may plan with: the configured limit, else what the device has
  /// free plus what this backend holds already (budget.live) — not the card's total, of which the
  /// CUDA context and other processes hold their part. (With the total, a WindowPoSt 32 GiB
  /// partition planned its resident SRS and full working set on an 80 GB H100 and ran out of
  /// memory in its B_G2 MSM, 26.5 MB short; bench/RESULTS.md, 2026-12-05.)
  std::size_t device_budget() const {
    if (cfg.device_memory_limit != 0) return cfg.device_memory_limit;
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return std::min<std::size_t>(total_b, free_b + budget.live.load());
  }
  /// PROOFLINE_NTT_WIDE (read once): "1" → yes, "0" → no, unset or "" → cfg.ntt_wide_twiddles; anything
  /// else throws std::invalid_argument.
  bool wide_wanted() const {
    static const int env = [] {
      const char* e = std::getenv("PROOFLINE_NTT_WIDE");
      const std::string v = e ? e : "";
      if (v.empty()) return -1;
      if (v == "0" || v == "1") return v == "1" ? 1 : 0;
      throw std::invalid_argument("PROOFLINE_NTT_WIDE=" + v + ": expected 0 or 1");
    }();
    return env < 0 ? cfg.ntt_wide_twiddles : env == 1;
  }
  /// Whether p's NTT domain gets the wide twiddle table now: wide_wanted(), p's SRS resident with the
  /// full working set, and room in the budget for the table beside what is held, that working set
  /// and a compiled circuit — the one on the device, else room for one of p's shape (kCompiledReserve
  /// bytes per row; a 32 GiB PoRep partition's is 45.5 bytes per row): the device evaluation of
  /// the constraints (issue 31) comes first, the table only in the room left (ensure_compiled drops
  /// a wide table that would stand in its way).
  bool want_wide(const Parameters& p, const Resident& res) const {
    if (!wide_wanted() || res.mode != SrsMode::Resident || res.lean) return false;
    const std::size_t m = p.domain_size();
    const std::size_t extra = NttDomain::table_bytes_for(m, true) - NttDomain::table_bytes_for(m);
    const std::size_t cc = compiled_dev ? compiled_dev->device_bytes() : kCompiledReserve * m;
    return held_device_bytes(nullptr) + GpuBackend::working_bytes(p, res.msm_chunk, false) + cc + extra <=
           device_budget();
  }
  /// Whether the G1 MSMs of p keep their batch-affine state between calls (GpuMsm::keep_batch_affine_state,
  /// backend.hpp "Residency"): p's SRS resident with the full working set (whole MSMs, or slices of
  /// res.msm_chunk bases: an 80 GB card holding a WindowPoSt SRS), and room in the budget for the state
  /// of p's largest G1 MSM (or slice) beside what is held, that working set (with the wide table where
  /// the domain has it) and a compiled circuit (the one on the device, else the reserve for one of p's
  /// shape). The state comes after the compiled circuit and the wide table: without it the G1 MSMs run
  /// XYZZ (prove_one).
  bool want_ba_keep(const Parameters& p, const Resident& res) const {
    if (res.mode != SrsMode::Resident || res.lean) return false;
    std::size_t n = std::max({p.h_len(), p.l_len(), p.a_len(), p.b_g1_len()});
    if (res.msm_chunk != 0) n = std::min(n, res.msm_chunk);
    const std::size_t state = GpuMsmG1::batch_affine_state_bytes(n, cfg.msm);
    if (state == 0) return false;
    const unsigned lg = domain_lg(p.domain_size());
    // the table first: the domain's own where it is p's, else what ensure_h_buffers will make
    const bool wide = domain && domain->lg_size() == lg ? domain->wide_twiddles() : want_wide(p, res);
    const std::size_t cc = compiled_dev ? compiled_dev->device_bytes() : kCompiledReserve * p.domain_size();
    return held_device_bytes(nullptr) + GpuBackend::working_bytes(p, res.msm_chunk, false, wide) + cc + state <=
           device_budget();
  }
  static constexpr std::size_t kCompiledReserve = 64;
  std::size_t held_device_bytes(const Parameters* except) const {
    std::size_t b = 0;
    for (const auto& r : residents)
      if (r->key != except) b += r->device_bytes();
    return b;
  }
  static std::size_t srs_device_bytes(const Parameters& p) {
    return kG1Dev * (p.h_len() + p.l_len() + p.a_len() + p.b_g1_len()) + kG2Dev * p.b_g2_len();
  }
  /// The working sets to try, in order of preference (cfg.working_set; Auto: full, then lean).
  std::vector<bool> lean_choices() const {
    switch (cfg.working_set) {
      case WorkingSet::Full: return {false};
      case WorkingSet::Lean: return {true};
      case WorkingSet::Auto: break;
    }
    return {false, true};
  }
  /// Resident when the SRS fits beside one partition's working space — full, else lean (a resident
  /// SRS with the lean working set costs less than a streamed one with the full set) — with whole
  /// MSMs or, if only those do not fit, slices of a power of two (2^26 … 2^20); else streamed.
  SrsMode plan(const Parameters& p, std::size_t* msm_chunk = nullptr, bool* lean = nullptr) const {
    const std::size_t budget = device_budget(), held = held_device_bytes(&p);
    const std::size_t srs = srs_device_bytes(p);
    for (const bool l : lean_choices()) {
      std::size_t chunk = cfg.resident_msm_chunk_points;
      bool fits = held + srs + GpuBackend::working_bytes(p, chunk, l) <= budget;
      for (std::size_t c = std::size_t{1} << 26; !fits && chunk == 0 && c >= (std::size_t{1} << 20); c >>= 1) {
        if (held + srs + GpuBackend::working_bytes(p, c, l) <= budget) {
          chunk = c;
          fits = true;
        }
      }
      if (fits) {
        if (msm_chunk) *msm_chunk = chunk;
        if (lean) *lean = l;
        return SrsMode::Resident;
      }
    }
    if (msm_chunk) *msm_chunk = 0;
    if (lean) *lean = cfg.working_set == WorkingSet::Lean;
    return SrsMode::Streamed;
  }
  /// Points per streamed chunk for p and the working set beside it: the config's chunk, or the
  /// largest power of two <= 2^24 (>= 2^20) whose two G1 and two G2 chunk buffers fit the budget
  /// beside the full working space, else beside the lean one; when neither fits, the full (or the
  /// configured) working set with the largest chunk >= 2^12 that fits, or 2^12.
  std::size_t plan_chunk(const Parameters& p, bool* lean) const {
    const std::size_t budget = device_budget(), held = held_device_bytes(&p);
    auto fits = [&](std::size_t c, bool l) {
      return held + 2 * c * (kG1Dev + kG2Dev) + GpuBackend::working_bytes(p, c, l) <= budget;
    };
    const std::vector<bool> choices = lean_choices();
    if (cfg.srs_stream_chunk_points != 0) {
      *lean = choices.front();
      for (const bool l : choices)
        if (fits(cfg.srs_stream_chunk_points, l)) {
          *lean = l;
          break;
        }
      return cfg.srs_stream_chunk_points;
    }
    for (const bool l : choices)
      for (std::size_t c = std::size_t{1} << 24; c >= (std::size_t{1} << 20); c >>= 1)
        if (fits(c, l)) {
          *lean = l;
          return c;
        }
    *lean = choices.front();
    std::size_t c = std::size_t{1} << 24;
    while (c > (std::size_t{1} << 12) && !fits(c, *lean)) c >>= 1;
    return c;
  }

  SrsLoader& srs_loader() {
    if (!loader) loader = std::make_unique<SrsLoader>(cfg.srs_load_chunk_bytes);
    return *loader;
  }

  void load_resident(Resident& r, const Parameters& p) {
    for (int k = 0; k < 5; ++k) {
      const std::size_t pb = dev_point_bytes(k);
      r.dev[k].set_what(std::string("SRS ") + kQueryName[k] + " bases");
      r.dev[k].ensure(r.len[k] * pb);
      if (r.len[k] == 0) continue;
      if (p.source) {
        srs_loader().load(*p.source, kSection[k], r.dev[k].get(), false);
      } else if (k == 4) {
        upload_packed(r.dev[k].get(), p.b_g2.data(), p.b_g2.size());
      } else {
        const std::vector<ec::G1Affine>* q[4] = {&p.h, &p.l, &p.a, &p.b_g1};
        upload_packed(r.dev[k].get(), q[k]->data(), q[k]->size());
      }
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  /// Streamed mode: a .params source is decoded (on the device) into pinned host memory in the
  /// device layout; host parameters are streamed from their own vectors (packed chunk by chunk on
  /// the way, run_query), so no second host copy is made.
  void load_streamed(Resident& r, const Parameters& p) {
    if (!p.source) return;
    for (int k = 0; k < 5; ++k) {
      const std::size_t pb = dev_point_bytes(k);
      r.host[k].allocate(r.len[k] * pb, std::string("streamed SRS ") + kQueryName[k] + " bases (pinned host)");
      if (r.len[k] == 0) continue;
      srs_loader().load(*p.source, kSection[k], r.host[k].p, true);
    }
  }

  /// The held copy of p's SRS, loaded if missing or stale; *upload_ms gets the load time.
  Resident& ensure_resident(const Parameters& p, double* upload_ms) {
    const Fingerprint fp = Fingerprint::of(p);
    if (Resident* r = find(p)) {
      if (r->fp == fp) {
        if (upload_ms) *upload_ms = 0;
        return *r;
      }
      drop(p);
    }
    g1.keep_batch_affine_state(false);  // a kept state is not in plan()'s count: freed before a new SRS
    ba_kept_for = nullptr;
    const auto t0 = Clock::now();
    auto r = std::make_unique<Resident>();
    r->key = &p;
    r->fp = fp;
    for (int k = 0; k < 5; ++k) r->len[k] = fp.len[k];
    r->mode = plan(p, &r->msm_chunk, &r->lean);
    if (r->mode == SrsMode::Resident) {
      try {
        translating_oom("loading the SRS into device memory (h, l, a, b_g1, b_g2 bases)", [&] {
          load_resident(*r, p);
          return 0;
        });
      } catch (const ProoflineError& e) {
        if (e.code() != Error::OutOfMemory) throw;
        for (auto& d : r->dev) d.release();
        r->mode = SrsMode::Streamed;  // it did not fit after all: stream it
      }
    }
    if (r->mode == SrsMode::Streamed) {
      stream_chunk = plan_chunk(p, &r->lean);
      translating_oom("loading the SRS into pinned host memory for streaming", [&] {
        load_streamed(*r, p);
        return 0;
      });
    }
    if (loader) loader->release();
    residents.push_back(std::move(r));
    if (upload_ms) *upload_ms = ms_since(t0);
    return *residents.back();
  }

  /// The MSM configuration of the G1 MSMs of the current partition (set by prove_one: cfg.msm, with XYZZ
  /// where the batch-affine state is not kept and cfg.msm leaves the choice to the environment) and of G2's.
  GpuMsmConfig g1_msm_cfg;
  const GpuMsmConfig& msm_config(const GpuMsmG1&) const { return g1_msm_cfg; }
  const GpuMsmConfig& msm_config(const GpuMsmG2&) const { return cfg.msm; }
  /// The parameters the kept state was approved for (want_ba_keep), null when none is kept.
  const Parameters* ba_kept_for = nullptr;

  /// Σ scalars[i]·bases[i] over n bases of query k of res: against the resident bases, or streamed
  /// from pinned host memory in chunks through `ring` (copy of chunk i + 1 overlapping the MSM of
  /// chunk i; each chunk's MSM is synchronous, so its buffer is free when the next copy starts).
  template <class Msm>
  auto run_query(Msm& msm, ChunkRing& ring, const Resident& res, int k, const void* d_scalars, std::size_t n)
      -> decltype(msm.run_device(d_scalars, n, 0, cfg.msm)) {
    const GpuMsmConfig& mc = msm_config(msm);
    if (res.mode == SrsMode::Resident) {
      if (res.msm_chunk == 0 || n <= res.msm_chunk) {
        msm.set_bases_device(res.dev[k].get(), res.len[k]);
        return msm.run_device(d_scalars, n, 0, mc);
      }
      // Slices of the resident bases (backend.hpp "Residency"): the scratch of one slice.
      using Projective = decltype(msm.run_device(d_scalars, n, 0, cfg.msm));
      Projective acc = Projective::identity();
      const std::size_t pb = dev_point_bytes(k);
      for (std::size_t off = 0; off < n; off += res.msm_chunk) {
        const std::size_t len = std::min(res.msm_chunk, n - off);
        msm.set_bases_device(static_cast<const unsigned char*>(res.dev[k].get()) + off * pb, len);
        acc += msm.run_device(static_cast<const ff::Fr*>(d_scalars) + off, len, 0, mc);
      }
      return acc;
    }
    using Projective = decltype(msm.run_device(d_scalars, n, 0, cfg.msm));
    Projective acc = Projective::identity();
    if (n == 0) return acc;
    const std::size_t pb = dev_point_bytes(k);
    const std::size_t per = std::max<std::size_t>(stream_chunk, 1);
    const std::size_t chunks = (n + per - 1) / per;
    const bool pinned_source = res.host[k].p != nullptr;
    ring.ensure(std::min(per, n) * pb, !pinned_source);
    const auto* host = static_cast<const unsigned char*>(res.host[k].p);
    const Parameters& p = *res.key;
    // Chunk i to ring buffer i & 1 on the ring's copy stream; for host parameters packed into the
    // ring's pinned chunk first. Runs on a helper thread, so that it overlaps the MSM of chunk i − 1.
    auto copy = [&](std::size_t i) {
      CUDA_CHECK(cudaSetDevice(cfg.device));
      const std::size_t off = i * per, len = std::min(per, n - off);
      const unsigned char* src = host + off * pb;
      if (!pinned_source) {
        auto* stage = static_cast<unsigned char*>(ring.pin[i & 1].p);
        if (k == 4) {
          pack_points(p.b_g2.data() + off, len, stage);
        } else {
          const std::vector<ec::G1Affine>* q[4] = {&p.h, &p.l, &p.a, &p.b_g1};
          pack_points(q[k]->data() + off, len, stage);
        }
        src = stage;
      }
      CUDA_CHECK(cudaMemcpyAsync(ring.buf[i & 1].get(), src, len * pb, cudaMemcpyHostToDevice, ring.copy));
      CUDA_CHECK(cudaEventRecord(ring.done[i & 1], ring.copy));
    };
    // Chunk i + 1's buffers are free when it starts: chunk i − 1's MSM returned (synchronously) and
    // its copy was waited for.
    std::future<void> next = std::async(std::launch::async, copy, std::size_t{0});
    for (std::size_t i = 0; i < chunks; ++i) {
      next.get();
      CUDA_CHECK(cudaEventSynchronize(ring.done[i & 1]));
      if (i + 1 < chunks) next = std::async(std::launch::async, copy, i + 1);
      const std::size_t off = i * per, len = std::min(per, n - off);
      msm.set_bases_device(ring.buf[i & 1].get(), len);
      acc += msm.run_device(static_cast<const ff::Fr*>(d_scalars) + off, len, 0, mc);
    }
    msm.set_bases_device(nullptr, 0);
    return acc;
  }

  // Host → device copies of the caller's (pageable) vectors go through two pinned staging chunks:
  // the host fills one (a parallel memcpy) while the DMA engine drains the other. A plain
  // cudaMemcpyAsync from pageable memory measured ~5 GB/s on the H200 (a, b, c at 2^24: ~320 ms).
  void* stage[2] = {nullptr, nullptr};
  cudaEvent_t stage_free[2] = {nullptr, nullptr};

  /// The two pinned staging chunks, allocated on first use; false if pinned memory cannot be had.
  bool ensure_stage() {
    const std::size_t stage_bytes = std::max<std::size_t>(cfg.pinned_stage_bytes, 1);
    for (int k = 0; k < 2; ++k) {
      if (!stage[k]) {
        const cudaError_t e = cudaMallocHost(&stage[k], stage_bytes);
        if (e != cudaSuccess) {
          stage[k] = nullptr;
          (void)cudaGetLastError();
          return false;
        }
        CUDA_CHECK(cudaEventCreateWithFlags(&stage_free[k], cudaEventDisableTiming));
      }
    }
    return true;
  }

  /// Copies `bytes` from host src to device dst on stream s (default: the backend's stream). Returns
  /// when the last chunk's copy is queued; the copy is complete when s reaches that point.
  /// pinnable: src is the data of an r1cs::FrVector (its frees reach host_pin::release), which may be
  /// page-locked in place and copied by DMA directly (backend.hpp "Host buffers").
  void upload(void* dst, const void* src, std::size_t bytes, cudaStream_t s = nullptr, bool pinnable = false) {
    if (bytes == 0) return;
    if (!s) s = stream;
    uploaded_bytes.fetch_add(bytes, std::memory_order_relaxed);
    if (pinnable && cfg.register_host_buffers && host_pin::ensure(src, bytes, cfg.register_min_bytes, cfg.register_in_background)) {
      CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));  // page-locked: DMA, no staging
      ++pinned_copies;
      return;
    }
    const std::size_t stage_bytes = std::max<std::size_t>(cfg.pinned_stage_bytes, 1);
    if (!cfg.pinned_uploads || bytes < stage_bytes / 32 || !ensure_stage()) {
      CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s));  // pageable (fallback)
      return;
    }
    const auto* h = static_cast<const unsigned char*>(src);
    auto* d = static_cast<unsigned char*>(dst);
    int k = 0;
    for (std::size_t off = 0; off < bytes; off += stage_bytes, k ^= 1) {
      const std::size_t len = std::min(stage_bytes, bytes - off);
      CUDA_CHECK(cudaEventSynchronize(stage_free[k]));  // its previous DMA has finished
      auto* buf = static_cast<unsigned char*>(stage[k]);
      constexpr std::size_t kPiece = std::size_t{1} << 20;
      tbb::parallel_for(std::size_t{0}, (len + kPiece - 1) / kPiece, [&](std::size_t p) {
        const std::size_t at = p * kPiece;
        std::memcpy(buf + at, h + off + at, std::min(kPiece, len - at));
      });
      CUDA_CHECK(cudaMemcpyAsync(d + off, buf, len, cudaMemcpyHostToDevice, s));
      CUDA_CHECK(cudaEventRecord(stage_free[k], s));
    }
  }

  /// Host affine points → device, packed into the pinned staging chunks on the way (the bytes
  /// GpuMsm::set_bases makes); without pinned memory, packed into pageable memory first.
  template <class Affine>
  void upload_packed(void* dst, const Affine* src, std::size_t n) {
    constexpr std::size_t pb = 2 * sizeof(typename Affine::Field);
    if (n == 0) return;
    if (!ensure_stage()) {
      std::vector<unsigned char> tmp(n * pb);
      pack_points(src, n, tmp.data());
      CUDA_CHECK(cudaMemcpyAsync(dst, tmp.data(), tmp.size(), cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      return;
    }
    const std::size_t per = std::max<std::size_t>(std::max<std::size_t>(cfg.pinned_stage_bytes, 1) / pb, 1);
    auto* d = static_cast<unsigned char*>(dst);
    int k = 0;
    for (std::size_t off = 0; off < n; off += per, k ^= 1) {
      const std::size_t len = std::min(per, n - off);
      CUDA_CHECK(cudaEventSynchronize(stage_free[k]));
      pack_points(src + off, len, static_cast<unsigned char*>(stage[k]));
      CUDA_CHECK(cudaMemcpyAsync(d + off * pb, stage[k], len * pb, cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaEventRecord(stage_free[k], stream));
    }
  }

  /// Gathers the aux entries whose bit is set in `dens` into dst (which already holds `at` entries
  /// before them). d_aux holds the aux assignment.
  void gather(ff::Fr* dst, std::size_t at, const r1cs::DensityTracker& dens, std::size_t n_aux,
              cudaStream_t s = nullptr) {
    if (n_aux == 0 || dens.popcount() == 0) return;
    if (!s) s = stream;
    const auto w = dens.words();
    const std::vector<uint32_t> pre = rank_prefix(w);
    words.ensure(w.size() * sizeof(uint64_t));
    prefix.ensure(pre.size() * sizeof(uint32_t));
    upload(words.get(), w.data(), w.size() * sizeof(uint64_t), s);
    upload(prefix.get(), pre.data(), pre.size() * sizeof(uint32_t), s);
    gather_kernel<<<blocks_for(n_aux, 256), 256, 0, s>>>(reinterpret_cast<Fr32*>(dst + at), aux.as<Fr32>(),
                                                        words.as<uint64_t>(), prefix.as<uint32_t>(), n_aux);
    CUDA_CHECK(cudaGetLastError());
    // the bitmap buffers (and the host vectors w, pre) are reused or freed after this: wait for it
    CUDA_CHECK(cudaStreamSynchronize(s));
  }

  /// The assignments to the device on stream s: aux once, then the A and B scalar vectors (inputs
  /// from the host, aux entries gathered on the device by density). Returns when they are there.
  void upload_assignments(const Parameters& p, const r1cs::ProvingBuffers& w, cudaStream_t s) {
    const std::size_t n_in = w.input_assignment.size();
    const std::size_t n_aux = w.aux_len();
    const std::size_t a_len = p.a_len();
    const std::size_t b_len = p.b_g1_len();
    translating_oom("uploading the assignments (aux, A and B scalars)", [&] {
      aux.ensure(std::max<std::size_t>(n_aux, 1) * sizeof(ff::Fr));
      if (w.packed_aux.empty()) {
        upload(aux.get(), w.aux_assignment.data(), n_aux * sizeof(ff::Fr), s, /*pinnable=*/true);
      } else {
        upload_packed_aux(w.packed_aux, s);
      }
      sa.ensure(std::max<std::size_t>(a_len, 1) * sizeof(ff::Fr));
      upload(sa.get(), w.input_assignment.data(), n_in * sizeof(ff::Fr), s);
      gather(sa.as<ff::Fr>(), n_in, w.a_aux_density, n_aux, s);
      std::vector<ff::Fr> b_inputs;
      b_inputs.reserve(w.b_input_density.popcount());
      for (std::size_t i = 0; i < n_in; ++i)
        if (w.b_input_density.test(i)) b_inputs.push_back(w.input_assignment[i]);
      sb.ensure(std::max<std::size_t>(b_len, 1) * sizeof(ff::Fr));
      upload(sb.get(), b_inputs.data(), b_inputs.size() * sizeof(ff::Fr), s);
      gather(sb.as<ff::Fr>(), b_inputs.size(), w.b_aux_density, n_aux, s);
      CUDA_CHECK(cudaStreamSynchronize(s));  // b_inputs is freed on return
      return 0;
    });
  }

  /// A packed aux assignment (r1cs::ProvingBuffers::packed_aux) to the device and expanded there into
  /// `aux` (which holds pw.size() elements): only the packed arrays cross PCIe. On stream s; the
  /// caller synchronizes s before the host arrays change.
  void upload_packed_aux(const r1cs::PackedWitness& pw, cudaStream_t s) {
    const std::size_t n = pw.size();
    const std::size_t words_n = pw.is_bit_words().size();
    // one buffer: is_bit | bits | others (32-byte aligned) | before
    const std::size_t off_bits = words_n * 8, off_others = ((2 * words_n * 8 + 31) / 32) * 32;
    const std::size_t off_before = off_others + pw.others().size() * sizeof(ff::Fr);
    packed.ensure(std::max<std::size_t>(off_before + pw.others_before().size() * 4, 1));
    auto* base = static_cast<unsigned char*>(packed.get());
    upload(base, pw.is_bit_words().data(), words_n * 8, s);
    upload(base + off_bits, pw.bit_words().data(), words_n * 8, s);
    upload(base + off_others, pw.others().data(), pw.others().size() * sizeof(ff::Fr), s);
    upload(base + off_before, pw.others_before().data(), pw.others_before().size() * 4, s);
    Fr32 one;
    const ff::Fr host_one = ff::Fr::one();
    std::memcpy(&one, &host_one, sizeof one);
    expand_packed_kernel<<<blocks_for(n, 256), 256, 0, s>>>(
        aux.as<Fr32>(), reinterpret_cast<const uint64_t*>(base), reinterpret_cast<const uint64_t*>(base + off_bits),
        reinterpret_cast<const uint32_t*>(base + off_before), reinterpret_cast<const Fr32*>(base + off_others), one, n);
    CUDA_CHECK(cudaGetLastError());
  }

  /// Whether compiled-form partition w is evaluated on the device ("Compiled form" in backend.hpp):
  /// the configured choice, else yes when its compiled circuit is resident already or fits the
  /// budget beside what is held and the working set of res.
  bool evaluate_on_device(const Parameters& p, const Resident& res, const r1cs::ProvingBuffers& w) const {
    if (w.compiled->shape().c_is_ab) return false;  // c = a·b (a zkey's circuit): no device kernel for it
    switch (cfg.compiled_evaluation) {
      case CompiledEvaluation::Device: return true;
      case CompiledEvaluation::Host: return false;
      case CompiledEvaluation::Auto: break;
    }
    if (compiled_dev && compiled_src == w.compiled) return true;
    const std::size_t need = held_device_bytes(nullptr) + GpuBackend::working_bytes(p, res.msm_chunk, res.lean) +
                             w.compiled->bytes();
    return need <= device_budget();
  }
  /// evaluate_on_device before any partition of p is proved (GpuBackend::evaluates_compiled): with
  /// p's SRS as it is held, or as plan() would hold it (streamed: no room counted, host).
  bool would_evaluate_on_device(const Parameters& p, const r1cs::CompiledCircuit& cc) const {
    if (cc.shape().c_is_ab) return false;
    switch (cfg.compiled_evaluation) {
      case CompiledEvaluation::Device: return true;
      case CompiledEvaluation::Host: return false;
      case CompiledEvaluation::Auto: break;
    }
    if (compiled_dev && compiled_src.get() == &cc) return true;
    std::size_t chunk = 0;
    bool lean = false;
    std::size_t held = held_device_bytes(&p);
    if (const Resident* r = find(p)) {
      if (r->mode != SrsMode::Resident) return false;
      chunk = r->msm_chunk;
      lean = r->lean;
      held += r->device_bytes();
    } else {
      if (plan(p, &chunk, &lean) != SrsMode::Resident) return false;
      held += srs_device_bytes(p);
    }
    return held + GpuBackend::working_bytes(p, chunk, lean) + cc.bytes() <= device_budget();
  }

  /// Compiled-form partition w evaluated on the host and turned into the evaluated form (backend.hpp
  /// "Compiled form"): a, b, c from r1cs::evaluate, a packed aux assignment expanded, `compiled`
  /// dropped. Returns the milliseconds it took.
  static double evaluate_on_host(r1cs::ProvingBuffers& w) {
    const auto t0 = Clock::now();
    r1cs::evaluate_in_place(w);
    return ms_since(t0);
  }

  /// The device copy of w's compiled circuit (compiled form only), uploaded on first use and kept
  /// while the partitions name the same one.
  const DeviceCompiledCircuit& ensure_compiled(const r1cs::ProvingBuffers& w) { return ensure_compiled(w.compiled); }
  const DeviceCompiledCircuit& ensure_compiled(const std::shared_ptr<const r1cs::CompiledCircuit>& cc) {
    if (!compiled_dev || compiled_src != cc) {
      compiled_dev.reset();
      compiled_src.reset();
      g1.keep_batch_affine_state(false);  // want_ba_keep counts the new circuit at the next partition
      ba_kept_for = nullptr;
      // The compiled circuit before the wide table (want_wide): a wide domain is dropped before a new
      // compiled circuit goes up, and remade at its next use only if want_wide, which then counts
      // this circuit's own bytes, still finds room (a new circuit is rare: once per shape).
      if (domain && domain->wide_twiddles()) domain.reset();
      translating_oom("the compiled circuit", [&] {
        compiled_dev = std::make_unique<DeviceCompiledCircuit>(*cc);
        return 0;
      });
      compiled_src = cc;
    }
    return *compiled_dev;
  }

  /// Matrix `matrix` of w's compiled circuit evaluated into d (rows values, zero-padded to m) on
  /// stream s, from the assignments upload_assignments put on the device (inputs at the head of
  /// sa, aux in aux) — which must be ordered before s's work.
  void evaluate_column(const r1cs::ProvingBuffers& w, int matrix, ff::Fr* d, std::size_t m, cudaStream_t s) {
    const DeviceCompiledCircuit& cc = ensure_compiled(w);
    const std::size_t rows = w.rows();
    cc.evaluate_matrix(matrix, sa.as<const ff::Fr>(), aux.as<const ff::Fr>(), d, s);
    if (rows < m) CUDA_CHECK(cudaMemsetAsync(d + rows, 0, (m - rows) * sizeof(ff::Fr), s));
  }

  /// Preload's device warm-up ("Residency" in backend.hpp): with the SRS resident and the full
  /// working set planned, the working buffers a partition of p uses — the NTT tables, a, b, c and
  /// the aux / A / B scalar vectors — are allocated now, at their sizes, so that the first partition
  /// after a preload does not allocate ~20 GB (a 32 GiB PoRep) inside its upload. Nothing for a
  /// streamed SRS or the lean set (which frees and remakes its buffers within each partition). A
  /// failed allocation leaves the buffers as they were: the partition allocates them as before.
  void warm_working_set(const Parameters& p, const Resident& r) {
    if (r.mode != SrsMode::Resident || r.lean) return;
    try {
      ensure_h_buffers(p.domain_size(), 3, want_wide(p, r));
      translating_oom("warming the assignment buffers", [&] {
        aux.ensure(std::max<std::size_t>(p.l_len(), 1) * sizeof(ff::Fr));
        sa.ensure(std::max<std::size_t>(p.a_len(), 1) * sizeof(ff::Fr));
        sb.ensure(std::max<std::size_t>(p.b_g1_len(), 1) * sizeof(ff::Fr));
        return 0;
      });
    } catch (const ProoflineError& e) {
      if (e.code() != Error::OutOfMemory) throw;
    }
  }

  /// The NTT domain of p's size and the buffer of `columns` of a, b, c (3; 2 for the lean working
  /// set), made or grown on first use; wide: a new domain gets the wide twiddle table (want_wide).
  void ensure_h_buffers(std::size_t m, std::size_t columns, bool wide) {
    const unsigned lg = domain_lg(m);
    // A domain made compact stays compact until it is remade for another reason (no flip-flop of
    // n·32 bytes between partitions when the budget wavers); a wide one is remade compact when not wanted.
    if (!domain || domain->lg_size() != lg || (domain->wide_twiddles() && !wide)) {
      domain.reset();
      if (wide) {
        try {  // the table is an optimisation: short of memory, the compact domain instead
          domain = std::make_unique<NttDomain>(lg, true);
        } catch (const CudaError& e) {
          if (e.code() != static_cast<int>(cudaErrorMemoryAllocation)) throw;
          (void)cudaGetLastError();
        } catch (const ProoflineError& e) {
          if (e.code() != Error::OutOfMemory) throw;
        }
      }
      if (!domain) {
        translating_oom("NTT tables", [&] {
          domain = std::make_unique<NttDomain>(lg);
          return 0;
        });
      }
    }
    translating_oom(columns == 3 ? "a, b, c evaluations" : "a, b, c evaluations (two columns, lean)", [&] {
      abc.ensure(columns * m * sizeof(ff::Fr));
      return 0;
    });
  }

  /// prove_one with the copies overlapped (GpuBackendConfig::overlap_uploads, backend.hpp
  /// "Schedule"): a, b, c go up on the copy stream, each column transformed on `stream` as soon as
  /// it is there (the transforms of a and b run while b and c are copied); the H MSM starts on its
  /// own host thread when the transforms are done, while this thread copies the assignments (and
  /// gathers the A and B scalars) on the copy stream; then B_G2 starts beside the rest, and L, A,
  /// B_G1 follow H. Same sums as the serial schedule, in the same order per MSM.
  groth16::MsmResults prove_one_overlapped(const Parameters& p, const Resident& res, const r1cs::ProvingBuffers& w,
                                           groth16::StageTimings& t, const std::atomic<bool>* cancel,
                                           std::size_t k) {
    groth16::MsmResults out;
    const std::size_t m = p.domain_size();
    const std::size_t h_terms = p.h_terms();
    const bool odd_coset = p.h_form == groth16::HForm::OddCoset;
    const std::size_t rows = w.rows();
    const std::size_t n_aux = w.aux_len();
    const bool compiled = w.compiled != nullptr;

    // Threads started below never outlive this frame, also when this thread throws.
    std::future<void> h_done;
    const FutureJoiner joiner{&h_done};

    // The compiled form: the assignments first (the evaluation reads them), then a, b, c evaluated
    // on `stream` instead of copied up.
    double assign_ms = 0;
    if (compiled) {
      const auto t_as = Clock::now();
      upload_assignments(p, w, xfer);  // synchronizes xfer
      assign_ms = ms_since(t_as);
    }

    groth16::check_prove_cancel(cancel, k, "the H computation");
    // ---- H: each column up on the copy stream, transformed on `stream` once it is there ----
    const auto t_h = Clock::now();
    double h2d_abc = 0;
    if (h_terms > 0 && compiled) {
      ensure_compiled(w);  // first: it may drop a wide NTT table that stands in its way
      ensure_h_buffers(m, 3, want_wide(p, res));
      ff::Fr* d[3] = {abc.as<ff::Fr>(), abc.as<ff::Fr>() + m, abc.as<ff::Fr>() + 2 * m};
      CUDA_CHECK(cudaEventRecord(ev_eval[0], stream));
      for (int col = 0; col < 3; ++col) evaluate_column(w, col, d[col], m, stream);
      CUDA_CHECK(cudaEventRecord(ev_eval[1], stream));
      for (int col = 0; col < 3; ++col) domain->h_column(d[col], odd_coset, stream);
      domain->h_combine(d[0], d[1], d[2], odd_coset, stream);
    } else if (h_terms > 0) {
      ensure_h_buffers(m, 3, want_wide(p, res));
      ff::Fr* d[3] = {abc.as<ff::Fr>(), abc.as<ff::Fr>() + m, abc.as<ff::Fr>() + 2 * m};
      const r1cs::FrVector* h[3] = {&w.a, &w.b, &w.c};
      for (int col = 0; col < 3; ++col) {
        const auto t_up = Clock::now();
        upload(d[col], h[col]->data(), rows * sizeof(ff::Fr), xfer, /*pinnable=*/true);
        if (rows < m) CUDA_CHECK(cudaMemsetAsync(d[col] + rows, 0, (m - rows) * sizeof(ff::Fr), xfer));
        CUDA_CHECK(cudaEventRecord(ev_col[col], xfer));
        h2d_abc += ms_since(t_up);
        CUDA_CHECK(cudaStreamWaitEvent(stream, ev_col[col], 0));
        domain->h_column(d[col], odd_coset, stream);
      }
      domain->h_combine(d[0], d[1], d[2], odd_coset, stream);
    }
    if (fault::fire("cuda")) [[unlikely]] {
      injected_fault_kernel<<<1, 1, 0, stream>>>();
      CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    // ---- H MSM on its own thread once the transforms are done ----
    h_done = std::async(std::launch::async, [&] {
      DeviceBudgetScope scope(&budget);
      CUDA_CHECK(cudaSetDevice(cfg.device));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      t.ntt += ms_since(t_h);
      if (compiled && h_terms > 0) t.evaluate += event_ms(ev_eval[0], ev_eval[1]);
      groth16::check_prove_cancel(cancel, k, "the H MSM");
      const auto t0 = Clock::now();
      if (h_terms > 0) {
        out.h = translating_oom("H MSM", [&] { return run_query(g1, ring_g1, res, 0, abc.get(), h_terms); });
      } else {
        out.h = ec::G1Projective::identity();
      }
      t.msm_h += ms_since(t0);
    });

    // ---- the assignments, while the transforms and the H MSM run (compiled form: already up) ----
    if (!compiled) {
      const auto t_as = Clock::now();
      upload_assignments(p, w, xfer);
      assign_ms = ms_since(t_as);
    }
    t.h2d += h2d_abc + assign_ms;

    // ---- B_G2 beside the rest (or after the G1 MSMs); L, A, B_G1 once the H MSM is done ----
    lab_with_g2(p, res, n_aux, out, t, cancel, k, [&] { h_done.get(); });  // rethrows H's exception
    return out;
  }

  /// L, A, B_G1 on this thread with B_G2 beside them on a helper thread (cfg.overlap_g2; else after
  /// them); `first` runs once B_G2 has started and before L (the overlapped schedule waits for its H
  /// MSM there). The B_G2 thread never outlives this frame, also when `first` or L/A/B_G1 throw.
  template <class First>
  void lab_with_g2(const Parameters& p, const Resident& res, std::size_t n_aux, groth16::MsmResults& out,
                   groth16::StageTimings& t, const std::atomic<bool>* cancel, std::size_t k, First&& first) {
    double g2_ms = 0;
    auto run_g2 = [&] { b_g2_msm(res, p.b_g1_len(), out, g2_ms); };
    std::future<void> g2_done;
    const FutureJoiner joiner{&g2_done};
    if (cfg.overlap_g2) g2_done = std::async(std::launch::async, run_g2);
    first();
    lab_g1(p, res, n_aux, out, t, cancel, k);
    if (cfg.overlap_g2) {
      g2_done.get();  // rethrows the G2 side's exception
    } else {
      run_g2();
    }
    t.msm_b_g2 += g2_ms;
  }

  /// prove_one with the lean working set (backend.hpp "Working set"): at most two of a, b, c on the
  /// device (b's copy beside a's transforms; a ·= b on the coset; c into b's place), the NTT tables
  /// freed after the transforms when large, the H MSM over the one column left, then that column
  /// freed and the assignments and A/B scalars uploaded for L, A, B_G1 (and B_G2 beside them as
  /// configured). The previous partition's assignments are freed first. Same sums as prove_one.
  groth16::MsmResults prove_one_lean(const Parameters& p, const Resident& res, const r1cs::ProvingBuffers& w,
                                     groth16::StageTimings& t, const std::atomic<bool>* cancel, std::size_t k) {
    groth16::MsmResults out;
    const std::size_t m = p.domain_size();
    const std::size_t h_terms = p.h_terms();
    const bool odd_coset = p.h_form == groth16::HForm::OddCoset;
    const std::size_t rows = w.rows();
    const std::size_t n_aux = w.aux_len();
    const bool compiled = w.compiled != nullptr;
    for (DeviceBuffer* b : {&aux, &sa, &sb, &packed}) b->release();
    // The compiled form: the assignments first (the evaluation reads them; they stay on the device
    // through H, beside the two columns), a, b, c evaluated in place of the copies.
    double assign_ms = 0;
    if (compiled) {
      const auto t_as = Clock::now();
      upload_assignments(p, w, stream);
      assign_ms = ms_since(t_as);
      t.h2d += assign_ms;
    }

    groth16::check_prove_cancel(cancel, k, "the H computation");
    const auto t_h = Clock::now();
    if (h_terms > 0) {
      ensure_h_buffers(m, 2, false);
      ff::Fr* d0 = abc.as<ff::Fr>();
      ff::Fr* d1 = d0 + m;
      // column x → d on the copy stream, then `stream` waits for it (ev: that column's event); the
      // compiled form evaluates matrix `matrix` into d on `stream` instead
      auto up = [&](ff::Fr* d, const r1cs::FrVector& x, cudaEvent_t ev, int matrix) {
        if (compiled) {
          evaluate_column(w, matrix, d, m, stream);
          return;
        }
        const auto t_up = Clock::now();
        upload(d, x.data(), rows * sizeof(ff::Fr), xfer, /*pinnable=*/true);
        if (rows < m) CUDA_CHECK(cudaMemsetAsync(d + rows, 0, (m - rows) * sizeof(ff::Fr), xfer));
        CUDA_CHECK(cudaEventRecord(ev, xfer));
        t.h2d += ms_since(t_up);
        CUDA_CHECK(cudaStreamWaitEvent(stream, ev, 0));
      };
      up(d0, w.a, ev_col[0], 0);
      domain->h_column(d0, odd_coset, stream);
      up(d1, w.b, ev_col[1], 1);  // beside a's transforms
      domain->h_column(d1, odd_coset, stream);
      domain->h_mul(d0, d1, stream);
      CUDA_CHECK(cudaEventRecord(ev_col[2], stream));  // d1 is free again
      CUDA_CHECK(cudaStreamWaitEvent(xfer, ev_col[2], 0));
      up(d1, w.c, ev_col[1], 2);
      domain->h_column(d1, odd_coset, stream);
      domain->h_finish(d0, d1, odd_coset, stream);
    }
    if (fault::fire("cuda")) [[unlikely]] {
      injected_fault_kernel<<<1, 1, 0, stream>>>();
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    t.ntt += ms_since(t_h);
    if (domain && !lean_keeps_tables(domain->table_bytes())) domain.reset();

    groth16::check_prove_cancel(cancel, k, "the H MSM");
    auto t0 = Clock::now();
    if (h_terms > 0) {
      out.h = translating_oom("H MSM", [&] { return run_query(g1, ring_g1, res, 0, abc.get(), h_terms); });
    } else {
      out.h = ec::G1Projective::identity();
    }
    t.msm_h += ms_since(t0);
    abc.release();

    if (!compiled) {
      t0 = Clock::now();
      upload_assignments(p, w, stream);
      assign_ms = ms_since(t0);
      t.h2d += assign_ms;
    }
    lab_with_g2(p, res, n_aux, out, t, cancel, k, [] {});
    return out;
  }

  /// The B_G2 MSM of one partition (B scalars on the device) on the calling thread, which may be a
  /// helper thread (it selects the device and counts its allocations in this backend's budget);
  /// ms gets its wall time.
  void b_g2_msm(const Resident& res, std::size_t b_len, groth16::MsmResults& out, double& ms) {
    const auto tg = Clock::now();
    DeviceBudgetScope scope(&budget);
    CUDA_CHECK(cudaSetDevice(cfg.device));
    out.b_g2 = translating_oom("B_G2 MSM", [&] { return run_query(g2, ring_g2, res, 4, sb.get(), b_len); });
    ms = ms_since(tg);
  }

  /// The L, A and B_G1 MSMs of one partition (its assignments and A/B scalars on the device), in
  /// that order, each timed: its own wall time only (the assignment copies, made earlier in every
  /// schedule — overlapped, beside the transforms and the H MSM —, are counted in h2d alone).
  void lab_g1(const Parameters& p, const Resident& res, std::size_t n_aux, groth16::MsmResults& out,
              groth16::StageTimings& t, const std::atomic<bool>* cancel, std::size_t k) {
    groth16::check_prove_cancel(cancel, k, "the L MSM");
    auto t0 = Clock::now();
    out.l = translating_oom("L MSM", [&] { return run_query(g1, ring_g1, res, 1, aux.get(), n_aux); });
    t.msm_l += ms_since(t0);

    groth16::check_prove_cancel(cancel, k, "the A MSM");
    t0 = Clock::now();
    out.a = translating_oom("A MSM", [&] { return run_query(g1, ring_g1, res, 2, sa.get(), p.a_len()); });
    t.msm_a += ms_since(t0);

    groth16::check_prove_cancel(cancel, k, "the B (G1) MSM");
    t0 = Clock::now();
    out.b_g1 = translating_oom("B_G1 MSM", [&] { return run_query(g1, ring_g1, res, 3, sb.get(), p.b_g1_len()); });
    t.msm_b_g1 += ms_since(t0);
  }

  groth16::MsmResults prove_one(const Parameters& p, const Resident& res, const r1cs::ProvingBuffers& w,
                                groth16::StageTimings& t, const std::atomic<bool>* cancel, std::size_t k) {
    groth16::MsmResults out;
    // m: the domain (rows zero-padded to it); h_terms: the H MSM's scalars and points (m − 1 for
    // Bellperson, m for OddCoset: groth16::HForm).
    const std::size_t m = p.domain_size();
    const std::size_t h_terms = p.h_terms();
    const bool odd_coset = p.h_form == groth16::HForm::OddCoset;
    // The G1 batch-affine state kept across this partition's MSMs and the next partition's where the plan
    // has room for it (want_ba_keep; a state kept for other parameters freed first: the plan counts p's).
    // Elsewhere the G1 MSMs run XYZZ unless cfg.msm asks otherwise: a per-call state takes half of what is
    // free, which the B_G2 MSM's first allocations on their own thread may still need (backend.hpp).
    const bool keep = want_ba_keep(p, res);
    if (!keep || ba_kept_for != &p) g1.keep_batch_affine_state(false);
    if (keep) g1.keep_batch_affine_state(true);
    ba_kept_for = keep ? &p : nullptr;
    g1_msm_cfg = cfg.msm;
    if (!keep && g1_msm_cfg.bucket_add == BucketAdd::kFromEnv) g1_msm_cfg.bucket_add = BucketAdd::kXyzz;
    if (res.lean) return prove_one_lean(p, res, w, t, cancel, k);
    if (cfg.overlap_uploads) return prove_one_overlapped(p, res, w, t, cancel, k);
    const std::size_t rows = w.rows();
    const std::size_t n_aux = w.aux_len();
    const std::size_t b_len = p.b_g1_len();

    // ---- assignments: aux once, then the A and B scalar vectors by density ----
    auto t0 = Clock::now();
    upload_assignments(p, w, stream);
    const double assign_ms = ms_since(t0);
    t.h2d += assign_ms;  // the assignment uploads (and their density gathers, small beside them)

    // ---- B_G2, on its own host thread (and stream) while the rest runs, when overlapping ----
    double g2_ms = 0;
    auto run_g2 = [&] { b_g2_msm(res, b_len, out, g2_ms); };
    std::future<void> g2_done;
    if (cfg.overlap_g2) g2_done = std::async(std::launch::async, run_g2);
    const FutureJoiner joiner{&g2_done};  // the G2 thread never outlives this frame, also when the G1 side throws

    groth16::check_prove_cancel(cancel, k, "the H computation");
    // ---- H ----
    t0 = Clock::now();
    if (h_terms > 0) {
      if (w.compiled) ensure_compiled(w);  // first: it may drop a wide NTT table that stands in its way
      ensure_h_buffers(m, 3, want_wide(p, res));
      ff::Fr* d_a = abc.as<ff::Fr>();
      ff::Fr* d_b = d_a + m;
      ff::Fr* d_c = d_b + m;
      const auto t_up = Clock::now();
      if (w.compiled) {  // the compiled form: evaluated from the assignments already on the device
        ff::Fr* d[3] = {d_a, d_b, d_c};
        for (int col = 0; col < 3; ++col) evaluate_column(w, col, d[col], m, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        t.evaluate += ms_since(t_up);
      } else {
        for (auto [d, h] : {std::pair{d_a, &w.a}, std::pair{d_b, &w.b}, std::pair{d_c, &w.c}}) {
          upload(d, h->data(), rows * sizeof(ff::Fr), stream, /*pinnable=*/true);
          if (rows < m) CUDA_CHECK(cudaMemsetAsync(d + rows, 0, (m - rows) * sizeof(ff::Fr), stream));  // 0 = Fr zero
        }
        // The transforms wait for these copies on the stream anyway: waiting here costs one launch
        // gap and gives the H2D timer its end.
        CUDA_CHECK(cudaStreamSynchronize(stream));
        t.h2d += ms_since(t_up);
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
      out.h = translating_oom("H MSM", [&] { return run_query(g1, ring_g1, res, 0, abc.get(), h_terms); });
    } else {
      out.h = ec::G1Projective::identity();
    }
    t.msm_h += ms_since(t0);

    lab_g1(p, res, n_aux, out, t, cancel, k);

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
    struct Refresh {  // the SRS holdings as this call leaves them, also when it throws
      GpuBackend* b;
      ~Refresh() { b->refresh_holdings_locked(); }
    } refresh{this};
    return prove_locked(params, partitions, randomizers, cancel);
  } catch (const CudaError& e) {
    recover_locked(e.what());
    refresh_holdings_locked();
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
  DeviceBudgetScope scope(&I.budget);
  groth16::ProverResult result;
  result.proofs.resize(partitions.size());
  if (partitions.empty()) {
    result.timings.total = ms_since(t_call);
    return result;
  }
  groth16::check_prove_cancel(cancel, 0, "the parameter upload");
  const Resident* before = I.find(params);
  const bool held_before = before != nullptr && before->fp == Fingerprint::of(params);
  double srs_upload_ms = 0;
  const Resident& res = I.ensure_resident(params, &srs_upload_ms);
  if (!held_before) {
    result.timings.srs_upload = srs_upload_ms;
    result.timings.srs_upload_bytes = res.bytes();
  }

  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaEventRecord(I.ev_start, I.stream));
  std::vector<groth16::MsmResults> sums(partitions.size());
  try {
    for (std::size_t k = 0; k < partitions.size(); ++k) {
      groth16::check_prove_cancel(cancel, k, "the partition");
      I.uploaded_bytes.store(0, std::memory_order_relaxed);
      if (partitions[k].compiled) {
        if (I.evaluate_on_device(params, res, partitions[k])) {
          ++I.compiled_on_device;
        } else {
          groth16::check_prove_cancel(cancel, k, "the constraint evaluation");
          result.timings.evaluate += Impl::evaluate_on_host(partitions[k]);
          ++result.timings.host_evaluations;
          ++I.compiled_on_host;
        }
      }
      sums[k] = I.prove_one(params, res, partitions[k], result.timings, cancel, k);
      result.timings.h2d_bytes += I.uploaded_bytes.load(std::memory_order_relaxed);
    }
  } catch (const ProoflineError& e) {
    // Out of device memory with an SRS this call loaded: nothing stays allocated for it (backend.hpp
    // "Errors"), so the caller can free memory and retry from a clean state.
    if (e.code() == Error::OutOfMemory && !held_before) I.drop(params);
    throw;
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
  DeviceBudgetScope scope(&impl_->budget);
  double ms = 0;
  try {
    impl_->warm_working_set(params, impl_->ensure_resident(params, &ms));
  } catch (...) {
    refresh_holdings_locked();
    throw;
  }
  refresh_holdings_locked();
  return ms;
}

void GpuBackend::evict(const Parameters& params) {
  std::lock_guard<std::mutex> lock(mu_);
  impl_->select();
  impl_->drop(params);
  refresh_holdings_locked();
}

void GpuBackend::evict_all() {
  std::lock_guard<std::mutex> lock(mu_);
  impl_->select();
  impl_->g1.set_bases_device(nullptr, 0);
  impl_->g2.set_bases_device(nullptr, 0);
  impl_->residents.clear();
  refresh_holdings_locked();
}

bool GpuBackend::is_resident(const Parameters& params) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Resident* r = impl_->find(params);
  return r != nullptr && r->fp == Fingerprint::of(params);
}

std::size_t GpuBackend::registered_host_bytes() { return host_pin::registered_bytes(); }
void GpuBackend::settle_host_registrations() { host_pin::settle(); }

std::size_t GpuBackend::direct_copies() const {
  std::lock_guard<std::mutex> lock(mu_);
  return impl_->pinned_copies;
}

GpuBackend::CompiledEvaluations GpuBackend::compiled_evaluations() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {impl_->compiled_on_device, impl_->compiled_on_host};
}

bool GpuBackend::lean_working_set(const Parameters& params) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Resident* r = impl_->find(params);
  return r != nullptr && r->lean;
}
bool GpuBackend::last_partition_batch_affine_kept() const {
  std::lock_guard<std::mutex> lock(mu_);
  return impl_->ba_kept_for != nullptr && impl_->g1.last_bucket_add() == BucketAdd::kBatchAffine;
}
std::uint64_t GpuBackend::ntt_table_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return impl_->domain ? impl_->domain->table_bytes() : 0;
}
std::size_t GpuBackend::device_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return impl_->budget.live.load();
}
std::size_t GpuBackend::device_peak_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return impl_->budget.peak.load();
}
void GpuBackend::reset_device_peak() {
  std::lock_guard<std::mutex> lock(mu_);
  impl_->budget.reset_peak();
}

std::size_t GpuBackend::resident_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return impl_->held_device_bytes(nullptr);
}

std::uint64_t GpuBackend::warm_host_buffers(r1cs::ProvingBuffers& b) {
  const GpuBackendConfig& cfg = impl_->cfg;
  if (!cfg.register_host_buffers) return 0;
  (void)cudaSetDevice(cfg.device);  // portable registrations serve every device; the thread needs a context
  (void)cudaGetLastError();
  host_pin::install_release_hook();
  std::uint64_t locked = 0;
  for (const r1cs::FrVector* v : {&b.a, &b.b, &b.c, &b.input_assignment, &b.aux_assignment}) {
    const std::size_t bytes = v->capacity() * sizeof(ff::Fr);
    if (v->data() == nullptr || bytes < cfg.register_min_bytes) continue;
    if (host_pin::lock_now(v->data(), bytes)) locked += bytes;
  }
  return locked;
}

bool GpuBackend::evaluates_compiled(const Parameters& params, const r1cs::CompiledCircuit& cc) const {
  {
    std::lock_guard<std::mutex> lock(holdings_mu_);
    if (compiled_held_ == &cc) return true;
    if (compiled_answer_.cc == &cc && compiled_answer_.params == &params) return compiled_answer_.on_device;
  }
  std::lock_guard<std::mutex> lock(mu_);
  impl_->select();
  const bool on_device = impl_->would_evaluate_on_device(params, cc);
  std::lock_guard<std::mutex> hl(holdings_mu_);
  compiled_answer_ = {&params, &cc, on_device};
  return on_device;
}

bool GpuBackend::compiled_needs_host_rows(const Parameters& params, const r1cs::CompiledCircuit& cc) const {
  return !evaluates_compiled(params, cc);
}

double GpuBackend::preload_compiled(const Parameters& params, const std::shared_ptr<const r1cs::CompiledCircuit>& cc) {
  if (!cc) return 0;
  std::lock_guard<std::mutex> lock(mu_);
  impl_->select();
  DeviceBudgetScope scope(&impl_->budget);
  if (impl_->compiled_dev && impl_->compiled_src == cc) return 0;
  const bool on_device = impl_->would_evaluate_on_device(params, *cc);
  {
    std::lock_guard<std::mutex> hl(holdings_mu_);
    compiled_answer_ = {&params, cc.get(), on_device};
  }
  if (!on_device) return 0;
  const auto t0 = Clock::now();
  try {
    impl_->ensure_compiled(cc);
  } catch (...) {
    refresh_holdings_locked();
    throw;
  }
  refresh_holdings_locked();
  return ms_since(t0);
}

void GpuBackend::release_compiled(const r1cs::CompiledCircuit& cc) {
  std::lock_guard<std::mutex> lock(mu_);
  impl_->select();
  if (impl_->compiled_src.get() == &cc) {
    impl_->compiled_dev.reset();
    impl_->compiled_src.reset();
  }
  {
    std::lock_guard<std::mutex> hl(holdings_mu_);
    if (compiled_answer_.cc == &cc) compiled_answer_ = {};
  }
  refresh_holdings_locked();
}

std::uint64_t GpuBackend::compiled_device_bytes(const r1cs::CompiledCircuit& cc) const {
  std::lock_guard<std::mutex> lock(holdings_mu_);
  return compiled_held_ == &cc ? compiled_held_bytes_ : 0;
}

groth16::SrsHolding GpuBackend::srs_holding(const Parameters& params) const {
  std::lock_guard<std::mutex> lock(holdings_mu_);
  for (const Holding& h : holdings_)
    if (h.key == &params) return {to_string(h.mode), h.bytes};
  return {};
}

void GpuBackend::refresh_holdings_locked() {
  std::vector<Holding> now;
  for (const auto& r : impl_->residents) now.push_back({r->key, r->mode, r->bytes()});
  std::lock_guard<std::mutex> lock(holdings_mu_);
  holdings_ = std::move(now);
  compiled_held_ = impl_->compiled_dev ? impl_->compiled_src.get() : nullptr;
  compiled_held_bytes_ = impl_->compiled_dev ? impl_->compiled_dev->device_bytes() : 0;
}

SrsMode GpuBackend::plan_mode(const Parameters& params) const {
  std::lock_guard<std::mutex> lock(mu_);
  CUDA_CHECK(cudaSetDevice(impl_->cfg.device));
  return impl_->plan(params);
}

std::size_t GpuBackend::working_bytes(const Parameters& p, std::size_t msm_points, bool lean, bool wide_twiddles) {
  const std::size_t m = p.domain_size(), n_aux = p.l_len(), a = p.a_len(), b = p.b_g1_len();
  const std::size_t longest = std::max({p.h_len(), n_aux, a, b});
  const std::size_t n = msm_points != 0 ? std::min(msm_points, longest) : longest;
  const std::size_t fr = sizeof(ff::Fr);
  const std::size_t bitmaps = 3 * 8 * (n_aux / 64 + 1);
  const std::size_t msm = msm_scratch_bytes(n, 192) + msm_scratch_bytes(std::min(n, b), 384);
  const std::size_t tables = NttDomain::table_bytes_for(m);
  const std::size_t margin = std::size_t{256} << 20;
  if (!lean) {
    const std::size_t t = wide_twiddles ? NttDomain::table_bytes_for(m, true) : tables;
    return fr * (3 * m + n_aux + a + b) + bitmaps + t + msm + margin;
  }
  // Lean ("Working set"): the transforms hold two columns beside the tables, then the H MSM one
  // column, then the L/A/B MSMs the assignments and the A/B scalars (large tables freed first);
  // the MSM scratch stays allocated throughout.
  const std::size_t kept_tables = lean_keeps_tables(tables) ? tables : 0;
  return std::max(tables + 2 * fr * m, fr * (n_aux + a + b) + kept_tables) + bitmaps + msm + margin;
}

std::string_view to_string(SrsMode m) noexcept { return m == SrsMode::Resident ? "resident" : "streamed"; }

void GpuBackend::release_scratch() {
  std::lock_guard<std::mutex> lock(mu_);
  Impl& I = *impl_;
  I.select();
  I.g1.release_scratch();
  I.ba_kept_for = nullptr;
  I.g2.release_scratch();
  I.ring_g1.release();
  I.ring_g2.release();
  I.domain.reset();
  for (DeviceBuffer* b : {&I.abc, &I.aux, &I.sa, &I.sb, &I.words, &I.prefix, &I.packed}) b->release();
}

bool overlap_g2_in_effect(bool configured) {
  const char* e = std::getenv("PROOFLINE_GPU_OVERLAP_G2");
  if (e == nullptr || *e == 0) return configured;
  const std::string v = e;
  if (v != "0" && v != "1") throw std::invalid_argument("PROOFLINE_GPU_OVERLAP_G2=" + v + ": expected 0 or 1");
  return v == "1";
}

std::vector<std::unique_ptr<GpuBackend>> make_gpu_backends(const GpuBackendConfig& base) {
  (void)overlap_g2_in_effect(base.overlap_g2);  // a bad value throws here, not as "no usable device"
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
