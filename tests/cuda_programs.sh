#!/bin/sh
# Whole CUDA programs through `warpsim run FILE.cu` and `warpsim cc`: each
# case checks the program's own output (against tests/cuda_programs/*.expected,
# written from what the CUDA documentation says each call returns and from
# hand-computed results), its exit status, and warpsim's messages.
#   tests/cuda_programs.sh WARPSIM_BINARY [CUDART_ARCHIVE CORE_ARCHIVE CC LINK_FLAGS]
# (the runtime's archives, the compiler and flags to link them into a shared library: that case is skipped
# without them)
# Exit 77 (ctest: skipped) when clang is not installed, saying so.
W=$1
D=$(cd "$(dirname "$0")/cuda_programs" && pwd)
R=$(cd "$D/../../programs" && pwd)
NV=$(cd "$D/../nvcc/programs" && pwd)   # nvcc's PTX of whole programs (tests/cu/regen_programs.sh)
T=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-test-XXXXXX")
trap 'rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

if ! clang -print-targets 2>/dev/null | grep -q nvptx64 || ! command -v clang++ >/dev/null 2>&1; then
    echo "SKIP: clang with the NVPTX target is not installed (scripts/deps installs it)"
    exit 77
fi

# expect NAME STATUS EXPECTED-FILE -- command...: stdout equals the file, exit status equals STATUS
expect() {
    name=$1 want_status=$2 want_out=$3
    shift 4
    "$@" > "$T/out" 2> "$T/err"
    status=$?
    if [ "$status" != "$want_status" ]; then
        fail "$name: exit status $status, expected $want_status"; sed 's/^/    /' "$T/err" | head -20
    elif [ -n "$want_out" ] && ! diff -u "$want_out" "$T/out" > "$T/diff"; then
        fail "$name: output differs"; sed 's/^/    /' "$T/diff" | head -30
    else
        pass "$name"
    fi
}
# has NAME FILE TEXT: FILE contains TEXT (a fixed string)
has() {
    if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1: '$3' not in"; sed 's/^/    /' "$2" | head -20; fi
}

expect "vector_add" 0 "$D/vector_add.expected" -- "$W" run "$D/vector_add.cu" --quiet
printf 'n=77 grid=1 status=no error c[76]=962.0\nCheck: OK\n' > "$T/va77"
expect "vector_add with a program argument" 0 "$T/va77" -- "$W" run "$D/vector_add.cu" --quiet -- 77
expect "runtime API call by call" 0 "$D/runtime_api.expected" -- "$W" run "$D/runtime_api.cu" --quiet
has "fault message names the .cu line" "$T/err" "runtime_api.cu:29:"
has "fault message names the kernel by its C++ name" "$T/err" "kernel 'out_of_bounds(int *)'"
# The preset's timeline parameters (sim/arch.c), read as `warpsim arch show` prints them.
param() { "$W" arch show hopper | awk -v k="$1" '$1 == k { print $3 }'; }
api=$(param host_api_ns); launch=$(param launch_api_ns); wake=$(param wake_ns); lat=$(param copy_latency_ns); pinned=$(param pcie_gbps); pageable=$(param pcie_pageable_gbps)
# A launch's predicted gpu__time_duration.sum in ns (the first launch of a program's --csv).
predicted_ns() { "$W" run "$1" --quiet --csv --metrics gpu__time_duration.sum | awk -F'","' '/^"[0-9]+","/ { gsub(/[",]/, "", $NF); print $NF; exit }'; }
# a kernel reading and writing 4 MiB of mapped host memory: the host link carries both directions at once at
# mapped_gbps (GB/s = bytes per ns), so 4194304 / mapped_gbps ns, plus the launch overhead; on device memory far less
mapped=$(param mapped_gbps); overhead=$(param launch_overhead_ns)
"$W" run "$D/mapped_time.cu" --quiet --csv --metrics gpu__time_duration.sum > "$T/mapped" 2> "$T/err"
got=$(awk -F'","' '/^"0","/ { gsub(/[",]/, "", $NF); print $NF }' "$T/mapped")
dev=$(awk -F'","' '/^"1","/ { gsub(/[",]/, "", $NF); print $NF }' "$T/mapped")
want=$(awk -v g="$mapped" -v o="$overhead" 'BEGIN { printf "%.2f", 4194304 / g + o }')
[ -n "$got" ] && awk -v g="$got" -v w="$want" -v d="$dev" 'BEGIN { exit !(g - w <= 0.01 && w - g <= 0.01 && d < w / 10) }' &&
    pass "a kernel on mapped memory crosses the host link: $got ns (by hand $want), on device memory $dev" ||
    fail "mapped memory: got '$got' ns, want '$want' (device memory: '$dev')"
