#!/usr/bin/env bash
# `proofline daemon | submit | status` as separate processes (ctest server_cli): a daemon on a unix
# socket and on 127.0.0.1 (any free port, read from its start line), a submit over each (text and
# --json; the proof file checked by `proofline verify`), status (text, --json, --metrics), a refused
# request (exit 3), submit --no-wait + await, cancel (and of an unknown id: exit 3), Ctrl-C during
# submit (exit 5, job cancelled), an unreachable daemon (exit 6), --print-config with a TOML-ish
# config, a nested C1 refused while another job completes (issue 21), and SIGTERM (exit 0, socket
# removed).
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
[paths]
allowed = ["$tmp"]
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
# A path outside paths.allowed: refused (exit 3) before the daemon looks at it.
"$exe" submit --address "unix:$tmp/d.sock" --params /etc/passwd --size 2^5 2>"$tmp/outside.txt"
rc=$?
[ $rc = 3 ] || fail "submit --params /etc/passwd: exit $rc, expected 3"
grep -q "is outside the folders this daemon lets clients name" "$tmp/outside.txt" ||
  fail "outside path: $(cat "$tmp/outside.txt")"
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

# submit --no-wait, then await (same report and files as submit); cancel; Ctrl-C during submit.
id=$("$exe" submit --address "unix:$tmp/d.sock" --params "$tmp/b5.params" --size 2^5 --input 3 --no-wait)
[ -n "$id" ] || fail "submit --no-wait printed no id"
"$exe" await --address "unix:$tmp/d.sock" --id "$id" --proof "$tmp/await.bin" --public "$tmp/await.json" \
  >"$tmp/await.txt" || fail "await: $(cat "$tmp/await.txt")"
grep -q '^status      COMPLETED' "$tmp/await.txt" || fail "await text: $(cat "$tmp/await.txt")"
"$exe" verify --vk "$tmp/b5.vk" --proof "$tmp/await.bin" --public "$tmp/await.json" >/dev/null ||
  fail "the awaited proof does not verify"
"$exe" setup --circuit bench --size 2^12 --params "$tmp/b12.params" --seed 12 >/dev/null 2>&1 || fail "setup 2^12"
# Waits (up to 20 s) until the daemon runs one job.
wait_running() {
  for _ in $(seq 200); do
    # Through a file: with pipefail, `status | grep -q` fails when grep exits before status has
    # written its (now longer: kinds with their arguments) output, and status dies of SIGPIPE.
    "$exe" status --address "unix:$tmp/d.sock" --json >"$tmp/running.json"
    grep -q '"jobs_running": 1' "$tmp/running.json" && return 0
    sleep 0.1
  done
}
long=(--address "unix:$tmp/d.sock" --params "$tmp/b12.params" --size 2^12 --partitions 400)  # a minute or more
"$exe" submit "${long[@]}" --request-id long-1 --no-wait >/dev/null || fail "submit long-1"
"$exe" cancel --address "unix:$tmp/d.sock" --id long-1 >"$tmp/cancel.txt" || fail "cancel: $(cat "$tmp/cancel.txt")"
grep -q '^cancelled   ' "$tmp/cancel.txt" || fail "cancel text: $(cat "$tmp/cancel.txt")"
set +e
"$exe" await --address "unix:$tmp/d.sock" --id long-1 >"$tmp/await2.txt"
rc=$?
"$exe" cancel --address "unix:$tmp/d.sock" --id nobody 2>"$tmp/cancel_err.txt" >/dev/null
rc_unknown=$?
set -e
[ $rc = 5 ] || fail "await of a cancelled job: exit $rc, expected 5"
grep -q '^status      CANCELLED' "$tmp/await2.txt" || fail "await of a cancelled job: $(cat "$tmp/await2.txt")"
[ $rc_unknown = 3 ] || fail "cancel of an unknown id: exit $rc_unknown, expected 3"
grep -q "no request 'nobody'" "$tmp/cancel_err.txt" || fail "cancel unknown: $(cat "$tmp/cancel_err.txt")"
"$exe" submit "${long[@]}" --request-id long-2 >"$tmp/int.out" 2>"$tmp/int.err" &
submit_pid=$!
wait_running
# Per-job progress and the budget's origin in the text status (issue 17 item 5).
"$exe" status --address "unix:$tmp/d.sock" >"$tmp/running.txt"
grep -Eq '^  long-2  bench  running  synthesized [0-9]+/400, proved [0-9]+/400, [0-9.]+ s$' "$tmp/running.txt" ||
  fail "status per-job progress: $(cat "$tmp/running.txt")"
