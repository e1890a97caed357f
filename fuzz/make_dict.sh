#!/bin/sh
# Write fuzz/ptx.dict: the PTX keywords warpsim knows (opcodes, modifiers,
# types, directives, special registers) and some punctuation, for libFuzzer's
# -dict= (fuzz_ptx, fuzz_exec).  Run it again when isa/ changes.
set -e
cd "$(dirname "$0")/.."
{
    echo "# made by fuzz/make_dict.sh from isa/opcodes.def, isa/ptx_tables.c, isa/parse*.c"
    # opcode spellings, and each of their dot-separated pieces
    sed -n 's/^\(OP\|ALIAS\)([^"]*"\([^"]*\)".*/\2/p' isa/opcodes.def | sort -u | while read -r op; do
        echo "\"$op\""
        echo "$op" | tr '.' '\n' | sed -n 's/^\(..*\)$/".\1"/p'
    done
    # modifiers, types, state spaces
    sed -n 's/.*{"\([^"]*\)", MG_.*/\1/p; s/.*\[PTX_[A-Z0-9]*\] = {"\([a-z0-9]*\)".*/\1/p' isa/ptx_tables.c
    grep -o '{"[a-zA-Z0-9_:]*", MG_' isa/ptx_tables.c | sed 's/{"\(.*\)", MG_/\1/'
    for t in b8 b16 b32 b64 u8 u16 u32 u64 s8 s16 s32 s64 f16 f32 f64 pred global shared local param const reg; do echo "$t"; done
} | sed -n '/^#/p; /^"/p; /^[a-zA-Z0-9_:]*$/s/^\(.*\)$/".\1"/p' > fuzz/ptx.dict.tmp
{
    cat fuzz/ptx.dict.tmp
    cat isa/parser.c isa/parse_*.c | grep -o '"\.[a-z_0-9]*"'
    grep -o '"%[a-z_0-9.]*"' isa/ptx_tables.c
    for s in '%r' '%rd' '%f' '%fd' '%p' '%rs' '<' '>' '{' '}' '[' ']' '(' ')' ';' ',' '+' '!' '@' '@!' '$L__BB0_1:' \
             '.version 8.0' '.target sm_90' '.address_size 64' '.visible .entry' '.reg .b32 %r<10>;' \
             '.reg .pred %p<4>;' '.param .u64' 'ret;' 'exit;' 'bra ' 'bar.sync 0;' 'ld.param.u64' 'cvta.to.global.u64' \
             '0x' '0f3F800000' '0d3FF0000000000000' '-1' '2147483648' '4294967295' '18446744073709551615' '//' '/*' '*/' \
             '1048576' '100000000' '1099511627776' '[1099511627776]' '.local .align 8 .b8 l[' '.param .align 8 .b8 p[' \
             '.shared .align 4 .b8 s[' '.func f()' '.func (.param .b32 r) g(.param .b32 a)' 'call f, ();' \
             'call (r), g, (a);' '.extern .func' '.extern .shared .align 4 .b8 dyn[];'; do
        printf '"%s"\n' "$s"
    done
} | awk '!seen[$0]++' > fuzz/ptx.dict
rm -f fuzz/ptx.dict.tmp
