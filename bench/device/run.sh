#!/usr/bin/env bash
# shellcheck disable=SC2317  # the passes and the timers are called by name ("pass_$PASS", step --timers)
# bench/device/run.sh — the one device runner: named passes over the bundle of bench/device/bundle.sh,
# each under its own time limit, each packing its results into $OUT/<pass>.tar.gz (the device tool
# returns at most 8 files), a summary line per step on stdout and in $OUT/summary.txt.
#
#   bash bench/device/run.sh PASS [PASS...]      (from the repository root; the device tool's cwd)
#   run(command="bash bench/device/run.sh tests kernels", carry=["build/devrun"])
#
# Passes (bench/device/README.md says what each writes and how long it takes):
#   tests     test_gpu: every test but GpuFaults.KernelFault* (it can leave the process without a
#             device), then that one alone in its own process
#   kernels   the tests (unless this call's tests pass ran) and the NTT/H tests of each NTT_VARIANTS; then, if
#             they passed, old vs new benchmarks side by side: NTT to 2^27, G1 MSM 2^24/2^26/2^27,
#             G2 MSM 2^20/2^24, the Groth16 bench circuit 2^20/2^24
#   c1read    the C1 read of a $SECTOR sector (gen-c1, then `check-c1 --json` 3 times: its read_ms),
#             new and, when the bundle has old/proofline, old side by side
#   r1cs      the GPU constraint-evaluation tests (GpuR1csEval.*), then gpu_r1cs_eval_bench: a PoRep
#             partition of each R1CS_SIZES [2KiB 512MiB 32GiB] compiled, uploaded and evaluated on the
#             device against prover-mode synthesis (no parameters needed)
#   samebytes the compiled form (witness-only synthesis, constraints evaluated on the device) against prover
#             mode for fixed r, s (c2 / submit --local --rs): partition 0 of a $SECTOR PoRep and one WindowPoSt
#             partition of $POST_SECTOR (SAMEBYTES [porep post]), each in its own process; the proofs compared;
#             with SAMEBYTES_LIMIT (e.g. 24GiB) the PoRep partition also in the compiled form under
#             --device-memory-limit (a smaller card: the circuit evaluated on the host), compared too
#   porep32   PoRep setup --backend cuda (kept in $PARAMS_DIR for later passes; reused when there),
#             then bench/porep.sh: SUSTAINED + 1 sectors through one c2 --first-alone, each proof
#             verified by `verify --c1` in its own process; once per POREP_FORMS word [default]:
#             default (the compiled form: witness-only, the constraints on the device), prover (c2
#             --prover-mode: a, b, c built on the host), xyzz (the default form with PROOFLINE_MSM_XYZZ=1:
#             every MSM's buckets in XYZZ, as before batch-affine became G1's default, now from 2^24 points)
#   post32    WindowPoSt, one partition: setup, gen-vanilla, submit --local, verify --post
#   snap32    SnapDeals: setup, gen-vanilla snap, submit --local --kind snap-update, verify --snap
#   daemon32  the daemon with the PoRep parameters preloaded (engine.preload); once its buffers are
#             warm (DAEMON_WAIT_WARM=0: at once), a C1 sent twice through cuzk.v1 Prove by
#             tests/server/cuzk_client.py: client wall of the first proof after the start and of the
#             next; each proof verified by `verify --c1`; the daemon stopped
#   multi     the sustained PoRep run on one GPU, then on all of them (GPUS): scaling; with fewer
#             than 2 GPUs, once at the dry-run size on the CPU (the harness only)
#   pipeline  proofline_pipeline_bench (the engine's overlap / serial / nopool / inline modes) at
#             2^24 and 2^25 on $BACKEND, every GPU count up to all of them
#   profile   kernel resources and SASS mix (cuobjdump) and the Nsight Compute profile of the main kernels
#             (bench/gpu/profile.sh: G1 MSM 2^24/2^26, G2 MSM 2^24, NTT 2^27)
# Environment (defaults in brackets; DRY=1 switches the defaults to a CPU dry run's):
#   BUNDLE [build/devrun]  OUT [/tmp/devrun-out]  WORK [/tmp/devrun-work]  PARAMS_DIR
#   [/tmp/devrun-params]  UNPACK [/tmp/devrun-bundle]  BACKEND [cuda; DRY: cpu]  SECTOR [32GiB; DRY:
#   2KiB] (porep32, daemon32, multi)  POST_SECTOR [32GiB; DRY: 2KiB]  SNAP_SECTOR [32GiB; DRY: 1KiB]
#   SUSTAINED [3; DRY: 1]
#   SINGLE [0]  C2_BUDGET [0: derived]  DAEMON_PROOFS [2]  GPUS [all listed]  SUSTAINED_1 [3]
#   SUSTAINED_N [2 x GPUS]  MULTI_DRY_SECTOR [2KiB]  NTT_MIN [24]  NTT_MAX [27]
#   MSM_SIZES ["g1:24 g1:26 g1:27 g2:20 g2:24"]  NTT_VARIANTS [PROOFLINE_NTT_RADIX=2 PROOFLINE_NTT_RADIX=8
#   PROOFLINE_NTT_COLS=1: words of comma-separated environment settings, each running the tests of
#   VARIANT_FILTER [GpuNtt.*:*OddCoset*:GpuBackendTest.SameProofsAsCpuAcrossSizes] within T_VARIANT [90] s]
#   T_MSM_BENCH [150: gpu_msm_bench's limit; BUCKET_ADD / BA_STEPS pass through to it]  G16_SIZES ["20 24"]  PIPELINE_SIZES ["2^24 2^25";
#   DRY: 2^12]  PIPELINE_MODES [overlap,serial,nopool,inline]  PIPELINE_PROOFS [3]  PYTHON [the
#   first python3 with grpc and protobuf]  CALL_LIMIT [570: seconds for the whole call; a pass gets
#   at most what is left]  T_TESTS [300]  T_KERNELS T_C1READ T_POREP32 T_POST32 T_SNAP32 T_DAEMON32 T_MULTI
#   T_PIPELINE T_PROFILE T_R1CS [540 each: a pass's time limit]
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SELF=$ROOT/bench/device/run.sh
PASSES="tests kernels c1read r1cs samebytes porep32 post32 snap32 daemon32 multi pipeline profile"
SKIPPED=77  # a pass's exit status for "not run here" (no device, no old build, …)

