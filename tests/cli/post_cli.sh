#!/usr/bin/env bash
# proofline gen-vanilla | check-vanilla end to end (fast: 2 KiB / 32 KiB sectors and a 32 GiB Window
# partition's first sector): exit codes, partitions, and check-vanilla naming a flipped sibling byte
# (sector, challenge, unsatisfied constraint), a wrong comm_r, a vanilla proof carrying another comm_r
# than the request's (issue 33: named with both values by check-vanilla, the daemon and submit --local)
# and another randomness; then setup
# --circuit window-post → daemon → submit --kind window-post (its default priority high) → verify
# (also --post: from the verifier's inputs, refused with another randomness or another sector's
# comm_r), and the daemon naming a tampered vanilla proof and another randomness; then submit --local
# (the same request proved in this process, no daemon).
#   post_cli.sh <proofline binary>
set -u
P=$1
source "$(dirname "$0")/check_lib.sh"

check "gen-vanilla window 2KiB, 3 sectors" 0 "$P" gen-vanilla window-post --sector-size 2KiB --sectors 3 --seed 1 --out w
expect_in "two partitions" out.txt '3 sectors, 2 partitions'
check "check-vanilla partition 0" 0 "$P" check-vanilla --request w.request.json --vanilla w.vanilla.json
expect_in "valid" out.txt '^valid'
check "check-vanilla partition 1 (padded)" 0 "$P" check-vanilla --request w.request.json --vanilla w.vanilla.json --partition 1 --json
expect_in "valid json" out.txt '"valid": true'
# A --partition beyond the request is a flag value out of range: usage (2), naming the partitions.
check "check-vanilla partition 2 does not exist" 2 "$P" check-vanilla --request w.request.json --vanilla w.vanilla.json --partition 2
expect_in "names the partitions" err.txt '--partition 2: the request.s 3 sectors at 2 per partition make partitions 0..1'
# Vanilla proofs beyond the request's sectors are refused with the counts (not ignored).
check "gen-vanilla window 2KiB, 1 other sector" 0 "$P" gen-vanilla window-post --sector-size 2KiB --sectors 1 --seed 2 \
  --miner-id 7 --out other
python3 -c "
import json; v = json.load(open('w.vanilla.json')) + json.load(open('other.vanilla.json')); json.dump(v, open('four.json', 'w'))"
check "check-vanilla, 4 vanilla proofs for 3 sectors" 3 "$P" check-vanilla --request w.request.json --vanilla four.json
expect_in "counts named" err.txt "4 vanilla proofs for the request's 3 sectors: at most one per sector"
check "gen-vanilla winning 32KiB V1_1" 0 "$P" gen-vanilla winning-post --sector-size 32KiB --api 1.1.0 --out win
check "check-vanilla winning" 0 "$P" check-vanilla --request win.request.json --vanilla win.vanilla.json
check "gen-vanilla window 32GiB, 1 sector" 0 "$P" gen-vanilla window-post --sector-size 32GiB --sectors 1 --out big --json
expect_in "32 GiB size in bytes" out.txt '"sector_size": 34359738368'

# Tampered copies: a sibling byte of sector 1's challenge 4, sector 0's comm_r, the randomness.
python3 - <<'PY'
import base64, json
v = json.load(open('w.vanilla.json'))
b = bytearray(base64.b64decode(v[1]))
# 2 KiB layout: 56 bytes of header, then per inclusion proof 4 + 32 + 32 + 8 + 2 * (8 + 7 * 32 + 8) = 556
# bytes; challenge 4's first sibling of level 0 starts 4 + 64 + 8 + 8 into it.
b[56 + 4 * 556 + 4 + 64 + 8 + 8] ^= 1
v[1] = base64.b64encode(bytes(b)).decode()
json.dump(v, open('bad_sibling.json', 'w'))
r = json.load(open('w.request.json'))
c = bytearray.fromhex(r['sectors'][0]['comm_r']); c[3] ^= 1; r['sectors'][0]['comm_r'] = c.hex()
json.dump(r, open('bad_comm_r.json', 'w'))
r = json.load(open('w.request.json'))
x = bytearray.fromhex(r['randomness']); x[0] ^= 1; r['randomness'] = x.hex()
json.dump(r, open('other_randomness.json', 'w'))
r = json.load(open('w.request.json'))
r['sectors'][0]['comm_r'] = 'ff' * 32
json.dump(r, open('bad_fr.json', 'w'))
# Issue 33: the vanilla proof's own comm_r (bincode: sector_id u64, then comm_r) flipped, all else valid.
for src, dst, k in (('w.vanilla.json', 'bad_vanilla_comm_r.json', 1), ('win.vanilla.json', 'win_bad_comm_r.json', 0)):
    v = json.load(open(src))
    b = bytearray(base64.b64decode(v[k]))
    b[8 + 3] ^= 1
    v[k] = base64.b64encode(bytes(b)).decode()
    json.dump(v, open(dst, 'w'))
    open(dst + '.hex', 'w').write(b[8:40].hex() + ' ' + bytes(b[8:40][:3] + bytes([b[11] ^ 1]) + b[12:40]).hex())
