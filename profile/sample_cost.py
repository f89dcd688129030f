"""What sampling tools cost, for profile/p-sample-*.sh: each command run
RUNS times, the order rotated each run; printed, the medians of the wall
time and of the CPU time of the whole command (the tool's own included)
and their ratio to the first command's (the work alone).
Usage: sample_cost.py RUNS TITLE NAME ARG... [;; NAME ARG...]...
SPDX-License-Identifier: MIT"""
import resource
import subprocess
import sys
import time

runs, title, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
cmds = {}
while rest:
    end = rest.index(";;") if ";;" in rest else len(rest)
    cmds[rest[0]] = rest[1:end]
    rest = rest[end + 1:]
names = list(cmds)
wall = {n: [] for n in names}
cpu = {n: [] for n in names}
for r in range(runs):
    for n in names[r % len(names):] + names[:r % len(names)]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        subprocess.run(cmds[n], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall[n].append(time.monotonic() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[n].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)


def med(v):
    return sorted(v)[len(v) // 2]


width = max(len(n) for n in names)
alone = names[0]
print("\n%s, %d runs, medians (load %s)" % (title, runs, open("/proc/loadavg").read().split()[0]))
print("%-*s %8s %8s %8s %8s" % (width, "", "wall_s", "x alone", "cpu_s", "x alone"))
for n in names:
    print("%-*s %8.3f %8.3f %8.3f %8.3f" % (width, n, med(wall[n]), med(wall[n]) / med(wall[alone]),
                                          med(cpu[n]), med(cpu[n]) / med(cpu[alone])))
