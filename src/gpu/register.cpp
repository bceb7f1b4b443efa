// Registers the CUDA backend with the backend factory (include/proofline/groth16/backend_factory.hpp),
// so groth16::make_backends("cuda" | "auto") finds it without any layer below gpu/ including gpu/,
// and the GPU fixed-base multiplications with setup's device registry (groth16/setup.hpp), so
// groth16::use_device_for_setup("cuda" | "auto") finds them.
// The static initializer lives in this file with the anchor symbol proofline_gpu_backend_anchor;
// the proofline_gpu CMake target adds -Wl,--undefined=proofline_gpu_backend_anchor to every
// program that links it, so the linker keeps this object (and the registration) out of the archive.
#include "proofline/gpu/backend.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/gpu/fixed_base.hpp"
#include "proofline/groth16/backend_factory.hpp"
#include "proofline/groth16/setup.hpp"

namespace proofline::gpu {
namespace {

std::vector<std::shared_ptr<groth16::ProverBackend>> make_cuda_backends(const groth16::BackendOptions& opts,
                                                                        std::string& why) {
  std::vector<std::shared_ptr<groth16::ProverBackend>> out;
  GpuBackendConfig base;
  base.device_memory_limit = static_cast<std::size_t>(opts.device_memory_limit);
  for (auto& g : make_gpu_backends(base)) {  // writes one line to stderr when there is no usable device
    if (opts.max_devices != 0 && out.size() == opts.max_devices) break;
    out.push_back(std::shared_ptr<groth16::ProverBackend>(std::move(g)));
  }
  if (out.empty()) why = "no usable CUDA device";
  return out;
}

[[maybe_unused]] const bool registered = groth16::register_device_backends("cuda", make_cuda_backends);

/// Setup's fixed-base work on device 0, when there is one.
bool install_cuda_setup(groth16::SetupOptions& opts, std::string& why) {
  int n = 0;
  try {
    n = device_count();
  } catch (const CudaError& e) {
    why = std::string("CUDA: ") + e.what();
    return false;
  }
  if (n == 0) {
    why = "no usable CUDA device";
    return false;
  }
  use_gpu_for_setup(opts, 0);
  return true;
}

[[maybe_unused]] const bool setup_registered = groth16::register_setup_device("cuda", install_cuda_setup);

}  // namespace
}  // namespace proofline::gpu

extern "C" void proofline_gpu_backend_anchor() {}
