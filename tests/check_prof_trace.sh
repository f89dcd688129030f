#!/bin/sh
# prof-trace, the command: its reports of a real trace (the JSON checked
# against the Chrome Trace Event format with python3 where installed, and
# nesting exactly in decimal in both JSON modes, for the real trace and for
# one made to round badly), stdin input, a cut file, both spellings of an
# option's value, --help and --version, and every bad input or output: a
# missing file, a file that is not a trace, an unwritable output,
# /dev/full, bad usage. Each gives a clear message and the documented exit
# status.
# Usage: check_prof_trace.sh PROF-TRACE TRACE-FILE [VERSION]
set -u
pt=$1 trace=$2 version=${3:-}
here=$(dirname "$0")
. "$(dirname "$0")/check_lib.sh"
# expect STATUS PATTERN-IN-STDERR LABEL -- command...
expect() {
    st=$1 pat=$2 label=$3; shift 4
    "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
    if [ "$got" -ne "$st" ]; then bad "$label: status $got, not $st"; cat "$tmp/err"
    elif [ -n "$pat" ] && ! grep -q "$pat" "$tmp/err"; then bad "$label: no '$pat' on stderr"; cat "$tmp/err"
    else ok "$label"; fi
}

expect 0 "" "text summary" -- "$pt" "$trace"
grep -q '^u  *2000 ' "$tmp/out" && ok "summary: 2000 steps" || { bad "summary: no 2000-call row"; cat "$tmp/out"; }
head -1 "$tmp/out" | grep -q '^2401 zones in 3 threads, 4802 events, [0-9.e-]* s traced ([0-9.e+]* ticks/s)$' \
    && ok "summary: first line" || { bad "summary: first line"; head -1 "$tmp/out"; }
[ -s "$tmp/err" ] && bad "warnings on a clean trace: $(cat "$tmp/err")"
# --alloc on a trace without allocations: empty tables (the UBSan build
# aborted on the qsort of no rows, a null pointer)
expect 0 "" "--alloc, no allocations" -- "$pt" --alloc "$trace"
grep -q '^0 allocation records' "$tmp/out" && grep -q '^(none)$' "$tmp/out" \
    && ok "--alloc: no allocations said" || { bad "--alloc: no allocations"; cat "$tmp/out"; }
expect 0 "" "csv" -- "$pt" --csv -o "$tmp/s.csv" "$trace"
head -1 "$tmp/s.csv" | grep -q '^kind,name,calls,total_ns,avg_ns,min_ns,max_ns,self_ns,unmatched$' \
    && grep -q '^u,step,2000,' "$tmp/s.csv" && ok "csv content" || { bad "csv content"; cat "$tmp/s.csv"; }
expect 0 "" "json" -- "$pt" --json -o "$tmp/t.json" "$trace"
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$tmp/t.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))
assert isinstance(ev, list), "not an array"
names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
assert {"worker-1", "worker-2"} <= names, names
x = [e for e in ev if e["ph"] == "X"]
assert len(x) == 2 * (100 + 100 + 1000) + 1, len(x)
for e in x:
    assert e["ts"] >= 0 and e["dur"] >= 0 and isinstance(e["tid"], int), e
    assert e["cat"] in ("zone", "function"), e
steps = [e for e in x if e["name"] == "step"]
assert len(steps) == 2000
print("json: %d events, threads %s" % (len(ev), sorted(names)))
PY
    then ok "json is Chrome Trace Event JSON"; else bad "json check"; fi
    python3 "$here/make_nested_trace.py" "$tmp/nested.ptrace"
    for t in "$trace" "$tmp/nested.ptrace"; do
        for m in x be; do
            f=json; [ $m = be ] && f=json-be
            if "$pt" --$f -o "$tmp/n.json" "$t" && python3 "$here/check_trace_nesting.py" $m "$tmp/n.json"
            then ok "$f of $(basename "$t"): strictly nested"; else bad "$f of $t: nesting"; fi
        done
    done
else
    echo "skip json check: python3 not installed"
    [ "${CI:-}" != true ] || bad "python3 missing in CI"
