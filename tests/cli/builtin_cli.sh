#!/usr/bin/env bash
# End-to-end test of `proofline setup | prove | verify` on the built-in circuits (issue 3, CLI):
# exit codes (0 ok/valid, 1 invalid, 2 usage, 3 bad input file), --json output, reproducible setup
# (same --seed ⇒ same .params bytes; proofs themselves are randomized), and every proof made here is
# verified by proofline AND by the outside verifier (noble_verify.mjs on the snarkjs JSON export).
#
# Usage: builtin_cli.sh <proofline executable> <oracle dir (.oracle)>
set -uo pipefail
P=$1
ORACLE=${2:-}
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

# --- mul: 1 constraint, the bellperson toy circuit (its .params is exactly 2136 bytes) ---
check "setup mul" 0 "$P" setup --circuit mul --params m.params --vk m.vk --seed 7
[[ $(stat -c %s m.params) -eq 2136 ]] && echo "ok: mul params 2136 bytes" || { echo "FAIL: mul params $(stat -c %s m.params) bytes, expected 2136"; fails=$((fails+1)); }
check "setup mul again (same seed)" 0 "$P" setup --circuit mul --params m2.params --seed 7
cmp -s m.params m2.params && echo "ok: same seed => identical .params" || { echo "FAIL: same seed gave different .params"; fails=$((fails+1)); }
check "setup mul (other seed)" 0 "$P" setup --circuit mul --params m3.params --seed 8
cmp -s m.params m3.params && { echo "FAIL: other seed gave identical .params"; fails=$((fails+1)); } || echo "ok: other seed => other .params"
check "prove mul --json" 0 "$P" prove --circuit mul --params m.params --proof m.proof --public m.pub.json --snarkjs-dir sj --json
cp out.txt prove.json
expect_in "prove --json says verified" prove.json '"verified": true'
expect_in "prove --json has proof_bytes 192" prove.json '"proof_bytes": 192'
[[ $(stat -c %s m.proof) -eq 192 ]] && echo "ok: proof is 192 bytes" || { echo "FAIL: proof size $(stat -c %s m.proof)"; fails=$((fails+1)); }
check "verify mul with .vk" 0 "$P" verify --vk m.vk --proof m.proof --public m.pub.json
check "verify mul with .params --json" 0 "$P" verify --params m.params --proof m.proof --public m.pub.json --json
expect_in "verify --json valid" out.txt '"valid": true'

# tampered proof: flip one bit of C's x coordinate (bytes 144..191); either rejected as invalid (1)
# or as a bad encoding (3), never accepted
cp m.proof t.proof
xor=$(( $(od -An -tu1 -j191 -N1 m.proof) ^ 1 ))
printf "\\x$(printf %02x $xor)" | dd of=t.proof bs=1 seek=191 conv=notrunc status=none
"$P" verify --vk m.vk --proof t.proof --public m.pub.json >/dev/null 2>&1; rc=$?
[[ $rc -eq 1 || $rc -eq 3 ]] && echo "ok: tampered proof rejected (exit $rc)" || { echo "FAIL: tampered proof: exit $rc"; fails=$((fails+1)); }
# wrong public input
echo '["49"]' > wrong.json
check "verify with a wrong public input" 1 "$P" verify --vk m.vk --proof m.proof --public wrong.json
# public input >= r
echo '["52435875175126190479447740508185965837690552500527637822603658699938581184513"]' > big.json
check "verify with a public input >= r" 3 "$P" verify --vk m.vk --proof m.proof --public big.json
expect_in "public input >= r is named" err.txt 'public\[0\].*(modulus|>=)'
# wrong number of public inputs
echo '["48","1"]' > two.json
"$P" verify --vk m.vk --proof m.proof --public two.json >/dev/null 2>&1; rc=$?
[[ $rc -eq 1 || $rc -eq 3 ]] && echo "ok: wrong input count refused (exit $rc)" || { echo "FAIL: wrong input count: exit $rc"; fails=$((fails+1)); }
# truncated parameters
head -c 1000 m.params > trunc.params
check "prove with truncated params" 3 "$P" prove --circuit mul --params trunc.params --proof x.proof
expect_in "truncated params message names the problem" err.txt 'trunc|offset|bytes|short|end of'
[[ ! -e x.proof ]] && echo "ok: no proof written on error" || { echo "FAIL: proof written despite error"; fails=$((fails+1)); }
# truncated proof
head -c 100 m.proof > short.proof
check "verify a truncated proof" 3 "$P" verify --vk m.vk --proof short.proof --public m.pub.json
# usage errors
check "unknown circuit" 2 "$P" setup --circuit nosuch --params z.params
check "missing required option" 2 "$P" prove --circuit mul --params m.params
check "size with a leading blank" 2 "$P" setup --circuit bench --size " 2^6" --params z.params
check "size with a suffix" 2 "$P" setup --circuit bench --size "2^6x" --params z.params
check "negative size" 2 "$P" setup --circuit bench --size "2^-1" --params z.params
[[ ! -e z.params ]] && echo "ok: no params written for a bad size" || { echo "FAIL: params written for a bad size"; fails=$((fails+1)); }
check "unknown subcommand" 2 "$P" frobnicate
check "missing input file" 2 "$P" verify --vk nosuch.vk --proof m.proof --public m.pub.json

