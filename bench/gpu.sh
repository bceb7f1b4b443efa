#!/usr/bin/env bash
# bench/gpu.sh — the one-command GPU benchmark: builds every bench/gpu/*_bench.cu (targets
# gpu_<name>_bench, see CMakeLists.txt) in $BUILD_DIR and runs each one, printing its table.
#
#   bench/gpu.sh [ARGS...]     ARGS go to every benchmark (each documents its own)
# Environment: BUILD_DIR (default build), NO_BUILD=1 to run the binaries as they are,
# ONLY=name to run only gpu_<name>_bench (e.g. ONLY=msm).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac
shopt -s nullglob
names=()
for src in "$ROOT"/bench/gpu/*_bench.cu; do
  n=$(basename "$src" .cu)
  [[ -n ${ONLY:-} && $n != "${ONLY}_bench" ]] && continue
  names+=("gpu_$n")
done
if [[ ${#names[@]} -eq 0 ]]; then echo "bench/gpu.sh: no GPU benchmarks found" >&2; exit 1; fi
if [[ ${NO_BUILD:-0} != 1 ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" >/dev/null
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target "${names[@]}"
fi
for b in "${names[@]}"; do
  echo "## $b"
  "$BUILD_DIR/$b" "$@"
done
