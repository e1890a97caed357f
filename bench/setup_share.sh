#!/bin/bash
# Issue 15's "set-up under 10% of the run": the 16M vector add (timing model on), ROUNDS rounds (default 7)
# alternating between the binaries given, so that a neighbour's load falls on all of them alike. Each round
# runs it whole with --stats (the launch's own host seconds: "simulator host time") and with --grid 1 (set-up
# and tear-down, almost no simulation). Prints, per binary, medians in ms of: the whole run, its launch, the
# rest (parsing, buffer allocation and fills, reports, freeing: the set-up) and its share, and the --grid 1 run.
#
#   bench/setup_share.sh [ROUNDS] path/to/warpsim [path/to/other/warpsim ...]
set -eu
cd "$(dirname "$0")/.."
rounds=7
if [[ $1 =~ ^[0-9]+$ ]]; then rounds=$1; shift; fi
N=16777216

# "WALL LAUNCH" in ms of one run with GRID blocks (LAUNCH 0 without --stats).
run_ms() {
    local t0 t1 launch
    t0=$(date +%s%N)
    launch=$("$1" run tests/nvcc/001_vector_add.ptx --kernel vector_add_naive --grid "$2" --block 256 "${@:3}" \
        --buf A=f32:$N:random=1 --buf B=f32:$N:random=2 --buf C=f32:$N --arg A --arg B --arg C --arg s32:$N 2>/dev/null |
        awk '/simulator host time/ { s = $5 } END { print s * 1000 }')
    t1=$(date +%s%N)
    echo "$(((t1 - t0) / 1000000)) ${launch%.*}"
}

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

declare -A whole launch rest grid1
for ((r = 0; r < rounds; r++)); do
    for w in "$@"; do
        read -r t l <<<"$(run_ms "$w" $((N / 256)) --stats)"
        whole[$w]+="$t " launch[$w]+="$l " rest[$w]+="$((t - l)) "
        read -r t l <<<"$(run_ms "$w" 1)"
        grid1[$w]+="$t "
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for w in "$@"; do
    t=$(echo "${whole[$w]}" | median) l=$(echo "${launch[$w]}" | median) s=$(echo "${rest[$w]}" | median)
    printf '%s: whole %d ms, launch %d, set-up %d (%.1f%%), --grid 1 %d (medians of %d)\n' "$w" "$t" "$l" "$s" \
        "$(awk -v s="$s" -v t="$t" 'BEGIN { print 100 * s / t }')" "$(echo "${grid1[$w]}" | median)" "$rounds"
    echo "  set-up per round: ${rest[$w]}"
done
