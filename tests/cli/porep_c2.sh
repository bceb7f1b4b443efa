#!/usr/bin/env bash
# PoRep commit phase 2 end to end with `proofline` (issue 8), 2 KiB, twice — a gen-c1 sector and a
# real small seal (the latter with c2 --compiled, issue 31): setup (development parameters, cached in the build folder by
# scripts/porep_params.sh) → c2 (proof verified before it is written) → verify --c1 (inputs derived
# from the C1 and the graph) → the outside verifier (noble_verify.mjs) on the snarkjs JSON export.
# Then the failures: a C1 with one flipped label byte makes c2 name the challenge and write no proof
# (exit 3); a tampered proof or another sector's C1 does not verify (exit 1).
#
# Usage: porep_c2.sh <proofline> <oracle dir (.oracle)> <parameter cache dir>
set -uo pipefail
P=$1
ORACLE=$2
CACHE=$3
NODE=${NODE:-node}
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

params=$(bash "$top/scripts/porep_params.sh" "$P" "$CACHE" 2KiB) || { echo "FAIL: porep setup"; exit 1; }
vk=${params%.params}.vk
case $(basename "$params") in
  v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params)
    echo "ok: parameters carry the upstream 2 KiB file name" ;;
  *) echo "FAIL: unexpected parameter file name $(basename "$params")"; fails=$((fails + 1)) ;;
esac
export FIL_PROOFS_PARAMETER_CACHE=$(dirname "$params")

for kind in gen seal; do
  if [[ $kind == gen ]]; then
    check "gen-c1 2KiB" 0 "$P" gen-c1 --sector-size 2KiB --seed 5 --out $kind.json
  else
    check "seal 2KiB" 0 "$P" seal --sector-size 2KiB --seed 6 --out $kind.json
  fi
  # parameters found in FIL_PROOFS_PARAMETER_CACHE by their upstream name (no --params); the sealed
  # sector's proof in the compiled form (the default: witness-only synthesis, a, b, c evaluated by the
  # prover from the compiled circuit, recorded on first use and written beside the parameters), the
  # generated C1's in prover mode (--prover-mode: a, b, c built during synthesis)
  compiled=(--prover-mode)
  [[ $kind == seal ]] && compiled=()
  check "c2 $kind ${compiled[*]}" 0 "$P" c2 --c1 $kind.json --out $kind.proof --snarkjs-dir sj-$kind --json "${compiled[@]}"
  cp out.txt c2-$kind.out; cp err.txt c2-$kind.err  # its --json and progress, read again below
  expect_in "c2 $kind verified" out.txt '"verified": true'
  expect_in "c2 $kind progress on stderr" err.txt 'c2: proving 1 partition'
  [[ $(stat -c %s $kind.proof) -eq 192 ]] && echo "ok: $kind proof is 192 bytes" || { echo "FAIL: $kind proof size"; fails=$((fails + 1)); }
  check "verify --c1 $kind" 0 "$P" verify --vk "$vk" --c1 $kind.json --proof $kind.proof
  check "noble verifies the $kind proof" 0 "$NODE" "$ORACLE/noble_verify.mjs" sj-$kind/verification_key.json \
    sj-$kind/public.json sj-$kind/proof.json
done
if [[ -s "$params.compiled" ]]; then echo "ok: c2 (compiled form) wrote the compiled circuit beside the parameters"
else echo "FAIL: no $params.compiled after c2 in the compiled form"; fails=$((fails + 1)); fi
# Issue 20: the Commit2In envelope that Curio sends and lotus-bench writes as c1.json
# ({"SectorNum","Phase1Out":<base64 of the C1 JSON>,"SectorSize"}), made here with coreutils' base64:
# c2 and verify --c1 take it as they take the bare C1; the proof is the same sector's. (c2 proves it
# below as the second sector of "two sectors in one engine": each 2 KiB proof costs a minute on two
# cores, and the sealed sector's needs making only once more.)
printf '{"SectorNum":5,"Phase1Out":"%s","SectorSize":2048}' "$(base64 -w0 seal.json)" > envelope.json
printf '{"SectorNum":5,"Phase1Out":"%s","SectorSize":34359738368}' "$(base64 -w0 seal.json)" > env32.json
check "c2 of an envelope whose SectorSize disagrees" 3 "$P" c2 --c1 env32.json --out env32.proof
expect_in "  the disagreement is named" err.txt "SectorSize: 34359738368 bytes, but Phase1Out's registered_proof is a 2048-byte sector"

