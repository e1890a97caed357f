#!/bin/sh
# Reference outputs of the NVIDIA tools on the real card, for what warpsim
# imitates: ncu's CSV for C++ kernel names and metric selections, and
# compute-sanitizer's reports (memcheck, racecheck, synccheck, initcheck,
# leak check). Run on the lent GPU machine from the repository root:
#   sh validate/reference/run-on-gpu.sh "$OUT"
# It writes OUT/reference.tar.gz; validate/reference/results/<gpu>/ keeps it unpacked.
set -u
OUT=${1:?usage: run-on-gpu.sh OUT}
D=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d)
R=$W/reference
mkdir -p "$R"
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -2
    ncu --version | tail -1
    compute-sanitizer --version | tail -1
    date -u
} > "$R/env.txt" 2>&1
for f in "$D"/*.cu; do
    n=$(basename "$f" .cu)
    nvcc -arch=sm_90 -lineinfo -o "$W/$n" "$f" > "$R/$n.build.txt" 2>&1
done
cd "$W"
ncu --csv --page raw --metrics smsp__inst_executed.sum,gpu__time_duration.sum ./cpp_names > "$R/ncu_names.csv" 2> "$R/ncu_names.err"
ncu --csv --page raw --metrics regex:smsp__inst_executed ./cpp_names > "$R/ncu_regex.csv" 2> "$R/ncu_regex.err"   # 5330 columns (every submetric): not kept in results
ncu --csv --page raw --metrics smsp__inst_executed,l1tex__t_sectors_pipe_lsu_mem_global_op_ld --kernel-name add ./cpp_names > "$R/ncu_rollups.csv" 2> "$R/ncu_rollups.err"
ncu --csv --page raw --metrics smsp__inst_executed.sum -k regex:fill -s 1 -c 1 ./cpp_names > "$R/ncu_select.csv" 2> "$R/ncu_select.err"
compute-sanitizer --tool memcheck --leak-check full ./oob_and_leak > "$R/memcheck.txt" 2>&1
compute-sanitizer --tool racecheck ./race_shared > "$R/racecheck_shared.txt" 2>&1
compute-sanitizer --tool racecheck --racecheck-report all ./race_warp > "$R/racecheck_warp.txt" 2>&1
compute-sanitizer --tool synccheck ./sync_divergent > "$R/synccheck.txt" 2>&1
compute-sanitizer --tool initcheck ./init_global > "$R/initcheck.txt" 2>&1
compute-sanitizer --tool memcheck ./cpp_names > "$R/memcheck_clean.txt" 2>&1
rm -f "$R"/*.build.txt "$R"/ncu_regex.csv; find "$R" -empty -delete
# the course's find-the-bug programs under the tool each one is for
B=$(cd "$D/../../programs/005_find_the_bug" && pwd)
for pair in reduction_no_barrier:racecheck transpose_early_read:racecheck warp_unroll:racecheck warp_volatile:racecheck \
            barrier_in_if:synccheck uninitialized:initcheck; do
    n=${pair%%:*}; tool=${pair#*:}
    nvcc -arch=sm_90 -lineinfo -o "$W/bug_$n" "$B/$n.cu" > "$R/bug_$n.build.txt" 2>&1
    compute-sanitizer --tool "$tool" --print-limit 2 "$W/bug_$n" > "$R/bug_$n.$tool.txt" 2>&1
done
rm -f "$R"/*.build.txt
tar -C "$W" -czf "$OUT/reference.tar.gz" reference
ls -la "$R"
