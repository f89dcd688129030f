#!/bin/sh
# prof-trace --diff OLD NEW: of two prof-trace record runs of diff_target
# with its mix swapped (hot/cold 80/20, then 20/80), cold() is listed first
# with its self share grown (+), hot() last, shrunk (-); --folded gives
# difffolded.pl's 'stack OLD NEW' lines whose counts add up to each run's
# samples (the recorded part is skipped where perf events are refused). Of
# make_sampled_trace.py's trace against itself: every change 0.0, every
# line OLD = NEW; an OLD without samples is said. Bad input: a missing or corrupt OLD, an output format
# --diff does not write, an unwritable output: a message and exit 1 or 2,
# nothing written.
# Usage: check_trace_diff.sh PROF-TRACE DIFF_TARGET SCRIPT-DIR
set -u
pt=$1 target=$2 here=$3
. "$(dirname "$0")/check_lib.sh"
"$pt" record --hz=997 -o "$tmp/old.ptrace" -- "$target" 400000 100000 1000 2>"$tmp/err"
if grep -q 'perf events refused' "$tmp/err"; then
    echo "skip: recorded diff: perf events refused"
else
    "$pt" record --hz=997 -o "$tmp/new.ptrace" -- "$target" 100000 400000 1000 2>>"$tmp/err" \
        || bad "record: $(cat "$tmp/err")"
    "$pt" --diff "$tmp/old.ptrace" "$tmp/new.ptrace" >"$tmp/d.txt" 2>"$tmp/err" \
        || bad "--diff: exit $?: $(cat "$tmp/err")"
    # the rows after the header: the first is cold's, grown; the last hot's
    first=$(sed -n '5p' "$tmp/d.txt") last=$(tail -n 1 "$tmp/d.txt")
    if echo "$first" | grep -Eq '^ +[0-9.]+% +[0-9.]+% +\+[0-9.]+% .* cold' \
        && echo "$last" | grep -Eq '^ +[0-9.]+% +[0-9.]+% +-[0-9.]+% .* hot'; then
        ok "cold() grew, first; hot() shrank, last"
    else
        bad "the order or the signs"; cat "$tmp/d.txt"
    fi
    "$pt" --diff "$tmp/old.ptrace" --folded "$tmp/new.ptrace" >"$tmp/d.folded" 2>/dev/null
    sums=$(awk 'NF < 3 { bad = 1 } { o += $(NF-1); n += $NF } END { print (bad ? "bad" : o " " n) }' "$tmp/d.folded")
    want="$(sed -n 's/^old .*: \([0-9]*\) samples.*/\1/p' "$tmp/d.txt") $(sed -n 's/^new .*: \([0-9]*\) samples.*/\1/p' "$tmp/d.txt")"
    if [ "$sums" = "$want" ] && grep -Eq ';cold[^ ]* [0-9]+ [0-9]+$' "$tmp/d.folded"; then
        ok "--folded: stack OLD NEW, the counts add up ($sums)"
    else
        bad "--folded: $sums, want $want"; cat "$tmp/d.folded"
    fi
fi
python3 "$here/make_sampled_trace.py" "$tmp/s.ptrace" || exit 1
"$pt" --diff "$tmp/s.ptrace" "$tmp/s.ptrace" >"$tmp/same.txt" 2>/dev/null
"$pt" --diff "$tmp/s.ptrace" --folded "$tmp/s.ptrace" >"$tmp/same.folded" 2>/dev/null
if [ "$(sed -n '5,$p' "$tmp/same.txt" | grep -Evc '[+-]0\.0% .*[+-]0\.0% ')" = 0 ] \
    && [ "$(sed -n '5,$p' "$tmp/same.txt" | wc -l)" -ge 5 ] \
    && awk '$(NF-1) != $NF { exit 1 }' "$tmp/same.folded" && [ -s "$tmp/same.folded" ]; then
    ok "a trace against itself: no change"
else
    bad "against itself"; cat "$tmp/same.txt" "$tmp/same.folded"
fi
python3 "$here/make_nested_trace.py" "$tmp/z.ptrace" || exit 1
"$pt" --diff "$tmp/z.ptrace" "$tmp/s.ptrace" >/dev/null 2>"$tmp/err"
[ $? = 0 ] && grep -q 'z.ptrace holds no samples' "$tmp/err" \
    && ok "OLD without samples: said" || bad "no samples: $(cat "$tmp/err")"
printf 'not a trace at all' >"$tmp/junk"
for c in "1 missing $tmp/none" "1 corrupt $tmp/junk"; do
    set -- $c
    "$pt" --diff "$3" -o "$tmp/out.txt" "$tmp/s.ptrace" 2>"$tmp/err"
    st=$?
    if [ "$st" = "$1" ] && grep -q '^profiler: prof-trace: ' "$tmp/err" && [ ! -e "$tmp/out.txt" ]; then
        ok "$2 OLD: exit $st, $(cat "$tmp/err")"
    else
        bad "$2 OLD: exit $st, $(cat "$tmp/err")"
    fi
done
"$pt" --diff "$tmp/s.ptrace" --csv "$tmp/s.ptrace" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'text or --folded only' "$tmp/err" && ok "--csv refused" || bad "--csv: $(cat "$tmp/err")"
"$pt" --diff "$tmp/s.ptrace" -o "$tmp/no/dir/x" "$tmp/s.ptrace" 2>"$tmp/err"
[ $? = 1 ] && grep -q '^profiler: ' "$tmp/err" && ok "unwritable: $(cat "$tmp/err")" || bad "unwritable: $(cat "$tmp/err")"
check_done trace_diff
