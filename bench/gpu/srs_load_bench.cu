// bench/gpu/srs_load_bench.cu — loading a .params file onto the GPU: the whole-file path
// (Parameters::read_file, then GpuBackend::preload uploads the host copy) against the streamed path
// (groth16::ParamsFile + ParamsFile::shell: pinned chunked reads, decoded and checked on the device,
// no host copy; gpu/srs_load.hpp), and the first proof with each (same bytes required).
//
//   gpu_srs_load_bench [LG] [PATH]   default LG 24; PATH: an existing .params of the bench circuit at
//                                    LG (else shaped parameters, bench/gpu/shaped_params.hpp, are
//                                    written to $TMPDIR/proofline_srs_load_LG.params and removed after)
// The file is read once before timing (so both paths read it from the page cache, as a prover that
// loads a cached parameter file does). Rates are file bytes / wall time. Columns: path, check, load
// ms, GB/s, host RSS growth (GB, the host copy or its absence), first proof ms, proof bytes vs the
// whole-file path.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "proofline/circuits/bench/bench.hpp"
#include "proofline/gpu/backend.hpp"
#include "proofline/gpu/device.hpp"
#include "proofline/groth16/groth16.hpp"
#include "shaped_params.hpp"

using namespace proofline;
using groth16::Parameters;
using groth16::ParamsFile;

namespace {
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
/// Resident set size now (GB), from /proc/self/statm.
double rss_gb() {
  long pages_total = 0, pages_rss = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages_total, &pages_rss) != 2) pages_rss = 0;
    std::fclose(f);
  }
  return pages_rss * 4096.0 / 1e9;
}
}  // namespace

int main(int argc, char** argv) {
  const unsigned lg = argc > 1 ? static_cast<unsigned>(std::stoul(argv[1])) : 24;
  std::string path = argc > 2 ? argv[2] : "";
  if (gpu::device_count() == 0) {
    std::printf("gpu_srs_load_bench: no usable CUDA device\n");
    return 0;
  }
  const circuits::bench::SizedCircuit circuit(lg, ff::Fr::from_u64(lg));
  r1cs::ProvingBuffers w = groth16::synthesize_for_proving(circuit);
  std::mt19937_64 rng(lg);
  const bool made = path.empty();
  if (made) {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir ? dir : "/tmp") + "/proofline_srs_load_" + std::to_string(lg) + ".params";
    const auto t0 = std::chrono::steady_clock::now();
    bench_gpu::shaped_parameters(w, std::size_t{1} << lg, rng).write_file(path);
    std::fprintf(stderr, "  wrote %s in %.0f ms\n", path.c_str(), ms_since(t0));
  }
  const groth16::Randomizers rs{ff::Fr::random(rng), ff::Fr::random(rng)};
  {  // warm the page cache
    const ParamsFile f(path);
    std::vector<std::uint8_t> buf(std::size_t{256} << 20);
    for (std::uint64_t off = 0; off < f.file_size(); off += buf.size()) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), f.file_size() - off));
      f.read(off, std::span(buf.data(), n));
    }
  }
  std::printf("SRS load onto %s: bench circuit 2^%u, %s\n", gpu::device_name(0).c_str(), lg, path.c_str());
  std::printf("| path | check | file GB | load ms | GB/s | host RSS +GB | first proof ms | proof |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---|\n");
  int rc = 0;
  std::optional<groth16::Proof> reference;
  auto row = [&](const char* name, ec::Check check, bool streamed) {
    gpu::GpuBackend backend;
    const double rss0 = rss_gb();
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<Parameters> params;
    std::uint64_t file_bytes = 0;
    if (streamed) {
      auto f = std::make_shared<const ParamsFile>(path, groth16::ReadOptions{check});
      file_bytes = f->file_size();
      params = std::make_unique<Parameters>(ParamsFile::shell(f));
    } else {
      params = std::make_unique<Parameters>(Parameters::read_file(path, groth16::ReadOptions{check}));
      file_bytes = params->serialized_size();
    }
    backend.preload(*params);
    const double load_ms = ms_since(t0);
    const double rss = rss_gb() - rss0;
    const auto t1 = std::chrono::steady_clock::now();
    const auto res = backend.prove(*params, std::span(&w, 1), std::span(&rs, 1));
    const double prove_ms = ms_since(t1);
    std::string same = "reference";
    if (!reference) {
      reference = res.proofs[0];
    } else {
      same = res.proofs[0].to_bytes() == reference->to_bytes() ? "same bytes" : "DIFFERENT";
      if (same != "same bytes") rc = 1;
    }
    std::printf("| %s | %s | %.2f | %.0f | %.2f | %.1f | %.0f | %s |\n", name,
                check == ec::Check::Subgroup ? "subgroup" : "on-curve", file_bytes / 1e9, load_ms,
                file_bytes / 1e9 / (load_ms / 1e3), rss, prove_ms, same.c_str());
    std::fflush(stdout);
  };
  row("read_file + upload", ec::Check::OnCurveOnly, false);
  row("streamed to device", ec::Check::OnCurveOnly, true);
  row("streamed to device", ec::Check::Subgroup, true);
  if (made) std::remove(path.c_str());
  return rc;
}
