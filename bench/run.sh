#!/usr/bin/env bash
# bench/run.sh — run the benchmarks and print the results table of bench/RESULTS.md.
#
#   bench/run.sh                      build proofline_bench in $BUILD_DIR (default build/), run it
#                                     (3 repetitions, aggregates only), print the table to stdout
#   bench/run.sh --update             same, and replace the generated section of bench/RESULTS.md
#   bench/run.sh --json FILE          skip the run: format an existing Google Benchmark JSON file
#                                     (each run leaves its JSON in $BUILD_DIR/bench-results.json)
#   bench/run.sh -- ARGS...           extra flags for proofline_bench (e.g. --benchmark_filter=Fp)
#
# Environment: BUILD_DIR (default build), REPS (default 3), NO_BUILD=1 to use the binary as is,
# FILTER (default: the single-threaded arithmetic benchmarks of ff/, ec/ and pairing/; a
# --benchmark_filter after -- overrides it).
# The blst column holds the issue's measurements of blst on this machine class (not a side-by-side
# run: blst cannot be built here); the ratio is ours / blst.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-build}
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac
REPS=${REPS:-3}
FILTER=${FILTER:-'^(Fp|Fr|Fp2|Fp12|pairing)/|^(G1|G2)/(add|mixed_add|double|xyzz_mixed_add|scalar_mul|subgroup_check|decompress_checked|decompress_unchecked)$'}
UPDATE=0
JSON=
EXTRA=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --update) UPDATE=1; shift ;;
    --json) JSON=$2; shift 2 ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

BIN=$BUILD_DIR/proofline_bench
if [[ -z $JSON ]]; then
  # The commit (and whether the tree differs from it) as the binary is built, not after the run.
  COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
  DIRTY=$(git -C "$ROOT" status --porcelain --untracked-files=no -- src include bench CMakeLists.txt 2>/dev/null | grep -q . && echo " (plus uncommitted changes under src/, include/, bench/ or CMakeLists.txt)" || true)
  if [[ ${NO_BUILD:-0} != 1 ]]; then
    [[ -f $BUILD_DIR/CMakeCache.txt ]] || cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >&2
    cmake --build "$BUILD_DIR" --target proofline_bench -j"$(nproc 2>/dev/null || echo 2)" >&2
  fi
  [[ -x $BIN ]] || { echo "run.sh: $BIN not found (no bench/*_bench.cpp built)" >&2; exit 1; }
  JSON=$BUILD_DIR/bench-results.json  # kept, with its .meta: `bench/run.sh --json` reformats it
  DATE=$(date -u '+%Y-%m-%d %H:%M UTC')
  LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
  "$BIN" --benchmark_filter="$FILTER" --benchmark_repetitions="$REPS" --benchmark_report_aggregates_only=true \
    --benchmark_out="$JSON" --benchmark_out_format=json "${EXTRA[@]}" >&2
  LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
  ASM=$([[ -n ${PROOFLINE_NO_ASM:-} ]] && echo "portable (PROOFLINE_NO_ASM set)" || echo "mulx/adx when the CPU has BMI2+ADX")
  for v in COMMIT DIRTY DATE LOAD_BEFORE LOAD_AFTER ASM; do printf '%s=%q\n' "$v" "${!v}"; done >"${JSON%.json}.meta"
else
  COMMIT="unknown (re-formatted JSON without its .meta)"
  DIRTY= DATE=unknown LOAD_BEFORE=unknown LOAD_AFTER=unknown ASM=unknown
  # shellcheck disable=SC1090
  [[ -f ${JSON%.json}.meta ]] && source "${JSON%.json}.meta"
fi

