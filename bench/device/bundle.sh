#!/usr/bin/env bash
# bench/device/bundle.sh — packs what bench/device/run.sh needs on a bare CUDA machine into
# BUILD_DIR/devrun/ (git-ignored: build/ is), for the device tool:
#
#   [VARIANTS="NAME=BUILD_DIR …"] bench/device/bundle.sh [BUILD_DIR=build] [OLD_BUILD_DIR]
#   run(command="bash bench/device/run.sh tests kernels", carry=["build/devrun"])
#
# BUILD_DIR/devrun/bundle.tar.xz holds, stripped: bin/ (the proofline CLI, test_gpu, the gpu_*_bench
# benchmarks and proofline_pipeline_bench, those that are built; the CLI and test_gpu must be), lib/
# (the shared libraries they load that a bare CUDA machine lacks: ldd minus the C/C++ runtime and the
# driver), old/ (with OLD_BUILD_DIR: that build's gpu_*_bench and proofline CLI, for the kernels and
# c1read passes' old-vs-new tables, and old/lib/ for libraries of theirs that lib/ lacks), variants/NAME/
# (with VARIANTS, below: other builds' test_gpu and gpu_*_bench), scripts/ (what run.sh calls:
# bench/porep.sh, tests/server/cuzk_client.py, bench/gpu/summary.awk, bench/gpu/sass_mix.awk, bench/gpu/profile.sh), stubs/
# (the Python gRPC stubs of proto/cuzk/v1/proving.proto for the daemon32 pass, made by protoc +
# grpc_python_plugin when this machine has them) and MANIFEST (what is inside, the commit, the build
# folders; also beside the archive). xz, because the binaries share most of their code: ~152 MiB
# packs into ~15 MiB (one stream, a 256 MiB dictionary). run.sh unpacks it on the machine (once per warm machine).
# DEVRUN=folder writes the bundle there instead (e.g. under /tmp, for a dry run of a build folder
# that is not yours to write into; run.sh then takes BUNDLE=folder).
# Fails when the bundle exceeds 64 MiB (the device tool's carry limit, which the working tree shares:
# the sum is printed too).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-build}
old=${2:-}
[ -d "$build" ] || { echo "bundle: no build folder $build" >&2; exit 1; }
build=$(cd "$build" && pwd)
if [ -n "$old" ]; then
  [ -d "$old" ] || { echo "bundle: no old build folder $old" >&2; exit 1; }
  old=$(cd "$old" && pwd)
fi
out=${DEVRUN:-$build/devrun}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/scripts" "$stage/stubs"

for b in proofline test_gpu; do
  [ -x "$build/$b" ] || { echo "bundle: $build/$b is not built (a CUDA build of the proofline CLI and test_gpu)" >&2; exit 1; }
done
bins=(proofline test_gpu)
for b in "$build"/gpu_*_bench "$build"/proofline_pipeline_bench "$build"/test_gpu_host; do
  if [ -x "$b" ]; then bins+=("$(basename "$b")"); fi
done
for b in "${bins[@]}"; do strip -o "$stage/bin/$b" "$build/$b"; done

# The shared libraries of a list of binaries, less the C/C++ runtime (every machine has it) and the
# NVIDIA driver's (the machine's own must be used). A "not found" library is an error: the binary
# would not start there either.
needed_libs() {
  local b
  for b in "$@"; do
    if ldd "$b" | grep -q 'not found'; then
      echo "bundle: $b needs a library this machine lacks:" >&2
      ldd "$b" | grep 'not found' >&2
      exit 1
    fi
  done
  for b in "$@"; do ldd "$b" | awk '/=> \//{print $3}'; done |
    grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|libutil|ld-linux[^/]*)\.so|/lib(cuda|nvidia-[^/]*|nvcuvid)\.so' |
    sort -u || true
}
libs=$(needed_libs "${bins[@]/#/$stage/bin/}")
[ -z "$libs" ] || xargs -r -I{} cp -L {} "$stage/lib/" <<<"$libs"

