#!/usr/bin/env python3
"""prof-trace's CSV is valid CSV (RFC 4180, read by Python's csv module in
strict mode) whatever the names: labels and a thread name with commas,
quotes and a newline, zones left unmatched (begin without end, end
without begin), with and without --by-thread. Each name comes back exactly
as recorded (unmatched zones are counted in the unmatched column only).
The trace is written here with ptrace_v1.py (version 1, 1e9 ticks/s).
Usage: check_trace_csv.py PROF-TRACE SCRATCH-DIR"""
import csv
import io
import os
import subprocess
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
from ptrace_v1 import BEGIN, END, CH_THREAD_NAME, chunk, end_chunk, events, header, strings  # noqa: E402

LABELS = {0x1000: b"a,b", 0x2000: b'say "hi"', 0x3000: b"plain",
          0x4000: b"two\nlines"}
THREAD = b"w,1 \"x\""


def trace():
    ev = [(10, BEGIN, 0x3000), (20, END, 0x3000),       # plain: matched
          (30, BEGIN, 0x4000), (40, END, 0x4000),       # two lines: matched
          (50, END, 0x2000),                            # say "hi": no begin
          (60, BEGIN, 0x1000)]                          # a,b: never ended
    name = THREAD + b"\0" * (-len(THREAD) % 8 or 8)
    return (header(1e9) + strings(LABELS) + chunk(CH_THREAD_NAME, 7, name)
            + events(7, ev) + end_chunk(100))


def rows(prof_trace, path, *opts):
    out = subprocess.run([prof_trace, "--csv", *opts, path], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    return list(csv.reader(io.StringIO(out.decode("utf-8"), newline=""),
                           strict=True))


def main():
    prof_trace, scratch = sys.argv[1], sys.argv[2]
    path = os.path.join(scratch, "names.ptrace")
    with open(path, "wb") as f:
        f.write(trace())
    want = {s.decode(): (0 if s in (b"plain", b"two\nlines") else 1)
            for s in LABELS.values()}
    for opts, lead in (((), []), (("--by-thread",), ["thread", "thread_name"])):
        table = rows(prof_trace, path, *opts)
        head = lead + ["kind", "name", "calls", "total_ns", "avg_ns", "min_ns",
                       "max_ns", "self_ns", "unmatched"]
        assert table[0] == head, table[0]
        got = {}
        for row in table[1:]:
            assert len(row) == len(head), row
            rec = dict(zip(head, row))
            if lead:
                assert rec["thread"] in ("all", "7"), rec
                assert rec["thread_name"] == ("" if rec["thread"] == "all"
                                              else THREAD.decode()), rec
            got.setdefault(rec["name"], set()).add(int(rec["unmatched"]))
        assert set(got) == set(want), (sorted(got), sorted(want))
        for name, unmatched in want.items():
            assert got[name] == {unmatched}, (name, got[name])
        print("csv%s: %d rows, valid, names exact" % (" " + " ".join(opts) if opts
                                                       else "", len(table) - 1))


main()
