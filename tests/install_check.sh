#!/bin/sh
# `cmake --install` as a user runs it, into a temporary prefix; then what each installed file is for:
# the binary runs, a C program compiles and links against the library and headers and parses PTX,
# `man -l` renders the page with the run flags, and bash's completion completes a flag and a command.
# Usage: install_check.sh BUILD_DIR CC [LINK_FLAGS]   (the sanitizer build passes -fsanitize=...)
set -eu
build=$1; cc=${2:-cc}; link_flags=${3:-}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > "$prefix/install.log" || { cat "$prefix/install.log"; exit 1; }

"$prefix/bin/warpsim" --version | grep -q '^warpsim [0-9]' || { echo "installed warpsim --version failed"; exit 1; }

cat > "$prefix/use.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "isa/ptx.h"
int main(void)
{
    const char *text = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n";
    ptx_diag d = {0};
    ptx_module *m = ptx_parse(text, strlen(text), "k.ptx", &d);
    int ok = m && m->function_count == 1 && !strcmp(m->functions[0].name, "k");
    printf("%s\n", ok ? "parsed k" : "failed");
    ptx_module_free(m);
    ptx_diag_free(&d);
    return ok ? 0 : 1;
}
C
"$cc" -std=c11 $link_flags -I"$prefix/include/warpsim" "$prefix/use.c" -L"$prefix/lib" -lwarpsim_core -lm -lpthread \
    -o "$prefix/use" 2> "$prefix/cc.log" || { cat "$prefix/cc.log"; exit 1; }
[ "$("$prefix/use")" = "parsed k" ] || { echo "a program built against the installed library failed"; exit 1; }
[ ! -e "$prefix/include/warpsim/isa/parser_internal.h" ] || { echo "the parser's private header was installed"; exit 1; }

# the installed binary finds the installed CUDA headers and runtime: a whole program runs
if clang -print-targets 2>/dev/null | grep -q nvptx64; then
    out=$("$prefix/bin/warpsim" run "$(dirname "$0")/cuda_programs/vector_add.cu" --quiet 2>&1) || true
    echo "$out" | grep -q '^Check: OK$' || { echo "the installed warpsim could not run a .cu program:"; echo "$out"; exit 1; }
fi

page1="$prefix/share/man/man1/warpsim.1"
if command -v man >/dev/null 2>&1; then   # rendered, as `man warpsim` shows it
    page=$(MANWIDTH=200 man -l "$page1" 2>&1)
    wants="warpsim - a GPU-less SIMT simulator|--trace-warp B:W|NO_COLOR|flags  "
else                                       # no man here: the roff source
    page=$(cat "$page1")
    wants='warpsim \- a GPU\-less SIMT simulator|\-\-trace\-warp|NO_COLOR|.B flags'
fi
IFS='|'
for want in $wants; do
    echo "$page" | grep -qF -- "$want" || { echo "the man page lacks '$want':"; echo "$page"; exit 1; }
done
unset IFS

if command -v bash >/dev/null 2>&1; then
    got=$(bash -c '. "$1/share/bash-completion/completions/warpsim"
        COMP_WORDS=(warpsim run --trace); COMP_CWORD=2; _warpsim; echo "${COMPREPLY[*]}"
        COMP_WORDS=(warpsim ch); COMP_CWORD=1; _warpsim; echo "${COMPREPLY[*]}"
        COMP_WORDS=(warpsim run --color a); COMP_CWORD=3; _warpsim; echo "${COMPREPLY[*]}"' _ "$prefix")
    [ "$got" = "--trace-warp
check
auto always" ] || { echo "bash completion gave: $got"; exit 1; }
fi
[ -s "$prefix/share/zsh/site-functions/_warpsim" ] || { echo "no zsh completion installed"; exit 1; }
echo "installed and checked under $prefix"
