#!/bin/sh
# prof-run on tiny commands (tests/run_child.c: count, spin, print, exit,
# sleep): what runs, in which order and how often (each run appends a line
# to a file), the options and their bad values (exit 2, nothing started),
# a failing command, parameters, the exports read back (python3 when
# installed), the runner's JSON read by prof-compare and compare.py,
# the child's event counts, output dropped, FIFOs as --input and --output,
# Ctrl-C (partial results printed and written, the child ended, exit by
# the signal), and the progress bar at a terminal only. Nothing here
# depends on the machine's speed: figures are checked for their form and
# with generous bounds, never against each other.
# Usage: check_run.sh PROF_RUN RUN_CHILD PROF_COMPARE
set -u
tool=$1 child=$2 compare=$3
. "$(dirname "$0")/check_lib.sh"
cd "$tmp" || exit 1
# expect CODE PATTERN ARGS...: exit status and a pattern in stdout+stderr
expect() {
    code=$1 pattern=$2; shift 2
    "$tool" "$@" >out 2>&1; got=$?
    if [ "$got" != "$code" ] || ! grep -q -e "$pattern" out; then
        bad "prof-run $*: exit $got (want $code), output:"; cat out
        echo "  (wanted pattern: $pattern)"
    else
        ok "exit $code: $*"
    fi
}
lines() { if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo 0; fi; }
have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

# ---- help, version, bad input: exit 2 and nothing started ----------------
expect 0 'parameter-scan NAME LO HI' --help
expect 0 'usage: prof-run' -h
expect 0 'prof-run (profiler) ' --version
c="$child count started"
expect 2 'no command given' --runs=3
expect 2 '--runs=0: a whole number from 1' --runs=0 "$c"
expect 2 '--runs=x: a whole number' --runs x "$c"
expect 2 '--warmup=-1: a whole number from 0' --warmup=-1 "$c"
expect 2 '--min-runs=5 is above --max-runs=3' --min-runs=5 --max-runs=3 "$c"
expect 2 '--runs goes alone' --runs=3 --min-runs=2 "$c"
expect 2 'LO is above HI' --parameter-scan n 5 1 "$c {n}"
expect 2 '--parameter-scan=a: a number' --parameter-scan n a 3 "$c {n}"
expect 2 'whole numbers are expected' --parameter-scan n 1.5 3 "$c {n}"
expect 2 '--parameter-scan needs 3 values' "$c" --parameter-scan n 1
expect 2 '--parameter-step=0: a number > 0' --parameter-scan n 1 3 --parameter-step=0 "$c {n}"
expect 2 '--parameter-step goes with --parameter-scan' --parameter-step=1 "$c"
expect 2 'no command has it as {NAME}' --parameter-list x a,b "$c"
expect 2 '--parameter-list x: no value' --parameter-list x '' "$c {x}"
expect 2 'parameter "x": is given twice' --parameter-list x a,b --parameter-list x c,d "$c {x}"
expect 2 '2 --prepare commands given for 3' --prepare=true --prepare=true "$c" "$c" "$c"
expect 2 'unknown option -x' -x "$c"
expect 2 'unknown option --frobnicate' --frobnicate "$c"
expect 2 '--format=xml: one of md|csv|json' --format=xml "$c"
expect 2 '--threshold compares commands with the first' --threshold=5 "$c"
expect 2 'nonexistent_prog_xyz not found (--shell=none' --shell=none "$c" 'nonexistent_prog_xyz 1'
expect 2 'nonexistent_prog_xyz not found by the shell' "$c" 'nonexistent_prog_xyz --flag'
expect 2 'the prepare command "nonexistent_prog_xyz": nonexistent_prog_xyz not found' \
    --prepare=nonexistent_prog_xyz "$c"
