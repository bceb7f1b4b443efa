#!/usr/bin/env bash
# Issue 33, findings 1 and 2: every output of every command goes through one writer
# (src/cli/common.hpp PendingOutput: temporary file, write(2) of every byte, fsync, rename).
#   1  A full disk: an output that can be created but not written out is exit 3 with a message naming
#      the file and the OS error; no 0-byte or partial file under its name, a previous file of that
#      name unchanged, no temporary file left. Simulated without root by RLIMIT_FSIZE: `ulimit -f 0`
#      with SIGXFSZ ignored makes every write(2) to a regular file fail with EFBIG ("File too
#      large") while files can still be created — what a full disk does to a small output. (A
#      device such as /dev/full is no output here: outputs that are not regular files are refused,
#      exit 2.) Commands: prove (--proof, --public, --snarkjs-dir), prove --zkey, setup, submit
#      --local, submit and await against a daemon (--proof / --public), gen-vanilla, gen-c1.
#   2  Outputs that land in one file — through a symbolic link, dangling ones included (the link
#      names a file that does not exist yet) — or in an input are refused before any work (exit 2,
#      naming both flags); nothing is written. An output through a link to a fresh path writes the
#      link's target and the link stays a link.
# Fast: mul parameters, the toy snarkjs seeds, 2 KiB gen-c1 / gen-vanilla; no PoRep parameters (c2's
# clashes are refused before its parameter file is looked for).
#
# Usage: outputs_cli.sh <proofline executable> <repository root>
set -uo pipefail
P=$1
ROOT=$2
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

# full <command…>: the command with RLIMIT_FSIZE 0 and SIGXFSZ ignored (write(2) fails with EFBIG).
# Its stdout and stderr go through pipes to cat processes outside the limit (check's out.txt and
# err.txt are regular files, which the command itself could not write); pipefail keeps its exit code.
full() {
  { (trap '' XFSZ; ulimit -f 0; exec "$@") 2>&1 1>&3 3>&- | cat >&2; } 3>&1 | cat
}
no_partial() {  # no temporary output file left behind in the scratch folder
  if compgen -G "$W/*.partial-*" >/dev/null || compgen -G "$W/*/*.partial-*" >/dev/null; then
    echo "FAIL: $1: temporary files left: $(ls "$W"/*.partial-* "$W"/*/*.partial-* 2>/dev/null)"; fails=$((fails + 1))
  else
    echo "ok: $1"
  fi
}
no_file() {  # no_file <name> <path>…: none of the paths exists
  local name=$1; shift
  for f in "$@"; do
    if [[ -e $f || -L $f ]]; then echo "FAIL: $name: '$f' exists ($(wc -c <"$f" 2>/dev/null) bytes)"; fails=$((fails + 1)); return; fi
  done
  echo "ok: $name"
}
unchanged() {  # unchanged <name> <file> <its former content>
  if [[ $(cat "$2") == "$3" ]]; then echo "ok: $1"; else echo "FAIL: $1: '$2' now holds $(wc -c <"$2") bytes"; fails=$((fails + 1)); fi
}
# disk_full <name> <output that must not appear> <command…>: exit 3, "cannot write '<output>': File too large".
disk_full() {
  local name=$1 out=$2; shift 2
  check "$name, full disk" 3 full "$@"
  expect_in "  the file and the OS error named ($name)" err.txt "cannot write '$out'.*File too large"
}

check "setup mul" 0 "$P" setup --circuit mul --params m.params --vk m.vk --seed 1
cp "$ROOT/fuzz/corpus/zkey/toy" toy.zkey
cp "$ROOT/fuzz/corpus/wtns/toy" toy.wtns
check "gen-c1 2KiB" 0 "$P" gen-c1 --sector-size 2KiB --out a.c1.json --seed 1
check "gen-c1 2KiB (another)" 0 "$P" gen-c1 --sector-size 2KiB --out b.c1.json --seed 2

