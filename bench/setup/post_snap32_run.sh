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
# Three files per kind under $OUT (the run tool returns at most 8): CIRCUIT.log (every step's
# output), CIRCUIT.time (/usr/bin/time -v of each step, appended), CIRCUIT-prove.json; the summary
# lines go to stdout as each step ends.
summary() {  # summary CIRCUIT STEP: wall and peak RSS of the last /usr/bin/time -v block
  tail -n 23 "$OUT/$1.time" | grep -E "Elapsed|Maximum resident" | sed "s/^/  $2: /"
}
run_kind() {  # run_kind CIRCUIT KIND GEN_KIND VERIFY_FLAG EXTRA...
  local circuit=$1 kind=$2 gen=$3 vflag=$4 size=$5
  shift 5
  date -u +"%T $circuit"
  local log="$OUT/$circuit.log" tv=(/usr/bin/time -v -a -o "$OUT/$circuit.time")
  "${tv[@]}" "$P" setup --circuit "$circuit" --sector-size "$size" \
    --params "$DIR/$circuit.params" --vk "$DIR/$circuit.vk" --seed 1 --backend "$BACKEND" >>"$log" 2>&1
  echo "setup rc=$?"; summary "$circuit" setup; ls -la "$DIR/$circuit.params" 2>/dev/null
  grep -vE "ETA|%\)" "$log" | tail -4
  "${tv[@]}" "$P" gen-vanilla "$gen" --sector-size "$size" --seed 7 --out "$DIR/$circuit" >>"$log" 2>&1
  echo "gen-vanilla rc=$?"; summary "$circuit" gen-vanilla; ls -la "$DIR/$circuit.vanilla.json" 2>/dev/null
  "${tv[@]}" "$P" submit --local --backend "$BACKEND" --kind "$kind" \
    --request "$DIR/$circuit.request.json" --vanilla "$DIR/$circuit.vanilla.json" --params "$DIR/$circuit.params" \
    --check-constraints 0 "$@" --proof "$DIR/$circuit.proof" --json >"$OUT/$circuit-prove.json" 2>>"$log"
  echo "prove rc=$?"; summary "$circuit" prove; tail -2 "$log"
  grep -E '"(total_ms|srs_load_ms|synthesis_ms|kernel_ms|prover_ms|verify_ms|num_partitions)"' "$OUT/$circuit-prove.json" | head -8
  "$P" verify --vk "$DIR/$circuit.vk" "$vflag" "$DIR/$circuit.request.json" --proof "$DIR/$circuit.proof" "$@" \
    >>"$log" 2>&1
  echo "verify rc=$? ($(tail -1 "$log"))"
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
