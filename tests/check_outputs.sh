#!/bin/sh
# The data-loss matrix of doc/outputs.md: every file the tools
# write through src/core/outfile.c (a benchmark program's --out, prof-trace
# -o, prof-trace record -o where perf events are allowed, prof-compare
# --svg, prof-run --export-json), against each error path:
# a read-only target (refused for a user who could not write it; root keeps
# its mode), a replaced file's mode, a symbolic link (written through), a
# FIFO (written once, directly), stdin as the input, a signal mid-write, a
# full disk (/dev/full: one message), a missing directory. No temporary
# file is ever left behind. record -o's own rows (a file the command names,
# a command not found, bad arguments) are below; its signals are
# check_record_signals.sh's.
# The recorder's trace file (its own column): a FIFO with a reader is
# written as events come, never waited on.
# Usage: check_outputs.sh BENCH PROF-TRACE PROF-COMPARE PROF-RUN TRACE DATA
#        TRACE-THREADS
set -u
bench=$1 pt=$2 pc=$3 pr=$4 trace=$5 data=$6 tt=$7
. "$(dirname "$0")/check_lib.sh"
chmod 755 "$tmp"
cp "$data/ours-old.json" "$tmp/old.json"; cp "$data/ours-new.json" "$tmp/new.json"
cp "$trace" "$tmp/in.ptrace"
chmod 644 "$tmp/old.json" "$tmp/new.json" "$tmp/in.ptrace"
d=$tmp/w; mkdir "$d"; chmod 777 "$d"

# write TOOL FILE [AS...]: TOOL writes FILE (AS: a command put before, as
# setpriv); its status, stderr in $tmp/err
write() {
    tool=$1 f=$2; shift 2
    case $tool in
    bench) "$@" "$bench" --out="$f" --format=none --filter='chain 100$' --budget=0.05 ;;
    trace) "$@" "$pt" -o "$f" "$tmp/in.ptrace" ;;
    record) "$@" "$pt" record -o "$f" -- true ;;
    compare) "$@" "$pc" --svg="$f" "$tmp/old.json" "$tmp/new.json" ;;
    run) "$@" "$pr" --runs=2 --shell=none --export-json="$f" true ;;
    esac >/dev/null 2>"$tmp/err"
}
# whole TOOL FILE: FILE holds a complete output of TOOL
whole() {
    case $1 in
    bench|run) grep -q '"benchmarks"\|"results"' "$2" ;;
    trace) grep -q 'zones in 3 threads' "$2" ;;
    record) [ "$(head -c 8 "$2")" = PTRACE01 ] && "$pt" "$2" >/dev/null 2>"$tmp/read" \
            && ! grep -q 'no end record' "$tmp/read" ;;
    compare) tail -n 1 "$2" | grep -q '</svg>' ;;
    esac
}
no_temporary() {
    if ls -a "$d" | grep -q '\.tmp$'; then bad "$1: a temporary file was left: $(ls -a "$d")"; rm -f "$d"/.*.tmp; fi
}
mode_of() { stat -c %a "$1"; }
# prof-trace record's column where perf events are allowed
record=record
"$pt" record -o "$tmp/probe.ptrace" -- true 2>"$tmp/err" \
    || { echo "skip record: $(cat "$tmp/err")"; record=; }

