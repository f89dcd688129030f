#!/bin/sh
# p-compare-gate: how often prof-compare's gate cries wolf and how often it
# catches a real slowdown, on this machine, now.
#   A/A: PAIRS pairs of runs of the same program (p-gate), each compared
#        file to file: 2 benchmarks a pair, so 2 x PAIRS comparisons; any
#        "slower" or "faster" verdict is a false alarm.
#   A/B: PAIRS pairs where the second run's chain is 5% longer (1050 vs 1000
#        multiply-adds): a "slower" verdict for chain is a catch.
# Each "run" is ROUNDS processes of that program, alternated with the other
# side's (old new, new old, old new, ...) and all given to prof-compare, which then
# compares the sides process by process (paired by position); ROUNDS=1 is
# the plain file-to-file comparison of two single runs.
# Each side keeps a run-to-run history of its own (PROFILER_HISTORY), as
# two builds would: one file a side is judged against the next-run
# intervals they learn (doc/compare.md), "cannot tell (drift)" counted
# apart from the flags and catches.
# Usage: p-compare-gate.sh BUILD_DIR [PAIRS (10)] [ROUNDS (12)] [prof-compare options]
set -eu
build=$1 pairs=${2:-10} rounds=${3:-12}
shift; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
gate=$build/profile/p-gate tool=$build/prof-compare
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$gate" ] || { echo "build p-gate first: cmake --build $build --target profile"; exit 2; }

# run_pair NAME OLD_ARGS NEW_ARGS: ROUNDS alternating runs a side; prints
# prof-compare's table.
run_pair() {
    name=$1 old_args=$2 new_args=$3
    shift 3
    old="" new=""
    r=1
    while [ "$r" -le "$rounds" ]; do
        # Alternate which side goes first (old new, new old, ...), so that
        # neither side always runs right after the other or the other way.
        if [ $((r % 2)) = 1 ]; then
            PROFILER_HISTORY=$tmp/old.history "$gate" $old_args --format=json --out="$tmp/$name-old-$r.json" 2>/dev/null
            PROFILER_HISTORY=$tmp/new.history "$gate" $new_args --format=json --out="$tmp/$name-new-$r.json" 2>/dev/null
        else
            PROFILER_HISTORY=$tmp/new.history "$gate" $new_args --format=json --out="$tmp/$name-new-$r.json" 2>/dev/null
            PROFILER_HISTORY=$tmp/old.history "$gate" $old_args --format=json --out="$tmp/$name-old-$r.json" 2>/dev/null
        fi
        old="$old${old:+,}$tmp/$name-old-$r.json"
        new="$new${new:+,}$tmp/$name-new-$r.json"
        r=$((r + 1))
    done
    "$tool" "$@" "$old" "$new" || true
}

aa_flags=0 aa_drift=0 aa_total=0 ab_catches=0 ab_drift=0 p=1
while [ "$p" -le "$pairs" ]; do
    out=$(run_pair "aa$p" "" "" "$@")
    n=$(printf '%s\n' "$out" | grep -c '| \(slower\|faster\)' || true)
    d=$(printf '%s\n' "$out" | grep -c '| cannot tell (drift)' || true)
    aa_flags=$((aa_flags + n)) aa_drift=$((aa_drift + d)) aa_total=$((aa_total + 2))
    out=$(run_pair "ab$p" "" "--n=1050" "$@")
    printf '%s\n' "$out" | grep '^| chain ' | sed "s/^/pair $p A\/B: /"
    if printf '%s\n' "$out" | grep -q '^| chain .*| slower'; then
        ab_catches=$((ab_catches + 1))
    elif printf '%s\n' "$out" | grep -q '^| chain .*| cannot tell (drift)'; then
        ab_drift=$((ab_drift + 1))
    fi
    p=$((p + 1))
done
echo "A/A: $aa_flags of $aa_total comparisons flagged (target: at most 1 in 20), $aa_drift cannot tell (drift)"
echo "A/B (chain 1050 vs 1000, +5%): flagged slower in $ab_catches of $pairs pairs (target: at least 9 of 10), $ab_drift cannot tell (drift)"