# Machine, compiler and build facts for the header.
CPU=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
CORES=$(nproc 2>/dev/null || echo '?')
CACHE=$BUILD_DIR/CMakeCache.txt
cache_var() { sed -n "s/^$1:[A-Z]*=//p" "$CACHE" 2>/dev/null | head -1; }
CXX_BIN=$(cache_var CMAKE_CXX_COMPILER)
CXX_VER=$("${CXX_BIN:-c++}" --version 2>/dev/null | head -1)
BTYPE=$(cache_var CMAKE_BUILD_TYPE)
BTYPE_UP=$(echo "${BTYPE:-Release}" | tr '[:lower:]' '[:upper:]')
FLAGS="$(cache_var CMAKE_CXX_FLAGS) $(cache_var "CMAKE_CXX_FLAGS_$BTYPE_UP")"
[[ -n $(cache_var "CMAKE_CXX_FLAGS_$BTYPE_UP") ]] || FLAGS="$FLAGS (CMakeLists default for $BTYPE)"
TABLE=$(python3 - "$JSON" <<'PY'
import json, sys

# blst on this machine class, as measured in issue 2 (ns): (low, high).
BLST = {
    "Fp/mul": (35, 45),
    "Fr/mul": (18, 19),
    "G1/mixed_add": (485, 485),
    "G1/scalar_mul": (93e3, 93e3),
    "pairing/pairing": (0.63e6, 0.63e6),
}
UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}

def fmt(ns):
    if ns >= 1e6: return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3: return f"{ns / 1e3:.4g} µs"
    return f"{ns:.3g} ns"

data = json.load(open(sys.argv[1]))
rows = {}
order = []
for b in data["benchmarks"]:
    name = b.get("run_name", b["name"])
    agg = b.get("aggregate_name", "")
    if b.get("run_type") == "aggregate" and agg not in ("mean", "median", "stddev"):
        continue
    t = b["cpu_time"] * UNIT[b.get("time_unit", "ns")]
    if name not in rows:
        rows[name] = {}
        order.append(name)
    rows[name][agg or "mean"] = t

GROUPS = ["Fp", "Fr", "Fp2", "Fp12", "G1", "G2", "pairing"]
def group(name):
    g = name.split("/")[0]
    return GROUPS.index(g) if g in GROUPS else len(GROUPS)
order.sort(key=group)  # stable: registration order within a group

print("| benchmark | median | mean ± stddev | blst (issue 2) | ratio ours/blst |")
print("|---|---:|---:|---:|---:|")
for name in order:
    r = rows[name]
    med = r.get("median", r.get("mean"))
    mean = r.get("mean", med)
    sd = r.get("stddev")
    spread = fmt(mean) + (f" ± {fmt(sd)}" if sd is not None else "")
    if name in BLST:
        lo, hi = BLST[name]
        ref = fmt(lo) if lo == hi else f"{fmt(lo)}–{fmt(hi)}"
        ratio = f"{med / lo:.2f}" if lo == hi else f"{med / hi:.2f}–{med / lo:.2f}"
    else:
        ref, ratio = "", ""
    print(f"| `{name}` | {fmt(med)} | {spread} | {ref} | {ratio} |")
PY
)

SECTION=$(cat <<EOF
<!-- generated by bench/run.sh: everything up to the end marker is replaced on --update -->
- Machine: ${CPU:-unknown CPU}, ${CORES} cores ($(uname -m), $(uname -r | cut -d- -f1) kernel)
- Date: ${DATE}
- Commit: \`${COMMIT}\`${DIRTY}
- Compiler: ${CXX_VER:-unknown}; build type ${BTYPE:-Release}; flags \`$(echo "$FLAGS" | xargs)\`
- Fp/Fr multiply: ${ASM}
- Run: \`proofline_bench --benchmark_repetitions=${REPS} --benchmark_report_aggregates_only=true\`; times are CPU time per operation (dependent chains, so latency; CPU time is less disturbed than wall time by other processes)
- Load average (1/5/15 min) before: ${LOAD_BEFORE}; after: ${LOAD_AFTER} (other agents share the machine's cores)

${TABLE}
<!-- end of generated section -->
EOF
)

if [[ $UPDATE == 1 ]]; then
  RESULTS=$ROOT/bench/RESULTS.md
  python3 - "$RESULTS" "$SECTION" <<'PY'
import sys, re
path, section = sys.argv[1], sys.argv[2]
text = open(path).read()
begin = "<!-- generated by bench/run.sh"
end = "<!-- end of generated section -->"
i, j = text.find(begin), text.find(end)
if i < 0 or j < 0:
    sys.exit(f"run.sh: {path} has no generated section markers")
text = text[:i] + section + text[j + len(end):]
open(path, "w").write(text)
PY
  echo "run.sh: updated bench/RESULTS.md" >&2
fi
echo "$SECTION"
