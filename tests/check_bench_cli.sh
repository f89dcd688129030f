#!/bin/sh
# A benchmark program's command line as a user meets it (examples/bench):
# --help, --list, both spellings of a flag, unknown flags, the table on the
# console while --out writes a file, a filter that matches nothing.
# Usage: check_bench_cli.sh BENCH_PROGRAM WORKDIR
set -u
prog=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# --help: every flag with its default and variable, exit 0, no run
out=$("$prog" --help 2>&1); rc=$?
[ $rc = 0 ] || fail "--help: exit $rc"
for f in --format= --out= --out-format= --filter= --list --epochs= \
         --min-epoch-time= --max-epoch-time= --warmup= --time-unit= \
         --budget= '--counters\[=' --processes= --wide --help; do
    printf '%s\n' "$out" | grep -q -e "^  $f" || fail "--help lacks $f"
done
printf '%s\n' "$out" | grep -q 'PROFILER_EPOCHS' || fail "--help lacks the variables"
printf '%s\n' "$out" | grep -q 'ns/op' && fail "--help ran the suite"

# --list: the names after the filter, nothing run
[ "$("$prog" --list 2>&1)" = "$(printf 'chain 100\nchain 1000\none multiply-add (inline)')" ] \
    || fail "--list: $("$prog" --list 2>&1)"
[ "$("$prog" --list --filter '^chain 1000$' 2>&1)" = "chain 1000" ] \
    || fail "--list --filter (spaced)"

# unknown flags: exit 2 and the flag named
"$prog" --benchmark_filtr=x >/dev/null 2>"$dir/err"; rc=$?
[ $rc = 2 ] || fail "unknown flag: exit $rc"
grep -q 'unknown option --benchmark_filtr=x' "$dir/err" || fail "unknown flag: $(cat "$dir/err")"

# --format json (spaced) gives JSON on the console
"$prog" --format json --filter 'chain 100$' >"$dir/json" 2>/dev/null || fail "--format json: exit"
head -c 1 "$dir/json" | grep -q '{' || fail "--format json: $(head -c 60 "$dir/json")"

# --out: the table on the console, the file written (format from its name)
"$prog" --out "$dir/r.json" --filter 'chain 100$' >"$dir/table" 2>/dev/null || fail "--out: exit"
grep -q '`chain 100`' "$dir/table" || fail "--out: no table on the console"
grep -q '"run_name": "chain 100"' "$dir/r.json" || fail "--out: no JSON in the file"

# a filter that matches nothing: a message and exit 1
"$prog" --filter=nomatch >/dev/null 2>"$dir/err"; rc=$?
[ $rc = 1 ] || fail "no match: exit $rc"
grep -q 'the filter matched none of the 3 benchmarks' "$dir/err" || fail "no match: $(cat "$dir/err")"

# after "--", the program's own words: not read by the runner
"$prog" --filter 'chain 100$' -- --not-a-runner-flag >/dev/null 2>&1 || fail "--: exit"

[ $fails = 0 ] && echo "check_bench_cli: all checks passed"
[ $fails = 0 ]
