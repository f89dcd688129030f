#!/bin/sh
# The JSON of a benchmark program is Google Benchmark's schema: python3
# reads it and finds the keys its tools use; if Google Benchmark's
# compare.py is installed (Debian libbenchmark-tools, with python3-scipy),
# it compares two runs unchanged, also when one of them carries the event
# counters (--counters: extra numeric fields, like Google Benchmark's user
# counters) or pools worker processes (--processes: an iteration entry per
# epoch per process).
# Usage: check_json.sh BENCH_PROGRAM WORKDIR
set -eu
prog=$1 dir=$2
mkdir -p "$dir"
# --json-epochs: Google Benchmark's repetitions, an entry per epoch
"$prog" --format=json --json-epochs --out="$dir/a.json" --schedule=fixed
"$prog" --format=json --json-epochs --out="$dir/b.json" --schedule=fixed
"$prog" --format=json --json-epochs --counters --out="$dir/c.json"
# the same epochs in every process (and compare.py's 11 vs 11, 11 vs 33):
# the fixed schedule's count; the adaptive one stops where each is precise
"$prog" --format=json --json-epochs --processes=3 --out="$dir/p.json" \
    --schedule=fixed
# the default: one entry per benchmark (tests/check_dashboards.py has
# the dashboards' rules)
"$prog" --format=none --out="$dir/d.json"
if ! command -v python3 >/dev/null 2>&1; then
    echo "python3 not installed: skipped"
    [ "${CI:-}" != true ]   # CI installs it: there, missing is a failure
    exit 0
fi
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
python3 - "$dir/a.json" "$dir/c.json" <<'PY'
import json, sys
events = ("cycles", "instructions", "branches", "branch-misses", "task-clock",
          "page-faults", "context-switches", "ipc", "branch_miss_pct")
off = json.load(open(sys.argv[1]))
on = json.load(open(sys.argv[2]))
assert "profiler_counters" not in off["context"]
assert not any(k in b for b in off["benchmarks"] for k in events)
line = on["context"]["profiler_counters"]
assert line.startswith("counters: "), line
# "counters: a, b (user space only), c counting; d, e n/a (ENOENT): why"
head = line[len("counters: "):].split(";")[0]
counting = [] if head.startswith("none") else \
    [e.split(" (")[0].strip() for e in head.rsplit(" counting", 1)[0].split(",")]
for b in on["benchmarks"]:
    if b["run_type"] == "iteration" or b.get("aggregate_name") in ("mean", "median"):
        for e in counting:
            assert isinstance(b.get(e), (int, float)), (e, b)
    for e in events:
        if e not in counting and e not in ("ipc", "branch_miss_pct"):
            assert e not in b, ("unavailable event written", e, b)
print("JSON counters ok: counting %s" % (", ".join(counting) or "none"))
PY
python3 - "$dir/p.json" "$dir/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))   # the same program in one process
assert d["context"]["profiler_processes"] == 3, d["context"]
runs = [b for b in d["benchmarks"] if b["run_type"] == "iteration"]
med = [b for b in d["benchmarks"] if b.get("aggregate_name") == "median"]
# every benchmark of the program, each with as many epochs per process as
# it has in one process (pooled: 3 times as many)
epochs = {}
for b in one["benchmarks"]:
    if b["run_type"] == "iteration":
        epochs[b["run_name"]] = epochs.get(b["run_name"], 0) + 1
assert len(epochs) == 3, epochs   # examples/bench.c runs 3 benchmarks
assert sorted(m["run_name"] for m in med) == sorted(epochs), (med, epochs)
assert len(runs) == 3 * sum(epochs.values()), (len(runs), epochs)
for b in runs:
    assert b["process_index"] in (0, 1, 2), b
for m in med:
    name = m["run_name"]
    mine = [b for b in runs if b["run_name"] == name]
    for k in (0, 1, 2):
        n = sum(1 for b in mine if b["process_index"] == k)
        assert n == epochs[name], (name, k, n, epochs[name])
    assert m["repetitions"] == 3 * epochs[name], m
    assert m["processes"] == 3 and len(m["process_medians"]) == 3, m
    assert m["ci_low"] <= m["real_time"] <= m["ci_high"], m
    assert m["between_pct"] >= 0 and m["within_pct"] >= 0, m
print("JSON processes ok: %d benchmarks, %d epochs from 3 processes"
      % (len(med), len(runs)))
PY
python3 - "$dir/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = [b["name"] for b in d["benchmarks"]]
assert len(names) == len(set(names)) == 3, names
for b in d["benchmarks"]:
    assert b["run_type"] == "iteration" and b["name"] == b["run_name"], b
    assert b["statistic"] == "median", b
    assert len(b["epochs_real_time"]) == b["repetitions"] > 1, b
    e = sorted(b["epochs_real_time"])
    m = (e[(len(e) - 1) // 2] + e[len(e) // 2]) / 2   # any count of epochs
    assert abs(m - b["real_time"]) <= 1e-9 * m, (m, b)
    assert b["ci_low"] <= b["real_time"] <= b["ci_high"], b
print("JSON default ok: one entry each of %s" % ", ".join(names))
PY
cmp=/usr/share/benchmark/compare.py
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3   # Debian's, with python3-scipy
if [ -f "$cmp" ] && "$py" -c "import scipy" 2>/dev/null; then
    "$py" "$cmp" benchmarks "$dir/a.json" "$dir/b.json" >"$dir/compare.txt"
    grep -q "chain 100_median" "$dir/compare.txt"
    grep -q "U Test, Repetitions: 11 vs 11" "$dir/compare.txt"
    "$py" "$cmp" benchmarks "$dir/a.json" "$dir/c.json" >"$dir/compare-counters.txt"
    grep -q "chain 100_median" "$dir/compare-counters.txt"
    "$py" "$cmp" benchmarks "$dir/a.json" "$dir/p.json" >"$dir/compare-processes.txt"
    grep -q "U Test, Repetitions: 11 vs 33" "$dir/compare-processes.txt"
    "$py" "$cmp" benchmarks "$dir/d.json" "$dir/d.json" >"$dir/compare-default.txt"
    grep -q "chain 100 .*+0.0000" "$dir/compare-default.txt"
    echo "compare.py ok"
else
    echo "compare.py or scipy not installed: compare.py check skipped"
    [ "${CI:-}" != true ]   # CI installs them: there, missing is a failure
fi
