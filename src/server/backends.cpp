// The daemon's choice of prover backends (proofline/server/service.hpp, make_backends).
//
// ---- GPU HOOK -------------------------------------------------------------------------------------
// engine.backend = cuda | auto asks for the CUDA backend: one gpu::GpuBackend per usable device
// (gpu::make_gpu_backends, include/proofline/gpu/backend.hpp). It is compiled in only when the build
// has CUDA (cmake/server.cmake defines PROOFLINE_HAVE_CUDA=1 for proofline_server when the
// proofline_gpu target exists) and the GPU backend header is present. The default is cpu.
#include <stdexcept>
#include <thread>

#include "proofline/server/service.hpp"

#if defined(PROOFLINE_HAVE_CUDA) && __has_include("proofline/gpu/backend.hpp")
#include "proofline/gpu/backend.hpp"
#define PROOFLINE_SERVER_GPU 1
#endif

namespace proofline::server {

std::vector<std::shared_ptr<groth16::ProverBackend>> make_backends(const DaemonConfig& cfg, std::string* note) {
  std::vector<std::shared_ptr<groth16::ProverBackend>> out;
  std::string why;
  if (cfg.backend == "cuda" || cfg.backend == "auto") {
#ifdef PROOFLINE_SERVER_GPU
    for (auto& g : gpu::make_gpu_backends()) out.push_back(std::shared_ptr<groth16::ProverBackend>(std::move(g)));
    if (!out.empty()) {
      if (note) *note = "backend cuda: " + std::to_string(out.size()) + " device(s)";
      return out;
    }
    why = "no usable CUDA device";
#else
    why = "this build has no CUDA backend (nvcc not found at configure time, or -DPROOFLINE_CUDA=OFF)";
#endif
    if (cfg.backend == "cuda") throw std::invalid_argument("engine.backend = cuda: " + why);
  }
  if (cfg.backend != "cpu" && cfg.backend != "cuda" && cfg.backend != "auto") {
    throw std::invalid_argument("engine.backend: '" + cfg.backend + "' (expected cpu, cuda or auto)");
  }
  groth16::CpuBackendConfig c;
  c.threads = static_cast<int>(cfg.cpu_threads);
  out.push_back(std::make_shared<groth16::CpuBackend>(c));
  if (note) {
    const unsigned t = cfg.cpu_threads ? cfg.cpu_threads : std::thread::hardware_concurrency();
    *note = "backend cpu (" + std::to_string(t) + " threads per call)" + (why.empty() ? "" : "; auto: " + why);
  }
  return out;
}

}  // namespace proofline::server
