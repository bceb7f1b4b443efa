#!/usr/bin/env bash
# `proofline params check` (issue 21, item 7): a scratch parameter cache made from `proofline setup
# --circuit mul` under upstream-like names — one good copy, one truncated, one with a bit flipped —
# checked against a manifest whose digests come from coreutils' `b2sum | cut -c1-32` (the outside
# oracle): ok / truncated / corrupted each reported with the digests (exit 3), an all-good cache
# exits 0, a file of an asked --sector-size that is absent is missing, unknown files pass unless
# --strict, .srs files are hashed only, usage errors exit 2. The built-in table: --sector-size 32GiB
# on an empty cache names the published 32 GiB PoRep, PoSt and SnapDeals files as missing. The
# daemon's params.check_at_start refuses to start (exit 3) on a corrupted, truncated or missing file
# and starts on a clean cache.
#
# Usage: params_cli.sh <proofline executable>
set -uo pipefail
P=$1
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

expect_lines() {  # expect_lines <name> <file> <extended regex> <count>
  local n
  n=$(grep -Ec "$3" "$2")
  if [[ $n -eq $4 ]]; then echo "ok: $1"; else echo "FAIL: $1: /$3/ $n times in $2, expected $4:"; sed 's/^/  | /' "$2" | tail -20; fails=$((fails + 1)); fi
}
digest() { b2sum "$1" | cut -c1-32; }

check "setup mul" 0 "$P" setup --circuit mul --params m.params --vk m.vk --seed 1
pre=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher
A=$pre-aaaa.params B=$pre-bbbb.params C=$pre-cccc.params V=$pre-aaaa.vk D=$pre-dddd.vk
mkdir cache
for f in "$A" "$B" "$C"; do cp m.params "cache/$f"; done
cp m.vk "cache/$V"
truncate -s -100 "cache/$B"
# One bit of a point of the verifying key (byte 100: beta_g1.x), not a section count.
byte=$(od -An -tu1 -j100 -N1 "cache/$C" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 4)))" | dd of="cache/$C" bs=1 seek=100 conv=notrunc status=none
dp=$(digest m.params) dv=$(digest m.vk) dc=$(digest "cache/$C")
[[ $dc != "$dp" ]] || { echo "FAIL: the bit flip did not change the digest"; fails=$((fails + 1)); }
entry() { printf '"%s": {"cid": "Qm", "digest": "%s", "sector_size": %s}' "$1" "$2" "$3"; }
{
  echo "{"
  for f in "$A" "$B" "$C"; do echo "  $(entry "$f" "$dp" 2048),"; done
  echo "  $(entry "$V" "$dv" 2048),"
  echo "  $(entry "$D" "$dv" 2048),"
  echo "  $(entry "$pre-eeee.params" "$dp" 8388608)"
  echo "}"
} >manifest.json

# --- ok / truncated / corrupted ---
check "params check: one good, one truncated, one bit-flipped" 3 "$P" params check --cache cache --manifest manifest.json
cp out.txt report.txt
expect_in "  the good copy is ok" report.txt "^ok +$A \($(stat -c %s m.params) bytes\)$"
expect_in "  the .vk is ok" report.txt "^ok +$V "
expect_in "  the cut copy is truncated, with the size its layout needs" report.txt \
  "^truncated +$B \($(stat -c %s "cache/$B") bytes\): $(stat -c %s "cache/$B") bytes, but its layout needs $(stat -c %s m.params)"
expect_in "  the flipped copy is corrupted: its b2sum digest vs the expected one" report.txt \
  "^corrupted +$C \($(stat -c %s m.params) bytes\): digest $dc, expected $dp"
expect_lines "  four files, nothing missing without --sector-size" report.txt "^(ok|truncated|corrupted|missing|unknown) " 4
expect_in "  summary" report.txt "^summary +4 file\(s\): 2 ok, 1 corrupted, 1 truncated, 0 unknown, 0 missing; FAILED"

