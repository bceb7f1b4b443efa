#!/usr/bin/env bash
# bench/setup/post_snap32_run.sh — issue 19's 32 GiB rows for WindowPoSt (one partition of 2349
# sectors) and SnapDeals (one sector, 16 partitions) on the one-GPU H200, from the bundle of
# bench/setup/bundle.sh, in one device call:
#   for each of window, snap: setup --circuit … --sector-size 32GiB --backend cuda (development
#   parameters, seed 1), gen-vanilla (random sectors; the challenged paths only for PoSt), then
#   `submit --local --backend "$BACKEND"` (the engine in-process: synthesis, GPU prover, the proof verified
#   before it is returned) under /usr/bin/time -v (wall, peak RSS), then `verify` in its own process
#   from the verifier's inputs (request JSON), then the parameters are deleted (the 64 GiB disk holds
#   one set at a time).
#   bench/setup/post_snap32_run.sh [window|snap|both]     (default both)
#   env WINDOW_SIZE / SNAP_SIZE (default 32GiB; e.g. 2KiB / 1KiB for a dry run), BACKEND (default cuda)
# Constraint checks after synthesis are off (--check-constraints 0) so that the times are the
# prover's; every proof is still verified by the engine and again by `verify`.
set -uo pipefail
B=${BUNDLE:-build/devrun-setup}
OUT=${OUT:-/tmp/ps32-out}
DIR=${DIR:-/tmp/ps32}
mkdir -p "$OUT" "$DIR"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
P=$(realpath "$B/proofline")
BACKEND=${BACKEND:-cuda}
nproc; free -g | head -2; df -h /tmp | tail -1
summary() {  # summary NAME: wall and peak RSS of $OUT/NAME.time
  grep -E "Elapsed|Maximum resident" "$OUT/$1.time" | sed "s/^/  $1: /"
}
run_kind() {  # run_kind CIRCUIT KIND GEN_KIND VERIFY_FLAG EXTRA...
  local circuit=$1 kind=$2 gen=$3 vflag=$4 size=$5
  shift 5
  date -u +"%T $circuit"
  /usr/bin/time -v -o "$OUT/$circuit-setup.time" "$P" setup --circuit "$circuit" --sector-size "$size" \
    --params "$DIR/$circuit.params" --vk "$DIR/$circuit.vk" --seed 1 --backend "$BACKEND" >"$OUT/$circuit-setup.txt" 2>&1
  echo "setup rc=$?"; summary "$circuit-setup"; ls -la "$DIR/$circuit.params" 2>/dev/null
  grep -vE "ETA|%\)" "$OUT/$circuit-setup.txt" | tail -4
  /usr/bin/time -v -o "$OUT/$circuit-gen.time" "$P" gen-vanilla "$gen" --sector-size "$size" --seed 7 --out "$DIR/$circuit" \
    >"$OUT/$circuit-gen.txt" 2>&1
  echo "gen-vanilla rc=$?"; summary "$circuit-gen"; ls -la "$DIR/$circuit.vanilla.json" 2>/dev/null
  /usr/bin/time -v -o "$OUT/$circuit-prove.time" "$P" submit --local --backend "$BACKEND" --kind "$kind" \
    --request "$DIR/$circuit.request.json" --vanilla "$DIR/$circuit.vanilla.json" --params "$DIR/$circuit.params" \
    --check-constraints 0 "$@" --proof "$DIR/$circuit.proof" --json >"$OUT/$circuit-prove.json" 2>"$OUT/$circuit-prove.err"
  echo "prove rc=$?"; summary "$circuit-prove"; tail -3 "$OUT/$circuit-prove.err"
  head -c 1500 "$OUT/$circuit-prove.json"; echo
  "$P" verify --vk "$DIR/$circuit.vk" "$vflag" "$DIR/$circuit.request.json" --proof "$DIR/$circuit.proof" "$@" \
    >"$OUT/$circuit-verify.txt" 2>&1
  echo "verify rc=$? ($(tail -1 "$OUT/$circuit-verify.txt"))"
  rm -f "$DIR/$circuit.params"
}
case ${1:-both} in
  window) run_kind window-post window-post window-post --post "${WINDOW_SIZE:-32GiB}" --partition 0 ;;
  snap) run_kind snap snap-update snap --snap "${SNAP_SIZE:-32GiB}" ;;
  both)
    run_kind window-post window-post window-post --post "${WINDOW_SIZE:-32GiB}" --partition 0
    run_kind snap snap-update snap --snap "${SNAP_SIZE:-32GiB}"
    ;;
  *) echo "usage: $0 [window|snap|both]" >&2; exit 2 ;;
esac
date -u +%T
