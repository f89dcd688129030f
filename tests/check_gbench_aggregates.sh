#!/bin/sh
# The runner with Google Benchmark's flags writes what Google Benchmark
# writes: a real Google Benchmark program and a runner program, both run
# with --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
# (and a context pair; the runner with --json-epochs), give one entry per benchmark and statistic, each
# with the same fields in the same order (the runner's median adds its own
# figures after them); the runner's file is read by prof-compare and by
# Google Benchmark's compare.py (when installed: CI installs it).
# Usage: check_gbench_aggregates.sh GBENCH_PROGRAM RUNNER_PROGRAM PROF_COMPARE
set -eu
gb=$1 runner=$2 tool=$3
. "$(dirname "$0")/check_lib.sh"
flags="--benchmark_repetitions=5 --benchmark_min_time=0.002
       --benchmark_report_aggregates_only=true --benchmark_context=ci=yes
       --benchmark_out_format=json"
# shellcheck disable=SC2086
"$gb" $flags --benchmark_out="$tmp/gb.json" >/dev/null
for run in a b; do
    # shellcheck disable=SC2086
    "$runner" $flags --json-epochs --benchmark_out="$tmp/$run.json" \
        >/dev/null 2>&1
done
python3 - "$tmp/gb.json" "$tmp/a.json" <<'PY'
import json, sys
gb, ours = (json.load(open(p)) for p in sys.argv[1:3])
assert gb["context"]["ci"] == "yes" and ours["context"]["ci"] == "yes"
def entries(d):
    out = {}
    for b in d["benchmarks"]:
        assert b["run_type"] == "aggregate", b["name"]
        out.setdefault(b["run_name"], []).append(b)
    return out
g, o = entries(gb), entries(ours)
gstats = [b["aggregate_name"] for b in next(iter(g.values()))]
for name, bs in o.items():
    stats = [b["aggregate_name"] for b in bs]
    # Google Benchmark's statistics, then the percentiles (its user
    # statistics), once each
    assert stats[:len(gstats)] == gstats, (stats, gstats)
    assert stats[len(gstats):] == ["p10", "p50", "p90"], stats
    ref = next(iter(g.values()))
    for mine in bs:
        theirs = next((b for b in ref if b["aggregate_name"]
                       == mine["aggregate_name"]), ref[0])
        keys = list(mine.keys())[:len(theirs)]
        assert keys == list(theirs.keys()), (keys, list(theirs.keys()))
        assert mine["repetitions"] == 5 == mine["iterations"], mine
        assert mine["aggregate_unit"] == theirs["aggregate_unit"], mine
print("aggregates ok: %d benchmarks x %d statistics, Google Benchmark's fields"
      % (len(o), len(next(iter(o.values())))))
PY
if ! "$tool" "$tmp/a.json" "$tmp/b.json" >"$tmp/out" 2>&1; then
    cat "$tmp/out"; echo "prof-compare failed"; exit 1
fi
cat "$tmp/out"
grep -q "^| chain 100 |" "$tmp/out" || { echo "prof-compare: no chain 100 row"; exit 1; }
cmp=/usr/share/benchmark/compare.py
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3   # Debian's, with python3-scipy
if [ -f "$cmp" ] && "$py" -c "import scipy" 2>/dev/null; then
    "$py" "$cmp" benchmarks "$tmp/a.json" "$tmp/b.json" >"$tmp/compare.txt"
    cat "$tmp/compare.txt"
    grep -q "chain 100_median" "$tmp/compare.txt"
    grep -q "chain 100_p90" "$tmp/compare.txt"
    echo "compare.py ok"
else
    echo "compare.py or scipy not installed: compare.py check skipped"
    [ "${CI:-}" != true ]
fi
