#!/usr/bin/env bash
# One circom circuit through proofline and the outside oracles (ctest label "oracle").
# Usage: oracle_case.sh ORACLE_DIR PROOFLINE_SNARKJS CIRCUIT.circom CACHE_ROOT
#   CIRCUIT.circom sits next to NAME.input.json (and optionally NAME.expected_public.json).
# Artefacts (r1cs, wasm, test-only zkey, vk, witness, snarkjs' proof, and ref_prove.mjs' proof for
# r = s = 0) are made by the oracle's circuit-flow.sh in CACHE_ROOT/NAME (the work folder, written by
# the checks below) and reused while the key holds: the circuit folder's .circom files, the input,
# circuit-flow.sh, ref_prove.mjs and the oracle's package-lock.json (the snarkjs and circom versions).
# Like the compiler cache they outlive a clone: PROOFLINE_ORACLE_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/proofline/snarkjs-oracle; "off" turns it off) keeps one folder per
# circuit and key, copied into the work folder on a hit (never linked: the checks write there) and
# stored after a miss (written under a temporary name, renamed; a concurrent store of the same entry
# loses the rename and removes its copy); the two newest keys of a circuit are kept. Checks, each fatal:
#   1. proofline prove --check --r1cs   (random r, s)
#   2. snarkjs groth16 verify and noble_verify.mjs accept proofline's proof
#   3. proofline's public.json equals snarkjs' byte for byte (and the native expectation, if given)
#   4. proofline verify accepts snarkjs' proof; rejects it with a changed public input (or a changed proof)
#   5. with r = s = 0, proof.json and public.json equal ref_prove.mjs --rs=0,0 byte for byte
# Must run from the repository root (circom2, a WASI build, resolves -l paths relative to it).
set -euo pipefail
O=$(cd "$1" && pwd); PL=$(realpath "$2"); CIRCUIT=$(realpath "$3"); CACHE=$(realpath -m "$4")
NODE=${NODE:-node}; [ -n "$NODE" ] && command -v "$NODE" >/dev/null || NODE=node
export PATH="$(dirname "$(command -v "$NODE")"):$PATH"
if [ ! -d "$O/node_modules/snarkjs" ] || [ ! -f "$O/circuit-flow.sh" ]; then
  echo "FAIL: oracle packages missing in $O (run scripts/install-deps.sh)"; exit 1