check "gen proof against the sealed sector's C1" 1 "$P" verify --vk "$vk" --c1 seal.json --proof gen.proof
# c2 --json carries the engine's per-proof and per-partition timers (issue 17 item 3): the output of
# "c2 gen" above (--json, stderr not a terminal).
echo "c2 --json timers (of c2 gen):"
expect_in "  per-partition timings" c2-gen.out '"partition_timings_ms": \['
expect_in "  prover call of partition 0" c2-gen.out '"prover_call": [0-9.e+-]+'
expect_in "  the derived memory budget is said" c2-gen.err '^c2: memory budget MemAvailable [0-9.]+ [GM]iB .* = [0-9.]+ [GM]iB'
expect_in "  progress per event (stderr not a terminal)" c2-gen.err '^c2: 1/1 partition\(s\) proved, 1 synthesized; [0-9.]+ s/partition'

# Several sectors through one engine (bench/porep.sh's sustained mode): the parameters loaded once,
# the first sector alone, then the rest at once; each proof written and valid on its own. The second
# sector is the sealed one as a Commit2In envelope (c2 of an envelope, issue 20, above).
check "c2 several --c1 unpaired" 2 "$P" c2 --c1 gen.json --c1 seal.json --out a.proof
expect_in "  pairs are named" err.txt 'come in pairs: got 2 --c1 and 1 --out'
check "c2 --first-alone with one --c1" 2 "$P" c2 --c1 gen.json --out a.proof --first-alone
check "c2 two sectors in one engine, the second a Commit2In envelope" 0 "$P" c2 --c1 gen.json --out many-gen.proof \
  --c1 envelope.json --out envelope.proof --first-alone --json
expect_in "  two sectors" out.txt '"sectors": 2,'
expect_in "  single-proof latency" out.txt '"single_latency_s": [0-9.e+-]+,'
expect_in "  sustained seconds per proof" out.txt '"sustained_seconds_per_proof": [0-9.e+-]+,'
expect_in "  backend busy fraction" out.txt '"gpu_busy_fraction": [0-9.e+-]+,'
# Per backend (device): its share of the sustained partitions and its busy fraction (issue 22's
# table); one CPU backend here, so it proved the one sustained partition and its fraction is the total.
if "$NODE" -e '
  const j = JSON.parse(require("fs").readFileSync("out.txt"));
  const ok = j.backends === 1 && JSON.stringify(j.partitions_per_backend) === "[1]" &&
    j.busy_fraction_per_backend.length === 1 && j.busy_fraction_per_backend[0] > 0 &&
    j.busy_fraction_per_backend[0] <= 1 && Math.abs(j.busy_fraction_per_backend[0] - j.gpu_busy_fraction) < 1e-9;
  if (!ok) { console.error(JSON.stringify([j.backends, j.partitions_per_backend, j.busy_fraction_per_backend, j.gpu_busy_fraction])); process.exit(1); }'; then
  echo "ok: per-backend partitions [1] and busy fraction = the total"
else
  echo "FAIL: per-backend partitions / busy fraction"; fails=$((fails + 1))
