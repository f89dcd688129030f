#!/usr/bin/env python3
"""The sizes the project keeps to (DESIGN.md): every folder under src/ at
most MAX_DIR .c files (past that, split it by concept), every file at
most MAX_FILE lines, and every function in them at most MAX_FUNC lines from
its opening brace to its closing one. A function is found as the code of
this project writes it: its body's braces alone at the start of a line
(`{` then `}` in column 0). Prints each file,
folder or function over its limit, with its size; exits 1 if any.
Usage: check_sizes.py SRC_DIR"""
import os
import sys

MAX_DIR, MAX_FILE, MAX_FUNC = 15, 700, 80


def functions(lines):
    """(name line, length) of each function body in lines."""
    start = None
    for i, line in enumerate(lines):
        if line.startswith("{"):
            start = i
        elif line.startswith("}") and start is not None:
            head = start - 1
            while head > 0 and lines[head].startswith((" ", "\t")):
                head -= 1          # a signature broken over lines
            yield lines[head].strip(), i - start + 1
            start = None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    bad, files = [], 0
    for root, _, names in os.walk(sys.argv[1]):
        sources = sum(1 for n in names if n.endswith(".c"))
        if sources > MAX_DIR:
            bad.append("%s: %d .c files (at most %d)" % (root, sources, MAX_DIR))
        for n in sorted(names):
            if not n.endswith((".c", ".h")):
                continue
            p = os.path.join(root, n)
            with open(p, encoding="utf-8") as f:
                lines = f.read().split("\n")
            files += 1
            if len(lines) - 1 > MAX_FILE:
                bad.append("%s: %d lines (at most %d)" % (p, len(lines) - 1, MAX_FILE))
            for head, n_lines in functions(lines):
                if n_lines > MAX_FUNC:
                    bad.append("%s: %s: %d lines (at most %d)"
                               % (p, head, n_lines, MAX_FUNC))
    for b in bad:
        print(b)
    print("%d files under %s: %s" % (files, sys.argv[1],
                                     "%d over a limit" % len(bad) if bad else "all within"))
    return 1 if bad else 0


sys.exit(main())
