#!/usr/bin/env bash
# bench/porep.sh — Filecoin PoRep C2 end to end, stage by stage: gen-c1 (a valid C1 of a random
# sector, only the challenged paths materialized) → setup (development parameters of one partition's
# circuit, NOT secure, cached by scripts/porep_params.sh) → c2 (synthesis, parameter load, prove on
# the chosen backend, verification against the inputs a verifier derives) → verify --c1 (a separate
# process, from the .vk); then the sustained mode: SUSTAINED more sectors (default 3) and one more
# through ONE c2 process (`c2 --c1 … --out … … --first-alone`: the parameters loaded once, the first
# sector proved alone — the single-proof latency with the parameters resident — then the others
# submitted at once, so partitions of sector i+1 synthesize while sector i's are proved), each proof
# verified again by `verify --c1` in its own process. Prints ONE table: wall and CPU (user + sys, all
# threads) seconds per stage, the single-proof latency, sustained seconds per proof, per-partition
# stage means (synthesis, prove wait, H2D, kernel, prover call, stage) and verify, the backends'
# busy fraction (Σ prover call / wall), peak host RSS (c2's VmHWM) and peak device memory
# (nvidia-smi, sampled every 200 ms, when there is one).
#
#   bench/porep.sh SIZE [BACKEND]
#     SIZE     2KiB | 8MiB | 512MiB | 32GiB (all 10 partitions) | 32GiB-one-partition (the 32 GiB C1
#              is made whole and c2 --partition 0 proves one of its partitions: 130,278,541
#              constraints; no sustained mode)
#     BACKEND  cpu | cuda | auto (default auto: cuda when a device is usable, else cpu)
# Environment: PROOFLINE (the binary; default $BUILD_DIR/proofline), BUILD_DIR (default build; the
# binary is built there unless NO_BUILD=1), PARAM_CACHE (default $BUILD_DIR/filecoin-proof-parameters:
# <size>/v28-….params, kept between runs), PARAMS (a .params file to use as it is: no setup; its .vk
# beside it), WORK_DIR (default $BUILD_DIR/porep-bench), SEED (gen-c1 seed, default 1; the sustained
# sectors take SEED+1 …), C2_THREADS (c2 --threads, 0: all cores), C2_BUDGET (c2 --memory-budget,
# default 0: derived from the machine), SUSTAINED (sectors of the sustained mode, default 3, ≥ 3 for
# a figure worth quoting; 0: skip it), SINGLE (1, default: also the cold single run, gen-c1 → c2 →
# verify --c1 in separate processes; 0: only the sustained mode, whose c2 loads the parameters once),
# C2_ARGS (more c2 arguments, split at spaces, for both c2 runs: e.g. "--compiled" for the compiled
# form: witness-only synthesis, the constraints evaluated by the backend, the aux assignment packed),
# PROOFLINE_COMMIT (the commit the header line names; default git's HEAD of this checkout: a device
# machine's copy has no .git, so bench/device/run.sh passes the bundle's commit).
#
# Examples:  bench/porep.sh 2KiB cpu
#            SUSTAINED=3 NO_BUILD=1 PROOFLINE=/tmp/devrun-bundle/bin/proofline bench/porep.sh 32GiB cuda
# (on a device machine: bench/device/run.sh porep32 runs it, with the setup, from the bundle)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $# -lt 1 ]]; then
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
SIZE=$1 BACKEND=${2:-auto}
case $SIZE in
  2KiB | 8MiB | 512MiB | 32GiB) SECTOR=$SIZE PART=() ;;
  32GiB-one-partition) SECTOR=32GiB PART=(--partition 0) SUSTAINED=0 ;;
  *) echo "bench/porep.sh: SIZE must be 2KiB, 8MiB, 512MiB, 32GiB or 32GiB-one-partition, got '$SIZE'" >&2; exit 2 ;;
