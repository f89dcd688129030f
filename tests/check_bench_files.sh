#!/bin/sh
# The runner's row of the data-loss matrix: what a benchmark program does
# to the file of --out (PROFILER_OUT) in each error case. No existing file
# is destroyed or truncated unless the run wrote a complete new one, and no
# temporary file is left behind.
# Usage: check_bench_files.sh BENCH_PROGRAM WORKDIR
set -u
prog=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
keep() { printf 'KEEP %s\n' "$1" >"$dir/$1"; }
kept() { [ "$(cat "$dir/$1" 2>/dev/null)" = "KEEP $1" ] || fail "$2: $1 was changed: $(head -c 80 "$dir/$1")"; }
clean() { ls -a "$dir" | grep -q '\.tmp$' && fail "$1: a temporary file is left: $(ls -a "$dir")"; true; }

# bad arguments after --out: nothing written, the old file kept
keep a.json
"$prog" --out="$dir/a.json" --format=jsn >/dev/null 2>&1
[ $? = 2 ] || fail "bad format: exit status"
kept a.json "bad format after --out"
clean "bad format"

# PROFILER_OUT then --out: the environment's file is not touched
keep env.json
PROFILER_OUT="$dir/env.json" "$prog" --out="$dir/other.json" --format=none \
    --filter=chain >/dev/null 2>&1 || fail "PROFILER_OUT and --out: exit status"
kept env.json "PROFILER_OUT overridden by --out"
grep -q '"benchmarks"' "$dir/other.json" 2>/dev/null || fail "--out: no JSON written"
clean "PROFILER_OUT and --out"

# a filter that runs nothing: the file is not written over
keep none.json
"$prog" --out="$dir/none.json" --filter=nomatch >/dev/null 2>&1
kept none.json "nothing run"
clean "nothing run"

# a full disk (a file size limit; SIGXFSZ ignored so that write fails);
# the messages go through a pipe, which the limit does not cut (a loaded
# machine's advice alone passes a block)
keep full.json
sh -c 'trap "" XFSZ; ulimit -f 1; "$0" --out="$1" --format=none; echo "exit status $?" >&2' \
    "$prog" "$dir/full.json" 2>&1 >/dev/null | cat >"$dir/full.err"
grep -q 'exit status [1-9]' "$dir/full.err" || fail "full disk: exit status 0"
grep -q 'profiler: writing ".*full.json" failed: File too large; the file is unchanged' \
    "$dir/full.err" || fail "full disk: message: $(cat "$dir/full.err")"
kept full.json "full disk"
clean "full disk"

# /dev/full (written in place: a special file) fails the run
if [ -w /dev/full ]; then
    "$prog" --out=/dev/full --format=none >/dev/null 2>&1 && fail "/dev/full: exit status 0"
fi

# an unwritable directory: refused at once, nothing made
"$prog" --out="$dir/missing/x.json" >/dev/null 2>"$dir/dir.err"
[ $? = 2 ] || fail "missing directory: exit status"
grep -q 'cannot open ".*missing/x.json" for writing' "$dir/dir.err" \
    || fail "missing directory: message: $(cat "$dir/dir.err")"
[ -e "$dir/missing" ] && fail "missing directory: made"

# a run that succeeds replaces an existing file with a complete one
keep ok.csv
"$prog" --out="$dir/ok.csv" --format=none --filter=chain >/dev/null 2>&1 \
    || fail "success: exit status"
head -n 1 "$dir/ok.csv" | grep -q '^name,epochs,iterations,' \
    || fail "success: not a CSV (format from the name): $(head -c 80 "$dir/ok.csv")"
clean "success"

[ $fails = 0 ] && echo "check_bench_files: all checks passed"
[ $fails = 0 ]
