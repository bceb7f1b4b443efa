#!/usr/bin/env bash
# The daemon's live status page (issue 20 item 4) in a real headless browser (Debian's
# chromium-headless-shell): while a stream of 2 KiB PoRep C2 jobs runs, GET /status answers JSON
# with the jobs' partitions, and GET / — loaded by chromium with its scripts run — shows the
# running job's partitions and the timeline, with no console error. The screenshot is kept as a
# test artifact ($ARTIFACTS, default <build>/test-artifacts/status-page.png).
# No job needs to finish: three jobs keep a partition synthesizing or proving (a minute or more each
# on two cores) far longer than the checks take, and the page shows finished ones too (synth_done,
# done) for its 60-s window. The daemon is then killed (SIGKILL), not cancelled and stopped: a
# cancelled CPU partition can run on for over 10 s (the prover polls the flag between its stages),
# and the daemon's shutdown is checked elsewhere (server_submit_kinds, server_cuzk_api).
# Usage: status_page.sh <proofline> <parameter cache dir> [artifact dir]
set -uo pipefail
P=$(realpath "$1")
CACHE=$2
ARTIFACTS=${3:-$(dirname "$P")/test-artifacts}
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/tests/cli/check_lib.sh"
PY=/usr/bin/python3
CHROME=$(command -v chromium-headless-shell || command -v chromium || true)
daemon_pid=
cleanup() {
  if [ -n "$daemon_pid" ]; then kill -KILL "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null; fi
  rm -rf "$W"
}
trap cleanup EXIT
[ -n "$CHROME" ] || { echo "FAIL: no chromium-headless-shell (scripts/install-deps.sh installs it)"; exit 1; }
mkdir -p "$ARTIFACTS"

params=$(bash "$top/scripts/porep_params.sh" "$P" "$CACHE" 2KiB) || { echo "FAIL: porep setup"; exit 1; }
jobs=(1 2 3)
for s in "${jobs[@]}"; do "$P" gen-c1 --sector-size 2KiB --seed $s --out c$s.json >/dev/null 2>&1 || { echo "FAIL: gen-c1"; exit 1; }; done

FIL_PROOFS_PARAMETER_CACHE=$(dirname "$params") "$P" daemon --unix "$W/d.sock" --tcp "" --backend cpu \
  --set status.listen=127.0.0.1:0 --set engine.synthesis_workers=1 --set engine.log_partitions=false 2>daemon.log &
daemon_pid=$!
for _ in $(seq 300); do grep -q 'listening on' daemon.log && break; sleep 0.1; done
url=$(sed -n 's/.*status page at \(http:[^ ;]*\).*/\1/p' daemon.log | head -n1)
[ -n "$url" ] && echo "ok: the daemon serves its status page at $url" || { echo "FAIL: no status page"; cat daemon.log; exit 1; }

for s in "${jobs[@]}"; do
  "$P" submit --address "unix:$W/d.sock" --kind porep-c2 --c1 c$s.json --request-id stream-$s --no-wait >/dev/null 2>&1 ||
    { echo "FAIL: submit $s"; fails=$((fails + 1)); }
done

# GET /status while the stream runs: a job with a partition synthesizing or proving, the lanes.
"$PY" - "$url" <<'PYEOF'
import json, sys, time, urllib.request
url = sys.argv[1]
for _ in range(600):
    with urllib.request.urlopen(url + "status") as r:
        ctype = r.headers["Content-Type"]
        s = json.load(r)
    live = [j for j in s["jobs"] if any(p["state"] in ("synthesizing", "proving") for p in j["partition_states"])]
    if live:
        break
    time.sleep(0.05)
ok = True
def expect(what, cond):
    global ok
    print(("ok: " if cond else "FAIL: ") + what)
    ok = ok and cond
expect("GET /status is JSON", ctype.startswith("application/json"))
expect("a running job with a partition synthesizing or proving", bool(live))
expect("the lanes: 1 synthesis slot and the cpu backend's worker",
       s["timeline"]["lanes"] == ["synthesis 0", "backend 0 (cpu) worker 0"])
expect("memory, queues, kinds, backends are reported",
       s["memory"]["rss_bytes"] > 0 and "porep-c2" in s["kinds"] and s["backends"][0]["name"] == "cpu")
# porep-c2 proves in the compiled form by default: its compiled circuit (recorded at the first
# partition, or read from <params>.compiled) is listed with its bytes (issue 31)
for _ in range(1200):
    with urllib.request.urlopen(url + "status") as r:
        s = json.load(r)
    if s.get("compiled"):
        break
    time.sleep(0.05)
c = (s.get("compiled") or [{}])[0]
expect("the compiled circuit is listed: constraints, host and disk bytes, its file",
       c.get("constraints", 0) > 0 and c.get("host_bytes", 0) > 0 and c.get("disk_bytes", 0) > 0
       and c.get("file", "").endswith(".params.compiled") and s["memory"]["compiled_bytes"] >= c["host_bytes"])
try:
    urllib.request.urlopen(url + "nothing")
    expect("GET /nothing is 404", False)
except urllib.error.HTTPError as e:
    expect("GET /nothing is 404", e.code == 404)
sys.exit(0 if ok else 1)
PYEOF
[ $? -eq 0 ] || fails=$((fails + 1))

# GET / in chromium, its scripts run (virtual time), then the DOM and a screenshot; console errors
# are logged by chromium on stderr as CONSOLE lines.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,760 --virtual-time-budget=3000)
"$CHROME" "${flags[@]}" --enable-logging=stderr --v=0 --dump-dom "$url" >dom.html 2>chrome.err
"$CHROME" "${flags[@]}" --screenshot="$ARTIFACTS/status-page.png" "$url" >/dev/null 2>&1
grep -q '<rect' dom.html && echo "ok: the page drew the timeline (SVG bars)" || { echo "FAIL: no timeline bars"; fails=$((fails + 1)); }
grep -Eq 'class="p (synthesizing|proving|synth_done|done)"' dom.html && echo "ok: the page shows the jobs' partitions" ||
  { echo "FAIL: no partition states in the page"; fails=$((fails + 1)); }
grep -q 'stream-' dom.html && echo "ok: the page names the jobs" || { echo "FAIL: no job ids in the page"; fails=$((fails + 1)); }
if grep -Eq 'CONSOLE|Uncaught' chrome.err; then
  echo "FAIL: console errors:"; grep -E 'CONSOLE|Uncaught' chrome.err | head -5; fails=$((fails + 1))
else
  echo "ok: no console errors"
fi
[ -s "$ARTIFACTS/status-page.png" ] && echo "ok: screenshot kept at $ARTIFACTS/status-page.png" ||
  { echo "FAIL: no screenshot"; fails=$((fails + 1)); }
echo "status_page: $fails failure(s)"
[[ $fails -eq 0 ]]
