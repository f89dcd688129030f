#!/bin/sh
# With counters off, the library makes no perf system call at all: run a
# program that uses everything but the counters (the runner included) under
# strace and count perf_event_open calls (there must be none), then the same
# program opening counters (there must be some: strace sees them). The
# runner with counters on opens them once per process: as many calls for
# three suites as for one. Exit 77 (skip) where strace cannot trace.
# Usage: check_perf_syscalls.sh STRACE PROGRAM
set -u
strace=$1 prog=$2
. "$(dirname "$0")/check_lib.sh"
count() { grep -c 'perf_event_open(' "$1"; }
if ! "$strace" -o /dev/null true >"$tmp/out" 2>&1; then
    echo "strace cannot trace here:"; cat "$tmp/out"; exit 77
fi
# LeakSanitizer cannot run under ptrace; the other sanitizers can.
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"; export ASAN_OPTIONS
for mode in on off "bench 1" "bench 3"; do
    f=$(echo "$mode" | tr ' ' _)
    "$strace" -f -o "$tmp/$f" -e trace=perf_event_open "$prog" $mode >"$tmp/out" 2>&1 \
        || { echo "FAIL: $prog $mode under strace:"; cat "$tmp/out"; exit 1; }
done
on=$(count "$tmp/on") off=$(count "$tmp/off")
b1=$(count "$tmp/bench_1") b3=$(count "$tmp/bench_3")
echo "perf_event_open calls: counters off $off, counters on $on," \
     "runner with counters: 1 suite $b1, 3 suites $b3"
[ "$b1" -gt 0 ] || { echo "FAIL: the runner made no perf call with counters on"; exit 1; }
[ "$b1" -eq "$b3" ] || { echo "FAIL: the runner reopened the counters per suite"; exit 1; }
[ "$on" -gt 0 ] || { echo "FAIL: strace saw no call with counters on"; cat "$tmp/on"; exit 1; }
[ "$off" -eq 0 ] || { echo "FAIL: perf_event_open called with counters off:"; cat "$tmp/off"; exit 1; }
echo "ok: no perf system call unless counters are opened"