check "params check --json" 3 "$P" params check --cache cache --manifest manifest.json --json
jq -e --arg a "$A" --arg b "$B" --arg c "$C" --arg dc "$dc" --arg dp "$dp" '
  (.files | map({(.name): .}) | add) as $f
  | $f[$a].status == "ok" and $f[$a].actual_digest == $dp
  and $f[$b].status == "truncated" and $f[$b].actual_digest == ""
  and $f[$c].status == "corrupted" and $f[$c].actual_digest == $dc and $f[$c].expected_digest == $dp
  and .summary.ok == 2 and .ok == false' out.txt >/dev/null &&
  echo "ok:   the JSON report says the same" || { echo "FAIL: JSON report:"; sed 's/^/  | /' out.txt | head -40; fails=$((fails + 1)); }

# --- all good; missing for an asked sector size; unknown; .srs ---
mkdir good
cp m.params "good/$A"
cp m.vk "good/$V"
check "params check: all good" 0 "$P" params check --cache good --manifest manifest.json
expect_in "  summary ok" out.txt "^summary +2 file\(s\): 2 ok, 0 corrupted, 0 truncated, 0 unknown, 0 missing; ok$"
check "params check --sector-size 2KiB: a listed 2 KiB file is absent" 3 "$P" params check --cache good --manifest manifest.json --sector-size 2KiB
expect_in "  it is named missing" out.txt "^missing +$D: not in the cache \(sector size 2KiB\)$"
expect_lines "  only the absent 2 KiB files are missing (not the 8 MiB one)" out.txt "^missing " 3
cp m.vk good/stranger.vk
check "an unknown file passes" 0 "$P" params check --cache good --manifest manifest.json
expect_in "  named unknown" out.txt "^unknown +stranger.vk \($(stat -c %s m.vk) bytes\): not in the manifest$"
check "an unknown file fails with --strict" 3 "$P" params check --cache good --manifest manifest.json --strict
rm good/stranger.vk
head -c 5000 /dev/urandom >good/inner.srs
head -c 5000 /dev/urandom >good/other.srs
{ echo "{ $(entry inner.srs "$(digest good/inner.srs)" 0), $(entry other.srs "$dp" 0), $(entry "$A" "$dp" 2048) }"; } >srs.json
check ".srs: hashed, no layout" 3 "$P" params check --cache good --manifest srs.json
expect_in "  the matching .srs is ok" out.txt "^ok +inner.srs "
expect_in "  the other .srs is corrupted" out.txt "^corrupted +other.srs \(5000 bytes\): digest $(digest good/other.srs), expected $dp$"

# Progress on stderr for a big file (a 2 GiB sparse .srs: seconds of hashing).
mkdir big
truncate -s 2G big/zero.srs
echo "{ $(entry zero.srs 00000000000000000000000000000000 0) }" >big.json
start=$(date +%s)
check "a 2 GiB file is hashed" 3 "$P" params check --cache big --manifest big.json
secs=$(($(date +%s) - start))
lines=$(grep -c "hashing zero.srs: .* / 2.0 GiB (" err.txt)
if [[ $lines -le $((secs + 1)) && ($secs -lt 2 || $lines -ge 1) ]]; then
  echo "ok:   progress: $lines line(s) in $secs s (at most one a second)"
else
  echo "FAIL: progress: $lines line(s) in $secs s"; sed 's/^/  | /' err.txt | tail -5; fails=$((fails + 1))
fi
rm -rf big

# --- the built-in table ---
mkdir empty
check "built-in table: --sector-size 32GiB on an empty cache" 3 "$P" params check --cache empty --sector-size 32GiB
expect_lines "  ten 32 GiB files missing" out.txt "^missing " 10
for name in \
  v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params \
  v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.vk \
  v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params \
  v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.vk \
  v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params \
  v28-empty-sector-update-poseidon-merkletree-poseidon_hasher-8-8-0-3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.vk; do
  expect_in "  missing ${name:4:40}…${name: -12}" out.txt "^missing +$name: not in the cache \(sector size 32GiB\)$"
