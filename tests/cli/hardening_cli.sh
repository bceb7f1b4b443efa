#!/usr/bin/env bash
# The fresh-user tester's CLI findings (issue 9), each as a check on the `proofline` command:
#   - `prove --zkey` refuses the built-in circuits' flags (--params, --snarkjs-dir, --partitions, …)
#     instead of ignoring them, and the snarkjs-only flags need --zkey; --help says so;
#   - a witness that does not satisfy the circuit exits 3 (bad input), not 4, and writes nothing;
#   - --threads outside 0 … 4096 is a usage error (2) on every command;
#   - setup / prove / c2 refuse an output path that cannot be written before doing the work (2),
#     and never leave a partial file under the output name;
#   - error messages carry the right label ("malformed input" for a file that is not JSON, not
#     "bad length");
#   - a proof file of the wrong size is refused from its size, without reading it (a 6 GB sparse
#     file under a 2.5 GB address-space limit);
#   - `daemon` on an address it cannot use exits 2 with the reason.
# prove --zkey takes the engine's options (--backend, --memory-budget, --device-memory-limit, --threads),
# refuses --no-verify (2) and a limit that is not a size (2).
# And the next tester's: c2 --backend cuda without CUDA refused first (2); verify --c1 refuses
# --public (2); c2's missing parameter file labelled as such (3); --rs non-decimal (2); an unknown
# command named (2); setup/prove --help name porep and proof_k.json; submit's --sector-id needs
# --prover-id and is decimal (2).
# And issue 21's: an output that is an input or another output (same path, symlink, hard link;
# prove, c2, setup, submit) is refused (2) with the input unchanged; integer options are strictly
# decimal and in range (-1, 2^64, 18446744073709551616 refused, never wrapped), their --help states
# the range; --rs "" refused; a zkey given as --params named; --json failures print a JSON error
# object; the daemon's loopback rule looks at the resolved address (127.foo.invalid refused).
# The snarkjs files are the fuzz seeds of the toy circom circuit (fuzz/corpus/{zkey,wtns,r1cs,snarkjs_vk}/toy,
# written by fuzz/seeds.cpp from tests/snarkjs/toy_setup.hpp).
#
# Usage: hardening_cli.sh <proofline executable> <repository root>
set -uo pipefail
P=$1
ROOT=$2
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

no_file() {  # no_file <name> <path>…: none of the paths exists
  local name=$1; shift
  for f in "$@"; do
    if [[ -e $f ]]; then echo "FAIL: $name: '$f' was written"; fails=$((fails + 1)); return; fi
  done
  echo "ok: $name"
}
no_partial() {  # no temporary output file left behind in the scratch folder
  if compgen -G "$W/*.partial-*" >/dev/null || compgen -G "$W/*/*.partial-*" >/dev/null; then
    echo "FAIL: $1: temporary files left: $(ls "$W"/*.partial-* "$W"/*/*.partial-* 2>/dev/null)"; fails=$((fails + 1))
  else
    echo "ok: $1"
  fi
}

cp "$ROOT/fuzz/corpus/zkey/toy" toy.zkey
cp "$ROOT/fuzz/corpus/wtns/toy" toy.wtns
cp "$ROOT/fuzz/corpus/r1cs/toy" toy.r1cs
cp "$ROOT/fuzz/corpus/snarkjs_vk/toy" toy_vk.json
check "setup mul" 0 "$P" setup --circuit mul --params m.params --vk m.vk --seed 1
check "prove mul" 0 "$P" prove --circuit mul --params m.params --proof m.proof --public m.json
no_partial "no temporary files after setup and prove"

# --- prove --zkey: the two forms' flags exclude each other ---
check "snarkjs prove" 0 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof p.json --public pub.json
check "snarkjs proof verifies" 0 "$P" verify --vk toy_vk.json --proof p.json --public pub.json
for extra in "--params m.params" "--snarkjs-dir sjd" "--partitions 2" "--circuit bench" "--size 2^6" "--input 3" "--checked"; do
  # shellcheck disable=SC2086
  check "prove --zkey with $extra" 2 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof x.json --public x.pub.json $extra
  expect_in "  the conflict is named ($extra)" err.txt "excludes"
done
no_file "nothing written for conflicting flags" x.json x.pub.json sjd
check "--wtns without --zkey" 2 "$P" prove --circuit mul --params m.params --proof y.proof --wtns toy.wtns
expect_in "  --wtns needs --zkey" err.txt "requires --zkey|--wtns.*--zkey"
check "--check without --zkey" 2 "$P" prove --circuit mul --params m.params --proof y.proof --check
no_file "nothing written for --wtns / --check without --zkey" y.proof
check "--zkey without --public" 2 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof x.json
# --- prove --zkey through the in-process engine (issue 15): its options, progress on stderr, no --no-verify ---
check "snarkjs prove --backend cpu --memory-budget 64MiB --threads 1" 0 "$P" prove --zkey toy.zkey --wtns toy.wtns \
  --proof e.json --public e.pub.json --backend cpu --memory-budget 64MiB --threads 1
