#!/bin/sh
# prof-compare from the command line: verdicts, the CI gate's exit codes,
# and bad input (missing, truncated, hostile, non-UTF-8 files, no common
# benchmark, bad options): exit 2 and a message naming the file and place.
# Usage: check_compare_cli.sh PROF_COMPARE DATA_DIR
set -u
tool=$1 data=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# expect CODE PATTERN -- ARGS...: exit code and a pattern in stdout+stderr
expect() {
    code=$1 pattern=$2; shift 3
    "$tool" "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" != "$code" ] || ! grep -q -e "$pattern" "$tmp/out"; then
        echo "FAIL: prof-compare $*: exit $got (want $code), output:"; cat "$tmp/out"
        echo "  (wanted pattern: $pattern)"
        fail=$((fail + 1))
    else
        echo "ok   exit $code: $*"
    fi
}
old=$data/ours-old.json new=$data/ours-new.json gb=$data/gbench-1.7.1.json

expect 0 '| chain 1000 | 1.126 us | 1.244 us | +10.4% |.*| slower |' -- "$old" "$new"
expect 0 '| memcpy 4k |.*| faster |' -- "$old" "$new"
expect 0 '| sum 2^10 |.*| same |' -- "$old" "$new"
expect 0 'only old | x |.*only in' -- "$old" "$new"
expect 1 'slower (regression)' -- --threshold=5 "$old" "$new"
expect 0 '| chain 1000 |.*| slower |' -- --threshold=15 "$old" "$new"
expect 0 'same' -- --noise=20 "$old" "$new"
expect 0 'chain 1000' -- --filter='^chain' "$old" "$new"
expect 0 'too few samples to tell at alpha 0.01: at least 5' -- "$gb" "$gb"
expect 0 'BM_chain/1050' -- "$gb" "$gb"

# Bad input.
expect 2 'usage' -- "$old"
expect 2 'unknown option --frobnicate' -- --frobnicate "$old" "$new"
expect 2 '--alpha=2: a number in (0, 1)' -- --alpha=2 "$old" "$new"
expect 2 '--threshold=-3' -- --threshold=-3 "$old" "$new"
expect 2 'not a valid regular expression' -- --filter='(' "$old" "$new"
expect 2 "nope.json: cannot open" -- "$old" "$tmp/nope.json"
expect 2 'no benchmark in common' -- "$old" "$gb"
head -c 300 "$old" >"$tmp/truncated.json"
expect 2 "truncated.json: line [0-9]*, column [0-9]*: unexpected end of input" -- "$old" "$tmp/truncated.json"
printf '{"benchmarks": [{"name": "a\377", "real_time": 1}]}' >"$tmp/latin1.json"
expect 2 'latin1.json: line 1, column 28: invalid UTF-8' -- "$tmp/latin1.json" "$old"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >"$tmp/deep.json"
expect 2 'deep.json: line 1, column 66: nested deeper than 64 levels' -- "$tmp/deep.json" "$old"
printf '{"benchmarks": [{"name": "chain 1000", "real_time": 1e400}]}' >"$tmp/huge.json"
expect 2 'huge.json: .*number out of range' -- "$old" "$tmp/huge.json"
printf '{"benchmarks": [{"name": "chain 1000", "real_time": [1]}]}' >"$tmp/type.json"
expect 2 'type.json: benchmarks\[0\].real_time is not a number' -- "$old" "$tmp/type.json"
printf '{"benchmarks": [{"name": "x", "real_time": 1}, {"name": "x", "real_time": 1}]}' >"$tmp/dup.json"
expect 2 'dup.json: benchmarks\[1\]: duplicate benchmark name "x"' -- "$tmp/dup.json" "$old"
expect 2 'cannot write' -- --svg=/nonexistent/dir/x.svg "$old" "$new"
expect 2 'cannot write' -- --svg=/dev/full "$old" "$new"

echo "$fail failed"
[ "$fail" -eq 0 ]