export DRY=${DRY:-0}
if [ "$DRY" = 1 ]; then d_backend=cpu d_sector=2KiB d_post=2KiB d_snap=1KiB d_sust=1
else d_backend=cuda d_sector=32GiB d_post=32GiB d_snap=32GiB d_sust=3; fi
export BUNDLE=${BUNDLE:-build/devrun} OUT=${OUT:-/tmp/devrun-out} WORK=${WORK:-/tmp/devrun-work}
export PARAMS_DIR=${PARAMS_DIR:-/tmp/devrun-params} UNPACK=${UNPACK:-/tmp/devrun-bundle}
export BACKEND=${BACKEND:-$d_backend} SECTOR=${SECTOR:-$d_sector} POST_SECTOR=${POST_SECTOR:-$d_post}
export SNAP_SECTOR=${SNAP_SECTOR:-$d_snap} SUSTAINED=${SUSTAINED:-$d_sust}
export CALL_LIMIT=${CALL_LIMIT:-570}

# ---- helpers (parent and pass processes) ----------------------------------------------------------
say() { echo "$*" | tee -a "$OUT/summary.txt"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
gib() { awk -v k="$1" 'BEGIN { if (k == "") print "n/a"; else printf "%.2f GiB", k / 1048576 }'; }
# bytes of a sector size: 2KiB, 8MiB, 32GiB, …
size_bytes() {
  local n=${1%[KMG]iB}
  case $1 in *KiB) echo $((n << 10)) ;; *MiB) echo $((n << 20)) ;; *GiB) echo $((n << 30)) ;; *) echo "$1" ;; esac
}
# jkeys FILE KEY…: "key=value" for each number "KEY": value found in FILE (first occurrence)
jkeys() {
  local f=$1 k v out=()
  shift
  for k in "$@"; do
    v=$(grep -o "\"$k\": *\"\?[-0-9.e+]*" "$f" 2>/dev/null | head -n1 | sed 's/.*: *"\?//')  # proto3 JSON quotes 64-bit integers
    [ -n "$v" ] && out+=("$k=$v")
  done
  echo "${out[*]}"
}
short() { local b; b=$(basename "$1"); [ ${#b} -le 48 ] && echo "$b" || echo "${b:0:45}…"; }
devices() { nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true; }

# step NAME [--to FILE] [--timers FUNC] -- COMMAND…: runs COMMAND (under /usr/bin/time -v when the
# machine has it) with its stdout in FILE (default: the step's raw log) and stderr in the raw log;
# appends both (progress lines dropped, long logs cut to their first 150 and last 350 lines) to
# $R/log.txt and the time -v block to $R/time.txt; prints the step's summary line: rc, wall, peak
# RSS and FUNC's timers (FUNC STDOUT_FILE STDERR_FILE). Sets STEP_RC.
STEP_RC=0
step() {
  local name=$1 to="" timers="" raw err tf t0 wall rss extra
  shift
  while [ $# -gt 0 ]; do
    case $1 in
      --to) to=$2; shift 2 ;;
      --timers) timers=$2; shift 2 ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  raw=$WORK/logs/$PASS.$name.out err=$WORK/logs/$PASS.$name.err tf=$WORK/logs/$PASS.$name.time
  mkdir -p "$WORK/logs"
  rm -f "$tf" "$raw" "$err"
  echo "$name: $*" >"$WORK/logs/$PASS.running"
  t0=$(now)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$tf" "$@" >"${to:-$raw}" 2>"$err"
  else
    "$@" >"${to:-$raw}" 2>"$err"
  fi
  STEP_RC=$?
  wall=$(secs "$t0" "$(now)")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$tf" 2>/dev/null)
  {
    echo "=== $name: $* (rc=$STEP_RC, wall $wall s)"
    { [ -n "$to" ] || cat "$raw"; cat "$err"; } | tr '\r' '\n' | grep -avE 'ETA|[0-9]%\)' |
      awk '{ l[NR] = $0 } END { for (i = 1; i <= NR; ++i) if (i <= 150 || i > NR - 350) print l[i]; else if (i == 151) print "[… " NR - 500 " lines cut …]" }'
  } >>"$R/log.txt"
  if [ -s "$tf" ]; then { echo "=== $name: $*"; cat "$tf"; } >>"$R/time.txt"; fi
  extra=""
  [ -n "$timers" ] && extra=$("$timers" "${to:-$raw}" "$err")
  if [ "$STEP_RC" != 0 ]; then  # the last line it wrote on stderr (its error, as a rule)
    extra="${extra:+$extra; }last: $(tr '\r' '\n' <"$err" | grep -avE '^ *$|ETA|[0-9]%\)' | tail -n1 | cut -c1-200)"
  fi
  say "  $PASS/$name: rc=$STEP_RC, wall $wall s, peak RSS $(gib "$rss")${extra:+; $extra}"
  return "$STEP_RC"
}

timers_gtest() {  # gtest output: passed / failed / skipped counts and the failed tests' names
  local f=$1 p fl s names
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\{0,1\}\..*/\1/p' "$f" | tail -n1)
  fl=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\{0,1\}, listed below.*/\1/p' "$f" | tail -n1)
  s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\{0,1\}, listed below.*/\1/p' "$f" | tail -n1)
  names=$(grep -E '^\[  FAILED  \] [A-Za-z_]' "$f" | grep -v 'listed below' | sed 's/^\[  FAILED  \] //; s/ (.*//' | sort -u | head -n 12 | paste -sd, -)
  echo "passed ${p:-0}, failed ${fl:-0}, skipped ${s:-0}${names:+; FAILED: $names}"
}
timers_setup() {  # setup's stage times ("setup [6/10] h done: … in 82.37 s") and its total
  tr '\r' '\n' <"$2" | awk '
    /^setup \[[0-9]+\/[0-9]+\] / && / done: / { n = $3; t = $0; sub(/.* in /, "", t); sub(/ s .*/, "", t); s = s sep n " " t; sep = ", " }
    /^setup: done in / { d = $4 }
    END { if (d != "") printf "setup %s s (%s)", d, s }'
}
timers_submit() {  # submit --json: the engine's timers
  jkeys "$1" num_partitions total_ms srs_load_ms srs_upload_ms srs_upload_bytes synthesis_ms kernel_ms prover_ms verify_ms
}
timers_porep() {  # bench/porep.sh's table
  local f=$1
  row() { sed -n "s/^ *$1 *\([0-9.]*\).*/\1/p" "$f" | head -n1; }
  echo "load params $(row 'load params (once)') s, single-proof latency $(row 'single-proof latency') s," \
    "sustained $(row 'sustained per proof') s/proof, busy $(sed -n 's/^ *backend busy *\([0-9.]* %\).*/\1/p' "$f")," \
    "peak host RSS $(sed -n 's/^ *peak host RSS *\([0-9.]* GiB\).*/\1/p' "$f"), $(grep -o '[0-9]*/[0-9]* valid, each in its own process' "$f" | head -n1)"
}
timers_verify() { tail -n 1 "$1" | tr -s ' ' | cut -c1-120; }

# ---- bundle ---------------------------------------------------------------------------------------
# B: the unpacked bundle (bin/, lib/, old/, scripts/, stubs/, MANIFEST)
unpack_bundle() {
  if [ -f "$BUNDLE/bundle.tar.xz" ]; then
    local stamp
    stamp=$(cksum <"$BUNDLE/bundle.tar.xz")
    if [ "$(cat "$UNPACK/.stamp" 2>/dev/null)" != "$stamp" ]; then
      rm -rf "$UNPACK" && mkdir -p "$UNPACK"
      if command -v xz >/dev/null; then
        tar -C "$UNPACK" -xJf "$BUNDLE/bundle.tar.xz" || return 1
      else
        python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$BUNDLE/bundle.tar.xz" "$UNPACK" || return 1
      fi
      echo "$stamp" >"$UNPACK/.stamp"
    fi
    B=$UNPACK
  elif [ -x "$BUNDLE/bin/proofline" ]; then
    B=$BUNDLE
  else
    echo "run.sh: no bundle at $BUNDLE (bench/device/bundle.sh makes BUILD_DIR/devrun; carry it)" >&2
    return 1
  fi
  B=$(cd "$B" && pwd)
  export B P="$B/bin/proofline"
  case ":${LD_LIBRARY_PATH:-}:" in *":$B/lib:"*) ;; *) export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;; esac
}

