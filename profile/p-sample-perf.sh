#!/bin/sh
# p-sample-perf: prof-trace record --call-graph=fp beside perf record -g
# (frame pointers both; p-sample-unwind.sh compares the CFI modes) on the same
# unmodified binary (the tests' sample_target: two threads, about 80% in
# hot() and 20% in cold(), built with frame pointers), both at 997 Hz.
# Printed: the top 5 functions by self share from each report (perf's:
# perf report --stdio --no-children -g none --sort symbol), side by side.
# perf also counts time in the kernel, which prof-trace does not sample.
# Then what each costs: RUNS rounds of the same fixed work (sample_target
# rounds N, about SECONDS of CPU on each thread) alone, under prof-trace
# record and under perf record -g, the order rotated each round; printed:
# the medians of the wall time and of the CPU time of the whole command
# (the tool's own included), and their ratio to the work alone.
# If perf is missing or refused, one line says so and perf's figures are
# left out (exit 0).
# Usage: p-sample-perf.sh BUILD_DIR [SECONDS (2)] [RUNS (5)]
set -eu
build=$1 secs=${2:-2} runs=${3:-5}
pt=$build/prof-trace bin=$build/tests/sample_target
[ -x "$pt" ] && [ -x "$bin" ] || { echo "build first: cmake --build $build --target prof-trace sample_target"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf=1 why=""
if ! command -v perf >/dev/null; then
    perf=0 why="perf is not installed (Debian: linux-perf)"
elif ! perf record -g -F 997 -o "$tmp/P" -- "$bin" "$secs" >"$tmp/perf.log" 2>&1 \
   && ! grep -q 'Captured and wrote' "$tmp/perf.log"; then
    perf=0 why="perf record refused ($(grep -m1 -i 'error\|denied\|paranoid' "$tmp/perf.log" || echo "see perf_event_paranoid"))"
fi
"$pt" record --hz=997 --call-graph=fp -o "$tmp/T" -- "$bin" "$secs" 2>/dev/null || true  # sample_target exits 3
# rows "function percent", by self share, top 5
"$pt" "$tmp/T" | awk 'NR > 2 && $1 > 0 { print $1, $7, $2 }' | sort -k1,1 -rn | cut -d' ' -f2- | head -5 >"$tmp/ours"
echo "p-sample-perf: $bin $secs s, 997 Hz (load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "prof-trace: $("$pt" "$tmp/T" | head -1)"
if [ $perf = 1 ]; then
    perf report --stdio --no-children -g none --sort symbol -i "$tmp/P" 2>/dev/null \
        | awk '/^ *[0-9.]+%/ { print $3, $1 }' | head -5 >"$tmp/perf"
    echo "perf: $(grep -o '([0-9]* samples)' "$tmp/perf.log" | tr -d '()')"
else
    echo "perf: $why: its figures are left out"
    : >"$tmp/perf"
fi
printf '%-4s %-30s %7s   %-30s %7s\n' rank "prof-trace record" self "perf record -g" self
for f in ours perf; do   # five rows each, "-" where a report has fewer
    while [ "$(wc -l <"$tmp/$f")" -lt 5 ]; do echo "- -" >>"$tmp/$f"; done
done
paste -d' ' "$tmp/ours" "$tmp/perf" | awk '{ printf "%-4d %-30s %7s   %-30s %7s\n", NR, $1, $2, $3, $4 }'

# the cost: fixed work, alone and under each tool, the order rotated
rounds=$(python3 -c "print(max(1, int($secs * 1500)))")   # about 0.65 ms a round here
set -- alone "$bin" rounds "$rounds" \
    ";;" "prof-trace record" "$pt" record --hz=997 --call-graph=fp -o "$tmp/c.ptrace" -- "$bin" rounds "$rounds"
[ $perf = 0 ] || set -- "$@" ";;" "perf record -g" perf record -q -g -F 997 -o "$tmp/c.perf" -- "$bin" rounds "$rounds"
python3 "$(dirname "$0")/sample_cost.py" "$runs" "the cost at 997 Hz: $rounds rounds a thread" "$@"
