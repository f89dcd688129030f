#!/usr/bin/env python3
"""Write a raw trace (version 1, with ptrace_v1.py) of zones nested three
deep with ends a few ticks apart, at a tick rate of 2.9e9/s, so that
rounding ts and dur separately makes children end after their parents.
Usage: make_nested_trace.py OUT.ptrace"""
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


def main():
    rng = random.Random(12)
    head = header(RATE)
    body, end = strings(LABELS), 0
    for tid in (7, 8):
        ev, t = zones(rng, tid)
        body += events(tid, ev)
        end = max(end, t)
    body += end_chunk(end + 10)
    with open(sys.argv[1], "wb") as f:
        f.write(head + body)


main()
