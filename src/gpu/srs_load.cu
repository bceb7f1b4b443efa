// src/gpu/srs_load.cu — the .params / .zkey → device loader (proofline/gpu/srs_load.hpp says what it does;
// this file is the how): double-buffered pinned reads, the decode/check kernel, the error hand-off
// to the CPU decoder.
#include "proofline/gpu/srs_load.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <string>

#include "device_buffer.cuh"
#include "ec.cuh"
#include "proofline/ff/fp.hpp"
#include "proofline/gpu/device.hpp"

namespace proofline::gpu {

namespace {

using groth16::ParamsSection;

/// Constants of the decoder, in the device layout: R² mod p (the Montgomery form of R, so that
/// x·R²·R⁻¹ = x·R converts a canonical x), and b = 4 in Montgomery form.
struct DecodeConsts {
  DevFp r2;
  DevFp four;
};

DecodeConsts make_consts() {
  static_assert(sizeof(ff::Fp) == sizeof(DevFp), "device Fp mirrors the host Fp");
  DecodeConsts c;
  const ff::Fp r2 = ff::Fp::from_canonical_unchecked(ff::Fp::one().limbs);  // value R, limbs R² mod p
  const ff::Fp four = ff::Fp::from_u64(4);
  std::memcpy(&c.r2, &r2.limbs, sizeof(DevFp));
  std::memcpy(&c.four, &four.limbs, sizeof(DevFp));
  return c;
}

/// 48 big-endian bytes → the integer's 32-bit little-endian words; false unless it is < p.
__device__ bool load_canonical(DevFp& out, const uint8_t* be) {
#pragma unroll
  for (int k = 0; k < 12; ++k) {
    const uint8_t* q = be + 44 - 4 * k;
    out.v[k] = (uint32_t(q[0]) << 24) | (uint32_t(q[1]) << 16) | (uint32_t(q[2]) << 8) | uint32_t(q[3]);
  }
  for (int k = 11; k >= 0; --k) {
    if (out.v[k] != FpParams32::mod(k)) return out.v[k] < FpParams32::mod(k);
  }
  return false;  // = p
}

__device__ bool load_coord(DevFp& out, const uint8_t* be, const DevFp& r2) {
  DevFp raw;
  if (!load_canonical(raw, be)) return false;
  out = raw * r2;
  return true;
}
__device__ bool load_coord(DevFp2& out, const uint8_t* be, const DevFp& r2) {
  // ZCash order: c1 ‖ c0
  return load_coord(out.c1, be, r2) && load_coord(out.c0, be + 48, r2);
}

__device__ DevFp curve_b(const DevFp& four) { return four; }
__device__ DevFp2 curve_b2(const DevFp& four) { return {four, four}; }

/// [r]P = O, r the prime group order (FrParams32::mod, < 2^255), by double-and-add from the top bit.
template <class F>
__device__ bool in_subgroup(const DevAffine<F>& p) {
  DevXyzz<F> acc = DevXyzz<F>::identity();
  for (int bit = 254; bit >= 0; --bit) {
    acc = acc.dbl();
    if ((FrParams32::mod(bit >> 5) >> (bit & 31)) & 1) acc += p;
  }
  return acc.is_identity();
}

/// 48 little-endian bytes of a Montgomery-form coordinate (snarkjs) → the device limbs as they are;
/// false unless the integer is < p.
__device__ bool load_montgomery_le(DevFp& out, const uint8_t* le) {
#pragma unroll
  for (int k = 0; k < 12; ++k) {
    const uint8_t* q = le + 4 * k;
    out.v[k] = uint32_t(q[0]) | (uint32_t(q[1]) << 8) | (uint32_t(q[2]) << 16) | (uint32_t(q[3]) << 24);
  }
  for (int k = 11; k >= 0; --k) {
    if (out.v[k] != FpParams32::mod(k)) return out.v[k] < FpParams32::mod(k);
  }
  return false;  // = p
}
__device__ bool load_montgomery_le(DevFp2& out, const uint8_t* le) {
  // snarkjs order: c0 ‖ c1
  return load_montgomery_le(out.c0, le) && load_montgomery_le(out.c1, le + 48);
}

/// One thread per point: (Bellperson) flags, canonical coordinates, Montgomery conversion, or (zkey)
/// zero = infinity, coordinates < p as they are; on the curve, optionally in the subgroup; a bad
/// point records its query index (first + i) in *bad (atomicMin) and writes nothing.
template <class F>
__global__ void decode_kernel(DevAffine<F>* __restrict__ out, const uint8_t* __restrict__ raw, size_t n,
                              unsigned long long first, bool subgroup, bool zkey, DecodeConsts k,
                              unsigned long long* __restrict__ bad) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  constexpr size_t kBytes = sizeof(DevAffine<F>);
  const uint8_t* p = raw + i * kBytes;
  DevAffine<F> a;
  bool ok;
  if (zkey) {
    uint32_t any = 0;
    for (size_t b = 0; b < kBytes; b += 4) any |= *reinterpret_cast<const uint32_t*>(p + b);
    if (any == 0) {  // the point at infinity: the device layout's all-zero bytes
      uint32_t* o = reinterpret_cast<uint32_t*>(out + i);
      for (size_t b = 0; b < kBytes / 4; ++b) o[b] = 0;
      return;
    }
    ok = load_montgomery_le(a.x, p) && load_montgomery_le(a.y, p + kBytes / 2);
  } else {
    ok = (p[0] & 0xe0) == 0;  // compression, infinity, sign flags all clear
    ok = ok && load_coord(a.x, p, k.r2) && load_coord(a.y, p + kBytes / 2, k.r2);
  }
  if (ok) {
    F b;
    if constexpr (sizeof(F) == sizeof(DevFp)) {
      b = curve_b(k.four);
    } else {
      b = curve_b2(k.four);
    }
    ok = a.y.sqr() == a.x.sqr() * a.x + b;
  }
  if (ok && subgroup) ok = in_subgroup(a);
  if (!ok) {
    atomicMin(bad, first + i);
    return;
  }
  out[i] = a;
}

}  // namespace

