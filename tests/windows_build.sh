#!/bin/sh
# Windows: warpsim cross-compiled with MinGW-w64 (cmake/mingw-w64.cmake, the posix flavour of Debian's
# gcc-mingw-w64-x86-64) and run under Wine, each run's output against the native binary's: the text report,
# --csv and --json, every programs/*/*.launch's counters, --jobs (winpthreads), --metrics rollups and regex:
# (sim/platform.c's own matcher there), --dump over an existing file (MoveFileEx), --timeline and --html
# (a temporary file for open_memstream), --stats (the peak memory from GetProcessMemoryInfo), and a .cu
# file's message. The build must not warn.
#   windows_build.sh WARPSIM     (the native binary: the expected output)
# Exit 77 (skipped), saying so, without the cross compiler; without Wine it cross-compiles only, saying so.
set -eu
cd "$(dirname "$0")/.."
native=$1
if ! command -v x86_64-w64-mingw32-gcc-posix >/dev/null 2>&1 && ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    echo "SKIP: no MinGW-w64 cross compiler (Debian: apt-get install gcc-mingw-w64-x86-64; scripts/deps test installs it as root)"
    exit 77
fi
dir=$(mktemp -d)
wineserver=""
cleanup() {
    # Wine's server outlives the last program and writes to the prefix: stop it before removing the prefix
    if [ -n "$wineserver" ]; then "$wineserver" -k 2>/dev/null || true; "$wineserver" -w 2>/dev/null || true; fi
    rm -rf "$dir" 2>/dev/null || { sleep 2; rm -rf "$dir"; }
}
trap 'st=$?; cleanup; exit $st' EXIT
cmake -S . -B "$dir/build" -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    > "$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
cmake --build "$dir/build" -j2 > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
if grep "warning:" "$dir/build.log"; then echo "the MinGW-w64 build warns"; exit 1; fi
exe=$dir/build/warpsim.exe
wine=""
for w in wine64 /usr/lib/wine/wine64 wine; do
    if command -v "$w" >/dev/null 2>&1 || [ -x "$w" ]; then wine=$w; break; fi
done
if [ -z "$wine" ]; then
    echo "cross-compiled warpsim.exe; not run: Wine is not installed (Debian: apt-get install wine64)"
    exit 0
fi
export WINEPREFIX="$dir/wineprefix" WINEDEBUG=-all
for w in "$(dirname "$(command -v "$wine" || echo "$wine")")/wineserver" /usr/lib/wine/wineserver wineserver; do
    if [ -x "$w" ] || command -v "$w" >/dev/null 2>&1; then wineserver=$w; break; fi
done
"$wine" "$exe" --version > /dev/null 2>&1 || true   # the first start makes the prefix (its messages aside)
# Wine's server lingers 3 s after its last program and a program starting as it exits loses it ("wine client
# error: ... Connection reset by peer"): keep one server for the whole test (cleanup stops it)
# (the first start's server waited for, so that the persistent one is the only one)
if [ -n "$wineserver" ]; then "$wineserver" -w 2>/dev/null || true; "$wineserver" -p 2>/dev/null || true; fi
# win OUT ARGS...: warpsim.exe's exit status (and output in OUT), run again (at most twice) where Wine itself
# lost its server, a failure of Wine's, not of warpsim's, which never prints that message
win() {
    out=$1
    shift
    for attempt in 1 2 3; do
        ws=0; "$wine" "$exe" "$@" > "$out" 2>&1 || ws=$?
        grep -q "^wine client error" "$out" || break
        echo "note: Wine lost its server (attempt $attempt): $(grep -m1 "^wine client error" "$out")" >&2
    done
    return $ws
}

