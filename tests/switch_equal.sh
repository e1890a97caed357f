#!/bin/sh
# A developer's switch that must change no result: bench/identical.sh's cases (the bench's workloads with
# partial warps, 2D blocks, strided accesses, a fault, the step budget running out mid-round, --no-timing,
# --build O0, and every programs/*/*.launch) give the same JSON, stderr, exit status and buffers with the
# switch set as without. The switches (tests/README.md):
#   WARPSIM_WARP_BY_WARP=1  every warp-instruction through ws_step alone, no lockstep groups (sim/lockstep.c)
#   WARPSIM_ONE_PASS=0      every memory access through the general paths (sim/exec_mem_runs.c's one-pass ones off)
#
#   tests/switch_equal.sh NAME=VALUE path/to/warpsim
set -eu
switch=$1
warpsim=$(realpath "$2")
case $switch in
    WARPSIM_WARP_BY_WARP=1 | WARPSIM_ONE_PASS=0) ;;
    *) echo "switch_equal: unknown switch '$switch'" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/switched" <<SH
#!/bin/sh
export $switch
exec "$warpsim" "\$@"
SH
chmod +x "$tmp/switched"
bash "$root/bench/identical.sh" compare "$tmp/switched" "$warpsim"
