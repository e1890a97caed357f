#!/bin/sh
# Warps in lockstep (sim/lockstep.c) against warp by warp: bench/identical.sh's cases (the bench's
# workloads with partial warps, 2D blocks, a fault, the step budget running out mid-round, --no-timing,
# --build O0, and every programs/*/*.launch) give the same JSON, stderr, exit status and buffers when
# every warp-instruction goes through ws_step alone (WARPSIM_WARP_BY_WARP=1).
#   tests/lockstep_equal.sh path/to/warpsim
set -eu
warpsim=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/warp_by_warp" <<SH
#!/bin/sh
WARPSIM_WARP_BY_WARP=1 exec "$warpsim" "\$@"
SH
chmod +x "$tmp/warp_by_warp"
bash "$root/bench/identical.sh" compare "$tmp/warp_by_warp" "$warpsim"
