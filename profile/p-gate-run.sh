#!/bin/sh
# p-gate-run: the regression gate from one command, prof-compare --run with
# its default settings (12 alternated pairs of runs, sign test, alpha 0.05,
# noise 2%), on this machine, now; quiet, then under a load this script
# makes itself (two busy processes, ended when it is done or after 15
# minutes at most).
#   A/A: TRIALS invocations comparing p-gate with itself: 2 benchmarks
#        each, so 2 x TRIALS comparisons; any "slower" or "faster" verdict
#        is a false alarm (target: at most 1 in 20).
#   A/B: TRIALS invocations where the new side's chain is 5% longer (1050
#        vs 1000 multiply-adds): a "slower" verdict for chain is a catch
#        (target: at least 9 of 10).
# Usage: p-gate-run.sh BUILD_DIR [TRIALS (10)] [quiet|loaded|both (both)]
set -eu
build=$1 trials=${2:-10} modes=${3:-both}
gate=$build/profile/p-gate tool=$build/prof-compare
[ -x "$gate" ] || { echo "build p-gate first: cmake --build $build --target profile"; exit 2; }
[ "$modes" = both ] && modes="quiet loaded"
busy=""
stop_load() { for p in $busy; do kill "$p" 2>/dev/null || true; done; busy=""; }
trap stop_load EXIT INT TERM

# trial OLD_ARGS NEW_ARGS: prof-compare --run's table (its exit status is
# the gate's verdict, not a failure here)
trial() { "$tool" --run "$gate $1" "$gate $2" 2>&1 || true; }

for mode in $modes; do
    if [ "$mode" = loaded ]; then
        for i in 1 2; do
            timeout 900 sh -c 'while :; do :; done' &
            busy="$busy $!"
        done
    fi
    start=$(date +%s)
    aa=0 ab=0 t=1
    while [ "$t" -le "$trials" ]; do
        out=$(trial "" "")
        n=$(printf '%s\n' "$out" | grep -c '| \(slower\|faster\)' || true)
        aa=$((aa + n))
        out=$(trial "" "--n=1050")
        line=$(printf '%s\n' "$out" | grep '^| chain ' || true)
        echo "$mode A/B trial $t: $line"
        case "$line" in *"| slower |"* | *"| slower ("*) ab=$((ab + 1)) ;; esac
        t=$((t + 1))
    done
    stop_load
    echo "$mode: A/A $aa of $((2 * trials)) comparisons flagged (target: at most 1 in 20);" \
         "A/B +5% chain caught in $ab of $trials (target: at least 9 of 10);" \
         "$(($(date +%s) - start)) s"
done