has "the mapped kernel's results reach the host" "$T/mapped" "h[99] = 199"
# events: record, a synchronous 1 MiB copy from pageable memory (static), record: two calls (host_api_ns each: the
# copy's and the second record's) and the copy's latency plus 1048576 bytes at the pageable rate
"$W" run "$D/event_time.cu" --quiet > "$T/events" 2> "$T/err"
want=$(awk -v a="$api" -v l="$lat" -v g="$pageable" 'BEGIN { printf "%.0f", 2 * a + l + 1048576 / g }')
has "an event pair around a pageable copy: call, latency, bytes at the pageable rate ($want ns)" "$T/events" "copy ns $want"
predicted=$(predicted_ns "$D/event_time.cu")
# the GPU has been idle since the copy for a record and a launch call (5.5 us > idle_after_ns): it wakes first
want=$(awk -v a="$launch" -v w="$wake" -v k="$predicted" 'BEGIN { printf "%.0f", a + w + k }')
has "an event pair around a launch on an idle GPU: the launch call, wake_ns and its predicted duration ($predicted ns)" "$T/events" "kernel ns $want"
want=$(awk -v a="$api" -v l="$lat" -v g="$pageable" 'BEGIN { printf "%.0f", 2 * a + l + 1048576 / g }')
has "a copy into a cudaArray from pageable memory: as cudaMemcpy2D ($want ns)" "$T/events" "into an array ns $want"
want=$(awk -v a="$api" -v l="$lat" -v g="$pinned" 'BEGIN { printf "%.0f", 2 * a + l + 1048576 / g }')
has "a copy out of a cudaArray into pinned memory: the host waits for it ($want ns)" "$T/events" "out of an array ns $want"
# one host clock (tests/cuda_programs/host_clock.cu, --devices 2): a launch on GPU 0 and one on GPU 1 (each waking
# its idle GPU) overlap; synchronising GPU 1 then GPU 0 and the stop event: 2 launches + wake + K + 2 calls, where
# a clock per GPU would give GPU 0 only 1 launch + wake + K + 1 call. Two threads' pageable copies, one each way on
# their own streams, take the host's clock in turn: 3 calls + both copies (the one into pageable memory with
# pageable_d2h_latency_ns), not the longer of the two.
"$W" run "$D/host_clock.cu" --devices 2 --quiet > "$T/clock" 2> "$T/err"
K=$(predicted_ns "$D/host_clock.cu")
want=$(awk -v a="$api" -v l="$launch" -v w="$wake" -v k="$K" 'BEGIN { printf "%.0f", 2 * l + w + k + 2 * a }')
has "one host clock: kernels on two GPUs overlap, their synchronisations follow one clock ($want ns)" "$T/clock" "two GPUs ns $want"
d2hlat=$(param pageable_d2h_latency_ns); pageable_d2h=$(param pcie_pageable_d2h_gbps)
want=$(awk -v a="$api" -v l="$lat" -v g="$pageable" -v x="$d2hlat" -v g2="$pageable_d2h" \
    'BEGIN { printf "%.0f", 3 * a + l + 1048576 / g + l + x + 1048576 / g2 }')
has "one host clock: two threads' pageable copies take it in turn ($want ns)" "$T/clock" "two threads ns $want"
# registers (--regs): the occupancy API counts them (65536 / (128 x 512) = 1 block of 512 threads per SM), and a
# block needing more than an SM has (1024 x 128 = 128K) is refused with cudaErrorLaunchOutOfResources, as on a GPU
"$W" run "$R/000_occupancy/occupancy.cu" --regs 128 --log-file /dev/null > "$T/regs" 2> "$T/err"
has "--regs: the occupancy API counts registers" "$T/regs" "   512          0              1       25.0%"
has "--regs: a block beyond the SM's registers is refused" "$T/regs" "  1024          0              0        0.0%   not launched: too many resources requested for launch"
has "--regs: the program still checks its launches" "$T/regs" "Check: OK"
# streams (tests/cuda_programs/streams_overlap.cu); C = one 1 MiB pinned copy = latency + 1048576 / pcie_gbps, K = the
# kernel's predicted duration. Two streams each copy in, run the kernel, copy out: stream 1's copy in runs on the
# HtoD engine while stream 0's kernel runs (K < C), stream 1's kernel after its copy, its copy out on the DtoH engine
# after stream 0's: from the start event (one call in) to the stop event = api + 3C + K, not the 6C + 2K of one stream.
"$W" run "$D/streams_overlap.cu" --quiet --timeline "$T/timeline.json" > "$T/streams" 2> "$T/err"
K=$(predicted_ns "$D/streams_overlap.cu")
C=$(awk -v l="$lat" -v g="$pinned" 'BEGIN { print l + 1048576 / g }')
has "events: an event never recorded" "$T/streams" "elapsed of an unrecorded event: cudaErrorInvalidResourceHandle"
has "events: a query of an event never recorded" "$T/streams" "query of an unrecorded event: cudaSuccess"
has "events: not ready before the host's clock gets there" "$T/streams" "query before the work is done: cudaErrorNotReady"
has "events: elapsed time of an event not yet complete" "$T/streams" "elapsed before the work is done: cudaErrorNotReady"
has "streams: not ready before" "$T/streams" "stream query before: cudaErrorNotReady"
has "events: ready after cudaEventSynchronize" "$T/streams" "query after synchronize: cudaSuccess"
has "streams: ready after" "$T/streams" "stream query after: cudaSuccess"
want=$(awk -v a="$api" -v c="$C" -v k="$K" 'BEGIN { printf "%.0f", a + 3 * c + k }')
has "two streams overlap copies with kernels: api + 3C + K ($want ns, K = $K)" "$T/streams" "two streams ns $want"
has "their results" "$T/streams" "results OK"
want=$(awk -v a="$api" -v l="$lat" -v g="$pageable" 'BEGIN { printf "%.0f", 2 * a + l + 1048576 / g }')
has "a pageable cudaMemcpyAsync holds the host: the next stream's work waits ($want ns)" "$T/streams" "pageable copy, the other stream's kernel may start after ns $want"
has "a pinned one does not: two calls" "$T/streams" "pinned copy, the other stream's kernel may start after ns $((2 * api))"
want=$(awk -v a="$api" -v c="$C" 'BEGIN { printf "%.0f", a + c }')
has "the legacy stream waits for a blocking stream's copy ($want ns)" "$T/streams" "blocking stream: the default stream's next work after ns $want"
has "not for a non-blocking stream's" "$T/streams" "non-blocking stream: the default stream's next work after ns $((2 * api))"
has "cudaEventQuery polled until the host's clock reaches the event" "$T/streams" "polled until done: yes"
# the timeline: valid JSON, the first part's work in order on each stream, no engine row with overlapping spans,
# stream 1's copy in overlapping stream 0's kernel
if python3 - "$T/timeline.json" > "$T/check" 2>&1 <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
rows = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
spans = [e for e in events if e["ph"] == "X"]
def on(row): return sorted((e for e in spans if rows[e["tid"]] == row), key=lambda e: e["ts"])
for stream in ("stream 1", "stream 2"):
    names = [e["name"] for e in on(stream)][:3]
    assert names == ["memcpy HtoD 1.0 MB", "scale(float *, int)", "memcpy DtoH 1.0 MB"], (stream, names)
