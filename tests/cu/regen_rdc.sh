#!/bin/sh
# Regenerate the committed PTX of the programs with device-side launches (dynamic parallelism), which only
# nvcc -rdc=true compiles: programs/004_dynamic_parallelism/*.cu and tests/cuda_programs/cdp.cu, each to the
# .ptx beside it, which `warpsim run FILE.cu --ptx FILE.ptx` and the .launch files run without nvcc.
# The .file paths are made relative to the repository's root (nvcc writes them absolute).
# Run from anywhere; needs nvcc (CUDA 12 or later) on PATH but no GPU.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
nvcc --version | tail -n 2
for cu in programs/004_dynamic_parallelism/*.cu tests/cuda_programs/cdp.cu; do
    ptx=${cu%.cu}.ptx
    nvcc -rdc=true -ptx -arch=sm_90 -lineinfo -o "$ptx" "$cu"
    sed -i "s|^\(\s*\.file\s\+[0-9]\+ \"\)$root/|\1|" "$ptx"
    ptxas -c -arch=sm_90 "$ptx" -o /dev/null
    echo "ok $ptx"
done
