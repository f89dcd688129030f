#!/bin/sh
# prof-compare's picture looks right in a real browser: render the HTML and
# the SVG with headless Chromium and check the screenshots are not blank
# (tests/check_picture.py: enough ink, and the old/new/slower colours), and
# check the title and the ticks as Chromium lays them out (check_axes.py).
# One Chromium loads every page (tests/chromium.py), once they are all
# written; the checks then read what it left.
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
# A family run over several N: its time-against-N chart with both fits.
"$tool" --html="$tmp/n.html" "$data/complexity-old.json" "$data/complexity-new.json" >/dev/null
grep -q 'sum: time against N' "$tmp/n.html"
grep -q 'class="fitold"' "$tmp/n.html" && grep -q 'class="fitnew"' "$tmp/n.html"
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
# The pages in Chromium: each one's probe (check_axes.py) laid out at
# 960x800, and screenshots of the pictures.
if [ "$nobrowser" != 1 ]; then
    for p in c n w; do
        python3 "$here/check_axes.py" --probe "$tmp/$p.html" "$tmp/$p.probe.html"
    done
    python3 "$here/chromium.py" --browser "$browser" --profile "$tmp/profile" \
        --size 960x800 --dom "$tmp/c.probe.dom" "file://$tmp/c.probe.html" \
        --size 960x800 --dom "$tmp/n.probe.dom" "file://$tmp/n.probe.html" \
        --size 960x800 --dom "$tmp/w.probe.dom" "file://$tmp/w.probe.html" \
        --size 960x300 --hide-scrollbars --png "$tmp/c.html.png" "file://$tmp/c.html" \
        --size 960x300 --hide-scrollbars --png "$tmp/c.svg.png" "file://$tmp/c.svg" \
        --size 960x600 --hide-scrollbars --png "$tmp/n.png" "file://$tmp/n.html"
fi
browse python3 "$here/check_axes.py" "$tmp/c.html" "$tmp/c.probe.dom" "$old" "$new" 0
for page in c.html c.svg; do
    browse python3 "$here/check_picture.py" "$tmp/$page.png" 1f77b4 ff7f0e d62728 2ca02c
done
browse python3 "$here/check_axes.py" "$tmp/n.html" "$tmp/n.probe.dom" \
    "$data/complexity-old.json" "$data/complexity-new.json" 1
browse python3 "$here/check_picture.py" "$tmp/n.png" 1f77b4 ff7f0e
[ -z "$keep" ] || [ "$nobrowser" = 1 ] || cp "$tmp/c.html.png" "$keep"
browse python3 "$here/check_axes.py" "$tmp/w.html" "$tmp/w.probe.dom" "$tmp/w-old.json" "$tmp/w-new.json" 0
