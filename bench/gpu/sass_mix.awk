# bench/gpu/sass_mix.awk — the SASS instruction mix of the kernels whose (mangled) name matches the
# regex `want`, from `cuobjdump --dump-sass` on stdin: per kernel the instruction count and its 30
# most frequent opcodes (base name: modifiers dropped, predicate guards skipped) with their shares.
# POSIX awk (mawk or gawk).
#   cuobjdump --dump-sass BIN | awk -f bench/gpu/sass_mix.awk -v want='ntt_group_kernel'
function flush(   o, cmd) {
  if (fn == "" || total == 0) return
  printf "== %s: %d instructions\n", fn, total
  fflush()
  cmd = "sort -rn | head -n 30"
  for (o in cnt) printf "   %6d  %5.1f%%  %s\n", cnt[o], 100 * cnt[o] / total, o | cmd
  close(cmd)
  for (o in cnt) delete cnt[o]
  total = 0
}
/Function : / { flush(); fn = ($0 ~ want) ? $NF : ""; next }
fn != "" && /^[ \t]+\/\*[0-9a-f]+\*\// {
  op = $2
  if (op ~ /^@/) op = $3
  sub(/;$/, "", op)
  split(op, parts, ".")
  cnt[parts[1]]++
  total++
}
END { flush() }
