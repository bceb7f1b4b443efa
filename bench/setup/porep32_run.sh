#!/usr/bin/env bash
# bench/setup/porep32_run.sh — issue 17's acceptance run on the one-GPU H200 machine, from the bundle
# of bench/setup/bundle.sh (carried as build/devrun-setup):
#   1. setup --circuit porep --sector-size 32GiB --backend cuda into $DIR (≈ 47 GB .params), timed;
#   2. bench/porep.sh 32GiB cuda with those parameters: SUSTAINED (default 3) + 1 sectors through one
#      c2 process (--first-alone: the single-proof latency with the parameters loaded, then the
#      sustained rate), every proof verified by `verify --c1` in its own process; one table.
# The parameters stay in $DIR (for a following call while the machine is warm); logs go to $OUT.
set -uo pipefail
B=${BUNDLE:-build/devrun-setup}
OUT=${OUT:-/tmp/p32-out}
DIR=${DIR:-/tmp/p32}
mkdir -p "$OUT" "$DIR"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
P=$(realpath "$B/proofline")
{
  date -u
  nvidia-smi --query-gpu=index,name,memory.total,clocks.max.sm --format=csv,noheader
  echo "cores $(nproc)"; grep -m1 "model name" /proc/cpuinfo; free -g | head -2; df -h "$DIR" | tail -1
} | tee "$OUT/machine.txt"
if [ ! -s "$DIR/p32.params" ]; then
  /usr/bin/time -v -o "$OUT/setup.time" "$P" setup --circuit porep --sector-size 32GiB --params "$DIR/p32.params" \
    --vk "$DIR/p32.vk" --seed 1 --backend cuda >"$OUT/setup.txt" 2>"$OUT/setup.err"
  echo "setup rc=$?"
  grep -E "Elapsed|Maximum resident|User time|System time" "$OUT/setup.time"
  grep -E "^setup" "$OUT/setup.err" | grep -v "%" | tail -12
  ls -la "$DIR"
fi
SUSTAINED=${SUSTAINED:-3} SINGLE=${SINGLE:-0} NO_BUILD=1 PROOFLINE="$P" PARAMS="$DIR/p32.params" WORK_DIR="$DIR/work" \
  bash bench/porep.sh 32GiB cuda 2>&1 | tee "$OUT/porep32.txt"
cp "$DIR/work/32GiB/sustained.json" "$OUT/" 2>/dev/null
grep -vE "ETA|%\)" "$DIR/work/32GiB/sustained.err" 2>/dev/null | tail -80 > "$OUT/sustained.err"
date -u
