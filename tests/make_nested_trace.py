#!/usr/bin/env python3
"""Write a raw trace (src/trace_format.h, version 1) of zones nested three
deep with ends a few ticks apart, at a tick rate of 2.9e9/s, so that
rounding ts and dur separately makes children end after their parents.
Usage: make_nested_trace.py OUT.ptrace"""
import random
import struct
import sys

RATE = 2.9e9
LABELS = {0x1000: b"outer", 0x2000: b"inner", 0x3000: b"leaf"}


def chunk(ctype, tid, payload):
    return struct.pack("<IIII", 0x4B435450, ctype, len(payload), tid) + payload


def strings():
    out = b""
    for key, s in LABELS.items():
        out += struct.pack("<QII", key, len(s), 0) + s + b"\0" * (-len(s) % 8)
    return out


def events(rng, tid):
    ev, t = [], 1000 + tid
    for _ in range(3000):
        a, b, c, d, e = (rng.randint(0, 3) for _ in range(5))
        ev += [(t, 0, 0x1000), (t + a, 0, 0x2000), (t + a + b, 0, 0x3000),
               (t + a + b + c, 1, 0x3000), (t + a + b + c + d, 1, 0x2000),
               (t + a + b + c + d + e, 1, 0x1000)]
        t += a + b + c + d + e + rng.randint(0, 2)
    return b"".join(struct.pack("<QQ", ticks << 3 | typ, key) for ticks, typ, key in ev), t


def main():
    rng = random.Random(12)
    head = struct.pack("<8sIIIIdQQQQ", b"PTRACE01", 0x01020304, 1, 64, 4242, RATE, 0, 0, 0, 0)
    body, end = chunk(2, 0, strings()), 0
    for tid in (7, 8):
        ev, t = events(rng, tid)
        body += chunk(1, tid, ev)
        end = max(end, t)
    body += chunk(6, 0, struct.pack("<QQQ", end + 10, 0, 0))
    with open(sys.argv[1], "wb") as f:
        f.write(head + body)


main()
