#!/bin/sh
# p-speedscope: how long the real speedscope (the npm package, in headless
# Chromium) takes to load a large trace converted by prof-trace, per output
# form. p-trace-read records ZONES zones (three nested, 16 labels, one
# thread); prof-trace converts the trace to each FORM (speedscope: its own
# evented format; json, json-be: Chrome's Trace Event JSON, X or B/E
# events); Chromium loads each file from a local HTTP server. Printed per
# form: the file's size, speedscope's own import time (its console's
# "import: N ms") and the wall time from speedscope's start to its first
# draw after the import (its first WebGL read-back), or "not loaded in
# LIMIT s". Target: a 2^21-zone trace drawn in under a minute.
# Usage: p-speedscope.sh BUILD_DIR [ZONES (2097152)] [FORMS ("speedscope")]
#        [LIMIT-s (300)]
# speedscope is looked for in $SPEEDSCOPE_DIR, else .ci/npm (where
# .ci/run installs it: npm install --prefix .ci/npm speedscope@1.25.0).
set -eu
build=$1 zones=${2:-2097152} forms=${3:-speedscope} limit=${4:-300}
here=$(cd "$(dirname "$0")" && pwd)
ss=${SPEEDSCOPE_DIR:-$here/../.ci/npm/node_modules/speedscope}
browser=$(command -v chromium || command -v chromium-browser || true)
rec=$build/profile/p-trace-read pt=$build/prof-trace
[ -x "$rec" ] && [ -x "$pt" ] || { echo "build first: cmake --build $build --target p-trace-read prof-trace"; exit 2; }
if [ -z "$browser" ] || [ ! -f "$ss/dist/release/index.html" ] || ! command -v python3 >/dev/null; then
    echo "p-speedscope: needs chromium, python3 and speedscope ($ss)"; exit 2
fi
tmp=$(mktemp -d) server= chrome=
cleanup() {
    [ -z "$chrome" ] || kill "$chrome" 2>/dev/null || true
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
cp -r "$ss/dist/release" "$tmp/www"
"$rec" --record $((zones * 2)) "$tmp/t.ptrace"
python3 -m http.server 0 --bind 127.0.0.1 --directory "$tmp/www" >"$tmp/http.log" 2>&1 &
server=$!
port=
for i in 1 2 3 4 5 6 7 8 9 10; do
    port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$tmp/http.log" | head -1)
    [ -n "$port" ] && break
    sleep 0.5
done
[ -n "$port" ] || { echo "p-speedscope: http server did not start"; exit 1; }
# draw_s LOG: seconds from speedscope's first console line to its first
# WebGL read-back after the import (Chromium stamps lines MMDD/hhmmss.micro)
draw_s() {
    awk 'function t(s,  i) { i = index(s, "/") + 1
             return substr(s, i, 2) * 3600 + substr(s, i + 2, 2) * 60 + substr(s, i + 4, 9) }
        t0 == "" && /"speedscope v/ { t0 = t($0) }
        t0 != "" && /"import: / { f = 1 }
        f && /ReadPixels/ { printf "%.1f", t($0) - t0; exit }' "$1"
}
echo "p-speedscope: $zones zones, one thread, speedscope 1.25 in headless Chromium (load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-12s %10s %12s %14s\n' form "file MB" "import s" "start-draw s"
for form in $forms; do
    "$pt" --$form -o "$tmp/www/$form.json" "$tmp/t.ptrace"
    mb=$(du -m "$tmp/www/$form.json" | cut -f1)
    log=$tmp/$form.log
    "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$tmp/profile-$form" --enable-logging=stderr --v=0 \
        --virtual-time-budget=$((limit * 1000)) --dump-dom \
        "http://127.0.0.1:$port/index.html#profileURL=/$form.json" >/dev/null 2>"$log" &
    chrome=$!
    waited=0 drawn=
    while [ "$waited" -lt "$limit" ] && kill -0 "$chrome" 2>/dev/null; do
        if grep -q '"import: ' "$log" && sed -n '/"import: /,$p' "$log" | grep -q ReadPixels; then
            drawn=1; break
        fi
        sleep 1; waited=$((waited + 1))
    done
    kill "$chrome" 2>/dev/null || true; wait "$chrome" 2>/dev/null || true; chrome=
    if [ -n "$drawn" ]; then
        imp=$(sed -n 's/.*"import: \([0-9.]*\) ms".*/\1/p' "$log" | head -1)
        printf '%-12s %10s %12.1f %14s\n' "$form" "$mb" "$(awk -v m="$imp" 'BEGIN { print m / 1000 }')" "$(draw_s "$log")"
    else
        printf '%-12s %10s %12s %14s\n' "$form" "$mb" "-" "not loaded in $limit s"
    fi
    rm -f "$tmp/www/$form.json"
done