expect 2 '--shell: nonexistent_shell_xyz not found' --shell=nonexistent_shell_xyz "$c"
expect 2 'a quote is not closed' --shell=none "$c 'x"
expect 2 '/nonexistent/dir/x.json' --export-json=/nonexistent/dir/x.json "$c"
expect 2 'name the same file' --export-json=same.json --export-csv=./same.json "$c"
expect 2 'which a command names: refused' --export-csv="$child" "$c"
[ ! -e started ] || bad "a command ran although the options were refused"
[ -z "$(ls -A | grep -v -e '^out$')" ] || bad "files left: $(ls -A)"

# ---- what runs, how often, in which order --------------------------------
expect 0 'Benchmark 1: ' --shell=none --runs=3 --warmup=2 "$child count a"
[ "$(lines a)" = 5 ] || bad "--runs=3 --warmup=2: $(lines a) runs, want 5"
rm -f a
expect 0 'Range (min' --runs=2 "$child count a"
[ "$(lines a)" = 2 ] || bad "through the shell: $(lines a) runs, want 2"
# alternating: A B, B A, A B; --no-interleave: A A A B B B
rm -f order
"$tool" --runs=3 --prepare="echo p >>order" "echo A >>order" "echo B >>order" >/dev/null 2>&1
[ "$(tr '\n' ' ' <order)" = "p A p B p B p A p A p B " ] \
    || bad "alternating order with prepare: $(tr '\n' ' ' <order)"
rm -f order
"$tool" --runs=3 --no-interleave --cleanup="echo c >>order" \
    "echo A >>order" "echo B >>order" >/dev/null 2>&1
[ "$(tr '\n' ' ' <order)" = "A A A c B B B c " ] \
    || bad "--no-interleave with cleanup: $(tr '\n' ' ' <order)"
rm -f order
"$tool" --runs=2 --cleanup="echo c1 >>order" --cleanup="echo c2 >>order" \
    "echo A >>order" "echo B >>order" >/dev/null 2>&1
[ "$(tr '\n' ' ' <order)" = "A B B c2 A c1 " ] \
    || bad "a cleanup per command: $(tr '\n' ' ' <order)"
# the stop rule: --max-runs alone caps the default 10; the 3 s rule
rm -f a
expect 0 '3 runs' --max-runs=3 "$child count a"
[ "$(lines a)" = 3 ] || bad "--max-runs=3: $(lines a) runs"
# past --min-runs=2, runs of 0.4 s until they sum to 3 s, and not one more
# (about 8; fewer when a loaded machine makes each longer: the sums tell)
rm -f a
expect 0 'runs' --min-runs=2 --shell=none --export-json=stop.json "$child count a sleep 400"
n=$(lines a)
sums=$(tr -d ' \n' <stop.json | sed -n 's/.*"times":\[\([^]]*\)\].*/\1/p' \
       | awk -F, '{ for (i = 1; i <= NF; i++) s += $i; print NF, s, s - $NF }')
echo "$n $sums" | awk '{ exit !($1 == $2 && $1 >= 2 && $1 <= 9 && $3 >= 3 \
                                 && ($1 == 2 || $4 < 3)) }' \
    || bad "--min-runs=2 and 3 s of 0.4 s runs: $n runs (runs, seconds, all but the last: $sums)"
rm -f a

# ---- failures ---------------------------------------------------------------
expect 2 'the command (run 1) failed (exit status 3)' --runs=3 "$child exit 3"
grep -q -e '--ignore-failure times it anyway' out || bad "no advice on a failure"
expect 2 'the prepare command of .* failed (exit status 1)' --runs=3 \
    --prepare=false "$child count a"
expect 0 '3 runs' --runs=3 --ignore-failure --export-json=fail.json "$child exit 3"
grep -q '"exit_codes": \[3, 3, 3\]' fail.json || bad "exit_codes: $(grep exit_codes fail.json)"
expect 0 '2 runs' --runs=2 --ignore-failure --shell=none --export-json=killed.json \
    "sh -c 'kill -9 \$\$'"
