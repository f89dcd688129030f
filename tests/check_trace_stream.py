#!/usr/bin/env python3
"""prof-trace reads the samples of a long sampled trace streaming: a 120 s
trace of make_sampled_trace.py --repeat=1200 (2.4 million samples, 19 MB)
is read by --text, --csv and --folded (and, zones first, --speedscope and
--perfetto) in a resident set under MAX_RSS_MB (the kernel's ru_maxrss of
that process, which counts from the fork of this Python: some 13 MB is
its own), where keeping every sample took 76-186 MB; and the samples by zone are the same when thread 7's
zone events come after all its samples (--samples-first=1: every one of
them waits for its zones, most in the temporary file) as when they come
first.
Usage: check_trace_stream.py PROF-TRACE SCRIPT-DIR [MAX_RSS_MB (40; 0: not
checked, as under the sanitizers)]"""
import os
import subprocess
import sys
import tempfile

MAX_RSS_MB = 40
REPEAT = 1200


def run(pt, args, keep):
    """(status, stdout if keep, peak resident set in MB) of prof-trace
    args. Only the small outputs are read: this Python's own resident set
    is counted in the next child's, from its fork to its exec."""
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen([pt] + args, stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        out.seek(0)
        text = out.read().decode(errors="replace") if keep else ""
        return status, text, ru.ru_maxrss / 1024


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pt, here = sys.argv[1], sys.argv[2]
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else MAX_RSS_MB
    fail = 0
    with tempfile.TemporaryDirectory() as tmp:
        first, late = os.path.join(tmp, "first.ptrace"), os.path.join(tmp, "late.ptrace")
        for path, more in ((first, []), (late, ["--samples-first=1"])):
            subprocess.check_call([sys.executable, os.path.join(here, "make_sampled_trace.py"),
                                   "--repeat=%d" % REPEAT] + more + [path])
        text = {}
        for path in (first, late):
            forms = ["--text", "--csv", "--folded"]
            if path == first and limit > 0:     # slow under the sanitizers
                forms += ["--speedscope", "--perfetto"]
            for form in forms:
                status, out, rss = run(pt, [form, path], form == "--text")
                name = "%s %s" % (form, os.path.basename(path))
                if status != 0:
                    print("FAIL: %s: exit status %d" % (name, status))
                    fail += 1
                elif limit > 0 and rss > limit:
                    print("FAIL: %s: %.1f MB resident, more than %g: the samples "
                          "are kept" % (name, rss, limit))
                    fail += 1
                else:
                    print("ok   %s: %.1f MB resident" % (name, rss))
                if form == "--text":
                    text[path] = out
        zones = [line for line in text[first].splitlines() if "  zone " in line]
        want = ["       600    0.0%  zone inner: 80.0% libfake.so+0x1010, 20.0% libfake.so+0x2010",
                "       390    0.0%  zone outer: 80.0% libfake.so+0x1010, 20.0% libfake.so+0x2010"]
        if zones == want and text[late] == text[first]:
            print("ok   samples by zone: the same with the zones after the samples")
        else:
            print("FAIL: samples by zone:\n%s\n--- zones last:\n%s" % (text[first], text[late]))
            fail += 1
    print("trace_stream: %s" % ("all checks passed" if fail == 0 else "%d failed" % fail))
    sys.exit(1 if fail else 0)


main()