# ---- parameters on the machine's disk -------------------------------------------------------------
# One folder per set under $PARAMS_DIR (<circuit>-<size>/, .done once complete), kept for later passes
# and calls while the machine is warm. make_room deletes other sets, least recently made first, when
# the disk lacks the room for a new one (the one-GPU machine's 64 GiB hold one 32 GiB set).
need_bytes() {  # need_bytes CIRCUIT SIZE: disk for the set plus work files (estimates)
  case $1-$2 in
    porep-32GiB) echo 50000000000 ;; window-post-32GiB) echo 48000000000 ;; snap-32GiB) echo 37000000000 ;;
    porep-64GiB) echo 52000000000 ;; window-post-64GiB) echo 50000000000 ;; snap-64GiB) echo 40000000000 ;;
    *) echo 3000000000 ;;
  esac
}
free_bytes() { df -B1 --output=avail "$PARAMS_DIR" | tail -n1 | tr -d ' '; }
make_room() {  # make_room NEED KEEP_DIR
  local need=$1 keep=$2 d
  while [ "$(free_bytes)" -lt "$need" ]; do
    d=$(find "$PARAMS_DIR" -mindepth 1 -maxdepth 1 -type d ! -path "$keep" -printf '%T@ %p\n' | sort -n | head -n1 | cut -d' ' -f2-)
    if [ -z "$d" ]; then
      say "  $PASS: warning: $(( $(free_bytes) >> 30 )) GiB free on $PARAMS_DIR, ~$((need >> 30)) GiB wanted; nothing left to delete"
      return 0
    fi
    say "  $PASS: deleted the parameter set $(basename "$d") ($(du -sh "$d" | cut -f1)) for room: $((need >> 30)) GiB wanted"
    rm -rf "$d"
  done
}
# ensure_params CIRCUIT SIZE [setup env…]: PARAMS_FILE and VK_FILE of the set, made now by a `setup`
# step when not complete on the disk. PoRep under its upstream name ($FIL_PROOFS_PARAMETER_CACHE
# form: the daemon finds it there), the others as CIRCUIT.params.
ensure_params() {
  local circuit=$1 size=$2 dir
  shift 2
  dir=$PARAMS_DIR/$circuit-$size
  PARAMS_DIR_SET=$dir
  if [ -f "$dir/.done" ]; then
    PARAMS_FILE=$(cat "$dir/.done")
    VK_FILE=${PARAMS_FILE%.params}.vk
    if [ -s "$PARAMS_FILE" ] && [ -s "$VK_FILE" ]; then
      say "  $PASS/setup: reusing $(short "$PARAMS_FILE") in $dir ($(du -h "$PARAMS_FILE" | cut -f1), made earlier on this machine)"
      return 0
    fi
  fi
  rm -rf "$dir"
  make_room "$(need_bytes "$circuit" "$size")" "$dir"
  mkdir -p "$dir"
  if [ "$circuit" = porep ]; then
    step setup --timers timers_setup -- env "$@" FIL_PROOFS_PARAMETER_CACHE="$dir" "$P" setup --circuit porep \
      --sector-size "$size" --seed 1 --backend "$BACKEND" || return 1
    PARAMS_FILE=$(find "$dir" -maxdepth 1 -name 'v28-stacked-proof-of-replication-*.params' | head -n1)
  else
    step setup --timers timers_setup -- env "$@" "$P" setup --circuit "$circuit" --sector-size "$size" \
      --params "$dir/$circuit.params" --vk "$dir/$circuit.vk" --seed 1 --backend "$BACKEND" || return 1
    PARAMS_FILE=$dir/$circuit.params
  fi
  VK_FILE=${PARAMS_FILE%.params}.vk
  if [ ! -s "$PARAMS_FILE" ] || [ ! -s "$VK_FILE" ]; then
    say "  $PASS/setup: no .params/.vk in $dir"
    return 1
  fi
  echo "$PARAMS_FILE" >"$dir/.done"
  say "  $PASS/setup: $(short "$PARAMS_FILE") in $dir ($(du -h "$PARAMS_FILE" | cut -f1); $(( $(free_bytes) >> 30 )) GiB left on the disk)"
}

# A pass that proves on $BACKEND: skipped when that is cuda and the machine has no device.
need_backend() {
  if [ "$BACKEND" != cpu ] && [ "$(devices)" -lt 1 ]; then
    say "  $PASS: no device: skipped (BACKEND=$BACKEND; DRY=1 or BACKEND=cpu runs it on the CPU, at a small SECTOR)"
    exit "$SKIPPED"
  fi
}