expect_in "  progress on stderr" err.txt "^prove: 1/1 partition\(s\) proved and verified"
check "  its proof verifies" 0 "$P" verify --vk toy_vk.json --proof e.json --public e.pub.json
check "snarkjs prove --no-verify" 2 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof nv.json --public nv.pub.json --no-verify
expect_in "  refused: every proof is verified" err.txt "--no-verify: every proof is verified before it is written"
check "snarkjs prove --memory-budget 1KiB" 3 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof mb.json --public mb.pub.json --memory-budget 1KiB
expect_in "  the budget is named" err.txt "memory budget is 1024 bytes"
check "snarkjs prove --device-memory-limit 24GiB --backend cpu (no device: the limit plans nothing)" 0 "$P" prove \
  --zkey toy.zkey --wtns toy.wtns --proof dl.json --public dl.pub.json --backend cpu --device-memory-limit 24GiB
check "  its proof verifies" 0 "$P" verify --vk toy_vk.json --proof dl.json --public dl.pub.json
check "snarkjs prove --device-memory-limit 24XB" 2 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof dx.json --public dx.pub.json --device-memory-limit 24XB
expect_in "  the option and its value are named" err.txt "--device-memory-limit: .*24XB"
no_file "nothing written for --no-verify, a budget too small or a bad limit" nv.json nv.pub.json mb.json mb.pub.json dx.json dx.pub.json
"$P" prove --zkey toy.zkey --wtns toy.wtns --proof cu.json --public cu.pub.json --backend cuda >out.txt 2>err.txt; rc=$?
if grep -q "no usable CUDA device\|no CUDA backend" err.txt; then
  [[ $rc -eq 2 ]] && echo "ok: prove --zkey --backend cuda without CUDA (exit 2)" || { echo "FAIL: prove --zkey --backend cuda without CUDA: exit $rc"; fails=$((fails + 1)); }
  no_file "  nothing written for --backend cuda" cu.json cu.pub.json
else
  [[ $rc -eq 0 ]] && echo "ok: prove --zkey --backend cuda (exit 0)" || { echo "FAIL: prove --zkey --backend cuda: exit $rc"; fails=$((fails + 1)); }
  check "  the CUDA proof verifies" 0 "$P" verify --vk toy_vk.json --proof cu.json --public cu.pub.json
fi
check "prove --help" 0 "$P" prove --help
expect_in "prove --help names the exclusions" out.txt "Excludes:.*--params"
expect_in "prove --help names the two forms" out.txt "exclude each other"

# --- a witness that does not satisfy the circuit: exit 3, nothing written ---
# w[1] (the circuit's output y) changed in its lowest byte: the values start at byte 76 (12-byte
# file header, section 1: 12-byte header + n8, r, nWitness = 40 bytes; section 2's 12-byte header),
# 32 bytes each.
cp toy.wtns bad.wtns
at=$((76 + 32))
byte=$(od -An -tu1 -j$at -N1 bad.wtns | tr -d ' ')
printf "\\x$(printf %02x $((byte ^ 1)))" | dd of=bad.wtns bs=1 seek=$at conv=notrunc status=none
cmp -s toy.wtns bad.wtns && { echo "FAIL: bad.wtns equals toy.wtns"; fails=$((fails + 1)); }
check "unsatisfied witness" 3 "$P" prove --zkey toy.zkey --wtns bad.wtns --proof u.json --public u.pub.json
expect_in "  named as a proof that does not verify" err.txt "proof does not verify.*witness"
no_file "  nothing written for the unsatisfied witness" u.json u.pub.json
check "unsatisfied witness with --check" 3 "$P" prove --zkey toy.zkey --wtns bad.wtns --check --r1cs toy.r1cs --proof u.json --public u.pub.json
expect_in "  the failing constraint is named" err.txt "constraint"
no_partial "no temporary files after the refused proofs"

# --- --threads: 0 … 4096 ---
check "--threads 0" 0 "$P" prove --circuit mul --params m.params --proof t.proof --threads 0
check "--threads 4096" 0 "$P" verify --vk m.vk --proof m.proof --public m.json --threads 4096
check "prove --threads 4097" 2 "$P" prove --circuit mul --params m.params --proof t2.proof --threads 4097
expect_in "  the range is named" err.txt "4096"
for n in 100000 -1 x; do
  check "prove --threads $n" 2 "$P" prove --circuit mul --params m.params --proof t2.proof --threads "$n"
