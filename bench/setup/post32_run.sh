#!/usr/bin/env bash
# bench/setup/post32_run.sh — issue 19's WinningPoSt acceptance on the one-GPU H200 machine, after
# bench/setup/porep32_run.sh in the same warm machine (its 32 GiB PoRep parameters and C1s in $DIR):
#   0. test_gpu: the SRS loader/streaming and backend tests (GPU results against the CPU, bit for bit);
#   1. setup --circuit winning-post --sector-size 32GiB, gen-vanilla winning-post (a random 32 GiB sector);
#   2. a daemon (cuda) with both parameter sets preloaded; WinningPoSt latency (submit → verified proof,
#      client wall and the daemon's total_ms) alone, then while a stream of 32 GiB PoRep sectors runs
#      (priority critical against normal).
set -uo pipefail
B=${BUNDLE:-build/devrun-setup}
OUT=${OUT:-/tmp/post-out}
DIR=${DIR:-/tmp/p32}
mkdir -p "$OUT" "$DIR"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
P=$(realpath "$B/proofline")
date -u
timeout 200 "$B/test_gpu" --gtest_filter='GpuSrs*:SrsLoad*' 2>&1 | tail -25 | tee "$OUT/test_gpu.txt"
[ -s "$DIR/win.params" ] || /usr/bin/time -v -o "$OUT/win-setup.time" "$P" setup --circuit winning-post --sector-size 32GiB --params "$DIR/win.params" \
  --vk "$DIR/win.vk" --seed 1 --backend cuda >"$OUT/win-setup.txt" 2>&1
echo "winning setup rc=$?"; grep -E "Elapsed|Maximum resident" "$OUT/win-setup.time"
"$P" gen-vanilla winning-post --sector-size 32GiB --seed 7 --out "$DIR/win" >"$OUT/gen-vanilla.txt" 2>&1
echo "gen-vanilla rc=$?"; ls -la "$DIR" | grep -v "^d" | head
pre='[]'
[ -s "$DIR/p32.params" ] && pre='["porep-c2:'"$DIR"'/p32.params"]'
"$P" daemon --unix "$DIR/d.sock" --tcp "" --backend cuda --set "engine.preload=$pre" --set status.listen= \
  2>"$OUT/daemon.log" &
dpid=$!
for _ in $(seq 600); do grep -q 'listening on' "$OUT/daemon.log" && break; sleep 0.2; done
head -5 "$OUT/daemon.log"
A=(--address "unix:$DIR/d.sock")
now() { date +%s.%N; }
win() {  # win LABEL: one WinningPoSt submit, client wall and the daemon's total
  local t0 t1
  t0=$(now)
  "$P" submit "${A[@]}" --kind winning-post --request "$DIR/win.request.json" --vanilla "$DIR/win.vanilla.json" \
    --params "$DIR/win.params" --priority critical --proof "$DIR/win.proof" --public "$DIR/win.public.json" --json >"$OUT/win-$1.json" 2>&1
  local rc=$?
  t1=$(now)
  printf '%-28s rc=%d client %.3f s, daemon total_ms %s\n' "$1" $rc "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
    "$(sed -n 's/.*"total_ms": *\([0-9.]*\).*/\1/p' "$OUT/win-$1.json" | head -1)"
}
for i in 1 2 3 4; do win "alone-$i"; done
"$P" verify --vk "$DIR/win.vk" --proof "$DIR/win.proof" --public "$DIR/win.public.json" >/dev/null 2>&1 &&
  echo "the WinningPoSt proof verifies (separate process)" || echo "WinningPoSt verify: see $OUT"
if [ -s "$DIR/p32.params" ] && [ -s "$DIR/win.params" ] && ls "$DIR"/work/32GiB/s*.json >/dev/null 2>&1; then
  n=0
  for c in "$DIR"/work/32GiB/s*.json; do
    "$P" submit "${A[@]}" --kind porep-c2 --c1 "$c" --params "$DIR/p32.params" --request-id "stream-$n" --no-wait >/dev/null 2>&1
    n=$((n + 1))
  done
  echo "PoRep stream: $n sectors of 10 partitions submitted"
  sleep 20
  "$P" status "${A[@]}" 2>&1 | head -20
  for i in 1 2 3 4; do win "under-porep-$i"; sleep 2; done
  "$P" status "${A[@]}" 2>&1 | head -8
  for ((k = 0; k < n; k++)); do "$P" cancel "${A[@]}" --id "stream-$k" >/dev/null 2>&1; done
else
  echo "no 32 GiB PoRep parameters / C1s in $DIR: contention part skipped"
fi
kill $dpid; wait $dpid 2>/dev/null
tail -5 "$OUT/daemon.log"
date -u
