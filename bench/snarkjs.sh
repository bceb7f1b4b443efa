#!/usr/bin/env bash
# proofline vs snarkjs 0.7.6 on the same circom circuits and zkeys, side by side in one run.
#
# Usage: bench/snarkjs.sh [SIZES] [REPS]      SIZES: comma list of 16,18 (default 16); REPS default 3
# Env:   BUILD (default build-snarkjs: where proofline-snarkjs is built), CACHE (default
#        $BUILD/snarkjs_bench: compiled circuits, test-only zkeys, witnesses; reused between runs; it must
#        lie inside the repository: circom2 is a WASI build that reads only files below the current folder),
#        THREADS (proofline --threads, default 0 = all cores; snarkjs always uses all cores),
#        KINDS (default "poseidon sha256"), PREPARE_ONLY=1 (make and cache the artefacts, time nothing:
#        the zkeys of the 2^18 circuits take tens of minutes here, so make them ahead of a timing run).
# Circuits (as ../shared/reference/oracles.md §2.1, §3): per size a full-field one and a bit-heavy one
#   16: Poseidon chain of 273 Poseidon(2) (65 520 constraints), Sha256(952) (60 053 constraints)
#   18: Poseidon chain of 1092            (262 080 constraints), Sha256(4000) (241 981 constraints)
# The zkeys come from the oracle's TEST-ONLY ptau (fake_ptau.mjs): proving work is the same as with a
# real ceremony. Both provers run as the command a user runs (process start, reading zkey and wtns,
# writing proof.json); wall and CPU (user + sys) times are medians of REPS runs; every proof of both is
# checked with `snarkjs groth16 verify`. Prints one table; ratio = snarkjs / proofline (wall; CPU in
# brackets: on a shared, loaded machine the CPU ratio is the steadier number). The load average at the
# start of each run is printed, since other work on the machine inflates wall times.
# Must run from the repository root (circom2 is a WASI build: -l paths relative to it).
set -euo pipefail
SIZES=${1:-16}; REPS=${2:-3}
ROOT=$(pwd); BUILD=${BUILD:-build-snarkjs}; CACHE=$(realpath -m "${CACHE:-$BUILD/snarkjs_bench}")
THREADS=${THREADS:-0}
O=$ROOT/.oracle; S="node $O/node_modules/snarkjs/build/cli.cjs"
PL=$(realpath -m "$BUILD/tests/snarkjs/proofline-snarkjs")
[ -n "${PREPARE_ONLY:-}" ] || [ -x "$PL" ] || { echo "build proofline-snarkjs first: make -C $BUILD proofline_snarkjs"; exit 2; }
[ -f "$O/circuit-flow.sh" ] || { echo "oracle packages missing: run scripts/install-deps.sh"; exit 2; }
mkdir -p "$CACHE"

