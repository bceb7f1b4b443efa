#!/usr/bin/env bash
# scripts/stress.sh [BUILD_DIR=build] — the concurrency suites STRESS_RUNS times (default 20) beside a
# CPU load, to find the tests that pass only when the machine is idle (flaky tests are bugs).
#
# Each run: the engine and server test binaries (every case, in one process each, both at once) and
# the daemon CLI tests (ctest -R STRESS_CTEST, default: server_cli, server_test_kind, cli_newuser4,
# cli_hardening). The load: `stress-ng --cpu STRESS_LOAD` when stress-ng is installed, else
# STRESS_LOAD shell busy loops (default: the number of cores), started before the first run and
# stopped at the end. Prints one line per run and, at the end, every test that failed with how often;
# the logs of failed runs stay in BUILD_DIR/stress/. Exit 0 only when every run passed.
# `make stress` runs it after a build.
set -uo pipefail
build=${1:-build}
runs=${STRESS_RUNS:-20}
load=${STRESS_LOAD:-$(nproc)}
ctest_re=${STRESS_CTEST:-'^(server_cli|server_test_kind|cli_newuser4|cli_hardening)$'}
logs=$build/stress
for b in test_engine test_server; do
  [ -x "$build/$b" ] || { echo "stress: $build/$b is not built (make build)" >&2; exit 2; }
done
rm -rf "$logs" && mkdir -p "$logs"

pids=()
stop_load() { [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; pids=(); }
trap stop_load EXIT
if command -v stress-ng >/dev/null 2>&1; then
  stress-ng --cpu "$load" --quiet >/dev/null 2>&1 &
  pids+=($!)
  echo "stress: load = stress-ng --cpu $load"
else
  for _ in $(seq "$load"); do (while :; do :; done) & pids+=($!); done
  echo "stress: load = $load busy loops (install stress-ng for a varied load)"
fi

fails=0
declare -A failed_tests
for i in $(seq "$runs"); do
  t0=$SECONDS
  d=$logs/run$i
  mkdir -p "$d"
  "$build/test_engine" --gtest_brief=1 >"$d/test_engine.log" 2>&1 &
  pe=$!
  "$build/test_server" --gtest_brief=1 >"$d/test_server.log" 2>&1 &
  ps=$!
  wait $pe; re=$?
  wait $ps; rs=$?
  ctest --test-dir "$build" -R "$ctest_re" --output-on-failure -j2 >"$d/ctest.log" 2>&1
  rc=$?
  bad=()
  for f in "$d/test_engine.log" "$d/test_server.log"; do
    while read -r t; do bad+=("$t"); done < <(grep -oE '^\[  FAILED  \] [A-Za-z0-9_./]+' "$f" | awk '{print $4}' | sort -u)
  done
  while read -r t; do bad+=("$t"); done < <(grep -oE '[0-9]+ - [A-Za-z0-9_]+ \(' "$d/ctest.log" | awk '{print $3}')
  if [ $re -eq 0 ] && [ $rs -eq 0 ] && [ $rc -eq 0 ]; then
    printf 'stress: run %2d/%d passed (%d s)\n' "$i" "$runs" $((SECONDS - t0))
    rm -rf "$d"
  else
    fails=$((fails + 1))
    [ ${#bad[@]} -gt 0 ] || bad=("exit: test_engine $re, test_server $rs, ctest $rc")
    printf 'stress: run %2d/%d FAILED (%d s): %s (logs in %s)\n' "$i" "$runs" $((SECONDS - t0)) "${bad[*]}" "$d"
    for t in "${bad[@]}"; do failed_tests[$t]=$(( ${failed_tests[$t]:-0} + 1 )); done
  fi
done
stop_load
echo "stress: $((runs - fails))/$runs runs passed"
for t in "${!failed_tests[@]}"; do echo "stress:   $t failed ${failed_tests[$t]} time(s)"; done
[ $fails -eq 0 ]