# hyperfine's 128 + the signal (SIGKILL: 9)
grep -q '"exit_codes": \[137, 137\]' killed.json || bad "a killed run's exit code: $(grep exit_codes killed.json)"
grep -q 'Warning: 2 of 2 runs failed (exit code 137' out || { bad "--ignore-failure: the failures not said"; cat out; }
# a failure after some runs: the runs so far are kept, marked partial
rm -f a
"$tool" --runs=5 --export-json=part.json "$child count a" \
    "test \$(wc -l <a) -lt 5" >out 2>&1; got=$?
[ "$got" = 2 ] || bad "a failure on a later run: exit $got"
grep -q '"partial": true' part.json || bad "a failure: not marked partial"
# rounds A B, B A, ...: the fifth run of B sees a's five lines
grep -q 'the command (run 5) failed (exit status 1)' out || { bad "run 5 named"; cat out; }

# ---- parameters ----------------------------------------------------------------
expect 0 'Benchmark 3: .*count f3' --runs=1 --parameter-scan n 1 3 "$child count f{n}"
for i in 1 2 3; do [ "$(lines f$i)" = 1 ] || bad "--parameter-scan: f$i"; done
expect 0 'Benchmark 3: echo 0.3' --runs=1 --parameter-scan d 0.1 0.3 --parameter-step 0.1 'echo {d}'
expect 0 'Benchmark 4: echo b y' --runs=1 --parameter-list a a,b --parameter-list=b x,y 'echo {a} {b}'
# hyperfine's order: the first list varies fastest (after the commands)
grep -q 'Benchmark 2: echo b x' out || { bad "the order of -L combinations"; cat out; }
rm -f order
"$tool" --runs=2 --parameter-list n a,b --prepare='echo {n} >>order' 'echo x{n} >>order' >/dev/null 2>&1
[ "$(tr '\n' ' ' <order)" = "a xa b xb b xb a xa " ] \
    || bad "a parameter in the prepare command: $(tr '\n' ' ' <order)"
expect 0 'Benchmark 2: two' --runs=1 --command-name=one --command-name=two true 'echo x'
expect 0 'Benchmark 2: run x' --runs=1 --parameter-list p w,x --command-name='run {p}' 'echo {p}'
# --setup once before a command's runs, --conclude after each run;
# hyperfine's short options (-N, -r, -w, -s, -p, -C, -c, -L, -n)
rm -f order
"$tool" -r 2 -w 1 -s 'echo s{n} >>order' -p 'echo p >>order' -C 'echo q >>order' \
    -c 'echo c >>order' -L n 1,2 --no-interleave -n 'x{n}' 'echo A{n} >>order' >out 2>&1 \
    || { bad "short options"; cat out; }
[ "$(tr '\n' ' ' <order)" = "s1 p A1 q p A1 q p A1 q c s2 p A2 q p A2 q p A2 q c " ] \
    || bad "--setup, --conclude, short options: $(tr '\n' ' ' <order)"
grep -q 'Benchmark 2: x2' out || { bad "-n"; cat out; }
expect 0 'Benchmark 2: echo 2' -N -r 1 -P n 1 2 'echo {n}'
expect 0 '2 runs' -N -r 2 -u second true
grep -q '\[User: [0-9.]* s, System' out || { bad "-u second"; cat out; }

# ---- exports -------------------------------------------------------------------
# --shell=none: with a shell, its cost is measured apart and subtracted;
# on a loaded machine that estimate can exceed a 1 ms command's whole run,
# which then reads 0 (said under the row: "under 5 ms"); what is checked
# below is the exports' fields and figures, so the runs are the command's
expect 0 'faster than' --runs=7 --shell=none --export-json=h.json --export-markdown=h.md \
    --export-csv=h.csv --out=gb.json --parameter-list ms 1,5 "$child sleep {ms}"
