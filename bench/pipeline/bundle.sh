#!/usr/bin/env bash
# bench/pipeline/bundle.sh — packs proofline_pipeline_bench and test_gpu of a CUDA build, with the
# shared libraries a bare CUDA machine lacks (oneTBB, GMP, OpenSSL, spdlog, fmt, gtest), into
# BUILD_DIR/devrun-pipeline (git-ignored, under the build folder), for the device tool:
#   bench/pipeline/bundle.sh [BUILD_DIR=build-engine-gpu]
#   run(command="bench/pipeline/h200.sh probe|full", carry=["BUILD_DIR/devrun-pipeline"])
# Binaries are stripped of debug info (the carry limit is 64 MiB).
set -euo pipefail
build=${1:-build-engine-gpu}
out="$build/devrun-pipeline"
rm -rf "$out" && mkdir -p "$out/lib"
[ -x "$build/proofline_pipeline_bench" ] || { echo "missing $build/proofline_pipeline_bench (build it with CUDA on)" >&2; exit 1; }
strip --strip-debug -o "$out/proofline_pipeline_bench" "$build/proofline_pipeline_bench"
# test_gpu, or test_gpu_fixed_base (tests/gpu/fixed_base_test.cpp alone, linked like test_gpu) when
# the whole test_gpu is not built
for t in test_gpu test_gpu_fixed_base; do
  if [ -x "$build/$t" ]; then strip --strip-debug -o "$out/test_gpu" "$build/$t"; break; fi
done
for b in "$out"/proofline_pipeline_bench "$out"/test_gpu; do
  ldd "$b" | awk '/=> \//{print $3}' | grep -E 'libtbb|libgmp|libssl|libcrypto|libspdlog|libfmt|libgtest|libprotobuf|libgrpc|libabsl' || true
done | sort -u | xargs -r -I{} cp -L {} "$out/lib/"
du -sh "$out"
