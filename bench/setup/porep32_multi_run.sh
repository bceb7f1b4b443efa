#!/usr/bin/env bash
# bench/setup/porep32_multi_run.sh — issue 22's acceptance in ONE device call on a multi-GPU kind
# (nvidia-h200-x2 / -x4 / -x8), from the bundle of bench/setup/bundle.sh (carried as
# build/devrun-setup):
#   1. setup --circuit porep --sector-size 32GiB --backend cuda (GPU 0) into $DIR, timed (skipped
#      when $DIR/p32.params exists: a second call while the machine is warm);
#   2. the sustained 32 GiB run of bench/porep.sh (one c2 process, --first-alone, every proof verified
#      by `verify --c1` in its own process) on ONE GPU of the host (CUDA_VISIBLE_DEVICES=0), then on
#      ALL of them (the engine starts one backend per visible device; each loads the SRS);
#   3. a summary on stdout: seconds per proof on 1 and N GPUs, the scaling factor and its fraction of
#      N (goal: ≥ 0.9 × N), busy fraction and partitions per device, peak host RSS, peak device memory.
# Environment: BUNDLE (default build/devrun-setup), OUT (logs, default /tmp/p32m-out), DIR (parameters
# and work, default /tmp/p32), SUSTAINED_1 (sectors of the one-GPU sustained phase, default 3),
# SUSTAINED_N (of the N-GPU phase, default 2 × N: each device sees ≥ 20 partitions), GPUS (the N of the
# second run, default every device nvidia-smi lists).
# Budget of one call (10 min): setup ≈ 110 s, one GPU ≈ 41 s + 3 × 25 s, eight GPUs ≈ 10 s + 16 × 2.7 s
# at perfect scaling (2.1 s partitions), plus one `verify --c1` per proof (~1 s each).
set -uo pipefail
B=${BUNDLE:-build/devrun-setup}
OUT=${OUT:-/tmp/p32m-out}
DIR=${DIR:-/tmp/p32}
mkdir -p "$OUT" "$DIR"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
P=$(realpath "$B/proofline")
N=${GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')}
if [[ $N -lt 1 ]]; then
  echo "porep32_multi_run: no device listed by nvidia-smi" >&2
  exit 1
fi
{
  date -u
  nvidia-smi --query-gpu=index,name,memory.total,pci.bus_id --format=csv,noheader
  nvidia-smi topo -m 2>/dev/null | head -n $((N + 2))
  echo "cores $(nproc)"; grep -m1 "model name" /proc/cpuinfo; free -g | head -2; df -h "$DIR" | tail -1
} | tee "$OUT/machine.txt"
if [[ ! -s $DIR/p32.params ]]; then
  CUDA_VISIBLE_DEVICES=0 /usr/bin/time -v -o "$OUT/setup.time" "$P" setup --circuit porep --sector-size 32GiB \
    --params "$DIR/p32.params" --vk "$DIR/p32.vk" --seed 1 --backend cuda >"$OUT/setup.txt" 2>"$OUT/setup.err"
  echo "setup rc=$?"
  grep -E "Elapsed|Maximum resident" "$OUT/setup.time"
fi
# jnum KEY FILE: a number of c2's --json output (top level).
jnum() { sed -n "s/^  \"$1\": \\([-0-9.e+]*\\),\\{0,1\\}\$/\\1/p" "$2" | head -n1; }
run() {  # run G SECTORS: the sustained run on devices 0 … G-1
  local g=$1 s=$2 devs
  devs=$(seq -s, 0 $((g - 1)))
  CUDA_VISIBLE_DEVICES=$devs SUSTAINED=$s SINGLE=0 NO_BUILD=1 PROOFLINE="$P" PARAMS="$DIR/p32.params" \
    WORK_DIR="$DIR/work-g$g" bash bench/porep.sh 32GiB cuda >"$OUT/porep32-g$g.txt" 2>&1
  local rc=$?
  echo "$g GPU(s), $s + 1 sectors: rc=$rc"
  grep -E "sustained|single|busy|peak|verify" "$OUT/porep32-g$g.txt" | head -n 14
  cp "$DIR/work-g$g/32GiB/sustained.json" "$OUT/sustained-g$g.json" 2>/dev/null
}
run 1 "${SUSTAINED_1:-3}"
[[ $N -gt 1 ]] && run "$N" "${SUSTAINED_N:-$((2 * N))}"
one=$(jnum sustained_seconds_per_proof "$OUT/sustained-g1.json")
if [[ $N -gt 1 && -n $one ]]; then
  many=$(jnum sustained_seconds_per_proof "$OUT/sustained-g$N.json")
  [[ -n $many ]] && awk -v a="$one" -v b="$many" -v n="$N" 'BEGIN {
    printf "scaling: 1 GPU %.2f s/proof, %d GPUs %.2f s/proof: %.2fx = %.2f of %d (goal >= 0.9)\n", a, n, b, a / b, a / b / n, n }'
fi
date -u