done
check "built-in table: an empty cache, no size asked" 0 "$P" params check --cache empty
expect_in "  the built-in manifest has 45 files" out.txt "^manifest +built-in .*, 45 files$"
# The default cache: $FIL_PROOFS_PARAMETER_CACHE, as c2 uses it.
FIL_PROOFS_PARAMETER_CACHE=$W/cache check "default cache: \$FIL_PROOFS_PARAMETER_CACHE" 3 "$P" params check --manifest manifest.json
expect_in "  it names the folder" out.txt "^cache +$W/cache$"
cp m.vk "empty/$pre-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk"
check "built-in table: a development .vk under the upstream 2 KiB name" 3 "$P" params check --cache empty
expect_in "  is corrupted against the published digest" out.txt "^corrupted .*032d3138.*\.vk .*expected dc1ade9929ade1708238f155343044ac$"
rm empty/*

# --- usage errors (2) and a malformed manifest (3) ---
check "--cache that does not exist" 2 "$P" params check --cache nowhere
expect_in "  named" err.txt "[-]-cache nowhere: no such folder"
check "--cache that is a file" 2 "$P" params check --cache m.vk
check "--sector-size 3KiB" 2 "$P" params check --cache empty --sector-size 3KiB
check "--sector-size 4KiB (no published files)" 2 "$P" params check --cache empty --sector-size 4KiB
expect_in "  the sizes with files are listed" err.txt "2KiB, 8MiB, 512MiB, 32GiB, 64GiB"
check "--manifest that does not exist" 2 "$P" params check --cache empty --manifest nowhere.json
echo '{"x.params": {"digest": "12", "sector_size": 1}}' >bad.json
check "a malformed --manifest" 3 "$P" params check --cache empty --manifest bad.json
expect_in "  names the file and the entry" err.txt "bad.json.*x.params.*32 lowercase hex"
check "params without a subcommand" 2 "$P" params

# --- the daemon: params.check_at_start ---
mkdir dcache
cp m.vk "dcache/$pre-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk"
daemon() { FIL_PROOFS_PARAMETER_CACHE=$W/dcache "$P" daemon --unix "$W/d.sock" --tcp "" "$@"; }
check "daemon refuses a corrupted parameter file" 3 daemon --set params.check_at_start=true
expect_in "  names it and says why" err.txt "params.check_at_start: .*corrupted v28-.*032d3138.*\.vk \(digest $dv, expected dc1ade99"
rm dcache/*
head -c 900 m.params >"dcache/$pre-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params"
check "daemon refuses a truncated parameter file" 3 daemon --set params.check_at_start=true
expect_in "  names it" err.txt "truncated v28-.*032d3138.*\.params \(900 bytes, but its layout needs"
rm dcache/*
check "daemon refuses a missing file of params.sector_sizes" 3 daemon --set params.check_at_start=true --set params.sector_sizes=2KiB
expect_in "  names it" err.txt "missing v28-stacked-proof-of-replication-.*032d3138.*\.params"
check "params.sector_sizes = 3KiB is a usage error" 2 daemon --set params.check_at_start=true --set 'params.sector_sizes=["3KiB"]'
check "the option is not checked when off" 0 daemon --set params.sector_sizes=2KiB --print-config
expect_in "  printed" out.txt '"check_at_start": false'
FIL_PROOFS_PARAMETER_CACHE=$W/dcache timeout -s TERM 3 "$P" daemon --unix "$W/d.sock" --tcp "" \
  --set params.check_at_start=true >out.txt 2>err.txt
expect_in "daemon starts on a clean cache" err.txt "parameter cache $W/dcache: 0 file\(s\) ok"
expect_in "  and listens" err.txt "listening on unix:$W/d.sock"

echo "$fails failure(s)"
[[ $fails -eq 0 ]]
