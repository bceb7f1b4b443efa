#!/usr/bin/env bash
# scripts/check_layers.sh [ROOT] — the layer rule: a layer includes only layers below it.
#
# The order comes from one place, the table under "## Layers" in docs/layout.md (rows
# "| `name/` | …", lowest first). Every `#include` in include/proofline/<layer>/ and src/<layer>/ is checked: a
# "proofline/<layer>/…" include (quotes or angle brackets), or a quoted include that resolves
# relative to the including file into src/<layer>/ or include/proofline/<layer>/, must name a layer
# no higher than the includer's. Known exceptions are listed in scripts/layers.allow, one
# "<file> <included path>" per line (# comments); the list may only shrink: an entry that matches
# no include is an error too. tests/, bench/ and fuzz/ are not checked (a test may use any layer).
#
# Exit 0: no violation. Exit 1: each violation printed as
#   <file>:<line>: layer '<low>' includes higher layer '<high>': <include line>
# Exit 2: usage or a malformed layer table.
set -uo pipefail

root=${1:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"}
root=$(cd "$root" 2>/dev/null && pwd) || { echo "check_layers: no such folder: ${1}" >&2; exit 2; }
cd "$root"
allow_file=scripts/layers.allow

# ---- the order, lowest first, from the layer table of docs/layout.md ----
layout_doc=docs/layout.md
mapfile -t layers < <(awk '/^## /{in_layers=($0 ~ /^## Layers/)} in_layers' "$layout_doc" 2>/dev/null |
                      sed -nE 's/^\| *`([a-z0-9_]+)\/` *\|.*/\1/p')
if (( ${#layers[@]} < 2 )); then
  echo "check_layers: no layer table under '## Layers' in $root/$layout_doc" >&2
  exit 2
fi
declare -A rank=()
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done

declare -A allowed=() used=()
if [[ -f $allow_file ]]; then
  while read -r file inc _; do
    [[ -z ${file:-} || $file == \#* ]] && continue
    allowed["$file $inc"]=1
  done < "$allow_file"
fi

status=0
# Folders that are not in the table are an error: a new layer is placed in the order first.
for dir in include/proofline/*/ src/*/; do
  [[ -d $dir ]] || continue
  name=$(basename "$dir")
  if [[ -z ${rank[$name]+x} ]]; then
    echo "$dir: folder '$name' is not in the layer table of $layout_doc (add it where it belongs in the order)"
    status=1
  fi
done

# One awk pass over every include line: prints "<file>\t<line>\t<from>\t<to>\t<include>\t<text>"
# for each include into a higher layer. A quoted include that does not start with "proofline/" is
# resolved against the including file's folder ("../engine/log.hpp" from src/gpu/ is layer engine).
while IFS=$'\t' read -r file line from to inc text; do
  if [[ -n ${allowed["$file $inc"]+x} ]]; then
    used["$file $inc"]=1
  else
    echo "$file:$line: layer '$from' includes higher layer '$to': $text"
    status=1
  fi
done < <(grep -rnE --include='*.hpp' --include='*.h' --include='*.cpp' --include='*.cc' \
              --include='*.cu' --include='*.cuh' --include='*.S' \
              '^[[:space:]]*#[[:space:]]*include' include/proofline src 2>/dev/null |
         sort -t: -k1,1 -k2,2n |
         awk -v order="${layers[*]}" '
  function layer_of(path,   parts) {
    if (path ~ /^include\/proofline\/[^\/]+\//) { split(path, parts, "/"); return parts[3] }
    if (path ~ /^src\/[^\/]+\//) { split(path, parts, "/"); return parts[2] }
    return ""
  }
  function normalize(path,   n, parts, out, k, i) {
    n = split(path, parts, "/"); k = 0
    for (i = 1; i <= n; i++) {
      if (parts[i] == "" || parts[i] == ".") continue
      if (parts[i] == "..") { if (k > 0) k--; continue }
      out[++k] = parts[i]
    }
    path = ""
    for (i = 1; i <= k; i++) path = path (i > 1 ? "/" : "") out[i]
    return path
  }
  BEGIN { n = split(order, names, " "); for (i = 1; i <= n; i++) rank[names[i]] = i }
  {
    file = $0; sub(/:.*/, "", file)
    rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
    text = substr(rest, length(line) + 2); sub(/^[[:space:]]+/, "", text)
    from = layer_of(file)
    if (!(from in rank)) next
    if (!match(text, /include[[:space:]]*[<"][^">]+[">]/)) next
    spec = substr(text, RSTART, RLENGTH); sub(/^include[[:space:]]*/, "", spec)
    quoted = (substr(spec, 1, 1) == "\""); inc = substr(spec, 2, length(spec) - 2)
    to = ""
    if (inc ~ /^proofline\/[a-z0-9_]+\//) { split(inc, parts, "/"); to = parts[2] }
    else if (quoted) { dir = file; sub(/\/[^\/]*$/, "", dir); to = layer_of(normalize(dir "/" inc)) }
    if (!(to in rank)) next          # generated (proofline/v1/...) or a system header
    if (rank[to] > rank[from]) printf "%s\t%s\t%s\t%s\t%s\t%s\n", file, line, from, to, inc, text
  }')

for entry in "${!allowed[@]}"; do
  if [[ -z ${used[$entry]+x} ]]; then
    echo "$allow_file: '$entry' matches no upward include any more: remove it"
    status=1
  fi
done

if (( status == 0 )); then
  echo "check_layers: ok (${#layers[@]} layers: ${layers[*]}; ${#used[@]} allow-listed)"
fi
exit $status
