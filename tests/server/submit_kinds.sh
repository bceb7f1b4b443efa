#!/usr/bin/env bash
# `proofline submit` of the Filecoin and snarkjs kinds through a daemon (ctest server_submit_kinds,
# labels oracle and slow: it needs the 2 KiB PoRep parameters of scripts/porep_params.sh and node).
#   porep-c2: a sealed 2 KiB sector submitted with --c1 --prover-id --sector-id, the daemon finding
#     the parameters by upstream name in its $FIL_PROOFS_PARAMETER_CACHE; the 192-byte proof accepted
#     by `proofline verify --c1` (inputs derived from the C1) and refused for another sector's C1; a
#     bad C1 (a path element removed, sent while the good one runs), a wrong sector id and missing
#     parameters each fail only their request, with the JSON path / file named.
#   snarkjs: submit --zkey --wtns writes proof.json / public.json like `prove --zkey`: snarkjs
#     verifies them, and public.json equals snarkjs' own byte for byte.
# Usage: submit_kinds.sh <proofline> <oracle dir (.oracle)> <parameter cache dir>; run from the
# repository root (circom resolves its -l paths from there).
set -uo pipefail
P=$(realpath "$1")
O=$(cd "$2" && pwd)
CACHE=$3
NODE=${NODE:-node}
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/tests/cli/check_lib.sh"
tmp=$W  # check_lib.sh's scratch folder (the current folder)
daemon_pid=
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

params=$(bash "$top/scripts/porep_params.sh" "$P" "$CACHE" 2KiB) || { echo "FAIL: porep setup"; exit 1; }
vk=${params%.params}.vk

# snarkjs files of a small circuit (the oracle's circuit-flow: circom, test-only ptau, setup, witness).
(cd "$top" && bash "$O/circuit-flow.sh" "$O" tests/snarkjs/circuits/mul.circom tests/snarkjs/circuits/mul.input.json \
  "$tmp/sj" >/dev/null) || { echo "FAIL: circuit-flow (snarkjs files)"; exit 1; }

FIL_PROOFS_PARAMETER_CACHE=$(dirname "$params") "$P" daemon --unix "$tmp/d.sock" --tcp "" --backend cpu \
  --set "paths.allowed=[\"\$FIL_PROOFS_PARAMETER_CACHE\",\"$tmp\"]" \
  --set engine.synthesis_workers=2 --set engine.log_partitions=false 2>daemon.log &
daemon_pid=$!
for _ in $(seq 200); do
  grep -q 'listening on' daemon.log && break
  sleep 0.1
done
[ -S "$tmp/d.sock" ] || { echo "FAIL: daemon did not start"; cat daemon.log; exit 1; }
A=(--address "unix:$tmp/d.sock")

# ---- porep-c2 ----------------------------------------------------------------------------------
check "gen-c1 2KiB" 0 "$P" gen-c1 --sector-size 2KiB --seed 5 --out gen.json
check "seal 2KiB (json)" 0 "$P" seal --sector-size 2KiB --seed 6 --sector-id 77 --out seal.json --json
prover=$(sed -n 's/^ *"prover_id": "\([0-9a-f]*\)",\{0,1\}$/\1/p' out.txt | head -n1)
[[ ${#prover} -eq 64 ]] && echo "ok: seal --json prints the prover id" || { echo "FAIL: seal --json: no prover_id"; fails=$((fails + 1)); }
"$NODE" -e '
  const fs = require("fs");
  const c1 = JSON.parse(fs.readFileSync("gen.json"));
  const key = Object.keys(c1.vanilla_proofs)[0];
  c1.vanilla_proofs[key][0][1].comm_d_proofs.data.Single.path.path.splice(0, 1);
  fs.writeFileSync("bad.json", JSON.stringify(c1));'

# A bad C1 and a good one at the same time: only the bad one fails.
"$P" submit "${A[@]}" --kind porep-c2 --c1 bad.json --proof bad.proof >bad.out 2>bad.err &
bad_pid=$!
check "submit porep-c2 (sealed sector, prover and sector id checked)" 0 "$P" submit "${A[@]}" --kind porep-c2 \
  --c1 seal.json --prover-id "$prover" --sector-id 77 --proof seal.proof
expect_in "submit porep-c2 completed" out.txt 'status      COMPLETED'
wait $bad_pid
rc=$?
[[ $rc -eq 3 ]] && echo "ok: bad C1 refused (exit 3)" || { echo "FAIL: bad C1: exit $rc, expected 3"; fails=$((fails + 1)); }
expect_in "bad C1 error names the JSON path" bad.err 'vanilla_proofs\.StackedDrg2KiBV1\[0\]\[1\]\.comm_d_proofs\.data\.Single\.path\.path'
[[ ! -e bad.proof ]] && echo "ok: no proof for the bad C1" || { echo "FAIL: a proof was written for the bad C1"; fails=$((fails + 1)); }

[[ $(stat -c %s seal.proof) -eq 192 ]] && echo "ok: daemon proof is 192 bytes" || { echo "FAIL: daemon proof size"; fails=$((fails + 1)); }
check "verify --c1 accepts the daemon's proof" 0 "$P" verify --vk "$vk" --c1 seal.json --proof seal.proof
check "the daemon's proof against another sector's C1" 1 "$P" verify --vk "$vk" --c1 gen.json --proof seal.proof
check "submit porep-c2 with a wrong sector id" 3 "$P" submit "${A[@]}" --kind porep-c2 --c1 seal.json \
  --prover-id "$prover" --sector-id 78
expect_in "wrong sector id named" err.txt 'replica_id is not the one of prover_id'
expect_in "wrong sector id is an argument error, not a malformed C1" err.txt 'unsupported argument: '
mkdir -p "$tmp/empty"
check "submit porep-c2 with missing parameters" 3 "$P" submit "${A[@]}" --kind porep-c2 --c1 gen.json \
  --arg param_cache="$tmp/empty"
expect_in "missing parameters named" err.txt "$tmp/empty/$(basename "$params")' not found"
# param_cache is declared a folder: one that does not exist is named before the C1 is read.
check "submit porep-c2 with a missing --param-cache" 3 "$P" submit "${A[@]}" --kind porep-c2 --c1 gen.json \
  --param-cache "$tmp/none"
expect_in "missing folder named" err.txt "request.args\['param_cache'\]: '$tmp/none': no such folder on the daemon's machine"
check "submit porep-c2 without --c1" 2 "$P" submit "${A[@]}" --kind porep-c2

# ---- snarkjs: proof.json / public.json like prove --zkey ---------------------------------------------
check "submit snarkjs" 0 "$P" submit "${A[@]}" --kind snarkjs --zkey sj/c.zkey --wtns sj/w.wtns --proof sj-proof.json \
  --public sj-public.json
check "snarkjs verifies the daemon's proof.json" 0 "$NODE" "$O/node_modules/snarkjs/build/cli.cjs" groth16 verify \
  sj/vk.json sj-public.json sj-proof.json
cmp -s sj-public.json sj/public.json && echo "ok: public.json equals snarkjs' byte for byte" ||
  { echo "FAIL: public.json differs from snarkjs'"; fails=$((fails + 1)); }

check "status after the failures" 0 "$P" status "${A[@]}"
expect_in "status lists porep-c2" out.txt 'porep-c2'
kill -TERM "$daemon_pid"
wait "$daemon_pid" || { echo "FAIL: daemon exit status after SIGTERM"; fails=$((fails + 1)); }
daemon_pid=

echo "submit_kinds: $fails failure(s)"
[[ $fails -eq 0 ]]
