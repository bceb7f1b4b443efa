#!/usr/bin/env bash
# Makes sure development PoRep parameters for a sector size exist in a parameter cache folder, running
# `proofline setup --circuit porep` only when neither that folder nor the machine's cache holds the
# parameters of the current circuit code. Used by `make demo` and the tests that prove a 2 KiB PoRep
# C2 (the ctest fixture porep_params_2kib runs it first), so the slow setup (2 KiB: 2.7 M constraints,
# a 1.1 GB .params, minutes on two cores) runs once per machine and circuit code.
#
# Usage: scripts/porep_params.sh <proofline> <cache dir> [sector size = 2KiB]
# SETUP_BACKEND=cpu|cuda|auto (default cpu): where setup's fixed-base multiplications run.
# Prints the .params path on stdout (progress of a setup goes to stderr). The files carry upstream's
# names (v28-stacked-proof-of-replication-…) in <cache dir>/<size>/, usable as
# FIL_PROOFS_PARAMETER_CACHE; a stamp file holds the SHA-256 of the sources that shape the circuit and
# the parameters (field and curve arithmetic, msm, the domain, Filecoin's configurations, the PoRep
# circuit, gadgets, hashes, the constraint system, groth16 setup and params I/O, their public headers): when they change, setup
# runs again.
# The machine's cache, like the compiler cache, outlives a clone: PROOFLINE_PARAMS_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/proofline/dev-params; "off" turns it off) keeps one folder per stamp
# and size, the 4 most recently used; a hit is copied (never linked: a test may not change the
# machine's copy), a miss is set up here and then stored there (written to a temporary name, renamed).
set -euo pipefail
bin=$1
size=${3:-2KiB}
cache=$2/$size
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$cache"
# (src/filecoin/c1.cpp, the C1 JSON reader, shapes neither: left out.)
stamp_files=$(cd "$top" && ls src/circuits/porep/*.cpp src/gadgets/*.cpp src/hash/*.cpp src/ff/*.cpp src/ff/*.S \
  src/ec/*.cpp src/msm/*.cpp src/poly/*.cpp src/filecoin/*.cpp src/r1cs/*.cpp src/groth16/setup*.cpp src/groth16/params*.cpp \
  include/proofline/{ff,ec,msm,poly,r1cs,gadgets,hash,filecoin}/*.hpp include/proofline/groth16/{setup,params}*.hpp \
  2>/dev/null | grep -v '^src/filecoin/c1\.cpp$' | sort || true)
if [ -z "$stamp_files" ]; then
  # Run away from the sources (a bundle's copy of the scripts): nothing to stamp with, so no cache
  # may answer for this code (an empty stamp would be the same for every tree).
  echo "porep params: no sources under $top to stamp the parameters with: setup runs, no cache used" >&2
  stamp_now=unstamped-$$-$RANDOM
  PROOFLINE_PARAMS_CACHE=off
else
  stamp_now=$(cd "$top" && cat $stamp_files | sha256sum | cut -c1-64)
fi
params=$(ls "$cache"/v28-stacked-proof-of-replication-*.params 2>/dev/null | head -n1 || true)
if [ -n "$params" ] && [ -f "${params%.params}.vk" ] && [ "$(cat "$cache/stamp" 2>/dev/null)" = "$stamp_now" ]; then
  echo "porep params: cached $params" >&2
  echo "$params"
  exit 0
fi
rm -f "$cache"/v28-stacked-proof-of-replication-* "$cache/stamp"

machine=${PROOFLINE_PARAMS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/proofline/dev-params}
[ "$machine" = off ] && machine=
entry=${machine:+$machine/porep-$size-$stamp_now}
if [ -n "$entry" ] && [ -f "$entry/complete" ]; then
  cp --reflink=auto "$entry"/v28-stacked-proof-of-replication-* "$cache/"
  touch "$entry/complete"
  params=$(ls "$cache"/v28-stacked-proof-of-replication-*.params | head -n1)
  echo "$stamp_now" > "$cache/stamp"
  echo "porep params: from the machine's cache $entry" >&2
  echo "$params"
  exit 0
fi

echo "porep params: proofline setup --circuit porep --sector-size $size (development parameters, NOT secure;" \
  "cached in $cache${entry:+ and $entry})" >&2
FIL_PROOFS_PARAMETER_CACHE="$cache" "$bin" setup --circuit porep --sector-size "$size" --seed 1 \
  --backend "${SETUP_BACKEND:-cpu}" >&2
params=$(ls "$cache"/v28-stacked-proof-of-replication-*.params 2>/dev/null | head -n1 || true)
[ -n "$params" ] || { echo "porep params: setup wrote no .params file in $cache" >&2; exit 1; }
echo "$stamp_now" > "$cache/stamp"

# Into the machine's cache (best effort: a full disk or a read-only home only costs the next run a setup).
if [ -n "$entry" ] && mkdir -p "$machine" 2>/dev/null; then
  tmp=$(mktemp -d "$machine/.tmp-XXXXXX" 2>/dev/null) || tmp=
  if [ -n "$tmp" ] && cp --reflink=auto "$cache"/v28-stacked-proof-of-replication-* "$tmp/" 2>/dev/null &&
     touch "$tmp/complete" && { rm -rf "$entry"; mv -T "$tmp" "$entry"; } 2>/dev/null; then
    echo "porep params: stored in the machine's cache $entry" >&2
    # Keep the 4 most recently used entries.
    ls -1dt "$machine"/porep-* 2>/dev/null | tail -n +5 | xargs -r rm -rf
  else
    [ -z "$tmp" ] || rm -rf "$tmp"
    echo "porep params: could not store them in $machine (the next clean build sets up again)" >&2
  fi
fi
echo "$params"