PY
check "flipped sibling byte" 1 "$P" check-vanilla --request w.request.json --vanilla bad_sibling.json --json
expect_in "names sector and challenge" out.txt '"error": "vanilla: sector 1 \(id [0-9]+\) challenge 4: path does not hash to its root'
expect_in "names the constraint" out.txt '"where": "sector 1 challenge 4: challenged leaf inclusion in tree R'
expect_in "test-mode path" out.txt '"constraint_name": "outer namespace/sector_1/challenge_inclusion_4/'
check "wrong comm_r" 1 "$P" check-vanilla --request bad_comm_r.json --vanilla w.vanilla.json
expect_in "comm_r equation" out.txt 'comm_r ≠ Poseidon2\(comm_c, comm_r_last\)'
expect_in "comm_r constraint" out.txt 'sector_0/enforce_comm_c_comm_r_last_hash_comm_r'
read -r flipped kept <bad_vanilla_comm_r.json.hex
check "the vanilla proof's own comm_r flipped" 1 "$P" check-vanilla --request w.request.json --vanilla bad_vanilla_comm_r.json
expect_in "  both values named" out.txt "^INVALID: vanilla: partition 0 sector 1 \(id [0-9]+\): vanilla_proofs\[1\] carries comm_r $flipped, the request has comm_r $kept for that sector"
read -r flipped kept <win_bad_comm_r.json.hex
check "winning: the vanilla proof's own comm_r flipped" 1 "$P" check-vanilla --request win.request.json --vanilla win_bad_comm_r.json
expect_in "  both values named" out.txt "vanilla_proofs\[0\] carries comm_r $flipped, the request has comm_r $kept"
check "another randomness" 1 "$P" check-vanilla --request other_randomness.json --vanilla w.vanilla.json
expect_in "challenged leaf differs" out.txt 'path leads to leaf'
expect_in "public input differs" out.txt 'public input 1 differs'
check "comm_r >= r" 3 "$P" check-vanilla --request bad_fr.json --vanilla w.vanilla.json
expect_in "names the field" err.txt 'sectors\[0\]\.comm_r: value >= r'
check "vanilla of another size" 3 "$P" check-vanilla --request win.request.json --vanilla w.vanilla.json
expect_in "names both sizes and challenge counts" err.txt "vanilla_proofs\[0\]: these vanilla proofs are for 2KiB sectors with 10 challenges \(WindowPoSt's\) each, the request is for 32KiB sectors with 66 challenges \(WinningPoSt's\)"
check "bad kind" 2 "$P" gen-vanilla fast-post --sector-size 2KiB --out x
check "bad size" 2 "$P" gen-vanilla window-post --sector-size 3KiB --out x
check "bad api" 2 "$P" gen-vanilla window-post --sector-size 2KiB --api 2.0.0 --out x
check "winning of 2 sectors" 2 "$P" gen-vanilla winning-post --sector-size 2KiB --sectors 2 --out x
check "missing file" 2 "$P" check-vanilla --request nope.json --vanilla w.vanilla.json

# ---- setup → daemon → submit → verify (2 KiB WindowPoSt, partition 1 of 3 sectors: padded) ----------------
check "setup window-post 2KiB" 0 "$P" setup --circuit window-post --sector-size 2KiB --params w.params --seed 1 --json
expect_in "setup counts" out.txt '"constraints": 21866'
check "setup --sector-size for mul refused" 2 "$P" setup --circuit mul --sector-size 2KiB --params m.params
start_daemon "$P"
check "submit window-post partition 1" 0 "$P" submit "${A[@]}" --kind window-post --request w.request.json \
  --vanilla w.vanilla.json --params w.params --partition 1 --proof w.proof --public w.public.json
expect_in "completed" out.txt 'status      COMPLETED'
expect_in "no --priority: window-post's default, high" out.txt '\(kind window-post, priority high\)'
check "verify the daemon's proof" 0 "$P" verify --vk w.vk --proof w.proof --public w.public.json
# From the verifier's inputs alone (randomness, sector ids, comm_r of the request; no vanilla proofs).
python3 - <<'PY'
import json
r = json.load(open('w.request.json'))
r['sectors'][2]['comm_r'] = r['sectors'][1]['comm_r']
json.dump(r, open('other_comm_r_2.json', 'w'))
PY
check "verify --post partition 1" 0 "$P" verify --vk w.vk --post w.request.json --proof w.proof --partition 1
expect_in "partition 1 valid" out.txt '^partition 1: valid'
check "verify --post --partition 2 (the request has 0..1)" 2 "$P" verify --vk w.vk --post w.request.json --proof w.proof \
  --partition 2
