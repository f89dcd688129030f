#!/bin/sh
# prof-compare from the command line: verdicts, the CI gate's exit codes,
# and bad input (missing, truncated, hostile, non-UTF-8 files, no common
# benchmark, bad options): exit 2 and a message naming the file and place.
# Usage: check_compare_cli.sh PROF_COMPARE DATA_DIR
set -u
tool=$1 data=$2
. "$(dirname "$0")/check_lib.sh"
# expect CODE PATTERN -- ARGS...: exit code and a pattern in stdout+stderr
expect() {
    code=$1 pattern=$2; shift 3
    "$tool" "$@" >"$tmp/out" 2>&1
    got=$?
    if [ "$got" != "$code" ] || ! grep -q -e "$pattern" "$tmp/out"; then
        bad "prof-compare $*: exit $got (want $code), output:"; cat "$tmp/out"
        echo "  (wanted pattern: $pattern)"
    else
        ok "exit $code: $*"
    fi
}
old=$data/ours-old.json new=$data/ours-new.json gb=$data/gbench-1.7.1.json

# One file a side carrying no next-run interval (these files predate it):
# a change the epochs see cannot be told from the drift between runs.
expect 0 '| chain 1000 | 1.126 us | 1.244 us | +10.4% |.*| cannot tell (drift) |' -- "$old" "$new"
expect 0 '| memcpy 4k |.*| cannot tell (drift) |' -- "$old" "$new"
expect 0 '| sum 2^10 |.*| same |' -- "$old" "$new"
expect 0 'only old | x |.*only in' -- "$old" "$new"
expect 3 'the gate cannot tell: 1 benchmark(s) slower by more than the noise inside a run' -- --threshold=5 "$old" "$new"
expect 0 '| chain 1000 |.*| cannot tell (drift) |' -- --threshold=15 "$old" "$new"
expect 0 'same' -- --noise=20 "$old" "$new"
# A gate on one file a side says that it sees only the noise inside each
# run, and how to gate on runs; a report without --threshold says so where
# it called a benchmark faster or slower, and not where all are the same.
note='^one file a side: this gate sees only the noise inside each run, not the drift between runs; to gate on runs, run both alternately (prof-compare --run --threshold=5 .OLD COMMAND. .NEW COMMAND.) or give files made alternately (prof-compare --threshold=5 old1.json,old2.json,... new1.json,new2.json,...)$'
expect 3 "$note" -- --threshold=5 "$old" "$new"
expect 0 '^one file a side: .* (prof-compare --run --threshold=15 ' -- --threshold=15 "$old" "$new"
[ "$(grep -c 'one file a side' "$tmp/out")" = 1 ] || bad "one-file note not printed once: $(cat "$tmp/out")"
report='^one file a side: faster and slower judge only the noise inside each run, not the drift between runs (a shared machine.s speed moves by several percent from one run to the next); to compare runs, run both alternately (prof-compare --run .OLD COMMAND. .NEW COMMAND.) or give files made alternately (prof-compare old1.json,old2.json,... new1.json,new2.json,...)$'
expect 0 "$report" -- "$old" "$new"
[ "$(grep -c 'one file a side' "$tmp/out")" = 1 ] || bad "report's one-file note not printed once: $(cat "$tmp/out")"
"$tool" --noise=20 "$old" "$new" >"$tmp/out" 2>&1
grep -q 'one file a side' "$tmp/out" && bad "one-file note where every benchmark is the same: $(cat "$tmp/out")"
# The same files with the runner's next-run intervals of +-H% on their
# median entries: chain 1000's +10.4% stands past twice H, is the same
# within H, and cannot be told between.
with_next() { # H OUT: old and new with next_low/high at median * (1 -+ H%)
    python3 - "$old" "$new" "$1" "$2" <<'PY'
import json, sys
h = float(sys.argv[3]) / 100
for i, path in enumerate(sys.argv[1:3]):
    d = json.load(open(path))
    for b in d["benchmarks"]:
        if b.get("aggregate_name") == "median":
            b["next_low"] = b["real_time"] * (1 - h)
            b["next_high"] = b["real_time"] * (1 + h)
    json.dump(d, open("%s.%d.json" % (sys.argv[4], i), "w"))
PY
}
with_next 3 "$tmp/h3" && with_next 8 "$tmp/h8" && with_next 15 "$tmp/h15" \
    || bad "python3 could not write the files with next-run intervals"
