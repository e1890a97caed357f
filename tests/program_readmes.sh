#!/bin/sh
# The figures programs/README.md and programs/*/README.md quote from a run or from the committed GPU
# measurements, checked by tests/program_readmes.py (its opening comment gives the three comment kinds:
# `checked` verbatim output, `source` and `figures` for every number of a table or paragraph), after the
# checker's own self-test. A README whose figures drift from what the program prints fails here.
#   tests/program_readmes.sh WARPSIM_BINARY [--skip-sizes]
# --skip-sizes (the sanitized build) leaves out the figures of validate/sizes/'s large launches, as the
# validate_time_sizes tests do there: minutes under the sanitizers, and the plain build checks them.
# Exit 77 (ctest: skipped) when clang is not installed, saying so.
W=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 1
if ! clang -print-targets 2>/dev/null | grep -q nvptx64 || ! command -v clang++ >/dev/null 2>&1; then
    echo "SKIP: clang with the NVPTX target is not installed (scripts/deps installs it)"
    exit 77
fi
python3 tests/program_readmes.py --self-test || exit 1
# shellcheck disable=SC2086  # the optional flag is one word or none
exec python3 tests/program_readmes.py ${2:-} "$W" programs/README.md programs/*/README.md
