#!/usr/bin/env python3
"""Check that prof-trace's Chrome JSON nests exactly, read in decimal (no
floating point): X events (ts, dur) or B/E pairs, per thread. Every two
zones of a thread are either disjoint or one inside the other; a B/E
stream is in time order per thread and every E closes the innermost B.
Usage: check_trace_nesting.py x|be FILE.json"""
import json
import sys
from decimal import Decimal


def check_x(events):
    by_tid = {}
    for e in events:
        if e["ph"] == "X":
            b = Decimal(e["ts"])
            by_tid.setdefault(e["tid"], []).append((b, b + Decimal(e["dur"]), e["name"]))
    n = 0
    for tid, zs in by_tid.items():
        zs.sort(key=lambda z: (z[0], -z[1]))
        stack = []
        for b, end, name in zs:
            while stack and stack[-1][1] <= b and not (stack[-1][1] == b and end == b and stack[-1][0] == b):
                stack.pop()
            if stack and end > stack[-1][1]:
                raise SystemExit("thread %s: %s [%s, %s] ends after its parent %s [%s, %s]"
                                 % (tid, name, b, end, stack[-1][2], stack[-1][0], stack[-1][1]))
            stack.append((b, end, name))
            n += 1
    return n


def check_be(events):
    stacks, last, n = {}, {}, 0
    for e in events:
        if e["ph"] not in ("B", "E"):
            continue
        tid, ts = e["tid"], Decimal(e["ts"])
        if ts < last.get(tid, ts):
            raise SystemExit("thread %s: time goes back to %s" % (tid, ts))
        last[tid] = ts
        st = stacks.setdefault(tid, [])
        if e["ph"] == "B":
            st.append(e["name"])
        else:
            if not st or st[-1] != e["name"]:
                raise SystemExit("thread %s: E of %s at %s, innermost open: %s"
                                 % (tid, e["name"], ts, st[-1] if st else None))
            st.pop()
            n += 1
    for tid, st in stacks.items():
        if st:
            raise SystemExit("thread %s: never ended: %s" % (tid, st))
    return n


def main():
    mode, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        events = json.load(f, parse_float=Decimal, parse_int=Decimal)
    n = check_x(events) if mode == "x" else check_be(events)
    print("%s: %d zones nest exactly (%s)" % (path, n, mode))


main()