expect 1 '| chain 1000 |.*| slower (regression) |' -- --threshold=5 "$tmp/h3.0.json" "$tmp/h3.1.json"
expect 3 '| chain 1000 |.*| cannot tell (drift) |' -- --threshold=5 "$tmp/h8.0.json" "$tmp/h8.1.json"
expect 0 '| chain 1000 |.*| same |' -- --threshold=5 "$tmp/h15.0.json" "$tmp/h15.1.json"
expect 0 '| memcpy 4k |.*| faster |' -- "$tmp/h8.0.json" "$tmp/h8.1.json"
expect 0 'chain 1000' -- --filter='^chain' "$old" "$new"
expect 0 'too few samples to tell at alpha 0.05: at least 4 per side' -- "$gb" "$gb"
expect 0 'too few samples to tell at alpha 0.01: at least 5 per side' -- --alpha=0.01 "$gb" "$gb"
expect 0 'BM_chain/1050' -- "$gb" "$gb"

# A change near 1e300 in %.4g, not as 300 digits cut at its cell's 31
# 1e-300 ns against 1 ns.
timed() { # FILE TIME: two epochs of TIME ns
    printf '{"benchmarks": [
 {"name": "x", "run_type": "iteration", "repetition_index": 0, "real_time": %s, "time_unit": "ns"},
 {"name": "x", "run_type": "iteration", "repetition_index": 1, "real_time": %s, "time_unit": "ns"}]}\n' "$2" "$2" >"$tmp/$1"
}
timed tiny.json 1e-300
timed one.json 1
expect 0 '| x | 1e-300 ns | 1 ns | +1e+302% | +1e+302%..+1e+302% |' -- "$tmp/tiny.json" "$tmp/one.json"

# Rows the runner measured under a load over the cores (its flags, 64):
# marked, and said why under the table; a quiet pair is not.
flagged() { # FILE FLAGS LOAD: two epochs and the runner's median entry
    printf '{"benchmarks": [
 {"name": "chain", "run_type": "iteration", "repetition_index": 0, "real_time": 10, "time_unit": "ns"},
 {"name": "chain", "run_type": "iteration", "repetition_index": 1, "real_time": 11, "time_unit": "ns"},
 {"name": "chain_median", "run_name": "chain", "run_type": "aggregate", "aggregate_name": "median",
  "real_time": 10.5, "time_unit": "ns", "flags": %s, "load_avg_1m": %s}]}\n' "$2" "$3" >"$tmp/$1"
}
flagged quiet.json 0 0.5
flagged busy.json 65 6.5
flagged unknown.json 0 null
expect 0 '| chain |.*| too few samples (loaded) |' -- "$tmp/quiet.json" "$tmp/busy.json"
expect 0 '^(loaded): measured while the load average exceeded the cores (old: 0 benchmark(s), new: 1, a load average up to 6.50): their figures include other' -- "$tmp/quiet.json" "$tmp/busy.json"
"$tool" "$tmp/quiet.json" "$tmp/unknown.json" >"$tmp/out" 2>&1 || bad "quiet pair: exit $?"
grep -q 'loaded' "$tmp/out" && bad "quiet pair marked loaded: $(cat "$tmp/out")"

# Several runs a side: one figure per run, paired by position.
run() { # FILE CHAIN_NS SUM_NS: a one-sample-per-benchmark result file
    printf '{"benchmarks": [{"name": "chain", "real_time": %s, "time_unit": "ns"},
 {"name": "sum", "real_time": %s, "time_unit": "ns"}]}\n' "$2" "$3" >"$tmp/$1"
}
olds="" news=""
for i in 1 2 3 4 5 6 7; do
    run "o$i.json" $((1000 + i * 7)) $((300 + i % 3))
    run "n$i.json" $((1100 + i * 7 + i % 2 * 30)) $((300 + (i + 1) % 3))
    olds="$olds${olds:+,}$tmp/o$i.json" news="$news${news:+,}$tmp/n$i.json"
done
expect 0 '7 run(s) against 7, paired by position (sign test), min of each' -- "$olds" "$news"
expect 0 'paired by position (sign test), median of each' -- --statistic=median "$olds" "$news"
expect 2 '--statistic=mean: min or median is expected' -- --statistic=mean "$olds" "$news"
# medians 1028 and 1142 ns; ratios 1.096..1.129, median 1.124; 7 of 7 up:
# p = 2 / 2^7; the 95% interval of 7 is [min, max] of the ratios.
expect 0 '| chain | 1.028 us | 1.142 us | +12.4% | +9.6%..+12.9% | 0.0156 | slower |' -- "$olds" "$news"
expect 0 '| sum | 301 ns | 301 ns | +0.3% | .* | same |' -- "$olds" "$news"
expect 1 'chain .*slower (regression)' -- --threshold=5 "$olds" "$news"
grep -q 'one file a side' "$tmp/out" && bad "one-file note with several files a side: $(cat "$tmp/out")"
expect 3 'too few samples to tell' -- --threshold=5 "$tmp/o1.json" "$news"
grep -q 'one file a side' "$tmp/out" && bad "one-file note with several new files: $(cat "$tmp/out")"
expect 0 'unpaired (U test)' -- "$olds" "$tmp/n1.json,$tmp/n2.json,$tmp/n3.json"
expect 0 'too few pairs of runs to tell at alpha 0.05: at least 6 a side' -- \
    "$tmp/o1.json,$tmp/o2.json" "$tmp/n1.json,$tmp/n2.json"
