#!/usr/bin/env bash
# Makes sure development PoRep parameters for a sector size exist in a parameter cache folder, running
# `proofline setup --circuit porep` only when they are missing or were made by other circuit code.
# Used by `make demo` and the PoRep C2 end-to-end test, so the slow setup (2 KiB: 2.7 M constraints,
# a 1.1 GB .params) runs once per build folder.
#
# Usage: scripts/porep_params.sh <proofline> <cache dir> [sector size = 2KiB]
# SETUP_BACKEND=cpu|cuda|auto (default cpu): where setup's fixed-base multiplications run.
# Prints the .params path on stdout (progress of a setup goes to stderr). The files carry upstream's
# names (v28-stacked-proof-of-replication-…) in <cache dir>/<size>/, usable as
# FIL_PROOFS_PARAMETER_CACHE; a stamp file holds the SHA-256 of the sources that shape the circuit and
# the parameters (PoRep circuit, gadgets, groth16 setup and params I/O): when they change, setup runs
# again.
set -euo pipefail
bin=$1
size=${3:-2KiB}
cache=$2/$size
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$cache"
stamp_now=$(cd "$top" && cat $(ls src/circuits/porep/*.cpp src/gadgets/*.cpp src/groth16/setup.cpp \
  src/groth16/params.cpp src/r1cs/qap_evaluator.cpp include/proofline/gadgets/*.hpp | sort) | sha256sum | cut -c1-64)
params=$(ls "$cache"/v28-stacked-proof-of-replication-*.params 2>/dev/null | head -n1 || true)
if [ -n "$params" ] && [ -f "${params%.params}.vk" ] && [ "$(cat "$cache/stamp" 2>/dev/null)" = "$stamp_now" ]; then
  echo "porep params: cached $params" >&2
  echo "$params"
  exit 0
fi
rm -f "$cache"/v28-stacked-proof-of-replication-* "$cache/stamp"
echo "porep params: proofline setup --circuit porep --sector-size $size (development parameters, NOT secure;" \
  "cached in $cache)" >&2
FIL_PROOFS_PARAMETER_CACHE="$cache" "$bin" setup --circuit porep --sector-size "$size" --seed 1 \
  --backend "${SETUP_BACKEND:-cpu}" >&2
params=$(ls "$cache"/v28-stacked-proof-of-replication-*.params 2>/dev/null | head -n1 || true)
[ -n "$params" ] || { echo "porep params: setup wrote no .params file in $cache" >&2; exit 1; }
echo "$stamp_now" > "$cache/stamp"
echo "$params"
