#!/bin/sh
# The compiler matrix: every programs/*/*.cu compiled by each compiler at each
# option users reach for -- clang -O0..-O3 for sm_70 and sm_80 (clang 14 knows
# no sm_90), and where nvcc is installed nvcc -O3 for sm_52/70/80/90, -G,
# -lineinfo and -O0 for sm_90 -- then, for every course launch (programs/*/*.launch),
# with each variant's PTX: warpsim accepts it (`check`), runs it, and every
# output buffer equals the reference's bit for bit (the reference: nvcc -O3
# sm_90 where nvcc exists, else clang -O3 sm_80); the memory counters
# (requests, sectors, shared wavefronts, bank conflicts) are compared too and
# every difference is listed (tests/README.md explains them).
# Every difference must be one tests/compiler_matrix.expected lists and explains.
# Also every test kernel (tests/cu/*.cu) with them, and the 86 course cases of
# test_course from each variant's PTX against their C references. The whole
# programs, whose folders have no .launch file (000_*, 002_constant_texture,
# 003_device_functions, 003_mapped_multi_gpu, 004_streams), run with each sm_90
# nvcc variant's PTX as their device code (`warpsim run FILE.cu --ptx`, host code by
# clang): exit 0, "Check: OK", and the output of `warpsim run FILE.cu` (clang)
# with every number that has a fraction masked (times, ratios, printed floats:
# the programs check their results themselves).
#   tests/compiler_matrix.sh WARPSIM_BINARY FLOATDIFF_BINARY TEST_COURSE_BINARY [--table] [--sanitized]
# Exit 77 (ctest: skipped) without clang; nvcc's variants are skipped, saying
# so, without nvcc or for the targets the installed nvcc no longer compiles.
# --sanitized (the build-asan suite, where every run is several times slower):
# the references and the variants furthest from them only -- clang -O0 sm_70,
# clang -O3 sm_80, nvcc -O3 and -G sm_90 -- the plain build runs them all.
W=$1
FLOATDIFF=$2
TEST_COURSE=$3
shift 3
table=""
sanitized=""
for arg in "$@"; do
    case $arg in
    --table) table=1 ;;
    --sanitized) sanitized=1 ;;
    *) echo "compiler_matrix.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done