# ---- passes (each runs in its own process: bash run.sh __pass NAME, under timeout) ---------------
pass_tests() {
  local t=$B/bin/test_gpu rc=0
  if [ "$(devices)" -lt 1 ]; then
    say "  tests: no device: test_gpu's tests skip themselves (run for the harness's sake)"
  fi
  step test_gpu --to "$R/test_gpu.txt" --timers timers_gtest -- timeout "${T_TEST_ALL:-240}" "$t" \
    --gtest_filter='-GpuFaults.KernelFault*' || rc=1
  step kernel_fault --to "$R/test_fault.txt" --timers timers_gtest -- timeout "${T_TEST_FAULT:-90}" "$t" \
    --gtest_filter='GpuFaults.KernelFault*' || rc=1
  # The tests of ctest label gpu that need no device: the NTT group kernel emulated on the host at
  # 2^19 / 2^20 (CMakeLists.txt: gpu_ntt_emulation_slow), on this machine's cores.
  if [ -x "$B/bin/test_gpu_host" ]; then
    step ntt_emulation --to "$R/test_gpu_host.txt" --timers timers_gtest -- timeout "${T_TEST_EMU:-240}" \
      "$B/bin/test_gpu_host" --gtest_also_run_disabled_tests --gtest_filter='GpuNttEmulation.DISABLED_*' || rc=1
  fi
  echo "$rc" >"$WORK/tests.$CALL_ID.rc"
  return "$rc"
}

