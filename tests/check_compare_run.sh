#!/bin/sh
# prof-compare --run: two commands run alternately (old, new, new, old,
# ...), their result files compared as pairs. The target program runs on a
# fake clock (exact results: 100 ns an iteration, 150 with RUN_TARGET_NS),
# so nothing here depends on the machine's speed. Also: {out} substitution
# (quoted for the shell), PROFILER_OUT, --keep, --max-time, commands that
# fail, are not found or write nothing (exit 2, named), Ctrl-C (the child
# ends, no process or work directory is left), the progress line at a
# terminal only, and the --keep rows of the data-loss matrix.
# Usage: check_compare_run.sh PROF_COMPARE RUN_TARGET
set -u
tool=$1 target=$2
. "$(dirname "$0")/check_lib.sh"
export TMPDIR="$tmp/tmpdir"; mkdir "$TMPDIR"
export RUN_TARGET_LOG="$tmp/log"
unset PROFILER_OUT PROFILER_FORMAT
old="RUN_TARGET_SIDE=old $target" new="RUN_TARGET_SIDE=new RUN_TARGET_NS=150 $target"

# expect CODE PATTERN ARGS...: exit status and a pattern in stdout+stderr
expect() {
    code=$1 pattern=$2; shift 2
    rm -f "$RUN_TARGET_LOG"
    "$tool" "$@" >"$tmp/out" 2>&1; got=$?
    if [ "$got" != "$code" ] || ! grep -q -e "$pattern" "$tmp/out"; then
        bad "prof-compare $*: exit $got (want $code), output:"; cat "$tmp/out"
        echo "  (wanted pattern: $pattern)"
    else
        ok "exit $code: $*"
    fi
}
runs() { tr '\n' ' ' <"$RUN_TARGET_LOG" 2>/dev/null; }
no_leftovers() {
    if [ -n "$(ls -A "$TMPDIR")" ]; then bad "$1: left in TMPDIR: $(ls -A "$TMPDIR")"; rm -rf "$TMPDIR"/.p* "$TMPDIR"/*; fi
}

# The default 12 pairs, alternated, then the paired gate: exact figures.
expect 0 '12 run(s) against 12, paired by position (sign test)' --run "$old" "$new"
[ "$(runs)" = "old new new old old new new old old new new old old new new old old new new old old new new old " ] \
    || bad "order of the runs: $(runs)"
grep -q '| work | 100 ns | 150 ns | +50.0% | +50.0%..+50.0% | 0.000488 | slower |' "$tmp/out" \
    || { bad "12 pairs: the row"; cat "$tmp/out"; }
no_leftovers "12 pairs"
expect 1 'work .*slower (regression)' --run --pairs 6 --threshold=5 "$old" "$new"
grep -q 'one file a side' "$tmp/out" && bad "--run: the one-file note: $(cat "$tmp/out")"
expect 1 'work .*slower (regression)' --run --pairs=1 --threshold=5 "$old" "$new"
grep -q 'one file a side' "$tmp/out" && bad "--run --pairs=1: the one-file note: $(cat "$tmp/out")"
expect 0 '| work | 100 ns | 100 ns | +0.0% | .* | same |' --run --pairs=6 --threshold=5 "$old" "$old"
expect 3 'the gate cannot decide' --run --pairs=3 --threshold=5 "$old" "$new"
[ "$(runs)" = "old new new old old new " ] || bad "3 pairs: $(runs)"
# stderr carries nothing but warnings when it is not a terminal
"$tool" --run --pairs=2 "$old" "$new" >/dev/null 2>"$tmp/err" || bad "2 pairs failed"
[ ! -s "$tmp/err" ] || { bad "stderr not empty:"; cat "$tmp/err"; }

# {out}: the path, quoted, in the command; the runner's own flags.
mkdir "$tmp/it's here"
expect 0 '| work | 100 ns | 150 ns | +50.0%' --run --pairs=2 --keep="$tmp/it's here" \
    "RUN_TARGET_SIDE=old $target --out={out} --format=json" \
    "RUN_TARGET_SIDE=new RUN_TARGET_NS=150 $target --format=json --out={out}"
for f in old-01 old-02 new-01 new-02; do
    grep -q '"run_name": "work"' "$tmp/it's here/$f.json" || bad "--keep: $f.json"
done
[ "$(ls -A "$tmp/it's here" | wc -l)" = 4 ] || bad "--keep: $(ls -A "$tmp/it's here")"
no_leftovers "{out}"

# --max-time: no new pair once it is reached (the first always runs).
expect 0 '| work |' --run --pairs=6 --max-time=0.001 --keep="$tmp/mt" "$old" "$new"
n=$(ls "$tmp/mt" | wc -l)
[ "$n" -ge 2 ] && [ "$n" -lt 12 ] || bad "--max-time=0.001: $n files"

# Commands that fail, are not found, or write nothing: named, exit 2.
expect 2 'the old command failed (exit status 1): false' --run false "$new"
expect 2 'the new command failed (exit status 127: not found?): /nonexistent/prog' --run "$old" /nonexistent/prog
expect 2 'nonexistent/prog: not found' --run "$old" /nonexistent/prog
expect 2 'the new command wrote no result file' --run "$old" true
expect 2 'its stderr ended with:' --run "$old" "RUN_TARGET_FAIL=1 $new"
expect 2 'run_target: failing as asked' --run "$old" "RUN_TARGET_FAIL=1 $new"
expect 2 'the old command failed (killed by signal 9' --run 'kill -9 $$' "$new"
no_leftovers "failed commands"

# Bad options.
expect 2 'two commands expected' --run "$old"
expect 2 '--pairs=0: a whole number of pairs from 1 to 256' --run --pairs=0 "$old" "$new"
expect 2 '--pairs=257' --run --pairs=257 "$old" "$new"
expect 2 '--pairs=2.5' --run --pairs=2.5 "$old" "$new"
expect 2 '--pairs=abc' --run --pairs abc "$old" "$new"
expect 2 '--max-time=0: a number of seconds > 0' --run --max-time=0 "$old" "$new"
expect 2 'go with --run' --pairs=3 "$old" "$new"
expect 2 'go with --run' --keep="$tmp/k" "$old" "$new"
expect 2 '--run takes no value' --run=1 "$old" "$new"
[ ! -e "$tmp/k" ] || bad "--keep without --run made $tmp/k"

# Data loss: kept files replace older ones only when complete; an output
# that would be a kept file is refused before anything runs.
mkdir "$tmp/keep"; echo KEEP >"$tmp/keep/old-01.json"; echo KEEP >"$tmp/keep/new-01.json"
expect 2 'the new command failed' --run --pairs=1 --keep="$tmp/keep" "$old" "RUN_TARGET_FAIL=1 $new"
[ "$(cat "$tmp/keep/new-01.json")" = KEEP ] || bad "--keep: a failed run replaced new-01.json"
# (the old run of that pair completed: it is kept, whole)
grep -q '"run_name": "work"' "$tmp/keep/old-01.json" || bad "--keep: the completed run"
cp "$tmp/keep/old-01.json" "$tmp/old-01.copy"
expect 2 '--svg=.*old-01.json is the kept result file' --run --pairs=1 --keep="$tmp/keep" \
    --svg="$tmp/keep/old-01.json" "$old" "$new"
[ ! -e "$RUN_TARGET_LOG" ] || bad "--svg onto a kept file: the commands ran: $(runs)"
cmp -s "$tmp/keep/old-01.json" "$tmp/old-01.copy" || bad "--svg onto a kept file: changed"
expect 0 'work' --run --pairs=1 --keep="$tmp/keep" "$old" "$new"
grep -q '"run_name": "work"' "$tmp/keep/new-01.json" || bad "--keep: not replaced by a complete file"
[ "$(ls -A "$tmp/keep" | wc -l)" = 2 ] || bad "--keep: left $(ls -A "$tmp/keep")"
expect 2 '--keep=/dev/null/x: Not a directory' --run --keep=/dev/null/x "$old" "$new"

# Ctrl-C: the child's process group ends, prof-compare ends by the signal,
# nothing is left behind.
# (PIDFILE is in the environment before prof-compare starts: the child
# inherits it and says who it is; without its pid nothing below is tested.)
export PIDFILE="$tmp/pid"
"$tool" --run --pairs=1 'echo $$ >"$PIDFILE"; exec sleep 60' "$new" >/dev/null 2>"$tmp/err" &
pc=$!
i=0; while [ ! -s "$PIDFILE" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
child=$(cat "$PIDFILE" 2>/dev/null)
[ -n "$child" ] || bad "Ctrl-C: the child never started (no pid in $PIDFILE after 10 s)"
kill -INT $pc; wait $pc; got=$?
if [ "$got" != 130 ]; then bad "Ctrl-C: exit $got, want 130 (SIGINT)"; cat "$tmp/err"; fi
grep -q 'interrupted (signal 2)' "$tmp/err" || { bad "Ctrl-C: no message"; cat "$tmp/err"; }
sleep 0.2
if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then bad "Ctrl-C: the child $child is still there"; kill -9 "$child"; fi
no_leftovers "Ctrl-C"

# A progress line at a terminal (script(1) gives the run a pty), erased.
if command -v script >/dev/null 2>&1; then
    script -qec "\"$tool\" --run --pairs=1 \"$old\" \"$new\"" /dev/null >"$tmp/tty" 2>&1
    if grep -q 'prof-compare: run 2 of 2 (new)' "$tmp/tty" && grep -q "$(printf '\r\033\\[K')" "$tmp/tty"; then
        ok "progress line at a terminal"
    else
        bad "no progress line at a terminal:"; cat -v "$tmp/tty"
    fi
fi

check_done "prof-compare --run"