for w in bench trace $record compare run; do
    # a read-only target: refused for a user who could not write it
    echo KEEP >"$d/ro"; chmod 444 "$d/ro"
    if [ "$(id -u)" != 0 ]; then
        write $w "$d/ro"; st=$?
    elif command -v setpriv >/dev/null 2>&1; then
        write $w "$d/ro" setpriv --reuid=65534 --regid=65534 --clear-groups; st=$?
    else
        st=skip
    fi
    if [ "$st" = skip ]; then echo "skip $w: read-only target (root, no setpriv)"
    elif [ "$st" != 0 ] && [ "$(cat "$d/ro")" = KEEP ] && grep -q 'Permission denied' "$tmp/err"; then
        ok "$w: read-only target refused"
    else bad "$w: read-only target: status $st, now $(head -c 40 "$d/ro")"; cat "$tmp/err"; fi
    # root may write it (as the shell's > would): replaced, still 444
    if [ "$(id -u)" = 0 ]; then
        write $w "$d/ro"; st=$?
        if [ "$st" = 0 ] && whole $w "$d/ro" && [ "$(mode_of "$d/ro")" = 444 ]; then
            ok "$w: read-only target written by root, mode kept"
        else bad "$w: read-only target as root: status $st, mode $(mode_of "$d/ro")"; cat "$tmp/err"; fi
    fi
    rm -f "$d/ro"
    # a replaced file keeps its mode
    echo KEEP >"$d/m"; chmod 600 "$d/m"
    write $w "$d/m"; st=$?
    if [ "$st" = 0 ] && whole $w "$d/m" && [ "$(mode_of "$d/m")" = 600 ]; then
        ok "$w: mode of a replaced file kept"
    else bad "$w: replaced file: status $st, mode $(mode_of "$d/m")"; cat "$tmp/err"; fi
    rm -f "$d/m"
    # a symbolic link: written through, the link stays
    mkdir -p "$d/real"; echo KEEP >"$d/real/t"; ln -s real/t "$d/link"
    write $w "$d/link"; st=$?
    if [ "$st" = 0 ] && [ -L "$d/link" ] && whole $w "$d/real/t"; then
        ok "$w: a symbolic link written through"
    else bad "$w: symbolic link: status $st, $(ls -l "$d/link")"; cat "$tmp/err"; fi
    if ls -a "$d/real" | grep -q '\.tmp$'; then bad "$w: a temporary file left beside the link's target"; fi
    rm -rf "$d/link" "$d/real"
    # a link to a file not there yet: made where it points
    mkdir -p "$d/real"; ln -s real/new "$d/link"
    write $w "$d/link"; st=$?
    if [ "$st" = 0 ] && [ -L "$d/link" ] && whole $w "$d/real/new"; then
        ok "$w: a dangling link: its target made"
    else bad "$w: dangling link: status $st"; cat "$tmp/err"; fi
    rm -rf "$d/link" "$d/real"
    # a FIFO: written directly, once (no probe that would end its reader)
    mkfifo "$d/fifo"
    timeout 60 cat "$d/fifo" >"$tmp/got" & reader=$!
    write $w "$d/fifo" timeout 60; st=$?
    wait $reader
    if [ "$st" = 0 ] && whole $w "$tmp/got" && [ -p "$d/fifo" ]; then
        ok "$w: a FIFO written once"
    else bad "$w: FIFO: status $st, the reader got $(wc -c <"$tmp/got") bytes"; cat "$tmp/err"; fi
    rm -f "$d/fifo"
    no_temporary "$w"
done

# a full disk (/dev/full): the status says so, one message each
if [ -w /dev/full ]; then
    for w in bench trace $record compare run; do
        write $w /dev/full; st=$?
        n=$(grep -c 'writing "/dev/full" failed' "$tmp/err")
        if [ "$st" != 0 ] && [ "$n" = 1 ]; then ok "$w: /dev/full: one message"
        else bad "$w: /dev/full: status $st, $n messages"; cat "$tmp/err"; fi
    done
fi
# a missing directory: refused, nothing made
for w in bench trace $record compare run; do
    write $w "$d/no/such/dir/f"; st=$?
    if [ "$st" != 0 ] && [ ! -e "$d/no" ] && grep -q 'cannot open ".*no/such/dir/f"' "$tmp/err"; then
        ok "$w: a missing directory refused"
    else bad "$w: missing directory: status $st"; cat "$tmp/err"; fi
done

# stdin as the input: prof-trace -o F - <F is refused, F kept (the other
# tools read no stdin: the runner and prof-compare take files, prof-run's
# commands get /dev/null)
cp "$trace" "$d/self.ptrace"
"$pt" -o "$d/self.ptrace" - <"$d/self.ptrace" >/dev/null 2>"$tmp/err"; st=$?
if [ "$st" = 2 ] && cmp -s "$trace" "$d/self.ptrace" && grep -q 'is the input' "$tmp/err"; then
    ok "trace: -o F - <F refused, the input whole"
else bad "trace: -o F - <F: status $st"; cat "$tmp/err"; fi
"$pt" -o "$d/other" - <"$d/self.ptrace" >/dev/null 2>"$tmp/err" && whole trace "$d/other" \
    && ok "trace: - <F to another file" || { bad "trace: stdin to another file"; cat "$tmp/err"; }
rm -f "$d/self.ptrace" "$d/other"
no_temporary "stdin"

