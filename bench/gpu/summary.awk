# bench/gpu/summary.awk — folds the tables printed by gpu_ntt_bench, gpu_msm_bench and
# gpu_groth16_bench (read in that order, as bench/gpu.sh and bench/device/run.sh kernels print them)
# into the one summary table of bench/gpu.sh: what, size, ms, the sppark H200 anchor
# (../shared/reference/anchor-sppark-h200.md) and the issue 5 target where they exist.
BEGIN {
  FS = "|"
  sppark["NTT forward NN 2^24"] = "4.7";  sppark["NTT forward NN 2^27"] = "44"
  sppark["G1 MSM 2^24"] = "154";          sppark["G1 MSM 2^26"] = "571"
  sppark["G2 MSM 2^24"] = "448"
  target["NTT forward NN 2^27"] = "<= 25"; target["G1 MSM 2^26"] = "<= 280"
  target["G2 MSM 2^24"] = "<= 220";       target["Groth16 prove 2^24"] = "<= 1000"
  n = 0
}
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
# tkey: the key of the target and anchor lookups when it is not "what size"
function row(what, size, ms, note, tkey,   key) {
  key = tkey != "" ? tkey : what " " size
  rows[n++] = sprintf("| %s | %s | %s | %s | %s | %s |", what, size, ms, (key in sppark) ? sppark[key] : "",
                      (key in target) ? target[key] : "", note)
}
/^# gpu_msm_bench/ { section = "msm" }
/^\| size \| forward NN/ { section = "ntt"; twcol = 0; next }
# gpu_ntt_bench since the wide table: | size | twiddles | tables MB | forward NN | … | compute_h |
/^\| size \| twiddles/ { section = "ntt"; twcol = 1; next }
/^Groth16 prove on/ { section = "groth16" }
/^\|---/ { next }
section == "ntt" && /^\| 2\^/ && !twcol { row("NTT forward NN", trim($2), trim($3), "compute_h " trim($7) " ms") }
# the compact tables keep the old row's name (so old and new join); the wide table's rows are named apart
section == "ntt" && /^\| 2\^/ && twcol {
  row(trim($3) == "wide" ? "NTT forward NN (wide table)" : "NTT forward NN", trim($2), trim($5),
      "compute_h " trim($9) " ms; tables " trim($4) " MB", "NTT forward NN " trim($2))
}
section == "msm" && /^\| G[12] \|/ { row(trim($2) " MSM", trim($3), trim($6), "median, c=" trim($4) ", check " trim($7)) }
# the first row of each size is the backend's default configuration (the target applies to it)
section == "groth16" && /^\| 2\^/ {
  mode = trim($3) ", SRS " trim($4)
  row("Groth16 prove (" mode ")", trim($2), trim($9),
      "kernel " trim($10) " ms; SRS " trim($6) " GB loaded in " trim($7) " ms (" trim($8) " GB/s); " trim($18),
      (trim($2) in seen) ? "-" : "Groth16 prove " trim($2))
  seen[trim($2)] = 1
}
END {
  print ""
  print "## summary (ms; sppark = H200 anchor, not side by side)"
  print "| what | size | ms | sppark | target | notes |"
  print "|---|---|---:|---:|---:|---|"
  for (i = 0; i < n; ++i) print rows[i]
}
