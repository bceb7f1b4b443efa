#!/usr/bin/env bash
# A kind defined in a test file alone is reachable through `proofline submit` and the daemon (ctest
# server_test_kind): proofline_test_kind is `proofline` plus tests/server/test_kind.cpp (kind
# "test-product": x·y = z, z public, on `proofline setup --circuit mul`'s parameters). Its daemon
# serves the kind; the ordinary `proofline`, which does not know it (kinds --local), learns its
# arguments from that daemon: `kinds` and `status` list them, `submit --kind test-product --help`
# shows --x/--y/--params/--note, a submit with those flags (and with --arg) returns a proof that
# `proofline verify` accepts for z = x·y and refuses for another z, and the declared forms are
# checked before anything is sent (exit 2).
# Usage: test_kind.sh <proofline> <proofline_test_kind>
set -euo pipefail
P=$1
T=$2
tmp=$(mktemp -d /tmp/proofline-test-kind.XXXXXX)
daemon_pid=
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; [ -f "$tmp/daemon.log" ] && sed 's/^/  daemon: /' "$tmp/daemon.log" >&2; exit 1; }
expect_rc() {  # expect_rc <exit code> <command…>: stdout in $tmp/out, stderr in $tmp/err
  local want=$1
  shift
  set +e
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  set -e
  [ "$rc" = "$want" ] || fail "$*: exit $rc, expected $want: $(cat "$tmp/err")"
}

"$P" setup --circuit mul --params "$tmp/m.params" --vk "$tmp/m.vk" --seed 3 >/dev/null 2>&1 || fail "setup mul"
"$P" kinds --local >"$tmp/local.txt"
! grep -q 'test-product' "$tmp/local.txt" || fail "the ordinary proofline knows test-product"

"$T" daemon --unix "$tmp/d.sock" --tcp "" --set engine.synthesis_workers=1 --set engine.log_partitions=false \
  --set "paths.allowed=$tmp" \
  2>"$tmp/daemon.log" &
daemon_pid=$!
for _ in $(seq 100); do
  grep -q 'listening on' "$tmp/daemon.log" && break
  sleep 0.1
done
[ -S "$tmp/d.sock" ] || fail "the test daemon did not start"
A=(--address "unix:$tmp/d.sock")

# The declarations, as the daemon sends them.
"$P" kinds "${A[@]}" >"$tmp/kinds.txt" || fail "kinds"
grep -q '^test-product  A test kind: x·y = z' "$tmp/kinds.txt" || fail "kinds: $(cat "$tmp/kinds.txt")"
grep -Eq '^ +--x +INT +the first factor \(an integer 1 … 1073741824; required\)' "$tmp/kinds.txt" ||
  fail "kinds --x: $(cat "$tmp/kinds.txt")"
grep -q '^bench  ' "$tmp/kinds.txt" || fail "kinds: the built-in kinds are missing"
"$P" kinds "${A[@]}" --json >"$tmp/kinds.json" || fail "kinds --json"
python3 -c '
import json, sys
k = {x["name"]: x for x in json.load(open(sys.argv[1]))["kinds"]}["test-product"]
a = {x["name"]: x for x in k["arguments"]}
assert [x["name"] for x in k["arguments"]] == ["params", "x", "y", "note"], k
assert a["x"]["type"] == "int" and a["x"]["required"] and a["x"]["min"] == "1" and a["x"]["max"] == "1073741824", a["x"]
assert a["params"]["type"] == "file" and a["params"]["srs"], a["params"]
assert a["note"]["type"] == "string" and not a["note"]["required"], a["note"]
' "$tmp/kinds.json" || fail "kinds --json: $(cat "$tmp/kinds.json")"
"$P" status "${A[@]}" >"$tmp/status.txt" || fail "status"
grep -q '^  test-product  --params FILE --x INT --y INT --note TEXT?$' "$tmp/status.txt" ||
  fail "status: $(cat "$tmp/status.txt")"
expect_rc 0 "$P" submit "${A[@]}" --kind test-product --help
grep -q 'Arguments of --kind test-product (declared by the daemon)' "$tmp/out" || fail "submit --help: $(cat "$tmp/out")"
grep -Eq '^ +--y INT +the second factor' "$tmp/out" || fail "submit --help --y: $(cat "$tmp/out")"

