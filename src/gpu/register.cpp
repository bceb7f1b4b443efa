// Registers the CUDA backend with the backend factory (include/proofline/groth16/backend_factory.hpp),
// so groth16::make_backends("cuda" | "auto") finds it without any layer below gpu/ including gpu/.
// The static initializer lives in this file with the anchor symbol proofline_gpu_backend_anchor;
// the proofline_gpu CMake target adds -Wl,--undefined=proofline_gpu_backend_anchor to every
// program that links it, so the linker keeps this object (and the registration) out of the archive.
#include "proofline/gpu/backend.hpp"
#include "proofline/groth16/backend_factory.hpp"

namespace proofline::gpu {
namespace {

std::vector<std::shared_ptr<groth16::ProverBackend>> make_cuda_backends(const groth16::BackendOptions& opts,
                                                                        std::string& why) {
  std::vector<std::shared_ptr<groth16::ProverBackend>> out;
  for (auto& g : make_gpu_backends()) {  // writes one line to stderr when there is no usable device
    if (opts.max_devices != 0 && out.size() == opts.max_devices) break;
    out.push_back(std::shared_ptr<groth16::ProverBackend>(std::move(g)));
  }
  if (out.empty()) why = "no usable CUDA device";
  return out;
}

[[maybe_unused]] const bool registered = groth16::register_device_backends("cuda", make_cuda_backends);

}  // namespace
}  // namespace proofline::gpu

extern "C" void proofline_gpu_backend_anchor() {}