for row in set(rows.values()):
    es = on(row)
    for a, b in zip(es, es[1:]):
        assert a["ts"] + a["dur"] <= b["ts"] + 2e-3, ("overlap on", row, a, b)   # ts, dur: rounded to the ns
k0 = on("stream 1")[1]; c1 = on("stream 2")[0]
assert c1["ts"] < k0["ts"] + k0["dur"] and k0["ts"] < c1["ts"] + c1["dur"], "no overlap of copy and kernel"
assert any(e["args"].get("memory") == "pageable" for e in spans), "no pageable copy"
assert all(e["args"]["bytes"] == 1048576 for e in spans if e["cat"] == "memcpy")
assert on("compute")[0]["args"]["grid"] == [1024, 1, 1]
print(len(spans), "spans")
PY
then pass "--timeline: valid trace JSON, work in order per stream, no engine overlaps itself, copy over kernel"
else fail "--timeline JSON"; sed 's/^/    /' "$T/check"; fi
expect "--timeline to a path that cannot be written" 1 "" -- "$W" run "$D/streams_overlap.cu" --timeline /nonexistent/dir/t.json
has "names the path and the reason" "$T/err" "warpsim run: --timeline: cannot write '/nonexistent/dir/t.json': No such file or directory"
expect "--timeline for a .launch run" 0 "" -- "$W" run "$R/001_transpose/demo.launch" --quiet --timeline "$T/launch.json"
python3 -c 'import json, sys; e = [x for x in json.load(open(sys.argv[1]))["traceEvents"] if x["ph"] == "X"]; assert len(e) >= 4 and all(a["ts"] + a["dur"] <= b["ts"] + 2e-3 for a, b in zip(e[1::2], e[3::2]))' "$T/launch.json" &&
    pass "its launches back to back on the default stream" || fail "--timeline of a .launch"
"$W" run "$D/runtime_api.cu" --quiet --no-timing > /dev/null 2> "$T/err"
has "with --no-timing, elapsed time says it is host time" "$T/err" "--no-timing: the milliseconds are the simulator's own"
expect "device API" 0 "$D/device_api.expected" -- "$W" run "$D/device_api.cu" --quiet
expect "std::async, <future> and <thread> beside the CUDA headers (libstdc++'s __attribute__((__noinline__)))" 0 "$D/std_async.expected" -- "$W" run "$D/std_async.cu" --quiet
expect "textures" 0 "$D/textures.expected" -- "$W" run "$D/textures.cu" --quiet
# every fetch mode against the program's own C reference, bit for bit, then the same from nvcc's PTX (committed:
# the PTX tex instruction, run by sim/exec_tex.c) with the same output, hashes of the fetched bits included
expect "texture modes against a C reference (clang's device code)" 0 "$D/texture_modes.expected" -- "$W" run "$D/texture_modes.cu" --quiet
expect "texture modes from nvcc's PTX (tex instructions): the same bits" 0 "$D/texture_modes.expected" -- "$W" run "$D/texture_modes.cu" --ptx "$NV/texture_modes.ptx" --quiet
expect "textures from nvcc's PTX" 0 "$D/textures.expected" -- "$W" run "$D/textures.cu" --ptx "$NV/textures.ptx" --quiet
# programs/002_constant_texture from nvcc's PTX: the same output as clang's but the events' times (other code)
"$W" run "$R/002_constant_texture/constant_texture.cu" --quiet 2>&1 | sed 's/[0-9.]* us/TIME us/' > "$T/ct_clang"
expect "002_constant_texture from nvcc's PTX exits 0" 0 "" -- "$W" run "$R/002_constant_texture/constant_texture.cu" --ptx "$NV/constant_texture.ptx" --quiet
sed 's/[0-9.]* us/TIME us/' "$T/out" > "$T/ct_nvcc"
if grep -qx 'Check: OK' "$T/ct_nvcc" && diff -u "$T/ct_clang" "$T/ct_nvcc" > "$T/diff"; then pass "002_constant_texture: nvcc's PTX prints what clang's does, Check: OK"
else fail "002_constant_texture from nvcc's PTX"; sed 's/^/    /' "$T/diff" "$T/ct_nvcc" | head -30; fi
expect "two GPUs and peer access" 0 "$D/peer.expected" -- "$W" run "$D/peer.cu" --devices 2 --quiet
has "a kernel on another GPU's memory without peer access" "$T/err" "memory of device 1, from a kernel on device 0 without peer access"
expect "each GPU its own __device__ and __constant__ variables" 0 "$D/device_vars.expected" -- "$W" run "$D/device_vars.cu" --devices 2 --quiet
has "another GPU's variable without peer access" "$T/err" "in 'counter', memory of device 1, from a kernel on device 0 without peer access"
[ "$(grep -c '^=========' "$T/err")" = 1 ] && pass "only the last launch faults" || { fail "device_vars: faults"; head -5 "$T/err"; }
expect "fault becomes the sticky error" 3 "$D/fault.expected" -- "$W" run "$D/fault.cu" --quiet
has "fault names file and line" "$T/err" "fault.cu:9:"
has "fault says what happened" "$T/err" "invalid 4-byte write of global address"
has "fault names the kernel" "$T/err" "past_the_end(int *, int)"

