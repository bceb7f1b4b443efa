#!/usr/bin/env bash
# bench/setup/kernels_run.sh — issue 18's kernel pass in one device call, from the bundle of
# bench/setup/bundle.sh with the previous build's benchmarks under BUNDLE/old (OLD=dir):
#   1. test_gpu: every test but the kernel-fault one, then that one alone; the NTT and H tests again
#      with PROOFLINE_NTT_RADIX=2 (one stage per barrier);
#   2. side by side, old then new binaries in the same call (same data, each result checked
#      against the CPU by the benchmark itself): NTT up to 2^27 (radix 4 and radix 2), G1 MSM
#      2^24/2^26/2^27, G2 MSM 2^20/2^24, the Groth16 bench circuit at 2^20 and 2^24.
# Stops after the tests if any failed (no timing of unverified kernels).
set -uo pipefail
B=${BUNDLE:-build/devrun-setup}
O=${OLD:-$B/old}
OUT=${OUT:-/tmp/kern-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
timeout 240 "$B/test_gpu" --gtest_filter='-GpuFaults.KernelFault*' >"$OUT/test_gpu.txt" 2>&1
t1=$?
echo "test_gpu rc=$t1"; grep -E "^\[  (FAILED|PASSED) |Failure" "$OUT/test_gpu.txt" | head -20
timeout 60 "$B/test_gpu" --gtest_filter='GpuFaults.KernelFault*' >"$OUT/test_fault.txt" 2>&1
echo "fault test rc=$?"; grep -E "^\[  (FAILED|PASSED) " "$OUT/test_fault.txt" | head -3
PROOFLINE_NTT_RADIX=2 timeout 60 "$B/test_gpu" --gtest_filter='GpuNtt.*:*OddCoset*:GpuBackendTest.SameProofsAsCpuAcrossSizes' >"$OUT/test_radix2.txt" 2>&1
t2=$?
echo "radix-2 tests rc=$t2"; grep -E "^\[  (FAILED|PASSED) |Failure" "$OUT/test_radix2.txt" | head -8
if [ $t1 != 0 ] || [ $t2 != 0 ]; then echo "tests failed: no benchmarks"; exit 1; fi
for v in old new; do
  d=$B; [ $v = old ] && d=$O
  echo "## $v NTT"; MIN_LG=24 timeout 60 "$d/gpu_ntt_bench" 27 2>&1 | tail -6
  if [ $v = new ]; then echo "## new NTT, radix 2"; PROOFLINE_NTT_RADIX=2 MIN_LG=27 timeout 60 "$d/gpu_ntt_bench" 27 2>&1 | tail -3; fi
  echo "## $v MSM"; REPS=3 timeout 150 "$d/gpu_msm_bench" g1:24 g1:26 g1:27 g2:20 g2:24 2>&1 | tail -8
done
for v in old new; do
  d=$B; [ $v = old ] && d=$O
  echo "## $v Groth16"; REPS=2 CHECK_LG=20 timeout 120 "$d/gpu_groth16_bench" --no-compare 20 24 2>&1 | tail -5
done
date -u
