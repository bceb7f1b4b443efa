#!/usr/bin/env bash
# bench/pipeline.sh — the engine's pipeline benchmark: back-to-back proofs of the bench circuit
# through the proving engine, with and without synthesis ∥ proving overlap, with and without the
# buffer pool, with the reclaimer thread and with inline frees; per partition the three timers
# (kernel, prover call, pipeline stage) and their spread. Builds proofline_pipeline_bench first.
#
#   bench/pipeline.sh SIZE BACKEND [ARGS...]
#     SIZE      circuit rows, 2^k (e.g. 2^16 on a CPU box, 2^24 or 2^25 on an H200: a partition of
#               2^25 rows holds ~4.3 GB of buffers)
#     BACKEND   cpu | cuda (cuda: every usable device; --gpus N to use N of them)
#     ARGS      passed on: --proofs N (3), --partitions N (2), --modes overlap,serial,nopool,inline,
#               --synthesis-workers N, --prover-workers N, --budget-gb X, --json FILE
# Environment: BUILD_DIR (default build), NO_BUILD=1 to run the binary as it is, PARAMS_DIR (default
# $BUILD_DIR/pipeline-params: bench_<k>.params is generated there on first use, development
# parameters, NOT secure; at 2^24 and above that setup takes long — keep the folder between runs).
#
# Examples:  bench/pipeline.sh 2^16 cpu
#            bench/pipeline.sh 2^24 cuda --proofs 4 --partitions 2
#            bench/pipeline.sh 2^24 cuda --gpus 1 --modes overlap   # vs. the same with both GPUs
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $# -lt 2 ]]; then
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
SIZE=$1 BACKEND=$2
shift 2
BUILD_DIR=${BUILD_DIR:-build}
case $BUILD_DIR in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac
PARAMS_DIR=${PARAMS_DIR:-$BUILD_DIR/pipeline-params}
if [[ ${NO_BUILD:-0} != 1 ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" >/dev/null
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target proofline_pipeline_bench >/dev/null
fi
mkdir -p "$PARAMS_DIR"
k=${SIZE#2^}
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
if [[ $BACKEND == cuda ]] && command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | sed 's/^/# gpu /'
fi
exec "$BUILD_DIR/proofline_pipeline_bench" --size "$SIZE" --backend "$BACKEND" \
  --params "$PARAMS_DIR/bench_$k.params" "$@"