fi
NAME=$(basename "$CIRCUIT" .circom); DIR=$(dirname "$CIRCUIT"); INPUT="$DIR/$NAME.input.json"
OUT="$CACHE/$NAME"
KEY=$(cat "$DIR"/*.circom "$INPUT" "$O/circuit-flow.sh" "$O/ref_prove.mjs" "$O/package-lock.json" | sha1sum | cut -c1-16)
if [ ! -f "$OUT/.key" ] || [ "$(cat "$OUT/.key")" != "$KEY" ]; then rm -rf "$OUT"; fi
S="node $O/node_modules/snarkjs/build/cli.cjs"
step() { echo "--- $NAME: $*"; }
MACHINE=${PROOFLINE_ORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/proofline/snarkjs-oracle}
[ "$MACHINE" = off ] && MACHINE=
ENTRY=${MACHINE:+$MACHINE/$NAME-$KEY}

if [ -f "$OUT/.key" ]; then
  echo "--- $NAME: artefacts of key $KEY in $OUT"
elif [ -n "$ENTRY" ] && [ -f "$ENTRY/.complete" ]; then
  mkdir -p "$OUT.tmp$$" && cp -r "$ENTRY/." "$OUT.tmp$$/" && rm -f "$OUT.tmp$$/.complete" && mv -T "$OUT.tmp$$" "$OUT"
  touch "$ENTRY/.complete"
  echo "--- $NAME: artefacts of key $KEY from the machine's cache $ENTRY"
else
  mkdir -p "$OUT"
  step "circuit-flow (compile, test-only ptau, setup, witness, snarkjs prove/verify, noble)"
  t0=$(date +%s.%N)
  bash "$O/circuit-flow.sh" "$O" "$CIRCUIT" "$INPUT" "$OUT" > "$OUT/flow.log" 2>&1 || { cat "$OUT/flow.log"; exit 1; }
  printf '    %.1f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
  step "ref_prove.mjs --rs=0,0 (the JS reference prover, for check 5)"
  (cd "$OUT" && node "$O/ref_prove.mjs" c.zkey w.wtns ref0_proof.json ref0_public.json --rs=0,0 2> /dev/null)
  echo "$KEY" > "$OUT/.key"
  # Into the machine's cache (best effort: a full disk or a read-only home only costs the next run this).
  if [ -n "$ENTRY" ] && mkdir -p "$MACHINE" 2>/dev/null; then
    tmp=$(mktemp -d "$MACHINE/.store.XXXXXX" 2>/dev/null) && cp -r "$OUT/." "$tmp/" && touch "$tmp/.complete" &&
      { mv -T "$tmp" "$ENTRY" 2>/dev/null || rm -rf "$tmp"; } || rm -rf "${tmp:-/nonexistent}"
    ls -dt "$MACHINE/$NAME"-???????????????? 2>/dev/null | tail -n +3 | xargs -r rm -rf
  fi
fi
cd "$OUT"
grep -q "OK!" flow.log || { cat flow.log; echo "FAIL: snarkjs did not verify its own proof"; exit 1; }
[ -s ref0_proof.json ] || { echo "FAIL: no ref_prove.mjs proof in $OUT"; exit 1; }

step "1. proofline prove --check"
"$PL" prove --zkey c.zkey --wtns w.wtns --proof pl_proof.json --public pl_public.json --check --r1cs "$NAME.r1cs"

step "2. snarkjs groth16 verify + noble_verify on proofline's proof"
$S groth16 verify vk.json pl_public.json pl_proof.json | tee pl_verify.log
grep -q "OK!" pl_verify.log || { echo "FAIL: snarkjs rejects proofline's proof"; exit 1; }
node "$O/noble_verify.mjs" vk.json pl_public.json pl_proof.json > /dev/null || { echo "FAIL: noble rejects proofline's proof"; exit 1; }
echo "    noble: valid"

step "3. public.json equals snarkjs'"
cmp pl_public.json public.json || { echo "FAIL: public.json differs from snarkjs'"; exit 1; }
if [ -f "$DIR/$NAME.expected_public.json" ]; then
  node -e 'const a=require(process.argv[1]),b=require(process.argv[2]);if(JSON.stringify(a)!==JSON.stringify(b)){console.error("FAIL: public",a,"expected",b);process.exit(1)}' \
    "$OUT/pl_public.json" "$DIR/$NAME.expected_public.json"
  echo "    matches $NAME.expected_public.json"
fi

step "4. proofline verify on snarkjs' proof (valid, then tampered)"
"$PL" verify --vk vk.json --public public.json --proof proof.json
if [ "$(node -e 'console.log(require(process.argv[1]).length)' "$OUT/public.json")" != 0 ]; then
  node -e 'const p=require(process.argv[1]);p[0]=(BigInt(p[0])+1n).toString();console.log(JSON.stringify(p))' "$OUT/public.json" > bad_public.json
  set +e; "$PL" verify --vk vk.json --public bad_public.json --proof proof.json; rc=$?; set -e
else
  node -e 'const p=require(process.argv[1]);p.pi_c=p.pi_a;console.log(JSON.stringify(p))' "$OUT/proof.json" > bad_proof.json
  set +e; "$PL" verify --vk vk.json --public public.json --proof bad_proof.json; rc=$?; set -e
fi
[ "$rc" = 1 ] || { echo "FAIL: a tampered proof/public input gave exit $rc, expected 1 (invalid)"; exit 1; }

step "5. r = s = 0: byte-identical to ref_prove.mjs --rs=0,0"
"$PL" prove --zkey c.zkey --wtns w.wtns --proof pl0_proof.json --public pl0_public.json --rs 0,0 > /dev/null
cmp pl0_proof.json ref0_proof.json || { echo "FAIL: r=s=0 proof differs from ref_prove.mjs"; diff pl0_proof.json ref0_proof.json | head; exit 1; }
if [ "$(cat ref0_public.json)" = "[]" ]; then
  # ref_prove.mjs writes JSON.stringify's "[]"; snarkjs (bfj), and proofline after it, "[\n]".
  [ "$(cat pl0_public.json)" = "$(printf '[\n]')" ] || { echo "FAIL: empty public.json is not snarkjs' [\\n]"; exit 1; }
else
  cmp pl0_public.json ref0_public.json || { echo "FAIL: r=s=0 public.json differs from ref_prove.mjs"; exit 1; }
fi
echo "PASS $NAME"
