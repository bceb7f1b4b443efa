#!/usr/bin/env bash
# bench/setup/bundle.sh — packs `proofline` (the CLI, CUDA build) and test_gpu of a build folder, with
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
[ -x "$build/proofline" ] || { echo "missing $build/proofline (build proofline_cli with CUDA on)" >&2; exit 1; }
strip -o "$out/proofline" "$build/proofline"
if [ -x "$build/test_gpu" ]; then strip -o "$out/test_gpu" "$build/test_gpu"; fi
for b in "$out"/proofline "$out"/test_gpu; do
  [ -x "$b" ] || continue
  # Everything but the C/C++ runtime, which the machine has.
  ldd "$b" | awk '/=> \//{print $3}' | grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux[^/]*)\.so' || true
done | sort -u | xargs -r -I{} cp -L {} "$out/lib/"
du -sh "$out"