head -n 2 h.md | grep -q '^| Command | Mean \[[mµ]*s\] | Min \[[mµ]*s\] | Max \[[mµ]*s\] | Relative |$' \
    || { bad "markdown export"; cat h.md; }
# the fastest's row says 1.00, the other its ratio (which is which is the
# machine's business)
[ "$(grep -c '^| `.*run_child sleep [15]` | [0-9.]* ± [0-9.]* | [0-9.]* | [0-9.]* | 1.00 |$' h.md)" = 1 ] \
    && [ "$(grep -c '^| `.*run_child sleep [15]` | .* | [0-9.]* ± [0-9.]* |$' h.md)" = 1 ] \
    || { bad "markdown: the rows"; cat h.md; }
head -n 1 h.csv | grep -q '^command,mean,stddev,median,user,system,min,max,parameter_ms$' \
    || { bad "csv export"; cat h.csv; }
[ "$(wc -l <h.csv)" = 3 ] || bad "csv: $(wc -l <h.csv) lines"
if [ "$have_python" = 1 ]; then
    python3 - h.json gb.json <<'EOF' || bad "the JSON exports (above)"
import json, sys
h = json.load(open(sys.argv[1]))
assert not h["partial"], h
assert len(h["results"]) == 2
for r, ms in zip(h["results"], ("1", "5")):
    for k in ("command", "mean", "stddev", "median", "user", "system", "min",
              "max", "times", "exit_codes", "parameters", "median_ci_low",
              "median_ci_high", "peak_rss_kb"):
        assert k in r, k
    assert r["parameters"] == {"ms": ms}, r["parameters"]
    assert len(r["times"]) == 7 and r["exit_codes"] == [0] * 7
    t = sorted(r["times"])
    near = lambda a, b: abs(a - b) <= 1e-12 + 1e-9 * abs(b)
    assert near(t[0], r["min"]) and near(t[-1], r["max"]) and near(t[3], r["median"])
    assert r["min"] <= r["median_ci_low"] <= r["median"] <= r["median_ci_high"] <= r["max"]
    assert 0.0005 < r["median"] < 20, r["median"]       # seconds
g = json.load(open(sys.argv[2]))
its = [b for b in g["benchmarks"] if b["run_type"] == "iteration"]
assert len(its) == 14 and all(b["iterations"] == 1 for b in its)
# no throughput (conbench reads items_per_second as one); the percentiles
assert not any("items_per_second" in b for b in g["benchmarks"])
assert [b["aggregate_name"] for b in g["benchmarks"] if b["run_name"] ==
        h["results"][0]["command"] and b["run_type"] == "aggregate"][-3:] \
    == ["p10", "p50", "p90"]
med = [b for b in g["benchmarks"] if b.get("aggregate_name") == "median"]
assert [b["run_name"] for b in med] == [r["command"] for r in h["results"]]
unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[its[0]["time_unit"]]
for r in h["results"]:
    mine = sorted(b["real_time"] * unit for b in its if b["run_name"] == r["command"])
    assert all(abs(a - b) <= 1e-9 * max(1.0, b) for a, b in zip(mine, sorted(r["times"]))), (mine, r["times"])
print("ok   JSON exports: hyperfine's fields, the runner's iterations")
EOF
fi
# a command line that is not UTF-8: the JSON exports still are
if [ "$have_python" = 1 ]; then
    "$tool" --runs=1 --export-json=bytes.json --out=bytes-gb.json \
        "$(printf 'echo \377')" >out 2>&1 || { bad "a command of bytes"; cat out; }
    python3 - bytes.json bytes-gb.json <<'EOF' || bad "JSON of a command that is not UTF-8 (above)"
