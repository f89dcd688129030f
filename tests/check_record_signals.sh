#!/bin/sh
# prof-trace record stopped by a signal, as a terminal and a shell send
# them: SIGINT to the whole process group (Ctrl-C), SIGTERM and SIGHUP
# to prof-trace alone. Each time the command ends (nothing of the group
# is left running), the trace is whole (read back with its samples and
# their method, no "no end record"), and prof-trace ends by the signal
# (128 + N). Every wait is bounded: a run that hangs is killed and failed.
# Skipped (77) where perf events are refused, or without setsid and ps
# (util-linux, procps).
# Usage: check_record_signals.sh PROF-TRACE SAMPLE-TARGET
set -u
pt=$1 target=$2
. "$(dirname "$0")/check_lib.sh"
for tool in setsid ps; do
    command -v $tool >/dev/null 2>&1 || { echo "no $tool here"; exit 77; }
done

"$pt" record -o "$tmp/probe.ptrace" -- true 2>"$tmp/err"
if grep -q 'perf events refused' "$tmp/err"; then cat "$tmp/err"; exit 77; fi

# alive SID: a process of the session (the group: setsid made both) still
# runs (a zombie waiting for this shell does not)
alive() { ps -o stat= -s "$1" 2>/dev/null | grep -qv '^Z'; }

# stop SIG WHOM STATUS: record the target (60 s of work) in a session and
# process group of its own, then SIG to the group (WHOM group) or to
# prof-trace alone (WHOM one) once the command runs
stop() {
    sig=$1 whom=$2 want=$3 f=$tmp/$1.ptrace
    rm -f "$tmp/pid"
    setsid sh -c 'echo $$ >"$0"; exec "$1" record -o "$2" -- "$3" 60' \
        "$tmp/pid" "$pt" "$f" "$target" 2>"$tmp/err" &
    job=$!
    k=0
    while [ $k -lt 200 ] && ! [ -s "$tmp/pid" ]; do sleep 0.05; k=$((k + 1)); done
    pid=$(cat "$tmp/pid" 2>/dev/null)
    if [ -z "$pid" ]; then bad "$sig: prof-trace did not start"; wait $job; return; fi
    # the command runs (a child of prof-trace) before the signal
    k=0
    while [ $k -lt 200 ] && [ -z "$(ps -o pid= --ppid "$pid" 2>/dev/null)" ]; do
        sleep 0.05; k=$((k + 1)); done
    sleep 0.5
    if [ "$whom" = group ]; then kill -"$sig" "-$pid"; else kill -"$sig" "$pid"; fi
    end=$(($(date +%s) + 20))
    while [ "$(date +%s)" -lt $end ] && alive "$pid"; do sleep 0.1; done
    if alive "$pid"; then
        bad "$sig to the $whom: still running 20 s later: $(ps -o pid=,comm= -s "$pid" | tr '\n' ' ')"
        kill -KILL "-$pid" 2>/dev/null
        wait $job
        return
    fi
    wait $job; st=$?
    kill -KILL "-$pid" 2>/dev/null     # a command left running (a failure below)
    "$pt" "$f" >"$tmp/report" 2>"$tmp/read"
    if [ "$st" != "$want" ]; then bad "$sig to the $whom: status $st, not $want"; cat "$tmp/err"
    elif grep -q 'no end record\|cut' "$tmp/read"; then bad "$sig to the $whom: the trace is cut"; cat "$tmp/read"
    elif ! head -1 "$tmp/report" | grep -q 'samples in .* by perf events'; then
        bad "$sig to the $whom: no samples read back"; head -3 "$tmp/report"
    else ok "$sig to the $whom: the command ended, the trace whole, status $st"; fi
}

stop INT group 130
stop TERM one 143
stop HUP one 129
# the command is never left with SIGINT ignored (it was inherited so)
setsid sh -c 'exec "$0" record -o "$1" -- grep SigIgn /proc/self/status' \
    "$pt" "$tmp/ign.ptrace" >"$tmp/out" 2>"$tmp/err"
mask=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$tmp/out")
if [ -n "$mask" ] && [ $(( 0x$mask & 0x4003 )) = 0 ]; then
    ok "the command's SIGINT, SIGHUP and SIGTERM not ignored (SigIgn $mask)"
else bad "the command's SigIgn: ${mask:-none}"; cat "$tmp/err"; fi
check_done "prof-trace record: signals"
