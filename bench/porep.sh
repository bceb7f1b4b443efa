#!/usr/bin/env bash
# bench/porep.sh — Filecoin PoRep C2 end to end, stage by stage: gen-c1 (a valid C1 of a random
# sector, only the challenged paths materialized) → setup (development parameters of one partition's
# circuit, NOT secure, cached by scripts/porep_params.sh) → c2 (synthesis, parameter load, prove on
# the chosen backend, verification against the inputs a verifier derives) → verify --c1 (a separate
# process, from the .vk). Prints one table of wall and CPU (user + sys, all threads) seconds per
# stage; every proof is verified.
#
#   bench/porep.sh SIZE [BACKEND]
#     SIZE     2KiB | 8MiB | 512MiB | 32GiB-one-partition (the 32 GiB C1 is made whole — 10
#              partitions — and c2 --partition 0 proves one of them: 130,278,541 constraints)
#     BACKEND  cpu | cuda | auto (default auto: cuda when a device is usable, else cpu)
# Environment: PROOFLINE (the binary; default $BUILD_DIR/proofline), BUILD_DIR (default build; the
# binary is built there unless NO_BUILD=1), PARAM_CACHE (default $BUILD_DIR/filecoin-proof-parameters:
# <size>/v28-….params, kept between runs), WORK_DIR (default $BUILD_DIR/porep-bench), SEED (gen-c1
# seed, default 1), C2_THREADS (c2 --threads, 0: all cores).
#
# Examples:  bench/porep.sh 2KiB cpu
#            NO_BUILD=1 PROOFLINE=.devrun/proofline bench/porep.sh 512MiB cuda
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $# -lt 1 ]]; then
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
SIZE=$1 BACKEND=${2:-auto}
case $SIZE in
  2KiB | 8MiB | 512MiB) SECTOR=$SIZE PART=() ;;
  32GiB-one-partition | 32GiB) SECTOR=32GiB PART=(--partition 0) ;;
  *) echo "bench/porep.sh: SIZE must be 2KiB, 8MiB, 512MiB or 32GiB-one-partition, got '$SIZE'" >&2; exit 2 ;;
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
  "commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), PoRep C2 $SIZE, backend $BACKEND"
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/# gpu /' || true
fi

# 1. gen-c1
t0=$(now) && cpu c0
"$P" gen-c1 --sector-size "$SECTOR" --seed "$SEED" --out "$W/c1.json" >"$W/gen-c1.txt"
cpu c1
row "gen-c1" "$(secs "$t0" "$(now)")" "C1 $(stat -c %s "$W/c1.json") bytes" "$(cpu_since)"

# 2. setup (cached)
t0=$(now) && cpu c0
params=$(SETUP_BACKEND="$BACKEND" bash "$ROOT/scripts/porep_params.sh" "$P" "$PARAM_CACHE" "$SECTOR" 2>"$W/setup.txt")
cpu c1
if grep -q '^porep params: cached' "$W/setup.txt"; then
  note="cached"
else
  note="made now"
fi
row "setup" "$(secs "$t0" "$(now)")" "$note: $(basename "$params") ($(stat -c %s -L "$params") bytes)" "$(cpu_since)"
vk=${params%.params}.vk

# 3. c2 (verifies every proof before it writes it)
t0=$(now) && cpu c0
if ! "$P" c2 --c1 "$W/c1.json" --params "$params" --out "$W/proof.bin" --backend "$BACKEND" --json \
    --threads "${C2_THREADS:-0}" "${PART[@]}" >"$W/c2.json" 2>"$W/c2.err"; then
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

printf '%-22s %9s %9s  %s\n' "stage" "wall s" "CPU s" "note (c2 rows: c2's own timers, wall)"
printf '%s\n' "${rows[@]}"
