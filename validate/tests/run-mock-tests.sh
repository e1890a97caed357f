#!/bin/sh
# validate/tests/run-mock-tests.sh RUNNER WARPSIM MOCK_DIR VALIDATE_DIR
# Runs validate/runner against validate/mock_cuda.c's stand-in libcuda.so.1
# (no GPU): every probe launch goes through (parsing, kernel lookup, parameter
# sizes), the buffers start out byte for byte as warpsim's, errors exit 1.
set -u
runner=$1 warpsim=$2 mock=$3 vdir=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
LD_LIBRARY_PATH="$mock${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# 1. The probes.
for f in "$vdir"/probes/*.launch; do
    n=$(grep -c '^kernel ' "$f")
    if "$runner" --out "$tmp/out.txt" --hexdump "$f" 2> "$tmp/err.txt" && grep -q "^ok $n launches\$" "$tmp/out.txt"; then
        ok
    else
        bad "runner on $f"
        cat "$tmp/err.txt"
    fi
done

# 2. Initial buffer contents: the runner's (the mock runs no kernel) against warpsim's (a kernel that only returns).
bufs="f32r f64r s8r u8r u16r s16r u32r s32r u64r s64r s32i f32i f64i u8i u64c f32c"
rd="" wd=""
for b in $bufs; do
    rd="$rd --dump $b=$tmp/r_$b.bin"
    wd="$wd --dump $b=$tmp/w_$b.bin"
done
# shellcheck disable=SC2086
if "$runner" --out "$tmp/init.txt" "$vdir/tests/init.launch" $rd 2> "$tmp/err.txt"; then ok; else bad "runner on init.launch"; cat "$tmp/err.txt"; fi
# shellcheck disable=SC2086
if "$warpsim" run "$vdir/tests/init.launch" --quiet $wd > /dev/null 2> "$tmp/err.txt"; then ok; else bad "warpsim on init.launch"; cat "$tmp/err.txt"; fi
for b in $bufs; do
    if cmp -s "$tmp/r_$b.bin" "$tmp/w_$b.bin"; then ok; else bad "buffer $b: the runner's initial bytes differ from warpsim's"; fi
done
if [ "$(grep -c '^buffer .* fnv1a64 0x[0-9a-f]\{16\}$' "$tmp/init.txt")" = 16 ]; then ok; else bad "checksum lines"; cat "$tmp/init.txt"; fi

# 3. Failures: every CUDA error exits 1 naming the call; a bad argument size or count is refused.
for step in init jit launch sync; do
    MOCK_FAIL=$step "$runner" "$vdir/probes/preflight.launch" > /dev/null 2> "$tmp/err.txt"
    st=$?
    if [ $st = 1 ] && grep -q 'failed (runner.c:[0-9]*): CUDA_ERROR' "$tmp/err.txt"; then ok; else bad "MOCK_FAIL=$step: exit $st"; cat "$tmp/err.txt"; fi
done
"$runner" "$vdir/probes/preflight.launch" --arg u32:1 > /dev/null 2> "$tmp/err.txt"
if [ $? = 1 ] && grep -q 'parameter 0 is 8 bytes' "$tmp/err.txt"; then ok; else bad "a 4-byte argument for a .u64 parameter"; cat "$tmp/err.txt"; fi
"$runner" "$vdir/probes/preflight.launch" --arg sink --arg u32:1 > /dev/null 2> "$tmp/err.txt"
if [ $? = 1 ] && grep -q 'takes 1 parameters, the launch passes 2' "$tmp/err.txt"; then ok; else bad "an extra argument"; cat "$tmp/err.txt"; fi
"$runner" --opt 9 "$vdir/probes/preflight.launch" > /dev/null 2>&1
if [ $? = 2 ]; then ok; else bad "--opt 9 should be a usage error"; fi
"$runner" "$vdir/probes/preflight.launch" --grid 0 > /dev/null 2>&1
if [ $? = 2 ]; then ok; else bad "--grid 0 should be a usage error"; fi
"$runner" --opt 4 --save-cubin "$tmp/x.cubin" "$vdir/probes/preflight.launch" --shared 64K > "$tmp/out.txt" 2> "$tmp/err.txt"
if [ $? = 0 ] && [ -s "$tmp/x.cubin" ] && grep -q 'JIT -O4' "$tmp/err.txt" && grep -q 'attribute 8 = 65536' "$tmp/err.txt"; then
    ok
else
    bad "--opt 4, --save-cubin, 64K of dynamic shared memory"
    cat "$tmp/err.txt"
fi

# 4. --repeat N (validate/run-timing-on-gpu): each group N times back to back, one launch line per launch
#    (K counts launches), a "repeat" line, and the same output as before without the flag or with --repeat 1.
f=$vdir/probes/branch.launch
n=$(grep -c '^kernel ' "$f")
"$runner" --out "$tmp/rep.txt" --repeat 3 "$f" 2> "$tmp/err.txt"
st=$?
got=$(grep -c '^mock: launch ' "$tmp/err.txt")
lines=$(grep -c '^launch [0-9]* kernel ' "$tmp/rep.txt")
if [ $st = 0 ] && [ "$got" = $((3 * n)) ] && [ "$lines" = $((3 * n)) ] &&
   grep -q "^repeat 3 groups $n launches $((3 * n)) " "$tmp/rep.txt" && grep -q "^ok $((3 * n)) launches\$" "$tmp/rep.txt" &&
   grep -q "^launch $((3 * n - 1)) kernel " "$tmp/rep.txt"; then
    ok
else
    bad "--repeat 3 on $f: exit $st, $got cuLaunchKernel calls and $lines launch lines for $n groups (want $((3 * n)))"
    cat "$tmp/err.txt" "$tmp/rep.txt"
fi
# back to back: the kernels of the mock's launch lines, in order, are each group's kernel three times
grep '^kernel ' "$f" | awk '{ for (i = 0; i < 3; i++) print $2 }' > "$tmp/want.txt"
sed -n 's/^mock: launch \([^ ]*\) .*/\1/p' "$tmp/err.txt" > "$tmp/have.txt"
if cmp -s "$tmp/want.txt" "$tmp/have.txt"; then ok; else bad "--repeat 3: launch order is not each group 3 times back to back"; diff "$tmp/want.txt" "$tmp/have.txt"; fi
"$runner" --out "$tmp/rep1.txt" --repeat 1 "$f" 2> "$tmp/err1.txt"
"$runner" --out "$tmp/rep0.txt" "$f" 2> "$tmp/err0.txt"
if [ "$(grep -c '^mock: launch ' "$tmp/err0.txt")" = "$n" ] && ! grep -q '^repeat' "$tmp/rep0.txt" &&
   sed 's/0x[0-9a-f]\{12,16\}/ADDR/g' "$tmp/err0.txt" > "$tmp/e0" && sed 's/0x[0-9a-f]\{12,16\}/ADDR/g' "$tmp/err1.txt" > "$tmp/e1" &&
   cmp -s "$tmp/rep0.txt" "$tmp/rep1.txt" && cmp -s "$tmp/e0" "$tmp/e1"; then
    ok
else
    bad "--repeat 1 should be exactly the run without --repeat"
    diff "$tmp/rep0.txt" "$tmp/rep1.txt"
fi
for v in 0 -1 x 1000001 ""; do
    "$runner" --repeat "$v" "$f" > /dev/null 2>&1
    if [ $? = 2 ]; then ok; else bad "--repeat '$v' should be a usage error"; fi
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