expect_in "names the partitions" err.txt '--partition 2: the request.s 3 sectors at 2 per partition make partitions 0..1'
# A verifying key given as --params: named by its size, pointing to --vk (it was read as a .params head).
check "verify --post --params w.vk" 2 "$P" verify --params w.vk --post w.request.json --proof w.proof --partition 1
expect_in "points to --vk" err.txt "--params 'w.vk' is a verifying-key \(.vk\) file \([0-9]+ bytes: the key alone\), not a .params file; give it as --vk"
check "verify --params w.vk" 2 "$P" verify --params w.vk --proof w.proof --public w.public.json
expect_in "points to --vk" err.txt "is a verifying-key \(.vk\) file"
check "verify --post as partition 0" 1 "$P" verify --vk w.vk --post w.request.json --proof w.proof --partition 0
check "verify --post, another randomness" 1 "$P" verify --params w.params --post other_randomness.json --proof w.proof \
  --partition 1
check "verify --post, sector 2 with another sector's comm_r" 1 "$P" verify --vk w.vk --post other_comm_r_2.json \
  --proof w.proof --partition 1 --json
expect_in "json invalid" out.txt '"valid": false'
check "verify --post with --public refused" 2 "$P" verify --vk w.vk --post w.request.json --proof w.proof \
  --public w.public.json
check "verify --partition without --post refused" 2 "$P" verify --vk w.vk --public w.public.json --proof w.proof \
  --partition 1
cat w.proof w.proof w.proof > three.proof
check "verify --post, 3 proofs for a request of 2 partitions" 3 "$P" verify --vk w.vk --post w.request.json \
  --proof three.proof
expect_in "names the partitions" err.txt "3 sectors at 2 per partition make 2 partition"
check "submit a tampered vanilla proof" 3 "$P" submit "${A[@]}" --kind window-post --request w.request.json \
  --vanilla bad_sibling.json --params w.params --partition 0
expect_in "the daemon names the constraint" out.txt 'unsatisfied: sector 1 challenge 4'
check "submit with another randomness" 3 "$P" submit "${A[@]}" --kind window-post --request other_randomness.json \
  --vanilla w.vanilla.json --params w.params
expect_in "inputs differ from the verifier's" out.txt 'differ from those a verifier derives'
read -r flipped kept <bad_vanilla_comm_r.json.hex
check "submit a vanilla proof of another comm_r" 3 "$P" submit "${A[@]}" --kind window-post --request w.request.json \
  --vanilla bad_vanilla_comm_r.json --params w.params --partition 0
expect_in "  the daemon refuses it, naming both values" err.txt "vanilla_proofs\[1\] carries comm_r $flipped, the request has comm_r $kept"
stop_daemon

# ---- submit --local: the same request proved in this process, no daemon ------------------------------
check "submit --local window-post partition 0" 0 "$P" submit --local --kind window-post --request w.request.json \
  --vanilla w.vanilla.json --params w.params --partition 0 --proof wl.proof
expect_in "local: completed" out.txt 'status      COMPLETED'
expect_in "local: default priority" out.txt '\(kind window-post, priority high\)'
check "verify --post the local proof" 0 "$P" verify --vk w.vk --post w.request.json --proof wl.proof --partition 0
check "submit --local, tampered vanilla proof" 3 "$P" submit --local --kind window-post --request w.request.json \
  --vanilla bad_sibling.json --params w.params --partition 0 --proof never.proof
expect_in "local: names the constraint" err.txt 'unsatisfied: sector 1 challenge 4'
[ ! -e never.proof ] || { echo "FAIL: a failed local submit wrote --proof"; fails=$((fails + 1)); }
check "submit --local, a vanilla proof of another comm_r" 3 "$P" submit --local --kind window-post --request w.request.json \
  --vanilla bad_vanilla_comm_r.json --params w.params --partition 0 --proof never.proof
expect_in "local: both values named" err.txt "vanilla_proofs\[1\] carries comm_r $flipped, the request has comm_r $kept"
[ ! -e never.proof ] || { echo "FAIL: a refused local submit wrote --proof"; fails=$((fails + 1)); }
check "submit --local without a required argument" 2 "$P" submit --local --kind window-post --request w.request.json \
  --params w.params
check "submit --local --no-wait refused" 2 "$P" submit --local --no-wait --kind window-post --request w.request.json \
  --vanilla w.vanilla.json --params w.params
check "submit --local --backend nope" 2 "$P" submit --local --backend nope --kind window-post --request w.request.json \
  --vanilla w.vanilla.json --params w.params
check "submit --local --partition 2 (the request has 0..1)" 2 "$P" submit --local --kind window-post \
  --request w.request.json --vanilla w.vanilla.json --params w.params --partition 2 --proof never.proof
expect_in "local: names the partitions" err.txt "argument 'partition' = 2: the request's 3 sectors at 2 per partition make partitions 0..1"
check "submit --local --request-id of 200 characters" 2 "$P" submit --local --request-id "$(printf 'x%.0s' $(seq 200))" \
  --kind window-post --request w.request.json --vanilla w.vanilla.json --params w.params
expect_in "names the length" err.txt '--request-id: request_id: 200 bytes, at most 128 allowed'
check "submit --local, 4 vanilla proofs for 3 sectors" 3 "$P" submit --local --kind window-post --request w.request.json \
  --vanilla four.json --params w.params --partition 0 --proof never.proof
expect_in "local: counts named" err.txt "4 vanilla proofs for the request's 3 sectors: at most one per sector"

echo "post_cli: $fails failure(s)"
exit $((fails > 0))
