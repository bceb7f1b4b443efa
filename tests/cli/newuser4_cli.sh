#!/usr/bin/env bash
# New-user session 4's findings 2–12, each as a check on the `proofline` command (seconds: mul
# parameters, 2 KiB / 1 KiB vanilla proofs, a 2 KiB gen-c1, one daemon):
#   2  a .vk given as --params to submit --local / a daemon: named as a .vk, exit 2 (the daemon's
#      refusal of a relative path: INVALID_ARGUMENT, exit 3), before any parameter load;
#   3  one rule for request ids (≤ 128 bytes of printable ASCII, spaces allowed): await/cancel --id
#      check it as submit --request-id does (exit 2, the length named, the id not echoed); an id
#      with spaces and brackets works end to end; --help says the rule;
#   4  errors in a public.json name the file and the partition; text that is no decimal integer is
#      "malformed input", not "value not canonical";
#   5  the public.json size limit counts the proofs the proof file holds (not one more), and allows
#      some spacing;
#   6  check-c1's mismatched root shows the full values and the differing byte;
#   7  check-vanilla names a sector proof given twice ("again", with both indices), as malformed
#      input, not "unsupported argument";
#   8  vanilla proofs of the other family (Snap vs PoSt) are named as such;
#   9  verify --post with a Snap request is a usage error (2) as verify --snap with a PoSt one;
#  10  daemon --unix names the folders it makes; --help says so;
#  11  gen-vanilla --out "" is refused (2), no hidden files written;
#  12  a request's miner_id above 2^64 - 1 and a --set integer above it say "above 2^64 - 1";
#      --listen http://… says what is expected; submit --local --kind K --help speaks of this machine.
#
# Usage: newuser4_cli.sh <proofline executable>
set -uo pipefail
P=$1
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

check "setup mul" 0 "$P" setup --circuit mul --params m.params --vk m.vk --seed 7
check "prove mul, 1 partition" 0 "$P" prove --circuit mul --params m.params --proof m1.proof --public m1.pub.json
check "prove mul, 2 partitions" 0 "$P" prove --circuit mul --params m.params --partitions 2 --proof m2.proof \
  --public m2.pub.json

# ---- 2: a .vk as --params to submit -------------------------------------------------------------------
check "submit --local --params <.vk>" 2 "$P" submit --local --kind mul --params m.vk --proof x.proof
expect_in "  named as a .vk file" err.txt "^proofline submit: --params 'm.vk' is a verifying-key \(\.vk\) file \(1[0-9]+ bytes: the key alone\)"
grep -q "srs load" err.txt && { echo "FAIL: a parameter load was tried"; fails=$((fails + 1)); }
start_daemon "$P"
check "submit to a daemon, absolute .vk path" 2 "$P" submit "${A[@]}" --kind mul --params "$W/m.vk"
expect_in "  named as a .vk file" err.txt "--params '$W/m.vk' is a verifying-key \(\.vk\) file"
check "submit to a daemon, relative .vk path (the daemon's folder)" 3 "$P" submit "${A[@]}" --kind mul --params m.vk
expect_in "  refused by the daemon, named as a .vk file" err.txt "refused: kind 'mul': argument 'params' = 'm.vk' is a verifying-key \(\.vk\) file"
grep -q "srs load failed" "$W/daemon.log" && { echo "FAIL: the daemon tried to load the .vk"; fails=$((fails + 1)); }

# ---- 3: request ids -----------------------------------------------------------------------------------
long=$(printf 'x%.0s' $(seq 1 5000))
for cmd in await cancel; do
  check "$cmd --id of 5000 characters" 2 "$P" "$cmd" "${A[@]}" --id "$long"
  expect_in "  the length named" err.txt "^proofline $cmd: --id: request_id: 5000 bytes, at most 128 allowed"
  [[ $(wc -c <err.txt) -lt 300 && $(wc -c <out.txt) -lt 300 ]] && echo "ok:   the id is not echoed" ||
    { echo "FAIL: $cmd echoes the id ($(wc -c <err.txt) bytes)"; fails=$((fails + 1)); }
  check "$cmd --id with a newline" 2 "$P" "$cmd" "${A[@]}" --id $'ab\ncd'
  expect_in "  the byte named" err.txt "request_id: byte 2 \(0x0a\) is not printable ASCII"
done
check "submit --request-id of 200 characters" 2 "$P" submit "${A[@]}" --kind mul --params m.params \
  --request-id "$(printf 'y%.0s' $(seq 1 200))"
