#!/bin/bash
# Host instructions the simulator executes per simulated warp-instruction,
# counted by valgrind's callgrind inside ws_launch_run only: a measure that,
# unlike seconds, does not move when the machine is busy with other work.
#
#   bench/host_instructions.sh [path/to/warpsim [FLAGS...]]     (default build/warpsim)
#
# FLAGS go to every run (--no-timing: the counts alone).
#
# Small sizes: callgrind runs some 50 times slower than the simulator.
set -euo pipefail
cd "$(dirname "$0")/.."
warpsim=${1:-build/warpsim}
extra=("${@:2}")
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run() {
    local name=$1; shift
    local instructions
    instructions=$(valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=ws_launch_run \
                   "$warpsim" run "$@" "${extra[@]}" 2>/dev/null | awk '/smsp__inst_executed.sum/ && !n {n = $2} END {print n}')   # reads to the end: no SIGPIPE
    local host
    host=$(awk '/^(summary|totals):/ {print $2; exit}' "$out")
    awk -v n="$name" -v h="$host" -v w="$instructions" \
        'BEGIN { printf "%-24s %8.1f host instructions per warp-instruction (%d warp-instructions)\n", n, h / w, w }'
}

run "matmul naive 128" tests/nvcc/001_matmul.ptx --kernel matmul_naive --grid 4,4 --block 32,32 \
    --buf A=f32:16384:random=1 --buf B=f32:16384:random=2 --buf C=f32:16384 --arg A --arg B --arg C --arg s32:128
run "matmul naive 128 (16x16)" tests/nvcc/001_matmul.ptx --kernel matmul_naive --grid 8,8 --block 16,16 \
    --buf A=f32:16384:random=1 --buf B=f32:16384:random=2 --buf C=f32:16384 --arg A --arg B --arg C --arg s32:128
run "matmul tiled 128" tests/nvcc/001_matmul.ptx --kernel matmul_optimized --grid 4,4 --block 32,32 \
    --buf A=f32:16384:random=1 --buf B=f32:16384:random=2 --buf C=f32:16384 --arg A --arg B --arg C --arg s32:128
run "vector_add 64K" tests/nvcc/001_vector_add.ptx --kernel vector_add_naive --grid 256 --block 256 \
    --buf A=f32:65536:random=1 --buf B=f32:65536:random=2 --buf C=f32:65536 --arg A --arg B --arg C --arg s32:65536
run "transpose conflicts 256" tests/nvcc/001_transpose.ptx --kernel transpose_with_bank_conflicts --grid 8,8 \
    --block 32,32 --buf in=f32:65536:random=1 --buf out=f32:65536 --arg in --arg out --arg s32:256
run "reduction 64K" tests/nvcc/001_reduction.ptx --kernel reduce_sequential --grid 256 --block 256 --shared 1024 \
    --buf in=f32:65536:random=1 --buf out=f32:256 --arg in --arg out --arg s32:65536
