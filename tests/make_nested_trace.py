#!/usr/bin/env python3
"""Write a raw trace (version 1, with ptrace_v1.py) of zones nested three
deep with ends a few ticks apart, at a tick rate of 2.9e9/s, so that
rounding ts and dur separately makes children end after their parents.
With --one-tick: 4 threads at 2.596e9/s of 1000 rounds each, each zone
beginning one tick after its parent and ending one tick before it (the
leaf lasting 7..38 ticks, the gaps between rounds 8..102): as counter
reads one after the other put them, most ends then fall on their
parent's nanosecond.
Usage: make_nested_trace.py [--one-tick] OUT.ptrace"""
import random
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
from ptrace_v1 import BEGIN, END, end_chunk, events, header, strings  # noqa: E402

RATE = 2.9e9
LABELS = {0x1000: b"outer", 0x2000: b"inner", 0x3000: b"leaf"}


def zones(rng, tid):
    ev, t = [], 1000 + tid
    for _ in range(3000):
        a, b, c, d, e = (rng.randint(0, 3) for _ in range(5))
        ev += [(t, BEGIN, 0x1000), (t + a, BEGIN, 0x2000), (t + a + b, BEGIN, 0x3000),
               (t + a + b + c, END, 0x3000), (t + a + b + c + d, END, 0x2000),
               (t + a + b + c + d + e, END, 0x1000)]
        t += a + b + c + d + e + rng.randint(0, 2)
    return ev, t


def one_tick(rng, tid):
    ev, t = [], 1000 + tid
    for _ in range(1000):
        leaf = rng.randint(7, 38)
        ev += [(t, BEGIN, 0x1000), (t + 1, BEGIN, 0x2000), (t + 2, BEGIN, 0x3000),
               (t + 2 + leaf, END, 0x3000), (t + 3 + leaf, END, 0x2000),
               (t + 4 + leaf, END, 0x1000)]
        t += 4 + leaf + rng.randint(8, 102)
    return ev, t


def main():
    ticks = sys.argv[1] == "--one-tick"
    rng = random.Random(12)
    head = header(2.596e9 if ticks else RATE)
    body, end = strings(LABELS), 0
    for tid in ((1, 2, 3, 4) if ticks else (7, 8)):
        ev, t = (one_tick if ticks else zones)(rng, tid)
        body += events(tid, ev)
        end = max(end, t)
    body += end_chunk(end + 10)
    with open(sys.argv[-1], "wb") as f:
        f.write(head + body)


main()
