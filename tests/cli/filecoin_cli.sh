#!/usr/bin/env bash
# proofline gen-c1 | seal | check-c1 end to end (fast: 2 KiB sectors and a 32 GiB gen-c1): exit codes,
# the zero-sector comm_d of the sealer (reference §5), check-c1 naming the failing challenge, a
# flipped comm_r and the JSON path of malformed input.
#   filecoin_cli.sh <proofline binary>
set -u
P=$1
source "$(dirname "$0")/check_lib.sh"

check "gen-c1 2KiB" 0 "$P" gen-c1 --sector-size 2KiB --seed 1 --out g.json
check "check-c1 gen-c1" 0 "$P" check-c1 --c1 g.json
expect_in "check-c1 says valid" out.txt '^valid'
check "seal 2KiB zero" 0 "$P" seal --sector-size 2KiB --zero --json --out z.json
expect_in "zero comm_d" out.txt '"comm_d": "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"'
check "check-c1 seal" 0 "$P" check-c1 --c1 z.json
check "seal NI 2KiB" 0 "$P" seal --proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep --seed 2 --out ni.json
check "check-c1 NI" 0 "$P" check-c1 --c1 ni.json
check "gen-c1 32GiB" 0 "$P" gen-c1 --sector-size 32GiB --seed 3 --out g32.json
check "check-c1 32GiB" 0 "$P" check-c1 --c1 g32.json --json
expect_in "32GiB valid" out.txt '"valid": true'

# a flipped label byte: exit 1, the challenge named
python3 - <<'PY'
import json
j = json.load(open('g.json'))
j['vanilla_proofs']['StackedDrg2KiBV1'][0][1]['labeling_proofs'][1]['parents'][0][0] ^= 1
json.dump(j, open('bad_label.json', 'w'))
j = json.load(open('g.json'))
j['vanilla_proofs']['StackedDrg2KiBV1'][0][0]['comm_r_last_proof']['data']['Single']['leaf'][31] = 255
json.dump(j, open('bad_fr.json', 'w'))
j = json.load(open('g.json'))
j['comm_r'][3] ^= 1
json.dump(j, open('bad_comm_r.json', 'w'))
PY
check "check-c1 flipped label" 1 "$P" check-c1 --c1 bad_label.json --json
expect_in "names the challenge" out.txt '"challenge": 1'
expect_in "names the part" out.txt 'labeling_proofs\[1\]\.parents\[0\]'
# issue 33: the C1's comm_r (the one the circuit takes) flipped inside an otherwise valid C1
check "check-c1 flipped comm_r" 1 "$P" check-c1 --c1 bad_comm_r.json
expect_in "names the comm_r equation" out.txt '^INVALID: comm_r ≠ Poseidon\(comm_c, comm_r_last\)'
check "check-c1 value >= r" 3 "$P" check-c1 --c1 bad_fr.json
expect_in "JSON path of the bad value" err.txt 'vanilla_proofs\.StackedDrg2KiBV1\[0\]\[0\]\.comm_r_last_proof\.data\.Single\.leaf: value >= r'
check "gen-c1 NI refused" 2 "$P" gen-c1 --proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep --out x.json
check "gen-c1 bad size" 2 "$P" gen-c1 --sector-size 3KiB --out x.json
check "seal too large" 2 "$P" seal --sector-size 32GiB --out x.json
check "check-c1 missing file" 2 "$P" check-c1 --c1 nope.json

echo "filecoin_cli: $fails failure(s)"
exit $((fails > 0))
