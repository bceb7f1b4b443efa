#!/usr/bin/env bash
# cuzk.v1.ProvingEngine, the API Curio calls (issue 20), exercised by a client that is not ours:
# Python grpcio (Debian's python3-grpcio) with stubs generated from proto/cuzk/v1/proving.proto by
# protoc + grpc_python_plugin. The daemon is started as Curio's docs expect, with
# `--listen unix:///…/run/curio/cuzk.sock` (folder made by the daemon) and a TCP address; the 2 KiB
# PoRep proofs it returns for a Commit2In envelope are accepted by `proofline verify --c1` in another
# process. What each call must do: tests/server/cuzk_client.py.
# Usage: cuzk_api.sh <proofline> <parameter cache dir>
set -uo pipefail
P=$(realpath "$1")
CACHE=$2
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

params=$(bash "$top/scripts/porep_params.sh" "$P" "$CACHE" 2KiB) || { echo "FAIL: porep setup"; exit 1; }
vk=${params%.params}.vk
check "seal 2KiB" 0 "$P" seal --sector-size 2KiB --seed 6 --sector-id 5 --out c1.json
# The Commit2In envelope Curio sends (Go json.Marshal of {SectorNum, Phase1Out []byte, SectorSize}).
printf '{"SectorNum":5,"Phase1Out":"%s","SectorSize":2048}' "$(base64 -w0 c1.json)" > envelope.json

sock=$W/run/curio/cuzk.sock
FIL_PROOFS_PARAMETER_CACHE=$(dirname "$params") "$P" daemon --listen "unix://$sock" --listen 127.0.0.1:0 \
  --backend cpu --set engine.synthesis_workers=2 --set engine.log_partitions=false 2>daemon.log &
daemon_pid=$!
for _ in $(seq 300); do
  grep -q 'listening on' daemon.log && break
  sleep 0.1
done
[ -S "$sock" ] && echo "ok: the daemon listens on unix://$sock (folder made)" ||
  { echo "FAIL: no socket at $sock"; cat daemon.log; exit 1; }
port=$(sed -n 's/.*listening on[^;]* 127\.0\.0\.1:\([0-9]*\);.*/\1/p' daemon.log | head -n1)
[ -n "$port" ] && echo "ok: and on 127.0.0.1:$port" || { echo "FAIL: no TCP port in the log"; cat daemon.log; fails=$((fails + 1)); }

"$PY" "$top/tests/server/cuzk_client.py" stubs "unix://$sock" envelope.json unix.proof
[ $? -eq 0 ] || fails=$((fails + 1))
check "verify --c1 (the unix-socket proof, another process)" 0 "$P" verify --vk "$vk" --c1 envelope.json --proof unix.proof
if [ -n "$port" ]; then
  "$PY" "$top/tests/server/cuzk_client.py" stubs "127.0.0.1:$port" envelope.json tcp.proof quick
  [ $? -eq 0 ] || fails=$((fails + 1))
  check "verify --c1 (the TCP proof)" 0 "$P" verify --vk "$vk" --c1 c1.json --proof tcp.proof
fi
kill "$daemon_pid"; wait "$daemon_pid" 2>/dev/null; daemon_pid=
[ ! -e "$sock" ] && echo "ok: the socket is removed at exit" || { echo "FAIL: socket left behind"; fails=$((fails + 1)); }
echo "cuzk_api: $fails failure(s)"
[[ $fails -eq 0 ]]
