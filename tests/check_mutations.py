#!/usr/bin/env python3
"""The mutation check: each unit test catches a small mistake in its own unit.

Each mutation below changes one piece of text in one of the core's pure
functions (an index off by one, a dropped escape, a swapped comparison, a
constant changed), or in the order of the tools' alternated runs. For each, the script compiles the mutated source file
and that unit's own test program directly (no CMake), links them before
the built libraries (whose archive member the mutated object replaces), and
requires that the test fails. Unmutated, each test built the same way
must pass: the check of the method itself.

A mutation whose text is no longer in its file, or that does not compile,
fails the check: the list is kept in step with the code.

usage: check_mutations.py --root SRC --lib LIB [--lib LIB...] --work DIR
                          [--cc CC] [--flags "CFLAGS"] [--define D,D...]
"""
import argparse
import concurrent.futures
import os
import shlex
import subprocess
import sys
import time

# (source file, its own test, the text, what it becomes, what it breaks)
MUTATIONS = [
    ("src/core/stats.c", "test_stats", "h = (n - 1) * p;", "h = (n - 2) * p;",
     "the quantile's index off by one"),
    ("src/core/stats.c", "test_stats", "return sorted[n - 1];",
     "return sorted[n - 2];", "the quantile's maximum"),
    ("src/core/stats.c", "test_stats", "p <= 1.0))", "p < 1.0))",
     "the quantile's range of p"),
    ("src/core/stats.c", "test_stats", "*hi = sorted[n - best];",
     "*hi = sorted[n - best - 1];", "the median interval's upper bound"),
    ("src/core/stats.c", "test_stats", "r = 100.0 *", "r = 10.0 *",
     "MdAPE's percent"),
    ("src/core/stats.c", "test_stats", "gap > 3.0 * w", "gap > 4.0 * w",
     "the two clusters' gap"),
    ("src/core/stats.c", "test_stats", "n / 4 > 3 ? n / 4 : 3",
     "n / 4 > 2 ? n / 4 : 2", "the smallest cluster"),
    ("src/core/stats.c", "test_stats", "sqrt(ss / stt)", "sqrt(ss / sgg)",
     "the fit's error"),
    ("src/core/message.c", "test_message", "*s == '\"' || *s == '\\\\'",
     "*s == '\"'", "JSON: the backslash not escaped"),
    ("src/core/message.c", "test_message", "else if (*s < 0x20)",
     "else if (*s < 0x1f)", "JSON: the last control character"),
    ("src/core/message.c", "test_message", 'fputs("\\\\ufffd", out);',
     'fputs("?", out);', "JSON: a byte that is not UTF-8"),
    ("src/core/message.c", "test_message",
     "            if (csv && *s == '\"')\n                fputc('\"', out);\n",
     "", "CSV: the quote not doubled"),
    ("src/core/message.c", "test_message", "s[0] >= 0xC2", "s[0] >= 0xC0",
     "UTF-8: an overlong form"),
    ("src/bench/reports/report.c", "test_report", "fabs(v) < 1e3 ||",
     "fabs(v) < 1e4 ||", "the first suffix (k)"),
    ("src/bench/reports/report.c", "test_report", "e >= 3 * (k + 1)",
     "e > 3 * (k + 1)", "a row's time unit"),
    ("src/bench/reports/report.c", "test_report", "fabs(v) < 1e-4", "fabs(v) < 1e-5",
     "the small end of fixed point"),
    ("src/bench/reports/report.c", "test_report", "fabs(pct) < 5e-3",
     "fabs(pct) < 5e-2", "a percentage read as 0"),
    ("src/core/clock.c", "test_clock", "if (b[i] - a[i] < best_width)",
     "if (b[i] - a[i] <= best_width)", "the tick sync: the first tightest"),
    ("src/core/clock.c", "test_clock", "*ticks = a[i] + (b[i] - a[i]) / 2;",
     "*ticks = a[i];", "the tick sync: the bracket's middle"),
    ("src/core/clock.c", "test_clock", "rate > 1e6 && rate < 1e11",
     "rate >= 1e6 && rate < 1e11", "the tick rate's plausible range"),
    # the alternation of runs under prof-run and prof-compare --run
    ("src/tools/alternate/alternate.c", "test_alternate",
     "round % 2 == 0 ? k", "round % 2 == 0 || round == 1 ? k",
     "the second round's order"),
    ("src/tools/alternate/alternate.c", "test_alternate",
     "rc != 0 || a->signal != 0 ? -1 : 0", "rc != 0 ? -1 : 0",
     "a signal during the last run"),
    ("src/tools/alternate/alternate.c", "test_alternate",
     "if (ra[i] == rb[j])", "if (ra[i] <= rb[j])",
     "runs of two rounds paired"),
]