# an instruction the preset's GPU lacks (sim/targets.def): the launch fails as on a GPU without code for it
printf 'launch cudaErrorNoKernelImageForDevice, then cudaSuccess, h[5]=0\n' > "$T/kepler"
expect "a shuffle on Fermi: no kernel image" 1 "$T/kepler" -- "$W" run "$D/needs_kepler.cu" --arch fermi --quiet
has "names the instruction and the first GPU with it" "$T/err" "error: shfl.sync needs sm_30 or later (Kepler); the fermi preset is sm_20"
printf 'launch cudaSuccess, then cudaSuccess, h[5]=1\n' > "$T/kepler"
expect "the same on Kepler" 0 "$T/kepler" -- "$W" run "$D/needs_kepler.cu" --arch kepler --quiet

printf 'cudaErrorAssert\n' > "$T/assert"
expect "device assert()" 0 "$T/assert" -- "$W" run "$D/assert.cu" --quiet
has "prints the failed condition, file and line" "$T/err" "assert.cu:8: void check_small(const int *): Assertion \`v[threadIdx.x] < 5\` failed"
has "in the thread that failed first" "$T/err" "thread (4,0,0)"

printf 'argc=3 [5] [two words]\nh[3]=32\n' > "$T/args"
expect "arguments in, exit status out" 5 "$T/args" -- "$W" run "$D/args_and_status.cu" --quiet -- 5 "two words"

# the report after the program's own output, in ncu's CSV layout, every launch or a selection
expect "report as CSV" 0 "" -- "$W" run "$D/args_and_status.cu" --csv --metrics smsp__inst_executed.sum
if [ "$(sed -n 3p "$T/out")" = '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","smsp__inst_executed.sum"' ] &&
   [ "$(grep -c '"args_and_status","127.0.0.1","twice(int \*)"' "$T/out")" = 3 ]; then pass "CSV after the output, one row per launch"
else fail "CSV rows"; sed 's/^/    /' "$T/out"; fi
expect "--launch-skip/--launch-count" 0 "" -- "$W" run "$D/args_and_status.cu" --csv --launch-skip 1 --launch-count 1
[ "$(grep -c '"twice(int \*)"' "$T/out")" = 1 ] && pass "one launch reported" || fail "launch selection"
expect "--kernel selects by plain name" 0 "" -- "$W" run "$D/args_and_status.cu" --kernel twice --json
has "JSON names the kernel and its mangled name" "$T/out" '"kernel": "twice(int *)", "mangled_name": "_Z5twicePi"'
expect "--kernel that matches nothing" 0 "" -- "$W" run "$D/args_and_status.cu" --kernel nothing
has "says none was selected" "$T/out" "==WARPSIM== 3 kernel launches, none selected"
expect "--log-file" 0 "" -- "$W" run "$D/args_and_status.cu" --log-file "$T/log"
[ "$(wc -l < "$T/out")" = 2 ] && pass "stdout holds the program's output only" || fail "--log-file left report on stdout"
has "the report is in the log file" "$T/log" "twice(int *)  grid (1,1,1)  block (4,1,1)"

expect "a .cu without main() as a program" 2 "" -- "$W" run "$D/no_main.cu"
has "says how to run its kernels" "$T/err" "has no main(): to run one of its kernels"
expect "a .cu without main() as kernels" 0 "" -- "$W" run "$D/no_main.cu" --kernel scale --grid 1 --block 32 \
    --buf v=f32:32:iota --arg v --arg f32:2 --arg s32:32 --dump "v=$T/scaled" --quiet
[ "$(od -An -f -j 124 -N 4 "$T/scaled" | tr -d ' ')" = 62 ] && pass "scale(v, 2): v[31] = 62" || fail "scale result"
expect "--kernel takes a C++ kernel's plain name" 0 "" -- "$W" run "$D/no_main.cu" --kernel fill --grid 1 --block 8 \
    --buf v=s32:8 --arg v --dump "v=$T/filled" --quiet
[ "$(od -An -i -j 28 -N 4 "$T/filled" | tr -d ' ')" = 21 ] && pass "fill: v[7] = 21" || fail "fill result"