expect_in "  the same words" err.txt "^proofline submit: --request-id: request_id: 200 bytes, at most 128 allowed"
check "cancel --id with spaces: a valid id, not known" 3 "$P" cancel "${A[@]}" --id "bad id with spaces"
expect_in "  not known" err.txt "no request 'bad id with spaces'"
check "submit --no-wait --request-id with spaces and brackets" 0 "$P" submit "${A[@]}" --kind mul --params m.params \
  --request-id "wdpost-1000-0-[12 34]" --no-wait
check "await it" 0 "$P" await "${A[@]}" --id "wdpost-1000-0-[12 34]"
expect_in "  completed" out.txt "status      COMPLETED"
for cmd in submit await cancel; do
  "$P" "$cmd" --help >help.txt 2>&1
  expect_in "$cmd --help states the id rule" help.txt "at most 128 bytes of printable ASCII, space through"
  grep -q "no spaces" help.txt && { echo "FAIL: $cmd --help says 'no spaces'"; fails=$((fails + 1)); }
done
stop_daemon

# ---- 4, 5: public.json ---------------------------------------------------------------------------------
python3 - <<'PY'
import json
two = json.load(open('m2.pub.json'))
for k in (0, 1):
    j = json.loads(json.dumps(two)); j[k][0] = "-5"; json.dump(j, open(f'neg{k}.json', 'w'))
j = json.loads(json.dumps(two)); j[1][0] = 5; json.dump(j, open('num.json', 'w'))
json.dump(["1", "2"], open('twopub.json', 'w'))
open('padded.json', 'w').write(open('m1.pub.json').read() + ' ' * 2000)
PY
for k in 0 1; do
  check "public.json, partition $k not a decimal" 3 "$P" verify --vk m.vk --proof m2.proof --public neg$k.json
  expect_in "  file and partition named, malformed" err.txt "malformed input: public inputs file 'neg$k.json', partition $k: public\[0\]: \"-5\" is not a decimal integer"
done
check "public.json, a number instead of a string" 3 "$P" verify --vk m.vk --proof m2.proof --public num.json
expect_in "  file and partition named" err.txt "public inputs file 'num.json', partition 1: public\[0\] is not a string"
check "public.json with more inputs than the key" 3 "$P" verify --vk m.vk --proof m1.proof --public twopub.json
expect_in "  file named" err.txt "public inputs file 'twopub.json': public inputs: 2 entries, expected at most 1"
truncate -s 2G big.json
check "a 2 GiB public.json" 3 "$P" verify --vk m.vk --proof m1.proof --public big.json
expect_in "  the proof file's partition count" err.txt "more than 1 partition\(s\) \(the proofs in --proof\) of 1 public input"
rm -f big.json
check "a valid public.json with 2000 bytes of spacing" 0 "$P" verify --vk m.vk --proof m1.proof --public padded.json

# ---- 6: check-c1's mismatched root ----------------------------------------------------------------------
check "gen-c1 2KiB" 0 "$P" gen-c1 --sector-size 2KiB --seed 1 --out c1.json
python3 - <<'PY'
import json
j = json.load(open('c1.json'))
j['comm_d'][5] ^= 1
json.dump(j, open('c1_commd.json', 'w'))
PY
check "check-c1, comm_d[5] flipped" 1 "$P" check-c1 --c1 c1_commd.json
expect_in "  both roots in full, the byte named" out.txt "root 0x[0-9a-f]{64} differs from the expected 0x[0-9a-f]{64} \(byte 5 of 0 … 31 differs\)"

# New-user session 5: a value in an error is cut, its length said (a C1 whose registered_proof was
# 40 MB came back whole in the message and was kept by the daemon for AwaitProof).
python3 - <<'PY'
import json
j = json.load(open('c1.json'))
j['registered_proof'] = 'Z' * 100000
json.dump(j, open('c1_longrp.json', 'w'))
PY
check "c2 of a C1 whose registered_proof is 100000 characters" 3 "$P" c2 --c1 c1_longrp.json --out longrp.proof
expect_in "  the value cut, its length said" err.txt 'registered seal proof "Z{64}… \(100000 bytes\)" is unknown'
[[ $(wc -c <err.txt) -lt 4096 ]] && echo "ok: the message is short" || { echo "FAIL: the message echoes the value ($(wc -c <err.txt) bytes)"; fails=$((fails + 1)); }