TIMEOUT_S = 60


def run(cmd, cwd=None, timeout=None):
    """(status, output) of cmd; a timeout is status -1."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "(timed out after %d s)" % timeout
    return p.returncode, p.stdout.decode("utf-8", "replace")


class Builder:
    def __init__(self, args):
        self.root = args.root
        self.work = args.work
        self.libs = args.lib
        self.cc = shlex.split(args.cc)
        flags = shlex.split(args.flags)
        defs = ["-D" + d for d in args.define.split(",") if d]
        if sys.platform.startswith("linux"):
            defs.append("-D_GNU_SOURCE")
        self.flags = ["-std=c99", "-O0", "-w"] + flags + defs + [
            "-I" + os.path.join(self.root, d) for d in
            ("include", "src/core", "src/bench", "src/bench/runner",
             "src/bench/workers", "src/bench/reports", "src/trace",
             "src/tools/common", "src/tools/alternate", "src/tools/compare",
             "tests")]
        self.link = flags + self.libs + ["-lm", "-pthread"]
        self.objects = {}

    def compile(self, src, obj):
        status, out = run(self.cc + self.flags + ["-c", src, "-o", obj])
        if status != 0:
            raise RuntimeError("cannot compile %s:\n%s" % (src, out))

    def test_object(self, test):
        """The test program's object, compiled once."""
        if test not in self.objects:
            obj = os.path.join(self.work, test + ".o")
            self.compile(os.path.join(self.root, "tests", test + ".c"), obj)
            self.objects[test] = obj
        return self.objects[test]

    def run_test(self, test, source_text, name, source):
        """The test linked with source (its text given) before the libraries:
        (status, output)."""
        d = os.path.join(self.work, name)
        os.makedirs(d, exist_ok=True)
        src = os.path.join(d, os.path.basename(source))
        with open(src, "w") as f:
            f.write(source_text)
        obj = src[:-2] + ".o"
        self.compile(src, obj)
        exe = os.path.join(d, test)
        status, out = run(self.cc + [self.test_object(test), obj, "-o", exe]
                          + self.link)
        if status != 0:
            raise RuntimeError("cannot link %s:\n%s" % (exe, out))
        return run([exe], cwd=d, timeout=TIMEOUT_S)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--lib", required=True, action="append")
    ap.add_argument("--work", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--flags", default="")
    ap.add_argument("--define", default="")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    b = Builder(args)
    start = time.time()

    def text_of(source):
        with open(os.path.join(args.root, source)) as f:
            return f.read()

    def unmutated(pair):
        """(line, failure or None): the test passes built this way."""
        source, test = pair
        status, out = b.run_test(test, text_of(source), "unmutated-" + test,
                                 source)
        line = "unmutated  %-14s %-20s %s" % (
            test, source, "passes" if status == 0 else "FAILS")
        if status != 0:
            return line, ("%s with %s unmutated fails (status %d):\n%s"
                          % (test, source, status, out))
        return line, None

    def mutated(k):
        """(line, failure or None): mutation k makes its test fail."""
        source, test, old, new, what = MUTATIONS[k - 1]
        text = text_of(source)
        found = text.count(old)
        if found != 1:
            return ("mutation %2d %-14s %-8s %s" % (k, test, "STALE", what),
                    "mutation %d (%s): its text occurs %d times in %s, not "
                    "once: update the list" % (k, what, found, source))
        try:
            status, out = b.run_test(test, text.replace(old, new),
                                     "mutation-%02d" % k, source)
        except RuntimeError as e:
            return ("mutation %2d %-14s %-8s %s" % (k, test, "BROKEN", what),
                    "mutation %d (%s): %s" % (k, what, e))
        caught = status != 0
        line = "mutation %2d %-14s %-8s %s" % (
            k, test, "caught" if caught else "MISSED", what)
        if not caught:
            return line, ("mutation %d (%s) in %s: %s still passes\n  %r -> %r"
                          % (k, what, source, test, old, new))
        return line, None

    # two at a time (the machine's two cores: compilers and tests wait on
    # nothing else); the unmutated builds first, which compile the tests'
    # objects that the mutations then share
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for line, failure in pool.map(
                unmutated, sorted({(m[0], m[1]) for m in MUTATIONS})):
            print(line)
            if failure:
                failed.append(failure)
        if failed:
            print("\n".join(failed))
            return 1
        for line, failure in pool.map(mutated, range(1, len(MUTATIONS) + 1)):
            print(line)
            if failure:
                failed.append(failure)
    print("%d mutations, %d caught, in %.1f s" % (
        len(MUTATIONS), len(MUTATIONS) - len(failed), time.time() - start))
    if failed:
        print("\n".join(failed))
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
