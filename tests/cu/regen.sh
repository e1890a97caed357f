#!/bin/sh
# Regenerate tests/nvcc/*.ptx with nvcc, check each with ptxas, and rebuild
# tests/nvcc/OPCODES.txt.  One source per kernel:
#   programs/NNN_x/*.cu  -> tests/nvcc/NNN_x.ptx   (the exercises' CUDA twins: the folders
#                                                   with .launch files and one .cu)
#   tests/cu/NAME.cu     -> tests/nvcc/NAME.ptx    (course kernels no exercise has)
# The other folders' PTX comes from tests/cu/regen_programs.sh (whole programs run from
# nvcc's PTX) and tests/cu/regen_rdc.sh (dynamic parallelism, nvcc -rdc=true).
# Run from anywhere; needs the CUDA toolkit (nvcc, ptxas) on PATH but no GPU.
# The flags are those of validate/run-on-gpu's real build (-O3 is nvcc's
# default), so its PTX is byte for byte the file here.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/tests/nvcc"
arch=${ARCH:-sm_90}
mkdir -p "$out"
nvcc --version | tail -n 2
rm -f "$out"/*.ptx
compile() {   # compile SRC NAME
    if [ -e "$out/$2.ptx" ]; then
        echo "regen.sh: two sources for tests/nvcc/$2.ptx (the second is $1)" >&2
        exit 1
    fi
    nvcc -ptx -O3 -arch="$arch" -I"$(dirname "$1")" -o "$out/$2.ptx" "$1"
    ptxas -arch="$arch" "$out/$2.ptx" -o /dev/null
    echo "ok $2 ($1)"
}
for dir in "$root"/programs/*/; do
    set -- "$dir"*.launch
    [ -e "$1" ] || continue   # a whole program only (000_*, ...): no .launch twin to compare with
    set -- "$dir"*.cu
    if [ $# -ne 1 ]; then
        echo "skip $(basename "$dir"): $# .cu files (tests/cu/regen_rdc.sh makes its PTX)"
        continue
    fi
    compile "$1" "$(basename "$dir")"
done
for src in "$root"/tests/cu/*.cu; do
    compile "$src" "$(basename "$src" .cu)"
done
sh "$root/tests/cu/opcodes.sh" "$out"/*.ptx > "$out/OPCODES.txt"
echo "wrote $out/OPCODES.txt"