fi
expect 0 "" "stdin" -- sh -c "\"$pt\" --csv - <\"$trace\""
grep -q '^u,step,2000,' "$tmp/out" || bad "stdin: no step row"

size=$(wc -c <"$trace")
head -c $((size - 100)) "$trace" >"$tmp/cut.ptrace"
expect 0 "the file is cut" "cut file: warned, rest used" -- "$pt" "$tmp/cut.ptrace"
grep -q 'step' "$tmp/out" || bad "cut file: no zones"

# cut inside a chunk, as a regular file (once a SIGSEGV) and through a pipe
for n in 5000 20000 29000 $((size - 1000)); do
    head -c $n "$trace" >"$tmp/cut$n.ptrace"
    expect 0 "the file is cut" "cut at $n bytes: a file" -- "$pt" --csv "$tmp/cut$n.ptrace"
    mv "$tmp/out" "$tmp/cut.csv"; mv "$tmp/err" "$tmp/cut.err"
    expect 0 "the file is cut" "cut at $n bytes: a pipe" -- sh -c "cat \"$tmp/cut$n.ptrace\" | \"$pt\" --csv -"
    # (what the first 5000 bytes hold depends on the build: the maps of a
    # sanitizer build fill them)
    cmp -s "$tmp/out" "$tmp/cut.csv" && cmp -s "$tmp/err" "$tmp/cut.err" \
        && ok "cut at $n bytes: file and pipe alike" || { bad "cut at $n bytes: file and pipe differ"; diff "$tmp/cut.csv" "$tmp/out"; diff "$tmp/cut.err" "$tmp/err"; }
done

expect 1 "cannot read" "missing file" -- "$pt" "$tmp/none.ptrace"
printf 'Sf|160806023262000|00001002|main\n' >"$tmp/piyasa.piy"
expect 1 "not a trace file" "not a trace file" -- "$pt" "$tmp/piyasa.piy"
expect 1 "cannot open" "unwritable output" -- "$pt" -o "$tmp/no/dir/x" "$trace"
if [ -w /dev/full ]; then
    expect 1 "writing \"/dev/full\" failed" "output to /dev/full" -- "$pt" --json -o /dev/full "$trace"
fi
expect 2 "prof-trace: no trace file given" "no argument" -- "$pt"
expect 2 "prof-trace: unknown option --bogus" "bad option" -- "$pt" --bogus "$trace"
expect 2 "prof-trace: unknown option -x" "bad short option" -- "$pt" -x "$trace"
expect 2 "one trace file is expected" "two trace files" -- "$pt" "$trace" "$trace"
expect 2 "format=xml: one of text, csv, json, json-be, raw, perfetto, folded, speedscope, alloc, pprof is expected" \
    "bad format" -- "$pt" --format xml "$trace"
expect 2 "needs a value" "-o without a value" -- "$pt" "$trace" -o
expect 2 "needs a value" "--output without a value" -- "$pt" "$trace" --output
expect 2 "takes no value" "a value for a flag" -- "$pt" --csv=yes "$trace"
expect 2 "is the input" "output onto the input" -- "$pt" -o "$trace" "$trace"
expect 0 "" "help" -- "$pt" --help
cp "$tmp/out" "$tmp/help"
# every flag is listed, each with its default in parentheses at the end
for f in --text --csv --json --json-be --raw --perfetto --format=F --min-duration=T \
         --from=T --to=T --name=REGEX --thread=T --depth=N --by-thread --binary=PATH \
         --no-symbols --output=F --help --version; do
    grep -q -- "^  $f " "$tmp/help" || bad "help: no $f"
done
awk '/^  --/ { if (e != "" && e !~ /\)$/ && e !~ /^  --(help|version)/) print e; e = $0; next }
     /^                    / { sub(/^ +/, " "); e = e $0; next }
     { if (e != "" && e !~ /\)$/ && e !~ /^  --(help|version)/) print e; e = "" }' "$tmp/help" >"$tmp/nodefault"
