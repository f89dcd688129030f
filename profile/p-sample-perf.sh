#!/bin/sh
# p-sample-perf: prof-trace record beside perf record -g on the same
# unmodified binary (the tests' sample_target: two threads, about 80% in
# hot() and 20% in cold(), built with frame pointers), both at 997 Hz.
# Printed: the top 5 functions by self share from each report (perf's:
# perf report --stdio --no-children -g none --sort symbol), side by side.
# perf also counts time in the kernel, which prof-trace does not sample.
# If perf is missing or refused, one line says so (exit 0).
# Usage: p-sample-perf.sh BUILD_DIR [SECONDS (2)]
set -eu
build=$1 secs=${2:-2}
pt=$build/prof-trace bin=$build/tests/sample_target
[ -x "$pt" ] && [ -x "$bin" ] || { echo "build first: cmake --build $build --target prof-trace sample_target"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v perf >/dev/null; then
    echo "p-sample-perf: perf is not installed (Debian: linux-perf): skipped"; exit 0
fi
if ! perf record -g -F 997 -o "$tmp/P" -- "$bin" "$secs" >"$tmp/perf.log" 2>&1 \
   && ! grep -q 'Captured and wrote' "$tmp/perf.log"; then
    echo "p-sample-perf: perf record refused ($(grep -m1 -i 'error\|denied\|paranoid' "$tmp/perf.log" || echo "see perf_event_paranoid")): skipped"
    exit 0
fi
"$pt" record --hz=997 -o "$tmp/T" -- "$bin" "$secs" 2>/dev/null || true  # sample_target exits 3
# rows "function percent", by self share, top 5
"$pt" "$tmp/T" | awk 'NR > 2 && $1 > 0 { print $1, $7, $2 }' | sort -k1,1 -rn | cut -d' ' -f2- | head -5 >"$tmp/ours"
perf report --stdio --no-children -g none --sort symbol -i "$tmp/P" 2>/dev/null \
    | awk '/^ *[0-9.]+%/ { print $3, $1 }' | head -5 >"$tmp/perf"
echo "p-sample-perf: $bin $secs s, 997 Hz (load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "prof-trace: $("$pt" "$tmp/T" | head -1)"
echo "perf: $(grep -o '([0-9]* samples)' "$tmp/perf.log" | tr -d '()')"
printf '%-4s %-30s %7s   %-30s %7s\n' rank "prof-trace record" self "perf record -g" self
for f in ours perf; do   # five rows each, "-" where a report has fewer
    while [ "$(wc -l <"$tmp/$f")" -lt 5 ]; do echo "- -" >>"$tmp/$f"; done
done
paste -d' ' "$tmp/ours" "$tmp/perf" | awk '{ printf "%-4d %-30s %7s   %-30s %7s\n", NR, $1, $2, $3, $4 }'