grep -q '^            budget configured: 268435456 bytes$' "$tmp/running.txt" || fail "status budget: $(cat "$tmp/running.txt")"
kill -INT "$submit_pid"
set +e
wait "$submit_pid"
rc=$?
set -e
[ $rc = 5 ] || fail "submit after SIGINT: exit $rc, expected 5 ($(cat "$tmp/int.err"))"
grep -q 'SIGINT: request long-2 cancelled' "$tmp/int.err" || fail "submit after SIGINT: $(cat "$tmp/int.err")"
"$exe" status --address "unix:$tmp/d.sock" --json >"$tmp/status2.json"
grep -q '"jobs_cancelled": 2' "$tmp/status2.json" || fail "status after cancels: $(cat "$tmp/status2.json")"

# Refused before anything is sent (exit 2), as a tester found them accepted or found late.
expect_rc() {
  local want=$1
  shift
  set +e
  "$@" >"$tmp/rc.out" 2>"$tmp/rc.err"
  local rc=$?
  set -e
  [ "$rc" = "$want" ] || fail "$*: exit $rc, expected $want: $(cat "$tmp/rc.err")"
}
small=(--address "unix:$tmp/d.sock" --params "$tmp/b5.params" --size 2^5)
expect_rc 2 "$exe" submit "${small[@]}" --proof "$tmp/no-such-dir/p.bin"
grep -q "cannot write '$tmp/no-such-dir/p.bin'" "$tmp/rc.err" || fail "unwritable --proof: $(cat "$tmp/rc.err")"
expect_rc 2 "$exe" submit "${small[@]}" --proof "$tmp/same.json" --public "$tmp/same.json"
grep -q "name the same file" "$tmp/rc.err" || fail "same --proof/--public: $(cat "$tmp/rc.err")"
expect_rc 2 "$exe" submit "${small[@]}" --no-wait --proof "$tmp/p.bin"
expect_rc 2 "$exe" submit "${small[@]}" --wtns "$tmp/b5.params"
grep -q "only for --kind snarkjs" "$tmp/rc.err" || fail "--wtns with kind bench: $(cat "$tmp/rc.err")"
expect_rc 2 "$exe" submit "${small[@]}" --arg size=2^6
grep -q "'size' is set by its own flag" "$tmp/rc.err" || fail "--arg size: $(cat "$tmp/rc.err")"
expect_rc 2 "$exe" daemon --set engine.foo=1 --print-config
expect_rc 2 "$exe" daemon --set engine.memory_budget=lots --print-config
for bad in "" "unix:" "$tmp/d.sock" "127.0.0.1:99999"; do
  expect_rc 2 "$exe" status --address "$bad"
  grep -q "expected unix:/path/to.sock or host:port" "$tmp/rc.err" || fail "address '$bad': $(cat "$tmp/rc.err")"
done
: >"$tmp/empty.wtns"
expect_rc 3 "$exe" submit --address "unix:$tmp/d.sock" --kind snarkjs --zkey "$tmp/b5.params" --wtns "$tmp/empty.wtns"
grep -q "the file is empty" "$tmp/rc.err" || fail "empty --wtns: $(cat "$tmp/rc.err")"
expect_rc 2 "$exe" status --address "unix:$tmp/d.sock" --metrics --json
# A duplicate --no-wait prints the id alone on stdout (id=$(...) stays usable).
"$exe" submit "${small[@]}" --request-id dup-1 --no-wait >/dev/null || fail "submit dup-1"
id=$("$exe" submit "${small[@]}" --request-id dup-1 --no-wait 2>"$tmp/dup.err") || fail "submit dup-1 again"
[ "$id" = dup-1 ] || fail "duplicate --no-wait printed '$id'"
grep -q "already known" "$tmp/dup.err" || fail "duplicate --no-wait: $(cat "$tmp/dup.err")"
# A timeout of 2^64 - 1 ms is no limit (it used to wrap into an immediate TIMEOUT).
"$exe" submit "${small[@]}" --timeout-ms 18446744073709551615 >"$tmp/huge.txt" || fail "huge timeout: $(cat "$tmp/huge.txt")"
grep -q '^status      COMPLETED' "$tmp/huge.txt" || fail "huge timeout: $(cat "$tmp/huge.txt")"

