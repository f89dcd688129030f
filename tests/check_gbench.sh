#!/bin/sh
# prof-compare reads what Google Benchmark itself writes: run a real
# Google Benchmark program twice (5 repetitions) and compare the two files;
# every benchmark must be matched, with a verdict and no input error.
# Usage: check_gbench.sh GBENCH_PROGRAM PROF_COMPARE
set -eu
bench=$1 tool=$2
. "$(dirname "$0")/check_lib.sh"
for run in a b; do
    "$bench" --benchmark_repetitions=5 --benchmark_min_time=0.02 \
             --benchmark_out="$tmp/$run.json" --benchmark_out_format=json >/dev/null
done
set +e
"$tool" "$tmp/a.json" "$tmp/b.json" >"$tmp/out" 2>&1
code=$?
set -e
cat "$tmp/out"
[ "$code" = 0 ] || { echo "exit $code"; exit 1; }
for name in chain/1000 chain/1050; do
    # (one file a side with no next-run interval: a change the test finds
    # cannot be told from the drift between runs)
    grep -q "^| $name | .* | .* | [-+][0-9.]*% | [-+][0-9.]*%\.\.[-+][0-9.]*% | [0-9.e-]* | \(same\|cannot tell (drift)\) |$" "$tmp/out" \
        || { echo "no verdict row for $name"; exit 1; }
done
