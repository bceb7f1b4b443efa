#!/usr/bin/env bash
# bench/setup/schedule_run.sh — one device call for issue 18's partition schedule: test_gpu (every
# test but the kernel-fault one, which can leave the process without a device; then that one alone),
# then porep32_run.sh (setup 32 GiB + the sustained c2 stream) with the bundle of bench/setup/bundle.sh.
set -uo pipefail
B=${BUNDLE:-build/devrun-setup}
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-/tmp/sched-out}
mkdir -p "$OUT"
timeout 300 "$B/test_gpu" --gtest_filter='-GpuFaults.KernelFault*' >"$OUT/test_gpu.txt" 2>&1
echo "test_gpu rc=$?"; grep -E "^\[  (FAILED|PASSED) |Failure" "$OUT/test_gpu.txt" | head -20
timeout 120 "$B/test_gpu" --gtest_filter='GpuFaults.KernelFault*' >"$OUT/test_fault.txt" 2>&1
echo "fault test rc=$?"; grep -E "^\[  (FAILED|PASSED) |GpuFaults:" "$OUT/test_fault.txt" | head -5
[ "${TESTS_ONLY:-0}" = 1 ] && exit 0
SUSTAINED=${SUSTAINED:-2} OUT="$OUT" bash bench/setup/porep32_run.sh 2>&1 | grep -vE "ETA|%\)" | tail -28
