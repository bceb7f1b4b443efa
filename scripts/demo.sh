#!/usr/bin/env bash
# make demo: the main job on a small real input, end to end, with the timings of each step:
#   proofline setup (dev parameters, NOT secure) → prove (bench circuit, verified before it is
#   written) → proofline verify → snarkjs groth16 verify and @noble/curves verify of the same proof;
#   then Filecoin PoRep C2 of a 2 KiB sector: gen-c1 → setup (2.7 M constraints; the parameters are
#   cached in BUILD_DIR/filecoin-proof-parameters by scripts/porep_params.sh, so only the first run
#   pays for it) → c2 → proofline verify --c1 → @noble/curves verify.
# Usage: scripts/demo.sh [BUILD_DIR=build]   (DEMO_SIZE=2^14 to change the circuit size)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
size=${DEMO_SIZE:-2^14}
bin="$build/proofline"
oracle="$top/.oracle"
node_bin=$(command -v node || true)
[ -x "$oracle/bin/node" ] && node_bin="$oracle/bin/node"
work=$(mktemp -d "${TMPDIR:-/tmp}/proofline-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }
timed() { local t0=$(date +%s.%N); "$@"; local t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "   (%.2f s)\n", b - a }'; }

step "setup: bench circuit, $size constraints (development parameters, NOT secure)"
timed "$bin" setup --circuit bench --size "$size" --params "$work/bench.params" --vk "$work/bench.vk" --seed 1
step "prove (CPU backend; the proof is verified before it is written)"
timed "$bin" prove --circuit bench --size "$size" --params "$work/bench.params" --proof "$work/proof.bin" \
  --public "$work/public.json" --snarkjs-dir "$work/snarkjs"
step "proofline verify"
timed "$bin" verify --vk "$work/bench.vk" --proof "$work/proof.bin" --public "$work/public.json"
step "snarkjs groth16 verify (outside verifier, same proof exported as snarkjs JSON)"
timed "$node_bin" "$oracle/node_modules/snarkjs/build/cli.cjs" groth16 verify \
  "$work/snarkjs/verification_key.json" "$work/snarkjs/public.json" "$work/snarkjs/proof.json"
step "@noble/curves verify (second outside verifier)"
timed "$node_bin" "$oracle/noble_verify.mjs" "$work/snarkjs/verification_key.json" "$work/snarkjs/public.json" \
  "$work/snarkjs/proof.json" >/dev/null
printf '\ndemo: proof of a %s-constraint circuit made, verified by proofline, snarkjs and noble\n' "$size"

# ---- Filecoin PoRep C2, 2 KiB sector ----
porep_cache="$build/filecoin-proof-parameters"
step "gen-c1: a 2 KiB sector's commit-phase-1 output (random sector, only the challenged paths built)"
timed "$bin" gen-c1 --sector-size 2KiB --seed 1 --out "$work/c1.json"
step "setup: PoRep 2 KiB partition circuit (development parameters, NOT secure; cached in $porep_cache)"
t0=$(date +%s.%N)
params=$("$top/scripts/porep_params.sh" "$bin" "$porep_cache" 2KiB)
awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "   (%.2f s)\n", b - a }'
step "c2: synthesize the partition, prove it, verify it before writing (CPU backend; progress on stderr)"
timed env FIL_PROOFS_PARAMETER_CACHE="$(dirname "$params")" "$bin" c2 --c1 "$work/c1.json" \
  --out "$work/porep.proof" --snarkjs-dir "$work/porep-snarkjs"
step "proofline verify --c1 (public inputs derived from the C1: challenges and graph parents)"
timed "$bin" verify --vk "${params%.params}.vk" --c1 "$work/c1.json" --proof "$work/porep.proof"
step "@noble/curves verify of the PoRep proof (snarkjs JSON export)"
timed "$node_bin" "$oracle/noble_verify.mjs" "$work/porep-snarkjs/verification_key.json" \
  "$work/porep-snarkjs/public.json" "$work/porep-snarkjs/proof.json" >/dev/null
printf '\ndemo: 2 KiB PoRep C2 proof (192 bytes) made and verified by proofline and noble\n'
