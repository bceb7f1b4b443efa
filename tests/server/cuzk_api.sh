#!/usr/bin/env bash
# cuzk.v1.ProvingEngine, the API Curio calls (issue 20), exercised by a client that is not ours:
# Python grpcio (Debian's python3-grpcio) with stubs generated from proto/cuzk/v1/proving.proto by
# protoc + grpc_python_plugin. The daemon is started as Curio's docs expect, with
# `--listen unix:///…/run/curio/cuzk.sock` (folder made by the daemon) and a TCP address; the 2 KiB
# PoRep proofs it returns for a Commit2In envelope are accepted by `proofline verify --c1` in another
# process (from the envelope and from the bare C1); the 2 KiB WindowPoSt and WinningPoSt proofs it
# returns for `proofline gen-vanilla` inputs (parameters of `setup --circuit window-post|winning-post`
# under their upstream names in the daemon's parameter cache) are accepted by `proofline verify
# --post` from the verifier's inputs (randomness, sector ids, comm_r) and refused with another
# randomness or another sector's comm_r; so are the WinningPoSt proofs it returns through TCP and for
# a WinningPoSt sent under a running PoRep's request id.
# What each call must do: tests/server/cuzk_client.py.
# With `snap` (ctest server_cuzk_snap, label slow: a 2 KiB SnapDeals setup and three proofs take
# minutes on two cores): SnapDeals (SNAP_DEALS_UPDATE) as Curio sends it, from `proofline gen-vanilla
# snap` inputs (parameters of `setup --circuit snap --sector-size 2KiB` under their upstream name); the
# proof is accepted by `proofline verify --snap` from the verifier's inputs (the three commitments) and
# refused with another comm_r_new; bad fields are FAILED proofs naming them.
# Usage: cuzk_api.sh <proofline> <parameter cache dir> [snap]
set -uo pipefail
P=$(realpath "$1")
CACHE=$2
MODE=${3:-all}
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/tests/cli/check_lib.sh"
PY=/usr/bin/python3
daemon_pid=
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null; fi
  rm -rf "$W"
}
trap cleanup EXIT

if ! "$PY" -c "import grpc, google.protobuf" 2>/dev/null; then
  echo "FAIL: $PY has no grpc / protobuf modules (scripts/install-deps.sh installs python3-grpcio python3-protobuf)"
  exit 1
fi
mkdir -p stubs
protoc -I "$top/proto" --python_out=stubs --grpc_python_out=stubs \
  --plugin=protoc-gen-grpc_python="$(command -v grpc_python_plugin)" "$top/proto/cuzk/v1/proving.proto" ||
  { echo "FAIL: protoc (python stubs)"; exit 1; }

start_daemon() {  # start_daemon <cache>: the daemon on $sock and 127.0.0.1:0, CPU backend
  FIL_PROOFS_PARAMETER_CACHE=$1 "$P" daemon --listen "unix://$sock" --listen 127.0.0.1:0 \
    --backend cpu --set engine.synthesis_workers=2 --set engine.log_partitions=false 2>daemon.log &
  daemon_pid=$!
  for _ in $(seq 300); do
    grep -q 'listening on' daemon.log && break
    sleep 0.1
  done
  [ -S "$sock" ] && echo "ok: the daemon listens on unix://$sock (folder made)" ||
    { echo "FAIL: no socket at $sock"; cat daemon.log; exit 1; }
}
sock=$W/run/curio/cuzk.sock

if [ "$MODE" = snap ]; then
  cache=$W/params
  mkdir -p "$cache"
  check "setup --circuit snap --sector-size 2KiB (upstream name in the cache)" 0 env FIL_PROOFS_PARAMETER_CACHE="$cache" \
    "$P" setup --circuit snap --sector-size 2KiB --seed 3 --json
  svk=$(sed -n 's/^ *"vk": "\(.*\)",*$/\1/p' out.txt)
  check "gen-vanilla snap 2KiB" 0 "$P" gen-vanilla snap --sector-size 2KiB --seed 13 --out s
  start_daemon "$cache"
  "$PY" "$top/tests/server/cuzk_client.py" stubs "unix://$sock" snap s
  [ $? -eq 0 ] || fails=$((fails + 1))
  python3 - <<'PY'
import json
r = json.load(open('s.request.json'))
x = bytearray.fromhex(r['comm_r_new']); x[0] ^= 1; r['comm_r_new'] = x.hex()
json.dump(r, open('s.other_comm_r_new.json', 'w'))
PY
  check "verify --snap: the SnapDeals proof" 0 "$P" verify --vk "$svk" --snap s.request.json --proof s.proof
  check "verify --snap: another comm_r_new" 1 "$P" verify --vk "$svk" --snap s.other_comm_r_new.json --proof s.proof
  echo "cuzk_api snap: $fails failure(s)"
  [[ $fails -eq 0 ]]
  exit
fi

params=$(bash "$top/scripts/porep_params.sh" "$P" "$CACHE" 2KiB) || { echo "FAIL: porep setup"; exit 1; }
vk=${params%.params}.vk
check "seal 2KiB" 0 "$P" seal --sector-size 2KiB --seed 6 --sector-id 5 --out c1.json
# The Commit2In envelope Curio sends (Go json.Marshal of {SectorNum, Phase1Out []byte, SectorSize}).
printf '{"SectorNum":5,"Phase1Out":"%s","SectorSize":2048}' "$(base64 -w0 c1.json)" > envelope.json

