#!/bin/sh
# p-sample-read: prof-trace's time and memory on a long sampled trace:
# that samples stream as zones do (memory bounded by the distinct stacks,
# functions and zones, the same for any SECONDS; the samples that must
# wait, for --text their zones, for --speedscope and --perfetto the end,
# go to a temporary file): see doc/tracing.md. tests/make_sampled_trace.py
# --repeat writes SECONDS of two threads sampled at 10 kHz (the same
# 1002 stacks and samples every 100.1 ms: 20,000 samples a second, as 20
# threads at 1 kHz would give); prof-trace reads it in each output form
# that takes samples. Printed per form: wall time, samples per second read,
# and the largest resident set (the kernel's ru_maxrss of that process,
# which counts from the fork of this Python: about 13 MB is its own), and
# prof-trace's own (/usr/bin/time -f %M, which forks it; "-" without it).
# Usage: p-sample-read.sh BUILD_DIR [SECONDS (600)]
set -eu
build=$1 secs=${2:-600}
here=$(cd "$(dirname "$0")" && pwd)
pt=$build/prof-trace
[ -x "$pt" ] || { echo "build first: cmake --build $build --target prof-trace"; exit 2; }
command -v python3 >/dev/null || { echo "p-sample-read: needs python3"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
reps=$(( (secs * 10000 + 500) / 1001 ))
[ "$reps" -ge 1 ] || reps=1
python3 "$here/../tests/make_sampled_trace.py" --repeat="$reps" "$tmp/t.ptrace"
python3 - "$pt" "$tmp/t.ptrace" "$reps" <<'PY'
import os, subprocess, sys, time
pt, trace, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
samples = 2002 * reps
print("a %.0f s sampled trace: %d samples in 2 threads, %.1f MB"
      % (reps * 0.1001, samples, os.path.getsize(trace) / 1e6))
timer = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
print("%-12s %9s %14s %12s %12s" % ("form", "wall_s", "samples/s", "max_rss_MB", "own_rss_MB"))
for form in ("--text", "--csv", "--folded", "--speedscope", "--perfetto"):
    with open(os.devnull, "wb") as null:
        t0 = time.monotonic()
        p = subprocess.Popen([pt, form, trace], stdout=null, stderr=null)
        _, status, ru = os.wait4(p.pid, 0)
        dt = time.monotonic() - t0
    if status != 0:
        sys.exit("p-sample-read: prof-trace %s exited with status %d" % (form, status))
    own = "-"    # prof-trace's own: started by a process not forked from this Python
    if timer is not None:
        r = subprocess.run([timer, "-f", "%M", pt, form, trace], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        lines = r.stderr.strip().splitlines()
        if r.returncode == 0 and lines and lines[-1].isdigit():
            own = "%.1f" % (int(lines[-1]) / 1024)
    print("%-12s %9.2f %14.0f %12.1f %12s" % (form, dt, samples / dt, ru.ru_maxrss / 1024, own))
PY
