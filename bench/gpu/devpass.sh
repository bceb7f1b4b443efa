#!/usr/bin/env bash
# bench/gpu/devpass.sh — the whole GPU acceptance pass of issue 5 in one command on a GPU machine,
# from the bundle of scripts/gpu-bundle.sh:
#   1. device and kernel resources (nvidia-smi; cuobjdump --dump-resource-usage: registers, stack,
#      shared memory, spill stores of every kernel of the benchmarks);
#   2. test_gpu (every GPU test, bit-exact against the CPU layers);
#   3. the benchmarks and the summary table (.devrun/run.sh = bench/gpu.sh without the build);
#   4. the Nsight Compute profile of the main kernels (bench/gpu/profile.sh).
# Each step has its own time limit and its log under OUT_DIR; the summary table and the profile
# digest are printed last.
#
#   .devrun/devpass.sh OUT_DIR      (on the device machine; OUT_DIR e.g. $OUT of the device tool)
# Environment: TEST_S, BENCH_S, PROFILE_S (seconds per step; 200, 300, 150), NO_PROFILE=1.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: devpass.sh OUT_DIR}
mkdir -p "$out"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
{
  date -u
  nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm,driver_version,temperature.gpu,power.draw \
    --format=csv
  for b in "$here"/gpu_*_bench; do
    echo "== $(basename "$b")"
    "$cuobjdump" --dump-resource-usage "$b" 2>&1 | grep -E "Function|REG:" | paste - - |
      sed -E 's/.*Function ([^:]*):.*REG:([0-9]+) STACK:([0-9]+) SHARED:([0-9]+) LOCAL:([0-9]+).*/REG \2 STACK \3 SHARED \4 LOCAL \5 \1/' |
      sort -u
  done
} >"$out/resources.txt" 2>&1
rc=0
echo "== test_gpu"
timeout "${TEST_S:-200}" "$here/test_gpu" 2>&1 | tee "$out/test_gpu.log" | grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure|error" | head -40
[ "${PIPESTATUS[0]}" = 0 ] || rc=1
echo "== benchmarks"
SKIP_TESTS=1 timeout "${BENCH_S:-300}" "$here/run.sh" >"$out/bench.log" 2>&1 || rc=1
if [ "${NO_PROFILE:-0}" != 1 ]; then
  echo "== profile ($ncu)"
  NCU=$ncu timeout "${PROFILE_S:-150}" "$here/profile.sh" "$here" "$out" >"$out/profile_digest.txt" 2>&1 || rc=1
fi
grep -E "^\| |^## summary" "$out/bench.log" | tail -45
cat "$out/profile_digest.txt" 2>/dev/null | cut -c1-160 | head -90
exit $rc
