#!/usr/bin/env bash
# bench/device/one_path.sh — issue 15's device pass on one H200 (and issue 16's 2 KiB byte check), from
# .devrun/devx.tgz: new/ (proofline + test_gpu + libs, bench/setup/bundle.sh), before/ (the CLI of the
# commit before issue 15's items 2/4 landed, + libs), z/<circuit>/{c.zkey,w.wtns} (test-only snarkjs
# zkeys). Writes logs to $OUT. Steps:
#   1. test_gpu (all but GpuFaults, then GpuFaults alone: they poison the process's device)
#   2. prove --zkey --backend cuda and cpu with fixed --rs: same proof.json bytes; timings
#   3. setup --circuit porep 2KiB: before (whole-matrix, CPU) vs new (streamed, --backend cuda): cmp
#   4. c2 2 KiB: before cpu, new cpu, new cuda (each verified by the engine) — side by side
#   5. prove --zkey pc16 before cpu vs new cpu (3 runs each, alternating)
set -uo pipefail
OUT=${OUT:-/tmp/out}; W=/tmp/w; mkdir -p "$OUT" "$W"
tar xzf .devrun/devx.tgz -C "$W"
N="$W/new/proofline"; B="$W/before/proofline"
newenv="env LD_LIBRARY_PATH=$W/new/lib"
oldenv="env LD_LIBRARY_PATH=$W/before/lib:$W/new/lib"
{ date -u; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc; free -g | head -2; } | tee "$OUT/machine.txt"
if [ -z "${SKIP_TESTS:-}" ]; then
echo "== 1. test_gpu"
( cd "$W/new" && LD_LIBRARY_PATH=$PWD/lib timeout 300 ./test_gpu --gtest_filter='-GpuFaults.*' --gtest_brief=1 2>&1 | tail -25 ) | tee "$OUT/test_gpu.txt"
( cd "$W/new" && LD_LIBRARY_PATH=$PWD/lib timeout 60 ./test_gpu --gtest_filter='GpuFaults.*' --gtest_brief=1 2>&1 | tail -6 ) | tee -a "$OUT/test_gpu.txt"
fi
echo "== 2. prove --zkey cuda vs cpu"
for c in sha256_rounds pc16; do
  for be in cpu cuda; do
    /usr/bin/time -f "$c $be wall %e s, cpu %U+%S, rss %M kB" $newenv "$N" prove --zkey "$W/z/$c/c.zkey" --wtns "$W/z/$c/w.wtns" \
      --proof "$W/$c.$be.proof.json" --public "$W/$c.$be.public.json" --rs 12345,678 --backend $be --json > "$OUT/zkey_${c}_$be.json" 2> "$OUT/zkey_${c}_$be.err"
    echo "rc=$? $(tail -1 "$OUT/zkey_${c}_$be.err")"
  done
  cmp "$W/$c.cpu.proof.json" "$W/$c.cuda.proof.json" && echo "$c: cuda proof.json == cpu proof.json (fixed r, s)"
done
echo "== 3. setup porep 2KiB: before vs new (cuda)"
/usr/bin/time -f "before setup wall %e s, cpu %U+%S, rss %M kB" $oldenv "$B" setup --circuit porep --sector-size 2KiB --params "$W/old2k.params" --vk "$W/old2k.vk" --seed 3 > /dev/null 2> "$OUT/setup_old.err"; tail -1 "$OUT/setup_old.err"
/usr/bin/time -f "new setup (cuda) wall %e s, cpu %U+%S, rss %M kB" $newenv "$N" setup --circuit porep --sector-size 2KiB --params "$W/new2k.params" --vk "$W/new2k.vk" --seed 3 --backend cuda > /dev/null 2> "$OUT/setup_new.err"; tail -1 "$OUT/setup_new.err"
cmp "$W/old2k.params" "$W/new2k.params" && cmp "$W/old2k.vk" "$W/new2k.vk" && echo "2 KiB PoRep .params and .vk: identical bytes ($(stat -c %s "$W/new2k.params") B)"
echo "== 4. c2 2 KiB"
$newenv "$N" gen-c1 --sector-size 2KiB --seed 3 --out "$W/c1.json" > /dev/null 2>&1
for i in 1 2 3; do
  for v in before_cpu new_cpu new_cuda; do
    case $v in before_cpu) e="$oldenv"; P=$B; be=cpu;; new_cpu) e="$newenv"; P=$N; be=cpu;; new_cuda) e="$newenv"; P=$N; be=cuda;; esac
    rm -f "$W/p_$v.bin"
    /usr/bin/time -f "c2 $v run $i wall %e s, cpu %U+%S, rss %M kB" $e "$P" c2 --c1 "$W/c1.json" --params "$W/new2k.params" --out "$W/p_$v.bin" --backend $be > /dev/null 2> "$OUT/c2_$v.err"
    echo "rc=$? $(tail -1 "$OUT/c2_$v.err")"
  done
done
echo "== 5. prove --zkey pc16: before cpu vs new cpu"
for i in 1 2 3; do
  for v in before new; do
    if [ $v = before ]; then e="$oldenv"; P=$B; else e="$newenv"; P=$N; fi
    rm -f "$W/pc.$v.proof.json" "$W/pc.$v.public.json"
    /usr/bin/time -f "zkey pc16 $v run $i wall %e s, cpu %U+%S, rss %M kB" $e "$P" prove --zkey "$W/z/pc16/c.zkey" --wtns "$W/z/pc16/w.wtns" --proof "$W/pc.$v.proof.json" --public "$W/pc.$v.public.json" --rs 5,6 > /dev/null 2> "$OUT/pc_$v.err"
    echo "rc=$? $(tail -1 "$OUT/pc_$v.err")"
  done
done
cmp "$W/pc.before.proof.json" "$W/pc.new.proof.json" && echo "pc16: before and new proof.json identical (fixed r, s)"
date -u
