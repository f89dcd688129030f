#!/bin/sh
# Stacks of a program built -O2 -fomit-frame-pointer (cfi_target.c: main
# -> drive -> trig_work -> sin/cos, drive -> int_work) reach main when
# its samples carry stack copies unwound by CFI: prof-trace record
# --call-graph=dwarf, and in-process (PROF_SAMPLE_CALL_GRAPH=dwarf) by perf
# events and by the timer fallback: >= 80% of the samples under main, the
# text report saying how they were unwound. Skipped (77) where perf events
# are refused. dwarf,BYTES: a size in 64..65528 only.
# Usage: check_cfi_unwind.sh PROF_TRACE CFI_TARGET
set -u
. "$(dirname "$0")/check_lib.sh"
pt=$1 target=$2
# main's total_pct in prof-trace's CSV of trace $1, as a whole number
main_share() {
    "$pt" --csv "$1" 2>/dev/null | awk -F, '$1 == "main" { printf "%d", $6; f = 1 } END { if (!f) print 0 }'
}
# reach NAME TRACE: main's share >= 80%, and the summary line of the copies
reach() {
    share=$(main_share "$2")
    if [ "$share" -ge 80 ] && "$pt" --text "$2" 2>/dev/null | grep -q 'unwound by CFI'; then
        ok "$1: $share% of the samples reach main"
    else
        bad "$1: $share% of the samples reach main (< 80%)"
        "$pt" --text "$2" 2>&1 | head -12
    fi
}
"$pt" record --call-graph=dwarf -o "$tmp/d.ptrace" -- "$target" 0.6 2>"$tmp/err"
if grep -q 'perf events refused' "$tmp/err"; then
    cat "$tmp/err"; exit 77
fi
reach "record --call-graph=dwarf" "$tmp/d.ptrace"
"$pt" record --call-graph=fp -o "$tmp/f.ptrace" -- "$target" 0.6 2>"$tmp/err"
"$pt" --text "$tmp/f.ptrace" 2>/dev/null | grep -q 'unwound by CFI' \
    && bad "record --call-graph=fp: copies in the trace" \
    || ok "record --call-graph=fp: frame pointers only ($(main_share "$tmp/f.ptrace")% reach main)"
"$pt" record --call-graph=lbr -- true 2>"$tmp/err"
[ $? = 2 ] && grep -q 'not fp, dwarf or dwarf,BYTES' "$tmp/err" && ok "--call-graph=lbr refused" \
    || bad "--call-graph=lbr: $(cat "$tmp/err")"
for cg in dwarf,7 dwarf,65536 dwarf,4k 'dwarf, 4096'; do
    "$pt" record --call-graph="$cg" -- true 2>"$tmp/err"
    [ $? = 2 ] && grep -q 'not fp, dwarf or dwarf,BYTES (64 to 65528)' "$tmp/err" \
        || bad "--call-graph=$cg: $(cat "$tmp/err")"
done
"$pt" record --call-graph=dwarf,4096 -o "$tmp/4.ptrace" -- "$target" 0.3 2>"$tmp/err"
reach "record --call-graph=dwarf,4096" "$tmp/4.ptrace"
PROF_SAMPLE_CALL_GRAPH=dwarf "$target" 0.6 inproc "$tmp/i.ptrace" 2>"$tmp/err" \
    || bad "inproc: $(cat "$tmp/err")"
reach "prof_sample_start, perf events" "$tmp/i.ptrace"
PROF_SAMPLE_CALL_GRAPH=dwarf "$target" 0.8 timer "$tmp/t.ptrace" 2>"$tmp/err" \
    || bad "timer: $(cat "$tmp/err")"
grep -q 'fallback instead' "$tmp/err" || bad "timer: $(cat "$tmp/err")"
reach "prof_sample_start, the timer fallback" "$tmp/t.ptrace"
PROF_SAMPLE_CALL_GRAPH=lbr "$target" 0.1 inproc "$tmp/l.ptrace" 2>"$tmp/err"
grep -q 'PROF_SAMPLE_CALL_GRAPH=lbr: not fp, dwarf or dwarf,BYTES' "$tmp/err" \
    && ok "PROF_SAMPLE_CALL_GRAPH=lbr said" || bad "PROF_SAMPLE_CALL_GRAPH=lbr: $(cat "$tmp/err")"
check_done check_cfi_unwind
