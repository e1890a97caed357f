#!/bin/sh
# --html in a real browser (ctest html_report): the reports of the transpose demo (32x32
# against 32x33 tile) and of the divergence program, checked as a DOM (Chromium's
# --dump-dom, or a python3 parse of the file where no browser can be had), for network
# requests (a strict Content-Security-Policy, no http(s) URL in src/href, no console
# error in Chromium's log), and as 1280x2000 screenshots (a PNG of that size, not one
# flat colour). Chromium is installed with apt-get where missing and root; without it
# the browser checks are skipped, saying so, and the file checks still run.
#   tests/html_report.sh build/warpsim
set -e
warpsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root"
fail() { echo "FAIL: $*" >&2; exit 1; }

browser=""
for b in chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "html_report: installing chromium with apt-get" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; } || true
    command -v chromium >/dev/null 2>&1 && browser=chromium
fi
[ -n "$browser" ] || echo "html_report: SKIPPED the browser checks (no chromium, and it cannot be installed here); the file checks still run" >&2
command -v python3 >/dev/null 2>&1 || { echo "html_report: SKIPPED (no python3 to check the page)"; exit 0; }

headless() {   # headless Chromium, no sandbox (root in CI), logging to $out/log.txt
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-extensions \
        --user-data-dir="$out/profile" --enable-logging=stderr --log-level=0 "$@" 2>>"$out/log.txt"
}

# An unwritable path fails before anything runs, naming it.
if "$warpsim" run programs/001_transpose/demo.launch --html /nonexistent/dir/r.html >"$out/o.txt" 2>&1; then
    fail "--html to an unwritable path succeeded"
fi
grep -q "cannot write '/nonexistent/dir/r.html'" "$out/o.txt" || fail "no error naming the path: $(cat "$out/o.txt")"
grep -q "transpose_with" "$out/o.txt" && fail "the launches ran before the --html error"

"$warpsim" run programs/001_transpose/demo.launch --quiet --html "$out/transpose.html" || fail "transpose --html"
"$warpsim" run programs/003_divergence/divergence.launch --quiet --html "$out/divergence.html" || fail "divergence --html"
ls "$out"/*.tmp.* >/dev/null 2>&1 && fail "a temporary file was left behind"

for page in transpose divergence; do
    if [ -n "$browser" ]; then
        headless --dump-dom "file://$out/$page.html" >"$out/$page.dom" || fail "chromium --dump-dom $page"
        headless --screenshot="$out/$page.png" --window-size=1280,2000 "file://$out/$page.html" >/dev/null ||
            fail "chromium --screenshot $page"
        dom="$out/$page.dom"
    else
        dom="$out/$page.html"
    fi
    python3 "$root/tests/html_check.py" "$page" "$out/$page.html" "$dom" ${browser:+"$out/$page.png"} ||
        fail "the $page page (above)"
    if [ -n "$browser" ]; then
        # no horizontal scrolling at 1280 px: a copy of the page, with a script (which the real
        # page's CSP would refuse) putting the document's width into its title
        sed -e '/Content-Security-Policy/d' -e 's|</body>|<script>document.title="W"+document.documentElement.scrollWidth</script></body>|' \
            "$out/$page.html" >"$out/$page.width.html"
        width=$(headless --window-size=1280,2000 --dump-dom "file://$out/$page.width.html" | sed -n 's|.*<title>W\([0-9]*\)</title>.*|\1|p')
        [ -n "$width" ] && [ "$width" -le 1280 ] || fail "the $page page is ${width:-?} px wide at a 1280 px window"
    fi
done
# A .cu program: the source shown is its CUDA file, through the PTX's .loc lines.
if command -v clang >/dev/null 2>&1; then
    "$warpsim" run tests/cuda_programs/vector_add.cu --quiet --html "$out/cu.html" >/dev/null || fail "vector_add.cu --html"
    grep -q "vector_add.cu (the CUDA lines" "$out/cu.html" || fail "the .cu page does not annotate vector_add.cu"
    grep -q "c\[i\] = a\[i\] + b\[i\];" "$out/cu.html" || fail "the .cu page lacks the kernel's CUDA line"
else
    echo "html_report: SKIPPED the .cu page (no clang)" >&2
fi
if [ -n "$browser" ]; then
    # Chromium logs a page's failed loads, CSP violations and script errors as console messages
    if grep -E ":CONSOLE|Refused to|net::ERR" "$out/log.txt"; then fail "the browser logged the errors above"; fi
fi
echo "html_report: ok${browser:+ (checked in $browser)}"