# A proof with the kind's flags: z = 6·7 = 42 is the public input, and the proof verifies.
"$P" submit "${A[@]}" --kind test-product --params "$tmp/m.params" --x 6 --y 7 --note "six times seven" \
  --proof "$tmp/p.bin" --public "$tmp/pub.json" >"$tmp/submit.txt" || fail "submit: $(cat "$tmp/submit.txt")"
grep -q '^status      COMPLETED' "$tmp/submit.txt" || fail "submit: $(cat "$tmp/submit.txt")"
grep -q '^public \[0\] 42$' "$tmp/submit.txt" || fail "public input: $(cat "$tmp/submit.txt")"
[ "$(stat -c %s "$tmp/p.bin")" = 192 ] || fail "proof size $(stat -c %s "$tmp/p.bin")"
[ "$(tr -d ' \n' <"$tmp/pub.json")" = '["42"]' ] || fail "public.json: $(cat "$tmp/pub.json")"
"$P" verify --vk "$tmp/m.vk" --proof "$tmp/p.bin" --public "$tmp/pub.json" >/dev/null || fail "the proof does not verify"
echo '["43"]' >"$tmp/wrong.json"
expect_rc 1 "$P" verify --vk "$tmp/m.vk" --proof "$tmp/p.bin" --public "$tmp/wrong.json"

# The same through --arg (and --json): 5·9 = 45.
"$P" submit "${A[@]}" --kind test-product --arg params="$tmp/m.params" --arg x=5 --arg y=9 --json \
  --proof "$tmp/p2.bin" --public "$tmp/pub2.json" >"$tmp/submit2.json" || fail "submit --arg: $(cat "$tmp/submit2.json")"
grep -q '"status": "PROOF_STATUS_COMPLETED"' "$tmp/submit2.json" || fail "submit --arg: $(cat "$tmp/submit2.json")"
[ "$(tr -d ' \n' <"$tmp/pub2.json")" = '["45"]' ] || fail "public.json (--arg): $(cat "$tmp/pub2.json")"
"$P" verify --vk "$tmp/m.vk" --proof "$tmp/p2.bin" --public "$tmp/pub2.json" >/dev/null || fail "the --arg proof"

# Refused from the declarations before anything is sent (exit 2), or by the daemon (3).
expect_rc 2 "$P" submit "${A[@]}" --kind test-product --params "$tmp/m.params" --x 0 --y 7
grep -q -- "--x: expected an integer 1 … 1073741824" "$tmp/err" || fail "--x 0: $(cat "$tmp/err")"
expect_rc 2 "$P" submit "${A[@]}" --kind test-product --params "$tmp/m.params" --x 6
grep -q -- "kind test-product needs --y (the second factor)" "$tmp/err" || fail "no --y: $(cat "$tmp/err")"
expect_rc 2 "$P" submit "${A[@]}" --kind test-product --params "$tmp/m.params" --x 6 --y 7 --size 2^5
grep -q -- "--size: only for --kind bench (this request is --kind test-product)" "$tmp/err" || fail "--size: $(cat "$tmp/err")"
expect_rc 2 "$P" submit "${A[@]}" --kind test-product --params "$tmp/m.params" --x 6 --y 7 --arg z=1
grep -q "kind 'test-product' has no argument 'z' (its arguments: params, x, y, note)" "$tmp/err" || fail "--arg z: $(cat "$tmp/err")"
expect_rc 2 "$P" submit "${A[@]}" --kind no-such-kind
grep -q -- "--kind no-such-kind: the daemon at unix:$tmp/d.sock proves bench, mul, porep-c2, snap-update, snarkjs, test-product, window-post, winning-post" \
  "$tmp/err" || fail "unknown kind: $(cat "$tmp/err")"
expect_rc 3 "$P" submit "${A[@]}" --kind test-product --params "$tmp/nope.params" --x 6 --y 7
grep -q "request.args\['params'\]: '$tmp/nope.params': no such file on the daemon's machine" "$tmp/err" ||
  fail "missing params: $(cat "$tmp/err")"

kill -TERM "$daemon_pid"
wait "$daemon_pid" || fail "daemon exit status $? after SIGTERM"
daemon_pid=
echo "test_kind: ok"
