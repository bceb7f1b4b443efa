#!/usr/bin/env bash
# proofline gen-vanilla snap | check-vanilla | setup --circuit snap | submit --kind snap-update | verify
# --snap end to end on 1 KiB sectors (the smallest SnapDeals shape: 1 partition × 10 challenges,
# 1,248,389 constraints).
#   snap_cli.sh <proofline binary> fast    exit codes; check-vanilla valid, and naming a flipped tree D
#                                          sibling byte, a wrong comm_r_old and a challenge answered
#                                          with another node's proofs (vanilla check, constraint part
#                                          and test-mode path); malformed inputs; 32 GiB gen-vanilla.
#   snap_cli.sh <proofline binary> prove   setup (~1 min) → daemon → submit → verify --snap with
#                                          the verifier's inputs; another comm_r_new refused; a tampered
#                                          vanilla proof named by the daemon; submit --local → verify.
set -u
P=$1
MODE=${2:-fast}
source "$(dirname "$0")/check_lib.sh"

check "gen-vanilla snap 1KiB" 0 "$P" gen-vanilla snap --sector-size 1KiB --seed 1 --out s
expect_in "one partition, h 1" out.txt '^snap        1KiB, h 1, 1 partitions'
expect_in "request written" s.request.json '"comm_r_new": "[0-9a-f]{64}"'

# Tampered copies (1 KiB bincode layout: 304 bytes before the challenge proofs, 1,188 bytes per
# challenge: proof_r_old 436, proof_d_new 316, proof_r_new 436; proof_d_new's path level l starts
# 76 + 48·l into it, its one sibling 8 bytes later).
python3 - <<'PY'
import base64, json
v = json.load(open('s.vanilla.json'))
b = bytearray(base64.b64decode(v[0]))
assert len(b) == 12184, len(b)
def challenge(i): return 304 + 1188 * i
b[challenge(3) + 436 + 76 + 48 * 1 + 8] ^= 1        # challenge 3, tree D level 1 sibling
json.dump([base64.b64encode(bytes(b)).decode()], open('bad_sibling.json', 'w'))
b = bytearray(base64.b64decode(v[0]))
b[challenge(2):challenge(3)] = bytes(b[challenge(4):challenge(5)])   # challenge 2 answered with 4's node
json.dump([base64.b64encode(bytes(b)).decode()], open('other_node.json', 'w'))
r = json.load(open('s.request.json'))
c = bytearray.fromhex(r['comm_r_old']); c[3] ^= 1; r['comm_r_old'] = c.hex()
json.dump(r, open('bad_comm_r_old.json', 'w'))
r = json.load(open('s.request.json'))
c = bytearray.fromhex(r['comm_r_new']); c[0] ^= 1; r['comm_r_new'] = c.hex()
json.dump(r, open('other_comm_r_new.json', 'w'))
r = json.load(open('s.request.json'))
r['comm_r_new'] = 'ff' * 32
json.dump(r, open('bad_fr.json', 'w'))
PY

if [[ $MODE == fast ]]; then
  check "check-vanilla valid" 0 "$P" check-vanilla --request s.request.json --vanilla s.vanilla.json
  expect_in "partition valid" out.txt '^partition 0: valid'
  check "flipped tree D sibling byte" 1 "$P" check-vanilla --request s.request.json --vanilla bad_sibling.json --json
  expect_in "native check names the challenge" out.txt '"error": "vanilla: partition 0 challenge 3 \(node [0-9]+\): tree D new path does not hash to its root'
  expect_in "constraint part" out.txt '"where": "challenge 3: tree D new inclusion up to the apex leaf"'
  expect_in "test-mode path" out.txt '"constraint_name": "por to_apex_leaf \(c_index=3\)/calculated root == provided root"'
  expect_in "challenge field" out.txt '"challenge": 3'
  check "wrong comm_r_old" 1 "$P" check-vanilla --request bad_comm_r_old.json --vanilla s.vanilla.json
  expect_in "comm_r_old equation" out.txt 'comm_r_old ≠ Poseidon2\(comm_c, root of tree R old\)'
  expect_in "comm_r_old constraint" out.txt 'header: comm_r_old = H\(comm_c, root_r_old\) \(enforce comm_r_old_calc == comm_r_old\)'
  check "challenge answered with another node" 1 "$P" check-vanilla --request s.request.json --vanilla other_node.json
  expect_in "path leads elsewhere" out.txt 'challenge 2 \(node [0-9]+\): tree R old path leads to leaf [0-9]+, challenged leaf [0-9]+'
  expect_in "tree R old constraint" out.txt 'challenge 2: tree R old inclusion \(root_r_old\) \(por tree_r_old \(c_index=2\)/calculated root == provided root\)'
  check "comm_r_new >= r" 3 "$P" check-vanilla --request bad_fr.json --vanilla s.vanilla.json
  expect_in "names the field" err.txt 'Snap request: comm_r_new: value >= r'
  check "gen-vanilla snap 2KiB" 0 "$P" gen-vanilla snap --sector-size 2KiB --out two
  check "vanilla of another size" 3 "$P" check-vanilla --request s.request.json --vanilla two.vanilla.json
  expect_in "names both sizes" err.txt 'vanilla_proofs\[0\]: these vanilla proofs are for 2KiB sectors, the request is for 1KiB sectors'
  # A flag value out of the request's range is a usage error (2), not bad input.
  check "--partition 1 of a 1 KiB sector" 2 "$P" check-vanilla --request s.request.json --vanilla s.vanilla.json --partition 1
  expect_in "names the partitions" err.txt '--partition 1: a 1KiB SnapDeals sector has partitions 0..0'
  # A file larger than what it may hold is refused from its size, before it is read (a sparse 64 GiB
  # file: reading it would take minutes and 64 GB).
  truncate -s 64G huge.json
  check "a 64 GiB --vanilla refused unread" 3 timeout 20 "$P" check-vanilla --request s.request.json --vanilla huge.json
  expect_in "size and limit named" err.txt "--vanilla 'huge.json': 68719476736 bytes, at most 67108864 \(the limit of Snap vanilla proofs\)"
  check "a 64 GiB --vanilla to submit --local refused unread" 3 timeout 20 "$P" submit --local --kind snap-update \
    --request s.request.json --vanilla huge.json --params s.request.json --proof x.proof
  expect_in "size and the kind's limit named" err.txt "--vanilla 'huge.json': 68719476736 bytes, at most 67108864 \(the limit of kind snap-update's vanilla\)"
  rm -f huge.json
  # Extra vanilla proofs in the request form are refused with the counts (as the cuzk.v1 form does).
  python3 -c "
