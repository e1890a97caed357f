#!/bin/sh
# Regenerate tests/nvcc/*.ptx from tests/cu/*.cu with nvcc, check each with
# ptxas, and rebuild tests/nvcc/OPCODES.txt.  Run from anywhere; needs the
# CUDA toolkit (nvcc, ptxas) on PATH but no GPU.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cu="$root/tests/cu"
out="$root/tests/nvcc"
arch=${ARCH:-sm_90}
mkdir -p "$out"
nvcc --version | tail -n 2
for src in "$cu"/*.cu; do
    name=$(basename "$src" .cu)
    nvcc -ptx -arch="$arch" -o "$out/$name.ptx" "$src"
    ptxas -arch="$arch" "$out/$name.ptx" -o /dev/null
    echo "ok $name"
done
sh "$cu/opcodes.sh" "$out"/*.ptx > "$out/OPCODES.txt"
echo "wrote $out/OPCODES.txt"
