#!/bin/sh
# prof-compare's picture looks right in a real browser: render the HTML and
# the SVG with headless Chromium and check the screenshots are not blank
# (tests/check_picture.py: enough ink, and the old/new/slower colours).
# Usage: check_render.sh PROF_COMPARE DATA_DIR SCRIPT_DIR [OUT_PNG]
# Exits 77 (skipped) when chromium or python3 is missing, except under CI.
set -eu
tool=$1 data=$2 here=$3 keep=${4:-}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || ! command -v python3 >/dev/null 2>&1; then
    echo "chromium or python3 not installed"
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
. "$(dirname "$0")/check_lib.sh"
"$tool" --html="$tmp/c.html" --svg="$tmp/c.svg" "$data/ours-old.json" "$data/ours-new.json" >/dev/null
for page in c.html c.svg; do
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --hide-scrollbars --user-data-dir="$tmp/profile" \
        --window-size=960,260 --screenshot="$tmp/$page.png" "file://$tmp/$page" \
        >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
    python3 "$here/check_picture.py" "$tmp/$page.png" 1f77b4 ff7f0e d62728 2ca02c
done
# A family run over several N: its time-against-N chart with both fits.
"$tool" --html="$tmp/n.html" "$data/complexity-old.json" "$data/complexity-new.json" >/dev/null
grep -q 'sum: time against N' "$tmp/n.html"
grep -q 'class="fitold"' "$tmp/n.html" && grep -q 'class="fitnew"' "$tmp/n.html"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --hide-scrollbars --user-data-dir="$tmp/profile" \
    --window-size=960,560 --screenshot="$tmp/n.png" "file://$tmp/n.html" \
    >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
python3 "$here/check_picture.py" "$tmp/n.png" 1f77b4 ff7f0e
[ -z "$keep" ] || cp "$tmp/c.html.png" "$keep"
