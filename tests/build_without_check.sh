#!/bin/sh
# A user without the Check library (or pkg-config) builds warpsim and runs the demo:
# a fresh build tree configured with pkg-config hidden from CMake, the warpsim
# target alone, and the transpose demo, whose two launches must report 32 and 1
# shared-load wavefronts per request.  Usage: build_without_check.sh CC
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
CC=${1:-cc} cmake -S . -B "$dir" -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON > "$dir/configure.log"
grep -q "unit tests (tests/test_\*.c) are left out" "$dir/configure.log" ||
    { echo "configure did not say that the unit tests are left out:"; cat "$dir/configure.log"; exit 1; }
cmake --build "$dir" --target warpsim -j2 > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
out=$("$dir/warpsim" run programs/001_transpose/demo.launch)
got=$(echo "$out" | awk '/shared load wavefronts per request/ {printf "%s ", $6}')
[ "$got" = "32.00 1.00 " ] || { echo "shared load wavefronts per request: got '$got', want '32.00 1.00 '"; echo "$out"; exit 1; }
echo "built and ran the demo without Check"
