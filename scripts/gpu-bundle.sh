#!/usr/bin/env bash
# Packs the GPU test and benchmark binaries of a build folder, with the shared libraries they need
# that a bare CUDA machine lacks (oneTBB, GMP, OpenSSL, spdlog, fmt), into .devrun/ (git-ignored), for a run on a
# GPU machine:  scripts/gpu-bundle.sh [BUILD_DIR=build]  then, there:  .devrun/run.sh (tests and
# benchmarks), .devrun/profile.sh .devrun OUT_DIR (Nsight Compute, bench/gpu/profile.sh) or
# .devrun/devpass.sh OUT_DIR (all of it: bench/gpu/devpass.sh)
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/.devrun"
rm -rf "$out" && mkdir -p "$out/lib"
bins=()
for b in "$build"/test_gpu "$build"/gpu_*_bench; do [ -x "$b" ] && bins+=("$b"); done
[ ${#bins[@]} -gt 0 ] || { echo "no GPU binaries in $build (is nvcc installed?)" >&2; exit 1; }
cp "${bins[@]}" "$out/"
cp "$top/bench/gpu/summary.awk" "$top/bench/gpu/profile.sh" "$top/bench/gpu/devpass.sh" "$out/"
for b in "${bins[@]}"; do
  ldd "$b" | awk '/=> \//{print $3}' | grep -E 'libtbb|libgmp|libssl|libcrypto|libbenchmark|libgtest|libspdlog|libfmt' || true
done | sort -u | xargs -r -I{} cp -L {} "$out/lib/"
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the bundled GPU tests, then every bundled GPU benchmark (ntt, msm, groth16 first, each with
# its default sizes unless arguments are given: they go to every benchmark), then the summary table
# of bench/gpu.sh. SKIP_TESTS=1 skips the tests; ONLY=name runs only gpu_<name>_bench.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader || true
rc=0
[ "${SKIP_TESTS:-0}" = 1 ] || "$here/test_gpu" || rc=$?
benches=()
for n in ntt msm groth16; do [ -x "$here/gpu_${n}_bench" ] && benches+=("$here/gpu_${n}_bench"); done
for b in "$here"/gpu_*_bench; do case " ${benches[*]} " in *" $b "*) ;; *) benches+=("$b") ;; esac; done
for b in "${benches[@]}"; do
  [ -n "${ONLY:-}" ] && [ "$(basename "$b")" != "gpu_${ONLY}_bench" ] && continue
  echo "== $(basename "$b")"
  "$b" "$@" | tee -a "$log" || rc=$?
done
awk -f "$here/summary.awk" "$log"
exit $rc
RUN
chmod +x "$out/run.sh"
du -sh "$out"
