#!/bin/sh
# The data-loss matrix of the trace tools: for every file that
# prof-trace writes (text, CSV, JSON, B/E JSON, raw lines, Perfetto), each error case
# (bad arguments, a missing or non-trace input, an unwritable directory,
# /dev/full, a full disk simulated by a file size limit, the output being
# the input) leaves an existing file byte for byte as it was; a run that
# succeeds replaces it with a complete new report. (The recorder's own
# rows are in test_trace_safety.c and test_trace_record.c.)
# Usage: check_trace_dataloss.sh PROF-TRACE TRACE-FILE
set -u
pt=$1 trace=$2
. "$(dirname "$0")/check_lib.sh"
old="an earlier report that must survive"

# case LABEL STATUS -- command...: run it with $tmp/out.X holding $old
keeps() {
    label=$1 st=$2; shift 3
    printf '%s\n' "$old" >"$tmp/keep"
    "$@" >"$tmp/stdout" 2>"$tmp/stderr"; got=$?
    if [ "$got" -ne "$st" ]; then bad "$label: status $got, not $st"; cat "$tmp/stderr"
    elif [ "$(cat "$tmp/keep")" != "$old" ]; then bad "$label: the existing file changed"
    elif ls -a "$tmp" | grep -q '\.tmp$'; then bad "$label: a temporary file was left"
    else ok "$label"; fi
}

printf 'not a trace\n' >"$tmp/junk"
for fmt in text csv json json-be raw perfetto; do
    keeps "$fmt: bad argument" 2 -- "$pt" --$fmt --bogus -o "$tmp/keep" "$trace"
    keeps "$fmt: bad format value" 2 -- "$pt" --format=bogus -o "$tmp/keep" "$trace"
    keeps "$fmt: missing input" 1 -- "$pt" --$fmt -o "$tmp/keep" "$tmp/none.ptrace"
    keeps "$fmt: not a trace" 1 -- "$pt" --$fmt -o "$tmp/keep" "$tmp/junk"
    keeps "$fmt: output is the input" 2 -- "$pt" --$fmt -o "$tmp/keep" "$tmp/keep"
    # a full disk: every write fails with EFBIG (SIGXFSZ ignored)
    keeps "$fmt: full disk" 1 -- sh -c "trap '' XFSZ; ulimit -f 0; exec \"\$0\" --$fmt -o \"\$1\" \"\$2\"" \
        "$pt" "$tmp/keep" "$trace"
done
# the input, given as the output, is left as it was
cp "$trace" "$tmp/in.ptrace"
"$pt" -o "$tmp/in.ptrace" "$tmp/in.ptrace" 2>"$tmp/stderr"; st=$?
[ "$st" -eq 2 ] && cmp -s "$trace" "$tmp/in.ptrace" && grep -q "is the input" "$tmp/stderr" \
    && ok "input as output: refused, input whole" || bad "input as output: status $st"
# unwritable places: a directory that does not exist, a file as directory
"$pt" -o "$tmp/no/dir/x" "$trace" 2>"$tmp/stderr"; st=$?
[ "$st" -eq 1 ] && grep -q "profiler: cannot open" "$tmp/stderr" && ok "missing directory" \
    || { bad "missing directory: status $st"; cat "$tmp/stderr"; }
"$pt" -o "$tmp/junk/x" "$trace" 2>"$tmp/stderr"; st=$?
[ "$st" -eq 1 ] && cmp -s "$tmp/junk" - <<EOF2
not a trace
EOF2
[ $? -eq 0 ] && ok "file as directory" || bad "file as directory: status $st"
if [ -w /dev/full ]; then
    "$pt" --json -o /dev/full "$trace" 2>"$tmp/stderr"; st=$?
    [ "$st" -eq 1 ] && grep -q "No space left" "$tmp/stderr" && ok "/dev/full" \
        || { bad "/dev/full: status $st"; cat "$tmp/stderr"; }
fi
# success replaces the file with the complete report
for fmt in text csv json json-be raw perfetto; do
    printf '%s\n' "$old" >"$tmp/keep"
    "$pt" --$fmt "$trace" >"$tmp/expected" 2>/dev/null
    "$pt" --$fmt -o "$tmp/keep" "$trace" 2>/dev/null && cmp -s "$tmp/keep" "$tmp/expected" \
        && ok "$fmt: replaced by the complete report" || bad "$fmt: not replaced"
done
check_done "prof-trace data-loss matrix"
