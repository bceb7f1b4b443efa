#!/usr/bin/env bash
# tests/lint/check_layers_test.sh SCRIPT — scripts/check_layers.sh on small temporary trees:
# a clean tree passes; an upward include (by "proofline/<layer>/" path, and by a relative path)
# fails naming file:line and both layers; an allow-listed one passes; a stale allow-list entry
# and a folder missing from the layer table fail; the table is read from docs/layout.md alone
# (a missing page is a usage error naming it; a README.md table is not read).
set -uo pipefail
script=${1:?usage: check_layers_test.sh path/to/check_layers.sh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect <name> <want rc> <regex the output must match, or ""> 
expect() {
  local name=$1 want=$2 pattern=$3 out rc
  out=$(bash "$script" "$tmp/tree" 2>&1); rc=$?
  if [[ $rc -ne $want ]]; then fail "$name: exit $rc, expected $want; output:"; echo "$out"; return; fi
  if [[ -n $pattern ]] && ! grep -qE -- "$pattern" <<<"$out"; then
    fail "$name: output does not match /$pattern/:"; echo "$out"; return
  fi
  echo "ok: $name"
}

t=$tmp/tree
mkdir -p "$t/include/proofline/low" "$t/include/proofline/high" "$t/src/low" "$t/src/high" "$t/scripts" "$t/docs"
cat > "$t/docs/layout.md" <<'MD'
# x
## Layers
| folder | job |
|---|---|
| `low/` | the lower layer |
| `high/` | the higher layer |
## Next
| `notalayer/` | a table after the Layers section is ignored |
MD
printf '#pragma once\n#include <vector>\n' > "$t/include/proofline/low/a.hpp"
printf '#pragma once\n#include "proofline/low/a.hpp"\n' > "$t/include/proofline/high/b.hpp"
printf '#include "proofline/high/b.hpp"\n#include "proofline/v1/generated.pb.h"\n' > "$t/src/high/b.cpp"
printf '#include "proofline/low/a.hpp"\n#include "local.hpp"\n' > "$t/src/low/a.cpp"
: > "$t/src/low/local.hpp"
expect "clean tree passes" 0 "^check_layers: ok"

# An upward include by its public path.
printf '#pragma once\n#include <cstdint>\n\n#include "proofline/high/b.hpp"\n' > "$t/include/proofline/low/a.hpp"
expect "upward include fails" 1 "^include/proofline/low/a.hpp:4: layer 'low' includes higher layer 'high'"

# Allow-listed: passes; the same entry once the include is gone: stale, fails.
echo "include/proofline/low/a.hpp proofline/high/b.hpp" > "$t/scripts/layers.allow"
expect "allow-listed upward include passes" 0 "1 allow-listed"
printf '#pragma once\n' > "$t/include/proofline/low/a.hpp"
expect "stale allow-list entry fails" 1 "matches no upward include"
rm "$t/scripts/layers.allow"

# An upward include by a relative path from src/.
printf '#include "../high/b.cpp"\n' > "$t/src/low/rel.cpp"
expect "relative upward include fails" 1 "^src/low/rel.cpp:1: layer 'low' includes higher layer 'high'"
rm "$t/src/low/rel.cpp"

# A folder that is not in the table.
mkdir -p "$t/src/stray" && : > "$t/src/stray/x.cpp"
expect "folder missing from the table fails" 1 "folder 'stray' is not in the layer table of docs/layout.md"
rm -r "$t/src/stray"
expect "clean again" 0 ""

# The order comes from docs/layout.md only: without it, exit 2 naming the page, even with the old
# README.md table beside it.
mv "$t/docs/layout.md" "$t/layout.md.saved"
sed 's/^## Layers/## Layout/' "$t/layout.md.saved" > "$t/README.md"
expect "no docs/layout.md: usage error naming it" 2 "no layer table under '## Layers' in .*/docs/layout.md"
rm "$t/README.md"; mv "$t/layout.md.saved" "$t/docs/layout.md"
expect "clean with the page back" 0 "^check_layers: ok \\(2 layers: low high"

if (( fails )); then echo "$fails case(s) failed"; exit 1; fi
echo "all cases passed"
