#!/bin/sh
# prof-trace's JSON in a real viewer: speedscope's web app (npm package
# speedscope, installed by .ci/run) served over a local HTTP server and
# loaded in headless Chromium. The example trace (B/E events) loads as
# Trace Event Format with its three threads; both JSON modes load with no
# "Tried to end" error (the symptom of zones that did not nest); the
# worker-1 thread alone draws its three nesting levels. A trace whose
# events lie one tick apart (make_nested_trace.py --one-tick: 4 threads of
# 1000 rounds of three nested zones, each ending one tick before its
# parent, most on its parent's nanosecond) loads in both JSON modes and
# in speedscope's own format (--speedscope) with no "Tried to end", and the
# sandwich view's totals and self times of its first thread are the
# file's (check_sandwich.py). A sampled trace (make_sampled_trace.py)
# loads with its three profiles (main's zones, main's and worker's
# samples), and the sandwich view of main's samples has the functions'
# total and self times of prof-trace --csv. A trace with every annotation
# (test_trace_annot's: zone args, instant, counter and frame events), with
# test_trace_lock's hand-made locks and allocations beside it as a second
# process (async lock slices, the live-bytes counter), loads as Trace Event
# Format with no error and no unmatched end.
# Usage: check_speedscope.sh PROF-TRACE TRACE-FILE SCRIPT-DIR SOURCE-DIR
#        TEST_TRACE_ANNOT TEST_TRACE_LOCK
# Exits 77 (skipped) when chromium, python3 or speedscope is missing,
# except under CI.
set -u
pt=$1 trace=$2 here=$3 src=$4 annot=$5 lock=$6
ss=${SPEEDSCOPE_DIR:-$src/.ci/npm/node_modules/speedscope}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] || ! command -v python3 >/dev/null 2>&1 || [ ! -f "$ss/dist/release/index.html" ]; then
    echo "chromium, python3 or speedscope ($ss) not installed"
    [ "${CI:-}" = true ] && exit 1
    exit 77
fi
. "$(dirname "$0")/check_lib.sh"
server=
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null; check_cleanup; }
trap cleanup EXIT
cp -r "$ss/dist/release" "$tmp/www"
"$pt" --json-be -o "$tmp/www/be.json" "$trace" || exit 1
"$pt" --json -o "$tmp/www/x.json" "$trace" || exit 1
"$pt" --json-be --thread worker-1 -o "$tmp/www/w1.json" "$trace" || exit 1
python3 "$here/make_nested_trace.py" --one-tick "$tmp/ties.ptrace" || exit 1
"$pt" --json -o "$tmp/www/ties-x.json" "$tmp/ties.ptrace" || exit 1
"$pt" --json-be -o "$tmp/www/ties-be.json" "$tmp/ties.ptrace" || exit 1
"$pt" --speedscope -o "$tmp/www/ties-ss.json" "$tmp/ties.ptrace" || exit 1
"$pt" --csv --thread 1 -o "$tmp/ties-w1.csv" "$tmp/ties.ptrace" || exit 1
mkdir "$tmp/annot" && "$annot" "$tmp/annot" >/dev/null || exit 1
"$lock" "$tmp/annot" >/dev/null || exit 1
"$pt" --json -o "$tmp/annot.json" "$tmp/annot/annot-kinds.ptrace" || exit 1
"$pt" --json -o "$tmp/lock.json" "$tmp/annot/lock-hand.ptrace" || exit 1
python3 - "$tmp/annot.json" "$tmp/lock.json" "$tmp/www/annot.json" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for e in b:                 # the lock trace as another process
    e["pid"] = e.get("pid", 0) + 1
assert any(e.get("cat") == "lock" for e in b) and any(e.get("ph") == "C" for e in b)
json.dump(a + b, open(sys.argv[3], "w"))
PY
python3 "$here/make_sampled_trace.py" "$tmp/sampled.ptrace" || exit 1
"$pt" --speedscope -o "$tmp/www/sampled.json" "$tmp/sampled.ptrace" 2>/dev/null || exit 1
sed 's/"activeProfileIndex":0/"activeProfileIndex":1/' "$tmp/www/sampled.json" \
    >"$tmp/www/sampled-1.json"
# the samples' table of main as check_sandwich.py reads a summary
"$pt" --csv --thread main "$tmp/sampled.ptrace" 2>/dev/null | awk -F, \
    'NR == 1 { print "name,total_ns,self_ns"; next }
     { printf "%s,%.0f,%.0f\n", $1, $7 * 1e6, $4 * 1e6 }' >"$tmp/sampled-main.csv"