# ---- 1: a full disk ---------------------------------------------------------------------------------
echo "old proof" >old.proof
disk_full "prove --proof over an existing file" old.proof "$P" prove --circuit mul --params m.params --proof old.proof
unchanged "  the previous file is whole" old.proof "old proof"
disk_full "prove --proof --public" f1.proof "$P" prove --circuit mul --params m.params --proof f1.proof --public f1.json
no_file "  no proof, no public.json" f1.proof f1.json
disk_full "prove --snarkjs-dir" f2.proof "$P" prove --circuit mul --params m.params --proof f2.proof --snarkjs-dir sj2
no_file "  no proof, no snarkjs folder" f2.proof sj2
disk_full "prove --zkey" fz.json "$P" prove --zkey toy.zkey --wtns toy.wtns --proof fz.json --public fz.pub.json
no_file "  no proof.json, no public.json" fz.json fz.pub.json
check "setup, full disk" 3 full "$P" setup --circuit mul --params fs.params --vk fs.vk --seed 1
no_file "  no parameters, no vk" fs.params fs.vk
disk_full "submit --local" fl.proof "$P" submit --local --kind mul --params m.params --proof fl.proof --public fl.json
no_file "  no proof, no public" fl.proof fl.json
disk_full "gen-vanilla" fv.vanilla.json "$P" gen-vanilla window-post --sector-size 2KiB --out fv
no_file "  no vanilla proofs, no request" fv.vanilla.json fv.request.json
disk_full "gen-c1 (a write failure, not a usage error)" fc.json "$P" gen-c1 --sector-size 2KiB --out fc.json
no_file "  no C1" fc.json
start_daemon "$P"
disk_full "submit to a daemon" fd.proof "$P" submit "${A[@]}" --kind mul --params "$W/m.params" --proof fd.proof --public fd.json
no_file "  no proof, no public" fd.proof fd.json
id=$("$P" submit "${A[@]}" --kind mul --params "$W/m.params" --no-wait)
disk_full "await --proof" fa.proof "$P" await "${A[@]}" --id "$id" --proof fa.proof --public fa.json
no_file "  no proof, no public" fa.proof fa.json
check "await again, room on the disk" 0 "$P" await "${A[@]}" --id "$id" --proof fa.proof --public fa.json
check "  the awaited proof verifies" 0 "$P" verify --vk m.vk --proof fa.proof --public fa.json
stop_daemon
no_partial "no temporary files after the full-disk failures"

# ---- 2: outputs through (dangling) links onto another output or an input -----------------------------
ln -s pa.proof pb.link  # dangling: pa.proof does not exist yet
check "c2 --out pa.proof --out pb.link (→ pa.proof)" 2 "$P" c2 --c1 a.c1.json --out pa.proof --c1 b.c1.json --out pb.link
expect_in "  both outputs named" err.txt "^proofline c2: --out and --out name the same file 'pb.link' \(the same file as 'pa.proof'"
no_file "  nothing written" pa.proof
ln -s x.proof link-to-x
check "prove --proof x --public link-to-x (→ x)" 2 "$P" prove --circuit mul --params m.params --proof x.proof --public link-to-x
expect_in "  both flags named" err.txt "^proofline prove: --public and --proof name the same file 'link-to-x'"
no_file "  nothing written" x.proof
mkdir -p sub
ln -s sub/../y.proof link-to-y
check "prove --proof link-to-y (→ sub/../y.proof) --public ./y.proof" 2 "$P" prove --circuit mul --params m.params --proof link-to-y --public ./y.proof
no_file "  nothing written" y.proof
ln -s l2 l1 && ln -s z.proof l2
check "submit --local --proof z --public l1 (→ l2 → z: a chain of dangling links)" 2 "$P" submit --local --kind mul --params m.params --proof z.proof --public l1
expect_in "  both flags named" err.txt "^proofline submit: --public and --proof name the same file 'l1'"
no_file "  nothing written" z.proof
ln -s fg.request.json fg.vanilla.json
check "gen-vanilla: .vanilla.json a link to .request.json" 2 "$P" gen-vanilla window-post --sector-size 2KiB --out fg
no_file "  nothing written" fg.request.json
ln -s m.params p.link
before=$(sha256sum <m.params)
check "prove --proof through a link onto --params" 2 "$P" prove --circuit mul --params m.params --proof p.link
expect_in "  the input named" err.txt "^proofline prove: --proof 'p.link' is the input --params"
[[ $(sha256sum <m.params) == "$before" ]] && echo "ok:   m.params unchanged" || { echo "FAIL: m.params changed"; fails=$((fails + 1)); }
ln -s a.c1.json c1.link
check "c2 --out through a link onto --c1" 2 "$P" c2 --c1 a.c1.json --out c1.link
expect_in "  the input named" err.txt "is the input --c1"
ln -s fresh.proof fresh.link
check "prove --proof through a dangling link to a fresh path" 0 "$P" prove --circuit mul --params m.params --proof fresh.link --public fresh.json
[[ -L fresh.link && -f fresh.proof && $(wc -c <fresh.proof) -eq 192 ]] && echo "ok:   the link stays, its target holds the proof" ||
  { echo "FAIL: fresh.link / fresh.proof: $(ls -l fresh.link fresh.proof 2>&1)"; fails=$((fails + 1)); }
check "  that proof verifies" 0 "$P" verify --vk m.vk --proof fresh.proof --public fresh.json
no_partial "no temporary files after the refusals"

# Finding 11: an output whose name is near NAME_MAX (255 bytes) is written: the temporary name next
# to it is cut to fit (it once failed: "<name>.partial-<pid>" was longer than the folder allows).
long=$(printf 'p%.0s' $(seq 245)).proof
check "prove --proof <a 251-byte name>" 0 "$P" prove --circuit mul --params m.params --proof "$long" --public long.json
[[ -f "$long" && $(wc -c <"$long") -eq 192 ]] && echo "ok:   the long-named proof is written" ||
  { echo "FAIL: the long-named proof: $(ls -l "$long" 2>&1)"; fails=$((fails + 1)); }
no_partial "no temporary files after the long name"

echo "$fails failure(s)"
[[ $fails -eq 0 ]]