[ -s "$tmp/nodefault" ] && bad "help: options without a default: $(cat "$tmp/nodefault")"
grep -q -- "-o F is --output=F, -h is --help" "$tmp/help" || bad "help: no -o, -h"
expect 0 "" "-h" -- "$pt" -h
cmp -s "$tmp/out" "$tmp/help" || bad "-h is not --help"
expect 0 "" "version" -- "$pt" --version
[ "$(cat "$tmp/out")" = "prof-trace (profiler) $version" ] || bad "version: $(cat "$tmp/out")"
# an option's value as --flag=value or --flag value
"$pt" --format=csv --output="$tmp/a.csv" "$trace" && "$pt" --format csv --output "$tmp/b.csv" "$trace" \
    && "$pt" --csv -o "$tmp/c.csv" "$trace" && cmp -s "$tmp/a.csv" "$tmp/b.csv" \
    && cmp -s "$tmp/a.csv" "$tmp/c.csv" && ok "--flag=value, --flag value, -o value" \
    || bad "option value spellings"
cp "$trace" "$tmp/-dash.ptrace"
(cd "$tmp" && "$pt" --csv -- -dash.ptrace) >"$tmp/out" 2>&1 && grep -q '^u,step,2000,' "$tmp/out" \
    && ok "-- then a file named -dash.ptrace" || bad "--"
# the CSV is valid CSV whatever the names, unmatched zones included
if command -v python3 >/dev/null 2>&1; then
    python3 "$here/check_trace_csv.py" "$pt" "$tmp" && ok "csv: valid with any name" || bad "csv validity"
fi
# --raw: a header, then one line per event
expect 0 "" "raw" -- "$pt" --raw "$trace"
[ "$(head -1 "$tmp/out")" = "$(printf 'thread\ttick\tns\tevent\tkind\tname')" ] \
    && [ "$(grep -c "$(printf '\tbegin\tu\tstep$')" "$tmp/out")" -eq 2000 ] \
    && [ "$(grep -c "$(printf '\tend\tu\tstep$')" "$tmp/out")" -eq 2000 ] \
    && [ "$(($(wc -l <"$tmp/out") - 1))" -eq 4802 ] && ok "raw: 4802 event lines" \
    || { bad "raw"; head -5 "$tmp/out"; }
# --by-thread: the merged table, then one per thread
expect 0 "" "by-thread" -- "$pt" --by-thread "$trace"
[ "$(grep -c '^thread [0-9]* worker-[12]: 2400 events$' "$tmp/out")" -eq 2 ] \
    && [ "$(grep -c '^u  *1000 ' "$tmp/out")" -eq 2 ] && grep -q '^u  *2000 ' "$tmp/out" \
    && ok "by-thread: merged and per thread" || { bad "by-thread"; cat "$tmp/out"; }
# filters: each keeps what it says (and the zones around a kept zone)
expect 0 "" "filter --name, text" -- "$pt" --name '^ste' "$trace"
head -1 "$tmp/out" | grep -q '^2000 zones in 2 threads, 4000 events, .*; the filters dropped 401 of 2401 zones$' \
    && ok "--name: the first line counts what the filter kept" || { bad "--name: first line"; head -1 "$tmp/out"; }
expect 0 "" "filter --thread, by thread" -- "$pt" --by-thread --thread worker-2 "$trace"
head -1 "$tmp/out" | grep -q '^1200 zones in 1 threads, 2400 events, .*; the filters dropped 1201 of 2401 zones$' \
    && [ "$(grep -c '^thread [0-9]* worker-2: 2400 events$' "$tmp/out")" -eq 1 ] \
    && ok "--thread: the first line and the thread's line count what the filter kept" \
    || { bad "--thread: counts"; cat "$tmp/out"; }
expect 0 "" "filter --depth, by thread" -- "$pt" --by-thread --depth=1 "$trace"
[ "$(grep -c '^thread [0-9]* worker-[12]: 200 events$' "$tmp/out")" -eq 2 ] \
    && ok "--depth=1: each thread's line counts the kept events" || { bad "--depth: thread lines"; cat "$tmp/out"; }
