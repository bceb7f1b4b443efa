#!/usr/bin/env bash
# make demo: the main job on a small real input, end to end, with the timings of each step:
#   proofline setup (dev parameters, NOT secure) → prove (bench circuit, verified before it is
#   written) → proofline verify → snarkjs groth16 verify and @noble/curves verify of the same proof.
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
