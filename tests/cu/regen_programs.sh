#!/bin/sh
# Regenerate tests/nvcc/programs/*.ptx: nvcc's PTX of the whole programs that
# tests/cuda_programs.sh runs from nvcc's device code with `warpsim run FILE.cu
# --ptx FILE.ptx` (host code by clang), so that CI, which has no nvcc, runs the
# PTX texture instructions nvcc writes for tex1Dfetch, tex1D and tex2D. The
# flags are those of `warpsim run FILE.cu --cc nvcc` (cuda/compile.c); each file
# is checked with ptxas. Needs the CUDA toolkit on PATH but no GPU.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/tests/nvcc/programs"
mkdir -p "$out"
nvcc --version | tail -n 2
for src in programs/002_constant_texture/constant_texture.cu tests/cuda_programs/textures.cu \
           tests/cuda_programs/texture_modes.cu; do
    name=$(basename "$src" .cu)
    nvcc -ptx -arch=sm_90 -lineinfo -o "$out/$name.ptx" "$root/$src"
    sed -i "s|\"$root/|\"|" "$out/$name.ptx"   # .file: the path within the repository, not this checkout's
    ptxas -arch=sm_90 "$out/$name.ptx" -o /dev/null
    echo "ok $name ($src)"
done