expect 0 "" "filter --name" -- "$pt" --csv --name '^ste' "$trace"
[ "$(grep -c '^u,' "$tmp/out")" -eq 1 ] && grep -q '^u,step,2000,' "$tmp/out" \
    && ok "--name keeps step only" || { bad "--name"; cat "$tmp/out"; }
expect 0 "" "filter --thread" -- "$pt" --csv --thread worker-2 "$trace"
grep -q '^u,step,1000,' "$tmp/out" && ! grep -q '^f,main' "$tmp/out" \
    && ok "--thread by name" || { bad "--thread"; cat "$tmp/out"; }
expect 0 "" "filter --depth" -- "$pt" --csv --depth=1 "$trace"
grep -q '^u,round,200,' "$tmp/out" && ! grep -q '^u,work' "$tmp/out" \
    && ok "--depth=1: outermost zones" || { bad "--depth"; cat "$tmp/out"; }
# What --min-duration keeps is counted from the trace's own --raw events
# (a zone's end minus its begin, per thread), never from what the machine
# is expected to take: a preempted round may last over 1 ms under load.
if command -v python3 >/dev/null 2>&1; then
    "$pt" --raw "$trace" >"$tmp/raw.tsv"
    long_zones() { # $1: threshold in ns, or "max"; prints how many zones
                   # last >= it, or the longest zone's ns
        python3 -c '
import sys
stacks, durs = {}, []
for line in open(sys.argv[1]).readlines()[1:]:
    tid, _, ns, ev = line.split("\t")[:4]
    st = stacks.setdefault(tid, [])
    if ev == "begin":
        st.append(int(ns))
    elif st:
        durs.append(int(ns) - st.pop())
print(max(durs) if sys.argv[2] == "max" else sum(d >= int(sys.argv[2]) for d in durs))
' "$tmp/raw.tsv" "$1"
    }
    longest=$(long_zones max)
    for t in 1000000 "$longest"; do # at the longest: >= keeps it
        want=$(long_zones "$t")
        expect 0 "" "filter --min-duration=$t" -- "$pt" --json-be --min-duration="$t" "$trace"
        cp "$tmp/out" "$tmp/min.json"
        python3 "$here/check_trace_nesting.py" be "$tmp/min.json" | grep -q ": $want zones" \
            && ok "--min-duration=$t: the $want zones of the raw events, well formed" \
            || bad "--min-duration=$t: want $want zones"
    done
else
    expect 0 "" "filter --min-duration" -- "$pt" --json-be --min-duration=1ms "$trace"
fi
expect 0 "" "filter --from/--to" -- "$pt" --raw --from 0 --to 0 "$trace"
[ "$(wc -l <"$tmp/out")" -le 3 ] && ok "--from 0 --to 0: at most the zones open at 0" \
    || { bad "--from/--to"; head "$tmp/out"; }
expect 2 "min-duration=-1: a time is expected" "negative duration" -- "$pt" --min-duration=-1 "$trace"
expect 2 "from=3parsecs: a time is expected" "bad unit" -- "$pt" --from=3parsecs "$trace"
# plain decimal numbers only: no hex, exponent, sign, space, inf (strtod takes them)
for v in 0x10 0x1p3ms 1e3 1e3us +5 ' 5' inf nan . 1..2 5ns5 1e999 99999999999s; do
    expect 2 "a time is expected" "--from='$v' refused" -- "$pt" --from="$v" "$trace"
done
for v in 5 5ns 1.5us .5ms 2. 0s 007; do
    expect 0 "" "--from=$v taken" -- "$pt" --from="$v" "$trace"
done
"$pt" --csv --min-duration=1.5ms "$trace" >"$tmp/a.csv" && "$pt" --csv --min-duration=1500000 "$trace" >"$tmp/b.csv" \
    && "$pt" --csv --min-duration=1500us "$trace" >"$tmp/c.csv" && cmp -s "$tmp/a.csv" "$tmp/b.csv" \
    && cmp -s "$tmp/a.csv" "$tmp/c.csv" && ok "1.5ms = 1500us = 1500000 (ns)" || bad "time units"