import json, sys
h = json.load(open(sys.argv[1], encoding="utf-8"))
assert h["results"][0]["command"] == "echo \ufffd", h["results"][0]["command"]
json.load(open(sys.argv[2], encoding="utf-8"))
print("ok   JSON exports of a command that is not UTF-8")
EOF
fi
# prof-compare reads the runner's JSON: one command a side
expect 0 'Benchmark 1: work' --runs=6 --out=old.json --command-name=work "$child sleep 1"
"$compare" old.json old.json >out 2>&1 || { bad "prof-compare on prof-run's JSON"; cat out; }
grep -q '| work | ' out || { bad "prof-compare: no row"; cat out; } 2>/dev/null
# Google Benchmark's compare.py reads it too (Debian libbenchmark-tools)
cmp=/usr/share/benchmark/compare.py
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if [ -f "$cmp" ] && "$py" -c "import scipy" 2>/dev/null; then
    "$py" "$cmp" benchmarks old.json old.json >cmp.txt 2>&1 \
        && grep -q "U Test, Repetitions: 6 vs 6" cmp.txt \
        && ok "compare.py reads the runner's JSON" \
        || { bad "compare.py on prof-run's JSON"; cat cmp.txt; }
fi
# --out=- : the runner's format on stdout, the figures on stderr
"$tool" --runs=2 --format=csv true >stdout.csv 2>stderr.txt || bad "--format=csv to stdout"
head -n 1 stdout.csv | grep -q '^name,epochs,iterations,median' || { bad "csv on stdout"; cat stdout.csv; }
grep -q 'Benchmark 1: true' stderr.txt || bad "figures not on stderr with the format on stdout"
# an existing file is replaced only by a whole new one
echo keep >kept.json
expect 2 'not found' --export-json=kept.json "$child count a" nonexistent_prog_xyz
[ "$(cat kept.json)" = keep ] || bad "an export replaced although nothing ran"

# ---- event counters of the child ----------------------------------------------
expect 2 'unknown event' --counters=bogus-event "$c"
expect 0 'Counters per run: ' --runs=3 --shell=none --counters=page-faults,task-clock \
    --export-json=ev.json --out=ev-gb.json "$child touch 8"
if [ "$have_python" = 1 ]; then
    python3 - ev.json ev-gb.json <<'EOF' || bad "counters in the exports (above)"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
faults = r["counters"]["page-faults"]
assert len(faults) == 3, faults
# touching 8 MB makes 2048 page faults at least, unless perf is refused
assert all(f is None for f in faults) or all(f >= 2048 for f in faults), faults
g = json.load(open(sys.argv[2]))
its = [b for b in g["benchmarks"] if b["run_type"] == "iteration"]
assert all(f is None for f in faults) or all(b["page-faults"] >= 2048 for b in its)
assert "profiler_counters" in g["context"], g["context"]
print("ok   counters: %s page faults a run" % faults)
EOF
fi

# ---- the gate ------------------------------------------------------------------
expect 3 'the gate cannot decide: 1 command(s) have too few rounds' --runs=3 --threshold=5 \
    "$child sleep 1" "$child sleep 1"
grep -q 'at least 6 are needed' out || { bad "the gate: how many rounds"; cat out; }
expect 3 'too few runs' --runs=3 --no-interleave --threshold=5 "$child sleep 1" "$child sleep 1"

# ---- output ----------------------------------------------------------------------
# 64 MB a run goes to /dev/null, not here, and the runs end
expect 0 '2 runs' --runs=2 --shell=none "$child print 64"
[ "$(wc -c <out)" -lt 20000 ] || bad "the output was not dropped: $(wc -c <out) bytes"
expect 0 'visible-output' --runs=1 --show-output 'echo visible-output'
# hyperfine's order: the heading, then the command's output
[ "$(grep -n 'Benchmark 1:' out | head -n 1 | cut -d: -f1)" -lt "$(grep -n '^visible-output' out | cut -d: -f1)" ] \
    || { bad "--show-output: the heading after the output"; cat out; }
