#!/bin/sh
# Build the libFuzzer harnesses (clang, -DWARPSIM_FUZZ=ON, into build-fuzz) and
# run each for SECONDS:
#
#   fuzz/run.sh SECONDS [HARNESS...]      HARNESS: ptx launch argv exec names (default: all five, one after another)
#
# Seeds are copied at run time from the repository (programs/**/*.ptx,
# tests/nvcc/*.ptx, tests/ptx/*.ptx, programs/**/*.launch; the .launch files
# also as NUL-separated argv for fuzz_argv) into fuzz/seeds/HARNESS; what
# libFuzzer learns stays in fuzz/corpus/HARNESS.  Crash inputs land in
# fuzz/findings/HARNESS/, logs in fuzz/logs/HARNESS.log; a summary line per
# run is appended to fuzz/logs/summary.txt.  All four folders are gitignored.
# Keep a fixed finding as a regression test in tests/regress/HARNESS/ (see
# tests/regress/README.md).
#
# Environment: CC (default clang), FUZZ_FLAGS (more libFuzzer flags),
# FUZZ_NO_BUILD=1 (skip the build, e.g. for a second run started in parallel).
set -e
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:?usage: fuzz/run.sh SECONDS [ptx|launch|argv|exec|names]...}
shift
harnesses=${*:-ptx launch argv exec names}
build=build-fuzz

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    cmake -S . -B "$build" -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DWARPSIM_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
    targets=""
    for h in $harnesses; do targets="$targets fuzz_$h"; done
    # shellcheck disable=SC2086
    cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target $targets
fi

# the seeds, under names that end in neither .ptx nor .launch (the tests collect those)
seed() { # seed DEST_DIR FILE...
    dest=$1; shift
    mkdir -p "$dest"
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$dest/$(echo "$f" | tr '/' '_').seed"
    done
    return 0
}
# a .launch file as warpsim run's argv: "--name\0value\0" per line, then the file itself as a positional
argv_seed() { # argv_seed FILE OUT
    sed -e 's/[[:space:]]#.*//' -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$1" |
        while IFS= read -r line; do
            name=${line%%[[:space:]]*}
            value=${line#"$name"}
            value=$(echo "$value" | sed 's/^[[:space:]]*//')
            if [ -n "$value" ]; then printf -- '--%s\n%s\n' "$name" "$value"; else printf -- '--%s\n' "$name"; fi
        done | tr '\n' '\000' > "$2"
    printf '%s\000--max-steps\00010\000--quiet' "$root/$1" > "$2.positional"
}
# each kernel body of a PTX file as a fuzz_exec body seed (fuzz/targets.h): the .reg lines of the %p %rs %r
# %f %rd %fd ranges that the body kernel declares left out, the kernel's parameters renamed p0, p1, ...
body_seeds() { # body_seeds FILE OUT_PREFIX
    awk -v out="$2" '
        /\.entry/ { header = 1; started = 0; np = 0 }
        header && !started {
            count = split($0, piece, /[,()]/)
            for (i = 1; i <= count; i++)
                if (piece[i] ~ /\.param/) {
                    words = split(piece[i], word, /[ \t]+/)
                    if (word[words] ~ /^[A-Za-z_][A-Za-z0-9_]*$/) param[np] = word[words]
                    np++
                }
        }
        header && /^[ \t]*\{/ && !started { started = 1; depth = 1; n++; file = out "." n ".body.seed"; next }
        header && started {
            line = $0; o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line); depth += o - c
            if (depth <= 0) { header = 0; started = 0; close(file); for (k in param) delete param[k]; next }
            if ($0 ~ /^[ \t]*\.reg[ \t].*%(p|rs|r|f|rd|fd)</) next
            line = $0
            for (k = 0; k < np && k < 8; k++)
                if (k in param) { gsub("\\[" param[k] "\\]", "[p" k "]", line); gsub("\\[" param[k] "\\+", "[p" k "+", line) }
            print line > file
        }' "$1"
}

for h in $harnesses; do
    rm -rf "fuzz/seeds/$h"
    mkdir -p "fuzz/seeds/$h" "fuzz/corpus/$h" "fuzz/findings/$h" fuzz/logs
    ptx_files=$(find programs tests/nvcc tests/ptx -name '*.ptx' -type f 2>/dev/null | sort)
    launch_files=$(find programs -name '*.launch' -type f 2>/dev/null | sort)
    case $h in
        ptx|exec) dict=fuzz/ptx.dict
                  # shellcheck disable=SC2086
                  seed "fuzz/seeds/$h" $ptx_files
                  if [ "$h" = exec ]; then
                      for f in $ptx_files; do body_seeds "$f" "fuzz/seeds/exec/$(echo "$f" | tr '/' '_')"; done
                  fi ;;
        launch)   dict=fuzz/launch.dict
                  # shellcheck disable=SC2086
                  seed "fuzz/seeds/$h" $launch_files ;;
        argv)     dict=fuzz/launch.dict
                  for f in $launch_files; do argv_seed "$f" "fuzz/seeds/argv/$(echo "$f" | tr '/' '_').seed"; done ;;
        names)    dict=fuzz/launch.dict
                  # the kernel names of the PTX files (mangled ones among them), and flag lines
                  for f in $ptx_files; do
                      sed -n 's/.*\.entry[[:space:]]*\([A-Za-z0-9_$]*\).*/\1/p' "$f" | head -3 |
                          while IFS= read -r k; do printf '%s' "$k" > "fuzz/seeds/names/$(echo "$f$k" | tr '/' '_').seed"; done
                  done
                  printf '%s' "--csv --metrics 'regex:sectors' --kernel vector_add --launch-skip 2 --check initcheck,racecheck" \
                      > fuzz/seeds/names/flags.seed ;;
        *) echo "fuzz/run.sh: unknown harness '$h' (ptx, launch, argv, exec, names)" >&2; exit 2 ;;
    esac
    # what a kept finding must keep finding: the regression inputs as seeds too
    [ -d "tests/regress/$h" ] && seed "fuzz/seeds/$h" $(find "tests/regress/$h" -type f | sort)

    log="fuzz/logs/$h.log"
    echo "fuzz/run.sh: fuzz_$h for ${seconds}s (log: $log, findings: fuzz/findings/$h/)"
    start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    # -jobs=1 runs the fuzzer in a child that logs to fuzz-0.log in the current directory: a
    # folder per harness, so that two harnesses may run at once
    work="fuzz/logs/$h.work"
    rm -rf "$work"; mkdir -p "$work"
    set +e
    # shellcheck disable=SC2086
    (cd "$work" && "$root/$build/fuzz/fuzz_$h" -max_total_time="$seconds" -jobs=1 -timeout=20 -rss_limit_mb=2048 \
        -dict="$root/$dict" -artifact_prefix="$root/fuzz/findings/$h/" -print_final_stats=1 ${FUZZ_FLAGS:-} \
        "$root/fuzz/corpus/$h" "$root/fuzz/seeds/$h" >/dev/null 2>&1)
    rc=$?
    set -e
    mv "$work/fuzz-0.log" "$log" 2>/dev/null || echo "no log" > "$log"
    rm -rf "$work"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1)
    crashes=$(find "fuzz/findings/$h" -type f | wc -l)
    line="$start fuzz_$h ${seconds}s exit=$rc execs=${runs:-?} ${cov:-cov: ?} ${ft:-ft: ?} findings_dir_files=$crashes"
    echo "$line" | tee -a fuzz/logs/summary.txt
done
