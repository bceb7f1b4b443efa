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
#               --gpus N[,M] (device counts, one run of the modes each), --synthesis-workers N,
#               --prover-workers N, --budget-gb X, --setup-on auto|cpu|gpu, --json FILE
# Parameters: development parameters (fixed seed, NOT secure) are generated in the bench process and
# handed to the engine in memory; with BACKEND cuda the setup's fixed-base multiplications run on GPU
# 0 (seconds at 2^24/2^25). PARAMS_DIR set: bench_<k>.params there is read if present, else written
# after the setup (a file round trip of ~9 GB at 2^24, ~19 GB at 2^25: slower than a GPU setup).
# Environment: BUILD_DIR (default build), NO_BUILD=1 to run the binary as it is, PARAMS_DIR.
#
# Examples:  bench/pipeline.sh 2^16 cpu
#            bench/pipeline.sh 2^24 cuda --proofs 4 --partitions 2
#            bench/pipeline.sh 2^24 cuda --gpus 1,2 --modes overlap   # one GPU vs two
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
if [[ ${NO_BUILD:-0} != 1 ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" >/dev/null
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target proofline_pipeline_bench >/dev/null
fi
k=${SIZE#2^}
params=()
if [[ -n ${PARAMS_DIR:-} ]]; then
  mkdir -p "$PARAMS_DIR"
  params=(--params "$PARAMS_DIR/bench_$k.params")
fi
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
if [[ $BACKEND == cuda ]] && command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | sed 's/^/# gpu /'
fi
exec "$BUILD_DIR/proofline_pipeline_bench" --size "$SIZE" --backend "$BACKEND" "${params[@]}" "$@"