# --input, --output (stdout to a file), --style=none (no figures)
echo from-input >in.txt
"$tool" --runs=1 --input=in.txt --output=got.txt --style=none cat >out 2>&1 \
    || { bad "--input, --output, --style=none"; cat out; }
[ "$(cat got.txt)" = from-input ] || bad "--input, --output: $(cat got.txt)"
[ ! -s out ] || { bad "--style=none printed"; cat out; }
expect 2 '--output=pipe is not taken' --output=pipe true
# a FIFO as --input with no writer, as --output with no reader: the
# command's file is never a blocking open (it held the child before its
# exec, where no signal reached it): an empty stdin; no reader refused
mkfifo in.fifo out.fifo
timeout -k 5 30 "$tool" --runs=2 --input=in.fifo --style=none cat >out 2>&1; got=$?
[ "$got" = 0 ] && ok "--input=FIFO without a writer: an empty stdin" \
    || { bad "--input=FIFO without a writer: exit $got"; cat out; }
timeout -k 5 30 "$tool" --runs=2 --output=out.fifo --style=none true >out 2>&1; got=$?
[ "$got" != 0 ] && [ "$got" != 124 ] && [ "$got" != 137 ] && grep -q 'No such device' out \
    && ok "--output=FIFO without a reader: refused" \
    || { bad "--output=FIFO without a reader: exit $got"; cat out; }
rm -f in.fifo out.fifo
expect 2 '--input=nonexistent.txt cannot be read' --input=nonexistent.txt true
# stderr is empty when it is not a terminal (no progress bar)
"$tool" --runs=2 true >/dev/null 2>err.txt || bad "true failed"
[ ! -s err.txt ] || { bad "stderr not empty:"; cat err.txt; }
"$tool" --runs=3 --progress=always 'sleep 0.1' >/dev/null 2>err.txt
grep -q 'runs, ETA 0:0' err.txt || { bad "--progress=always: no bar"; cat -v err.txt; }
if command -v script >/dev/null 2>&1; then
    script -qec "\"$tool\" --runs=3 'sleep 0.1'" /dev/null >tty.txt 2>&1
    grep -q 'ETA' tty.txt && ok "progress bar at a terminal" \
        || { bad "no progress bar at a terminal:"; cat -v tty.txt; }
fi

# ---- Ctrl-C: the child ends, the partial results are printed and written -----
rm -f a mark
"$tool" --runs=5 --export-json=int.json "$child count a" "$child mark mark sleep 60000" \
    >int.out 2>int.err &
pid=$!
i=0; while [ ! -s mark ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid; wait $pid; got=$?
[ "$got" = 130 ] || { bad "Ctrl-C: exit $got, want 130 (SIGINT)"; cat int.err; }
grep -q 'interrupted (signal 2)' int.err || { bad "Ctrl-C: no message"; cat int.err; }
grep -q 'Warning: partial' int.out || { bad "Ctrl-C: no partial results printed"; cat int.out; }
grep -q '"partial": true' int.json || { bad "Ctrl-C: the export is not marked partial"; cat int.json; }
if [ -s mark ] && kill -0 "$(cat mark)" 2>/dev/null; then
    bad "Ctrl-C: the child still runs"; kill -9 "$(cat mark)"
fi

# Ctrl-C before the runs (a shell that marks and sleeps in the checks):
# prof-run ends by it at once, nothing written
rm -f mark
"$tool" --runs=2 --export-json=early.json \
    --shell='sh -c ": >mark; sleep 60; exec sh \"\$@\"" sh' true >early.out 2>&1 &
pid=$!
i=0; while [ ! -e mark ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $pid; wait $pid; got=$?
[ "$got" = 130 ] || { bad "Ctrl-C in the checks: exit $got, want 130"; cat early.out; }
grep -q 'interrupted (signal 2) before any run' early.out || { bad "Ctrl-C in the checks: no message"; cat early.out; }
[ ! -e early.json ] || bad "Ctrl-C in the checks: a file was written"

check_done check_run