make_circuit() {  # NAME KIND SIZE → $CACHE/NAME/{NAME.circom,input.json}
  local name=$1 kind=$2 size=$3 d=$CACHE/src/$1
  mkdir -p "$d"
  if [ "$kind" = poseidon ]; then
    local n=$([ "$size" = 16 ] && echo 273 || echo 1092)
    cp tests/snarkjs/circuits/poseidon_chain.circom "$d/"
    printf 'pragma circom 2.0.0;\ninclude "poseidon_chain.circom";\ncomponent main {public [in]} = PoseidonChain(%s);\n' "$n" > "$d/$name.circom"
    echo '{"in": "1", "k": "2"}' > "$d/input.json"
  else
    local bits=$([ "$size" = 16 ] && echo 952 || echo 4000)
    printf 'pragma circom 2.0.0;\ninclude "circomlib/circuits/sha256/sha256.circom";\ncomponent main = Sha256(%s);\n' "$bits" > "$d/$name.circom"
    node -e "console.log(JSON.stringify({in: Array.from({length:$bits},(_,i)=>String((i*7+3)%5%2))}))" > "$d/input.json"
  fi
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
# timed VAR_WALL VAR_CPU cmd…: runs cmd, appends wall and user+sys seconds to the named arrays.
timed() {
  local -n _w=$1 _c=$2; shift 2
  /usr/bin/time -f "%e %U %S" -o "$CACHE/.time" "$@"
  read -r e u s < "$CACHE/.time"
  _w+=("$e"); _c+=("$(echo "$u + $s" | bc)")
}

ROWS=()
for size in ${SIZES//,/ }; do
  for kind in ${KINDS:-poseidon sha256}; do
    name=${kind}_2e$size
    make_circuit "$name" "$kind" "$size"
    out=$CACHE/$name
    echo "=== $name: artefacts (compile, test-only ptau, setup, witness; cached in $out)" >&2
    t0=$(now)
    bash "$O/circuit-flow.sh" "$O" "$CACHE/src/$name/$name.circom" "$CACHE/src/$name/input.json" "$out" > "$out.flow.log" 2>&1 \
      || { cat "$out.flow.log"; exit 1; }
    echo "    $(echo "$(now) - $t0" | bc) s" >&2
    [ -z "${PREPARE_ONLY:-}" ] || continue
    cons=$($S r1cs info "$out/$name.r1cs" 2>&1 | sed -n 's/.*# of Constraints: *//p' | tr -dc 0-9)
    sj=(); pl=(); sjc=(); plc=()
    for rep in $(seq "$REPS"); do
      load=$(cut -d' ' -f1 /proc/loadavg)
      timed sj sjc node "$O/node_modules/snarkjs/build/cli.cjs" groth16 prove "$out/c.zkey" "$out/w.wtns" "$out/sj_proof.json" "$out/sj_public.json"
      (cd "$out" && $S groth16 verify vk.json sj_public.json sj_proof.json | grep -q "OK!") || { echo "snarkjs proof invalid"; exit 1; }
      timed pl plc "$PL" prove --zkey "$out/c.zkey" --wtns "$out/w.wtns" --proof "$out/pl_proof.json" --public "$out/pl_public.json" \
        --threads "$THREADS" --json > "$out/pl_prove.json"
      (cd "$out" && $S groth16 verify vk.json pl_public.json pl_proof.json | grep -q "OK!") || { echo "proofline proof invalid"; exit 1; }
      cmp -s "$out/pl_public.json" "$out/sj_public.json" || { echo "public.json differs"; exit 1; }
      echo "    rep $rep (load $load): snarkjs ${sj[-1]} s (cpu ${sjc[-1]}), proofline ${pl[-1]} s (cpu ${plc[-1]})" >&2
    done
    sjm=$(printf '%s\n' "${sj[@]}" | median); plm=$(printf '%s\n' "${pl[@]}" | median)
    sjcm=$(printf '%s\n' "${sjc[@]}" | median); plcm=$(printf '%s\n' "${plc[@]}" | median)
    stages=$(node -e 'const t=require(process.argv[1]).timings_ms,p=t.prover;console.log([["load_zkey",t.load_zkey],["synthesis",t.synthesis],...["ntt","msm_a","msm_b_g1","msm_b_g2","msm_l","msm_h"].map(k=>[k,p[k]])].map(([k,v])=>k+" "+(v/1000).toFixed(2)).join(", "))' "$out/pl_prove.json")
    ROWS+=("$(printf '| 2^%s | %-8s | %7s | %6.2f s (cpu %.2f) | %6.2f s (cpu %.2f) | %5.1fx (cpu %.1fx) | %s |' "$size" "$kind" "$cons" \
      "$sjm" "$sjcm" "$plm" "$plcm" "$(echo "$sjm / $plm" | bc -l)" "$(echo "$sjcm / $plcm" | bc -l)" "$stages")")
  done
done
echo
echo "snarkjs 0.7.6 vs proofline-snarkjs, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), median of $REPS"
echo "| domain | circuit  | constraints | snarkjs | proofline | ratio | proofline stages (s, last run) |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