pass_kernels() {
  local t=$B/bin/test_gpu rc=0 v d tests=$R/tests.txt
  if [ "$(devices)" -lt 1 ]; then
    say "  kernels: no device: skipped"
    exit "$SKIPPED"
  fi
  if [ -f "$WORK/tests.$CALL_ID.rc" ]; then
    rc=$(cat "$WORK/tests.$CALL_ID.rc")
    say "  kernels: the tests pass of this call: $([ "$rc" = 0 ] && echo passed || echo FAILED)"
  else
    step test_gpu --to "$WORK/k-test.txt" --timers timers_gtest -- timeout "${T_TEST_ALL:-240}" "$t" \
      --gtest_filter='-GpuFaults.KernelFault*' || rc=1
    cat "$WORK/k-test.txt" >>"$tests"
    step kernel_fault --to "$WORK/k-fault.txt" --timers timers_gtest -- timeout "${T_TEST_FAULT:-90}" "$t" \
      --gtest_filter='GpuFaults.KernelFault*' || rc=1
    cat "$WORK/k-fault.txt" >>"$tests"
  fi
  local var i=0
  for var in ${NTT_VARIANTS:-PROOFLINE_NTT_RADIX=2 PROOFLINE_NTT_RADIX=8 PROOFLINE_NTT_COLS=1}; do
    i=$((i + 1))  # the NTT's other kernel variants (ntt.cu), each an environment setting
    step "ntt_variant${i}_tests" --to "$WORK/k-var$i.txt" --timers timers_gtest -- env ${var//,/ } \
      timeout "${T_VARIANT:-90}" "$t" \
      --gtest_filter="${VARIANT_FILTER:-GpuNtt.*:*OddCoset*:GpuBackendTest.SameProofsAsCpuAcrossSizes}" || rc=1
    cat "$WORK/k-var$i.txt" >>"$tests"
  done
  if [ "$rc" != 0 ]; then
    say "  kernels: tests failed: no benchmarks (no timing of unverified kernels)"
    return 1
  fi
  local vs=(new) sums=()
  if [ -d "$B/old" ] && ls "$B"/old/gpu_*_bench >/dev/null 2>&1; then
    vs=(old new)
  else
    say "  kernels: no old/ in the bundle (bundle.sh BUILD_DIR OLD_BUILD_DIR): new only"
  fi
  for v in "${vs[@]}"; do
    d=$B/bin
    [ "$v" = old ] && d=$B/old
    local lp=$LD_LIBRARY_PATH
    [ "$v" = old ] && lp=$B/old/lib:$LD_LIBRARY_PATH
    step "ntt-$v" --to "$WORK/k-ntt-$v.txt" -- env LD_LIBRARY_PATH="$lp" MIN_LG="${NTT_MIN:-24}" timeout 90 \
      "$d/gpu_ntt_bench" "${NTT_MAX:-27}" || rc=1
    if [ "$v" = new ]; then
      : >"$R/ntt-variants.txt"
      for var in ${NTT_VARIANTS:-PROOFLINE_NTT_RADIX=2 PROOFLINE_NTT_RADIX=8 PROOFLINE_NTT_COLS=1}; do
        echo "## $var" >>"$R/ntt-variants.txt"
        # shellcheck disable=SC2086  # one variable per word after the commas
        step "ntt-${var//[^A-Z0-9=]/}" --to "$WORK/k-ntt-var.txt" -- env ${var//,/ } MIN_LG="${NTT_MAX:-27}" \
          timeout 60 "$d/gpu_ntt_bench" "${NTT_MAX:-27}" || rc=1
        cat "$WORK/k-ntt-var.txt" >>"$R/ntt-variants.txt"
      done
    fi
    # shellcheck disable=SC2086  # MSM_SIZES: a list of g1:K / g2:K words
    step "msm-$v" --to "$WORK/k-msm-$v.txt" -- env LD_LIBRARY_PATH="$lp" REPS=3 timeout "${T_MSM_BENCH:-150}" "$d/gpu_msm_bench" \
      ${MSM_SIZES:-g1:24 g1:26 g1:27 g2:20 g2:24} || rc=1
  done
  for v in "${vs[@]}"; do
    d=$B/bin lp=$LD_LIBRARY_PATH
    [ "$v" = old ] && d=$B/old lp=$B/old/lib:$LD_LIBRARY_PATH
    # shellcheck disable=SC2086  # G16_SIZES: a list of log sizes
    step "groth16-$v" --to "$WORK/k-g16-$v.txt" -- env LD_LIBRARY_PATH="$lp" REPS=2 CHECK_LG=20 timeout 120 \
      "$d/gpu_groth16_bench" --no-compare ${G16_SIZES:-20 24} || rc=1
    # ntt, msm, groth16: the order summary.awk reads them in
    cat "$WORK/k-ntt-$v.txt" "$WORK/k-msm-$v.txt" "$WORK/k-g16-$v.txt" >"$R/$v.txt" 2>/dev/null
    awk -f "$B/scripts/summary.awk" "$R/$v.txt" >"$WORK/k-sum-$v.txt"
    sums+=("$WORK/k-sum-$v.txt")
  done
  # old and new side by side: the summary rows joined on what + size (old: /dev/null when none)
  [ "${vs[0]}" = old ] || sums=(/dev/null "${sums[@]}")
  awk -F'|' '
    function t(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    /^\| / && $2 !~ /what/ {
      f = (FILENAME == ARGV[1]) ? 1 : 2; k = t($2) " | " t($3); ms[f, k] = t($4)
      if (!(k in seen)) { seen[k] = 1; order[n++] = k; ref[k] = t($5) " | " t($6) }
    }
    END {
      print "| what | size | old ms | new ms | new/old | sppark | target |"
      print "|---|---|---:|---:|---:|---:|---:|"
      for (i = 0; i < n; ++i) {
        k = order[i]; o = ms[1, k]; w = ms[2, k]
        r = (o + 0 > 0 && w + 0 > 0) ? sprintf("%.2f", w / o) : ""
        printf "| %s | %s | %s | %s | %s |\n", k, o, w, r, ref[k]
      }
    }' "${sums[@]}" >"$R/compare.txt"
  say "$(cat "$R/compare.txt")"
  return "$rc"
}

porep_run() {  # porep_run NAME SECTOR BACKEND SUSTAINED [env…]: bench/porep.sh with PARAMS_FILE
  local name=$1 sector=$2 backend=$3 n=$4
  shift 4
  step "$name" --to "$R/$name.txt" --timers timers_porep -- env "$@" SUSTAINED="$n" SINGLE="${SINGLE:-0}" NO_BUILD=1 \
    PROOFLINE="$P" PARAMS="$PARAMS_FILE" WORK_DIR="$WORK/$name" C2_BUDGET="${C2_BUDGET:-0}" \
    bash "$B/scripts/porep.sh" "$sector" "$backend"
  local rc=$STEP_RC
  say "$(sed 's/^/    /' "$R/$name.txt" | grep -v '^    #')"
  cp "$WORK/$name/$sector/sustained.json" "$R/$name-sustained.json" 2>/dev/null
  # c2's own log only when something failed (its ends are in log.txt either way)
  [ "$rc" = 0 ] || grep -avE 'ETA|[0-9]%\)' "$WORK/$name/$sector/sustained.err" 2>/dev/null | tail -n 200 >"$R/$name-c2.err"
  return "$rc"
}

pass_c1read() {
  local c1=$WORK/c1read/$SECTOR.json v bin i lp ms all
  mkdir -p "$WORK/c1read"
  if [ ! -s "$c1" ]; then step gen-c1 -- "$P" gen-c1 --sector-size "$SECTOR" --seed 11 --out "$c1" || return 1; fi
  say "  c1read: $(short "$c1"), $(du -b "$c1" | cut -f1) bytes"
  for v in new old; do
    bin=$P lp=$LD_LIBRARY_PATH
    if [ "$v" = old ]; then
      [ -x "$B/old/proofline" ] || { say "  c1read: no old/proofline in the bundle: new only"; break; }
      bin=$B/old/proofline lp=$B/old/lib:$LD_LIBRARY_PATH
    fi
    all=""
    for i in 1 2 3; do
      step "check-c1-$v-$i" -- env LD_LIBRARY_PATH="$lp" "$bin" check-c1 --c1 "$c1" --json || return 1
      ms=$(jkeys "$WORK/logs/$PASS.check-c1-$v-$i.out" read_ms | sed 's/read_ms=//')
      all="$all ${ms:-?}"
    done
    say "  c1read/$v: read_ms$all"
  done
}

pass_r1cs() {
  local t=$B/bin/test_gpu rc=0
  if [ "$(devices)" -lt 1 ]; then
    say "  r1cs: no device: skipped"
    exit "$SKIPPED"
  fi
  step r1cs_tests --to "$R/tests.txt" --timers timers_gtest -- timeout 120 "$t" --gtest_filter='GpuR1csEval.*' || rc=1
  if [ "$rc" != 0 ]; then
    say "  r1cs: tests failed: no benchmark"
    return 1
  fi
  # shellcheck disable=SC2086  # R1CS_SIZES: a list of sector sizes
  step r1cs_eval --to "$R/r1cs_eval.txt" -- env REPS=5 "$B/bin/gpu_r1cs_eval_bench" ${R1CS_SIZES:-2KiB 512MiB 32GiB} || rc=1
  say "$(grep -E '^\|' "$R/r1cs_eval.txt")"
  return "$rc"
}

pass_porep32() {  # one sustained run per POREP_FORMS word: default (the compiled form), prover (c2 --prover-mode), xyzz
  local form rc=0
  need_backend
  ensure_params porep "$SECTOR" || return 1
  for form in ${POREP_FORMS:-default}; do
    case $form in
      default | compiled) porep_run porep "$SECTOR" "$BACKEND" "$SUSTAINED" || rc=1 ;;
      prover) porep_run porep-prover "$SECTOR" "$BACKEND" "$SUSTAINED" C2_ARGS=--prover-mode || rc=1 ;;
      xyzz) porep_run porep-xyzz "$SECTOR" "$BACKEND" "$SUSTAINED" PROOFLINE_MSM_XYZZ=1 || rc=1 ;;
      *) say "  porep32: unknown POREP_FORMS word '$form' (default, prover, xyzz)"; rc=1 ;;
    esac
  done
  return "$rc"
}