done
check "setup --threads 100000" 2 "$P" setup --circuit mul --params t.params --threads 100000
check "verify --threads 100000" 2 "$P" verify --vk m.vk --proof m.proof --public m.json --threads 100000
check "c2 --threads 100000" 2 "$P" c2 --c1 m.json --out t.bin --threads 100000
check "gen-c1 --threads 100000" 2 "$P" gen-c1 --sector-size 2KiB --out t.c1 --threads 100000
check "check-c1 --threads 100000" 2 "$P" check-c1 --c1 m.json --threads 100000
no_file "nothing written for a bad --threads" t2.proof t.params t.bin t.c1

# --- output paths checked before the work; no partial files ---
check "setup into a missing folder" 2 "$P" setup --circuit bench --size 2^20 --params nodir/b.params
expect_in "  the path and reason are named" err.txt "cannot write 'nodir/b.params'.*No such file"
mkdir adir
check "setup onto a folder" 2 "$P" setup --circuit mul --params adir
expect_in "  a folder is named as such" err.txt "is a directory"
check "setup with an unwritable --vk" 2 "$P" setup --circuit bench --size 2^20 --params ok.params --vk nodir/b.vk
no_file "  nothing written when one output is unwritable" ok.params
check "prove into a missing folder" 2 "$P" prove --circuit mul --params m.params --proof nodir/p.proof
check "snarkjs prove into a missing folder" 2 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof p.json --public nodir/pub.json
check "c2 into a missing folder" 2 "$P" c2 --c1 m.json --out nodir/c2.bin
check "gen-c1 into a missing folder" 2 "$P" gen-c1 --sector-size 2KiB --out nodir/c1.json
check "seal into a missing folder" 2 "$P" seal --sector-size 2KiB --out nodir/c1.json
no_partial "no temporary files after the refused outputs"

# --- error labels name the actual problem ---
echo 'not json' > notjson.json
check "verify: public inputs not JSON" 3 "$P" verify --vk m.vk --proof m.proof --public notjson.json
expect_in "  labelled malformed" err.txt "malformed input: public inputs file 'notjson.json' is not JSON"
grep -q "bad length" err.txt && { echo "FAIL: 'bad length' label on a JSON error"; fails=$((fails + 1)); }
echo '{"pi_a": 1}' > badproof.json
check "snarkjs verify: proof.json without fields" 3 "$P" verify --vk toy_vk.json --proof badproof.json --public pub.json
expect_in "  labelled malformed" err.txt "malformed input"

# --- the proof file's size is checked before it is read ---
truncate -s $((192 * 33554432)) huge.proof   # 6 GB, sparse: 2^25 proofs where the public file has one
(ulimit -v 2500000; "$P" verify --vk m.vk --proof huge.proof --public m.json >out.txt 2>err.txt); rc=$?
[[ $rc -eq 3 ]] && echo "ok: 6 GB proof file refused (exit 3)" || { echo "FAIL: 6 GB proof file: exit $rc"; sed 's/^/  | /' err.txt | tail -3; fails=$((fails + 1)); }
expect_in "  refused by its size" err.txt "6442450944 bytes.*192 × 1 = 192 bytes"
head -c 100 m.proof > short.proof
check "a 100-byte proof file" 3 "$P" verify --vk m.vk --proof short.proof --public m.json
expect_in "  refused by its size" err.txt "is 100 bytes"

# --- this session's tester's findings (issue: CLI findings 3-15) ---
# c2 --backend cuda where there is no CUDA backend or device: refused before the C1 is read (m.json
# is no C1: reading it first would exit 3), naming --backend, not the daemon's engine.backend.
"$P" c2 --c1 m.json --out cuda.bin --backend cuda >out.txt 2>err.txt; rc=$?
if grep -q "no usable CUDA device\|no CUDA backend" err.txt || [[ $rc -eq 2 ]]; then
  [[ $rc -eq 2 ]] && echo "ok: c2 --backend cuda without CUDA (exit 2)" || { echo "FAIL: c2 --backend cuda without CUDA: exit $rc"; fails=$((fails + 1)); }
  expect_in "  names --backend" err.txt "c2: --backend cuda: "
  grep -q "engine.backend" err.txt && { echo "FAIL: the daemon's key named"; fails=$((fails + 1)); }
else
  echo "skip: c2 --backend cuda (a CUDA device is usable here: exit $rc)"