std::size_t device_point_bytes(ParamsSection s) noexcept {
  return s == ParamsSection::BG2 ? sizeof(DevG2Affine) : sizeof(DevG1Affine);
}

struct SrsLoader::Impl {
  std::size_t chunk_bytes;
  int device = -1;
  unsigned char* pinned[2] = {nullptr, nullptr};
  cudaStream_t stream[2] = {nullptr, nullptr};
  cudaEvent_t copied[2] = {nullptr, nullptr};  // pinned[k]'s last upload finished
  DeviceBuffer raw[2] = {DeviceBuffer("SRS load: raw chunk"), DeviceBuffer("SRS load: raw chunk")};
  DeviceBuffer decoded[2] = {DeviceBuffer("SRS load: decoded chunk"), DeviceBuffer("SRS load: decoded chunk")};
  DeviceBuffer bad{"SRS load: first bad index"};
  DecodeConsts consts = make_consts();

  explicit Impl(std::size_t cb) : chunk_bytes(std::max<std::size_t>(cb, 192)) {}
  ~Impl() { release(); }

  void release() {
    for (int k = 0; k < 2; ++k) {
      if (stream[k]) cudaStreamSynchronize(stream[k]);
      if (pinned[k]) cudaFreeHost(pinned[k]);
      if (copied[k]) cudaEventDestroy(copied[k]);
      if (stream[k]) cudaStreamDestroy(stream[k]);
      pinned[k] = nullptr;
      copied[k] = nullptr;
      stream[k] = nullptr;
      raw[k].release();
      decoded[k].release();
    }
    bad.release();
    (void)cudaGetLastError();
  }

