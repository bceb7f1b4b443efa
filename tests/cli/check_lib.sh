# Shared by the tests/cli scripts (sourced): a scratch folder $W (removed on exit, made the current
# folder), the failure counter $fails, and two checks that print "ok: …" or "FAIL: …".
#   check <name> <expected exit code> <command…>   runs it with stdout in $W/out.txt, stderr in $W/err.txt
#   expect_in <name> <file> <extended regex>
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
fails=0
check() {
  local name=$1 want=$2; shift 2
  "$@" >"$W/out.txt" 2>"$W/err.txt"
  local rc=$?
  if [[ $rc -ne $want ]]; then
    echo "FAIL: $name: exit $rc, expected $want: $*"; sed 's/^/  | /' "$W/err.txt" | tail -8
    fails=$((fails + 1))
  else
    echo "ok: $name (exit $rc)"
  fi
}
expect_in() {
  if grep -Eq -e "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1: /$3/ not in $2:"; sed 's/^/  | /' "$2" | tail -5; fails=$((fails + 1)); fi
}
# start_daemon <proofline binary>: a daemon on $W/d.sock (CPU backend, one synthesis worker, log in
# $W/daemon.log), stopped on exit; sets $daemon_pid and A=(--address unix:$W/d.sock) for the clients.
# stop_daemon: stops it.
start_daemon() {
  "$1" daemon --unix "$W/d.sock" --tcp "" --backend cpu --set engine.synthesis_workers=1 \
    --set engine.log_partitions=false --set "paths.allowed=$W" 2>"$W/daemon.log" &
  daemon_pid=$!
  trap 'kill $daemon_pid 2>/dev/null; wait $daemon_pid 2>/dev/null; rm -rf "$W"' EXIT
  for _ in $(seq 1 100); do
    grep -q 'listening on' "$W/daemon.log" && break
    sleep 0.1
  done
  A=(--address "unix:$W/d.sock")
}
stop_daemon() {
  kill "$daemon_pid" 2>/dev/null
  wait "$daemon_pid" 2>/dev/null
}
