#!/usr/bin/env bash
# `proofline prove --partitions N --memory-budget B` streams the partitions through the in-process
# engine: its peak RSS stays within the budget plus a constant, however many partitions there are
# (issue 15, item 1; c2 takes the same engine path and options).
#   C = peak RSS of one partition (binary, TBB, parameters, one partition's buffers, the backend's
#       scratch), measured here with /usr/bin/time;
#   B = --memory-budget, two partitions' buffers;
#   assert peak(N = 32 partitions, budget B) <= 1.15 * (C + B)     (the stated constant is C, +15 %)
# and, to show the check can fail, peak(N = 32, default budget: 3/4 of RAM) is printed next to it:
# the engine then synthesizes ahead of the prover and holds most partitions at once (as c2 and
# prove did before they went through the engine).
# Usage: memory_cli.sh <proofline executable>
set -uo pipefail
P=$1
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
T=/usr/bin/time
[[ -x $T ]] || { echo "FAIL: /usr/bin/time not found (apt-get install time)"; exit 1; }

check "setup bench 2^14" 0 "$P" setup --circuit bench --size 2^14 --params b.params --seed 5
peak_kb() { # peak RSS (KiB) of proofline prove with the given extra flags
  "$T" -f %M -o rss.txt "$P" prove --circuit bench --size 2^14 --params b.params --proof "$1" --threads 2 "${@:2}" \
    >/dev/null 2>err.txt || { echo "FAIL: prove $*: $(cat err.txt)"; fails=$((fails + 1)); echo 0; return; }
  tail -1 rss.txt
}
# One partition's buffer estimate (the engine's: a, b, c padded to 2^14 rows, assignments, densities),
# read from its refusal of a 1-byte budget.
"$P" prove --circuit bench --size 2^14 --params b.params --proof x.bin --memory-budget 1 >/dev/null 2>err.txt
part=$(grep -o 'one partition needs [0-9]* bytes' err.txt | grep -o '[0-9]*')
[[ -n $part ]] || { echo "FAIL: no partition size in: $(cat err.txt)"; exit 1; }
budget=$((2 * part))
c_kb=$(peak_kb one.bin --partitions 1)
(( c_kb > 0 )) || { echo "FAIL: no peak RSS for one partition"; exit 1; }
n_kb=$(peak_kb many.bin --partitions 32 --memory-budget "$budget")
u_kb=$(peak_kb free.bin --partitions 32)
[[ $(stat -c %s many.bin) -eq $((32 * 192)) ]] && echo "ok: 32 proofs written under the budget" || { echo "FAIL: many.bin size"; fails=$((fails + 1)); }
limit_kb=$(( (c_kb + budget / 1024) * 115 / 100 ))
echo "partition buffers $((part / 1024)) KiB; budget $((budget / 1024)) KiB; C (1 partition) ${c_kb} KiB"
echo "peak RSS: 32 partitions under the budget ${n_kb} KiB (limit ${limit_kb} KiB = 1.15 x (C + B)); with the default budget ${u_kb} KiB"
if (( n_kb > 0 && n_kb <= limit_kb )); then
  echo "ok: peak RSS within budget + C (ratio $(awk "BEGIN{printf \"%.3f\", $n_kb / ($c_kb + $budget / 1024)}"))"
else
  echo "FAIL: peak RSS ${n_kb} KiB over ${limit_kb} KiB"; fails=$((fails + 1))
fi
echo "failures: $fails"
[[ $fails -eq 0 ]]
