#!/bin/sh
# The course's exercises as whole programs: every programs/*/*.cu with a main()
# (programs/005_find_the_bug aside: cuda_programs.sh runs those) runs through
# `warpsim run FILE.cu` (with the run flags FLAGS below gives its folder), exits 0 and prints "Check: OK" (its result checked
# against a CPU computation by the program itself), and each kernel it launches
# has the memory counters of the same kernel, with the same grid and block, in
# one of its folder's .launch runs (the hand-written PTX; a folder without .launch files,
# such as the 000_* ones, has only the first two checks). The program's kernels
# are clang's PTX, so the counters compared are those that the addresses decide
# and no compiler choice changes (tests/README.md says which and why):
#   global load and store requests and sectors: unless clang splits a vector access (EXCEPT below; the
#     sectors change too when the two halves of each sector go to two requests);
#   shared load and store wavefronts: unless clang keeps a shared value in a register instead of loading
#     it, or drops a store that no load reads any more (EXCEPT).
#   tests/course_programs.sh WARPSIM_BINARY
# Exit 77 (ctest: skipped) when clang is not installed, saying so.
W=$1
R=$(cd "$(dirname "$0")/../programs" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-course-XXXXXX")
trap 'rm -rf "$T"' EXIT
if ! clang -print-targets 2>/dev/null | grep -q nvptx64 || ! command -v clang++ >/dev/null 2>&1; then
    echo "SKIP: clang with the NVPTX target is not installed (scripts/deps installs it)"
    exit 77
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
LD_REQ=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
ST_REQ=l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
LD_SEC=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
ST_SEC=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
SH_LD=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
SH_ST=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
METRICS=$LD_REQ,$ST_REQ,$LD_SEC,$ST_SEC,$SH_LD,$SH_ST
# Counters left out for one folder's kernel (KERNEL or * for all), with why: clang -O3's code, not the addresses.
# folder kernel metrics... -- why
EXCEPT='
002_coalescing coalesce_float4 l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum -- clang copies a float4 as two 64-bit halves (ld/st.global.u64) where the hand PTX uses one 128-bit access: twice the requests, and each touches all 16 sectors of the warp'"'"'s 512 bytes, so twice the sectors
002_bank_conflicts bank_broadcast l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum -- every thread stores the word it reads after the barrier: clang forwards the stored value to the load, then drops the store, no load of the array being left (no shared access at all; the same value, as every thread stores the same word)
004_dot * l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum -- in the tree clang keeps the thread'"'"'s own element in a register across the barriers and loads only the partner'"'"'s
004_reduction * l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum -- the same tree as 004_dot; clang also issues one more shared store request per block than the hand PTX (one warp, one wavefront: 3,921 against 3,920 for 196 blocks; not traced further)
'
# Run flags a folder's program needs (folder flags... -- why).
# %PTX% stands for the program's own FILE.ptx beside it.
FLAGS='
003_mapped_multi_gpu --devices 2 -- two simulated GPUs: the program uses cudaSetDevice(1) and peer access in its parts 3 and 4, which it leaves out on one GPU
004_dynamic_parallelism --ptx %PTX% -- device-side launches: clang compiles none, so the device code is nvcc -rdc=true'"'"'s PTX, committed beside each .cu
'
flags_of() { printf '%s\n' "$FLAGS" | awk -v f="$1" -v p="$2" '$1 == f { sub(/ -- .*/, ""); $1 = ""; gsub(/%PTX%/, p); print }'; }

for cu in "$R"/*/*.cu; do
    dir=$(dirname "$cu"); folder=$(basename "$dir")
    [ "$folder" = 005_find_the_bug ] && continue
    grep -q '^int main' "$cu" || continue
    name=$folder/$(basename "$cu")
    # shellcheck disable=SC2046  # the flags are words
    "$W" run "$cu" $(flags_of "$folder" "${cu%.cu}.ptx") --csv --metrics "$METRICS" > "$T/prog" 2> "$T/err"
    status=$?
    if [ "$status" != 0 ]; then fail "$name: exit status $status"; sed 's/^/    /' "$T/err" | head -10; continue; fi
    grep -qx 'Check: OK' "$T/prog" && pass "$name: Check: OK" || { fail "$name: no 'Check: OK'"; sed 's/^/    /' "$T/prog" | head -20; }
    if ! ls "$dir"/*.launch > /dev/null 2>&1; then
        pass "$name: no .launch file in its folder, no counters to compare (a whole program only, as the 000_* ones: program_readmes.sh checks its README's figures)"
        continue
    fi
    : > "$T/launches"
    for L in "$dir"/*.launch; do
        "$W" run "$L" --csv --metrics "$METRICS" >> "$T/launches" 2> "$T/err" || { fail "$L"; head -3 "$T/err"; }
    done
    if python3 - "$T/prog" "$T/launches" "$folder" "$EXCEPT" > "$T/cmp" 2>&1 <<'PY'
import csv, sys
def rows(path):
    out, header = [], None
    for r in csv.reader(open(path)):
        if r and r[0] == "ID": header = r; continue
        if header and r and r[0].isdigit(): out.append(dict(zip(header, r)))
    return out
prog, launches, folder = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3]
skip = {}
for line in sys.argv[4].strip().splitlines():
    words = line.split(" -- ")[0].split()
    if words[0] == folder: skip.setdefault(words[1], set()).update(words[2:])
metrics = [m for m in prog[0] if m.startswith("l1tex")] if prog else []
bad = 0
for p in prog:
    k = p["Kernel Name"]
    left = skip.get(k, set()) | skip.get("*", set())
    same = [m for m in metrics if m not in left]
    cands = [l for l in launches if l["Kernel Name"] == k and l["Block Size"] == p["Block Size"] and l["Grid Size"] == p["Grid Size"]]
    if not cands:
        print("no .launch run of %s with block %s grid %s" % (k, p["Block Size"], p["Grid Size"])); bad += 1; continue
    if not any(all(p[m] == l[m] for m in same) for l in cands):
        print("%s %s: the program's counters differ from the .launch's:" % (k, p["Grid Size"]))
        for m in same: print("    %-55s %12s  %s" % (m, p[m], " / ".join(l[m] for l in cands)))
        bad += 1
    else:
        print("%s grid %s: %d counters equal%s" % (k, p["Grid Size"], len(same), " (not compared: " + ", ".join(sorted(left)) + ")" if left else ""))
sys.exit(1 if bad or not prog else 0)
PY
    then pass "$name: the counters of its $(grep -c ' counters equal' "$T/cmp") launches equal the .launch runs'"; sed 's/^/    /' "$T/cmp"
    else fail "$name: counters"; sed 's/^/    /' "$T/cmp"; fi
done
echo "$failures failure(s)"
[ "$failures" = 0 ]