  void ensure(bool to_host) {
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    if (dev != device) {
      release();
      device = dev;
    }
    for (int k = 0; k < 2; ++k) {
      if (!stream[k]) CUDA_CHECK(cudaStreamCreateWithFlags(&stream[k], cudaStreamNonBlocking));
      if (!copied[k]) CUDA_CHECK(cudaEventCreateWithFlags(&copied[k], cudaEventDisableTiming));
      if (!pinned[k]) CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&pinned[k]), chunk_bytes));
      raw[k].ensure(chunk_bytes);
      if (to_host) decoded[k].ensure(chunk_bytes);
    }
    bad.ensure(sizeof(unsigned long long));
  }

  void load(const groth16::QuerySource& f, ParamsSection s, void* dst, bool to_host) {
    const std::uint64_t count = f.count(s);
    if (count == 0) return;
    ensure(to_host);
    const std::size_t pb = groth16::QuerySource::point_bytes(s);  // = device_point_bytes(s)
    const std::uint64_t per = std::max<std::uint64_t>(1, chunk_bytes / pb);
    const unsigned long long none = ~0ull;
    CUDA_CHECK(cudaMemcpyAsync(bad.get(), &none, sizeof(none), cudaMemcpyHostToDevice, stream[0]));
    CUDA_CHECK(cudaStreamSynchronize(stream[0]));
    const bool subgroup = f.check() == ec::Check::Subgroup;
    const bool zkey = f.encoding() == groth16::QuerySource::Encoding::Zkey;
    auto* out = static_cast<unsigned char*>(dst);
    int k = 0;
    for (std::uint64_t first = 0; first < count; first += per, k ^= 1) {
      const std::uint64_t n = std::min(per, count - first);
      const std::size_t bytes = n * pb;
      CUDA_CHECK(cudaEventSynchronize(copied[k]));  // pinned[k]'s previous upload is done
      f.read_points(s, first, n, std::span<std::uint8_t>(pinned[k], bytes));
      CUDA_CHECK(cudaMemcpyAsync(raw[k].get(), pinned[k], bytes, cudaMemcpyHostToDevice, stream[k]));
      CUDA_CHECK(cudaEventRecord(copied[k], stream[k]));
      void* target = to_host ? decoded[k].get() : out + first * pb;
      const unsigned blocks = static_cast<unsigned>((n + 127) / 128);
      if (s == ParamsSection::BG2) {
        decode_kernel<DevFp2><<<blocks, 128, 0, stream[k]>>>(static_cast<DevG2Affine*>(target), raw[k].as<uint8_t>(),
                                                             n, first, subgroup, zkey, consts,
                                                             bad.as<unsigned long long>());
      } else {
        decode_kernel<DevFp><<<blocks, 128, 0, stream[k]>>>(static_cast<DevG1Affine*>(target), raw[k].as<uint8_t>(),
                                                            n, first, subgroup, zkey, consts,
                                                            bad.as<unsigned long long>());
      }
      CUDA_CHECK(cudaGetLastError());
      if (to_host) {
        CUDA_CHECK(cudaMemcpyAsync(out + first * pb, target, bytes, cudaMemcpyDeviceToHost, stream[k]));
      }
    }
    for (int j = 0; j < 2; ++j) CUDA_CHECK(cudaStreamSynchronize(stream[j]));
    unsigned long long first_bad = none;
    CUDA_CHECK(cudaMemcpy(&first_bad, bad.get(), sizeof(first_bad), cudaMemcpyDeviceToHost));
    if (first_bad != none) f.throw_bad_point(s, first_bad);
  }
};

SrsLoader::SrsLoader(std::size_t chunk_bytes) : impl_(std::make_unique<Impl>(chunk_bytes)) {}
SrsLoader::~SrsLoader() = default;

void SrsLoader::load(const groth16::QuerySource& file, ParamsSection s, void* dst, bool dst_on_host) {
  try {
    impl_->load(file, s, dst, dst_on_host);
  } catch (...) {
    // leave nothing in flight on the staging buffers
    for (int k = 0; k < 2; ++k)
      if (impl_->stream[k]) (void)cudaStreamSynchronize(impl_->stream[k]);
    throw;
  }
}

void SrsLoader::release() { impl_->release(); }

}  // namespace proofline::gpu
