// proofline/groth16/backend_factory.hpp — the one place that turns a backend choice ("cpu", "cuda",
// "auto") into prover backends (groth16::ProverBackend, backend.hpp). Used by the daemon
// (engine.backend), the CLI (prove/c2 --backend) and the benchmarks.
//
// Device backends register themselves here (icicle-style): src/gpu/register.cpp registers "cuda"
// from a static initializer of the GPU library, so this layer never includes gpu/. A build without
// the GPU library has no "cuda" maker; asking for it then says so. (The GPU library's CMake target
// makes every program that links it keep that initializer: -Wl,--undefined on its anchor symbol.)
//
//   which = "cpu"   one CpuBackend (opts.cpu_threads threads per call, 0: all cores).
//   which = "cuda"  one backend per usable CUDA device (at most opts.max_devices, 0: all), in
//                   ordinal order; std::invalid_argument when the build has no CUDA backend or no
//                   device is usable.
//   which = "auto"  "cuda" when it gives at least one backend, else "cpu" (the note says why).
// Errors: std::invalid_argument whose message starts with the choice and names the reason, e.g.
// "cuda: no usable CUDA device" or "tpu: expected cpu, cuda or auto"; callers prefix their own name
// for it ("engine.backend = ", "--backend ").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "proofline/groth16/backend.hpp"

namespace proofline::groth16 {

struct BackendOptions {
  /// Threads of one CPU backend call; 0: all cores.
  unsigned cpu_threads = 0;
  /// Device backends: at most this many devices; 0: every usable one.
  unsigned max_devices = 0;
  /// Device backends: device bytes each plans for, SRS and working space (0: the device's free memory;
  /// gpu::GpuBackendConfig::device_memory_limit, daemon config gpu.device_memory_limit).
  std::uint64_t device_memory_limit = 0;
};

/// The backends for `which` (see the header comment). `note` (may be null) receives one line on what
/// was chosen and why, e.g. "backend cuda: 2 device(s)" or "backend cpu (16 threads per call); auto:
/// no usable CUDA device".
std::vector<std::shared_ptr<ProverBackend>> make_backends(std::string_view which, const BackendOptions& opts = {},
                                                          std::string* note = nullptr);

/// A device family's maker: one backend per usable device (at most opts.max_devices), or an empty
/// vector with `why` set to one line saying why none is usable. Must not throw for "no device".
using DeviceBackendMaker = std::vector<std::shared_ptr<ProverBackend>> (*)(const BackendOptions& opts, std::string& why);

/// Registers the maker of device family `name` ("cuda"); called from a static initializer of the
/// device library. Returns true (for `static const bool registered = …`). A second registration of
/// the same name replaces the first.
bool register_device_backends(std::string_view name, DeviceBackendMaker maker);

/// True iff a maker for `name` is registered (the build has that backend).
bool has_device_backends(std::string_view name);

}  // namespace proofline::groth16