post_like() {  # post_like CIRCUIT KIND GEN VERIFY_FLAG SIZE [extra args of submit and verify]
  local circuit=$1 kind=$2 gen=$3 vflag=$4 size=$5 rc=0
  shift 5
  need_backend
  ensure_params "$circuit" "$size" || return 1
  local w=$WORK/$circuit
  mkdir -p "$w"
  step gen-vanilla -- "$P" gen-vanilla "$gen" --sector-size "$size" --seed 7 --out "$w/$circuit" || return 1
  step prove --to "$R/prove.json" --timers timers_submit -- "$P" submit --local --backend "$BACKEND" --kind "$kind" \
    --request "$w/$circuit.request.json" --vanilla "$w/$circuit.vanilla.json" --params "$PARAMS_FILE" \
    --check-constraints 0 "$@" --proof "$w/$circuit.proof" --json || rc=1
  step verify --timers timers_verify -- "$P" verify --vk "$VK_FILE" "$vflag" "$w/$circuit.request.json" \
    --proof "$w/$circuit.proof" "$@" || rc=1
  return "$rc"
}
pass_samebytes() {  # issue 31: the compiled form proves prover mode's bytes for fixed r, s (SAMEBYTES words: porep post)
  local rc=0 w=$WORK/samebytes what f rs=${SAMEBYTES_RS:-1234567,7654321}
  need_backend
  mkdir -p "$w"
  for what in ${SAMEBYTES:-porep post}; do
    case $what in
      porep)  # one partition of a $SECTOR sector: c2 --partition 0, each form in its own process
        ensure_params porep "$SECTOR" || { rc=1; continue; }
        step gen-c1 -- "$P" gen-c1 --sector-size "$SECTOR" --seed 3 --out "$w/c1.json" || { rc=1; continue; }
        for f in default compiled ${SAMEBYTES_LIMIT:+limit}; do
          local more=(--prover-mode)  # "default": prover mode, the path before the compiled form
          case $f in
            compiled) more=(--compiled) ;;
            limit) more=(--compiled --device-memory-limit "$SAMEBYTES_LIMIT") ;;  # a smaller card: host evaluation
          esac
          step "porep-$f" --to "$R/porep-$f.json" -- "$P" c2 --c1 "$w/c1.json" --params "$PARAMS_FILE" --partition 0 \
            --rs "$rs" --backend "$BACKEND" --json --out "$w/porep-$f.proof" "${more[@]}" || rc=1
        done ;;
      post)  # one WindowPoSt partition: submit --local, each form in its own process, then verify
        ensure_params window-post "$POST_SECTOR" || { rc=1; continue; }
        step gen-vanilla -- "$P" gen-vanilla window-post --sector-size "$POST_SECTOR" --seed 7 --out "$w/post" ||
          { rc=1; continue; }
        for f in default compiled; do
          step "post-$f" --to "$R/post-$f.json" --timers timers_submit -- "$P" submit --local --backend "$BACKEND" \
            --kind window-post --request "$w/post.request.json" --vanilla "$w/post.vanilla.json" --params "$PARAMS_FILE" \
            --partition 0 --check-constraints 0 --compiled "$([ "$f" = compiled ] && echo 1 || echo 0)" --rs "$rs" \
            --proof "$w/post-$f.proof" --json || rc=1
        done
        step verify --timers timers_verify -- "$P" verify --vk "$VK_FILE" --post "$w/post.request.json" \
          --proof "$w/post-compiled.proof" --partition 0 || rc=1 ;;
      *) say "  samebytes: unknown SAMEBYTES word '$what' (porep, post)"; rc=1; continue ;;
    esac
    for f in compiled $([ "$what" = porep ] && echo "${SAMEBYTES_LIMIT:+limit}"); do
      if [ -s "$w/$what-default.proof" ] && cmp -s "$w/$what-default.proof" "$w/$what-$f.proof"; then
        say "  samebytes/$what: the same proof bytes in prover mode and $f ($(stat -c %s "$w/$what-default.proof") B, r,s = $rs)"
      else
        say "  samebytes/$what: DIFFERENT proof bytes (or a form failed): default $(stat -c %s "$w/$what-default.proof" 2>/dev/null || echo none) B, $f $(stat -c %s "$w/$what-$f.proof" 2>/dev/null || echo none) B"
        rc=1
      fi
    done
  done
  return "$rc"
}
pass_post32() { post_like window-post window-post window-post --post "$POST_SECTOR" --partition 0; }
pass_snap32() { post_like snap snap-update snap --snap "$SNAP_SECTOR"; }

pick_python() {  # a python3 that has grpc and protobuf, with the bundle's stubs
  local py
  for py in ${PYTHON:-} python3 /usr/bin/python3; do
    command -v "$py" >/dev/null || continue
    if PYTHONPATH="$B/stubs" "$py" -c 'import grpc, google.protobuf; from cuzk.v1 import proving_pb2_grpc' 2>/dev/null; then
      echo "$py"
      return 0
    fi
  done
  return 1
}

pass_daemon32() {
  need_backend
  local py w=$WORK/daemon sock c1 dpid t0 rc=0 i
  if ! py=$(pick_python); then
    say "  daemon32: no python3 here with grpc + protobuf that imports the bundle's stubs ($B/stubs): not run"
    return 1
  fi
  ensure_params porep "$SECTOR" || return 1
  rm -rf "$w" && mkdir -p "$w"
  c1=$WORK/porep/$SECTOR/s0.json
  if [ ! -s "$c1" ]; then
    c1=$w/c1.json
    step gen-c1 -- "$P" gen-c1 --sector-size "$SECTOR" --seed 11 --out "$c1" || return 1
  fi
  sock=$w/d.sock
  t0=$(now)
  FIL_PROOFS_PARAMETER_CACHE=$PARAMS_DIR_SET "$P" daemon --listen "unix://$sock" --tcp "" --backend "$BACKEND" \
    --set "engine.preload=[\"porep-c2:$PARAMS_FILE\"]" --set status.listen= 2>"$w/daemon.log" &
  dpid=$!
  for _ in $(seq $((${DAEMON_START_S:-300} * 5))); do
    grep -q 'listening on' "$w/daemon.log" && break
    kill -0 "$dpid" 2>/dev/null || break
    sleep 0.2
  done
  if ! grep -q 'listening on' "$w/daemon.log"; then
    say "  daemon32/start: the daemon did not start listening: $(tail -n 3 "$w/daemon.log" | tr '\n' ' ')"
    kill "$dpid" 2>/dev/null; wait "$dpid" 2>/dev/null
    cp "$w/daemon.log" "$R/daemon.log"
    return 1
  fi
  say "  daemon32/start: listening after $(secs "$t0" "$(now)") s (parameters preloaded: $(short "$PARAMS_FILE"))"
  # Buffers warm before work arrives (issue 32): the first request goes once the engine logged its
  # warm sets ("warm buffers", at most 60 s), as a daemon that Curio calls has been up for a while;
  # DAEMON_WAIT_WARM=0 sends it at once (the warmer and the first proof then share the machine).
  if [ "${DAEMON_WAIT_WARM:-1}" = 1 ]; then
    local tw waited=0
    tw=$(now)
    while ! grep -aq 'warm buffers' "$w/daemon.log" && [ "$waited" -lt 600 ]; do sleep 0.1; waited=$((waited + 1)); done
    say "  daemon32/warm: $(grep -ao 'warm buffers .*' "$w/daemon.log" | sed 's/ key=[^ ]*//' | head -n 1 || echo 'no warm line') after $(secs "$tw" "$(now)") s more"
  fi
  step client --to "$R/client.txt" -- env PYTHONUNBUFFERED=1 "$py" "$B/scripts/cuzk_client.py" "$B/stubs" \
    "unix://$sock" timed "$c1" "$w/p" "$(size_bytes "$SECTOR")" "${DAEMON_PROOFS:-2}" || rc=1
  say "$(grep '^prove ' "$R/client.txt" | sed 's/^/    /')"
  # the daemon's own timers of each job (srs_load_ms 0: the preloaded set was used)
  say "$(grep -o 'job id=cuzk-[0-9]*-timed-[0-9]* .*' "$w/daemon.log" |
    sed 's/^job id=cuzk-[0-9]*-\(timed-[0-9]*\) kind=[^ ]* /\1: /; s/ h2d_ms=[^ ]*//; s/ assemble_ms=[^ ]*//; s/^/    daemon /')"
  for ((i = 1; i <= ${DAEMON_PROOFS:-2}; i++)); do
    [ -s "$w/p.$i.proof" ] || continue
    step "verify-$i" --timers timers_verify -- "$P" verify --vk "$VK_FILE" --c1 "$c1" --proof "$w/p.$i.proof" || rc=1
  done
  local hwm
  hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$dpid/status" 2>/dev/null)
  kill -TERM "$dpid" 2>/dev/null
  wait "$dpid"
  local drc=$?
  say "  daemon32/stop: rc=$drc after SIGTERM, daemon peak RSS $(gib "$hwm")"
  tr '\r' '\n' <"$w/daemon.log" | grep -avE 'ETA|[0-9]%\)' |
    awk '{ l[NR] = $0 } END { for (i = 1; i <= NR; ++i) if (i <= 200 || i > NR - 800) print l[i] }' >"$R/daemon.log"
  return "$rc"
}

