#!/usr/bin/env bash
# bench/setup/small_run.sh — issue 17's small sizes on the GPU through the same path as CI's CPU runs:
# bench/porep.sh 2KiB | 8MiB | 512MiB cuda (gen-c1 → setup on the GPU → c2 → verify --c1 in its own
# process), from the bundle of bench/setup/bundle.sh; each size under its own time limit.
set -uo pipefail
B=${BUNDLE:-build/devrun-setup}
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
P=$(realpath "$B/proofline")
for s in ${SIZES:-2KiB 8MiB 512MiB}; do
  echo "== $s"
  SUSTAINED=0 SINGLE=1 NO_BUILD=1 PROOFLINE="$P" PARAM_CACHE=/tmp/pc WORK_DIR=/tmp/pw \
    timeout "${LIMIT:-150}" bash bench/porep.sh "$s" cuda 2>&1 | tail -12
  echo "rc=$?"
done