import json; v = json.load(open('s.vanilla.json')); json.dump(v + v, open('two_proofs.json', 'w'))"
  check "two vanilla proofs for a 1-partition sector" 3 "$P" check-vanilla --request s.request.json --vanilla two_proofs.json
  expect_in "counts named" err.txt '2 vanilla partition proofs, a 1KiB sector has 1 partitions'
  check "gen-vanilla snap 32GiB" 0 "$P" gen-vanilla snap --sector-size 32GiB --out big --json
  expect_in "32 GiB: 16 partitions, h 10" out.txt '"partitions": 16'
  expect_in "32 GiB h" out.txt '"h": 10'
  check "h not allowed" 2 "$P" gen-vanilla snap --sector-size 1KiB --h 10 --out x
  check "--sectors is PoSt's" 2 "$P" gen-vanilla snap --sector-size 1KiB --sectors 2 --out x
  check "--h is snap's" 2 "$P" gen-vanilla window-post --sector-size 2KiB --h 1 --out x
  check "3 KiB" 2 "$P" gen-vanilla snap --sector-size 3KiB --out x
  check "setup --circuit snap 3 KiB (a flag value: usage, as gen-vanilla)" 2 "$P" setup --circuit snap --sector-size 3KiB \
    --params x.params
  expect_in "names the size" err.txt 'sector size'
  check "setup --circuit porep 3 KiB" 2 "$P" setup --circuit porep --sector-size 3KiB --params x.params
  check "setup --circuit window-post 3 KiB" 2 "$P" setup --circuit window-post --sector-size 3KiB --params x.params
  check "verify --snap with --public" 2 "$P" verify --vk s.request.json --snap s.request.json --public s.request.json \
    --proof s.request.json
  check "gen-vanilla window-post 2KiB" 0 "$P" gen-vanilla window-post --sector-size 2KiB --out w
  check "verify --snap of a PoSt request" 2 "$P" verify --vk s.request.json --snap w.request.json --proof s.request.json
  expect_in "names what it takes" err.txt 'verify --snap takes a SnapDeals request'
  echo "snap_cli fast: $fails failure(s)"
  exit $((fails > 0))
fi

# ---- setup → daemon → submit → verify (1 KiB) -------------------------------------------------------
check "setup snap 1KiB" 0 "$P" setup --circuit snap --sector-size 1KiB --params s.params --seed 1 --json
expect_in "setup counts" out.txt '"constraints": 1248389'
expect_in "setup identifier" out.txt '"identifier": "empty_sector_update::PublicParams\{ sector_nodes: 32 \}"'
start_daemon "$P"
check "submit snap-update" 0 "$P" submit "${A[@]}" --kind snap-update --request s.request.json \
  --vanilla s.vanilla.json --params s.params --proof s.proof --public s.public.json
expect_in "completed" out.txt 'status      COMPLETED'
expect_in "one partition of 192 bytes" out.txt '1 partition\(s\) × 192 bytes, verified by the engine'
check "verify with the request's inputs" 0 "$P" verify --vk s.vk --snap s.request.json --proof s.proof
expect_in "valid" out.txt '^partition 0: valid'
check "verify against another comm_r_new" 1 "$P" verify --vk s.vk --snap other_comm_r_new.json --proof s.proof
expect_in "invalid" out.txt '^partition 0: INVALID'
check "verify the daemon's public.json" 0 "$P" verify --vk s.vk --proof s.proof --public s.public.json
check "submit a tampered vanilla proof" 3 "$P" submit "${A[@]}" --kind snap-update --request s.request.json \
  --vanilla bad_sibling.json --params s.params
expect_in "the daemon names the constraint" out.txt 'unsatisfied: challenge 3: tree D new inclusion up to the apex leaf'
stop_daemon
check "submit --local snap-update" 0 "$P" submit --local --backend cpu --kind snap-update --request s.request.json \
  --vanilla s.vanilla.json --params s.params --proof l.proof
check "verify the local proof" 0 "$P" verify --params s.params --snap s.request.json --proof l.proof

echo "snap_cli prove: $fails failure(s)"
exit $((fails > 0))
