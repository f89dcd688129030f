#!/usr/bin/env python3
"""The default console output fits 100 columns: every line a benchmark
program prints on stdout with its default settings (the context line, the
machine check's line, the table, the complexity fits and their warnings),
counted in characters, as a terminal shows them.

Usage: check_console_width.py PROGRAM...
"""
import subprocess
import sys

WIDTH = 100
bad = 0
for prog in sys.argv[1:]:
    out = subprocess.run([prog], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=True).stdout
    lines = out.decode("utf-8").splitlines()
    assert any(l.startswith("machine: ") for l in lines), (prog, lines)
    for l in lines:
        if len(l) > WIDTH:
            print("%s: %d columns: %s" % (prog, len(l), l))
            bad += 1
    print("%s: %d lines, the widest %d columns" % (
        prog, len(lines), max(len(l) for l in lines)))
sys.exit(1 if bad else 0)
