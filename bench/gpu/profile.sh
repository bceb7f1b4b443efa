#!/usr/bin/env bash
# bench/gpu/profile.sh — Nsight Compute profile of the main GPU prover kernels, for bench/RESULTS.md:
# the bucket accumulation of the G1 MSM (2^24 and 2^26) and of the G2 MSM (2^24), and the NTT
# group kernel at 2^27. One launch of each MSM kernel, the three passes of one NTT (`--launch-skip`
# past the warm-ups),
# the summary sections only (speed of light, occupancy, launch statistics, warp state statistics,
# memory and compute workload, scheduler). Clocks are left alone (`--clock-control none`).
#
#   bench/gpu/profile.sh BIN_DIR [OUT_DIR]   BIN_DIR holds gpu_msm_bench and gpu_ntt_bench (a build
#                                            folder, or the bundle's bin/: bench/device/run.sh profile
#                                            runs it there); reports go to OUT_DIR (default .) as
#                                            ncu_<what>.txt
# Environment: NCU (default ncu), ONLY=<what> (g1_24, g1_26, g2_24, ntt_27) to profile one.
set -uo pipefail
bin=${1:?usage: bench/gpu/profile.sh BIN_DIR [OUT_DIR]}
out=${2:-.}
ncu=${NCU:-ncu}
mkdir -p "$out"
sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
          --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section SchedulerStats)
rc=0
profile() {  # what, kernel regex (demangled names), launches to skip, launches to profile, command...
  local what=$1 kernel=$2 skip=$3 count=$4
  shift 4
  [[ -n ${ONLY:-} && $ONLY != "$what" ]] && return 0
  echo "== ncu $what: $kernel (skip $skip) — $*"
  REPS=1 "$ncu" --clock-control none --kernel-name-base demangled -k "regex:$kernel" --launch-skip "$skip" \
    --launch-count "$count" "${sections[@]}" "$@" >"$out/ncu_$what.txt" 2>&1 || rc=$?
  grep -E "^  [a-zA-Z_].*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Block Limit Registers|Issued Ipc Active|No Eligible|Warp Cycles Per Issued|Executed Ipc Active|==ERR|==PROF==|error" \
    "$out/ncu_$what.txt" | head -40
}
# level-0 accumulation (affine bases gathered through the sorted values): the warm-up's windows
# are skipped, so the profiled launch is a window of a timed run
profile g1_24 'accumulate_kernel<.*AffineSource' 14 1 "$bin/gpu_msm_bench" g1:24
profile g1_26 'accumulate_kernel<.*AffineSource' 14 1 "$bin/gpu_msm_bench" g1:26
profile g2_24 'accumulate_kernel<.*AffineSource' 14 1 "$bin/gpu_msm_bench" g2:24
# the NTT's group kernel: skip the 2^16 correctness gate's 2 launches and the 2^27 warm-up's 3; the
# 3 passes (9 stages each) of the first timed 2^27 forward transform
profile ntt_27 'ntt_group_kernel' 5 3 env MIN_LG=27 "$bin/gpu_ntt_bench" 27
# Pipe utilisation and the executed-instruction mix of one NTT pass and one G1 window (which pipe
# bounds the kernel: ALU for the carry adds and selects, FMA for the IMADs): the details of the
# compute and instruction sections, then the pipe metrics by name (a separate call: a metric this
# ncu does not know fails only that call); appended to the ncu_<what>.txt of the summary above
# (a pass returns at most 8 files).
pipes() {  # what, kernel regex, skip, command...
  local what=$1 kernel=$2 skip=$3
  shift 3
  [[ -n ${ONLY:-} && $ONLY != "$what" ]] && return 0
  echo "== ncu pipes $what: $kernel"
  REPS=1 "$ncu" --clock-control none --kernel-name-base demangled -k "regex:$kernel" --launch-skip "$skip" \
    --launch-count 1 --section ComputeWorkloadAnalysis --section InstructionStats --section WarpStateStats --print-details all "$@" \
    >>"$out/ncu_$what.txt" 2>&1 || rc=$?
  REPS=1 "$ncu" --clock-control none --kernel-name-base demangled -k "regex:$kernel" --launch-skip "$skip" \
    --launch-count 1 --metrics "$(IFS=,; echo "${pipe_metrics[*]}")" "$@" >>"$out/ncu_$what.txt" 2>&1 || rc=$?
  grep -E "pipe|Pipe|Executed Ipc|Issue Slots|Stall|stall|==ERR|error" "$out/ncu_$what.txt" | head -60
}
pipe_metrics=(sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active
              sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
              sm__inst_executed_pipe_fmaheavy.avg.pct_of_peak_sustained_active
              sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active
              sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active
              sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
              sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active
              sm__inst_executed.avg.per_cycle_active smsp__inst_executed.sum)
pipes ntt_27 'ntt_group_kernel' 6 env MIN_LG=27 "$bin/gpu_ntt_bench" 27
pipes g1_26 'accumulate_kernel<.*AffineSource' 14 "$bin/gpu_msm_bench" g1:26
exit $rc
