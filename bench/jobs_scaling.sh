#!/bin/bash
# --jobs scaling of warpsim_bench on a many-core machine (the lent GPU machine has 16 cores):
# builds this tree (Release with debug info, as bench/README.md's figures), warms up with one
# run (a machine just started runs its first seconds slower), then 3 rounds of
# `warpsim_bench --repeat 3 --jobs N` for N = 1 2 4 8 16, and the machine's own ceiling: the
# matmuls in 16 single-threaded processes at once against one alone (what work that shares
# nothing gets from 16 of its cores; fewer where it has fewer). Results in OUTDIR (default $OUT or /tmp/jobs-scaling):
# machine.txt, bench.txt, ceiling.txt; bench/README.md takes each figure's middle round.
#
#   bench/jobs_scaling.sh [OUTDIR]
set -u
cd "$(dirname "$0")/.."
out=${1:-${OUT:-/tmp/jobs-scaling}}
mkdir -p "$out"
{ nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Core"; gcc --version | head -n 1; } > "$out/machine.txt" 2>&1
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build "$build" -j"$(nproc)" --target warpsim_bench; } > "$out/build.txt" 2>&1; then
    echo "jobs_scaling: the build failed (see $out/build.txt)" >&2
    exit 1
fi
"$build/bench/warpsim_bench" --repeat 3 > /dev/null 2>&1
for round in 1 2 3; do
    for n in 1 2 4 8 16; do
        echo "== round $round jobs $n" >> "$out/bench.txt"
        "$build/bench/warpsim_bench" --repeat 3 --jobs "$n" >> "$out/bench.txt" 2>&1
    done
done
n=$(nproc)
[ "$n" -gt 16 ] && n=16   # the target's 16 threads, on a machine that may have more cores
for round in 1 2; do
    echo "== round $round: one process" >> "$out/ceiling.txt"
    "$build/bench/warpsim_bench" --repeat 1 --only matmul 2>&1 | grep -v workload >> "$out/ceiling.txt"
    echo "== round $round: $n processes at once" >> "$out/ceiling.txt"
    for p in $(seq 1 "$n"); do "$build/bench/warpsim_bench" --repeat 1 --only matmul > "$out/ceiling-$p.tmp" 2>&1 & done
    wait
    cat "$out"/ceiling-*.tmp | grep -v workload >> "$out/ceiling.txt"
    rm -f "$out"/ceiling-*.tmp
done
cat "$out/machine.txt" "$out/bench.txt" "$out/ceiling.txt"
