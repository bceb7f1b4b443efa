#!/usr/bin/env bash
# fuzz/run.sh <fuzz binary> <target> [seconds] — one libFuzzer run of a target of fuzz/.
#
# Replays the committed seeds (fuzz/corpus/<target>) and regression inputs
# (fuzz/regressions/<target>), then fuzzes for [seconds] (default $FUZZ_TIME, else 10) on one core.
# New inputs go to a scratch corpus ($FUZZ_WORK/<target>, default a temporary folder removed at
# the end), never into the committed one. A crash, leak, timeout or sanitizer report fails the run
# and leaves the reproducer as $FUZZ_ARTIFACTS/<target>-crash-<sha1> (default fuzz-artifacts/ in
# the working directory). FUZZ_ARGS adds libFuzzer flags.
set -euo pipefail
bin=$1
target=$2
seconds=${3:-${FUZZ_TIME:-10}}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
seeds=$here/corpus/$target
regress=$here/regressions/$target
artifacts=${FUZZ_ARTIFACTS:-$PWD/fuzz-artifacts}
mkdir -p "$artifacts"
if [ -n "${FUZZ_WORK:-}" ]; then
  work=$FUZZ_WORK/$target
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
dirs=("$work")
[ -d "$seeds" ] && dirs+=("$seeds")
[ -d "$regress" ] && dirs+=("$regress")
# -timeout: one input may take at most 10 s (a hang is a finding); -rss_limit_mb: so does a blow-up
# of memory (a decoder must check counts against the bytes before it allocates).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# The JSON targets: inputs up to 1 MiB (room for the 200,000-level nestings of fuzz/json_mutator.hpp)
# and the formats' tokens (fuzz/json.dict).
extra=()
case $target in
  c1 | snarkjs_vk | snarkjs_proof | snarkjs_public) extra=(-max_len=1048576 -dict="$here/json.dict") ;;
  grpc_request) extra=(-max_len=1048576) ;;
esac
start=$(date +%s)
set +e
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
  -artifact_prefix="$artifacts/$target-" "${extra[@]}" ${FUZZ_ARGS:-} "${dirs[@]}" 2>&1 |
  grep -v -E '^#[0-9]+.*(NEW|REDUCE|pulse)'
status=("${PIPESTATUS[@]}")
set -e
rc=${status[0]}
echo "fuzz $target: ${seconds}s requested, $(( $(date +%s) - start ))s run, exit $rc"
exit "$rc"
