#!/bin/sh
# The figures a programs/*/README.md quotes from a run: each fenced block just after a line
#   <!-- checked: ARGS -->
# holds lines of the output of `warpsim run ARGS` (ARGS relative to the source root), quoted
# verbatim and in order (lines of the run may be left out between them, never changed). The run
# must exit 0. A README whose figures drift from what the program prints fails here.
#   tests/program_readmes.sh WARPSIM_BINARY
# Exit 77 (ctest: skipped) when clang is not installed, saying so.
W=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 1
if ! clang -print-targets 2>/dev/null | grep -q nvptx64 || ! command -v clang++ >/dev/null 2>&1; then
    echo "SKIP: clang with the NVPTX target is not installed (scripts/deps installs it)"
    exit 77
fi
exec python3 - "$W" programs/*/README.md <<'PY'
import re, subprocess, sys
W, readmes = sys.argv[1], sys.argv[2:]
runs, failures, blocks = {}, 0, 0
for path in readmes:
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"<!-- checked: (.*) -->\s*$", lines[i])
        i += 1
        if not m:
            continue
        args = m.group(1).split()
        if i >= len(lines) or not lines[i].startswith("```"):
            print("FAIL: %s:%d: no fenced block after the checked comment" % (path, i)); failures += 1; continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        quoted = [l.rstrip() for l in lines[i + 1:j]]
        i = j + 1
        blocks += 1
        key = tuple(args)
        if key not in runs:
            p = subprocess.run([W, "run"] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            runs[key] = (p.returncode, [l.rstrip() for l in p.stdout.split("\n")])
        status, out = runs[key]
        where = "%s, warpsim run %s" % (path, " ".join(args))
        if status != 0:
            print("FAIL: %s: exit status %d" % (where, status)); failures += 1; continue
        k, missing = 0, None
        for q in quoted:
            while k < len(out) and out[k] != q:
                k += 1
            if k == len(out):
                missing = q; break
            k += 1
        if not quoted or missing is not None:
            print("FAIL: %s: the README quotes a line the run does not print (in that order):\n    %s" % (where, missing))
            print("  the run printed:\n" + "\n".join("    " + l for l in out[:60]))
            failures += 1
        else:
            print("ok: %s: %d quoted lines" % (where, len(quoted)))
if blocks == 0:
    print("FAIL: no checked block in any programs/*/README.md"); failures += 1
print("%d failure(s)" % failures)
sys.exit(1 if failures else 0)
PY