pass_multi() {
  local n=${GPUS:-$(devices)} rc=0 one many
  {
    nvidia-smi --query-gpu=index,name,memory.total,pci.bus_id --format=csv,noheader 2>/dev/null
    nvidia-smi topo -m 2>/dev/null | head -n $((n + 2))
  } >"$R/gpus.txt"
  if [ "$n" -lt 2 ]; then
    local s=${MULTI_DRY_SECTOR:-2KiB}
    say "  multi: fewer than 2 GPUs ($n): once at the dry-run size on the CPU ($s, backend cpu, 1 + 1 sectors): the harness only"
    BACKEND=cpu ensure_params porep "$s" || return 1
    porep_run multi-g1 "$s" cpu 1
    return
  fi
  # the setup on GPU 0 (skipped when the set is on the disk)
  ensure_params porep "$SECTOR" CUDA_VISIBLE_DEVICES=0 || return 1
  porep_run multi-g1 "$SECTOR" "$BACKEND" "${SUSTAINED_1:-3}" CUDA_VISIBLE_DEVICES=0 || rc=1
  porep_run "multi-g$n" "$SECTOR" "$BACKEND" "${SUSTAINED_N:-$((2 * n))}" CUDA_VISIBLE_DEVICES="$(seq -s, 0 $((n - 1)))" || rc=1
  one=$(jkeys "$R/multi-g1-sustained.json" sustained_seconds_per_proof | sed 's/.*=//')
  many=$(jkeys "$R/multi-g$n-sustained.json" sustained_seconds_per_proof | sed 's/.*=//')
  if [ -n "$one" ] && [ -n "$many" ]; then
    say "$(awk -v a="$one" -v b="$many" -v n="$n" 'BEGIN {
      printf "  multi: scaling: 1 GPU %.2f s/proof, %d GPUs %.2f s/proof: %.2fx = %.2f of %d (goal >= 0.9)", a, n, b, a / b, a / b / n, n }')"
  fi
  return "$rc"
}

pass_pipeline() {
  need_backend
  local k s rc=0 n gpus=0
  n=$(devices)
  # one run per device count up to all of them (1,2,…; 0 = all for a single device)
  [ "$BACKEND" != cpu ] && [ "$n" -gt 1 ] && gpus=$(seq -s, 1 "$n")
  [ "$DRY" = 1 ] && d_sizes=2^12 || d_sizes="2^24 2^25"
  for s in ${PIPELINE_SIZES:-$d_sizes}; do
    k=${s#2^}
    step "p$k" --to "$R/p$k.txt" -- "$B/bin/proofline_pipeline_bench" --size "$s" --backend "$BACKEND" --gpus "$gpus" \
      --partitions 2 --proofs "${PIPELINE_PROOFS:-3}" --modes "${PIPELINE_MODES:-overlap,serial,nopool,inline}" \
      --budget-gb "${PIPELINE_BUDGET_GB:-0}" --json "$R/p$k.json" || rc=1
    [ -s "$R/p$k.txt" ] && say "$(sed 's/^/    /' "$R/p$k.txt" | head -n 20)"
  done
  return "$rc"
}

pass_profile() {
  local ncu cuobjdump b
  if [ "$(devices)" -lt 1 ]; then
    say "  profile: no device: skipped"
    exit "$SKIPPED"
  fi
  cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
  for b in "$B"/bin/gpu_*_bench; do
    echo "== $(basename "$b")"
    "$cuobjdump" --dump-resource-usage "$b" 2>&1 | grep -E "Function|REG:" | paste - - |
      sed -E 's/.*Function ([^:]*):.*REG:([0-9]+) STACK:([0-9]+) SHARED:([0-9]+) LOCAL:([0-9]+).*/REG \2 STACK \3 SHARED \4 LOCAL \5 \1/' |
      sort -u
  done >"$R/resources.txt" 2>&1
  say "  profile/resources: $(grep -c '^REG' "$R/resources.txt") kernels (registers, stack, shared, spills) in resources.txt"
  # SASS opcode histogram of the hot kernels (the instruction mix that the pipes see)
  for b in "$B"/bin/gpu_ntt_bench "$B"/bin/gpu_msm_bench; do
    [ -x "$b" ] && "$cuobjdump" --dump-sass "$b" 2>/dev/null
  done | awk -f "$B/scripts/sass_mix.awk" -v want='ntt_group_kernel|accumulate_kernel' >"$R/sass_mix.txt" 2>&1
  say "$(grep -E '^== ' "$R/sass_mix.txt" | cut -c1-160 | head -n 12)"
  ncu=$(command -v ncu || find /opt/nvidia/nsight-compute /usr/local/cuda/bin -maxdepth 2 -name ncu -type f 2>/dev/null | head -n1)
  if [ -z "$ncu" ]; then
    say "  profile: no ncu on this machine: Nsight Compute part not run"
    return 1
  fi
  step ncu --to "$WORK/profile-digest.txt" -- env NCU="$ncu" bash "$B/scripts/profile.sh" "$B/bin" "$R"
  say "$(grep -E '^== ncu|Duration|Compute \(SM\) Throughput|Memory Throughput|==ERR' "$WORK/profile-digest.txt" | cut -c1-140 | head -n 40)"
  return "$STEP_RC"
}

# ---- one pass, in its own process --------------------------------------------------------------
if [ "${1:-}" = __pass ]; then
  export PASS=$2 R=$OUT/$2
  mkdir -p "$R" "$WORK"
  unpack_bundle || exit 1
  cd "$ROOT" || exit 1
  "pass_$PASS"
  exit $?
fi

# ---- the call -----------------------------------------------------------------------------------
if [ $# -eq 0 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  sed -n '3,/^set -uo/p' "$SELF" | sed '$d; s/^# \{0,1\}//'
  exit 2
fi
for p in "$@"; do
  case " $PASSES " in *" $p "*) ;; *) echo "run.sh: unknown pass '$p' (passes: $PASSES)" >&2; exit 2 ;; esac
