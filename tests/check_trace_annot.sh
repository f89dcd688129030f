#!/bin/sh
# prof-trace on a trace with every annotation (test_trace_annot's recorded
# one, written to a scratch directory): each output with exact counts,
# --by-value's rows, and a cut copy read with a message, not a crash.
# Usage: check_trace_annot.sh PROF-TRACE TEST_TRACE_ANNOT
set -u
pt=$1 maker=$2
. "$(dirname "$0")/check_lib.sh"
"$maker" "$tmp" >/dev/null || bad "test_trace_annot failed"
f=$tmp/annot-kinds.ptrace
count() { grep -c -- "$1" "$tmp/out" || true; }
"$pt" "$f" >"$tmp/out" 2>"$tmp/err" && grep -q '^1 messages, 11 zone values, 10 zone texts (0 with no zone open)' "$tmp/out" \
    && grep -q '^p  *11  *1  *0  *9  *nan  queue$' "$tmp/out" && grep -q '^F  *10 .* frame$' "$tmp/out" \
    && ok "text: counts, plots, frames" || bad "text: $(cat "$tmp/out" "$tmp/err")"
"$pt" --csv --by-value "$f" >"$tmp/out" && [ "$(count '^u,sized \[')" -eq 7 ] \
    && grep -q '^u,sized \[-1\],4,' "$tmp/out" && grep -q '^queue,11,1,0,9,nan$' "$tmp/out" \
    && ok "csv --by-value: 7 rows of sized, the plot table" || bad "csv: $(cat "$tmp/out")"
"$pt" --raw "$f" >"$tmp/out" && [ "$(count '	plot	a	')" -eq 12 ] && [ "$(count '	value	a	')" -eq 11 ] \
    && [ "$(count '	text	a	file.txt$')" -eq 10 ] && [ "$(count '	message	a	hello$')" -eq 1 ] \
    && [ "$(count '	frame	a	')" -eq 11 ] && ok "raw: 12 plots, 11 values, 10 texts, 1 message, 11 frames" \
    || bad "raw: $(cat "$tmp/out")"
"$pt" --json "$f" >"$tmp/out" && [ "$(count '"ph":"C"')" -eq 12 ] && [ "$(count '"value":')" -eq 11 ] \
    && [ "$(count '"cat":"frame"')" -eq 11 ] && [ "$(count '"NaN"')" -eq 1 ] \
    && ok "json: 12 C events, 11 values, 11 frames, NaN as a string" || bad "json: $(cat "$tmp/out")"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" \
        && ok "json: loads" || bad "json: does not load"
fi
"$pt" --perfetto -o "$tmp/out.pftrace" "$f" && [ -s "$tmp/out.pftrace" ] \
    && ok "perfetto: written" || bad "perfetto"
size=$(wc -c <"$f")
head -c $((size - 100)) "$f" >"$tmp/cut.ptrace"
"$pt" "$tmp/cut.ptrace" >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" -eq 0 ] && grep -q 'prof-trace: .*cut' "$tmp/err" \
    && ok "a cut trace: read, said" || bad "cut: rc $rc, $(cat "$tmp/err")"
check_done check_trace_annot
