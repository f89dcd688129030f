#!/usr/bin/env python3
"""Check a speedscope screenshot: the flame chart (below the timeline
overview, from y0 down) has at least N bands of coloured frames, one per
nesting level. Usage: check_speedscope.py FILE.png N [Y0]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_picture import decode  # noqa: E402


def main():
    path, want = sys.argv[1], int(sys.argv[2])
    y0 = int(sys.argv[3]) if len(sys.argv) > 3 else 140
    width, height, bpp, rows = decode(path)
    bands, inside = 0, False
    for y in range(y0, height):
        line = rows[y]
        step = 2 * bpp   # every other pixel
        coloured = sum(1 for p in zip(line[0::step], line[1::step], line[2::step])
                       if max(p) - min(p) > 40)  # a frame, not grey or white
        if coloured > 5 and not inside:
            bands += 1
        inside = coloured > 5
    print(f"{path}: {bands} bands of frames")
    if bands < want:
        raise SystemExit(f"{path}: {bands} nesting levels drawn, not {want}")


main()