expect "a compile error" 1 "" -- "$W" run "$D/syntax_error.cu"
has "the compiler's FILE:LINE:COL" "$T/err" "syntax_error.cu:4:"
expect "a device-side launch" 1 "" -- "$W" run "$D/device_launch.cu"
has "the compiler names the line" "$T/err" "device_launch.cu:4:"
has "warpsim names the launch's FILE:LINE:COL and says why" "$T/err" "device_launch.cu:4:34: a kernel launching a kernel (dynamic parallelism) needs nvcc -rdc=true"
# Dynamic parallelism from nvcc -rdc=true's PTX, committed (tests/cu/regen_rdc.sh), the host code by clang++:
# CDP2's order (the program checks it: tail launches after the grid and its other children, in launch order,
# each after the one before and its children), parameters of every size through the parameter buffer
# (each value worked out by hand in cdp.expected), CUDA's nesting limit (grids 0..24, the 25th refused with
# cudaErrorLaunchMaxDepthExceeded), a bad configuration (cudaErrorInvalidConfiguration, read once by
# cudaGetLastError) and the pending-launch limit (4 x 514 launches: 2048 run, 8 refused).
expect "device-side launches" 0 "$D/cdp.expected" -- "$W" run "$D/cdp.cu" --ptx "$D/cdp.ptx" --quiet
has "a refused launch names the .cu line and CUDA's error" "$T/err" "cdp.cu:85:9: device-side launch of 'count(int *)' refused with cudaErrorInvalidConfiguration: block (2048,1,1) has 2048 threads"
has "the depth limit" "$T/err" "cdp.cu:72:5: device-side launch of 'nest(int *, int *, int)' refused with cudaErrorLaunchMaxDepthExceeded"
has "the pending-launch limit" "$T/err" "cdp.cu:89:5: device-side launch of 'count(int *)' refused with cudaErrorLaunchPendingCountExceeded"
# the events around order_root cover its whole tree (the report's first 8 launches, in this order: order_root,
# its three other children leaf 3, 5, 6, the tail launch 2, its child 20, the tail launch 4, its child 40): the
# launch call, the idle GPU's wake-up (wake_ns: order_root is the program's first kernel), order_root, then
# device_launch_ns before each generation (children follow a running parent: no wake-up): the three children
# side by side (1 or 2 blocks each), the tail launch 2 after the longest, its child, the tail launch 4 after
# that child, its child
dev=$(param device_launch_ns)
wake=$(param wake_ns)
"$W" run "$D/cdp.cu" --ptx "$D/cdp.ptx" --quiet --csv --metrics gpu__time_duration.sum -- time > "$T/cdp_csv" 2> "$T/err"
want=$(awk -F'","' -v a="$launch" -v L="$dev" -v w="$wake" '/^"[0-7]","/ { gsub(/[",]/, "", $NF); d[n++] = $NF }
    END { if (n != 8) exit; m = d[1]; if (d[2] > m) m = d[2]; if (d[3] > m) m = d[3];
          printf "%.0f", a + w + d[0] + 5 * L + m + d[4] + d[5] + d[6] + d[7] }' "$T/cdp_csv")
got=$(sed -n 's/^tree ns //p' "$T/cdp_csv")
[ -n "$want" ] && awk -v g="$got" -v w="$want" 'BEGIN { exit !(g - w <= 1 && w - g <= 1) }' &&
    pass "an event pair around a grid that launches grids covers them all ($got ns, by hand $want)" ||
    fail "the tree's events: got '$got' ns, want '$want'"
grep -q '"launched from' "$T/cdp_csv" && fail "--csv keeps ncu's columns" || pass "--csv keeps ncu's columns"
"$W" run "$D/cdp.cu" --ptx "$D/cdp.ptx" --quiet --json --metrics gpu__time_duration.sum -- time > "$T/cdp_json" 2> "$T/err"
python3 - "$T/cdp_json" > "$T/cdp_parents" 2>&1 <<'PY'
import json, sys
text = open(sys.argv[1]).read()   # the program's own line, then the report
ls = json.loads(text[text.index("{"):])["launches"][:8]
print(" ".join("%s<-%s" % (l["kernel"].split("(")[0], l.get("parent", "host")) for l in ls))
PY
has "--json names each grid's parent" "$T/cdp_parents" "order_root<-host leaf<-0 leaf<-0 leaf<-0 tail_with_child<-0 leaf<-4 tail_with_child<-0 leaf<-6"
expect "cudaDeviceSynchronize in device code (CUDA 11's PTX)" 1 "" -- "$W" run "$D/cdp1_sync.ptx" --grid 1 --block 1 --buf p=s32:1 --arg p --quiet
has "stops the kernel at its line, saying CDP2 removed it" "$T/err" "cdp1_sync.ptx:21: error: kernel 'parent': cudaDeviceSynchronize() in device code was removed in CUDA 12"
expect "--leak-check full" 0 "" -- "$W" run "$D/leak.cu" --leak-check full
has "lists the leaked allocation as compute-sanitizer does" "$T/err" "========= Leaked 4,096 bytes at 0x"
has "with compute-sanitizer's backtrace heading" "$T/err" "=========     Saved host backtrace up to driver entry point at allocation time"
has "says which call made it" "$T/err" "=========         Host Frame: cudaMalloc #1"
# the lines and functions of leak.cu's calls, read off the source by hand
has "and the line that called it" "$T/err" "=========         Host Frame: main in leak.cu:13"
has "inside a function of the program" "$T/err" "=========         Host Frame: make in leak.cu:6"
has "through a CHECK() macro: freed, not listed" "$T/err" "LEAK SUMMARY: 4208 bytes leaked in 4 allocations"
has "cudaMallocManaged too" "$T/err" "=========         Host Frame: main in leak.cu:18"
grep -A3 'Host Frame: cudaMalloc #5' "$T/err" | grep -q 'Host Frame: old_style' \
    && fail "a call without the header's macro has no line to give" || pass "a call without the header's macro: no line, still listed"
has "the leaked sizes" "$T/err" "========= Leaked 40 bytes at 0x"

# --check initcheck: the program compute-sanitizer's initcheck ran on the H100 (validate/reference/), the same verdict
REF=$(cd "$D/../../validate/reference" && pwd)
expect "initcheck on global memory" 1 "" -- "$W" run "$REF/init_global.cu" --check initcheck --quiet
want=$(grep -c 'Uninitialized __global__ memory read of size 4 bytes' "$REF/results/nvidia-h100-80gb-hbm3/initcheck.txt")
got=$(grep -c 'Uninitialized __global__ memory read of size 4 bytes' "$T/err")
[ "$got" = "$want" ] && pass "as many uninitialized reads as compute-sanitizer found ($want)" || fail "initcheck: $got reads, compute-sanitizer $want"
has "compute-sanitizer's summary" "$T/err" "$(grep 'ERROR SUMMARY' "$REF/results/nvidia-h100-80gb-hbm3/initcheck.txt")"
has "names the line" "$T/err" "init_global.cu:3"
expect "--print-limit" 1 "" -- "$W" run "$REF/init_global.cu" --check initcheck --print-limit 2 --quiet
[ "$(grep -c 'Uninitialized __global__' "$T/err")" = 2 ] && pass "shows 2 reports" || fail "--print-limit 2"
has "and still counts them all" "$T/err" "ERROR SUMMARY: 32 errors"
expect "initcheck on shared memory (beyond compute-sanitizer)" 1 "" -- "$W" run "$D/uninit_shared.cu" --check initcheck --quiet
[ "$(grep -c 'Uninitialized __shared__ memory read of size 4 bytes' "$T/err")" = 48 ] &&
    pass "48 reads of unwritten shared words (threads 16-63)" || fail "shared initcheck count"
has "in the right thread" "$T/err" "by thread (32,0,0) in block (0,0,0)"
expect "a correct program is clean" 0 "$D/vector_add.expected" -- "$W" run "$D/vector_add.cu" --check initcheck --quiet
has "with a zero summary" "$T/err" "========= ERROR SUMMARY: 0 errors"
for L in "$R"/*/*.launch; do
    "$W" run "$L" --check initcheck --quiet > /dev/null 2> "$T/err" || fail "$L under initcheck"
done
has "every course launch is clean under initcheck (the last shown)" "$T/err" "========= ERROR SUMMARY: 0 errors"

# --check racecheck against compute-sanitizer's racecheck on the H100 (validate/reference/): the same hazard, lines,
# count and summary (its instruction offsets, +0x90, are SASS's: warpsim has none)
expect "racecheck between warps" 1 "" -- "$W" run "$REF/race_shared.cu" --check racecheck --quiet
sed 's/+0x[0-9a-f]*//' "$REF/results/nvidia-h100-80gb-hbm3/racecheck_shared.txt" | grep -e 'Race reported' -e 'and Read access' -e 'SUMMARY' > "$T/want"
grep -e 'Race reported' -e 'and Read access' -e 'SUMMARY' "$T/err" > "$T/got"
cmp -s "$T/want" "$T/got" && pass "the report compute-sanitizer gave" || { fail "racecheck report differs"; diff "$T/want" "$T/got"; }
expect "racecheck within a warp" 0 "" -- "$W" run "$REF/race_warp.cu" --check racecheck --quiet
has "a warning within one warp" "$T/err" "Warning: Race reported between Write access at neighbours(int *) in race_warp.cu:6"
has "counted as a warning" "$T/err" "RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)"
expect "__syncwarp orders the warp" 0 "" -- "$W" run "$D/race_syncwarp.cu" --check racecheck --quiet
has "no hazard" "$T/err" "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
# every course launch is clean, but the bank-conflict demos whose broadcast stores race by design (the G80 slides'
# patterns store one word from every thread: the value does not matter, the bank traffic does)
for L in "$R"/*/*.launch; do
    "$W" run "$L" --check racecheck --quiet > /dev/null 2> "$T/err"
    status=$?
    case $(basename "$L") in
    strides.launch|strides_g80.launch|types.launch|types_g80.launch)
        [ "$status" = 1 ] && ! grep 'Race reported' "$T/err" | grep -qv 'between Write access at bank_[a-z0-9_]*broadcast\|between Write access at bank_tid_mod2' ||
            fail "$L: racecheck should find only the broadcast stores" ;;
    *) [ "$status" = 0 ] || { fail "$L: racecheck found hazards"; head -4 "$T/err"; } ;;
    esac
done
pass "the course launches under racecheck: clean, the broadcast demos aside"

# --check synccheck: the divergent barrier compute-sanitizer's synccheck ran on the H100, and a bad __syncwarp mask
expect "synccheck: a barrier part of the block never reaches" 1 "" -- "$W" run "$REF/sync_divergent.cu" --check synccheck --quiet
# the same errors, threads and lines (each error's three lines, SASS offsets aside), in compute-sanitizer's order
sed 's/+0x[0-9a-f]*//' "$REF/results/nvidia-h100-80gb-hbm3/synccheck.txt" |
    grep -e 'Barrier error' -e '     at divergent' -e 'by thread' > "$T/want"
grep -e 'Barrier error' -e '     at divergent' -e 'by thread' "$T/err" > "$T/got"
cmp -s "$T/want" "$T/got" && pass "compute-sanitizer's 48 errors: threads 0-31 in block at line 9, 48-63 in warp at line 13" ||
    { fail "synccheck report differs"; diff "$T/want" "$T/got" | head; }
has "and its summary" "$T/err" "$(grep 'ERROR SUMMARY' "$REF/results/nvidia-h100-80gb-hbm3/synccheck.txt")"
expect "synccheck: __syncwarp with a mask without the caller" 1 "" -- "$W" run "$D/syncwarp_mask.cu" --check synccheck --quiet
[ "$(grep -c 'Barrier error detected. Invalid arguments.' "$T/err")" = 16 ] && pass "lanes 16-31 reported" || fail "syncwarp mask"
has "at the line" "$T/err" "at half_mask(int *) in syncwarp_mask.cu:7"
for L in "$R"/*/*.launch; do
    "$W" run "$L" --check synccheck --quiet > /dev/null 2> "$T/err" || { fail "$L under synccheck"; head -4 "$T/err"; }
done
pass "every course launch is clean under synccheck"

# --racecheck-global yes: race_global.cu's hazards, counted by hand: 64 threads each read 4 bytes another wrote (8 -> 11)
expect "racecheck on global memory" 1 "" -- "$W" run "$D/race_global.cu" --check racecheck --racecheck-global yes --quiet
grep -A1 -F "========= Error: Race reported between Write access at shift(int *, int *, int) in race_global.cu:8" "$T/err" \
    | grep -qF "=========     and Read access at shift(int *, int *, int) in race_global.cu:11 [256 hazards]" \
    && pass "the write and the read, one error for the pair (two of them cross warps)" || { fail "race_global's report"; cat "$T/err"; }
has "the barrier's launch and the two blocks' launch add nothing" "$T/err" "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
expect "without it, shared memory only (compute-sanitizer's racecheck)" 0 "" -- "$W" run "$D/race_global.cu" --check racecheck --quiet
has "a clean summary" "$T/err" "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
expect "--racecheck-global takes yes or no" 2 "" -- "$W" run "$D/race_global.cu" --check racecheck --racecheck-global maybe
expect "--sched takes lockstep or its" 2 "" -- "$W" run "$D/race_global.cu" --sched volta

# programs/005_find_the_bug: each check finds the buggy kernel and not its fix
B="$R/005_find_the_bug"
verdict() { # verdict PROGRAM CHECK STATUS FOUND-TEXT FIXED-NAME
    "$W" run "$B/$1.cu" --check "$2" --quiet > "$T/out" 2> "$T/err"
    status=$?
    if [ "$status" = "$3" ] && grep -qF -- "$4" "$T/err" && ! grep -qF -- "$5" "$T/err"; then pass "find the bug: $1 ($2)"
    else fail "find the bug: $1 ($2): status $status"; head -6 "$T/err"; fi
}
verdict reduction_no_barrier racecheck 1 "Write access at sum_buggy(const int *, int *) in reduction_no_barrier.cu:17" sum_fixed
verdict transpose_early_read racecheck 1 "and Read access at transpose_buggy(const float *, float *, int) in transpose_early_read.cu:16" transpose_fixed
verdict warp_unroll racecheck 0 "Warning: Race reported between Read access at sum(const int *, int *, int) in warp_unroll.cu:12" "warp_unroll.cu:2"
# the racecheck summaries equal compute-sanitizer's on the H100 (validate/reference/results/: bug_*.racecheck.txt)
for n in reduction_no_barrier transpose_early_read warp_unroll warp_volatile; do
    "$W" run "$B/$n.cu" --check racecheck --print-limit 2 --quiet > /dev/null 2> "$T/err"
    want=$(grep 'RACECHECK SUMMARY' "$REF/results/nvidia-h100-80gb-hbm3/bug_$n.racecheck.txt")
    has "find the bug: $n, compute-sanitizer's summary" "$T/err" "$want"
done
sed 's/+0x[0-9a-f]*//' "$REF/results/nvidia-h100-80gb-hbm3/bug_transpose_early_read.racecheck.txt" | grep -e 'Race reported' -e 'and Read' > "$T/want"
"$W" run "$B/transpose_early_read.cu" --check racecheck --quiet 2>&1 >/dev/null | grep -e 'Race reported' -e 'and Read' > "$T/got"
cmp -s "$T/want" "$T/got" && pass "find the bug: the transpose's report line for line" || { fail "transpose report"; diff "$T/want" "$T/got"; }
verdict warp_volatile racecheck 0 "Warning: Race reported between Write access at sum(const int *, int *, int) in warp_volatile.cu:14" "warp_volatile.cu:2"
# --sched its (the default on sm_90) breaks the lockstep-reliant kernels as Volta and later may; lockstep does not
"$W" run "$B/warp_volatile.cu" --sched lockstep --quiet > "$T/out" 2>&1
has "warp_volatile: lockstep gives the pre-Volta right sum" "$T/out" "buggy 32640, fixed 32640, expected 32640"
"$W" run "$B/warp_volatile.cu" --quiet > "$T/out" 2>&1
grep -q "buggy 32640" "$T/out" && fail "warp_volatile: its leaves the buggy sum right" || pass "warp_volatile: its gets the buggy sum wrong"
has "warp_volatile: and the fixed one right" "$T/out" "fixed 32640, expected 32640"
"$W" run "$B/warp_volatile.cu" --seed 3 --quiet > "$T/out2" 2>&1
"$W" run "$B/warp_volatile.cu" --seed 3 --quiet > "$T/out3" 2>&1
cmp -s "$T/out2" "$T/out3" && pass "warp_volatile: one seed, one result" || fail "warp_volatile: --seed 3 twice differs"
"$W" run "$B/warp_volatile.cu" --arch pascal --quiet > "$T/out" 2>&1
has "warp_volatile: sm_60 runs lockstep by default" "$T/out" "buggy 32640, fixed 32640"
"$W" run "$B/reduction_no_barrier.cu" --quiet > "$T/out" 2>&1
grep -q "buggy 32640" "$T/out" && fail "reduction_no_barrier: its leaves the buggy sum right" || pass "reduction_no_barrier: its gets the buggy sum wrong, as the H100 did"
verdict barrier_in_if synccheck 1 "at scale_buggy(float *, int) in barrier_in_if.cu:15" scale_fixed
verdict uninitialized initcheck 1 "at histogram(const unsigned char *, int, unsigned int *) in uninitialized.cu:11" "in uninitialized.cu:18"

# warpsim cc: a standalone executable that reads its report flags from WARPSIM_FLAGS
expect "warpsim cc" 0 "" -- "$W" cc "$D/vector_add.cu" -o "$T/vector_add"
expect "the built program runs" 0 "$D/vector_add.expected" -- env WARPSIM_FLAGS=--quiet "$T/vector_add"
expect "bad WARPSIM_FLAGS stop it" 2 "" -- env WARPSIM_FLAGS=--bogus "$T/vector_add"
has "naming the variable" "$T/err" "WARPSIM_FLAGS: unknown flag '--bogus'"
expect "a flag that describes a launch" 2 "" -- env "WARPSIM_FLAGS=--grid 4" "$T/vector_add"
has "is refused for a program" "$T/err" "describes a launch from the command line"

# Host memory never lies where device pointers do: window_squatter.c, preloaded, makes the program's large
# allocations land in the global window, as a randomised layout does about 1 run in 170 on x86-64 Linux
# (cuda/runtime/address_space.c then starts the program again, unrandomised, before main)
if [ "$(uname -s)" = Linux ] && ${CC:-cc} -shared -fPIC -o "$T/squatter.so" "$D/window_squatter.c" 2> "$T/err"; then
    expect "warpsim cc host_windows.cu" 0 "" -- "$W" cc "$D/host_windows.cu" -o "$T/host_windows"
    # ASan's run-time library wants to come first among the libraries: the preloaded one goes before it
    squat() { env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD="$T/squatter.so" \
              WARPSIM_FLAGS=--quiet "$@"; }
    expect "host memory in the device window: the program starts again, unrandomised" 0 \
        "$D/host_windows.expected" -- squat "$T/host_windows"
    # where the warning is given, whether the program's buffers then land in the window is the layout's luck
    # (about 1 run in 50 under the loader, its libraries lie below the window and nothing does): its own
    # verdict, 0 or 1, never a crash
    warned() {
        name=$1; shift
        "$@" > "$T/out" 2> "$T/err"; status=$?
        case $status in 0|1) pass "$name: exit status $status" ;; *) fail "$name: exit status $status";; esac
    }
    warned "host memory in the device window after the new start too" squat env WINDOW_SQUATTER_ALWAYS=1 \
        "$T/host_windows"
    has "is said, naming the window" "$T/err" "lies where the simulator puts device memory (0x7f0000000000-0x7f0180000000)"
    # started by its loader (ld.so ./prog): /proc/self/exe is the loader, so no new start, the warning instead
    loader=$(readelf -l "$T/host_windows" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
    if [ -n "$loader" ]; then
        warned "host memory in the device window, the program started by its loader" squat "$loader" \
            "$T/host_windows"
        has "is said" "$T/err" "lies where the simulator puts device memory"
    else
        echo "skip: a program started by its loader (readelf finds no interpreter)"
    fi
    # the runtime in a shared library opened after main has started (a plugin): its constructor runs at dlopen,
    # when starting the process again would run main's work twice: the warning instead, main's output once
    if [ -n "$3" ] && $4 $5 -shared -o "$T/libplugin.so" -Wl,-u,cudaGetDeviceCount "$2" "$3" -lm -lpthread \
           2> "$T/err" && $4 $5 -o "$T/dlopen_runtime" "$D/dlopen_runtime.c" -ldl 2>> "$T/err"; then
        printf 'main: started\nruntime opened: cudaGetDeviceCount returned 0, 1 device(s)\n' > "$T/opened"
        expect "host memory in the device window, the runtime opened by dlopen: no new start" 0 "$T/opened" -- \
            squat "$T/dlopen_runtime" "$T/libplugin.so"
        has "is said" "$T/err" "lies where the simulator puts device memory"
    elif [ -n "$3" ]; then
        fail "the runtime as a shared library: does not build"; sed 's/^/    /' "$T/err" | head -20
    else
        echo "skip: the runtime opened by dlopen (no archives given)"
    fi
else
    echo "skip: host memory in the device window (Linux with a C compiler only)"
fi

# the course's kernels through clang: every programs/*/*.cu compiles (warpsim cc -ptx), and each .launch leaves
# the same bytes in every buffer from clang's PTX as from the program's own PTX
# A launch whose PTX targets sm_1x (the G80: 002_matmul_g80/matmul_g80_g80.launch, whose mad.f32 stands for
# the fma.f32 that came with sm_20): no compiler today writes PTX that runs there, so no variant can replace it.
sm1x_launch() { grep -q '^\.target  *sm_1[0-3]' "$(dirname "$1")/$(sed -n 's/^ptx  *//p' "$1" | head -1)"; }
for L in "$R"/*/*.launch; do
    dir=$(dirname "$L"); name=$(basename "$dir")/$(basename "$L")
    sm1x_launch "$L" && { echo "skip: $name (its PTX targets sm_1x; clang's cannot run there)"; continue; }
    grep -qs 'LaunchDeviceV2' "$dir"/*.ptx &&
        { echo "skip: $name (device-side launches: clang compiles none; its PTX is nvcc -rdc=true's)"; continue; }
    cu=$(ls "$dir"/*.cu | head -1)
    if ! "$W" cc -ptx "$cu" -o "$T/clang.ptx" 2> "$T/err"; then fail "$cu: clang"; sed 's/^/    /' "$T/err"; continue; fi
    bufs=$(sed -n 's/^buf  *\([A-Za-z0-9_]*\)=.*/\1/p' "$L")
    set --
    for b in $bufs; do set -- "$@" --dump "$b=$T/own_$b"; done
    "$W" run "$L" --quiet "$@" > /dev/null 2> "$T/err" || { fail "$name with its own PTX"; continue; }
    set --
    for b in $bufs; do set -- "$@" --dump "$b=$T/clang_$b"; done
    "$W" run "$L" --ptx "$T/clang.ptx" --quiet "$@" > /dev/null 2> "$T/err" || { fail "$name with clang's PTX"; sed 's/^/    /' "$T/err"; continue; }
    same=1
    for b in $bufs; do cmp -s "$T/own_$b" "$T/clang_$b" || same=0; done
    [ "$same" = 1 ] && pass "$name: clang's PTX leaves the same buffers" || fail "$name: buffers differ under clang"
done

if command -v nvcc >/dev/null 2>&1; then
    expect "device code by nvcc" 0 "$D/vector_add.expected" -- "$W" run "$D/vector_add.cu" --cc nvcc --quiet
    expect "texture modes, device code by this nvcc" 0 "$D/texture_modes.expected" -- "$W" run "$D/texture_modes.cu" --cc nvcc --quiet
    # nvcc asks for -rdc=true (relocatable device code) for a device-side launch; warpsim asks again with it
    expect "device-side launches by nvcc" 0 "$D/cdp.expected" -- "$W" run "$D/cdp.cu" --cc nvcc --quiet
else
    echo "skip: device code by nvcc (nvcc is not installed); device-side launches by nvcc likewise"
fi

echo "$failures failure(s)"
[ "$failures" = 0 ]
