#!/usr/bin/env bash
# bench/setup/h200.sh — issue 16's setup-at-scale runs on the one-GPU H200 machine (16 cores,
# 128 GiB, 64 GiB disk), from the bundle of bench/setup/bundle.sh. Logs go to $OUT (small files
# only; the parameters stay on the machine's disk under $DIR and are deleted at the end).
#   test     the GPU fixed-base tests, then bench 2^16 set up on the CPU and on the GPU: same bytes
#   porep32  setup --circuit porep --sector-size 32GiB --backend cuda into $DIR (≈ 47 GB), under
#            /usr/bin/time -v; then, if it took under LIMIT_C2 s (default 330), gen-c1 of a 32 GiB
#            sector and c2 --partition 0 with those parameters (the proof is verified before it is
#            written: the parameters are right)
#   bench27  setup --circuit bench --size 2^27 --backend cuda --discard (its .params, 74 GB, would
#            not fit the disk: made, encoded, counted, dropped), under /usr/bin/time -v
set -uo pipefail
B=${BUNDLE:-build/devrun-setup}
OUT=${OUT:-/tmp/setup-out}
DIR=${DIR:-/tmp/setup-params}
mkdir -p "$OUT" "$DIR"
T_START=$(date +%s)
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
P="$B/proofline"
timed() {  # name command… : /usr/bin/time -v when the machine has it, else bash's time
  local name=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$OUT/$name.time" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err"
  else
    { time "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err"; } 2>"$OUT/$name.time"
  fi
  local rc=$?
  echo "== $name: $* (rc=$rc)"
  grep -E "^setup|WARNING|error|Error" "$OUT/$name.err" | grep -v WARNING | tail -40
  cat "$OUT/$name.txt"
  grep -E "Elapsed|Maximum resident|User time|System time|^real|^user|^sys" "$OUT/$name.time"
  return $rc
}
{
  date -u
  nvidia-smi --query-gpu=index,name,memory.total,clocks.max.sm --format=csv,noheader
  echo "cores $(nproc)"; grep -m1 "model name" /proc/cpuinfo; free -g | head -2; df -h "$DIR" | tail -1
} | tee "$OUT/machine.txt"
case ${1:-test} in
  test)
    "$B/test_gpu" --gtest_filter='GpuFixedBase*' 2>&1 | tail -15 | tee "$OUT/test_gpu.txt"
    timed b16cpu "$P" setup --circuit bench --size 2^16 --params "$DIR/b16cpu.params" --seed 5 --backend cpu
    timed b16gpu "$P" setup --circuit bench --size 2^16 --params "$DIR/b16gpu.params" --seed 5 --backend cuda
    cmp "$DIR/b16cpu.params" "$DIR/b16gpu.params" && echo "bench 2^16: cpu and cuda setups are the same bytes"
    ;;
  porep32)
    t0=$(date +%s)
    timed porep32 "$P" setup --circuit porep --sector-size 32GiB --params "$DIR/p32.params" --vk "$DIR/p32.vk" \
      --seed 1 --backend cuda
    rc=$? took=$(( $(date +%s) - t0 ))
    ls -la "$DIR" | tee -a "$OUT/porep32.txt"
    if [ $rc -eq 0 ] && [ $took -lt "${LIMIT_C2:-330}" ]; then
      "$P" gen-c1 --sector-size 32GiB --seed 1 --out "$DIR/c1.json" >"$OUT/genc1.txt" 2>&1
      # All 10 partitions (issue 17) when C2_PARTITIONS=all, else partition 0; bounded by the call's limit.
      part=(--partition 0); [ "${C2_PARTITIONS:-0}" = all ] && part=()
      left=$(( ${CALL_LIMIT:-590} - $(date +%s) + T_START ))
      echo "c2 ${part[*]:-all partitions}: ${left} s left in this call"
      timed c2 timeout "$left" "$P" c2 --c1 "$DIR/c1.json" --params "$DIR/p32.params" --out "$DIR/proof.bin" "${part[@]}" \
        --backend cuda --memory-budget "${C2_BUDGET:-48GiB}" --json
      ls -la "$DIR/proof.bin" 2>/dev/null
    else
      echo "c2 skipped (setup rc=$rc, $took s)"
    fi
    rm -rf "$DIR"
    ;;
  bench27)
    timed bench27 "$P" setup --circuit bench --size 2^27 --discard --seed 1 --backend cuda
    ;;
esac
date -u