# record -o: a file the command names is refused (it was truncated before
# the command ran); a command not found, bad arguments: the file kept
if [ -n "$record" ]; then
    printf '#!/bin/sh\nexit 0\n' >"$d/prog"; chmod 755 "$d/prog"; cp "$d/prog" "$tmp/prog.orig"
    (cd "$d" && "$pt" record -o ./prog -- ./prog) >/dev/null 2>"$tmp/err"; st=$?
    if [ "$st" = 2 ] && cmp -s "$d/prog" "$tmp/prog.orig" && grep -q 'which the command names: refused' "$tmp/err"; then
        ok "record: -o ./prog -- ./prog refused, the program whole"
    else bad "record: -o the command: status $st"; cat "$tmp/err"; fi
    cp "$tmp/probe.ptrace" "$d/old.ptrace"
    "$pt" record -o "$d/old.ptrace" -- "$d/no-such-command" >/dev/null 2>"$tmp/err"; st=$?
    if [ "$st" = 127 ] && cmp -s "$d/old.ptrace" "$tmp/probe.ptrace"; then
        ok "record: a command not found, the old trace kept"
    else bad "record: not found: status $st, $(wc -c <"$d/old.ptrace") bytes"; cat "$tmp/err"; fi
    "$pt" record --hz=0x10 -o "$d/old.ptrace" -- true >/dev/null 2>"$tmp/err"; st=$?
    if [ "$st" = 2 ] && cmp -s "$d/old.ptrace" "$tmp/probe.ptrace"; then
        ok "record: bad arguments, the old trace kept"
    else bad "record: bad arguments: status $st"; cat "$tmp/err"; fi
    rm -f "$d/prog" "$d/old.ptrace"
    no_temporary "record"
fi

# a directory as the input: its error named
"$pt" "$d" >/dev/null 2>"$tmp/err"; st=$?
if [ "$st" = 1 ] && grep -q 'cannot read .*Is a directory' "$tmp/err"; then ok "trace: a directory as the input"
else bad "trace: directory input: status $st"; cat "$tmp/err"; fi

# a signal mid-write: prof-trace -o F reading a pipe that stays open (its
# temporary file made), then SIGTERM: it dies by it, F whole, no
# temporary file left. (The writer's own cases, SIGINT and SIGHUP too,
# are in test_outfile; the runner's partial --out in test_interrupt.)
echo KEEP >"$d/sig"
mkfifo "$tmp/pipe"
timeout 60 sleep 30 >"$tmp/pipe" & holder=$!
timeout 60 "$pt" -o "$d/sig" - <"$tmp/pipe" >/dev/null 2>"$tmp/err" & pid=$!
k=0
while [ $k -lt 200 ] && ! ls -a "$d" | grep -q '\.tmp$'; do sleep 0.05; k=$((k + 1)); done
ls -a "$d" | grep -q '\.tmp$' || bad "trace: no temporary file while reading"
kill -TERM $pid; wait $pid; st=$?
kill $holder 2>/dev/null; wait $holder 2>/dev/null
# timeout passes on the signal and exits 124 (SIGTERM to it) or 143
if [ "$st" = 124 ] || [ "$st" = 143 ]; then
    [ "$(cat "$d/sig")" = KEEP ] && ok "trace: SIGTERM mid-write, the old file whole" \
        || bad "trace: SIGTERM: the file changed"
else bad "trace: SIGTERM: status $st"; cat "$tmp/err"; fi
no_temporary "trace: SIGTERM mid-write"
rm -f "$d/sig" "$tmp/pipe"

# the recorder's trace file, a FIFO with a reader: written in place (its
# first zone once waited, in the check for its own earlier file, for a
# writer while the reader waited for it)
mkfifo "$d/tfifo"
timeout 60 cat "$d/tfifo" >"$tmp/got" & reader=$!
timeout 60 "$tt" "$d/tfifo" >/dev/null 2>"$tmp/err"; st=$?
[ "$st" = 124 ] && timeout 5 sh -c ': >"$1"' sh "$d/tfifo"  # the reader still waits: end it
wait $reader
if [ "$st" = 0 ] && [ "$(head -c 8 "$tmp/got")" = PTRACE01 ] \
   && "$pt" "$tmp/got" 2>/dev/null | grep -q 'zones in 3 threads'; then
    ok "recorder: a FIFO with a reader written as events come"
else bad "recorder: FIFO: status $st, the reader got $(wc -c <"$tmp/got") bytes"; cat "$tmp/err"; fi
rm -f "$d/tfifo"

check_done "outputs data-loss matrix"