# Issue 21: a porep-c2 request whose C1 JSON is nested 200,000 levels deep (it segfaulted the daemon,
# and every other client's submit exited 6) is refused with the reason (exit 3) while another
# client's job runs; that job still completes and verifies, and the daemon keeps serving.
{ printf '{"registered_proof": "StackedDrg2KiBV1_1", "comm_r": '
  head -c 200000 /dev/zero | tr '\0' '['
  head -c 200000 /dev/zero | tr '\0' ']'
  printf '}'; } >"$tmp/nested-c1.json"
"$exe" submit --address "unix:$tmp/d.sock" --params "$tmp/b5.params" --size 2^5 --partitions 256 --input 11 \
  --request-id beside-nested --proof "$tmp/beside.bin" --public "$tmp/beside.json" >"$tmp/beside.out" 2>&1 &
beside_pid=$!
expect_rc 3 "$exe" submit --address "$tcp" --kind porep-c2 --c1 "$tmp/nested-c1.json"
grep -q "nested deeper than 64 levels" "$tmp/rc.err" || fail "nested C1: $(cat "$tmp/rc.err")"
wait "$beside_pid" || fail "the job beside the nested request: $(cat "$tmp/beside.out")"
"$exe" verify --vk "$tmp/b5.vk" --proof "$tmp/beside.bin" --public "$tmp/beside.json" >/dev/null ||
  fail "the proof of the job beside the nested request does not verify"
kill -0 "$daemon_pid" || fail "the daemon died on the nested request"

# SIGTERM to the daemon while a submit waits: the job is cancelled, the submit says so (exit 5).
"$exe" submit "${long[@]}" --request-id long-3 >"$tmp/term.out" 2>"$tmp/term.err" &
submit_pid=$!
wait_running
kill -TERM "$daemon_pid"
wait "$daemon_pid" || fail "daemon exit status $? after SIGTERM"
set +e
wait "$submit_pid"
rc=$?
set -e
[ $rc = 5 ] || fail "submit while the daemon shut down: exit $rc, expected 5 ($(cat "$tmp/term.err"))"
grep -q "shut down before the job ended" "$tmp/term.err" || fail "submit at shutdown: $(cat "$tmp/term.err")"
daemon_pid=
[ ! -e "$tmp/d.sock" ] || fail "socket left behind"
set +e
"$exe" status --address "unix:$tmp/d.sock" 2>/dev/null
rc=$?
set -e
[ $rc = 6 ] || fail "unreachable daemon: exit $rc, expected 6"

# A full queue is "busy, retry" (exit 7), not a bad request (it was exit 3): a daemon whose
# server.max_queued_jobs is 0 refuses every new job so.
"$exe" daemon --unix "$tmp/busy.sock" --tcp "" --set server.max_queued_jobs=0 --set "paths.allowed=$tmp" \
  --set status.listen= 2>"$tmp/busy.log" &
daemon_pid=$!
for _ in $(seq 100); do
  grep -q 'listening on' "$tmp/busy.log" && break
  sleep 0.1
done
expect_rc 7 "$exe" submit --address "unix:$tmp/busy.sock" --params "$tmp/b5.params" --size 2^5
grep -q "is busy: 0 jobs queued or running, the limit is 0 (server.max_queued_jobs); retry later" "$tmp/rc.err" ||
  fail "queue full: $(cat "$tmp/rc.err")"
kill -TERM "$daemon_pid"
wait "$daemon_pid" || fail "busy daemon exit status $?"
daemon_pid=
echo "cli_daemon: ok"
