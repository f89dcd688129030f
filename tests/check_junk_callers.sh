#!/bin/sh
# A frame-pointer chain ends at its first address outside every executable
# mapping: a threaded program built without frame pointers, sampled by
# prof-trace record, and one sampled in process (PROF_SAMPLE_HZ): their
# collapsed stacks and speedscope profiles have no [unknown] caller above
# a named frame. Skipped (77) where perf events are refused.
# Usage: check_junk_callers.sh PROF-TRACE NO-FP-TARGET TEST-SAMPLE-ENV
set -u
pt=$1 target=$2 env=$3
. "$(dirname "$0")/check_lib.sh"
"$pt" record --hz=997 -o "$tmp/r.ptrace" -- "$target" 0.5 2>"$tmp/err"
if grep -q 'perf events refused' "$tmp/err"; then
    cat "$tmp/err"; exit 77
fi
PROF_SAMPLE_HZ=997 PROF_TRACE_FILE=$tmp/e.ptrace "$env" run >/dev/null 2>&1
for t in r e; do
    [ -s "$tmp/$t.ptrace" ] || { bad "$t: no trace"; continue; }
    "$pt" --folded "$tmp/$t.ptrace" >"$tmp/$t.folded" 2>/dev/null
    "$pt" --speedscope "$tmp/$t.ptrace" >"$tmp/$t.json" 2>/dev/null
    n=$(awk '{ print $1 }' "$tmp/$t.folded" | grep -c '\[unknown\][^;]*;')
    s=$(grep -o '"name":"\[unknown\][^"]*"' "$tmp/$t.json" | sort -u | wc -l)
    m=$(wc -l <"$tmp/$t.folded")
    if [ "$m" -gt 0 ] && [ "$n" = 0 ] && [ "$s" -le 2 ]; then
        ok "$t: $m stacks, no [unknown] caller ($s [unknown] leaves)"
    else
        bad "$t: $n [unknown] callers in $m stacks, $s in speedscope"; cat "$tmp/$t.folded"
    fi
done
check_done junk_callers