done
[ $# -le 7 ] || echo "run.sh: warning: $# passes: the device tool returns 8 files, one per pass plus summary.txt (skipped passes write none)" >&2
CALL_START=$(date +%s)
export CALL_ID=$CALL_START
mkdir -p "$OUT" "$WORK" "$PARAMS_DIR" || exit 1
rm -f "$OUT/summary.txt"
for p in $PASSES; do rm -rf "${OUT:?}/$p" "$OUT/$p.tar.gz"; done
unpack_bundle || exit 1
{
  g=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | sort | uniq -c |
    awk '{ $1 = $1 " x"; print }' | paste -sd';' -)
  printf 'machine: %s; %s cores (%s); RAM %s; disk %s free of %s (%s)\n' "${g:-no GPU}" "$(nproc)" \
    "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')" \
    "$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)" \
    "$(df -h --output=avail "$PARAMS_DIR" | tail -n1 | tr -d ' ')" "$(df -h --output=size "$PARAMS_DIR" | tail -n1 | tr -d ' ')" "$PARAMS_DIR"
  echo "bundle: $(sed -n 's/^tree: //p' "$B/MANIFEST"), old build: $(sed -n 's/^old build: //p' "$B/MANIFEST"); BACKEND=$BACKEND SECTOR=$SECTOR POST_SECTOR=$POST_SECTOR SNAP_SECTOR=$SNAP_SECTOR SUSTAINED=$SUSTAINED$([ "$DRY" = 1 ] && echo ' DRY=1')"
} | tee -a "$OUT/summary.txt"
# the bundle's commit for the scripts that name one (bench/porep.sh's header: no .git on this machine)
PROOFLINE_COMMIT=$(sed -n 's/^tree: commit \([0-9a-f]*\).*/\1/p' "$B/MANIFEST")
export PROOFLINE_COMMIT

final=0
for p in "$@"; do
  var=T_$(echo "$p" | tr '[:lower:]' '[:upper:]')
  limit=${!var:-540}
  [ "$p" = tests ] && limit=${T_TESTS:-300}
  left=$((CALL_LIMIT - ($(date +%s) - CALL_START) - 15))
  [ "$left" -lt "$limit" ] && limit=$left
  if [ "$left" -lt 30 ]; then
    say "== $p: not run: ${left} s left of the call's ${CALL_LIMIT} s (CALL_LIMIT)"
    final=1
    continue
  fi
  rm -rf "${OUT:?}/$p" "$OUT/$p.tar.gz" "$WORK/logs/$p.running"
  say "== $p (limit ${limit} s)"
  t0=$(now)
  # timeout makes its own process group (its pid): whatever of the pass outlives it (a process that
  # ends slowly on SIGTERM, a daemon left running) is killed with the group once it returns
  timeout -k 10 "$limit" bash "$SELF" __pass "$p" &
  tpid=$!
  wait "$tpid"
  rc=$?
  kill -KILL -- "-$tpid" 2>/dev/null
  wall=$(secs "$t0" "$(now)")
  case $rc in
    0) state="ok" ;;
    "$SKIPPED") state="skipped" ;;
    124 | 137)
      # the step that was running and the end of its output, into the pass's log
      running=$(cat "$WORK/logs/$p.running" 2>/dev/null)
      state="TIMED OUT after $limit s (T_$(echo "$p" | tr '[:lower:]' '[:upper:]')) in step ${running%%:*}"
      final=1
      {
        echo "=== TIMED OUT after $limit s in step $running; the end of its output:"
        for f in "$WORK/logs/$p.${running%%:*}.out" "$WORK/logs/$p.${running%%:*}.err"; do
          [ -f "$f" ] && tr '\r' '\n' <"$f" | grep -avE 'ETA|[0-9]%\)' | tail -n 100
        done
      } >>"$OUT/$p/log.txt" 2>/dev/null
      ;;
    *) state="FAILED (rc=$rc)"; final=1 ;;
  esac
  nfiles=$(find "$OUT/$p" -type f 2>/dev/null | wc -l)
  [ "$nfiles" -gt 8 ] && say "  $p: warning: $nfiles result files (at most 8 per pass)"
  if [ "$nfiles" -gt 0 ]; then
    tar -C "$OUT" -czf "$OUT/$p.tar.gz" "$p" && rm -rf "${OUT:?}/$p"
    packed="$p.tar.gz ($(du -h "$OUT/$p.tar.gz" | cut -f1), $nfiles files)"
  else
    rm -rf "${OUT:?}/$p"
    packed="no files"
  fi
  say "== $p: $state, wall $wall s; $packed"
done
say "== done in $(($(date +%s) - CALL_START)) s: $(find "$OUT" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | paste -sd' ' -) in $OUT"
exit $final
