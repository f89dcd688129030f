#!/usr/bin/env python3
"""Compare the totals of speedscope's sandwich view (the page as Chromium's
--dump-dom prints it, as tests/chromium.py --dom writes it) with
prof-trace's CSV summary of the same thread: each zone's total and self
time within 1% of the thread's largest total (speedscope prints 4 digits;
the JSON's whole nanoseconds move each zone's self time by up to a
nanosecond, which over zones of a few nanoseconds is a few percent of a
self time, while zones that do not nest move totals by whole multiples).
Usage: check_sandwich.py PAGE.html SUMMARY.csv"""
import csv
import html
import re
import sys

UNITS = {"ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def sandwich(path):
    """{name: (total_ns, self_ns)} from the sandwich table of the page."""
    text = re.sub(r"<[^>]+>", " ", open(path, encoding="utf-8").read())
    text = re.sub(r"\s+", " ", html.unescape(text))
    at = text.find("Total Self Symbol Name")
    if at < 0:
        raise SystemExit(f"{path}: no sandwich table")
    time = r"([0-9.]+)(ns|µs|us|ms|s) \([^)]*\)"
    rows = {}
    for m in re.finditer(time + " " + time + r" (\S+)", text[at:]):
        rows[m.group(5)] = (float(m.group(1)) * UNITS[m.group(2)],
                            float(m.group(3)) * UNITS[m.group(4)])
    return rows


def main():
    shown = sandwich(sys.argv[1])
    bad = 0
    with open(sys.argv[2], newline="") as f:
        rows = list(csv.DictReader(f))
    tol = max([1.0] + [0.01 * float(r["total_ns"]) for r in rows])
    for row in rows:
        name = row["name"]
        want = (float(row["total_ns"]), float(row["self_ns"]))
        got = shown.get(name)
        ok = got is not None and abs(got[0] - want[0]) <= tol \
            and abs(got[1] - want[1]) <= tol
        print(f"{name}: speedscope {got}, file {want}: "
              f"{'ok' if ok else 'DIFFERENT'}")
        bad += not ok
    if bad or not shown:
        raise SystemExit(f"{bad} zones' totals differ")


if __name__ == "__main__":
    main()