# ---- 7, 8, 9: vanilla proofs and requests ------------------------------------------------------------
check "gen-vanilla window 2KiB, 3 sectors" 0 "$P" gen-vanilla window-post --sector-size 2KiB --sectors 3 --seed 1 --out w3
check "gen-vanilla snap 1KiB" 0 "$P" gen-vanilla snap --sector-size 1KiB --seed 1 --out s
python3 - <<'PY'
import json
v = json.load(open('w3.vanilla.json'))
json.dump([v[0], v[0], v[2]], open('w3dup.json', 'w'))
PY
check "check-vanilla, sector 0's proof twice" 3 "$P" check-vanilla --request w3.request.json --vanilla w3dup.json
expect_in "  the repeat named" err.txt "malformed input: .*vanilla_proofs\[1\] is of sector id [0-9]+ again \(already vanilla_proofs\[0\]\)"
echo '[]' >none.json
check "check-vanilla, no proofs" 3 "$P" check-vanilla --request w3.request.json --vanilla none.json
grep -q "unsupported argument" err.txt && { echo "FAIL: 'unsupported argument' for a missing proof"; fails=$((fails + 1)); }
check "check-vanilla, PoSt proofs for a Snap request" 3 "$P" check-vanilla --request s.request.json --vanilla w3.vanilla.json
expect_in "  named as PoSt proofs" err.txt "these vanilla proofs are PoSt sector proofs \(2KiB sectors, 10 challenges: WindowPoSt\), the request is a SnapDeals one"
check "check-vanilla, Snap proofs for a PoSt request" 3 "$P" check-vanilla --request w3.request.json --vanilla s.vanilla.json
expect_in "  named as Snap proofs" err.txt "these vanilla proofs are SnapDeals partition proofs \(1KiB sectors"
check "verify --post with a Snap request" 2 "$P" verify --vk m.vk --post s.request.json --proof m1.proof
expect_in "  use verify --snap" err.txt "'s.request.json' is a SnapDeals request: use verify --snap"
check "verify --snap with a PoSt request" 2 "$P" verify --vk m.vk --snap w3.request.json --proof m1.proof
expect_in "  use verify --post" err.txt "'w3.request.json' is a PoSt request: use verify --post"

# ---- 10: daemon --unix makes missing folders and says so ----------------------------------------------------
"$P" daemon --help >help.txt 2>&1
expect_in "daemon --help: --unix makes missing folders" help.txt "missing folders on the path are made"
"$P" daemon --unix "$W/n1/n2/x.sock" --tcp "" --backend cpu 2>d2.log &
d2=$!
for _ in $(seq 1 100); do grep -q 'listening on' d2.log && break; sleep 0.1; done
kill $d2 2>/dev/null; wait $d2 2>/dev/null
expect_in "the folders made are named" d2.log "listen.unix: made the missing folder $W/n1/n2"

# ---- 11: gen-vanilla --out "" ----------------------------------------------------------------------------
mkdir -p empty && cd empty
check "gen-vanilla --out ''" 2 "$P" gen-vanilla window-post --sector-size 2KiB --out ""
expect_in "  empty prefix named" "$W/err.txt" "empty output prefix"
[[ -z $(ls -A) ]] && echo "ok:   no hidden files" || { echo "FAIL: files written: $(ls -A)"; fails=$((fails + 1)); }
cd "$W"

# ---- 12: wording -------------------------------------------------------------------------------------------
python3 - <<'PY'
import json
j = json.load(open('w3.request.json'))
j['miner_id'] = 2**70
json.dump(j, open('huge_miner.json', 'w'))
PY
check "miner_id 2^70" 3 "$P" check-vanilla --request huge_miner.json --vanilla w3.vanilla.json
expect_in "  above 2^64 - 1" err.txt "PoSt request: miner_id: [0-9.e+]+ is above 2\^64 - 1"
check "--set an integer above 2^64 - 1" 2 "$P" daemon --print-config --set engine.synthesis_workers=99999999999999999999999
expect_in "  above 2^64 - 1" err.txt "engine.synthesis_workers: expected a non-negative integer, got one above 2\^64 - 1"
check "--listen http://…" 2 "$P" daemon --print-config --listen http://127.0.0.1:5000
expect_in "  the forms named" err.txt "--listen 'http://127.0.0.1:5000': expected unix:///absolute/path or ip:port"
"$P" submit --local --kind mul --help >help.txt 2>&1
expect_in "submit --local --help: this binary's kinds" help.txt "--local proves in this process, no daemon"
expect_in "  its files are this machine's" help.txt "--params .*a file on this machine"
grep -Eq -- "--params .*daemon's machine" help.txt && { echo "FAIL: submit --local --help speaks of the daemon's machine"; fails=$((fails + 1)); }

echo "$fails failure(s)"
exit $((fails > 0))
