#!/usr/bin/env bash
# bench/setup/srs_run.sh — issue 16 items 2–4 on the device machine (run tool), from the bundle of
# bench/setup/bundle.sh (BUILD_DIR/devrun-setup: test_gpu, gpu_srs_load_bench, gpu_groth16_bench):
#   bench/setup/srs_run.sh test     test_gpu's SRS and backend tests, the load rate at 2^24
#                                   (read_file + upload vs streamed to the device), and the Groth16
#                                   bench at 2^22 and 2^24 resident vs streamed under a 6 GiB limit
#   bench/setup/srs_run.sh bench27  the new SRS tests of test_gpu, then gpu_groth16_bench 2^27 on the
#                                   whole device and under gpu.device_memory_limit LIMIT (default
#                                   48GiB: at 2^27 the working space alone — a, b, c, aux, the A/B
#                                   scalars, NTT tables, MSM scratch — exceeds 24 GiB), one process:
#                                   same witness and parameters
# Outputs go to $OUT (the run tool's folder) and stdout. Every step has its own time limit.
set -uo pipefail
d=${BUNDLE:-build/devrun-setup}
export LD_LIBRARY_PATH=$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=${OUT:-/tmp/srs_out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,clocks.sm --format=csv,noheader || true
case ${1:-test} in
  test)
    timeout 130 "$d/test_gpu" --gtest_filter='SrsLoad.*:GpuSrs.*:GpuBackendTest.*:GpuBackend.*' >"$out/test_gpu.txt" 2>&1
    echo "test_gpu rc=$?"
    grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure|Expected|Which is|actual' "$out/test_gpu.txt" | head -60
    TMPDIR=/tmp timeout 80 "$d/gpu_srs_load_bench" 24 2>&1 | tee "$out/load24.txt"
    REPS=2 CHECK_LG=0 timeout 80 "$d/gpu_groth16_bench" --device-limit 6GiB 22 24 2>&1 | tee "$out/bench_limit.txt"
    ;;
  bench27)
    timeout 60 "$d/test_gpu" --gtest_filter='SrsLoad.*:GpuSrs.*:GpuBackendTest.OutOfMemoryIsRecoverable' >"$out/test_gpu.txt" 2>&1
    echo "test_gpu rc=$?"
    grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[ +(OK|FAILED) +\]|Failure|Expected|Which is|actual' "$out/test_gpu.txt" | head -40
    REPS=${REPS:-1} CHECK_LG=0 timeout 330 "$d/gpu_groth16_bench" --device-limit "${LIMIT:-48GiB}" 27 2>&1 | tee "$out/bench27.txt"
    free -g | head -2
    ;;
  *) echo "usage: $0 test|bench27" >&2; exit 2 ;;
esac
