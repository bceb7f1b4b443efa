// The backend factory and the device backends' registry (include/proofline/groth16/backend_factory.hpp).
#include "proofline/groth16/backend_factory.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace proofline::groth16 {

namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, DeviceBackendMaker, std::less<>> makers;
};

/// Function-local: registrations run from other translation units' static initializers.
Registry& registry() {
  static Registry r;
  return r;
}

DeviceBackendMaker find_maker(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lk(r.mu);
  auto it = r.makers.find(name);
  return it == r.makers.end() ? nullptr : it->second;
}

}  // namespace

bool register_device_backends(std::string_view name, DeviceBackendMaker maker) {
  Registry& r = registry();
  std::lock_guard lk(r.mu);
  r.makers.insert_or_assign(std::string(name), maker);
  return true;
}

bool has_device_backends(std::string_view name) { return find_maker(name) != nullptr; }

std::vector<std::shared_ptr<ProverBackend>> make_backends(std::string_view which, const BackendOptions& opts,
                                                          std::string* note) {
  if (which != "cpu" && which != "cuda" && which != "auto") {
    throw std::invalid_argument(std::string(which) + ": expected cpu, cuda or auto");
  }
  std::vector<std::shared_ptr<ProverBackend>> out;
  std::string why;
  if (which != "cpu") {
    if (DeviceBackendMaker make = find_maker("cuda")) {
      out = make(opts, why);
      if (!out.empty()) {
        if (note) *note = "backend cuda: " + std::to_string(out.size()) + " device(s)";
        return out;
      }
      if (why.empty()) why = "no usable CUDA device";
    } else {
      why = "this build has no CUDA backend (nvcc not found at configure time, or -DPROOFLINE_CUDA=OFF)";
    }
    if (which == "cuda") throw std::invalid_argument("cuda: " + why);
  }
  CpuBackendConfig c;
  c.threads = static_cast<int>(opts.cpu_threads);
  out.push_back(std::make_shared<CpuBackend>(c));
  if (note) {
    const unsigned t = opts.cpu_threads ? opts.cpu_threads : std::thread::hardware_concurrency();
    *note = "backend cpu (" + std::to_string(t) + " threads per call)" + (why.empty() ? "" : "; auto: " + why);
  }
  return out;
}

}  // namespace proofline::groth16