python3 -m http.server 0 --bind 127.0.0.1 --directory "$tmp/www" >"$tmp/http.log" 2>&1 &
server=$!
port=
i=0   # python3 takes seconds to start on a loaded machine: up to 60 s
while [ $i -lt 300 ]; do
    port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$tmp/http.log" | head -1)
    [ -n "$port" ] && break
    sleep 0.2; i=$((i + 1))
done
[ -n "$port" ] || { echo "FAIL: http server"; cat "$tmp/http.log"; exit 1; }
# One Chromium (tests/chromium.py) loads the nine pages, three at a time,
# each as --virtual-time-budget=15000 would. The shots, 1200 wide, leave a
# screenshot in NAME.png and the console in NAME.log (be also the page as
# --dump-dom prints it, in be.html); the other loads, at Chromium's headless
# 800x600, leave the page as speedscope built it in NAME.html and the
# console in NAME.dom.log. Then the checks read what each left.
url=http://127.0.0.1:$port/index.html#profileURL=
set --   # the loads' arguments, the page options before each URL
for shot in be:500 x:500 w1:400; do
    name=${shot%:*}
    [ "$name" != be ] || set -- "$@" --dom "$tmp/be.html"
    set -- "$@" --size 1200x"${shot#*:}" --hide-scrollbars --budget 15000 \
        --png "$tmp/$name.png" --log "$tmp/$name.log" "$url/$name.json"
done
for dom in ties-ss:sandwich annot: ties-x:sandwich ties-be:sandwich sampled: \
    sampled-1:sandwich; do
    name=${dom%:*} view=${dom#*:}
    set -- "$@" --budget 15000 --dom "$tmp/$name.html" --log "$tmp/$name.dom.log" \
        "$url/$name.json${view:+&view=$view}"
done
python3 "$here/chromium.py" --browser "$browser" --profile "$tmp/profile" \
    --parallel 3 "$@" || bad "Chromium: a page did not load (above)"
for name in be x; do
    if grep -q "Importing as Trace Event Format" "$tmp/$name.log" \
        && ! grep -q "Tried to end" "$tmp/$name.log" \
        && python3 "$here/check_picture.py" "$tmp/$name.png"; then
        ok "$name.json: loaded, no unmatched end"
    else
        bad "$name.json"; grep -E "CONSOLE|ERROR" "$tmp/$name.log" | head -20
        tail -n 5 "$tmp/$name.log"
    fi
done
if grep -q "Importing as Trace Event Format" "$tmp/annot.dom.log" \
    && ! grep -q -e "Tried to end" -e "Uncaught" "$tmp/annot.dom.log"; then
    ok "annot.json: annotations, locks and allocations load, no unmatched end"
else
    bad "annot.json"; grep -E "CONSOLE|ERROR" "$tmp/annot.dom.log" | head -20
fi
# the first of three threads shown
if grep -q "1/3" "$tmp/be.html" && grep -q "worker-1" "$tmp/be.html"; then
    ok "be.json: three threads"
else
    bad "be.json: threads"
fi
# the ties: the sandwich view of the first thread, as the page holds it
for name in ties-x ties-be ties-ss; do
    if ! grep -q "Tried to end" "$tmp/$name.dom.log" \
        && python3 "$here/check_sandwich.py" "$tmp/$name.html" "$tmp/ties-w1.csv"; then
        ok "$name.json: events one tick apart nest, totals as in the file"
    else
        bad "$name.json: ties"; grep -c "Tried to end" "$tmp/$name.dom.log"
    fi
done
if grep -q "1/3" "$tmp/sampled.html"; then
    ok "sampled.json: the zones' profile and two sampled ones"
else
    bad "sampled.json: profiles"; grep -E "CONSOLE|ERROR" "$tmp/sampled.dom.log" | head
fi
if python3 "$here/check_sandwich.py" "$tmp/sampled-1.html" "$tmp/sampled-main.csv"; then
    ok "sampled.json: main's samples, totals as in the CSV"
else
    bad "sampled.json: main's samples"
fi
if python3 "$here/check_speedscope.py" "$tmp/w1.png" 3; then
    ok "worker-1: round, work and step nested"
else
    bad "worker-1 nesting"
fi
check_done speedscope
