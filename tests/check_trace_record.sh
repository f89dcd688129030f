#!/bin/sh
# prof-trace record on a program that knows nothing of the profiler: its
# exit status passed on, samples of both threads in the trace with its
# mappings and processes, hot() named from them, and of a forked child
# only with --children;
# a command that is not found (127, no file written) and one that is
# killed (128 + 9, what was sampled kept); --hz only as a decimal number.
# Skipped (77) where perf events are refused.
# Usage: check_trace_record.sh PROF_TRACE TARGET TEST_SAMPLE_READ
set -u
pt=$1 target=$2 reader=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
"$pt" record --hz=997 -o "$tmp/t.ptrace" -- "$target" 0.6 fork 2>"$tmp/err"
rc=$?
if grep -q 'perf events refused' "$tmp/err"; then
    cat "$tmp/err"; exit 77
fi
[ "$rc" = 3 ] || { echo "FAILED: exit status $rc, not 3"; cat "$tmp/err"; fail=1; }
grep -q 'samples (0 lost' "$tmp/err" || { echo "FAILED: $(cat "$tmp/err")"; fail=1; }
"$reader" --record "$tmp/t.ptrace" threads || fail=1
# --children: the forked child is sampled too
"$pt" record --children -o "$tmp/c.ptrace" -- "$target" 0.6 fork 2>"$tmp/err"
rc=$?
[ "$rc" = 3 ] || { echo "FAILED: --children: exit status $rc"; cat "$tmp/err"; fail=1; }
"$reader" --record "$tmp/c.ptrace" children || fail=1
"$pt" record -o "$tmp/n.ptrace" -- /nonexistent/command 2>"$tmp/err"
rc=$?
[ "$rc" = 127 ] && grep -q 'No such file' "$tmp/err" && [ ! -e "$tmp/n.ptrace" ] \
    || { echo "FAILED: not found: $rc $(cat "$tmp/err")"; fail=1; }
"$pt" record -o "$tmp/k.ptrace" -- sh -c 'kill -9 $$' 2>"$tmp/err"
rc=$?
[ "$rc" = 137 ] && [ -s "$tmp/k.ptrace" ] || { echo "FAILED: killed: $rc"; fail=1; }
"$pt" record --hz=0 -- true 2>"$tmp/err"
[ $? = 2 ] && grep -q 'not a rate' "$tmp/err" || { echo "FAILED: --hz=0"; fail=1; }
for hz in ' 5' 0x10 inf; do
    "$pt" record --hz="$hz" -- true 2>"$tmp/err"
    [ $? = 2 ] && grep -q 'not a rate' "$tmp/err" || { echo "FAILED: --hz='$hz' accepted"; fail=1; }
done
[ $fail = 0 ] && echo "check_trace_record: all checks passed"
exit $fail
