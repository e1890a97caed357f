#!/bin/bash
# Whether a change to the simulator left its results alone: runs the bench's
# workloads (small sizes, some with partial warps or 2D blocks) and every
# programs/*/*.launch with the timing model on, --json, every buffer dumped,
# and keeps stdout, stderr, the exit status and the buffers' bytes.
#
#   bench/identical.sh record DIR [path/to/warpsim]    (default build/warpsim)
#   bench/identical.sh compare OLD_WARPSIM NEW_WARPSIM (records both, diff -r)
#
# compare exits 0 when every file is the same byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# One case: NAME, then the arguments of `warpsim run`. Buffers named by
# `--buf NAME=` or a launch file's `buf NAME=` lines are dumped.
run_case() {
    local warpsim=$1 dir=$2 name=$3; shift 3
    local dumps=() arg prev="" buf
    for arg in "$@"; do
        if [ "$prev" = --buf ]; then
            buf=${arg%%=*}
            dumps+=(--dump "$buf=$dir/$name.$buf.bin")
        fi
        prev=$arg
    done
    if [[ $1 == *.launch ]]; then
        for buf in $(awk '$1 == "buf" { sub(/=.*/, "", $2); print $2 }' "$1"); do
            dumps+=(--dump "$buf=$dir/$name.$buf.bin")
        done
    fi
    local rc=0
    (cd "$(dirname "$1")" && "$warpsim" run "$(basename "$1")" "${@:2}" --json "${dumps[@]}") \
        >"$dir/$name.json" 2>"$dir/$name.stderr" || rc=$?
    echo "$rc" >"$dir/$name.rc"
}