oldbins=()
if [ -n "$old" ]; then
  mkdir -p "$stage/old/lib"
  for b in "$old"/gpu_*_bench "$old"/proofline; do
    [ -x "$b" ] || continue
    strip -o "$stage/old/$(basename "$b")" "$b"
    oldbins+=("$stage/old/$(basename "$b")")
  done
  [ ${#oldbins[@]} -gt 0 ] || { echo "bundle: no gpu_*_bench or proofline in the old build $old" >&2; exit 1; }
  oldlibs=$(needed_libs "${oldbins[@]}")
  while read -r l; do
    if [ -n "$l" ] && [ ! -e "$stage/lib/$(basename "$l")" ]; then cp -L "$l" "$stage/old/lib/"; fi
  done <<<"$oldlibs"
fi

# VARIANTS="NAME=BUILD_DIR …": builds of other branches or flags (a switch compiled in, a kernel variant)
# timed beside this one in the same call: each build's test_gpu and gpu_*_bench under variants/NAME/
# (their libraries must be this build's: same machine, same packages).
varinfo=""
for v in ${VARIANTS:-}; do
  name=${v%%=*} dir=${v#*=}
  if [[ "$v" != *=* ]] || ! [[ "$name" =~ ^[A-Za-z0-9_-]+$ ]] || [ ! -d "$dir" ]; then
    echo "bundle: VARIANTS entry '$v' is not NAME=BUILD_DIR (an existing folder)" >&2; exit 1
  fi
  if [ -e "$stage/variants/$name" ]; then echo "bundle: VARIANTS names $name twice" >&2; exit 1; fi
  mkdir -p "$stage/variants/$name"
  for b in "$dir"/test_gpu "$dir"/gpu_*_bench; do
    if [ -x "$b" ]; then strip -o "$stage/variants/$name/$(basename "$b")" "$b"; fi
  done
  if [ -z "$(ls -A "$stage/variants/$name")" ]; then
    echo "bundle: variant $name: no test_gpu or gpu_*_bench built in $dir" >&2; exit 1
  fi
  vlibs=$(needed_libs "$stage/variants/$name"/*)
  while read -r l; do
    if [ -n "$l" ] && [ ! -e "$stage/lib/$(basename "$l")" ]; then
      echo "bundle: variant $name needs $(basename "$l"), which the main build does not" >&2; exit 1
    fi
  done <<<"$vlibs"
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt" 2>/dev/null)  # the tree it was built from
  varinfo+=" $name=$dir (commit $(git -C "${src:-$dir}" rev-parse --short HEAD 2>/dev/null || echo '?'))"
done

cp "$top/bench/porep.sh" "$top/tests/server/cuzk_client.py" "$top/bench/gpu/summary.awk" "$top/bench/gpu/sass_mix.awk" "$top/bench/gpu/profile.sh" \
  "$stage/scripts/"
stubs="none (no protoc / grpc_python_plugin here: the daemon32 pass cannot run)"
if command -v protoc >/dev/null && command -v grpc_python_plugin >/dev/null; then
  protoc -I "$top/proto" --python_out="$stage/stubs" --grpc_python_out="$stage/stubs" \
    --plugin=protoc-gen-grpc_python="$(command -v grpc_python_plugin)" "$top/proto/cuzk/v1/proving.proto"
  stubs="cuzk/v1/proving_pb2{,_grpc}.py ($(protoc --version))"
else
  echo "bundle: warning: $stubs" >&2
fi

{
  echo "bundle of $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -n)"
  echo "tree: commit $(git -C "$top" rev-parse --short HEAD)$(git -C "$top" status --porcelain --untracked-files=no | grep -q . && echo ' (plus uncommitted changes)')"
  echo "build: $build ($(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || echo '?'))"
  echo "old build: ${old:-none}"
  echo "variants:${varinfo:- none}"
  echo "stubs: $stubs"
  echo "files:"
  (cd "$stage" && find . -type f ! -name MANIFEST -printf '%P %s\n' | sort)
} >"$stage/MANIFEST"

# Replace an earlier bundle, never a folder holding anything else.
if [ -e "$out" ] && [ -n "$(find "$out" -mindepth 1 -maxdepth 1 ! -name bundle.tar.xz ! -name MANIFEST)" ]; then
  echo "bundle: $out holds other files than a bundle: not replaced" >&2
  exit 1
fi
mkdir -p "$out"
rm -f "$out/bundle.tar.xz" "$out/MANIFEST"
# One xz stream with a 256 MiB dictionary (larger than the archive of one build with an old one and
# two variants): the binaries share most of their code, and only a match window that spans them finds
# it (-T0 -6 made independent blocks with an 8 MiB dictionary each: 44.8 MiB for the 9 binaries this
# packs into 14.8). Packing needs ~2.7 GiB of memory, unpacking ~256 MiB.
tar -C "$stage" -cf - . | xz -T1 --lzma2=preset=6,dict=256MiB >"$out/bundle.tar.xz"
cp "$stage/MANIFEST" "$out/MANIFEST"

size=$(du -sb "$out" | cut -f1)
raw=$(du -sb "$stage" | cut -f1)
tree=$(cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 -r du -cb 2>/dev/null | tail -n1 | cut -f1)
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
echo "bundle: $out: $(mib "$size") ($(mib "$raw") unpacked: ${#bins[@]} binaries, ${#oldbins[@]} old, $(find "$stage/variants" -type f 2>/dev/null | wc -l) in variants, $(find "$stage/lib" "$stage/old" -name '*.so*' 2>/dev/null | wc -l) libraries)"
echo "bundle: with the working tree ($(mib "$tree")): $(mib $((size + tree))) of the device tool's 64 MiB"
if [ "$size" -gt $((64 << 20)) ]; then
  echo "bundle: $out exceeds 64 MiB: the device tool cannot carry it" >&2
  exit 1
fi
[ $((size + tree)) -le $((64 << 20)) ] || echo "bundle: warning: bundle + working tree exceed 64 MiB: the call would be refused" >&2
