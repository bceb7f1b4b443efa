#!/usr/bin/env bash
# `proofline daemon | submit | status` as separate processes (ctest server_cli): a daemon on a unix
# socket and on 127.0.0.1 (any free port, read from its start line), a submit over each (text and
# --json; the proof file checked by `proofline verify`), status (text, --json, --metrics), a refused
# request (exit 3), an unreachable daemon (exit 6), --print-config with a TOML-ish config, and
# SIGTERM (exit 0, socket removed).
# Usage: cli_daemon.sh <proofline executable>
set -euo pipefail
exe=$1
tmp=$(mktemp -d /tmp/proofline-cli-daemon.XXXXXX)
daemon_pid=
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$tmp/daemon.log" ] && sed 's/^/  daemon: /' "$tmp/daemon.log" >&2; exit 1; }

"$exe" setup --circuit bench --size 2^5 --params "$tmp/b5.params" --vk "$tmp/b5.vk" --seed 5 --json >/dev/null 2>&1 ||
  fail "setup"

cat >"$tmp/daemon.toml" <<EOF
# TOML-ish daemon config
[listen]
unix = "$tmp/d.sock"
tcp = "127.0.0.1:0"
[engine]
synthesis_workers = 1
memory_budget = "256MiB"
log_partitions = false
EOF
"$exe" daemon --config "$tmp/daemon.toml" --print-config >"$tmp/config.json"
grep -q '"memory_budget": 268435456' "$tmp/config.json" || fail "--print-config: $(cat "$tmp/config.json")"
"$exe" daemon --help >"$tmp/help.txt"
grep -q 'server.await_poll_ms' "$tmp/help.txt" || fail "daemon --help does not list the options"

"$exe" daemon --config "$tmp/daemon.toml" 2>"$tmp/daemon.log" &
daemon_pid=$!
for _ in $(seq 100); do
  grep -q 'listening on' "$tmp/daemon.log" && break
  sleep 0.1
done
tcp=$(grep -o '127\.0\.0\.1:[0-9]*' "$tmp/daemon.log" | head -1)
[ -S "$tmp/d.sock" ] && [ -n "$tcp" ] || fail "daemon did not start"

"$exe" submit --address "unix:$tmp/d.sock" --params "$tmp/b5.params" --size 2^5 --partitions 2 --input 7 \
  --proof "$tmp/proof.bin" --public "$tmp/public.json" >"$tmp/submit.txt" || fail "submit (unix)"
grep -q '^status      COMPLETED' "$tmp/submit.txt" || fail "submit text: $(cat "$tmp/submit.txt")"
[ "$(stat -c %s "$tmp/proof.bin")" = 384 ] || fail "proof file size"
"$exe" verify --vk "$tmp/b5.vk" --proof "$tmp/proof.bin" --public "$tmp/public.json" >/dev/null ||
  fail "the daemon's proof does not verify with proofline verify"

"$exe" submit --address "$tcp" --params "$tmp/b5.params" --size 2^5 --priority critical --request-id cli-1 --json \
  >"$tmp/submit.json" || fail "submit (tcp, json)"
grep -q '"status": "PROOF_STATUS_COMPLETED"' "$tmp/submit.json" || fail "submit json: $(cat "$tmp/submit.json")"
grep -q '"request_id": "cli-1"' "$tmp/submit.json" || fail "request id"

set +e
"$exe" submit --address "unix:$tmp/d.sock" --params "$tmp/nope.params" --size 2^5 2>"$tmp/err.txt"
rc=$?
set -e
[ $rc = 3 ] || fail "missing params: exit $rc, expected 3"
grep -q "nope.params': no such file" "$tmp/err.txt" || fail "missing params message: $(cat "$tmp/err.txt")"

"$exe" status --address "unix:$tmp/d.sock" >"$tmp/status.txt" || fail "status"
grep -q 'completed 2' "$tmp/status.txt" || fail "status text: $(cat "$tmp/status.txt")"
"$exe" status --address "$tcp" --json >"$tmp/status.json" || fail "status --json"
grep -q '"jobs_completed": 2' "$tmp/status.json" || fail "status --json: $(cat "$tmp/status.json")"
"$exe" status --address "$tcp" --metrics >"$tmp/metrics.txt" || fail "status --metrics"
grep -q 'proofline_engine_jobs_finished_total{state="done"} 2' "$tmp/metrics.txt" || fail "metrics text"

kill -TERM "$daemon_pid"
wait "$daemon_pid" || fail "daemon exit status $? after SIGTERM"
daemon_pid=
[ ! -e "$tmp/d.sock" ] || fail "socket left behind"
set +e
"$exe" status --address "unix:$tmp/d.sock" 2>/dev/null
rc=$?
set -e
[ $rc = 6 ] || fail "unreachable daemon: exit $rc, expected 6"
echo "cli_daemon: ok"