esac
case $BACKEND in cpu | cuda | auto) ;; *) echo "bench/porep.sh: BACKEND must be cpu, cuda or auto" >&2; exit 2 ;; esac
BUILD_DIR=${BUILD_DIR:-build}
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac
P=${PROOFLINE:-$BUILD_DIR/proofline}
if [[ ${NO_BUILD:-0} != 1 ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" >/dev/null
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target proofline_cli >/dev/null
fi
PARAM_CACHE=${PARAM_CACHE:-$BUILD_DIR/filecoin-proof-parameters}
WORK_DIR=${WORK_DIR:-$BUILD_DIR/porep-bench}
SEED=${SEED:-1}
SUSTAINED=${SUSTAINED:-3}
SINGLE=${SINGLE:-1}
C2_BUDGET=${C2_BUDGET:-0}
read -r -a C2_MORE <<<"${C2_ARGS:-}"
W=$WORK_DIR/$SECTOR
mkdir -p "$W"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# cpu VAR: CPU seconds (user + sys) of this shell's finished children so far (bash `times`, second
# line), into VAR — `times` must run in this shell, not in a $(…) subshell.
cpu() {
  times >"$W/.times"
  printf -v "$1" '%s' "$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$W/.times")"
}
# A number from c2's --json output: "name": 1.23
jnum() { sed -n "s/^ *\"$1\": \([0-9.eE+-]*\),\{0,1\}$/\1/p" "$2" | head -n1; }
# The same, as seconds with two decimals.
jsec() { awk -v x="$(jnum "$1" "$2")" 'BEGIN { printf "%.2f", x }'; }
rows=()
# row NAME WALL NOTE [CPU]
row() { rows+=("$(printf '%-22s %9s %9s  %s' "$1" "$2" "${4:-}" "$3")"); }
c0=0 c1=0
cpu_since() { awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", b - a }'; }

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)," \
  "commit ${PROOFLINE_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')}, PoRep C2 $SIZE, backend $BACKEND"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/# gpu /' || true
fi

# 1. gen-c1
t0=$(now) && cpu c0
"$P" gen-c1 --sector-size "$SECTOR" --seed "$SEED" --out "$W/c1.json" >"$W/gen-c1.txt"
cpu c1
row "gen-c1" "$(secs "$t0" "$(now)")" "C1 $(stat -c %s "$W/c1.json") bytes" "$(cpu_since)"

# 2. setup (cached), or the parameters given
t0=$(now) && cpu c0
if [[ -n ${PARAMS:-} ]]; then
  params=$PARAMS
  note="given"
else
  params=$(SETUP_BACKEND="$BACKEND" bash "$ROOT/scripts/porep_params.sh" "$P" "$PARAM_CACHE" "$SECTOR" 2>"$W/setup.txt")
  if grep -q '^porep params: cached' "$W/setup.txt"; then note="cached"; else note="made now"; fi
fi
cpu c1
row "setup" "$(secs "$t0" "$(now)")" "$note: $(basename "$params") ($(stat -c %s -L "$params") bytes)" "$(cpu_since)"
vk=${params%.params}.vk

# 3. c2 (verifies every proof before it writes it)
if [[ $SINGLE == 1 ]]; then
t0=$(now) && cpu c0
if ! "$P" c2 --c1 "$W/c1.json" --params "$params" --out "$W/proof.bin" --backend "$BACKEND" --json \
    --threads "${C2_THREADS:-0}" --memory-budget "$C2_BUDGET" "${PART[@]}" "${C2_MORE[@]}" >"$W/c2.json" 2>"$W/c2.err"; then
  cat "$W/c2.err" >&2
  echo "bench/porep.sh: c2 failed" >&2
  exit 1
fi
cpu c1
c2_wall=$(secs "$t0" "$(now)") c2_cpu=$(cpu_since)
grep -q '"verified": true' "$W/c2.json" || { echo "bench/porep.sh: c2 did not report a verified proof" >&2; exit 1; }
used=$(sed -n 's/^ *"backend": "\(.*\)",\{0,1\}$/\1/p' "$W/c2.json" | head -n1)
parts=$(jnum partitions "$W/c2.json")
cons=$(jnum constraints_per_partition "$W/c2.json")
row "c2 read C1" "$(jsec read_c1 "$W/c2.json")" ""
row "c2 synthesis" "$(jsec synthesis "$W/c2.json")" "$parts partition(s) x $cons constraints"
row "c2 load params" "$(jsec load_params "$W/c2.json")" ""
row "c2 prove" "$(jsec prove "$W/c2.json")" "backend $used"
row "c2 verify" "$(jsec verify "$W/c2.json")" "inputs derived from the C1"
row "c2 total (process)" "$c2_wall" "$(stat -c %s "$W/proof.bin") proof bytes, verified" "$c2_cpu"

# 4. verify --c1 in its own process (whole C1 only: a one-partition proof is checked inside c2)
if [[ ${#PART[@]} -eq 0 ]]; then
  t0=$(now) && cpu c0
  "$P" verify --vk "$vk" --c1 "$W/c1.json" --proof "$W/proof.bin" >"$W/verify.txt" ||
    { cat "$W/verify.txt" >&2; echo "bench/porep.sh: verify --c1 rejected the proof" >&2; exit 1; }
  cpu c1
  row "verify --c1" "$(secs "$t0" "$(now)")" "valid" "$(cpu_since)"
fi
fi

# 5. sustained: SUSTAINED + 1 sectors through one c2 process, the first alone.
if [[ $SUSTAINED -gt 0 ]]; then
  pairs=()
  for ((i = 0; i <= SUSTAINED; i++)); do
    "$P" gen-c1 --sector-size "$SECTOR" --seed $((SEED + 1 + i)) --out "$W/s$i.json" >/dev/null
    rm -f "$W/s$i.proof"
    pairs+=(--c1 "$W/s$i.json" --out "$W/s$i.proof")
  done
  smi_pid=
  if [[ $BACKEND != cpu ]] && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
    nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$W/smi.txt" 2>/dev/null &
    smi_pid=$!
  fi
  t0=$(now) && cpu c0
  rc=0
  "$P" c2 "${pairs[@]}" --first-alone --params "$params" --backend "$BACKEND" --json --threads "${C2_THREADS:-0}" \
    --memory-budget "$C2_BUDGET" "${C2_MORE[@]}" >"$W/sustained.json" 2>"$W/sustained.err" || rc=$?
  cpu c1
  s_wall=$(secs "$t0" "$(now)") s_cpu=$(cpu_since)
  [[ -n $smi_pid ]] && { kill "$smi_pid" 2>/dev/null; wait "$smi_pid" 2>/dev/null || true; }
  if [[ $rc -ne 0 ]]; then
    cat "$W/sustained.err" >&2
    echo "bench/porep.sh: sustained c2 failed (exit $rc)" >&2
    exit 1
  fi
  S=$W/sustained.json
  ms() { awk -v x="$(jnum "$1" "$S")" 'BEGIN { printf "%.2f", x / 1000 }'; }
  used=$(sed -n 's/^ *"backend": "\(.*\)",\{0,1\}$/\1/p' "$S" | head -n1)
  parts=$(jnum partitions "$S")
  row "sustained c2 (process)" "$s_wall" "$((SUSTAINED + 1)) sectors x $parts partition(s), backend $used, one process" "$s_cpu"
  row "  load params (once)" "$(jsec load_params_s "$S")" ""
  row "  single-proof latency" "$(jsec single_latency_s "$S")" "sector 0 alone: C1 → verified $(jnum proof_bytes "$S")-byte proof written, parameters resident"
  row "  sustained per proof" "$(jsec sustained_seconds_per_proof "$S")" "$(jnum sustained_proofs "$S") sectors at once: $(jsec sustained_wall_s "$S") s wall / proofs; $(jsec steady_seconds_per_proof "$S") s between completions"
  row "  per partition: synth" "$(ms mean_synthesis_ms)" "mean over the sustained partitions (stage means below too)"
  row "  prove wait" "$(ms mean_prove_wait_ms)" "synthesized → taken by a prover worker"
  row "  H2D" "$(ms mean_h2d_ms)" "host → device copies (0: not measured by the backend / CPU): $(awk -v x="$(jnum mean_h2d_bytes "$S")" 'BEGIN { printf "%.3f GB", x / 1e9 }') per partition"
  row "  kernel" "$(ms mean_kernel_ms)" "the backend's own time (CUDA events on a GPU)"
  row "  prover call" "$(ms mean_prover_call_ms)" "the backend call as the engine sees it"
  row "  stage" "$(ms mean_stage_ms)" "the prove stage as the pipeline sees it"
  row "  verify (per proof)" "$(ms mean_verify_ms)" "the engine's batch self-check"
  busy=$(awk -v x="$(jnum gpu_busy_fraction "$S")" 'BEGIN { printf "%.1f %%", 100 * x }')
  row "  backend busy" "" "$busy of the sustained wall (Σ prover call / wall / backends)"
  # Per backend (one per device): busy fraction and partitions proved, from the flattened JSON arrays.
  flat=$(tr -d ' \n' <"$S")
  per_busy=$(grep -o '"busy_fraction_per_backend":\[[^]]*\]' <<<"$flat" | sed 's/.*\[//; s/\]//')
  per_parts=$(grep -o '"partitions_per_backend":\[[^]]*\]' <<<"$flat" | sed 's/.*\[//; s/\]//')
  if [[ -n $per_busy && $per_busy == *,* ]]; then
    row "  busy per backend" "" "$(awk -v b="$per_busy" -v p="$per_parts" 'BEGIN { n = split(b, x, ","); split(p, y, ",");
      for (i = 1; i <= n; ++i) printf "%s[%d] %.1f %% (%d partitions)", (i > 1 ? ", " : ""), i - 1, 100 * x[i], y[i] }')"
  fi
  row "  peak host RSS" "" "$(awk -v x="$(jnum peak_rss_bytes "$S")" 'BEGIN { printf "%.2f GiB", x / 1073741824 }') (c2's VmHWM: parameters + buffers)"
  if [[ -s $W/smi.txt ]]; then
    row "  peak device memory" "" "$(sort -n "$W/smi.txt" | tail -n1 | awk '{ printf "%.2f GiB", $1 / 1024 }') (nvidia-smi memory.used, all processes)"
  else
    row "  peak device memory" "" "n/a (no device)"
  fi
  ok=0
  t0=$(now) && cpu c0
  for ((i = 0; i <= SUSTAINED; i++)); do
    if "$P" verify --vk "$vk" --c1 "$W/s$i.json" --proof "$W/s$i.proof" >"$W/verify-s$i.txt"; then
      ok=$((ok + 1))
    else
      cat "$W/verify-s$i.txt" >&2
      echo "bench/porep.sh: verify --c1 rejected $W/s$i.proof" >&2
    fi
  done
  cpu c1
  row "verify --c1 x$((SUSTAINED + 1))" "$(secs "$t0" "$(now)")" "$ok/$((SUSTAINED + 1)) valid, each in its own process" "$(cpu_since)"
  [[ $ok -eq $((SUSTAINED + 1)) ]] || { printf '%s\n' "${rows[@]}"; exit 1; }
fi

printf '%-22s %9s %9s  %s\n' "stage" "wall s" "CPU s" "note (c2 rows: c2's own timers, wall)"
printf '%s\n' "${rows[@]}"
