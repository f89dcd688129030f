#!/usr/bin/env python3
"""No circle between the library's files: for each archive given, nm says
which object defines and which uses each symbol; a file that uses another's
symbol points at it, and the graph of those arrows must have no cycle, save
the sets listed in ALLOWED (each says why). Prints each circle found, and
the order of the layers (a file before those it uses) when there is none.
Usage: check_circles.py NM ARCHIVE..."""
import subprocess
import sys

# Circles let pass, each a frozenset of objects with a comment saying why:
# none today (trace.c calls trace_signal.c's handlers in, never back).
ALLOWED = set()


def graph(nm, archive):
    out = subprocess.run([nm, "-A", archive], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    defs, uses = {}, []
    for line in out.splitlines():
        # ARCHIVE:MEMBER.o:ADDRESS TYPE NAME (no address when undefined)
        head, sep, tail = line.partition(".o:")
        parts = tail.split()
        if not sep or len(parts) < 2:
            continue
        obj = head.rsplit(":", 1)[-1] + ".o"
        kind, sym = parts[-2], parts[-1]
        if kind == "U":
            uses.append((obj, sym))
        elif len(kind) == 1 and kind in "TDBRCVWG":
            defs[sym] = obj
    edges = {}
    for obj, sym in uses:
        to = defs.get(sym)
        if to is not None and to != obj:
            edges.setdefault(obj, {}).setdefault(to, set()).add(sym)
    return edges


def circles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = set(edges) | {t for v in edges.values() for t in v}

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 and frozenset(comp) not in ALLOWED:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    nm, archives = sys.argv[1], sys.argv[2:]
    bad = 0
    for a in archives:
        edges = graph(nm, a)
        for comp in circles(edges):
            bad = 1
            print("%s: a circle between %s" % (a, ", ".join(comp)))
            for v in comp:
                for w in sorted(edges.get(v, {})):
                    if w in comp:
                        print("  %s -> %s: %s" % (v, w,
                              ", ".join(sorted(edges[v][w])[:4])))
    if not bad:
        print("no circle between files in %d archive(s)" % len(archives))
    return bad


if __name__ == "__main__":
    sys.exit(main())