# --- bench circuit, 2^6 rows, 2 partitions in one batch, with a .vk ---
check "setup bench 2^6" 0 "$P" setup --circuit bench --size 2^6 --params b.params --vk b.vk --seed 3 --threads 1
check "prove bench 2^6 x2" 0 "$P" prove --circuit bench --size 2^6 --params b.params --proof b.proof --public b.pub.json --partitions 2 --input 5 --snarkjs-dir sjb
[[ $(stat -c %s b.proof) -eq 384 ]] && echo "ok: 2 partitions => 384 bytes" || { echo "FAIL: 2-partition proof is $(stat -c %s b.proof) bytes"; fails=$((fails+1)); }
check "verify bench 2^6 x2" 0 "$P" verify --vk b.vk --proof b.proof --public b.pub.json
# A .params file whose verifying key belongs to another setup (spliced): the proof cannot verify,
# so prove exits 3 and writes nothing (never an unverified proof on disk).
check "setup bench 2^6 with another seed (vk only)" 0 "$P" setup --circuit bench --size 2^6 --params b9.params --vk b9.vk --seed 9 --threads 1
vks=$(stat -c %s b.vk)
{ cat b9.vk; tail -c +$((vks + 1)) b.params; } > spliced.params
check "prove with a spliced .params (foreign vk)" 3 "$P" prove --circuit bench --size 2^6 --params spliced.params --proof sp.proof --public sp.json --snarkjs-dir sjsp
expect_in "the inconsistent parameters are named" err.txt 'does not verify.*no files written'
[[ ! -e sp.proof && ! -e sp.json && ! -e sjsp ]] && echo "ok: nothing written for the spliced params" || { echo "FAIL: files written despite a proof that does not verify"; fails=$((fails+1)); }
check "prove bench with the wrong size for the params" 3 "$P" prove --circuit bench --size 2^7 --params b.params --proof y.proof
# --discard (timing runs of setups whose .params does not fit the disk): made, counted, not written.
before=$(ls | wc -l)
check "setup bench 2^6 --discard" 0 "$P" setup --circuit bench --size 2^6 --discard --seed 3 --json
expect_in "  the discarded bytes are those of the file" out.txt "\"params_bytes\": $(stat -c %s b.params)"
[[ $(ls | wc -l) -eq $before ]] && echo "ok: --discard wrote no file" || { echo "FAIL: --discard wrote a file"; fails=$((fails+1)); }
check "setup --discard with --params" 2 "$P" setup --circuit bench --size 2^6 --discard --params d.params
check "setup without --params or --discard" 2 "$P" setup --circuit bench --size 2^6
check "setup --backend tpu" 2 "$P" setup --circuit mul --params d.params --backend tpu

# --- outside verifier on the snarkjs export ---
if [[ -n "$ORACLE" && -f "$ORACLE/noble_verify.mjs" ]] && command -v "${NODE:-node}" >/dev/null; then
  check "noble verifies the mul proof" 0 "${NODE:-node}" "$ORACLE/noble_verify.mjs" sj/verification_key.json sj/public.json sj/proof.json
  check "noble verifies the bench proof" 0 "${NODE:-node}" "$ORACLE/noble_verify.mjs" sjb/verification_key.json sjb/public_1.json sjb/proof_1.json
  check "noble rejects partition 0's proof with partition 1's inputs" 1 "${NODE:-node}" "$ORACLE/noble_verify.mjs" sjb/verification_key.json sjb/public_1.json sjb/proof_0.json
  sed 's/"48"/"49"/' sj/public.json > sj/public_bad.json
  check "noble rejects a changed public input" 1 "${NODE:-node}" "$ORACLE/noble_verify.mjs" sj/verification_key.json sj/public_bad.json sj/proof.json
else
  echo "FAIL: outside verifier not found in '$ORACLE' (run scripts/install-deps.sh)"; fails=$((fails+1))
fi

echo "failures: $fails"
[[ $fails -eq 0 ]]