fi
no_file "  nothing written for c2 --backend cuda" cuda.bin
# verify --c1 takes the public inputs from the C1: --public next to it is refused, not ignored.
check "verify --c1 with --public" 2 "$P" verify --vk m.vk --c1 m.json --proof m.proof --public m.json
expect_in "  the conflict is named" err.txt "excludes"
# c2 with a parameter file that is not there: exit 3, labelled as a missing file.
cp "$ROOT/fuzz/corpus/c1/2k" c1.json
check "c2 with missing parameters" 3 "$P" c2 --c1 c1.json --params nope.params --out np.bin
expect_in "  labelled as a missing file" err.txt "parameter file not found: 'nope.params'"
grep -q "unsupported argument" err.txt && { echo "FAIL: 'unsupported argument' label"; fails=$((fails + 1)); }
# --rs takes decimal integers: anything else is a usage error (2), digits >= r stay bad input (3).
for rs in "a,b" "-1,2" "1,0x2" "1,"; do
  check "prove --rs $rs" 2 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof rs.json --public rs.pub.json --rs "$rs"
  expect_in "  not a decimal integer ($rs)" err.txt "not a decimal integer"
done
r=52435875175126190479447740508185965837690552500527637822603658699938581184513
check "prove --rs r,1 (not canonical)" 3 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof rs.json --public rs.pub.json --rs "$r,1"
check "prove --rs 1,2" 0 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof rs.json --public rs.pub.json --rs 1,2
# an unknown command is named
check "unknown command" 2 "$P" bogus
expect_in "  the word is named" err.txt "unknown command 'bogus'.*setup"
# help texts
check "setup --help" 0 "$P" setup --help
expect_in "  setup --help names porep" out.txt "Filecoin PoRep \(--circuit porep --sector-size"
check "prove --help" 0 "$P" prove --help
expect_in "  --snarkjs-dir names the partition files" out.txt "proof_k.json"
check "top-level --help" 0 "$P" --help
expect_in "  the footer names porep" out.txt "porep"