printf '{"benchmarks": [{"name": "chain", "real_time": 5, "time_unit": "ns"}]}\n' >"$tmp/nosum.json"
expect 0 '| sum | | | | | | missing in some runs |' -- "$olds" "$news,$tmp/nosum.json"
expect 2 'an empty file name' -- "$tmp/o1.json," "$news"
expect 2 "nope.json: cannot open" -- "$tmp/o1.json,$tmp/nope.json" "$news"

# A benchmark at 0 ns in every old run and 3 ns in every new one is
# infinitely slower: a regression, not "same" with a NaN change.
printf '{"benchmarks": [{"name": "x", "real_time": 0, "time_unit": "ns"}]}' >"$tmp/zero.json"
printf '{"benchmarks": [{"name": "x", "real_time": 3, "time_unit": "ns"}]}' >"$tmp/three.json"
z=$tmp/zero.json t=$tmp/three.json
expect 1 '| x | 0 ns | 3 ns | +inf% |.*slower (regression)' -- --threshold=1 "$z,$z,$z,$z,$z,$z" "$t,$t,$t,$t,$t,$t"
# ... and its picture has numbers for coordinates, not nan or inf
expect 0 'x' -- --svg="$tmp/zero.svg" "$z,$z,$z,$z,$z,$z" "$t,$t,$t,$t,$t,$t"
if grep -Eiq '="[^"]*(nan|inf)' "$tmp/zero.svg"; then
    bad "zero.svg has nan/inf coordinates:"; grep -Eio '[a-z0-9]*="[^"]*(nan|inf)[^"]*"' "$tmp/zero.svg" | head -3
else
    ok "zero.svg: finite coordinates"
fi

# Both medians 0: no change, not -nan% (one file a side, and paired).
expect 0 '| x | 0 ns | 0 ns | +0.0% | n/a | 1 | too few samples |' -- "$z" "$z"
expect 0 '| x | 0 ns | 0 ns | +0.0% | +0.0%..+0.0% | 1 | same |' -- "$z,$z,$z,$z,$z,$z" "$z,$z,$z,$z,$z,$z"

# Names (and paths) come from the files: a '|' or a line break in one is
# escaped, so that every row keeps the header's 8 unescaped bars.
printf '{"benchmarks": [{"name": "a|b\\nc", "real_time": 5, "time_unit": "ns"}, {"name": "old|only", "real_time": 5, "time_unit": "ns"}]}' >"$tmp/pipe|old.json"
printf '{"benchmarks": [{"name": "a|b\\nc", "real_time": 6, "time_unit": "ns"}]}' >"$tmp/pipe|new.json"
expect 0 '^| a\\|b c | 5 ns | 6 ns |' -- "$tmp/pipe|old.json" "$tmp/pipe|new.json"
expect 0 '^| old\\|only | x |  | | | | only in .*pipe\\|old.json |$' -- "$tmp/pipe|old.json" "$tmp/pipe|new.json"
"$tool" "$tmp/pipe|old.json" "$tmp/pipe|new.json" >"$tmp/out" 2>&1
if grep '^|' "$tmp/out" | sed 's/\\|//g' | awk -F'|' 'NF != 9 { bad = 1 } END { exit bad }'; then
    ok "every row of the table has 8 bars"
else
    bad "a row with more or fewer bars than the header:"; cat "$tmp/out"
fi
expect 2 '^| a\\|b c | | | | | | missing in some runs |$' -- "$tmp/pipe|old.json,$tmp/pipe|old.json" "$tmp/pipe|new.json,$t"

# Flag values as the next word too; --help lists every flag with its
# default; --version; -- ends the options.
expect 1 'slower (regression)' -- --threshold 5 "$tmp/h3.0.json" "$tmp/h3.1.json"
expect 1 'slower (regression)' -- --alpha 0.01 --noise 3 --threshold 5 "$tmp/h3.0.json" "$tmp/h3.1.json"
expect 0 'chain 1000' -- --filter '^chain' --statistic median "$old" "$new"
expect 2 '--alpha needs a value' -- "$old" "$new" --alpha
expect 2 '--help takes no value' -- --help=1
expect 2 'unknown option --frob=1' -- --frob=1 "$old" "$new"
expect 0 '^prof-compare (profiler) [0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*$' -- --version
"$tool" --help >"$tmp/help" 2>&1; got=$?
for want in '--alpha=P .*(0.05)' '--noise=PCT .*(2)' '--threshold=PCT' 'report only, exit 0)' \
            '--statistic=S' '(min)' '--filter=REGEX .*(default:' '--svg=FILE' \
            '--html=FILE' '--help ' '--version ' '^  3  the gate cannot decide'; do
    if [ "$got" != 0 ] || ! grep -q -e "$want" "$tmp/help"; then
        bad "--help (exit $got) lacks [$want]"
    fi
