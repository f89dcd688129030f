#!/bin/sh
# prof-compare's picture looks right in a real browser: render the HTML and
# the SVG with headless Chromium and check the screenshots are not blank
# (tests/check_picture.py: enough ink, and the old/new/slower colours), and
# check the title and the ticks as Chromium lays them out (check_axes.py).
# With PROFILER_NO_BROWSER=1 (the sanitizer builds: Chromium and python3
# run nothing sanitized, and lay out the same pages in the gcc build) only
# prof-compare's commands and the checks of the files run.
# Usage: check_render.sh PROF_COMPARE DATA_DIR SCRIPT_DIR [OUT_PNG]
# Exits 77 (skipped) when chromium or python3 is missing, except under CI.
set -eu
tool=$1 data=$2 here=$3 keep=${4:-}
browser=$(command -v chromium || command -v chromium-browser || true)
nobrowser=${PROFILER_NO_BROWSER:-0}
# browse COMMAND...: run it, unless there is no browser to run
browse() { [ "$nobrowser" = 1 ] || "$@"; }
if [ "$nobrowser" != 1 ] && { [ -z "$browser" ] || ! command -v python3 >/dev/null 2>&1; }; then
    echo "chromium or python3 not installed"
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
. "$(dirname "$0")/check_lib.sh"
# Inputs whose names need escaping (markup characters, a byte that is not
# UTF-8): the title must name them and the SVG must still parse.
old="$tmp/old <&\"'>.json" new=$(printf '%s/new \377.json' "$tmp")
cp "$data/ours-old.json" "$old"; cp "$data/ours-new.json" "$new"
"$tool" --html="$tmp/c.html" --svg="$tmp/c.svg" "$old" "$new" >/dev/null
browse python3 "$here/check_axes.py" "$browser" "$tmp/c.html" "$tmp" "$old" "$new" 0
for page in c.html c.svg; do
    [ "$nobrowser" != 1 ] || break
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --hide-scrollbars --user-data-dir="$tmp/profile" \
        --window-size=960,300 --screenshot="$tmp/$page.png" "file://$tmp/$page" \
        >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
    python3 "$here/check_picture.py" "$tmp/$page.png" 1f77b4 ff7f0e d62728 2ca02c
done
# A family run over several N: its time-against-N chart with both fits.
"$tool" --html="$tmp/n.html" "$data/complexity-old.json" "$data/complexity-new.json" >/dev/null
grep -q 'sum: time against N' "$tmp/n.html"
browse python3 "$here/check_axes.py" "$browser" "$tmp/n.html" "$tmp" \
    "$data/complexity-old.json" "$data/complexity-new.json" 1
grep -q 'class="fitold"' "$tmp/n.html" && grep -q 'class="fitnew"' "$tmp/n.html"
[ "$nobrowser" = 1 ] || timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --hide-scrollbars --user-data-dir="$tmp/profile" \
    --window-size=960,600 --screenshot="$tmp/n.png" "file://$tmp/n.html" \
    >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
browse python3 "$here/check_picture.py" "$tmp/n.png" 1f77b4 ff7f0e
[ -z "$keep" ] || [ "$nobrowser" = 1 ] || cp "$tmp/c.html.png" "$keep"
# One benchmark 97% faster, one 3 times slower: no tick below -100%, the
# axes clipped to the data (before: -200%..+200%).
bench() { # NAME NS...: a benchmark's epochs
    n=$1; shift; i=0
    for t in "$@"; do
        printf '%s{"name": "%s", "run_type": "iteration", "repetition_index": %d, "real_time": %s, "time_unit": "ns"}' \
            "$sep" "$n" $i "$t"
        sep=', '; i=$((i + 1))
    done
}
{ sep=; printf '{"benchmarks": ['; bench fast 100 101 99 100 102; bench slow 10 10.5 9.5 10 10.2; echo ']}'; } >"$tmp/w-old.json"
{ sep=; printf '{"benchmarks": ['; bench fast 3 3.1 2.9 3 3; bench slow 30 31 29 30 30.5; echo ']}'; } >"$tmp/w-new.json"
"$tool" --html="$tmp/w.html" "$tmp/w-old.json" "$tmp/w-new.json" >/dev/null
browse python3 "$here/check_axes.py" "$browser" "$tmp/w.html" "$tmp" "$tmp/w-old.json" "$tmp/w-new.json" 0
