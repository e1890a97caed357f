#!/bin/sh
# Assemble every hand-written PTX file under programs/ with NVIDIA's ptxas
# (part of the CUDA toolkit; no GPU needed).  warpsim does not need ptxas:
# this only proves that the PTX here is real PTX, accepted by NVIDIA's own
# assembler.  Usage: programs/ptxas_check.sh [ARCH]   (default sm_90)
set -eu
arch=${1:-sm_90}
dir=$(cd "$(dirname "$0")" && pwd)
if ! command -v ptxas >/dev/null 2>&1; then
    echo "ptxas_check: ptxas not found (install the CUDA toolkit, or add its bin/ to PATH)" >&2
    exit 2
fi
status=0
for f in "$dir"/*/*.ptx; do
    if ptxas -arch="$arch" "$f" -o /dev/null; then
        echo "ok   ${f#"$dir"/}"
    else
        echo "FAIL ${f#"$dir"/}"
        status=1
    fi
done
exit $status