done
cp "$old" "$tmp/--old.json"
expect 0 'chain 1000' -- -- "$tmp/--old.json" "$new"

# A gate that cannot decide exits 3 and says what is missing: 3 pairs of
# runs cannot reach alpha 0.05 (2 / 2^3), nor can 1 sample a side.
expect 3 'at least 6 a side are needed' -- --threshold=5 "$tmp/o1.json,$tmp/o2.json,$tmp/o3.json" "$tmp/n1.json,$tmp/n2.json,$tmp/n3.json"
expect 3 'the gate cannot decide: 2 benchmark(s) have too few pairs of runs (exit 3)' -- --threshold=5 "$tmp/o1.json,$tmp/o2.json,$tmp/o3.json" "$tmp/n1.json,$tmp/n2.json,$tmp/n3.json"
expect 3 'too few samples to tell' -- --threshold=5 "$tmp/o1.json" "$tmp/n1.json"
# ... but a regression found is a decision, and without --threshold the
# table is a report only.
expect 0 'at least 6 a side are needed' -- "$tmp/o1.json,$tmp/o2.json,$tmp/o3.json" "$tmp/n1.json,$tmp/n2.json,$tmp/n3.json"

# Bad input.
expect 2 'two sides expected' -- "$old"
expect 2 'more than two sides given' -- "$old" "$new" "$new"
expect 2 'unknown option --frobnicate' -- --frobnicate "$old" "$new"
expect 2 '--alpha=2: a number in (0, 1)' -- --alpha=2 "$old" "$new"
expect 2 '--threshold=-3' -- --threshold=-3 "$old" "$new"
expect 2 'not a valid regular expression' -- --filter='(' "$old" "$new"
expect 2 "nope.json: cannot open" -- "$old" "$tmp/nope.json"
expect 2 'no benchmark in common' -- "$old" "$gb"
head -c 300 "$old" >"$tmp/truncated.json"
expect 2 "truncated.json: line [0-9]*, column [0-9]*: \(unexpected end of input\|unterminated string\)" -- "$old" "$tmp/truncated.json"
printf '{"benchmarks": [{"name": "a\377", "real_time": 1}]}' >"$tmp/latin1.json"
expect 2 'latin1.json: line 1, column 28: invalid UTF-8' -- "$tmp/latin1.json" "$old"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >"$tmp/deep.json"
expect 2 'deep.json: line 1, column 66: nested deeper than 64 levels' -- "$tmp/deep.json" "$old"
printf '{"benchmarks": [{"name": "chain 1000", "real_time": 1e400}]}' >"$tmp/huge.json"
expect 2 'huge.json: .*number out of range' -- "$old" "$tmp/huge.json"
printf '{"benchmarks": [{"name": "chain 1000", "real_time": [1]}]}' >"$tmp/type.json"
expect 2 'type.json: benchmarks\[0\].real_time is not a number' -- "$old" "$tmp/type.json"
printf '{"benchmarks": [{"name": "chain 1000", "real_time": -5}]}' >"$tmp/neg.json"
expect 2 'neg.json: benchmarks\[0\].real_time is negative' -- "$old" "$tmp/neg.json"
printf '{"benchmarks": [{"name": "x", "real_time": 1}, {"name": "x", "real_time": 1}]}' >"$tmp/dup.json"
expect 2 'dup.json: benchmarks\[1\]: duplicate benchmark name "x"' -- "$tmp/dup.json" "$old"
expect 2 'cannot open "/nonexistent/dir/x.svg" for writing' -- --svg=/nonexistent/dir/x.svg "$old" "$new"
expect 2 'writing "/dev/full" failed' -- --svg=/dev/full "$old" "$new"
# The table itself lost (stdout on a full disk): not a silent pass.
if [ -w /dev/full ]; then
    "$tool" "$old" "$new" >/dev/full 2>"$tmp/err"; got=$?
    if [ "$got" != 2 ] || ! grep -q 'cannot write the report' "$tmp/err"; then
        bad "prof-compare >/dev/full: exit $got (want 2), stderr:"; cat "$tmp/err"
    else
        ok "exit 2: >/dev/full"
    fi
fi

check_done prof-compare