CU=$(cd "$(dirname "$0")/cu" && pwd)
EXPECTED=$(cd "$(dirname "$0")" && pwd)/compiler_matrix.expected
R=$(cd "$(dirname "$0")/../programs" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-matrix-XXXXXX")
trap 'rm -rf "$T"' EXIT
if ! clang -print-targets 2>/dev/null | grep -q nvptx64; then
    echo "SKIP: clang with the NVPTX target is not installed (scripts/deps installs it)"
    exit 77
fi
METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum

variants="clang:sm_70:-O0 clang:sm_70:-O1 clang:sm_70:-O2 clang:sm_70:-O3 clang:sm_80:-O0 clang:sm_80:-O1 clang:sm_80:-O2 clang:sm_80:-O3"
reference=clang:sm_80:-O3
# sm_90 where this clang knows it (clang 14 stops at sm_86)
if echo '__global__ void k() {}' | clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
       -Wno-unknown-cuda-version -S -o /dev/null - 2> /dev/null; then
    variants="$variants clang:sm_90:-O0 clang:sm_90:-O1 clang:sm_90:-O2 clang:sm_90:-O3"
else
    echo "skip: clang:sm_90 (this clang, $(clang --version | sed -n 's/.*version \([0-9.]*\).*/\1/p;q'), does not know sm_90; sm_80 stands in)"
fi
if command -v nvcc >/dev/null 2>&1; then
    nv="nvcc:sm_90:-O3"
    for arch in sm_52 sm_70 sm_75 sm_80; do
        if nvcc --list-gpu-arch 2>/dev/null | grep -qx "compute_${arch#sm_}"; then nv="$nv nvcc:$arch:-O3"
        else echo "skip: nvcc:$arch:-O3 (this nvcc, $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), no longer compiles for $arch)"; fi
    done
    variants="$nv nvcc:sm_90:-G nvcc:sm_90:-lineinfo nvcc:sm_90:-O0 $variants"
    reference=nvcc:sm_90:-O3
else
    echo "skip: the nvcc variants (nvcc is not installed); reference: clang -O3 sm_80"
fi
if [ -n "$sanitized" ]; then
    kept=""
    for v in $variants; do
        case $v in clang:sm_70:-O0|clang:sm_80:-O3|nvcc:sm_90:-O3|nvcc:sm_90:-G) kept="$kept $v" ;; esac
    done
    echo "sanitized: the variants$kept (the plain build runs them all)"
    variants=${kept# }
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# whether compiler_matrix.expected lists this difference: listed KIND VARIANT LAUNCH -> prints its tolerance
listed() {
    compiler=${2%%:*}
    awk -v k="$1" -v v="$2" -v c="$compiler" -v l="$3" \
        '$1 == k && ($2 == v || $2 == c) && $3 == l { print ($4 == "" ? "-" : $4); found = 1; exit } END { exit !found }' "$EXPECTED"
}

# A folder whose programs launch kernels from the device (dynamic parallelism): clang compiles no device-side
# launch, and nvcc only with -rdc=true; its committed PTX (nvcc -rdc=true's) is what its .launch files run.
device_launches() { grep -qs 'LaunchDeviceV2' "$1"/*.ptx; }
for dir in "$R"/*/; do
    device_launches "$dir" && echo "skip: $(basename "$dir") (device-side launches: no variant compiles them; its committed PTX is nvcc -rdc=true's)"
done

# compile every .cu with every variant
for v in $variants; do
    cc=${v%%:*}; rest=${v#*:}; arch=${rest%%:*}; opt=${rest#*:}
    d="$T/$(echo "$v" | tr ':' '_')"; mkdir -p "$d"
    for cu in "$R"/*/*.cu "$CU"/*.cu; do
        case $cu in "$R"/*) name=$(basename "$(dirname "$cu")") ;; *) name=$(basename "$cu" .cu) ;; esac
        case $cu in "$R"/*) device_launches "$(dirname "$cu")" && continue ;; esac
        if [ "$cc" = nvcc ]; then
            nvcc -ptx -arch="$arch" $opt -o "$d/$name.ptx" "$cu" 2> "$T/err" || { fail "$v $cu: nvcc"; cat "$T/err"; continue; }
        else
            "$W" cc -ptx --cc clang -arch="$arch" -O "${opt#-O}" "$cu" -o "$d/$name.ptx" 2> "$T/err" ||
                { fail "$v $cu: clang"; cat "$T/err"; continue; }
        fi
        # a program's own copy: tests/cu/003_device_functions.cu (a course case) takes the folder's name too
        case $cu in "$R"/*) cp "$d/$name.ptx" "$d/program_$name.ptx" ;; esac
        if ! "$W" check "$d/$name.ptx" > /dev/null 2> "$T/err"; then
            if listed check "$v" "$name" > /dev/null; then echo "known: $v $name: warpsim check fails (compiler_matrix.expected)"
            else fail "$v $name: warpsim check"; head -5 "$T/err"; fi
        fi
    done
done

# the course cases from every variant's PTX, against their C references (bit for bit)
for v in $variants; do
    d="$T/$(echo "$v" | tr ':' '_')"
    if ! WARPSIM_COURSE_PTX="$d" CK_VERBOSITY=silent "$TEST_COURSE" > "$T/course" 2>&1; then
        if listed course "$v" all > /dev/null; then echo "known: $v course cases (compiler_matrix.expected)"
        else fail "$v: test_course"; grep -v ':P:' "$T/course" | head -5; fi
    fi
done

# the whole programs with each sm_90 nvcc variant's PTX as their device code, against clang's own build
# (clang's variants other than its default are left out: course_programs.sh runs that one; the sm_75 and sm_80
# builds too, whose PTX warpsim check reads above: each program takes a few seconds)
FLAGS_003_mapped_multi_gpu="--devices 2"   # two GPUs, as course_programs.sh runs it
whole=0
mask() { sed -E 's/ *-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?/ #/g'; }   # and the blanks that align them
for cu in "$R"/*/*.cu; do
    dir=$(dirname "$cu"); name=$(basename "$dir")
    [ "$name" = 005_find_the_bug ] && continue
    grep -q '^int main' "$cu" || continue
    ls "$dir"/*.launch > /dev/null 2>&1 && continue   # its kernels run above, launch by launch
    eval "flags=\${FLAGS_$name:-}"
    # shellcheck disable=SC2086  # the flags are words
    "$W" run "$cu" $flags --quiet 2>&1 | mask > "$T/$name.clang"
    for v in $variants; do
        case $v in nvcc:sm_90:*) ;; *) continue ;; esac
        d="$T/$(echo "$v" | tr ':' '_')"
        [ -f "$d/program_$name.ptx" ] || continue
        # shellcheck disable=SC2086
        if ! "$W" run "$cu" $flags --ptx "$d/program_$name.ptx" --quiet > "$T/prog" 2> "$T/err"; then
            fail "$v $name: the program failed"; head -5 "$T/err"; continue
        fi
        grep -qx 'Check: OK' "$T/prog" || { fail "$v $name: no 'Check: OK'"; continue; }
        mask < "$T/prog" > "$T/prog.masked"
        whole=$((whole + 1))
        if cmp -s "$T/$name.clang" "$T/prog.masked"; then echo "ok: $v $name: Check: OK, clang's output"; continue; fi
        if listed output "$v" "$name" > /dev/null; then echo "known: $v $name: output differs (compiler_matrix.expected)"
        else fail "$v $name: its output differs from clang's build (not in compiler_matrix.expected)"; diff "$T/$name.clang" "$T/prog.masked" | head -10; fi
    done
done

case $variants in *nvcc:sm_90*) [ "$whole" -gt 0 ] || fail "no whole program ran from nvcc's PTX" ;; esac

# run every launch with every variant; compare with the reference
ref="$T/$(echo "$reference" | tr ':' '_')"
# A launch whose PTX targets sm_1x (the G80: 002_matmul_g80/matmul_g80_g80.launch, whose mad.f32 stands for
# the fma.f32 that came with sm_20): no compiler today writes PTX that runs there, so no variant can replace it.
sm1x_launch() { grep -q '^\.target  *sm_1[0-3]' "$(dirname "$1")/$(sed -n 's/^ptx  *//p' "$1" | head -1)"; }
for L in "$R"/*/*.launch; do
    name=$(basename "$(dirname "$L")"); launch=$name/$(basename "$L" .launch)
    sm1x_launch "$L" && { echo "skip: $launch (its PTX targets sm_1x; no variant's can run there)"; continue; }
    bufs=$(sed -n 's/^buf  *\([A-Za-z0-9_]*\)=.*/\1/p' "$L")
    for v in $reference $variants; do
        d="$T/$(echo "$v" | tr ':' '_')"
        [ -f "$d/$name.ptx" ] || continue
        set --
        for b in $bufs; do set -- "$@" --dump "$b=$d/$name.$(basename "$L").$b"; done
        if ! "$W" run "$L" --ptx "$d/$name.ptx" --csv --metrics "$METRICS" "$@" > "$d/$name.$(basename "$L").csv" 2> "$T/err"; then
            fail "$v $launch: the run failed"; head -3 "$T/err"; continue
        fi
        [ "$v" = "$reference" ] && continue
        for b in $bufs; do
            cmp -s "$ref/$name.$(basename "$L").$b" "$d/$name.$(basename "$L").$b" && continue
            if tol=$(listed buffers "$v" "$launch"); then
                got=$("$FLOATDIFF" "$ref/$name.$(basename "$L").$b" "$d/$name.$(basename "$L").$b")
                awk -v g="$got" -v t="$tol" 'BEGIN { exit !(g + 0 <= t + 0) }' ||
                    fail "$v $launch: buffer $b differs by $got (normwise), more than the listed $tol"
            else
                fail "$v $launch: buffer $b differs from $reference (not in compiler_matrix.expected)"
            fi
        done
        # the counters: rows after the two header lines, kernel names aside (clang mangles, the programs do not)
        tail -n +3 "$ref/$name.$(basename "$L").csv" | sed 's/^\("[^"]*",\)"[^"]*",/\1/' > "$T/a"
        tail -n +3 "$d/$name.$(basename "$L").csv" | sed 's/^\("[^"]*",\)"[^"]*",/\1/' > "$T/b"
        if ! cmp -s "$T/a" "$T/b"; then
            listed counters "$v" "$launch" > /dev/null || fail "$v $launch: memory counters differ from $reference (not in compiler_matrix.expected)"
            [ -n "$table" ] && { echo "counters differ: $v $launch ($reference's row, then $v's)"; paste -d'\n' "$T/a" "$T/b" | sed 's/^/    /'; }
        fi
    done
done
echo "$failures failure(s)"
[ "$failures" = 0 ]
