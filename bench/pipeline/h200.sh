#!/usr/bin/env bash
# bench/pipeline/h200.sh — the issue-6 H200 runs of the pipeline bench, on the device machine
# (kind nvidia-h200-x2), from the bundle of bench/pipeline/bundle.sh. Writes logs and JSON to $OUT.
#   probe: GPU fixed-base tests, setup time CPU vs GPU at 2^20, a 2^22 run on one and two GPUs
#   full:  2^24 overlap vs serial and one vs two GPUs; 2^25 (≥ 4 GB partitions) overlap / nopool /
#          inline (reclaimer off) with the three timers per partition
#   all:   the GPU fixed-base tests (CPU setup if they fail), then full
# Each bench process makes its own development parameters in memory (GPU fixed-base setup).
set -uo pipefail
B=${BUNDLE:-build-engine-gpu/devrun-pipeline}
OUT=${OUT:-/tmp/pipeline-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench() {  # name args…
  local name=$1
  shift
  echo "== $name: $*"
  "$B/proofline_pipeline_bench" --backend cuda --json "$OUT/$name.json" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err"
  local rc=$?
  grep -E "setup:|setup done|wall|failed|error|mode " "$OUT/$name.err" | tail -30
  sed -n '1,12p' "$OUT/$name.txt"
  echo "rc=$rc"
}
{
  date -u
  nvidia-smi --query-gpu=index,name,memory.total,clocks.max.sm --format=csv,noheader
  echo "cores $(nproc)"; grep -m1 "model name" /proc/cpuinfo; free -g | head -2
} | tee "$OUT/machine.txt"
case ${1:-probe} in
  probe)
    "$B/test_gpu" --gtest_filter='GpuFixedBase*' 2>&1 | tail -15 | tee "$OUT/test_gpu.txt"
    bench setup20cpu --size 2^20 --setup-on cpu --modes overlap@1x1 --partitions 1 --budget-gb 100
    bench setup20gpu --size 2^20 --modes overlap@1x1 --partitions 1 --budget-gb 100
    bench p22 --size 2^22 --modes overlap@1x6,overlap@2x6 --partitions 2 --budget-gb 100
    ;;
  all)
    "$B/test_gpu" --gtest_filter='GpuFixedBase*' 2>&1 | tail -15 | tee "$OUT/test_gpu.txt"
    { grep -q "PASSED" "$OUT/test_gpu.txt" && ! grep -q "FAILED" "$OUT/test_gpu.txt"; } || export SETUP_ON=cpu
    ;&
  full)
    bench p24 --size 2^24 --setup-on "${SETUP_ON:-auto}" --partitions 2 --budget-gb 150 \
      --modes "${MODES24:-overlap@1x12,overlap@2x12,serial@1x4}"
    bench p25 --size 2^25 --setup-on "${SETUP_ON:-auto}" --partitions 2 --budget-gb 150 \
      --modes "${MODES25:-overlap@1x2,inline@1x2,nopool@1x2}"
    ;;
esac
date -u
