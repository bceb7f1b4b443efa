#!/usr/bin/env bash
# Packs the GPU test and benchmark binaries of a build folder, with the shared libraries they need
# that a bare CUDA machine lacks (oneTBB, GMP, OpenSSL), into .devrun/ (git-ignored), for a run on a
# GPU machine:  scripts/gpu-bundle.sh [BUILD_DIR=build]  then, there:  .devrun/run.sh
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/.devrun"
rm -rf "$out" && mkdir -p "$out/lib"
bins=()
for b in "$build"/test_gpu "$build"/gpu_*_bench; do [ -x "$b" ] && bins+=("$b"); done
[ ${#bins[@]} -gt 0 ] || { echo "no GPU binaries in $build (is nvcc installed?)" >&2; exit 1; }
cp "${bins[@]}" "$out/"
for b in "${bins[@]}"; do
  ldd "$b" | awk '/=> \//{print $3}' | grep -E 'libtbb|libgmp|libssl|libcrypto|libbenchmark|libgtest' || true
done | sort -u | xargs -r -I{} cp -L {} "$out/lib/"
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the bundled GPU tests, then every bundled GPU benchmark. Arguments go to the benchmarks.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader || true
rc=0
"$here/test_gpu" || rc=$?
for b in "$here"/gpu_*_bench; do [ -x "$b" ] && { echo "== $(basename "$b")"; "$b" "$@" || rc=$?; }; done
exit $rc
RUN
chmod +x "$out/run.sh"
du -sh "$out"
