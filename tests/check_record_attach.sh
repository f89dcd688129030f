#!/bin/sh
# prof-trace record -p on a running program (attach_target: two threads
# spinning, a third started at SIGUSR1 after the attach): SIGINT ends it
# with the trace whole and the signal's status, the three threads sampled
# and their functions named; --duration ends it (0); the program's exit
# ends it (0); --children takes in a child process started after the
# attach, and only then. Refused, each with its message and status 2: a
# process that does not exist (no file written), one of another user (run
# as root: setpriv to nobody), bad words; a zombie: the trace written,
# saying so. Processes that end as they are attached: never a hang. Every
# prof-trace is bounded by timeout, every target killed at the end.
# Skipped (77) where perf events are refused.
# Usage: check_record_attach.sh PROF-TRACE ATTACH-TARGET
set -u
pt=$1 target=$2
. "$(dirname "$0")/check_lib.sh"
kids=""
trap 'for k in $kids; do kill -KILL $k 2>/dev/null; done; check_cleanup' EXIT
command -v timeout >/dev/null 2>&1 || { echo "no timeout here"; exit 77; }

"$pt" record -o "$tmp/probe.ptrace" -- true 2>"$tmp/err"
if grep -q 'perf events refused' "$tmp/err"; then cat "$tmp/err"; exit 77; fi

# start NAME ARGS...: prof-trace ARGS in the background, at most 60 s; its
# pid in $tmp/NAME.pid, its stderr in $tmp/NAME.err, the job in $job
start() {
    name=$1; shift
    timeout -k 5 60 sh -c 'echo $$ >"$0"; exec "$@"' "$tmp/$name.pid" "$pt" "$@" \
        2>"$tmp/$name.err" &
    job=$!
}
# attached NAME: prof-trace NAME said it samples (within 20 s)
attached() {
    k=0
    while [ $k -lt 400 ] && ! grep -q 'sampling process' "$tmp/$1.err" 2>/dev/null; do
        sleep 0.05; k=$((k + 1)); done
    grep -q 'sampling process' "$tmp/$1.err"
}
# target ARGS...: attach_target in the background, its pid in $tpid
target() { "$target" "$@" & tpid=$!; kids="$kids $tpid"; sleep 0.3; }
# folded NAME: the trace's collapsed stacks into $tmp/NAME.folded, its
# reader's warnings into $tmp/NAME.read
folded() { "$pt" --folded "$tmp/$1.ptrace" >"$tmp/$1.folded" 2>"$tmp/$1.read"; }
# threads NAME FUNCTIONS...: the threads whose stacks hold one of them
threads() {
    f=$tmp/$1.folded; shift
    for fn in "$@"; do grep "$fn" "$f"; done | sed 's/;.*//' | sort -u | wc -l
}

# SIGINT (Ctrl-C) ends it: status 130, the trace whole, all three threads
target 30 1000
start int record -p "$tpid" -o "$tmp/int.ptrace"
if attached int; then
    kill -USR1 "$tpid"            # the third thread, started after the attach
    sleep 1.5
    kill -INT "$(cat "$tmp/int.pid")"
fi
wait $job; st=$?
kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null
folded int
if [ $st != 130 ]; then bad "SIGINT: status $st, not 130"; cat "$tmp/int.err"
elif grep -q 'no end record\|cut' "$tmp/int.read"; then bad "SIGINT: the trace is cut"; cat "$tmp/int.read"
else
    missing=""
    for fn in spin_main spin_first spin_late; do
        grep -q "$fn" "$tmp/int.folded" || missing="$missing $fn"; done
    n=$(threads int spin_main spin_first spin_late)
    if [ -n "$missing" ] || [ "$n" -lt 3 ]; then
        bad "SIGINT: not sampled:$missing; $n threads"; cat "$tmp/int.err" "$tmp/int.folded"
    else ok "SIGINT: status 130, the trace whole, 3 threads named (one started after the attach)"; fi
fi

# --duration ends it (status 0), two processes (one named twice) sampled
target 30 0.2; t1=$tpid
target 30 0.2; t2=$tpid
start dur record -p "$t1,$t2,$t1" --duration=1 -o "$tmp/dur.ptrace"
wait $job; st=$?
kill "$t1" "$t2" 2>/dev/null; wait "$t1" "$t2" 2>/dev/null
folded dur
if [ $st = 0 ] && [ "$(threads dur spin_)" -ge 6 ] && grep -q "^thread $t1;" "$tmp/dur.folded" \
   && grep -q "^thread $t2;" "$tmp/dur.folded"; then ok "--duration=1, two processes: status 0, 6 threads"
else bad "--duration=1: status $st, $(threads dur spin_) threads"; cat "$tmp/dur.err"; fi

# the program's exit ends it (status 0)
target 1.5 0.2
start exit record -p "$tpid" -o "$tmp/exit.ptrace"
wait $job; st=$?
wait "$tpid" 2>/dev/null
folded exit
if [ $st = 0 ] && grep -q spin_ "$tmp/exit.folded"; then ok "the program's exit: status 0, sampled"
else bad "the program's exit: status $st"; cat "$tmp/exit.err"; fi

# a soft limit of 8 open files (a file descriptor per thread and CPU):
# raised to the hard limit, the threads sampled
target 30 0.2
(ulimit -Sn 8 && exec timeout -k 5 60 "$pt" record -p "$tpid" --duration=0.5 \
    -o "$tmp/files.ptrace") 2>"$tmp/files.err"; st=$?
kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null
folded files
if [ $st = 0 ] && [ "$(threads files spin_)" -ge 3 ]; then ok "ulimit -Sn 8: raised, 3 threads"
else bad "ulimit -Sn 8: status $st, $(threads files spin_) threads"; cat "$tmp/files.err"; fi

# a process whose main thread has ended (pthread_exit) still runs: sampled
target 3 0 leader-exit
start leader record -p "$tpid" -o "$tmp/leader.ptrace"
wait $job; st=$?
wait "$tpid" 2>/dev/null
folded leader
if [ $st = 0 ] && grep -q spin_first "$tmp/leader.folded"; then
    ok "a process whose main thread ended: sampled until its end, status 0"
else bad "main thread ended: status $st"; cat "$tmp/leader.err"; fi

# --children: a child process started after the attach is sampled, and
# without it is not
for mode in children threads; do
    target 30 1000 fork
    if [ $mode = children ]; then start $mode record --children -p "$tpid" -o "$tmp/$mode.ptrace"
    else start $mode record -p "$tpid" -o "$tmp/$mode.ptrace"; fi
    attached $mode && kill -USR1 "$tpid" && sleep 1.5 && kill -INT "$(cat "$tmp/$mode.pid")"
    wait $job; st=$?
    kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null
    folded $mode
    if [ $mode = children ] && ! grep -q spin_child "$tmp/$mode.folded"; then
        bad "--children: the child not sampled (status $st)"; cat "$tmp/$mode.err"
    elif [ $mode = threads ] && grep -q spin_child "$tmp/$mode.folded"; then
        bad "without --children: the child sampled"
    elif [ $mode = children ]; then ok "-p --children: a child started after the attach sampled"
    else ok "-p: a child started after the attach not sampled"; fi
done

# a process that does not exist: 2, the message, no file
max=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 4194304)
timeout -k 5 30 "$pt" record -p "$max" -o "$tmp/none.ptrace" 2>"$tmp/err"; st=$?
if [ $st = 2 ] && grep -q 'no such process' "$tmp/err" && [ ! -e "$tmp/none.ptrace" ]; then
    ok "a process that does not exist: $(cat "$tmp/err")"
else bad "no such process: status $st, $(cat "$tmp/err")"; fi

# bad words: status 2 and a message each
check_bad() {
    want=$1; shift
    timeout -k 5 30 "$pt" record "$@" 2>"$tmp/err"; st=$?
    if [ $st = 2 ] && grep -q -- "$want" "$tmp/err"; then ok "record $*: refused"
    else bad "record $*: status $st: $(cat "$tmp/err")"; fi
}
check_bad 'no process id' -p 12x -o "$tmp/bad.ptrace"
check_bad 'no process id' -p "$$,,1" -o "$tmp/bad.ptrace"
check_bad 'one or the other' -p "$$" -o "$tmp/bad.ptrace" -- true
check_bad 'duration' -p "$$" --duration=0 -o "$tmp/bad.ptrace"
check_bad 'duration' -p "$$" --duration=x -o "$tmp/bad.ptrace"
check_bad 'needs -p' --duration=1 -o "$tmp/bad.ptrace" -- true

# a zombie (ended, not reaped): the trace written, saying so, status 2
sh -c 'sleep 0.1 & echo $! >"$0"; exec sleep 20' "$tmp/zpid" & zparent=$!
kids="$kids $zparent"
sleep 1
timeout -k 5 30 "$pt" record -p "$(cat "$tmp/zpid")" -o "$tmp/z.ptrace" 2>"$tmp/err"; st=$?
kill "$zparent" 2>/dev/null; wait "$zparent" 2>/dev/null
if [ $st = 2 ] && grep -q 'ended as it was attached' "$tmp/err" \
   && "$pt" "$tmp/z.ptrace" >/dev/null 2>&1; then ok "a zombie: status 2, said, the trace written"
else bad "a zombie: status $st: $(cat "$tmp/err")"; fi

# processes ending as they are attached: no hang, 0 or 2
hung=0
for i in 1 2 3 4 5 6 7 8; do
    sleep 0.0$i & p=$!
    timeout -k 5 30 "$pt" record -p "$p" -o "$tmp/race.ptrace" 2>"$tmp/err"; st=$?
    wait $p
    case $st in 0|2) ;; *) hung=$((hung + 1)); echo "run $i: status $st"; cat "$tmp/err";; esac
done
if [ $hung = 0 ]; then ok "8 processes ending as attached: each ended (0 or 2)"
else bad "$hung of 8 processes ending as attached: hung or failed"; fi

# another user's process (as root: prof-trace as nobody): may not trace
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 \
   && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$pt"; then
    target 30 1000
    chmod 711 "$tmp" && mkdir "$tmp/nobody" && chmod 777 "$tmp/nobody"
    timeout -k 5 30 setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$pt" record -p "$tpid" -o "$tmp/nobody/x.ptrace" 2>"$tmp/err"; st=$?
    kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null
    if [ $st = 2 ] && grep -q 'may not trace\|perf events refused' "$tmp/err" \
       && [ ! -e "$tmp/nobody/x.ptrace" ]; then ok "another user's process: $(cat "$tmp/err")"
    else bad "another user's process: status $st: $(cat "$tmp/err")"; fi
else echo "skip: another user's process (needs root, setpriv, and $pt open to nobody)"; fi

check_done "prof-trace record -p"