# The daemon's parameter cache: the (shared, slow to make) PoRep files linked, fresh PoSt files.
cache=$W/params
mkdir -p "$cache"
ln -s "$params" "$cache/" && ln -s "$vk" "$cache/"
declare -A post_vk
for c in window-post winning-post; do
  check "setup --circuit $c --sector-size 2KiB (upstream name in the cache)" 0 env FIL_PROOFS_PARAMETER_CACHE="$cache" \
    "$P" setup --circuit $c --sector-size 2KiB --seed 3 --json
  post_vk[$c]=$(sed -n 's/^ *"vk": "\(.*\)",*$/\1/p' out.txt)
done
wvk=${post_vk[window-post]} nvk=${post_vk[winning-post]}
check "gen-vanilla window-post 2KiB, 2 sectors" 0 "$P" gen-vanilla window-post --sector-size 2KiB --sectors 2 --seed 11 --out w
check "gen-vanilla winning-post 2KiB" 0 "$P" gen-vanilla winning-post --sector-size 2KiB --seed 12 --out win

start_daemon "$cache"
port=$(sed -n 's/.*listening on[^;]* 127\.0\.0\.1:\([0-9]*\);.*/\1/p' daemon.log | head -n1)
[ -n "$port" ] && echo "ok: and on 127.0.0.1:$port" || { echo "FAIL: no TCP port in the log"; cat daemon.log; fails=$((fails + 1)); }

# PoRep as Curio sends it, then the daemon's mechanics (WinningPoSt where any proof will do, queued
# behind a running PoRep: two 2 KiB PoRep proofs in all, a minute each on two cores, and one cancelled).
"$PY" "$top/tests/server/cuzk_client.py" stubs "unix://$sock" envelope.json unix.proof win
[ $? -eq 0 ] || fails=$((fails + 1))
check "verify --c1 (the unix-socket proof, another process)" 0 "$P" verify --vk "$vk" --c1 envelope.json --proof unix.proof
check "verify --c1 bare C1 (the unix-socket proof)" 0 "$P" verify --vk "$vk" --c1 c1.json --proof unix.proof
check "verify --post: the WinningPoSt sent under a running PoRep's id (its own proof)" 0 "$P" verify --vk "$nvk" \
  --post win.request.json --proof win.same-id.proof
"$PY" "$top/tests/server/cuzk_client.py" stubs "unix://$sock" post w win
[ $? -eq 0 ] || fails=$((fails + 1))
# The PoSt proofs against the inputs a verifier derives (no vanilla proofs), in another process.
python3 - <<'PY'
import json
r = json.load(open('w.request.json'))
x = bytearray.fromhex(r['randomness']); x[0] ^= 1; r['randomness'] = x.hex()
json.dump(r, open('w.other_randomness.json', 'w'))
r = json.load(open('w.request.json'))
r['sectors'][1]['comm_r'] = r['sectors'][0]['comm_r']
json.dump(r, open('w.other_comm_r.json', 'w'))
r = json.load(open('win.request.json'))
r['sectors'][0]['sector_id'] += 1
json.dump(r, open('win.other_sector.json', 'w'))
PY
check "verify --post: the WindowPoSt proof" 0 "$P" verify --vk "$wvk" --post w.request.json --proof w.proof
expect_in "  partition 0 valid" out.txt '^partition 0: valid'
check "verify --post: the proof of the seed with its top bits set" 0 "$P" verify --vk "$wvk" --post w.request.json \
  --proof w.seed.proof
check "verify --post: another randomness" 1 "$P" verify --vk "$wvk" --post w.other_randomness.json --proof w.proof
check "verify --post: another sector's comm_r" 1 "$P" verify --vk "$wvk" --post w.other_comm_r.json --proof w.proof
check "verify --post: the WinningPoSt proof" 0 "$P" verify --vk "$nvk" --post win.request.json --proof win.proof
check "verify --post: WinningPoSt with another sector id" 1 "$P" verify --vk "$nvk" --post win.other_sector.json \
  --proof win.proof
check "verify --post: the window key for the winning proof" 3 "$P" verify --vk "$wvk" --post win.request.json \
  --proof win.proof
expect_in "  the circuit named" err.txt 'sector_count: 66\} circuit has 133'
if [ -n "$port" ]; then
  "$PY" "$top/tests/server/cuzk_client.py" stubs "127.0.0.1:$port" winning win tcp.proof
  [ $? -eq 0 ] || fails=$((fails + 1))
  check "verify --post (the TCP proof)" 0 "$P" verify --vk "$nvk" --post win.request.json --proof tcp.proof
fi
kill "$daemon_pid"; wait "$daemon_pid" 2>/dev/null; daemon_pid=
[ ! -e "$sock" ] && echo "ok: the socket is removed at exit" || { echo "FAIL: socket left behind"; fails=$((fails + 1)); }
echo "cuzk_api: $fails failure(s)"
[[ $fails -eq 0 ]]