record() {
    local dir=$1 warpsim
    warpsim=$(realpath "${2:-build/warpsim}")
    mkdir -p "$dir"
    dir=$(realpath "$dir")
    local mm="tests/nvcc/001_matmul.ptx" va="tests/nvcc/001_vector_add.ptx"
    local tr="tests/nvcc/001_transpose.ptx" rd="tests/nvcc/001_reduction.ptx"
    run_case "$warpsim" "$dir" matmul_naive_128 $mm --kernel matmul_naive --grid 4,4 --block 32,32 \
        --buf A=f32:16384:random=1 --buf B=f32:16384:random=2 --buf C=f32:16384 --arg A --arg B --arg C --arg s32:128
    run_case "$warpsim" "$dir" matmul_naive_100_16x16 $mm --kernel matmul_naive --grid 7,7 --block 16,16 \
        --buf A=f32:10000:random=1 --buf B=f32:10000:random=2 --buf C=f32:10000 --arg A --arg B --arg C --arg s32:100
    local block   # warps in rows of 8, 4 and 2 lanes, and blocks whose rows do not fill a warp
    for block in 8,8 4,16 16,2 12,12; do
        run_case "$warpsim" "$dir" "matmul_naive_64_${block/,/x}" $mm --kernel matmul_naive \
            --grid $(((64 + ${block%,*} - 1) / ${block%,*})),$(((64 + ${block#*,} - 1) / ${block#*,})) --block $block \
            --buf A=f32:4096:random=1 --buf B=f32:4096:random=2 --buf C=f32:4096 --arg A --arg B --arg C --arg s32:64
    done
    run_case "$warpsim" "$dir" matmul_tiled_128 $mm --kernel matmul_optimized --grid 4,4 --block 32,32 \
        --buf A=f32:16384:random=1 --buf B=f32:16384:random=2 --buf C=f32:16384 --arg A --arg B --arg C --arg s32:128
    run_case "$warpsim" "$dir" matmul_tiled_64_16x16 $mm --kernel matmul_optimized --grid 4,4 --block 16,16 \
        --buf A=f32:4096:random=1 --buf B=f32:4096:random=2 --buf C=f32:4096 --arg A --arg B --arg C --arg s32:64
    run_case "$warpsim" "$dir" vector_add_64k $va --kernel vector_add_naive --grid 256 --block 256 \
        --buf A=f32:65536:random=1 --buf B=f32:65536:random=2 --buf C=f32:65536 --arg A --arg B --arg C --arg s32:65536
    run_case "$warpsim" "$dir" vector_add_1000 $va --kernel vector_add_naive --grid 4 --block 256 \
        --buf A=f32:1000:random=3 --buf B=f32:1000:iota --buf C=f32:1000 --arg A --arg B --arg C --arg s32:1000
    run_case "$warpsim" "$dir" vector_add_out_of_bounds $va --kernel vector_add_naive --grid 8 --block 256 \
        --buf A=f32:1000:random=3 --buf B=f32:1000:random=5 --buf C=f32:1000 --arg A --arg B --arg C --arg s32:2000
    local at   # one register's run off a sector, with gaps, at one address, past a sector, a partial warp
    for at in 0,4 4,4 28,4 0,0 8,8 28,12 0,32 4,64 0,40 12,128; do
        run_case "$warpsim" "$dir" "strided_f32_${at/,/_}" tests/ptx/strided_access.ptx --kernel strided_f32 \
            --grid 3 --block 48 --buf out=u32:1024 --arg out --arg u32:${at%,*} --arg u32:${at#*,}
    done
    for at in 0,8 24,8 0,0 8,16 0,32 8,72 4,8; do   # the last misaligned: a fault
        run_case "$warpsim" "$dir" "strided_u64_${at/,/_}" tests/ptx/strided_access.ptx --kernel strided_u64 \
            --grid 3 --block 32 --buf out=u32:1024 --arg out --arg u32:${at%,*} --arg u32:${at#*,}
    done
    for at in 0 100; do   # a line new to a block's L1 that the L2 has read part of
        run_case "$warpsim" "$dir" "line_reuse_$at" tests/ptx/line_reuse.ptx --kernel line_reuse --grid 6 --block 32 \
            --buf out=f32:256:random=1 --arg out --arg u32:$at
    done
    for at in 96 128 160; do   # a column stored (a line a lane from 128 bytes on), loaded back and stored again
        run_case "$warpsim" "$dir" "column_reuse_$at" tests/ptx/line_reuse.ptx --kernel column_reuse --grid 3 \
            --block 32 --buf out=u32:2048 --arg out --arg u32:$at
    done
    for at in 4 128; do   # the same, with an L2 that keeps 8 written sectors: its DRAM writes show
        run_case "$warpsim" "$dir" "column_reuse_tiny_l2_$at" tests/ptx/line_reuse.ptx --kernel column_reuse --grid 3 \
            --block 32 --buf out=u32:2048 --arg out --arg u32:$at --arch-file "$root/tests/ptx/tiny_l2.arch"
    done
    local ms args name   # partial warps' shared accesses (tests/ptx/masked_shared.ptx): s32, s64, active, bits, options
    for ms in 4,8,16,0 4,8,32,1 128,128,12,0 0,0,5,0 12,24,32,2 4,8,1,0 "4,8,16,0 --sched lockstep" \
              "128,128,12,0 --sched lockstep" "4,8,16,0 --check racecheck" "12,24,32,2 --no-timing"; do
        read -r -a args <<<"$ms"
        name=masked_shared_${args[0]//,/_}
        [ ${#args[@]} -eq 1 ] || name+=_${args[1]#--}
        run_case "$warpsim" "$dir" "$name" tests/ptx/masked_shared.ptx --kernel masked_shared --grid 2 --block 64 \
            --buf out=u32:4096 --arg out $(printf -- '--arg u32:%s ' ${args[0]//,/ }) "${args[@]:1}"
    done
    run_case "$warpsim" "$dir" transpose_conflicts_256 $tr --kernel transpose_with_bank_conflicts --grid 8,8 \
        --block 32,32 --buf in=f32:65536:random=1 --buf out=f32:65536 --arg in --arg out --arg s32:256
    run_case "$warpsim" "$dir" transpose_padded_256 $tr --kernel transpose_without_bank_conflicts \
        --grid 8,8 --block 32,32 --buf in=f32:65536:random=1 --buf out=f32:65536 --arg in --arg out --arg s32:256
    # stores a lane a sector, 8 warps a sector (the L2 map's far-store memo), with an L2 small enough for the
    # DRAM writes to show; n = 72: lanes 9 sectors apart, and the blocks' last rows and columns out of range
    run_case "$warpsim" "$dir" transpose_conflicts_64_tiny_l2 $tr --kernel transpose_with_bank_conflicts --grid 2,2 \
        --block 32,32 --buf in=f32:4096:random=1 --buf out=f32:4096 --arg in --arg out --arg s32:64 \
        --arch-file "$root/tests/ptx/tiny_l2.arch"
    run_case "$warpsim" "$dir" transpose_padded_72_tiny_l2 $tr --kernel transpose_without_bank_conflicts \
        --grid 3,3 --block 32,32 --buf in=f32:5184:random=2 --buf out=f32:5184 --arg in --arg out --arg s32:72 \
        --arch-file "$root/tests/ptx/tiny_l2.arch"
    run_case "$warpsim" "$dir" transpose_coalesced_96 $tr --kernel transpose_coalesced --grid 3,3 --block 32,32 \
        --buf in=u32:9216:random=4 --buf out=u32:9216 --arg in --arg out --arg s32:96 --arg s32:96
    run_case "$warpsim" "$dir" reduction_64k $rd --kernel reduce_sequential --grid 256 --block 256 --shared 1024 \
        --buf in=f32:65536:random=1 --buf out=f32:256 --arg in --arg out --arg s32:65536
    run_case "$warpsim" "$dir" reduction_64k_lockstep $rd --kernel reduce_sequential --grid 256 --block 256 \
        --shared 1024 --buf in=f32:65536:random=1 --buf out=f32:256 --arg in --arg out --arg s32:65536 --sched lockstep
    # the step budget running out in the middle of a round (and of its warps at one instruction), at a
    # round's end, and in the rounds a group runs one after another (sim/lockstep.c)
    local steps
    for steps in 4321 4320 4339 5000 6017; do
        run_case "$warpsim" "$dir" "matmul_naive_budget_$steps" $mm --kernel matmul_naive --grid 2,2 --block 32,32 \
            --buf A=f32:4096:random=1 --buf B=f32:4096:random=2 --buf C=f32:4096 --arg A --arg B --arg C \
            --arg s32:64 --max-steps $steps
    done
    for steps in 20 36 45 100 "36 --no-timing"; do   # ... and in a run of wide instructions (sim/lockstep.c's wide_run)
        run_case "$warpsim" "$dir" "vector_add_budget_${steps/ --/_}" $va --kernel vector_add_naive --grid 2 \
            --block 256 --buf A=f32:512:random=1 --buf B=f32:512:random=2 --buf C=f32:512 --arg A --arg B --arg C \
            --arg s32:512 --max-steps $steps
    done
    # runs of wide instructions without the timing model, on groups of 3 warps (with it, a run takes 4 at a time)
    run_case "$warpsim" "$dir" vector_add_96_no_timing $va --kernel vector_add_naive --grid 11 --block 96 \
        --buf A=f32:1000:random=3 --buf B=f32:1000:random=5 --buf C=f32:1000 --arg A --arg B --arg C --arg s32:1000 \
        --no-timing
    run_case "$warpsim" "$dir" transpose_96_no_timing $tr --kernel transpose_with_bank_conflicts --grid 3,1 \
        --block 32,3 --buf in=f32:9216:random=4 --buf out=f32:9216 --arg in --arg out --arg s32:96 --no-timing
    # a const variable's address taken by a mov among wide instructions, then an address base (sim/setup.c)
    run_case "$warpsim" "$dir" const_poly tests/nvcc/003_constant_memory.ptx --kernel const_poly --grid 4 --block 256 \
        --buf x=f32:1000:random=1 --buf idx=u32:1000:random=2 --buf out=f32:2000 --arg x --arg idx --arg out \
        --arg s32:1000
    # shared loads in runs of wide instructions (tests/ptx/shared_runs.ptx): step, at, block and options; bank
    # conflicts that differ by warp, the same addresses in every warp (step 0), 32 warps, a misaligned access
    # and one past the tile (faults), 3 warps (no run), no --sched its, no timing, O0, and the step budget
    # cutting block 0's first run with loads (14 wide instructions, then loads): 546 and 547 end it before its
    # first load, 548 just after it (measured: ws_ld_shared_wide first runs at 548), 551 and 566 in later rounds
    local sr
    for sr in "4 0 128" "0 0 256" "4 0 1024" "4 2 128" "4 7936 128" "8 0 96" "4 0 128 --sched lockstep" \
              "4 0 128 --no-timing" "4 0 128 --build O0" "4 0 128 --max-steps 546" "4 0 128 --max-steps 547" \
              "4 0 128 --max-steps 548" "4 0 128 --max-steps 551" "4 0 128 --max-steps 566"; do
        read -r -a args <<<"$sr"
        name=shared_runs_${args[0]}_${args[1]}_${args[2]}
        [ ${#args[@]} -eq 3 ] || name+=_${args[3]#--}_${args[4]:-}
        run_case "$warpsim" "$dir" "${name%_}" tests/ptx/shared_runs.ptx --kernel shared_runs --grid 2 \
            --block "${args[2]}" --buf out=u64:2048 --arg out --arg u32:${args[0]} --arg u32:${args[1]} "${args[@]:3}"
    done
    # global loads and stores in runs of wide instructions (tests/ptx/global_runs.ptx): step, at, pitch, block, spot
    # and options; runs of lanes (a stride past a sector from warp 8 on where step is 4 and the block has 32
    # warps), the same addresses in every warp (step 0), rows that read alike and rows of one word (blocks 16, 8
    # and 4 wide; pitch 16: rows a sector apart at most, no run), a misaligned load and store, a load and a store
    # past the buffer at the last warp only (faults), 3 warps (no run), an arch whose L1 keeps no global loads, no
    # timing, O0, --sched lockstep, and the step budget (4 warps, the first run with loads from step 120 on, its
    # 15th instruction its first load; the next from 184 on, its 16th a store) leaving room for the 14 before that
    # load (176: a run without loads), for the load as its last (180) and one more (185), and for the next run
    # without its store (244) and with it as its last (248)
    local gr
    for gr in "4 0 32 32,4 32768" "0 0 64 32,8 32768" "4 0 64 32,32 32768" "0 0 64 16,16 32768" \
              "4 0 40 8,32 32768" "0 0 48 4,64 32768" "0 0 16 16,8 32768" "4 2 64 32,4 32768" \
              "0 14400 64 32,32 32768" "0 0 64 32,32 57348" "0 0 64 32,4 32770" "4 0 64 32,3 32768" \
              "4 0 64 32,4 32768 --arch maxwell" "4 0 64 16,16 32768 --no-timing" "4 0 64 32,4 32768 --build O0" \
              "4 0 64 32,4 32768 --sched lockstep" "4 0 64 32,4 32768 --max-steps 176" \
              "4 0 64 32,4 32768 --max-steps 180" "4 0 64 32,4 32768 --max-steps 185" \
              "4 0 64 32,4 32768 --max-steps 244" "4 0 64 32,4 32768 --max-steps 248"; do
        read -r -a args <<<"$gr"
        name=global_runs_${args[0]}_${args[1]}_${args[2]}_${args[3]/,/x}_${args[4]}
        [ ${#args[@]} -eq 5 ] || name+=_${args[5]#--}_${args[6]:-}
        run_case "$warpsim" "$dir" "${name%_}" tests/ptx/global_runs.ptx --kernel global_runs --grid 2 \
            --block "${args[3]}" --buf in=u32:4096:random=1 --buf out=u64:8192 --arg in --arg out \
            --arg u32:${args[0]} --arg u32:${args[1]} --arg u32:${args[2]} --arg u32:${args[4]} "${args[@]:5}"
    done
    # shared stores in runs of wide instructions (tests/ptx/shared_stores.ptx): step, at, block and options; bank
    # conflicts that differ by warp (step 1; step 2: more, and the block's last memory operation), none (step 0),
    # 32 warps, the last warp's store past the tile and a
    # misaligned one (faults), 3 warps (no run), --sched lockstep (no records held back: the load after the stores
    # joins their run), no timing, O0, g80's banks, and the step budget (4 warps, the run from step 108 on, its
    # second instruction the first store) ending it after that store (116) and, under lockstep, before the load (120)
    local ss arg
    for ss in "1 0 128" "0 0 256" "2 0 256" "1 0 1024" "1 12320 1024" "1 2 128" "1 0 96" "1 0 128 --sched lockstep" \
              "1 0 128 --no-timing" "1 0 128 --build O0" "1 0 128 --arch g80" "1 0 128 --max-steps 116" \
              "1 0 128 --sched lockstep --max-steps 120"; do
        read -r -a args <<<"$ss"
        name=shared_stores_${args[0]}_${args[1]}_${args[2]}
        for arg in "${args[@]:3}"; do name+=_${arg#--}; done
        run_case "$warpsim" "$dir" "$name" tests/ptx/shared_stores.ptx --kernel shared_stores --grid 2 \
            --block "${args[2]}" --buf out=u64:2048 --arg out --arg u32:${args[0]} --arg u32:${args[1]} "${args[@]:3}"
    done
    local dc=tests/nvcc/003_device_functions.ptx   # a .func call: a warp's call frame set up at its first call
    run_case "$warpsim" "$dir" device_calls $dc --kernel device_calls --grid 5 --block 96 \
        --buf in=u32:480:random=1 --buf out=u32:480 --arg in --arg out --arg s32:450
    run_case "$warpsim" "$dir" device_calls_jobs $dc --kernel device_calls --grid 9 --block 64 --jobs 2 \
        --buf in=u32:576:random=2 --buf out=u32:576 --arg in --arg out --arg s32:560
    run_case "$warpsim" "$dir" reduction_racecheck $rd --kernel reduce_sequential --grid 4 --block 256 --shared 1024 \
        --buf in=f32:1024:random=1 --buf out=f32:4 --arg in --arg out --arg s32:1024 --check racecheck
    run_case "$warpsim" "$dir" reduction_interleaved_strided $rd --kernel reduce_interleaved_strided --grid 16 \
        --block 256 --shared 1024 --buf in=f32:8192:random=1 --buf out=f32:16 --arg in --arg out --arg s32:8192
    run_case "$warpsim" "$dir" reduction_budget $rd --kernel reduce_sequential --grid 4 --block 256 --shared 1024 \
        --buf in=f32:1024:random=1 --buf out=f32:4 --arg in --arg out --arg s32:1024 --max-steps 777
    run_case "$warpsim" "$dir" reduction_64k_no_timing $rd --kernel reduce_sequential --grid 64 --block 256 \
        --shared 1024 --buf in=f32:16384:random=1 --buf out=f32:64 --arg in --arg out --arg s32:16384 --no-timing
    local lg   # two halves of a block an instruction apart (tests/ptx/lagged.ptx): lead, stride, options
    for lg in 128,1 128,64 32,1 32,64 100,1 256,1 "128,1 --no-timing" "128,64 --build O0" "32,1 --sched lockstep" \
              "128,1 --check racecheck" "128,1 --max-steps 600" "128,1 --max-steps 650" "128,1 --max-steps 700"; do
        read -r -a args <<<"$lg"
        name=lagged_${args[0]/,/_}
        [ ${#args[@]} -eq 1 ] || name+=_${args[1]#--}${args[2]:+_${args[2]}}
        run_case "$warpsim" "$dir" "$name" tests/ptx/lagged.ptx --kernel lagged --grid 3 --block 256 \
            --buf out=u32:4096 --arg out --arg u32:${args[0]%,*} --arg u32:${args[0]#*,} "${args[@]:1}"
    done
    for lg in 200,128 96,32 72,64; do   # block, lead: a partial warp among the leading ones; three warps; two and a part
        run_case "$warpsim" "$dir" "lagged_block_${lg/,/_}" tests/ptx/lagged.ptx --kernel lagged --grid 2 \
            --block ${lg%,*} --buf out=u32:4096 --arg out --arg u32:${lg#*,} --arg u32:1
    done
    local us   # one shared word for every lane (tests/ptx/uniform_shared.ptx): at, step, writer, off, options
    for us in 0,4,32,0 0,4,5,8 8160,4,32,4 2,4,32,0 4096,0,32,4 0,8,32,2 4000,16,32,4096 4,8,32,4188 \
              "0,4,5,0 --sched lockstep" "0,4,32,8 --no-timing" "0,4,32,0 --arch g80" "0,4,32,0 --arch kepler"; do
        read -r -a args <<<"$us"
        name=uniform_shared_${args[0]//,/_}
        [ ${#args[@]} -eq 1 ] || name+=_${args[1]#--}${args[2]:+_${args[2]}}
        run_case "$warpsim" "$dir" "$name" tests/ptx/uniform_shared.ptx --kernel uniform_shared --grid 2 --block 256 \
            --buf out=u32:8192 --arg out $(printf -- '--arg u32:%s ' $(echo ${args[0]} | cut -d, -f1-3 | tr , ' ')) \
            --arg u64:${args[0]##*,} "${args[@]:1}"
    done
    local ug   # one global word for every lane (tests/ptx/uniform_global.ptx): at, step, off, options
    for ug in 0,4,8 0,4,2 4000,8,40 4092,0,0 0,128,4 "0,4,8 --arch maxwell" "0,4,8 --no-timing"; do
        read -r -a args <<<"$ug"
        name=uniform_global_${args[0]//,/_}
        [ ${#args[@]} -eq 1 ] || name+=_${args[1]#--}${args[2]:+_${args[2]}}
        run_case "$warpsim" "$dir" "$name" tests/ptx/uniform_global.ptx --kernel uniform_global --grid 2 --block 256 \
            --buf in=u32:1024:iota --buf out=u32:8192 --arg in --arg out \
            $(printf -- '--arg u32:%s ' $(echo ${args[0]} | cut -d, -f1-2 | tr , ' ')) --arg u64:${args[0]##*,} "${args[@]:1}"
    done
    local rw v   # rows of one global word (tests/ptx/row_words.ptx): block, at, step, off, options
    for rw in 16,16,0,512,8 16,16,0,32,8 16,16,112,32,8 16,16,4,36,8 16,16,0,64,8 16,16,0,4,8 16,16,0,0,8 \
        16,16,8000,-512,8 16,16,2,512,8 16,16,0,512,2 16,16,0,1024,1024 8,8,0,32,8 8,8,0,512,8 4,8,4,36,8 \
        4,8,0,512,8 "16,16,0,512,8 --arch maxwell" "16,16,0,32,8 --no-timing"; do
        read -r -a args <<<"$rw"
        IFS=, read -r -a v <<<"${args[0]}"
        name=row_words_${args[0]//,/_}
        [ ${#args[@]} -eq 1 ] || name+=_${args[1]#--}${args[2]:+_${args[2]}}
        run_case "$warpsim" "$dir" "$name" tests/ptx/row_words.ptx --kernel row_words --grid 2 --block "${v[0]},${v[1]}" \
            --buf in=u32:4096:iota --buf out=u32:4096 --arg in --arg out --arg "u32:${v[2]}" --arg "s32:${v[3]}" \
            --arg "u64:${v[4]}" "${args[@]:1}"
    done
    run_case "$warpsim" "$dir" no_shared tests/ptx/uniform_shared.ptx --kernel no_shared --grid 1 --block 64 \
        --buf out=u32:64 --arg out --arg u32:0
    run_case "$warpsim" "$dir" matmul_tiled_o0 $mm --kernel matmul_optimized --grid 2,2 --block 32,32 \
        --buf A=f32:4096:random=1 --buf B=f32:4096:random=2 --buf C=f32:4096 --arg A --arg B --arg C --arg s32:64 \
        --build O0
    local launch name
    for launch in programs/*/*.launch; do
        name=$(echo "${launch#programs/}" | tr / _)
        run_case "$warpsim" "$dir" "${name%.launch}" "$root/$launch"
    done
}

case "${1:-}" in
record)
    [ $# -ge 2 ] || { echo "usage: $0 record DIR [warpsim]" >&2; exit 2; }
    record "$2" "${3:-}"
    ;;
compare)
    [ $# -eq 3 ] || { echo "usage: $0 compare OLD_WARPSIM NEW_WARPSIM" >&2; exit 2; }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    record "$tmp/old" "$2"
    record "$tmp/new" "$3"
    count=$(ls "$tmp/old" | wc -l)
    if diff -r "$tmp/old" "$tmp/new"; then
        echo "identical: $count files"
    else
        echo "DIFFERENT (above)" >&2
        exit 1
    fi
    ;;
*)
    echo "usage: $0 record DIR [warpsim] | compare OLD_WARPSIM NEW_WARPSIM" >&2
    exit 2
    ;;
esac