# --- issue 21: an output is never the same file as an input or another output (exit 2, before any
# work, the input unchanged), by path, by symlink or by hard link ---
same_file() {  # same_file <name> <input that must stay unchanged> <command…>
  local name=$1 input=$2; shift 2
  local before; before=$(sha256sum <"$input")
  check "$name" 2 "$@"
  expect_in "  the clash is named ($name)" err.txt "is the input|name the same file"
  if [[ $(sha256sum <"$input") == "$before" ]]; then echo "ok:   $input unchanged"; else
    echo "FAIL: $name: $input was changed"; fails=$((fails + 1)); fi
}
same_file "prove --proof = --zkey" toy.zkey "$P" prove --zkey toy.zkey --wtns toy.wtns --proof toy.zkey --public s.json
expect_in "  both flags and the path" err.txt "^proofline prove: --proof 'toy.zkey' is the input --zkey: writing it would destroy"
same_file "prove --public = --wtns" toy.wtns "$P" prove --zkey toy.zkey --wtns toy.wtns --proof s.json --public toy.wtns
same_file "prove --public = --r1cs" toy.r1cs "$P" prove --zkey toy.zkey --wtns toy.wtns --check --r1cs toy.r1cs --proof s.json --public ./toy.r1cs
same_file "prove --proof = --params" m.params "$P" prove --circuit mul --params m.params --proof m.params
same_file "prove --public = --params (another spelling)" m.params "$P" prove --circuit mul --params m.params --proof s.bin --public "$W/./adir/../m.params"
ln toy.zkey hard.zkey
same_file "prove --proof = a hard link of --zkey" toy.zkey "$P" prove --zkey toy.zkey --wtns toy.wtns --proof hard.zkey --public s.json
expect_in "  the link is named" err.txt "a hard link to 'toy.zkey'"
ln -s toy.wtns soft.wtns
same_file "prove --public = a symlink of --wtns" toy.wtns "$P" prove --zkey toy.zkey --wtns toy.wtns --proof s.json --public soft.wtns
check "prove --public inside --snarkjs-dir" 2 "$P" prove --circuit mul --params m.params --proof s.bin --public sjd2/public.json --snarkjs-dir sjd2
expect_in "  the two outputs are named" err.txt "prove: --snarkjs-dir and --public name the same file 'sjd2/public.json'"
same_file "c2 --out = --c1" c1.json "$P" c2 --c1 c1.json --params m.params --out c1.json
same_file "c2 --public = --params" m.params "$P" c2 --c1 c1.json --params m.params --out s.bin --public m.params
# c2's parameter file from the cache (no --params): its path comes from the C1, checked once the C1 is read.
mkdir -p pcache
FIL_PROOFS_PARAMETER_CACHE="$W/pcache" "$P" c2 --c1 c1.json --out s.bin >out.txt 2>err.txt
cached=$(grep -o "parameter file not found: '[^']*'" err.txt | cut -d"'" -f2)
if [[ $cached == "$W"/pcache/*.params ]]; then
  echo "not parameters" >"$cached"
  same_file "c2 --out = the cache's parameter file" "$cached" env FIL_PROOFS_PARAMETER_CACHE="$W/pcache" "$P" c2 --c1 c1.json --out "$cached"
  expect_in "  the cache file is named" err.txt "is the input parameter file \(from the cache\)"
else
  echo "FAIL: c2 without the cached parameter file did not name it: $(cat err.txt)"; fails=$((fails + 1))
fi
cp m.params x.params
same_file "setup --vk = --params" x.params "$P" setup --circuit mul --params x.params --vk x.params
echo keep >p.vk
same_file "setup porep --params P.vk (the default --vk is P.vk)" p.vk "$P" setup --circuit porep --sector-size 2KiB --params p.vk
expect_in "  the default is named" err.txt "setup: --vk \(default: --params with .vk\) and --params name the same file 'p.vk'"
same_file "submit --proof = --wtns (checked before connecting)" toy.wtns "$P" submit --address "unix:$W/none.sock" --kind snarkjs --zkey "$W/toy.zkey" --wtns toy.wtns --proof toy.wtns --public s.json
same_file "submit --public = --zkey (absolute)" toy.zkey "$P" submit --address "unix:$W/none.sock" --kind snarkjs --zkey "$W/toy.zkey" --wtns toy.wtns --proof s.json --public hard.zkey
same_file "submit --proof = --c1" c1.json "$P" submit --address "unix:$W/none.sock" --kind porep-c2 --c1 c1.json --proof c1.json
no_file "nothing written for a refused same-file output" s.json s.bin sjd2
no_partial "no temporary files after the same-file refusals"

# --- issue 21: integer options are decimal, in range, never wrapped or saturated (exit 2) ---
check "setup --seed=-1" 2 "$P" setup --circuit mul --params sd.params --seed=-1
expect_in "  the value and range are named" err.txt "^--seed: '-1' is not a decimal integer; expected 0 … 2\^64 - 1"
for seed in 2^64 99999999999999999999999 0x10 1x " 1" +1 1e3 ""; do
  check "setup --seed='$seed'" 2 "$P" setup --circuit mul --params sd.params --seed="$seed"
done
check "setup --seed 18446744073709551616" 2 "$P" setup --circuit mul --params sd.params --seed 18446744073709551616
expect_in "  out of range" err.txt "18446744073709551616 is out of range"
check "setup --seed 18446744073709551615 (2^64 - 1)" 0 "$P" setup --circuit mul --params sd.params --vk sd1.vk --seed 18446744073709551615
check "setup --seed 18446744073709551614" 0 "$P" setup --circuit mul --params sd.params --vk sd2.vk --seed 18446744073709551614
cmp -s sd1.vk sd2.vk && { echo "FAIL: seeds 2^64 - 1 and 2^64 - 2 give the same key"; fails=$((fails + 1)); }
check "prove --input -1" 2 "$P" prove --circuit mul --params m.params --proof in.bin --input -1
expect_in "  not wrapped" err.txt "'-1' is not a decimal integer; expected 0 … 2\^64 - 1"
check "prove --input 2^64 - 1" 0 "$P" prove --circuit mul --params m.params --proof in.bin --input 18446744073709551615
check "prove --input 2^64 - 1 with 2 partitions (input + 1 wraps)" 2 "$P" prove --circuit mul --params m.params --proof in2.bin --input 18446744073709551615 --partitions 2
expect_in "  the wrap is named" err.txt "passes 2\^64 - 1"
for n in 0 -1 4097; do
  check "prove --partitions $n" 2 "$P" prove --circuit mul --params m.params --proof in2.bin --partitions "$n"
done
expect_in "  the range is named" err.txt "expected 1 … 4096"
check "c2 --partition -1" 2 "$P" c2 --c1 c1.json --out in2.bin --partition -1
check "c2 --partition 1.5" 2 "$P" c2 --c1 c1.json --out in2.bin --partition 1.5
check "gen-c1 --seed -1" 2 "$P" gen-c1 --sector-size 2KiB --out in2.json --seed -1
check "seal --sector-id -1" 2 "$P" seal --sector-size 2KiB --out in2.json --sector-id -1
check "seal --seed 2^64" 2 "$P" seal --sector-size 2KiB --out in2.json --seed 18446744073709551616
check "--threads ' 4'" 2 "$P" verify --vk m.vk --proof m.proof --public m.json --threads " 4"
check "submit --timeout-ms -5" 2 "$P" submit --address "unix:$W/none.sock" --params m.params --timeout-ms -5
expect_in "  the range is named" err.txt "^--timeout-ms: '-5' is not a decimal integer; expected 0 … 2\^64 - 1"
check "submit --timeout-ms 2^64" 2 "$P" submit --address "unix:$W/none.sock" --params m.params --timeout-ms 18446744073709551616
check "await --timeout-ms -5" 2 "$P" await --address "unix:$W/none.sock" --id x --timeout-ms -5
check "submit --input -1" 2 "$P" submit --address "unix:$W/none.sock" --params m.params --input -1
check "submit --partitions 4097" 2 "$P" submit --address "unix:$W/none.sock" --params m.params --partitions 4097
no_file "nothing written for a bad number" in2.bin in2.json
check "setup --help" 0 "$P" setup --help
expect_in "  --seed's range in --help" out.txt "^ +--seed UINT +derive the toxic waste.*\(0 … 2\^64 - 1\)"
check "submit --help" 0 "$P" submit --help
expect_in "  --timeout-ms's range in --help" out.txt "until done.*\(0 … 2\^64 - 1\)"
expect_in "  --partitions' range in --help (bench's declaration)" out.txt "^ +--partitions INT .*an integer 1 … 4096"

# --- issue 21: --rs "" is refused, not read as "random r, s" ---
check "prove --rs ''" 2 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof rs0.json --public rs0.pub.json --rs ""
expect_in "  named" err.txt "prove: --rs takes \"R,S\".*got ''"
no_file "  nothing written for --rs ''" rs0.json rs0.pub.json

# --- issue 21: a snarkjs .zkey given as --params is named as such ---
check "prove --params z.zkey" 2 "$P" prove --circuit mul --params toy.zkey --proof zp.bin
expect_in "  the zkey is recognised" err.txt "looks like a snarkjs .zkey \(magic 'zkey'\).*use --zkey"
check "verify --params z.zkey" 2 "$P" verify --params toy.zkey --proof m.proof --public m.json
expect_in "  verify says what to give" err.txt "looks like a snarkjs .zkey.*verification_key.json"

# --- issue 21: --json prints a JSON error object on stdout when the command fails ---
json_error() {  # json_error <name> <exit code> <kind>: out.txt holds {"error": {"code", "kind", "message"}}
  if python3 -c '
import json, sys
e = json.load(open("out.txt"))["error"]
assert e["code"] == int(sys.argv[1]) and e["kind"] == sys.argv[2] and e["message"], e
' "$2" "$3" 2>json_err.txt; then echo "ok:   $1: JSON error object ($2, $3)"; else
    echo "FAIL: $1: no JSON error object ($2, $3): $(cat out.txt) $(tail -1 json_err.txt)"; fails=$((fails + 1)); fi
}
check "submit --json, daemon unreachable" 6 "$P" submit --address "unix:$W/none.sock" --params "$W/m.params" --json
json_error "submit --json, daemon unreachable" 6 unreachable
check "status --json, daemon unreachable" 6 "$P" status --address "unix:$W/none.sock" --json
json_error "status --json, daemon unreachable" 6 unreachable
check "cancel --json, daemon unreachable" 6 "$P" cancel --address "unix:$W/none.sock" --id x --json
json_error "cancel --json, daemon unreachable" 6 unreachable
check "await --json, a bad flag value" 2 "$P" await --address "unix:$W/none.sock" --id x --timeout-ms -5 --json
json_error "await --json, a bad flag value" 2 usage
check "submit --json, same-file outputs" 2 "$P" submit --address "unix:$W/none.sock" --params m.params --proof o.bin --public o.bin --json
json_error "submit --json, same-file outputs" 2 usage
check "verify --json, a short proof file" 3 "$P" verify --vk m.vk --proof short.proof --public m.json --json
json_error "verify --json, a short proof file" 3 bad_input
check "prove --zkey --json, --proof = --zkey" 2 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof toy.zkey --public s.json --json
json_error "prove --zkey --json, --proof = --zkey" 2 usage

# --- daemon: an address it cannot use is a usage error ---
if "$P" daemon --help >/dev/null 2>&1; then
  touch plain.file
  check "daemon on a unix path that is a plain file" 2 "$P" daemon --unix "$W/plain.file" --tcp ""
  expect_in "  the path is named" err.txt "plain.file' exists and is not a socket"
  check "daemon on port 70000" 2 "$P" daemon --unix "" --tcp 127.0.0.1:70000
  check "daemon with nothing to listen on" 2 "$P" daemon --unix "" --tcp ""
  # submit: --sector-id and --prover-id go together; a sector number is decimal (parse errors: no daemon needed)
  pid=$(printf '0%.0s' $(seq 64))
  check "submit --sector-id without --prover-id" 2 "$P" submit --kind porep-c2 --c1 c1.json --sector-id 8
  expect_in "  the pairing is named" err.txt "sector-id requires --prover-id"
  check "submit --prover-id without --sector-id" 2 "$P" submit --kind porep-c2 --c1 c1.json --prover-id "$pid"
  for sid in -1 1x 18446744073709551616 0x10; do
    check "submit --sector-id $sid" 2 "$P" submit --kind porep-c2 --c1 c1.json --prover-id "$pid" --sector-id "$sid"
  done
  "$P" daemon --unix "" --tcp 127.0.0.1:0 2>d1.log &
  d1=$!
  for _ in $(seq 100); do grep -q 'listening on' d1.log && break; sleep 0.1; done
  port=$(grep -o '127\.0\.0\.1:[0-9]*' d1.log | head -1)
  if [[ -n $port ]]; then
    check "daemon on a TCP port in use" 2 "$P" daemon --unix "" --tcp "$port"
    expect_in "  the address is named" err.txt "${port}.*(in use|not allowed)"
  else
    echo "FAIL: the first daemon did not start"; cat d1.log; fails=$((fails + 1))
  fi
  kill "$d1" 2>/dev/null; wait "$d1" 2>/dev/null
  # The loopback rule looks at the resolved addresses: a name that merely starts with "127." is
  # refused, localhost still listens.
  check "daemon on 127.foo.invalid (does not resolve)" 2 "$P" daemon --unix "" --tcp 127.foo.invalid:0
  expect_in "  the name is refused" err.txt "127.foo.invalid:0' is not a loopback address: '127.foo.invalid' does not resolve"
  check "daemon on 0.0.0.0" 2 "$P" daemon --unix "" --tcp 0.0.0.0:0
  expect_in "  the address is named" err.txt "resolves to 0.0.0.0, which is not loopback"
  "$P" daemon --unix "" --tcp localhost:0 2>d2.log &
  d2=$!
  for _ in $(seq 100); do grep -q 'listening on' d2.log && break; sleep 0.1; done
  if grep -q 'listening on' d2.log; then echo "ok: daemon on localhost:0 listens"; else
    echo "FAIL: daemon on localhost:0 did not start"; sed 's/^/  | /' d2.log; fails=$((fails + 1)); fi
  kill "$d2" 2>/dev/null; wait "$d2" 2>/dev/null
else
  echo "skip: daemon checks (proofline built without the daemon)"
fi

# --- issue 21: deeply nested JSON is refused with exit 3 (it crashed the CLI with exit 139) ---
nest() { head -c "$1" /dev/zero | tr '\0' '['; printf '%s' "$2"; head -c "$1" /dev/zero | tr '\0' ']'; }
nest 80000 '"1"' >nested_pub.json
check "verify with public.json nested 80,000 deep" 3 "$P" verify --vk toy_vk.json --proof p.json --public nested_pub.json
expect_in "  refused from its size (2 inputs cannot take 160 KB)" err.txt "nested_pub.json: 160003 bytes, more than the 320 bytes"
nest 100 '"1"' >nested_pub_small.json
check "verify with public.json nested 100 deep" 3 "$P" verify --vk toy_vk.json --proof p.json --public nested_pub_small.json
expect_in "  the nesting is named" err.txt "nested deeper than 64 levels"
python3 - "$W" <<'PY'
import sys, json, re
w = sys.argv[1]
proof = open(f"{w}/p.json").read()
open(f"{w}/nested_pi_a.json", "w").write(proof.replace('"pi_a": [', '"pi_a": ' + '[' * 1000 + ']' * 1000 + ', "x": [', 1))
open(f"{w}/nested_protocol.json", "w").write(proof.replace('"groth16"', '[' * 20000 + ']' * 20000, 1))
vk = open(f"{w}/toy_vk.json").read()
open(f"{w}/nested_vk.json", "w").write(re.sub(r'"nPublic":\s*\d+', '"nPublic": ' + '[' * 100000 + ']' * 100000, vk, count=1))
PY
check "verify with nested pi_a" 3 "$P" verify --vk toy_vk.json --proof nested_pi_a.json --public pub.json
expect_in "  the nesting is named" err.txt "nested deeper than 64 levels"
check "verify with nested protocol" 3 "$P" verify --vk toy_vk.json --proof nested_protocol.json --public pub.json
expect_in "  the size or nesting is named" err.txt "nested deeper than 64 levels|bytes, more than"
check "verify with a vk.json whose nPublic is nested" 3 "$P" verify --vk nested_vk.json --proof p.json --public pub.json
expect_in "  the nesting is named" err.txt "nested deeper than 64 levels"
{ printf '{"registered_proof": "StackedDrg2KiBV1_1", "vanilla_proofs": '; nest 200000 ''; printf '}'; } >nested_c1.json
check "check-c1 with nested vanilla_proofs" 3 "$P" check-c1 --c1 nested_c1.json
expect_in "  the nesting is named" err.txt "nested deeper than 64 levels"
# A public.json of 5 M entries for a key with 2 inputs: refused from its size (it was parsed whole).
python3 -c 'import sys; sys.stdout.write("[" + ",".join(["\"1\""] * 5000000) + "]")' >huge_pub.json
check "verify with a 5 M-entry public.json" 3 "$P" verify --vk toy_vk.json --proof p.json --public huge_pub.json
expect_in "  refused from its size" err.txt "20000001 bytes, more than the [0-9]+ bytes the [0-9]+ public input\\(s\\) of the verification key can take"

# --- the fresh-user tester's findings of this session (issue 21) ---
# An output that is a socket (a daemon's), FIFO or device is refused: the rename would replace it.
python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.bind("a.sock")'
check "prove --proof onto a unix socket" 2 "$P" prove --circuit mul --params m.params --proof a.sock
expect_in "  refused, not a regular file" err.txt "'a.sock' exists and is not a regular file"
[[ -S a.sock ]] && echo "ok: the socket is still there" || { echo "FAIL: the socket was replaced"; fails=$((fails + 1)); }
# Two outputs spelt differently ("q1", "./q1"), neither existing yet: refused before any work.
check "prove --proof q1 --public ./q1" 2 "$P" prove --circuit mul --params m.params --proof q1 --public ./q1
expect_in "  the clash is named" err.txt "name the same file"
no_file "  nothing written" q1
# Non-regular inputs are refused instead of read without end (or blocking on a FIFO).
check "check-c1 --c1 /dev/zero" 3 timeout 20 "$P" check-c1 --c1 /dev/zero
expect_in "  not a regular file" err.txt "not a regular file"
mkfifo c1.fifo
check "check-c1 --c1 <a FIFO>" 3 timeout 20 "$P" check-c1 --c1 c1.fifo
expect_in "  not a regular file" err.txt "not a regular file"

# A NUL byte hid trailing garbage (the parser stopped at it): refused wherever it is.
printf '["35","17"]\000garbage{{{' >nul_pub.json
check "verify with a NUL byte and garbage after public.json" 3 "$P" verify --vk toy_vk.json --proof p.json --public nul_pub.json
expect_in "  the NUL byte is named" err.txt "a NUL byte at byte 11"

# An output that is a symbolic link is written through it: the link stays a link, its target gets the
# contents (the tester's `--proof /dev/stdout > o.txt` replaced /dev/stdout itself with a file).
mkdir -p linkdir
: >linkdir/target.json
ln -sf linkdir/target.json link.json
ln -sf ../dangling_target.json linkdir/dangling.json
check "prove --zkey, fixed r, s" 0 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof direct_p.json --public direct_pub.json --rs 1,2
check "prove --zkey with --proof a link" 0 "$P" prove --zkey toy.zkey --wtns toy.wtns --proof link.json --public linkdir/dangling.json --rs 1,2
if [[ -L link.json && -L linkdir/dangling.json ]] && cmp -s linkdir/target.json direct_p.json && cmp -s dangling_target.json direct_pub.json; then
  echo "ok: outputs that are links stay links; their targets hold the proof and public.json"
else
  echo "FAIL: output through a link: $(ls -l link.json linkdir/dangling.json linkdir/target.json dangling_target.json 2>&1)"
  fails=$((fails + 1))
fi
check "prove --zkey --proof /dev/stdout into a file" 0 bash -c "'$P' prove --zkey toy.zkey --wtns toy.wtns --proof /dev/stdout --public pub2.json --rs 1,2 > stdout_proof.json"
if [[ -L /dev/stdout ]] && cmp -s stdout_proof.json direct_p.json; then
  echo "ok: --proof /dev/stdout wrote through to the redirected file; /dev/stdout is still a link"
else
  echo "FAIL: --proof /dev/stdout: $(ls -l /dev/stdout stdout_proof.json 2>&1)"; fails=$((fails + 1))
fi
no_partial "no temporary files after outputs through links"

# SIGTERM / SIGHUP during a setup: the process dies of the signal and leaves no "<out>.partial-<pid>"
# (the tester's interrupted 2 KiB PoRep setup left a 402 MB one; at 32 GiB it would be 47 GB).
# (SIGINT takes the same path, but a background job of a non-interactive shell ignores it.)
for sig in TERM HUP; do
  mkdir -p "sig$sig"
  "$P" setup --circuit bench --size 2^16 --params "sig$sig/b.params" --vk "sig$sig/b.vk" --seed 1 >/dev/null 2>&1 &
  spid=$!
  for _ in $(seq 300); do compgen -G "sig$sig/b.params.partial-*" >/dev/null && break; sleep 0.02; done
  sleep 0.3
  kill -"$sig" "$spid"
  wait "$spid"; src=$?
  if [[ $src -ge 128 ]] && ! compgen -G "sig$sig/*.partial-*" >/dev/null && [[ ! -e sig$sig/b.params ]]; then
    echo "ok: SIG$sig during setup: exit $src, no temporary or final file left"
  else
    echo "FAIL: SIG$sig during setup: exit $src, left: $(ls "sig$sig")"; fails=$((fails + 1))
  fi
done

echo "failures: $fails"
[[ $fails -eq 0 ]]
