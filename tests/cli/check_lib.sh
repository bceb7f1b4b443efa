# Shared by the tests/cli scripts (sourced): a scratch folder $W (removed on exit, made the current
# folder), the failure counter $fails, and two checks that print "ok: …" or "FAIL: …".
#   check <name> <expected exit code> <command…>   runs it with stdout in $W/out.txt, stderr in $W/err.txt
#   expect_in <name> <file> <extended regex>
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
fails=0
check() {
  local name=$1 want=$2; shift 2
  "$@" >"$W/out.txt" 2>"$W/err.txt"
  local rc=$?
  if [[ $rc -ne $want ]]; then
    echo "FAIL: $name: exit $rc, expected $want: $*"; sed 's/^/  | /' "$W/err.txt" | tail -8
    fails=$((fails + 1))
  else
    echo "ok: $name (exit $rc)"
  fi
}
expect_in() {
  if grep -Eq -e "$3" "$2"; then echo "ok: $1"; else echo "FAIL: $1: /$3/ not in $2:"; sed 's/^/  | /' "$2" | tail -5; fails=$((fails + 1)); fi
}
