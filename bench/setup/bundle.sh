#!/usr/bin/env bash
# bench/setup/bundle.sh — packs `proofline` (the CLI, CUDA build), test_gpu and the GPU benchmarks
# gpu_groth16_bench and gpu_srs_load_bench (those that are built) of a build folder, with
# the shared libraries a bare CUDA machine lacks (oneTBB, GMP, OpenSSL, spdlog, fmt, gtest, gRPC,
# protobuf, abseil, …), into BUILD_DIR/devrun-setup (git-ignored, under the build folder), for the
# setup-at-scale runs of bench/setup/h200.sh (issue 16) through the device tool:
#   bench/setup/bundle.sh [BUILD_DIR=build]
#   run(command="bench/setup/h200.sh test|porep32|bench27", carry=["BUILD_DIR/devrun-setup"])
# Binaries are stripped (the carry limit is 64 MiB).
set -euo pipefail
build=${1:-build}
out="$build/devrun-setup"
rm -rf "$out" && mkdir -p "$out/lib"
# The CLI, test_gpu and the GPU benchmarks that are built (at least one of them).
bins=(proofline test_gpu gpu_groth16_bench gpu_srs_load_bench)
for b in "${bins[@]}"; do
  if [ -x "$build/$b" ]; then strip -o "$out/$b" "$build/$b"; fi
done
ls "$out" | grep -qv '^lib$' || { echo "none of ${bins[*]} is built in $build" >&2; exit 1; }
for b in "${bins[@]/#/$out/}"; do
  [ -x "$b" ] || continue
  # Everything but the C/C++ runtime, which the machine has.
  ldd "$b" | awk '/=> \//{print $3}' | grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' || true
done | sort -u | xargs -r -I{} cp -L {} "$out/lib/"
du -sh "$out"
