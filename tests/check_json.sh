#!/bin/sh
# The JSON of a benchmark program is Google Benchmark's schema: python3
# reads it and finds the keys its tools use; if Google Benchmark's
# compare.py is installed (Debian libbenchmark-tools, with python3-scipy),
# it compares two runs unchanged.
# Usage: check_json.sh BENCH_PROGRAM WORKDIR
set -eu
prog=$1 dir=$2
mkdir -p "$dir"
"$prog" --format=json --out="$dir/a.json"
"$prog" --format=json --out="$dir/b.json"
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed: skipped"; exit 0; }
python3 - "$dir/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["context"]
for k in ("date", "host_name", "executable", "num_cpus", "mhz_per_cpu",
          "cpu_scaling_enabled", "caches", "load_avg", "library_build_type"):
    assert k in c, k
runs = [b for b in d["benchmarks"] if b["run_type"] == "iteration"]
aggs = [b for b in d["benchmarks"] if b["run_type"] == "aggregate"]
assert runs and aggs
for b in runs:
    for k in ("name", "family_index", "per_family_instance_index", "run_name",
              "repetitions", "repetition_index", "threads", "iterations",
              "real_time", "cpu_time", "time_unit"):
        assert k in b, (k, b)
    assert b["real_time"] > 0 and b["time_unit"] == "ns"
names = {b["aggregate_name"] for b in aggs}
assert {"mean", "median", "stddev", "cv"} <= names, names
med = [b for b in aggs if b["aggregate_name"] == "median"]
assert all(b["ci_low"] <= b["real_time"] <= b["ci_high"] for b in med)
print("JSON schema ok: %d epochs, %d aggregates" % (len(runs), len(aggs)))
PY
cmp=/usr/share/benchmark/compare.py
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3   # Debian's, with python3-scipy
if [ -f "$cmp" ] && "$py" -c "import scipy" 2>/dev/null; then
    "$py" "$cmp" benchmarks "$dir/a.json" "$dir/b.json" >"$dir/compare.txt"
    grep -q "chain 100_median" "$dir/compare.txt"
    grep -q "U Test, Repetitions: 11 vs 11" "$dir/compare.txt"
    echo "compare.py ok"
else
    echo "compare.py or scipy not installed: compare.py check skipped"
fi
