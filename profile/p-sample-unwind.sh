#!/bin/sh
# p-sample-unwind: prof-trace record's two call graphs beside perf's, on
# programs whose stacks frame pointers do not give: cfi_target (tests/,
# -O2 -fomit-frame-pointer: main -> drive -> nest -> round_of_work ->
# trig_work -> sin/cos in libm, and -> int_work) and p-sample-libm (the
# same source -O2 with frame pointers of its own; libm has none), each at
# 997 Hz for SECONDS.
# Printed per program: the share of samples whose stack reaches main with
# prof-trace record --call-graph=fp and =dwarf, perf record -g and
# --call-graph dwarf; the top 5 functions by self share of ours (dwarf)
# and perf's (dwarf: perf report --no-children --sort symbol); then the
# cost: the same fixed work (rounds=N, about SECONDS of CPU) alone and
# under each (ours also with 4 and 16 KiB copies), the order rotated each
# run: medians of wall and CPU time (the tool's own included), and their
# ratio to the work alone, quiet and then beside two busy processes it
# starts. perf counts kernel time too; ours does not.
# Without perf (missing or refused) its columns read "-" (exit 0).
# Usage: p-sample-unwind.sh BUILD_DIR [SECONDS (1)] [RUNS (3)]
set -eu
build=$1 secs=${2:-1} runs=${3:-3}
pt=$build/prof-trace
progs="$build/tests/cfi_target $build/profile/p-sample-libm"
for f in "$pt" $progs; do
    [ -x "$f" ] || { echo "build first: cmake --build $build --target prof-trace cfi_target p-sample-libm"; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf=1 why=""
if ! command -v perf >/dev/null; then
    perf=0 why="perf is not installed (Debian: linux-perf)"
elif ! perf record -q -g -F 997 -o "$tmp/P" -- true >"$tmp/perf.log" 2>&1; then
    perf=0 why="perf record refused ($(grep -m1 -i 'error\|denied\|paranoid' "$tmp/perf.log" || echo "see perf_event_paranoid"))"
fi
echo "p-sample-unwind: $secs s a program at 997 Hz (load $(cut -d' ' -f1-3 /proc/loadavg))"
[ $perf = 1 ] || echo "perf: $why: its figures are left out"
# ours_main TRACE: main's total share; ours_top TRACE: "function share" x5
ours_main() { "$pt" --csv "$1" 2>/dev/null | awk -F, '$1 == "main" { m = $6 } END { printf "%.1f%%\n", m }'; }
ours_top() { "$pt" --csv "$1" 2>/dev/null | awk -F, 'NR > 1 && $2 > 0 { print $1, $3 "%" }' | head -5; }
perf_main() {
    perf report --stdio --children --sort symbol -g none -i "$1" 2>/dev/null \
        | awk '$3 == "[.]" && $4 == "main" { m = $1 } END { print (m == "" ? "0%" : m) }'
}
perf_top() {
    perf report --stdio --no-children --sort symbol -g none -i "$1" 2>/dev/null \
        | awk '/^ *[0-9.]+%/ { print $3, $1 }' | head -5
}
for bin in $progs; do
    name=$(basename "$bin")
    "$pt" record --call-graph=fp -o "$tmp/f" -- "$bin" "$secs" 2>/dev/null
    "$pt" record --call-graph=dwarf -o "$tmp/d" -- "$bin" "$secs" 2>/dev/null
    pg=- pd=-
    : >"$tmp/perf_top"
    if [ $perf = 1 ]; then
        perf record -q -g -F 997 -o "$tmp/pg" -- "$bin" "$secs" >/dev/null 2>&1
        perf record -q --call-graph dwarf -F 997 -o "$tmp/pd" -- "$bin" "$secs" >/dev/null 2>&1
        pg=$(perf_main "$tmp/pg") pd=$(perf_main "$tmp/pd")
        perf_top "$tmp/pd" >"$tmp/perf_top"
    fi
    echo
    echo "$name: samples reaching main: prof-trace fp $(ours_main "$tmp/f"), dwarf $(ours_main "$tmp/d"); perf -g $pg, --call-graph dwarf $pd"
    echo "  $("$pt" --text "$tmp/d" 2>/dev/null | grep '^stacks of')"
    ours_top "$tmp/d" >"$tmp/ours_top"
    for f in ours_top perf_top; do
        while [ "$(wc -l <"$tmp/$f")" -lt 5 ]; do echo "- -" >>"$tmp/$f"; done
    done
    printf '  %-4s %-34s %7s   %-34s %7s\n' rank "prof-trace record (dwarf)" self "perf record --call-graph dwarf" self
    paste -d' ' "$tmp/ours_top" "$tmp/perf_top" \
        | awk '{ printf "  %-4d %-34s %7s   %-34s %7s\n", NR, $1, $2, $3, $4 }'
done

bin=$build/tests/cfi_target
work="rounds=$(python3 -c "print(max(1, int($secs * 1800)))")"   # about 0.55 ms a round here
set -- alone "$bin" "$work"
for cg in fp dwarf,4096 dwarf dwarf,16384; do
    set -- "$@" ";;" "record $cg" "$pt" record --call-graph=$cg -o "$tmp/c" -- "$bin" "$work"
done
[ $perf = 0 ] || set -- "$@" ";;" "perf record -g" perf record -q -g -F 997 -o "$tmp/c.perf" -- "$bin" "$work" \
    ";;" "perf --call-graph dwarf" perf record -q --call-graph dwarf -F 997 -o "$tmp/c.perf" -- "$bin" "$work"
cost="$(dirname "$0")/sample_cost.py"
python3 "$cost" "$runs" "the cost at 997 Hz, quiet: cfi_target $work" "$@"
# the same beside two busy processes (shell loops, bounded by timeout,
# which passes the kill on to its loop)
timeout 900 sh -c 'while :; do :; done' & b1=$!
timeout 900 sh -c 'while :; do :; done' & b2=$!
trap 'kill $b1 $b2 2>/dev/null; rm -rf "$tmp"' EXIT
echo
python3 "$cost" "$runs" "the cost at 997 Hz, beside two busy processes: cfi_target $work" "$@"
kill $b1 $b2 2>/dev/null || true