for v in 0x10 1e2 +3 0 65537 ' 2'; do
    expect 2 "a whole number in 1..65536 is expected" "--depth='$v' refused" -- "$pt" --depth="$v" "$trace"
done
expect 2 "not a regular expression" "bad regex" -- "$pt" --name '(' "$trace"
expect 2 "no thread named nobody" "unknown thread" -- "$pt" --thread nobody "$trace"
expect 2 "no thread with tid" "unknown tid" -- "$pt" --thread 1 "$trace"
expect 2 "^profiler: prof-trace: --thread=99999: no thread with tid 99999 has zones in " \
    "unknown tid: one message" -- "$pt" --thread=99999 "$trace"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { bad "unknown tid: more than one line"; cat "$tmp/err"; }
expect 2 "no thread named 0x10 has zones" "--thread=0x10 is a name" -- "$pt" --thread=0x10 "$trace"
expect 2 "before --from" "window backwards" -- "$pt" --from=2ms --to=1ms "$trace"
expect 2 "no such file" "missing --binary" -- "$pt" --binary="$tmp/none" "$trace"
# --perfetto: a protobuf trace well under the JSON's size
expect 0 "" "perfetto" -- "$pt" --perfetto -o "$tmp/t.pftrace" "$trace"
"$pt" --json -o "$tmp/t.json" "$trace"
[ "$(wc -c <"$tmp/t.pftrace")" -gt 1000 ] \
    && [ "$(($(wc -c <"$tmp/t.pftrace") * 2))" -lt "$(wc -c <"$tmp/t.json")" ] \
    && ok "perfetto: $(wc -c <"$tmp/t.pftrace") bytes vs JSON $(wc -c <"$tmp/t.json")" \
    || bad "perfetto size"
# --folded: one line per path, 'thread;a;b NS', the self times adding up to
# the summary's (each line rounded once: within a ns a line); the filters
# keep the time, a dropped zone's going to its kept parent or its thread
expect 0 "" "folded" -- "$pt" --folded -o "$tmp/f.txt" "$trace"
sum_self=$("$pt" --csv "$trace" | awk -F, 'NR > 1 { s += $8 } END { print s }')
if grep -qv '^[^;]*\(;[^;]*\)* [0-9][0-9]*$' "$tmp/f.txt"; then bad "folded: a line not 'a;b NS'"; head "$tmp/f.txt"
elif grep -q '^worker-1;round;work;step [0-9]*$' "$tmp/f.txt" \
    && awk -v want="$sum_self" '{ s += $NF; n++ } END { d = s - want; exit !(d <= n && -d <= n) }' "$tmp/f.txt"
then ok "folded: the paths, their self times the summary's"
else bad "folded: sum or paths (summary self: $sum_self)"; cat "$tmp/f.txt"; fi
for flt in "--depth=2" "--name=^ste" "--thread=worker-1"; do
    "$pt" --folded "$flt" "$trace" >"$tmp/ff.txt" 2>"$tmp/err"
    keep=.; [ "$flt" = "--thread=worker-1" ] && keep='^worker-1[; ]'
    want=$(grep "$keep" "$tmp/f.txt" | awk '{ s += $NF } END { print s }')
    case $flt in
    --depth=2) grep -q ';.*;.*;' "$tmp/ff.txt" && bad "folded $flt: a path 3 deep" ;;
    --name=*) grep -q ';round' "$tmp/ff.txt" && bad "folded $flt: a dropped frame" ;;
    --thread=*) grep -qv '^worker-1' "$tmp/ff.txt" && bad "folded $flt: another thread" ;;
    esac
    awk -v want="$want" '{ s += $NF; n++ } END { d = s - want; exit !(d <= n + 3 && -d <= n + 3) }' "$tmp/ff.txt" \
        && ok "folded $flt: the time kept" || { bad "folded $flt: $want ns wanted"; cat "$tmp/ff.txt"; }
done
check_done prof-trace
