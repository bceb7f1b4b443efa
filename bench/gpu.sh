#!/usr/bin/env bash
# bench/gpu.sh — the one-command GPU benchmark: builds every bench/gpu/*_bench.cu (targets
# gpu_<name>_bench, see CMakeLists.txt) in $BUILD_DIR and runs each one, printing its table.
#
#   bench/gpu.sh [ARGS...]     ARGS go to every benchmark (each documents its own; with none, each
#                              runs its default sizes: NTT 2^20…2^27, G1 MSM 2^20…2^26, G2 MSM
#                              2^20…2^24, Groth16 prove 2^20/2^22/2^24 with the SRS upload time)
# Environment: BUILD_DIR (default build), NO_BUILD=1 to run the binaries as they are,
# ONLY=name to run only gpu_<name>_bench (e.g. ONLY=msm).
# After the benchmarks' own tables, bench/gpu/summary.awk prints the one summary table (ms per
# size, with the sppark anchor and the issue 5 targets).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac
shopt -s nullglob
names=()
# order: ntt, msm, groth16 (the summary reads them in this order), then any other
for src in "$ROOT"/bench/gpu/{ntt,msm,groth16}_bench.cu; do
  n=$(basename "$src" .cu)
  [[ -n ${ONLY:-} && $n != "${ONLY}_bench" ]] && continue
  names+=("gpu_$n")
done
for src in "$ROOT"/bench/gpu/*_bench.cu; do
  case $(basename "$src") in ntt_bench.cu|msm_bench.cu|groth16_bench.cu) continue ;; esac
  n=$(basename "$src" .cu)
  [[ -n ${ONLY:-} && $n != "${ONLY}_bench" ]] && continue
  names+=("gpu_$n")
done
if [[ ${#names[@]} -eq 0 ]]; then echo "bench/gpu.sh: no GPU benchmarks found" >&2; exit 1; fi
if [[ ${NO_BUILD:-0} != 1 ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" >/dev/null
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target "${names[@]}"
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
for b in "${names[@]}"; do
  echo "## $b"
  "$BUILD_DIR/$b" "$@" | tee -a "$log" || rc=1
done
awk -f "$ROOT/bench/gpu/summary.awk" "$log"
exit $rc