fail=0
# the output less what differs by nature: Windows' line ends, the host time, the process ID in --csv
norm() { tr -d '\r' | grep -v "simulator host time\|\"seconds\":" | sed 's/^"\([0-9]*\)","[0-9]*",/"\1","PID",/'; }
# same NAME ARGS...: both binaries, the same exit status and output
same() {
    name=$1
    shift
    st=0; "$native" "$@" > "$dir/linux.out" 2>&1 || st=$?
    wst=0; win "$dir/windows.out" "$@" || wst=$?
    norm < "$dir/linux.out" > "$dir/linux.txt"
    norm < "$dir/windows.out" > "$dir/windows.txt"
    if [ "$st" != "$wst" ] || ! cmp -s "$dir/linux.txt" "$dir/windows.txt"; then
        echo "FAIL $name: exit $st on Linux, $wst on Windows"
        diff "$dir/linux.txt" "$dir/windows.txt" | head -20
        fail=1
    else
        n=$(wc -l < "$dir/linux.txt")
        echo "ok   $name ($n lines, exit $st)"
    fi
}

demo=programs/001_transpose/demo.launch
same "text report" run $demo
same "--csv" run $demo --csv
same "--json" run $demo --json
same "--jobs 3" run $demo --jobs 3 --no-timing --csv
same "--source" run $demo --source
same "rollups" run $demo --csv --metrics smsp__inst_executed,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.avg,smsp__inst_executed.sum.per_second,gpu__time_duration
same "rollup refused" run $demo --metrics smsp__inst_executed.max
for re in 'bank_conflicts' '^l1tex__t_sectors.*_ld|branch' 'wavefronts.*st\.sum$' '[ls][dt]\.sum$' '^[^w].*[^m]$' 'b?a+n.*s_' '^(smsp'; do
    same "--metrics regex:$re" run $demo --csv --metrics "regex:$re"
done
for l in programs/*/*.launch; do
    same "$l" run "$l" --csv --no-timing
done
# a .cu program: this build has no fork/exec to compile and run it with, and says so
st=0; win "$dir/cu.out" run tests/cuda_programs/vector_add.cu || st=$?
if [ $st = 1 ] && grep -q "needs a POSIX system" "$dir/cu.out"; then echo "ok   a .cu program refused, saying why"; else
    echo "FAIL a .cu program: exit $st"; cat "$dir/cu.out"; fail=1; fi

# --dump over a file that is there (rename replaces it only through MoveFileEx on Windows)
echo old > "$dir/w.bin"
"$native" run $demo --quiet --dump out_padded="$dir/l.bin" > /dev/null
win "$dir/dump.out" run $demo --quiet --dump out_padded="$dir/w.bin" || { echo "FAIL --dump"; cat "$dir/dump.out"; fail=1; }
cmp -s "$dir/l.bin" "$dir/w.bin" && echo "ok   --dump over an existing file" || { echo "FAIL --dump: other bytes"; fail=1; }
# --timeline and --html write through the memory stream
"$native" run $demo --quiet --timeline "$dir/l.json" --html "$dir/l.html" > /dev/null
win "$dir/timeline.out" run $demo --quiet --timeline "$dir/w.json" --html "$dir/w.html" || { echo "FAIL --timeline/--html"; cat "$dir/timeline.out"; fail=1; }
cmp -s "$dir/l.json" "$dir/w.json" && echo "ok   --timeline" || { echo "FAIL --timeline: other JSON"; fail=1; }
if [ "$(wc -c < "$dir/w.html")" -gt 10000 ] && grep -q "</html>" "$dir/w.html"; then
    echo "ok   --html ($(wc -c < "$dir/w.html") bytes)"
else
    echo "FAIL --html: $(wc -c < "$dir/w.html") bytes"; fail=1
fi
# --stats: the peak host memory is known
win "$dir/stats.txt" run $demo --quiet --stats || true
peak=$(tr -d '\r' < "$dir/stats.txt" | awk '/peak host memory/ {print $4; exit}')
if [ -n "$peak" ] && [ "$peak" != 0 ]; then echo "ok   --stats: peak host memory $peak"; else
    echo "FAIL --stats:"; cat "$dir/stats.txt"; fail=1; fi
[ $fail = 0 ] && echo "warpsim.exe under $("$wine" --version 2>/dev/null || echo Wine) gives the Linux binary's results"
exit $fail
