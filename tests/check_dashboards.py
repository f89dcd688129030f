#!/usr/bin/env python3
"""The dashboards' rules applied to the runner's real JSON.

Usage: check_dashboards.py PROGRAM WORKDIR   (PROGRAM: dashboard_target)

The rules, as the dashboards' sources state them (CI cannot fetch them):
- github-action-benchmark v1.22.0, `tool: googlecpp` (src/extract.ts,
  src/write.ts): one row of every entry of "benchmarks": name = "name",
  value = "real_time", unit = time_unit + "/iter"; each row of the new
  data is compared with the FIRST row of the same name in the previous
  data; smaller is better, so ratio = new / old; an alert where the ratio
  passes the threshold (200% by default; users set 110-150%).
- Bencher's Google Benchmark adapter (lib/bencher_adapter, cpp/google.rs):
  the file must have "context" with a "caches" array, each entry "name",
  "real_time" (a number) and "time_unit" (ns, us, ms, s); the value is
  real_time in ns; the last entry of a name is the one kept.
What the runner must give them: one entry per name, whose real_time is the
median the console table prints; an A/A pair (two runs of one build) gives
no alert at 115%, and a +20% change to one benchmark alerts on it alone.
The timing checks are retried (a busy shared machine can move a median
by 15% between two runs); the shape checks hold on every run.
"""
import json
import os
import re
import subprocess
import sys

THRESHOLD = 1.15
UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def gab_rows(d):
    """github-action-benchmark's googlecpp extractor."""
    return [{"name": b["name"], "value": b["real_time"],
             "unit": b["time_unit"] + "/iter"} for b in d["benchmarks"]]


def gab_alerts(new, old, threshold):
    """github-action-benchmark's findAlerts: each new row against the
    first old row of its name; smaller is better."""
    alerts = []
    for cur in gab_rows(new):
        prev = next((r for r in gab_rows(old) if r["name"] == cur["name"]),
                    None)
        if prev is None:
            continue
        ratio = 1.0 if prev["value"] == 0 and cur["value"] == 0 \
            else cur["value"] / prev["value"]
        if ratio > threshold:
            alerts.append((cur["name"], ratio))
    return alerts


def bencher(d):
    """Bencher's cpp_google adapter: name -> ns, the last entry kept."""
    assert isinstance(d["context"]["caches"], list), "context.caches"
    out = {}
    for b in d["benchmarks"]:
        assert isinstance(b["real_time"], (int, float)), b
        out[b["name"]] = b["real_time"] * UNIT_NS[b["time_unit"]]
    return out


def table_medians(md):
    """The console table's time cells, in ns, by name."""
    out = {}
    for line in md.splitlines():
        m = re.match(r"\|\s*([0-9.]+) (ns|us|ms|s) \|.*\| `([^`]+)`", line)
        if m:
            out[m.group(3)] = float(m.group(1)) * UNIT_NS[m.group(2)]
    return out


def run(prog, work, path, *flags):
    env = dict(os.environ, PROFILER_TEST_WORK=work)
    p = subprocess.run([prog, "--out=" + path, *flags], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       universal_newlines=True, check=True)
    return json.load(open(path)), p.stdout


def check_shape(d, md, what):
    rows = gab_rows(d)
    names = [r["name"] for r in rows]
    assert names == ["scaled", "fixed"], (what, names)   # one row a name
    assert all(r["unit"] == "ns/iter" for r in rows), (what, rows)
    b = bencher(d)
    assert sorted(b) == sorted(names), (what, b)
    for r in rows:
        assert b[r["name"]] == r["value"] * UNIT_NS[d["benchmarks"][0]["time_unit"]]
    if md is not None:
        table = table_medians(md)
        assert sorted(table) == sorted(names), (what, table, md)
        for r in rows:
            ns = r["value"] * UNIT_NS[d["benchmarks"][0]["time_unit"]]
            # the table rounds to 4 significant digits
            assert abs(ns - table[r["name"]]) <= 5e-4 * table[r["name"]], \
                (what, r["name"], ns, table[r["name"]])


def main():
    prog, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    f = lambda name: os.path.join(work, name)
    # --format=json and --benchmark_format=json on stdout: the same shape
    for flag in ("--format=json", "--benchmark_format=json"):
        p = subprocess.run([prog, flag], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL,
                           universal_newlines=True, check=True)
        check_shape(json.loads(p.stdout), None, flag)
    # --json-epochs: Google Benchmark's repetitions, a row per epoch
    d, _ = run(prog, "1", f("epochs.json"), "--json-epochs", "--format=none")
    names = [r["name"] for r in gab_rows(d)]
    assert names.count("scaled") > 1 and "scaled_median" in names, names
    for attempt in range(3):
        a, md_a = run(prog, "1", f("a.json"))
        check_shape(a, md_a, "A")
        a2, md_a2 = run(prog, "1", f("a2.json"))
        check_shape(a2, md_a2, "A again")
        slow, md_slow = run(prog, "1.2", f("slow.json"))
        check_shape(slow, md_slow, "+20%")
        aa = gab_alerts(a2, a, THRESHOLD)
        ab = gab_alerts(slow, a, THRESHOLD)
        print("attempt %d: A/A alerts %s, +20%% alerts %s" % (attempt + 1, aa, ab))
        if aa == [] and [n for n, _ in ab] == ["scaled"]:
            print("ok: one row per name, the table's median; no alert on "
                  "A/A at %d%%, an alert on +20%% on it alone"
                  % round(THRESHOLD * 100))
            return 0
    print("FAIL: the A/A or +20% rule failed 3 times (above)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