fi
expect_in "  the sustained sector" out.txt '"phase": "sustained"'
check "verify --c1 many-gen" 0 "$P" verify --vk "$vk" --c1 gen.json --proof many-gen.proof
check "verify --c1 envelope (envelope proof)" 0 "$P" verify --vk "$vk" --c1 envelope.json --proof envelope.proof
check "verify --c1 bare C1 (envelope proof)" 0 "$P" verify --vk "$vk" --c1 seal.json --proof envelope.proof
check "verify --c1 envelope (bare C1's proof)" 0 "$P" verify --vk "$vk" --c1 envelope.json --proof seal.proof

# The same C1 with another seed: the verifier derives the challenges from the seed, so the proof
# (made for the C1's challenges) must not verify; c2 refuses such a C1 and writes no proof.
"$NODE" -e '
  const fs = require("fs");
  const c1 = JSON.parse(fs.readFileSync("gen.json"));
  c1.seed = c1.seed.map((b, i) => (b + 17 * (i + 1)) & 255);
  fs.writeFileSync("reseeded.json", JSON.stringify(c1));'
check "gen proof against its C1 with another seed" 1 "$P" verify --vk "$vk" --c1 reseeded.json --proof gen.proof
check "c2 of a C1 whose challenges do not follow its seed" 3 "$P" c2 --c1 reseeded.json --out reseeded.proof
[[ ! -e reseeded.proof ]] && echo "ok: no proof written for the reseeded C1" || { echo "FAIL: a proof was written for the reseeded C1"; fails=$((fails + 1)); }

# One flipped byte of a DRG parent's label in challenge 1: c2 names it and writes no proof.
"$NODE" -e '
  const fs = require("fs");
  const c1 = JSON.parse(fs.readFileSync("gen.json"));
  const key = Object.keys(c1.vanilla_proofs)[0];
  c1.vanilla_proofs[key][0][1].replica_column_proofs.drg_parents[2].column.rows[1][0] ^= 1;
  fs.writeFileSync("bad.json", JSON.stringify(c1));'
check "c2 with a flipped label byte" 3 "$P" c2 --c1 bad.json --out bad.proof
expect_in "the failing challenge is named" err.txt 'partition 0, constraint [0-9]+ unsatisfied: challenge 1 \(node [0-9]+\): DRG parent 2'
[[ ! -e bad.proof ]] && echo "ok: no proof written" || { echo "FAIL: a proof was written"; fails=$((fails + 1)); }

# A tampered proof: flip one bit of C.
cp gen.proof t.proof
xor=$(( $(od -An -tu1 -j191 -N1 gen.proof) ^ 1 ))
printf "\\x$(printf %02x $xor)" | dd of=t.proof bs=1 seek=191 conv=notrunc status=none
"$P" verify --vk "$vk" --c1 gen.json --proof t.proof >/dev/null 2>&1; rc=$?
[[ $rc -eq 1 || $rc -eq 3 ]] && echo "ok: tampered proof rejected (exit $rc)" || { echo "FAIL: tampered proof: exit $rc"; fails=$((fails + 1)); }
check "c2 without parameters" 3 env FIL_PROOFS_PARAMETER_CACHE="$W/none" "$P" c2 --c1 gen.json --out x.proof
expect_in "missing parameters are named" err.txt 'not found'

# Issue 21: parameters of another circuit (here `mul`'s, as a file of another sector size would be)
# are refused before any synthesis, naming the sector size.
check "setup mul" 0 "$P" setup --circuit mul --params mul.params --vk mul.vk --seed 3
check "c2 with another circuit's parameters" 3 "$P" c2 --c1 gen.json --params mul.params --out m.proof
expect_in "  the sector size is named" err.txt "is not for a 2KiB PoRep sector: it has 2 public inputs \\(incl. ONE\\)"
if grep -q "synthesizing" err.txt; then echo "FAIL: synthesis ran before the check"; fails=$((fails + 1)); else echo "ok: refused before synthesis"; fi

echo "porep_c2: $fails failure(s)"
[[ $fails -eq 0 ]]
